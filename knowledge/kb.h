/* kb: the SQLite knowledge base. Opening creates it on first use from the schema and facts compiled
 * into the binary, migrates older schemas, and refreshes built-in facts when the binary carries
 * newer ones (user facts and probe runs are never touched). Every function returns a kb_status
 * and, on failure, writes one line (no trailing newline) into the caller's err buffer; nothing
 * here prints or exits. */
#ifndef FWADVISOR_KB_H
#define FWADVISOR_KB_H

#include <stddef.h>
#include <sqlite3.h>
#include <cjson/cJSON.h>

#define KB_SCHEMA_VERSION 7
#define KB_APPLICATION_ID 0x66776164 /* "fwad" in the database header */
#define KB_EXPORT_SCHEMA "fwadvisor.kb/1"
#define KB_DEFAULT_BUSY_MS 5000
/* Tables whose rows the advisor numbers with one bit each of a 32-bit mask (the frameworks a
 * strategy or runtime serves, the platforms a framework's strategy runs on): no write leaves more
 * rows in them than this. kb_import refuses such a document; the advisor refuses such a file. */
#define KB_MAX_FRAMEWORKS 32
#define KB_MAX_HARDWARE 32

/* Status codes; the command line maps them to its exit codes. */
enum kb_status {
    KB_OK = 0,
    KB_ERR_RUNTIME = 1, /* failure at run time (out of memory, I/O on a non-database file) */
    KB_ERR_INPUT = 3,   /* invalid input: import document, unknown id */
    KB_ERR_DB = 4,      /* the database: damaged, newer schema, locked, unwritable */
};

typedef struct kb kb;

/* Where the database lives: `override` (from --db) if non-NULL and non-empty, else $FWADVISOR_DB,
 * else $XDG_DATA_HOME/fwadvisor/kb.sqlite3, else $HOME/.local/share/fwadvisor/kb.sqlite3.
 * *is_default is set to 1 for the last two (their directories are created on open). */
int kb_resolve_path(const char *override, char *out, size_t outsz, int *is_default,
                    char *err, size_t errsz);

/* Opens (creating, migrating or refreshing as needed) the database at path. make_dirs creates
 * missing parent directories. The busy timeout is $FWADVISOR_BUSY_TIMEOUT_MS or 5000 ms. A file
 * that is not a fwadvisor database, is damaged or has a newer schema is never written to.
 * On success *out owns the connection; free it with kb_close. */
int kb_open(const char *path, int make_dirs, kb **out, char *err, size_t errsz);
/* The same for commands that only read: when the file or its folder cannot be written (a
 * read-only or full disk), an in-memory copy of the file (or of the built-in facts when there is
 * no file) brought up to date in memory, so lists, reports and recommendations still work.
 * Nothing is written to the disk then, and storing (kb_check_writable) is refused. */
int kb_open_read(const char *path, int make_dirs, kb **out, char *err, size_t errsz);
/* The built-in facts alone, in memory, whatever file --db or the environment names (what the
 * shell completions offer: every user gets the same). */
int kb_open_builtin(kb **out, char *err, size_t errsz);
/* The built-in facts in memory, writable (imports go in, nothing reaches a disk), gone when
 * closed: for the import fuzzer and tests. */
int kb_open_memory(kb **out, char *err, size_t errsz);
/* 1 for such an in-memory copy. */
int kb_is_snapshot(const kb *k);
/* KB_OK, or KB_ERR_DB with a message when k is an in-memory copy that cannot store `what`. */
int kb_check_writable(kb *k, const char *what, char *err, size_t errsz);
void kb_close(kb *k);

/* The accelerator catalog entry for a device name as a driver reports it: the longest `match`
 * that is a substring of the lower-cased name, and, where both are known, the same compute
 * capability. 1 when found (peaks in TFLOP/s, bandwidth in GB/s), 0 when not, -1 on a read error. */
struct kb_accel_peaks {
    char id[32];
    double fp32_tflops, bf16_tflops, fp16_tflops, bandwidth_gbs;
};
int kb_accel_lookup(kb *k, const char *name, const char *compute_capability, struct kb_accel_peaks *out);

sqlite3 *kb_db(kb *k);
const char *kb_path(const kb *k);
/* Busy timeout in milliseconds that this connection waits for another writer. */
int kb_busy_ms(const kb *k);

/* Maps a SQLite result code met while using k to a status and one error line naming the path
 * and the way out. `what` says what was being done ("reading frameworks"). */
int kb_db_error(kb *k, int rc, const char *what, char *err, size_t errsz);

/* No output file of this process may replace the database at path, or what SQLite keeps beside
 * it, by that name or the file a link names (SQLite names its -wal after the link's target):
 * common/file.h's file_protect. Opening a database does this itself; the command line calls it
 * for the path it will open, so that the check before the work refuses too. A NULL path: the
 * default one (FWADVISOR_DB, XDG_DATA_HOME, HOME). */
void kb_protect_path(const char *path);

/* BEGIN IMMEDIATE (the write lock that imports, probe saves and kb reset take), then a check that
 * the file this connection holds is still the one at k->path: a reset that moved it aside while
 * this process waited makes the write fail rather than land in the backup. KB_OK, or the
 * error's status with one line in err; `what` says what was being done ("importing"). */
