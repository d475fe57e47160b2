/* The plan checked against this machine: the probe's GPT step beside the step the planner's
 * formula (knowledge/planner.h, plan_gpt_step) gives from the same run's GEMM rate and bandwidth,
 * as stored, as the table's note says it, and run by run across the stored runs. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/html.h"
#include "knowledge/kb.h"
#include "knowledge/measured.h"
#include "knowledge/planner.h"
#include "knowledge/probe_store.h"
#include "probes/probe.h"
#include "probes/run_html.h"
#include "probes/run_table.h"
#include "probes/session.h"
#include "tests/support.h"

TestSuite(plan_check, .timeout = 120);

/* A run of "Test CPU" holding one train-gpt step_ms row; planned < 0 leaves the plan out. */
static cJSON *run_doc(const char *id, const char *started, const char *cpu, double planned, double median)
{
    char plan[512] = "";
    if (planned > 0)
        snprintf(plan, sizeof plan,
                 ", \"planned_ms\": %g, \"gemm_ms\": 428.5, \"memory_ms\": 27.49, \"gemm_gflops\": 50,"
                 " \"bandwidth_gbs\": 10, \"bandwidth_source\": \"stream triad\"",
                 planned);
    else
        snprintf(plan, sizeof plan, ", \"planned_ms\": null, \"gemm_ms\": null, \"memory_ms\": null, \"gemm_gflops\": %s,"
                 " \"bandwidth_gbs\": null, \"bandwidth_source\": \"none\"", planned == 0 ? "50" : "null");
    char text[2048];
    snprintf(text, sizeof text,
             "{\"schema\": \"fwadvisor.probe/1\", \"id\": \"%s\", \"started_at\": \"%s\", \"duration_s\": 3,"
             " \"interrupted\": false, \"cpu\": {\"model\": \"%s\", \"cores\": 2, \"memory_bytes\": 8e9},"
             " \"accelerators\": [], \"results\": [{\"workload\": \"train-gpt\", \"device\": \"cpu\","
             " \"metric\": \"step_ms\", \"unit\": \"ms\", \"status\": \"ok\", \"median\": %g, \"min\": %g, \"max\": %g,"
             " \"repeats\": 8, \"cv\": 0.01, \"noisy\": false, \"peak_fraction\": null, \"params\": {\"n_layer\": 4,"
             " \"n_head\": 4, \"n_embd\": 256, \"ctx\": 128, \"vocab\": 256, \"batch\": 8, \"precision\": \"fp32\"%s}}]}",
             id, started, cpu, median, median * 0.98, median * 1.02, plan);
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc, "%s", text);
    return doc;
}

/* planned 456 ms against 480 measured: 456 / 480 = 0.95. */
Test(plan_check, the_note_says_planned_measured_and_the_ratio)
{
    cJSON *doc = run_doc("r1", "2026-12-01T10:00:00Z", "Test CPU", 456, 480);
    struct probe_table *t = malloc(sizeof *t);
    probe_table_build(doc, NULL, t);
    cr_expect_str_eq(probe_table_plan_note(t),
                     "The planner's GPT step on this CPU: 456 ms (products 428.5 ms at 50 GFLOP/s, the other passes "
                     "27.49 ms at 10 GB/s, stream triad) against 480 ms measured: planned/measured 0.95.");
    cr_expect_float_eq(t->plan_ratio, 0.95, 1e-12);
    cr_expect_float_eq(t->planned_ms, 456, 0);
    cr_expect_float_eq(t->measured_ms, 480, 0);
    /* the row itself: a time, so lower is better against a baseline; labelled with its plan */
    cr_expect_str_eq(t->rows[0].cell[PT_METRIC], "step_ms");
    cr_expect_str_eq(t->rows[0].cell[PT_PARAMS], "planned 456");
    free(t);
    cJSON_Delete(doc);
}

