/* The CPU back-end: cblas_sgemm from OpenBLAS (opened on first use: blas.h), fused elementwise kernels in plain C.
 *
 * Threads: OpenBLAS runs its own pool for GEMM; the elementwise kernels here run on the calling
 * thread, between GEMMs, so the two never compete for cores (llm.c's CPU path makes the same
 * choice with OpenMP). They are a few percent of a step. */
#include "engine/backend.h"
#include "engine/blas.h"
#include "engine/cpu_math.h"
#include "engine/gpt_ops.h"

#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *cpu_alloc(size_t bytes)
{
    /* 64-byte alignment for vector loads; calloc semantics. */
    void *p = NULL;
    size_t rounded = (bytes + 63) & ~(size_t)63;
    if (posix_memalign(&p, 64, rounded ? rounded : 64) != 0) return NULL;
    memset(p, 0, rounded ? rounded : 64);
    return p;
}

static void cpu_release(void *p) { free(p); }
static void cpu_copy(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }
static void cpu_set_threads(int threads) { eng_blas_set_threads(threads); }
static void cpu_synchronize(void) {}

static void cpu_gemm(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda,
                     const float *b, int ldb, float beta, float *c, int ldc)
{
    eng_blas_sgemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* GELU, exact (erf) form: PyTorch's default nn.GELU(). */
static inline float gelu(float x) { return 0.5f * x * (1.0f + erff(x * (float)M_SQRT1_2)); }

static inline float gelu_grad(float x)
{
    float cdf = 0.5f * (1.0f + erff(x * (float)M_SQRT1_2));
    float pdf = expf(-0.5f * x * x) * (float)(0.5 * M_2_SQRTPI * M_SQRT1_2); /* 1/sqrt(2 pi) */
    return cdf + x * pdf;
}

HOT static void add_bias(float *restrict p, const float *restrict bias, int cols)
{
    for (int c = 0; c < cols; c++) p[c] += bias[c];
}

HOT static void relu_into(float *restrict o, const float *restrict p, int cols)
{
    for (int c = 0; c < cols; c++) o[c] = p[c] > 0.0f ? p[c] : 0.0f;
}

static void cpu_bias_act_forward(float *out, float *pre, const float *bias, int rows, int cols, enum eng_act act)
{
    for (int r = 0; r < rows; r++) {
        float *p = pre + (size_t)r * cols, *o = out + (size_t)r * cols;
        add_bias(p, bias, cols);
        switch (act) {
        case ENG_ACT_NONE:
            if (o != p) memcpy(o, p, (size_t)cols * sizeof *o);
            break;
        case ENG_ACT_RELU: relu_into(o, p, cols); break;
        case ENG_ACT_GELU:
            for (int c = 0; c < cols; c++) o[c] = gelu(p[c]);
            break;
        case ENG_ACT_TANH:
            for (int c = 0; c < cols; c++) o[c] = tanhf(p[c]);
            break;
        }
    }
}

HOT static void relu_backward(float *restrict d, const float *restrict pre, size_t n)
{
    for (size_t i = 0; i < n; i++) d[i] = pre[i] > 0.0f ? d[i] : 0.0f;
}

/* In place when dpre == dout, as the model calls it. */
static void cpu_act_backward(float *dpre, const float *dout, const float *pre, size_t n, enum eng_act act)
{
    if (dpre != dout) memcpy(dpre, dout, n * sizeof *dpre);
    switch (act) {
    case ENG_ACT_NONE: break;
    case ENG_ACT_RELU: relu_backward(dpre, pre, n); break;
    case ENG_ACT_GELU:
        for (size_t i = 0; i < n; i++) dpre[i] *= gelu_grad(pre[i]);
        break;
    case ENG_ACT_TANH:
        for (size_t i = 0; i < n; i++) {
            float t = tanhf(pre[i]);
            dpre[i] *= 1.0f - t * t;
        }
        break;
    }
}

HOT static void cpu_bias_backward(float *restrict dbias, const float *restrict d, int rows, int cols)
{
    memset(dbias, 0, (size_t)cols * sizeof *dbias);
    for (int r = 0; r < rows; r++) {
        const float *row = d + (size_t)r * cols;
        for (int c = 0; c < cols; c++) dbias[c] += row[c];
    }
}

/* e^x over a whole block: no reduction in the loop, so it vectorises. */
HOT static void exp_block(float *restrict out, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = exp_nonpositive(out[i]);
}

static float cpu_loss(float *dlogits, const float *logits, const void *targets, int rows, int cols, enum eng_loss loss)
{
    double total = 0;
    if (loss == ENG_LOSS_CE) {
        const int32_t *labels = targets;
        float inv_rows = 1.0f / (float)rows;
        /* Row by row, the chains of max and sum are short and independent, so rows overlap in
         * the processor; the exponentials run over the whole block at once. */
        for (int r = 0; r < rows; r++) {
            const float *z = logits + (size_t)r * cols;
            float *dz = dlogits + (size_t)r * cols;
            float max = z[0];
            for (int c = 1; c < cols; c++) max = z[c] > max ? z[c] : max;
            for (int c = 0; c < cols; c++) dz[c] = z[c] - max;
        }
        exp_block(dlogits, (size_t)rows * cols);
        for (int r = 0; r < rows; r++) {
            const float *z = logits + (size_t)r * cols;
            float *dz = dlogits + (size_t)r * cols;
            float sum = 0.0f;
            for (int c = 0; c < cols; c++) sum += dz[c];
            int y = labels[r];
            float max = z[0];
            for (int c = 1; c < cols; c++) max = z[c] > max ? z[c] : max;
            total += (double)(logf(sum) - (z[y] - max));
            float scale = inv_rows / sum;
            for (int c = 0; c < cols; c++) dz[c] *= scale;
            dz[y] -= inv_rows;
        }
        return (float)(total / rows);
    }
    const float *t = targets;
    size_t n = (size_t)rows * cols;
    float scale = 2.0f / (float)n;
    for (size_t i = 0; i < n; i++) {
        float diff = logits[i] - t[i];
        total += (double)diff * diff;
        dlogits[i] = scale * diff;
    }
    return (float)(total / (double)n);
}

/* torch.optim.Adam / AdamW, single-tensor path:
 *   g += wd * p (Adam) | p *= 1 - lr * wd (AdamW)
 *   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
 *   p -= (lr / bc1) * m / (sqrt(v) / sqrt(bc2) + eps) */
HOT static void adam_loop(float *restrict p, const float *restrict g, float *restrict m, float *restrict v, size_t n,
                          float b1, float b2, float step_size, float inv_bc2_sqrt, float eps, float l2, float decay)
{
    const float one_b1 = 1.0f - b1, one_b2 = 1.0f - b2;
    for (size_t i = 0; i < n; i++) {
        float w = p[i] * decay;
        float grad = g[i] + l2 * w;
        float mi = b1 * m[i] + one_b1 * grad;
        float vi = b2 * v[i] + one_b2 * grad * grad;
        m[i] = mi;
        v[i] = vi;
        /* torch divides sqrt(v) by sqrt(bc2); multiplying by the reciprocal differs by at most an
         * ulp and saves one of the loop's two divisions, the slowest vector operation here. */
        p[i] = w - step_size * (mi / (sqrtf(vi) * inv_bc2_sqrt + eps));
    }
}

static void cpu_adam_step(float *p, const float *g, float *m, float *v, size_t n, const struct eng_adam_args *a)
{
    /* Adam: decay 1 and L2 wd; AdamW: decay 1 - lr wd and no L2. Multiplying by exactly 1 and
     * adding exactly 0 change no bits, so one loop serves both. */
    float decay = a->decoupled ? 1.0f - a->lr * a->weight_decay : 1.0f;
    float l2 = a->decoupled ? 0.0f : a->weight_decay;
    adam_loop(p, g, m, v, n, a->beta1, a->beta2, (float)(a->lr / a->bias_correction1),
              (float)(1.0 / sqrt(a->bias_correction2)), a->eps, l2, decay);
}

/* torch.optim.SGD (dampening 0, no Nesterov): g += wd p; buf = momentum buf + g (buf = g at the
 * first step); p -= lr * buf. Without momentum, p -= lr * g. */
HOT static void cpu_sgd_step(float *restrict p, const float *restrict g, float *restrict buf, size_t n,
                             const struct eng_sgd_args *a)
{
    const float lr = a->lr, mu = a->momentum, wd = a->weight_decay;
    if (mu == 0.0f || !buf) {
        for (size_t i = 0; i < n; i++) p[i] -= lr * (g[i] + wd * p[i]);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        float grad = g[i] + wd * p[i];
        float b = a->first_step ? grad : mu * buf[i] + grad;
        buf[i] = b;
        p[i] -= lr * b;
    }
}

static const struct eng_backend cpu_backend = {
    .name = "cpu",
    .host_memory = 1,
    .alloc = cpu_alloc,
    .release = cpu_release,
    .upload = cpu_copy,
    .download = cpu_copy,
    .set_threads = cpu_set_threads,
    .synchronize = cpu_synchronize,
    .gemm = cpu_gemm,
    .bias_act_forward = cpu_bias_act_forward,
    .act_backward = cpu_act_backward,
    .bias_backward = cpu_bias_backward,
    .loss = cpu_loss,
    .adam_step = cpu_adam_step,
    .sgd_step = cpu_sgd_step,
    .gpt = &eng_cpu_gpt_ops,
};

const struct eng_backend *eng_cpu_backend(void) { return &cpu_backend; }

int eng_backend_ready(const struct eng_backend *be, char *err, size_t errsz)
{
    return be == &cpu_backend ? eng_blas_open(err, errsz) : 0;
}
