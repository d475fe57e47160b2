/* GPU probe kernels: GEMM through cuBLAS in fp32, TF32, bf16 and fp16 (as torch.matmul runs
 * them: 16-bit inputs and output, fp32 accumulation), a device copy kernel (bytes read plus
 * written, as the reference copy figures count), host<->device transfers from pinned and
 * pageable memory, and NCCL's allreduce. Each run is timed with CUDA events on the back-end's
 * stream; each result is checked. The operands are random (uniform in [-1, 1) with 24 random
 * bits, as torch.rand's, not constants that tensor cores multiply faster) and come from a hash
 * of the index, so the check recomputes any entry on the host without keeping a copy. */
extern "C" {
#include "engine/cuda/plugin.h"
}
#include "engine/cuda/numerics.h"
#include "engine/libpath.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" cudaStream_t eng_cuda_stream(void);
extern "C" cublasHandle_t eng_cuda_blas(void);
extern "C" void eng_cuda_note_error(const char *what, const char *detail);

/* Uniform in [-1, 1): a signed 24-bit integer times 2^-23, exact in fp32. */
__host__ __device__ static inline float bench_value(uint64_t seed, uint64_t i)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + i + 1;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)((int32_t)(z >> 40) - (1 << 23)) * 0x1p-23f;
}

/* The value stored for element i in a matrix of `type` (0 fp32, 1 bf16, 2 fp16): bench_value
 * rounded to nearest as fill_kernel rounds it (the conversions run on the host too). */
static float stored_value(uint64_t seed, uint64_t i, int type)
{
    float v = bench_value(seed, i);
    if (type == 1) return __bfloat162float(__float2bfloat16_rn(v));
    if (type == 2) return __half2float(__float2half_rn(v));
    return v;
}

__global__ void fill_kernel(void *out, int type, uint64_t seed, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v = bench_value(seed, i);
        if (type == 1) ((__nv_bfloat16 *)out)[i] = __float2bfloat16_rn(v);
        else if (type == 2) ((__half *)out)[i] = __float2half_rn(v);
        else ((float *)out)[i] = v;
    }
}

__global__ void copy_kernel(float4 *dst, const float4 *src, size_t n4)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

__global__ void count_wrong(unsigned long long *wrong, const float *v, uint64_t seed, size_t n)
{
    unsigned long long bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        bad += v[i] != bench_value(seed, i);
    if (bad) atomicAdd(wrong, bad);
}

/* --- NCCL, loaded at run time -------------------------------------------------------------- */

/* The entry points the probe needs, declared from NCCL's C interface, stable since NCCL 2.4:
 * results, data types and operations are int-sized enums (ncclSuccess 0, ncclInProgress 7,
 * ncclFloat32 7, ncclSum 0), the unique id is 128 bytes passed by value, the communicator an
 * opaque pointer. So the plug-in needs neither NCCL's header to build nor its library to load. */
typedef struct nccl_comm_opaque *nccl_comm_t;
struct nccl_id {
    char internal[ENG_NCCL_ID_BYTES];
};
enum { NCCL_SUCCESS = 0, NCCL_IN_PROGRESS = 7, NCCL_FLOAT32 = 7, NCCL_SUM = 0 };

static struct nccl_api {
    void *lib;
    int (*get_version)(int *version);
    int (*get_unique_id)(struct nccl_id *id);
    int (*comm_init_rank)(nccl_comm_t *comm, int nranks, struct nccl_id id, int rank);
    int (*comm_destroy)(nccl_comm_t comm);
    int (*comm_abort)(nccl_comm_t comm);
    int (*comm_get_async_error)(nccl_comm_t comm, int *async_error);
    int (*all_reduce)(const void *send, void *recv, size_t count, int type, int op, nccl_comm_t comm,
                      cudaStream_t stream);
    const char *(*get_error_string)(int result);
} N;

/* Opens NCCL once; a failure is not kept, so a later call can find it. $FWADVISOR_NCCL_LIB is
 * checked as the program checks a plug-in's path (engine/libpath.h, linked into this plug-in).
 * 0, or -1 with err. */
