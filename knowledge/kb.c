/* Opening, creating, migrating and refreshing the knowledge base. */
#include "knowledge/kb_internal.h"
#include "common/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void kb_errf(char *err, size_t errsz, const char *fmt, ...)
{
    if (!err || !errsz) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
}

int kb_exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

sqlite3 *kb_db(kb *k) { return k->db; }
const char *kb_path(const kb *k) { return k->path; }
const char *kb_notice(const kb *k) { return k->notice; }
int kb_busy_ms(const kb *k) { return k->busy_ms; }

void kb_set_progress(kb *k, void (*fn)(void *ctx, size_t done, size_t total), void *ctx)
{
    k->progress = fn;
    k->progress_ctx = ctx;
}

int kb_resolve_path(const char *override, char *out, size_t outsz, int *is_default, char *err,
                    size_t errsz)
{
    const char *env = getenv("FWADVISOR_DB");
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    int n;
    *is_default = 0;
    if (override && *override) {
        n = snprintf(out, outsz, "%s", override);
    } else if (env && *env) {
        n = snprintf(out, outsz, "%s", env);
    } else if (xdg && xdg[0] == '/') { /* the XDG spec ignores relative paths */
        *is_default = 1;
        n = snprintf(out, outsz, "%s/fwadvisor/kb.sqlite3", xdg);
    } else if (home && *home) {
        *is_default = 1;
        n = snprintf(out, outsz, "%s/.local/share/fwadvisor/kb.sqlite3", home);
    } else {
        kb_errf(err, errsz, "cannot place the database: HOME and XDG_DATA_HOME are unset (use --db PATH)");
        return KB_ERR_DB;
    }
    if (n < 0 || (size_t)n >= outsz) {
        kb_errf(err, errsz, "database path is too long");
        return KB_ERR_DB;
    }
    return KB_OK;
}

/* mkdir -p for the directory part of path. */
static int make_parent_dirs(const char *path, char *err, size_t errsz)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return KB_OK;
    *slash = '\0';
    for (char *p = dir + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
                kb_errf(err, errsz, "cannot create data directory '%s': %s", dir, strerror(errno));
                return KB_ERR_DB;
            }
            struct stat st;
            if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
                kb_errf(err, errsz, "cannot create data directory '%s': %s", dir,
                        stat(dir, &st) != 0 ? strerror(errno) : "a file of that name is in the way");
                return KB_ERR_DB;
            }
            *p = saved;
            if (saved == '\0') break;
        }
    }
    return KB_OK;
}

/* A new database file needs a writable directory; say so before SQLite's generic message. */
static int check_parent_writable(const char *path, char *err, size_t errsz)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    struct stat st;
    if (stat(dir, &st) != 0) {
        kb_errf(err, errsz, "cannot create database '%s': directory '%s': %s", path, dir, strerror(errno));
        return KB_ERR_DB;
    }
    if (!S_ISDIR(st.st_mode)) {
        kb_errf(err, errsz, "cannot create database '%s': '%s' is not a directory", path, dir);
        return KB_ERR_DB;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        kb_errf(err, errsz, "cannot create database '%s': data directory '%s' is not writable: %s",
                path, dir, strerror(errno));
        return KB_ERR_DB;
    }
    return KB_OK;
}

/* The fix to print for a damaged or foreign file: the reset must name that very file. */
static const char *way_out(const kb *k)
{
    static _Thread_local char text[PATH_MAX + 160];
    if (k->is_default)
        return "run 'fwadvisor kb reset --yes' to start afresh (the old file is kept as .bak) or choose another file "
               "with --db";
    snprintf(text, sizeof text,
             "run 'fwadvisor --db %s kb reset --yes' to start afresh (the old file is kept as .bak) or choose another "
             "file with --db",
             k->path);
    return text;
}

int kb_db_error(kb *k, int rc, const char *what, char *err, size_t errsz)
{
    const char *msg = sqlite3_errmsg(k->db);
    int primary = rc & 0xff;
    if (primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_FULL || primary == SQLITE_IOERR ||
        primary == SQLITE_PERM)
        k->write_failed = 1;
    switch (rc & 0xff) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
        kb_errf(err, errsz, "database '%s' is damaged or not a database (%s while %s); %s", k->path,
                msg, what, way_out(k));
        return KB_ERR_DB;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        kb_errf(err, errsz, "database '%s' is locked by another process (waited %d ms while %s); try again later",
                k->path, k->busy_ms, what);
        return KB_ERR_DB;
    case SQLITE_READONLY:
        kb_errf(err, errsz, "database '%s' is read-only (%s while %s)", k->path, msg, what);
        return KB_ERR_DB;
    case SQLITE_FULL:
        kb_errf(err, errsz, "disk full while %s in database '%s'", what, k->path);
        return KB_ERR_DB;
    case SQLITE_NOMEM:
        kb_errf(err, errsz, "out of memory while %s", what);
        return KB_ERR_RUNTIME;
    default:
        kb_errf(err, errsz, "database '%s': %s while %s", k->path, msg, what);
        return KB_ERR_DB;
    }
}

static int read_int(sqlite3 *db, const char *sql, long long *out)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        *out = 0;
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* FNV-1a over the built-in texts: changes whenever the compiled-in facts change. */
static uint64_t builtin_hash(void)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < kb_builtin_count; i++) {
        for (const unsigned char *p = (const unsigned char *)kb_builtin_texts[i]; *p; p++) {
            h ^= *p;
            h *= 1099511628211ULL;
        }
        h ^= 0xff;
        h *= 1099511628211ULL;
    }
    return h;
}

/* Loads schema and built-in facts into a private in-memory database, checking them fully
 * (constraints, foreign keys) before anything touches the user's file. */
