/* fwadvisor train as users run it: output, JSON, files and bad input. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/tensor_io.h"
#include "tests/support.h"

static char *dir;
static const char *env[] = {"NO_COLOR=1", NULL};

static void setup(void) { dir = ts_tmpdir(); }
static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(train_cli, .init = setup, .fini = teardown, .timeout = 60);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

Test(train_cli, text_output_shows_losses_and_timing)
{
    struct ts_run r;
    RUN(r, "train", "--layers", "20,16,4", "--steps", "30", "--batch", "16", "--threads", "1");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "step      1/30  loss") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "step time: median") && strstr(r.out, "samples/s") && strstr(r.out, "GFLOP/s") &&
              strstr(r.out, "peak resident"));
    cr_expect_leq(ts_max_width(r.out), 80);
    ts_run_free(&r);
}

Test(train_cli, json_has_losses_timings_and_memory)
{
    struct ts_run r;
    RUN(r, "train", "--layers", "20,16,4", "--steps", "25", "--batch", "8", "--optimizer", "sgd", "--lr", "0.1",
        "--loss", "mse", "--activation", "gelu", "--threads", "1", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "%s", r.out);
    cr_expect_str_eq(cJSON_GetObjectItem(doc, "schema")->valuestring, "fwadvisor.train/1");
    cJSON *losses = cJSON_GetObjectItem(doc, "losses");
    cr_expect_eq(cJSON_GetArraySize(losses), 25);
    cr_expect_lt(cJSON_GetArrayItem(losses, 24)->valuedouble, cJSON_GetArrayItem(losses, 0)->valuedouble);
    cJSON *st = cJSON_GetObjectItem(doc, "step_ms");
    double med = cJSON_GetObjectItem(st, "median")->valuedouble;
    cr_expect(med > 0 && cJSON_GetObjectItem(st, "min")->valuedouble <= med &&
              med <= cJSON_GetObjectItem(st, "max")->valuedouble);
    /* 2 * 8 * (3 * (20*16 + 16*4) - 20*16) = 13312 FLOP per step */
    cr_expect_float_eq(cJSON_GetObjectItem(doc, "flops_per_step")->valuedouble, 13312, 0.5);
    cr_expect_gt(cJSON_GetObjectItem(doc, "peak_rss_bytes")->valuedouble, 1e6);
    cr_expect_gt(cJSON_GetObjectItem(doc, "samples_per_s")->valuedouble, 0);
    cJSON *cfg = cJSON_GetObjectItem(doc, "config");
    cr_expect_str_eq(cJSON_GetObjectItem(cfg, "data")->valuestring, "synthetic");
    cJSON_Delete(doc);
    ts_run_free(&r);
}

Test(train_cli, same_seed_same_losses)
{
    struct ts_run a, b, c;
    RUN(a, "train", "--layers", "10,8,3", "--steps", "5", "--batch", "4", "--seed", "9", "--threads", "1", "--json");
    RUN(b, "train", "--layers", "10,8,3", "--steps", "5", "--batch", "4", "--seed", "9", "--threads", "1", "--json");
    RUN(c, "train", "--layers", "10,8,3", "--steps", "5", "--batch", "4", "--seed", "10", "--threads", "1", "--json");
    cJSON *da = cJSON_Parse(a.out), *db = cJSON_Parse(b.out), *dc = cJSON_Parse(c.out);
    char *la = cJSON_PrintUnformatted(cJSON_GetObjectItem(da, "losses"));
    char *lb = cJSON_PrintUnformatted(cJSON_GetObjectItem(db, "losses"));
    char *lc = cJSON_PrintUnformatted(cJSON_GetObjectItem(dc, "losses"));
    cr_expect_str_eq(la, lb);
    cr_expect_str_neq(la, lc);
    free(la);
    free(lb);
    free(lc);
    cJSON_Delete(da);
    cJSON_Delete(db);
    cJSON_Delete(dc);
    ts_run_free(&a);
    ts_run_free(&b);
    ts_run_free(&c);
}