static int nccl_load(char *err, size_t errsz)
{
    if (N.lib) return 0;
    char path[PATH_MAX], why[PATH_MAX + 256];
    if (eng_env_library("FWADVISOR_NCCL_LIB", "libnccl.so.2", path, sizeof path, why, sizeof why) != 0) {
        snprintf(err, errsz, "NCCL is not available (%s)", why);
        return -1;
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(err, errsz, "NCCL is not available (%s)", e ? e : path);
        return -1;
    }
    static const struct {
        const char *name;
        size_t offset;
    } symbols[] = {
        {"ncclGetVersion", offsetof(struct nccl_api, get_version)},
        {"ncclGetUniqueId", offsetof(struct nccl_api, get_unique_id)},
        {"ncclCommInitRank", offsetof(struct nccl_api, comm_init_rank)},
        {"ncclCommDestroy", offsetof(struct nccl_api, comm_destroy)},
        {"ncclCommAbort", offsetof(struct nccl_api, comm_abort)},
        {"ncclCommGetAsyncError", offsetof(struct nccl_api, comm_get_async_error)},
        {"ncclAllReduce", offsetof(struct nccl_api, all_reduce)},
        {"ncclGetErrorString", offsetof(struct nccl_api, get_error_string)},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        void *sym = dlsym(lib, symbols[i].name);
        if (!sym) {
            snprintf(err, errsz, "%s has no %s (NCCL 2.4 or newer is needed)", path, symbols[i].name);
            dlclose(lib);
            memset(&N, 0, sizeof N);
            return -1;
        }
        memcpy((char *)&N + symbols[i].offset, &sym, sizeof sym); /* object to function pointer, as POSIX allows */
    }
    N.lib = lib;
    return 0;
}

static void nccl_message(char *err, size_t errsz, const char *what, int result)
{
    snprintf(err, errsz, "%s: %s", what, N.get_error_string ? N.get_error_string(result) : "failed");
}

static nccl_comm_t nccl_comm;
static int nccl_ranks;

extern "C" int eng_cuda_nccl_version(char *err, size_t errsz)
{
    if (nccl_load(err, errsz)) return -1;
    int v = 0, r = N.get_version(&v);
    if (r != NCCL_SUCCESS) {
        nccl_message(err, errsz, "ncclGetVersion", r);
        return -1;
    }
    return v;
}

extern "C" int eng_cuda_nccl_unique_id(void *id, char *err, size_t errsz)
{
    if (nccl_load(err, errsz)) return -1;
    struct nccl_id u;
    int r = N.get_unique_id(&u);
    if (r != NCCL_SUCCESS) {
        nccl_message(err, errsz, "ncclGetUniqueId", r);
        return -1;
    }
    memcpy(id, &u, sizeof u);
    return 0;
}

/* Ends the communicator after a failure: abort, which neither waits for the other ranks nor for
 * work queued on a broken connection, as ncclCommDestroy would. */
static void nccl_abort(const char *what, int result)
{
    char why[200];
    nccl_message(why, sizeof why, what, result);
    eng_cuda_note_error("NCCL", why);
    if (nccl_comm) N.comm_abort(nccl_comm);
    nccl_comm = NULL;
}

extern "C" void eng_cuda_nccl_leave(void);

extern "C" int eng_cuda_nccl_join(const void *id, int rank, int ranks, char *err, size_t errsz)
{
    eng_cuda_nccl_leave();
    if (nccl_load(err, errsz)) return -1;
    struct nccl_id u;
    memcpy(&u, id, sizeof u);
    nccl_comm_t comm = NULL;
    int r = N.comm_init_rank(&comm, ranks, u, rank);
    if (r != NCCL_SUCCESS) {
        nccl_message(err, errsz, "ncclCommInitRank", r);
        if (comm) N.comm_abort(comm); /* a half-made communicator is aborted, never destroyed */
        return -1;
    }
    nccl_comm = comm;
    nccl_ranks = ranks;
    return 0;
}

extern "C" void eng_cuda_nccl_leave(void)
{
    if (!nccl_comm) return;
    /* a healthy communicator is destroyed (it waits for its own work); one that reports an
     * asynchronous error is aborted */
    int async = NCCL_SUCCESS;
    if (N.comm_get_async_error(nccl_comm, &async) != NCCL_SUCCESS || async != NCCL_SUCCESS) {
        N.comm_abort(nccl_comm);
    } else {
        int r = N.comm_destroy(nccl_comm);
        if (r != NCCL_SUCCESS) {
            char why[200];
            nccl_message(why, sizeof why, "ncclCommDestroy", r);
            eng_cuda_note_error("NCCL", why);
        }
    }
    nccl_comm = NULL;
}

/* Waits for `done` (recorded behind a collective) while polling NCCL's asynchronous error
 * state, as NCCL's documentation asks of a caller that must not hang on a lost peer: a
 * reported error aborts the communicator. 0, or -1. */
