/* Export and import of the knowledge base (fwadvisor.kb/1, docs/knowledge-base.md). */
#include "knowledge/kb_internal.h"
#include "common/json_doc.h"
#include "common/strset.h"
#include "knowledge/rules.h"
#include "knowledge/answer_keys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int kb_prepare_select(sqlite3 *db, const struct kb_table *t, const char *tail, sqlite3_stmt **st)
{
    char sql[1024];
    size_t used = (size_t)snprintf(sql, sizeof sql, "SELECT ");
    for (int c = 0; c < t->ncols; c++)
        used += (size_t)snprintf(sql + used, sizeof sql - used, "%s%s", c ? ", " : "", t->cols[c].name);
    snprintf(sql + used, sizeof sql - used, " FROM %s%s%s", t->name, tail ? " " : "", tail ? tail : "");
    return sqlite3_prepare_v2(db, sql, -1, st, NULL);
}

/* "ORDER BY pk1, pk2" for a table. */
static void order_by_key(const struct kb_table *t, char *out, size_t n)
{
    size_t used = (size_t)snprintf(out, n, "ORDER BY ");
    int first = 1;
    for (int c = 0; c < t->ncols; c++) {
        if (!(t->cols[c].flags & KB_PK)) continue;
        used += (size_t)snprintf(out + used, n - used, "%s%s", first ? "" : ", ", t->cols[c].name);
        first = 0;
    }
}

static cJSON *set_to_json(const char *text)
{
    cJSON *arr = cJSON_CreateArray();
    if (!arr || !text) return arr;
    const char *p = text;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[80];
        if (len > 0 && len < sizeof item) {
            memcpy(item, p, len);
            item[len] = '\0';
            cJSON_AddItemToArray(arr, cJSON_CreateString(item));
        }
        if (!comma) break;
        p = comma + 1;
    }
    return arr;
}

cJSON *kb_row_to_json(sqlite3_stmt *st, const struct kb_table *t)
{
    cJSON *row = cJSON_CreateObject();
    if (!row) return NULL;
    for (int c = 0; c < t->ncols; c++) {
        const struct kb_column *col = &t->cols[c];
        const char *text = (const char *)sqlite3_column_text(st, c);
        cJSON *v = NULL;
        switch (col->type) {
        case KB_TEXT: v = cJSON_CreateString(text ? text : ""); break;
        case KB_INT: v = cJSON_CreateNumber((double)sqlite3_column_int64(st, c)); break;
        case KB_REAL: v = cJSON_CreateNumber(sqlite3_column_double(st, c)); break;
        case KB_SET: v = set_to_json(text); break;
        case KB_JSON:
            v = text ? cJSON_Parse(text) : NULL;
            if (!v) v = cJSON_CreateObject();
            break;
        }
        if (!v) {
            cJSON_Delete(row);
            return NULL;
        }
        cJSON_AddItemToObject(row, col->name, v);
    }
    return row;
}

int kb_export(kb *k, int user_only, cJSON **doc, char *err, size_t errsz)
{
    char version[64], date[32];
    kb_version(k, version, sizeof version, date, sizeof date);
    cJSON *root = cJSON_CreateObject();
    cJSON *info = cJSON_CreateObject();
    if (!root || !info) goto oom;
    cJSON_AddStringToObject(root, "schema", KB_EXPORT_SCHEMA);
    cJSON_AddItemToObject(root, "kb", info);
    cJSON_AddStringToObject(info, "version", version);
    cJSON_AddStringToObject(info, "date", date);
    for (int t = 0; t < kb_table_count; t++) {
        const struct kb_table *tab = &kb_tables[t];
        char tail[160];
        char order[128];
        order_by_key(tab, order, sizeof order);
        snprintf(tail, sizeof tail, "%s%s", user_only ? "WHERE origin = 'user' " : "", order);
        sqlite3_stmt *st;
        int rc = kb_prepare_select(k->db, tab, tail, &st);
        if (rc != SQLITE_OK) {
            cJSON_Delete(root);
            return kb_db_error(k, rc, "exporting", err, errsz);
        }
        cJSON *arr = cJSON_AddArrayToObject(root, tab->name);
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            cJSON *row = kb_row_to_json(st, tab);
            if (!row || !arr) {
                sqlite3_finalize(st);
                goto oom;
            }
            cJSON_AddItemToArray(arr, row);
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) {
            cJSON_Delete(root);
            return kb_db_error(k, rc, "exporting", err, errsz);
        }
    }
    *doc = root;
    return KB_OK;
