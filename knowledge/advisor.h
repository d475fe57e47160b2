/* advisor: answers + hardware facts -> a ranked, explained recommendation with a distributed
 * strategy, a deployment runtime, a memory and time plan and the pitfalls that apply.
 *
 * The knowledge base is loaded once into memory (adv_kb_load), with working space sized for its
 * tables; adv_rank and adv_recommend then run without SQL or allocation (one call at a time per
 * loaded knowledge base), fast enough to rerun on every keystroke of the wizard. Every
 * number the advice uses comes from the knowledge base: criteria scores and weights, rule
 * effects, support levels, the method's points (rule method-ranking), planning MFU and shapes. */
#ifndef FWADVISOR_ADVISOR_H
#define FWADVISOR_ADVISOR_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "knowledge/answers.h"
#include "knowledge/kb.h"
#include "knowledge/model_shape.h"

/* Frameworks are numbered one bit each of a mask (the frameworks a strategy or runtime serves):
 * a structural limit, which kb_import enforces. */
#define ADV_MAX_FRAMEWORKS KB_MAX_FRAMEWORKS
#define ADV_MAX_REASONS 48
#define ADV_MAX_ALTERNATIVES 6
#define ADV_MAX_PITFALLS 64

struct adv_kb; /* opaque: the facts in memory */

/* Loads every table in one read transaction. KB_ERR_DB with one line naming the table when the
 * file holds more frameworks or hardware platforms than this build handles (written by another
 * tool) or a rule that is not valid JSON; KB_ERR_RUNTIME when out of memory. */
int adv_kb_load(kb *k, struct adv_kb **out, char *err, size_t errsz);
void adv_kb_free(struct adv_kb *akb);

/* --- framework speed measured on this machine (the probe's frameworks workload) ------------ */
#define ADV_MAX_FW_SPEEDS 48
struct adv_fw_speed {
    char framework[16];   /* pytorch, jax, tensorflow, keras, mlx, paddlepaddle, mindspore, or engine */
    char mode[24];        /* eager, compile, jit, function, xla, fit-step/jax, ... */
    char kind[16];        /* the hardware it ran on, as the `hardware` answer names it: cpu, nvidia, ... */
    int model;            /* 0 the MLP, 1 the GPT */
    double step_s;        /* median seconds per step */
};
struct adv_fw_speeds {
    int count;            /* 0: no run measured the frameworks */
    struct adv_fw_speed rows[ADV_MAX_FW_SPEEDS];
    char run[40];         /* the probe run they come from */
    char models[2][64];   /* the models in words: "MLP 784-1024-1024-10", "4-layer GPT" */
};

/* What the caller knows of the hardware: from a stored probe run, a quick detection, or
 * nothing (kind "" -> the answers decide). */
#define ADV_MAX_MEASURED 8
#define ADV_MAX_SKIPPED 8

/* One figure a probe run measured and the plan may use. */
struct adv_measured {
    char name[32];   /* gemm_peak, memory_bandwidth, host_to_device, training_mfu, allreduce_busbw,
                      * data_parallel_efficiency */
    double value;
    char unit[16];
    char run[40];
    char note[160];
};

