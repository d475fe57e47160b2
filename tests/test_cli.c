/* The command line as users meet it: the built binary, its output and its exit codes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "knowledge/kb.h"
#include "tests/support.h"

static char *dir, *db, *xdg;
static char dbarg[4200];
static const char *env[8];

static void setup(void)
{
    dir = ts_tmpdir();
    db = ts_path(dir, "kb.sqlite3");
    xdg = ts_path(dir, "xdg");
    static char xdg_env[4200];
    snprintf(xdg_env, sizeof xdg_env, "XDG_DATA_HOME=%s", xdg);
    snprintf(dbarg, sizeof dbarg, "--db=%s", db);
    int n = 0;
    env[n++] = xdg_env;
    env[n++] = "FWADVISOR_DB";
    env[n++] = "NO_COLOR=1";
    env[n++] = "LC_ALL=C.UTF-8";
    env[n] = NULL;
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
    free(db);
    free(xdg);
}

TestSuite(cli, .init = setup, .fini = teardown, .timeout = 60);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

Test(cli, help_and_version)
{
    struct ts_run r;
    RUN(r, "--help");
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "Usage: fwadvisor") != NULL);
    cr_expect(strstr(r.out, "Exit status") != NULL);
    ts_run_free(&r);
    RUN(r, "--version");
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "fwadvisor " FWADVISOR_VERSION) != NULL, "%s", r.out);
    ts_run_free(&r);
    RUN(r, "kb", "--help");
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "kb import FILE") != NULL);
    ts_run_free(&r);
}

Test(cli, usage_errors_exit_2)
{
    static const char *const cases[][3] = {
        {"--bogus", NULL, NULL},
        {"frobnicate", NULL, NULL},
        {"kb", NULL, NULL},
        {"kb", "launch", NULL},
        {"kb", "list", "--bogus"},
        {"kb", "list", "gpus"},
        {"kb", "show", NULL},
        {"kb", "reset", NULL},
        {"kb", "export", "--yes"},
        {"kb", "import", NULL},
        {"--db", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, cases[i]), 0);
        cr_expect_eq(r.status, 2, "%s %s %s: exit %d", cases[i][0], cases[i][1] ? cases[i][1] : "",
                     cases[i][2] ? cases[i][2] : "", r.status);
        cr_expect(strncmp(r.err, "fwadvisor: ", 11) == 0, "case %zu: %s", i, r.err);
        cr_expect_str_empty(r.out);
        ts_run_free(&r);
    }
}

Test(cli, no_command_without_terminal_gives_a_hint)
{
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, "", (const char *const[]){NULL}), 0);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "needs a terminal") && strstr(r.err, "fwadvisor recommend") && strstr(r.err, "fwadvisor probe"),
              "%s", r.err);
    cr_expect_str_empty(r.out, "nothing drawn into the pipe");
    ts_run_free(&r);
}

/* Into a pipe nothing is cut (a terminal gets its width: the tui suite checks that in tmux). */
Test(cli, kb_list_every_kind_whole_in_a_pipe)
{
    static const char *const kinds[] = {"frameworks", "criteria", "hardware", "distributed", "deployment",
                                        "accelerators", "rules", "sources"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        struct ts_run r;
        RUN(r, dbarg, "kb", "list", kinds[i]);
        cr_expect_eq(r.status, 0, "%s: %s", kinds[i], r.err);
        cr_expect(strstr(r.out, "...") == NULL, "kb list %s cut a cell in a pipe:\n%s", kinds[i], r.out);
        cr_expect_gt(ts_lines(r.out), 3, "%s", kinds[i]);
        ts_run_free(&r);
        RUN(r, dbarg, "kb", "list", kinds[i], "--json");
        cr_expect_eq(r.status, 0);
        cJSON *doc = cJSON_Parse(r.out);
        cr_expect(cJSON_IsArray(doc) && cJSON_GetArraySize(doc) > 0, "kb list %s --json", kinds[i]);
        cJSON_Delete(doc);
        ts_run_free(&r);
    }
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    cr_expect(strstr(r.out, "pytorch") && strstr(r.out, "mindspore"));
    ts_run_free(&r);
    /* Every strategy that names PyTorch, as many lines as the JSON has (7 of 9 when cut at 80). */
    RUN(r, dbarg, "kb", "list", "distributed", "--json");
    cJSON *doc = cJSON_Parse(r.out), *row;
    int want = 0, got = 0;
    cJSON_ArrayForEach(row, doc) {
        cJSON *fw;
        cJSON_ArrayForEach(fw, cJSON_GetObjectItem(row, "frameworks")) want += strcmp(fw->valuestring, "pytorch") == 0;
    }
    cJSON_Delete(doc);
    ts_run_free(&r);
    RUN(r, dbarg, "kb", "list", "distributed");
    for (const char *line = r.out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *end = strchr(line, '\n'), *hit = strstr(line, "pytorch");
        got += hit && (!end || hit < end);
    }
    cr_expect_gt(want, 7);
    cr_expect_eq(got, want, "%s", r.out);
    ts_run_free(&r);
}

