/* The advisor's in-memory copy of the knowledge base, shared by the advisor's files and report.c. */
#ifndef FWADVISOR_ADVISOR_KB_H
#define FWADVISOR_ADVISOR_KB_H

#include "knowledge/advisor.h"
#include "common/i18n.h"

#include <stdio.h>

#include <limits.h>

enum { LEVEL_FIRST, LEVEL_SUPPORTED, LEVEL_EXPERIMENTAL, LEVEL_COMMUNITY, LEVEL_NONE, LEVEL_COUNT };
extern const char *const adv_level_names[LEVEL_COUNT];

/* Hardware platforms are numbered one bit each of a mask (strat.hardware): a structural limit,
 * which kb_import enforces. Every other table is as long as the database makes it. */
#define ADV_MAX_HARDWARE KB_MAX_HARDWARE
_Static_assert(ADV_MAX_HARDWARE <= sizeof(unsigned) * CHAR_BIT, "one bit per hardware platform in an unsigned");
_Static_assert(ADV_MAX_FRAMEWORKS <= sizeof(unsigned) * CHAR_BIT, "one bit per framework in an unsigned");

struct adv_score { int present, score; const char *note, *source, *also; };

/* The level on one operating system where it differs from the row's (hw_support.os_support). */
struct adv_os_level { int present, level; const char *since, *note, *source; };

struct adv_support {
    int present, level, fit;
    const char *note, *source, *also, *since;
    struct adv_os_level os[3]; /* indexed like the `os` answer's allowed values */
};

/* How a framework's model reaches a runtime (runtime_frameworks.path); 0: it does not. */
enum { PATH_NONE, PATH_INDIRECT, PATH_CONVERTER, PATH_NATIVE };
extern const char *const adv_path_names[];

/* A strategy the advisor may choose, with its memory plan (advisor_choose.c). */
struct adv_candidate {
    int s, points, group; /* group: 0 single device, 1 replicated, 2 sharded, 3 offload */
    struct adv_memory mem;
};

/* The working space of adv_rank and adv_recommend, sized by adv_kb_load from the row counts so
 * that they run without allocating. One call at a time on a loaded knowledge base. */
struct adv_work {
    unsigned char *applies;        /* nrules: adv_applicable */
    const char **claimed;          /* nrules: the claims counted for a framework */
    double *weights, *mean;        /* ncrit: the criteria's weights, their mean scores */
    int *counted;                  /* ncrit: frameworks with a score on the criterion */
    double *exact;                 /* ncrit + 1: a framework's criteria points, baseline first */
    int *rounded;                  /* ncrit + 1 */
    struct adv_candidate *cands;   /* nstrat + 1: the strategies adv_choose_strategy weighs */
    int *cand_index, *cand_used;   /* nstrat + 1 */
    int *strategy_points;          /* nstrat: the rules' preference for each strategy */
    int *runtime_points;           /* nrt: and for each runtime */
};

/* Frameworks and hardware platforms stay in fixed arrays (their limits are structural); the
 * other tables are allocated from the arena with as many rows as the database holds. */
struct adv_kb {
    struct arena_block *arena;
    char version[64], date[32];
    int nfw, ncrit, nhw, nstrat, nrt, nacc, nrules, nsources;
    struct { const char *id, *name, *summary; } fw[ADV_MAX_FRAMEWORKS];
    struct { const char *id, *name, *source; double weight; } *crit;
    struct { const char *id, *name; } hw[ADV_MAX_HARDWARE];
    struct adv_score *scores[ADV_MAX_FRAMEWORKS]; /* per framework, ncrit of them */
    struct adv_support support[ADV_MAX_FRAMEWORKS][ADV_MAX_HARDWARE];
    struct {
        const char *id, *name, *status, *summary, *formula, *source;
        double replicated, sharded, cpu;
        int min_devices, tensor_parallel;
        unsigned kinds;      /* bit per model_kind value; 0: any */
        unsigned frameworks; /* bit per fw index */
        unsigned hardware[ADV_MAX_FRAMEWORKS]; /* per framework: bit per hw index it runs on */
    } *strat;
    struct {
        const char *id, *name, *status, *summary, *source;
        unsigned targets;    /* bit per deploy value index in answer_keys */
        unsigned hardware;   /* bit per deploy_hardware value index; 0: none listed (any) */
        unsigned kinds;      /* bit per model_kind value; 0: any */
        unsigned frameworks;
        unsigned char path[ADV_MAX_FRAMEWORKS]; /* PATH_* per framework */
    } *rt;
    struct {
        const char *id, *name, *vendor, *match, *source, *interconnect;
        const char *figures; /* vendor, derived or secondary (kb_figure_kinds) */
        double memory_gb, bandwidth_gbs, fp32, tf32, bf16, fp16, fp8, link_gbs, network_gbs;
        int planner_default;
    } *acc;
    struct {
        const char *id, *kind, *title, *text, *source, *also;
        cJSON *cond, *effect;
        int priority;
    } *rules;
    struct { const char *id, *title, *url, *published; } *sources;
    /* Every number a rule's effect states as "facts", by name then rule: adv_fact looks at the
     * rules that state the fact asked, not at every rule. */
    struct adv_fact_row { const char *name; double value; int rule; } *facts;
    int nfacts;
    /* The Chinese twin of each prose text loaded, sorted by the English (adv_kb_local). */
    struct adv_text_pair { const char *en, *zh; } *texts;
    int ntexts;
    struct adv_work work;
};

