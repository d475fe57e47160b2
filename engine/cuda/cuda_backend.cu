/* The CUDA back-end: the engine's back-end struct on an NVIDIA GPU. GEMMs through cuBLAS (the
 * row-major engine calls column-major cuBLAS with the operands swapped), the engine's fused
 * kernels written here (bias + activation, softmax cross-entropy, one Adam/SGD pass over the flat
 * parameter buffer), all on one stream. The same formulas as the CPU back-end, fp32 throughout
 * (TF32 off unless asked for): the optimizers reproduce the CPU's bits exactly (numerics.h);
 * GEMMs, reductions and the transcendental functions of the activations agree to rounding, the
 * sums taken in another order.
 *
 * Built into fwadvisor-cuda.so (see plugin.h); nothing here is linked into the main binary. */
extern "C" {
#include "engine/cuda/plugin.h"
#include "engine/gpt_ops.h"
}
#include "engine/cuda/numerics.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FWADVISOR_VERSION
#define FWADVISOR_VERSION "unknown"
#endif

struct cuda_state {
    int open;
    int device;
    enum eng_precision precision;
    cudaStream_t stream;
    cublasHandle_t blas;
    void *scratch;        /* 16-bit copies of GEMM operands (bf16 / fp16 precision) */
    size_t scratch_bytes;
    void *blas_workspace; /* cuBLAS's workspace, fixed so that captured GEMMs need no allocation */
    char error[256];      /* first error met inside a kernel call (kernels cannot fail) */
};

static struct cuda_state S;

/* CUDA graphs (backend.h's graph_* calls): mode 0 runs calls as issued, 1 captures them, 2 only
 * takes the optimizer's scalars while the held graph replays the step. The optimizer reads its
 * per-step scalars from device memory that a captured copy fills from pinned host memory at each
 * launch, so one graph serves every step. The host copy is rewritten for the next step only
 * after the event recorded behind the last launch has passed (graph_scalars), so a launch still
 * queued can never read the next step's scalars, whether or not the caller synchronises between
 * steps; graph_loss waits on the same event before it reads the pinned loss. */
struct graph_state {
    const void *key;
    cudaGraphExec_t exec;
    int mode;
    int disabled;               /* FWADVISOR_CUDA_GRAPHS=0 */
    float last_loss;            /* mode 0 */
    double loss_div;            /* the last eager loss's divisor */
    double graph_loss_div;      /* the captured loss's divisor */
    int loss_pending;           /* the launched graph's loss is in loss_host */
    int failed;                 /* the last step's capture failed: its loss is NaN */
    cudaEvent_t launched;       /* recorded behind each graph launch */
    int launch_pending;         /* `launched` may not have passed yet */
    struct eng_adam_scalars *adam_host, *adam_dev;
    struct eng_sgd_scalars *sgd_host, *sgd_dev;
};
static struct graph_state G;

static int replaying(void) { return G.mode == 2; }
static void graph_drop(void);

static void note_error(const char *what, const char *detail)
{
    if (S.error[0]) return;
    snprintf(S.error, sizeof S.error, "%s: %s", what, detail);
}

static void check_cuda(const char *what, cudaError_t e)
{
    if (e != cudaSuccess) note_error(what, cudaGetErrorString(e));
}

static void check_blas(const char *what, cublasStatus_t s)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        char code[32];
        snprintf(code, sizeof code, "cuBLAS status %d", (int)s);
        note_error(what, code);
    }
}

static unsigned blocks_for(size_t n, unsigned threads)
{
    size_t b = (n + threads - 1) / threads;
    return b > 65535u * 16u ? 65535u * 16u : (unsigned)(b ? b : 1);
}

/* --- memory ------------------------------------------------------------------------------ */

static void *cu_alloc(size_t bytes)
{
    void *p = NULL;
    if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky-free out-of-memory error */
        return NULL;
    }
    if (cudaMemsetAsync(p, 0, bytes, S.stream) != cudaSuccess || cudaStreamSynchronize(S.stream) != cudaSuccess) {
        cudaFree(p);
        return NULL;
    }
    return p;
}