static int nccl_wait(cudaEvent_t done)
{
    for (;;) {
        cudaError_t e = cudaEventQuery(done);
        if (e == cudaSuccess) return 0;
        if (e != cudaErrorNotReady) {
            eng_cuda_note_error("allreduce", cudaGetErrorString(e));
            return -1;
        }
        int async = NCCL_SUCCESS, r = N.comm_get_async_error(nccl_comm, &async);
        if (r != NCCL_SUCCESS || (async != NCCL_SUCCESS && async != NCCL_IN_PROGRESS)) {
            nccl_abort("asynchronous error", r != NCCL_SUCCESS ? r : async);
            return -1;
        }
        sched_yield();
    }
}

/* Rank r contributes (r + 1)(i mod 7 + 1): every sum is exact, (i mod 7 + 1) n (n + 1) / 2. */
__global__ void fill_contribution(float *v, int rank, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        v[i] = (float)((rank + 1) * (int)(i % 7 + 1));
}

__global__ void count_wrong_sum(unsigned long long *wrong, const float *v, float scale, size_t n)
{
    unsigned long long bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        bad += v[i] != (float)(i % 7 + 1) * scale;
    if (bad) atomicAdd(wrong, bad);
}

struct bench {
    enum eng_cuda_bench kind;
    int active;
    size_t size;
    int arg;
    void *a, *b, *c;        /* device buffers */
    void *host;             /* transfers */
    int host_pinned;
    int reps;               /* GEMM: products per timed run */
    unsigned long long *wrong;
    cudaEvent_t start, stop;
};

static struct bench B;

static unsigned grid_for(size_t n)
{
    size_t g = (n + 255) / 256;
    return g > 65535u * 8u ? 65535u * 8u : (unsigned)(g ? g : 1);
}

extern "C" void eng_cuda_bench_release(void)
{
    if (!B.active) return;
    cudaStreamSynchronize(eng_cuda_stream());
    cudaFree(B.a);
    cudaFree(B.b);
    cudaFree(B.c);
    cudaFree(B.wrong);
    if (B.host) {
        if (B.host_pinned) cudaFreeHost(B.host);
        else free(B.host);
    }
    cudaEventDestroy(B.start);
    cudaEventDestroy(B.stop);
    memset(&B, 0, sizeof B);
}

static int fail(char *err, size_t errsz, const char *what, cudaError_t e)
{
    snprintf(err, errsz, "%s: %s", what, cudaGetErrorString(e));
    cudaGetLastError();
    eng_cuda_bench_release();
    return -1;
}

static int elem_type(int precision) { return precision == ENG_PREC_BF16 ? 1 : precision == ENG_PREC_FP16 ? 2 : 0; }

