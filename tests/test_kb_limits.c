/* The knowledge base's sizes: the tables that grow with the data take 10,000 imported rows each
 * and recommend still uses them; the structural limits (frameworks and hardware platforms, one bit
 * each of a 32-bit mask) take exactly 32 rows, and a 33rd is refused at import (status 3, nothing
 * written), by a refresh of the built-in facts (not applied, with a warning), and when another
 * tool wrote it (status 4). */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

static char *dir;
static char db[4200], dbarg[4300], sysroot[4300];
static const char *env[5];

static void setup(void)
{
    dir = ts_tmpdir();
    snprintf(db, sizeof db, "%s/kb.sqlite3", dir);
    snprintf(dbarg, sizeof dbarg, "--db=%s", db);
    ts_h100_env(env, sysroot, sizeof sysroot);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(kb_limits, .init = setup, .fini = teardown, .timeout = 120);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

/* --- documents ------------------------------------------------------------------------------ */

struct buf {
    char *s;
    size_t n, cap;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        cr_assert_geq(k, 0);
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        b->cap = (b->cap + (size_t)k + 1) * 2;
        b->s = realloc(b->s, b->cap);
        cr_assert_not_null(b->s);
    }
}

/* Writes the document to dir/name and returns its path (caller frees). */
static char *save(struct buf *b, const char *name)
{
    char *path = ts_path(dir, name);
    cr_assert_eq(ts_write(path, b->s, b->n), 0);
    free(b->s);
    *b = (struct buf){0};
    return path;
}

#define ROWS 10000
#define AS_OF "\"as_of\": \"2026-01-01\""

/* ROWS rows in each table that grows with the data, each citing its own source; the last of each
 * is what the recommendation below shows: criterion 09999 weighs 1 (PyTorch 10, JAX 0; the
 * others weigh 0), rule 09999 gives PyTorch 40 points and prefers strategy and runtime 09999, and
 * accelerator 09999 is the device answered. */
