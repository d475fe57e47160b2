/* Creating, reopening, refreshing and refusing knowledge-base files. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knowledge/kb.h"
#include "knowledge/kb_tables.h"
#include "tests/support.h"

static char *dir, *db;
static char err[1024];

static void setup(void)
{
    dir = ts_tmpdir();
    cr_assert_not_null(dir);
    db = ts_path(dir, "kb.sqlite3");
    err[0] = '\0';
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
    free(db);
}

TestSuite(kb_create, .init = setup, .fini = teardown);

static long long query_int(sqlite3 *h, const char *sql)
{
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(h));
    long long v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(h));
    sqlite3_close(h);
}

Test(kb_create, first_open_creates_schema_and_facts)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    sqlite3 *h = kb_db(k);
    cr_expect_eq(query_int(h, "PRAGMA user_version"), KB_SCHEMA_VERSION);
    cr_expect_eq(query_int(h, "PRAGMA application_id"), KB_APPLICATION_ID);
    cr_expect_eq(query_int(h, "SELECT count(*) FROM frameworks"), 8);
    cr_expect_eq(query_int(h, "SELECT count(*) FROM frameworks WHERE origin <> 'builtin'"), 0);
    cr_expect_eq(query_int(h, "SELECT count(*) FROM meta WHERE key IN ('kb_version', 'kb_date', 'builtin_hash')"), 3);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(h, "PRAGMA journal_mode", -1, &st, NULL);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_str_eq((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    char version[64], date[32];
    kb_version(k, version, sizeof version, date, sizeof date);
    cr_expect_gt(strlen(version), 0);
    cr_expect_eq(strlen(date), 10);
    kb_close(k);
}

Test(kb_create, reopening_changes_nothing)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    long long rules = query_int(kb_db(k), "SELECT count(*) FROM rules");
    kb_close(k);
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM rules"), rules);
    cr_expect_eq(query_int(kb_db(k), "SELECT total_changes()"), 0, "a plain reopen must not write");
    kb_close(k);
}

Test(kb_create, default_location_follows_xdg_and_creates_directories)
{
    char *xdg = ts_path(dir, "data/home");
    setenv("XDG_DATA_HOME", xdg, 1);
    unsetenv("FWADVISOR_DB");
    char path[4096];
    int is_default;
    cr_assert_eq(kb_resolve_path(NULL, path, sizeof path, &is_default, err, sizeof err), KB_OK);
    cr_expect(is_default);
    char *want = ts_path(xdg, "fwadvisor/kb.sqlite3");
    cr_expect_str_eq(path, want);
    kb *k;
    cr_assert_eq(kb_open(path, is_default, &k, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    cr_expect_eq(access(want, R_OK | W_OK), 0);
    /* --db wins over the environment, which wins over XDG. */
    setenv("FWADVISOR_DB", "/tmp/from-env.sqlite3", 1);
    kb_resolve_path(NULL, path, sizeof path, &is_default, err, sizeof err);
    cr_expect_str_eq(path, "/tmp/from-env.sqlite3");
    cr_expect_not(is_default);
    kb_resolve_path("/tmp/from-flag.sqlite3", path, sizeof path, &is_default, err, sizeof err);
    cr_expect_str_eq(path, "/tmp/from-flag.sqlite3");
    free(want);
    free(xdg);
}

