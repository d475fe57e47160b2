/* The transformer's kernels on the CPU (gpt_ops.h): fused row and column loops on the worker
 * pool (pool.h), attention as small single-threaded OpenBLAS products per (sequence, head).
 *
 * OpenBLAS runs single-threaded inside the pool's tasks, so one pool of threads does all the work
 * and OpenBLAS's own never runs beside it (pool.h says why that matters).
 *
 * Rows are split into tasks of about TASK_FLOATS values; reductions over rows (bias and
 * LayerNorm weight gradients, the embedding's) are split by columns instead, so every sum is
 * taken in one fixed order by one thread: results do not depend on the thread count. The
 * products are split by their output rows, so each output is one thread's call whatever the
 * split; OpenBLAS's single-threaded kernels sum in an order that does not depend on the number of
 * rows they are given. */
#include "engine/blas.h"
#include "engine/cpu_math.h"
#include "engine/gpt_ops.h"
#include "engine/pool.h"

#include <math.h>
#include <stdint.h>
#include <string.h>


#define TASK_FLOATS 16384 /* values per row task: enough to outweigh handing it out */
#define COL_CHUNK 32      /* columns per column task: two cache lines of each row */

/* --- splitting work ------------------------------------------------------------------------ */

struct rows_job {
    void (*fn)(const void *args, int r0, int r1);
    const void *args;
    int rows, per;
};

static void rows_task(void *p, int task, int worker)
{
    (void)worker;
    const struct rows_job *j = p;
    int r0 = task * j->per, r1 = r0 + j->per < j->rows ? r0 + j->per : j->rows;
    j->fn(j->args, r0, r1);
}

/* fn over rows [0, rows) of `cols` values each, in tasks. */
static void for_rows(int rows, size_t cols, void (*fn)(const void *args, int r0, int r1), const void *args)
{
    size_t per = TASK_FLOATS / (cols ? cols : 1);
    if (per < 1) per = 1;
    struct rows_job j = {fn, args, rows, (int)(per < (size_t)rows ? per : (size_t)rows)};
    if (j.per < 1) return;
    eng_pool_run((rows + j.per - 1) / j.per, 0, rows_task, &j);
}

/* Columns [c0, c1) of a reduction over all rows. */
struct cols_job {
    void (*fn)(const void *args, int c0, int c1);
    const void *args;
    int cols;
};

static void cols_task(void *p, int task, int worker)
{
    (void)worker;
    const struct cols_job *j = p;
    int c0 = task * COL_CHUNK, c1 = c0 + COL_CHUNK < j->cols ? c0 + COL_CHUNK : j->cols;
    j->fn(j->args, c0, c1);
}

static void for_cols(int cols, void (*fn)(const void *args, int c0, int c1), const void *args)
{
    struct cols_job j = {fn, args, cols};
    eng_pool_run((cols + COL_CHUNK - 1) / COL_CHUNK, 0, cols_task, &j);
}

static void cpu_set_threads(int threads) { eng_pool_set_threads(threads); }

/* --- embeddings ---------------------------------------------------------------------------- */

struct enc_args {
    float *out, *dwte, *dwpe;
    const float *wte, *wpe, *dout;
    const int32_t *tokens;
    int B, T, C;
};

HOT static void add_rows(float *restrict out, const float *restrict a, const float *restrict b, int n)
{
    for (int i = 0; i < n; i++) out[i] = a[i] + b[i];
}

static void encoder_rows(const void *p, int r0, int r1)
{
    const struct enc_args *a = p;
    for (int r = r0; r < r1; r++)
        add_rows(a->out + (size_t)r * a->C, a->wte + (size_t)a->tokens[r] * a->C, a->wpe + (size_t)(r % a->T) * a->C,
                 a->C);
}

static void cpu_encoder_forward(float *out, const int32_t *tokens, const float *wte, const float *wpe, int B, int T,
                                int C)
{
    struct enc_args a = {.out = out, .wte = wte, .wpe = wpe, .tokens = tokens, .B = B, .T = T, .C = C};
    for_rows(B * T, (size_t)C, encoder_rows, &a);
}