static char *growing_doc(void)
{
    struct buf b = {0};
    put(&b, "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [");
    for (int i = 0; i < ROWS; i++)
        put(&b, "%s{\"id\": \"zz-src-%05d\", \"title\": \"Zeta source %05d\", \"url\": \"https://example.org/zz/%05d\", "
                "\"published\": \"2025\"}",
            i ? "," : "", i, i, i);
    put(&b, "], \"criteria\": [");
    for (int i = 0; i < ROWS; i++)
        put(&b, "%s{\"id\": \"zz-crit-%05d\", \"name\": \"Zeta criterion %05d\", \"description\": \"d\", \"weight\": %d, "
                "\"source\": \"zz-src-%05d\", " AS_OF "}",
            i ? "," : "", i, i, i == ROWS - 1, i);
    put(&b, "], \"scores\": [");
    for (int i = 0; i < ROWS; i++)
        put(&b, "{\"framework\": \"pytorch\", \"criterion\": \"zz-crit-%05d\", \"score\": 10, \"note\": \"n\", "
                "\"source\": \"zz-src-%05d\", " AS_OF "},",
            i, i);
    put(&b, "{\"framework\": \"jax\", \"criterion\": \"zz-crit-%05d\", \"score\": 0, \"note\": \"n\", \"source\": "
            "\"zz-src-00000\", " AS_OF "}], \"strategies\": [",
        ROWS - 1);
    for (int i = 0; i < ROWS; i++)
        put(&b, "%s{\"id\": \"zz-st-%05d\", \"name\": \"Zeta strategy %05d\", \"shards\": \"nothing\", \"scale\": \"any\", "
                "\"min_devices\": 1, \"status\": \"current\", \"memory_formula\": \"16 P\", \"replicated_bytes_per_param\": 16, "
                "\"sharded_bytes_per_param\": 0, \"cpu_bytes_per_param\": 0, \"summary\": \"s\", \"source\": \"zz-src-%05d\", "
                AS_OF "}",
            i ? "," : "", i, i, i);
    put(&b, "], \"strategy_frameworks\": [");
    for (int i = 0; i < ROWS; i++)
        put(&b, "%s{\"strategy\": \"zz-st-%05d\", \"framework\": \"pytorch\", \"hardware\": [\"nvidia\"], \"note\": \"n\", "
                "\"source\": \"zz-src-%05d\", " AS_OF "}",
            i ? "," : "", i, i);
    put(&b, "], \"runtimes\": [");
    for (int i = 0; i < ROWS; i++)
        put(&b, "%s{\"id\": \"zz-rt-%05d\", \"name\": \"Zeta runtime %05d\", \"targets\": [\"server\"], \"hardware\": "
                "[\"nvidia\"], \"status\": \"current\", \"summary\": \"s\", \"source\": \"zz-src-%05d\", " AS_OF "}",
            i ? "," : "", i, i, i);
    put(&b, "], \"runtime_frameworks\": [");
    for (int i = 0; i < ROWS; i++)
        put(&b, "%s{\"runtime\": \"zz-rt-%05d\", \"framework\": \"pytorch\", \"path\": \"native\", \"note\": \"n\", "
                "\"source\": \"zz-src-%05d\", " AS_OF "}",
            i ? "," : "", i, i);
    put(&b, "], \"accelerators\": [");
    for (int i = 0; i < ROWS; i++)
        put(&b, "%s{\"id\": \"zz-acc-%05d\", \"name\": \"Zeta accelerator %05d\", \"vendor\": \"nvidia\", \"memory_gb\": 96, "
                "\"bandwidth_gbs\": 4000, \"fp32_tflops\": 60, \"bf16_tflops\": 1000, \"fp16_tflops\": 1000, "
                "\"match\": \"zeta accelerator %05d\", \"source\": \"zz-src-%05d\", " AS_OF "}",
            i ? "," : "", i, i, i, i);
    put(&b, "], \"rules\": [");
    for (int i = 0; i < ROWS - 1; i++)
        put(&b, "{\"id\": \"zz-rule-%05d\", \"kind\": \"qa\", \"title\": \"Zeta question %05d\", \"text\": \"t\", "
                "\"condition\": {}, \"effect\": {}, \"source\": \"zz-src-%05d\", " AS_OF "},",
            i, i, i);
    put(&b, "{\"id\": \"zz-rule-%05d\", \"kind\": \"score\", \"title\": \"Zeta rule %05d\", \"text\": \"Zeta rule text\", "
            "\"condition\": {\"hardware\": \"nvidia\"}, \"effect\": {\"score\": {\"pytorch\": 40}, "
            "\"strategy\": {\"zz-st-%05d\": 100}, \"runtime\": {\"zz-rt-%05d\": 100}}, \"source\": \"zz-src-%05d\", " AS_OF "}]}",
        ROWS - 1, ROWS - 1, ROWS - 1, ROWS - 1, ROWS - 1);
    return save(&b, "growing.json");
}

/* count frameworks (first_id, first_id + 1, ...) with support on NVIDIA GPUs, or as many hardware
 * platforms with ids longer than the old 256-byte set buffer held together, each in a document
 * of its own. */
static char *frameworks_doc(int first_id, int count, const char *name)
{
    struct buf b = {0};
    put(&b, "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"zz-src\", \"title\": \"Z\", \"url\": \"u\", "
            "\"published\": \"2025\"}], \"frameworks\": [");
    for (int i = 0; i < count; i++)
        put(&b, "%s{\"id\": \"zz-fw-%02d\", \"name\": \"Zeta framework %02d\", \"version\": \"1\", \"released\": \"2025\", "
                "\"summary\": \"s\", \"source\": \"zz-src\", " AS_OF "}",
            i ? "," : "", first_id + i, first_id + i);
    put(&b, "], \"hw_support\": [");
    for (int i = 0; i < count; i++)
        put(&b, "%s{\"framework\": \"zz-fw-%02d\", \"hardware\": \"nvidia\", \"level\": \"supported\", \"fit\": 5, "
                "\"os_support\": {}, \"note\": \"n\", \"source\": \"zz-src\", " AS_OF "}",
            i ? "," : "", first_id + i);
    put(&b, "]}");
    return save(&b, name);
}

