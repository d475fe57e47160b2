/* Export and import: the round trip, user facts, and every kind of bad document. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "knowledge/kb.h"
#include "knowledge/kb_text.h"
#include "tests/support.h"

static struct ts_kb fx;
static kb *k;
static char *dir;
static char err[1024];

static void setup(void)
{
    cr_assert_eq(ts_kb_open(&fx, err, sizeof err), 0, "%s", err);
    k = fx.kb;
    dir = fx.dir;
}

static void teardown(void) { ts_kb_close(&fx); }

static char *export_text(kb *from, int user_only)
{
    cJSON *doc;
    cr_assert_eq(kb_export(from, user_only, &doc, err, sizeof err), KB_OK, "%s", err);
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    return text;
}

TestSuite(kb_io, .init = setup, .fini = teardown);

Test(kb_io, export_import_export_round_trip_is_identical)
{
    char *first = export_text(k, 0);
    char *other_path = ts_path(dir, "other.sqlite3");
    kb *other;
    cr_assert_eq(kb_open(other_path, 0, &other, err, sizeof err), KB_OK, "%s", err);
    struct kb_import_stats stats;
    cr_assert_eq(kb_import(other, first, strlen(first), "export.json", &stats, err, sizeof err), KB_OK, "%s", err);
    char *second = export_text(other, 0);
    cr_expect_str_eq(second, first);
    cJSON *doc = cJSON_Parse(first);
    cr_expect_str_eq(cJSON_GetObjectItem(doc, "schema")->valuestring, "fwadvisor.kb/1");
    cr_expect_gt(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "scores")), 90);
    cJSON_Delete(doc);
    kb_close(other);
    free(first);
    free(second);
    free(other_path);
}

Test(kb_io, changed_and_new_facts_become_the_users)
{
    const char *doc =
        "{\"schema\": \"fwadvisor.kb/1\",\n"
        " \"sources\": [{\"id\": \"team-bench\", \"title\": \"Our benchmark\", \"url\": \"internal wiki\","
        "   \"published\": \"2026-11-02\", \"note\": \"8x H100 run\"}],\n"
        " \"scores\": [{\"framework\": \"jax\", \"criterion\": \"debugging\", \"score\": 6,"
        "   \"note\": \"Our team finds jax.debug adequate.\", \"source\": \"team-bench\", \"as_of\": \"2026-11-02\"}],\n"
        " \"runtimes\": [{\"id\": \"mnn\", \"name\": \"MNN\", \"targets\": [\"mobile\", \"edge\"],"
        "   \"hardware\": [\"cpu\", \"qualcomm\"], \"status\": \"current\", \"summary\": \"Alibaba's on-device engine.\","
        "   \"source\": \"team-bench\", \"as_of\": \"2026-11-02\"}]}";
    struct kb_import_stats stats;
    cr_assert_eq(kb_import(k, doc, strlen(doc), "mine.json", &stats, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(stats.added, 2);
    cr_expect_eq(stats.changed, 1);
    cr_expect_eq(stats.unchanged, 0);
    char *mine = export_text(k, 1);
    cJSON *exported = cJSON_Parse(mine);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(exported, "sources")), 1);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(exported, "scores")), 1);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(exported, "runtimes")), 1);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(exported, "frameworks")), 0);
    cJSON *targets = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(exported, "runtimes"), 0), "targets");
    cr_expect_eq(cJSON_GetArraySize(targets), 2);
    cJSON_Delete(exported);
    free(mine);
    /* Importing the same document again changes nothing. */
    cr_assert_eq(kb_import(k, doc, strlen(doc), "mine.json", &stats, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(stats.unchanged, 3);
    cr_expect_eq(stats.added + stats.changed, 0);
}

/* Only arrays, no pointers: Criterion hands parameters to the test process by value. */
struct bad_doc {
    char name[32];
    char body[1024];     /* the document */
    char expect[96];     /* a piece of the error line */
};

/* Valid pieces to build the bad documents from. */
#define HEAD "{\"schema\": \"fwadvisor.kb/1\", "
#define SCORE(fw, crit, score, extra) \
    "\"scores\": [{\"framework\": \"" fw "\", \"criterion\": \"" crit "\", \"score\": " score \
    ", \"note\": \"n\"" extra ", \"as_of\": \"2026-01-01\"}]}"

static struct bad_doc bad_docs[] = {
    {"malformed", "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": }]}", "malformed JSON at byte 48"},
    {"truncated", "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [", "malformed JSON at byte"},
    {"trailing", "{\"schema\": \"fwadvisor.kb/1\"} extra", "text after the document"},
    {"not_object", "[1, 2, 3]", "expected a JSON object"},
    {"wrong_schema", "{\"schema\": \"fwadvisor.answers/1\"}", "schema: expected"},
    {"unknown_table", HEAD "\"frameworkz\": []}", "unknown member 'frameworkz'"},
    {"table_not_array", HEAD "\"sources\": {}}", "sources: expected an array"},
    {"score_as_string", HEAD SCORE("jax", "debugging", "\"9\"", ", \"source\": \"seed-001\""), "scores[0].score: expected a number"},
    {"score_above_10", HEAD SCORE("jax", "debugging", "11", ", \"source\": \"seed-001\""), "11 is outside 0-10"},
    {"score_negative", HEAD SCORE("jax", "debugging", "-1", ", \"source\": \"seed-001\""), "-1 is outside 0-10"},
    {"score_fraction", HEAD SCORE("jax", "debugging", "7.5", ", \"source\": \"seed-001\""), "expected a whole number"},
    {"unknown_framework", HEAD SCORE("theano", "debugging", "5", ", \"source\": \"seed-001\""), "unknown id 'theano'"},
    {"unknown_criterion", HEAD SCORE("jax", "vibes", "5", ", \"source\": \"seed-001\""), "unknown id 'vibes'"},
    {"no_source", HEAD SCORE("jax", "debugging", "5", ""), "scores[0]: fact has no source"},
    {"unknown_source", HEAD SCORE("jax", "debugging", "5", ", \"source\": \"my-blog\""), "unknown id 'my-blog'"},
    {"bad_as_of", HEAD "\"hardware\": [{\"id\": \"fpga\", \"name\": \"FPGA\", \"summary\": \"s\", \"source\": \"seed-001\","
                  " \"as_of\": \"last week\"}]}", "is not a date (YYYY-MM-DD)"},
    {"bad_level", HEAD "\"hw_support\": [{\"framework\": \"jax\", \"hardware\": \"amd\", \"level\": \"great\","
                  " \"note\": \"n\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "'great' is not one of first-class"},
    {"unknown_column", HEAD "\"sources\": [{\"id\": \"a\", \"title\": \"t\", \"url\": \"u\", \"published\": \"2026\","
                       " \"colour\": \"red\"}]}", "unknown column 'colour'"},
    {"missing_column", HEAD "\"sources\": [{\"id\": \"a\", \"url\": \"u\", \"published\": \"2026\"}]}", "sources[0].title: missing"},
    {"empty_note", HEAD "\"scores\": [{\"framework\": \"jax\", \"criterion\": \"debugging\", \"score\": 5,"
                   " \"note\": \"\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "scores[0].note: must not be empty"},
    {"bad_id", HEAD "\"sources\": [{\"id\": \"Bad Id\", \"title\": \"t\", \"url\": \"u\", \"published\": \"2026\"}]}", "is not a valid id"},
    {"duplicate_id", HEAD "\"sources\": [{\"id\": \"a\", \"title\": \"t\", \"url\": \"u\", \"published\": \"2026\"},"
                     " {\"id\": \"a\", \"title\": \"t2\", \"url\": \"u\", \"published\": \"2026\"}]}", "same id appears earlier"},
    {"bad_target", HEAD "\"runtimes\": [{\"id\": \"x\", \"name\": \"X\", \"targets\": [\"fridge\"], \"status\": \"current\","
                   " \"summary\": \"s\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "'fridge' is not one of server"},
    {"rule_typo_key", HEAD "\"rules\": [{\"id\": \"r\", \"kind\": \"score\", \"title\": \"t\", \"text\": \"x\","
                      " \"condition\": {\"hardwre\": \"tpu\"}, \"effect\": {\"score\": {\"jax\": 5}},"
                      " \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "did you mean 'hardware'"},
    {"rule_bad_value", HEAD "\"rules\": [{\"id\": \"r\", \"kind\": \"score\", \"title\": \"t\", \"text\": \"x\","
                       " \"condition\": {\"stage\": \"prod\"}, \"effect\": {},"
                       " \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "'prod' is not one of learning"},
    {"rule_unknown_framework", HEAD "\"rules\": [{\"id\": \"r\", \"kind\": \"score\", \"title\": \"t\", \"text\": \"x\","
                               " \"condition\": {}, \"effect\": {\"score\": {\"caffe\": 5}},"
                               " \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "unknown id 'caffe'"},
    /* An exclusion names frameworks of the knowledge base, each exactly: an unknown one, one
     * unknown beside a known one, the right id in the wrong case, a prefix, an empty name or list. */
#define EXCLUDE(list) \
    HEAD "\"rules\": [{\"id\": \"r\", \"kind\": \"decision\", \"title\": \"t\", \"text\": \"x\"," \
         " \"condition\": {}, \"effect\": {\"exclude\": " list "}, \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}"
    {"exclude_unknown", EXCLUDE("[\"caffe\"]"), "rules[0]: effect.exclude: unknown framework id 'caffe'"},
    {"exclude_one_unknown", EXCLUDE("[\"pytorch\", \"theano\"]"), "effect.exclude: unknown framework id 'theano'"},
    {"exclude_wrong_case", EXCLUDE("[\"PyTorch\"]"), "effect.exclude: unknown framework id 'PyTorch'"},
    {"exclude_prefix", EXCLUDE("[\"pytor\"]"), "effect.exclude: unknown framework id 'pytor'"},
    {"exclude_empty_id", EXCLUDE("[\"\"]"), "effect.exclude: unknown framework id ''"},
    {"exclude_not_a_string", EXCLUDE("[7]"), "effect.exclude: unknown framework id '(not a string)'"},
    {"exclude_empty_list", EXCLUDE("[]"), "effect.exclude: expected a non-empty array of framework ids"},
    {"exclude_not_a_list", EXCLUDE("\"jax\""), "effect.exclude: expected a non-empty array of framework ids"},
    {"not_offered_unknown", HEAD "\"rules\": [{\"id\": \"r\", \"kind\": \"decision\", \"title\": \"t\", \"text\": \"x\","
                            " \"condition\": {}, \"effect\": {\"not_offered\": [\"ddp\", \"zero4\"]},"
                            " \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "effect.not_offered: unknown strategy id 'zero4'"},
    /* The validator's half of the allowed values, each named by its own message (the schema's
     * CHECKs below never see these rows): a runtime cannot be 'legacy' (a strategy can), a fit
     * stops at 10, a strategy needs a device, a path is one of three. */
    {"runtime_status_legacy", HEAD "\"runtimes\": [{\"id\": \"x\", \"name\": \"X\", \"targets\": [\"server\"], \"hardware\": [\"cpu\"],"
                              " \"status\": \"legacy\", \"summary\": \"s\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}",
     "'legacy' is not one of current, maintenance, deprecated, archived"},
    {"fit_above_10", HEAD "\"hw_support\": [{\"framework\": \"jax\", \"hardware\": \"amd\", \"level\": \"supported\", \"fit\": 11,"
                     " \"note\": \"n\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "fit: 11 is outside 0-10"},
    {"path_direct", HEAD "\"runtime_frameworks\": [{\"runtime\": \"onnxruntime\", \"framework\": \"jax\", \"path\": \"direct\","
                    " \"note\": \"n\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "'direct' is not one of native"},
    {"rule_bad_weight", HEAD "\"rules\": [{\"id\": \"r\", \"kind\": \"weight\", \"title\": \"t\", \"text\": \"x\","
                        " \"condition\": {}, \"effect\": {\"weight\": {\"debugging\": -2}},"
                        " \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "expected a weight factor from 0.01 to 100"},
    /* Documents from before the hardware columns are refused, naming the first row that lacks one. */
    {"hw_support_without_fit", HEAD "\"hw_support\": [{\"framework\": \"jax\", \"hardware\": \"amd\", \"level\": \"supported\","
                               " \"os_support\": {}, \"note\": \"n\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}",
     "hw_support[0] (jax/amd) lacks 'fit'"},
    {"hw_support_old_os_limits", HEAD "\"hw_support\": [{\"framework\": \"jax\", \"hardware\": \"amd\", \"level\": \"supported\","
                                 " \"fit\": 6, \"os_limits\": \"linux only\", \"note\": \"n\", \"source\": \"seed-001\","
                                 " \"as_of\": \"2026-01-01\"}]}",
     "unknown column 'os_limits'"},
    {"runtime_without_hardware", HEAD "\"runtimes\": [{\"id\": \"x\", \"name\": \"X\", \"targets\": [\"server\"], \"status\": \"current\","
                                 " \"summary\": \"s\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}",
     "runtimes[0] (x) lacks 'hardware'"},
    {"strategy_without_hardware", HEAD "\"strategy_frameworks\": [{\"strategy\": \"zero3\", \"framework\": \"jax\","
                                  " \"note\": \"n\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}",
     "strategy_frameworks[0] (zero3/jax) lacks 'hardware'"},
    {"strategy_unknown_hardware", HEAD "\"strategy_frameworks\": [{\"strategy\": \"zero3\", \"framework\": \"jax\","
                                  " \"hardware\": [\"fpga\"], \"note\": \"n\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}",
     "unknown id 'fpga' (not in hardware)"},
    {"os_support_bad_os", HEAD "\"hw_support\": [{\"framework\": \"jax\", \"hardware\": \"amd\", \"level\": \"supported\","
                          " \"fit\": 6, \"os_support\": {\"beos\": {\"level\": \"none\", \"source\": \"seed-001\"}},"
                          " \"note\": \"n\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}",
     "os_support.beos: not an operating system"},
    {"os_support_bad_level", HEAD "\"hw_support\": [{\"framework\": \"jax\", \"hardware\": \"amd\", \"level\": \"supported\","
                             " \"fit\": 6, \"os_support\": {\"windows\": {\"level\": \"mostly\", \"source\": \"seed-001\"}},"
                             " \"note\": \"n\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}",
     "os_support.windows.level: expected one of first-class, supported, experimental, community, none"},
    {"os_support_no_source", HEAD "\"hw_support\": [{\"framework\": \"jax\", \"hardware\": \"amd\", \"level\": \"supported\","
                             " \"fit\": 6, \"os_support\": {\"windows\": {\"level\": \"none\"}},"
                             " \"note\": \"n\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}",
     "os_support.windows.source: expected the id of a source"},
    {"also_unknown_source", HEAD SCORE("jax", "debugging", "5", ", \"source\": \"seed-001\", \"also\": [\"my-blog\"]"),
     "scores[0].also: unknown id 'my-blog'"},
    {"rule_familiar_above_1", HEAD "\"rules\": [{\"id\": \"r\", \"kind\": \"decision\", \"title\": \"t\", \"text\": \"x\","
                              " \"condition\": {}, \"effect\": {\"familiar\": {\"jax\": 2}},"
                              " \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "share between 0 and 1"},
    {"rule_concerns_unknown", HEAD "\"rules\": [{\"id\": \"r\", \"kind\": \"pitfall\", \"title\": \"t\", \"text\": \"x\","
                              " \"condition\": {}, \"effect\": {\"concerns\": {\"strategies\": [\"deepspeed\"]}},"
                              " \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "unknown id 'deepspeed' (not in strategies)"},
    {"negative_memory", HEAD "\"accelerators\": [{\"id\": \"x\", \"name\": \"X\", \"vendor\": \"nvidia\", \"memory_gb\": 0,"
                        " \"bandwidth_gbs\": 1, \"fp32_tflops\": 1, \"bf16_tflops\": 1, \"fp16_tflops\": 1, \"match\": \"x\","
                        " \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}", "memory_gb: 0 must be > 0"},
};

ParameterizedTestParameters(kb_io, bad_documents_are_rejected_and_change_nothing)
{
    return cr_make_param_array(struct bad_doc, bad_docs, sizeof bad_docs / sizeof bad_docs[0]);
}

ParameterizedTest(struct bad_doc *bad, kb_io, bad_documents_are_rejected_and_change_nothing)
{
    char *before = export_text(k, 0);
    struct kb_import_stats stats;
    int status = kb_import(k, bad->body, strlen(bad->body), "bad.json", &stats, err, sizeof err);
    cr_expect_eq(status, KB_ERR_INPUT, "%s: status %d (%s)", bad->name, status, err);
    cr_expect(strstr(err, bad->expect) != NULL, "%s: error '%s' lacks '%s'", bad->name, err, bad->expect);
    cr_expect(strncmp(err, "bad.json: ", 10) == 0, "%s: error should name the file: %s", bad->name, err);
    cr_expect(strchr(err, '\n') == NULL, "%s: error must be one line", bad->name);
    char *after = export_text(k, 0);
    cr_expect_str_eq(after, before, "%s: database changed", bad->name);
    free(before);
    free(after);
}

/* The same refusal through `fwadvisor kb import`: exit 3 (invalid input), the one line naming the
 * file, the row and the id, nothing on standard output, and the database as it was (its export
 * the same before and after, and a valid import after it still counts the rule as new). */
Test(kb_io, an_exclusion_of_an_unknown_framework_is_refused_by_the_command)
{
    char *db = ts_path(dir, "cli.sqlite3"), *bad = ts_path(dir, "exclude.json"), *good = ts_path(dir, "good.json");
    char dbarg[4200];
    snprintf(dbarg, sizeof dbarg, "--db=%s", db);
    static const char *const env[] = {"NO_COLOR=1", "FWADVISOR_DB", NULL};
    ts_write_str(bad, EXCLUDE("[\"jax\", \"caffe\"]"));
    ts_write_str(good, EXCLUDE("[\"jax\"]"));
    struct ts_run before, r, after;
    cr_assert_eq(ts_run(&before, env, NULL, (const char *const[]){dbarg, "kb", "export", NULL}), 0);
    cr_assert_eq(before.status, 0, "%s", before.err);
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){dbarg, "kb", "import", bad, NULL}), 0);
    cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    char want[4400];
    snprintf(want, sizeof want, "fwadvisor: %s: rules[0]: effect.exclude: unknown framework id 'caffe'\n", bad);
    cr_expect_str_eq(r.err, want);
    cr_expect_str_eq(r.out, "");
    cr_assert_eq(ts_run(&after, env, NULL, (const char *const[]){dbarg, "kb", "export", NULL}), 0);
    cr_expect_str_eq(after.out, before.out, "the refused import wrote something");
    ts_run_free(&r);
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){dbarg, "kb", "import", good, NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, "imported 1 facts: 1 added, 0 changed, 0 unchanged\n"
                            "1 fact has its text in one language only; the other language shows it as it is\n");
    ts_run_free(&r);
    ts_run_free(&before);
    ts_run_free(&after);
    free(db);
    free(bad);
    free(good);
}

/* A real column changed only in its fraction is a change, written and read back to the bit:
 * the H100 SXM's dense BF16 989.4 -> 989.5 TFLOPS (and FP16 left at 989.4: unchanged values in a
 * changed row stay as they were), then a change in the 15th significant digit
 * (989.50000000001), then the same value again (unchanged). */
Test(kb_io, a_real_value_changed_in_its_fraction_is_written_exactly)
{
#define H100(bf16) \
    HEAD "\"sources\": [{\"id\": \"team-bench\", \"title\": \"Our benchmark\", \"url\": \"internal wiki\"," \
         " \"published\": \"2026-12-02\"}], \"accelerators\": [{\"id\": \"h100-sxm\", \"name\": \"NVIDIA H100 SXM 80GB\"," \
         " \"vendor\": \"nvidia\", \"memory_gb\": 80, \"bandwidth_gbs\": 3350, \"fp32_tflops\": 67, \"tf32_tflops\": 494.7," \
         " \"bf16_tflops\": " bf16 ", \"fp16_tflops\": 989.4, \"fp8_tflops\": 1978.9, \"link_gbs\": 450," \
         " \"network_gbs\": 50, \"interconnect\": \"NVLink 4; DGX H100: 400 Gb/s NDR per GPU\", \"compute_capability\": \"9.0\"," \
         " \"match\": \"h100 80gb hbm3\", \"planner_default\": 1," \
         " \"source\": \"team-bench\", \"as_of\": \"2026-12-02\"}]}"
    static const struct {
        const char *doc;
        double bf16;
        int changed, unchanged;
    } steps[] = {
        {H100("989.5"), 989.5, 1, 0},
        {H100("989.50000000001"), 989.50000000001, 1, 0},
        {H100("989.50000000001"), 989.50000000001, 0, 1},
        {H100("989.4"), 989.4, 1, 0},
    };
    const char *sql = "SELECT bf16_tflops FROM accelerators WHERE id = ?1";
    cr_assert(ts_kb_number(k, sql, "h100-sxm") == 989.4, "the built-in figure: %.17g", ts_kb_number(k, sql, "h100-sxm"));
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        struct kb_import_stats stats;
        cr_assert_eq(kb_import(k, steps[i].doc, strlen(steps[i].doc), "h100.json", &stats, err, sizeof err), KB_OK, "%s", err);
        cr_expect_eq(stats.changed, steps[i].changed, "step %zu: %d changed", i, stats.changed);
        /* the source is new the first time, then unchanged */
        cr_expect_eq(stats.unchanged, steps[i].unchanged + (i > 0), "step %zu: %d unchanged", i, stats.unchanged);
        double got = ts_kb_number(k, sql, "h100-sxm");
        cr_expect(got == steps[i].bf16, "step %zu: stored %.17g, want %.17g", i, got, steps[i].bf16);
        cr_expect(ts_kb_number(k, "SELECT fp16_tflops FROM accelerators WHERE id = ?1", "h100-sxm") == 989.4, "step %zu", i);
        /* and exported as it was stored */
        cJSON *doc;
        cr_assert_eq(kb_export(k, 1, &doc, err, sizeof err), KB_OK, "%s", err);
        const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "accelerators"), 0);
        cr_expect_str_eq(cJSON_GetObjectItem(row, "id")->valuestring, "h100-sxm");
        cr_expect(cJSON_GetObjectItem(row, "bf16_tflops")->valuedouble == steps[i].bf16, "step %zu: exported %.17g", i,
                  cJSON_GetObjectItem(row, "bf16_tflops")->valuedouble);
        cJSON_Delete(doc);
    }
#undef H100
}

/* The schema's CHECKs are the write-time half of the allowed values (data/schema.sql: "the last
 * line of defence"); written past the validator, straight in SQL, each refuses on its own and
 * leaves the row as it was, and each boundary value it allows is taken: a score 0-10 (11 and -1
 * refused), a fit 0-10, a runtime's status without 'legacy', a path of three, a vendor of the
 * catalog's eight, memory above 0 (0 refused, 0.001 taken), a BF16 peak from 0 (0 taken: no
 * BF16), a title not empty, an origin builtin or user. */
Test(kb_io, the_schema_checks_refuse_what_the_validator_would_on_their_own)
{
    static const struct {
        const char *sql;
        int ok; /* 1: the CHECK allows it */
    } cases[] = {
        {"UPDATE scores SET score = 11 WHERE framework = 'jax' AND criterion = 'debugging'", 0},
        {"UPDATE scores SET score = -1 WHERE framework = 'jax' AND criterion = 'debugging'", 0},
        {"UPDATE scores SET score = 10 WHERE framework = 'jax' AND criterion = 'debugging'", 1},
        {"UPDATE scores SET score = 0 WHERE framework = 'jax' AND criterion = 'debugging'", 1},
        {"UPDATE hw_support SET fit = 11 WHERE framework = 'jax' AND hardware = 'tpu'", 0},
        {"UPDATE hw_support SET fit = 0 WHERE framework = 'jax' AND hardware = 'tpu'", 1},
        {"UPDATE hw_support SET level = 'great' WHERE framework = 'jax' AND hardware = 'tpu'", 0},
        {"UPDATE runtimes SET status = 'legacy' WHERE id = 'onnxruntime'", 0},
        {"UPDATE runtimes SET status = 'archived' WHERE id = 'onnxruntime'", 1},
        {"UPDATE strategies SET status = 'archived' WHERE id = 'ddp'", 0},
        {"UPDATE strategies SET min_devices = 0 WHERE id = 'ddp'", 0},
        {"UPDATE runtime_frameworks SET path = 'direct' WHERE runtime = 'litert' AND framework = 'pytorch'", 0},
        {"UPDATE accelerators SET vendor = 'fpga' WHERE id = 'h100-sxm'", 0},
        {"UPDATE accelerators SET memory_gb = 0 WHERE id = 'h100-sxm'", 0},
        {"UPDATE accelerators SET memory_gb = 0.001 WHERE id = 'h100-sxm'", 1},
        {"UPDATE accelerators SET bf16_tflops = -1 WHERE id = 'h100-sxm'", 0},
        {"UPDATE accelerators SET bf16_tflops = 0 WHERE id = 'h100-sxm'", 1},
        {"UPDATE sources SET title = '' WHERE id = 'seed-001'", 0},
        {"UPDATE sources SET origin = 'mine' WHERE id = 'seed-001'", 0},
    };
    char *before = export_text(k, 0);
    sqlite3 *db = kb_db(k);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_assert_eq(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
        char *msg = NULL;
        int rc = sqlite3_exec(db, cases[i].sql, NULL, NULL, &msg);
        int changed = sqlite3_changes(db);
        if (cases[i].ok) {
            cr_expect_eq(rc, SQLITE_OK, "%s: %s", cases[i].sql, msg ? msg : "");
            cr_expect_eq(changed, 1, "%s: %d rows (the row exists)", cases[i].sql, changed);
        } else {
            cr_expect_eq(rc, SQLITE_CONSTRAINT_CHECK, "%s: %d", cases[i].sql, rc);
            cr_expect(msg && strstr(msg, "CHECK constraint failed"), "%s: %s", cases[i].sql, msg ? msg : "");
        }
        sqlite3_free(msg);
        cr_assert_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    }
    char *after = export_text(k, 0);
    cr_expect_str_eq(after, before, "a refused write changed something");
    free(before);
    free(after);
}

/* A document valid row by row whose references only fail at commit cannot exist (references
 * are checked first), but a failure half-way must still roll back: import a good row and a
 * row that breaks a constraint the validator does not know about. */
Test(kb_io, failure_while_applying_rolls_back)
{
    char *before = export_text(k, 0);
    sqlite3_exec(kb_db(k), "CREATE TRIGGER no_zeta BEFORE INSERT ON sources WHEN NEW.id = 'zeta' "
                           "BEGIN SELECT RAISE(ABORT, 'zeta refused'); END;", NULL, NULL, NULL);
    const char *doc = HEAD "\"sources\": [{\"id\": \"alpha\", \"title\": \"t\", \"url\": \"u\", \"published\": \"2026\"},"
                           " {\"id\": \"zeta\", \"title\": \"t\", \"url\": \"u\", \"published\": \"2026\"}]}";
    struct kb_import_stats stats;
    cr_expect_eq(kb_import(k, doc, strlen(doc), "doc", &stats, err, sizeof err), KB_ERR_DB);
    sqlite3_exec(kb_db(k), "DROP TRIGGER no_zeta", NULL, NULL, NULL);
    char *after = export_text(k, 0);
    cr_expect_str_eq(after, before, "half an import landed");
    free(before);
    free(after);
}

/* A fact's citation in words: the source, then each further source once, comma and one space
 * apart, then the date (the further sources are a list in the document). */
Test(kb_io, a_citation_names_each_source_once)
{
    cJSON *row = cJSON_Parse("{\"fit\": 7, \"note\": \"n.\", \"source\": \"a\", \"also\": [\"b\", \"a\", \"c\"],"
                             " \"as_of\": \"2026-01-02\"}");
    cr_assert_not_null(row);
    char text[256];
    kb_support_text(row, text, sizeof text);
    cr_expect_str_eq(text, "fit 7/10. n. [a, b, c, 2026-01-02]");
    cJSON_Delete(row);
}

static const char *stored_text(const char *sql)
{
    static char out[512];
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(kb_db(k), sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(kb_db(k)));
    out[0] = '\0';
    if (sqlite3_step(st) == SQLITE_ROW) snprintf(out, sizeof out, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
}

/* A row in both languages is stored as it is; English only keeps an empty twin, which shows the
 * English; Chinese only (no English, or an empty one) takes the Chinese as its English text too;
 * the one-language rows are counted once each, however many columns they leave out. */
Test(kb_io, rows_in_one_language_fall_back_to_the_other)
{
    const char *doc =
        "{\"schema\": \"fwadvisor.kb/1\",\n"
        " \"sources\": [{\"id\": \"team\", \"title\": \"Team notes\", \"url\": \"wiki\", \"published\": \"2026\"}],\n"
        " \"rules\": [\n"
        "  {\"id\": \"both\", \"kind\": \"rule_of_thumb\", \"title\": \"Pin versions\", \"title_zh\": \"固定版本\","
        "   \"text\": \"Pin the framework.\", \"text_zh\": \"固定框架版本。\", \"condition\": {}, \"effect\": {}, \"source\": \"team\", \"as_of\": \"2026-11-02\"},\n"
        "  {\"id\": \"english\", \"kind\": \"rule_of_thumb\", \"title\": \"Test first\", \"text\": \"Test before upgrading.\","
        "   \"condition\": {}, \"effect\": {}, \"source\": \"team\", \"as_of\": \"2026-11-02\"},\n"
        "  {\"id\": \"chinese\", \"kind\": \"rule_of_thumb\", \"title\": \"\", \"title_zh\": \"先测试\","
        "   \"text_zh\": \"升级前先测试。\", \"condition\": {}, \"effect\": {}, \"source\": \"team\", \"as_of\": \"2026-11-02\"}]}";
    struct kb_import_stats stats;
    cr_assert_eq(kb_import(k, doc, strlen(doc), "mine.json", &stats, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(stats.added, 4);
    cr_expect_eq(stats.one_language, 2, "english and chinese, once each");
    cr_expect_str_eq(stored_text("SELECT text_zh FROM rules WHERE id = 'both'"), "固定框架版本。");
    cr_expect_str_eq(stored_text("SELECT text_zh FROM rules WHERE id = 'english'"), "");
    cr_expect_str_eq(stored_text("SELECT text FROM rules WHERE id = 'chinese'"), "升级前先测试。");
    cr_expect_str_eq(stored_text("SELECT title FROM rules WHERE id = 'chinese'"), "先测试");
    /* the export carries both columns, and a second import of it changes nothing */
    char *text = export_text(k, 1);
    cJSON *exported = cJSON_Parse(text);
    const cJSON *rule = cJSON_GetArrayItem(cJSON_GetObjectItem(exported, "rules"), 0);
    cr_expect_str_eq(cJSON_GetObjectItem(rule, "id")->valuestring, "both");
    cr_expect_str_eq(cJSON_GetObjectItem(rule, "text_zh")->valuestring, "固定框架版本。");
    cJSON_Delete(exported);
    cr_assert_eq(kb_import(k, text, strlen(text), "again.json", &stats, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(stats.unchanged, 4);
    cr_expect_eq(stats.one_language, 1, "the English-only rule: the Chinese-only one now has both");
    free(text);
    /* an operating-system entry may carry its note's Chinese; a member it does not know is refused */
    const char *os = "{\"schema\": \"fwadvisor.kb/1\", \"hw_support\": [{\"framework\": \"jax\", \"hardware\": \"cpu\","
                     " \"level\": \"supported\", \"fit\": 5, \"note\": \"CPU.\", \"note_zh\": \"CPU。\", \"source\": \"seed-001\","
                     " \"as_of\": \"2026-11-02\", \"os_support\": {\"windows\": {\"level\": \"supported\", \"note\": \"x\","
                     " \"note_zh\": \"某\", \"source\": \"seed-001\"}}}]}";
    cr_expect_eq(kb_import(k, os, strlen(os), "os.json", &stats, err, sizeof err), KB_OK, "%s", err);
    const char *odd = "{\"schema\": \"fwadvisor.kb/1\", \"hw_support\": [{\"framework\": \"jax\", \"hardware\": \"cpu\","
                      " \"level\": \"supported\", \"fit\": 5, \"note\": \"CPU.\", \"source\": \"seed-001\","
                      " \"as_of\": \"2026-11-02\", \"os_support\": {\"windows\": {\"level\": \"supported\", \"note_en\": \"x\","
                      " \"source\": \"seed-001\"}}}]}";
    cr_expect_eq(kb_import(k, odd, strlen(odd), "odd.json", &stats, err, sizeof err), KB_ERR_INPUT);
    cr_expect(strstr(err, "note_zh") != NULL, "%s", err);
}