static int build_seed(sqlite3 **out, char *err, size_t errsz)
{
    sqlite3 *mem = NULL;
    if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        kb_errf(err, errsz, "out of memory opening the built-in knowledge base");
        sqlite3_close(mem);
        return KB_ERR_RUNTIME;
    }
    kb_exec(mem, "PRAGMA foreign_keys=ON");
    if (kb_exec(mem, "BEGIN") != SQLITE_OK) goto fail_sql;
    for (size_t i = 0; i < kb_builtin_count; i++) {
        char *msg = NULL;
        if (sqlite3_exec(mem, kb_builtin_texts[i], NULL, NULL, &msg) != SQLITE_OK) {
            kb_errf(err, errsz, "built-in data %s: %s", kb_builtin_names[i], msg ? msg : "error");
            sqlite3_free(msg);
            sqlite3_close(mem);
            return KB_ERR_RUNTIME;
        }
    }
    if (kb_exec(mem, "COMMIT") != SQLITE_OK) goto fail_sql; /* deferred foreign keys checked here */
    *out = mem;
    return KB_OK;
fail_sql:
    kb_errf(err, errsz, "built-in data: %s", sqlite3_errmsg(mem));
    sqlite3_close(mem);
    return KB_ERR_RUNTIME;
}

/* Copies every built-in row from the seed database into k's tables, leaving any row whose key
 * already exists (the user's) in place. Runs inside the caller's transaction. */
static int copy_seed(kb *k, sqlite3 *mem, char *err, size_t errsz)
{
    for (int t = 0; t < kb_table_count; t++) {
        const struct kb_table *tab = &kb_tables[t];
        char sql[1024];
        size_t used = (size_t)snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO %s (", tab->name);
        for (int c = 0; c < tab->ncols; c++)
            used += (size_t)snprintf(sql + used, sizeof sql - used, "%s%s", c ? ", " : "", tab->cols[c].name);
        used += (size_t)snprintf(sql + used, sizeof sql - used, ", origin) VALUES (");
        for (int c = 0; c < tab->ncols; c++)
            used += (size_t)snprintf(sql + used, sizeof sql - used, "%s?", c ? ", " : "");
        snprintf(sql + used, sizeof sql - used, ", 'builtin')");

        sqlite3_stmt *src = NULL, *dst = NULL;
        int rc = kb_prepare_select(mem, tab, NULL, &src);
        if (rc != SQLITE_OK) {
            kb_errf(err, errsz, "built-in data: %s", sqlite3_errmsg(mem));
            return KB_ERR_RUNTIME;
        }
        rc = sqlite3_prepare_v2(k->db, sql, -1, &dst, NULL);
        if (rc != SQLITE_OK) {
            sqlite3_finalize(src);
            return kb_db_error(k, rc, "loading built-in facts", err, errsz);
        }
        while ((rc = sqlite3_step(src)) == SQLITE_ROW) {
            for (int c = 0; c < tab->ncols; c++)
                sqlite3_bind_value(dst, c + 1, sqlite3_column_value(src, c));
            rc = sqlite3_step(dst);
            sqlite3_reset(dst);
            if (rc != SQLITE_DONE) break;
        }
        sqlite3_finalize(src);
        sqlite3_finalize(dst);
        if (rc != SQLITE_DONE) return kb_db_error(k, rc, "loading built-in facts", err, errsz);
    }
    /* The built-in data names its own version and date in meta. */
    sqlite3_stmt *src = NULL, *dst = NULL;
    int rc = sqlite3_prepare_v2(mem, "SELECT key, value FROM meta", -1, &src, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(k->db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", -1, &dst, NULL);
    while (rc == SQLITE_OK && sqlite3_step(src) == SQLITE_ROW) {
        sqlite3_bind_value(dst, 1, sqlite3_column_value(src, 0));
        sqlite3_bind_value(dst, 2, sqlite3_column_value(src, 1));
        rc = sqlite3_step(dst) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(k->db);
        sqlite3_reset(dst);
    }
    sqlite3_finalize(src);
    sqlite3_finalize(dst);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "loading built-in facts", err, errsz);
    return KB_OK;
}

static int set_seed_hash(kb *k, char *err, size_t errsz)
{
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)builtin_hash());
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(k->db, "INSERT OR REPLACE INTO meta (key, value) VALUES ('builtin_hash', ?)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, hash, -1, SQLITE_TRANSIENT);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(k->db);
        sqlite3_finalize(st);
    }
    return rc == SQLITE_OK ? KB_OK : kb_db_error(k, rc, "recording the built-in data version", err, errsz);
}

static int stored_hash_matches(kb *k, int *matches)
{
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)builtin_hash());
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(k->db, "SELECT value FROM meta WHERE key = 'builtin_hash'", -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(st);
    *matches = rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), hash) == 0;
    rc = (rc == SQLITE_ROW || rc == SQLITE_DONE) ? SQLITE_OK : rc;
    sqlite3_finalize(st);
    return rc;
}

const struct kb_table *kb_table_over_limit(kb *k, long long *rows, int *rc)
{
    *rc = SQLITE_OK;
    for (int t = 0; t < kb_table_count; t++) {
        if (!kb_tables[t].max_rows) continue;
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", kb_tables[t].name);
        if ((*rc = read_int(k->db, sql, rows)) != SQLITE_OK) return NULL;
        if (*rows > kb_tables[t].max_rows) return &kb_tables[t];
    }
    return NULL;
}

static int foreign_keys_ok(kb *k, char *err, size_t errsz)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(k->db, "PRAGMA foreign_key_check", -1, &st, NULL);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "checking references", err, errsz);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        kb_errf(err, errsz, "database '%s': a fact in %s refers to a missing %s", k->path,
                (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 2));
        sqlite3_finalize(st);
        return KB_ERR_DB;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? KB_OK : kb_db_error(k, rc, "checking references", err, errsz);
}