struct adv_hw {
    char source[16];      /* "probe", "detected", or "" */
    char kind[16];        /* nvidia, amd, tpu, apple, intel, ascend, cpu */
    char name[128];       /* accelerator or CPU model, "" when unknown */
    int count;            /* accelerators found */
    double memory_gb;     /* per accelerator, 0 when unknown */
    double peak_tflops;   /* measured per device, 0 when unknown */
    char peak_source[96]; /* how the measured peak was obtained */
    int cpu_threads;
    double host_memory_gb;
    char evidence[200];
    /* Data-parallel scaling measured by `mpirun -np N fwadvisor probe` (train-dp), 0 when none. */
    double dp_efficiency;
    int dp_ranks;
    char dp_source[96];
    /* Measured all-reduce bus bandwidth (GB/s per rank and direction, as nccl-tests counts it) over
     * bus_ranks ranks, 0 when none; bus_inter_node: measured across nodes. When set for the plan's
     * hardware it replaces the catalog's link figure for data-parallel traffic. */
    double bus_bandwidth_gbs;
    int bus_ranks, bus_inter_node;
    char bus_source[96];
    /* Measured memory bandwidth of the device (STREAM triad on a CPU, the copy kernel on a GPU;
     * GB/s), 0 when none: the inference plan's decode bound uses it in place of the catalog's. */
    double memory_bandwidth_gbs;
    char bandwidth_source[96];
    /* Measured model FLOPs utilisation of a training step on this device (train-gpt, else
     * train-mlp), 0 when none: the time plan uses it in place of the catalog's efficiency. */
    double train_mfu;
    char train_mfu_source[128];
    /* What was taken from stored runs and what was passed over (probes/advisor_hw.c). */
    char catalog_id[32];     /* the measured accelerator's catalog id, "" when none */
    char measured_run[40];   /* the run the device figures came from, "" when none */
    int nmeasured, nskipped;
    struct adv_measured measured[ADV_MAX_MEASURED];
    struct { char run[40]; char why[200]; } skipped[ADV_MAX_SKIPPED];
    /* The frameworks' own training speed measured by a probe run (knowledge/measured_fw.c), count 0
     * when none: the single-device speed criterion cites it for the answered hardware. */
    struct adv_fw_speeds fw_speeds;
};

/* --- the inputs from stored probe runs (knowledge/measured_hw.c, measured_fw.c) ---------------- */

/* The hardware facts of the stored probe runs for the answers (NULL: none yet). probe: a run id
 * (its figures, as asked; an unknown id is KB_ERR_INPUT), "none" (nothing) or "latest": the
 * newest complete stored run that matches the answers supplies the device figures (the same
 * kind of device, the same catalog id when `accelerator` is answered; a CPU run only for a plan
 * of this very machine), the newest matching run made under MPI the scaling figures; runs passed
 * over are listed with why (cancelled, nothing finished, another device). *matched: a run
 * supplied the device figures (else the caller looks at the machine itself). */
int adv_hw_from_probe_runs(kb *k, const char *probe, const struct answers *answers, struct adv_hw *hw, int *matched,
                           char *err, size_t errsz);

/* The timed frameworks rows of one run document (the engine's among them), with the run's id and
 * its models in words; count 0 when it has none. */
void probe_fw_speeds_from_run(const cJSON *doc, struct adv_fw_speeds *out);
/* The same from a run already read (knowledge/measured.h). */
struct measured_run;
void probe_fw_speeds_of(const struct measured_run *m, struct adv_fw_speeds *out);

/* For the run the advice uses: `probe` a run id (that run's), "latest" (the newest stored run that
 * has frameworks rows: a later run of other workloads does not hide them) or "none" (nothing).
 * Leaves out->count 0 when there is none or the store cannot be read. */
void probe_fw_speeds_find(kb *k, const char *probe, struct adv_fw_speeds *out);

/* One explained contribution. `label` is formatted here; `detail` points into the loaded
 * knowledge base (or is NULL); the report joins them. */
struct adv_reason {
    char label[320];
    char label_local[320]; /* the label in the reader's language ("" in English: label) */
    const char *detail;
    int delta_tenths; /* signed points x 10 */
    const char *source;
    const char *also; /* further sources, comma-separated ids, or NULL */
};

struct adv_framework {
    const char *id, *name;
    int score_tenths; /* 0..1000; equals the sum of the reasons' deltas */
    int excluded;
    int nreasons;
    /* Beyond ADV_MAX_REASONS the largest are listed and the last reason sums the `unlisted`
     * others (0: every reason is listed). */
    int unlisted;
    struct adv_reason reasons[ADV_MAX_REASONS];
};

struct adv_ranking {
    int count;
    struct adv_framework items[ADV_MAX_FRAMEWORKS]; /* best first, excluded last */
};

/* The parallel layout of a plan: tensor x pipeline x data parallel devices (tp*pp*dp = devices),
 * expert-parallel ranks taken from the data-parallel ones, virtual pipeline stages per device. */
