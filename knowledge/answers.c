/* Parsing, validating and completing a team's answers, and evaluating rule conditions on them. */
#include "knowledge/answers.h"
#include "common/json_doc.h"
#include "knowledge/kb_tables.h"
#include "common/units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void answers_init(struct answers *a) { memset(a, 0, sizeof *a); }

static void join_list(const char *const *values, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (; values && *values && used < n; values++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", used ? ", " : "", *values);
}

/* A key's allowed values, comma-separated. */
static void join_choices(const struct ans_key *key, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < key->nchoices && used < n; i++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", used ? ", " : "", key->choices[i].value);
}

static void describe_key(const struct ans_key *key, char *out, size_t n)
{
    switch (key->type) {
    case ANS_ENUM: join_choices(key, out, n); break;
    case ANS_ID_LIST: {
        char words[200];
        join_choices(key, words, sizeof words);
        snprintf(out, n, "a list of %s ids (fwadvisor kb list %s), or [\"%s\"] alone", key->noun, key->table, words);
        break;
    }
    case ANS_INT: snprintf(out, n, "a whole number from %g to %g (K, M, B, T suffixes allowed)", key->min, ANS_MAX_NUMBER); break;
    case ANS_NUMBER:
        snprintf(out, n, "a number %s %g and at most %g (K, M, B, T suffixes allowed)", key->min_exclusive ? ">" : ">=",
                 key->min, ANS_MAX_NUMBER);
        break;
    case ANS_BOOL: snprintf(out, n, "true or false"); break;
    case ANS_ID:
        if (key == &ans_keys[ANS_MODEL]) snprintf(out, n, "a shipped model's name (docs/planner.md, Model shapes)");
        else snprintf(out, n, "an id (fwadvisor kb list %ss)", key->name);
        break;
    }
}

static void unknown_key(const char *where, const char *name, char *err, size_t errsz)
{
    const char *near = ans_key_nearest(name);
    if (near) {
        snprintf(err, errsz, "%sunknown key '%s' (did you mean '%s'?)", where, name, near);
        return;
    }
    char keys[1200];
    size_t used = 0;
    keys[0] = '\0';
    for (int i = 0; i < ans_key_count && used < sizeof keys; i++)
        used += (size_t)snprintf(keys + used, sizeof keys - used, "%s%s", i ? ", " : "", ans_keys[i].name);
    snprintf(err, errsz, "%sunknown key '%s' (keys: %s)", where, name, keys);
}

static int bad_value(const char *where, const struct ans_key *key, const char *shown, char *err, size_t errsz)
{
    char allowed[300];
    describe_key(key, allowed, sizeof allowed);
    snprintf(err, errsz, "%skey '%s': %s is not %s%s", where, key->name, shown,
             key->type == ANS_ENUM ? "one of " : "", allowed);
    return -1;
}

/* The allowed value a given one names, whatever its case ("NVIDIA" is nvidia). */
static const char *allowed_entry(const struct ans_key *key, const char *value, int *index)
{
    for (int i = 0; i < key->nchoices; i++)
        if (strcasecmp(key->choices[i].value, value) == 0) {
            if (index) *index = i;
            return key->choices[i].value;
        }
    return NULL;
}

/* Every number has the same ceiling: far above any real model, device count, token count or
 * price, and low enough that every figure of the plan stays finite (6 x params x tokens <= 6e30). */
static int number_ok(const struct ans_key *key, double v)
{
    if (!isfinite(v) || v > ANS_MAX_NUMBER) return 0;
    if (key->type == ANS_INT && v != floor(v)) return 0;
    return key->min_exclusive ? v > key->min : v >= key->min;
}

/* Adds one item to an ANS_ID_LIST value: an id (lower-cased, as ANS_ID's are) or one of the
 * key's words, each once. Returns 0, or -1 with one line in err. */
static int add_list_item(const struct ans_key *key, struct ans_value *nv, const char *item, const char *where, char *err,
                         size_t errsz)
{
    char id[ANS_ID_MAX];
    size_t len = strlen(item);
    for (size_t c = 0; c < sizeof id && c <= len; c++) id[c] = (char)tolower((unsigned char)item[c]);
    if (len >= sizeof id || !kb_valid_ident(id)) {
        char words[200];
        join_choices(key, words, sizeof words);
        snprintf(err, errsz, "%skey '%s': '%.80s' is not a %s id (lower-case letters, digits, '-', '_', '.') or %s", where,
                 key->name, item, key->noun, words);
        return -1;
    }
    for (int k = 0; k < nv->count; k++)
        if (strcmp(nv->ids[k], id) == 0) return 0;
    if (nv->count == ANS_ID_LIST_MAX) {
        snprintf(err, errsz, "%skey '%s': more than %d %ss (the most the knowledge base holds)", where, key->name,
                 ANS_ID_LIST_MAX, key->noun);
        return -1;
    }
    memcpy(nv->ids[nv->count++], id, len + 1);
    return 0;
}

/* A word of an ANS_ID_LIST key ("none") with anything else: refused with one line in err. */
static int list_refused(const struct ans_key *key, const struct ans_value *nv, const char *where, char *err, size_t errsz)
{
    for (int k = 0; nv->count > 1 && k < nv->count; k++)
        if (ans_key_allows(key, nv->ids[k])) {
            snprintf(err, errsz, "%skey '%s': '%s' cannot be combined with a %s (a list of %s ids, or [\"%s\"] alone)", where,
                     key->name, nv->ids[k], key->noun, key->noun, nv->ids[k]);
            return -1;
        }
    return 0;
}

/* Sets key i from a JSON value. */
static int set_from_json(struct answers *a, int i, const cJSON *v, const char *where, char *err, size_t errsz)
{
    const struct ans_key *key = &ans_keys[i];
    struct ans_value nv = {.given = 1, .present = 1};
    char shown[96];
    if (cJSON_IsString(v)) snprintf(shown, sizeof shown, "'%.80s'", v->valuestring);
    else if (cJSON_IsNumber(v)) snprintf(shown, sizeof shown, "%g", v->valuedouble);
    else if (cJSON_IsBool(v)) snprintf(shown, sizeof shown, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsNull(v)) snprintf(shown, sizeof shown, "null");
    else snprintf(shown, sizeof shown, "%s", cJSON_IsArray(v) ? "an array" : "an object");
    switch (key->type) {
    case ANS_ENUM:
        if (!cJSON_IsString(v) || !allowed_entry(key, v->valuestring, &nv.choice))
            return bad_value(where, key, shown, err, errsz);
        break;
    case ANS_ID_LIST: {
        if (!cJSON_IsArray(v)) return bad_value(where, key, shown, err, errsz);
        const cJSON *item;
        cJSON_ArrayForEach(item, v) {
            if (!cJSON_IsString(item)) {
                snprintf(err, errsz, "%skey '%s': a non-string item is not a %s id", where, key->name, key->noun);
                return -1;
            }
            if (add_list_item(key, &nv, item->valuestring, where, err, errsz)) return -1;
        }
        if (list_refused(key, &nv, where, err, errsz)) return -1;
        break;
    }
    case ANS_INT:
    case ANS_NUMBER: /* a number, or a string as people write one: "70B", "2T", "1,024" */
        if (cJSON_IsNumber(v)) nv.num = v->valuedouble;
        else if (!cJSON_IsString(v) || units_parse(v->valuestring, &nv.num)) return bad_value(where, key, shown, err, errsz);
        if (!number_ok(key, nv.num)) return bad_value(where, key, shown, err, errsz);
        break;
    case ANS_BOOL:
        if (!cJSON_IsBool(v)) return bad_value(where, key, shown, err, errsz);
        nv.flag = cJSON_IsTrue(v);
        break;
    case ANS_ID: /* ids are lower-case; "H100-SXM" means h100-sxm */
        if (!cJSON_IsString(v) || strlen(v->valuestring) >= sizeof nv.id) return bad_value(where, key, shown, err, errsz);
        for (size_t c = 0; v->valuestring[c]; c++) nv.id[c] = (char)tolower((unsigned char)v->valuestring[c]);
        if (!kb_valid_ident(nv.id)) return bad_value(where, key, shown, err, errsz);
        break;
    }
    a->v[i] = nv;
    return 0;
}

int answers_parse_json(struct answers *a, const char *text, size_t len, const char *name, char *err, size_t errsz)
{
    cJSON *doc = json_doc_parse(text, len, name, err, errsz);
    if (!doc) return -1;
    if (!cJSON_IsObject(doc)) {
        snprintf(err, errsz, "%s: expected a JSON object of answers (%s)", name, ANSWERS_SCHEMA);
        cJSON_Delete(doc);
        return -1;
    }
    /* Validate everything into a copy first: a bad document changes nothing. */
    struct answers next = *a;
    char where[300];
    snprintf(where, sizeof where, "%s: ", name);
    for (const cJSON *e = doc->child; e; e = e->next) {
        if (strcmp(e->string, "description") == 0) { /* what the file is for, in words: no answer */
            if (!cJSON_IsString(e)) {
                snprintf(err, errsz, "%sdescription: expected a string", where);
                cJSON_Delete(doc);
                return -1;
            }
            continue;
        }
        if (strcmp(e->string, "schema") == 0) {
            if (!cJSON_IsString(e) || strcmp(e->valuestring, ANSWERS_SCHEMA) != 0) {
                snprintf(err, errsz, "%sschema: expected \"%s\"", where, ANSWERS_SCHEMA);
                cJSON_Delete(doc);
                return -1;
            }
            continue;
        }
        int i = ans_key_index(e->string);
        if (i < 0) {
            unknown_key(where, e->string, err, errsz);
            cJSON_Delete(doc);
            return -1;
        }
        if (set_from_json(&next, i, e, where, err, errsz)) {
            cJSON_Delete(doc);
            return -1;
        }
    }
    cJSON_Delete(doc);
    *a = next;
    return 0;
}

int answers_set(struct answers *a, const char *assignment, char *err, size_t errsz)
{
    char where[160];
    snprintf(where, sizeof where, "--set %.120s: ", assignment);
    return answers_set_from(a, assignment, where, err, errsz);
}

int answers_set_from(struct answers *a, const char *assignment, const char *where, char *err, size_t errsz)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment) {
        snprintf(err, errsz, "%sexpected KEY=VALUE", where);
        return -1;
    }
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - assignment) < 63 ? (int)(eq - assignment) : 63, assignment);
    const char *value = eq + 1;
    int i = ans_key_index(name);
    if (i < 0) {
        unknown_key(where, name, err, errsz);
        return -1;
    }
    const struct ans_key *key = &ans_keys[i];
    cJSON *v = NULL;
    switch (key->type) {
    case ANS_ENUM:
    case ANS_ID: v = cJSON_CreateString(value); break;
    case ANS_ID_LIST: {
        char copy[ANS_ID_LIST_MAX * (ANS_ID_MAX + 1) + 1]; /* the longest list, a separator after each id */
        if (strlen(value) >= sizeof copy) {
            snprintf(err, errsz, "%skey '%s': a list of more than %zu characters", where, key->name, sizeof copy - 1);
            return -1;
        }
        v = cJSON_CreateArray();
        snprintf(copy, sizeof copy, "%s", value);
        for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && v; tok = strtok_r(NULL, ",", &save)) {
            while (*tok == ' ') tok++;
            if (*tok) cJSON_AddItemToArray(v, cJSON_CreateString(tok));
        }
        break;
    }
    case ANS_INT:
    case ANS_NUMBER: v = cJSON_CreateString(value); break; /* read as a file's "70B" is */
    case ANS_BOOL:
        if (!strcasecmp(value, "true") || !strcasecmp(value, "yes") || !strcmp(value, "1")) v = cJSON_CreateTrue();
        else if (!strcasecmp(value, "false") || !strcasecmp(value, "no") || !strcmp(value, "0")) v = cJSON_CreateFalse();
        else {
            char shown[96];
            snprintf(shown, sizeof shown, "'%.80s'", value);
            return bad_value(where, key, shown, err, errsz);
        }
        break;
    }
    if (!v) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int rc = set_from_json(a, i, v, where, err, errsz);
    cJSON_Delete(v);
    return rc;
}