Test(kb_create, newer_binary_refreshes_builtin_and_keeps_user_facts)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    struct kb_import_stats stats;
    const char *doc = "{\"schema\": \"fwadvisor.kb/1\","
                      " \"sources\": [{\"id\": \"my-notes\", \"title\": \"Team notes\", \"url\": \"wiki/ml\","
                      "   \"published\": \"2026-11\"}],"
                      " \"frameworks\": [{\"id\": \"pytorch\", \"name\": \"PyTorch\", \"version\": \"9.9\","
                      "   \"released\": \"2026-11-01\", \"summary\": \"Our pinned build.\", \"source\": \"my-notes\","
                      "   \"as_of\": \"2026-11-20\"}]}";
    cr_assert_eq(kb_import(k, doc, strlen(doc), "doc", &stats, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(stats.added, 1);
    cr_expect_eq(stats.changed, 1);
    /* Pretend the file was made by an older binary whose built-in JAX row said something else. */
    cr_assert_eq(sqlite3_exec(kb_db(k),
                              "UPDATE frameworks SET version = 'old' WHERE id = 'jax';"
                              "UPDATE meta SET value = 'older-build' WHERE key = 'builtin_hash';"
                              "DELETE FROM rules WHERE id = (SELECT min(id) FROM rules);",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    long long rules = query_int(kb_db(k), "SELECT count(*) FROM rules");
    kb_close(k);

    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(kb_db(k), "SELECT version, origin FROM frameworks WHERE id = ?", -1, &st, NULL);
    sqlite3_bind_text(st, 1, "jax", -1, SQLITE_STATIC);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_str_neq((const char *)sqlite3_column_text(st, 0), "old", "built-in fact not refreshed");
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, "pytorch", -1, SQLITE_STATIC);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_str_eq((const char *)sqlite3_column_text(st, 0), "9.9", "user fact overwritten by refresh");
    cr_expect_str_eq((const char *)sqlite3_column_text(st, 1), "user");
    sqlite3_finalize(st);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM sources WHERE id = 'my-notes'"), 1);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM rules"), rules + 1, "deleted built-in rule not restored");
    kb_close(k);
}

Test(kb_create, newer_schema_is_refused_untouched)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    raw_exec(db, "PRAGMA user_version = 99");
    char *copy = ts_path(dir, "copy");
    ts_copy(db, copy);
    cr_expect_eq(kb_open(db, 0, &k, err, sizeof err), KB_ERR_DB);
    cr_expect_null(k);
    cr_expect(strstr(err, "newer") != NULL, "%s", err);
    cr_expect(strstr(err, db) != NULL, "message should name the file: %s", err);
    cr_expect(strstr(err, "kb reset --yes") != NULL, "message should give the way out: %s", err);
    cr_expect(ts_same_file(db, copy), "file changed");
    free(copy);
}

Test(kb_create, file_that_is_not_sqlite_is_refused_untouched)
{
    const char *junk = "name,score\npytorch,9\nthis is a spreadsheet, not a database\n";
    ts_write_str(db, junk);
    kb *k;
    cr_expect_eq(kb_open(db, 0, &k, err, sizeof err), KB_ERR_DB);
    cr_expect(strstr(err, "not a database") != NULL, "%s", err);
    size_t len;
    char *now = ts_read(db, &len);
    cr_expect_str_eq(now, junk);
    free(now);
}

Test(kb_create, truncated_file_is_refused_untouched)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    sqlite3_exec(kb_db(k), "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
    kb_close(k);
    struct stat st;
    cr_assert_eq(stat(db, &st), 0);
    cr_assert_eq(truncate(db, st.st_size / 2), 0);
    char *copy = ts_path(dir, "copy");
    ts_copy(db, copy);
    cr_expect_eq(kb_open(db, 0, &k, err, sizeof err), KB_ERR_DB);
    cr_expect(strstr(err, "damaged") != NULL, "%s", err);
    cr_expect(ts_same_file(db, copy), "file changed");
    free(copy);
}

Test(kb_create, other_sqlite_database_is_refused)
{
    raw_exec(db, "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);");
    kb *k;
    cr_expect_eq(kb_open(db, 0, &k, err, sizeof err), KB_ERR_DB);
    cr_expect(strstr(err, "not a fwadvisor knowledge base") != NULL, "%s", err);
    sqlite3 *h;
    sqlite3_open(db, &h);
    cr_expect_eq(query_int(h, "SELECT count(*) FROM sqlite_master"), 1, "foreign database was modified");
    sqlite3_close(h);
}

Test(kb_create, unwritable_data_directory_is_an_error)
{
    /* A file where the directory should be: fails for root too. */
    char *blocker = ts_path(dir, "blocker");
    ts_write_str(blocker, "x");
    char *path = ts_path(blocker, "fwadvisor/kb.sqlite3");
    kb *k;
    cr_expect_eq(kb_open(path, 1, &k, err, sizeof err), KB_ERR_DB);
    cr_expect(strstr(err, "cannot create data directory") != NULL, "%s", err);
    free(path);
    if (geteuid() != 0) { /* permission bits bind everyone but root */
        char *ro = ts_path(dir, "ro");
        mkdir(ro, 0500);
        path = ts_path(ro, "kb.sqlite3");
        cr_expect_eq(kb_open(path, 0, &k, err, sizeof err), KB_ERR_DB);
        cr_expect(strstr(err, "not writable") != NULL, "%s", err);
        free(path);
        free(ro);
    }
    free(blocker);
}