struct adv_layout {
    int tp, pp, dp, ep, vp;
    int uneven;              /* layers do not divide evenly over the pipeline stages */
    double micro_batch;      /* sequences per micro-batch */
    double micro_batches;    /* per data-parallel rank and step */
    double batch_tokens;     /* global batch of the plan */
};

/* Memory per device, itemised. GB are 10^9 bytes. */
struct adv_memory {
    const char *strategy;
    const char *activation_mode;  /* how activations were counted */
    int activations_estimated;    /* 0: the model's shape is unknown, activations_gb is not a figure */
    const char *recompute;        /* none, selective, full */
    double recompute_fraction;    /* of the layers recomputed under full recomputation */
    double model_states_gb, activations_gb, buffers_gb, total_gb;
    double gathered_gb;           /* ZeRO-3 / FSDP: gathered parameters and unsharded gradients */
    double buckets_gb;            /* DDP gradient buckets, DeepSpeed reduce/gather buckets */
    double recompute_gb;          /* one layer's activations rebuilt during the backward pass */
    double overhead_gb;           /* framework context, workspaces and allocator fragmentation */
    double device_memory_gb;      /* per device, 0 unknown */
    double usable_gb;             /* what the process may use (Apple's GPU working-set cap) */
    double headroom_gb;           /* usable - total */
    double cpu_gb;                /* host memory per node that offload needs */
    double host_memory_gb;        /* host memory per node, 0 unknown */
    int host_fits;                /* offload only: 1 fits, 0 does not, -1 host memory unknown */
    double pageable_gb;           /* the adapters' optimizer states a paged optimizer may move to host */
    double paged_gb;              /* of them, what must move for the rest to fit (0: none) */
    struct adv_layout layout;
    int fits;                     /* total <= (1 - headroom) x usable, and the host holds the offload */
    /* The layout search (tensor/pipeline/expert-parallel strategies): the run's hours with layout,
     * and the next-fastest layout that fits, its hours and recomputation and what made it slower
     * (runner_up.dp 0: no other layout fits). */
    double hours;
    struct adv_layout runner_up;
    double runner_up_hours, runner_up_recompute_fraction;
    enum adv_lost_by { ADV_LOST_COMPUTE, ADV_LOST_COMMUNICATION, ADV_LOST_BUBBLE, ADV_LOST_UNEVEN } runner_up_lost_by;
};

/* The time plan split, in hours (of wall time) for the whole run. */
/* The slowest link a parallel group's traffic crosses: inside a node (NVLink, Infinity Fabric,
 * ICI), between nodes (the NICs, or ICI between the hosts of one TPU slice), or between slices
 * (the data-centre network); none when the group has one member. */
enum adv_link { ADV_LINK_NONE, ADV_LINK_NODE, ADV_LINK_NETWORK, ADV_LINK_SLICES };

struct adv_time {
    double model_flops, attention_flops, recompute_flops; /* totals over the run */
    double compute_hours, communication_hours, bubble_hours, lost_hours;
    double dp_hours, tp_hours, pp_hours, ep_hours;         /* exposed communication by kind */
    double steps;
    int communication_known;      /* 0: a link figure was missing */
    enum adv_link dp_link, pp_link, ep_link; /* the link each group's traffic crosses */
};

#define ADV_MAX_NOTES 12

enum adv_finetune { ADV_FULL, ADV_LORA, ADV_QLORA };
/* What the run is (the `job` answer, in its choices' order). */
enum adv_job { ADV_JOB_PRETRAIN, ADV_JOB_FINETUNE, ADV_JOB_SERVE };
/* The job of filled answers (answers_fill_defaults has settled it). */
enum adv_job adv_job_of(const struct answers *a);
enum adv_recompute { ADV_RECOMPUTE_AUTO, ADV_RECOMPUTE_NONE, ADV_RECOMPUTE_SELECTIVE, ADV_RECOMPUTE_FULL };

/* The plan's resolved inputs: the answers that matter to memory and time as numbers, and the
 * knowledge base's facts for them, read once by adv_recommend so that the layout search runs
 * without further look-ups. */
