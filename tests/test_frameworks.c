/* The frameworks workload: the child process runner's limits, the loss check, the table, the
 * workload with Debian's PyTorch, fake interpreters that misbehave, and the advisor's measured
 * reason. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "knowledge/advisor.h"
#include "knowledge/presets.h"
#include "knowledge/probe_store.h"
#include "probes/advisor_hw.h"
#include "probes/child.h"
#include "probes/frameworks.h"
#include "probes/run_table.h"
#include "tests/support.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* --- the loss check ---------------------------------------------------------------------------- */

/* Within 1e-4 relative of the engine's: against 5.0 the band is 5.0 +- 5e-4. */
Test(frameworks, loss_agreement_on_both_sides_of_the_tolerance)
{
    cr_expect(probe_fw_loss_agrees(5.0, 5.0));
    cr_expect(probe_fw_loss_agrees(5.0 + 4.9e-4, 5.0));
    cr_expect(probe_fw_loss_agrees(5.0 - 4.9e-4, 5.0));
    cr_expect_not(probe_fw_loss_agrees(5.0 + 5.1e-4, 5.0));
    cr_expect_not(probe_fw_loss_agrees(5.0 - 5.1e-4, 5.0));
    cr_expect_not(probe_fw_loss_agrees(2.3, 5.0), "another model's loss");
    cr_expect_not(probe_fw_loss_agrees(NAN, 5.0));
    cr_expect_not(probe_fw_loss_agrees(5.0, INFINITY));
}

/* --- the child runner ---------------------------------------------------------------------------- */

struct lines {
    int n;
    char text[8][64];
    int refuse_at; /* 1-based line at which to ask for the kill; 0 never */
};

static int on_line(void *ctx, const char *line)
{
    struct lines *l = ctx;
    if (l->n < 8) snprintf(l->text[l->n], sizeof l->text[0], "%s", line);
    l->n++;
    return l->refuse_at && l->n >= l->refuse_at;
}

static void run_sh(const char *script, const struct probe_child_limits *lim, struct lines *l, struct probe_child_result *r)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    cr_assert_eq(probe_child_run(argv, NULL, lim, on_line, l, r), 0, "%s", r->err_tail);
}

Test(frameworks, child_lines_exit_status_and_stderr)
{
    struct lines l = {0};
    struct probe_child_result r;
    struct probe_child_limits lim = {10, 0, NULL};
    run_sh("printf 'one\\ntwo\\nthree'; echo 'it went wrong' >&2; exit 3", &lim, &l, &r);
    cr_expect_eq(r.end, PROBE_CHILD_EXITED);
    cr_expect_eq(r.code, 3);
    cr_expect_eq(l.n, 3, "the last line has no newline and still counts");
    cr_expect_str_eq(l.text[0], "one");
    cr_expect_str_eq(l.text[2], "three");
    char why[300];
    probe_child_describe(&r, &lim, why, sizeof why);
    cr_expect_str_eq(why, "exited with status 3: it went wrong");
}

Test(frameworks, child_crash_names_the_signal)
{
    struct lines l = {0};
    struct probe_child_result r;
    struct probe_child_limits lim = {10, 0, NULL};
    run_sh("kill -SEGV $$", &lim, &l, &r);
    cr_expect_eq(r.end, PROBE_CHILD_SIGNALED);
    cr_expect_eq(r.code, SIGSEGV);
    char why[300];
    probe_child_describe(&r, &lim, why, sizeof why);
    cr_expect(strstr(why, "crashed (signal 11") == why, "%s", why);
}

/* A hang ends at the time limit: killed after 1 s, not before, and well before the sleep's 30. */
Test(frameworks, child_time_limit)
{
    struct lines l = {0};
    struct probe_child_result r;
    struct probe_child_limits lim = {1, 0, NULL};
    double t0 = now_s();
    run_sh("echo started; sleep 30", &lim, &l, &r);
    double took = now_s() - t0;
    cr_expect_eq(r.end, PROBE_CHILD_TIMEOUT);
    cr_expect_eq(l.n, 1, "what it said before the limit is kept");
    cr_expect_geq(took, 1.0);
    cr_expect_lt(took, 5.0);
    char why[300];
    probe_child_describe(&r, &lim, why, sizeof why);
    cr_expect_str_eq(why, "timed out after 1 s (the limit)");
}

static volatile sig_atomic_t stop_flag;
static void *set_stop_later(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 300 * 1000 * 1000};
    nanosleep(&ts, NULL);
    stop_flag = 1;
    return NULL;
}

