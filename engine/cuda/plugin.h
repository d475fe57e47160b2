/* The CUDA plug-in's interface: what the main program finds with dlsym("fwadvisor_cuda_plugin")
 * in fwadvisor-cuda.so. The plug-in carries the CUDA back-end (cuBLAS GEMMs and the engine's
 * fused kernels) and the GPU probe workloads; the main binary never links CUDA, so it runs where
 * there is none and says why the back-end is missing. Plain C on both sides. */
#ifndef FWADVISOR_ENGINE_CUDA_PLUGIN_H
#define FWADVISOR_ENGINE_CUDA_PLUGIN_H

#include "engine/backend.h"

#include <stddef.h>

#define ENG_CUDA_ABI 2

/* Matrix precision. FP32: plain fp32 (TF32 off, as PyTorch's default); TF32: fp32 data, TF32
 * tensor cores; BF16 / FP16: the matrix inputs rounded to 16 bits, fp32 accumulation and output,
 * fp32 master weights and optimizer state. */
enum eng_precision { ENG_PREC_FP32, ENG_PREC_TF32, ENG_PREC_BF16, ENG_PREC_FP16 };

struct eng_cuda_device {
    char name[128];
    int cc_major, cc_minor;
    int sm_count;
    int clock_mhz;             /* SM clock, 0 when unknown */
    size_t memory_bytes;
    int runtime_version, driver_version;
};

/* Timed probe kernels: prepare once, run many times (each run timed with CUDA events after the
 * caller's warm-up), check the last result, release. */
enum eng_cuda_bench { ENG_BENCH_GEMM, ENG_BENCH_COPY, ENG_BENCH_H2D, ENG_BENCH_D2H, ENG_BENCH_ALLREDUCE };

#define ENG_NCCL_ID_BYTES 128

struct eng_cuda_plugin {
    int abi;                   /* ENG_CUDA_ABI */
    const char *version;       /* the program version the plug-in was built with */
    /* Number of devices, or -1 with the reason in err (no driver, no device). */
    int (*device_count)(char *err, size_t errsz);
    /* Selects device `index` for everything after; fills *info. 0, or -1 with err. */
    int (*open)(int index, enum eng_precision precision, struct eng_cuda_device *info, char *err, size_t errsz);
    void (*close)(void);
    const struct eng_backend *backend; /* usable between open and close */
    /* GEMM: size = n (n x n x n), arg = an eng_precision. COPY: size = bytes of the source.
     * H2D/D2H: size = bytes, arg = 1 for pinned host memory. ALLREDUCE (after nccl_join): size =
     * bytes of float32, arg = this rank; the result is checked against every rank's known
     * contribution. 0, or -1 with err. */
    int (*bench_prepare)(enum eng_cuda_bench kind, size_t size, int arg, char *err, size_t errsz);
    double (*bench_run)(void);  /* seconds for one run, < 0 on a CUDA error */
    int (*bench_check)(void);   /* 1 when the last run's result is right */
    void (*bench_release)(void);
    const char *(*last_error)(void); /* the first CUDA error a kernel met, or NULL */
    /* NCCL across processes, MPI only for start-up: rank 0 makes the unique id, the MPI layer
     * broadcasts its ENG_NCCL_ID_BYTES, every rank joins with it on its opened GPU. */
    int (*nccl_unique_id)(void *id, char *err, size_t errsz);
    int (*nccl_join)(const void *id, int rank, int ranks, char *err, size_t errsz);
    void (*nccl_leave)(void);
};

typedef const struct eng_cuda_plugin *(*eng_cuda_plugin_fn)(void);

/* The main program's side (engine/cuda_loader.c): loads the plug-in once (FWADVISOR_CUDA_PLUGIN,
 * else fwadvisor-cuda.so where engine/plugin.h takes plug-ins from) and returns it, or NULL with
 * the reason in err ("not built", the loader's message, an ABI or version mismatch). */
const struct eng_cuda_plugin *eng_cuda_load(char *err, size_t errsz);
/* After a load: the one-line reason when a plug-in file was there but was not loaded (an unsafe
 * place, another build), which the front end shows as a warning; else NULL. */
const char *eng_cuda_load_warning(void);

/* "cpu", "cuda" or "cuda:N" into *index (-1 for the CPU). 0, or -1 with err. */
int eng_device_parse(const char *device, int *index, char *err, size_t errsz);
/* "fp32", "tf32", "bf16", "fp16". 0, or -1. */
int eng_precision_parse(const char *name, enum eng_precision *out);
const char *eng_precision_name(enum eng_precision p);
/* The back-end for a parsed device: the CPU one for index -1, else loads the plug-in and opens
 * GPU `index` (info filled when not NULL). NULL with "no CUDA back-end: <reason>" in err. */
const struct eng_backend *eng_device_open(int index, enum eng_precision precision, struct eng_cuda_device *info,
                                          char *err, size_t errsz);
/* Closes the GPU opened by eng_device_open, if any; returns the first CUDA error met, or NULL. */
const char *eng_device_error(void);
void eng_device_close(void);

#endif
