/* The advisor: loading the knowledge base into memory, ranking, strategy, runtime, plan. */
#include "knowledge/advisor_kb.h"
#include "knowledge/kb_internal.h"
#include "knowledge/planner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const adv_level_names[LEVEL_COUNT] = {"first-class", "supported", "experimental", "community", "none"};

/* --- a string arena: everything loaded lives until adv_kb_free ------------------------------ */

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    char data[];
};

static const char *arena_strdup(struct adv_kb *akb, const char *s)
{
    if (!s) s = "";
    size_t n = strlen(s) + 1;
    struct arena_block *b = akb->arena;
    if (!b || b->used + n > b->cap) {
        size_t cap = n > 65536 ? n : 65536;
        struct arena_block *nb = malloc(sizeof *nb + cap);
        if (!nb) return NULL;
        nb->next = b;
        nb->used = 0;
        nb->cap = cap;
        akb->arena = b = nb;
    }
    char *p = b->data + b->used;
    memcpy(p, s, n);
    b->used += n;
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
    free(akb);
}

int adv_fw_index(const struct adv_kb *akb, const char *id)
{
    for (int i = 0; i < akb->nfw; i++)
        if (strcmp(akb->fw[i].id, id) == 0) return i;
    return -1;
}

static int crit_index(const struct adv_kb *akb, const char *id)
{
    for (int i = 0; i < akb->ncrit; i++)
        if (strcmp(akb->crit[i].id, id) == 0) return i;
    return -1;
}

static int hw_index(const struct adv_kb *akb, const char *id)
{
    for (int i = 0; i < akb->nhw; i++)
        if (strcmp(akb->hw[i].id, id) == 0) return i;
    return -1;
}

int adv_strategy_index(const struct adv_kb *akb, const char *id)
{
    for (int i = 0; i < akb->nstrat; i++)
        if (strcmp(akb->strat[i].id, id) == 0) return i;
    return -1;
}

int adv_runtime_index(const struct adv_kb *akb, const char *id)
{
    for (int i = 0; i < akb->nrt; i++)
        if (strcmp(akb->rt[i].id, id) == 0) return i;
    return -1;
}

const char *adv_kb_version(const struct adv_kb *akb) { return akb->version; }
int adv_kb_framework_count(const struct adv_kb *akb) { return akb->nfw; }
const char *adv_kb_framework_name(const struct adv_kb *akb, int i) { return akb->fw[i].name; }
int adv_kb_criterion_count(const struct adv_kb *akb) { return akb->ncrit; }
const char *adv_kb_criterion_name(const struct adv_kb *akb, int i) { return akb->crit[i].name; }
int adv_kb_score(const struct adv_kb *akb, int f, int c) { return akb->scores[f][c].present ? akb->scores[f][c].score : -1; }
const char *adv_kb_date(const struct adv_kb *akb) { return akb->date; }

const char *adv_source_title(const struct adv_kb *akb, const char *id)
{
    for (int i = 0; id && i < akb->nsources; i++)
        if (strcmp(akb->sources[i].id, id) == 0) return akb->sources[i].title;
    return NULL;
}

static unsigned deploy_bit(const char *target)
{
    const struct ans_key *key = &ans_keys[ANS_DEPLOY];
    for (int i = 0; key->allowed[i]; i++)
        if (strcmp(key->allowed[i], target) == 0) return 1u << i;
    return 0;
}

/* --- loading ---------------------------------------------------------------------------- */

#define COL(st, i) ((const char *)sqlite3_column_text(st, i))