const char *answers_running_os(void)
{
#if defined(__APPLE__)
    return "macos";
#elif defined(_WIN32)
    return "windows";
#else
    return "linux";
#endif
}

void answers_set_str(struct answers *a, enum ans_index i, const char *value)
{
    int choice;
    if (!allowed_entry(&ans_keys[i], value, &choice)) return;
    a->v[i].choice = choice;
    a->v[i].present = 1;
}

void answers_choose(struct answers *a, enum ans_index i, int choice)
{
    if (choice < 0 || choice >= ans_keys[i].nchoices) return;
    struct ans_value nv = {.given = 1, .present = 1, .choice = choice, .flag = choice == 0};
    a->v[i] = nv;
}

int answers_set_ids(struct answers *a, enum ans_index i, const char *const *ids, int n, char *err, size_t errsz)
{
    struct ans_value nv = {.given = 1, .present = 1};
    for (int k = 0; k < n; k++)
        if (add_list_item(&ans_keys[i], &nv, ids[k], "", err, errsz)) return -1;
    if (list_refused(&ans_keys[i], &nv, "", err, errsz)) return -1;
    a->v[i] = nv;
    return 0;
}

int answers_choice(const struct answers *a, enum ans_index i)
{
    if (!a->v[i].present) return -1;
    return ans_keys[i].type == ANS_BOOL ? !a->v[i].flag : a->v[i].choice;
}

