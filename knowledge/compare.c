/* The same job on other hardware and answers: variants of one plan (knowledge/compare.h). */
#include "knowledge/compare.h"
#include "knowledge/answer_keys.h"
#include "knowledge/advisor_kb.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- prices ---------------------------------------------------------------------------------- */

static void copy_text(char *dst, size_t n, const unsigned char *src)
{
    snprintf(dst, n, "%s", src ? (const char *)src : "");
}

int compare_prices_from_kb(kb *k, struct compare_prices *out, char *err, size_t errsz)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(kb_db(k),
                                "SELECT accelerator, provider, usd_per_device_hour, region, instance, source, as_of "
                                "FROM prices ORDER BY accelerator, provider",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) return kb_db_error(k, rc, "reading prices", err, errsz);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && out->count < COMPARE_MAX_PRICES) {
        struct compare_price *p = &out->rows[out->count++];
        memset(p, 0, sizeof *p);
        copy_text(p->accelerator, sizeof p->accelerator, sqlite3_column_text(st, 0));
        copy_text(p->provider, sizeof p->provider, sqlite3_column_text(st, 1));
        p->usd = sqlite3_column_double(st, 2);
        copy_text(p->region, sizeof p->region, sqlite3_column_text(st, 3));
        copy_text(p->instance, sizeof p->instance, sqlite3_column_text(st, 4));
        copy_text(p->source, sizeof p->source, sqlite3_column_text(st, 5));
        copy_text(p->as_of, sizeof p->as_of, sqlite3_column_text(st, 6));
        p->from = PRICE_KB;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) return kb_db_error(k, rc, "reading prices", err, errsz);
    return KB_OK;
}

int compare_price_add(const struct adv_kb *akb, const char *acc, const char *provider, const char *price,
                      enum compare_price_from from, const char *where, struct compare_prices *out, char *err,
                      size_t errsz)
{
    char *end = NULL;
    double usd = price ? strtod(price, &end) : NAN;
    if (!acc || adv_accelerator_index(akb, acc) < 0) {
        snprintf(err, errsz, "%s: accelerator '%.40s' is not in the catalog (fwadvisor kb list accelerators)", where,
                 acc ? acc : "");
        return -1;
    }
    size_t room = sizeof out->rows[0].provider - 1, given = provider ? strlen(provider) : 0;
    if (given > room || (from == PRICE_FILE && given == 0)) {
        snprintf(err, errsz, "%s: provider must be a word of 1 to %zu characters", where, room);
        return -1;
    }
    if (!price || end == price || (end && *end) || !isfinite(usd) || usd <= 0 || usd > 1e6) {
        snprintf(err, errsz, "%s: price must be a number above 0 (per device-hour), not '%.40s'", where, price ? price : "");
        return -1;
    }
    if (out->count >= COMPARE_MAX_PRICES) {
        snprintf(err, errsz, "%s: more than %d prices", where, COMPARE_MAX_PRICES);
        return -1;
    }
    struct compare_price *p = &out->rows[out->count++];
    memset(p, 0, sizeof *p);
    snprintf(p->accelerator, sizeof p->accelerator, "%s", acc);
    snprintf(p->provider, sizeof p->provider, "%s", provider ? provider : "");
    p->usd = usd;
    p->from = from;
    return 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

static int parse_json_prices(const struct adv_kb *akb, const cJSON *doc, const char *name, struct compare_prices *out,
                             char *err, size_t errsz)
{
    if (!cJSON_IsArray(doc)) {
        snprintf(err, errsz, "%s: expected a JSON array of {\"accelerator\", \"provider\", \"price\"}", name);
        return -1;
    }
    int i = 0;
    for (const cJSON *item = doc->child; item; item = item->next, i++) {
        char where[160], num[64] = "";
        snprintf(where, sizeof where, "%s: item %d", name, i + 1);
        const cJSON *price = cJSON_GetObjectItemCaseSensitive(item, "price");
        if (cJSON_IsNumber(price)) snprintf(num, sizeof num, "%.17g", price->valuedouble);
        const char *acc = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "accelerator"));
        const char *provider = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "provider"));
        if (compare_price_add(akb, acc, provider, num[0] ? num : NULL, PRICE_FILE, where, out, err, errsz)) return -1;
    }
    return 0;
}

