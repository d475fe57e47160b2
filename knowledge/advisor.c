/* The advisor: loading the knowledge base into memory, ranking, strategy, runtime, plan. */
#include "knowledge/advisor_kb.h"
#include "knowledge/kb_internal.h"
#include "common/i18n.h"
#include "knowledge/planner.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const adv_level_names[LEVEL_COUNT] = {"first-class", "supported", "experimental", "community", "none"};
const char *const adv_path_names[] = {"none", "indirect", "converter", "native", NULL};

/* The criteria whose score the advisor sets from elsewhere: hardware_fit from hw_support.fit for
 * the answered hardware, learning_curve for a framework the team knows (it has been climbed). */
#define HARDWARE_FIT "hardware_fit"
#define LEARNING_CURVE "learning_curve"
/* The criterion a probe run's framework measurements speak to. */
#define SINGLE_DEVICE_SPEED "single_device_speed"

/* --- an arena: everything loaded lives until adv_kb_free ------------------------------------ */

#define ARENA_BLOCK 65536

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    _Alignas(max_align_t) char data[];
};

/* n bytes from the arena at a multiple of align (a power of two, at most max_align_t's); NULL when
 * out of memory. A large request gets a block of its own, behind the one strings are filling. */
static void *arena_take(struct adv_kb *akb, size_t n, size_t align)
{
    struct arena_block *b = akb->arena;
    size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0;
    if (b && at + n <= b->cap) {
        b->used = at + n;
        return b->data + at;
    }
    if (n > SIZE_MAX - sizeof *b) return NULL;
    size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    struct arena_block *nb = malloc(sizeof *nb + cap);
    if (!nb) return NULL;
    nb->used = n;
    nb->cap = cap;
    if (b && n > ARENA_BLOCK / 4) {
        nb->next = b->next;
        b->next = nb;
    } else {
        nb->next = b;
        akb->arena = nb;
    }
    return nb->data;
}

static const char *arena_strdup(struct adv_kb *akb, const char *s)
{
    if (!s) s = "";
    size_t n = strlen(s) + 1;
    char *p = arena_take(akb, n, 1);
    if (p) memcpy(p, s, n);
    return p;
}

/* Zeroed room for count items of size bytes each, aligned for any type; NULL when out of memory. */
static void *arena_calloc(struct adv_kb *akb, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    void *p = arena_take(akb, count * size, _Alignof(max_align_t));
    if (p) memset(p, 0, count * size);
    return p;
}

void adv_kb_free(struct adv_kb *akb)
{
    if (!akb) return;
    for (int i = 0; i < akb->nrules; i++) {
        cJSON_Delete(akb->rules[i].cond);
        cJSON_Delete(akb->rules[i].effect);
    }
    for (struct arena_block *b = akb->arena, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(akb->texts);
    free(akb);
}

/* Row i's id: every table looked up by id keeps it as the first member of its rows. */
static const char *row_id(const void *rows, size_t size, int i)
{
    return *(const char *const *)(const void *)((const char *)rows + (size_t)i * size);
}

int adv_find_id(const void *rows, int n, size_t size, const char *id)
{
    int lo = 0, hi = n - 1;
    while (id && lo <= hi) {
        int mid = lo + (hi - lo) / 2, c = strcmp(row_id(rows, size, mid), id);
        if (c == 0) return mid;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

int adv_fw_index(const struct adv_kb *akb, const char *id) { return ADV_FIND(akb->fw, akb->nfw, id); }
static int crit_index(const struct adv_kb *akb, const char *id) { return ADV_FIND(akb->crit, akb->ncrit, id); }
int adv_hw_index(const struct adv_kb *akb, const char *id) { return ADV_FIND(akb->hw, akb->nhw, id); }
int adv_strategy_index(const struct adv_kb *akb, const char *id) { return ADV_FIND(akb->strat, akb->nstrat, id); }
int adv_runtime_index(const struct adv_kb *akb, const char *id) { return ADV_FIND(akb->rt, akb->nrt, id); }
int adv_source_index(const struct adv_kb *akb, const char *id) { return ADV_FIND(akb->sources, akb->nsources, id); }

const char *adv_kb_version(const struct adv_kb *akb) { return akb->version; }
int adv_kb_framework_count(const struct adv_kb *akb) { return akb->nfw; }
const char *adv_kb_framework_name(const struct adv_kb *akb, int i) { return akb->fw[i].name; }
const char *adv_kb_framework_id(const struct adv_kb *akb, int i) { return akb->fw[i].id; }
const char *adv_kb_framework_summary(const struct adv_kb *akb, int i) { return akb->fw[i].summary; }
int adv_kb_criterion_count(const struct adv_kb *akb) { return akb->ncrit; }
const char *adv_kb_criterion_id(const struct adv_kb *akb, int i) { return akb->crit[i].id; }
const char *adv_kb_criterion_name(const struct adv_kb *akb, int i) { return akb->crit[i].name; }
int adv_kb_score(const struct adv_kb *akb, int f, int c) { return akb->scores[f][c].present ? akb->scores[f][c].score : -1; }
const char *adv_kb_date(const struct adv_kb *akb) { return akb->date; }

const char *adv_source_title(const struct adv_kb *akb, const char *id)
{
    int i = adv_source_index(akb, id);
    return i >= 0 ? akb->sources[i].title : NULL;
}

unsigned adv_value_bit(enum ans_index key, const char *value)
{
    int i = ans_key_value_index(&ans_keys[key], value);
    return i >= 0 ? 1u << i : 0;
}

/* A comma-separated set as bits: of an answer key's values (key >= 0), or of hardware rows. Ids
 * are at most 64 characters (kb_valid_ident); a longer item names nothing. */
static unsigned set_bits(const struct adv_kb *akb, const char *text, int key)
{
    unsigned bits = 0;
    char item[80];
    for (const char *p = text ? text : ""; *p;) {
        size_t len = strcspn(p, ",");
        if (len < sizeof item) {
            memcpy(item, p, len);
            item[len] = '\0';
            int h = key >= 0 ? -1 : adv_hw_index(akb, item);
            if (key >= 0) bits |= adv_value_bit((enum ans_index)key, item);
            else if (h >= 0) bits |= 1u << h;
        }
        p += len + (p[len] == ',');
    }
    return bits;
}

/* --- loading ---------------------------------------------------------------------------- */

#define COL(st, i) ((const char *)sqlite3_column_text(st, i))

struct loader {
    kb *k;
    struct adv_kb *akb;
    char *err;
    size_t errsz;
    int status;
    struct adv_text_pair *texts; /* the Chinese twins read so far (malloc), handed to the adv_kb */
    int ntexts, texts_cap;
};

static sqlite3_stmt *query(struct loader *L, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(kb_db(L->k), sql, -1, &st, NULL);
    if (rc != SQLITE_OK) L->status = kb_db_error(L->k, rc, "loading the knowledge base", L->err, L->errsz);
    return st;
}

static int finish(struct loader *L, sqlite3_stmt *st, int rc)
{
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE && L->status == KB_OK)
        L->status = kb_db_error(L->k, rc, "loading the knowledge base", L->err, L->errsz);
    return L->status;
}

static int out_of_memory(struct loader *L)
{
    kb_errf(L->err, L->errsz, "out of memory loading the knowledge base");
    return L->status = KB_ERR_RUNTIME;
}

/* The number of rows of a table, into *n. The load's read transaction keeps it true while the
 * rows are read. A table over its structural limit (limit > 0) is refused, naming both. */
static int count_rows(struct loader *L, const char *table, int limit, int *n)
{
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    sqlite3_stmt *st = query(L, sql);
    if (!st) return L->status;
    int rc = sqlite3_step(st);
    long long rows = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    if (finish(L, st, rc == SQLITE_ROW ? SQLITE_DONE : rc)) return L->status;
    if (limit && rows > limit) {
        kb_errf(L->err, L->errsz, "database '%s': %s holds %lld rows; this build handles at most %d", kb_path(L->k), table,
                rows, limit);
        return L->status = KB_ERR_DB;
    }
    if (rows > INT_MAX / 2) return out_of_memory(L);
    *n = (int)rows;
    return KB_OK;
}

/* Zeroed room for n rows (and `extra` more) of size bytes, or NULL with L's status set. */
static void *room(struct loader *L, int n, int extra, size_t size)
{
    void *p = arena_calloc(L->akb, (size_t)n + (size_t)extra, size);
    if (!p) out_of_memory(L);
    return p;
}

/* A row beyond the count read before: the read transaction rules it out; kept as a guard. */
static int row_past_count(struct loader *L, sqlite3_stmt *st, const char *table)
{
    sqlite3_finalize(st);
    kb_errf(L->err, L->errsz, "database '%s': %s changed while it was read", kb_path(L->k), table);
    return L->status = KB_ERR_DB;
}

/* The rows just read are in strcmp order of their ids, as adv_find_id needs (ORDER BY id COLLATE
 * BINARY gives it; a file written by another tool might hold ids that compare otherwise). */
static int in_id_order(struct loader *L, const void *rows, int n, size_t size, const char *table)
{
    for (int i = 1; i < n; i++)
        if (strcmp(row_id(rows, size, i - 1), row_id(rows, size, i)) >= 0) {
            kb_errf(L->err, L->errsz, "database '%s': %s: ids '%s' and '%s' are not in order", kb_path(L->k), table,
                    row_id(rows, size, i - 1), row_id(rows, size, i));
            return L->status = KB_ERR_DB;
        }
    return KB_OK;
}
#define IN_ID_ORDER(L, rows, n, table) in_id_order((L), (rows), (n), sizeof *(rows), (table))

#define S(x) arena_strdup(akb, (x))

/* en (a text just copied into the arena) has the Chinese twin zh ("" or NULL: none); returns en. */
static const char *twin(struct loader *L, const char *en, const char *zh)
{
    if (!en || !zh || !*zh || L->status != KB_OK) return en;
    if (L->ntexts == L->texts_cap) {
        int cap = L->texts_cap ? 2 * L->texts_cap : 256;
        struct adv_text_pair *grown = realloc(L->texts, (size_t)cap * sizeof *grown);
        if (!grown) {
            out_of_memory(L);
            return en;
        }
        L->texts = grown;
        L->texts_cap = cap;
    }
    const char *copy = arena_strdup(L->akb, zh);
    if (!copy) {
        out_of_memory(L);
        return en;
    }
    L->texts[L->ntexts++] = (struct adv_text_pair){en, copy};
    return en;
}
#define TWIN(x, zh) twin(L, S(x), (zh))

static int pair_order(const void *x, const void *y)
{
    const struct adv_text_pair *a = x, *b = y;
    return strcmp(a->en, b->en);
}

const char *adv_kb_local(const struct adv_kb *akb, const char *en)
{
    if (!en || !akb || !akb->ntexts || i18n_lang() == I18N_EN) return en;
    struct adv_text_pair key = {en, NULL};
    const struct adv_text_pair *found = bsearch(&key, akb->texts, (size_t)akb->ntexts, sizeof key, pair_order);
    return found ? found->zh : en;
}

static int level_index(const char *name)
{
    for (int l = 0; name && l < LEVEL_COUNT; l++)
        if (strcmp(adv_level_names[l], name) == 0) return l;
    return LEVEL_NONE;
}

/* hw_support.os_support: {"windows": {"level", "since", "note", "source"}, ...}; -1 when malformed. */
static int load_os_levels(struct loader *L, struct adv_support *s, const char *text)
{
    struct adv_kb *akb = L->akb;
    cJSON *doc = cJSON_Parse(text && *text ? text : "{}");
    if (!cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        return -1;
    }
    for (const cJSON *e = doc->child; e; e = e->next) {
        unsigned bit = adv_value_bit(ANS_OS, e->string);
        if (!bit) continue;
        int i = 0;
        while (!(bit & (1u << i))) i++;
        if (i >= (int)(sizeof s->os / sizeof s->os[0])) continue;
        const cJSON *level = cJSON_GetObjectItemCaseSensitive(e, "level");
        s->os[i].present = 1;
        s->os[i].level = level_index(cJSON_IsString(level) ? level->valuestring : NULL);
        s->os[i].since = S(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "since")));
        s->os[i].note = TWIN(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "note")),
                             cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "note_zh")));
        s->os[i].source = S(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "source")));
    }
    cJSON_Delete(doc);
    return 0;
}