struct loader {
    kb *k;
    struct adv_kb *akb;
    char *err;
    size_t errsz;
    int status;
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

static int too_many(struct loader *L, const char *what)
{
    kb_errf(L->err, L->errsz, "knowledge base has more %s than this build handles", what);
    L->status = KB_ERR_RUNTIME;
    return L->status;
}

#define S(x) arena_strdup(akb, (x))

static int load_basic(struct loader *L)
{
    struct adv_kb *akb = L->akb;
    sqlite3_stmt *st;
    int rc;
    if (!(st = query(L, "SELECT id, name FROM frameworks ORDER BY id"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nfw == ADV_MAX_FRAMEWORKS) return sqlite3_finalize(st), too_many(L, "frameworks");
        akb->fw[akb->nfw].id = S(COL(st, 0));
        akb->fw[akb->nfw++].name = S(COL(st, 1));
    }
    if (finish(L, st, rc)) return L->status;
    if (!(st = query(L, "SELECT id, name, weight, source FROM criteria ORDER BY id"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->ncrit == ADV_MAX_CRITERIA) return sqlite3_finalize(st), too_many(L, "criteria");
        akb->crit[akb->ncrit].id = S(COL(st, 0));
        akb->crit[akb->ncrit].name = S(COL(st, 1));
        akb->crit[akb->ncrit].weight = sqlite3_column_double(st, 2);
        akb->crit[akb->ncrit++].source = S(COL(st, 3));
    }
    if (finish(L, st, rc)) return L->status;
    if (!(st = query(L, "SELECT id, name FROM hardware ORDER BY id"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nhw == ADV_MAX_HARDWARE) return sqlite3_finalize(st), too_many(L, "hardware platforms");
        akb->hw[akb->nhw].id = S(COL(st, 0));
        akb->hw[akb->nhw++].name = S(COL(st, 1));
    }
    if (finish(L, st, rc)) return L->status;
    if (!(st = query(L, "SELECT framework, criterion, score, note, source FROM scores"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int f = adv_fw_index(akb, COL(st, 0)), c = crit_index(akb, COL(st, 1));
        if (f < 0 || c < 0) continue;
        struct adv_score *s = &akb->scores[f][c];
        s->present = 1;
        s->score = sqlite3_column_int(st, 2);
        s->note = S(COL(st, 3));
        s->source = S(COL(st, 4));
    }
    if (finish(L, st, rc)) return L->status;
    if (!(st = query(L, "SELECT framework, hardware, level, os_limits, note, source, since FROM hw_support"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int f = adv_fw_index(akb, COL(st, 0)), h = hw_index(akb, COL(st, 1));
        if (f < 0 || h < 0) continue;
        struct adv_support *s = &akb->support[f][h];
        s->present = 1;
        s->level = LEVEL_NONE;
        for (int l = 0; l < LEVEL_COUNT; l++)
            if (strcmp(adv_level_names[l], COL(st, 2)) == 0) s->level = l;
        s->os_limits = S(COL(st, 3));
        s->note = S(COL(st, 4));
        s->source = S(COL(st, 5));
        s->since = S(COL(st, 6));
    }
    return finish(L, st, rc);
}

static int load_options(struct loader *L)
{
    struct adv_kb *akb = L->akb;
    sqlite3_stmt *st;
    int rc;
    if (!(st = query(L, "SELECT id, name, status, summary, memory_formula, source, replicated_bytes_per_param, "
                        "sharded_bytes_per_param, cpu_bytes_per_param, min_devices FROM strategies ORDER BY id")))
        return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nstrat == ADV_MAX_STRATEGIES) return sqlite3_finalize(st), too_many(L, "strategies");
        int i = akb->nstrat++;
        akb->strat[i].id = S(COL(st, 0));
        akb->strat[i].name = S(COL(st, 1));
        akb->strat[i].status = S(COL(st, 2));
        akb->strat[i].summary = S(COL(st, 3));
        akb->strat[i].formula = S(COL(st, 4));
        akb->strat[i].source = S(COL(st, 5));
        akb->strat[i].replicated = sqlite3_column_double(st, 6);
        akb->strat[i].sharded = sqlite3_column_double(st, 7);
        akb->strat[i].cpu = sqlite3_column_double(st, 8);
        akb->strat[i].min_devices = sqlite3_column_int(st, 9);
    }
    if (finish(L, st, rc)) return L->status;
    if (!(st = query(L, "SELECT strategy, framework FROM strategy_frameworks"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int s = adv_strategy_index(akb, COL(st, 0)), f = adv_fw_index(akb, COL(st, 1));
        if (s >= 0 && f >= 0) akb->strat[s].frameworks |= 1u << f;
    }
    if (finish(L, st, rc)) return L->status;
    if (!(st = query(L, "SELECT id, name, status, summary, source, targets FROM runtimes ORDER BY id"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nrt == ADV_MAX_RUNTIMES) return sqlite3_finalize(st), too_many(L, "runtimes");
        int i = akb->nrt++;
        akb->rt[i].id = S(COL(st, 0));
        akb->rt[i].name = S(COL(st, 1));
        akb->rt[i].status = S(COL(st, 2));
        akb->rt[i].summary = S(COL(st, 3));
        akb->rt[i].source = S(COL(st, 4));
        char targets[128];
        snprintf(targets, sizeof targets, "%s", COL(st, 5) ? COL(st, 5) : "");
        for (char *save = NULL, *t = strtok_r(targets, ",", &save); t; t = strtok_r(NULL, ",", &save))
            akb->rt[i].targets |= deploy_bit(t);
    }
    if (finish(L, st, rc)) return L->status;
    if (!(st = query(L, "SELECT runtime, framework FROM runtime_frameworks"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int r = adv_runtime_index(akb, COL(st, 0)), f = adv_fw_index(akb, COL(st, 1));
        if (r >= 0 && f >= 0) akb->rt[r].frameworks |= 1u << f;
    }
    if (finish(L, st, rc)) return L->status;
    if (!(st = query(L, "SELECT id, name, vendor, source, memory_gb, bf16_tflops, fp16_tflops, fp32_tflops, "
                        "planner_default, match, tf32_tflops, fp8_tflops, bandwidth_gbs, link_gbs, network_gbs, "
                        "interconnect FROM accelerators ORDER BY id")))
        return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nacc == ADV_MAX_ACCELERATORS) return sqlite3_finalize(st), too_many(L, "accelerators");
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
    }
    return finish(L, st, rc);
}

static int load_rules(struct loader *L)
{
    struct adv_kb *akb = L->akb;
    sqlite3_stmt *st;
    int rc;
    if (!(st = query(L, "SELECT id, kind, title, text, source, condition, effect, priority FROM rules "
                        "ORDER BY kind, priority, id")))
        return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nrules == ADV_MAX_RULES) return sqlite3_finalize(st), too_many(L, "rules");
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
        akb->rules[i].title = S(COL(st, 2));
        akb->rules[i].text = S(COL(st, 3));
        akb->rules[i].source = S(COL(st, 4));
        akb->rules[i].priority = sqlite3_column_int(st, 7);
    }
    if (finish(L, st, rc)) return L->status;
    if (!(st = query(L, "SELECT id, title FROM sources ORDER BY id"))) return L->status;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (akb->nsources == ADV_MAX_SOURCES) return sqlite3_finalize(st), too_many(L, "sources");
        akb->sources[akb->nsources].id = S(COL(st, 0));
        akb->sources[akb->nsources++].title = S(COL(st, 1));
    }
    return finish(L, st, rc);
}

int adv_kb_load(kb *k, struct adv_kb **out, char *err, size_t errsz)
{
    *out = NULL;
    struct adv_kb *akb = calloc(1, sizeof *akb);
    if (!akb) {
        kb_errf(err, errsz, "out of memory");
        return KB_ERR_RUNTIME;
    }
    struct loader L = {k, akb, err, errsz, KB_OK};
    if (load_basic(&L) || load_options(&L) || load_rules(&L)) {
        adv_kb_free(akb);
        return L.status;
    }
    kb_version(k, akb->version, sizeof akb->version, akb->date, sizeof akb->date);
    *out = akb;
    return KB_OK;
}

/* --- facts ------------------------------------------------------------------------------ */

int adv_fact(const struct adv_kb *akb, const struct answers *a, const char *name, double *value, int *rule)
{
    int best = -1;
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *facts = cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "facts");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(facts, name);
        if (!cJSON_IsNumber(v) || !answers_match(a, akb->rules[i].cond)) continue;
        if (best < 0 || akb->rules[i].priority > akb->rules[best].priority) best = i;
    }
    if (best < 0) return 0;
    *value = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(akb->rules[best].effect, "facts"),
                                              name)->valuedouble;
    if (rule) *rule = best;
    return 1;
}

void adv_applicable(const struct adv_kb *akb, const struct answers *a, unsigned char applies[ADV_MAX_RULES])
{
    for (int i = 0; i < akb->nrules; i++) applies[i] = (unsigned char)answers_match(a, akb->rules[i].cond);
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *tree = cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "tree");
        if (!applies[i] || !cJSON_IsString(tree)) continue;
        for (int j = 0; j < akb->nrules; j++) {
            const cJSON *other = cJSON_GetObjectItemCaseSensitive(akb->rules[j].effect, "tree");
            if (j == i || !applies[j] || !cJSON_IsString(other) || strcmp(other->valuestring, tree->valuestring) != 0)
                continue;
            if (akb->rules[j].priority < akb->rules[i].priority ||
                (akb->rules[j].priority == akb->rules[i].priority && j < i)) {
                applies[i] = 0; /* an earlier branch of the same tree already answered */
                break;
            }
        }
    }
}

static double fact_or(const struct adv_kb *akb, const struct answers *a, const char *name, double fallback)
{
    double v;
    return adv_fact(akb, a, name, &v, NULL) ? v : fallback;
}

/* --- ranking ---------------------------------------------------------------------------- */

static struct adv_reason *add_reason(struct adv_framework *f, int delta_tenths, const char *detail,
                                     const char *source)
{
    if (f->nreasons == ADV_MAX_REASONS) return NULL;
    struct adv_reason *r = &f->reasons[f->nreasons++];
    r->label[0] = '\0';
    r->detail = detail;
    r->delta_tenths = delta_tenths;
    r->source = source;
    f->score_tenths += delta_tenths;
    return r;
}

/* An OS limit applies when the support row names the user's OS ("windows: ...") or says the
 * platform works on one other OS only ("linux only", "macos only"). */
static int os_limited(const char *limits, const char *os)
{
    if (!limits || !*limits || !os) return 0;
    char key[32];
    snprintf(key, sizeof key, "%s:", os);
    if (strstr(limits, key)) return 1;
    if (strcmp(os, "linux") != 0 && strstr(limits, "linux only")) return 1;
    if (strcmp(os, "macos") != 0 && strstr(limits, "macos only")) return 1;
    return 0;
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

void adv_rank(const struct adv_kb *akb, const struct answers *a, struct adv_ranking *out)
{
    memset(out, 0, sizeof *out);
    unsigned char applies[ADV_MAX_RULES];
    adv_applicable(akb, a, applies);
    const char *hardware = answers_str(a, ANS_HARDWARE);
    const char *os = answers_str(a, ANS_OS);
    const char *deploy = answers_str(a, ANS_DEPLOY);
    int h = hardware ? hw_index(akb, hardware) : -1;
    unsigned deploy_mask = deploy && strcmp(deploy, "none") != 0 ? deploy_bit(deploy) : 0;

    /* Criterion weights: base x the factors of every matching weight rule. */
    double weights[ADV_MAX_CRITERIA], total_weight = 0;
    for (int c = 0; c < akb->ncrit; c++) weights[c] = akb->crit[c].weight;
    for (int i = 0; i < akb->nrules; i++) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "weight");
        if (!w || !applies[i]) continue;
        for (const cJSON *e = w->child; e; e = e->next) {
            int c = crit_index(akb, e->string);
            if (c >= 0) weights[c] *= e->valuedouble;
        }
    }
    for (int c = 0; c < akb->ncrit; c++) /* many compounding weight rules stay finite */
        weights[c] = weights[c] < 1e-6 ? 1e-6 : weights[c] > 1e6 ? 1e6 : weights[c];
    for (int c = 0; c < akb->ncrit; c++) {
        total_weight += weights[c];
        if (out->nweights < 32) {
            out->weights[out->nweights].criterion = akb->crit[c].id;
            out->weights[out->nweights].name = akb->crit[c].name;
            out->weights[out->nweights++].weight = weights[c];
        }
    }
    double criteria_points = fact_or(akb, a, "criteria_points", 70);
    double level_points[LEVEL_COUNT] = {0, fact_or(akb, a, "level_supported", 0), fact_or(akb, a, "level_experimental", 0),
                                        fact_or(akb, a, "level_community", 0), 0};
    double os_points = fact_or(akb, a, "os_limited", 0), no_runtime_points = fact_or(akb, a, "no_runtime", 0);
    int method_rule = -1;
    double unused;
    adv_fact(akb, a, "criteria_points", &unused, &method_rule);
    const char *method_source = method_rule >= 0 ? akb->rules[method_rule].source : NULL;