/* Columns c0..c1 of every row: the rows of one token are summed in row order. */
static void encoder_back_cols(const void *p, int c0, int c1)
{
    const struct enc_args *a = p;
    size_t C = (size_t)a->C;
    for (int t = 0; t < a->T; t++) {
        float *dp = a->dwpe + t * C;
        for (int c = c0; c < c1; c++) dp[c] = 0.0f;
        for (int b = 0; b < a->B; b++) {
            const float *d = a->dout + ((size_t)b * a->T + t) * C;
            float *dw = a->dwte + (size_t)a->tokens[b * a->T + t] * C;
            for (int c = c0; c < c1; c++) {
                dw[c] += d[c];
                dp[c] += d[c];
            }
        }
    }
}

static void cpu_encoder_backward(float *dwte, float *dwpe, const float *dout, const int32_t *tokens, int B, int T, int C,
                                 float *scratch)
{
    (void)scratch;
    struct enc_args a = {.dwte = dwte, .dwpe = dwpe, .dout = dout, .tokens = tokens, .B = B, .T = T, .C = C};
    for_cols(C, encoder_back_cols, &a);
}

/* --- LayerNorm ----------------------------------------------------------------------------- */

struct ln_args {
    float *out, *mean, *rstd, *residual, *din, *dw, *db;
    const float *in, *w, *b, *skip, *bias, *dout;
    int N, C, accumulate;
};

/* Mean and 1/sqrt(variance + eps) of a row, the variance biased and taken about the mean in a
 * second pass (as exact as the row allows). */
HOT static void row_stats(const float *restrict x, int C, float *mean, float *rstd)
{
    float s = 0.0f;
    for (int c = 0; c < C; c++) s += x[c];
    float m = s / (float)C, v = 0.0f;
    for (int c = 0; c < C; c++) {
        float d = x[c] - m;
        v += d * d;
    }
    *mean = m;
    *rstd = 1.0f / sqrtf(v / (float)C + 1e-5f);
}

HOT static void normalize_row(float *restrict out, const float *restrict x, const float *restrict w,
                              const float *restrict b, float m, float rs, int C)
{
    for (int c = 0; c < C; c++) out[c] = (x[c] - m) * rs * w[c] + b[c];
}

static void ln_rows(const void *p, int r0, int r1)
{
    const struct ln_args *a = p;
    for (int r = r0; r < r1; r++) {
        const float *x = a->in + (size_t)r * a->C;
        row_stats(x, a->C, &a->mean[r], &a->rstd[r]);
        normalize_row(a->out + (size_t)r * a->C, x, a->w, a->b, a->mean[r], a->rstd[r], a->C);
    }
}

static void cpu_layernorm_forward(float *out, float *mean, float *rstd, const float *in, const float *w, const float *b,
                                  int N, int C)
{
    struct ln_args a = {.out = out, .mean = mean, .rstd = rstd, .in = in, .w = w, .b = b, .N = N, .C = C};
    for_rows(N, (size_t)C, ln_rows, &a);
}

HOT static void add_bias_skip(float *restrict x, const float *restrict bias, const float *restrict skip, int C)
{
    for (int c = 0; c < C; c++) x[c] = (x[c] + bias[c]) + skip[c];
}

static void res_ln_rows(const void *p, int r0, int r1)
{
    const struct ln_args *a = p;
    for (int r = r0; r < r1; r++) {
        float *x = a->residual + (size_t)r * a->C;
        add_bias_skip(x, a->bias, a->skip + (size_t)r * a->C, a->C);
        row_stats(x, a->C, &a->mean[r], &a->rstd[r]);
        normalize_row(a->out + (size_t)r * a->C, x, a->w, a->b, a->mean[r], a->rstd[r], a->C);
    }
}