static int load_basic(struct loader *L)
{
    struct adv_kb *akb = L->akb;
    sqlite3_stmt *st;
    int rc;
    int cap;
    if (count_rows(L, "frameworks", ADV_MAX_FRAMEWORKS, &cap)) return L->status;
    if (!(st = query(L, "SELECT id, name, summary, summary_zh FROM frameworks ORDER BY id COLLATE BINARY"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nfw == cap) return row_past_count(L, st, "frameworks");
        akb->fw[akb->nfw].id = S(COL(st, 0));
        akb->fw[akb->nfw].name = S(COL(st, 1));
        akb->fw[akb->nfw++].summary = TWIN(COL(st, 2), COL(st, 3));
    }
    if (finish(L, st, rc) || IN_ID_ORDER(L, akb->fw, akb->nfw, "frameworks")) return L->status;
    if (count_rows(L, "criteria", 0, &cap) || !(akb->crit = room(L, cap, 0, sizeof *akb->crit))) return L->status;
    if (!(st = query(L, "SELECT id, name, weight, source, name_zh FROM criteria ORDER BY id COLLATE BINARY"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->ncrit == cap) return row_past_count(L, st, "criteria");
        akb->crit[akb->ncrit].id = S(COL(st, 0));
        akb->crit[akb->ncrit].name = TWIN(COL(st, 1), COL(st, 4));
        akb->crit[akb->ncrit].weight = sqlite3_column_double(st, 2);
        akb->crit[akb->ncrit++].source = S(COL(st, 3));
    }
    if (finish(L, st, rc) || IN_ID_ORDER(L, akb->crit, akb->ncrit, "criteria")) return L->status;
    if (count_rows(L, "hardware", ADV_MAX_HARDWARE, &cap)) return L->status;
    if (!(st = query(L, "SELECT id, name, name_zh FROM hardware ORDER BY id COLLATE BINARY"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nhw == cap) return row_past_count(L, st, "hardware");
        akb->hw[akb->nhw].id = S(COL(st, 0));
        akb->hw[akb->nhw++].name = TWIN(COL(st, 1), COL(st, 2));
    }
    if (finish(L, st, rc) || IN_ID_ORDER(L, akb->hw, akb->nhw, "hardware")) return L->status;
    for (int f = 0; f < akb->nfw; f++)
        if (!(akb->scores[f] = room(L, akb->ncrit, 0, sizeof *akb->scores[f]))) return L->status;
    if (!(st = query(L, "SELECT framework, criterion, score, note, source, also, note_zh FROM scores"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int f = adv_fw_index(akb, COL(st, 0)), c = crit_index(akb, COL(st, 1));
        if (f < 0 || c < 0) continue;
        struct adv_score *s = &akb->scores[f][c];
        s->present = 1;
        s->score = sqlite3_column_int(st, 2);
        s->note = TWIN(COL(st, 3), COL(st, 6));
        s->source = S(COL(st, 4));
        s->also = S(COL(st, 5));
    }
    if (finish(L, st, rc)) return L->status;
    if (!(st = query(L, "SELECT framework, hardware, level, fit, os_support, note, source, also, since, note_zh "
                        "FROM hw_support")))
        return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int f = adv_fw_index(akb, COL(st, 0)), h = adv_hw_index(akb, COL(st, 1));
        if (f < 0 || h < 0) continue;
        struct adv_support *s = &akb->support[f][h];
        s->present = 1;
        s->level = level_index(COL(st, 2));
        s->fit = sqlite3_column_int(st, 3);
        s->note = TWIN(COL(st, 5), COL(st, 9));
        s->source = S(COL(st, 6));
        s->also = S(COL(st, 7));
        s->since = S(COL(st, 8));
        if (load_os_levels(L, s, COL(st, 4))) {
            sqlite3_finalize(st);
            kb_errf(L->err, L->errsz, "hw_support %s/%s: os_support is not a valid object", akb->fw[f].id, akb->hw[h].id);
            return L->status = KB_ERR_DB;
        }
    }
    return finish(L, st, rc);
}

static int load_options(struct loader *L)
{
    struct adv_kb *akb = L->akb;
    sqlite3_stmt *st;
    int rc, cap;
    if (count_rows(L, "strategies", 0, &cap) || !(akb->strat = room(L, cap, 0, sizeof *akb->strat))) return L->status;
    if (!(st = query(L, "SELECT id, name, status, summary, memory_formula, source, replicated_bytes_per_param, "
                        "sharded_bytes_per_param, cpu_bytes_per_param, min_devices, tensor_parallel, kinds, name_zh, summary_zh "
                        "FROM strategies ORDER BY id COLLATE BINARY")))
        return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nstrat == cap) return row_past_count(L, st, "strategies");
        int i = akb->nstrat++;
        akb->strat[i].id = S(COL(st, 0));
        akb->strat[i].name = TWIN(COL(st, 1), COL(st, 12));
        akb->strat[i].status = S(COL(st, 2));
        akb->strat[i].summary = TWIN(COL(st, 3), COL(st, 13));
        akb->strat[i].formula = S(COL(st, 4));
        akb->strat[i].source = S(COL(st, 5));
        akb->strat[i].replicated = sqlite3_column_double(st, 6);
        akb->strat[i].sharded = sqlite3_column_double(st, 7);
        akb->strat[i].cpu = sqlite3_column_double(st, 8);
        akb->strat[i].min_devices = sqlite3_column_int(st, 9);
        akb->strat[i].tensor_parallel = sqlite3_column_int(st, 10);
        akb->strat[i].kinds = set_bits(akb, COL(st, 11), ANS_MODEL_KIND);
    }
    if (finish(L, st, rc) || IN_ID_ORDER(L, akb->strat, akb->nstrat, "strategies")) return L->status;
    if (!(st = query(L, "SELECT strategy, framework, hardware FROM strategy_frameworks"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int s = adv_strategy_index(akb, COL(st, 0)), f = adv_fw_index(akb, COL(st, 1));
        if (s < 0 || f < 0) continue;
        akb->strat[s].frameworks |= 1u << f;
        /* Rows upgraded from schema 2 name no hardware: taken as every platform. */
        unsigned hw = set_bits(akb, COL(st, 2), -1);
        akb->strat[s].hardware[f] = hw ? hw : ~0u;
    }
    if (finish(L, st, rc)) return L->status;
    if (count_rows(L, "runtimes", 0, &cap) || !(akb->rt = room(L, cap, 0, sizeof *akb->rt))) return L->status;
    if (!(st = query(L, "SELECT id, name, status, summary, source, targets, hardware, kinds, summary_zh FROM runtimes "
                        "ORDER BY id COLLATE BINARY")))
        return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nrt == cap) return row_past_count(L, st, "runtimes");
        int i = akb->nrt++;
        akb->rt[i].id = S(COL(st, 0));
        akb->rt[i].name = S(COL(st, 1));
        akb->rt[i].status = S(COL(st, 2));
        akb->rt[i].summary = TWIN(COL(st, 3), COL(st, 8));
        akb->rt[i].source = S(COL(st, 4));
        akb->rt[i].targets = set_bits(akb, COL(st, 5), ANS_DEPLOY);
        akb->rt[i].hardware = set_bits(akb, COL(st, 6), ANS_DEPLOY_HARDWARE);
        akb->rt[i].kinds = set_bits(akb, COL(st, 7), ANS_MODEL_KIND);
    }
    if (finish(L, st, rc) || IN_ID_ORDER(L, akb->rt, akb->nrt, "runtimes")) return L->status;
    if (!(st = query(L, "SELECT runtime, framework, path FROM runtime_frameworks"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int r = adv_runtime_index(akb, COL(st, 0)), f = adv_fw_index(akb, COL(st, 1));
        if (r < 0 || f < 0) continue;
        akb->rt[r].frameworks |= 1u << f;
        akb->rt[r].path[f] = PATH_CONVERTER;
        for (int p = PATH_INDIRECT; p <= PATH_NATIVE; p++)
            if (COL(st, 2) && strcmp(COL(st, 2), adv_path_names[p]) == 0) akb->rt[r].path[f] = (unsigned char)p;
    }
    if (finish(L, st, rc)) return L->status;
    if (count_rows(L, "accelerators", 0, &cap) || !(akb->acc = room(L, cap, 0, sizeof *akb->acc))) return L->status;
    if (!(st = query(L, "SELECT id, name, vendor, source, memory_gb, bf16_tflops, fp16_tflops, fp32_tflops, "
                        "planner_default, match, tf32_tflops, fp8_tflops, bandwidth_gbs, link_gbs, network_gbs, "
                        "interconnect, figures FROM accelerators ORDER BY id COLLATE BINARY")))
        return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nacc == cap) return row_past_count(L, st, "accelerators");
        int i = akb->nacc++;
        akb->acc[i].id = S(COL(st, 0));
        akb->acc[i].name = S(COL(st, 1));
        akb->acc[i].vendor = S(COL(st, 2));
        akb->acc[i].source = S(COL(st, 3));
        akb->acc[i].memory_gb = sqlite3_column_double(st, 4);
        akb->acc[i].bf16 = sqlite3_column_double(st, 5);
        akb->acc[i].fp16 = sqlite3_column_double(st, 6);
        akb->acc[i].fp32 = sqlite3_column_double(st, 7);
        akb->acc[i].planner_default = sqlite3_column_int(st, 8);
        akb->acc[i].match = S(COL(st, 9));
        akb->acc[i].tf32 = sqlite3_column_double(st, 10);
        akb->acc[i].fp8 = sqlite3_column_double(st, 11);
        akb->acc[i].bandwidth_gbs = sqlite3_column_double(st, 12);
        akb->acc[i].link_gbs = sqlite3_column_double(st, 13);
        akb->acc[i].network_gbs = sqlite3_column_double(st, 14);
        akb->acc[i].interconnect = S(COL(st, 15));
        akb->acc[i].figures = S(COL(st, 16));
    }
    return finish(L, st, rc) ? L->status : IN_ID_ORDER(L, akb->acc, akb->nacc, "accelerators");
}

static int load_rules(struct loader *L)
{
    struct adv_kb *akb = L->akb;
    sqlite3_stmt *st;
    int rc, cap;
    if (count_rows(L, "rules", 0, &cap) || !(akb->rules = room(L, cap, 0, sizeof *akb->rules))) return L->status;
    if (!(st = query(L, "SELECT id, kind, title, text, source, condition, effect, priority, also, title_zh, text_zh "
                        "FROM rules ORDER BY kind, priority, id")))
        return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nrules == cap) return row_past_count(L, st, "rules");
        int i = akb->nrules;
        akb->rules[i].cond = cJSON_Parse(COL(st, 5));
        akb->rules[i].effect = cJSON_Parse(COL(st, 6));
        if (!akb->rules[i].cond || !akb->rules[i].effect) {
            cJSON_Delete(akb->rules[i].cond);
            cJSON_Delete(akb->rules[i].effect);
            kb_errf(L->err, L->errsz, "rule '%s': condition or effect is not valid JSON", COL(st, 0));
            sqlite3_finalize(st);
            return L->status = KB_ERR_DB;
        }
        akb->nrules++;
        akb->rules[i].id = S(COL(st, 0));
        akb->rules[i].kind = S(COL(st, 1));
        akb->rules[i].title = TWIN(COL(st, 2), COL(st, 9));
        akb->rules[i].text = TWIN(COL(st, 3), COL(st, 10));
        akb->rules[i].source = S(COL(st, 4));
        akb->rules[i].priority = sqlite3_column_int(st, 7);
        akb->rules[i].also = S(COL(st, 8));
    }
    if (finish(L, st, rc)) return L->status;
    if (count_rows(L, "sources", 0, &cap) || !(akb->sources = room(L, cap, 0, sizeof *akb->sources))) return L->status;
    if (!(st = query(L, "SELECT id, title, url, published FROM sources ORDER BY id COLLATE BINARY"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nsources == cap) return row_past_count(L, st, "sources");
        akb->sources[akb->nsources].id = S(COL(st, 0));
        akb->sources[akb->nsources].title = S(COL(st, 1));
        akb->sources[akb->nsources].url = S(COL(st, 2));
        akb->sources[akb->nsources++].published = S(COL(st, 3));
    }
    return finish(L, st, rc) ? L->status : IN_ID_ORDER(L, akb->sources, akb->nsources, "sources");
}

static int fact_order(const void *x, const void *y)
{
    const struct adv_fact_row *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->rule > b->rule) - (a->rule < b->rule);
}

