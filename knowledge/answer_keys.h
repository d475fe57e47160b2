/* answer_keys: the keys of fwadvisor.answers/1 (docs/report.md), their types and allowed values.
 * Shared by the rule validator and the answers parser. */
#ifndef FWADVISOR_ANSWER_KEYS_H
#define FWADVISOR_ANSWER_KEYS_H

#include "common/suggest.h"

enum ans_type {
    ANS_ENUM,      /* one string of `allowed` */
    ANS_ENUM_LIST, /* array of strings of `allowed` */
    ANS_INT,       /* integer >= min */
    ANS_NUMBER,    /* number > min (min_exclusive) or >= min */
    ANS_BOOL,
    ANS_ID,        /* an id from a knowledge-base table (lower-case letters, digits, '-', '_', '.'),
                      checked against the table by the advisor */
};

/* The largest number any key takes (see answers.c). */
#define ANS_MAX_NUMBER 1e15

struct ans_key {
    const char *name;
    enum ans_type type;
    const char *const *allowed; /* NULL-terminated, for the enum types */
    double min;
    int min_exclusive;
};

/* Indices into ans_keys, in the documented order. */
enum ans_index {
    ANS_STAGE, ANS_HARDWARE, ANS_OS, ANS_DEVICES, ANS_NODES, ANS_DEVICE_MEMORY_GB, ANS_MODEL_KIND,
    ANS_MODEL_PARAMS, ANS_TOKENS, ANS_SEQ_LEN, ANS_HIDDEN, ANS_LAYERS, ANS_HEADS, ANS_TEAM, ANS_FUNCTIONAL,
    ANS_HIGHER_ORDER_GRAD, ANS_DEPLOY, ANS_PRIORITY, ANS_PRICE_PER_DEVICE_HOUR, ANS_DEPLOY_HARDWARE,
    /* the plan's keys */
    ANS_ACCELERATOR, ANS_PRECISION, ANS_FINETUNE, ANS_LORA_RANK, ANS_RECOMPUTE, ANS_HOST_MEMORY_GB,
    ANS_ACTIVE_PARAMS, ANS_EXPERTS,
    /* the inference plan's keys */
    ANS_SERVE_CONTEXT, ANS_SERVE_BATCH, ANS_KV_HEADS, ANS_KV_PRECISION, ANS_KEY_COUNT
};

/* Longest ANS_ID value, terminator included. */
#define ANS_ID_MAX 48

extern const struct ans_key ans_keys[];
extern const int ans_key_count;
/* Allowed values shared with the knowledge-base tables (runtimes.kinds, runtimes.hardware). */
extern const char *const ans_model_kinds[];
extern const char *const ans_deploy_hardware[]; /* "auto" first */

const struct ans_key *ans_key_find(const char *name);
/* Index of a key, or -1. */
int ans_key_index(const char *name);
/* The position of value among key's allowed values (exact case), or -1. */
int ans_key_value_index(const struct ans_key *key, const char *value);
/* 1 if value is among key->allowed. */
int ans_key_allows(const struct ans_key *key, const char *value);
/* The known key nearest to name (common/suggest.h), or NULL. */
const char *ans_key_nearest(const char *name);

#endif