static int parse_csv_prices(const struct adv_kb *akb, char *text, const char *name, struct compare_prices *out, char *err,
                            size_t errsz)
{
    int lineno = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        char *s = trim(line);
        if (!*s || *s == '#') continue;
        char where[160];
        snprintf(where, sizeof where, "%s: line %d", name, lineno);
        char *f[3] = {NULL, NULL, NULL};
        int nf = 0;
        for (char *p = s; nf < 3; nf++) {
            f[nf] = p;
            char *comma = strchr(p, ',');
            if (!comma) {
                nf++;
                break;
            }
            *comma = '\0';
            p = comma + 1;
        }
        for (int i = 0; i < nf; i++) f[i] = trim(f[i]);
        if (nf == 3 && strcmp(f[0], "accelerator") == 0) continue; /* the header */
        if (nf != 3 || strchr(f[2], ',')) {
            snprintf(err, errsz, "%s: expected accelerator,provider,price", where);
            return -1;
        }
        if (compare_price_add(akb, f[0], f[1], f[2], PRICE_FILE, where, out, err, errsz)) return -1;
    }
    return 0;
}

int compare_prices_parse(const struct adv_kb *akb, const char *text, size_t len, const char *name,
                         struct compare_prices *out, char *err, size_t errsz)
{
    size_t i = 0;
    while (i < len && isspace((unsigned char)text[i])) i++;
    if (i < len && (text[i] == '[' || text[i] == '{')) {
        cJSON *doc = cJSON_ParseWithLength(text, len);
        if (!doc) {
            snprintf(err, errsz, "%s: not valid JSON", name);
            return -1;
        }
        int bad = parse_json_prices(akb, doc, name, out, err, errsz);
        cJSON_Delete(doc);
        return bad;
    }
    if (memchr(text, '\0', len)) {
        snprintf(err, errsz, "%s: not a text file", name);
        return -1;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    int bad = parse_csv_prices(akb, copy, name, out, err, errsz);
    free(copy);
    return bad;
}

/* The price a device of acc has: the answer, else the file's lowest, else the config file's, else
 * the knowledge base's. */
static struct compare_price price_for(const struct compare_prices *prices, const struct answers *a, const char *acc)
{
    struct compare_price none = {.from = PRICE_NONE, .usd = NAN};
    if (a->v[ANS_PRICE_PER_DEVICE_HOUR].given) {
        struct compare_price p = {.from = PRICE_ANSWER, .usd = answers_num(a, ANS_PRICE_PER_DEVICE_HOUR)};
        snprintf(p.accelerator, sizeof p.accelerator, "%s", acc ? acc : "");
        return p;
    }
    const struct compare_price *best = NULL;
    for (int from = PRICE_FILE; from <= PRICE_KB && !best; from++)
        for (int i = 0; prices && acc && i < prices->count; i++) {
            const struct compare_price *p = &prices->rows[i];
            if ((int)p->from == from && strcmp(p->accelerator, acc) == 0 && (!best || p->usd < best->usd)) best = p;
        }
    return best ? *best : none;
}

void compare_price_text(const struct compare_price *p, char *out, size_t n)
{
    switch (p->from) {
    case PRICE_ANSWER: snprintf(out, n, "your price_per_device_hour"); break;
    case PRICE_FILE: snprintf(out, n, "%s, from --prices", p->provider); break;
    case PRICE_CONFIG: snprintf(out, n, "%s%sfrom the config file", p->provider, p->provider[0] ? ", " : ""); break;
    case PRICE_KB:
        snprintf(out, n, "%s on-demand, %s %s, read %s [%s]", p->provider, p->region, p->instance, p->as_of, p->source);
        break;
    default: snprintf(out, n, "no price"); break;
    }
}

/* --- one variant ------------------------------------------------------------------------------ */

/* The team's frameworks all excluded on the plan's hardware: 1 with the first one's reason. */
static int team_cannot_run(const struct adv_result *r, char *why, char *why_local, size_t n)
{
    const struct answers *a = &r->answers;
    int count = answers_id_count(a, ANS_TEAM);
    if (count <= 0 || strcmp(answers_id(a, ANS_TEAM, 0), "none") == 0) return 0;
    const struct adv_framework *first = NULL;
    for (int i = 0; i < r->ranking.count; i++) {
        const struct adv_framework *f = &r->ranking.items[i];
        if (!answers_team_has(a, f->id)) continue;
        if (!f->excluded) return 0;
        if (!first) first = f;
    }
    if (!first) return 0;
    char text[1024];
    adv_reason_text(&first->reasons[0], text, sizeof text);
    snprintf(why, n, "%s", text);
    adv_utf8_trim(why);
    if (i18n_lang() == I18N_EN) why_local[0] = '\0';
    else adv_reason_local(r->kb, &first->reasons[0], why_local, n);
    return 1;
}

static void fill_training(const struct adv_result *r, struct compare_row *row)
{
    const struct adv_memory *m = &r->memory;
    row->layout = m->layout;
    row->fits = m->fits;
    row->memory_gb = m->total_gb;
    row->usable_gb = m->usable_gb > 0 ? m->usable_gb : m->device_memory_gb;
    if (r->has_hours) {
        row->hours = r->hours;
        row->device_hours = r->device_hours;
        row->mfu = r->mfu;
        if (row->price.from != PRICE_NONE) row->cost = r->device_hours * row->price.usd;
    }
    if (!row->fits) {
        row->refusal = COMPARE_NO_FIT;
        if (row->devices == 1)
            adv_twinf(r->kb, row->why, row->why_local, sizeof row->why,
                      "does not fit: %.1f GB a device against %.1f GB usable on %d device", row->memory_gb, row->usable_gb,
                      row->devices);
        else
            adv_twinf(r->kb, row->why, row->why_local, sizeof row->why,
                      "does not fit: %.1f GB a device against %.1f GB usable on %d devices", row->memory_gb, row->usable_gb,
                      row->devices);
    }
}

static void fill_serving(const struct adv_result *r, struct compare_row *row)
{
    const struct adv_inference *inf = &r->inference;
    row->serve = 1;
    if (!inf->planned) {
        row->refusal = COMPARE_REFUSED;
        adv_twinf(r->kb, row->why, row->why_local, sizeof row->why,
                  "no serving plan: it is made for model_kind llm on deploy server");
        return;
    }
    row->tp = inf->tensor_parallel, row->pp = inf->pipeline_parallel;
    row->devices = row->tp * row->pp;
    row->fits = inf->fits == 1;
    row->memory_gb = inf->total_gb_per_device;
    row->usable_gb = inf->usable_gb;
    if (inf->decode_tokens_per_s > 0) row->tokens_per_s = inf->decode_tokens_per_s;
    if (row->price.from != PRICE_NONE) row->cost_per_hour = row->price.usd * row->devices;
    if (!row->fits) {
        row->refusal = COMPARE_NO_FIT;
        adv_twinf(r->kb, row->why, row->why_local, sizeof row->why, "does not fit: %.1f GB a device against %.1f GB usable",
                  row->memory_gb, row->usable_gb);
    }
}

int compare_variant(const struct adv_kb *akb, const struct answers *answers, const struct adv_hw *hw,
                    const struct compare_prices *prices, const char *const *assign, int nassign,
                    struct adv_result *r, struct compare_row *row, char *err, size_t errsz)
{
    /* Cleared first: a variant the answers refuse is a row too (its accelerator named below). */
    memset(row, 0, sizeof *row);
    row->hours = row->device_hours = row->cost = row->mfu = row->tokens_per_s = row->cost_per_hour = NAN;
    row->memory_gb = row->usable_gb = NAN;
    struct answers a = *answers;
    for (int i = 0; i < nassign; i++)
        if (answers_set(&a, assign[i], err, errsz)) return -1;
    if (answers_check_combination(&a, err, errsz)) return -1;
    char why[1024];
    int status = adv_recommend(akb, &a, hw, r, why, sizeof why);
    const char *acc = answers_str(&a, ANS_ACCELERATOR);
    if (status == KB_OK && r->accelerator >= 0) acc = adv_kb_accelerator(akb, r->accelerator, NULL, NULL, NULL);
    int idx = acc ? adv_accelerator_index(akb, acc) : -1;
    if (idx >= 0) {
        const char *name, *vendor;
        adv_kb_accelerator(akb, idx, &name, &vendor, NULL);
        snprintf(row->accelerator, sizeof row->accelerator, "%s", acc);
        snprintf(row->name, sizeof row->name, "%s", name);
        snprintf(row->vendor, sizeof row->vendor, "%s", vendor);
    }
    row->devices = (int)answers_num(&a, ANS_DEVICES);
    row->price = price_for(prices, &a, idx >= 0 ? acc : NULL);
    if (status != KB_OK) {
        row->refusal = COMPARE_REFUSED;
        snprintf(row->why, sizeof row->why, "%s", why);
        adv_utf8_trim(row->why);
        return 0;
    }
    row->devices = (int)answers_num(&r->answers, ANS_DEVICES);
    row->nodes = (int)answers_num(&r->answers, ANS_NODES);
    row->precision = r->precision;
    row->strategy = r->strategy;
    row->framework = r->ranking.count && !r->ranking.items[0].excluded ? r->ranking.items[0].id : NULL;
    if (team_cannot_run(r, row->why, row->why_local, sizeof row->why)) {
        row->refusal = COMPARE_NO_FRAMEWORK;
        return 0;
    }
    if (r->job == ADV_JOB_SERVE) fill_serving(r, row);
    else fill_training(r, row);
    return 0;
}

/* --- the hardware comparison ------------------------------------------------------------------- */

static struct compare_row *next_row(struct compare_table *t)
{
    if (t->count < COMPARE_MAX_ROWS) return &t->rows[t->count++];
    t->truncated = 1;
    return NULL;
}

/* A variant of accelerator acc that the answers' own checks refuse (os linux with an Apple GPU):
 * the row names the accelerator, with the check's line as why. */
static void refused_by_answers(const struct adv_kb *akb, int acc, const char *why, struct compare_row *row)
{
    const char *name, *vendor, *id = adv_kb_accelerator(akb, acc, &name, &vendor, NULL);
    snprintf(row->accelerator, sizeof row->accelerator, "%s", id);
    snprintf(row->name, sizeof row->name, "%s", name);
    snprintf(row->vendor, sizeof row->vendor, "%s", vendor);
    row->refusal = COMPARE_REFUSED;
    snprintf(row->why, sizeof row->why, "%s", why);
}

/* One accelerator: the fewest devices that fit, then x2 and x4 (a training job); serving, the
 * fewest devices that hold the model. */
static void compare_one(const struct adv_kb *akb, const struct answers *base, const struct compare_prices *prices,
                        int acc, struct adv_result *r, struct compare_table *out)
{
    const char *vendor, *id = adv_kb_accelerator(akb, acc, NULL, &vendor, NULL);
    char hardware[48], accelerator[64], devices[32], err[256];
    snprintf(hardware, sizeof hardware, "hardware=%s", vendor);
    snprintf(accelerator, sizeof accelerator, "accelerator=%s", id);
    const char *assign[3] = {hardware, accelerator, devices};
    struct compare_row row;
    snprintf(devices, sizeof devices, "devices=1");
    if (compare_variant(akb, base, NULL, prices, assign, out->serve ? 2 : 3, r, &row, err, sizeof err))
        refused_by_answers(akb, acc, err, &row);
    /* The advisor's fewest devices that fit when it found them, else doubling up to the bound. */
    for (int n = 1; row.refusal == COMPARE_NO_FIT && !out->serve && n < COMPARE_MAX_DEVICES;) {
        n = r->fit_devices > n ? (int)r->fit_devices : n * 2;
        snprintf(devices, sizeof devices, "devices=%d", n);
        if (compare_variant(akb, base, NULL, prices, assign, 3, r, &row, err, sizeof err))
            refused_by_answers(akb, acc, err, &row);
    }
    if (row.refusal == COMPARE_NO_FIT && !out->serve)
        adv_twinf(akb, row.why, row.why_local, sizeof row.why,
                  "does not fit: %.1f GB a device against %.1f GB usable, at every count up to %d", row.memory_gb,
                  row.usable_gb, COMPARE_MAX_DEVICES);
    struct compare_row *slot = next_row(out);
    if (!slot) return;
    *slot = row;
    if (row.refusal != COMPARE_RUNS || out->serve) return;
    for (int scale = 2, k = 1; k < COMPARE_SCALES; k++, scale *= 2) {
        snprintf(devices, sizeof devices, "devices=%d", row.devices * scale);
        struct compare_row more;
        if (compare_variant(akb, base, NULL, prices, assign, 3, r, &more, err, sizeof err) || more.refusal != COMPARE_RUNS)
            continue;
        if (!(slot = next_row(out))) return;
        *slot = more;
    }
}

static enum compare_sort sort_of(const struct answers *a)
{
    const char *p = answers_str(a, ANS_PRIORITY);
    return p && strcmp(p, "cost") == 0 ? COMPARE_BY_COST : COMPARE_BY_TIME;
}

/* The figure a row is sorted by, smaller first; NaN when it has none. */
static double sort_key(const struct compare_row *row, enum compare_sort sort)
{
    if (row->serve) {
        if (sort == COMPARE_BY_COST) return row->cost_per_hour / row->tokens_per_s;
        return row->tokens_per_s > 0 ? 1 / row->tokens_per_s : NAN;
    }
    return sort == COMPARE_BY_COST ? row->cost : row->hours;
}

static enum compare_sort sorting;

static int cmp_double(double a, double b)
{
    if (isnan(a) || isnan(b)) return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

static int by_priority(const void *pa, const void *pb)
{
    const struct compare_row *a = pa, *b = pb;
    int ra = a->refusal != COMPARE_RUNS, rb = b->refusal != COMPARE_RUNS;
    if (ra != rb) return ra - rb;
    if (ra) return strcmp(a->accelerator, b->accelerator);
    int c = cmp_double(sort_key(a, sorting), sort_key(b, sorting));
    if (!c) c = cmp_double(sort_key(a, COMPARE_BY_TIME), sort_key(b, COMPARE_BY_TIME));
    if (!c) c = strcmp(a->accelerator, b->accelerator);
    return c ? c : a->devices - b->devices;
}

int compare_hardware(const struct adv_kb *akb, const struct answers *answers, const struct compare_prices *prices,
                     struct compare_table *out, char *err, size_t errsz)
{
    struct adv_result *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errsz, "out of memory");
        return KB_ERR_RUNTIME;
    }
    struct answers base = *answers;
    /* The counts and devices vary: the nodes follow them, the catalog gives the memory. */
    memset(&base.v[ANS_NODES], 0, sizeof base.v[ANS_NODES]);
    memset(&base.v[ANS_DEVICE_MEMORY_GB], 0, sizeof base.v[ANS_DEVICE_MEMORY_GB]);
    memset(&base.v[ANS_DEVICES], 0, sizeof base.v[ANS_DEVICES]);
    memset(out, 0, sizeof *out);
    out->sort = sort_of(answers);
    struct answers filled = base;
    answers_fill_defaults(&filled);
    out->serve = adv_job_of(&filled) == ADV_JOB_SERVE;
    for (int i = 0; i < adv_kb_accelerator_count(akb); i++) compare_one(akb, &base, prices, i, r, out);
    free(r);
    sorting = out->sort;
    qsort(out->rows, (size_t)out->count, sizeof out->rows[0], by_priority);
    return KB_OK;
}