static void cpu_residual_layernorm_forward(float *residual, float *out, float *mean, float *rstd, const float *skip,
                                           const float *bias, const float *w, const float *b, int N, int C)
{
    struct ln_args a = {.residual = residual, .out = out, .mean = mean, .rstd = rstd, .skip = skip, .bias = bias,
                        .w = w, .b = b, .N = N, .C = C};
    for_rows(N, (size_t)C, res_ln_rows, &a);
}

/* din = (w dout - mean(w dout) - xhat mean(w dout xhat)) rstd, xhat = (x - mean) rstd. */
HOT static void ln_back_row(float *restrict din, const float *restrict dout, const float *restrict x,
                            const float *restrict w, float m, float rs, int C, int accumulate)
{
    float sum_d = 0.0f, sum_dx = 0.0f;
    for (int c = 0; c < C; c++) {
        float d = w[c] * dout[c];
        sum_d += d;
        sum_dx += d * (x[c] - m) * rs;
    }
    float mean_d = sum_d / (float)C, mean_dx = sum_dx / (float)C;
    for (int c = 0; c < C; c++) {
        float g = (w[c] * dout[c] - mean_d - (x[c] - m) * rs * mean_dx) * rs;
        din[c] = accumulate ? din[c] + g : g;
    }
}

static void ln_back_rows(const void *p, int r0, int r1)
{
    const struct ln_args *a = p;
    for (int r = r0; r < r1; r++) {
        size_t o = (size_t)r * a->C;
        ln_back_row(a->din + o, a->dout + o, a->in + o, a->w, a->mean[r], a->rstd[r], a->C, a->accumulate);
    }
}

static void ln_back_cols(const void *p, int c0, int c1)
{
    const struct ln_args *a = p;
    float dw[COL_CHUNK] = {0}, db[COL_CHUNK] = {0};
    int n = c1 - c0;
    for (int r = 0; r < a->N; r++) {
        const float *d = a->dout + (size_t)r * a->C + c0, *x = a->in + (size_t)r * a->C + c0;
        float m = a->mean[r], rs = a->rstd[r];
        for (int c = 0; c < n; c++) {
            dw[c] += d[c] * ((x[c] - m) * rs);
            db[c] += d[c];
        }
    }
    memcpy(a->dw + c0, dw, (size_t)n * sizeof(float));
    memcpy(a->db + c0, db, (size_t)n * sizeof(float));
}

static void cpu_layernorm_backward(float *din, float *dw, float *db, const float *dout, const float *in, const float *w,
                                   const float *mean, const float *rstd, int N, int C, int accumulate, float *scratch)
{
    (void)scratch;
    struct ln_args a = {.din = din, .dw = dw, .db = db, .dout = dout, .in = in, .w = w, .mean = (float *)mean,
                        .rstd = (float *)rstd, .N = N, .C = C, .accumulate = accumulate};
    for_rows(N, (size_t)C, ln_back_rows, &a);
    for_cols(C, ln_back_cols, &a);
}

/* --- linear layers ------------------------------------------------------------------------ */

/* Each product is split between the pool's threads and run by single-threaded OpenBLAS calls:
 * the forward and dX by rows (tokens), dW by its output rows; dW and dX of a layer are one batch
 * of tasks, so they run side by side. At these sizes one thread per product runs near the
 * core's peak, and splitting the work ourselves scales better than OpenBLAS's own threading. */
struct mm_args {
    float *out, *din, *dw, *dbias;
    const float *in, *w, *bias, *dout;
    int N, IC, OC;
    int row_tasks, row_per, dw_tasks, dw_per;
};

static void with_blas_single(void (*fn)(void *, int, int), void *args, int tasks)
{
    int keep = eng_blas_threads();
    if (keep != 1) eng_blas_set_threads(1);
    eng_pool_run(tasks, 0, fn, args);
    if (keep != 1) eng_blas_set_threads(keep);
}

/* Rows (and dW's output rows) per task. Fixed, not derived from the thread count: OpenBLAS's
 * kernel for a row depends on where the row falls in its call, so the same split on any number of
 * threads gives the same bits. 128 rows keep a single-threaded product within a few percent of
 * its rate on the whole matrix. */