Test(plan_check, without_a_bandwidth_or_gemm_rate_the_note_says_what_is_missing)
{
    static const struct {
        double planned;
        const char *want;
    } cases[] = {
        {0, "No planned GPT step for this CPU: the run measured no memory bandwidth to plan it from (the gemm and stream workloads)."},
        {-1, "No planned GPT step for this CPU: the run measured no GEMM rate or bandwidth to plan it from (the gemm and stream workloads)."},
    };
    for (size_t i = 0; i < 2; i++) {
        cJSON *doc = run_doc("r1", "2026-12-01T10:00:00Z", "Test CPU", cases[i].planned, 480);
        struct probe_table *t = malloc(sizeof *t);
        probe_table_build(doc, NULL, t);
        cr_expect_str_eq(probe_table_plan_note(t), cases[i].want);
        cr_expect(isnan(t->plan_ratio));
        struct probe_plan_point pt;
        struct measured_run *m = measured_read_new(doc);
        cr_expect_eq(probe_plan_point_from(m, &pt), 0, "no point without a plan");
        free(m);
        free(t);
        cJSON_Delete(doc);
    }
}

static const struct probe_result *find(const struct probe_run *run, const char *workload, const char *metric)
{
    for (int i = 0; i < run->nresults; i++)
        if (!strcmp(run->results[i].workload, workload) && !strcmp(run->results[i].metric, metric)) return &run->results[i];
    return NULL;
}

/* A real short run: the planned step is the formula on the run's own GEMM rate (its best) and
 * STREAM triad, the measured step is the tokens row's steps in ms; without the stream workload
 * there is no plan, and the source says so. */
Test(plan_check, a_probe_run_plans_its_step_from_its_own_figures)
{
    unsetenv("FWADVISOR_SYSROOT");
    unsetenv("HWLOC_XMLFILE");
    for (int with_stream = 1; with_stream >= 0; with_stream--) {
        struct probe_run *run = calloc(1, sizeof *run);
        strcpy(run->id, "plan-run");
        strcpy(run->started_at, "2026-12-01T00:00:00Z");
        strcpy(run->version, "test");
        probe_detect(&run->hw);
        struct probe_options o;
        memset(&o, 0, sizeof o);
        o.smoke = 1;
        o.threads = 1;
        o.workloads = probe_workload_bit(PROBE_WL_GEMM) | probe_workload_bit(PROBE_WL_TRAIN_GPT) |
                      (with_stream ? probe_workload_bit(PROBE_WL_STREAM) : 0);
        strcpy(o.device, "cpu");
        cr_assert_eq(probe_run_workloads(run, &o), 0);
        const struct probe_result *step = find(run, "train-gpt", "step_ms"), *tok = find(run, "train-gpt", "tokens_per_s"),
                                  *gemm = find(run, "gemm", "gflops_best"), *triad = find(run, "stream", "triad_gbs");
        cr_assert(step && tok && gemm, "the step, tokens and GEMM rows");
        cr_assert(!step->skipped && !tok->skipped, "%s", step->reason);
        const struct probe_params *p = &step->params;
        cr_expect_eq(p->shape, PROBE_PP_PLAN);
        cr_expect_eq(p->n_layer, tok->params.n_layer);
        cr_expect_eq(p->batch, tok->params.batch);
        double tokens = (double)p->batch * p->ctx;
        /* the fastest step is the highest tokens/s: the same sample */
        cr_expect_float_eq(step->stats.min, tokens / tok->stats.max * 1e3, 1e-9 * step->stats.min);
        cr_expect_float_eq(p->gemm_gflops, gemm->stats.median, 0, "the run's best GEMM rate: %g against %g",
                           p->gemm_gflops, gemm->stats.median);
        if (!with_stream) {
            cr_expect(isnan(p->planned_ms), "no bandwidth, no plan");
            cr_expect_str_eq(p->bandwidth_source, "none");
            free(run);
            continue;
        }
        cr_assert(triad && !triad->skipped);
        cr_expect_float_eq(p->bandwidth_gbs, triad->stats.median, 0);
        cr_expect_str_eq(p->bandwidth_source, "stream triad");
        /* the smoke model: 1 layer, 2 heads, C 32, T 16, V 64, batch 2; N = 64 x 32 + 12 x 32^2 + 13 x 32 + 2 x 32
         * = 2048 + 12288 + 416 + 64 = 14,816 without the positions' table */
        struct plan_gpt_step_in in = {p->n_layer, p->n_head, p->n_embd, p->ctx, p->batch, 14816, 4, p->gemm_gflops,
                                      p->bandwidth_gbs};
        struct plan_gpt_step want;
        cr_assert_eq(plan_gpt_step(&in, &want), 0);
        cr_expect_float_eq(p->planned_ms, want.step_s * 1e3, 1e-12 * p->planned_ms);
        cr_expect_float_eq(p->gemm_ms, want.gemm_s * 1e3, 1e-12 * p->gemm_ms);
        cr_expect_float_eq(p->memory_ms, want.memory_s * 1e3, 1e-12 * p->memory_ms);
        /* stored as printed: four digits, read back the same */
        cJSON *doc = probe_run_to_json(run);
        char err[1024];
        int rc = ts_validate_doc(doc, "probe.schema.json", err, sizeof err);
        if (rc >= 0) cr_expect_eq(rc, 0, "%s", err);
        struct measured_run *m = measured_read_new(doc);
        struct probe_plan_point pt;
        cr_expect_eq(probe_plan_point_from(m, &pt), 1);
        char text[32];
        snprintf(text, sizeof text, "%.4g", want.step_s * 1e3);
        cr_expect_float_eq(pt.planned_ms, strtod(text, NULL), 0);
        free(m);
        cJSON_Delete(doc);
        free(run);
    }
}

