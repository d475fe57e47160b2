/* Shared between the kb_*.c files; not part of the knowledge base's interface. */
#ifndef FWADVISOR_KB_INTERNAL_H
#define FWADVISOR_KB_INTERNAL_H

#include "knowledge/kb.h"
#include "knowledge/kb_tables.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>

/* The schema and seed files compiled in by scripts/embed.c; entry 0 is the schema. */
extern const char *const kb_builtin_names[];
extern const char *const kb_builtin_texts[];
extern const size_t kb_builtin_count;

struct kb {
    sqlite3 *db;
    int busy_ms;
    int is_default;   /* the default path (not --db): what the way out of an error names */
    int write_failed; /* a SQLite error said the file cannot be written (kb_db_error) */
    int snapshot;     /* an in-memory copy for reading: nothing can be stored */
    void (*progress)(void *ctx, size_t done, size_t total); /* kb_set_progress */
    void *progress_ctx;
    dev_t dev;        /* the file opened (kb_begin_write checks it is still the one at path) */
    ino_t ino;
    int have_id;
    char notice[256]; /* kb_notice */
    char path[PATH_MAX];
};

/* snprintf into err, ignoring truncation. */
void kb_errf(char *err, size_t errsz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Executes SQL with no result rows; returns the SQLite code. */
int kb_exec(sqlite3 *db, const char *sql);

/* The first table holding more rows than its max_rows, with its count in *rows; NULL when none
 * is over, or on a read error (*rc set; SQLITE_OK otherwise). Inside a write transaction it sees
 * the rows written so far. */
const struct kb_table *kb_table_over_limit(kb *k, long long *rows, int *rc);

/* Builds "SELECT c1, c2, ... FROM table" (+ " " + tail) from the constant table description
 * (identifiers only, never data); returns the SQLite code of the prepare. */
int kb_prepare_select(sqlite3 *db, const struct kb_table *t, const char *tail, sqlite3_stmt **st);

/* Converts the current row of a statement made by kb_prepare_select to a JSON object. */
cJSON *kb_row_to_json(sqlite3_stmt *st, const struct kb_table *t);

#endif