/* The stop flag, set from another thread 0.3 s in, ends the child within a second. */
Test(frameworks, child_cancel_within_a_second)
{
    struct lines l = {0};
    struct probe_child_result r;
    struct probe_child_limits lim = {60, 0, &stop_flag};
    stop_flag = 0;
    pthread_t t;
    pthread_create(&t, NULL, set_stop_later, NULL);
    double t0 = now_s();
    run_sh("sleep 30", &lim, &l, &r);
    double took = now_s() - t0;
    pthread_join(t, NULL);
    cr_expect_eq(r.end, PROBE_CHILD_STOPPED);
    double limit = 0.3 + ts_seconds_at_pace(1.0);
    cr_expect_lt(took, limit, "%.2f s (0.3 s and a second at this pace: %.2f s)", took, limit);
}

/* 300 MB touched against a 100 MB limit: stopped. The same under a 2 GB limit ends by itself. */
Test(frameworks, child_memory_limit)
{
    if (access("/usr/bin/python3", X_OK) != 0) cr_skip_test("no /usr/bin/python3");
    const char *argv[] = {"/usr/bin/python3", "-c", "import time; b = bytearray(300 << 20); time.sleep(0.8)", NULL};
    for (int big = 0; big < 2; big++) {
        struct probe_child_limits lim = {30, big ? (uint64_t)2 << 30 : (uint64_t)100 << 20, NULL};
        struct probe_child_result r;
        cr_assert_eq(probe_child_run(argv, NULL, &lim, NULL, NULL, &r), 0);
        if (big) {
            cr_expect_eq(r.end, PROBE_CHILD_EXITED);
            cr_expect_eq(r.code, 0);
            cr_expect_gt(r.peak_rss_bytes, (uint64_t)280 << 20, "%llu", (unsigned long long)r.peak_rss_bytes);
        } else {
            cr_expect_eq(r.end, PROBE_CHILD_MEMORY);
            char why[300];
            probe_child_describe(&r, &lim, why, sizeof why);
            cr_expect(strstr(why, "stopped above the memory limit of 0.1 GB") == why, "%s", why);
        }
    }
}

/* Output that makes no sense stops it at once; a helper left running in its group goes too. */
Test(frameworks, child_refused_output_and_leftover_helpers)
{
    struct lines l = {.refuse_at = 2};
    struct probe_child_result r;
    struct probe_child_limits lim = {20, 0, NULL};
    double t0 = now_s();
    run_sh("yes nonsense", &lim, &l, &r);
    cr_expect_eq(r.end, PROBE_CHILD_REFUSED);
    cr_expect_lt(now_s() - t0, 3.0);
    struct lines l2 = {0};
    t0 = now_s();
    run_sh("sleep 30 & echo started", &lim, &l2, &r); /* the sleep holds the pipe */
    cr_expect_eq(r.end, PROBE_CHILD_EXITED);
    cr_expect_lt(now_s() - t0, 3.0);
}

Test(frameworks, child_that_cannot_start)
{
    const char *argv[] = {"/nonexistent/python3", NULL};
    struct probe_child_result r;
    cr_expect_eq(probe_child_run(argv, NULL, NULL, NULL, NULL, &r), -1);
    cr_expect(strstr(r.err_tail, "cannot run /nonexistent/python3: No such file") != NULL, "%s", r.err_tail);
}

/* --- the table ------------------------------------------------------------------------------------ */

/* A GPT on the CPU: the engine 20 ms, JAX 10 ms, PyTorch 25 ms (512 tokens a step); one row that
 * did not run. x ENGINE = 20 / t, x BEST = 10 / t; JAX's 512 tokens / 0.010 s = 51200 tokens/s. */
