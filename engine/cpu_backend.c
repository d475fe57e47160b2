/* The CPU back-end: cblas_sgemm from OpenBLAS, fused elementwise kernels in plain C.
 *
 * Threads: OpenBLAS runs its own pool for GEMM; the elementwise kernels here run on the calling
 * thread, between GEMMs, so the two never compete for cores (llm.c's CPU path makes the same
 * choice with OpenMP). They are a few percent of a step. */
#include "engine/backend.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* OpenBLAS extension, declared by its cblas.h; repeated here for builds against other headers. */
void openblas_set_num_threads(int num_threads);

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
static void cpu_set_threads(int threads) { openblas_set_num_threads(threads > 0 ? threads : 1); }
static void cpu_synchronize(void) {}

static void cpu_gemm(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda,
                     const float *b, int ldb, float beta, float *c, int ldc)
{
    cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, m, n, k,
                alpha, a, lda, b, ldb, beta, c, ldc);
}

/* GELU, exact (erf) form: PyTorch's default nn.GELU(). */
static inline float gelu(float x) { return 0.5f * x * (1.0f + erff(x * (float)M_SQRT1_2)); }

static inline float gelu_grad(float x)
{
    float cdf = 0.5f * (1.0f + erff(x * (float)M_SQRT1_2));
    float pdf = expf(-0.5f * x * x) * (float)(0.5 * M_2_SQRTPI * M_SQRT1_2); /* 1/sqrt(2 pi) */
    return cdf + x * pdf;
}

static void cpu_bias_act_forward(float *out, float *pre, const float *bias, int rows, int cols, enum eng_act act)
{
    for (int r = 0; r < rows; r++) {
        float *p = pre + (size_t)r * cols, *o = out + (size_t)r * cols;
        switch (act) {
        case ENG_ACT_NONE:
            for (int c = 0; c < cols; c++) o[c] = p[c] += bias[c];
            break;
        case ENG_ACT_RELU:
            for (int c = 0; c < cols; c++) {
                float z = p[c] += bias[c];
                o[c] = z > 0.0f ? z : 0.0f;
            }
            break;
        case ENG_ACT_GELU:
            for (int c = 0; c < cols; c++) o[c] = gelu(p[c] += bias[c]);
            break;
        case ENG_ACT_TANH:
            for (int c = 0; c < cols; c++) o[c] = tanhf(p[c] += bias[c]);
            break;
        }
    }
}

static void cpu_act_backward(float *dpre, const float *dout, const float *pre, size_t n, enum eng_act act)
{
    switch (act) {
    case ENG_ACT_NONE:
        if (dpre != dout) memcpy(dpre, dout, n * sizeof *dpre);
        break;
    case ENG_ACT_RELU:
        for (size_t i = 0; i < n; i++) dpre[i] = pre[i] > 0.0f ? dout[i] : 0.0f;
        break;
    case ENG_ACT_GELU:
        for (size_t i = 0; i < n; i++) dpre[i] = dout[i] * gelu_grad(pre[i]);
        break;
    case ENG_ACT_TANH:
        for (size_t i = 0; i < n; i++) {
            float t = tanhf(pre[i]);
            dpre[i] = dout[i] * (1.0f - t * t);
        }
        break;
    }
}

static void cpu_bias_backward(float *dbias, const float *d, int rows, int cols)
{
    memset(dbias, 0, (size_t)cols * sizeof *dbias);
    for (int r = 0; r < rows; r++) {
        const float *row = d + (size_t)r * cols;
        for (int c = 0; c < cols; c++) dbias[c] += row[c];
    }
}

static float cpu_loss(float *dlogits, const float *logits, const void *targets, int rows, int cols, enum eng_loss loss)
{
    double total = 0;
    if (loss == ENG_LOSS_CE) {
        const int32_t *labels = targets;
        float inv_rows = 1.0f / (float)rows;
        for (int r = 0; r < rows; r++) {
            const float *z = logits + (size_t)r * cols;
            float *dz = dlogits + (size_t)r * cols;
            float max = z[0];
            for (int c = 1; c < cols; c++) max = z[c] > max ? z[c] : max;
            float sum = 0.0f;
            for (int c = 0; c < cols; c++) sum += dz[c] = expf(z[c] - max);
            float log_sum = logf(sum);
            int y = labels[r];
            total += (double)(log_sum - (z[y] - max));
            float inv_sum = 1.0f / sum;
            for (int c = 0; c < cols; c++) dz[c] = dz[c] * inv_sum * inv_rows;
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
static void cpu_adam_step(float *p, const float *g, float *m, float *v, size_t n, const struct eng_adam_args *a)
{
    const float b1 = a->beta1, b2 = a->beta2, one_b1 = 1.0f - a->beta1, one_b2 = 1.0f - a->beta2;
    const float step_size = (float)(a->lr / a->bias_correction1);
    const float bc2_sqrt = (float)sqrt(a->bias_correction2);
    const float eps = a->eps, wd = a->weight_decay;
    const float decay = 1.0f - a->lr * a->weight_decay;
    for (size_t i = 0; i < n; i++) {
        float grad = g[i];
        float w = p[i];
        if (a->decoupled) w *= decay;
        else grad += wd * w;
        float mi = b1 * m[i] + one_b1 * grad;
        float vi = b2 * v[i] + one_b2 * grad * grad;
        m[i] = mi;
        v[i] = vi;
        p[i] = w - step_size * (mi / (sqrtf(vi) / bc2_sqrt + eps));
    }
}

/* torch.optim.SGD (dampening 0, no Nesterov): g += wd p; buf = momentum buf + g (buf = g at the
 * first step); p -= lr * buf. Without momentum, p -= lr * g. */
static void cpu_sgd_step(float *p, const float *g, float *buf, size_t n, const struct eng_sgd_args *a)
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
};

const struct eng_backend *eng_cpu_backend(void) { return &cpu_backend; }
