/* fwadvisor recommend as users run it: text, JSON, files, presets and bad answers. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tests/support.h"

static char *dir;
static char dbarg[4200], sysroot_env[4200];
static const char *env[5];

static void setup(void)
{
    dir = ts_tmpdir();
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
    /* A machine with two H100s, so `hardware: auto` is the same everywhere. */
    ts_h100_env(env, sysroot_env, sizeof sysroot_env);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(recommend_cli, .init = setup, .fini = teardown, .timeout = 60);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

Test(recommend_cli, text_summary_fits_80_columns)
{
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--preset", "nvidia-2000-gpus");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "Ranking") && strstr(r.out, "Distributed training") && strstr(r.out, "Plan") &&
              strstr(r.out, "Pitfalls"));
    cr_expect(strstr(r.out, "#") != NULL, "score bars");
    cr_expect_leq(ts_max_width(r.out), 80);
    ts_run_free(&r);
}

Test(recommend_cli, json_report_and_output_file)
{
    char *file = ts_path(dir, "report.json");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--set", "stage=research", "--set", "model_kind=llm", "--set", "model_params=7e9",
        "--json", "-o", file);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_empty(r.out, "--json with -o writes the file only");
    ts_run_free(&r);
    size_t len;
    char *text = ts_read(file, &len);
    cr_assert_not_null(text);
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc);
    cr_expect_str_eq(cJSON_GetObjectItem(doc, "schema")->valuestring, "fwadvisor.report/1");
    cJSON *hw = cJSON_GetObjectItem(doc, "hardware");
    cr_expect_str_eq(cJSON_GetObjectItem(hw, "source")->valuestring, "detected");
    cr_expect_str_eq(cJSON_GetObjectItem(hw, "kind")->valuestring, "nvidia");
    cr_expect_float_eq(cJSON_GetObjectItem(hw, "device_memory_gb")->valuedouble, 80, 1e-9);
    char err[1024];
    const char *schema_dir = getenv("FWADVISOR_SCHEMA_DIR");
    char schema[4200];
    snprintf(schema, sizeof schema, "%s/report.schema.json", schema_dir ? schema_dir : "docs");
    int rc = ts_validate_json(file, schema, err, sizeof err);
    if (rc >= 0) cr_expect_eq(rc, 0, "%s", err);
    cJSON_Delete(doc);
    free(text);
    free(file);
}

Test(recommend_cli, answers_from_file_and_stdin)
{
    char *file = ts_path(dir, "answers.json");
    ts_write_str(file, "{\"stage\": \"learning\", \"hardware\": \"nvidia\", \"model_kind\": \"vision\"}");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "-a", file, "--set", "stage=production", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cJSON *answers = cJSON_GetObjectItem(doc, "answers");
    cr_expect_str_eq(cJSON_GetObjectItem(answers, "stage")->valuestring, "production", "--set applies after the file");
    cr_expect_str_eq(cJSON_GetObjectItem(answers, "model_kind")->valuestring, "vision");
    cr_expect_str_eq(cJSON_GetObjectItem(answers, "priority")->valuestring, "iteration", "defaults are filled");
    cJSON_Delete(doc);
    ts_run_free(&r);
    cr_assert_eq(ts_run(&r, env, "{\"hardware\": \"tpu\"}", (const char *const[]){dbarg, "recommend", "-a", "-", "--json", NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    doc = cJSON_Parse(r.out);
    cr_expect_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "hardware"), "source")->valuestring, "answers");
    cJSON_Delete(doc);
    ts_run_free(&r);
    free(file);
}

Test(recommend_cli, bad_answers_exit_3_with_one_line)
{
    struct {
        const char *args[8];
        const char *expect;
    } cases[] = {
        /* Answers no machine has, named by both keys with the values allowed beside the first. */
        {{"--set", "os=macos", "--set", "hardware=nvidia"}, "keys 'os' and 'hardware': os macos cannot go with hardware nvidia"},
        {{"--set", "os=macos", "--set", "hardware=amd"}, "with os macos, hardware is one of apple, cpu"},
        {{"--set", "hardware=tpu", "--set", "os=windows"}, "keys 'os' and 'hardware': os windows cannot go with hardware tpu"},
        {{"--set", "deploy=mobile", "--set", "deploy_hardware=tpu"}, "keys 'deploy' and 'deploy_hardware'"},
        /* The machine running the check has NVIDIA GPUs: auto resolves to them, macOS cannot. */
        {{"--set", "os=macos", "--probe", "none"}, "keys 'os' and 'hardware': os macos cannot go with hardware nvidia"},
        {{"--set", "team=none,pytorch"}, "key 'team': 'none' cannot be combined with a framework"},
        {{"--set", "deploy_hardware=fpga"}, "auto, cpu, nvidia, amd, apple, qualcomm, intel, tpu, ascend"},
        {{"--set", "hardwre=tpu"}, "unknown key 'hardwre' (did you mean 'hardware'?)"},
        {{"--set", "stage=prod"}, "is not one of learning, research, prototype, production"},
        {{"--set", "devices=-2"}, "is not a whole number from 1 to 1e+15"},
        {{"--preset", "no-such-preset"}, "unknown preset"},
        {{"-a", "/nonexistent/answers.json"}, "cannot read"},
        {{"--probe", "42"}, "no probe run '42'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[10] = {dbarg, "recommend"};
        int n = 2;
        for (int j = 0; cases[i].args[j]; j++) args[n++] = cases[i].args[j];
        args[n] = NULL;
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, args), 0);
        cr_expect_eq(r.status, 3, "case %zu: exit %d (%s)", i, r.status, r.err);
        cr_expect(strstr(r.err, cases[i].expect) != NULL, "case %zu: %s", i, r.err);
        cr_expect_eq(ts_lines(r.err), 1, "case %zu: %s", i, r.err);
        cr_expect_str_empty(r.out);
        ts_run_free(&r);
    }
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--bogus");
    cr_expect_eq(r.status, 2);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--preset", "tpu-pod", "-a", "x.json");
    cr_expect_eq(r.status, 2);
    ts_run_free(&r);
}