static const char table_doc[] =
    "{\"id\": \"R1\", \"frameworks\": {\"models\": {\"mlp\": {\"layers\": \"784,1024,1024,10\", \"batch\": 256},"
    " \"gpt\": {\"n_layer\": 4, \"n_head\": 4, \"n_embd\": 128, \"ctx\": 64, \"vocab\": 256, \"batch\": 8}},"
    " \"interpreters\": [{\"path\": \"/usr/bin/python3\", \"version\": \"3.11.2\", \"frameworks\":"
    " [{\"id\": \"jax\", \"version\": \"0.4.30\", \"devices\": \"cpu\"}]}]},"
    " \"results\": ["
    "{\"workload\": \"gemm\", \"device\": \"cpu\", \"metric\": \"gflops\", \"unit\": \"GFLOP/s\", \"status\": \"ok\", \"median\": 100},"
    "{\"workload\": \"frameworks\", \"device\": \"cpu\", \"metric\": \"step_ms\", \"unit\": \"ms\", \"status\": \"ok\","
    " \"median\": 25, \"cv\": 0.01, \"params\": {\"framework\": \"pytorch\", \"mode\": \"eager\", \"model\": \"gpt\","
    " \"per_step\": 512, \"kind\": \"cpu\", \"python\": 0}},"
    "{\"workload\": \"frameworks\", \"device\": \"cpu\", \"metric\": \"step_ms\", \"unit\": \"ms\", \"status\": \"skipped\","
    " \"reason\": \"timed out after 3 s (the limit)\", \"params\": {\"framework\": \"tensorflow\", \"mode\": \"xla\","
    " \"model\": \"gpt\", \"python\": 0}},"
    "{\"workload\": \"frameworks\", \"device\": \"cpu\", \"metric\": \"step_ms\", \"unit\": \"ms\", \"status\": \"ok\","
    " \"median\": 20, \"cv\": 0.02, \"params\": {\"framework\": \"engine\", \"mode\": \"openblas\", \"model\": \"gpt\","
    " \"per_step\": 512, \"kind\": \"cpu\"}},"
    "{\"workload\": \"frameworks\", \"device\": \"cpu\", \"metric\": \"step_ms\", \"unit\": \"ms\", \"status\": \"ok\","
    " \"median\": 10, \"cv\": 0.08, \"noisy\": true, \"params\": {\"framework\": \"jax\", \"mode\": \"jit\", \"model\": \"gpt\","
    " \"per_step\": 512, \"kind\": \"cpu\", \"python\": 0}}]}";

Test(frameworks, table_orders_by_speed_and_relates_to_engine_and_fastest)
{
    cJSON *doc = cJSON_Parse(table_doc);
    cr_assert_not_null(doc);
    struct probe_fw_table *t = malloc(sizeof *t);
    probe_fw_table_build(doc, t);
    cr_assert_eq(t->nrows, 4);
    cr_expect_eq(t->ntimed, 3);
    const char *order[] = {"JAX", "engine", "PyTorch", "TensorFlow"};
    for (int i = 0; i < 4; i++) cr_expect_str_eq(t->rows[i].cell[FC_FRAMEWORK], order[i]);
    cr_expect_str_eq(t->rows[0].cell[FC_VS_ENGINE], "2.00x");
    cr_expect_str_eq(t->rows[0].cell[FC_VS_BEST], "1.00x");
    cr_expect_str_eq(t->rows[0].cell[FC_RATE], "51200");
    cr_expect_str_eq(t->rows[0].cell[FC_CV], "8!");
    cr_expect(t->rows[0].fastest && t->rows[0].noisy);
    cr_expect_str_eq(t->rows[1].cell[FC_VS_ENGINE], "1.00x");
    cr_expect_str_eq(t->rows[1].cell[FC_VS_BEST], "0.50x");
    cr_expect_str_eq(t->rows[2].cell[FC_VS_ENGINE], "0.80x");
    cr_expect_str_eq(t->rows[2].cell[FC_VS_BEST], "0.40x");
    cr_expect_str_eq(t->rows[2].cell[FC_RATE], "20480");
    cr_expect(t->rows[3].skipped);
    cr_expect_str_eq(t->rows[3].reason, "TensorFlow xla GPT cpu: timed out after 3 s (the limit)");
    cr_expect_str_eq(probe_fw_header(FC_RATE, 1), "TOKENS/S");
    cr_expect(strstr(t->title[1], "GPT 4 layers x 128 wide") == t->title[1], "%s", t->title[1]);
    cr_expect_eq(t->nfound, 1);
    cr_expect_str_eq(t->found[0], "/usr/bin/python3 (Python 3.11.2): JAX 0.4.30 [cpu]");
    /* the results table marks these rows for this one, one row per result as ever */
    struct probe_table *rt = malloc(sizeof *rt);
    probe_table_build(doc, NULL, rt);
    cr_assert_eq(rt->nrows, 5);
    cr_expect_not(rt->rows[0].frameworks);
    for (int i = 1; i < 5; i++) cr_expect(rt->rows[i].frameworks);
    cr_expect_str_eq(rt->rows[1].cell[PT_PARAMS], "pytorch eager gpt");
    free(rt);
    free(t);
    cJSON_Delete(doc);
}

/* --- the advisor's measured reason ----------------------------------------------------------------- */

Test(frameworks, speeds_from_a_run_keep_only_timed_rows)
{
    cJSON *doc = cJSON_Parse(table_doc);
    struct adv_fw_speeds s;
    probe_fw_speeds_from_run(doc, &s);
    cr_expect_eq(s.count, 3, "pytorch, engine and jax; not the row that timed out");
    cr_expect_str_eq(s.run, "R1");
    cr_expect_str_eq(s.models[1], "4-layer GPT");
    cr_expect_str_eq(s.models[0], "MLP 784-1024-1024-10");
    cr_expect_str_eq(s.rows[2].framework, "jax");
    cr_expect_float_eq(s.rows[2].step_s, 0.010, 1e-12);
    cJSON_Delete(doc);
}