/* Creates the schema and loads the built-in facts, all in one transaction. */
static int create_schema(kb *k, char *err, size_t errsz)
{
    sqlite3 *mem = NULL;
    int status = build_seed(&mem, err, errsz);
    if (status) return status;
    int rc = kb_exec(k->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) {
        sqlite3_close(mem);
        return kb_db_error(k, rc, "creating the database", err, errsz);
    }
    long long version = 0;
    rc = read_int(k->db, "PRAGMA user_version", &version);
    if (rc == SQLITE_OK && version != 0) { /* another process created it while we waited */
        sqlite3_close(mem);
        return kb_exec(k->db, "COMMIT") == SQLITE_OK ? KB_OK
                                                     : kb_db_error(k, rc, "creating the database", err, errsz);
    }
    char pragmas[128];
    snprintf(pragmas, sizeof pragmas, "PRAGMA application_id = %d; PRAGMA user_version = %d;",
             KB_APPLICATION_ID, KB_SCHEMA_VERSION);
    if (rc == SQLITE_OK) rc = kb_exec(k->db, kb_builtin_texts[0]);
    if (rc != SQLITE_OK) {
        status = kb_db_error(k, rc, "creating the schema", err, errsz);
        goto fail;
    }
    if ((status = copy_seed(k, mem, err, errsz)) != KB_OK) goto fail;
    if ((status = set_seed_hash(k, err, errsz)) != KB_OK) goto fail;
    if ((status = foreign_keys_ok(k, err, errsz)) != KB_OK) goto fail;
    rc = kb_exec(k->db, pragmas);
    if (rc == SQLITE_OK) rc = kb_exec(k->db, "COMMIT");
    if (rc != SQLITE_OK) {
        status = kb_db_error(k, rc, "creating the database", err, errsz);
        goto fail;
    }
    sqlite3_close(mem);
    return KB_OK;
fail:
    kb_exec(k->db, "ROLLBACK");
    sqlite3_close(mem);
    return status;
}

/* Replaces built-in facts when this binary carries other ones; user rows stay. */
static int refresh_builtin(kb *k, char *err, size_t errsz)
{
    int matches = 0;
    int rc = stored_hash_matches(k, &matches);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "reading the built-in data version", err, errsz);
    if (matches || sqlite3_db_readonly(k->db, "main") == 1) return KB_OK;

    sqlite3 *mem = NULL;
    int status = build_seed(&mem, err, errsz);
    if (status) return status;
    rc = kb_exec(k->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) {
        sqlite3_close(mem);
        return kb_db_error(k, rc, "refreshing built-in facts", err, errsz);
    }
    rc = stored_hash_matches(k, &matches);
    if (rc != SQLITE_OK || matches) { /* error, or refreshed by another process meanwhile */
        kb_exec(k->db, "ROLLBACK");
        sqlite3_close(mem);
        return rc == SQLITE_OK ? KB_OK : kb_db_error(k, rc, "refreshing built-in facts", err, errsz);
    }
    for (int t = kb_table_count - 1; t >= 0; t--) {
        char sql[128];
        snprintf(sql, sizeof sql, "DELETE FROM %s WHERE origin = 'builtin'", kb_tables[t].name);
        if ((rc = kb_exec(k->db, sql)) != SQLITE_OK) {
            status = kb_db_error(k, rc, "refreshing built-in facts", err, errsz);
            goto fail;
        }
    }
    if ((status = copy_seed(k, mem, err, errsz)) != KB_OK) goto fail;
    /* The user's rows and this build's together may not fit a table's limit: then the file keeps
     * the facts it has, which still fit, and the user hears why. */
    long long rows;
    const struct kb_table *over = kb_table_over_limit(k, &rows, &rc);
    if (rc != SQLITE_OK) {
        status = kb_db_error(k, rc, "refreshing built-in facts", err, errsz);
        goto fail;
    }
    if (over) {
        kb_errf(k->notice, sizeof k->notice,
                "the built-in facts of this build were not applied: %s would hold %lld rows; this build handles at most %d",
                over->name, rows, over->max_rows);
        kb_exec(k->db, "ROLLBACK");
        sqlite3_close(mem);
        return KB_OK;
    }
    if ((status = set_seed_hash(k, err, errsz)) != KB_OK) goto fail;
    if ((status = foreign_keys_ok(k, err, errsz)) != KB_OK) goto fail;
    if ((rc = kb_exec(k->db, "COMMIT")) != SQLITE_OK) {
        status = kb_db_error(k, rc, "refreshing built-in facts", err, errsz);
        goto fail;
    }
    sqlite3_close(mem);
    return KB_OK;
fail:
    kb_exec(k->db, "ROLLBACK");
    sqlite3_close(mem);
    return status;
}

/* Columns added since schema 2: 2 -> 3 the hardware columns and `also`, 5 -> 6 the figures' kind,
 * 6 -> 7 the Chinese texts. Each column is added only when missing, so a file
 * whose version number was lowered by hand upgrades too; os_limits (free text) gives way to
 * os_support. The built-in facts are then reloaded (the stored hash is dropped) so they carry
 * their real values; the user's rows keep the defaults (fit 5, no OS limits, no hardware listed,
 * which the advisor reads as every platform). */