static void cu_release(void *p)
{
    if (p) cudaFree(p);
}

static void cu_upload(void *dst, const void *src, size_t bytes)
{
    check_cuda("upload", cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, S.stream));
}

static void cu_download(void *dst, const void *src, size_t bytes)
{
    check_cuda("download", cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, S.stream));
    check_cuda("download", cudaStreamSynchronize(S.stream));
}

static void cu_set_threads(int threads) { (void)threads; }

static void cu_synchronize(void) { check_cuda("synchronize", cudaStreamSynchronize(S.stream)); }

/* --- GEMM -------------------------------------------------------------------------------- */

__global__ void to_bf16(__nv_bfloat16 *out, const float *in, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = __float2bfloat16_rn(in[i]);
}

__global__ void to_fp16(__half *out, const float *in, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = __float2half_rn(in[i]);
}

/* Elements a row-major operand spans: rows x ld, the last row only to its width. */
static size_t span(int rows, int cols, int ld) { return rows > 0 ? (size_t)(rows - 1) * ld + cols : 0; }

static int ensure_scratch(size_t bytes)
{
    if (S.scratch_bytes >= bytes) return 0;
    if (G.mode == 1) return -1; /* no allocation while capturing: cuBLAS rounds the inputs itself */
    graph_drop();               /* a held graph reads the old buffer */
    if (S.scratch) cudaFree(S.scratch);
    S.scratch = NULL;
    S.scratch_bytes = 0;
    if (cudaMalloc(&S.scratch, bytes) != cudaSuccess) {
        cudaGetLastError();
        S.scratch = NULL;
        return -1;
    }
    S.scratch_bytes = bytes;
    return 0;
}

static void cu_gemm(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda,
                    const float *b, int ldb, float beta, float *c, int ldc)
{
    /* Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: B first, then A. */
    if (replaying()) return;
    cublasOperation_t ob = trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, oa = trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
    enum eng_precision p = S.precision;
    if (p == ENG_PREC_BF16 || p == ENG_PREC_FP16) {
        size_t na = trans_a ? span(k, m, lda) : span(m, k, lda), nb = trans_b ? span(n, k, ldb) : span(k, n, ldb);
        size_t elem_bytes = 2;
        if (ensure_scratch((((na + 7) & ~(size_t)7) + nb) * elem_bytes) == 0) {
            char *base = (char *)S.scratch;
            void *a16 = base, *b16 = base + ((na + 7) & ~(size_t)7) * elem_bytes; /* 16-byte aligned */
            cudaDataType_t t16 = p == ENG_PREC_BF16 ? CUDA_R_16BF : CUDA_R_16F;
            if (p == ENG_PREC_BF16) {
                to_bf16<<<blocks_for(na, 256), 256, 0, S.stream>>>((__nv_bfloat16 *)a16, a, na);
                to_bf16<<<blocks_for(nb, 256), 256, 0, S.stream>>>((__nv_bfloat16 *)b16, b, nb);
            } else {
                to_fp16<<<blocks_for(na, 256), 256, 0, S.stream>>>((__half *)a16, a, na);
                to_fp16<<<blocks_for(nb, 256), 256, 0, S.stream>>>((__half *)b16, b, nb);
            }
            check_blas("gemm", cublasGemmEx(S.blas, ob, oa, n, m, k, &alpha, b16, t16, ldb, a16, t16, lda, &beta, c,
                                            CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
            return;
        }
        /* No room for the 16-bit copies: let cuBLAS round the inputs itself. */
        cublasComputeType_t ct = p == ENG_PREC_BF16 ? CUBLAS_COMPUTE_32F_FAST_16BF : CUBLAS_COMPUTE_32F_FAST_16F;
        check_blas("gemm", cublasGemmEx(S.blas, ob, oa, n, m, k, &alpha, b, CUDA_R_32F, ldb, a, CUDA_R_32F, lda, &beta,
                                        c, CUDA_R_32F, ldc, ct, CUBLAS_GEMM_DEFAULT));
        return;
    }
    cublasComputeType_t ct = p == ENG_PREC_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    check_blas("gemm", cublasGemmEx(S.blas, ob, oa, n, m, k, &alpha, b, CUDA_R_32F, ldb, a, CUDA_R_32F, lda, &beta, c,
                                    CUDA_R_32F, ldc, ct, CUBLAS_GEMM_DEFAULT));
}

/* --- elementwise kernels ----------------------------------------------------------------- */

__device__ __forceinline__ float gelu_f(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); }

__device__ __forceinline__ float gelu_grad_f(float x)
{
    float cdf = 0.5f * (1.0f + erff(x * 0.70710678118654752f));
    float pdf = expf(-0.5f * x * x) * 0.39894228040143268f;
    return cdf + x * pdf;
}

__global__ void bias_act_kernel(float *out, float *pre, const float *bias, int rows, int cols, int act)
{
    size_t n = (size_t)rows * cols;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v = pre[i] + bias[i % cols];
        pre[i] = v;
        switch (act) {
        case ENG_ACT_RELU: v = v > 0.0f ? v : 0.0f; break;
        case ENG_ACT_GELU: v = gelu_f(v); break;
        case ENG_ACT_TANH: v = tanhf(v); break;
        default: break;
        }
        out[i] = v;
    }
}