extern "C" int eng_cuda_bench_prepare(enum eng_cuda_bench kind, size_t size, int arg, char *err, size_t errsz)
{
    eng_cuda_bench_release();
    cudaStream_t st = eng_cuda_stream();
    B.kind = kind;
    B.size = size;
    B.arg = arg;
    B.active = 1;
    cudaError_t e = cudaEventCreate(&B.start);
    if (e == cudaSuccess) e = cudaEventCreate(&B.stop);
    if (e == cudaSuccess) e = cudaMalloc((void **)&B.wrong, sizeof *B.wrong);
    if (e != cudaSuccess) return fail(err, errsz, "events", e);
    switch (kind) {
    case ENG_BENCH_GEMM: {
        size_t n2 = size * size, width = elem_type(arg) ? 2 : 4;
        e = cudaMalloc(&B.a, n2 * width);
        if (e == cudaSuccess) e = cudaMalloc(&B.b, n2 * width);
        if (e == cudaSuccess) e = cudaMalloc(&B.c, n2 * width);
        if (e != cudaSuccess) return fail(err, errsz, "gemm matrices", e);
        fill_kernel<<<grid_for(n2), 256, 0, st>>>(B.a, elem_type(arg), 1, n2);
        fill_kernel<<<grid_for(n2), 256, 0, st>>>(B.b, elem_type(arg), 2, n2);
        /* about 4e11 FLOP per timed run: launch latency (a few microseconds) is then under 1% of
         * a run at any size, while n = 8192 (1.1e12 FLOP) stays one product */
        double reps = 4e11 / (2.0 * (double)size * size * size);
        B.reps = reps < 1 ? 1 : reps > 1024 ? 1024 : (int)reps;
        break;
    }
    case ENG_BENCH_COPY: {
        size = size / 16 * 16;
        B.size = size;
        e = cudaMalloc(&B.a, size);
        if (e == cudaSuccess) e = cudaMalloc(&B.b, size);
        if (e != cudaSuccess) return fail(err, errsz, "copy buffers", e);
        fill_kernel<<<grid_for(size / 4), 256, 0, st>>>(B.a, 0, 3, size / 4);
        cudaMemsetAsync(B.b, 0, size, st);
        break;
    }
    case ENG_BENCH_ALLREDUCE: {
        if (!nccl_comm) {
            snprintf(err, errsz, "no NCCL communicator (join first, or it was aborted after an error)");
            eng_cuda_bench_release();
            return -1;
        }
        size = size < 8 ? 8 : size / 4 * 4;
        B.size = size;
        e = cudaMalloc(&B.a, size);
        if (e == cudaSuccess) e = cudaMalloc(&B.b, size);
        if (e != cudaSuccess) return fail(err, errsz, "allreduce buffers", e);
        fill_contribution<<<grid_for(size / 4), 256, 0, st>>>((float *)B.a, arg, size / 4);
        cudaMemsetAsync(B.b, 0, size, st);
        break;
    }
    case ENG_BENCH_H2D:
    case ENG_BENCH_D2H: {
        size = size / 4 * 4;
        B.size = size;
        e = cudaMalloc(&B.a, size);
        if (e != cudaSuccess) return fail(err, errsz, "device buffer", e);
        B.host_pinned = arg != 0;
        if (B.host_pinned) {
            e = cudaMallocHost(&B.host, size);
            if (e != cudaSuccess) return fail(err, errsz, "pinned host buffer", e);
        } else if (!(B.host = malloc(size))) {
            snprintf(err, errsz, "out of host memory for %zu bytes", size);
            eng_cuda_bench_release();
            return -1;
        }
        float *h = (float *)B.host;
        if (kind == ENG_BENCH_H2D) {
            for (size_t i = 0; i < size / 4; i++) h[i] = bench_value(4, i);
            cudaMemsetAsync(B.a, 0, size, st);
        } else {
            memset(h, 0, size);
            fill_kernel<<<grid_for(size / 4), 256, 0, st>>>(B.a, 0, 4, size / 4);
        }
        break;
    }
    }
    e = cudaStreamSynchronize(st);
    if (e == cudaSuccess) e = cudaGetLastError();
    if (e != cudaSuccess) return fail(err, errsz, "prepare", e);
    return 0;
}

