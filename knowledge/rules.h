/* rules: checks the condition and effect documents of advice rules (docs/knowledge-base.md)
 * before they enter the knowledge base. */
#ifndef FWADVISOR_RULES_H
#define FWADVISOR_RULES_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* Answers 1 when `id` names a row of `table` (frameworks, criteria, strategies, runtimes). */
typedef int (*rule_id_exists_fn)(void *ctx, const char *table, const char *id);

/* 0 when cond is a valid condition object whose ids (a team's frameworks) all exist; else -1 with
 * a message (path-relative, e.g. "condition.stage: 'prod' is not one of learning, research, ...")
 * in err. */
int rule_check_condition(const cJSON *cond, rule_id_exists_fn exists, void *ctx, char *err, size_t errsz);

/* 0 when effect is a valid effect object whose ids all exist; else -1 and a message. */
int rule_check_effect(const cJSON *effect, rule_id_exists_fn exists, void *ctx, char *err,
                      size_t errsz);

#endif