#define ZH_DEFAULT "TEXT NOT NULL DEFAULT ''"
static const struct { const char *table, *column, *definition; } added_columns[] = {
    {"hw_support", "fit", "INTEGER NOT NULL DEFAULT 5 CHECK (fit BETWEEN 0 AND 10)"},
    {"hw_support", "os_support", "TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(os_support))"},
    {"hw_support", "also", "TEXT NOT NULL DEFAULT ''"},
    {"scores", "also", "TEXT NOT NULL DEFAULT ''"},
    {"rules", "also", "TEXT NOT NULL DEFAULT ''"},
    {"strategies", "tensor_parallel", "INTEGER NOT NULL DEFAULT 0 CHECK (tensor_parallel IN (0, 1))"},
    {"strategies", "kinds", "TEXT NOT NULL DEFAULT ''"},
    {"strategy_frameworks", "hardware", "TEXT NOT NULL DEFAULT ''"},
    {"runtimes", "hardware", "TEXT NOT NULL DEFAULT ''"},
    {"runtimes", "kinds", "TEXT NOT NULL DEFAULT ''"},
    {"runtime_frameworks", "path", "TEXT NOT NULL DEFAULT 'converter' CHECK (path IN ('native', 'converter', 'indirect'))"},
    {"accelerators", "tf32_tflops", "REAL NOT NULL DEFAULT 0 CHECK (tf32_tflops >= 0)"},
    {"accelerators", "fp8_tflops", "REAL NOT NULL DEFAULT 0 CHECK (fp8_tflops >= 0)"},
    {"accelerators", "link_gbs", "REAL NOT NULL DEFAULT 0 CHECK (link_gbs >= 0)"},
    {"accelerators", "network_gbs", "REAL NOT NULL DEFAULT 0 CHECK (network_gbs >= 0)"},
    {"accelerators", "interconnect", "TEXT NOT NULL DEFAULT ''"},
    /* version 6 */
    {"accelerators", "figures",
     "TEXT NOT NULL DEFAULT 'vendor' CHECK (figures IN ('vendor', 'derived', 'secondary'))"},
    /* version 7: the Chinese text beside each prose column ('' until a translation arrives) */
    {"sources", "note_zh", ZH_DEFAULT},
    {"frameworks", "summary_zh", ZH_DEFAULT},
    {"criteria", "name_zh", ZH_DEFAULT},
    {"criteria", "description_zh", ZH_DEFAULT},
    {"scores", "note_zh", ZH_DEFAULT},
    {"hardware", "name_zh", ZH_DEFAULT},
    {"hardware", "summary_zh", ZH_DEFAULT},
    {"hw_support", "note_zh", ZH_DEFAULT},
    {"strategies", "name_zh", ZH_DEFAULT},
    {"strategies", "shards_zh", ZH_DEFAULT},
    {"strategies", "scale_zh", ZH_DEFAULT},
    {"strategies", "summary_zh", ZH_DEFAULT},
    {"strategy_frameworks", "note_zh", ZH_DEFAULT},
    {"runtimes", "summary_zh", ZH_DEFAULT},
    {"runtime_frameworks", "note_zh", ZH_DEFAULT},
    {"rules", "title_zh", ZH_DEFAULT},
    {"rules", "text_zh", ZH_DEFAULT},
};

static int has_column(kb *k, const char *table, const char *column, int *has)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(k->db, "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2", -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    *has = rc == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    rc = rc == SQLITE_ROW ? SQLITE_OK : rc;
    sqlite3_finalize(st);
    return rc;
}

static int add_missing_columns(kb *k)
{
    char sql[320];
    int rc = SQLITE_OK, has = 0;
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof added_columns / sizeof added_columns[0]; i++) {
        rc = has_column(k, added_columns[i].table, added_columns[i].column, &has);
        if (rc != SQLITE_OK || has) continue;
        snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s %s", added_columns[i].table, added_columns[i].column,
                 added_columns[i].definition);
        rc = kb_exec(k->db, sql);
    }
    if (rc == SQLITE_OK) rc = has_column(k, "hw_support", "os_limits", &has);
    if (rc == SQLITE_OK && has) rc = kb_exec(k->db, "ALTER TABLE hw_support DROP COLUMN os_limits");
    if (rc == SQLITE_OK) rc = kb_exec(k->db, "DELETE FROM meta WHERE key = 'builtin_hash'");
    return rc;
}

/* The first column of the first row of `sql` on db, copied into out ("" when no row). */
static int read_text(sqlite3 *db, const char *sql, char *out, size_t n)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    out[0] = '\0';
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        snprintf(out, n, "%s", t ? (const char *)t : "");
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* 3 -> 4: the accelerators' vendor CHECK gains trainium and gaudi. SQLite cannot change a CHECK
 * in place, so the table is rebuilt from the schema's own definition (read from a scratch
 * in-memory copy of data/schema.sql) and every column both have is copied; the built-in facts
 * are then reloaded, the user's rows kept. */
static int migrate_accelerator_vendors(kb *k)
{
    sqlite3 *mem = NULL;
    char create[4096], columns[2048], sql[4400];
    int rc = sqlite3_open(":memory:", &mem);
    if (rc == SQLITE_OK) rc = kb_exec(mem, kb_builtin_texts[0]);
    if (rc == SQLITE_OK)
        rc = read_text(mem, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'accelerators'", create,
                       sizeof create);
    sqlite3_close(mem);
    if (rc != SQLITE_OK) return rc;
    if (!create[0]) return SQLITE_CORRUPT;
    rc = kb_exec(k->db, "ALTER TABLE accelerators RENAME TO accelerators_v3");
    if (rc == SQLITE_OK) rc = kb_exec(k->db, create);
    if (rc == SQLITE_OK)
        rc = read_text(k->db,
                       "SELECT group_concat(name, ', ') FROM pragma_table_info('accelerators_v3') "
                       "WHERE name IN (SELECT name FROM pragma_table_info('accelerators'))",
                       columns, sizeof columns);
    if (rc != SQLITE_OK) return rc;
    snprintf(sql, sizeof sql, "INSERT INTO accelerators (%s) SELECT %s FROM accelerators_v3", columns, columns);
    rc = kb_exec(k->db, sql);
    if (rc == SQLITE_OK) rc = kb_exec(k->db, "DROP TABLE accelerators_v3");
    if (rc == SQLITE_OK) rc = kb_exec(k->db, "DELETE FROM meta WHERE key = 'builtin_hash'");
    return rc;
}