Test(kb_create, locked_database_waits_then_fails)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    sqlite3 *other;
    sqlite3_open(db, &other);
    cr_assert_eq(sqlite3_exec(other, "BEGIN IMMEDIATE; INSERT INTO meta VALUES ('lock', 'held');", NULL, NULL, NULL),
                 SQLITE_OK);
    setenv("FWADVISOR_BUSY_TIMEOUT_MS", "150", 1);
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "reads must not wait for a writer: %s", err);
    cr_expect_eq(kb_busy_ms(k), 150);
    struct kb_import_stats stats;
    const char *doc = "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"x-src\", \"title\": \"t\","
                      " \"url\": \"u\", \"published\": \"2026\"}]}";
    cr_expect_eq(kb_import(k, doc, strlen(doc), "doc", &stats, err, sizeof err), KB_ERR_DB);
    cr_expect(strstr(err, "locked") != NULL, "%s", err);
    cr_expect(strstr(err, "150 ms") != NULL, "%s", err);
    kb_close(k);
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    unsetenv("FWADVISOR_BUSY_TIMEOUT_MS");
}

Test(kb_create, reset_keeps_the_old_file_as_backup)
{
    ts_write_str(db, "garbage that is not a database");
    char backup[4200];
    cr_assert_eq(kb_reset(db, 0, backup, sizeof backup, err, sizeof err), KB_OK, "%s", err);
    char *bak = ts_path(dir, "kb.sqlite3.bak");
    cr_expect_str_eq(backup, bak);
    char *old = ts_read(bak, NULL);
    cr_expect_str_eq(old, "garbage that is not a database");
    free(old);
    kb *k;
    cr_expect_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    free(bak);
}

Test(kb_create, directory_as_database_is_refused)
{
    kb *k;
    cr_expect_eq(kb_open(dir, 0, &k, err, sizeof err), KB_ERR_DB);
    cr_expect(strstr(err, "is a directory") != NULL, "%s", err);
}

#define VERSION_3_COLUMNS_DROPPED                                                                                 \
    "ALTER TABLE accelerators DROP COLUMN tf32_tflops; ALTER TABLE accelerators DROP COLUMN fp8_tflops;"          \
    " ALTER TABLE accelerators DROP COLUMN link_gbs; ALTER TABLE accelerators DROP COLUMN network_gbs;"           \
    " ALTER TABLE accelerators DROP COLUMN interconnect;"

Test(kb_create, version_1_databases_are_upgraded)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    /* What a version-1 file looked like: no probe_runs table, nor version 3's accelerator columns. */
    raw_exec(db, "DROP TABLE probe_runs; " VERSION_3_COLUMNS_DROPPED " PRAGMA user_version = 1;");
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(query_int(kb_db(k), "PRAGMA user_version"), KB_SCHEMA_VERSION);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM sqlite_master WHERE name = 'probe_runs'"), 1);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM frameworks"), 8, "facts kept through the upgrade");
    cr_expect_gt(query_int(kb_db(k), "SELECT count(*) FROM accelerators WHERE fp8_tflops > 0"), 0, "built-in facts refreshed");
    kb_close(k);
}

Test(kb_create, version_2_databases_gain_the_accelerator_columns)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    /* A version-2 file with a user's accelerator: the upgrade adds the columns with their
     * defaults and keeps the row. */
    raw_exec(db, VERSION_3_COLUMNS_DROPPED
                 " INSERT INTO accelerators (id, name, vendor, memory_gb, bandwidth_gbs, fp32_tflops, bf16_tflops,"
                 " fp16_tflops, match, source, as_of, origin) VALUES ('my-gpu', 'My GPU', 'nvidia', 16, 500, 10, 40,"
                 " 40, 'my gpu', 'hw-nvidia-a100', '2026-12-01', 'user'); PRAGMA user_version = 2;");
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(query_int(kb_db(k), "PRAGMA user_version"), KB_SCHEMA_VERSION);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM accelerators WHERE id = 'my-gpu' AND fp8_tflops = 0 "
                                     "AND link_gbs = 0 AND interconnect = ''"), 1);
    kb_close(k);
}