/* The facts of every rule's effect, sorted by name and rule (struct adv_kb's facts). */
static int index_facts(struct loader *L)
{
    struct adv_kb *akb = L->akb;
    int n = 0;
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *v;
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "facts")) n += cJSON_IsNumber(v) && v->string;
    }
    if (!(akb->facts = room(L, n, 0, sizeof *akb->facts))) return L->status;
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *v;
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "facts")) {
            if (!cJSON_IsNumber(v) || !v->string) continue;
            akb->facts[akb->nfacts++] = (struct adv_fact_row){v->string, v->valuedouble, i};
        }
    }
    qsort(akb->facts, (size_t)akb->nfacts, sizeof *akb->facts, fact_order);
    return KB_OK;
}

/* The working space of adv_rank and adv_recommend (struct adv_work), for the counts loaded. */
static int make_work(struct loader *L)
{
    struct adv_kb *akb = L->akb;
    struct adv_work *w = &akb->work;
    if (!(w->applies = room(L, akb->nrules, 0, sizeof *w->applies)) ||
        !(w->claimed = room(L, akb->nrules, 0, sizeof *w->claimed)) ||
        !(w->weights = room(L, akb->ncrit, 0, sizeof *w->weights)) ||
        !(w->mean = room(L, akb->ncrit, 0, sizeof *w->mean)) ||
        !(w->counted = room(L, akb->ncrit, 0, sizeof *w->counted)) ||
        !(w->exact = room(L, akb->ncrit, 1, sizeof *w->exact)) ||
        !(w->rounded = room(L, akb->ncrit, 1, sizeof *w->rounded)) ||
        !(w->cands = room(L, akb->nstrat, 1, sizeof *w->cands)) ||
        !(w->cand_index = room(L, akb->nstrat, 1, sizeof *w->cand_index)) ||
        !(w->cand_used = room(L, akb->nstrat, 1, sizeof *w->cand_used)) ||
        !(w->strategy_points = room(L, akb->nstrat, 0, sizeof *w->strategy_points)) ||
        !(w->runtime_points = room(L, akb->nrt, 0, sizeof *w->runtime_points)))
        return L->status;
    return KB_OK;
}

