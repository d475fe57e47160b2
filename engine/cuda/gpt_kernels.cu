/* The GPT decoder's kernels on an NVIDIA GPU (engine/gpt_ops.h), on the CUDA back-end's stream
 * and cuBLAS handle (cuda_backend.cu).
 *
 * - Linear layers: cuBLAS GEMMs; in bf16 precision the operands are rounded to bf16 on the way
 *   in (weights from the fp32 master copy at every use), fp32 accumulation and output, so the
 *   master weights and the optimizer state stay fp32. fp32 runs plain fp32 (TF32 off), tf32 TF32.
 * - LayerNorm, residual + LayerNorm, bias + GELU: one fused kernel each, a warp per row.
 * - Attention in bf16 and tf32 precision: batched GEMMs on the tensor cores, one cuBLAS strided
 *   batch over the heads per sequence: S = scale Q K^T (fp32), a causal softmax kernel in fp32
 *   writing P (bf16 operands in bf16) and keeping each row's log-sum-exp, O = P V; backward
 *   recomputes S and P from the log-sum-exp, then dV = P^T dO, dP = dO V^T, dS = P (dP - D),
 *   dQ = scale dS K, dK = scale dS^T Q. The T x T matrices live in the scratch, sized for them.
 * - Attention in fp32, or where those matrices would pass ATT_GEMM_MAX_FLOATS: flash-style, one
 *   thread per query row with key/value tiles in shared memory and an online softmax; only each
 *   row's log-sum-exp is kept, so no T x T matrix is ever written to global memory. Backward
 *   recomputes the scores (dQ per query row, dK and dV per key row).
 * - Reductions (bias and LayerNorm weight gradients, the loss, the gradient norm, the embedding
 *   gradient) are two-stage or sorted, never atomic: every result is the same bits on every run,
 *   so a replayed CUDA graph reproduces an eager step exactly.
 * - The whole step (forward, backward, clipping, optimizer) is captured once as a CUDA graph and
 *   replayed; the optimizer's per-step scalars are copied in before each launch.
 *
 * Built into fwadvisor-cuda.so with cuda_backend.cu. */
extern "C" {
#include "engine/cuda/plugin.h"
#include "engine/gpt_ops.h"
}

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* From cuda_backend.cu: the stream, the cuBLAS handle, the matrix precision, error reporting. */
extern "C" cudaStream_t eng_cuda_stream(void);
extern "C" cublasHandle_t eng_cuda_blas(void);
extern "C" enum eng_precision eng_cuda_precision(void);
extern "C" void eng_cuda_note_error(const char *what, const char *detail);

namespace {

/* --- state: graphs, bf16 operand scratch, optimizer scalars ------------------------------ */

struct opt_scalars {
    float lr, b1, b2, eps, wd, step_size, inv_bc2_sqrt, mu;
    int decoupled, first;
};

enum { GROUPS = 2 }; /* the decayed parameters, then the rest */

struct gpt_state {
    const void *key;        /* the model whose step the graph holds */
    cudaGraphExec_t exec;
    int mode;               /* 0 run as issued, 1 capture, 2 replay (calls only hand over scalars) */
    int disabled;           /* FWADVISOR_CUDA_GRAPHS=0, or a capture failed */
    int group;              /* the optimizer call of this step: 0, 1 */
    struct opt_scalars *host, *dev; /* GROUPS each; host pinned */
    __nv_bfloat16 *bf16;    /* operands of the current GEMM */
    size_t bf16_elems;
};

gpt_state G;

cudaStream_t stream() { return eng_cuda_stream(); }

void check_cuda(const char *what, cudaError_t e)
{
    if (e != cudaSuccess) eng_cuda_note_error(what, cudaGetErrorString(e));
}

void check_blas(const char *what, cublasStatus_t s)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        char code[32];
        snprintf(code, sizeof code, "cuBLAS status %d", (int)s);
        eng_cuda_note_error(what, code);
    }
}

bool replaying() { return G.mode == 2; }

unsigned grid_for(size_t n, unsigned threads)
{
    size_t b = (n + threads - 1) / threads;
    return b > 65535u * 16u ? 65535u * 16u : (unsigned)(b ? b : 1);
}

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

/* --- embeddings ---------------------------------------------------------------------------- */

__global__ void encoder_kernel(float *out, const int32_t *tokens, const float *wte, const float *wpe, int T, int C,
                               size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        size_t row = i / C;
        int c = (int)(i % C), t = (int)(row % T);
        out[i] = wte[(size_t)tokens[row] * C + c] + wpe[(size_t)t * C + c];
    }
}

void gpu_encoder_forward(float *out, const int32_t *tokens, const float *wte, const float *wpe, int B, int T, int C)
{
    if (replaying()) return;
    size_t n = (size_t)B * T * C;
    encoder_kernel<<<grid_for(n, 256), 256, 0, stream()>>>(out, tokens, wte, wpe, T, C, n);
}

/* dwpe[t][c] = sum over b, in order. */
__global__ void wpe_back_kernel(float *dwpe, const float *dout, int B, int T, int C)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)T * C; i += (size_t)gridDim.x * blockDim.x) {
        float s = 0.0f;
        for (int b = 0; b < B; b++) s += dout[(size_t)b * T * C + i];
        dwpe[i] = s;
    }
}

/* Each position's place when sorted by (token, position): the count of positions before it. */
__global__ void sort_rank_kernel(int32_t *sorted, const int32_t *tokens, int n)
{
    __shared__ int32_t tile[1024];
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int32_t mine = r < n ? tokens[r] : 0;
    int rank = 0;
    for (int base = 0; base < n; base += 1024) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? tokens[j] : 0;
        __syncthreads();
        int m = n - base < 1024 ? n - base : 1024;
        for (int k = 0; k < m && r < n; k++) {
            int32_t o = tile[k];
            rank += o < mine || (o == mine && base + k < r);
        }
        __syncthreads();
    }
    if (r < n) sorted[rank] = r;
}

/* One block per sorted position; the first of each token's run adds the run's rows in order. */
__global__ void wte_back_kernel(float *dwte, const float *dout, const int32_t *tokens, const int32_t *sorted, int n, int C)
{
    int s = blockIdx.x;
    int32_t tok = tokens[sorted[s]];
    if (s > 0 && tokens[sorted[s - 1]] == tok) return;
    for (int c = threadIdx.x; c < C; c += blockDim.x) {
        float acc = dwte[(size_t)tok * C + c];
        for (int k = s; k < n && tokens[sorted[k]] == tok; k++) acc += dout[(size_t)sorted[k] * C + c];
        dwte[(size_t)tok * C + c] = acc;
    }
}