static void cu_bias_act_forward(float *out, float *pre, const float *bias, int rows, int cols, enum eng_act act)
{
    if (replaying()) return;
    size_t n = (size_t)rows * cols;
    bias_act_kernel<<<blocks_for(n, 256), 256, 0, S.stream>>>(out, pre, bias, rows, cols, (int)act);
}

__global__ void act_backward_kernel(float *dpre, const float *dout, const float *pre, size_t n, int act)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float g = dout[i], x = pre[i];
        switch (act) {
        case ENG_ACT_RELU: g = x > 0.0f ? g : 0.0f; break;
        case ENG_ACT_GELU: g *= gelu_grad_f(x); break;
        case ENG_ACT_TANH: {
            float t = tanhf(x);
            g *= 1.0f - t * t;
            break;
        }
        default: break;
        }
        dpre[i] = g;
    }
}

static void cu_act_backward(float *dpre, const float *dout, const float *pre, size_t n, enum eng_act act)
{
    if (replaying()) return;
    act_backward_kernel<<<blocks_for(n, 256), 256, 0, S.stream>>>(dpre, dout, pre, n, (int)act);
}

/* Column sums: a 32 x 8 block per 32 columns; each of the 8 thread rows walks a share of the rows
 * (coalesced loads along a row), then the 8 partial sums meet in shared memory. */
__global__ void bias_backward_kernel(float *dbias, const float *d, int rows, int cols)
{
    __shared__ float part[8][33];
    int c = blockIdx.x * 32 + threadIdx.x;
    float s = 0.0f;
    if (c < cols)
        for (int r = threadIdx.y; r < rows; r += 8) s += d[(size_t)r * cols + c];
    part[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0 && c < cols) {
        float t = 0.0f;
        for (int i = 0; i < 8; i++) t += part[i][threadIdx.x];
        dbias[c] = t;
    }
}

static void cu_bias_backward(float *dbias, const float *d, int rows, int cols)
{
    if (replaying()) return;
    dim3 block(32, 8);
    bias_backward_kernel<<<(cols + 31) / 32, block, 0, S.stream>>>(dbias, d, rows, cols);
}

/* --- loss -------------------------------------------------------------------------------- */

__device__ float block_sum(float v, float *shared)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) shared[warp] = v;
    __syncthreads();
    int warps = (blockDim.x + 31) >> 5;
    v = threadIdx.x < warps ? shared[threadIdx.x] : 0.0f;
    if (warp == 0)
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    __syncthreads();
    return v; /* valid in thread 0 */
}