int adv_kb_load(kb *k, struct adv_kb **out, char *err, size_t errsz)
{
    *out = NULL;
    struct adv_kb *akb = calloc(1, sizeof *akb);
    if (!akb) {
        kb_errf(err, errsz, "out of memory");
        return KB_ERR_RUNTIME;
    }
    struct loader L = {.k = k, .akb = akb, .err = err, .errsz = errsz, .status = KB_OK};
    /* One read transaction: the tables are counted, then read, as of one moment. */
    int rc = kb_exec(kb_db(k), "BEGIN");
    if (rc != SQLITE_OK) {
        L.status = kb_db_error(k, rc, "loading the knowledge base", err, errsz);
    } else {
        if (!load_basic(&L) && !load_options(&L) && !load_rules(&L) && !index_facts(&L)) make_work(&L);
        /* The Chinese twins, sorted by their English for adv_kb_local. */
        if (L.ntexts) qsort(L.texts, (size_t)L.ntexts, sizeof *L.texts, pair_order);
        akb->texts = L.texts;
        akb->ntexts = L.ntexts;
        L.texts = NULL;
        kb_exec(kb_db(k), L.status == KB_OK ? "COMMIT" : "ROLLBACK");
    }
    if (L.status != KB_OK) {
        adv_kb_free(akb);
        return L.status;
    }
    kb_version(k, akb->version, sizeof akb->version, akb->date, sizeof akb->date);
    *out = akb;
    return KB_OK;
}

/* --- the answers' ids --------------------------------------------------------------------- */

_Static_assert(ANS_ID_LIST_MAX == ADV_MAX_FRAMEWORKS, "a team may name every framework the advisor holds");

int adv_check_answer_ids(const struct adv_kb *akb, const struct answers *a, char *err, size_t errsz)
{
    for (int i = 0; i < ans_key_count; i++) {
        const struct ans_key *key = &ans_keys[i];
        if (key->type != ANS_ID_LIST || strcmp(key->table, "frameworks") != 0) continue;
        for (int k = 0; k < answers_id_count(a, (enum ans_index)i); k++) {
            const char *id = answers_id(a, (enum ans_index)i, k);
            if (ans_key_allows(key, id) || adv_fw_index(akb, id) >= 0) continue;
            struct suggest sg;
            suggest_init(&sg, id);
            for (int f = 0; f < akb->nfw; f++) suggest_offer(&sg, akb->fw[f].id);
            if (suggest_result(&sg))
                snprintf(err, errsz, "key '%s': '%s' is not a %s of the knowledge base (did you mean '%s'? fwadvisor kb list %s)",
                         key->name, id, key->noun, suggest_result(&sg), key->table);
            else
                snprintf(err, errsz, "key '%s': '%s' is not a %s of the knowledge base (fwadvisor kb list %s)", key->name, id,
                         key->noun, key->table);
            return KB_ERR_INPUT;
        }
    }
    return KB_OK;
}

/* --- facts ------------------------------------------------------------------------------ */