#define LONG_HW "zz-hardware-platform-with-a-long-id-%02d"

/* count hardware platforms; with `strategy`, also a strategy PyTorch runs on all of them and on
 * NVIDIA GPUs (named last in a set of about a thousand bytes), which a rule prefers. */
static char *hardware_doc(int first_id, int count, int strategy, const char *name)
{
    struct buf b = {0};
    put(&b, "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"zz-src\", \"title\": \"Z\", \"url\": \"u\", "
            "\"published\": \"2025\"}], \"hardware\": [");
    for (int i = 0; i < count; i++)
        put(&b, "%s{\"id\": \"" LONG_HW "\", \"name\": \"Zeta platform %02d\", \"summary\": \"s\", \"source\": \"zz-src\", "
                AS_OF "}",
            i ? "," : "", first_id + i, first_id + i);
    put(&b, "]");
    if (strategy) {
        put(&b, ", \"strategies\": [{\"id\": \"zz-everywhere\", \"name\": \"Zeta everywhere\", \"shards\": \"nothing\", "
                "\"scale\": \"any\", \"min_devices\": 1, \"status\": \"current\", \"memory_formula\": \"16 P\", "
                "\"replicated_bytes_per_param\": 16, \"sharded_bytes_per_param\": 0, \"cpu_bytes_per_param\": 0, "
                "\"summary\": \"s\", \"source\": \"zz-src\", " AS_OF "}], \"strategy_frameworks\": [{\"strategy\": "
                "\"zz-everywhere\", \"framework\": \"pytorch\", \"hardware\": [");
        for (int i = 0; i < count; i++) put(&b, "\"" LONG_HW "\", ", first_id + i);
        put(&b, "\"nvidia\"], \"note\": \"n\", \"source\": \"zz-src\", " AS_OF "}], \"rules\": [{\"id\": \"zz-prefer\", "
                "\"kind\": \"score\", \"title\": \"Zeta preference\", \"text\": \"t\", \"condition\": {}, "
                "\"effect\": {\"strategy\": {\"zz-everywhere\": 100}}, \"source\": \"zz-src\", " AS_OF "}]");
    }
    put(&b, "}");
    return save(&b, name);
}

/* --- running ------------------------------------------------------------------------------- */

#define ANSWERS "--set", "hardware=nvidia", "--set", "devices=8", "--set", "model_params=1e9", "--set", "deploy=server", "--set", "job=pretrain"

/* recommend --json with these answers (and accelerator, when not NULL): the report, status 0. */
static cJSON *recommend_json(const char *accelerator)
{
    char acc[96];
    snprintf(acc, sizeof acc, "accelerator=%s", accelerator ? accelerator : "h100-sxm");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--json", ANSWERS, "--set", acc);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "%.300s", r.out);
    ts_run_free(&r);
    return doc;
}

static char *export_kb(void)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "export");
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *out = r.out;
    r.out = NULL;
    ts_run_free(&r);
    return out;
}

static const cJSON *item(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }
static const char *str(const cJSON *o, const char *key) { return cJSON_GetStringValue(item(o, key)); }

/* The ranking's entry for a framework, or NULL. */
static const cJSON *ranked(const cJSON *doc, const char *id)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, item(doc, "ranking")) if (strcmp(str(f, "framework"), id) == 0) return f;
    return NULL;
}

/* The reason of a ranked framework whose text starts with prefix, or NULL. */
static const cJSON *reason(const cJSON *fw, const char *prefix)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, item(fw, "reasons")) if (strncmp(str(r, "text"), prefix, strlen(prefix)) == 0) return r;
    return NULL;
}

