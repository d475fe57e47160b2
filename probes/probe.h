/* probe: what this machine has (detection) and what it can do (workloads run on the engine),
 * gathered into one probe run (DESIGN.md, fwadvisor.probe/1). Nothing here prints or touches the
 * knowledge base: the command line stores runs through knowledge/probe_store.
 *
 * File-system reads go through $FWADVISOR_SYSROOT when set and hwloc honours HWLOC_XMLFILE /
 * HWLOC_FSROOT, so detection runs on recorded machines in the tests. */
#ifndef FWADVISOR_PROBE_H
#define FWADVISOR_PROBE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "knowledge/measured.h"

#define PROBE_SCHEMA "fwadvisor.probe/1"
#define PROBE_MAX_ACCEL 16
#define PROBE_MAX_RESULTS 160

struct probe_cpu {
    char vendor[32], model[128], arch[16], microarch[32];
    int packages, cores, threads, numa_nodes;
    int family, model_number;  /* x86 family and model (cpuid, or hwloc's record), -1 unknown */
    uint64_t l1d_bytes, l2_bytes, l3_bytes, memory_bytes;
    double max_mhz;            /* 0 when unknown */
    char mhz_source[64];       /* "cpufreq", "measured", ... */
    char simd[16][16];         /* feature names */
    int nsimd;
    int flops_per_cycle;       /* FP32 per core per cycle from the table, else estimated; 0 when unknown */
    int peak_estimated;        /* flops_per_cycle is an estimate from the SIMD features */
    double peak_gflops;        /* cores x max_mhz x flops_per_cycle, 0 when unknown */
    double peak_gflops_bf16;   /* with AMX: cores x max_mhz x 1024, else 0 */
    char peak_note[192];
};

struct probe_accel {
    char kind[16];             /* nvidia, amd, tpu, apple, ascend, trainium, gaudi */
    char name[128];
    int count;
    uint64_t memory_bytes;     /* per device, 0 when unknown */
    char compute_capability[16];
    char driver[64];
    int sm_count;
    int max_clock_mhz;
    char note[160];
    /* Theoretical dense peaks from the knowledge base's accelerator catalog (matched by name and
     * compute capability); catalog_id empty when no entry matched. */
    char catalog_id[32];
    double peak_fp32_tflops, peak_bf16_tflops, peak_fp16_tflops, peak_bandwidth_gbs;
};

struct probe_hw {
    char os[16], kernel[64], arch[16];
    struct probe_cpu cpu;
    int naccel;
    struct probe_accel accel[PROBE_MAX_ACCEL];
};

/* Fraction of the catalog peak for each finished GPU result whose device matches an accelerator
 * with catalog peaks: gemm by dtype (fp32 against the vector peak, bf16/fp16 against the matrix
 * peaks; tf32 has none in the catalog), copy_gbs against the memory bandwidth, train-mlp GFLOP/s
 * against the peak of its precision. */
struct probe_run;
void probe_apply_catalog(struct probe_run *run);

/* Fills *hw; never fails (what cannot be read is left empty and said in notes). */
void probe_detect(struct probe_hw *hw);

/* --- the parts of detection, for tests ------------------------------------------------------ */

/* x86 SIMD features from cpuid registers: leaf 1 ecx, leaf 7.0 ebx/ecx/edx, leaf 7.1 eax, and
 * xgetbv(0). Fills names into cpu->simd. */
void probe_x86_features(struct probe_cpu *cpu, uint32_t l1_ecx, uint32_t l7_ebx, uint32_t l7_ecx, uint32_t l7_edx,
                        uint32_t l71_eax, uint64_t xcr0);
/* FP32 FLOP per cycle per core for a vendor, family and model (x86), and the microarchitecture
 * name; 0 when not in the table. has_avx512 and has_avx2/fma refine unknown models. */
int probe_flops_per_cycle(const char *vendor, int family, int model, int has_avx512, int has_fma, char *uarch,
                          size_t uarchsz);
/* Not in the table: FP32 FLOP per cycle per core from the widest vector unit among the
 * features (avx512f 64, fma 32, avx 16, sve 16, neon 16, sse4.2 8; 0 when none), with how it was
 * estimated in `how`. */
int probe_estimate_flops_per_cycle(const char *const *features, int nfeatures, char *how, size_t howsz);
/* The CPU's peaks from its cores, clock and flops_per_cycle (estimated when 0), with the note. */
void probe_cpu_peaks(struct probe_cpu *cpu);
/* The machine's memory, one figure for every view: the larger of the operating system's total
 * (MemTotal) and numa_sum (hwloc's NUMA nodes; 0 when unknown): memory hot-plugged or held back
 * from one of them does not make the figure move between runs. */
uint64_t probe_memory_bytes(uint64_t numa_sum);

/* Apple: parses `sysctl -a` style text ("key: value" lines) into an accelerator entry. */
int probe_parse_apple_sysctl(const char *text, struct probe_accel *out, struct probe_cpu *cpu);

/* --- workloads ------------------------------------------------------------------------------ */