#define PRICES_TABLE                                                                                              \
    "CREATE TABLE prices (accelerator TEXT NOT NULL REFERENCES accelerators (id) DEFERRABLE INITIALLY DEFERRED,"  \
    " provider TEXT NOT NULL, usd_per_device_hour REAL NOT NULL CHECK (usd_per_device_hour > 0),"                 \
    " region TEXT NOT NULL, instance TEXT NOT NULL,"                                                              \
    " source TEXT NOT NULL REFERENCES sources (id) DEFERRABLE INITIALLY DEFERRED, as_of TEXT NOT NULL,"           \
    " origin TEXT NOT NULL DEFAULT 'builtin' CHECK (origin IN ('builtin', 'user')),"                             \
    " PRIMARY KEY (accelerator, provider))"

/* 4 -> 5: the prices table. A file that has one already (an older upgrade's rebuild of the
 * accelerators may have pointed its reference elsewhere) gets it rebuilt, its rows kept. */
static int migrate_prices(kb *k)
{
    char have[16] = "";
    int rc = read_text(k->db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'prices'", have,
                       sizeof have);
    if (rc != SQLITE_OK) return rc;
    if (strcmp(have, "0") == 0) rc = kb_exec(k->db, PRICES_TABLE);
    else {
        rc = kb_exec(k->db, "ALTER TABLE prices RENAME TO prices_v4");
        if (rc == SQLITE_OK) rc = kb_exec(k->db, PRICES_TABLE);
        if (rc == SQLITE_OK) rc = kb_exec(k->db, "INSERT INTO prices SELECT * FROM prices_v4; DROP TABLE prices_v4");
    }
    if (rc == SQLITE_OK) rc = kb_exec(k->db, "DELETE FROM meta WHERE key = 'builtin_hash'");
    return rc;
}

/* Schema upgrades: migrations[v] takes a database from version v to v + 1 (version 0 is an
 * empty file, which is created, not upgraded). Keep each in step with data/schema.sql. */
static const struct {
    const char *sql;
    int (*run)(kb *k);
} migrations[KB_SCHEMA_VERSION] = {
    {NULL, NULL},
    /* 1 -> 2: stored probe runs */
    {"CREATE TABLE probe_runs (id TEXT PRIMARY KEY, started_at TEXT NOT NULL, duration_s REAL NOT NULL,"
     " interrupted INTEGER NOT NULL CHECK (interrupted IN (0, 1)), summary TEXT NOT NULL,"
     " doc TEXT NOT NULL CHECK (json_valid(doc)));",
     NULL},
    /* 2 -> 3: hardware-aware strategies and runtimes, structured OS support, several sources a
     * fact; the accelerators' TF32/FP8 peaks and the links plans communicate over */
    {NULL, add_missing_columns},
    /* 3 -> 4: Trainium and Gaudi as accelerator vendors of their own */
    {NULL, migrate_accelerator_vendors},
    /* 4 -> 5: on-demand prices per device-hour; the built-in rows arrive with the refresh */
    {NULL, migrate_prices},
    /* 5 -> 6: where each accelerator's figures come from (the column adder of 2 -> 3, which adds
     * only what is missing); user rows say 'vendor' until re-imported */
    {NULL, add_missing_columns},
    /* 6 -> 7: the Chinese text columns (the same adder); the built-in facts arrive with theirs,
     * user rows have none until re-imported and show their English */
    {NULL, add_missing_columns},
};

static int migrate(kb *k, long long from, char *err, size_t errsz)
{
    int rc = kb_exec(k->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "upgrading the schema", err, errsz);
    for (long long v = from; v < KB_SCHEMA_VERSION; v++) {
        if (!migrations[v].sql && !migrations[v].run) {
            kb_exec(k->db, "ROLLBACK");
            kb_errf(err, errsz, "database '%s' has schema %lld, which this build cannot upgrade; %s",
                    k->path, from, way_out(k));
            return KB_ERR_DB;
        }
        rc = migrations[v].run ? migrations[v].run(k) : kb_exec(k->db, migrations[v].sql);
        if (rc != SQLITE_OK) {
            int status = kb_db_error(k, rc, "upgrading the schema", err, errsz);
            kb_exec(k->db, "ROLLBACK");
            return status;
        }
    }
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", KB_SCHEMA_VERSION);
    rc = kb_exec(k->db, sql);
    if (rc == SQLITE_OK) rc = kb_exec(k->db, "COMMIT");
    if (rc != SQLITE_OK) {
        int status = kb_db_error(k, rc, "upgrading the schema", err, errsz);
        kb_exec(k->db, "ROLLBACK");
        return status;
    }
    return KB_OK;
}

static int busy_timeout_ms(void)
{
    const char *s = getenv("FWADVISOR_BUSY_TIMEOUT_MS");
    if (!s || !*s) return KB_DEFAULT_BUSY_MS;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < 0 || v > 600000) return KB_DEFAULT_BUSY_MS;
    return (int)v;
}