/* A schema-3 file: its accelerators table checks the vendor against the six vendors of then, and
 * Gaudi 3 sits under intel. The upgrade rebuilds the table with the vendors of now, keeps the
 * user's accelerator and reloads the built-in facts: Gaudi 3 under gaudi, Trainium2 in. */
Test(kb_create, version_3_databases_gain_the_trainium_and_gaudi_vendors)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    char create[4096] = "";
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(kb_db(k), "SELECT sql FROM sqlite_master WHERE name = 'accelerators'", -1, &st, NULL),
                 SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW) snprintf(create, sizeof create, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    kb_close(k);
    char *added = strstr(create, ", 'trainium', 'gaudi'");
    cr_assert(added, "%s", create);
    memmove(added, added + strlen(", 'trainium', 'gaudi'"), strlen(added + strlen(", 'trainium', 'gaudi'")) + 1);
    char sql[6000];
    snprintf(sql, sizeof sql,
             "CREATE TABLE kept AS SELECT * FROM accelerators WHERE vendor <> 'trainium';"
             " UPDATE kept SET vendor = 'intel' WHERE vendor = 'gaudi'; DROP TABLE accelerators; %s;"
             " INSERT INTO accelerators SELECT * FROM kept; DROP TABLE kept;"
             " INSERT INTO accelerators (id, name, vendor, memory_gb, bandwidth_gbs, fp32_tflops, bf16_tflops, fp16_tflops,"
             " match, source, as_of, origin) VALUES ('my-gpu', 'My GPU', 'nvidia', 16, 500, 10, 40, 40, 'my gpu',"
             " 'hw-nvidia-a100', '2026-12-01', 'user'); PRAGMA user_version = 3;",
             create);
    raw_exec(db, sql);
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    cr_expect_neq(sqlite3_exec(h, "UPDATE accelerators SET vendor = 'gaudi' WHERE id = 'gaudi3'", NULL, NULL, NULL), SQLITE_OK,
                  "the version-3 table refuses the new vendor");
    sqlite3_close(h);
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(query_int(kb_db(k), "PRAGMA user_version"), KB_SCHEMA_VERSION);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM accelerators WHERE id = 'gaudi3' AND vendor = 'gaudi'"), 1);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM accelerators WHERE id = 'trainium2' AND vendor = 'trainium'"), 1);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM accelerators WHERE id = 'my-gpu' AND origin = 'user'"), 1);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM sqlite_master WHERE name = 'accelerators_v3'"), 0);
    kb_close(k);
}

/* A version-5 file has no accelerators.figures: the upgrade adds the column, the reloaded built-in
 * rows carry theirs (Gaudi 3 derived, the 910B secondary, the H100 the vendor's) and the user's
 * accelerator reads 'vendor' until re-imported. */
Test(kb_create, version_5_databases_gain_the_figures_column)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    raw_exec(db, "ALTER TABLE accelerators DROP COLUMN figures;"
                 " INSERT INTO accelerators (id, name, vendor, memory_gb, bandwidth_gbs, fp32_tflops, bf16_tflops, fp16_tflops,"
                 " match, source, as_of, origin) VALUES ('my-gpu', 'My GPU', 'nvidia', 16, 500, 10, 40, 40, 'my gpu',"
                 " 'hw-nvidia-a100', '2026-12-01', 'user'); PRAGMA user_version = 5;");
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(query_int(kb_db(k), "PRAGMA user_version"), KB_SCHEMA_VERSION);
    cr_expect_eq(KB_SCHEMA_VERSION, 7);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM accelerators WHERE id = 'gaudi3' AND figures = 'derived'"), 1);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM accelerators WHERE id = 'ascend-910b' AND figures = 'secondary'"), 1);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM accelerators WHERE id = 'h100-sxm' AND figures = 'vendor'"), 1);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM accelerators WHERE id = 'my-gpu' AND origin = 'user' AND figures = 'vendor'"), 1);
    kb_close(k);
}

/* A version-6 file has no Chinese columns: the upgrade adds all 17, the reloaded built-in rows
 * carry their Chinese (and their operating-system notes theirs), and the user's rule keeps an
 * empty twin, which shows its English, until re-imported. */