struct adv_plan_inputs {
    double params, active, experts;  /* experts 1: dense */
    double expert_params, moe_layers; /* routed experts' parameters and the layers holding them */
    double a2a_overlap;              /* share of the expert all-to-all the stack hides under compute */
    enum adv_finetune finetune;
    double adapters;                 /* LoRA parameters (rank x 18 x hidden x layers) */
    int precision;                   /* enum plan_precision (planner.h) */
    enum adv_recompute recompute;
    int flash;                       /* FlashAttention-style attention: no s x s scores kept */
    double rate_tflops;              /* dense rate the compute runs at (FP8: realised gain) */
    double link_gbs, network_gbs;    /* per device and direction, 0 unknown */
    /* Beyond a slice (a TPU pod's ICI domain, slice_devices chips; 0: no slice limit) devices
     * talk over the data-centre network at scale_out_gbs per device and direction (0 unknown);
     * slices: how many the devices fill. */
    double scale_out_gbs, slice_devices, slices;
    double measured_gbs;             /* a probe's all-reduce bus bandwidth, 0 none */
    int measured_inter_node;
    double working_set;              /* usable fraction of device memory (Apple's cap), else 1 */
    double headroom, overhead_gb, fragmentation, host_memory_gb;
    double adapter_bytes, nf4_bits, ds_bucket_elements, batch_tokens, vocab, top_k, lost_at_16k;
    int paged_optimizer;             /* LoRA/QLoRA's optimizer states may page to host memory */
    struct model_shape shape;        /* an LLM's shape (hidden 0: none), knowledge/model_shape.h */
};

/* The inference plan (deploy server, model_kind llm): the serving device, weights and KV cache, the
 * fewest devices that hold them for serve_batch sequences of serve_context tokens, the largest
 * batch and context that fit, decode bound by memory bandwidth and prefill bound by compute.
 * advisor_inference.c. GB are 10^9 bytes; a figure that cannot be known is negative. */
struct adv_inference {
    int planned;                  /* 0: no inference plan (the rest is zero) */
    const char *hardware;         /* deploy_hardware settled */
    int accelerator;              /* catalog index of the serving device, -1 none */
    int assumed;                  /* serving device assumed (deploy_hardware differs from hardware) */
    double memory_gb, usable_gb;  /* per device, -1 unknown */
    const char *precision;        /* weights: bf16, fp16, fp8, fp32 */
    const char *kv_precision;     /* bf16, fp16 (devices without BF16), fp8, int8 */
    double weight_bytes_per_param, kv_bytes_per_value;
    double context, batch, layers, heads, kv_heads, head_dim, hidden, active_params;
    double position_limit;        /* the context the model is trained at (seq_len), -1 unknown */
    double weights_gb, kv_bytes_per_token, kv_cache_gb; /* whole model, batch x context */
    int tensor_parallel, pipeline_parallel; /* the fewest devices that hold it (tp within a node) */
    double weights_gb_per_device, kv_gb_per_device, overhead_gb, total_gb_per_device;
    int fits;                     /* 1 fits, 0 does not, -1 device memory unknown */
    double max_batch;             /* sequences of `context` tokens on tp x pp devices, -1 unknown */
    double max_batch_one_device;  /* the same on one device, -1 unknown */
    double max_context;           /* tokens per sequence for `batch` sequences on tp x pp, -1 unknown */
    int max_context_capped;       /* max_context is the position limit, memory would hold more */
    double bandwidth_gbs;         /* per device, 0 unknown */
    int bandwidth_measured;       /* from a probe run rather than the catalog */
    char bandwidth_source[200];
    char bandwidth_source_local[200]; /* in the reader's language ("" in English) */
    double decode_step_s, decode_tokens_per_s_per_sequence, decode_tokens_per_s; /* 0 unknown */
    double peak_tflops;           /* dense, at the serving precision, per device; 0 unknown */
    double prefill_flops, prefill_s, prefill_s_per_sequence; /* the batch's prompts; 0 unknown */
    int nnotes;
    char notes[4][240];           /* how the device, precisions and defaults were settled */
    char notes_local[4][240];     /* the same in the reader's language ("" in English) */
};