oom:
    cJSON_Delete(root);
    if (!root) cJSON_Delete(info);
    kb_errf(err, errsz, "out of memory while exporting");
    return KB_ERR_RUNTIME;
}

/* --- import ------------------------------------------------------------------------------- */

struct import_ctx {
    kb *k;
    const cJSON *doc;
    const char *name;
    struct strset doc_ids; /* "table\x1fid" of every row of the document */
    struct strset keys;    /* "table\x1fkey..." of the rows checked so far */
    sqlite3_stmt *lookup[KB_MAX_TABLES]; /* SELECT 1 FROM table WHERE id = ?, prepared once */
};

static int id_in_db(struct import_ctx *ctx, const char *table, const char *id)
{
    const struct kb_table *t = kb_table_find(table);
    if (!t) return 0;
    int i = (int)(t - kb_tables);
    if (!ctx->lookup[i]) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT 1 FROM %s WHERE id = ?", t->name);
        if (sqlite3_prepare_v2(ctx->k->db, sql, -1, &ctx->lookup[i], NULL) != SQLITE_OK) return 0;
    }
    sqlite3_stmt *st = ctx->lookup[i];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    return found;
}

/* "table\x1fid" in buf (ids are checked identifiers and table names are ours: no \x1f in them). */
static const char *table_key(char *buf, size_t n, const char *table, const char *id)
{
    snprintf(buf, n, "%s\x1f%s", table, id);
    return buf;
}

static int id_exists(void *vctx, const char *table, const char *id)
{
    struct import_ctx *ctx = vctx;
    char key[512];
    return strset_has(&ctx->doc_ids, table_key(key, sizeof key, table, id)) || id_in_db(ctx, table, id);
}

static int allowed_value(const char *const *allowed, const char *v)
{
    for (; *allowed; allowed++)
        if (strcmp(*allowed, v) == 0) return 1;
    return 0;
}