/* The whitespace-separated cells of the line of `kb list` that starts with id, at most max. */
static int cells_of(const char *out, const char *id, char cells[][32], int max)
{
    size_t len = strlen(id);
    const char *line = out;
    while (line && !(strncmp(line, id, len) == 0 && line[len] == ' ')) line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
    if (!line) return 0;
    int n = 0;
    for (const char *p = line; *p && *p != '\n' && n < max;) {
        while (*p == ' ') p++;
        if (!*p || *p == '\n') break;
        size_t w = strcspn(p, " \n");
        snprintf(cells[n++], 32, "%.*s", (int)(w < 31 ? w : 31), p);
        p += w;
    }
    return n;
}

/* A rate the catalog does not give (0) is "-", one it gives its number: the A100's FP8 and the
 * V100's BF16 and FP8 (ID VENDOR MEM GB/s FP32 BF16 FP8 FIGURES NAME); FP32 as the catalog has it,
 * decimals kept (19.5, 15.7). */
Test(cli, kb_list_accelerators_shows_a_dash_for_a_missing_rate)
{
    static const struct { const char *id, *fp32, *bf16, *fp8; } rows[] = {
        {"h100-sxm", "67", "989.4", "1978.9"}, {"a100-sxm4-80gb", "19.5", "312", "-"}, {"v100-sxm2-32gb", "15.7", "-", "-"},
    };
    struct ts_run r;
    RUN(r, dbarg, "kb", "list", "accelerators");
    cr_expect_eq(r.status, 0, "%s", r.err);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char cells[8][32];
        cr_assert_eq(cells_of(r.out, rows[i].id, cells, 8), 8, "%s:\n%s", rows[i].id, r.out);
        cr_expect_str_eq(cells[4], rows[i].fp32, "%s FP32", rows[i].id);
        cr_expect_str_eq(cells[5], rows[i].bf16, "%s BF16", rows[i].id);
        cr_expect_str_eq(cells[6], rows[i].fp8, "%s FP8", rows[i].id);
    }
    ts_run_free(&r);
}

/* A user's strategy: imported once it is added, again unchanged, with another summary changed,
 * each counted in the total; `kb list distributed` leaves its FRAMEWORKS cell empty (no "-": that
 * is for deployment's lists). */
