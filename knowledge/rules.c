/* Validation of rule conditions and effects; the advisor evaluates them. */
#include "knowledge/rules.h"
#include "knowledge/answer_keys.h"
#include "knowledge/kb_tables.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void join_allowed(const struct ans_key *key, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < key->nchoices; i++) {
        int w = snprintf(out + used, n - used, "%s%s", used ? ", " : "", key->choices[i].value);
        if (w < 0 || (size_t)w >= n - used) break;
        used += (size_t)w;
    }
}

/* The ids a condition names and the table they must be rows of. */
struct id_check {
    rule_id_exists_fn exists;
    void *ctx;
};

static int check_value(const char *path, const struct ans_key *key, const cJSON *v, const struct id_check *ids,
                       char *err, size_t errsz)
{
    char allowed[256];
    switch (key->type) {
    case ANS_ID_LIST: /* one of its words, or an id of its table */
        if (!cJSON_IsString(v)) {
            snprintf(err, errsz, "%s: expected a string", path);
            return -1;
        }
        if (!ans_key_allows(key, v->valuestring) && !ids->exists(ids->ctx, key->table, v->valuestring)) {
            join_allowed(key, allowed, sizeof allowed);
            snprintf(err, errsz, "%s: unknown %s id '%s' (not in %s, nor %s)", path, key->noun, v->valuestring, key->table,
                     allowed);
            return -1;
        }
        return 0;
    case ANS_ENUM:
        if (!cJSON_IsString(v)) {
            snprintf(err, errsz, "%s: expected a string", path);
            return -1;
        }
        if (!ans_key_allows(key, v->valuestring)) {
            join_allowed(key, allowed, sizeof allowed);
            snprintf(err, errsz, "%s: '%s' is not one of %s", path, v->valuestring, allowed);
            return -1;
        }
        return 0;
    case ANS_INT:
    case ANS_NUMBER:
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
            snprintf(err, errsz, "%s: expected a number", path);
            return -1;
        }
        return 0;
    case ANS_BOOL:
        if (!cJSON_IsBool(v)) {
            snprintf(err, errsz, "%s: expected true or false", path);
            return -1;
        }
        return 0;
    case ANS_ID:
        if (!cJSON_IsString(v) || strlen(v->valuestring) >= ANS_ID_MAX || !kb_valid_ident(v->valuestring)) {
            snprintf(err, errsz, "%s: expected an id (lower-case letters, digits, '-', '_', '.')", path);
            return -1;
        }
        return 0;
    }
    return 0;
}

static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!=", NULL};

static int is_op(const char *s)
{
    for (const char *const *o = ops; *o; o++)
        if (strcmp(*o, s) == 0) return 1;
    return 0;
}

static int check_cond(const cJSON *cond, const char *path, int depth, const struct id_check *ids, char *err,
                      size_t errsz)
{
    char sub[160];
    if (depth > 8) {
        snprintf(err, errsz, "%s: nested too deeply", path);
        return -1;
    }
    if (!cJSON_IsObject(cond)) {
        snprintf(err, errsz, "%s: expected an object", path);
        return -1;
    }
    for (const cJSON *e = cond->child; e; e = e->next) {
        snprintf(sub, sizeof sub, "%s.%s", path, e->string);
        if (strcmp(e->string, "any") == 0) {
            if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) == 0) {
                snprintf(err, errsz, "%s: expected a non-empty array of conditions", sub);
                return -1;
            }
            int i = 0;
            for (const cJSON *c = e->child; c; c = c->next, i++) {
                char item[180];
                snprintf(item, sizeof item, "%s[%d]", sub, i);
                if (check_cond(c, item, depth + 1, ids, err, errsz)) return -1;
            }
            continue;
        }
        if (strcmp(e->string, "not") == 0) {
            if (check_cond(e, sub, depth + 1, ids, err, errsz)) return -1;
            continue;
        }
        const struct ans_key *key = ans_key_find(e->string);
        if (!key) {
            const char *near = ans_key_nearest(e->string);
            if (near)
                snprintf(err, errsz, "%s: unknown answer key (did you mean '%s'?)", sub, near);
            else
                snprintf(err, errsz, "%s: unknown answer key", sub);
            return -1;
        }
        if (cJSON_IsArray(e)) {
            if (cJSON_GetArraySize(e) == 0) {
                snprintf(err, errsz, "%s: empty list of values", sub);
                return -1;
            }
            for (const cJSON *v = e->child; v; v = v->next)
                if (check_value(sub, key, v, ids, err, errsz)) return -1;
        } else if (cJSON_IsObject(e)) {
            if (key->type != ANS_INT && key->type != ANS_NUMBER) {
                snprintf(err, errsz, "%s: comparisons apply to numeric keys only", sub);
                return -1;
            }
            if (!e->child) {
                snprintf(err, errsz, "%s: empty comparison", sub);
                return -1;
            }
            for (const cJSON *op = e->child; op; op = op->next) {
                if (!is_op(op->string)) {
                    snprintf(err, errsz, "%s: unknown operator '%s' (use <, <=, >, >=, ==, !=)", sub,
                             op->string);
                    return -1;
                }
                if (!cJSON_IsNumber(op) || !isfinite(op->valuedouble)) {
                    snprintf(err, errsz, "%s.%s: expected a number", sub, op->string);
                    return -1;
                }
            }
        } else if (check_value(sub, key, e, ids, err, errsz)) {
            return -1;
        }
    }
    return 0;
}