__device__ float block_max(float v, float *shared)
{
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) shared[warp] = v;
    __syncthreads();
    int warps = (blockDim.x + 31) >> 5;
    v = threadIdx.x < warps ? shared[threadIdx.x] : -INFINITY;
    if (warp == 0)
        for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
    if (threadIdx.x == 0) shared[32] = v;
    __syncthreads();
    v = shared[32];
    __syncthreads();
    return v; /* valid in every thread */
}

/* Softmax cross-entropy, one block per row: the row maximum, the sum of exponentials, the row's
 * loss into row_loss[r], and dlogits = (softmax - onehot) / rows, as the CPU back-end computes. */
__global__ void softmax_ce_kernel(float *dlogits, float *row_loss, const float *logits, const int32_t *labels,
                                  int cols, float inv_rows)
{
    __shared__ float shared[33];
    int r = blockIdx.x;
    const float *z = logits + (size_t)r * cols;
    float *dz = dlogits + (size_t)r * cols;
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, z[c]);
    m = block_max(m, shared);
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float e = expf(z[c] - m);
        dz[c] = e;
        s += e;
    }
    s = block_sum(s, shared);
    if (threadIdx.x == 0) shared[32] = s;
    __syncthreads();
    s = shared[32];
    float scale = inv_rows / s;
    int y = labels[r];
    for (int c = threadIdx.x; c < cols; c += blockDim.x) dz[c] = dz[c] * scale - (c == y ? inv_rows : 0.0f);
    if (threadIdx.x == 0) row_loss[r] = logf(s) - (z[y] - m);
}

__global__ void mse_kernel(float *dlogits, float *sq, const float *logits, const float *targets, size_t n, float scale)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float diff = logits[i] - targets[i];
        sq[i] = diff * diff;
        dlogits[i] = scale * diff;
    }
}

/* Sum of n floats in double, one block: the loss is reported, not trained on, so exactness beats
 * speed here (n is the batch for CE). */
__global__ void sum_kernel(double *out, const float *v, size_t n)
{
    __shared__ double shared[256];
    double s = 0;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) s += v[i];
    shared[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w >>= 1) {
        if ((int)threadIdx.x < w) shared[threadIdx.x] += shared[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = shared[0];
}

static float *loss_buf;   /* per-row losses (CE) or squared errors (MSE) */
static size_t loss_buf_n;
static double *loss_total; /* device double */
static double *loss_host;  /* pinned */

static float cu_loss(float *dlogits, const float *logits, const void *targets, int rows, int cols, enum eng_loss loss)
{
    if (replaying()) return NAN;
    size_t need = loss == ENG_LOSS_CE ? (size_t)rows : (size_t)rows * cols;
    if (need > loss_buf_n) {
        if (G.mode == 1) {
            note_error("loss", "a larger loss buffer was needed while capturing a CUDA graph");
            return NAN;
        }
        graph_drop(); /* a held graph writes into the old buffer */
        if (loss_buf) cudaFree(loss_buf);
        loss_buf = NULL;
        loss_buf_n = 0;
        if (cudaMalloc((void **)&loss_buf, need * sizeof(float)) != cudaSuccess) {
            cudaGetLastError();
            note_error("loss", "out of device memory");
            return NAN;
        }
        loss_buf_n = need;
    }
    if (loss == ENG_LOSS_CE) {
        unsigned threads = cols >= 1024 ? 1024 : cols >= 256 ? 256 : 32;
        softmax_ce_kernel<<<rows, threads, 0, S.stream>>>(dlogits, loss_buf, logits, (const int32_t *)targets, cols,
                                                          1.0f / (float)rows);
    } else {
        mse_kernel<<<blocks_for(need, 256), 256, 0, S.stream>>>(dlogits, loss_buf, logits, (const float *)targets, need,
                                                                2.0f / (float)need);
    }
    sum_kernel<<<1, 256, 0, S.stream>>>(loss_total, loss_buf, need);
    check_cuda("loss", cudaMemcpyAsync(loss_host, loss_total, sizeof(double), cudaMemcpyDeviceToHost, S.stream));
    if (G.mode == 1) {
        G.graph_loss_div = (double)(loss == ENG_LOSS_CE ? rows : need);
        return NAN; /* captured: read after the launch (graph_loss) */
    }
    G.loss_div = (double)(loss == ENG_LOSS_CE ? rows : need);
    check_cuda("loss", cudaStreamSynchronize(S.stream));
    check_cuda("loss", cudaGetLastError());
    G.last_loss = (float)(*loss_host / G.loss_div);
    return G.last_loss;
}

/* --- optimizers -------------------------------------------------------------------------- */

/* torch.optim.Adam / AdamW, element by element as numerics.h defines it (the CPU's bits). The
 * scalars come by value, or, in a captured graph, from device memory filled at each launch
 * (from_device not NULL). */
__global__ void adam_kernel(float *__restrict__ p, const float *__restrict__ g, float *__restrict__ m,
                            float *__restrict__ v, size_t n, struct eng_adam_scalars by_value,
                            const struct eng_adam_scalars *from_device)
{
    const struct eng_adam_scalars s = from_device ? *from_device : by_value;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float pi = p[i], mi = m[i], vi = v[i];
        eng_adam_element(&pi, &mi, &vi, g[i], &s);
        p[i] = pi;
        m[i] = mi;
        v[i] = vi;
    }
}