/* Imports a document that must be refused: status 3, exactly `message` (after "fwadvisor: PATH: ")
 * on one line, and the database as it was. */
static void refused(const char *path, const char *message)
{
    char *before = export_kb();
    struct ts_run r;
    RUN(r, dbarg, "kb", "import", path);
    cr_expect_eq(r.status, 3, "%s", r.err);
    char want[5000];
    snprintf(want, sizeof want, "fwadvisor: %s: %s\n", path, message);
    cr_expect_str_eq(r.err, want);
    cr_expect_str_eq(r.out, "");
    ts_run_free(&r);
    char *after = export_kb();
    cr_expect_str_eq(after, before, "the refused import changed the database");
    free(before);
    free(after);
}

static void imports(const char *path)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "import", path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
}

/* Runs SQL on the database file as another tool would, without the program's checks. */
static void sql(const char *text)
{
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    char *msg = NULL;
    cr_assert_eq(sqlite3_exec(h, text, NULL, NULL, &msg), SQLITE_OK, "%s", msg ? msg : "");
    sqlite3_close(h);
}

static long long count_rows(const char *table)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    char q[128];
    snprintf(q, sizeof q, "SELECT count(*) FROM %s", table);
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(h, q, -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    long long n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

/* --- tables that grow with the data ---------------------------------------------------------- */

/* 10,000 rows in sources, criteria, scores, strategies, strategy_frameworks, runtimes,
 * runtime_frameworks, accelerators and rules. The advisor once held 256 sources and rules, 24
 * strategies, 32 runtimes and criteria and 64 accelerators: past those, recommend exited 1
 * ("more sources than this build handles"). Now the last row of each is used: PyTorch's reasons
 * hold rule 09999's 40 points and criterion 09999, strategy, runtime and accelerator 09999 are
 * chosen, source 09999 is cited, and the score still adds up although PyTorch has more reasons
 * than it lists. Import and recommendations take about two seconds in all. */
Test(kb_limits, ten_thousand_rows_in_every_table_that_grows_import_and_are_used)
{
    char *path = growing_doc();
    struct ts_run r;
    RUN(r, dbarg, "kb", "import", path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, "imported 90001 facts: 90001 added, 0 changed, 0 unchanged\n"
                            "70001 facts have their text in one language only; the other language shows it as it is\n");
    ts_run_free(&r);

    cJSON *doc = recommend_json("zz-acc-09999");
    const cJSON *torch = ranked(doc, "pytorch");
    cr_assert_not_null(torch);
    cr_expect_str_eq(str(item(doc, "ranking")->child, "framework"), "pytorch");
    const cJSON *rule = reason(torch, "Zeta rule 09999: Zeta rule text");
    cr_assert_not_null(rule, "rule 09999 is not among PyTorch's reasons");
    cr_expect_eq(item(rule, "delta")->valuedouble, 40);
    cr_expect_str_eq(str(rule, "source"), "zz-src-09999");
    const cJSON *crit = reason(torch, "Zeta criterion 09999 10/10 (average 5.0, weight 1)");
    cr_expect_not_null(crit, "criterion 09999 is not among PyTorch's reasons");
    /* 13 built-in criteria and 10,000 imported ones, and more: the largest are listed, the rest
     * summed in the last, and together they are the score. */
    const cJSON *rs = item(torch, "reasons"), *last = cJSON_GetArrayItem(rs, cJSON_GetArraySize(rs) - 1), *x;
    cr_expect_eq(cJSON_GetArraySize(rs), 48);
    cr_expect(strstr(str(last, "text"), " further reasons, each smaller than those listed") && atoi(str(last, "text")) > 9900,
              "%s", str(last, "text"));
    double sum = 0;
    cJSON_ArrayForEach(x, rs) sum += item(x, "delta")->valuedouble;
    cr_expect_float_eq(sum, item(torch, "score")->valuedouble, 1e-6);

    cr_expect_str_eq(str(item(doc, "distributed"), "strategy"), "zz-st-09999");
    cr_expect_str_eq(str(item(doc, "deployment"), "runtime"), "zz-rt-09999");
    cr_expect_str_eq(str(item(doc, "plan"), "accelerator"), "zz-acc-09999");
    int cited = 0;
    cJSON_ArrayForEach(x, item(doc, "sources")) cited += strcmp(str(x, "id"), "zz-src-09999") == 0 &&
                                                        strcmp(str(x, "title"), "Zeta source 09999") == 0;
    cr_expect_eq(cited, 1, "source 09999 is not cited once");
    cr_expect_eq(cJSON_GetArraySize(item(doc, "weights")), ROWS + 13);
    const cJSON *w = cJSON_GetArrayItem(item(doc, "weights"), cJSON_GetArraySize(item(doc, "weights")) - 1);
    cr_expect_str_eq(str(w, "criterion"), "zz-crit-09999");
    cr_expect_eq(item(w, "weight")->valuedouble, 1);
    cr_expect_eq(item(item(w, "scores"), "pytorch")->valuedouble, 10);
    cJSON_Delete(doc);

    /* The text says the same; the first accelerator of the catalog can be chosen as well. */
    RUN(r, dbarg, "recommend", ANSWERS, "--set", "accelerator=zz-acc-00000");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "Devices: 8 x Zeta accelerator 00000 (zz-acc-00000)"), "%s", r.out);
    cr_expect(strstr(r.out, "Zeta rule 09999: Zeta rule text [zz-src-09999]"), "%s", r.out);
    cr_expect(strstr(r.out, "Distributed training: Zeta strategy 09999 (zz-st-09999)"), "%s", r.out);
    cr_expect(strstr(r.out, "Deployment: Zeta runtime 09999 (zz-rt-09999)"), "%s", r.out);
    ts_run_free(&r);
    free(path);
}