static void remove_db_files(const char *path)
{
    char side[PATH_MAX + 8];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* Checks what k->db holds (a fwadvisor database of a schema this build knows, undamaged), then
 * creates, migrates and refreshes it as needed. Shared by a file and an in-memory snapshot. */
static int prepare(kb *k, char *err, size_t errsz)
{
    int rc, status;
    long long version = 0, app_id = 0, tables = 0;
    /* One statement, so one snapshot: read one by one, the three could straddle another
     * process's creating transaction (version 0 before it, its tables after) and a database
     * being created would look like an old schema that cannot be upgraded. */
    sqlite3_stmt *hdr;
    rc = sqlite3_prepare_v2(k->db,
                            "SELECT (SELECT user_version FROM pragma_user_version),"
                            " (SELECT application_id FROM pragma_application_id),"
                            " (SELECT count(*) FROM sqlite_master)",
                            -1, &hdr, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(hdr);
        if (rc == SQLITE_ROW) {
            version = sqlite3_column_int64(hdr, 0);
            app_id = sqlite3_column_int64(hdr, 1);
            tables = sqlite3_column_int64(hdr, 2);
            rc = SQLITE_OK;
        }
        sqlite3_finalize(hdr);
    }
    if (rc != SQLITE_OK) {
        return kb_db_error(k, rc, "opening", err, errsz);
    }
    int fresh = version == 0 && app_id == 0 && tables == 0;
    if (!fresh && app_id != KB_APPLICATION_ID) {
        kb_errf(err, errsz, "'%s' is a SQLite database but not a fwadvisor knowledge base; %s", k->path, way_out(k));
        return KB_ERR_DB;
    }
    if (version > KB_SCHEMA_VERSION) {
        kb_errf(err, errsz, "database '%s' has schema %lld from a newer fwadvisor (this build knows %d); "
                "upgrade fwadvisor, or %s", k->path, version, KB_SCHEMA_VERSION, way_out(k));
        return KB_ERR_DB;
    }
    if (!fresh) {
        /* A truncated or damaged file can still answer the header pragmas. */
        sqlite3_stmt *chk;
        rc = sqlite3_prepare_v2(k->db, "PRAGMA quick_check(1)", -1, &chk, NULL);
        if (rc == SQLITE_OK) {
            rc = sqlite3_step(chk);
            if (rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(chk, 0), "ok") != 0) {
                kb_errf(err, errsz, "database '%s' is damaged (%s); %s", k->path,
                        (const char *)sqlite3_column_text(chk, 0), way_out(k));
                sqlite3_finalize(chk);
                return KB_ERR_DB;
            }
            rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
            sqlite3_finalize(chk);
        }
        if (rc != SQLITE_OK) {
            return kb_db_error(k, rc, "checking the file", err, errsz);
        }
    }
    if (fresh) {
        /* Two processes switching a new file to write-ahead logging at once each hold a shared
         * lock and want an exclusive one; SQLite answers one of them SQLITE_BUSY at once rather
         * than wait into a deadlock, without asking the busy handler. The one answered lets go
         * of its lock with the statement, so trying again after a pause succeeds. */
        for (int waited_ms = 0;; waited_ms += 10) {
            rc = sqlite3_exec(k->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
            if ((rc & 0xff) != SQLITE_BUSY || waited_ms >= k->busy_ms) break;
            sqlite3_sleep(10);
        }
        if (rc != SQLITE_OK) {
            return kb_db_error(k, rc, "creating the database", err, errsz);
        }
    }
    kb_exec(k->db, "PRAGMA foreign_keys=ON");
    if (fresh && (status = create_schema(k, err, errsz)) != KB_OK) return status;
    if (!fresh && version < KB_SCHEMA_VERSION && (status = migrate(k, version, err, errsz)) != KB_OK) return status;
    if ((status = refresh_builtin(k, err, errsz)) != KB_OK) return status;
    return KB_OK;
}

/* A folder or disk that cannot be written, as opposed to a path that is wrong. */
static int errno_is_write_failure(int e)
{
    return e == EROFS || e == EACCES || e == EPERM || e == ENOSPC || e == EDQUOT;
}

void kb_protect_path(const char *path)
{
    char real[PATH_MAX], fallback[PATH_MAX], err[64];
    int is_default;
    if (!path) {
        if (kb_resolve_path(NULL, fallback, sizeof fallback, &is_default, err, sizeof err) != KB_OK) return;
        path = fallback;
    }
    file_protect(path);
    if (realpath(path, real)) file_protect(real);
}

int kb_begin_write(kb *k, const char *what, char *err, size_t errsz)
{
    int rc = kb_exec(k->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) return kb_db_error(k, rc, what, err, errsz);
    struct stat st;
    if (k->snapshot || !k->have_id || (stat(k->path, &st) == 0 && st.st_dev == k->dev && st.st_ino == k->ino))
        return KB_OK;
    kb_exec(k->db, "ROLLBACK");
    kb_errf(err, errsz, "database '%s' was reset or replaced while this ran; nothing stored (run it again)", k->path);
    return KB_ERR_DB;
}

/* Opens the file; *write_failed tells a failure to write (read-only or full disk) from others. */
static int open_file(const char *path, int make_dirs, kb **out, int *write_failed, char *err, size_t errsz)
{
    *out = NULL;
    *write_failed = 0;
    if (strlen(path) >= PATH_MAX) {
        kb_errf(err, errsz, "database path is too long");
        return KB_ERR_DB;
    }
    int status;
    if (make_dirs && (status = make_parent_dirs(path, err, errsz)) != KB_OK) {
        *write_failed = errno_is_write_failure(errno);
        return status;
    }
    struct stat st, opened;
    int existed = stat(path, &st) == 0, created = 0;
    opened = st;
    if (existed && S_ISDIR(st.st_mode)) {
        kb_errf(err, errsz, "database '%s' is a directory; choose a file with --db", path);
        return KB_ERR_DB;
    }
    if (!existed && (status = check_parent_writable(path, err, errsz)) != KB_OK) {
        *write_failed = errno_is_write_failure(errno);
        return status;
    }
    if (!existed) {
        /* Made here, empty, so that a failure removes only a file this process made; one that
         * another process made at the same moment is theirs. */
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) created = 1, close(fd);
        existed = stat(path, &opened) == 0;
    }

    kb *k = calloc(1, sizeof *k);
    if (!k) {
        kb_errf(err, errsz, "out of memory");
        return KB_ERR_RUNTIME;
    }
    snprintf(k->path, sizeof k->path, "%s", path);
    k->is_default = make_dirs;
    k->busy_ms = busy_timeout_ms();
    /* A path is always a file: SQLite takes ":memory:" (and, where URIs are on, "file:...")
     * for something else, and the file made above would stay behind, empty; "./" keeps it the
     * file it names. */
    char literal[PATH_MAX + 3];
    const char *db_path = path;
    if (path[0] != '/' && (strcmp(path, ":memory:") == 0 || strncmp(path, "file:", 5) == 0)) {
        snprintf(literal, sizeof literal, "./%s", path);
        db_path = literal;
    }
    int rc = sqlite3_open_v2(db_path, &k->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        kb_errf(err, errsz, "cannot open database '%s': %s", path,
                k->db ? sqlite3_errmsg(k->db) : "out of memory");
        *write_failed = (rc & 0xff) == SQLITE_CANTOPEN || (rc & 0xff) == SQLITE_READONLY;
        status = KB_ERR_DB;
        goto fail;
    }
    sqlite3_extended_result_codes(k->db, 1);
    sqlite3_busy_timeout(k->db, k->busy_ms);
    /* What was at the path just before SQLite opened it is what it holds; a reset in between
     * makes the first write fail, never go astray. */
    k->dev = opened.st_dev, k->ino = opened.st_ino, k->have_id = existed;
    kb_protect_path(path);
    if ((status = prepare(k, err, errsz)) != KB_OK) goto fail;
    *out = k;
    return KB_OK;
fail:
    *write_failed |= k->write_failed;
    sqlite3_close(k->db);
    /* Never leave a half-made file, and never take away one that another process may be
     * filling: only a file made here and still empty goes. (The creation is one transaction, so
     * a failed one leaves at most the header that write-ahead logging sets, which the next
     * open takes for a new database.) */
    if (created && status != KB_OK && stat(path, &st) == 0 && st.st_size == 0) remove_db_files(path);
    free(k);
    return status;
}