Test(cli, kb_import_counts_each_fact_and_a_strategy_lists_no_frameworks)
{
#define SOLO(summary)                                                                                                \
    "{\"schema\": \"fwadvisor.kb/1\", \"strategies\": [{\"id\": \"solo\", \"name\": \"One device\", \"shards\": "  \
    "\"nothing\", \"scale\": \"one device\", \"min_devices\": 1, \"status\": \"current\", \"memory_formula\": "   \
    "\"16 bytes a parameter\", \"replicated_bytes_per_param\": 16, \"sharded_bytes_per_param\": 0, "              \
    "\"cpu_bytes_per_param\": 0, \"tensor_parallel\": 0, \"kinds\": [], \"summary\": \"" summary "\", "             \
    "\"source\": \"seed-002\", \"as_of\": \"2026-01-01\"}]}"
    static const struct { const char *doc, *says; } imports[] = {
        /* an English-only row, said as such each time */
        {SOLO("s"), "imported 1 facts: 1 added, 0 changed, 0 unchanged\n1 fact has its text in one language only; the other language shows it as it is\n"},
        {SOLO("s"), "imported 1 facts: 0 added, 0 changed, 1 unchanged\n1 fact has its text in one language only; the other language shows it as it is\n"},
        {SOLO("t"), "imported 1 facts: 0 added, 1 changed, 0 unchanged\n1 fact has its text in one language only; the other language shows it as it is\n"},
    };
#undef SOLO
    char *file = ts_path(dir, "solo.json");
    struct ts_run r;
    for (size_t i = 0; i < sizeof imports / sizeof imports[0]; i++) {
        ts_write_str(file, imports[i].doc);
        RUN(r, dbarg, "kb", "import", file);
        cr_expect_eq(r.status, 0, "%s", r.err);
        cr_expect_str_eq(r.out, imports[i].says, "import %zu", i + 1);
        ts_run_free(&r);
    }
    RUN(r, dbarg, "kb", "list", "distributed");
    char cells[4][32];
    cr_expect_eq(cells_of(r.out, "solo", cells, 4), 3, "ID STATUS MIN and no frameworks:\n%s", r.out);
    cr_expect_eq(cells_of(r.out, "fsdp", cells, 4), 4, "%s", r.out);
    cr_expect_str_eq(cells[3], "fastai,");
    ts_run_free(&r);
    free(file);
}

Test(cli, kb_show_framework_with_scores_and_sources)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "show", "jax");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "Scores") && strstr(r.out, "Hardware support") && strstr(r.out, "Sources"));
    cr_expect(strstr(r.out, "seed-001") != NULL, "scores should cite the seed article");
    cr_expect_leq(ts_max_width(r.out), 80);
    ts_run_free(&r);
    RUN(r, dbarg, "kb", "show", "jax", "--json");
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc);
    cr_expect_str_eq(cJSON_GetObjectItem(doc, "kind")->valuestring, "framework");
    /* 12 criteria scored per framework; hardware_fit is scored per platform (hw_support.fit). */
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "scores")), 12);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "hardware")), 9);
    cr_expect_gt(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "distributed")), 0);
    cr_expect_gt(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "sources")), 0);
    cJSON_Delete(doc);
    ts_run_free(&r);
    static const char *const others[] = {"zero3", "litert", "tpu", "debugging", "h100-sxm", "seed-003"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        RUN(r, dbarg, "kb", "show", others[i]);
        cr_expect_eq(r.status, 0, "kb show %s: %s", others[i], r.err);
        cr_expect_leq(ts_max_width(r.out), 80, "kb show %s", others[i]);
        ts_run_free(&r);
    }
}

Test(cli, kb_show_unknown_id_suggests)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "show", "pytorh");
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "did you mean 'pytorch'") != NULL, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1);
    ts_run_free(&r);
}