/* Across stored runs: the same machine's, oldest first, the run shown among them once (also when
 * it is not stored); another machine's and a run without a plan left out; the newest kept. */
Test(plan_check, the_history_is_this_machines_runs_oldest_first)
{
    struct ts_kb t;
    char err[1024];
    cr_assert_eq(ts_kb_open(&t, err, sizeof err), 0, "%s", err);
    struct {
        const char *id, *started, *cpu;
        double planned;
    } stored[] = {
        {"b", "2026-12-01T11:00:00Z", "Test CPU", 500},
        {"a", "2026-12-01T09:00:00Z", "Test CPU", 400},
        {"other", "2026-12-01T10:00:00Z", "Other CPU", 300},
        {"noplan", "2026-12-01T10:30:00Z", "Test CPU", -1},
    };
    for (size_t i = 0; i < 4; i++) {
        cJSON *doc = run_doc(stored[i].id, stored[i].started, stored[i].cpu, stored[i].planned, 480);
        cr_assert_eq(kb_probe_save(t.kb, doc, err, sizeof err), KB_OK, "%s", err);
        cJSON_Delete(doc);
    }
    struct probe_plan_point pts[PROBE_PLAN_HISTORY];
    cJSON *shown = run_doc("new", "2026-12-01T12:00:00Z", "Test CPU", 456, 480); /* not stored (--no-save) */
    int n = probe_session_plan_history(t.kb, shown, pts, PROBE_PLAN_HISTORY);
    cr_assert_eq(n, 3);
    cr_expect_str_eq(pts[0].id, "a");
    cr_expect_str_eq(pts[1].id, "b");
    cr_expect_str_eq(pts[2].id, "new");
    cr_expect_float_eq(pts[0].planned_ms, 400, 0);
    cr_expect_float_eq(pts[2].measured_ms, 480, 0);
    /* at most 2: the shown run and the newest stored one */
    cr_expect_eq(probe_session_plan_history(t.kb, shown, pts, 2), 2);
    cr_expect_str_eq(pts[0].id, "b");
    cr_expect_str_eq(pts[1].id, "new");
    /* a stored run shown: itself once */
    cJSON *b = run_doc("b", "2026-12-01T11:00:00Z", "Test CPU", 500, 480);
    cr_expect_eq(probe_session_plan_history(t.kb, b, pts, PROBE_PLAN_HISTORY), 2);
    cr_expect_str_eq(pts[0].id, "a");
    cr_expect_str_eq(pts[1].id, "b");
    /* without a database: the run's own point alone */
    cr_expect_eq(probe_session_plan_history(NULL, shown, pts, PROBE_PLAN_HISTORY), 1);
    /* the page charts the ratio of each, and the note */
    n = probe_session_plan_history(t.kb, shown, pts, PROBE_PLAN_HISTORY);
    struct html h = {0};
    cr_assert_eq(probe_run_html(shown, NULL, pts, n, &h), 0);
    cr_assert_not_null(h.data);
    cr_expect_not_null(strstr(h.data, "id=\"plan-check-chart\""));
    cr_expect_not_null(strstr(h.data, "planned 400 ms, measured 480 ms"), "run a: 400 / 480");
    cr_expect_not_null(strstr(h.data, "planned/measured 0.95."));
    cr_expect_null(strstr(h.data, "other ("), "another machine's run is not charted");
    html_free(&h);
    cJSON_Delete(b);
    cJSON_Delete(shown);
    ts_kb_close(&t);
}