/* Scratch: each kernel that needs it takes it from the start (no two run at once): the rows'
 * losses (N), attention's D (B x NH x T) and, on the tensor cores, its S and dP (T x T per
 * head, att_gemm_scratch), column sums by row chunk (2 x PART_CHUNKS x 4C), the gradient norm's
 * partial sums (NORM_BLOCKS doubles), the positions sorted by token (N). */
enum { PART_CHUNKS = 64, NORM_BLOCKS = 512 };

size_t scratch_need(int B, int T, int C, int NH)
{
    size_t need = (size_t)B * T, att = (size_t)B * NH * T, part = 2 * PART_CHUNKS * 4 * (size_t)C;
    if (att > need) need = att;
    if (part > need) need = part;
    if (2 * NORM_BLOCKS > need) need = 2 * NORM_BLOCKS;
    return need + 16;
}

/* The tensor-core attention's two T x T fp32 matrices per head, B x NH x T x T floats each, are
 * bounded: past 2^28 floats (1 GiB) a matrix, attention runs the flash kernels instead, whose
 * memory grows with T, not T^2. */
#define ATT_GEMM_MAX_FLOATS ((size_t)1 << 28)

bool att_gemm_fits(int B, int T, int NH) { return (size_t)B * NH * T * T <= ATT_GEMM_MAX_FLOATS; }

bool att_gemm_precision()
{
    enum eng_precision p = eng_cuda_precision();
    return p == ENG_PREC_BF16 || p == ENG_PREC_FP16 || p == ENG_PREC_TF32;
}

bool att_gemm(int B, int T, int NH) { return att_gemm_precision() && att_gemm_fits(B, T, NH); }

size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* The tensor-core attention's scratch: D (B x NH x T), then S (or P) and dP, T x T per head. */
size_t att_gemm_scratch(int B, int T, int NH)
{
    return align64((size_t)B * NH * T) + 2 * align64((size_t)B * NH * T * T) + 16;
}

void gpu_encoder_backward(float *dwte, float *dwpe, const float *dout, const int32_t *tokens, int B, int T, int C,
                          float *scratch)
{
    if (replaying()) return;
    int n = B * T;
    int32_t *sorted = (int32_t *)(void *)scratch;
    wpe_back_kernel<<<grid_for((size_t)T * C, 256), 256, 0, stream()>>>(dwpe, dout, B, T, C);
    sort_rank_kernel<<<(n + 1023) / 1024, 1024, 0, stream()>>>(sorted, tokens, n);
    wte_back_kernel<<<n, 256, 0, stream()>>>(dwte, dout, tokens, sorted, n, C);
}

/* --- LayerNorm ----------------------------------------------------------------------------- */

/* A warp per row: mean, then the variance about it, as the CPU computes them. */
__device__ void ln_row(float *out, float *mean, float *rstd, const float *x, const float *w, const float *b, int C,
                       int lane)
{
    float s = 0.0f;
    for (int c = lane; c < C; c += 32) s += x[c];
    float m = warp_sum(s) / C, v = 0.0f;
    for (int c = lane; c < C; c += 32) {
        float d = x[c] - m;
        v += d * d;
    }
    float rs = rsqrtf(warp_sum(v) / C + 1e-5f);
    for (int c = lane; c < C; c += 32) out[c] = (x[c] - m) * rs * w[c] + b[c];
    if (lane == 0) *mean = m, *rstd = rs;
}

__global__ void ln_kernel(float *out, float *mean, float *rstd, const float *in, const float *w, const float *b, int N,
                          int C)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (row >= N) return;
    size_t o = (size_t)row * C;
    ln_row(out + o, mean + row, rstd + row, in + o, w, b, C, threadIdx.x % 32);
}

__global__ void res_ln_kernel(float *residual, float *out, float *mean, float *rstd, const float *skip,
                              const float *bias, const float *w, const float *b, int N, int C)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= N) return;
    size_t o = (size_t)row * C;
    for (int c = lane; c < C; c += 32) residual[o + c] = (residual[o + c] + bias[c]) + skip[o + c];
    __syncwarp();
    ln_row(out + o, mean + row, rstd + row, residual + o, w, b, C, lane);
}

void gpu_layernorm_forward(float *out, float *mean, float *rstd, const float *in, const float *w, const float *b, int N,
                           int C)
{
    if (replaying()) return;
    ln_kernel<<<(N + 7) / 8, 256, 0, stream()>>>(out, mean, rstd, in, w, b, N, C);
}

void gpu_residual_layernorm_forward(float *residual, float *out, float *mean, float *rstd, const float *skip,
                                    const float *bias, const float *w, const float *b, int N, int C)
{
    if (replaying()) return;
    res_ln_kernel<<<(N + 7) / 8, 256, 0, stream()>>>(residual, out, mean, rstd, skip, bias, w, b, N, C);
}

__global__ void ln_back_kernel(float *din, const float *dout, const float *x, const float *w, const float *mean,
                               const float *rstd, int N, int C, int accumulate)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= N) return;
    size_t o = (size_t)row * C;
    float m = mean[row], rs = rstd[row], sd = 0.0f, sdx = 0.0f;
    for (int c = lane; c < C; c += 32) {
        float d = w[c] * dout[o + c];
        sd += d;
        sdx += d * (x[o + c] - m) * rs;
    }
    float md = warp_sum(sd) / C, mdx = warp_sum(sdx) / C;
    for (int c = lane; c < C; c += 32) {
        float g = (w[c] * dout[o + c] - md - (x[o + c] - m) * rs * mdx) * rs;
        din[o + c] = accumulate ? din[o + c] + g : g;
    }
}

/* Column sums in two stages: chunk k of the rows into partial[k][c], then the chunks in order.
 * With x given, the second sum is of dout * xhat (LayerNorm's weight gradient). */
__global__ void col_partial_kernel(float *partial, float *partial_x, const float *dout, const float *x, const float *mean,
                                   const float *rstd, int N, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.y;
    if (c >= C) return;
    int per = (N + PART_CHUNKS - 1) / PART_CHUNKS, r0 = k * per, r1 = r0 + per < N ? r0 + per : N;
    float s = 0.0f, sx = 0.0f;
    for (int r = r0; r < r1; r++) {
        float d = dout[(size_t)r * C + c];
        s += d;
        if (x) sx += d * ((x[(size_t)r * C + c] - mean[r]) * rstd[r]);
    }
    partial[(size_t)k * C + c] = s;
    if (x) partial_x[(size_t)k * C + c] = sx;
}