Test(cli, export_import_round_trip_through_files)
{
    char *file = ts_path(dir, "kb.json");
    char *file2 = ts_path(dir, "kb2.json");
    struct ts_run r;
    RUN(r, dbarg, "kb", "export", "-o", file);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_empty(r.out);
    ts_run_free(&r);
    char other[4200];
    snprintf(other, sizeof other, "--db=%s/other.sqlite3", dir);
    RUN(r, other, "kb", "import", file);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "0 added, 0 changed") != NULL, "%s", r.out);
    ts_run_free(&r);
    RUN(r, other, "kb", "export", "--output", file2);
    ts_run_free(&r);
    cr_expect(ts_same_file(file, file2), "export -> import -> export differs");
    /* To standard output, and from standard input. */
    RUN(r, dbarg, "kb", "export");
    size_t len;
    char *saved = ts_read(file, &len);
    cr_expect_str_eq(r.out, saved);
    ts_run_free(&r);
    cr_assert_eq(ts_run(&r, env, saved, (const char *const[]){dbarg, "kb", "import", "-", NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    free(saved);
    free(file);
    free(file2);
}

Test(cli, bad_import_exits_3_and_changes_nothing)
{
    char *before = ts_path(dir, "before.json"), *after = ts_path(dir, "after.json");
    char *bad = ts_path(dir, "bad.json");
    struct ts_run r;
    RUN(r, dbarg, "kb", "export", "-o", before);
    ts_run_free(&r);
    ts_write_str(bad, "{\"schema\": \"fwadvisor.kb/1\", \"scores\": [{\"framework\": \"jax\", \"criterion\": \"debugging\","
                      " \"score\": 42, \"note\": \"x\", \"source\": \"seed-001\", \"as_of\": \"2026-01-01\"}]}");
    RUN(r, dbarg, "kb", "import", bad);
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "42 is outside 0-10") != NULL, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1);
    ts_run_free(&r);
    ts_write_str(bad, "{\"schema\": \"fwadvisor.kb/1\",\n \"sources\": [,]}");
    RUN(r, dbarg, "kb", "import", bad);
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "at byte 42") != NULL, "%s", r.err);
    ts_run_free(&r);
    char *missing = ts_path(dir, "nope.json");
    RUN(r, dbarg, "kb", "import", missing);
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "cannot read") != NULL, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "kb", "export", "-o", after);
    ts_run_free(&r);
    cr_expect(ts_same_file(before, after), "database changed by a rejected import");
    free(before);
    free(after);
    free(bad);
    free(missing);
}

Test(cli, damaged_database_exits_4_and_is_not_overwritten)
{
    static const char text[] = "this is not a database at all, just text that happens to sit at the path\n";
    static const char fake_header[] = "SQLite format 3\0garbage after a valid-looking magic string";
    static const struct { const char *data; size_t len; } contents[] = {
        {text, sizeof text - 1},
        {fake_header, sizeof fake_header - 1},
    };
    for (size_t i = 0; i < 2; i++) {
        ts_write(db, contents[i].data, contents[i].len);
        char *copy = ts_path(dir, "copy");
        ts_copy(db, copy);
        struct ts_run r;
        RUN(r, dbarg, "kb", "list");
        cr_expect_eq(r.status, 4, "case %zu: exit %d, %s", i, r.status, r.err);
        cr_expect(strstr(r.err, db) != NULL, "error should name the file: %s", r.err);
        cr_expect(strstr(r.err, "kb reset --yes") != NULL, "%s", r.err);
        cr_expect_eq(ts_lines(r.err), 1);
        cr_expect(ts_same_file(db, copy), "case %zu: file was modified", i);
        ts_run_free(&r);
        free(copy);
    }
}

Test(cli, newer_schema_exits_4)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "path");
    ts_run_free(&r);
    RUN(r, dbarg, "kb", "list");
    ts_run_free(&r);
    sqlite3 *h;
    sqlite3_open(db, &h);
    char newer[64];
    snprintf(newer, sizeof newer, "PRAGMA user_version = %d", KB_SCHEMA_VERSION + 1);
    sqlite3_exec(h, newer, NULL, NULL, NULL);
    sqlite3_close(h);
    RUN(r, dbarg, "kb", "list");
    cr_expect_eq(r.status, 4);
    cr_expect(strstr(r.err, "newer fwadvisor") != NULL, "%s", r.err);
    ts_run_free(&r);
}

Test(cli, unwritable_data_directory_exits_4)
{
    char *blocker = ts_path(dir, "blocker");
    ts_write_str(blocker, "x");
    char xdg_env[4200];
    snprintf(xdg_env, sizeof xdg_env, "XDG_DATA_HOME=%s", blocker);
    const char *bad_env[] = {xdg_env, "FWADVISOR_DB", NULL};
    struct ts_run r;
    cr_assert_eq(ts_run(&r, bad_env, NULL, (const char *const[]){"kb", "list", NULL}), 0);
    cr_expect_eq(r.status, 4);
    cr_expect(strstr(r.err, "cannot create data directory") != NULL, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1);
    ts_run_free(&r);
    free(blocker);
}

