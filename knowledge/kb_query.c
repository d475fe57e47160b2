/* Browsing queries behind `kb list` and `kb show`. */
#include "knowledge/kb_internal.h"
#include "knowledge/answer_keys.h"
#include "common/i18n.h"
#include "common/strset.h"

#include <ctype.h>
#include <string.h>

const struct kb_list_kind kb_list_kind_rows[] = {
    {"frameworks", "frameworks", NULL, NULL, 0,
     {{"ID", "id", KB_CELL_TEXT, 0, 0}, {N_("NAME"), "name", KB_CELL_TEXT, 1, 0},
      {N_("VERSION"), "version", KB_CELL_TEXT, 0, 0}, {N_("RELEASED"), "released", KB_CELL_TEXT, 0, 0},
      {N_("AS OF"), "as_of", KB_CELL_TEXT, 0, 0}}, "frameworks"},
    {"criteria", "criteria", NULL, NULL, 0,
     {{"ID", "id", KB_CELL_TEXT, 0, 0}, {N_("WEIGHT"), "weight", KB_CELL_WEIGHT, 0, 1},
      {N_("NAME"), "name", KB_CELL_TEXT, 1, 0}, {N_("SOURCE"), "source", KB_CELL_TEXT, 0, 0}}, "criteria"},
    {.name = "hardware", .table = "hw_support", .matrix = 1, .tab = "support"},
    {"distributed", "strategies", "strategy_frameworks", "strategy", 0,
     {{"ID", "id", KB_CELL_TEXT, 0, 0}, {N_("STATUS"), "status", KB_CELL_TEXT, 0, 0},
      {N_("MIN"), "min_devices", KB_CELL_WHOLE, 0, 1}, {N_("FRAMEWORKS"), "frameworks", KB_CELL_LIST, 1, 0}}, "strategies"},
    {"deployment", "runtimes", "runtime_frameworks", "runtime", 0,
     {{"ID", "id", KB_CELL_TEXT, 0, 0}, {N_("STATUS"), "status", KB_CELL_TEXT, 0, 0},
      {N_("TARGETS"), "targets", KB_CELL_LIST_OR_DASH, 0, 0}, {N_("FRAMEWORKS"), "frameworks", KB_CELL_LIST_OR_DASH, 1, 0}}, "runtimes"},
    {"accelerators", "accelerators", NULL, NULL, 0,
     {{"ID", "id", KB_CELL_TEXT, 0, 0}, {N_("VENDOR"), "vendor", KB_CELL_TEXT, 0, 0},
      {N_("MEM GB"), "memory_gb", KB_CELL_NUMBER, 0, 1}, {"GB/s", "bandwidth_gbs", KB_CELL_NUMBER, 0, 1},
      {"FP32 TF", "fp32_tflops", KB_CELL_NUMBER, 0, 1}, {"BF16 TF", "bf16_tflops", KB_CELL_RATE, 0, 1},
      {"FP8 TF", "fp8_tflops", KB_CELL_RATE, 0, 1}, {N_("FIGURES"), "figures", KB_CELL_TEXT, 0, 0},
      {N_("NAME"), "name", KB_CELL_TEXT, 1, 0}}, "devices"},
    {"rules", "rules", NULL, NULL, 0,
     {{"ID", "id", KB_CELL_TEXT, 0, 0}, {N_("KIND"), "kind", KB_CELL_TEXT, 0, 0}, {N_("TITLE"), "title", KB_CELL_TITLE, 1, 0}}, "rules"},
    {"sources", "sources", NULL, NULL, 0,
     {{"ID", "id", KB_CELL_TEXT, 0, 0}, {N_("PUBLISHED"), "published", KB_CELL_TEXT, 0, 0},
      {N_("TITLE"), "title", KB_CELL_TEXT, 1, 0}}, "sources"},
};
const int kb_list_kind_count = (int)(sizeof kb_list_kind_rows / sizeof kb_list_kind_rows[0]);

const struct kb_list_kind *kb_list_kind_find(const char *name)
{
    for (int i = 0; i < kb_list_kind_count; i++)
        if (strcmp(kb_list_kind_rows[i].name, name) == 0) return &kb_list_kind_rows[i];
    return NULL;
}

const char *const *kb_list_kind_names(void)
{
    static const char *names[sizeof kb_list_kind_rows / sizeof kb_list_kind_rows[0] + 1];
    for (int i = 0; i < kb_list_kind_count; i++) names[i] = kb_list_kind_rows[i].name;
    return names;
}

/* Rows of table t matching `col = value` (all rows when col is NULL), ordered by key, appended
 * to arr. */
