/* fwadvisor train --model gpt as users run it: output, JSON, text data, weights files, bad input. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/gpt.h"
#include "tests/support.h"

static char *dir;
static const char *env[] = {"NO_COLOR=1", NULL};

static void setup(void) { dir = ts_tmpdir(); }
static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(train_gpt_cli, .init = setup, .fini = teardown, .timeout = 60);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

static double num(const cJSON *o, const char *key) { return cJSON_GetObjectItem(o, key)->valuedouble; }

Test(train_gpt_cli, text_output)
{
    struct ts_run r;
    RUN(r, "train", "--model", "gpt", "--steps", "12", "--threads", "1");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "training a GPT: 2 layers, 2 heads, 64 wide, ctx 32, vocab 256 (118528") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "step      1/12  loss 5.") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "tokens/s") && strstr(r.out, "TFLOP/s") && strstr(r.out, "planner"), "%s", r.out);
    cr_expect_leq(ts_max_width(r.out), 80);
    ts_run_free(&r);
}

Test(train_gpt_cli, json_has_losses_throughput_and_memory)
{
    struct ts_run r;
    RUN(r, "train", "--model=gpt", "--steps", "15", "--threads", "2", "--lr", "0.003", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "%s", r.out);
    cJSON *losses = cJSON_GetObjectItem(doc, "losses"), *cfg = cJSON_GetObjectItem(doc, "config");
    cr_expect_eq(cJSON_GetArraySize(losses), 15);
    /* Starts near ln 256 = 5.545 and falls on the synthetic chain. */
    cr_expect(fabs(cJSON_GetArrayItem(losses, 0)->valuedouble - 5.545) < 0.1);
    cr_expect_lt(cJSON_GetArrayItem(losses, 14)->valuedouble, cJSON_GetArrayItem(losses, 0)->valuedouble - 0.2);
    cr_expect_str_eq(cJSON_GetObjectItem(cfg, "model")->valuestring, "gpt");
    cr_expect_str_eq(cJSON_GetObjectItem(cfg, "optimizer")->valuestring, "adamw");
    cr_expect_float_eq(num(cfg, "weight_decay"), 0.01, 1e-9);
    cr_expect_eq(num(cfg, "params"), 118528);
    /* 6 N + 12 L H Q T, as in the unit tests: 748032 per token, 128 tokens a step. */
    cr_expect_float_eq(num(doc, "flops_per_token"), 748032, 0.5);
    cr_expect_float_eq(num(doc, "flops_per_step"), 748032.0 * 128, 1);
    cr_expect_gt(num(doc, "tokens_per_s"), 0);
    /* Planner: 16 bytes x 118528 parameters = 1896448; per layer 2 x 32 x 4 x 64 x (34 + 5 x 2 x 32
     * / 64) = 638976, two layers: 1277952. Total 3174400. */
    cr_expect_float_eq(num(doc, "planner_bytes"), 3174400, 0.5);
    cr_expect_gt(num(doc, "buffer_bytes"), 0);
    cr_expect_gt(num(doc, "peak_rss_bytes"), num(doc, "buffer_bytes"));
    cJSON_Delete(doc);
    ts_run_free(&r);
}

Test(train_gpt_cli, text_file_and_saved_weights)
{
    char *text = ts_path(dir, "t.txt"), *w = ts_path(dir, "w.safetensors"), *w2 = ts_path(dir, "w2.safetensors");
    char body[2000];
    for (int i = 0; i < 1999; i++) body[i] = "the cat sat on the mat. "[i % 24];
    body[1999] = 0;
    ts_write_str(text, body);
    struct ts_run r;
    RUN(r, "train", "--model", "gpt", "--ctx", "16", "--steps", "3", "--text", text, "--save", w, "--threads", "1",
        "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    /* A shorter context on the same table: the table keeps its 16 rows in what is saved. */
    RUN(r, "train", "--model", "gpt", "--ctx", "8", "--steps", "1", "--text", text, "--init", w, "--save", w2,
        "--threads", "1");
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    int rows, width;
    char err[256];
    cr_expect_eq(eng_gpt_file_positions(w2, &rows, &width, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(rows, 16);
    cr_expect_eq(width, 64);
    /* A longer context than the table: one line, exit 3, nothing written. */
    char *w3 = ts_path(dir, "w3.safetensors");
    RUN(r, "train", "--model", "gpt", "--ctx", "17", "--steps", "1", "--init", w, "--save", w3);
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "--ctx 17 is larger than the position table of") &&
              strstr(r.err, "(transformer.wpe.weight has 16 rows)"), "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1);
    cr_expect_neq(access(w3, F_OK), 0);
    ts_run_free(&r);
    /* A model of another width: the first tensor that does not fit is named. */
    RUN(r, "train", "--model", "gpt", "--ctx", "16", "--n-embd", "32", "--steps", "1", "--init", w);
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "tensor 'transformer.wte.weight' has shape [256, 64], this model needs [256, 32]"), "%s",
              r.err);
    ts_run_free(&r);
    /* One block more than the file has: the missing tensor is named. */
    RUN(r, "train", "--model", "gpt", "--ctx", "16", "--n-layer", "3", "--steps", "1", "--init", w);
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "missing tensor 'transformer.h.2.ln_1.weight'"), "%s", r.err);
    ts_run_free(&r);
    free(text), free(w), free(w2), free(w3);
}