Test(cli, locked_database_exits_4_after_waiting)
{
    struct ts_run r;
    RUN(r, dbarg, "kb", "list");
    ts_run_free(&r);
    sqlite3 *h;
    sqlite3_open(db, &h);
    cr_assert_eq(sqlite3_exec(h, "BEGIN IMMEDIATE; INSERT INTO meta VALUES ('held', 'by test')", NULL, NULL, NULL),
                 SQLITE_OK);
    char *doc = ts_path(dir, "doc.json");
    ts_write_str(doc, "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"s\", \"title\": \"t\", \"url\": \"u\","
                      " \"published\": \"2026\"}]}");
    const char *lock_env[] = {env[0], "FWADVISOR_DB", "FWADVISOR_BUSY_TIMEOUT_MS=200", NULL};
    cr_assert_eq(ts_run(&r, lock_env, NULL, (const char *const[]){dbarg, "kb", "import", doc, NULL}), 0);
    cr_expect_eq(r.status, 4, "%s", r.err);
    cr_expect(strstr(r.err, "locked by another process (waited 200 ms") != NULL, "%s", r.err);
    ts_run_free(&r);
    /* Readers are not blocked by a writer (write-ahead log). */
    cr_assert_eq(ts_run(&r, lock_env, NULL, (const char *const[]){dbarg, "kb", "list", NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(h);
    cr_assert_eq(ts_run(&r, lock_env, NULL, (const char *const[]){dbarg, "kb", "import", doc, NULL}), 0);
    cr_expect_eq(r.status, 0, "after the lock is gone: %s", r.err);
    ts_run_free(&r);
    free(doc);
}

Test(cli, reset_needs_yes_and_keeps_a_backup)
{
    struct ts_run r;
    ts_write_str(db, "broken");
    RUN(r, dbarg, "kb", "reset");
    cr_expect_eq(r.status, 2);
    ts_run_free(&r);
    RUN(r, dbarg, "kb", "reset", "--yes");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, ".bak") != NULL, "%s", r.out);
    ts_run_free(&r);
    char *bak = ts_path(dir, "kb.sqlite3.bak");
    char *old = ts_read(bak, NULL);
    cr_expect_str_eq(old, "broken");
    free(old);
    free(bak);
    RUN(r, dbarg, "kb", "list");
    cr_expect_eq(r.status, 0);
    ts_run_free(&r);
}

Test(cli, database_location)
{
    struct ts_run r;
    RUN(r, "kb", "path");
    char *want = ts_path(xdg, "fwadvisor/kb.sqlite3");
    cr_expect_eq(r.status, 0);
    cr_expect(strncmp(r.out, want, strlen(want)) == 0, "%s", r.out);
    ts_run_free(&r);
    RUN(r, "kb", "list");
    cr_expect_eq(r.status, 0, "%s", r.err);
    struct stat st;
    cr_expect_eq(stat(want, &st), 0, "database not created at the XDG location");
    ts_run_free(&r);
    /* FWADVISOR_DB, then --db. */
    char env_db[4200];
    snprintf(env_db, sizeof env_db, "FWADVISOR_DB=%s/env.sqlite3", dir);
    const char *env2[] = {env[0], env_db, NULL};
    cr_assert_eq(ts_run(&r, env2, NULL, (const char *const[]){"kb", "path", NULL}), 0);
    cr_expect(strstr(r.out, "/env.sqlite3") != NULL, "%s", r.out);
    ts_run_free(&r);
    cr_assert_eq(ts_run(&r, env2, NULL, (const char *const[]){dbarg, "kb", "path", NULL}), 0);
    cr_expect(strstr(r.out, "/kb.sqlite3") != NULL, "%s", r.out);
    ts_run_free(&r);
    free(want);
}

Test(cli, global_options_after_the_subcommand)
{
    struct ts_run r;
    RUN(r, "kb", "list", "sources", dbarg, "--no-color");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\033[") == NULL, "no escape codes with --no-color");
    ts_run_free(&r);
}