static void list_allowed(const char *const *allowed, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (; *allowed && used < n; allowed++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", used ? ", " : "", *allowed);
}

/* Checks one value against its column; `where` is "table[i].column". */
static int check_value(struct import_ctx *ctx, const struct kb_column *col, const cJSON *v,
                       const char *where, char *err, size_t errsz)
{
    char allowed[256];
    switch (col->type) {
    case KB_TEXT:
        if (!cJSON_IsString(v)) {
            kb_errf(err, errsz, "%s: %s: expected a string", ctx->name, where);
            return -1;
        }
        if ((col->flags & KB_NONEMPTY) && !*v->valuestring) {
            kb_errf(err, errsz, "%s: %s: must not be empty", ctx->name, where);
            return -1;
        }
        if ((col->flags & KB_IDENT) && !kb_valid_ident(v->valuestring)) {
            kb_errf(err, errsz, "%s: %s: '%s' is not a valid id (lower-case letters, digits, '.', '_', '-')",
                    ctx->name, where, v->valuestring);
            return -1;
        }
        if ((col->flags & KB_DATE) && !kb_valid_date(v->valuestring)) {
            kb_errf(err, errsz, "%s: %s: '%s' is not a date (YYYY-MM-DD)", ctx->name, where, v->valuestring);
            return -1;
        }
        if ((col->flags & KB_PUBDATE) && !kb_valid_pubdate(v->valuestring)) {
            kb_errf(err, errsz, "%s: %s: '%s' is not a date (YYYY, YYYY-MM, YYYY-MM-DD or undated)",
                    ctx->name, where, v->valuestring);
            return -1;
        }
        if (col->allowed && !allowed_value(col->allowed, v->valuestring)) {
            list_allowed(col->allowed, allowed, sizeof allowed);
            kb_errf(err, errsz, "%s: %s: '%s' is not one of %s", ctx->name, where, v->valuestring, allowed);
            return -1;
        }
        if (col->ref && !id_exists(ctx, col->ref, v->valuestring)) {
            kb_errf(err, errsz, "%s: %s: unknown id '%s' (not in %s)", ctx->name, where, v->valuestring, col->ref);
            return -1;
        }
        return 0;
    case KB_INT:
    case KB_REAL:
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
            kb_errf(err, errsz, "%s: %s: expected a number", ctx->name, where);
            return -1;
        }
        if (col->type == KB_INT && (v->valuedouble != floor(v->valuedouble) || fabs(v->valuedouble) > 1e15)) {
            kb_errf(err, errsz, "%s: %s: expected a whole number, got %g", ctx->name, where, v->valuedouble);
            return -1;
        }
        if (((col->flags & KB_MIN) && v->valuedouble < col->min) ||
            ((col->flags & KB_MIN_EXCL) && v->valuedouble <= col->min) ||
            ((col->flags & KB_MAX) && v->valuedouble > col->max)) {
            if ((col->flags & KB_MAX) && (col->flags & KB_MIN))
                kb_errf(err, errsz, "%s: %s: %g is outside %g-%g", ctx->name, where, v->valuedouble, col->min, col->max);
            else
                kb_errf(err, errsz, "%s: %s: %g must be %s %g", ctx->name, where, v->valuedouble,
                        (col->flags & KB_MIN_EXCL) ? ">" : ">=", col->min);
            return -1;
        }
        return 0;
    case KB_SET: {
        if (!cJSON_IsArray(v)) {
            kb_errf(err, errsz, "%s: %s: expected an array of strings", ctx->name, where);
            return -1;
        }
        if ((col->flags & KB_NONEMPTY_SET) && !v->child) {
            kb_errf(err, errsz, "%s: %s: must name at least one value", ctx->name, where);
            return -1;
        }
        const cJSON *item;
        cJSON_ArrayForEach(item, v) {
            if (!cJSON_IsString(item)) {
                kb_errf(err, errsz, "%s: %s: expected an array of strings", ctx->name, where);
                return -1;
            }
            if (col->allowed && !allowed_value(col->allowed, item->valuestring)) {
                list_allowed(col->allowed, allowed, sizeof allowed);
                kb_errf(err, errsz, "%s: %s: '%s' is not one of %s", ctx->name, where, item->valuestring, allowed);
                return -1;
            }
            if (col->ref && (!kb_valid_ident(item->valuestring) || !id_exists(ctx, col->ref, item->valuestring))) {
                kb_errf(err, errsz, "%s: %s: unknown id '%s' (not in %s)", ctx->name, where, item->valuestring, col->ref);
                return -1;
            }
            for (const cJSON *prev = v->child; prev != item; prev = prev->next)
                if (strcmp(prev->valuestring, item->valuestring) == 0) {
                    kb_errf(err, errsz, "%s: %s: '%s' appears twice", ctx->name, where, item->valuestring);
                    return -1;
                }
        }
        return 0;
    }
    case KB_JSON:
        if (!cJSON_IsObject(v)) {
            kb_errf(err, errsz, "%s: %s: expected an object", ctx->name, where);
            return -1;
        }
        return 0;
    }
    return 0;
}

/* "pytorch/nvidia": the values of a row's key columns, for messages. */
static void row_key(const struct kb_table *t, const cJSON *row, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (int c = 0; c < t->ncols && used < n; c++) {
        if (!(t->cols[c].flags & KB_PK)) continue;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, t->cols[c].name);
        used += (size_t)snprintf(out + used, n - used, "%s%.60s", used ? "/" : "", cJSON_IsString(v) ? v->valuestring : "?");
    }
}

/* hw_support.os_support: {"windows": {"level": ..., "source": ..., "since"?, "note"?}, ...} with
 * operating systems of the `os` answer and sources that exist. */
static int check_os_support(struct import_ctx *ctx, const cJSON *os, int i, char *err, size_t errsz)
{
    static const char *const fields[] = {"level", "since", "note", "note_zh", "source", NULL};
    const struct ans_key *os_key = ans_key_find("os");
    for (const cJSON *e = os ? os->child : NULL; e; e = e->next) {
        char where[160];
        snprintf(where, sizeof where, "hw_support[%d].os_support.%.40s", i, e->string);
        if (!ans_key_allows(os_key, e->string)) {
            kb_errf(err, errsz, "%s: %s: not an operating system (linux, windows, macos)", ctx->name, where);
            return -1;
        }
        if (!cJSON_IsObject(e)) {
            kb_errf(err, errsz, "%s: %s: expected an object with level and source", ctx->name, where);
            return -1;
        }
        for (const cJSON *f = e->child; f; f = f->next) {
            if (!allowed_value(fields, f->string) || !cJSON_IsString(f)) {
                kb_errf(err, errsz, "%s: %s.%.40s: expected one of the strings level, since, note, note_zh, source", ctx->name,
                        where, f->string);
                return -1;
            }
        }
        const cJSON *level = cJSON_GetObjectItemCaseSensitive(e, "level");
        const cJSON *source = cJSON_GetObjectItemCaseSensitive(e, "source");
        if (!level || !allowed_value(kb_support_levels, level->valuestring)) {
            char allowed[256];
            list_allowed(kb_support_levels, allowed, sizeof allowed);
            kb_errf(err, errsz, "%s: %s.level: expected one of %s", ctx->name, where, allowed);
            return -1;
        }
        if (!source || !kb_valid_ident(source->valuestring) || !id_exists(ctx, "sources", source->valuestring)) {
            kb_errf(err, errsz, "%s: %s.source: expected the id of a source", ctx->name, where);
            return -1;
        }
    }
    return 0;
}