/* The reason of one framework on the single-device speed criterion, or "" when it has none. */
static void speed_reason(const struct adv_result *res, const char *framework, char *out, size_t n)
{
    out[0] = '\0';
    for (int i = 0; i < res->ranking.count; i++) {
        const struct adv_framework *f = &res->ranking.items[i];
        if (strcmp(f->id, framework)) continue;
        for (int k = 0; k < f->nreasons; k++)
            if (strstr(f->reasons[k].label, "Single-device training speed"))
                snprintf(out, n, "%s", f->reasons[k].label);
    }
}

/* JAX jit 10 ms against PyTorch eager 13.5 ms for the GPT on the CPU: 1.35x. Cited for
 * hardware cpu; not for nvidia, where nothing was measured, until a GPU run exists. */
Test(frameworks, advisor_cites_a_run_only_for_the_hardware_it_measured)
{
    struct ts_advisor fx;
    char err[512], text[400];
    cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err);
    struct adv_hw hw;
    memset(&hw, 0, sizeof hw);
    struct adv_fw_speeds *s = &hw.fw_speeds;
    s->count = 3;
    snprintf(s->run, sizeof s->run, "20261201-090000");
    snprintf(s->models[1], sizeof s->models[1], "4-layer GPT");
    s->rows[0] = (struct adv_fw_speed){"jax", "jit", "cpu", 1, 0.010};
    s->rows[1] = (struct adv_fw_speed){"pytorch", "eager", "cpu", 1, 0.0135};
    s->rows[2] = (struct adv_fw_speed){"engine", "openblas", "cpu", 1, 0.005}; /* never a peer */
    for (int gpu = 0; gpu < 3; gpu++) {
        struct answers a;
        answers_init(&a);
        const char *text_in = gpu ? "{\"hardware\": \"nvidia\"}" : "{\"hardware\": \"cpu\"}";
        cr_assert_eq(answers_parse_json(&a, text_in, strlen(text_in), "t", err, sizeof err), 0, "%s", err);
        if (gpu == 2) /* the same figures measured on the GPU */
            for (int i = 0; i < 3; i++) snprintf(s->rows[i].kind, sizeof s->rows[i].kind, "nvidia");
        cr_assert_eq(adv_recommend(fx.akb, &a, &hw, fx.res, err, sizeof err), KB_OK, "%s", err);
        speed_reason(fx.res, "jax", text, sizeof text);
        cr_assert(text[0]);
        if (gpu == 1) {
            cr_expect_null(strstr(text, "measured"), "%s", text);
            continue;
        }
        cr_expect(strstr(text, "; measured: on this machine JAX jit ran the 4-layer GPT 1.35x faster than PyTorch eager, "
                               "the next fastest (probe run 20261201-090000)"), "%s", text);
        speed_reason(fx.res, "pytorch", text, sizeof text);
        cr_expect(strstr(text, "PyTorch eager ran the 4-layer GPT 1.35x slower than JAX jit, the fastest"), "%s", text);
        speed_reason(fx.res, "tensorflow", text, sizeof text);
        cr_expect_null(strstr(text, "measured"), "not measured: %s", text);
    }
    ts_advisor_close(&fx);
}

static const char *plain_name(const void *ctx, const char *id)
{
    (void)ctx;
    return !strcmp(id, "pytorch") ? "PyTorch" : id;
}

/* A probe run's framework rows, as the advisor is handed them. */
static void speeds_of(struct adv_fw_speeds *s, const char *run, const struct adv_fw_speed *rows, int n)
{
    memset(s, 0, sizeof *s);
    snprintf(s->run, sizeof s->run, "%s", run);
    for (s->count = 0; s->count < n; s->count++) s->rows[s->count] = rows[s->count];
}

/* Alone with the engine: the ratio to it (0.005 / 0.0135 = 0.37x, at 0.37 of its speed). */
Test(frameworks, measured_speed_against_the_engine_alone)
{
    struct adv_fw_speeds s;
    speeds_of(&s, "R2", (const struct adv_fw_speed[]){{"pytorch", "eager", "cpu", 0, 0.0135},
                                                       {"engine", "openblas", "cpu", 0, 0.005}}, 2);
    snprintf(s.models[0], sizeof s.models[0], "MLP 784-1024-1024-10");
    char out[300];
    cr_assert(adv_measured_speed(&s, "cpu", "pytorch", plain_name, NULL, out, sizeof out));
    cr_expect_str_eq(out, "on this machine PyTorch eager ran the MLP 784-1024-1024-10 at 0.37x the speed of this "
                          "program's engine, the only other measured (probe run R2)");
    cr_expect_not(adv_measured_speed(&s, "cpu", "engine", plain_name, NULL, out, sizeof out), "the engine is no framework");
    cr_expect_not(adv_measured_speed(&s, "cpu", "jax", plain_name, NULL, out, sizeof out), "not measured");
    cr_expect_not(adv_measured_speed(&s, "apple", "pytorch", plain_name, NULL, out, sizeof out), "other hardware");
}