Test(train_cli, save_then_init_continues_from_the_weights)
{
    char *w = ts_path(dir, "w.safetensors"), *x = ts_path(dir, "x.npy"), *y = ts_path(dir, "y.npy");
    float xv[8 * 4];
    int32_t yv[8];
    for (int i = 0; i < 32; i++) xv[i] = (float)((i * 7) % 11) / 11.0f - 0.5f;
    for (int i = 0; i < 8; i++) yv[i] = i % 3;
    struct eng_array xa = {ENG_F32, 2, {8, 4}, 32, xv}, ya = {ENG_I32, 1, {8, 0}, 8, yv};
    char err[256];
    cr_assert_eq(eng_npy_save(x, &xa, err, sizeof err), ENG_OK);
    cr_assert_eq(eng_npy_save(y, &ya, err, sizeof err), ENG_OK);
    struct ts_run r;
    RUN(r, "train", "--layers", "4,6,3", "--steps", "3", "--batch", "4", "--data", x, "--targets", y, "--save", w,
        "--threads", "1", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    RUN(r, "train", "--layers", "4,6,3", "--steps", "1", "--batch", "4", "--data", x, "--targets", y, "--init", w,
        "--threads", "1");
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    /* The saved file loads into a model of the same shape only. */
    RUN(r, "train", "--layers", "4,7,3", "--steps", "1", "--batch", "4", "--init", w, "--threads", "1");
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "should have shape [7, 4]") != NULL, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1);
    ts_run_free(&r);
    free(w);
    free(x);
    free(y);
}

Test(train_cli, bad_input_gets_one_line_and_an_exit_code)
{
    char *junk = ts_path(dir, "junk.npy"), *x = ts_path(dir, "x.npy");
    ts_write_str(junk, "not numpy at all");
    float xv[4] = {1, 2, 3, 4};
    struct eng_array xa = {ENG_F32, 2, {2, 2}, 4, xv};
    char err[256];
    eng_npy_save(x, &xa, err, sizeof err);
    struct {
        const char *args[12];
        int status;
        const char *expect;
    } cases[] = {
        {{"train"}, 2, "--layers is required"},
        {{"train", "--layers", "4,2", "--data", x}, 2, "--data and --targets go together"},
        {{"train", "--layers", "4,2", "--bogus"}, 2, "unknown option"},
        {{"train", "--layers", "4"}, 3, "need at least an input and an output width"},
        {{"train", "--layers", "4,2", "--activation", "swish"}, 3, "expected relu, gelu or tanh"},
        {{"train", "--layers", "4,2", "--optimizer", "lion"}, 3, "expected sgd, momentum, adam or adamw"},
        {{"train", "--layers", "4,2", "--lr", "fast"}, 3, "--lr fast"},
        {{"train", "--layers", "4,2", "--batch", "0"}, 3, "--batch 0"},
        {{"train", "--layers", "4,2", "--steps", "2.5"}, 3, "whole number"},
        {{"train", "--layers", "4,2", "--device", "tpu"}, 3, "expected cpu, cuda or cuda:N"},
        {{"train", "--layers", "4,2", "--data", junk, "--targets", junk}, 3, "not a .npy file"},
        {{"train", "--layers", "3,2", "--data", x, "--targets", x}, 3, "expected float32 inputs of shape (N, 3)"},
        {{"train", "--layers", "2,2", "--data", x, "--targets", x}, 3, "expected int32 or int64 class ids"},
        {{"train", "--layers", "2,2", "--init", "/nonexistent/w.safetensors"}, 3, "cannot read"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, cases[i].args), 0);
        cr_expect_eq(r.status, cases[i].status, "case %zu: exit %d: %s", i, r.status, r.err);
        cr_expect(strstr(r.err, cases[i].expect) != NULL, "case %zu: %s", i, r.err);
        if (cases[i].status != 2) cr_expect_eq(ts_lines(r.err), 1, "case %zu: %s", i, r.err);
        ts_run_free(&r);
    }
    free(junk);
    free(x);
}

/* Every value of --activation and --optimizer is taken in any case, and every near miss of each
 * (a prefix, a letter more, a space, the empty value; "none", the engine's internal name for the
 * output layer) is refused before any training: exit 3 and the one line naming the value and the
 * list. The GPT's --optimizer is the same row (CLI_TRAIN_ROW_OPTIMIZER). */