/* The deployment target's memory check (knowledge/advisor_deploy.c): the model's weights in bf16,
 * int8 and int4 against what one app may use on the deploy_device. */
enum adv_weight_format { ADV_WEIGHTS_BF16, ADV_WEIGHTS_INT8, ADV_WEIGHTS_INT4, ADV_WEIGHT_FORMATS };
struct adv_deploy_fit {
    int checked;            /* 1 when the target's memory is known and the check ran */
    const char *device;     /* the deploy_device value */
    double memory_gb;       /* the device's memory */
    double share;           /* the part of it one model may take */
    double budget_gb;       /* memory_gb x share */
    double weights_gb[ADV_WEIGHT_FORMATS];
    int fits;               /* the widest enum adv_weight_format whose weights fit; -1: none */
    double largest_params;  /* the most parameters whose int4 weights fit */
    int runtime_bits;       /* the fewest bits per weight the chosen runtime runs; 0: not known */
    const char *source;     /* the budget's source */
};

struct adv_result {
    const struct adv_kb *kb; /* the knowledge base it was made from (its texts point into it) */
    struct answers answers; /* defaults filled, hardware and device memory resolved */
    char hardware_source[16];  /* probe | answers | detected */
    char hardware_note[256];
    char device_memory_source[160];
    /* Each *_local: the text beside it in the reader's language ("" in English: the text itself). */
    char hardware_note_local[256];
    char device_memory_source_local[160];
    struct adv_hw hw;
    struct adv_ranking ranking;

    const char *strategy, *strategy_name;
    int nstrategy_reasons;
    struct adv_reason strategy_reasons[16];
    int nalternatives;
    const char *alternatives[ADV_MAX_ALTERNATIVES];

    const char *runtime, *runtime_name;
    int nruntime_reasons;
    struct adv_reason runtime_reasons[16];
    char deploy_hardware_note[224]; /* how deploy_hardware was settled */
    char deploy_hardware_note_local[224];
    struct adv_deploy_fit deploy_fit;

    /* The job: serving only plans no training (memory and time below stay unset and unshown);
     * a fine-tune's global batch is batch_sequences sequences (the knowledge base's), not the
     * pre-training batch in tokens. */
    enum adv_job job;
    int job_derived;                 /* job left out: answers_derived_job settled it */
    double batch_sequences;          /* a fine-tune's global batch in sequences, 0 pre-training */
    double optimizer_steps;          /* tokens / the layout's global batch, 0 unknown */
    /* The fine-tuning method on this hardware (the knowledge base's qlora_backend): 1 a native
     * back-end, 0.5 only slow fallback kernels, 0 none, so QLoRA is planned as LoRA; -1 not
     * looked up (no QLoRA asked). method_note is the rule's text with the route that works. */
    double method_support;
    int method_replanned;
    const char *method_note, *method_source, *method_also;

    struct adv_memory memory;
    char shape_note[256];   /* how seq_len/hidden/layers/heads were obtained, or why not */
    char shape_note_local[256];
    double seq_len, hidden, layers, heads, micro_batch;

    /* The device the plan is for: an index into the loaded catalog (-1 none), and whether it was
     * assumed rather than answered or detected. */
    int accelerator;
    const char *assumed_accelerator; /* catalog id when assumed, else NULL */
    struct adv_plan_inputs in;
    const char *precision;           /* bf16, fp16, fp8, fp32 */
    double efficiency;               /* fraction of the dense peak reached while computing */
    const char *efficiency_source, *efficiency_text;
    char communication_source[512];  /* where the link figures came from, and which link each group crosses */
    char communication_source_local[512];
    /* Which plan figures are a probe's measurement (each *_source says it in words): read as
     * data, never out of the sentences. */
    int peak_measured, efficiency_measured, communication_measured, scaling_measured;