int kb_begin_write(kb *k, const char *what, char *err, size_t errsz);

/* Replaces the database at path with a fresh one. The old file (and its write-ahead log) is kept
 * as path.bak (path.bak-wal), replacing an older backup. Works on damaged files. Only a regular
 * file is moved (through a link, the file it names: the link stays); a directory, FIFO, device or
 * socket is refused. The move happens under the write lock imports take, and the new file exists
 * before the lock is let go, so no import that reports success lands in the backup. */
int kb_reset(const char *path, int make_dirs, char *backup, size_t backupsz, char *err, size_t errsz);

/* What opening k left undone that the user should hear of, or "": the built-in facts of this
 * build not applied because a table would then hold more rows than its limit (the database keeps
 * the facts it had). */
const char *kb_notice(const kb *k);

/* Version and date of the built-in facts stored in the database (meta table); "" if absent. */
void kb_version(kb *k, char *version, size_t vsz, char *date, size_t dsz);

/* --- export and import (kb_io.c) ------------------------------------------------------------ */

/* Builds the export document (fwadvisor.kb/1). user_only limits it to facts the user added or
 * changed. The caller frees *doc with cJSON_Delete. */
int kb_export(kb *k, int user_only, cJSON **doc, char *err, size_t errsz);

struct kb_import_stats {
    int added;     /* rows with a new id */
    int changed;   /* rows that replaced a different fact with the same id */
    int unchanged; /* rows identical to what the database holds */
    int one_language; /* rows whose prose is in one language only (English or Chinese): the
                       * other language shows it as it is; an English-less text takes the Chinese */
};

/* Imports an export document. The whole document is checked first (JSON syntax with byte offset,
 * types, allowed values, ranges, dates, references to ids in the document or the database,
 * every fact's source); then it is applied in one transaction and marked as the user's, and
 * refused (KB_ERR_INPUT) when a table would hold more rows than its limit (KB_MAX_*). On any
 * error the database is unchanged. `name` is used in messages (a file name or "-"). */
int kb_import(kb *k, const char *text, size_t len, const char *name, struct kb_import_stats *stats,
              char *err, size_t errsz);
/* Long operations (kb_import) call fn every thousand rows with the rows done and in all; NULL
 * turns it off. */
void kb_set_progress(kb *k, void (*fn)(void *ctx, size_t done, size_t total), void *ctx);

/* --- queries (kb_query.c) ------------------------------------------------------------------ */

/* The kinds of fact `kb list` shows, one row each: the table the knowledge layer reads, the linked
 * table whose framework ids a row gains, and the columns the command line prints; the interface's
 * browser has a tab per row. A new kind is one row in kb_query.c. */
enum kb_cell {
    KB_CELL_TEXT,   /* the field as it is */
    KB_CELL_NUMBER, /* %g */
    KB_CELL_WHOLE,  /* %.0f */
    KB_CELL_WEIGHT, /* %.2g */
    KB_CELL_RATE,   /* %g, "-" for 0 (the device has no such mode) */
    KB_CELL_LIST,   /* an array of ids joined by ", " */
    KB_CELL_LIST_OR_DASH, /* the same, "-" when empty */
    KB_CELL_TITLE,  /* the field, else "text" (a rule without a title) */
};
struct kb_list_column {
    const char *header, *field;
    enum kb_cell cell;
    int flex, right; /* takes the width left over; right-aligned */
};
#define KB_LIST_MAX_COLUMNS 9
struct kb_list_kind {
    const char *name;                 /* frameworks, criteria, hardware, ... */
    const char *table;                /* the table its rows come from */
    const char *link_table, *link_key; /* rows gain "frameworks": ids from link_table, or NULL */
    int matrix;                       /* shown as a framework-by-platform matrix, not columns */
    struct kb_list_column cols[KB_LIST_MAX_COLUMNS]; /* up to the first NULL header */
    const char *tab;                  /* the interface's tab: a short word for what the kind holds
                                       * (support, strategies, runtimes, devices), so that the
                                       * eight fit 80 columns whole */
};
extern const struct kb_list_kind kb_list_kind_rows[];
extern const int kb_list_kind_count;
/* The kind named name (exact), or NULL. */
const struct kb_list_kind *kb_list_kind_find(const char *name);
/* The kinds' names in the table's order, NULL-terminated (for choices and tabs); kb_list(NULL
 * kind) lists the first, frameworks. */
const char *const *kb_list_kind_names(void);

/* Rows of one kind as a cJSON array of objects (columns as in the export document; strategies
 * and runtimes gain "frameworks": [ids]). Unknown kind: KB_ERR_INPUT. Caller frees *rows. */
int kb_list(kb *k, const char *kind, cJSON **rows, char *err, size_t errsz);

/* Everything about one id: {"kind": "framework"|"strategy"|"runtime"|"hardware"|"criterion"|
 * "accelerator"|"rule"|"source", "<kind>": row, ...related rows, "sources": [cited sources]}.
 * Unknown id: KB_ERR_INPUT, with the nearest known id suggested. Caller frees *out. */
int kb_show(kb *k, const char *id, cJSON **out, char *err, size_t errsz);

#endif