#define MM_SPAN 256

HOT static void add_bias(float *restrict x, const float *restrict bias, int C)
{
    for (int c = 0; c < C; c++) x[c] += bias[c];
}

static void mm_forward_task(void *p, int task, int worker)
{
    (void)worker;
    const struct mm_args *a = p;
    int r0 = task * a->row_per, r1 = r0 + a->row_per < a->N ? r0 + a->row_per : a->N;
    float *out = a->out + (size_t)r0 * a->OC;
    eng_blas_sgemm(0, 1, r1 - r0, a->OC, a->IC, 1.0f, a->in + (size_t)r0 * a->IC, a->IC,
                a->w, a->IC, 0.0f, out, a->OC);
    if (a->bias)
        for (int r = r0; r < r1; r++, out += a->OC) add_bias(out, a->bias, a->OC);
}

static void plan_rows(struct mm_args *a)
{
    a->row_per = MM_SPAN;
    a->row_tasks = (a->N + MM_SPAN - 1) / MM_SPAN;
}

static void cpu_matmul_forward(float *out, const float *in, const float *w, const float *bias, int N, int IC, int OC)
{
    struct mm_args a = {.out = out, .in = in, .w = w, .bias = bias, .N = N, .IC = IC, .OC = OC};
    plan_rows(&a);
    with_blas_single(mm_forward_task, &a, a.row_tasks);
}

HOT static void col_sums(float *restrict sums, const float *restrict d, int rows, int ld, int n)
{
    for (int c = 0; c < n; c++) sums[c] = 0.0f;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < n; c++) sums[c] += d[(size_t)r * ld + c];
}

static void mm_backward_task(void *p, int task, int worker)
{
    (void)worker;
    const struct mm_args *a = p;
    if (task < a->dw_tasks) { /* dW rows o0..o1 = dout[:, o0..o1]^T in, and their bias sums */
        int o0 = task * a->dw_per, o1 = o0 + a->dw_per < a->OC ? o0 + a->dw_per : a->OC;
        eng_blas_sgemm(1, 0, o1 - o0, a->IC, a->N, 1.0f, a->dout + o0, a->OC, a->in,
                    a->IC, 0.0f, a->dw + (size_t)o0 * a->IC, a->IC);
        if (a->dbias) col_sums(a->dbias + o0, a->dout + o0, a->N, a->OC, o1 - o0);
        return;
    }
    int r0 = (task - a->dw_tasks) * a->row_per, r1 = r0 + a->row_per < a->N ? r0 + a->row_per : a->N;
    eng_blas_sgemm(0, 0, r1 - r0, a->IC, a->OC, 1.0f, a->dout + (size_t)r0 * a->OC,
                a->OC, a->w, a->IC, 0.0f, a->din + (size_t)r0 * a->IC, a->IC);
}

static void cpu_matmul_backward(float *din, float *dw, float *dbias, const float *dout, const float *in, const float *w,
                                int N, int IC, int OC, float *scratch)
{
    (void)scratch;
    struct mm_args a = {.din = din, .dw = dw, .dbias = dbias, .dout = dout, .in = in, .w = w, .N = N, .IC = IC,
                        .OC = OC};
    plan_rows(&a);
    if (!din) a.row_tasks = 0;
    a.dw_per = MM_SPAN;
    a.dw_tasks = (OC + MM_SPAN - 1) / MM_SPAN;
    with_blas_single(mm_backward_task, &a, a.dw_tasks + a.row_tasks);
}

/* --- GELU ---------------------------------------------------------------------------------- */

struct ew_args {
    float *out, *x;
    const float *bias, *in;
    int N, C;
};

/* GELU, tanh form: 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3). Written as
 * x * sigmoid(2u), the same function, so that only e^-|2u| is needed: no cancellation, and the
 * exponential stays the vectorised one. */
#define GELU_K 0.7978845608028654f /* sqrt(2/pi) */
#define GELU_A 0.044715f