/* The index of id among n rows whose first member is their id, in strcmp order (as adv_kb_load
 * reads and checks them), or -1: a binary search, however long the table. ADV_FIND(rows, n, id)
 * for an array of the adv_kb. */
int adv_find_id(const void *rows, int n, size_t size, const char *id);
#define ADV_FIND(rows, n, id) adv_find_id((rows), (n), sizeof *(rows), (id))

int adv_fw_index(const struct adv_kb *akb, const char *id);
int adv_hw_index(const struct adv_kb *akb, const char *id);
/* Bit of a value among an answer key's allowed values (0 when it is not one). */
unsigned adv_value_bit(enum ans_index key, const char *value);
int adv_strategy_index(const struct adv_kb *akb, const char *id);
int adv_runtime_index(const struct adv_kb *akb, const char *id);
int adv_source_index(const struct adv_kb *akb, const char *id);

/* The value of a fact for these answers: from the matching rule with the highest priority that
 * states it (ties: the first in id order). Returns 1 and fills *value (and *rule) when found. */
int adv_fact(const struct adv_kb *akb, const struct answers *a, const char *name, double *value, int *rule);
/* KB_OK when every id the answers name in a list of ids (team) is a row of the knowledge base;
 * else KB_ERR_INPUT with one line in err naming the key and the nearest id. */
int adv_check_answer_ids(const struct adv_kb *akb, const struct answers *a, char *err, size_t errsz);

/* applies[i] = 1 when rule i's condition holds for these answers, in the adv_kb's working space
 * (valid until the next call). Every branch of a decision tree that holds counts (evidence, not
 * first-match); rules sharing a `claim` count once per framework, which adv_rank sees to. */
const unsigned char *adv_applicable(const struct adv_kb *akb, const struct answers *a);

/* The effective support of framework f on hardware h under the answered os: the row's level,
 * or the os_support entry's where one exists (then *os_entry points to it). NULL when no row. */
const struct adv_support *adv_support_for(const struct adv_kb *akb, int f, int h, const char *os, int *level,
                                          const struct adv_os_level **os_entry);

/* Strategy s is one framework fw can use on hardware h (fw < 0: any framework). */
int adv_strategy_runs_on(const struct adv_kb *akb, int s, int fw, int h);

/* One format, two texts: en in English (the report's, and what sorting compares) and local in
 * the reader's language (local[0] = '\0' in English), each n bytes; a string argument takes its
 * Chinese in local: a knowledge-base text its twin (adv_kb_local), a word of the program's own
 * (marked N_) the catalog's. Whole UTF-8 characters. */