/* --- structural limits --------------------------------------------------------------------- */

/* Frameworks: the 8 built-in ones and 24 imported make 32, which import and recommend (the
 * advisor once held 16); 25 at once, or a 33rd later, are refused whole. */
Test(kb_limits, thirty_two_frameworks_import_and_recommend_a_thirty_third_is_refused)
{
    char *all = frameworks_doc(0, 25, "25.json"), *fit = frameworks_doc(0, 24, "24.json"), *one = frameworks_doc(24, 1, "1.json");
    refused(all, "frameworks would hold 33 rows; this build handles at most 32");
    cr_expect_eq(count_rows("frameworks"), 8);
    imports(fit);
    cr_expect_eq(count_rows("frameworks"), 32);
    cJSON *doc = recommend_json(NULL);
    cr_expect_eq(cJSON_GetArraySize(item(doc, "ranking")), 32);
    const cJSON *last = ranked(doc, "zz-fw-23");
    cr_expect(last && !cJSON_IsTrue(item(last, "excluded")), "zz-fw-23 is not ranked");
    cJSON_Delete(doc);
    refused(one, "frameworks would hold 33 rows; this build handles at most 32");
    cr_expect_eq(count_rows("frameworks"), 32);
    free(all), free(fit), free(one);
}

/* Hardware platforms: 9 built-in and 23 imported make 32. A strategy's platforms, a set of about
 * a thousand bytes here, are read whole: NVIDIA, named last, is among them (a 256-byte copy once
 * cut it off), so the strategy a rule prefers is chosen. A 33rd platform is refused. */