static inline float sigmoid_of(float z)
{
    float e = exp_nonpositive(z >= 0.0f ? -z : z);
    return z >= 0.0f ? 1.0f / (1.0f + e) : e / (1.0f + e);
}

HOT static void bias_gelu_row(float *restrict out, float *restrict pre, const float *restrict bias, int C)
{
    for (int c = 0; c < C; c++) {
        float x = pre[c] + bias[c];
        pre[c] = x;
        float u = GELU_K * (x + GELU_A * x * x * x);
        out[c] = x * sigmoid_of(2.0f * u);
    }
}

static void bias_gelu_rows(const void *p, int r0, int r1)
{
    const struct ew_args *a = p;
    for (int r = r0; r < r1; r++) bias_gelu_row(a->out + (size_t)r * a->C, a->x + (size_t)r * a->C, a->bias, a->C);
}

static void cpu_bias_gelu_forward(float *out, float *pre, const float *bias, int N, int C)
{
    struct ew_args a = {.out = out, .x = pre, .bias = bias, .N = N, .C = C};
    for_rows(N, (size_t)C, bias_gelu_rows, &a);
}

/* d/dx [x s(2u)] = s + x s (1 - s) 2 u',  u' = sqrt(2/pi) (1 + 3 * 0.044715 x^2). */
HOT static void gelu_back_span(float *restrict d, const float *restrict pre, int n)
{
    for (int i = 0; i < n; i++) {
        float x = pre[i];
        float u = GELU_K * (x + GELU_A * x * x * x);
        float s = sigmoid_of(2.0f * u);
        float du = GELU_K * (1.0f + 3.0f * GELU_A * x * x);
        d[i] *= s + x * s * (1.0f - s) * 2.0f * du;
    }
}

static void gelu_back_rows(const void *p, int r0, int r1)
{
    const struct ew_args *a = p;
    size_t o = (size_t)r0 * a->C;
    gelu_back_span(a->x + o, a->in + o, (r1 - r0) * a->C);
}

static void cpu_gelu_backward(float *d, const float *pre, size_t n)
{
    /* As rows of 1024 values (n is N x 4C, a multiple of 4; a last short row is its own row). */
    int width = n % 1024 == 0 ? 1024 : n % 256 == 0 ? 256 : n % 4 == 0 ? 4 : 1;
    struct ew_args a = {.x = d, .in = pre, .N = (int)(n / (size_t)width), .C = width};
    for_rows(a.N, (size_t)width, gelu_back_rows, &a);
}

/* --- attention ----------------------------------------------------------------------------- */

#define ATT_BLOCK 64 /* query rows per product: row block r0..r1 needs only keys 0..r1 */

struct att_args {
    float *out, *state, *dqkv, *scratch;
    const float *qkv, *dout;
    int B, T, C, NH;
};

/* Softmax of row r's first n scores in place (the rest are masked: set to 0). */
HOT static void softmax_causal_row(float *restrict row, int n, int T)
{
    float max = row[0];
    for (int j = 1; j < n; j++) max = row[j] > max ? row[j] : max;
    for (int j = 0; j < n; j++) row[j] = row[j] - max;
    for (int j = 0; j < n; j++) row[j] = exp_nonpositive(row[j]);
    float sum = 0.0f;
    for (int j = 0; j < n; j++) sum += row[j];
    float inv = 1.0f / sum;
    for (int j = 0; j < n; j++) row[j] *= inv;
    for (int j = n; j < T; j++) row[j] = 0.0f;
}