int rule_check_condition(const cJSON *cond, rule_id_exists_fn exists, void *ctx, char *err, size_t errsz)
{
    const struct id_check ids = {exists, ctx};
    return check_cond(cond, "condition", 0, &ids, err, errsz);
}

/* Bounds on what a rule may state, so that any number of imported rules keeps the advisor's
 * arithmetic exact: points on a 0-100 scale, weight factors, and planning facts. */
#define RULE_MAX_POINTS 100.0
#define RULE_MIN_WEIGHT 0.01
#define RULE_MAX_WEIGHT 100.0
#define RULE_MAX_FACT 1e15

/* An object of id -> number, each id a row of table; positive: a weight factor. */
static int check_id_numbers(const cJSON *obj, const char *path, const char *table, int positive,
                            rule_id_exists_fn exists, void *ctx, char *err, size_t errsz)
{
    if (!cJSON_IsObject(obj) || !obj->child) {
        snprintf(err, errsz, "%s: expected a non-empty object of %s ids to numbers", path, table);
        return -1;
    }
    for (const cJSON *e = obj->child; e; e = e->next) {
        if (!exists(ctx, table, e->string)) {
            snprintf(err, errsz, "%s: unknown id '%s' (not in %s)", path, e->string, table);
            return -1;
        }
        double v = cJSON_IsNumber(e) ? e->valuedouble : NAN;
        if (positive ? !(v >= RULE_MIN_WEIGHT && v <= RULE_MAX_WEIGHT) : !(fabs(v) <= RULE_MAX_POINTS)) {
            if (positive)
                snprintf(err, errsz, "%s.%s: expected a weight factor from %g to %g", path, e->string, RULE_MIN_WEIGHT,
                         RULE_MAX_WEIGHT);
            else
                snprintf(err, errsz, "%s.%s: expected points from %g to %g", path, e->string, -RULE_MAX_POINTS,
                         RULE_MAX_POINTS);
            return -1;
        }
    }
    return 0;
}

/* {"frameworks": [ids], "strategies": [ids], "runtimes": [ids], "switching": bool}, each member
 * optional, the lists non-empty. */
static int check_concerns(const cJSON *obj, const char *path, rule_id_exists_fn exists, void *ctx, char *err,
                          size_t errsz)
{
    static const char *const tables[] = {"frameworks", "strategies", "runtimes"};
    if (!cJSON_IsObject(obj) || !obj->child) {
        snprintf(err, errsz, "%s: expected an object of frameworks, strategies or runtimes lists", path);
        return -1;
    }
    for (const cJSON *e = obj->child; e; e = e->next) {
        if (strcmp(e->string, "switching") == 0) {
            if (!cJSON_IsBool(e)) {
                snprintf(err, errsz, "%s.switching: expected true or false", path);
                return -1;
            }
            continue;
        }
        int t = -1;
        for (int i = 0; i < 3; i++)
            if (strcmp(e->string, tables[i]) == 0) t = i;
        if (t < 0 || !cJSON_IsArray(e) || !e->child) {
            snprintf(err, errsz, "%s.%s: expected frameworks, strategies or runtimes as a non-empty array of ids, or switching", path,
                     e->string);
            return -1;
        }
        for (const cJSON *v = e->child; v; v = v->next)
            if (!cJSON_IsString(v) || !exists(ctx, tables[t], v->valuestring)) {
                snprintf(err, errsz, "%s.%s: unknown id '%s' (not in %s)", path, e->string,
                         cJSON_IsString(v) ? v->valuestring : "(not a string)", tables[t]);
                return -1;
            }
    }
    return 0;
}