int answers_default_choice(enum ans_index i)
{
    return i == ANS_OS ? ans_key_value_index(&ans_keys[i], answers_running_os()) : ans_keys[i].default_choice;
}

void answers_set_id(struct answers *a, enum ans_index i, const char *id)
{
    snprintf(a->v[i].id, sizeof a->v[i].id, "%s", id);
    a->v[i].present = 1;
}

void answers_set_num(struct answers *a, enum ans_index i, double value)
{
    a->v[i].num = value;
    a->v[i].present = 1;
}

void answers_fill_defaults(struct answers *a)
{
    for (int i = 0; i < ANS_KEY_COUNT; i++) {
        const struct ans_key *key = &ans_keys[i];
        struct ans_value *v = &a->v[i];
        int choice = answers_default_choice((enum ans_index)i);
        if (v->present) continue;
        if (key->type == ANS_ID_LIST) v->present = 1; /* an empty list */
        else if ((key->type == ANS_ENUM || key->type == ANS_BOOL) && choice >= 0) {
            v->present = 1;
            v->choice = choice;
            v->flag = key->type == ANS_BOOL && choice == 0;
        } else if ((key->type == ANS_INT || key->type == ANS_NUMBER) && key->default_number > 0)
            answers_set_num(a, (enum ans_index)i, key->default_number);
    }
    if (!a->v[ANS_JOB].present) answers_set_str(a, ANS_JOB, answers_derived_job(a));
    const char *job = answers_str(a, ANS_JOB);
    if (a->v[ANS_TOKENS].present || strcmp(job, "serve") == 0) return;
    /* A fine-tune reads its data set epochs times; it has no default of its own. */
    if (strcmp(job, "finetune") == 0) {
        if (a->v[ANS_DATASET_TOKENS].present)
            answers_set_num(a, ANS_TOKENS, fmin(a->v[ANS_DATASET_TOKENS].num * (a->v[ANS_EPOCHS].present ? a->v[ANS_EPOCHS].num : 1),
                                                ANS_MAX_NUMBER));
        return;
    }
    /* Chinchilla's 20 tokens per parameter, within the largest number an answer may hold (a
     * model above 5e13 parameters would otherwise default past it) */
    if (answers_choice(a, ANS_MODEL_KIND) == ans_key_value_index(&ans_keys[ANS_MODEL_KIND], "llm"))
        answers_set_num(a, ANS_TOKENS, fmin(20 * a->v[ANS_MODEL_PARAMS].num, ANS_MAX_NUMBER));
}