struct probe_stats {
    double median, min, max, mean;
    double cv; /* robust: 1.4826 x median absolute deviation / median */
    int n;
};
/* FLOPs of one n x n x n matrix product: 2 per multiply-add. */
double probe_gemm_flops(int n);
/* Statistics of n samples (sorted in place); probe_stats_copy leaves them as they are. */
void probe_stats(double *samples, int n, struct probe_stats *out);
void probe_stats_copy(const double *samples, int n, struct probe_stats *out);

struct probe_result {
    char workload[16], device[16], metric[32], unit[16];
    int skipped;
    char reason[256];
    struct probe_stats stats;  /* of the metric (higher is better except for `us/step`) */
    double peak_fraction;      /* < 0 when there is no peak to compare with */
    struct probe_params params; /* written as the result's "params" object (probe_params_to_json) */
    int noisy;                 /* cv above 5% */
};

struct eng_cuda_plugin;

/* How far a run is. The time left comes from a plan of each step's cost (its size and a prior
 * rate), scaled by how the finished steps compared with their plan; it never rises silently. */
struct probe_progress {
    double fraction; /* 0..1 of the planned time */
    double eta_s;    /* seconds left; < 0 before the first step has finished */
    int eta_revised; /* the estimate rose: the last steps ran slower than planned */
    char what[32];   /* the step running */
};

struct probe_options {
    int full;                  /* --full: more sizes and repeats */
    int smoke;                 /* tiny sizes and few repeats: for tests, not for measuring */
    int threads;               /* 0: physical cores */
    char device[16];           /* the CPU workloads' device name: "cpu" */
    int cpu;                   /* run the CPU workloads (default when gpu is NULL) */
    /* The GPU workloads: an opened CUDA plug-in (engine/cuda/plugin.h) and its device name
     * ("cuda:0"), or NULL with gpu_missing saying why (the transfer workload reports it). */
    const struct eng_cuda_plugin *gpu;
    int cpu_only;              /* --device cpu: the framework scripts leave accelerators alone too */
    char gpu_device[16];
    char gpu_missing[256];
    int distributed;           /* running under MPI: allreduce and train-dp are run by probes/dist.c */
    unsigned workloads;        /* bit per workload (probe_workload_bit) */
    /* The frameworks workload: the interpreters to measure (--python, in order; none: python3 on
     * PATH and the active virtual or conda environment) and each framework process's time limit
     * in seconds (0: 120, --full 600). */
    const char *const *pythons;
    int npythons;
    double framework_timeout_s;
    volatile sig_atomic_t *stop; /* set by a signal handler: finish the current repeat and return */
    /* Progress: called between repeats (from the measuring thread). */
    void (*progress)(void *ctx, const struct probe_progress *p);
    void *progress_ctx;
};

/* Sets of workloads, as probe_options.workloads holds them: bit i for the i-th row of the
 * workload table (probes/workloads.c). */
enum probe_workload_set {
    PROBE_WS_ALL,     /* every workload */
    PROBE_WS_DEFAULT, /* what a probe runs unless told: all but those run only when asked for (the
                         frameworks: minutes, and other programs started) */
    PROBE_WS_DIST,    /* those across MPI ranks (probes/dist.c runs them under mpirun) */
};
unsigned probe_workload_set(enum probe_workload_set which);
/* The bit of the workload named (PROBE_WL_*, knowledge/measured.h), 0 for no such workload. */
unsigned probe_workload_bit(const char *name);

/* The numerical checks the workloads apply to their own results: 16 sampled entries of C = A B
 * (n x n, row-major) against dot products in double; and STREAM's arrays after `ntimes` rounds of
 * copy, scale, add and triad against the scalar recurrence. 1 when the results are right. */
int probe_gemm_check(const float *a, const float *b, const float *c, int n, uint64_t seed);
int probe_stream_check(const double *a, const double *b, const double *c, size_t n, int ntimes);

/* Opens GPU `index` through the CUDA plug-in for the GPU workloads (o->gpu, o->gpu_device; the CPU
 * workloads as well when also_cpu). 0; or -1 with the reason in err and in o->gpu_missing, which
 * the transfer row reports. Close with eng_device_close after the run. */
int probe_use_gpu(struct probe_options *o, int index, int also_cpu, char *err, size_t errsz);

/* The i-th workload in the order a probe runs them (its name, and its bit in *bit), or NULL past
 * the last: what --workload, the usage and the schema's enum name. */
const char *probe_workload_name(int i, unsigned *bit);
/* The help's list of workloads (--workload's names, what each measures, the default sets), drawn
 * from the table. */
void probe_workloads_help(FILE *out);
/* Parses "gemm,stream,..." (and "all") into workload bits. Returns 0, or -1 with the offending
 * name in err. */
int probe_parse_workloads(const char *list, unsigned *out, char *err, size_t errsz);