/* Same primary key as an earlier row of the same table? 1 yes, 0 no, -1 out of memory. */
static int duplicate_key(struct import_ctx *ctx, const struct kb_table *t, const cJSON *row)
{
    char key[1024];
    size_t used = (size_t)snprintf(key, sizeof key, "%s", t->name);
    for (int c = 0; c < t->ncols; c++) {
        if (!(t->cols[c].flags & KB_PK)) continue;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, t->cols[c].name);
        if (used < sizeof key)
            used += (size_t)snprintf(key + used, sizeof key - used, "\x1f%s", cJSON_IsString(v) ? v->valuestring : "");
    }
    int added = strset_add(&ctx->keys, key);
    return added < 0 ? -1 : !added;
}

/* Every row id of the document, so references between its rows resolve in constant time. */
static int collect_ids(struct import_ctx *ctx)
{
    for (const cJSON *e = ctx->doc->child; e; e = e->next) {
        if (!kb_table_find(e->string) || !cJSON_IsArray(e)) continue;
        const cJSON *row;
        cJSON_ArrayForEach(row, e) {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(row, "id");
            char key[512];
            if (cJSON_IsString(id) && strlen(id->valuestring) < 400 &&
                strset_add(&ctx->doc_ids, table_key(key, sizeof key, e->string, id->valuestring)) < 0)
                return -1;
        }
    }
    return 0;
}

static int check_document(struct import_ctx *ctx, char *err, size_t errsz)
{
    const cJSON *doc = ctx->doc;
    if (!cJSON_IsObject(doc)) {
        kb_errf(err, errsz, "%s: expected a JSON object (schema %s)", ctx->name, KB_EXPORT_SCHEMA);
        return -1;
    }
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, KB_EXPORT_SCHEMA) != 0) {
        kb_errf(err, errsz, "%s: schema: expected \"%s\"", ctx->name, KB_EXPORT_SCHEMA);
        return -1;
    }
    if (collect_ids(ctx)) {
        kb_errf(err, errsz, "%s: out of memory", ctx->name);
        return -1;
    }
    for (const cJSON *e = doc->child; e; e = e->next) {
        if (strcmp(e->string, "schema") == 0 || strcmp(e->string, "kb") == 0) continue;
        const struct kb_table *t = kb_table_find(e->string);
        if (!t) {
            kb_errf(err, errsz, "%s: unknown member '%s' (expected the tables of %s)", ctx->name, e->string,
                    KB_EXPORT_SCHEMA);
            return -1;
        }
        if (!cJSON_IsArray(e)) {
            kb_errf(err, errsz, "%s: %s: expected an array", ctx->name, e->string);
            return -1;
        }
        int i = 0;
        for (const cJSON *row = e->child; row; row = row->next, i++) {
            char where[160];
            if (!cJSON_IsObject(row)) {
                kb_errf(err, errsz, "%s: %s[%d]: expected an object", ctx->name, t->name, i);
                return -1;
            }
            for (const cJSON *f = row->child; f; f = f->next) {
                if (!kb_column_find(t, f->string) && strcmp(f->string, "origin") != 0) {
                    kb_errf(err, errsz, "%s: %s[%d]: unknown column '%s'", ctx->name, t->name, i, f->string);
                    return -1;
                }
            }
            for (int c = 0; c < t->ncols; c++) {
                const struct kb_column *col = &t->cols[c];
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, col->name);
                snprintf(where, sizeof where, "%s[%d].%s", t->name, i, col->name);
                if (!v) {
                    if (col->flags & KB_OPTIONAL) continue;
                    if (col->flags & KB_ADDED) {
                        char key[160];
                        row_key(t, row, key, sizeof key);
                        kb_errf(err, errsz,
                                "%s: %s[%d] (%s) lacks '%s', a column of knowledge-base schema 3 "
                                "(hardware-aware advice); export again from this fwadvisor or add it (docs/knowledge-base.md)",
                                ctx->name, t->name, i, key, col->name);
                        return -1;
                    }
                    if (strcmp(col->name, "source") == 0)
                        kb_errf(err, errsz, "%s: %s[%d]: fact has no source", ctx->name, t->name, i);
                    else
                        kb_errf(err, errsz, "%s: %s: missing", ctx->name, where);
                    return -1;
                }
                if (check_value(ctx, col, v, where, err, errsz)) return -1;
            }
            const cJSON *os = cJSON_GetObjectItemCaseSensitive(row, "os_support");
            if (strcmp(t->name, "hw_support") == 0 && check_os_support(ctx, os, i, err, errsz)) return -1;
            int dup = duplicate_key(ctx, t, row);
            if (dup) {
                if (dup < 0) kb_errf(err, errsz, "%s: out of memory", ctx->name);
                else kb_errf(err, errsz, "%s: %s[%d]: the same id appears earlier in the document", ctx->name, t->name, i);
                return -1;
            }
            if (strcmp(t->name, "rules") == 0) {
                char why[256];
                const cJSON *cond = cJSON_GetObjectItemCaseSensitive(row, "condition");
                const cJSON *eff = cJSON_GetObjectItemCaseSensitive(row, "effect");
                if (rule_check_condition(cond, id_exists, ctx, why, sizeof why) ||
                    rule_check_effect(eff, id_exists, ctx, why, sizeof why)) {
                    kb_errf(err, errsz, "%s: rules[%d]: %s", ctx->name, i, why);
                    return -1;
                }
            }
        }
    }
    return 0;
}