int adv_fact(const struct adv_kb *akb, const struct answers *a, const char *name, double *value, int *rule)
{
    /* The first row of the name (a lower bound), then its rules in order: the highest priority
     * that holds, the first of equals. */
    int lo = 0, hi = akb->nfacts, best = -1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(akb->facts[mid].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    for (int i = lo; i < akb->nfacts && strcmp(akb->facts[i].name, name) == 0; i++) {
        int r = akb->facts[i].rule;
        if (best >= 0 && akb->rules[r].priority <= akb->rules[akb->facts[best].rule].priority) continue;
        if (answers_match(a, akb->rules[r].cond)) best = i;
    }
    if (best < 0) return 0;
    *value = akb->facts[best].value;
    if (rule) *rule = akb->facts[best].rule;
    return 1;
}

const unsigned char *adv_applicable(const struct adv_kb *akb, const struct answers *a)
{
    unsigned char *applies = akb->work.applies;
    for (int i = 0; i < akb->nrules; i++) applies[i] = (unsigned char)answers_match(a, akb->rules[i].cond);
    return applies;
}

double adv_fact_or(const struct adv_kb *akb, const struct answers *a, const char *name, double fallback)
{
    double v;
    return adv_fact(akb, a, name, &v, NULL) ? v : fallback;
}

const struct adv_support *adv_support_for(const struct adv_kb *akb, int f, int h, const char *os, int *level,
                                          const struct adv_os_level **os_entry)
{
    if (os_entry) *os_entry = NULL;
    if (f < 0 || h < 0 || !akb->support[f][h].present) {
        *level = LEVEL_NONE;
        return NULL;
    }
    const struct adv_support *sup = &akb->support[f][h];
    *level = sup->level;
    unsigned bit = adv_value_bit(ANS_OS, os);
    for (int i = 0; bit && i < (int)(sizeof sup->os / sizeof sup->os[0]); i++) {
        if (!(bit & (1u << i)) || !sup->os[i].present) continue;
        *level = sup->os[i].level;
        if (os_entry) *os_entry = &sup->os[i];
    }
    return sup;
}

int adv_strategy_runs_on(const struct adv_kb *akb, int s, int fw, int h)
{
    if (fw >= 0) return (akb->strat[s].frameworks & (1u << fw)) && h >= 0 && (akb->strat[s].hardware[fw] & (1u << h));
    for (int f = 0; f < akb->nfw; f++)
        if (adv_strategy_runs_on(akb, s, f, h)) return 1;
    return 0;
}

/* --- ranking ---------------------------------------------------------------------------- */

/* Adds delta to the last reason, which sums the reasons not listed. */
static void add_unlisted(struct adv_framework *f, int delta_tenths)
{
    struct adv_reason *rest = &f->reasons[ADV_MAX_REASONS - 1];
    rest->delta_tenths += delta_tenths;
    f->unlisted++;
    ADV_REASONF(NULL, rest, "%d further reasons, each smaller than those listed", f->unlisted);
}

/* With every slot taken (a knowledge base with many criteria or rules), the last slot sums the
 * reasons not listed, and the listed reason of the least size gives way to a larger one: returns
 * its slot when it is smaller than `size` (or whatever its size, with must_list), else NULL. */
static struct adv_reason *make_room(struct adv_framework *f, int size, int must_list)
{
    struct adv_reason *rest = &f->reasons[ADV_MAX_REASONS - 1];
    if (!f->unlisted) { /* the last reason becomes the first of those not listed */
        int delta = rest->delta_tenths;
        *rest = (struct adv_reason){.delta_tenths = 0};
        add_unlisted(f, delta);
    }
    int least = 0;
    for (int i = 1; i < ADV_MAX_REASONS - 1; i++)
        if (abs(f->reasons[i].delta_tenths) < abs(f->reasons[least].delta_tenths)) least = i;
    if (!must_list && abs(f->reasons[least].delta_tenths) >= size) return NULL;
    add_unlisted(f, f->reasons[least].delta_tenths);
    return &f->reasons[least];
}

/* A reason for framework f, counted in its score; NULL when it is summed with others instead
 * (make_room), so the caller has no label to write. must_list: it is listed in any case. */
static struct adv_reason *add_reason_as(struct adv_framework *f, int delta_tenths, const char *detail,
                                        const char *source, int must_list)
{
    f->score_tenths += delta_tenths;
    struct adv_reason *r = f->nreasons < ADV_MAX_REASONS ? &f->reasons[f->nreasons++]
                                                         : make_room(f, abs(delta_tenths), must_list);
    if (!r) {
        add_unlisted(f, delta_tenths);
        return NULL;
    }
    r->label[0] = r->label_local[0] = '\0';
    r->detail = detail;
    r->delta_tenths = delta_tenths;
    r->source = source;
    r->also = NULL;
    return r;
}

static struct adv_reason *add_reason(struct adv_framework *f, int delta_tenths, const char *detail,
                                     const char *source)
{
    return add_reason_as(f, delta_tenths, detail, source, 0);
}

/* Points x 10 as an int. The knowledge base bounds every rule's points (rules.c), so real values
 * are small; the clamp keeps any other input (NaN included) from overflowing the conversion. */
static int tenths(double points)
{
    if (!(points >= -1e6)) return points > 0 ? 10000000 : -10000000 * !isnan(points);
    if (points > 1e6) return 10000000;
    return (int)lround(points * 10);
}

static int compare_frameworks(const void *pa, const void *pb)
{
    const struct adv_framework *a = pa, *b = pb;
    if (a->excluded != b->excluded) return a->excluded - b->excluded;
    if (a->score_tenths != b->score_tenths) return b->score_tenths - a->score_tenths;
    return strcmp(a->id, b->id);
}

/* Everything adv_rank works out once for all frameworks. */
struct rank_ctx {
    const struct adv_kb *akb;
    const struct answers *a;
    const unsigned char *applies;
    int h;                                /* hardware index, -1 unknown */
    const char *os, *deploy;
    unsigned deploy_mask, kind_bit, hw_deploy_bit;
    const double *weights;                /* per criterion (adv_criterion_weights) */
    double total_weight;
    const double *mean;                   /* per criterion: the eligible frameworks' mean score */
    const int *counted;                   /* per criterion: how many of them have one */
    double familiar[ADV_MAX_FRAMEWORKS];  /* 0..1: how well the team knows each framework */
    int familiar_rule[ADV_MAX_FRAMEWORKS];
    int team_knows_any;
    const char *method_source;
    const struct adv_fw_speeds *speeds;   /* measured on this machine, or NULL */
};

/* The team's familiarity with each framework: the largest share any applicable rule's
 * "familiar" effect gives it (the team rules of seed 000). */
static void team_familiarity(struct rank_ctx *c)
{
    const struct adv_kb *akb = c->akb;
    for (int f = 0; f < akb->nfw; f++) c->familiar_rule[f] = -1;
    for (int i = 0; i < akb->nrules; i++) {
        if (!c->applies[i]) continue; /* the cheap test first: most rules do not hold */
        const cJSON *fam = cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "familiar");
        if (!fam) continue;
        for (const cJSON *e = fam->child; e; e = e->next) {
            int f = adv_fw_index(akb, e->string);
            if (f < 0 || !cJSON_IsNumber(e)) continue;
            double v = e->valuedouble < 0 ? 0 : e->valuedouble > 1 ? 1 : e->valuedouble;
            if (v > c->familiar[f]) {
                c->familiar[f] = v;
                c->familiar_rule[f] = i;
            }
            if (v >= 1) c->team_knows_any = 1;
        }
    }
}

/* The score framework f has on criterion k for these answers, or -1: hardware_fit from the
 * support matrix, learning_curve raised to 10 x familiarity for a framework the team knows. */
static int criterion_score(const struct rank_ctx *c, int f, int k)
{
    const struct adv_kb *akb = c->akb;
    if (strcmp(akb->crit[k].id, HARDWARE_FIT) == 0)
        return c->h >= 0 && akb->support[f][c->h].present ? akb->support[f][c->h].fit : -1;
    if (!akb->scores[f][k].present) return -1;
    int score = akb->scores[f][k].score;
    if (strcmp(akb->crit[k].id, LEARNING_CURVE) == 0 && c->familiar[f] > 0) {
        int known = (int)lround(10 * c->familiar[f]);
        if (known > score) score = known;
    }
    return score;
}

int adv_answer_score(const struct adv_kb *akb, const char *hardware, int f, int k)
{
    struct rank_ctx c = {.akb = akb, .h = hardware ? adv_hw_index(akb, hardware) : -1};
    return criterion_score(&c, f, k);
}

/* Why framework f cannot take part: no support for the hardware (on this OS), or a rule
 * excludes it. Returns 1 and records the reason when excluded. */