    for (int f = 0; f < akb->nfw; f++) {
        struct adv_framework *fr = &out->items[out->count++];
        fr->id = akb->fw[f].id;
        fr->name = akb->fw[f].name;
        const struct adv_support *sup = h >= 0 ? &akb->support[f][h] : NULL;
        if (sup && (!sup->present || sup->level == LEVEL_NONE)) {
            struct adv_reason *r = add_reason(fr, 0, sup->present ? sup->note : NULL, sup->present ? sup->source : NULL);
            if (r) snprintf(r->label, sizeof r->label, "Excluded: no %s support on %s", fr->name, akb->hw[h].name);
            fr->excluded = 1;
            continue;
        }
        for (int i = 0; i < akb->nrules && !fr->excluded; i++) {
            const cJSON *ex = cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "exclude");
            const cJSON *id;
            cJSON_ArrayForEach(id, ex) {
                if (cJSON_IsString(id) && strcmp(id->valuestring, fr->id) == 0 && applies[i]) {
                    struct adv_reason *r = add_reason(fr, 0, akb->rules[i].text, akb->rules[i].source);
                    if (r) snprintf(r->label, sizeof r->label, "Excluded");
                    fr->excluded = 1;
                }
            }
        }
        if (fr->excluded) continue;
        /* The criteria, weighted. */
        for (int c = 0; c < akb->ncrit && total_weight > 0; c++) {
            const struct adv_score *s = &akb->scores[f][c];
            if (!s->present) continue;
            double pts = criteria_points * weights[c] * s->score / (10.0 * total_weight);
            struct adv_reason *r = add_reason(fr, tenths(pts), s->note, s->source);
            if (r) snprintf(r->label, sizeof r->label, "%s %d/10 (weight %.2g)", akb->crit[c].name, s->score, weights[c]);
        }
        /* Hardware support level and OS limits. */
        if (sup && level_points[sup->level] != 0) {
            struct adv_reason *r = add_reason(fr, tenths(level_points[sup->level]), sup->note, sup->source);
            if (r) snprintf(r->label, sizeof r->label, "%s support: %s", akb->hw[h].name, adv_level_names[sup->level]);
        }
        if (sup && os_points != 0 && os_limited(sup->os_limits, os)) {
            struct adv_reason *r = add_reason(fr, tenths(os_points), sup->os_limits, sup->source);
            if (r) snprintf(r->label, sizeof r->label, "Limited on %s", os);
        }
        /* Deployment: a runtime that takes this framework to the target. */
        if (deploy_mask) {
            int any = 0;
            for (int r = 0; r < akb->nrt; r++)
                if ((akb->rt[r].targets & deploy_mask) && (akb->rt[r].frameworks & (1u << f))) any = 1;
            if (!any && no_runtime_points != 0) {
                struct adv_reason *r = add_reason(fr, tenths(no_runtime_points), NULL, method_source);
                if (r) snprintf(r->label, sizeof r->label, "No runtime in the knowledge base deploys %s to %s", fr->name, deploy);
            }
        }
        /* Rules: the decision tree, the Q&A and direct adjustments (team, functional, ...). */
        for (int i = 0; i < akb->nrules; i++) {
            const cJSON *score = cJSON_GetObjectItemCaseSensitive(akb->rules[i].effect, "score");
            const cJSON *d = cJSON_GetObjectItemCaseSensitive(score, fr->id);
            if (!cJSON_IsNumber(d) || !applies[i]) continue;
            struct adv_reason *r = add_reason(fr, tenths(d->valuedouble), akb->rules[i].text, akb->rules[i].source);
            if (r) snprintf(r->label, sizeof r->label, "%s", *akb->rules[i].title ? akb->rules[i].title : akb->rules[i].id);
        }
        /* Keep the score in 0..100 with a reason, so the reasons still add up. */
        if (fr->score_tenths > 1000 || fr->score_tenths < 0) {
            if (fr->nreasons == ADV_MAX_REASONS) /* make room: the cap must be listed */
                fr->score_tenths -= fr->reasons[--fr->nreasons].delta_tenths;
            int delta = fr->score_tenths > 1000 ? 1000 - fr->score_tenths
                        : fr->score_tenths < 0  ? -fr->score_tenths
                                                : 0;
            struct adv_reason *r = add_reason(fr, delta, NULL, method_source);
            snprintf(r->label, sizeof r->label, delta < 0 ? "Capped at 100" : "Floored at 0");
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

void adv_reason_text(const struct adv_reason *r, char *out, size_t n)
{
    if (r->detail && *r->detail && r->label[0]) snprintf(out, n, "%s: %s", r->label, r->detail);
    else if (r->label[0]) snprintf(out, n, "%s", r->label);
    else snprintf(out, n, "%s", r->detail ? r->detail : "");
    adv_utf8_trim(out);
}