/* The host side of launch_pending: wait until the last graph launch has run. */
static void graph_wait_launch(void)
{
    if (!G.launch_pending) return;
    check_cuda("CUDA graph", cudaEventSynchronize(G.launched));
    G.launch_pending = 0;
}

/* Before a kernel that reads its scalars: in capture mode, a copy of them from pinned memory
 * into device memory becomes part of the graph (the host side is rewritten every step, mode 2
 * included, once the previous launch has run). Returns the device copy to read, or NULL to pass
 * the scalars by value. */
static const void *graph_scalars(void *host, void *dev, const void *value, size_t bytes, const char *what)
{
    if (!G.mode) return NULL;
    graph_wait_launch();
    memcpy(host, value, bytes);
    if (G.mode == 1) check_cuda(what, cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, S.stream));
    return dev;
}

static void cu_adam_step(float *p, const float *g, float *m, float *v, size_t n, const struct eng_adam_args *a)
{
    struct eng_adam_scalars s = eng_adam_scalars_of(a);
    const void *dev = graph_scalars(G.adam_host, G.adam_dev, &s, sizeof s, "adam");
    if (G.mode == 2) return; /* the graph runs it */
    adam_kernel<<<blocks_for(n, 256), 256, 0, S.stream>>>(p, g, m, v, n, s, (const struct eng_adam_scalars *)dev);
}

/* torch.optim.SGD (dampening 0, no Nesterov) as numerics.h defines it; buf NULL without
 * momentum. Scalars as for Adam. */
__global__ void sgd_kernel(float *__restrict__ p, const float *__restrict__ g, float *__restrict__ buf, size_t n,
                           struct eng_sgd_scalars by_value, const struct eng_sgd_scalars *from_device)
{
    const struct eng_sgd_scalars s = from_device ? *from_device : by_value;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float pi = p[i];
        if (buf) {
            float bi = buf[i];
            eng_sgd_element(&pi, &bi, g[i], &s);
            buf[i] = bi;
        } else {
            eng_sgd_element(&pi, NULL, g[i], &s);
        }
        p[i] = pi;
    }
}

