/* measured: the vocabulary of a probe run (fwadvisor.probe/1, docs/probe.md) and its one reader.
 * The workloads' and metrics' names are defined here once; a result's parameters travel as
 * struct probe_params (the workloads fill it, probes/run_json.c writes it, measured_read reads it
 * back), so no reader searches the JSON text for meaning. */
#ifndef FWADVISOR_MEASURED_H
#define FWADVISOR_MEASURED_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

/* --- names -------------------------------------------------------------------------------------- */

#define PROBE_WL_GEMM "gemm"
#define PROBE_WL_STREAM "stream"
#define PROBE_WL_TRANSFER "transfer"
#define PROBE_WL_TRAIN_MLP "train-mlp"
#define PROBE_WL_TRAIN_TINY "train-tiny"
#define PROBE_WL_ALLREDUCE "allreduce"
#define PROBE_WL_TRAIN_DP "train-dp"
#define PROBE_WL_TRAIN_GPT "train-gpt"
#define PROBE_WL_FRAMEWORKS "frameworks"

#define PROBE_M_GFLOPS "gflops"
#define PROBE_M_GFLOPS_BEST "gflops_best"
#define PROBE_M_COPY_GBS "copy_gbs"
#define PROBE_M_SCALE_GBS "scale_gbs"
#define PROBE_M_ADD_GBS "add_gbs"
#define PROBE_M_TRIAD_GBS "triad_gbs"
#define PROBE_M_H2D_GBS "h2d_gbs"
#define PROBE_M_D2H_GBS "d2h_gbs"
#define PROBE_M_SAMPLES_PER_S "samples_per_s"
#define PROBE_M_SAMPLES_PER_S_SINGLE "samples_per_s_single"
#define PROBE_M_US_PER_STEP "us_per_step"
#define PROBE_M_TOKENS_PER_S "tokens_per_s"
#define PROBE_M_TFLOPS "tflops"
#define PROBE_M_MFU "mfu"
#define PROBE_M_MFU_CATALOG "mfu_catalog"
#define PROBE_M_BUSBW_GBS "busbw_gbs"
#define PROBE_M_SCALING_EFFICIENCY "scaling_efficiency"
#define PROBE_M_COMPUTE_MS "compute_ms"
#define PROBE_M_COMM_MS "comm_ms"
#define PROBE_M_STEP_MS "step_ms"

/* --- a result's parameters ---------------------------------------------------------------------- */

enum probe_dtype { PROBE_DTYPE_NONE, PROBE_DTYPE_FP32, PROBE_DTYPE_TF32, PROBE_DTYPE_BF16, PROBE_DTYPE_FP16, PROBE_DTYPE_FP8 };
/* "fp32", "tf32", "bf16", "fp16", "fp8"; "" for none. */
const char *probe_dtype_name(enum probe_dtype d);
/* The dtype of a name (PROBE_DTYPE_NONE for NULL or one not known). */
enum probe_dtype probe_dtype_parse(const char *name);

enum probe_tri { PROBE_TRI_UNSET, PROBE_TRI_NO, PROBE_TRI_YES };

/* What an MFU row's peak is: the GEMM just measured, the CPU's peak estimated from its vector
 * units or taken from the table, or the accelerator catalog's. UNKNOWN: a stored run written
 * before the key was (its sentence is never read for it). */
enum probe_peak_kind { PROBE_PEAK_UNKNOWN, PROBE_PEAK_GEMM, PROBE_PEAK_ESTIMATE, PROBE_PEAK_TABLE, PROBE_PEAK_CATALOG };
/* "gemm", "estimate", "table", "catalog"; "" for UNKNOWN. */
const char *probe_peak_kind_name(enum probe_peak_kind k);
enum probe_peak_kind probe_peak_kind_parse(const char *name);
/* The probe table's cell for it: "vs gemm", ..., and "vs peak" for UNKNOWN. */
const char *probe_peak_kind_label(enum probe_peak_kind k);