    double total_flops, peak_tflops, mfu, hours, device_hours, cost;
    int has_hours, has_cost;
    struct adv_time time;
    char peak_source[192];
    char peak_source_local[192];
    const char *mfu_source;
    const char *mfu_text;
    /* When nothing fits: the fewest devices that would (0 none found) and what else would help. */
    double fit_devices;
    int nremedies;
    char remedies[4][240];
    char remedies_local[4][240];
    int nassumptions, nwarnings;
    char assumptions[ADV_MAX_NOTES][240]; /* what the plan assumed, first the device */
    char warnings[4][240];
    /* The same in the reader's language ("" in English: the English ones). */
    char assumptions_local[ADV_MAX_NOTES][240];
    char warnings_local[4][240];
    /* Scaling efficiency across devices applied to the time plan: measured (a probe run over MPI
     * ranks) when one exists and the plan has more than one device, else 1 (none applied). */
    double scaling;
    char scaling_source[256];
    char scaling_source_local[256];
    const char *scaling_seed;        /* the seed articles' anecdote, shown beside it */
    const char *scaling_seed_source;
    char scaling_seed_short[160];    /* its figures in one line, for the interface */

    struct adv_inference inference;

    int npitfalls;
    struct { const char *id, *text, *source, *also; } pitfalls[ADV_MAX_PITFALLS];
};

/* A note (an assumption or warning) as people read it: its local twin, else its English. */
const char *adv_note_local(const char *en, const char *local);
/* A text of the result as people read it: ADV_LOCAL(r, peak_source). */
#define ADV_LOCAL(r, field) adv_note_local((r)->field, (r)->field##_local)

/* 1 when the plan used the measured figure `name` (plan.measured's names). */
int adv_measured_used(const struct adv_result *r, const char *name);

/* Resolves hardware and defaults, then ranks, picks strategy and runtime, plans and lists
 * pitfalls. `answers` must have been validated; hw may be NULL. Returns KB_OK, or KB_ERR_INPUT
 * with one line in err when the answers contradict each other once hardware is resolved (os
 * macos with an NVIDIA GPU, ...; answers_check_combination) or contradict the catalog (an unknown
 * accelerator, with the nearest ids; accelerator vs hardware; a precision the device lacks;
 * active_params above model_params; kv_heads that do not divide heads; for the inference plan,
 * serve_context above the model's position limit and a kv_precision the serving device lacks). */
int adv_recommend(const struct adv_kb *akb, const struct answers *answers, const struct adv_hw *hw,
                  struct adv_result *out, char *err, size_t errsz);

/* The criteria's weights for resolved answers, as the ranking weighs them: each criterion's base
 * weight times the factors of the weight rules that hold, kept within 1e-6..1e6. out holds
 * adv_kb_criterion_count entries, in the order of adv_kb_criterion_name. */
void adv_criterion_weights(const struct adv_kb *akb, const struct answers *resolved, double *out);

/* Just the ranking, for answers already resolved by adv_recommend (the wizard's side panel). */
void adv_rank(const struct adv_kb *akb, const struct answers *resolved, struct adv_ranking *out);
/* The same with the frameworks' speed measured on this machine (may be NULL): each measured
 * framework's single-device speed reason then says how it compared on the answered hardware. */
void adv_rank_measured(const struct adv_kb *akb, const struct answers *resolved, const struct adv_fw_speeds *speeds,
                       struct adv_ranking *out);

/* The measured comparison for framework `id` on `hardware` ("on this machine JAX jit ran the
 * 4-layer GPT 1.35x faster than PyTorch eager, the next fastest (probe run ID)"), using name(id)
 * for framework names; 0 when the speeds hold no timed row of that framework on that hardware. */
int adv_measured_speed(const struct adv_fw_speeds *speeds, const char *hardware, const char *id,
                       const char *(*name)(const void *ctx, const char *id), const void *ctx, char *out, size_t n);

/* The plan in words for people: calls line(ctx, label, text) once per line (device, layout, memory
 * breakdown, activations, buffers, host memory, nothing-fits remedies, time split, cost, peak,
 * links, assumptions, warnings), the assumed device first when there is one. The label is English
 * (a key the caller may compare); the caller shows it translated, _(label) (common/i18n.h). */
void adv_plan_text(const struct adv_kb *akb, const struct adv_result *r,
                   void (*line)(void *ctx, const char *label, const char *text), void *ctx);
/* The plan's verdicts in one sentence each: memory per device against the usable memory (fits
 * or DOES NOT FIT), the time on the devices, the cost. */