const char *answers_derived_job(const struct answers *a)
{
    const char *ft = a->v[ANS_FINETUNE].given ? answers_str(a, ANS_FINETUNE) : NULL;
    if ((ft && strcmp(ft, "full") != 0) || a->v[ANS_DATASET_TOKENS].given || a->v[ANS_EPOCHS].given) return "finetune";
    const char *deploy = a->v[ANS_DEPLOY].given ? answers_str(a, ANS_DEPLOY) : NULL;
    if (deploy && strcmp(deploy, "none") != 0 && !a->v[ANS_TOKENS].given && !ft) return "serve";
    return "pretrain";
}

/* --- combinations that cannot exist ------------------------------------------------------ */

/* The deploy targets other than one, for the devices of that one (deploy_device). */
static const char *const not_mobile[] = {"none", "server", "edge", "browser", NULL};
static const char *const not_edge[] = {"none", "server", "mobile", "browser", NULL};
static const char *const not_browser[] = {"none", "server", "mobile", "edge", NULL};
static const char *const not_server[] = {"none", "mobile", "edge", "browser", NULL};

/* Pairs of answers no machine can have: (key, value) on one side, the values of the other key
 * that cannot go with it. Only answers that are set (and not auto) are compared. */
static const struct impossible {
    enum ans_index key;
    const char *value;
    enum ans_index other;
    const char *const *values;
    const char *why;
} impossible[] = {
    {ANS_OS, "macos", ANS_HARDWARE, (const char *const[]){"nvidia", "amd", "tpu", "intel", "ascend", "trainium", "gaudi", NULL},
     "macOS has drivers for Apple GPUs only, and Cloud TPUs, Ascend NPUs, Trainium and Gaudi run Linux"},
    {ANS_OS, "windows", ANS_HARDWARE, (const char *const[]){"tpu", "apple", "ascend", "trainium", "gaudi", NULL},
     "Cloud TPU VMs, Ascend's CANN, the Neuron SDK and Intel Gaudi software run Linux, Apple GPUs macOS"},
    {ANS_OS, "linux", ANS_HARDWARE, (const char *const[]){"apple", NULL},
     "no framework drives an Apple GPU under Linux"},
    {ANS_DEPLOY, "mobile", ANS_DEPLOY_HARDWARE,
     (const char *const[]){"nvidia", "amd", "tpu", "intel", "ascend", "trainium", "gaudi", NULL},
     "phones carry Qualcomm, Apple or other Arm SoCs"},
    {ANS_DEPLOY_DEVICE, "phone", ANS_DEPLOY, not_mobile, "a phone is a mobile target"},
    {ANS_DEPLOY_DEVICE, "rpi5-4gb", ANS_DEPLOY, not_edge, "a Raspberry Pi is an edge board"},
    {ANS_DEPLOY_DEVICE, "rpi5-8gb", ANS_DEPLOY, not_edge, "a Raspberry Pi is an edge board"},
    {ANS_DEPLOY_DEVICE, "rpi5-16gb", ANS_DEPLOY, not_edge, "a Raspberry Pi is an edge board"},
    {ANS_DEPLOY_DEVICE, "jetson-orin-nano", ANS_DEPLOY, not_edge, "a Jetson module is an edge board"},
    {ANS_DEPLOY_DEVICE, "jetson-agx-orin", ANS_DEPLOY, not_edge, "a Jetson module is an edge board"},
    {ANS_DEPLOY_DEVICE, "browser", ANS_DEPLOY, not_browser, "a browser tab is the browser target"},
    {ANS_DEPLOY_DEVICE, "host", ANS_DEPLOY, not_server, "a CPU server is a server target"},
};