static int exclusion(const struct rank_ctx *c, int f, struct adv_framework *fr)
{
    const struct adv_kb *akb = c->akb;
    int level;
    const struct adv_os_level *os_entry;
    const struct adv_support *sup = c->h >= 0 ? adv_support_for(akb, f, c->h, c->os, &level, &os_entry) : NULL;
    if (c->h >= 0 && level == LEVEL_NONE) {
        struct adv_reason *r = add_reason(fr, 0, os_entry ? os_entry->note : sup ? sup->note : NULL,
                                          os_entry ? os_entry->source : sup ? sup->source : NULL);
        if (r && os_entry) ADV_REASONF(akb, r, "Excluded: no %s support on %s under %s", fr->name, akb->hw[c->h].name, c->os);
        else if (r) ADV_REASONF(akb, r, "Excluded: no %s support on %s", fr->name, akb->hw[c->h].name);
        if (r && !os_entry && sup) r->also = sup->also;
        return 1;
    }
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *id;
        if (!c->applies[i]) continue; /* only a rule that holds excludes */
        cJSON_ArrayForEach(id, cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "exclude")) {
            if (!cJSON_IsString(id) || strcmp(id->valuestring, fr->id) != 0) continue;
            struct adv_reason *r = add_reason(fr, 0, akb->rules[i].text, akb->rules[i].source);
            if (r) {
                ADV_REASONF(akb, r, "Excluded");
                r->also = akb->rules[i].also;
            }
            return 1;
        }
    }
    return 0;
}

static const char *fw_name(const void *ctx, const char *id)
{
    const struct adv_kb *akb = ctx;
    int f = adv_fw_index(akb, id);
    return f >= 0 ? akb->fw[f].name : id;
}

/* The eligible frameworks' mean score on each criterion and how many have one, into c: what every
 * framework's criteria are signed against. */
static void criteria_means(struct rank_ctx *c, const int *eligible)
{
    const struct adv_kb *akb = c->akb;
    double *mean = akb->work.mean;
    int *counted = akb->work.counted;
    for (int k = 0; k < akb->ncrit; k++) {
        double sum = 0;
        counted[k] = 0;
        for (int g = 0; g < akb->nfw; g++) {
            int v = eligible[g] ? criterion_score(c, g, k) : -1;
            if (v >= 0) sum += v, counted[k]++;
        }
        mean[k] = counted[k] ? sum / counted[k] : 0;
    }
    c->mean = mean;
    c->counted = counted;
}

/* The weighted criteria, signed against the mean of the eligible frameworks: a baseline reason
 * (the mean framework's points) and one reason per criterion. */
static void criteria_reasons(const struct rank_ctx *c, int f, struct adv_framework *fr, double criteria_points)
{
    const struct adv_kb *akb = c->akb;
    if (c->total_weight <= 0) return;
    const double *mean = c->mean;
    const int *counted = c->counted;
    double base = 0;
    for (int k = 0; k < akb->ncrit; k++) base += criteria_points * c->weights[k] * mean[k] / (10.0 * c->total_weight);
    /* Each reason is rounded to a tenth so that together they round like the exact total: the
     * score then does not depend on which frameworks form the average. */
    double *exact = akb->work.exact;
    int *rounded = akb->work.rounded, n = 0;
    exact[n++] = base;
    for (int k = 0; k < akb->ncrit; k++) {
        int v = criterion_score(c, f, k);
        if (v >= 0 && counted[k]) exact[n++] = criteria_points * c->weights[k] * (v - mean[k]) / (10.0 * c->total_weight);
    }
    double total = 0;
    int sum = 0;
    for (int i = 0; i < n; i++) {
        total += exact[i];
        sum += rounded[i] = tenths(exact[i]);
    }
    for (int left = tenths(total) - sum; left != 0; left += left > 0 ? -1 : 1) {
        int pick = 0; /* the reason rounded furthest from the direction the sum must move */
        for (int i = 1; i < n; i++)
            if ((rounded[i] - exact[i] * 10) * (left > 0 ? -1 : 1) > (rounded[pick] - exact[pick] * 10) * (left > 0 ? -1 : 1))
                pick = i;
        rounded[pick] += left > 0 ? 1 : -1;
    }
    struct adv_reason *r = add_reason(fr, rounded[0], NULL, c->method_source);
    if (r) ADV_REASONF(akb, r, "Baseline: the weighted criteria of an average framework (of those that can run here)");
    for (int k = 0, i = 1; k < akb->ncrit; k++) {
        int v = criterion_score(c, f, k);
        if (v < 0 || !counted[k]) continue;
        int pts = rounded[i++];
        int is_fit = strcmp(akb->crit[k].id, HARDWARE_FIT) == 0;
        const struct adv_support *sup = is_fit ? &akb->support[f][c->h] : NULL;
        const struct adv_score *sc = &akb->scores[f][k];
        r = add_reason(fr, pts, is_fit ? sup->note : sc->note, is_fit ? sup->source : sc->source);
        if (!r) continue;
        r->also = is_fit ? sup->also : sc->also;
        if (is_fit)
            ADV_REASONF(akb, r, "%s on %s %d/10 (average %.1f, weight %.3g)", akb->crit[k].name, akb->hw[c->h].name, v,
                        mean[k], c->weights[k]);
        else if (sc->present && v != sc->score)
            ADV_REASONF(akb, r, "%s %d/10 for a team that knows it (%d/10 otherwise; average %.1f, weight %.3g)",
                        akb->crit[k].name, v, sc->score, mean[k], c->weights[k]);
        else
            ADV_REASONF(akb, r, "%s %d/10 (average %.1f, weight %.3g)", akb->crit[k].name, v, mean[k], c->weights[k]);
        char measured[256];
        const char *hw = answers_str(c->a, ANS_HARDWARE);
        if (strcmp(akb->crit[k].id, SINGLE_DEVICE_SPEED) == 0 &&
            adv_measured_speed(c->speeds, hw, fr->id, fw_name, akb, measured, sizeof measured)) {
            size_t used = strlen(r->label);
            snprintf(r->label + used, sizeof r->label - used, "; measured: %s", measured);
            adv_utf8_trim(r->label);
            if (i18n_lang() != I18N_EN) {
                adv_measured_speed_in(c->speeds, hw, fr->id, fw_name, akb, 1, measured, sizeof measured);
                used = strlen(r->label_local);
                snprintf(r->label_local + used, sizeof r->label_local - used, _("; measured: %s"), measured);
                adv_utf8_trim(r->label_local);
            }
        }
    }
}

/* A need framework f cannot meet: no runtime takes it to the deployment target on the serving
 * hardware for this kind of model, or none of its strategies fits the model states into device
 * memory on this hardware. */