Test(kb_create, version_6_databases_gain_the_chinese_columns)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    char sql[4096] = "";
    size_t used = 0;
    int dropped = 0;
    for (int t = 0; t < kb_table_count; t++)
        for (int c = 0; c < kb_tables[t].ncols; c++)
            if (kb_tables[t].cols[c].flags & KB_ZH) {
                used += (size_t)snprintf(sql + used, sizeof sql - used, "ALTER TABLE %s DROP COLUMN %s; ", kb_tables[t].name,
                                         kb_tables[t].cols[c].name);
                dropped++;
            }
    cr_assert_eq(dropped, 17);
    snprintf(sql + used, sizeof sql - used,
             "INSERT INTO rules (id, kind, title, text, source, as_of, origin) VALUES ('my-rule', 'rule_of_thumb', 'Mine',"
             " 'Our own rule.', 'seed-001', '2026-12-01', 'user'); PRAGMA user_version = 6;");
    raw_exec(db, sql);
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(query_int(kb_db(k), "PRAGMA user_version"), 7);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM pragma_table_info('strategies') WHERE name LIKE '%\\_zh' ESCAPE '\\'"), 4);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM rules WHERE origin = 'builtin' AND text_zh = ''"), 0);
    cr_expect_gt(query_int(kb_db(k), "SELECT count(*) FROM rules WHERE origin = 'builtin'"), 150);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM rules WHERE id = 'my-rule' AND text_zh = '' AND text = 'Our own rule.'"), 1);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM scores WHERE note_zh = ''"), 0);
    cr_expect_geq(query_int(kb_db(k), "SELECT count(*) FROM hw_support, json_each(os_support)"
                                      " WHERE json_extract(value, '$.note_zh') <> ''"), 15);
    kb_close(k);
}