static void cu_sgd_step(float *p, const float *g, float *buf, size_t n, const struct eng_sgd_args *a)
{
    float *b = a->momentum == 0.0f ? NULL : buf;
    struct eng_sgd_scalars s = eng_sgd_scalars_of(a);
    const void *dev = graph_scalars(G.sgd_host, G.sgd_dev, &s, sizeof s, "sgd");
    if (G.mode == 2) return;
    sgd_kernel<<<blocks_for(n, 256), 256, 0, S.stream>>>(p, g, b, n, s, (const struct eng_sgd_scalars *)dev);
}

static void graph_drop(void)
{
    graph_wait_launch();
    if (G.exec) cudaGraphExecDestroy(G.exec);
    G.exec = NULL;
    G.key = NULL;
    G.mode = 0;
}

static void cu_graph_begin(const void *key, int capture_ok)
{
    G.mode = 0;
    G.loss_pending = 0;
    G.failed = 0;
    if (G.disabled || !G.adam_host || !G.sgd_host) return;
    if (G.exec && G.key == key) {
        G.mode = 2;
        return;
    }
    if (!capture_ok) return;
    graph_drop();
    if (cudaStreamBeginCapture(S.stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
        cudaGetLastError();
        return; /* run the step as issued */
    }
    G.key = key;
    G.mode = 1;
}

static void cu_graph_end(void)
{
    if (G.mode == 1) {
        cudaGraph_t graph = NULL;
        cudaError_t e = cudaStreamEndCapture(S.stream, &graph);
        if (e == cudaSuccess) e = cudaGraphInstantiateWithFlags(&G.exec, graph, 0);
        if (graph) cudaGraphDestroy(graph);
        if (e != cudaSuccess) {
            /* the step was captured, not run: report it, give the step no loss, and run every
             * later step as issued */
            note_error("CUDA graph capture", cudaGetErrorString(e));
            cudaGetLastError();
            G.exec = NULL;
            G.key = NULL;
            G.mode = 0;
            G.failed = 1;
            G.disabled = 1;
            return;
        }
    }
    if (G.mode) {
        check_cuda("CUDA graph launch", cudaGraphLaunch(G.exec, S.stream));
        check_cuda("CUDA graph launch", cudaEventRecord(G.launched, S.stream));
        G.launch_pending = 1;
        G.loss_pending = 1;
    }
    /* every call after this one runs as issued until the next graph_begin */
    G.mode = 0;
}

static float cu_graph_loss(void)
{
    if (G.failed) return NAN;
    if (!G.loss_pending) return G.last_loss;
    graph_wait_launch();
    return (float)(*loss_host / G.graph_loss_div);
}

static void cu_graph_forget(const void *key)
{
    if (G.key == key) graph_drop();
}

extern "C" const struct eng_gpt_ops eng_cuda_gpt_ops;

static const struct eng_backend cuda_backend = {
    "cuda",
    0,
    cu_alloc,
    cu_release,
    cu_upload,
    cu_download,
    cu_set_threads,
    cu_synchronize,
    cu_gemm,
    cu_bias_act_forward,
    cu_act_backward,
    cu_bias_backward,
    cu_loss,
    cu_adam_step,
    cu_sgd_step,
    cu_graph_begin,
    cu_graph_end,
    cu_graph_loss,
    cu_graph_forget,
    &eng_cuda_gpt_ops, /* gpt_kernels.cu */
};

/* --- opening and closing ----------------------------------------------------------------- */

static int cu_device_count(char *err, size_t errsz)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        cudaGetLastError();
        void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (!driver) {
            snprintf(err, errsz, "no NVIDIA driver (libcuda.so.1 cannot be loaded)");
        } else {
            dlclose(driver);
            if (e == cudaErrorInsufficientDriver)
                snprintf(err, errsz, "the NVIDIA driver is older than this plug-in's CUDA runtime %d.%d",
                         CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
            else
                snprintf(err, errsz, "%s", cudaGetErrorString(e));
        }
        return -1;
    }
    if (n == 0) {
        snprintf(err, errsz, "no CUDA device");
        return -1;
    }
    return n;
}

static void cu_close(void);

