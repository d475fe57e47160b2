/* The command line's rough edges, one test per edge: help within 80 columns, "did you mean",
 * values in any case, numbers with suffixes, options that would change nothing refused (exit 2),
 * contradictions named (exit 3), output checked before the work, write errors, floats in JSON at
 * their own precision. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/support.h"

static char *dir, dbarg[4200];
static const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", NULL};

static void setup(void)
{
    dir = ts_tmpdir();
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(cli_edges, .init = setup, .fini = teardown, .timeout = 90);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

/* Runs and checks the exit status and that stderr holds `err` (NULL: anything). */
static void expect_run(int status, const char *err, const char *const *args)
{
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, args), 0);
    cr_expect_eq(r.status, status, "%s %s %s: exit %d, stderr: %s", args[0], args[1] ? args[1] : "",
                 args[1] && args[2] ? args[2] : "", r.status, r.err);
    if (err) cr_expect(strstr(r.err, err) != NULL, "%s %s: '%s' lacks '%s'", args[0], args[1] ? args[1] : "", r.err, err);
    ts_run_free(&r);
}
#define EXPECT(status, err, ...) expect_run((status), (err), (const char *const[]){__VA_ARGS__, NULL})

Test(cli_edges, every_help_fits_80_columns)
{
    static const char *const helps[][4] = {
        {"--help"}, {"help"}, {"recommend", "--help"}, {"probe", "--help"}, {"train", "--help"},
        {"train", "--model", "gpt", "--help"}, {"kb", "--help"}, {"completion", "--help"},
    };
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
        const char *args[6] = {helps[i][0], helps[i][1], helps[i][2], helps[i][3], NULL};
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, args), 0);
        cr_expect_eq(r.status, 0, "%s", helps[i][0]);
        cr_expect_gt(ts_lines(r.out), 5, "%s %s", helps[i][0], helps[i][1] ? helps[i][1] : "");
        cr_expect_leq(ts_max_width(r.out), 80, "%s %s %s: a line over 80 columns:\n%s", helps[i][0],
                      helps[i][1] ? helps[i][1] : "", helps[i][2] ? helps[i][2] : "", r.out);
        ts_run_free(&r);
    }
}

Test(cli_edges, did_you_mean_by_edit_distance_and_prefix)
{
    EXPECT(2, "unknown command 'recomend' (did you mean 'recommend'?)", "recomend");
    EXPECT(2, "unknown command 'tran' (did you mean 'train'?)", "tran");
    EXPECT(2, "(recommend, probe, train, kb, completion, help)", "frobnicate");
    EXPECT(3, "unknown preset 'tpu' (did you mean 'tpu-pod'?", dbarg, "recommend", "--preset", "tpu");
    EXPECT(3, "(did you mean 'raspberry-pi'?", dbarg, "recommend", "--preset", "raspbery-pi");
    EXPECT(3, "no fact with id 'h100' (did you mean 'h100-sxm'?)", dbarg, "kb", "show", "h100");
    EXPECT(2, "unknown kb subcommand 'lst' (did you mean 'list'?)", dbarg, "kb", "lst");
    EXPECT(2, "unknown kind 'framework' (did you mean 'frameworks'?)", dbarg, "kb", "list", "framework");
    EXPECT(2, "unknown probe subcommand 'shwo' (did you mean 'show'?)", dbarg, "probe", "shwo", "latest");
    EXPECT(3, "unknown key 'model_param' (did you mean 'model_params'?)", dbarg, "recommend", "--set", "model_param=7");
}

Test(cli_edges, values_in_any_case)
{
    EXPECT(0, NULL, dbarg, "Recommend", "--preset", "TPU-Pod", "--set", "hardware=TPU", "--set", "stage=Production");
    EXPECT(0, NULL, dbarg, "kb", "List", "Distributed");
    EXPECT(0, NULL, dbarg, "kb", "show", "PyTorch");
    EXPECT(0, NULL, "train", "--layers", "4,2", "--steps", "2", "--optimizer", "Adam", "--activation", "GELU", "--loss", "MSE",
           "--device", "CPU");
}

Test(cli_edges, numbers_with_suffixes_in_set_and_files)
{
    char *answers = ts_path(dir, "a.json");
    ts_write_str(answers, "{\"model_kind\": \"llm\", \"model_params\": \"70B\", \"tokens\": \"1.4T\", \"devices\": \"1,024\","
                          " \"nodes\": 128, \"hardware\": \"nvidia\"}");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "-a", answers, "--set", "price_per_device_hour=2", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out), *a = cJSON_GetObjectItem(doc, "answers");
    cr_expect_eq(cJSON_GetObjectItem(a, "model_params")->valuedouble, 70e9);
    cr_expect_eq(cJSON_GetObjectItem(a, "tokens")->valuedouble, 1.4e12);
    cr_expect_eq(cJSON_GetObjectItem(a, "devices")->valuedouble, 1024);
    cJSON_Delete(doc);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--set", "model_params=30b", "--json");
    doc = cJSON_Parse(r.out);
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "answers"), "model_params")->valuedouble, 30e9, "%s", r.err);
    cJSON_Delete(doc);
    ts_run_free(&r);
    EXPECT(0, NULL, "train", "--layers", "4,2", "--steps", "1K", "--batch", "8");
    free(answers);
}