static void unmet_needs(const struct rank_ctx *c, int f, struct adv_framework *fr)
{
    const struct adv_kb *akb = c->akb;
    const struct answers *a = c->a;
    if (c->deploy_mask) {
        int any = 0;
        for (int r = 0; r < akb->nrt && !any; r++)
            any = (akb->rt[r].targets & c->deploy_mask) && akb->rt[r].path[f] != PATH_NONE &&
                  (!akb->rt[r].hardware || !c->hw_deploy_bit || (akb->rt[r].hardware & c->hw_deploy_bit)) &&
                  (!akb->rt[r].kinds || (akb->rt[r].kinds & c->kind_bit));
        double points = adv_fact_or(akb, a, "no_runtime", 0);
        if (!any && points != 0) {
            struct adv_reason *r = add_reason(fr, tenths(points), NULL, c->method_source);
            if (r)
                ADV_REASONF(akb, r, "Cannot deploy: no runtime in the knowledge base takes %s %s models to %s on %s",
                            fr->name, answers_str(a, ANS_MODEL_KIND), c->deploy, answers_str(a, ANS_DEPLOY_HARDWARE));
        }
    }
    double device_gb = answers_has(a, ANS_DEVICE_MEMORY_GB) ? answers_num(a, ANS_DEVICE_MEMORY_GB) : 0;
    double P = answers_num(a, ANS_MODEL_PARAMS), D = answers_num(a, ANS_DEVICES);
    double points = adv_fact_or(akb, a, "no_fit", 0);
    /* Serving only trains nothing: no framework loses points for training states it never holds. */
    if (device_gb <= 0 || D < 1 || c->h < 0 || points == 0 || adv_job_of(a) == ADV_JOB_SERVE) return;
    /* Under LoRA and QLoRA the frozen base is the model states (bf16, or NF4 with its constants);
     * the adapters' few states are left to the plan. */
    const char *ft = answers_str(a, ANS_FINETUNE);
    double frozen = !ft || strcmp(ft, "full") == 0 ? 0
                    : strcmp(ft, "qlora") == 0     ? adv_fact_or(akb, a, "nf4_bits_per_param", 4.127) / 8
                                                   : 2;
    double best = -1;
    const char *best_id = NULL;
    for (int s = 0; s < akb->nstrat; s++) {
        if (!adv_strategy_runs_on(akb, s, f, c->h) || akb->strat[s].min_devices > D) continue;
        if (strcmp(akb->strat[s].status, "current") != 0 && strcmp(akb->strat[s].status, "maintenance") != 0) continue;
        if (akb->strat[s].kinds && !(akb->strat[s].kinds & c->kind_bit)) continue;
        double gb = (akb->strat[s].replicated * P + akb->strat[s].sharded * P / D) / 1e9;
        if (frozen > 0) gb = (akb->strat[s].replicated > 0 ? frozen * P : frozen * P / D) / 1e9;
        if (best < 0 || gb < best) best = gb, best_id = akb->strat[s].id;
    }
    if (best_id && best <= device_gb) return;
    struct adv_reason *r = add_reason(fr, tenths(points), NULL, c->method_source);
    if (!r) return;
    if (best_id)
        ADV_REASONF(akb, r,
                    "Cannot fit: with %s's strategies on %s the model states alone need %.1f GB per device (%s), more than %.0f GB",
                    fr->name, akb->hw[c->h].name, best, best_id, device_gb);
    else
        ADV_REASONF(akb, r, "Cannot scale: %s offers no distributed strategy for %g %s devices", fr->name, D,
                    akb->hw[c->h].name);
}

/* Seed 000's first rule: choose what the team knows. A framework the team knows earns
 * familiar_points (a share for a related one, fastai for PyTorch users); when the team names
 * what it knows, a framework it would have to learn costs switching_points (seed 003's migration
 * cost). An empty team means unknown: neither applies. */
static void team_reasons(const struct rank_ctx *c, int f, struct adv_framework *fr)
{
    const struct adv_kb *akb = c->akb;
    if (c->familiar[f] > 0) {
        int i = c->familiar_rule[f];
        struct adv_reason *r =
            add_reason(fr, tenths(adv_fact_or(akb, c->a, "familiar_points", 0) * c->familiar[f]), akb->rules[i].text, akb->rules[i].source);
        if (r) {
            r->also = akb->rules[i].also;
            if (c->familiar[f] >= 1) ADV_REASONF(akb, r, "Your team knows %s", fr->name);
            else ADV_REASONF(akb, r, "Your team knows a framework close to %s", fr->name);
        }
    } else if (c->team_knows_any) {
        double points = adv_fact_or(akb, c->a, "switching_points", 0);
        int rule = -1;
        double unused;
        adv_fact(akb, c->a, "switching_points", &unused, &rule);
        struct adv_reason *r = points != 0 ? add_reason(fr, tenths(points), rule >= 0 ? akb->rules[rule].text : NULL,
                                                        rule >= 0 ? akb->rules[rule].source : c->method_source)
                                           : NULL;
        if (r) ADV_REASONF(akb, r, "Your team would have to learn %s", fr->name);
    }
}

/* The rules' points for framework f: every applicable rule counts, except that rules sharing a
 * claim count once (the first, in kind and priority order). */
static void rule_reasons(const struct rank_ctx *c, struct adv_framework *fr)
{
    const struct adv_kb *akb = c->akb;
    const char **claimed = akb->work.claimed;
    int nclaimed = 0;
    for (int i = 0; i < akb->nrules; i++) {
        if (!c->applies[i]) continue;
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "score"), fr->id);
        if (!cJSON_IsNumber(d)) continue;
        const char *claim = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "claim"));
        int seen = 0;
        for (int k = 0; claim && k < nclaimed; k++) seen |= strcmp(claimed[k], claim) == 0;
        if (seen) continue;
        if (claim) claimed[nclaimed++] = claim;
        struct adv_reason *r = add_reason(fr, tenths(d->valuedouble), akb->rules[i].text, akb->rules[i].source);
        if (!r) continue;
        r->also = akb->rules[i].also;
        adv_reason_label(akb, r, *akb->rules[i].title ? akb->rules[i].title : akb->rules[i].id);
    }
}

/* The support level's points on this hardware and OS (first-class costs nothing). */
static void support_reasons(const struct rank_ctx *c, int f, struct adv_framework *fr, const double *level_points)
{
    const struct adv_kb *akb = c->akb;
    int level;
    const struct adv_os_level *os_entry;
    const struct adv_support *sup = c->h >= 0 ? adv_support_for(akb, f, c->h, c->os, &level, &os_entry) : NULL;
    if (!sup || level_points[level] == 0) return;
    struct adv_reason *r = add_reason(fr, tenths(level_points[level]), os_entry ? os_entry->note : sup->note,
                                      os_entry ? os_entry->source : sup->source);
    if (!r) return;
    if (os_entry)
        if (*os_entry->since)
            ADV_REASONF(akb, r, "%s support under %s: %s since %s", akb->hw[c->h].name, c->os, adv_level_names[level],
                        os_entry->since);
        else
            ADV_REASONF(akb, r, "%s support under %s: %s", akb->hw[c->h].name, c->os, adv_level_names[level]);
    else {
        r->also = sup->also;
        ADV_REASONF(akb, r, "%s support: %s", akb->hw[c->h].name, adv_level_names[level]);
    }
}

/* The criteria's weights into out: base x the factors of every weight rule that holds (applies,
 * or NULL to test each weight rule's condition here), kept within 1e-6..1e6. */
static void weigh_criteria(const struct adv_kb *akb, const struct answers *a, const unsigned char *applies, double *out)
{
    for (int k = 0; k < akb->ncrit; k++) out[k] = akb->crit[k].weight;
    for (int i = 0; i < akb->nrules; i++) {
        if (applies && !applies[i]) continue;
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "weight");
        if (!w || !(applies || answers_match(a, akb->rules[i].cond))) continue;
        for (const cJSON *e = w->child; e; e = e->next) {
            int k = crit_index(akb, e->string);
            if (k >= 0 && cJSON_IsNumber(e)) out[k] *= e->valuedouble;
        }
    }
    for (int k = 0; k < akb->ncrit; k++) /* many compounding weight rules stay finite */
        out[k] = out[k] < 1e-6 ? 1e-6 : out[k] > 1e6 ? 1e6 : out[k];
}

void adv_criterion_weights(const struct adv_kb *akb, const struct answers *resolved, double *out)
{
    weigh_criteria(akb, resolved, NULL, out);
}

void adv_rank(const struct adv_kb *akb, const struct answers *a, struct adv_ranking *out)
{
    adv_rank_measured(akb, a, NULL, out);
}