void adv_twinf(const struct adv_kb *akb, char *en, char *local, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void adv_twinf_v(const struct adv_kb *akb, char *en, char *local, size_t n, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));
/* A text of the result and its _local twin from one format: ADV_NOTEF(r, peak_source, "...", ...). */
#define ADV_NOTEF(r, field, ...) adv_twinf((r)->kb, (r)->field, (r)->field##_local, sizeof (r)->field, __VA_ARGS__)
/* The same appended to what the two hold. */
void adv_twinf_append(const struct adv_kb *akb, char *en, char *local, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#define ADV_NOTEF_APPEND(r, field, ...)                                                                        \
    adv_twinf_append((r)->kb, (r)->field, (r)->field##_local, sizeof (r)->field, __VA_ARGS__)
/* A reason's label in both languages from one format (a string literal). */
#define ADV_REASONF(akb, r, ...) adv_twinf((akb), (r)->label, (r)->label_local, sizeof (r)->label, __VA_ARGS__)
/* A reason's label that is a knowledge-base text (a rule's title), and its twin. */
void adv_reason_label(const struct adv_kb *akb, struct adv_reason *r, const char *text);
/* snprintf in English (local 0) or in the reader's language (local 1: the format translated). */
#define ADV_TEXTF(local, out, n, ...)                                                                          \
    ((local) ? i18n_format((out), (n), NULL, NULL, __VA_ARGS__) : snprintf((out), (n), __VA_ARGS__))

/* adv_measured_speed in English (local 0) or in the reader's language (local 1). */
int adv_measured_speed_in(const struct adv_fw_speeds *s, const char *hardware, const char *id,
                          const char *(*name)(const void *ctx, const char *id), const void *ctx, int local, char *out,
                          size_t n);

/* Appends a reason to list (n of max used); NULL when full. The caller fills its label. */
struct adv_reason *adv_push_reason(struct adv_reason *list, int *n, int max, int delta_tenths, const char *detail,
                                   const char *source);
/* Memory per device for strategy s under the resolved answers and shape in r, with the layout
 * (tensor, pipeline, data and expert parallel) and recomputation that fit with the least work
 * (advisor_memory.c). */
void adv_strategy_memory(const struct adv_kb *akb, const struct adv_result *r, int s, struct adv_memory *m);
/* Settles deploy_hardware: auto becomes the training hardware for server, cpu for edge, mobile
 * and browser (the phone's or board's CPU, with NPU/GPU delegates where a runtime has them). */
void adv_resolve_deploy_hardware(struct adv_result *r);

/* When the chosen strategy does not fit: the fewest devices with which one of the candidate
 * strategies (indices cand[0..n-1]) would, and the remedies (LoRA/QLoRA, offload, recomputation,
 * embedding sharding), into r->fit_devices and r->remedies. */
void adv_plan_nothing_fits(const struct adv_kb *akb, struct adv_result *r, const int *cand, int n);
/* The time split for memory plan m under r's resolved answers (advisor_time.c); returns the wall
 * hours, 0 when tokens or a peak are missing. */
double adv_plan_time(const struct adv_kb *akb, const struct adv_result *r, const struct adv_memory *m,
                     struct adv_time *t);
/* A plan fact (a rule's "facts" member) or the fallback when no rule states it. */
double adv_fact_or(const struct adv_kb *akb, const struct answers *a, const char *name, double fallback);
/* The inference plan into r->inference (advisor_inference.c), after the training plan. Returns
 * KB_OK, or KB_ERR_INPUT with one line in err naming the keys. */
int adv_plan_inference(const struct adv_kb *akb, struct adv_result *r, char *err, size_t errsz);
/* The vendor's device the planner assumes when none is answered or detected, or -1. */
int adv_default_accelerator(const struct adv_kb *akb, const char *vendor);
/* The catalog's dense rate of device acc at a precision (enum plan_precision), 0 when it lacks it;
 * and the precision's name. */
double adv_precision_rate(const struct adv_kb *akb, int acc, int precision);
const char *adv_precision_name(int precision);
/* The plan_precision of a name ("bf16", ...); PLAN_BF16 for NULL or an unknown name. */
int adv_precision_index(const char *name);
/* The best half precision device acc has a matrix rate for: bf16, else fp16, else fp32. */
int adv_best_precision(const struct adv_kb *akb, int acc);
/* Appends one line to r's assumptions (or warnings); silently full. */
void adv_assume(struct adv_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void adv_warn(struct adv_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The distributed strategy and runtime for framework fw (-1: none eligible), into r. */
void adv_choose_strategy(const struct adv_kb *akb, struct adv_result *r, int fw, const unsigned char *applies);
void adv_choose_runtime(const struct adv_kb *akb, struct adv_result *r, int fw, const unsigned char *applies);
/* Devices per node against what one node of the hardware holds (the devices_per_node fact):
 * more than that with nodes answered is KB_ERR_INPUT naming devices and nodes; with nodes left out
 * the fewest nodes that hold the devices evenly, stated in the assumptions (advisor_deploy.c). */
int adv_check_topology(const struct adv_kb *akb, struct adv_result *r, char *err, size_t errsz);
/* The deployment target's memory check into r->deploy_fit, with its reasons at the head of the
 * runtime's and a warning when nothing fits; after adv_choose_runtime. */
void adv_check_deploy_size(const struct adv_kb *akb, struct adv_result *r);
/* precision fp8 for framework fw on the planned device: KB_ERR_INPUT naming precision and the
 * device where the knowledge base lists the device's FP8 stacks and fw has none
 * (advisor_stacks.c). */
int adv_check_fp8_stack(const struct adv_kb *akb, struct adv_result *r, int fw, char *err, size_t errsz);

#endif