static int cu_open(int index, enum eng_precision precision, struct eng_cuda_device *info, char *err, size_t errsz)
{
    if (S.open) cu_close();
    cudaGetLastError(); /* an error left from before is not this session's */
    int n = cu_device_count(err, errsz);
    if (n < 0) return -1;
    if (index < 0 || index >= n) {
        snprintf(err, errsz, "no CUDA device %d (this machine has %d)", index, n);
        return -1;
    }
    cudaError_t e = cudaSetDevice(index);
    struct cudaDeviceProp prop;
    if (e == cudaSuccess) e = cudaGetDeviceProperties(&prop, index);
    if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&S.stream, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
        snprintf(err, errsz, "device %d: %s", index, cudaGetErrorString(e));
        return -1;
    }
    cublasStatus_t bs = cublasCreate(&S.blas);
    if (bs != CUBLAS_STATUS_SUCCESS) {
        snprintf(err, errsz, "cuBLAS could not start (status %d)", (int)bs);
        cudaStreamDestroy(S.stream);
        return -1;
    }
    /* fp32 stays fp32 unless TF32 is asked for (PyTorch's default for matmul): the GEMMs name
     * their compute type, CUBLAS_COMPUTE_32F or CUBLAS_COMPUTE_32F_FAST_TF32. */
    if ((bs = cublasSetStream(S.blas, S.stream)) != CUBLAS_STATUS_SUCCESS ||
        (bs = cublasSetMathMode(S.blas, CUBLAS_DEFAULT_MATH)) != CUBLAS_STATUS_SUCCESS) {
        snprintf(err, errsz, "cuBLAS could not be set up on device %d (status %d)", index, (int)bs);
        cublasDestroy(S.blas);
        cudaStreamDestroy(S.stream);
        return -1;
    }
    if (cudaMalloc((void **)&loss_total, sizeof(double)) != cudaSuccess ||
        cudaMallocHost((void **)&loss_host, sizeof(double)) != cudaSuccess) {
        cudaGetLastError();
        snprintf(err, errsz, "device %d: out of memory", index);
        if (loss_total) cudaFree(loss_total);
        loss_total = NULL;
        cublasDestroy(S.blas);
        cudaStreamDestroy(S.stream);
        return -1;
    }
    /* CUDA graphs for small steps, unless FWADVISOR_CUDA_GRAPHS=0; without their scalar
     * buffers every step simply runs as issued. */
    memset(&G, 0, sizeof G);
    const char *graphs = getenv("FWADVISOR_CUDA_GRAPHS");
    G.disabled = graphs && strcmp(graphs, "0") == 0;
    if (cudaMallocHost((void **)&G.adam_host, sizeof *G.adam_host) != cudaSuccess ||
        cudaMallocHost((void **)&G.sgd_host, sizeof *G.sgd_host) != cudaSuccess ||
        cudaMalloc((void **)&G.adam_dev, sizeof *G.adam_dev) != cudaSuccess ||
        cudaMalloc((void **)&G.sgd_dev, sizeof *G.sgd_dev) != cudaSuccess ||
        cudaEventCreateWithFlags(&G.launched, cudaEventDisableTiming) != cudaSuccess) {
        cudaGetLastError();
        G.launched = NULL;
        G.disabled = 1;
    }
    /* cuBLAS inside a captured graph must not allocate: give it its workspace up front */
    if (cudaMalloc(&S.blas_workspace, 32u << 20) != cudaSuccess ||
        cublasSetWorkspace(S.blas, S.blas_workspace, 32u << 20) != CUBLAS_STATUS_SUCCESS) {
        cudaGetLastError();
        G.disabled = 1;
    }
    S.open = 1;
    S.device = index;
    S.precision = precision;
    S.error[0] = 0;
    if (info) {
        memset(info, 0, sizeof *info);
        snprintf(info->name, sizeof info->name, "%.127s", prop.name);
        info->cc_major = prop.major;
        info->cc_minor = prop.minor;
        info->sm_count = prop.multiProcessorCount;
        int khz = 0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, index) == cudaSuccess) info->clock_mhz = khz / 1000;
        info->memory_bytes = prop.totalGlobalMem;
        cudaRuntimeGetVersion(&info->runtime_version);
        cudaDriverGetVersion(&info->driver_version);
    }
    return 0;
}