void adv_rank_measured(const struct adv_kb *akb, const struct answers *a, const struct adv_fw_speeds *speeds,
                       struct adv_ranking *out)
{
    out->count = 0; /* each item is cleared as it is added, each reason set whole: no 0.5 MB memset a keystroke */
    const unsigned char *applies = adv_applicable(akb, a);
    struct rank_ctx c;
    memset(&c, 0, sizeof c);
    c.akb = akb;
    c.a = a;
    c.applies = applies;
    c.speeds = speeds;
    const char *hardware = answers_str(a, ANS_HARDWARE);
    c.h = hardware ? adv_hw_index(akb, hardware) : -1;
    c.os = answers_str(a, ANS_OS);
    c.deploy = answers_str(a, ANS_DEPLOY);
    c.deploy_mask = c.deploy && strcmp(c.deploy, "none") != 0 ? adv_value_bit(ANS_DEPLOY, c.deploy) : 0;
    c.kind_bit = adv_value_bit(ANS_MODEL_KIND, answers_str(a, ANS_MODEL_KIND));
    const char *dh = answers_str(a, ANS_DEPLOY_HARDWARE);
    c.hw_deploy_bit = dh && strcmp(dh, "auto") != 0 ? adv_value_bit(ANS_DEPLOY_HARDWARE, dh) : 0;

    weigh_criteria(akb, a, applies, akb->work.weights);
    c.weights = akb->work.weights;
    for (int k = 0; k < akb->ncrit; k++) c.total_weight += c.weights[k];
    double criteria_points = adv_fact_or(akb, a, "criteria_points", 60);
    double level_points[LEVEL_COUNT] = {0, adv_fact_or(akb, a, "level_supported", 0), adv_fact_or(akb, a, "level_experimental", 0),
                                        adv_fact_or(akb, a, "level_community", 0), 0};
    int method_rule = -1;
    double unused;
    adv_fact(akb, a, "criteria_points", &unused, &method_rule);
    c.method_source = method_rule >= 0 ? akb->rules[method_rule].source : NULL;
    team_familiarity(&c);

    int eligible[ADV_MAX_FRAMEWORKS] = {0};
    for (int f = 0; f < akb->nfw; f++) {
        struct adv_framework *fr = &out->items[out->count++];
        memset(fr, 0, offsetof(struct adv_framework, reasons));
        fr->id = akb->fw[f].id;
        fr->name = akb->fw[f].name;
        fr->excluded = exclusion(&c, f, fr);
        eligible[f] = !fr->excluded;
    }
    criteria_means(&c, eligible);
    for (int f = 0; f < akb->nfw; f++) {
        struct adv_framework *fr = &out->items[f];
        if (fr->excluded) continue;
        criteria_reasons(&c, f, fr, criteria_points);
        support_reasons(&c, f, fr, level_points);
        unmet_needs(&c, f, fr);
        team_reasons(&c, f, fr);
        rule_reasons(&c, fr);
        /* Keep the score in 0..100 with a reason, so the reasons still add up. */
        if (fr->score_tenths > 1000 || fr->score_tenths < 0) {
            int delta = fr->score_tenths > 1000 ? 1000 - fr->score_tenths : -fr->score_tenths;
            struct adv_reason *r = add_reason_as(fr, delta, NULL, c.method_source, 1); /* the cap is always listed */
            if (delta < 0) ADV_REASONF(akb, r, "Capped at 100");
            else ADV_REASONF(akb, r, "Floored at 0");
        }
    }
    qsort(out->items, (size_t)out->count, sizeof out->items[0], compare_frameworks);
}

void adv_utf8_trim(char *s)
{
    size_t n = strlen(s);
    if (n == 0) return;
    /* Find the start of the last character and check its sequence is complete. */
    size_t start = n - 1;
    while (start > 0 && ((unsigned char)s[start] & 0xc0) == 0x80) start--;
    unsigned char lead = (unsigned char)s[start];
    size_t need = lead < 0x80 ? 1 : (lead & 0xe0) == 0xc0 ? 2 : (lead & 0xf0) == 0xe0 ? 3 : (lead & 0xf8) == 0xf0 ? 4 : 1;
    if (n - start < need) s[start] = '\0';
}

static int by_size(const void *pa, const void *pb)
{
    const struct adv_reason *a = *(const struct adv_reason *const *)pa, *b = *(const struct adv_reason *const *)pb;
    int ma = abs(a->delta_tenths), mb = abs(b->delta_tenths);
    return ma != mb ? mb - ma : strcmp(a->label, b->label);
}

void adv_reasons_by_size(const struct adv_reason *r, int n, const struct adv_reason **out)
{
    for (int i = 0; i < n; i++) out[i] = &r[i];
    qsort(out, (size_t)n, sizeof out[0], by_size);
}

int adv_reason_total(const struct adv_framework *f) { return f->nreasons + (f->unlisted ? f->unlisted - 1 : 0); }

void adv_reason_text(const struct adv_reason *r, char *out, size_t n)
{
    if (r->detail && *r->detail && r->label[0]) snprintf(out, n, "%s: %s", r->label, r->detail);
    else if (r->label[0]) snprintf(out, n, "%s", r->label);
    else snprintf(out, n, "%s", r->detail ? r->detail : "");
    adv_utf8_trim(out);
}

void adv_reason_local(const struct adv_kb *akb, const struct adv_reason *r, char *out, size_t n)
{
    if (i18n_lang() == I18N_EN) {
        adv_reason_text(r, out, n);
        return;
    }
    const char *label = r->label_local[0] ? r->label_local : r->label;
    const char *detail = adv_kb_local(akb, r->detail);
    if (detail && *detail && label[0]) snprintf(out, n, _("%s: %s"), label, detail);
    else snprintf(out, n, "%s", label[0] ? label : detail ? detail : "");
    adv_utf8_trim(out);
}

/* A string argument in the reader's language: a knowledge-base text's twin, else the catalog's
 * word for it (the words marked N_ where they are written: "fits", "the framework", ...). */
static const char *local_text(const void *akb, const char *s)
{
    const char *t = adv_kb_local(akb, s);
    return t != s ? t : _(s);
}

void adv_twinf_v(const struct adv_kb *akb, char *en, char *local, size_t n, const char *fmt, va_list ap)
{
    if (i18n_lang() != I18N_EN) {
        va_list copy;
        va_copy(copy, ap);
        i18n_vformat(local, n, local_text, akb, fmt, copy);
        va_end(copy);
    } else {
        local[0] = '\0';
    }
    vsnprintf(en, n, fmt, ap);
    adv_utf8_trim(en);
}

void adv_twinf(const struct adv_kb *akb, char *en, char *local, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    adv_twinf_v(akb, en, local, n, fmt, ap);
    va_end(ap);
}

void adv_twinf_append(const struct adv_kb *akb, char *en, char *local, size_t n, const char *fmt, ...)
{
    size_t used_en = strlen(en), used_local = strlen(local);
    if (used_en + 1 >= n) return;
    va_list ap;
    va_start(ap, fmt);
    char tail_local[512];
    adv_twinf_v(akb, en + used_en, tail_local, n - used_en, fmt, ap);
    va_end(ap);
    if (i18n_lang() == I18N_EN) return;
    if (!used_local && used_en) return; /* nothing of the twin to append to: the English shows */
    snprintf(local + used_local, n - used_local, "%s", tail_local);
    adv_utf8_trim(local);
}

void adv_reason_label(const struct adv_kb *akb, struct adv_reason *r, const char *text)
{
    snprintf(r->label, sizeof r->label, "%s", text);
    adv_utf8_trim(r->label);
    if (i18n_lang() == I18N_EN) r->label_local[0] = '\0';
    else snprintf(r->label_local, sizeof r->label_local, "%s", adv_kb_local(akb, text));
    adv_utf8_trim(r->label_local);
}

void adv_cite(const char *source, const char *also, char *out, size_t n)
{
    size_t used = (size_t)snprintf(out, n, "%s", source ? source : "");
    char copy[256];
    snprintf(copy, sizeof copy, "%s", also ? also : "");
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && used < n; t = strtok_r(NULL, ",", &save))
        if (!source || strcmp(t, source) != 0) used += (size_t)snprintf(out + used, n - used, "%s%s", used ? ", " : "", t);
}