Test(train_cli, every_activation_and_optimizer_name_and_its_near_misses)
{
    static const struct {
        const char *option, *value;
        int status;
    } cases[] = {
        {"--activation", "relu", 0},  {"--activation", "GELU", 0}, {"--activation", "Tanh", 0},
        {"--activation", "none", 3},  {"--activation", "rel", 3},  {"--activation", "gelus", 3},
        {"--activation", "tan", 3},   {"--activation", "relu ", 3}, {"--activation", "", 3},
        {"--optimizer", "SGD", 0},    {"--optimizer", "momentum", 0}, {"--optimizer", "Adam", 0},
        {"--optimizer", "ADAMW", 0},  {"--optimizer", "sg", 3},    {"--optimizer", "mom", 3},
        {"--optimizer", "ada", 3},    {"--optimizer", "adamww", 3}, {"--optimizer", " adam", 3},
        {"--optimizer", "", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ts_run r;
        RUN(r, "train", "--layers", "4,3,2", "--steps", "1", "--batch", "4", "--threads", "1", cases[i].option, cases[i].value);
        cr_expect_eq(r.status, cases[i].status, "%s '%s': exit %d: %s", cases[i].option, cases[i].value, r.status, r.err);
        if (cases[i].status == 3) {
            char want[160];
            snprintf(want, sizeof want, "fwadvisor: %s %s: expected %s\n", cases[i].option, cases[i].value,
                     strcmp(cases[i].option, "--activation") == 0 ? "relu, gelu or tanh" : "sgd, momentum, adam or adamw");
            cr_expect_str_eq(r.err, want, "%s '%s'", cases[i].option, cases[i].value);
            cr_expect_str_eq(r.out, "", "refused before any step: %s", r.out);
        } else {
            cr_expect(strstr(r.out, "step      1/1") != NULL, "%s %s: %s", cases[i].option, cases[i].value, r.out);
        }
        ts_run_free(&r);
    }
    static const char *const gpt_refused[] = {"ada", "adamww", "", "Adam-W"};
    for (size_t i = 0; i < sizeof gpt_refused / sizeof gpt_refused[0]; i++) {
        struct ts_run r;
        RUN(r, "train", "--model", "gpt", "--optimizer", gpt_refused[i]);
        cr_expect_eq(r.status, 3, "gpt --optimizer '%s': exit %d: %s", gpt_refused[i], r.status, r.err);
        char want[160];
        snprintf(want, sizeof want, "fwadvisor: --optimizer %s: expected sgd, momentum, adam or adamw\n", gpt_refused[i]);
        cr_expect_str_eq(r.err, want);
        ts_run_free(&r);
    }
}

/* OpenBLAS is opened when the engine first multiplies, not linked: the program starts without it
 * (no libopenblas among the objects the loader maps), the advisor runs where it cannot be found,
 * and training says in one line which library it could not open, exit 1. */
Test(train_cli, openblas_is_opened_on_first_use)
{
    struct ts_run r;
    static const char *const trace[] = {"LD_TRACE_LOADED_OBJECTS=1", NULL};
    cr_assert_eq(ts_run(&r, trace, NULL, (const char *const[]){"--version", NULL}), 0);
    cr_expect(strstr(r.out, "libc.so") != NULL, "the loader's list: %s", r.out);
    cr_expect(strstr(r.out, "openblas") == NULL, "linked: %s", r.out);
    ts_run_free(&r);

    static const char *const missing[] = {"NO_COLOR=1", "FWADVISOR_OPENBLAS_LIB=/nonexistent/libopenblas.so.0", NULL};
    char *db = ts_path(dir, "kb.sqlite3");
    cr_assert_eq(ts_run(&r, missing, NULL,
                        (const char *const[]){"--db", db, "recommend", "--preset", "academic-research", "--json", NULL}),
                 0);
    cr_expect_eq(r.status, 0, "the advisor needs no OpenBLAS: %s", r.err);
    ts_run_free(&r);
    free(db);
    cr_assert_eq(ts_run(&r, missing, NULL, (const char *const[]){"train", "--layers", "8,4,2", "--steps", "2", NULL}), 0);
    cr_expect_eq(r.status, 1);
    cr_expect_str_eq(r.err, "fwadvisor: not loading the library /nonexistent/libopenblas.so.0 (FWADVISOR_OPENBLAS_LIB): "
                            "/nonexistent/libopenblas.so.0: No such file or directory\n");
    ts_run_free(&r);
    static const char *const not_blas[] = {"NO_COLOR=1", "FWADVISOR_OPENBLAS_LIB=/lib/x86_64-linux-gnu/libm.so.6", NULL};
    if (access("/lib/x86_64-linux-gnu/libm.so.6", R_OK) == 0) {
        cr_assert_eq(ts_run(&r, not_blas, NULL, (const char *const[]){"train", "--layers", "8,4,2", "--steps", "2", NULL}), 0);
        cr_expect_eq(r.status, 1);
        cr_expect(strstr(r.err, "has no cblas_sgemm or openblas_set_num_threads: not OpenBLAS") != NULL, "%s", r.err);
        ts_run_free(&r);
    }
}
