/* answer_keys: the keys of fwadvisor.answers/1 (docs/report.md), their types, their choices
 * (allowed values, or the numbers a front end suggests, each with its label and help) and their
 * defaults. The one table the answers parser, the rule validator and the wizard read. */
#ifndef FWADVISOR_ANSWER_KEYS_H
#define FWADVISOR_ANSWER_KEYS_H

#include "common/suggest.h"

enum ans_type {
    ANS_ENUM,      /* one of `choices` */
    ANS_ID_LIST,   /* a list of ids from the knowledge-base table `table` (ANS_ID's characters, at
                      most ANS_ID_LIST_MAX), or one of `choices` alone ("none"); the advisor
                      checks the ids against the table */
    ANS_INT,       /* integer >= min */
    ANS_NUMBER,    /* number > min (min_exclusive) or >= min */
    ANS_BOOL,      /* choices[0] is true, choices[1] false */
    ANS_ID,        /* an id from a knowledge-base table (lower-case letters, digits, '-', '_', '.'),
                      checked against the table by the advisor */
};

/* The largest number any key takes (see answers.c). */
#define ANS_MAX_NUMBER 1e15

/* One choice a key offers: an allowed value of an enum key, true or false, or a number suggested
 * for a numeric key (written as an answers file may: "1e9", "1024"). value NULL: the choice
 * that leaves the key to its default or to the planner. */
struct ans_choice {
    const char *value;
    const char *label; /* how a front end offers it */
    const char *help;  /* one line drawn from the seed articles */
};

struct ans_key {
    const char *name;
    enum ans_type type;
    const struct ans_choice *choices; /* ANS_ENUM: the allowed values, in order; ANS_ID_LIST: the
                                         words taken besides ids, each alone */
    int nchoices;
    double min;
    int min_exclusive;
    int default_choice;    /* the choice a left-out answer takes, -1: none (os: the running system) */
    double default_number; /* ANS_INT, ANS_NUMBER: the number a left-out answer takes, 0: none */
    const struct ans_choice *unset; /* offered before the choices to leave the key out, or NULL */
    const char *table; /* ANS_ID_LIST: the knowledge-base table its ids name ("frameworks") */
    const char *noun;  /* ANS_ID_LIST: one row of it, in words ("framework") */
};

/* enum ans_index: ANS_STAGE, ANS_HARDWARE, ... ANS_KEY_COUNT, the indices into ans_keys in its
 * order, written into the build folder from the table's rows (scripts/answer-key-ids.awk): a new
 * key is its row in knowledge/answer_keys.c, and ANS_<NAME> follows. */
#include "answer_key_ids.h"

/* A set of keys (bit i = key i), as answers_check_combination names the keys it is about. */
typedef unsigned long long ans_key_set;
#define ANS_KEY_BIT(i) (1ull << (i))
_Static_assert(ANS_KEY_COUNT <= 64, "ans_key_set holds a bit per key");

/* Longest ANS_ID value, terminator included. */
#define ANS_ID_MAX 48
/* Most ids an ANS_ID_LIST answer holds: as many frameworks as the knowledge base and the advisor
 * hold (KB_MAX_FRAMEWORKS, ADV_MAX_FRAMEWORKS; checked there). */
#define ANS_ID_LIST_MAX 32

extern const struct ans_key ans_keys[];
extern const int ans_key_count;
/* Allowed values shared with the knowledge-base tables (runtimes.kinds, runtimes.hardware),
 * NULL-terminated, written once with their keys' choices. */
extern const char *const ans_model_kinds[];
extern const char *const ans_deploy_hardware[]; /* "auto" first */
extern const char *const ans_hardware[];        /* "auto" first */
/* The hardware values that are accelerator platforms (all but auto and cpu): the accelerator
 * catalog's vendors. */
extern const char *const ans_accelerator_vendors[];

const struct ans_key *ans_key_find(const char *name);
/* Index of a key, or -1. */
int ans_key_index(const char *name);
/* The position of value among key's choices (exact case), or -1. */
int ans_key_value_index(const struct ans_key *key, const char *value);
/* 1 if value is among key's choices. */
int ans_key_allows(const struct ans_key *key, const char *value);
/* The known key nearest to name (common/suggest.h), or NULL. */
const char *ans_key_nearest(const char *name);

#endif