static int in_list(const char *const *values, const char *v)
{
    for (; v && *values; values++)
        if (strcmp(*values, v) == 0) return 1;
    return 0;
}

/* The values of `other` allowed with key=value: every allowed one but auto and the impossible. */
static void allowed_with(const struct impossible *p, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    const struct ans_key *other = &ans_keys[p->other];
    for (int i = 0; i < other->nchoices && used < n; i++) {
        const char *v = other->choices[i].value;
        if (strcmp(v, "auto") != 0 && !in_list(p->values, v))
            used += (size_t)snprintf(out + used, n - used, "%s%s", used ? ", " : "", v);
    }
}

/* The first impossible pair (of those about `key`, or all when key < 0) the answers hold. */
static const struct impossible *contradiction(const struct answers *a, int key)
{
    for (size_t i = 0; i < sizeof impossible / sizeof impossible[0]; i++) {
        const struct impossible *p = &impossible[i];
        const char *v = answers_str(a, p->key), *o = answers_str(a, p->other);
        if ((key < 0 || (int)p->key == key) && v && o && strcmp(v, p->value) == 0 && in_list(p->values, o)) return p;
    }
    return NULL;
}

/* Numbers that cannot exceed others: `small` at most `large` when both are set. */
static const struct at_most {
    enum ans_index small, large;
    const char *why;
} at_most[] = {
    {ANS_NODES, ANS_DEVICES, "devices counts the accelerators of all nodes together, and each node has at least one"},
    {ANS_ACTIVE_PARAMS, ANS_MODEL_PARAMS, "the parameters active per token are some of the model's"},
};

/* Numbers that must divide others: `large` a whole multiple of `part` when both are set. */
static const struct multiple_of {
    enum ans_index large, part;
    const char *why;
} multiple_of[] = {
    {ANS_DEVICES, ANS_NODES, "every node holds the same number of accelerators: devices is nodes times the devices per node"},
};

/* Answers that mean something only with a value of another key: `key`, when given, needs
 * `other` to be one of `values`. */
static const struct needs {
    enum ans_index key, other;
    const char *const *values;
    const char *why;
} needs[] = {
    {ANS_LORA_RANK, ANS_FINETUNE, (const char *const[]){"lora", "qlora", NULL}, "the rank is the LoRA adapters'"},
    {ANS_LORA_TARGETS, ANS_FINETUNE, (const char *const[]){"lora", "qlora", NULL}, "they are the matrices LoRA adapts"},
    {ANS_DEPLOY_HARDWARE, ANS_DEPLOY, (const char *const[]){"server", "mobile", "edge", "browser", NULL},
     "it is the hardware the deployed model is served on"},
    {ANS_DATASET_TOKENS, ANS_JOB, (const char *const[]){"finetune", NULL}, "it is the fine-tuning data set's size"},
    {ANS_EPOCHS, ANS_JOB, (const char *const[]){"finetune", NULL}, "it counts passes over the fine-tuning data set"},
};

