/* answers: a team's situation (fwadvisor.answers/1), parsed, validated and completed with
 * defaults. An enum key holds the index of its choice in ans_keys (text only where answers are
 * read or written), so an answers struct owns no memory and can be copied freely. */
#ifndef FWADVISOR_ANSWERS_H
#define FWADVISOR_ANSWERS_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "knowledge/answer_keys.h"

#define ANSWERS_SCHEMA "fwadvisor.answers/1"

struct ans_value {
    int given;        /* set by the user (file or --set) */
    int present;      /* has a value: given, defaulted or resolved */
    int choice;       /* ANS_ENUM: the index of the value among the key's choices */
    char id[ANS_ID_MAX]; /* ANS_ID, held in place so that a copy stays whole */
    double num;       /* ANS_INT, ANS_NUMBER */
    int flag;         /* ANS_BOOL */
    int count;        /* ANS_ID_LIST: how many of ids hold a value */
    char ids[ANS_ID_LIST_MAX][ANS_ID_MAX]; /* ANS_ID_LIST: the ids (or its one word) as given, once each */
};

struct answers {
    struct ans_value v[ANS_KEY_COUNT];
};

/* All keys absent. */
void answers_init(struct answers *a);

/* Applies a JSON document (an object of answer keys; "schema" may name ANSWERS_SCHEMA and
 * "description" say what the file is for). Enum values are taken in any case ("NVIDIA");
 * numbers may be strings with K/M/B/T suffixes ("70B", common/units.h). `name`
 * names the source in messages. Returns 0, or -1 with one line in err (key, allowed values,
 * nearest key for a typo, byte offset for malformed JSON). */
int answers_parse_json(struct answers *a, const char *text, size_t len, const char *name, char *err,
                       size_t errsz);

/* Applies one "KEY=VALUE" (as given to --set). Lists are comma-separated; booleans take
 * true/false/yes/no/1/0; numbers take suffixes ("70B"). Returns 0, or -1 with one line in err. */
int answers_set(struct answers *a, const char *assignment, char *err, size_t errsz);
/* The same, with `where` ("config: line 4: ") leading each message instead of "--set K=V: ". */
int answers_set_from(struct answers *a, const char *assignment, const char *where, char *err, size_t errsz);

/* Sets an ANS_ENUM or ANS_BOOL key to its choice-th choice, as given by the user. */
void answers_choose(struct answers *a, enum ans_index i, int choice);
/* Sets an ANS_ID_LIST key to n ids (or its word alone), as given by the user: each checked as a
 * file's item is (a team of "none" and a framework is refused). Returns 0, or -1 with one line
 * in err. */
int answers_set_ids(struct answers *a, enum ans_index i, const char *const *ids, int n, char *err, size_t errsz);
/* The index of an ANS_ENUM or ANS_BOOL key's choice, or -1 when absent. */
int answers_choice(const struct answers *a, enum ans_index i);
/* The choice a left-out key takes (its row's default_choice; for os the running system), or -1. */
int answers_default_choice(enum ans_index i);

/* Fills defaults for keys the user left out, from their rows in ans_keys (default_choice,
 * default_number): stage research, hardware auto, os the running system, devices 1, nodes 1,
 * model_kind other, model_params 1e7, team [], functional and higher_order_grad false, deploy
 * none, priority iteration, deploy_hardware auto, finetune full, lora_rank 16, recompute auto;
 * job as answers_derived_job says; tokens, when not given: dataset_tokens x epochs (1 when left
 * out) for a fine-tune, none for a fine-tune without dataset_tokens or for serving, and
 * 20 x model_params for an llm otherwise. device_memory_gb, accelerator, precision and the LLM
 * shape stay absent for the planner to resolve. */
void answers_fill_defaults(struct answers *a);
/* The job the answers describe when `job` is left out: "finetune" when finetune is given as lora
 * or qlora, or dataset_tokens or epochs is given; "serve" when deploy is given and not none and
 * neither tokens nor finetune is; else "pretrain". Only given answers count, not defaults. */
const char *answers_derived_job(const struct answers *a);

/* 0 when no two answers contradict each other; else -1 and one line naming both keys. Three
 * tables in answers.c: pairs no machine can have (os macos with hardware nvidia, windows with
 * tpu, deploy mobile with deploy_hardware tpu, ...; the line gives the values allowed with the
 * first), numbers that cannot exceed others (nodes above devices, active_params above
 * model_params) and answers that need another's value (lora_rank without LoRA, deploy_hardware
 * with deploy none). Answers left out or auto are not compared. */
int answers_check_combination(const struct answers *a, char *err, size_t errsz);
/* The same check, saying which keys the contradiction is about: their set (the two keys of the
 * line in err), or 0 when there is none. */
ans_key_set answers_conflict(const struct answers *a, char *err, size_t errsz);

/* Clears the weaker answer of the first impossible pair (os against the hardware,
 * deploy_hardware against the deployment target) and returns 1, or returns 0 when there is
 * none. For front ends that build answers one choice at a time. */
int answers_drop_contradiction(struct answers *a);

/* When `os` was not given and the (resolved) hardware cannot run on the default, the running
 * system, sets it to the system that hardware runs on (linux, or macos for apple). Returns 1
 * when it changed os. */
int answers_settle_os(struct answers *a);

/* The running system as an `os` value. */
const char *answers_running_os(void);

/* Convenience accessors. answers_str gives an ANS_ENUM or ANS_ID value (NULL when absent). */
const char *answers_str(const struct answers *a, enum ans_index i);
double answers_num(const struct answers *a, enum ans_index i);
int answers_has(const struct answers *a, enum ans_index i);
int answers_team_has(const struct answers *a, const char *framework);
/* An ANS_ID_LIST key's count of ids and its k-th id (NULL past the end or when absent). */
int answers_id_count(const struct answers *a, enum ans_index i);
const char *answers_id(const struct answers *a, enum ans_index i, int k);

void answers_set_str(struct answers *a, enum ans_index i, const char *value); /* value must be allowed */
void answers_set_num(struct answers *a, enum ans_index i, double value);
void answers_set_id(struct answers *a, enum ans_index i, const char *id); /* an ANS_ID key; cut to fit */

/* Every key, absent ones as null. Caller frees. */
cJSON *answers_to_json(const struct answers *a);
/* The given keys only, as an answers file (schema fwadvisor.answers/1) that reads back to the same
 * answers. Caller frees; NULL when out of memory. */
cJSON *answers_given_json(const struct answers *a);
/* The given keys as one command line that gives the same answers: "fwadvisor recommend --set
 * devices=8 --set team=pytorch,jax ...", in the key table's order, each value exact (numbers in
 * their shortest exact form) and quoted for a POSIX shell where it needs it. Returns the length
 * (cut at n - 1). */
size_t answers_command(const struct answers *a, char *out, size_t n);

/* 1 when the rule condition (docs/knowledge-base.md) holds for the answers. The condition must
 * have passed rule_check_condition. */
int answers_match(const struct answers *a, const cJSON *condition);

#endif