/* --- the sweep ---------------------------------------------------------------------------------- */

int compare_sweep_parse(const char *const *specs, int nspecs, const struct answers *answers, struct compare_sweep *out,
                        char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    if (nspecs < 1 || nspecs > 2) {
        snprintf(err, errsz, "--sweep takes one or two keys, not %d", nspecs);
        return 2;
    }
    for (int s = 0; s < nspecs; s++) {
        const char *eq = strchr(specs[s], '=');
        size_t klen = eq ? (size_t)(eq - specs[s]) : strlen(specs[s]);
        snprintf(out->keys[s], sizeof out->keys[s], "%.*s", (int)(klen < 31 ? klen : 31), specs[s]);
        int key = ans_key_index(out->keys[s]);
        if (key < 0 || ans_keys[key].type == ANS_ID_LIST || (s == 1 && strcmp(out->keys[0], out->keys[1]) == 0)) {
            snprintf(err, errsz, "--sweep: key '%s' cannot vary (%s)", out->keys[s],
                     key < 0 ? "not an answer key" : s == 1 && key == ans_key_index(out->keys[0]) ? "given twice" : "a list");
            return 2;
        }
        if (!eq || !eq[1]) {
            snprintf(err, errsz, "--sweep %s: expected KEY=v1,v2,...", specs[s]);
            return 2;
        }
        char copy[COMPARE_MAX_VALUES * 48];
        snprintf(copy, sizeof copy, "%s", eq + 1);
        for (char *save = NULL, *v = strtok_r(copy, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
            if (out->nvalues[s] == COMPARE_MAX_VALUES || strlen(v) >= sizeof out->values[0][0]) {
                snprintf(err, errsz, "--sweep %s: at most %d values of at most 47 characters", out->keys[s], COMPARE_MAX_VALUES);
                return 2;
            }
            char assign[96];
            struct answers a = *answers;
            snprintf(assign, sizeof assign, "%s=%s", out->keys[s], v);
            if (answers_set(&a, assign, err, errsz)) return 3;
            snprintf(out->values[s][out->nvalues[s]++], sizeof out->values[0][0], "%s", v);
        }
    }
    out->nkeys = nspecs;
    return 0;
}

int compare_sweep_run(const struct adv_kb *akb, const struct answers *answers, const struct adv_hw *hw,
                      const struct compare_prices *prices, const struct compare_sweep *sweep, struct compare_table *out,
                      char *err, size_t errsz)
{
    struct adv_result *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errsz, "out of memory");
        return KB_ERR_RUNTIME;
    }
    memset(out, 0, sizeof *out);
    out->sort = sort_of(answers);
    int status = KB_OK, inner = sweep->nkeys > 1 ? sweep->nvalues[1] : 1;
    snprintf(out->keys, sizeof out->keys, "%s%s%s", sweep->keys[0], sweep->nkeys > 1 ? " " : "", sweep->nkeys > 1 ? sweep->keys[1] : "");
    for (char *p = out->keys; *p; p++) *p = (char)toupper((unsigned char)*p);
    for (int i = 0; i < sweep->nvalues[0] && status == KB_OK; i++)
        for (int j = 0; j < inner && status == KB_OK; j++) {
            char assign[2][96];
            const char *list[2] = {assign[0], assign[1]};
            snprintf(assign[0], sizeof assign[0], "%s=%s", sweep->keys[0], sweep->values[0][i]);
            if (sweep->nkeys > 1) snprintf(assign[1], sizeof assign[1], "%s=%s", sweep->keys[1], sweep->values[1][j]);
            struct compare_row *row = next_row(out);
            if (!row) break;
            if (compare_variant(akb, answers, hw, prices, list, sweep->nkeys, r, row, err, errsz)) {
                status = KB_ERR_INPUT;
                break;
            }
            snprintf(row->label, sizeof row->label, "%s%s%s", assign[0], sweep->nkeys > 1 ? " " : "",
                     sweep->nkeys > 1 ? assign[1] : "");
            out->serve |= row->serve;
        }
    free(r);
    return status;
}