extern "C" void eng_cuda_bench_release(void);
extern "C" void eng_cuda_nccl_leave(void);
extern "C" void eng_cuda_gpt_release(void);

static void cu_close(void)
{
    if (!S.open) return;
    eng_cuda_bench_release();
    eng_cuda_nccl_leave();
    eng_cuda_gpt_release();
    cudaStreamSynchronize(S.stream);
    if (S.scratch) cudaFree(S.scratch);
    if (loss_buf) cudaFree(loss_buf);
    if (loss_total) cudaFree(loss_total);
    if (loss_host) cudaFreeHost(loss_host);
    loss_buf = NULL, loss_buf_n = 0, loss_total = NULL, loss_host = NULL;
    graph_drop();
    if (G.adam_host) cudaFreeHost(G.adam_host);
    if (G.sgd_host) cudaFreeHost(G.sgd_host);
    if (G.adam_dev) cudaFree(G.adam_dev);
    if (G.sgd_dev) cudaFree(G.sgd_dev);
    if (G.launched) cudaEventDestroy(G.launched);
    memset(&G, 0, sizeof G);
    /* teardown: a failure here has no one left to tell, and the handle is gone either way */
    if (cublasDestroy(S.blas) != CUBLAS_STATUS_SUCCESS) cudaGetLastError();
    if (S.blas_workspace) cudaFree(S.blas_workspace);
    cudaStreamDestroy(S.stream);
    memset(&S, 0, sizeof S);
}

static const char *cu_last_error(void)
{
    if (!S.error[0]) {
        cudaError_t e = cudaPeekAtLastError();
        if (e != cudaSuccess) note_error("kernel", cudaGetErrorString(e));
    }
    return S.error[0] ? S.error : NULL;
}

/* The probe kernels live in cuda_bench.cu and run on this back-end's stream; their errors (NCCL's
 * included) are reported through last_error as the back-end's are. */
extern "C" cudaStream_t eng_cuda_stream(void) { return S.stream; }
extern "C" void eng_cuda_note_error(const char *what, const char *detail) { note_error(what, detail); }
extern "C" cublasHandle_t eng_cuda_blas(void) { return S.blas; }
/* And the GPT's kernels (gpt_kernels.cu) its precision. */
extern "C" enum eng_precision eng_cuda_precision(void) { return S.precision; }

extern "C" int eng_cuda_bench_prepare(enum eng_cuda_bench kind, size_t size, int arg, char *err, size_t errsz);
extern "C" double eng_cuda_bench_run(void);
extern "C" int eng_cuda_bench_check(void);
extern "C" int eng_cuda_nccl_version(char *err, size_t errsz);
extern "C" int eng_cuda_nccl_unique_id(void *id, char *err, size_t errsz);
extern "C" int eng_cuda_nccl_join(const void *id, int rank, int ranks, char *err, size_t errsz);

static const struct eng_cuda_plugin plugin = {
    ENG_CUDA_ABI,
    FWADVISOR_VERSION,
    ENG_CUDA_SIZES,
    cu_device_count,
    cu_open,
    cu_close,
    &cuda_backend,
    eng_cuda_bench_prepare,
    eng_cuda_bench_run,
    eng_cuda_bench_check,
    eng_cuda_bench_release,
    cu_last_error,
    eng_cuda_nccl_version,
    eng_cuda_nccl_unique_id,
    eng_cuda_nccl_join,
    eng_cuda_nccl_leave,
};

extern "C" __attribute__((visibility("default"))) const struct eng_cuda_plugin *fwadvisor_cuda_plugin(void)
{
    return &plugin;
}