Test(recommend_cli, presets_are_listed_and_usable)
{
    struct ts_run r;
    RUN(r, "recommend", "--list-presets");
    cr_expect_eq(r.status, 0);
    cr_expect_geq(ts_lines(r.out), 8);
    cr_expect(strstr(r.out, "raspberry-pi") && strstr(r.out, "tpu-pod") && strstr(r.out, "quick-validation"));
    ts_run_free(&r);
}

Test(recommend_cli, same_answers_same_json_apart_from_time)
{
    struct ts_run a, b;
    RUN(a, dbarg, "recommend", "--preset", "gpt4-class-model", "--json");
    RUN(b, dbarg, "recommend", "--preset", "gpt4-class-model", "--json");
    cJSON *da = cJSON_Parse(a.out), *db = cJSON_Parse(b.out);
    cJSON_DeleteItemFromObject(da, "generated_at");
    cJSON_DeleteItemFromObject(db, "generated_at");
    char *ta = cJSON_Print(da), *tb = cJSON_Print(db);
    cr_expect_str_eq(ta, tb);
    free(ta);
    free(tb);
    cJSON_Delete(da);
    cJSON_Delete(db);
    ts_run_free(&a);
    ts_run_free(&b);
}

/* --- recommend --model and --model-config -------------------------------------------------- */

static double answer_of(const char *json, const char *key)
{
    cJSON *doc = cJSON_Parse(json);
    cr_assert_not_null(doc, "not JSON");
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "answers"), key);
    double x = cJSON_IsNumber(v) ? v->valuedouble : -1;
    cJSON_Delete(doc);
    return x;
}

#define LLAMA_8B "{\"model_type\": \"llama\", \"hidden_size\": 4096, \"intermediate_size\": 14336," \
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_key_value_heads\": 8," \
                 " \"vocab_size\": 128256, \"tie_word_embeddings\": false, \"rope_scaling\": {\"factor\": 8.0}}"

/* A config file gives the shape and the 8,030,261,248 parameters; an answer given wins (hidden
 * 2048 with the file's 32 heads: attention 2 x 2048^2 + 2 x 2048 x 512, MLP 3 x 2048 x 14336 a
 * layer, 98,566,144 x 32 = 3,154,116,608, embeddings 2 x 128256 x 2048 = 525,336,576, norms
 * 65 x 2048 = 133,120: 3,679,586,304). */
Test(recommend_cli, model_config_fills_what_the_answers_leave_out)
{
    char *cfg = ts_path(dir, "config.json");
    ts_write_str(cfg, LLAMA_8B);
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--model-config", cfg, "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_float_eq(answer_of(r.out, "model_params"), 8030261248.0, 0.5);
    cr_expect_float_eq(answer_of(r.out, "kv_heads"), 8, 0);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--model-config", cfg, "--set", "hidden=2048", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_float_eq(answer_of(r.out, "hidden"), 2048, 0);
    cr_expect_float_eq(answer_of(r.out, "model_params"), 3679586304.0, 0.5);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--model", "mixtral-8x7b", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_float_eq(answer_of(r.out, "active_params"), 12879925248.0, 0.5);
    ts_run_free(&r);
    free(cfg);
}

Test(recommend_cli, bad_config_files_exit_3_on_one_line)
{
    static const char *const bodies[] = {
        "not json at all",
        "{\"hidden_size\": \"\\u001b[2J4096\", \"intermediate_size\": 1}",
        "{\"hidden_size\": -4096}",
        "{\"hidden_size\": 1e300}",
    };
    static const char *const fields[] = {"not a JSON object", "field 'hidden_size'", "field 'hidden_size'",
                                         "field 'hidden_size'"};
    char *cfg = ts_path(dir, "config.json");
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        ts_write_str(cfg, bodies[i]);
        struct ts_run r;
        RUN(r, dbarg, "recommend", "--model-config", cfg);
        cr_expect_eq(r.status, 3, "%s: %s", bodies[i], r.err);
        cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
        cr_expect(strstr(r.err, cfg) && strstr(r.err, fields[i]), "%s", r.err);
        cr_expect(strchr(r.err, '\033') == NULL, "raw escape printed: %s", r.err);
        ts_run_free(&r);
    }
    /* larger than 1 MiB */
    size_t big = ((size_t)1 << 20) + 16;
    char *text = malloc(big + 1);
    cr_assert_not_null(text);
    memset(text, ' ', big);
    text[0] = '{', text[big - 1] = '}', text[big] = '\0';
    ts_write_str(cfg, text);
    free(text);
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--model-config", cfg);
    cr_expect_eq(r.status, 3, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--model-config", "/nonexistent/config.json");
    cr_expect_eq(r.status, 3, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--model", "llama-4");
    cr_expect_eq(r.status, 3, "%s", r.err);
    cr_expect(strstr(r.err, "key 'model'") != NULL, "%s", r.err);
    ts_run_free(&r);
    free(cfg);
}