/* A run under MPI (mpirun -np N fwadvisor probe ...): rank 0 gathers every rank's figures. */
#define PROBE_MAX_RANKS 64
struct probe_rank {
    int rank;
    char host[64];
    double compute_ms, comm_ms, samples_per_s; /* train-dp medians on this rank; < 0 when not run */
};
struct probe_ranks {
    int count;                 /* 0: a single process */
    char mpi[128];             /* the MPI library's version line */
    int listed;                /* entries in rank[] (the first PROBE_MAX_RANKS) */
    struct probe_rank rank[PROBE_MAX_RANKS];
};

/* What the frameworks workload found: each interpreter, the frameworks it can import with their
 * versions and the devices their processes reported, and the two models every one of them
 * trained (probes/frameworks.c). */
#define PROBE_FW_MAX_PYTHONS MEASURED_FW_MAX_PYTHONS
#define PROBE_FW_MAX_FOUND MEASURED_FW_MAX_FOUND
struct probe_fw_found {
    char id[16];        /* pytorch, jax, tensorflow, keras, mlx, paddlepaddle, mindspore */
    char version[48];
    char devices[192];  /* as its process reported them: "cpu, cuda:0 (NVIDIA H100)"; "" when it never said */
    char note[160];     /* Keras: its importable backends, or why it is not Keras 3 */
};
struct probe_fw_python {
    char path[256];     /* as given or found */
    char version[16], prefix[256];
    char error[256];    /* why it could not be asked; "" when it answered */
    int nfound;
    struct probe_fw_found found[PROBE_FW_MAX_FOUND];
};
struct probe_fw_models {
    char mlp_layers[64];
    int mlp_batch;
    int gpt_layers, gpt_heads, gpt_width, gpt_ctx, gpt_vocab, gpt_batch;
    int warmup[2], steps[2]; /* [0] the MLP's, [1] the GPT's */
};
struct probe_fw_info {
    int ran;            /* the workload ran: the run's "frameworks" section is written */
    struct probe_fw_models models;
    int npythons;
    struct probe_fw_python python[PROBE_FW_MAX_PYTHONS];
};
/* What the run writes, measured_read keeps whole. */
_Static_assert(sizeof(((struct probe_fw_found *)0)->id) <= sizeof(((struct measured_fw_found *)0)->id) &&
                   sizeof(((struct probe_fw_found *)0)->version) <= sizeof(((struct measured_fw_found *)0)->version) &&
                   sizeof(((struct probe_fw_found *)0)->devices) <= sizeof(((struct measured_fw_found *)0)->devices) &&
                   sizeof(((struct probe_fw_found *)0)->note) <= sizeof(((struct measured_fw_found *)0)->note),
               "a framework found fits the reader's");
_Static_assert(sizeof(((struct probe_fw_python *)0)->path) <= sizeof(((struct measured_fw_python *)0)->path) &&
                   sizeof(((struct probe_fw_python *)0)->version) <= sizeof(((struct measured_fw_python *)0)->version) &&
                   sizeof(((struct probe_fw_python *)0)->prefix) <= sizeof(((struct measured_fw_python *)0)->prefix) &&
                   sizeof(((struct probe_fw_python *)0)->error) <= sizeof(((struct measured_fw_python *)0)->error) &&
                   sizeof(((struct probe_fw_models *)0)->mlp_layers) <= sizeof(((struct measured_fw_models *)0)->mlp_layers),
               "an interpreter fits the reader's");

struct probe_run {
    char id[40], started_at[32], version[32];
    double duration_s;
    int interrupted;
    struct probe_ranks ranks;
    struct probe_hw hw;
    int nresults;
    struct probe_result results[PROBE_MAX_RESULTS];
    struct probe_fw_info frameworks;
};

/* A new result row of `workload` (device: opt's CPU name or the one given), or NULL when the
 * run is full; and its statistics from n samples (sorted in place), noisy above 5% CV. */
struct probe_result *probe_result_add(struct probe_run *run, const char *workload, const char *device, const char *metric,
                                      const char *unit);
void probe_result_finish(struct probe_result *res, double *samples, int n);

/* Planned seconds of the selected workloads (probe_progress's plan), for run->hw. */
double probe_plan_seconds(const struct probe_run *run, const struct probe_options *opt);

/* Runs the selected workloads on hw's CPU and appends results to run. Returns 0, or 1 when
 * stopped early (run->interrupted is set). */
int probe_run_workloads(struct probe_run *run, const struct probe_options *opt);

/* The fwadvisor.probe/1 document. Caller frees. */
cJSON *probe_run_to_json(const struct probe_run *run);
/* A result's "params" object: the keys of its shape, in their order (docs/probe.md). Caller frees. */
cJSON *probe_params_to_json(const struct probe_params *p);

/* Stores a run document in the knowledge base (kb_probe_save settles its id and updates doc).
 * When that fails for any reason (k may be NULL), the run is written as JSON to
 * probe-run-ID-XXXXXXXX.json (a random, unguessable tail, created with O_EXCL) beside the
 * database, else in the current directory, else in $TMPDIR, so no
 * measurement is lost. Returns 0 when stored; 1 when written to the file named in `where` (err
 * holds why the store failed); -1 when nothing could be written. */
struct kb;
int probe_run_store(struct kb *k, cJSON *doc, char *where, size_t wheresz, char *err, size_t errsz);

#endif