/* The fine-tuning data set's keys against tokens: epochs multiplies dataset_tokens, and tokens,
 * the run's total, is given instead of both, not with them. */
static ans_key_set data_set_conflict(const struct answers *a, char *err, size_t errsz)
{
    if (a->v[ANS_EPOCHS].given && !a->v[ANS_DATASET_TOKENS].present) {
        snprintf(err, errsz, "keys 'epochs' and 'dataset_tokens': epochs counts passes over the data set; give dataset_tokens "
                             "(its size in tokens) too");
        return ANS_KEY_BIT(ANS_EPOCHS) | ANS_KEY_BIT(ANS_DATASET_TOKENS);
    }
    if (a->v[ANS_TOKENS].given && a->v[ANS_DATASET_TOKENS].given) {
        snprintf(err, errsz, "keys 'tokens' and 'dataset_tokens': tokens is the run's total, dataset_tokens x epochs gives it; "
                             "answer one of them");
        return ANS_KEY_BIT(ANS_TOKENS) | ANS_KEY_BIT(ANS_DATASET_TOKENS);
    }
    return 0;
}

int answers_check_combination(const struct answers *a, char *err, size_t errsz)
{
    return answers_conflict(a, err, errsz) ? -1 : 0;
}

ans_key_set answers_conflict(const struct answers *a, char *err, size_t errsz)
{
    const struct impossible *p = contradiction(a, -1);
    if (p) {
        const char *v = answers_str(a, p->key), *o = answers_str(a, p->other);
        char allowed[160];
        allowed_with(p, allowed, sizeof allowed);
        snprintf(err, errsz, "keys '%s' and '%s': %s %s cannot go with %s %s (%s); with %s %s, %s is one of %s",
                 ans_keys[p->key].name, ans_keys[p->other].name, ans_keys[p->key].name, v, ans_keys[p->other].name, o,
                 p->why, ans_keys[p->key].name, v, ans_keys[p->other].name, allowed);
        return ANS_KEY_BIT(p->key) | ANS_KEY_BIT(p->other);
    }
    for (size_t i = 0; i < sizeof at_most / sizeof at_most[0]; i++) {
        const struct at_most *m = &at_most[i];
        if (!a->v[m->small].present || !a->v[m->large].present || a->v[m->small].num <= a->v[m->large].num) continue;
        snprintf(err, errsz, "keys '%s' and '%s': %s %g is more than %s %g (%s)", ans_keys[m->small].name,
                 ans_keys[m->large].name, ans_keys[m->small].name, a->v[m->small].num, ans_keys[m->large].name,
                 a->v[m->large].num, m->why);
        return ANS_KEY_BIT(m->small) | ANS_KEY_BIT(m->large);
    }
    for (size_t i = 0; i < sizeof multiple_of / sizeof multiple_of[0]; i++) {
        const struct multiple_of *m = &multiple_of[i];
        if (!a->v[m->large].present || !a->v[m->part].present || a->v[m->part].num < 1 ||
            fmod(a->v[m->large].num, a->v[m->part].num) == 0)
            continue;
        snprintf(err, errsz, "keys '%s' and '%s': %s %g is not a multiple of %s %g (%s)", ans_keys[m->large].name,
                 ans_keys[m->part].name, ans_keys[m->large].name, a->v[m->large].num, ans_keys[m->part].name,
                 a->v[m->part].num, m->why);
        return ANS_KEY_BIT(m->large) | ANS_KEY_BIT(m->part);
    }
    for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++) {
        const struct needs *n = &needs[i];
        const char *v = answers_str(a, n->key), *o = answers_str(a, n->other);
        if (!a->v[n->key].given || !o || in_list(n->values, o) || (v && strcmp(v, "auto") == 0)) continue;
        char allowed[160];
        join_list(n->values, allowed, sizeof allowed);
        snprintf(err, errsz, "keys '%s' and '%s': %s applies only with %s %s (%s), not %s %s", ans_keys[n->key].name,
                 ans_keys[n->other].name, ans_keys[n->key].name, ans_keys[n->other].name, allowed, n->why,
                 ans_keys[n->other].name, o);
        return ANS_KEY_BIT(n->key) | ANS_KEY_BIT(n->other);
    }
    return data_set_conflict(a, err, errsz);
}

int answers_drop_contradiction(struct answers *a)
{
    const struct impossible *p = contradiction(a, -1);
    if (!p) return 0;
    enum ans_index drop = p->key == ANS_OS ? ANS_OS : p->other;
    a->v[drop].given = a->v[drop].present = 0;
    return 1;
}