Test(train_gpt_cli, a_non_finite_loss_stops_with_the_step_and_writes_nothing)
{
    char *w = ts_path(dir, "nan.safetensors"), *out = ts_path(dir, "out.safetensors"), err[256];
    struct eng_gpt_config c;
    eng_gpt_config_defaults(&c);
    struct eng_gpt *m;
    cr_assert_eq(eng_gpt_create(&c, eng_cpu_backend(), &m, err, sizeof err), ENG_OK, "%s", err);
    eng_gpt_init(m, 1);
    /* One NaN in the final LayerNorm's weight: every logit, so the first loss, is NaN. */
    float lnf[64];
    int last = eng_gpt_tensor_count(m) - 2;
    eng_gpt_read_tensor(m, last, lnf);
    lnf[3] = NAN;
    eng_gpt_write_tensor(m, last, lnf);
    cr_assert_eq(eng_gpt_save(w, m, err, sizeof err), ENG_OK, "%s", err);
    eng_gpt_free(m);
    struct ts_run r;
    RUN(r, "train", "--model", "gpt", "--steps", "5", "--init", w, "--save", out);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "step 1: the loss is not a number; training stopped"), "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1);
    cr_expect_neq(access(out, F_OK), 0);
    ts_run_free(&r);
    free(w), free(out);
}

Test(train_gpt_cli, bad_input_gets_one_line_and_an_exit_code)
{
    char *shorty = ts_path(dir, "short.txt"), *junk = ts_path(dir, "junk.safetensors");
    ts_write_str(shorty, "only forty bytes of text, not one batch");
    ts_write_str(junk, "not safetensors");
    struct {
        const char *args[14];
        int status;
        const char *expect;
    } cases[] = {
        {{"train", "--model", "gpt", "--n-embd", "100", "--n-head", "3"}, 3, "--n-embd 100 is not a multiple of --n-head 3"},
        {{"train", "--model", "gpt", "--n-layer", "0"}, 3, "--n-layer 0"},
        {{"train", "--model", "gpt", "--ctx", "1.5"}, 3, "whole number"},
        {{"train", "--model", "gpt", "--text", shorty}, 3, "shorter than one batch (129 bytes"},
        {{"train", "--model", "gpt", "--text", "/nonexistent/t.txt"}, 3, "/nonexistent/t.txt"},
        {{"train", "--model", "gpt", "--text", shorty, "--vocab", "100"}, 3, "--vocab must be at least 256"},
        {{"train", "--model", "gpt", "--init", junk}, 3, "junk.safetensors"},
        {{"train", "--model", "gpt", "--precision", "bf16"}, 3, "needs a GPU"},
        {{"train", "--model", "gpt", "--optimizer", "lion"}, 3, "expected sgd, momentum, adam or adamw"},
        {{"train", "--model", "gpt", "--layers", "4,2"}, 2, "unknown option '--layers' for --model gpt"},
        {{"train", "--model", "rnn"}, 2, "--model rnn: expected mlp or gpt"},
        /* 2 layers x 64 wide at T 32, batch 4 hold about 3.4 MB: refused under a 1 MB limit */
        {{"train", "--model", "gpt", "--max-memory", "0.001"}, 3, "more than the 0.001 GB --max-memory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, cases[i].args), 0);
        cr_expect_eq(r.status, cases[i].status, "case %zu: exit %d: %s", i, r.status, r.err);
        cr_expect(strstr(r.err, cases[i].expect) != NULL, "case %zu: %s", i, r.err);
        if (cases[i].status != 2) cr_expect_eq(ts_lines(r.err), 1, "case %zu: %s", i, r.err);
        ts_run_free(&r);
    }
    free(shorty), free(junk);
}