static void attention_head(void *p, int task, int worker)
{
    (void)worker;
    const struct att_args *a = p;
    const int T = a->T, C = a->C, hs = C / a->NH, b = task / a->NH, h = task % a->NH, ld = 3 * C;
    const float scale = 1.0f / sqrtf((float)hs);
    const float *q = a->qkv + (size_t)b * T * ld + (size_t)h * hs, *k = q + C, *v = q + 2 * C;
    float *att = a->state + (size_t)task * T * T, *y = a->out + (size_t)b * T * C + (size_t)h * hs;
    for (int r0 = 0; r0 < T; r0 += ATT_BLOCK) {
        int r1 = r0 + ATT_BLOCK < T ? r0 + ATT_BLOCK : T;
        eng_blas_sgemm(0, 1, r1 - r0, r1, hs, scale, q + (size_t)r0 * ld, ld, k, ld,
                    0.0f, att + (size_t)r0 * T, T);
        for (int r = r0; r < r1; r++) softmax_causal_row(att + (size_t)r * T, r + 1, T);
        eng_blas_sgemm(0, 0, r1 - r0, hs, r1, 1.0f, att + (size_t)r0 * T, T, v, ld,
                    0.0f, y + (size_t)r0 * C, C);
    }
}

/* dS = P (dP - D) over row r's first n entries, D = sum_j P dP (softmax's Jacobian). */
HOT static void softmax_back_row(float *restrict p, const float *restrict dp, int n)
{
    float dot = 0.0f;
    for (int j = 0; j < n; j++) dot += p[j] * dp[j];
    for (int j = 0; j < n; j++) p[j] = p[j] * (dp[j] - dot);
}

static void attention_head_back(void *p, int task, int worker)
{
    (void)worker;
    const struct att_args *a = p;
    const int T = a->T, C = a->C, hs = C / a->NH, b = task / a->NH, h = task % a->NH, ld = 3 * C;
    const float scale = 1.0f / sqrtf((float)hs);
    const size_t at = (size_t)b * T * ld + (size_t)h * hs;
    const float *q = a->qkv + at, *k = q + C, *v = q + 2 * C, *dy = a->dout + (size_t)b * T * C + (size_t)h * hs;
    float *dq = a->dqkv + at, *dk = dq + C, *dv = dq + 2 * C;
    float *att = a->state + (size_t)task * T * T, *dp = a->scratch + (size_t)task * T * T;
    /* Key blocks c0..c1 take queries c0..T (the later rows); query blocks r0..r1 keys 0..r1. */
    for (int c0 = 0; c0 < T; c0 += ATT_BLOCK) { /* dV = P^T dy */
        int c1 = c0 + ATT_BLOCK < T ? c0 + ATT_BLOCK : T;
        eng_blas_sgemm(1, 0, c1 - c0, hs, T - c0, 1.0f, att + (size_t)c0 * T + c0, T,
                    dy + (size_t)c0 * C, C, 0.0f, dv + (size_t)c0 * ld, ld);
    }
    for (int r0 = 0; r0 < T; r0 += ATT_BLOCK) { /* dP = dy V^T, then dS in place of P */
        int r1 = r0 + ATT_BLOCK < T ? r0 + ATT_BLOCK : T;
        eng_blas_sgemm(0, 1, r1 - r0, r1, hs, 1.0f, dy + (size_t)r0 * C, C, v, ld, 0.0f,
                    dp + (size_t)r0 * T, T);
        for (int r = r0; r < r1; r++) softmax_back_row(att + (size_t)r * T, dp + (size_t)r * T, r + 1);
    }
    for (int r0 = 0; r0 < T; r0 += ATT_BLOCK) { /* dQ = scale dS K */
        int r1 = r0 + ATT_BLOCK < T ? r0 + ATT_BLOCK : T;
        eng_blas_sgemm(0, 0, r1 - r0, hs, r1, scale, att + (size_t)r0 * T, T, k, ld,
                    0.0f, dq + (size_t)r0 * ld, ld);
    }
    for (int c0 = 0; c0 < T; c0 += ATT_BLOCK) { /* dK = scale dS^T Q */
        int c1 = c0 + ATT_BLOCK < T ? c0 + ATT_BLOCK : T;
        eng_blas_sgemm(1, 0, c1 - c0, hs, T - c0, scale, att + (size_t)c0 * T + c0, T,
                    q + (size_t)c0 * ld, ld, 0.0f, dk + (size_t)c0 * ld, ld);
    }
}