/* Text form of a JSON value as stored in a column. Caller frees. */
static char *column_text(const struct kb_column *col, const cJSON *v)
{
    if (col->type == KB_JSON) return cJSON_PrintUnformatted(v);
    if (col->type == KB_SET) {
        size_t n = 1;
        const cJSON *item;
        cJSON_ArrayForEach(item, v) n += strlen(item->valuestring) + 1;
        char *s = malloc(n);
        if (!s) return NULL;
        s[0] = '\0';
        cJSON_ArrayForEach(item, v) {
            if (s[0]) strcat(s, ",");
            strcat(s, item->valuestring);
        }
        return s;
    }
    return NULL;
}

/* 1 when the stored JSON text means the same as v. */
static int json_text_equal(const char *stored, const cJSON *v)
{
    cJSON *parsed = stored ? cJSON_Parse(stored) : NULL;
    int same = parsed && cJSON_Compare(parsed, v, 1);
    cJSON_Delete(parsed);
    return same;
}

/* The statement that reads the stored row with an import row's key. */
static int prepare_lookup(kb *k, const struct kb_table *t, sqlite3_stmt **st)
{
    char tail[256];
    size_t used = (size_t)snprintf(tail, sizeof tail, "WHERE ");
    int n = 0;
    for (int c = 0; c < t->ncols; c++)
        if (t->cols[c].flags & KB_PK)
            used += (size_t)snprintf(tail + used, sizeof tail - used, "%s%s = ?", n++ ? " AND " : "", t->cols[c].name);
    return kb_prepare_select(k->db, t, tail, st);
}

/* Compares an import row with the stored row of the same key (st from prepare_lookup): 1 same,
 * 0 differs or absent. */