/* --- JSON ---------------------------------------------------------------------------------------- */

/* A figure rounded as the report rounds its own (to `scale`: 1000 three decimals, 100 cents), so
 * the two print the same numbers; null when the plan has none. */
static void add_num(cJSON *o, const char *name, double v, double scale)
{
    if (isnan(v)) cJSON_AddNullToObject(o, name);
    else cJSON_AddNumberToObject(o, name, round(v * scale) / scale);
}

static void add_str(cJSON *o, const char *name, const char *v)
{
    if (v && *v) cJSON_AddStringToObject(o, name, v);
    else cJSON_AddNullToObject(o, name);
}

static cJSON *price_json(const struct compare_price *p)
{
    static const char *const from[] = {"none", "answers", "file", "config", "knowledge-base"};
    if (p->from == PRICE_NONE) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "usd_per_device_hour", p->usd);
    cJSON_AddStringToObject(o, "from", from[p->from]);
    add_str(o, "provider", p->provider);
    add_str(o, "region", p->region);
    add_str(o, "instance", p->instance);
    add_str(o, "source", p->source);
    add_str(o, "as_of", p->as_of);
    return o;
}

static cJSON *row_json(const struct compare_row *row, int local)
{
    static const char *const refusals[] = {NULL, "refused", "no_framework", "no_fit"};
    cJSON *o = cJSON_CreateObject();
    add_str(o, "accelerator", row->accelerator);
    add_str(o, "name", row->name);
    add_str(o, "vendor", row->vendor);
    if (row->label[0]) cJSON_AddStringToObject(o, "values", row->label);
    cJSON_AddBoolToObject(o, "runs", row->refusal == COMPARE_RUNS);
    add_str(o, "refusal", refusals[row->refusal]);
    add_str(o, "why", local ? adv_note_local(row->why, row->why_local) : row->why);
    cJSON_AddNumberToObject(o, "devices", row->devices);
    cJSON_AddNumberToObject(o, "nodes", row->nodes);
    cJSON *layout = cJSON_AddObjectToObject(o, "layout");
    cJSON_AddNumberToObject(layout, "tp", row->serve ? row->tp : row->layout.tp);
    cJSON_AddNumberToObject(layout, "pp", row->serve ? row->pp : row->layout.pp);
    cJSON_AddNumberToObject(layout, "dp", row->serve ? 1 : row->layout.dp);
    cJSON_AddNumberToObject(layout, "ep", row->serve ? 1 : row->layout.ep);
    cJSON_AddBoolToObject(o, "fits", row->fits);
    add_num(o, "memory_gb_per_device", row->memory_gb, 1000);
    add_num(o, "usable_gb_per_device", row->usable_gb, 1000);
    add_num(o, "hours", row->hours, 1000);
    add_num(o, "device_hours", row->device_hours, 1000);
    add_num(o, "cost", row->cost, 100);
    add_num(o, "mfu", row->mfu, 10000);
    add_num(o, "decode_tokens_per_s", row->tokens_per_s, 1000);
    add_num(o, "cost_per_hour", row->cost_per_hour, 100);
    add_str(o, "framework", row->framework);
    add_str(o, "strategy", row->strategy);
    add_str(o, "precision", row->precision);
    cJSON_AddItemToObject(o, "price", price_json(&row->price));
    return o;
}