extern "C" double eng_cuda_bench_run(void)
{
    if (!B.active) return -1;
    cudaStream_t st = eng_cuda_stream();
    int runs = 1;
    if (cudaEventRecord(B.start, st) != cudaSuccess) return -1;
    switch (B.kind) {
    case ENG_BENCH_GEMM: {
        int n = (int)B.size;
        float one = 1.0f, zero = 0.0f;
        cudaDataType_t t = B.arg == ENG_PREC_BF16 ? CUDA_R_16BF : B.arg == ENG_PREC_FP16 ? CUDA_R_16F : CUDA_R_32F;
        cublasComputeType_t ct = B.arg == ENG_PREC_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
        runs = B.reps;
        for (int i = 0; i < runs; i++) {
            cublasStatus_t bs = cublasGemmEx(eng_cuda_blas(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B.a, t, n, B.b,
                                             t, n, &zero, B.c, t, n, ct, CUBLAS_GEMM_DEFAULT);
            if (bs != CUBLAS_STATUS_SUCCESS) {
                char code[32];
                snprintf(code, sizeof code, "cuBLAS status %d", (int)bs);
                eng_cuda_note_error("gemm", code);
                return -1;
            }
        }
        break;
    }
    case ENG_BENCH_COPY:
        copy_kernel<<<grid_for(B.size / 16), 256, 0, st>>>((float4 *)B.b, (const float4 *)B.a, B.size / 16);
        break;
    case ENG_BENCH_ALLREDUCE: {
        if (!nccl_comm) return -1;
        int r = N.all_reduce(B.a, B.b, B.size / 4, NCCL_FLOAT32, NCCL_SUM, nccl_comm, st);
        if (r != NCCL_SUCCESS && r != NCCL_IN_PROGRESS) {
            nccl_abort("ncclAllReduce", r);
            return -1;
        }
        break;
    }
    case ENG_BENCH_H2D: cudaMemcpyAsync(B.a, B.host, B.size, cudaMemcpyHostToDevice, st); break;
    case ENG_BENCH_D2H: cudaMemcpyAsync(B.host, B.a, B.size, cudaMemcpyDeviceToHost, st); break;
    }
    if (cudaEventRecord(B.stop, st) != cudaSuccess) return -1;
    if (B.kind == ENG_BENCH_ALLREDUCE && nccl_wait(B.stop) != 0) return -1;
    if (cudaEventSynchronize(B.stop) != cudaSuccess || cudaGetLastError() != cudaSuccess) return -1;
    float ms = 0;
    if (cudaEventElapsedTime(&ms, B.start, B.stop) != cudaSuccess) return -1;
    return ms * 1e-3 / runs;
}

static float load_elem(const void *base, size_t i, int type)
{
    if (type == 1) {
        __nv_bfloat16 v;
        if (cudaMemcpy(&v, (const __nv_bfloat16 *)base + i, sizeof v, cudaMemcpyDeviceToHost) != cudaSuccess) return NAN;
        return __bfloat162float(v);
    }
    if (type == 2) {
        __half v;
        if (cudaMemcpy(&v, (const __half *)base + i, sizeof v, cudaMemcpyDeviceToHost) != cudaSuccess) return NAN;
        return __half2float(v);
    }
    float v;
    if (cudaMemcpy(&v, (const float *)base + i, sizeof v, cudaMemcpyDeviceToHost) != cudaSuccess) return NAN;
    return v;
}

static int device_all_right(const float *v, uint64_t seed, size_t n)
{
    cudaStream_t st = eng_cuda_stream();
    unsigned long long wrong = 1;
    cudaMemsetAsync(B.wrong, 0, sizeof *B.wrong, st);
    count_wrong<<<grid_for(n), 256, 0, st>>>(B.wrong, v, seed, n);
    if (cudaMemcpyAsync(&wrong, B.wrong, sizeof wrong, cudaMemcpyDeviceToHost, st) != cudaSuccess) return 0;
    if (cudaStreamSynchronize(st) != cudaSuccess) return 0;
    return wrong == 0;
}

extern "C" int eng_cuda_bench_check(void)
{
    if (!B.active) return 0;
    cudaStreamSynchronize(eng_cuda_stream());
    switch (B.kind) {
    case ENG_BENCH_GEMM: {
        /* 16 entries of the column-major C = A B against dot products in double over the values
         * as stored, within numerics.h's tolerance for this precision and k: at n = 8192 about
         * 0.09 in fp32 against entries of typical size 30 (sqrt(n / 9)), where the rule of a
         * whole product's size would allow 17. */
        int n = (int)B.size, type = elem_type(B.arg);
        struct eng_gemm_rounding rounding = eng_gemm_rounding_of(B.arg, B.arg != ENG_PREC_TF32, type != 0);
        uint64_t h = 0x2545f4914f6cdd1dull;
        for (int s = 0; s < 16; s++) {
            h ^= h << 13, h ^= h >> 7, h ^= h << 17;
            int i = (int)(h % (uint64_t)n);
            h ^= h << 13, h ^= h >> 7, h ^= h << 17;
            int j = (int)(h % (uint64_t)n);
            double ref = 0, sum_abs = 0, sum_sq = 0;
            for (int k = 0; k < n; k++) {
                double x = (double)stored_value(1, (size_t)i + (size_t)k * n, type) *
                           stored_value(2, (size_t)k + (size_t)j * n, type);
                ref += x;
                sum_abs += fabs(x);
                sum_sq += x * x;
            }
            float got = load_elem(B.c, (size_t)i + (size_t)j * n, type);
            if (!(fabs(got - ref) <= eng_gemm_tolerance(rounding, n, sum_abs, sum_sq, ref))) return 0;
        }
        return 1;
    }
    case ENG_BENCH_COPY: return device_all_right((const float *)B.b, 3, B.size / 4);
    case ENG_BENCH_ALLREDUCE: {
        cudaStream_t st = eng_cuda_stream();
        unsigned long long wrong = 1;
        cudaMemsetAsync(B.wrong, 0, sizeof *B.wrong, st);
        count_wrong_sum<<<grid_for(B.size / 4), 256, 0, st>>>(B.wrong, (const float *)B.b,
                                                             (float)nccl_ranks * (nccl_ranks + 1) / 2, B.size / 4);
        if (cudaMemcpyAsync(&wrong, B.wrong, sizeof wrong, cudaMemcpyDeviceToHost, st) != cudaSuccess ||
            cudaStreamSynchronize(st) != cudaSuccess)
            return 0;
        return wrong == 0;
    }
    case ENG_BENCH_H2D: return device_all_right((const float *)B.a, 4, B.size / 4);
    case ENG_BENCH_D2H: {
        const float *h = (const float *)B.host;
        for (size_t i = 0; i < B.size / 4; i++)
            if (h[i] != bench_value(4, i)) return 0;
        return 1;
    }
    }
    return 0;
}