Test(cli_edges, contradictions_exit_3_naming_both_keys)
{
    EXPECT(3, "keys 'nodes' and 'devices': nodes 16 is more than devices 8", dbarg, "recommend", "--set", "devices=8",
           "--set", "nodes=16");
    EXPECT(0, NULL, dbarg, "recommend", "--set", "devices=16", "--set", "nodes=16");
    EXPECT(3, "key 'team': 'none' cannot be combined with a framework", dbarg, "recommend", "--set", "team=none,jax");
    EXPECT(3, "keys 'lora_rank' and 'finetune'", dbarg, "recommend", "--set", "lora_rank=8");
    EXPECT(3, "keys 'deploy_hardware' and 'deploy'", dbarg, "recommend", "--set", "deploy_hardware=nvidia");
    EXPECT(3, "keys 'active_params' and 'model_params'", dbarg, "recommend", "--set", "model_params=7B", "--set",
           "active_params=8B");
}

Test(cli_edges, options_that_would_change_nothing_exit_2)
{
    EXPECT(2, "--momentum applies to --optimizer momentum only", "train", "--layers", "4,2", "--momentum", "0.5");
    EXPECT(0, NULL, "train", "--layers", "4,2", "--steps", "2", "--optimizer", "momentum", "--momentum", "0.5");
    EXPECT(2, "--momentum applies", "train", "--model", "gpt", "--momentum", "0.5", "--steps", "1");
    EXPECT(2, "--seed applies", "train", "--layers", "4,2", "--seed", "3", "--init", "w.safetensors", "--data", "x.npy",
           "--targets", "y.npy");
    EXPECT(2, "--seed applies", "train", "--model", "gpt", "--seed", "3", "--init", "w.safetensors", "--text", "t.txt");
    EXPECT(2, "--threads applies to --device cpu", "train", "--layers", "4,2", "--device", "cuda", "--threads", "2");
    EXPECT(2, "--max-memory applies to --device cpu", "train", "--model", "gpt", "--device", "cuda:1", "--max-memory", "4");
    EXPECT(2, "--full applies to a measurement", dbarg, "probe", "list", "--full");
    EXPECT(2, "--compare applies to probe show and a measurement", dbarg, "probe", "list", "--compare", "latest");
    EXPECT(2, "--compare applies to the table or the --html page", dbarg, "probe", "show", "latest", "--compare", "latest",
           "--json");
    EXPECT(2, "--json applies to probe list, probe show and a measurement", dbarg, "probe", "delete", "x", "--json");
    EXPECT(2, "--compare applies to the table", dbarg, "probe", "--compare", "latest", "--json");
    EXPECT(2, "--threads applies to the CPU's measurements", dbarg, "probe", "--device", "cuda", "--threads", "2");
    EXPECT(2, "--quick and --full contradict", dbarg, "probe", "--quick", "--full");
    EXPECT(2, "--python applies to the frameworks workload", dbarg, "probe", "--python", "/usr/bin/python3");
    EXPECT(2, "--framework-timeout applies to the frameworks workload", dbarg, "probe", "--workload", "gemm",
           "--framework-timeout", "5");
    EXPECT(2, "--python applies to a measurement", dbarg, "probe", "list", "--python", "/usr/bin/python3");
    EXPECT(2, "--set applies to a recommendation", dbarg, "recommend", "--list-presets", "--set", "stage=research");
}

/* A file that cannot be written fails before the work, not after it. */
Test(cli_edges, outputs_checked_before_the_work)
{
    char *missing = ts_path(dir, "no/such/dir/w.safetensors");
    struct ts_run r;
    time_t t0 = time(NULL);
    RUN(r, "train", "--layers", "64,64,2", "--steps", "10M", "--save", missing);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "cannot write") && strstr(r.err, "No such file or directory"), "%s", r.err);
    cr_expect(strstr(r.out, "step") == NULL, "it trained first:\n%s", r.out);
    cr_expect_lt(time(NULL) - t0, 30, "ten million steps were not run");
    ts_run_free(&r);
    RUN(r, "train", "--model", "gpt", "--steps", "10M", "--save", dir);
    cr_expect_eq(r.status, 2, "a directory: %s", r.err);
    cr_expect(strstr(r.err, "it is a directory") != NULL, "%s", r.err);
    ts_run_free(&r);
    char *json = ts_path(dir, "no/such/dir/run.json");
    RUN(r, dbarg, "probe", "-o", json);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "cannot write") != NULL, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "probe", "list");
    cr_expect(strstr(r.out, "0 runs") != NULL, "nothing was measured or stored:\n%s", r.out);
    ts_run_free(&r);
    free(missing);
    free(json);
}