/* The heads run in parallel on the pool, each product single-threaded. */
static void run_heads(void (*fn)(void *, int, int), struct att_args *a) { with_blas_single(fn, a, a->B * a->NH); }

static void cpu_attention_forward(float *out, float *state, const float *qkv, float *scratch, int B, int T, int C, int NH)
{
    struct att_args a = {.out = out, .state = state, .scratch = scratch, .qkv = qkv, .B = B, .T = T, .C = C, .NH = NH};
    run_heads(attention_head, &a);
}

static void cpu_attention_backward(float *dqkv, const float *dout, const float *qkv, const float *out, float *state,
                                   float *scratch, int B, int T, int C, int NH)
{
    (void)out;
    struct att_args a = {.state = state, .dqkv = dqkv, .scratch = scratch, .qkv = qkv, .dout = dout, .B = B, .T = T,
                         .C = C, .NH = NH};
    run_heads(attention_head_back, &a);
}

static size_t cpu_attention_state_floats(int B, int T, int NH) { return (size_t)B * NH * T * T; }

/* Attention's dP (one layer's worth) or the cross-entropy's row losses. */
static size_t cpu_scratch_floats(int B, int T, int C, int NH, int V)
{
    (void)C, (void)V;
    size_t att = (size_t)B * NH * T * T, rows = (size_t)B * T;
    return att > rows ? att : rows;
}

/* --- cross-entropy ------------------------------------------------------------------------- */

struct ce_args {
    float *dlogits, *row_loss;
    const float *logits;
    const int32_t *targets;
    int N, V;
};

HOT static float ce_row(float *restrict dz, const float *z, int V, int y, float inv_n)
{
    float max = z[0];
    for (int c = 1; c < V; c++) max = z[c] > max ? z[c] : max;
    float zy = z[y]; /* dz may be z: read before writing */
    for (int c = 0; c < V; c++) dz[c] = exp_nonpositive(z[c] - max);
    float sum = 0.0f;
    for (int c = 0; c < V; c++) sum += dz[c];
    float scale = inv_n / sum;
    for (int c = 0; c < V; c++) dz[c] *= scale;
    dz[y] -= inv_n;
    return logf(sum) - (zy - max);
}

static void ce_rows(const void *p, int r0, int r1)
{
    const struct ce_args *a = p;
    float inv_n = 1.0f / (float)a->N;
    for (int r = r0; r < r1; r++)
        a->row_loss[r] = ce_row(a->dlogits + (size_t)r * a->V, a->logits + (size_t)r * a->V, a->V, a->targets[r], inv_n);
}

static void cpu_crossentropy(float *loss, float *dlogits, const float *logits, const int32_t *targets, int N, int V,
                             float *scratch)
{
    struct ce_args a = {dlogits, scratch, logits, targets, N, V};
    for_rows(N, (size_t)V, ce_rows, &a);
    double total = 0;
    for (int r = 0; r < N; r++) total += scratch[r]; /* in row order: the same sum on any thread count */
    *loss = (float)(total / N);
}

/* --- gradient norm and optimizer ----------------------------------------------------------- */

#define OPT_TASKS 64

struct opt_args {
    float *p, *m, *v;
    const float *g;
    size_t n, per;
    double partial[OPT_TASKS];
    const struct eng_adam_args *adam;
    const struct eng_sgd_args *sgd;
    float scale;
};

static void span(const struct opt_args *a, int task, size_t *lo, size_t *hi)
{
    *lo = (size_t)task * a->per;
    *hi = *lo + a->per < a->n ? *lo + a->per : a->n;
}

HOT static double sum_squares(const float *restrict g, size_t n)
{
    /* Float lanes over short runs, added into a double: exact enough for any buffer size. */
    double total = 0;
    for (size_t i = 0; i < n; i += 4096) {
        size_t end = i + 4096 < n ? i + 4096 : n;
        float s = 0.0f;
        for (size_t k = i; k < end; k++) s += g[k] * g[k];
        total += s;
    }
    return total;
}