Test(kb_limits, thirty_two_hardware_platforms_import_and_recommend_a_thirty_third_is_refused)
{
    char *all = hardware_doc(0, 24, 0, "24.json"), *fit = hardware_doc(0, 23, 1, "23.json"), *one = hardware_doc(23, 1, 0, "1.json");
    refused(all, "hardware would hold 33 rows; this build handles at most 32");
    cr_expect_eq(count_rows("hardware"), 9);
    imports(fit);
    cr_expect_eq(count_rows("hardware"), 32);
    cJSON *doc = recommend_json(NULL);
    cr_expect_str_eq(str(item(doc, "distributed"), "strategy"), "zz-everywhere");
    cJSON_Delete(doc);
    refused(one, "hardware would hold 33 rows; this build handles at most 32");
    cr_expect_eq(count_rows("hardware"), 32);
    free(all), free(fit), free(one);
}

/* The other way rows come in: this build's built-in facts, applied when a file holds other ones.
 * Here the file lacks the built-in MLX (as if an older build had not shipped it) and holds 24
 * frameworks of the user's: with MLX back it would hold 33. The refresh is not applied (the file
 * keeps its 32 frameworks and its facts), each command says why on one line, and still works. */
Test(kb_limits, a_refresh_of_the_built_in_facts_that_would_pass_the_limit_is_not_applied)
{
    char *fit = frameworks_doc(0, 25, "25.json");
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    sql("DELETE FROM frameworks WHERE id = 'mlx'");
    imports(fit);
    cr_expect_eq(count_rows("frameworks"), 32);
    sql("UPDATE meta SET value = 'another build' WHERE key = 'builtin_hash'");
    RUN(r, dbarg, "recommend", ANSWERS);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.err, "fwadvisor: warning: the built-in facts of this build were not applied: frameworks would "
                            "hold 33 rows; this build handles at most 32\n");
    cr_expect(strstr(r.out, "Zeta framework 24"), "%s", r.out);
    ts_run_free(&r);
    cr_expect_eq(count_rows("frameworks"), 32);
    cr_expect_eq(count_rows("frameworks WHERE id = 'mlx'"), 0);
    /* Once there is room again, the refresh goes through. */
    sql("DELETE FROM hw_support WHERE framework = 'zz-fw-24'; DELETE FROM frameworks WHERE id = 'zz-fw-24'");
    RUN(r, dbarg, "recommend", ANSWERS);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.err, "");
    ts_run_free(&r);
    cr_expect_eq(count_rows("frameworks"), 32);
    cr_expect_eq(count_rows("frameworks WHERE id = 'mlx'"), 1);
    free(fit);
}

/* A file another tool wrote past the limits: recommend says which table and the limit, status 4
 * (a database error), where it once said "more frameworks than this build handles", status 1;
 * at exactly 32 it recommends. */
Test(kb_limits, a_file_written_past_the_limits_by_another_tool_is_refused_with_status_4)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    static const struct { const char *table, *insert; int builtin; } cases[] = {
        {"frameworks", "INSERT INTO frameworks (id, name, version, released, summary, source, as_of, origin) "
                       "VALUES ('zz-%02d', 'Z', '1', '2025', 's', 'seed-000', '2026-01-01', 'user')", 8},
        {"hardware", "INSERT INTO hardware (id, name, summary, source, as_of, origin) "
                     "VALUES ('zz-%02d', 'Z', 's', 'seed-000', '2026-01-01', 'user')", 9},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int i = cases[c].builtin; i < 33; i++) {
            char q[512];
            snprintf(q, sizeof q, cases[c].insert, i);
            sql(q);
            if (i < 31) continue;
            RUN(r, dbarg, "recommend", ANSWERS);
            if (i == 31) {
                cr_expect_eq(r.status, 0, "%s: %s", cases[c].table, r.err);
            } else {
                char want[4600];
                snprintf(want, sizeof want, "fwadvisor: database '%s': %s holds 33 rows; this build handles at most 32\n", db,
                         cases[c].table);
                cr_expect_eq(r.status, 4, "%s", r.err);
                cr_expect_str_eq(r.err, want);
            }
            ts_run_free(&r);
        }
        char q[128];
        snprintf(q, sizeof q, "DELETE FROM %s WHERE id LIKE 'zz-%%'", cases[c].table);
        sql(q);
    }
}