int kb_open(const char *path, int make_dirs, kb **out, char *err, size_t errsz)
{
    int write_failed;
    return open_file(path, make_dirs, out, &write_failed, err, errsz);
}

/* "file:" URI of a path for SQLite, with the characters a URI gives meaning to escaped. */
static void file_uri(const char *path, const char *query, char *out, size_t n)
{
    size_t used = (size_t)snprintf(out, n, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p && used + 4 < n; p++) {
        if (*p == '%' || *p == '?' || *p == '#' || *p < 0x20 || *p >= 0x7f)
            used += (size_t)snprintf(out + used, n - used, "%%%02X", *p);
        else
            out[used++] = (char)*p;
    }
    snprintf(out + used, n - used, "?%s", query);
}

/* An in-memory copy of the file (or of the built-in facts when there is none yet), prepared in
 * memory: nothing is written to the disk. */
static int open_snapshot(const char *path, int is_default, kb **out, char *err, size_t errsz)
{
    *out = NULL;
    kb *k = calloc(1, sizeof *k);
    if (!k) {
        kb_errf(err, errsz, "out of memory");
        return KB_ERR_RUNTIME;
    }
    snprintf(k->path, sizeof k->path, "%s", path);
    k->is_default = is_default;
    k->snapshot = 1;
    if (path[0]) kb_protect_path(path);
    k->busy_ms = busy_timeout_ms();
    int status = KB_ERR_DB, rc = sqlite3_open_v2(":memory:", &k->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        kb_errf(err, errsz, "out of memory");
        goto fail;
    }
    sqlite3_extended_result_codes(k->db, 1);
    struct stat st;
    if (path[0] && stat(path, &st) == 0) {
        /* Read-only first; a write-ahead-logged file whose folder is read-only may need
         * immutable=1 (its log cannot be shared, so it is read as it stands). */
        static const char *const queries[] = {"mode=ro", "mode=ro&immutable=1"};
        sqlite3 *src = NULL;
        long long version = 0;
        for (int q = 0; q < 2; q++) {
            char uri[PATH_MAX * 3 + 64];
            file_uri(path, queries[q], uri, sizeof uri);
            sqlite3_close(src);
            src = NULL;
            rc = sqlite3_open_v2(uri, &src, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
            if (rc == SQLITE_OK) rc = read_int(src, "PRAGMA user_version", &version);
            if (rc == SQLITE_OK) break;
        }
        sqlite3_backup *b = rc == SQLITE_OK ? sqlite3_backup_init(k->db, "main", src, "main") : NULL;
        if (b) {
            rc = sqlite3_backup_step(b, -1);
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
            sqlite3_backup_finish(b);
        } else if (rc == SQLITE_OK) {
            rc = sqlite3_errcode(k->db);
        }
        if (rc != SQLITE_OK) {
            kb_errf(err, errsz, "cannot read database '%s': %s", path, src ? sqlite3_errmsg(src) : "out of memory");
            sqlite3_close(src);
            goto fail;
        }
        sqlite3_close(src);
    }
    if ((status = prepare(k, err, errsz)) != KB_OK) goto fail;
    *out = k;
    return KB_OK;
fail:
    sqlite3_close(k->db);
    free(k);
    return status;
}

int kb_open_read(const char *path, int make_dirs, kb **out, char *err, size_t errsz)
{
    int write_failed;
    int status = open_file(path, make_dirs, out, &write_failed, err, errsz);
    if (status == KB_OK || !write_failed) return status;
    return open_snapshot(path, make_dirs, out, err, errsz);
}

int kb_open_builtin(kb **out, char *err, size_t errsz) { return open_snapshot("", 0, out, err, errsz); }

int kb_open_memory(kb **out, char *err, size_t errsz)
{
    int status = open_snapshot("", 0, out, err, errsz);
    if (status == KB_OK) (*out)->snapshot = 0; /* writable: nothing on disk to protect */
    return status;
}

int kb_is_snapshot(const kb *k) { return k->snapshot; }

int kb_check_writable(kb *k, const char *what, char *err, size_t errsz)
{
    if (!k->snapshot) return KB_OK;
    kb_errf(err, errsz, "database '%s' cannot be written (read-only or full disk); not %s", k->path, what);
    return KB_ERR_DB;
}

void kb_close(kb *k)
{
    if (!k) return;
    sqlite3_close(k->db);
    free(k);
}

void kb_version(kb *k, char *version, size_t vsz, char *date, size_t dsz)
{
    version[0] = date[0] = '\0';
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(k->db, "SELECT key, value FROM meta WHERE key IN ('kb_version', 'kb_date')", -1,
                           &st, NULL) != SQLITE_OK)
        return;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *val = (const char *)sqlite3_column_text(st, 1);
        if (strcmp(key, "kb_version") == 0) snprintf(version, vsz, "%s", val ? val : "");
        else snprintf(date, dsz, "%s", val ? val : "");
    }
    sqlite3_finalize(st);
}