void adv_plan_verdict(const struct adv_result *r, char *out, size_t n);

/* The inference plan in words (serving device, memory, largest batch and context, decode, prefill,
 * notes), one labelled line at a time like adv_plan_text; no lines when there is no inference
 * plan. */
void adv_inference_text(const struct adv_kb *akb, const struct adv_result *r,
                        void (*line)(void *ctx, const char *label, const char *text), void *ctx);

/* The fwadvisor.report/1 document. generated_at is an ISO-8601 UTC time. Caller frees. */
cJSON *adv_report_json(const struct adv_kb *akb, const struct adv_result *r, const char *generated_at);
/* The same document with its words (reasons, criteria and strategy names, pitfalls) in the
 * reader's language, for the HTML page made from it; the JSON output is adv_report_json's,
 * English in every language. Caller frees. */
cJSON *adv_report_json_local(const struct adv_kb *akb, const struct adv_result *r, const char *generated_at);

/* The criteria x frameworks table (seed articles' comparison): counts, names (and criterion
 * ids), and a score 0..10, or -1 where the knowledge base has none. */
int adv_kb_framework_count(const struct adv_kb *akb);
const char *adv_kb_framework_name(const struct adv_kb *akb, int i);
/* Framework i's id and its one-line summary. */
const char *adv_kb_framework_id(const struct adv_kb *akb, int i);
const char *adv_kb_framework_summary(const struct adv_kb *akb, int i);
int adv_kb_criterion_count(const struct adv_kb *akb);
const char *adv_kb_criterion_name(const struct adv_kb *akb, int i);
const char *adv_kb_criterion_id(const struct adv_kb *akb, int i);
int adv_kb_score(const struct adv_kb *akb, int framework, int criterion);
/* The score as the ranking reads it on `hardware` (an id, or NULL): hardware_fit from the support
 * matrix of that platform (no static score exists for it), every other criterion as
 * adv_kb_score (the team's familiarity, which may raise the learning curve, is not applied). */
int adv_answer_score(const struct adv_kb *akb, const char *hardware, int framework, int criterion);

/* The accelerator catalog in load order: count, and the id, name, vendor and memory of entry i. */
int adv_kb_accelerator_count(const struct adv_kb *akb);
const char *adv_kb_accelerator(const struct adv_kb *akb, int i, const char **name, const char **vendor,
                               double *memory_gb);
/* The catalog entry whose id is id, or -1. */
int adv_accelerator_index(const struct adv_kb *akb, const char *id);

/* Knowledge-base version and date the advice was made from. */
const char *adv_kb_version(const struct adv_kb *akb);
const char *adv_kb_date(const struct adv_kb *akb);
/* A text of the loaded knowledge base (a note, summary, name, rule title or text) in the reader's
 * language: its Chinese twin when the language is Chinese and the row has one, else en itself.
 * Works on the text's content, so a copy of it (a report's member) is found too. */
const char *adv_kb_local(const struct adv_kb *akb, const char *en);
/* A source's title, or NULL. */
const char *adv_source_title(const struct adv_kb *akb, const char *id);

/* Cuts a string that snprintf may have truncated back to a whole UTF-8 character. */
void adv_utf8_trim(char *s);

/* How many reasons a framework's score has: those listed and those the last one sums. */
int adv_reason_total(const struct adv_framework *f);

/* Reason text as the report shows it: "label: detail" (or the label alone). */
void adv_reason_text(const struct adv_reason *r, char *out, size_t n);
/* The same in the reader's language, for people: the label's own translation and the detail's
 * (a knowledge-base text) Chinese twin. */
void adv_reason_local(const struct adv_kb *akb, const struct adv_reason *r, char *out, size_t n);
/* The n reasons largest first by the points they move (ties by label), as pointers into r: the
 * order the command line and the interface's Why tab both show. */
void adv_reasons_by_size(const struct adv_reason *r, int n, const struct adv_reason **out);

/* "seed-001, executorch-1.0": a source and its further sources, as the text output cites them. */
void adv_cite(const char *source, const char *also, char *out, size_t n);

#endif
