/* kb_tables: the fact tables described once, for export, import validation, the built-in data
 * refresh and queries. The order of kb_tables is the export order and the order in which
 * references resolve (a table refers only to tables before it). */
#ifndef FWADVISOR_KB_TABLES_H
#define FWADVISOR_KB_TABLES_H

#include <stddef.h>

enum kb_col_type {
    KB_TEXT,
    KB_INT,
    KB_REAL,
    KB_SET,  /* comma-separated text in the database, array of strings in JSON */
    KB_JSON, /* JSON text in the database, object in JSON */
};

enum kb_col_flags {
    KB_PK = 1 << 0,       /* part of the primary key */
    KB_NONEMPTY = 1 << 1, /* text must not be empty */
    KB_DATE = 1 << 2,     /* YYYY-MM-DD */
    KB_PUBDATE = 1 << 3,  /* YYYY, YYYY-MM, YYYY-MM-DD or "undated" */
    KB_OPTIONAL = 1 << 4, /* may be left out of an import row; the schema default applies */
    KB_IDENT = 1 << 5,    /* an id: lower-case letters, digits, '.', '_' and '-' */
    KB_MIN = 1 << 6,      /* number >= min */
    KB_MIN_EXCL = 1 << 7, /* number > min */
    KB_MAX = 1 << 8,      /* number <= max */
    KB_ADDED = 1 << 9,    /* required, added in schema 3: an import lacking it is refused by name */
    KB_NONEMPTY_SET = 1 << 10, /* a set of at least one value */
    KB_ZH = 1 << 11,      /* the Chinese text of the column before it, named NAME_zh ("": none) */
};

struct kb_column {
    const char *name;
    enum kb_col_type type;
    unsigned flags;
    const char *const *allowed; /* NULL-terminated allowed values (text and set), or NULL */
    const char *ref;            /* table whose id this column (or each value of a set) names, or NULL */
    double min, max;
    const char *empty_default;  /* for KB_OPTIONAL text: the value when left out */
};

struct kb_table {
    const char *name;
    const struct kb_column *cols;
    int ncols;
    const char *id_label; /* what `kb show` calls one row: "framework", ... (NULL: no show) */
    int max_rows;         /* the most rows the table may hold (KB_MAX_*), 0: no limit */
};

/* More than the tables there are (a static check in kb_tables.c keeps it so). */
#define KB_MAX_TABLES 32
extern const struct kb_table kb_tables[];
extern const int kb_table_count;
/* The support levels of hw_support.level and of each operating system in os_support. */
extern const char *const kb_support_levels[];
/* Where an accelerator's figures come from: vendor, derived, secondary. */
extern const char *const kb_figure_kinds[];

const struct kb_table *kb_table_find(const char *name);
const struct kb_column *kb_column_find(const struct kb_table *t, const char *name);
/* The Chinese twin (KB_ZH) of prose column col, or NULL when it has none. */
const struct kb_column *kb_column_zh(const struct kb_table *t, const struct kb_column *col);
/* Index of the single-column primary key, or -1 for a composite key. */
int kb_table_id_col(const struct kb_table *t);

/* Format checks shared with the tests. */
int kb_valid_date(const char *s);
int kb_valid_pubdate(const char *s);
int kb_valid_ident(const char *s);

#endif