static int same_as_stored(sqlite3_stmt *st, const struct kb_table *t, const cJSON *row, int *exists, int *rc_out)
{
    *exists = 0;
    int n = 0;
    for (int c = 0; c < t->ncols; c++)
        if (t->cols[c].flags & KB_PK)
            sqlite3_bind_text(st, ++n, cJSON_GetObjectItemCaseSensitive(row, t->cols[c].name)->valuestring, -1,
                              SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        *rc_out = rc == SQLITE_DONE ? SQLITE_OK : rc;
        sqlite3_reset(st);
        return 0;
    }
    *exists = 1;
    int same = 1;
    for (int c = 0; c < t->ncols && same; c++) {
        const struct kb_column *col = &t->cols[c];
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, col->name);
        const char *text = (const char *)sqlite3_column_text(st, c);
        if (!v) {
            same = col->type == KB_INT || col->type == KB_REAL
                       ? sqlite3_column_double(st, c) == 0
                       : strcmp(text ? text : "", col->empty_default ? col->empty_default : "") == 0;
            continue;
        }
        switch (col->type) {
        case KB_TEXT: same = text && strcmp(text, v->valuestring) == 0; break;
        case KB_INT: same = sqlite3_column_int64(st, c) == (sqlite3_int64)v->valuedouble; break;
        case KB_REAL: same = sqlite3_column_double(st, c) == v->valuedouble; break;
        case KB_SET: {
            char *s = column_text(col, v);
            same = s && text && strcmp(s, text) == 0;
            free(s);
            break;
        }
        case KB_JSON: same = json_text_equal(text, v); break;
        }
    }
    sqlite3_reset(st);
    *rc_out = SQLITE_OK;
    return same;
}

/* INSERT OR REPLACE of the columns a row has; the statement is kept for the next row of the
 * table with the same columns (*cached, *cached_mask). */
static int upsert_row(kb *k, const struct kb_table *t, const cJSON *row, sqlite3_stmt **cached, unsigned *cached_mask,
                      int *rc_out)
{
    unsigned mask = 0;
    for (int c = 0; c < t->ncols; c++)
        if (cJSON_GetObjectItemCaseSensitive(row, t->cols[c].name)) mask |= 1u << c;
    if (!*cached || mask != *cached_mask) {
        sqlite3_finalize(*cached);
        *cached = NULL;
        char sql[1024];
        size_t used = (size_t)snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO %s (", t->name);
        int n = 0;
        for (int c = 0; c < t->ncols; c++)
            if (mask & (1u << c)) used += (size_t)snprintf(sql + used, sizeof sql - used, "%s%s", n++ ? ", " : "", t->cols[c].name);
        used += (size_t)snprintf(sql + used, sizeof sql - used, ", origin) VALUES (");
        for (int i = 0; i < n; i++) used += (size_t)snprintf(sql + used, sizeof sql - used, "%s?", i ? ", " : "");
        snprintf(sql + used, sizeof sql - used, ", 'user')");
        int rc = sqlite3_prepare_v2(k->db, sql, -1, cached, NULL);
        if (rc != SQLITE_OK) {
            *rc_out = rc;
            return -1;
        }
        *cached_mask = mask;
    }
    sqlite3_stmt *st = *cached;
    char *owned[32] = {0};
    int nowned = 0, n = 0, rc = SQLITE_OK;
    for (int c = 0; c < t->ncols && rc == SQLITE_OK; c++) {
        const struct kb_column *col = &t->cols[c];
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, col->name);
        if (!v) continue;
        n++;
        switch (col->type) {
        case KB_TEXT: sqlite3_bind_text(st, n, v->valuestring, -1, SQLITE_STATIC); break;
        case KB_INT: sqlite3_bind_int64(st, n, (sqlite3_int64)v->valuedouble); break;
        case KB_REAL: sqlite3_bind_double(st, n, v->valuedouble); break;
        case KB_SET:
        case KB_JSON: {
            char *text = column_text(col, v);
            if (!text) {
                rc = SQLITE_NOMEM;
                break;
            }
            owned[nowned++] = text;
            sqlite3_bind_text(st, n, text, -1, SQLITE_STATIC);
            break;
        }
        }
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    for (int i = 0; i < nowned; i++) free(owned[i]);
    *rc_out = rc;
    return rc == SQLITE_OK ? 0 : -1;
}

/* After the rows are written, inside the import's transaction: a table over its limit refuses
 * the document (the caller rolls back). */
static int within_limits(kb *k, const char *name, char *err, size_t errsz)
{
    long long rows;
    int rc;
    const struct kb_table *over = kb_table_over_limit(k, &rows, &rc);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "importing", err, errsz);
    if (!over) return KB_OK;
    kb_errf(err, errsz, "%s: %s would hold %lld rows; this build handles at most %d", name, over->name, rows, over->max_rows);
    return KB_ERR_INPUT;
}

static int has_text(const cJSON *v) { return cJSON_IsString(v) && v->valuestring[0]; }

/* A row's prose in one language only: Chinese missing, the English shows in its place; English
 * missing (or empty), the row takes the Chinese as its English text, which the checks then see.
 * Returns the rows of either kind; -1 when out of memory. */