/* Which set of parameters a result has; each is written with its keys in one order. */
enum probe_params_shape {
    PROBE_PP_NONE,        /* {} */
    PROBE_PP_GEMM,        /* n, [threads], dtype */
    PROBE_PP_STREAM,      /* array_bytes, threads, ntimes, bytes_per_element */
    PROBE_PP_DEVICE_COPY, /* bytes, counted */
    PROBE_PP_TRANSFER,    /* bytes, pinned */
    PROBE_PP_ALLREDUCE,   /* bytes, ranks, dtype, op, time_us, algbw_gbs, wrong, via */
    PROBE_PP_MLP,         /* layers, batch, optimizer, [threads], [precision] */
    PROBE_PP_DATA_PARALLEL, /* layers, batch_per_rank, ranks, threads_per_rank, optimizer */
    PROBE_PP_GPT,         /* n_layer, n_head, n_embd, ctx, vocab, batch, precision */
    PROBE_PP_PEAK,        /* peak_tflops, peak_source, peak_kind */
    PROBE_PP_PLAN,        /* the GPT's shape (as PROBE_PP_GPT), planned_ms, gemm_ms, memory_ms, gemm_gflops,
                           * bandwidth_gbs, bandwidth_source: the planner's step beside the measured one */
    PROBE_PP_FRAMEWORK,   /* framework, mode, [model, per_step, per_step_unit], [kind], [python], [loss],
                           * [engine_loss], [first_step_s], version */
};

/* The sizes a result was measured at. Numbers not given are 0 (counts) or NaN (measures) unless
 * said; strings "" */
struct probe_params {
    enum probe_params_shape shape;
    int n;                     /* GEMM: the matrices' size n x n */
    enum probe_dtype dtype;    /* GEMM and allreduce "dtype"; MLP and GPT "precision" */
    int threads;               /* CPU threads (per rank for data parallel); 0 not given */
    uint64_t array_bytes;      /* STREAM: one array's bytes */
    int ntimes;                /* STREAM: rounds */
    double bytes_per_element;  /* STREAM: counted per element of the kernel */
    uint64_t bytes;            /* device copy, transfer, allreduce: the buffer's bytes */
    enum probe_tri pinned;     /* transfer: page-locked host memory */
    int ranks;                 /* allreduce, data parallel */
    double time_us, algbw_gbs; /* allreduce: the median time of one, and the algorithm bandwidth */
    long long wrong;           /* allreduce: wrong elements summed over the ranks */
    char via[16];              /* allreduce: "mpi", "nccl" */
    char layers[64];           /* MLP, data parallel: the widths "784,1024,1024,10" */
    int batch;                 /* MLP, GPT; data parallel: per rank */
    char optimizer[8];
    int n_layer, n_head, n_embd, ctx, vocab; /* GPT */
    double peak_tflops;        /* MFU: the peak it is a fraction of */
    char peak_source[64];      /* MFU: the peak in words */
    enum probe_peak_kind peak_kind;
    char framework[16], mode[32], kind[16], version[48]; /* frameworks */
    int model;                 /* frameworks: 0 the MLP, 1 the GPT, -1 none */
    double per_step;           /* frameworks: samples or tokens a step */
    char per_step_unit[8];     /* frameworks: "samples", "tokens" as read ("" not given); written from model */
    int python;                /* frameworks: the interpreter's index, -1 none */
    double loss, engine_loss, first_step_s; /* frameworks: NaN when not measured */
    /* the planned GPT step (knowledge/planner.h, plan_gpt_step) from the run's GEMM rate and
     * bandwidth: the step and its two parts in ms; NaN when not given */
    double planned_ms, gemm_ms, memory_ms, gemm_gflops, bandwidth_gbs;
    char bandwidth_source[32]; /* "stream triad", "device copy", "catalog" */
};

/* Parameters of `shape` with nothing given yet. */
void probe_params_init(struct probe_params *p, enum probe_params_shape shape);

/* --- a stored run, read once -------------------------------------------------------------------- */

#define MEASURED_MAX_RESULTS 160
#define MEASURED_MAX_ACCEL 16
/* The frameworks section's limits: the interpreters a run asks and the frameworks each can
 * import (probes/probe.h writes no more than these). */
#define MEASURED_FW_MAX_PYTHONS 8
#define MEASURED_FW_MAX_FOUND 10

#define MEASURED_MAX_RANKS 64
/* The hosts of a run under MPI and the CPU's vector extensions kept (the first ones). */
#define MEASURED_MAX_HOSTS 64
#define MEASURED_MAX_SIMD 24

/* What a result's "device" names: the CPU ("cpu"), a CUDA device ("cuda", "cuda:N"), another. */
enum measured_device_kind { MEASURED_DEV_OTHER, MEASURED_DEV_CPU, MEASURED_DEV_CUDA };
enum measured_device_kind measured_device_kind(const char *device);

struct measured_accel {
    char kind[16], name[128], catalog_id[32];
    int count;                 /* 0 when not given */
    double count_given;        /* "count" as stated, NaN when not given */
    double memory_bytes;       /* NaN when not given */
    char compute_capability[16], note[160]; /* "" when not given */
    /* The catalog entry the probe matched ("catalog" an object; its "id" is catalog_id) and its
     * peaks, NaN when not given */
    int has_catalog;
    double catalog_fp32_tflops, catalog_bf16_tflops, catalog_fp16_tflops, catalog_bandwidth_gbs;
};