/* Against the fastest of the other frameworks, each at its fastest mode, the engine never one of
 * them. PyTorch's best is compile 0.5 s; JAX 0.5025 s is the nearest, TensorFlow 0.9 s the
 * slowest. 0.5025 / 0.5 is the double nearest 1.005 itself (halving is exact), so the ratio sits
 * on the boundary: shown (1.00x, %.2f of 1.00499...); JAX at 0.50249 gives 1.00498, below it:
 * as fast. TensorFlow: 0.9 / 0.5 = 1.80x slower than the fastest, PyTorch compile. */
Test(frameworks, measured_speed_against_the_fastest_other_and_the_tie_boundary)
{
    struct adv_fw_speeds s;
    speeds_of(&s, "R3", (const struct adv_fw_speed[]){{"pytorch", "eager", "cpu", 0, 0.6},
                                                       {"pytorch", "compile", "cpu", 0, 0.5},
                                                       {"jax", "jit", "cpu", 0, 0.5025},
                                                       {"tensorflow", "function", "cpu", 0, 0.9},
                                                       {"engine", "openblas", "cpu", 0, 0.1}}, 5);
    char out[300];
    cr_assert(adv_measured_speed(&s, "cpu", "pytorch", plain_name, NULL, out, sizeof out));
    cr_expect_str_eq(out, "on this machine PyTorch compile ran the MLP 1.00x faster than jax jit, the next fastest "
                          "(probe run R3)");
    cr_assert(adv_measured_speed(&s, "cpu", "tensorflow", plain_name, NULL, out, sizeof out));
    cr_expect_str_eq(out, "on this machine tensorflow function ran the MLP 1.80x slower than PyTorch compile, the "
                          "fastest (probe run R3)");
    s.rows[2].step_s = 0.50249;
    cr_assert(adv_measured_speed(&s, "cpu", "pytorch", plain_name, NULL, out, sizeof out));
    cr_expect_str_eq(out, "on this machine PyTorch compile ran the MLP as fast as jax jit (probe run R3)");
}

/* The advisor is handed the newest stored run that measured the frameworks, even when a later
 * run measured something else. */