int answers_settle_os(struct answers *a)
{
    const char *hw = answers_str(a, ANS_HARDWARE);
    if (a->v[ANS_OS].given || !hw || !contradiction(a, ANS_OS)) return 0;
    answers_set_str(a, ANS_OS, strcmp(hw, "apple") == 0 ? "macos" : "linux");
    return 1;
}

const char *answers_str(const struct answers *a, enum ans_index i)
{
    if (!a->v[i].present) return NULL;
    if (ans_keys[i].type == ANS_ID) return a->v[i].id;
    return ans_keys[i].type == ANS_ENUM ? ans_keys[i].choices[a->v[i].choice].value : NULL;
}
double answers_num(const struct answers *a, enum ans_index i) { return a->v[i].present ? a->v[i].num : 0; }
int answers_has(const struct answers *a, enum ans_index i) { return a->v[i].present; }

/* The position of id in an ANS_ID_LIST value, or -1. */
static int id_position(const struct ans_value *v, const char *id)
{
    for (int k = 0; id && k < v->count; k++)
        if (strcmp(v->ids[k], id) == 0) return k;
    return -1;
}

int answers_team_has(const struct answers *a, const char *framework) { return id_position(&a->v[ANS_TEAM], framework) >= 0; }

int answers_id_count(const struct answers *a, enum ans_index i) { return a->v[i].present ? a->v[i].count : 0; }

const char *answers_id(const struct answers *a, enum ans_index i, int k)
{
    return k >= 0 && k < answers_id_count(a, i) ? a->v[i].ids[k] : NULL;
}

cJSON *answers_to_json(const struct answers *a)
{
    cJSON *obj = cJSON_CreateObject();
    if (!obj) return NULL;
    for (int i = 0; i < ANS_KEY_COUNT; i++) {
        const struct ans_key *key = &ans_keys[i];
        const struct ans_value *v = &a->v[i];
        cJSON *item;
        if (!v->present) item = cJSON_CreateNull();
        else if (key->type == ANS_ENUM) item = cJSON_CreateString(key->choices[v->choice].value);
        else if (key->type == ANS_ID) item = cJSON_CreateString(v->id);
        else if (key->type == ANS_BOOL) item = cJSON_CreateBool(v->flag);
        else if (key->type == ANS_ID_LIST) {
            item = cJSON_CreateArray();
            for (int j = 0; item && j < v->count; j++) cJSON_AddItemToArray(item, cJSON_CreateString(v->ids[j]));
        } else item = cJSON_CreateNumber(v->num);
        if (!item) {
            cJSON_Delete(obj);
            return NULL;
        }
        cJSON_AddItemToObject(obj, key->name, item);
    }
    return obj;
}

cJSON *answers_given_json(const struct answers *a)
{
    cJSON *all = answers_to_json(a), *doc = cJSON_CreateObject();
    if (!all || !doc || !cJSON_AddStringToObject(doc, "schema", "fwadvisor.answers/1")) {
        cJSON_Delete(all);
        cJSON_Delete(doc);
        return NULL;
    }
    for (int i = 0; i < ANS_KEY_COUNT; i++) {
        if (!a->v[i].given) continue;
        cJSON *item = cJSON_DetachItemFromObjectCaseSensitive(all, ans_keys[i].name);
        if (item) cJSON_AddItemToObject(doc, ans_keys[i].name, item);
    }
    cJSON_Delete(all);
    return doc;
}

/* A number as --set takes it back exactly and a person reads it: a whole number with the largest
 * suffix that divides it (70B, 1.4T is not whole: 1400B; 2000 stays 2000), else the shortest
 * decimal that reads back the same, without an exponent's "+" or leading zeros (2.5e-7). */
static void number_word(double v, char *out, size_t n)
{
    static const struct { double scale; const char *suffix; } steps[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}};
    if (v == floor(v) && fabs(v) < 1e18) {
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
            if (fabs(v) >= steps[i].scale && fmod(v, steps[i].scale) == 0) {
                snprintf(out, n, "%.0f%s", v / steps[i].scale, steps[i].suffix);
                return;
            }
        snprintf(out, n, "%.0f", v);
        return;
    }
    char tmp[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(tmp, sizeof tmp, "%.*g", digits, v);
        if (strtod(tmp, NULL) == v) break;
    }
    char *e = strchr(tmp, 'e');
    if (!e) {
        snprintf(out, n, "%s", tmp);
        return;
    }
    /* 2.5e-07 -> 2.5e-7 */
    const char *exp = e + 1;
    int neg = *exp == '-';
    if (*exp == '+' || *exp == '-') exp++;
    while (*exp == '0' && exp[1]) exp++;
    snprintf(out, n, "%.*se%s%s", (int)(e - tmp), tmp, neg ? "-" : "", exp);
}