/* One rank's train-dp figures under MPI ("ranks"."per_rank"): NaN when not given or null. */
struct measured_rank {
    double rank;
    char host[64];
    double compute_ms, comm_ms, samples_per_s;
};

struct measured_result {
    char workload[16], device[16], metric[32], unit[16];
    int ok;                    /* status "ok" with a finite median */
    int stated_ok;             /* status "ok", whatever the median */
    char reason[256];
    double median, min, max, cv, peak_fraction; /* NaN when not given */
    int noisy;
    struct probe_params params;
    const cJSON *json;         /* the result in the document read (valid while it lives) */
};

/* One framework an interpreter can import: "id" ("pytorch", ...), its version, the devices its
 * process reported ("" when it never said) and a note (Keras: its backends). */
struct measured_fw_found {
    char id[16], version[48], devices[192], note[160];
};

/* One interpreter asked: its path, Python version and prefix; why it could not be asked ("" when
 * it answered); and what it has. */
struct measured_fw_python {
    char path[256], version[16], prefix[256], error[256];
    int nfound;                /* the first MEASURED_FW_MAX_FOUND */
    struct measured_fw_found found[MEASURED_FW_MAX_FOUND];
};

/* The models every framework trained. Numbers NaN when not given, strings "". */
struct measured_fw_models {
    char mlp_layers[64];       /* the MLP's widths, "784,1024,1024,10" */
    double mlp_batch;
    double gpt_layers, gpt_heads, gpt_width, gpt_ctx, gpt_vocab, gpt_batch;
};

/* The run's "frameworks" section (the rows themselves are results of workload "frameworks"). */
struct measured_frameworks {
    int present;               /* the section is an object */
    struct measured_fw_models models;
    int npythons;              /* the first MEASURED_FW_MAX_PYTHONS; 0 when "interpreters" is no array */
    struct measured_fw_python python[MEASURED_FW_MAX_PYTHONS];
};

struct measured_run {
    char id[80], started_at[32]; /* the id as stored (probe_store.c: at most 79 bytes) */
    double duration_s;         /* NaN when not given */
    char version[48];          /* the fwadvisor that wrote it */
    char host_os[64], host_kernel[128], host_arch[32];
    int interrupted;
    int has_ranks, rank_count, host_count;
    double rank_count_given;   /* "count" as stated, NaN when not given (rank_count reads that as 0) */
    int nhosts;                /* the first MEASURED_MAX_HOSTS of "hosts" that are strings */
    char hosts[MEASURED_MAX_HOSTS][64];
    char mpi[192];             /* the MPI library in words, "" when not given */
    int nper_rank;             /* the first MEASURED_MAX_RANKS */
    struct measured_rank per_rank[MEASURED_MAX_RANKS];
    double cpu_cores, cpu_memory_bytes; /* NaN when not given */
    double cpu_peak_gflops_fp32, cpu_peak_gflops_bf16; /* the CPU's theoretical peaks, NaN when not given */
    char cpu_model[128], cpu_microarchitecture[64], cpu_peak_note[256];
    double cpu_packages, cpu_threads, cpu_numa_nodes, cpu_l3_bytes; /* NaN when not given */
    int nsimd;                 /* the first MEASURED_MAX_SIMD of "simd" that are strings */
    char cpu_simd[MEASURED_MAX_SIMD][24];
    int naccel;
    struct measured_accel accel[MEASURED_MAX_ACCEL];
    struct measured_frameworks fw;
    int nresults;              /* the first MEASURED_MAX_RESULTS */
    struct measured_result results[MEASURED_MAX_RESULTS];
};

/* A result's parameters from its "params" object (shape from the keys it has; NULL or not an
 * object: PROBE_PP_NONE). */
void measured_params_read(const cJSON *params, struct probe_params *p);
/* One result object. */
void measured_result_read(const cJSON *r, struct measured_result *out);
/* A stored run document. Whatever is missing or of the wrong type reads as not given: a run
 * written by hand or by another tool never makes it fail. Returns 0; -1 when doc is not an
 * object (out then holds no results). */
int measured_read(const cJSON *doc, struct measured_run *out);
/* The same into a run of its own (it is large: allocated), to free; NULL when doc is NULL or
 * memory ran out. */
struct measured_run *measured_read_new(const cJSON *doc);

#endif