__global__ void col_final_kernel(float *out, float *out_x, const float *partial, const float *partial_x, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float s = 0.0f, sx = 0.0f;
    for (int k = 0; k < PART_CHUNKS; k++) {
        s += partial[(size_t)k * C + c];
        if (out_x) sx += partial_x[(size_t)k * C + c];
    }
    out[c] = s;
    if (out_x) out_x[c] = sx;
}

void column_sums(float *sums, float *sums_x, const float *dout, const float *x, const float *mean, const float *rstd,
                 int N, int C, float *scratch)
{
    float *px = scratch + (size_t)PART_CHUNKS * C;
    dim3 grid((C + 127) / 128, PART_CHUNKS);
    col_partial_kernel<<<grid, 128, 0, stream()>>>(scratch, px, dout, x, mean, rstd, N, C);
    col_final_kernel<<<(C + 127) / 128, 128, 0, stream()>>>(sums, sums_x, scratch, px, C);
}

void gpu_layernorm_backward(float *din, float *dw, float *db, const float *dout, const float *in, const float *w,
                            const float *mean, const float *rstd, int N, int C, int accumulate, float *scratch)
{
    if (replaying()) return;
    ln_back_kernel<<<(N + 7) / 8, 256, 0, stream()>>>(din, dout, in, w, mean, rstd, N, C, accumulate);
    column_sums(db, dw, dout, in, mean, rstd, N, C, scratch);
}

/* --- GELU ---------------------------------------------------------------------------------- */

#define GELU_K 0.7978845608028654f
#define GELU_A 0.044715f

__global__ void bias_gelu_kernel(float *out, float *pre, const float *bias, int C, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float x = pre[i] + bias[i % C];
        pre[i] = x;
        out[i] = 0.5f * x * (1.0f + tanhf(GELU_K * (x + GELU_A * x * x * x)));
    }
}

__global__ void gelu_back_kernel(float *d, const float *pre, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float x = pre[i], t = tanhf(GELU_K * (x + GELU_A * x * x * x));
        float du = GELU_K * (1.0f + 3.0f * GELU_A * x * x);
        d[i] *= 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * du;
    }
}

void gpu_bias_gelu_forward(float *out, float *pre, const float *bias, int N, int C)
{
    if (replaying()) return;
    size_t n = (size_t)N * C;
    bias_gelu_kernel<<<grid_for(n, 256), 256, 0, stream()>>>(out, pre, bias, C, n);
}

void gpu_gelu_backward(float *d, const float *pre, size_t n)
{
    if (replaying()) return;
    gelu_back_kernel<<<grid_for(n, 256), 256, 0, stream()>>>(d, pre, n);
}

/* --- linear layers ------------------------------------------------------------------------- */

__global__ void bf16_kernel(__nv_bfloat16 *out, const float *in, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = __float2bfloat16_rn(in[i]);
}

__global__ void add_bias_kernel(float *x, const float *bias, int C, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        x[i] += bias[i % C];
}

/* Room for `elems` bf16 values: grown only when not capturing (the first step runs eagerly and
 * meets every size). */
bool bf16_room(size_t elems)
{
    if (G.bf16_elems >= elems) return true;
    if (G.mode == 1) {
        eng_cuda_note_error("GPT matmul", "operand buffer grew while capturing a CUDA graph");
        return false;
    }
    check_cuda("GPT matmul", cudaStreamSynchronize(stream()));
    if (G.bf16) cudaFree(G.bf16);
    G.bf16 = NULL;
    G.bf16_elems = 0;
    if (cudaMalloc((void **)&G.bf16, elems * sizeof(__nv_bfloat16)) != cudaSuccess) {
        cudaGetLastError();
        eng_cuda_note_error("GPT matmul", "out of device memory for bf16 operands");
        return false;
    }
    G.bf16_elems = elems;
    return true;
}

const __nv_bfloat16 *to_bf16(const float *x, size_t n, size_t at)
{
    bf16_kernel<<<grid_for(n, 256), 256, 0, stream()>>>(G.bf16 + at, x, n);
    return G.bf16 + at;
}

/* Row-major C [m x n] = op(A) op(B) (+ beta C): column-major C^T = op(B)^T op(A)^T. A and B
 * are fp32, or bf16 when `bf16`. */
void gemm(bool ta, bool tb, int m, int n, int k, const void *a, int lda, const void *b, int ldb, float *c, int ldc,
          bool bf16)
{
    const float one = 1.0f, zero = 0.0f;
    cublasOperation_t oa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, ob = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    cudaDataType_t t = bf16 ? CUDA_R_16BF : CUDA_R_32F;
    cublasComputeType_t ct = eng_cuda_precision() == ENG_PREC_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    check_blas("GPT matmul", cublasGemmEx(eng_cuda_blas(), ob, oa, n, m, k, &one, b, t, ldb, a, t, lda, &zero, c,
                                          CUDA_R_32F, ldc, ct, CUBLAS_GEMM_DEFAULT));
}

bool use_bf16() { return eng_cuda_precision() == ENG_PREC_BF16 || eng_cuda_precision() == ENG_PREC_FP16; }

void gpu_matmul_forward(float *out, const float *in, const float *w, const float *bias, int N, int IC, int OC)
{
    if (replaying()) return;
    size_t nin = (size_t)N * IC, nw = (size_t)OC * IC;
    if (use_bf16() && bf16_room(nin + nw + 16)) {
        const __nv_bfloat16 *a = to_bf16(in, nin, 0), *b = to_bf16(w, nw, (nin + 7) & ~(size_t)7);
        gemm(false, true, N, OC, IC, a, IC, b, IC, out, OC, true);
    } else if (!use_bf16()) {
        gemm(false, true, N, OC, IC, in, IC, w, IC, out, OC, false);
    }
    if (bias) add_bias_kernel<<<grid_for((size_t)N * OC, 256), 256, 0, stream()>>>(out, bias, OC, (size_t)N * OC);
}

void gpu_matmul_backward(float *din, float *dw, float *dbias, const float *dout, const float *in, const float *w, int N,
                         int IC, int OC, float *scratch)
{
    if (replaying()) return;
    size_t nd = (size_t)N * OC, nin = (size_t)N * IC, nw = (size_t)OC * IC;
    size_t at_in = (nd + 7) & ~(size_t)7, at_w = at_in + ((nin + 7) & ~(size_t)7);
    if (use_bf16() && bf16_room(at_w + nw + 16)) {
        const __nv_bfloat16 *d = to_bf16(dout, nd, 0), *x = to_bf16(in, nin, at_in);
        gemm(true, false, OC, IC, N, d, OC, x, IC, dw, IC, true);
        if (din) gemm(false, false, N, IC, OC, d, OC, to_bf16(w, nw, at_w), IC, din, IC, true);
    } else if (!use_bf16()) {
        gemm(true, false, OC, IC, N, dout, OC, in, IC, dw, IC, false);
        if (din) gemm(false, false, N, IC, OC, dout, OC, w, IC, din, IC, false);
    }
    if (dbias) column_sums(dbias, NULL, dout, NULL, NULL, NULL, N, OC, scratch);
}