static int fill_one_language(cJSON *doc)
{
    int rows = 0;
    for (int t = 0; t < kb_table_count; t++) {
        const struct kb_table *tab = &kb_tables[t];
        cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, tab->name), *row;
        cJSON_ArrayForEach(row, arr) {
            if (!cJSON_IsObject(row)) continue;
            int one = 0;
            for (int c = 0; c < tab->ncols; c++) {
                const struct kb_column *zh = kb_column_zh(tab, &tab->cols[c]);
                if (!zh) continue;
                cJSON *en_v = cJSON_GetObjectItemCaseSensitive(row, tab->cols[c].name);
                cJSON *zh_v = cJSON_GetObjectItemCaseSensitive(row, zh->name);
                if (has_text(en_v) == has_text(zh_v)) continue;
                one = 1;
                if (has_text(en_v) || (en_v && !cJSON_IsString(en_v))) continue;
                cJSON *copy = cJSON_CreateString(zh_v->valuestring);
                if (!copy) return -1;
                /* replaced by name: the new item takes the member's name */
                if (en_v) cJSON_ReplaceItemInObjectCaseSensitive(row, tab->cols[c].name, copy);
                else cJSON_AddItemToObject(row, tab->cols[c].name, copy);
            }
            rows += one;
        }
    }
    return rows;
}

int kb_import(kb *k, const char *text, size_t len, const char *name, struct kb_import_stats *stats,
              char *err, size_t errsz)
{
    memset(stats, 0, sizeof *stats);
    if (kb_check_writable(k, "importing", err, errsz) != KB_OK) return KB_ERR_DB;
    cJSON *doc = json_doc_parse(text, len, name, err, errsz);
    if (!doc) return KB_ERR_INPUT;
    struct import_ctx ctx = {.k = k, .doc = doc, .name = name};
    int one_language = cJSON_IsObject(doc) ? fill_one_language(doc) : 0;
    if (one_language < 0) {
        cJSON_Delete(doc);
        kb_errf(err, errsz, "%s: out of memory", name);
        return KB_ERR_RUNTIME;
    }
    int bad = check_document(&ctx, err, errsz);
    for (int t = 0; t < KB_MAX_TABLES; t++) sqlite3_finalize(ctx.lookup[t]);
    strset_free(&ctx.doc_ids);
    strset_free(&ctx.keys);
    if (bad) {
        cJSON_Delete(doc);
        return KB_ERR_INPUT;
    }

    int rc, status = kb_begin_write(k, "importing", err, errsz);
    if (status != KB_OK) {
        cJSON_Delete(doc);
        return status;
    }
    size_t total = 0, done = 0;
    for (int t = 0; t < kb_table_count; t++)
        total += (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, kb_tables[t].name));
    for (int t = 0; t < kb_table_count && status == KB_OK; t++) {
        const struct kb_table *tab = &kb_tables[t];
        const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, tab->name);
        if (!cJSON_GetArraySize(arr)) continue;
        sqlite3_stmt *lookup = NULL, *upsert = NULL;
        unsigned upsert_mask = 0;
        rc = prepare_lookup(k, tab, &lookup);
        const cJSON *row;
        cJSON_ArrayForEach(row, arr) {
            int exists = 0;
            if (rc == SQLITE_OK && same_as_stored(lookup, tab, row, &exists, &rc)) {
                stats->unchanged++;
            } else if (rc != SQLITE_OK || upsert_row(k, tab, row, &upsert, &upsert_mask, &rc)) {
                status = kb_db_error(k, rc, "importing", err, errsz);
                break;
            } else if (exists) {
                stats->changed++;
            } else {
                stats->added++;
            }
            if (k->progress && ++done % 1000 == 0) k->progress(k->progress_ctx, done, total);
        }
        sqlite3_finalize(lookup);
        sqlite3_finalize(upsert);
    }
    if (status == KB_OK) status = within_limits(k, name, err, errsz);
    if (status == KB_OK) {
        /* Deferred foreign keys are checked by COMMIT; a failure leaves nothing behind. */
        rc = kb_exec(k->db, "COMMIT");
        if (rc != SQLITE_OK) status = kb_db_error(k, rc, "importing", err, errsz);
    }
    if (status != KB_OK) {
        kb_exec(k->db, "ROLLBACK");
        memset(stats, 0, sizeof *stats);
    } else {
        stats->one_language = one_language;
    }
    cJSON_Delete(doc);
    return status;
}