static cJSON *compare_doc(const struct compare_table *t, const char *kind, const char *generated_at, int local)
{
    cJSON *doc = cJSON_CreateObject();
    if (!doc) return NULL;
    cJSON_AddStringToObject(doc, "schema", "fwadvisor.compare/1");
    cJSON_AddStringToObject(doc, "kind", kind);
    cJSON_AddStringToObject(doc, "generated_at", generated_at);
    cJSON_AddStringToObject(doc, "job", t->serve ? "serve" : "train");
    cJSON_AddStringToObject(doc, "sorted_by", strcmp(kind, "sweep") == 0 ? "values"
                                              : t->sort == COMPARE_BY_COST ? "cost" : "time");
    cJSON_AddBoolToObject(doc, "truncated", t->truncated);
    cJSON *rows = cJSON_AddArrayToObject(doc, "rows");
    for (int i = 0; rows && i < t->count; i++) cJSON_AddItemToArray(rows, row_json(&t->rows[i], local));
    return doc;
}

cJSON *compare_json(const struct compare_table *t, const char *kind, const char *generated_at)
{
    return compare_doc(t, kind, generated_at, 0);
}

cJSON *compare_json_local(const struct compare_table *t, const char *kind, const char *generated_at)
{
    return compare_doc(t, kind, generated_at, i18n_lang() != I18N_EN);
}