Test(kb_create, refresh_leaves_probe_runs_alone)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_assert_eq(sqlite3_exec(kb_db(k),
                              "INSERT INTO probe_runs VALUES ('p1', '2026-01-01T00:00:00Z', 1, 0, 's', '{}');"
                              "UPDATE meta SET value = 'older-build' WHERE key = 'builtin_hash';",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    kb_close(k);
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM probe_runs"), 1);
    kb_close(k);
}

/* A schema-2 file: no hardware columns, free-text os_limits, a user's own hardware fact. The
 * upgrade adds the columns, keeps the user's row (fit 5, no OS entries), drops os_limits and
 * reloads the built-in facts with their real values. */
Test(kb_create, version_2_databases_gain_the_hardware_columns)
{
    kb *k;
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    raw_exec(db, "ALTER TABLE hw_support DROP COLUMN fit; ALTER TABLE hw_support DROP COLUMN os_support;"
                 "ALTER TABLE hw_support DROP COLUMN also; ALTER TABLE hw_support ADD COLUMN os_limits TEXT NOT NULL DEFAULT '';"
                 "ALTER TABLE scores DROP COLUMN also; ALTER TABLE rules DROP COLUMN also;"
                 "ALTER TABLE strategies DROP COLUMN tensor_parallel; ALTER TABLE strategies DROP COLUMN kinds;"
                 "ALTER TABLE strategy_frameworks DROP COLUMN hardware; ALTER TABLE runtimes DROP COLUMN hardware;"
                 "ALTER TABLE runtimes DROP COLUMN kinds; ALTER TABLE runtime_frameworks DROP COLUMN path;"
                 "UPDATE hw_support SET origin = 'user', note = 'our own ROCm build', os_limits = 'linux only' "
                 "WHERE framework = 'mlx' AND hardware = 'amd';"
                 "PRAGMA user_version = 2;");
    cr_assert_eq(kb_open(db, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(query_int(kb_db(k), "PRAGMA user_version"), KB_SCHEMA_VERSION);
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM pragma_table_info('hw_support') WHERE name = 'os_limits'"), 0);
    cr_expect_eq(query_int(kb_db(k), "SELECT fit FROM hw_support WHERE framework = 'mlx' AND hardware = 'amd' "
                                     "AND origin = 'user' AND note = 'our own ROCm build'"), 5, "the user's row, fit 5");
    cr_expect_eq(query_int(kb_db(k), "SELECT fit FROM hw_support WHERE framework = 'jax' AND hardware = 'tpu'"), 10,
                 "built-in rows reloaded with their values");
    cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM strategy_frameworks WHERE hardware = ''"), 0);
    kb_close(k);
}

/* Eight first uses of one new file at the same moment, a hundred times over: every open succeeds
 * and every one sees the whole database. Two connections switching a new file to write-ahead
 * logging together get SQLITE_BUSY at once (SQLite's deadlock rule, no busy handler), which the
 * open must retry; a header read in pieces could also straddle another's creation. */
enum { RACERS = 8, RACE_ROUNDS = 100 };

struct racer {
    const char *path;
    pthread_barrier_t *start;
    int status;
    long long frameworks;
    char err[512];
};

static void *race_open(void *p)
{
    struct racer *r = p;
    kb *k = NULL;
    pthread_barrier_wait(r->start);
    r->status = kb_open(r->path, 0, &k, r->err, sizeof r->err);
    if (r->status == KB_OK) {
        r->frameworks = query_int(kb_db(k), "SELECT count(*) FROM frameworks");
        kb_close(k);
    }
    return NULL;
}

Test(kb_create, eight_first_uses_at_once_all_succeed)
{
    /* What is tested is that the openers agree, not how fast: on a loaded machine one creation can
     * take longer than the default 5 s wait, so the others wait as long as it takes (10 minutes). */
    setenv("FWADVISOR_BUSY_TIMEOUT_MS", "600000", 1);
    for (int round = 0; round < RACE_ROUNDS; round++) {
        char path[4300];
        snprintf(path, sizeof path, "%s/race-%d.sqlite3", dir, round);
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, RACERS);
        struct racer r[RACERS];
        pthread_t th[RACERS];
        for (int i = 0; i < RACERS; i++) {
            r[i] = (struct racer){.path = path, .start = &start};
            cr_assert_eq(pthread_create(&th[i], NULL, race_open, &r[i]), 0);
        }
        for (int i = 0; i < RACERS; i++) pthread_join(th[i], NULL);
        pthread_barrier_destroy(&start);
        for (int i = 0; i < RACERS; i++) {
            cr_assert_eq(r[i].status, KB_OK, "round %d, opener %d: %s", round, i, r[i].err);
            cr_expect_gt(r[i].frameworks, 0, "round %d, opener %d sees the facts", round, i);
        }
    }
}

/* A path is a file, whatever SQLite would make of its name: ":memory:" and "file:..." given as
 * --db are databases in the current folder that a second open finds again (before, ":memory:"
 * left an empty file behind and kept its facts in memory). The in-memory knowledge base the
 * import fuzzer uses takes imports and writes nothing. */
Test(kb_create, a_path_named_like_sqlites_special_names_is_a_file)
{
    char *cwd = getcwd(NULL, 0);
    cr_assert_not_null(cwd);
    cr_assert_eq(chdir(dir), 0);
    static const char *const names[] = {":memory:", "file:kb.sqlite3"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        kb *k;
        cr_assert_eq(kb_open(names[i], 0, &k, err, sizeof err), KB_OK, "%s", err);
        cr_assert_eq(sqlite3_exec(kb_db(k), "INSERT INTO probe_runs VALUES ('p1', '2026-01-01T00:00:00Z', 1, 0, 's', '{}')",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
        kb_close(k);
        struct stat st;
        cr_assert_eq(stat(names[i], &st), 0, "%s", names[i]);
        cr_expect_gt(st.st_size, 0, "%s holds the database", names[i]);
        cr_assert_eq(kb_open(names[i], 0, &k, err, sizeof err), KB_OK, "%s", err);
        cr_expect_eq(query_int(kb_db(k), "SELECT count(*) FROM probe_runs"), 1, "%s: the run stored before", names[i]);
        kb_close(k);
    }
    cr_assert_eq(chdir(cwd), 0);
    free(cwd);
    kb *m;
    cr_assert_eq(kb_open_memory(&m, err, sizeof err), KB_OK, "%s", err);
    const char *doc = "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"team\", \"title\": \"Ours\", \"url\": \"wiki\","
                      " \"published\": \"2026\"}]}";
    struct kb_import_stats stats;
    cr_expect_eq(kb_import(m, doc, strlen(doc), "doc.json", &stats, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(stats.added, 1);
    kb_close(m);
}
