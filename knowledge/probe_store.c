#include "knowledge/probe_store.h"
#include "knowledge/kb_internal.h"

#include <string.h>
#include <strings.h>

static const char *str(const cJSON *doc, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The first free id of "base", "base-2", ... inside the caller's write transaction. */
static int free_id(kb *k, const char *base, char *out, size_t outsz)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(kb_db(k), "SELECT 1 FROM probe_runs WHERE id = ?", -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    for (int n = 1; n < 100000; n++) {
        if (n == 1) snprintf(out, outsz, "%s", base);
        else snprintf(out, outsz, "%s-%d", base, n);
        sqlite3_bind_text(st, 1, out, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_ROW) break;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc == SQLITE_ROW ? SQLITE_CONSTRAINT : rc;
}

int kb_probe_save(kb *k, cJSON *doc, char *err, size_t errsz)
{
    if (kb_check_writable(k, "saving the probe run", err, errsz) != KB_OK) return KB_ERR_DB;
    char *text = cJSON_PrintUnformatted(doc);
    if (!text) {
        kb_errf(err, errsz, "out of memory");
        return KB_ERR_RUNTIME;
    }
    /* A one-line summary for `probe list`: the CPU and the first accelerator. */
    char summary[256];
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(doc, "cpu");
    const cJSON *acc = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "accelerators"), 0);
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(doc, "results");
    int ok = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, results) ok += strcmp(str(r, "status"), "ok") == 0;
    if (acc)
        snprintf(summary, sizeof summary, "%s; %.0f x %s; %d results", str(cpu, "model"),
                 cJSON_GetObjectItemCaseSensitive(acc, "count")->valuedouble, str(acc, "name"), ok);
    else
        snprintf(summary, sizeof summary, "%s; no accelerator; %d results", str(cpu, "model"), ok);
    const cJSON *dur = cJSON_GetObjectItemCaseSensitive(doc, "duration_s");
    /* The id is chosen inside the write transaction (which waits for other writers up to the
     * busy timeout), so probes started in the same second never take the same one. */
    char base[64], id[80];
    snprintf(base, sizeof base, "%s", *str(doc, "id") ? str(doc, "id") : "run");
    int begun = kb_begin_write(k, "saving the probe run", err, errsz);
    if (begun != KB_OK) {
        cJSON_free(text);
        return begun;
    }
    int rc = free_id(k, base, id, sizeof id);
    if (rc == SQLITE_OK && strcmp(id, str(doc, "id")) != 0) {
        if (cJSON_GetObjectItemCaseSensitive(doc, "id")) cJSON_ReplaceItemInObjectCaseSensitive(doc, "id", cJSON_CreateString(id));
        else cJSON_AddStringToObject(doc, "id", id);
        cJSON_free(text);
        text = cJSON_PrintUnformatted(doc);
        if (!text) rc = SQLITE_NOMEM;
    }
    sqlite3_stmt *st = NULL;
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(kb_db(k),
                                "INSERT INTO probe_runs (id, started_at, duration_s, interrupted, summary, doc) "
                                "VALUES (?, ?, ?, ?, ?, ?)", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, str(doc, "started_at"), -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 3, cJSON_IsNumber(dur) ? dur->valuedouble : 0);
        sqlite3_bind_int(st, 4, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted")));
        sqlite3_bind_text(st, 5, summary, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 6, text, -1, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(kb_db(k));
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_OK) rc = kb_exec(kb_db(k), "COMMIT");
    int status = KB_OK;
    if (rc != SQLITE_OK) {
        status = kb_db_error(k, rc, "saving the probe run", err, errsz);
        kb_exec(kb_db(k), "ROLLBACK");
    }
    cJSON_free(text);
    return status;
}

int kb_probe_list(kb *k, cJSON **rows, char *err, size_t errsz)
{
    *rows = NULL;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(kb_db(k),
                                "SELECT id, started_at, duration_s, interrupted, summary FROM probe_runs "
                                "ORDER BY started_at DESC, id DESC", -1, &st, NULL);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "listing probe runs", err, errsz);
    cJSON *arr = cJSON_CreateArray();
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && arr) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", (const char *)sqlite3_column_text(st, 0));
        cJSON_AddStringToObject(o, "started_at", (const char *)sqlite3_column_text(st, 1));
        cJSON_AddNumberToObject(o, "duration_s", sqlite3_column_double(st, 2));
        cJSON_AddBoolToObject(o, "interrupted", sqlite3_column_int(st, 3));
        cJSON_AddStringToObject(o, "summary", (const char *)sqlite3_column_text(st, 4));
        cJSON_AddItemToArray(arr, o);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        cJSON_Delete(arr);
        return kb_db_error(k, rc, "listing probe runs", err, errsz);
    }
    *rows = arr;
    return KB_OK;
}

int kb_probe_ids_with(kb *k, const char *workload, cJSON **ids, char *err, size_t errsz)
{
    *ids = NULL;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(kb_db(k),
                                "SELECT id FROM probe_runs WHERE EXISTS (SELECT 1 FROM json_each(doc, '$.results') "
                                "WHERE json_extract(value, '$.workload') = ?1 AND json_extract(value, '$.status') = 'ok') "
                                "ORDER BY started_at DESC, id DESC",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "listing probe runs", err, errsz);
    sqlite3_bind_text(st, 1, workload, -1, SQLITE_STATIC);
    cJSON *arr = cJSON_CreateArray();
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && arr)
        cJSON_AddItemToArray(arr, cJSON_CreateString((const char *)sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        cJSON_Delete(arr);
        return kb_db_error(k, rc, "listing probe runs", err, errsz);
    }
    *ids = arr;
    return KB_OK;
}

int kb_probe_get(kb *k, const char *id, cJSON **doc, char *err, size_t errsz)
{
    *doc = NULL;
    int latest = strcasecmp(id, "latest") == 0;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(kb_db(k),
                                latest ? "SELECT doc FROM probe_runs ORDER BY started_at DESC, id DESC LIMIT 1"
                                       : "SELECT doc FROM probe_runs WHERE id = ?",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "reading a probe run", err, errsz);
    if (!latest) sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *doc = cJSON_Parse((const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        if (!*doc) {
            kb_errf(err, errsz, "probe run '%s' in '%s' is not valid JSON", id, kb_path(k));
            return KB_ERR_DB;
        }
        return KB_OK;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return kb_db_error(k, rc, "reading a probe run", err, errsz);
    if (latest) return KB_OK;
    kb_errf(err, errsz, "no probe run '%s' (fwadvisor probe list shows them)", id);
    return KB_ERR_INPUT;
}

int kb_probe_delete(kb *k, const char *id, char *err, size_t errsz)
{
    if (kb_check_writable(k, "deleting a probe run", err, errsz) != KB_OK) return KB_ERR_DB;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(kb_db(k), "DELETE FROM probe_runs WHERE id = ?", -1, &st, NULL);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "deleting a probe run", err, errsz);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return kb_db_error(k, rc, "deleting a probe run", err, errsz);
    if (sqlite3_changes(kb_db(k)) == 0) {
        kb_errf(err, errsz, "no probe run '%s' (fwadvisor probe list shows them)", id);
        return KB_ERR_INPUT;
    }
    return KB_OK;
}