Test(cli_edges, write_errors_on_stdout_exit_1)
{
    struct ts_run r;
    const char *cmd[] = {"-c", "\"$0\" \"$1\" recommend > /dev/full", getenv("FWADVISOR_BIN"), dbarg, NULL};
    cr_assert_eq(ts_exec(&r, "/bin/sh", env, NULL, cmd), 0);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "cannot write to standard output") != NULL, "%s", r.err);
    ts_run_free(&r);
}

Test(cli_edges, json_floats_at_their_own_precision)
{
    struct ts_run r;
    RUN(r, "train", "--layers", "4,2", "--steps", "3", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"lr\":\t0.001,") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "0.0010000000474974513") == NULL);
    cr_expect(strstr(r.out, "\"momentum\":\t0.9,") != NULL, "%s", r.out);
    /* Every loss reads back as the float it was, in at most 9 significant digits. */
    cJSON *doc = cJSON_Parse(r.out), *loss;
    cJSON_ArrayForEach(loss, cJSON_GetObjectItem(doc, "losses")) {
        char text[64];
        snprintf(text, sizeof text, "%.9g", loss->valuedouble);
        cr_expect_eq((float)loss->valuedouble, (float)strtod(text, NULL));
        char *printed = cJSON_PrintUnformatted(loss);
        cr_expect_leq(strlen(printed), 12, "shortest form: %s", printed);
        free(printed);
    }
    cJSON_Delete(doc);
    ts_run_free(&r);
    RUN(r, "train", "--model", "gpt", "--steps", "2", "--lr", "3e-4", "--json");
    cr_expect(strstr(r.out, "\"lr\":\t0.0003,") != NULL, "%s", r.out);
    ts_run_free(&r);
}

Test(cli_edges, preset_list_says_what_each_is_for)
{
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--list-presets");
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "tpu-pod") && strstr(r.out, "LLM training on a 256-chip TPU pod"), "%s", r.out);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--list-presets", "--json");
    cJSON *doc = cJSON_Parse(r.out);
    cr_expect_eq(cJSON_GetArraySize(doc), 9);
    const cJSON *p;
    cJSON_ArrayForEach(p, doc) cr_expect_gt(strlen(cJSON_GetObjectItem(p, "description")->valuestring), 10);
    cJSON_Delete(doc);
    ts_run_free(&r);
}

/* The sample answers file the README names is valid and uses the suffixes. */
Test(cli_edges, sample_answers_file_runs)
{
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char path[4200];
    snprintf(path, sizeof path, "%s/../../data/sample-answers.json", fixtures ? fixtures : "tests/fixtures");
    char *text = ts_read(path, NULL);
    cr_assert_not_null(text, "%s", path);
    cr_expect(strstr(text, "\"70B\"") != NULL);
    free(text);
    EXPECT(0, NULL, dbarg, "recommend", "-a", path);
}

/* The document a command printed, parsed; the test fails when it is not JSON. */
static cJSON *run_json(const char *const *args)
{
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, args), 0);
    cr_assert_eq(r.status, 0, "%s %s: exit %d: %s", args[0], args[1], r.status, r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "not JSON: %s", r.out);
    ts_run_free(&r);
    return doc;
}
#define RUN_JSON(...) run_json((const char *const[]){__VA_ARGS__, NULL})

static int members(const cJSON *obj)
{
    return cJSON_GetArraySize(obj);
}