static void norm_task(void *p, int task, int worker)
{
    (void)worker;
    struct opt_args *a = p;
    size_t lo, hi;
    span(a, task, &lo, &hi);
    a->partial[task] = lo < hi ? sum_squares(a->g + lo, hi - lo) : 0;
}

static int opt_tasks(struct opt_args *a, size_t n)
{
    a->n = n;
    a->per = (n + OPT_TASKS - 1) / OPT_TASKS;
    a->per = (a->per + 15) & ~(size_t)15;
    if (a->per < 4096) a->per = 4096;
    return (int)((n + a->per - 1) / a->per);
}

static void cpu_global_norm(float *norm, const float *g, size_t n, float *scratch)
{
    (void)scratch;
    struct opt_args a = {.g = g};
    int tasks = opt_tasks(&a, n);
    eng_pool_run(tasks, 0, norm_task, &a);
    double total = 0;
    for (int t = 0; t < tasks; t++) total += a.partial[t]; /* in task order: independent of threads */
    *norm = (float)sqrt(total);
}

/* clip_grad_norm_'s factor: clip / (norm + 1e-6), applied only when below 1. */
static float clip_scale(const float *norm, float clip)
{
    if (!(clip > 0)) return 1.0f;
    float coef = clip / (*norm + 1e-6f);
    return coef < 1.0f ? coef : 1.0f;
}

/* The optimizer runs the CPU back-end's own loops (cpu_backend.c) on slices; a slice of scaled
 * gradients is made on the stack when clipping applies. */
static void opt_task(void *p, int task, int worker)
{
    (void)worker;
    const struct opt_args *a = p;
    const struct eng_backend *be = eng_cpu_backend();
    size_t lo, hi;
    span(a, task, &lo, &hi);
    float scaled[1024];
    for (size_t i = lo; i < hi; i += 1024) {
        size_t len = i + 1024 < hi ? 1024 : hi - i;
        const float *g = a->g + i;
        if (a->scale != 1.0f) {
            for (size_t k = 0; k < len; k++) scaled[k] = g[k] * a->scale;
            g = scaled;
        }
        if (a->adam) be->adam_step(a->p + i, g, a->m + i, a->v + i, len, a->adam);
        else be->sgd_step(a->p + i, g, a->m ? a->m + i : NULL, len, a->sgd);
    }
}

static void cpu_adam_step(float *p, const float *g, float *m, float *v, size_t n, const struct eng_adam_args *args,
                          const float *norm, float clip)
{
    struct opt_args a = {.p = p, .m = m, .v = v, .g = g, .adam = args, .scale = clip_scale(norm, clip)};
    eng_pool_run(opt_tasks(&a, n), 0, opt_task, &a);
}

static void cpu_sgd_step(float *p, const float *g, float *buf, size_t n, const struct eng_sgd_args *args,
                         const float *norm, float clip)
{
    struct opt_args a = {.p = p, .m = buf, .g = g, .sgd = args, .scale = clip_scale(norm, clip)};
    eng_pool_run(opt_tasks(&a, n), 0, opt_task, &a);
}

const struct eng_gpt_ops eng_cpu_gpt_ops = {
    .set_threads = cpu_set_threads,
    .attention_state_floats = cpu_attention_state_floats,
    .scratch_floats = cpu_scratch_floats,
    .encoder_forward = cpu_encoder_forward,
    .encoder_backward = cpu_encoder_backward,
    .layernorm_forward = cpu_layernorm_forward,
    .residual_layernorm_forward = cpu_residual_layernorm_forward,
    .layernorm_backward = cpu_layernorm_backward,
    .matmul_forward = cpu_matmul_forward,
    .matmul_backward = cpu_matmul_backward,
    .bias_gelu_forward = cpu_bias_gelu_forward,
    .gelu_backward = cpu_gelu_backward,
    .attention_forward = cpu_attention_forward,
    .attention_backward = cpu_attention_backward,
    .crossentropy = cpu_crossentropy,
    .global_norm = cpu_global_norm,
    .adam_step = cpu_adam_step,
    .sgd_step = cpu_sgd_step,
};