static int append_rows(kb *k, const struct kb_table *t, const char *col, const char *value, cJSON *arr,
                       char *err, size_t errsz)
{
    char tail[256];
    size_t used = 0;
    tail[0] = '\0';
    if (col) used = (size_t)snprintf(tail, sizeof tail, "WHERE %s = ?1 ", col);
    used += (size_t)snprintf(tail + used, sizeof tail - used, "ORDER BY ");
    int first = 1;
    if (strcmp(t->name, "rules") == 0) { /* rules read best in kind and tree order */
        used += (size_t)snprintf(tail + used, sizeof tail - used, "kind, priority, ");
    }
    for (int c = 0; c < t->ncols; c++) {
        if (!(t->cols[c].flags & KB_PK)) continue;
        used += (size_t)snprintf(tail + used, sizeof tail - used, "%s%s", first ? "" : ", ", t->cols[c].name);
        first = 0;
    }
    sqlite3_stmt *st;
    int rc = kb_prepare_select(k->db, t, tail, &st);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "reading", err, errsz);
    if (col) sqlite3_bind_text(st, 1, value, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        cJSON *row = kb_row_to_json(st, t);
        if (!row) {
            sqlite3_finalize(st);
            kb_errf(err, errsz, "out of memory");
            return KB_ERR_RUNTIME;
        }
        cJSON_AddItemToArray(arr, row);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? KB_OK : kb_db_error(k, rc, "reading", err, errsz);
}

/* Adds "frameworks": [ids] to each row of arr from a link table (strategy_frameworks, ...). */
static int add_linked_frameworks(kb *k, cJSON *arr, const char *link_table, const char *key_col,
                                 char *err, size_t errsz)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT framework FROM %s WHERE %s = ? ORDER BY framework", link_table, key_col);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(k->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "reading", err, errsz);
    cJSON *row;
    cJSON_ArrayForEach(row, arr) {
        cJSON *ids = cJSON_AddArrayToObject(row, "frameworks");
        sqlite3_bind_text(st, 1, cJSON_GetObjectItemCaseSensitive(row, "id")->valuestring, -1, SQLITE_STATIC);
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            cJSON_AddItemToArray(ids, cJSON_CreateString((const char *)sqlite3_column_text(st, 0)));
        sqlite3_reset(st);
        if (rc != SQLITE_DONE) break;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE || rc == SQLITE_OK ? KB_OK : kb_db_error(k, rc, "reading", err, errsz);
}

int kb_list(kb *k, const char *kind, cJSON **rows, char *err, size_t errsz)
{
    *rows = NULL;
    const struct kb_list_kind *kd = kb_list_kind_find(kind ? kind : kb_list_kind_rows[0].name);
    if (!kd) {
        char names[256];
        size_t used = 0;
        for (int i = 0; i < kb_list_kind_count; i++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", kb_list_kind_rows[i].name,
                                     i + 2 < kb_list_kind_count ? ", " : i + 2 == kb_list_kind_count ? " or " : "");
        kb_errf(err, errsz, "unknown kind '%s' (use %s)", kind, names);
        return KB_ERR_INPUT;
    }
    cJSON *arr = cJSON_CreateArray();
    if (!arr) {
        kb_errf(err, errsz, "out of memory");
        return KB_ERR_RUNTIME;
    }
    int status = append_rows(k, kb_table_find(kd->table), NULL, NULL, arr, err, errsz);
    if (status == KB_OK && kd->link_table)
        status = add_linked_frameworks(k, arr, kd->link_table, kd->link_key, err, errsz);
    if (status != KB_OK) {
        cJSON_Delete(arr);
        return status;
    }
    *rows = arr;
    return KB_OK;
}

/* Adds each source id cited in rows (a "source" member) to `cited` once; `seen` holds the ids
 * added so far, so a fact with thousands of related rows takes time linear in them. */
static void collect_sources(const cJSON *rows, cJSON *cited, struct strset *seen)
{
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        const cJSON *src = cJSON_GetObjectItemCaseSensitive(row, "source");
        if (cJSON_IsString(src) && strset_add(seen, src->valuestring) != 0) /* new, or out of memory: listed */
            cJSON_AddItemToArray(cited, cJSON_CreateString(src->valuestring));
    }
}

/* Related rows that `kb show` adds for each kind: (member name, table, column naming the id). */
struct related {
    const char *label, *member, *table, *col;
};
static const struct related related_rows[] = {
    {"framework", "scores", "scores", "framework"},
    {"framework", "hardware", "hw_support", "framework"},
    {"framework", "distributed", "strategy_frameworks", "framework"},
    {"framework", "deployment", "runtime_frameworks", "framework"},
    {"criterion", "scores", "scores", "criterion"},
    {"hardware", "support", "hw_support", "hardware"},
    {"strategy", "frameworks", "strategy_frameworks", "strategy"},
    {"runtime", "frameworks", "runtime_frameworks", "runtime"},
};