/* 1 when a shell takes word as it is: letters, digits and . _ , + - = : / */
static int shell_plain(const char *word)
{
    if (!*word) return 0;
    for (const char *c = word; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("._,+-=:/", *c)) return 0;
    return 1;
}

size_t answers_command(const struct answers *a, char *out, size_t n)
{
    size_t used = (size_t)snprintf(out, n, "fwadvisor recommend");
    for (int i = 0; i < ANS_KEY_COUNT && used < n; i++) {
        const struct ans_key *key = &ans_keys[i];
        const struct ans_value *v = &a->v[i];
        if (!v->given || !v->present) continue;
        char value[ANS_ID_LIST_MAX * (ANS_ID_MAX + 1) + 8] = "", word[sizeof value + 64];
        if (key->type == ANS_ENUM) snprintf(value, sizeof value, "%s", key->choices[v->choice].value);
        else if (key->type == ANS_ID) snprintf(value, sizeof value, "%s", v->id);
        else if (key->type == ANS_BOOL) snprintf(value, sizeof value, "%s", v->flag ? "true" : "false");
        else if (key->type == ANS_ID_LIST)
            for (int j = 0, k = 0; j < v->count; j++)
                k += snprintf(value + k, sizeof value - (size_t)k, "%s%s", j ? "," : "", v->ids[j]);
        else number_word(v->num, value, sizeof value);
        snprintf(word, sizeof word, "%s=%s", key->name, value);
        if (shell_plain(word)) used += (size_t)snprintf(out + used, n - used, " --set %s", word);
        else { /* in single quotes, a quote itself as '\'' */
            used += (size_t)snprintf(out + used, n - used, " --set '");
            for (const char *c = word; *c && used < n; c++)
                used += (size_t)snprintf(out + used, n - used, *c == '\'' ? "'\\''" : "%c", *c);
            if (used < n) used += (size_t)snprintf(out + used, n - used, "'");
        }
    }
    return used < n ? used : n - 1;
}

/* --- conditions ------------------------------------------------------------------------- */

static int value_equals(const struct ans_key *key, const struct ans_value *v, const cJSON *want)
{
    switch (key->type) {
    case ANS_ENUM: return cJSON_IsString(want) && ans_key_value_index(key, want->valuestring) == v->choice;
    case ANS_ID_LIST: return cJSON_IsString(want) && id_position(v, want->valuestring) >= 0;
    case ANS_INT:
    case ANS_NUMBER: return cJSON_IsNumber(want) && v->num == want->valuedouble;
    case ANS_BOOL: return cJSON_IsBool(want) && v->flag == cJSON_IsTrue(want);
    case ANS_ID: return cJSON_IsString(want) && strcmp(v->id, want->valuestring) == 0;
    }
    return 0;
}

static int compare(double have, const char *op, double want)
{
    if (strcmp(op, "<") == 0) return have < want;
    if (strcmp(op, "<=") == 0) return have <= want;
    if (strcmp(op, ">") == 0) return have > want;
    if (strcmp(op, ">=") == 0) return have >= want;
    if (strcmp(op, "==") == 0) return have == want;
    if (strcmp(op, "!=") == 0) return have != want;
    return 0;
}

int answers_match(const struct answers *a, const cJSON *cond)
{
    for (const cJSON *e = cond ? cond->child : NULL; e; e = e->next) {
        if (strcmp(e->string, "any") == 0) {
            int any = 0;
            for (const cJSON *c = e->child; c && !any; c = c->next) any = answers_match(a, c);
            if (!any) return 0;
            continue;
        }
        if (strcmp(e->string, "not") == 0) {
            if (answers_match(a, e)) return 0;
            continue;
        }
        int i = ans_key_index(e->string);
        if (i < 0 || !a->v[i].present) return 0;
        const struct ans_key *key = &ans_keys[i];
        const struct ans_value *v = &a->v[i];
        if (cJSON_IsArray(e)) {
            int any = 0;
            for (const cJSON *w = e->child; w && !any; w = w->next) any = value_equals(key, v, w);
            if (!any) return 0;
        } else if (cJSON_IsObject(e)) {
            for (const cJSON *op = e->child; op; op = op->next)
                if (!compare(v->num, op->string, op->valuedouble)) return 0;
        } else if (!value_equals(key, v, e)) {
            return 0;
        }
    }
    return 1;
}