/* A non-empty array of ids of table (`what` names one in the message). */
static int check_id_list(const cJSON *e, const char *path, const char *table, const char *what, rule_id_exists_fn exists,
                         void *ctx, char *err, size_t errsz)
{
    if (!cJSON_IsArray(e) || !e->child) {
        snprintf(err, errsz, "%s: expected a non-empty array of %s ids", path, what);
        return -1;
    }
    for (const cJSON *v = e->child; v; v = v->next)
        if (!cJSON_IsString(v) || !exists(ctx, table, v->valuestring)) {
            snprintf(err, errsz, "%s: unknown %s id '%s'", path, what, cJSON_IsString(v) ? v->valuestring : "(not a string)");
            return -1;
        }
    return 0;
}

int rule_check_effect(const cJSON *effect, rule_id_exists_fn exists, void *ctx, char *err,
                      size_t errsz)
{
    if (!cJSON_IsObject(effect)) {
        snprintf(err, errsz, "effect: expected an object");
        return -1;
    }
    for (const cJSON *e = effect->child; e; e = e->next) {
        char path[96];
        snprintf(path, sizeof path, "effect.%s", e->string);
        if (strcmp(e->string, "score") == 0) {
            if (check_id_numbers(e, path, "frameworks", 0, exists, ctx, err, errsz)) return -1;
        } else if (strcmp(e->string, "weight") == 0) {
            if (check_id_numbers(e, path, "criteria", 1, exists, ctx, err, errsz)) return -1;
        } else if (strcmp(e->string, "strategy") == 0) {
            if (check_id_numbers(e, path, "strategies", 0, exists, ctx, err, errsz)) return -1;
        } else if (strcmp(e->string, "runtime") == 0) {
            if (check_id_numbers(e, path, "runtimes", 0, exists, ctx, err, errsz)) return -1;
        } else if (strcmp(e->string, "exclude") == 0 || strcmp(e->string, "not_offered") == 0) {
            int fw = strcmp(e->string, "exclude") == 0;
            if (check_id_list(e, path, fw ? "frameworks" : "strategies", fw ? "framework" : "strategy", exists, ctx, err,
                              errsz))
                return -1;
        } else if (strcmp(e->string, "tree") == 0 || strcmp(e->string, "claim") == 0) {
            if (!cJSON_IsString(e) || !*e->valuestring) {
                snprintf(err, errsz, "%s: expected a name", path);
                return -1;
            }
        } else if (strcmp(e->string, "familiar") == 0) {
            if (check_id_numbers(e, path, "frameworks", 1, exists, ctx, err, errsz)) return -1;
            for (const cJSON *v = e->child; v; v = v->next)
                if (v->valuedouble > 1) {
                    snprintf(err, errsz, "%s.%s: expected a share between 0 and 1", path, v->string);
                    return -1;
                }
        } else if (strcmp(e->string, "concerns") == 0) {
            if (check_concerns(e, path, exists, ctx, err, errsz)) return -1;
        } else if (strcmp(e->string, "facts") == 0) {
            if (!cJSON_IsObject(e) || !e->child) {
                snprintf(err, errsz, "%s: expected a non-empty object of names to numbers", path);
                return -1;
            }
            for (const cJSON *v = e->child; v; v = v->next) {
                if (!cJSON_IsNumber(v) || !(fabs(v->valuedouble) <= RULE_MAX_FACT)) {
                    snprintf(err, errsz, "%s.%s: expected a number from %g to %g", path, v->string, -RULE_MAX_FACT,
                             RULE_MAX_FACT);
                    return -1;
                }
            }
        } else {
            snprintf(err, errsz,
                     "%s: unknown effect (use score, weight, exclude, not_offered, strategy, runtime, facts, tree, claim, familiar, concerns)",
                     path);
            return -1;
        }
    }
    return 0;
}