/* Nearest id in any browsable table, for "did you mean" (common/suggest.h). */
static void nearest_id(kb *k, const char *id, char *out, size_t n)
{
    struct suggest s;
    suggest_init(&s, id);
    for (int t = 0; t < kb_table_count; t++) {
        if (!kb_tables[t].id_label) continue;
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT id FROM %s", kb_tables[t].name);
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(k->db, sql, -1, &st, NULL) != SQLITE_OK) continue;
        while (sqlite3_step(st) == SQLITE_ROW) suggest_offer(&s, (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    snprintf(out, n, "%s", suggest_result(&s) ? suggest_result(&s) : "");
}

int kb_show(kb *k, const char *given, cJSON **out, char *err, size_t errsz)
{
    *out = NULL;
    /* Ids are lower-case (kb_valid_ident): "PyTorch" means pytorch. */
    char id[128];
    size_t len = 0;
    for (; given[len] && len + 1 < sizeof id; len++) id[len] = (char)tolower((unsigned char)given[len]);
    id[len] = '\0';
    /* Frameworks first: ids are unique in practice, and a framework is what people ask about. */
    static const char *const order[] = {"frameworks", "strategies", "runtimes", "hardware", "criteria",
                                        "accelerators", "rules", "sources"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const struct kb_table *t = kb_table_find(order[i]);
        cJSON *found = cJSON_CreateArray();
        if (!found) goto oom;
        int status = append_rows(k, t, "id", id, found, err, errsz);
        if (status != KB_OK) {
            cJSON_Delete(found);
            return status;
        }
        if (cJSON_GetArraySize(found) == 0) {
            cJSON_Delete(found);
            continue;
        }
        cJSON *obj = cJSON_CreateObject();
        cJSON *cited = cJSON_CreateArray();
        if (!obj || !cited) {
            cJSON_Delete(found);
            cJSON_Delete(obj);
            cJSON_Delete(cited);
            goto oom;
        }
        cJSON_AddStringToObject(obj, "kind", t->id_label);
        cJSON *row = cJSON_DetachItemFromArray(found, 0);
        cJSON_Delete(found);
        cJSON_AddItemToObject(obj, t->id_label, row);
        cJSON *one = cJSON_CreateArray();
        cJSON_AddItemReferenceToArray(one, row);
        struct strset seen = {0};
        collect_sources(one, cited, &seen);
        cJSON_Delete(one);
        for (size_t r = 0; r < sizeof related_rows / sizeof related_rows[0]; r++) {
            if (strcmp(related_rows[r].label, t->id_label) != 0) continue;
            cJSON *arr = cJSON_AddArrayToObject(obj, related_rows[r].member);
            status = append_rows(k, kb_table_find(related_rows[r].table), related_rows[r].col, id, arr, err, errsz);
            if (status != KB_OK) {
                strset_free(&seen);
                cJSON_Delete(obj);
                cJSON_Delete(cited);
                return status;
            }
            collect_sources(arr, cited, &seen);
        }
        strset_free(&seen);
        /* The sources this fact and its related rows cite, in full. */
        cJSON *sources = cJSON_AddArrayToObject(obj, "sources");
        const cJSON *src;
        cJSON_ArrayForEach(src, cited) {
            status = append_rows(k, kb_table_find("sources"), "id", src->valuestring, sources, err, errsz);
            if (status != KB_OK) {
                cJSON_Delete(obj);
                cJSON_Delete(cited);
                return status;
            }
        }
        cJSON_Delete(cited);
        *out = obj;
        return KB_OK;
    }
    char near[80];
    nearest_id(k, id, near, sizeof near);
    if (near[0])
        kb_errf(err, errsz, "no fact with id '%s' (did you mean '%s'?)", id, near);
    else
        kb_errf(err, errsz, "no fact with id '%s' (see 'fwadvisor kb list KIND' for ids)", id);
    return KB_ERR_INPUT;
oom:
    kb_errf(err, errsz, "out of memory");
    return KB_ERR_RUNTIME;
}

int kb_accel_lookup(kb *k, const char *name, const char *compute_capability, struct kb_accel_peaks *out)
{
    /* Every entry whose match occurs in the name, checked here for a word end after it ("nvidia
     * l4" is in "nvidia l40s" but names another board); the longest such match wins. */
    static const char sql[] =
        "SELECT id, fp32_tflops, bf16_tflops, fp16_tflops, bandwidth_gbs, match FROM accelerators "
        "WHERE instr(lower(?1), match) > 0 AND (?2 = '' OR compute_capability = '' OR compute_capability = ?2) "
        "ORDER BY length(match) DESC, id";
    char lower[256];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof lower; n++) lower[n] = (char)tolower((unsigned char)name[n]);
    lower[n] = 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(k->db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    sqlite3_bind_text(st, 1, lower, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, compute_capability ? compute_capability : "", -1, SQLITE_STATIC);
    int rc, found = 0;
    while (!found && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *match = (const char *)sqlite3_column_text(st, 5);
        size_t len = strlen(match);
        for (const char *at = strstr(lower, match); at && !found; at = strstr(at + 1, match))
            if (!isalnum((unsigned char)at[len])) found = 1;
        if (!found) continue;
        memset(out, 0, sizeof *out);
        snprintf(out->id, sizeof out->id, "%s", (const char *)sqlite3_column_text(st, 0));
        out->fp32_tflops = sqlite3_column_double(st, 1);
        out->bf16_tflops = sqlite3_column_double(st, 2);
        out->fp16_tflops = sqlite3_column_double(st, 3);
        out->bandwidth_gbs = sqlite3_column_double(st, 4);
    }
    if (found) rc = SQLITE_DONE;
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? found : -1;
}