Test(frameworks, advisor_hardware_finds_the_latest_run_with_frameworks)
{
    struct ts_kb t;
    char err[512];
    cr_assert_eq(ts_kb_open(&t, err, sizeof err), 0, "%s", err);
    cJSON *with = cJSON_Parse(table_doc);
    cr_assert_eq(kb_probe_save(t.kb, with, err, sizeof err), KB_OK, "%s", err);
    cJSON *later = cJSON_Parse("{\"id\": \"R9\", \"started_at\": \"2099-01-01T00:00:00Z\", \"results\": []}");
    cr_assert_eq(kb_probe_save(t.kb, later, err, sizeof err), KB_OK, "%s", err);
    struct adv_hw *hw = calloc(1, sizeof *hw);
    cr_assert_eq(probe_advisor_hardware(t.kb, "latest", NULL, 0, hw, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(hw->fw_speeds.count, 3);
    cr_expect_str_eq(hw->fw_speeds.run, "R1");
    cr_assert_eq(probe_advisor_hardware(t.kb, "R9", NULL, 0, hw, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(hw->fw_speeds.count, 0, "a run named by id is that run alone");
    cr_assert_eq(probe_advisor_hardware(t.kb, "R1", NULL, 0, hw, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(hw->fw_speeds.count, 3, "and a named run with frameworks gives them");
    cr_expect_str_eq(hw->fw_speeds.run, "R1");
    free(hw);
    cJSON_Delete(with);
    cJSON_Delete(later);
    ts_kb_close(&t);
}

/* --- the workload ----------------------------------------------------------------------------------- */

static const struct probe_result *row_of(const struct probe_run *run, const char *framework, const char *mode,
                                         const char *model)
{
    int m = strcmp(model, "gpt") == 0 ? 1 : strcmp(model, "mlp") == 0 ? 0 : -1;
    for (int i = 0; i < run->nresults; i++) {
        const struct probe_params *p = &run->results[i].params;
        if (!strcmp(run->results[i].workload, "frameworks") && p->shape == PROBE_PP_FRAMEWORK &&
            !strcmp(p->framework, framework) && !strcmp(p->mode, mode) && p->model == m)
            return &run->results[i];
    }
    return NULL;
}

/* python3 at /usr/bin whose `import` of `code` works (Debian's python3-torch), else 0. */
static int debian_python_runs(const char *code)
{
    struct ts_run r;
    const char *check[] = {"-c", code, NULL};
    int ok = access("/usr/bin/python3", X_OK) == 0 && ts_exec(&r, "/usr/bin/python3", NULL, NULL, check) == 0;
    if (ok) ok = r.status == 0, ts_run_free(&r);
    return ok;
}

/* A run of this machine and the options of a smoke-sized frameworks workload, one thread, with
 * these interpreters. */
static struct probe_run *fw_setup(struct probe_options *o, const char **pythons, int npythons)
{
    unsetenv("FWADVISOR_SYSROOT");
    unsetenv("HWLOC_XMLFILE");
    struct probe_run *run = calloc(1, sizeof *run);
    strcpy(run->id, "fw-test");
    strcpy(run->started_at, "2026-12-01T00:00:00Z");
    strcpy(run->version, "test");
    probe_detect(&run->hw);
    memset(o, 0, sizeof *o);
    o->smoke = 1;
    o->threads = 1;
    o->cpu_only = 1;
    o->workloads = probe_workload_bit(PROBE_WL_FRAMEWORKS);
    o->pythons = pythons;
    o->npythons = npythons;
    strcpy(o->device, "cpu");
    return run;
}

/* Debian's python3-torch trains the engine's MLP and GPT: both rows timed, their first-step
 * losses the engine's within 1e-4, torch.compile said to need PyTorch 2 where it is 1.x; the
 * document validates against the schema. */
Test(frameworks, debian_pytorch_trains_the_same_models, .timeout = 240)
{
    if (!debian_python_runs("import torch, numpy")) cr_skip_test("Debian's python3-torch is not installed");
    const char *pythons[] = {"/usr/bin/python3"};
    struct probe_options o;
    struct probe_run *run = fw_setup(&o, pythons, 1);
    cr_assert_eq(probe_run_workloads(run, &o), 0);
    cr_assert(run->frameworks.ran);
    cr_assert_eq(run->frameworks.npythons, 1);
    const struct probe_fw_python *py = &run->frameworks.python[0];
    cr_expect_str_eq(py->error, "");
    cr_assert_geq(py->nfound, 1);
    cr_expect_str_eq(py->found[0].id, "pytorch");
    cr_expect_str_eq(py->found[0].devices, "cpu");
    const char *models[] = {"mlp", "gpt"};
    for (int m = 0; m < 2; m++) {
        const struct probe_result *engine = row_of(run, "engine", "openblas", models[m]),
                                  *eager = row_of(run, "pytorch", "eager", models[m]),
                                  *compiled = row_of(run, "pytorch", "compile", models[m]);
        cr_assert(engine && eager && compiled, "%s rows missing", models[m]);
        cr_expect_not(engine->skipped, "%s", engine->reason);
        cr_assert_not(eager->skipped, "%s: %s", models[m], eager->reason);
        cr_expect_gt(eager->stats.n, 0);
        cr_expect_gt(eager->stats.median, 0);
        double loss = eager->params.loss, ref = eager->params.engine_loss;
        cr_expect_leq(fabs(loss - ref), 1e-4 * fabs(ref), "%s: %.8g against %.8g", models[m], loss, ref);
        cr_expect_gt(ref, 0);
        if (compiled->skipped) cr_expect(strstr(compiled->reason, "needs PyTorch 2"), "%s", compiled->reason);
    }
    cJSON *doc = probe_run_to_json(run);
    char err[1024];
    int rc = ts_validate_doc(doc, "probe.schema.json", err, sizeof err);
    if (rc >= 0) cr_expect_eq(rc, 0, "%s", err);
    cJSON_Delete(doc);
    free(run);
}

/* Interpreters that misbehave, each answering the detection script as a Python would and then:
 * printing what is not JSON, hanging, failing to import torch (a planted module shadows it in
 * Debian's Python), and training another model (a first-step loss no MLP of the engine's has).
 * Each gives its row with the reason, and the hang ends at the 3 s limit. */
static const char fake_detect[] =
    "#!/bin/sh\n"
    "case \"$2\" in */fwdetect.py) echo '{\"event\": \"python\", \"version\": \"3.0\", \"prefix\": \"/fake/%s\","
    " \"frameworks\": [{\"id\": \"%s\", \"version\": \"9.9\"}]}'; exit 0;; esac\n";

static char *write_fake(const char *dir, const char *name, const char *framework, const char *body)
{
    char *path = ts_path(dir, name), text[4096];
    int n = snprintf(text, sizeof text, fake_detect, name, framework);
    snprintf(text + n, sizeof text - (size_t)n, "%s", body);
    cr_assert_eq(ts_write_str(path, text), 0);
    chmod(path, 0755);
    return path;
}

static const cJSON *fw_row(const cJSON *doc, double python, const char *model)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "results")) {
        const cJSON *p = cJSON_GetObjectItem(r, "params"), *py = cJSON_GetObjectItem(p, "python"),
                    *m = cJSON_GetObjectItem(p, "model");
        if (cJSON_IsNumber(py) && py->valuedouble == python && (!model || (cJSON_IsString(m) && !strcmp(m->valuestring, model))))
            return r;
    }
    return NULL;
}

Test(frameworks, fake_interpreters_give_their_rows_within_the_limit, .timeout = 180)
{
    char *dir = ts_tmpdir(), *mods = ts_path(dir, "mods"), *torch_dir = ts_path(mods, "torch");
    cr_assert(mkdir(mods, 0755) == 0 && mkdir(torch_dir, 0755) == 0);
    char *init = ts_path(torch_dir, "__init__.py");
    ts_write_str(init, "raise ImportError('planted: this torch cannot load')\n");
    char noimport_body[1024];
    snprintf(noimport_body, sizeof noimport_body, "PYTHONPATH=%s exec /usr/bin/python3 \"$@\"\n", mods);
    char *fakes[4] = {
        write_fake(dir, "badjson", "pytorch", "echo 'this is not JSON'\nsleep 30\n"),
        write_fake(dir, "hang", "tensorflow", "exec sleep 600\n"),
        ts_path(dir, "noimport"),
        write_fake(dir, "wrongloss", "jax",
                   "echo '{\"event\": \"framework\", \"id\": \"jax\", \"version\": \"9.9\", \"devices\": [{\"name\": \"cpu\","
                   " \"kind\": \"cpu\", \"label\": \"CPU\"}]}'\n"
                   "echo '{\"event\": \"start\", \"mode\": \"jit\", \"device\": \"cpu\", \"kind\": \"cpu\", \"model\": \"mlp\"}'\n"
                   "echo '{\"event\": \"row\", \"id\": \"jax\", \"mode\": \"jit\", \"device\": \"cpu\", \"kind\": \"cpu\","
                   " \"model\": \"mlp\", \"first_loss\": 1.5, \"first_step_s\": 0.1, \"step_s\": [0.01, 0.011, 0.012]}'\n"
                   "echo '{\"event\": \"done\"}'\n"),
    };
    char text[1200];
    snprintf(text, sizeof text, "#!/bin/sh\n%s", noimport_body);
    ts_write_str(fakes[2], text);
    chmod(fakes[2], 0755);
    int have_python = access("/usr/bin/python3", X_OK) == 0;
    char db[4200];
    snprintf(db, sizeof db, "--db=%s/kb.sqlite3", dir);
    const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE", NULL};
    struct ts_run r;
    double t0 = now_s();
    cr_assert_eq(ts_run(&r, env, NULL,
                        (const char *const[]){db, "probe", "--workload", "frameworks", "--device", "cpu", "--no-save",
                                              "--json", "--threads", "1", "--framework-timeout", "3", "--python", fakes[0],
                                              "--python", fakes[1], "--python", fakes[2], "--python", fakes[3], NULL}),
                 0);
    double took = now_s() - t0;
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "%s", r.out);
    const cJSON *bad = fw_row(doc, 0, NULL), *hang = fw_row(doc, 1, NULL), *noimport = fw_row(doc, 2, NULL),
                *wrong = fw_row(doc, 3, "mlp");
    cr_assert(bad && hang && noimport && wrong, "%s", r.out);
    cr_expect_str_eq(cJSON_GetObjectItem(bad, "reason")->valuestring, "its answer was not JSON lines: this is not JSON");
    cr_expect_str_eq(cJSON_GetObjectItem(hang, "reason")->valuestring, "timed out after 3 s (the limit)");
    if (have_python)
        cr_expect(strstr(cJSON_GetObjectItem(noimport, "reason")->valuestring,
                         "cannot import: ImportError: planted: this torch cannot load"),
                  "%s", cJSON_GetObjectItem(noimport, "reason")->valuestring);
    const char *why = cJSON_GetObjectItem(wrong, "reason")->valuestring;
    cr_expect(strstr(why, "trains something else: first-step loss 1.5 against the engine's 2.3"), "%s", why);
    cr_expect_str_eq(cJSON_GetObjectItem(wrong, "status")->valuestring, "skipped", "not timed as a peer");
    /* the engine's rows are there, timed */
    int engine_ok = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(doc, "results")) {
        const cJSON *framework = cJSON_GetObjectItem(cJSON_GetObjectItem(row, "params"), "framework");
        engine_ok += cJSON_IsString(framework) && !strcmp(framework->valuestring, "engine") &&
                     !strcmp(cJSON_GetObjectItem(row, "status")->valuestring, "ok");
    }
    cr_expect_eq(engine_ok, 2);
    cr_expect_lt(took, 60, "%.1f s: the hang must end at its limit", took);
    cJSON_Delete(doc);
    ts_run_free(&r);
    for (int i = 0; i < 4; i++) free(fakes[i]);
    free(init);
    free(torch_dir);
    free(mods);
    ts_rmtree(dir);
    free(dir);
}

static volatile sig_atomic_t run_stop;

/* Stops the run once the hanging framework has begun to hang (its script leaves a file), and
 * notes when: the wait is measured from the stop, not from a guess at when the hang starts. */
struct stop_when {
    const char *started;
    double at;
};

static void *stop_when_hanging(void *arg)
{
    struct stop_when *w = arg;
    for (int i = 0; i < 1200 && access(w->started, F_OK) != 0; i++) {
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    w->at = now_s();
    run_stop = 1;
    return NULL;
}

/* Cancelled while a framework hangs (its limit 60 s): the workload returns within a second of
 * the stop, the run is marked interrupted, and the hanging framework's row says so. */
Test(frameworks, cancel_within_a_second, .timeout = 90)
{
    char *dir = ts_tmpdir(), *started = ts_path(dir, "started"), body[4400];
    snprintf(body, sizeof body, ": > '%s'\nexec sleep 600\n", started);
    char *hang = write_fake(dir, "hang", "tensorflow", body);
    const char *pythons[] = {hang};
    struct probe_options o;
    struct probe_run *run = fw_setup(&o, pythons, 1);
    o.framework_timeout_s = 60;
    o.stop = &run_stop;
    run_stop = 0;
    struct stop_when w = {started, 0};
    pthread_t t;
    pthread_create(&t, NULL, stop_when_hanging, &w);
    cr_expect_eq(probe_run_workloads(run, &o), 1);
    double done = now_s();
    pthread_join(t, NULL);
    cr_expect_eq(access(started, F_OK), 0, "the framework began to hang before the stop");
    cr_expect(run->interrupted);
    double second = ts_seconds_at_pace(1.0);
    cr_expect_lt(done - w.at, second, "%.2f s after the stop (a second is %.2f s at this pace)", done - w.at, second);
    const struct probe_result *r = NULL;
    for (int i = 0; i < run->nresults; i++)
        if (!strcmp(run->results[i].params.framework, "tensorflow")) r = &run->results[i];
    cr_assert_not_null(r, "the hanging framework has its row");
    cr_expect_str_eq(r->reason, "interrupted");
    free(run);
    free(hang);
    free(started);
    ts_rmtree(dir);
    free(dir);
}

/* A machine with an NVIDIA GPU (as detection would record it) and Debian's CPU-only PyTorch: one
 * row on the GPU saying why PyTorch cannot use it, beside the CPU's timed rows. */
Test(frameworks, a_gpu_the_framework_cannot_use_is_a_row, .timeout = 240)
{
    if (!debian_python_runs("import torch, numpy, sys; sys.exit(torch.cuda.is_available())"))
        cr_skip_test("no CPU-only python3-torch here");
    const char *pythons[] = {"/usr/bin/python3"};
    struct probe_options o;
    struct probe_run *run = fw_setup(&o, pythons, 1);
    o.cpu_only = 0; /* the machine's GPU is for the frameworks to try */
    run->hw.naccel = 1;
    snprintf(run->hw.accel[0].kind, sizeof run->hw.accel[0].kind, "nvidia");
    snprintf(run->hw.accel[0].name, sizeof run->hw.accel[0].name, "NVIDIA H100 80GB HBM3");
    cr_assert_eq(probe_run_workloads(run, &o), 0);
    const struct probe_result *gpu = NULL, *eager = row_of(run, "pytorch", "eager", "mlp");
    for (int i = 0; i < run->nresults; i++)
        if (!strcmp(run->results[i].device, "nvidia")) gpu = &run->results[i];
    cr_assert_not_null(gpu);
    cr_expect(gpu->skipped);
    cr_expect(strstr(gpu->reason, "torch.cuda.is_available() is False"), "%s", gpu->reason);
    cr_expect_str_eq(gpu->params.framework, "pytorch");
    cr_expect_str_eq(gpu->params.kind, "nvidia");
    cr_assert_not_null(eager);
    cr_expect_not(eager->skipped, "%s", eager->reason);
    free(run);
}