/* The write lock imports take, held on the file a reset moves aside, so that none is halfway
 * through while it moves; the write-ahead log stays with the file when the lock is let go.
 * *lock NULL: a damaged or foreign file nobody can be writing. KB_ERR_DB when writers keep it
 * past the busy timeout. */
static int lock_for_reset(const char *path, sqlite3 **lock, char *err, size_t errsz)
{
    *lock = NULL;
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return KB_OK;
    }
    sqlite3_busy_timeout(db, busy_timeout_ms());
    int one = 1;
    sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &one);
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc == SQLITE_OK) {
        *lock = db;
        return KB_OK;
    }
    sqlite3_close(db);
    if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) return KB_OK;
    kb_errf(err, errsz, "database '%s' is being written by another process (still locked after the busy timeout); "
            "nothing reset", path);
    return KB_ERR_DB;
}

static void unlock_reset(sqlite3 *lock)
{
    if (!lock) return;
    sqlite3_exec(lock, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(lock);
}

/* Moves path (a regular file) and the files SQLite keeps beside it to path.bak. */
static int move_aside(const char *path, char *bak, size_t baksz, char *err, size_t errsz)
{
    static const char *const kept[] = {"-wal", "-journal"};
    char from[PATH_MAX + 16], to[PATH_MAX + 32];
    snprintf(bak, baksz, "%s.bak", path);
    /* The write-ahead log belongs to the file; keep the pair together under the new name. */
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        snprintf(to, sizeof to, "%s%s", bak, kept[i]);
        unlink(to);
    }
    snprintf(to, sizeof to, "%s-shm", bak);
    unlink(to);
    if (rename(path, bak) != 0) {
        kb_errf(err, errsz, "cannot move '%s' aside: %s", path, strerror(errno));
        return KB_ERR_DB;
    }
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        snprintf(from, sizeof from, "%s%s", path, kept[i]);
        snprintf(to, sizeof to, "%s%s", bak, kept[i]);
        if (rename(from, to) != 0 && errno != ENOENT) {
            kb_errf(err, errsz, "cannot move '%s' aside: %s", from, strerror(errno));
            return KB_ERR_DB;
        }
    }
    snprintf(from, sizeof from, "%s-shm", path);
    unlink(from);
    return KB_OK;
}

static const char *node_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket"
           : S_ISCHR(m) || S_ISBLK(m) ? "a device" : "not a regular file";
}

int kb_reset(const char *path, int make_dirs, char *backup, size_t backupsz, char *err, size_t errsz)
{
    struct stat st, lst;
    if (backup && backupsz) backup[0] = '\0';
    if (lstat(path, &lst) == 0) {
        if (stat(path, &st) != 0) {
            kb_errf(err, errsz, "database '%s' is a link to nothing; not touching it", path);
            return KB_ERR_DB;
        }
        if (!S_ISREG(st.st_mode)) {
            kb_errf(err, errsz, "database '%s' is %s, not a database file; not touching it", path, node_kind(st.st_mode));
            return KB_ERR_DB;
        }
        /* A link stays a link: the file it names is what moves aside. */
        char real[PATH_MAX], bak[PATH_MAX + 16];
        if (!realpath(path, real)) {
            kb_errf(err, errsz, "cannot reset '%s': %s", path, strerror(errno));
            return KB_ERR_DB;
        }
        sqlite3 *lock;
        int status = lock_for_reset(real, &lock, err, errsz);
        if (status == KB_OK) status = move_aside(real, bak, sizeof bak, err, errsz);
        if (status != KB_OK) {
            unlock_reset(lock);
            return status;
        }
        if (backup) snprintf(backup, backupsz, "%s", bak);
        /* The new file is made before the lock is let go: a writer that waited for it finds the
         * file it holds moved and stops (kb_begin_write); one that opens now finds the new. */
        kb *k = NULL;
        status = kb_open(path, make_dirs, &k, err, errsz);
        kb_close(k);
        unlock_reset(lock);
        return status;
    }
    kb *k = NULL;
    int status = kb_open(path, make_dirs, &k, err, errsz);
    kb_close(k);
    return status;
}