Test(cli_edges, fields_cut_every_json_output_down)
{
    cJSON *doc = RUN_JSON("recommend", dbarg, "--preset", "academic-research", "--probe", "none", "--json", "--fields",
                          "ranking.framework,plan.time.mfu");
    cr_expect_eq(members(doc), 2);
    const cJSON *rank = cJSON_GetObjectItem(doc, "ranking");
    cr_expect_eq(cJSON_GetArraySize(rank), 8, "every framework's row");
    cr_expect_eq(members(cJSON_GetArrayItem(rank, 0)), 1);
    cr_expect_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rank, 0), "framework")->valuestring, "pytorch");
    const cJSON *time = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "time");
    cr_expect_eq(members(cJSON_GetObjectItem(doc, "plan")), 1);
    cr_expect_eq(members(time), 1);
    cr_expect_float_eq(cJSON_GetObjectItem(time, "mfu")->valuedouble, 0.3, 1e-9);
    cJSON_Delete(doc);

    doc = RUN_JSON("recommend", "--list-presets", "--json", "--fields", "name");
    cr_expect_gt(cJSON_GetArraySize(doc), 5);
    cr_expect_eq(members(cJSON_GetArrayItem(doc, 0)), 1);
    cr_expect_str_eq(cJSON_GetArrayItem(doc, 0)->child->string, "name");
    cJSON_Delete(doc);

    doc = RUN_JSON("kb", dbarg, "list", "accelerators", "--json", "--fields", "id,bf16_tflops");
    const cJSON *first = cJSON_GetArrayItem(doc, 0);
    cr_expect_eq(members(first), 2);
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(first, "id")) && cJSON_IsNumber(cJSON_GetObjectItem(first, "bf16_tflops")));
    cJSON_Delete(doc);

    doc = RUN_JSON("kb", dbarg, "show", "pytorch", "--json", "--fields", "framework.version");
    cr_expect_eq(members(doc), 1);
    cr_expect_eq(members(cJSON_GetObjectItem(doc, "framework")), 1);
    cJSON_Delete(doc);

    doc = RUN_JSON("probe", dbarg, "list", "--json", "--fields", "id");
    cr_expect(cJSON_IsArray(doc) && cJSON_GetArraySize(doc) == 0, "no runs stored: an empty list");
    cJSON_Delete(doc);

    doc = RUN_JSON("train", "--layers", "4,8,2", "--steps", "3", "--json", "--fields", "step_ms.timed_steps,losses");
    cr_expect_eq(members(doc), 2);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "losses")), 3);
    cr_expect_eq(members(cJSON_GetObjectItem(doc, "step_ms")), 1);
    cJSON_Delete(doc);

    doc = RUN_JSON("train", "--model", "gpt", "--n-layer", "1", "--n-head", "1", "--n-embd", "16", "--ctx", "8",
                   "--vocab", "32", "--batch", "2", "--steps", "2", "--json", "--fields", "losses");
    cr_expect_eq(members(doc), 1);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "losses")), 2);
    cJSON_Delete(doc);
}

Test(cli_edges, fields_go_into_the_report_file_too)
{
    char *path = ts_path(dir, "r.json");
    struct ts_run r;
    RUN(r, "recommend", dbarg, "--preset", "academic-research", "--probe", "none", "-o", path, "--fields", "schema");
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    char *text = ts_read(path, NULL);
    cJSON *doc = cJSON_Parse(text);
    cr_expect(doc && members(doc) == 1 && cJSON_GetObjectItem(doc, "schema"), "%s", text);
    cJSON_Delete(doc);
    free(text);
    free(path);
}

Test(cli_edges, fields_refused_without_json_or_for_a_member_the_document_lacks)
{
    /* nothing to cut: exit 2, before any work */
    EXPECT(2, "--fields applies to --json output", "recommend", dbarg, "--preset", "academic-research", "--fields", "plan");
    EXPECT(2, "--fields applies to --json output", "kb", dbarg, "list", "--fields", "id");
    EXPECT(2, "--fields applies to --json output", "probe", dbarg, "list", "--fields", "id");
    EXPECT(2, "--fields applies to --json output", "train", "--layers", "4,8,2", "--steps", "3", "--fields", "losses");
    EXPECT(2, "--fields applies to --json output", "train", "--model", "gpt", "--steps", "2", "--fields", "losses");
    EXPECT(2, "--fields applies", "kb", dbarg, "export", "--fields", "id"); /* export writes the whole base */
    EXPECT(2, "option '--fields' needs a value", "kb", dbarg, "list", "--json", "--fields");
    /* a name the document lacks: exit 2 with the nearest one, and no half document on stdout */
    struct ts_run r;
    RUN(r, "recommend", dbarg, "--preset", "academic-research", "--probe", "none", "--json", "--fields", "plan.tim");
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "fwadvisor: --fields: no member 'tim' in plan (did you mean 'time'?)") != NULL, "%s", r.err);
    cr_expect_str_eq(r.out, "");
    ts_run_free(&r);
    EXPECT(2, "no member 'nam' in the document (did you mean 'name'?)", "kb", dbarg, "list", "frameworks", "--json",
           "--fields", "nam");
    /* a name from outside reaches the terminal escaped */
    RUN(r, "kb", dbarg, "list", "--json", "--fields", "\x1b[31mred");
    cr_expect_eq(r.status, 2);
    cr_expect(strchr(r.err, '\x1b') == NULL && strstr(r.err, "\\x1b[31mred") != NULL, "%s", r.err);
    ts_run_free(&r);
}