/* --- attention ----------------------------------------------------------------------------- */

enum { ATT_ROWS = 64, ATT_TILE = 32 }; /* query rows per block (a thread each), key rows per tile */

/* Keys and values of rows j0 .. j0 + ATT_TILE into shared memory (zeros past T and hs), between
 * barriers, so the tile before is done with and this one is complete. */
template <int HS>
__device__ void load_kv_tile(float (*ks)[HS], float (*vs)[HS], const float *qkv, size_t base, size_t ld, int C, int j0,
                             int T, int hs)
{
    __syncthreads();
    for (int e = threadIdx.x; e < ATT_TILE * HS; e += blockDim.x) {
        int jj = e / HS, d = e % HS, j = j0 + jj;
        bool ok = j < T && d < hs;
        ks[jj][d] = ok ? qkv[base + (size_t)j * ld + C + d] : 0.0f;
        vs[jj][d] = ok ? qkv[base + (size_t)j * ld + 2 * C + d] : 0.0f;
    }
    __syncthreads();
}

/* Forward: thread t of block (tile, b*NH + h) owns query row i; keys come through shared
 * memory in tiles; the softmax runs online (running max and sum), so only lse[i] is kept. */
template <int HS>
__global__ void attn_fwd_kernel(float *out, float *lse, const float *qkv, int T, int C, int NH, int hs, float scale)
{
    __shared__ float ks[ATT_TILE][HS], vs[ATT_TILE][HS];
    int bh = blockIdx.y, b = bh / NH, h = bh % NH, i = blockIdx.x * ATT_ROWS + threadIdx.x;
    size_t ld = 3 * (size_t)C, base = (size_t)b * T * ld + (size_t)h * hs;
    float q[HS], o[HS];
#pragma unroll
    for (int d = 0; d < HS; d++) {
        q[d] = i < T && d < hs ? qkv[base + (size_t)i * ld + d] * scale : 0.0f;
        o[d] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    int last = min(T - 1, (int)(blockIdx.x * ATT_ROWS + ATT_ROWS - 1)); /* causal: keys up to the block's last row */
    for (int j0 = 0; j0 <= last; j0 += ATT_TILE) {
        load_kv_tile<HS>(ks, vs, qkv, base, ld, C, j0, T, hs);
        if (i >= T) continue;
        for (int jj = 0; jj < ATT_TILE && j0 + jj <= i; jj++) {
            float s = 0.0f;
#pragma unroll
            for (int d = 0; d < HS; d++) s += q[d] * ks[jj][d];
            float mn = fmaxf(m, s), corr = expf(m - mn), p = expf(s - mn);
            l = l * corr + p;
#pragma unroll
            for (int d = 0; d < HS; d++) o[d] = o[d] * corr + p * vs[jj][d];
            m = mn;
        }
    }
    if (i >= T) return;
    float inv = 1.0f / l;
    float *y = out + (size_t)b * T * C + (size_t)i * C + (size_t)h * hs;
#pragma unroll
    for (int d = 0; d < HS; d++)
        if (d < hs) y[d] = o[d] * inv;
    lse[(size_t)bh * T + i] = m + logf(l);
}

/* D_i = dO_i . O_i for every row and head. */
__global__ void attn_d_kernel(float *dd, const float *dout, const float *out, int T, int C, int NH, int hs, size_t n)
{
    size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; /* (b*NH + h)*T + i */
    if (r >= n) return;
    int i = (int)(r % T), bh = (int)(r / T), b = bh / NH, h = bh % NH;
    size_t o = (size_t)b * T * C + (size_t)i * C + (size_t)h * hs;
    float s = 0.0f;
    for (int d = 0; d < hs; d++) s += dout[o + d] * out[o + d];
    dd[r] = s;
}

/* dQ_i = scale sum_j P_ij (dO_i . V_j - D_i) K_j, one thread per query row, keys in tiles. */
template <int HS>
__global__ void attn_dq_kernel(float *dqkv, const float *dout, const float *qkv, const float *lse, const float *dd, int T,
                               int C, int NH, int hs, float scale)
{
    __shared__ float ks[ATT_TILE][HS], vs[ATT_TILE][HS];
    int bh = blockIdx.y, b = bh / NH, h = bh % NH, i = blockIdx.x * ATT_ROWS + threadIdx.x;
    size_t ld = 3 * (size_t)C, base = (size_t)b * T * ld + (size_t)h * hs, ob = (size_t)b * T * C + (size_t)h * hs;
    float q[HS], g[HS], dq[HS];
#pragma unroll
    for (int d = 0; d < HS; d++) {
        bool ok = i < T && d < hs;
        q[d] = ok ? qkv[base + (size_t)i * ld + d] * scale : 0.0f;
        g[d] = ok ? dout[ob + (size_t)i * C + d] : 0.0f;
        dq[d] = 0.0f;
    }
    float L = i < T ? lse[(size_t)bh * T + i] : 0.0f, D = i < T ? dd[(size_t)bh * T + i] : 0.0f;
    int last = min(T - 1, (int)(blockIdx.x * ATT_ROWS + ATT_ROWS - 1));
    for (int j0 = 0; j0 <= last; j0 += ATT_TILE) {
        load_kv_tile<HS>(ks, vs, qkv, base, ld, C, j0, T, hs);
        if (i >= T) continue;
        for (int jj = 0; jj < ATT_TILE && j0 + jj <= i; jj++) {
            float s = 0.0f, dp = 0.0f;
#pragma unroll
            for (int d = 0; d < HS; d++) s += q[d] * ks[jj][d], dp += g[d] * vs[jj][d];
            float ds = expf(s - L) * (dp - D);
#pragma unroll
            for (int d = 0; d < HS; d++) dq[d] += ds * ks[jj][d];
        }
    }
    if (i >= T) return;
    float *out = dqkv + base + (size_t)i * ld;
#pragma unroll
    for (int d = 0; d < HS; d++)
        if (d < hs) out[d] = dq[d] * scale;
}

/* dK_j = scale sum_i dS_ij Q_i (DK) or dV_j = sum_i P_ij dO_i over queries i >= j, one thread per
 * key row, queries in tiles; two passes so that neither holds more than three head-wide rows in
 * registers. */
template <int HS, bool DK>
__global__ void attn_dkv_kernel(float *dqkv, const float *dout, const float *qkv, const float *lse, const float *dd,
                                int T, int C, int NH, int hs, float scale)
{
    __shared__ float qs[ATT_TILE][HS], gs[ATT_TILE][HS], ls[ATT_TILE], ds_[ATT_TILE];
    int bh = blockIdx.y, b = bh / NH, h = bh % NH, j = blockIdx.x * ATT_ROWS + threadIdx.x;
    size_t ld = 3 * (size_t)C, base = (size_t)b * T * ld + (size_t)h * hs, ob = (size_t)b * T * C + (size_t)h * hs;
    float k[HS], v[DK ? HS : 1], acc[HS];
#pragma unroll
    for (int d = 0; d < HS; d++) {
        bool ok = j < T && d < hs;
        k[d] = ok ? qkv[base + (size_t)j * ld + C + d] : 0.0f;
        if (DK) v[d] = ok ? qkv[base + (size_t)j * ld + 2 * C + d] : 0.0f;
        acc[d] = 0.0f;
    }
    int first = blockIdx.x * ATT_ROWS; /* causal: queries from the block's first key row on */
    for (int i0 = first; i0 < T; i0 += ATT_TILE) {
        __syncthreads();
        for (int e = threadIdx.x; e < ATT_TILE * HS; e += blockDim.x) {
            int ii = e / HS, d = e % HS, i = i0 + ii;
            bool ok = i < T && d < hs;
            qs[ii][d] = ok ? qkv[base + (size_t)i * ld + d] * scale : 0.0f;
            gs[ii][d] = ok ? dout[ob + (size_t)i * C + d] : 0.0f;
        }
        for (int ii = threadIdx.x; ii < ATT_TILE; ii += blockDim.x) {
            int i = i0 + ii;
            ls[ii] = i < T ? lse[(size_t)bh * T + i] : 0.0f;
            ds_[ii] = i < T ? dd[(size_t)bh * T + i] : 0.0f;
        }
        __syncthreads();
        if (j >= T) continue;
        for (int ii = 0; ii < ATT_TILE && i0 + ii < T; ii++) {
            if (i0 + ii < j) continue;
            float s = 0.0f;
#pragma unroll
            for (int d = 0; d < HS; d++) s += qs[ii][d] * k[d];
            float p = expf(s - ls[ii]);
            if (DK) {
                float dp = 0.0f;
#pragma unroll
                for (int d = 0; d < HS; d++) dp += gs[ii][d] * v[d];
                float dsv = p * (dp - ds_[ii]);
#pragma unroll
                for (int d = 0; d < HS; d++) acc[d] += dsv * qs[ii][d];
            } else {
#pragma unroll
                for (int d = 0; d < HS; d++) acc[d] += p * gs[ii][d];
            }
        }
    }
    if (j >= T) return;
    float *o = dqkv + base + (size_t)j * ld + (DK ? C : 2 * C);
#pragma unroll
    for (int d = 0; d < HS; d++)
        if (d < hs) o[d] = acc[d];
}

/* Runs kernel K<HS> for the smallest compiled HS >= hs. */
template <template <int> class K, typename... A>
void by_head_size(int hs, dim3 grid, A... args)
{
    if (hs <= 16) K<16>::run(grid, args...);
    else if (hs <= 32) K<32>::run(grid, args...);
    else if (hs <= 64) K<64>::run(grid, args...);
    else K<128>::run(grid, args...);
}

template <int HS> struct fwd_launch {
    static void run(dim3 g, float *out, float *lse, const float *qkv, int T, int C, int NH, int hs, float scale)
    {
        attn_fwd_kernel<HS><<<g, ATT_ROWS, 0, stream()>>>(out, lse, qkv, T, C, NH, hs, scale);
    }
};
template <int HS> struct dq_launch {
    static void run(dim3 g, float *dqkv, const float *dout, const float *qkv, const float *lse, const float *dd, int T,
                    int C, int NH, int hs, float scale)
    {
        attn_dq_kernel<HS><<<g, ATT_ROWS, 0, stream()>>>(dqkv, dout, qkv, lse, dd, T, C, NH, hs, scale);
    }
};
template <int HS> struct dkv_launch {
    static void run(dim3 g, float *dqkv, const float *dout, const float *qkv, const float *lse, const float *dd, int T,
                    int C, int NH, int hs, float scale)
    {
        attn_dkv_kernel<HS, true><<<g, ATT_ROWS, 0, stream()>>>(dqkv, dout, qkv, lse, dd, T, C, NH, hs, scale);
        attn_dkv_kernel<HS, false><<<g, ATT_ROWS, 0, stream()>>>(dqkv, dout, qkv, lse, dd, T, C, NH, hs, scale);
    }
};

bool head_size_ok(int hs)
{
    if (hs <= 128) return true;
    eng_cuda_note_error("GPT attention", "heads wider than 128 are not supported on the GPU");
    return false;
}

/* --- attention on the tensor cores ----------------------------------------------------------- */

/* One operand of a batch of products: row-major, rows `ld` elements apart, matrices `stride`. */
struct att_mat {
    const void *p;
    int ld;
    long long stride;
};

const void *offset(const void *p, cudaDataType_t t, size_t elems)
{
    return (const char *)p + elems * (t == CUDA_R_16BF ? sizeof(__nv_bfloat16) : sizeof(float));
}

/* Row-major C_i [m x n] = alpha op(A_i) op(B_i) for `batch` matrices, fp32 accumulation and C;
 * A and B bf16 (CUDA_R_16BF) or fp32 multiplied as TF32. */
void gemm_heads(bool ta, bool tb, int m, int n, int k, float alpha, att_mat a, att_mat b, float *c, int ldc,
                long long stride_c, int batch, cudaDataType_t t)
{
    const float zero = 0.0f;
    cublasOperation_t oa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, ob = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasComputeType_t ct = t == CUDA_R_32F ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    check_blas("GPT attention", cublasGemmStridedBatchedEx(eng_cuda_blas(), ob, oa, n, m, k, &alpha, b.p, t, b.ld,
                                                           b.stride, a.p, t, a.ld, a.stride, &zero, c, CUDA_R_32F,
                                                           ldc, stride_c, batch, ct, CUBLAS_GEMM_DEFAULT));
}

/* The operands of one call: qkv and dout themselves (tf32) or their bf16 copies in the operand
 * buffer (same layout); P and dS as operands (bf16 copies, one after the other in the same room,
 * or the fp32 matrices); the fp32 matrices S (then P) and dP (then dS), and D, in the scratch. */
struct att_ops {
    cudaDataType_t t;
    const void *qkv, *dout;
    __nv_bfloat16 *p16; /* NULL in tf32 */
    const void *p, *ds;
    float *s, *dp, *d;
};

bool att_setup(att_ops *o, const float *qkv, const float *dout, float *scratch, int B, int T, int C, int NH)
{
    size_t tt = (size_t)B * NH * T * T, nq = (size_t)B * T * 3 * C, nd = dout ? (size_t)B * T * C : 0;
    o->d = scratch;
    o->s = scratch + align64((size_t)B * NH * T);
    o->dp = o->s + align64(tt);
    if (eng_cuda_precision() == ENG_PREC_TF32) {
        o->t = CUDA_R_32F;
        o->qkv = qkv, o->dout = dout, o->p16 = NULL, o->p = o->s, o->ds = o->dp;
        return true;
    }
    size_t at_d = align64(nq), at_p = at_d + align64(nd);
    if (!bf16_room(at_p + tt + 16)) return false;
    o->t = CUDA_R_16BF;
    o->qkv = to_bf16(qkv, nq, 0);
    o->dout = dout ? to_bf16(dout, nd, at_d) : NULL;
    o->p16 = G.bf16 + at_p;
    o->p = o->ds = o->p16;
    return true;
}

/* A warp per row r = (b*NH + h)*T + i of S: the causal softmax over keys j <= i in fp32, P in
 * place of S (zeros past the diagonal) and in bf16 when p16; lse written, or read when given. */
__global__ void att_softmax_kernel(float *s, __nv_bfloat16 *p16, float *lse, const float *lse_in, int T, size_t rows)
{
    size_t r = blockIdx.x * (size_t)(blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (r >= rows) return;
    int i = (int)(r % T);
    float *x = s + r * T, L;
    if (lse_in) {
        L = lse_in[r];
    } else {
        float m = -INFINITY, l = 0.0f;
        for (int j = lane; j <= i; j += 32) m = fmaxf(m, x[j]);
        m = warp_max(m);
        for (int j = lane; j <= i; j += 32) l += expf(x[j] - m);
        L = m + logf(warp_sum(l));
        if (lane == 0) lse[r] = L;
    }
    for (int j = lane; j < T; j += 32) {
        float p = j <= i ? expf(x[j] - L) : 0.0f;
        x[j] = p;
        if (p16) p16[r * T + j] = __float2bfloat16_rn(p);
    }
}

/* dS = P (dP - D_i) in place of dP, 0 past the diagonal; in bf16 too when ds16. */
__global__ void att_ds_kernel(float *dp, __nv_bfloat16 *ds16, const float *p, const float *dd, int T, size_t n)
{
    for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < n; e += (size_t)gridDim.x * blockDim.x) {
        size_t r = e / T;
        int j = (int)(e % T), i = (int)(r % T);
        float v = j <= i ? p[e] * (dp[e] - dd[r]) : 0.0f;
        dp[e] = v;
        if (ds16) ds16[e] = __float2bfloat16_rn(v);
    }
}

/* Sequence b's operand at column `col` of qkv (0 Q, C K, 2C V), the NH heads hs apart. */
att_mat qkv_mat(const att_ops &o, int b, int T, int C, int col, int NH)
{
    att_mat m = {offset(o.qkv, o.t, (size_t)b * T * 3 * C + col), 3 * C, (long long)(C / NH)};
    return m;
}

void att_scores(const att_ops &o, int B, int T, int C, int NH)
{
    int hs = C / NH;
    long long tt = (long long)T * T;
    for (int b = 0; b < B; b++) {
        att_mat q = qkv_mat(o, b, T, C, 0, NH), k = qkv_mat(o, b, T, C, C, NH);
        gemm_heads(false, true, T, T, hs, 1.0f / sqrtf((float)hs), q, k, o.s + (size_t)b * NH * tt, T, tt, NH, o.t);
    }
}

void att_softmax(const att_ops &o, float *lse, const float *lse_in, int B, int T, int NH)
{
    size_t rows = (size_t)B * NH * T;
    att_softmax_kernel<<<(unsigned)((rows + 7) / 8), 256, 0, stream()>>>(o.s, o.p16, lse, lse_in, T, rows);
}

bool att_gemm_forward(float *out, float *lse, const float *qkv, float *scratch, int B, int T, int C, int NH)
{
    att_ops o;
    if (!att_setup(&o, qkv, NULL, scratch, B, T, C, NH)) return false;
    int hs = C / NH;
    long long tt = (long long)T * T;
    att_scores(o, B, T, C, NH);
    att_softmax(o, lse, NULL, B, T, NH);
    for (int b = 0; b < B; b++) {
        att_mat p = {offset(o.p, o.t, (size_t)b * NH * tt), T, tt}, v = qkv_mat(o, b, T, C, 2 * C, NH);
        gemm_heads(false, false, T, hs, T, 1.0f, p, v, out + (size_t)b * T * C, C, hs, NH, o.t);
    }
    return true;
}

bool att_gemm_backward(float *dqkv, const float *dout, const float *qkv, const float *out, const float *lse,
                       float *scratch, int B, int T, int C, int NH)
{
    att_ops o;
    if (!att_setup(&o, qkv, dout, scratch, B, T, C, NH)) return false;
    int hs = C / NH;
    long long tt = (long long)T * T;
    size_t rows = (size_t)B * NH * T, ld = 3 * (size_t)C;
    float scale = 1.0f / sqrtf((float)hs);
    attn_d_kernel<<<grid_for(rows, 256), 256, 0, stream()>>>(o.d, dout, out, T, C, NH, hs, rows);
    att_scores(o, B, T, C, NH);
    att_softmax(o, NULL, lse, B, T, NH);
    for (int b = 0; b < B; b++) { /* dV = P^T dO, then dP = dO V^T */
        att_mat p = {offset(o.p, o.t, (size_t)b * NH * tt), T, tt}, v = qkv_mat(o, b, T, C, 2 * C, NH);
        att_mat g = {offset(o.dout, o.t, (size_t)b * T * C), C, hs};
        gemm_heads(true, false, T, hs, T, 1.0f, p, g, dqkv + (size_t)b * T * ld + 2 * C, 3 * C, hs, NH, o.t);
        gemm_heads(false, true, T, T, hs, 1.0f, g, v, o.dp + (size_t)b * NH * tt, T, tt, NH, o.t);
    }
    att_ds_kernel<<<grid_for(rows * T, 256), 256, 0, stream()>>>(o.dp, o.p16, o.s, o.d, T, rows * T);
    for (int b = 0; b < B; b++) { /* dQ = scale dS K, dK = scale dS^T Q */
        att_mat ds = {offset(o.ds, o.t, (size_t)b * NH * tt), T, tt};
        att_mat q = qkv_mat(o, b, T, C, 0, NH), k = qkv_mat(o, b, T, C, C, NH);
        gemm_heads(false, false, T, hs, T, scale, ds, k, dqkv + (size_t)b * T * ld, 3 * C, hs, NH, o.t);
        gemm_heads(true, false, T, hs, T, scale, ds, q, dqkv + (size_t)b * T * ld + C, 3 * C, hs, NH, o.t);
    }
    return true;
}

void gpu_attention_forward(float *out, float *state, const float *qkv, float *scratch, int B, int T, int C, int NH)
{
    if (replaying()) return;
    if (att_gemm(B, T, NH) && att_gemm_forward(out, state, qkv, scratch, B, T, C, NH)) return;
    int hs = C / NH;
    if (!head_size_ok(hs)) return;
    dim3 grid((T + ATT_ROWS - 1) / ATT_ROWS, B * NH);
    by_head_size<fwd_launch>(hs, grid, out, state, qkv, T, C, NH, hs, 1.0f / sqrtf((float)hs));
}

void gpu_attention_backward(float *dqkv, const float *dout, const float *qkv, const float *out, float *state,
                            float *scratch, int B, int T, int C, int NH)
{
    if (replaying()) return;
    if (att_gemm(B, T, NH) && att_gemm_backward(dqkv, dout, qkv, out, state, scratch, B, T, C, NH)) return;
    int hs = C / NH;
    if (!head_size_ok(hs)) return;
    size_t rows = (size_t)B * NH * T;
    const float *dd = scratch, *lse = state;
    attn_d_kernel<<<grid_for(rows, 256), 256, 0, stream()>>>(scratch, dout, out, T, C, NH, hs, rows);
    dim3 grid((T + ATT_ROWS - 1) / ATT_ROWS, B * NH);
    float scale = 1.0f / sqrtf((float)hs);
    by_head_size<dq_launch>(hs, grid, dqkv, dout, qkv, lse, dd, T, C, NH, hs, scale);
    by_head_size<dkv_launch>(hs, grid, dqkv, dout, qkv, lse, dd, T, C, NH, hs, scale);
}

size_t gpu_attention_state_floats(int B, int T, int NH) { return (size_t)B * NH * T; }

size_t gpu_scratch_floats(int B, int T, int C, int NH, int V)
{
    (void)V;
    size_t need = scratch_need(B, T, C, NH);
    if (att_gemm(B, T, NH) && att_gemm_scratch(B, T, NH) > need) need = att_gemm_scratch(B, T, NH);
    return need;
}

/* --- cross-entropy ------------------------------------------------------------------------- */

/* A block per row: the maximum, the sum of exponentials, the row's loss, the gradient. */
__global__ void ce_kernel(float *rows, float *dlogits, const float *logits, const int32_t *targets, int V, float inv_n)
{
    __shared__ float red[32];
    size_t o = (size_t)blockIdx.x * V;
    const float *z = logits + o;
    float *dz = dlogits + o;
    int y = targets[blockIdx.x], lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    float zy = z[y], mx = -INFINITY;
    for (int c = threadIdx.x; c < V; c += blockDim.x) mx = fmaxf(mx, z[c]);
    mx = warp_max(mx);
    if (lane == 0) red[warp] = mx;
    __syncthreads();
    mx = lane < warps ? red[lane] : -INFINITY;
    mx = warp_max(mx);
    __syncthreads();
    float s = 0.0f;
    for (int c = threadIdx.x; c < V; c += blockDim.x) s += expf(z[c] - mx);
    s = warp_sum(s);
    if (lane == 0) red[warp] = s;
    __syncthreads();
    s = lane < warps ? red[lane] : 0.0f;
    s = warp_sum(s);
    float scale = inv_n / s;
    for (int c = threadIdx.x; c < V; c += blockDim.x) dz[c] = expf(z[c] - mx) * scale - (c == y ? inv_n : 0.0f);
    if (threadIdx.x == 0) rows[blockIdx.x] = logf(s) - (zy - mx);
}

/* A block of 256 threads' values summed as a tree, in a fixed order; the total in thread 0. */
__device__ double block_sum_256(double v)
{
    __shared__ double part[256];
    part[threadIdx.x] = v;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w >>= 1) {
        if ((int)threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    return part[0];
}

/* One block sums the rows in a fixed order: its threads' strided partial sums, then a tree. */
__global__ void mean_kernel(float *out, const float *rows, int n)
{
    double s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += rows[i];
    s = block_sum_256(s);
    if (threadIdx.x == 0) *out = (float)(s / n);
}

void gpu_crossentropy(float *loss, float *dlogits, const float *logits, const int32_t *targets, int N, int V,
                      float *scratch)
{
    if (replaying()) return;
    ce_kernel<<<N, 256, 0, stream()>>>(scratch, dlogits, logits, targets, V, 1.0f / N);
    mean_kernel<<<1, 256, 0, stream()>>>(loss, scratch, N);
}

/* --- gradient norm and optimizer ----------------------------------------------------------- */

__global__ void sumsq_kernel(double *partial, const float *g, size_t n)
{
    double s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        s += (double)g[i] * g[i];
    s = block_sum_256(s);
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

__global__ void norm_final_kernel(float *norm, const double *partial)
{
    double s = 0;
    for (int i = 0; i < NORM_BLOCKS; i++) s += partial[i];
    *norm = (float)sqrt(s);
}

void gpu_global_norm(float *norm, const float *g, size_t n, float *scratch)
{
    if (replaying()) return;
    double *partial = (double *)(void *)scratch; /* the model's buffers are 64-byte aligned */
    sumsq_kernel<<<NORM_BLOCKS, 256, 0, stream()>>>(partial, g, n);
    norm_final_kernel<<<1, 1, 0, stream()>>>(norm, partial);
}

__device__ __forceinline__ float clip_scale(const float *norm, float clip)
{
    if (!(clip > 0.0f)) return 1.0f;
    float coef = clip / (*norm + 1e-6f);
    return coef < 1.0f ? coef : 1.0f;
}

/* torch.optim's Adam/AdamW on clipped gradients, as the CPU's loop (backend.h). */
__global__ void adam_kernel(float *p, const float *g, float *m, float *v, size_t n, const opt_scalars *sc,
                            const float *norm, float clip)
{
    opt_scalars a = *sc;
    float scale = clip_scale(norm, clip);
    float l2 = a.decoupled ? 0.0f : a.wd, decay = a.decoupled ? 1.0f - a.lr * a.wd : 1.0f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float w = p[i] * decay, grad = g[i] * scale + l2 * w;
        float mi = a.b1 * m[i] + (1.0f - a.b1) * grad, vi = a.b2 * v[i] + (1.0f - a.b2) * grad * grad;
        m[i] = mi;
        v[i] = vi;
        p[i] = w - a.step_size * (mi / (sqrtf(vi) * a.inv_bc2_sqrt + a.eps));
    }
}

__global__ void sgd_kernel(float *p, const float *g, float *buf, size_t n, const opt_scalars *sc, const float *norm,
                           float clip)
{
    opt_scalars a = *sc;
    float scale = clip_scale(norm, clip);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float grad = g[i] * scale + a.wd * p[i];
        if (a.mu == 0.0f || !buf) {
            p[i] -= a.lr * grad;
            continue;
        }
        float bv = a.first ? grad : a.mu * buf[i] + grad;
        buf[i] = bv;
        p[i] -= a.lr * bv;
    }
}

/* This step's scalars for the current group: written to pinned memory; copied to the device
 * right away when running as issued, before the launch when a graph runs. */
const opt_scalars *hand_over(const opt_scalars &s)
{
    int k = G.group++ % GROUPS;
    G.host[k] = s;
    if (G.mode == 0) check_cuda("GPT optimizer", cudaMemcpyAsync(&G.dev[k], &G.host[k], sizeof s, cudaMemcpyHostToDevice, stream()));
    return &G.dev[k];
}

void gpu_adam_step(float *p, const float *g, float *m, float *v, size_t n, const struct eng_adam_args *a,
                   const float *norm, float clip)
{
    opt_scalars s;
    memset(&s, 0, sizeof s);
    s.lr = a->lr, s.b1 = a->beta1, s.b2 = a->beta2, s.eps = a->eps, s.wd = a->weight_decay, s.decoupled = a->decoupled;
    s.step_size = (float)(a->lr / a->bias_correction1);
    s.inv_bc2_sqrt = (float)(1.0 / sqrt(a->bias_correction2));
    const opt_scalars *dev = hand_over(s);
    if (replaying()) return;
    adam_kernel<<<grid_for(n, 256), 256, 0, stream()>>>(p, g, m, v, n, dev, clip > 0 ? norm : NULL, clip);
}

void gpu_sgd_step(float *p, const float *g, float *buf, size_t n, const struct eng_sgd_args *a, const float *norm,
                  float clip)
{
    opt_scalars s;
    memset(&s, 0, sizeof s);
    s.lr = a->lr, s.mu = a->momentum, s.wd = a->weight_decay, s.first = a->first_step;
    const opt_scalars *dev = hand_over(s);
    if (replaying()) return;
    sgd_kernel<<<grid_for(n, 256), 256, 0, stream()>>>(p, g, buf, n, dev, clip > 0 ? norm : NULL, clip);
}

/* --- the step as a CUDA graph -------------------------------------------------------------- */

bool scalars_ready()
{
    if (G.host) return true;
    if (cudaMallocHost((void **)&G.host, GROUPS * sizeof *G.host) != cudaSuccess ||
        cudaMalloc((void **)&G.dev, GROUPS * sizeof *G.dev) != cudaSuccess) {
        cudaGetLastError();
        if (G.host) cudaFreeHost(G.host);
        G.host = NULL;
        return false;
    }
    const char *graphs = getenv("FWADVISOR_CUDA_GRAPHS");
    G.disabled = graphs && strcmp(graphs, "0") == 0;
    return true;
}

void drop_graph()
{
    if (G.exec) cudaGraphExecDestroy(G.exec);
    G.exec = NULL;
    G.key = NULL;
}

void gpu_graph_begin(const void *key, int capture_ok)
{
    G.mode = 0;
    G.group = 0;
    if (!scalars_ready()) {
        eng_cuda_note_error("GPT step", "out of memory for the optimizer's scalars");
        return;
    }
    if (G.disabled) return;
    if (G.exec && G.key == key) {
        G.mode = 2;
        return;
    }
    if (!capture_ok) return;
    drop_graph();
    if (cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    G.key = key;
    G.mode = 1;
}

void gpu_graph_end(void)
{
    if (G.mode == 1) {
        cudaGraph_t graph = NULL;
        cudaError_t e = cudaStreamEndCapture(stream(), &graph);
        if (e == cudaSuccess) e = cudaGraphInstantiateWithFlags(&G.exec, graph, 0);
        if (graph) cudaGraphDestroy(graph);
        if (e != cudaSuccess) {
            /* captured, not run: say so; later steps run as issued */
            eng_cuda_note_error("CUDA graph capture (GPT step)", cudaGetErrorString(e));
            cudaGetLastError();
            G.exec = NULL;
            G.key = NULL;
            G.mode = 0;
            G.disabled = 1;
            return;
        }
    }
    if (G.mode) {
        check_cuda("GPT optimizer", cudaMemcpyAsync(G.dev, G.host, GROUPS * sizeof *G.host, cudaMemcpyHostToDevice,
                                                    stream()));
        check_cuda("CUDA graph launch (GPT step)", cudaGraphLaunch(G.exec, stream()));
    }
    G.mode = 0;
}

void gpu_graph_forget(const void *key)
{
    if (G.key == key) drop_graph();
    if (!G.key && G.bf16) { /* no model holds the operand buffer any more */
        cudaStreamSynchronize(stream());
        cudaFree(G.bf16);
        G.bf16 = NULL;
        G.bf16_elems = 0;
    }
}

} /* namespace */

/* Called by cuda_backend.cu when the device closes. */
extern "C" void eng_cuda_gpt_release(void)
{
    drop_graph();
    if (G.bf16) cudaFree(G.bf16);
    if (G.host) cudaFreeHost(G.host);
    if (G.dev) cudaFree(G.dev);
    memset(&G, 0, sizeof G);
}

extern "C" const struct eng_gpt_ops eng_cuda_gpt_ops = {
    NULL, /* set_threads */
    gpu_attention_state_floats,
    gpu_scratch_floats,
    gpu_encoder_forward,
    gpu_encoder_backward,
    gpu_layernorm_forward,
    gpu_residual_layernorm_forward,
    gpu_layernorm_backward,
    gpu_matmul_forward,
    gpu_matmul_backward,
    gpu_bias_gelu_forward,
    gpu_gelu_backward,
    gpu_attention_forward,
    gpu_attention_backward,
    gpu_crossentropy,
    gpu_global_norm,
    gpu_adam_step,
    gpu_sgd_step,
    gpu_graph_begin,
    gpu_graph_end,
    gpu_graph_forget,
};
