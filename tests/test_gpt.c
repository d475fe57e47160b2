/* The GPT decoder: every backward kernel against finite differences, the whole model's
 * gradients, the optimizer's groups and clipping, initialisation, token batches, weights files. */
#include <criterion/criterion.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/gpt.h"
#include "engine/gpt_ops.h"
#include "engine/pool.h"
#include "tests/support.h"

static char err[512];

static const struct eng_gpt_ops *ops(void) { return eng_cpu_backend()->gpt; }

static void fill(float *x, size_t n, float scale, uint64_t seed)
{
    struct eng_rng r;
    eng_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) x[i] = scale * (2.0f * eng_rng_uniform(&r) - 1.0f);
}

static double dot(const float *a, const float *b, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += (double)a[i] * b[i];
    return s;
}

/* Central differences with h = 1e-2 on kernels whose scalar loss sum(out * R) is a few units:
 * fp32 rounding of the loss (~1e-6) over 2h gives ~5e-5 of noise, the O(h^2) truncation of these
 * smooth functions ~1e-4; tolerance 5e-4 absolute plus 1% relative. */
#define FD_H 1e-2f
#define FD_OK(fd, an) (fabs((fd) - (an)) <= 5e-4 + 1e-2 * fabs(an))

/* --- the worker pool ------------------------------------------------------------------------ */

/* The thread count is clamped to 1 .. ENG_POOL_MAX_THREADS (256), both ends and one past each. */
Test(gpt_pool, threads_are_clamped_to_one_and_the_maximum)
{
    static const struct { int set, want; } cases[] = {
        {-3, 1}, {0, 1}, {1, 1}, {2, 2}, {255, 255}, {256, 256}, {257, 256}, {100000, 256},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        eng_pool_set_threads(cases[i].set);
        cr_expect_eq(eng_pool_threads(), cases[i].want, "%d threads asked", cases[i].set);
    }
    eng_pool_set_threads(2);
}

struct pool_tally {
    int ntasks;
    _Atomic int hits[64], outside, top_worker;
};

static void tally_task(void *ctx, int task, int worker)
{
    struct pool_tally *t = ctx;
    if (task >= 0 && task < t->ntasks) t->hits[task]++;
    else t->outside++;
    for (int seen = t->top_worker; worker > seen && !atomic_compare_exchange_weak(&t->top_worker, &seen, worker);) {}
}

/* Every task in [0, ntasks) exactly once and no other, on a worker below the threads asked for
 * (4) and below max_workers when it is given (2); fewer tasks than threads too. */
Test(gpt_pool, each_task_runs_once_on_a_worker_in_range, .timeout = 30)
{
    static const struct { int ntasks, max_workers, workers; } cases[] = {
        {1, 0, 4}, {3, 0, 4}, {64, 0, 4}, {64, 2, 2}, {10, 1, 1},
    };
    eng_pool_set_threads(4);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int round = 0; round < 20; round++) {
            struct pool_tally t = {.ntasks = cases[i].ntasks};
            eng_pool_run(cases[i].ntasks, cases[i].max_workers, tally_task, &t);
            for (int k = 0; k < cases[i].ntasks; k++) cr_expect_eq(t.hits[k], 1, "%d tasks: task %d", cases[i].ntasks, k);
            cr_expect_eq(t.outside, 0, "%d tasks: a task outside the range ran", cases[i].ntasks);
            cr_expect_lt(t.top_worker, cases[i].workers, "%d tasks, at most %d workers", cases[i].ntasks,
                         cases[i].max_workers);
        }
    eng_pool_set_threads(2);
}

/* --- LayerNorm ---------------------------------------------------------------------------- */

enum { LN_N = 3, LN_C = 7 };

static double ln_loss(const float *in, const float *w, const float *b, const float *r)
{
    float out[LN_N * LN_C], mean[LN_N], rstd[LN_N];
    ops()->layernorm_forward(out, mean, rstd, in, w, b, LN_N, LN_C);
    return dot(out, r, LN_N * LN_C);
}

Test(gpt_kernels, layernorm_backward_matches_finite_differences)
{
    float in[LN_N * LN_C], w[LN_C], b[LN_C], r[LN_N * LN_C], out[LN_N * LN_C], mean[LN_N], rstd[LN_N];
    fill(in, LN_N * LN_C, 2.0f, 1);
    fill(w, LN_C, 1.0f, 2);
    fill(b, LN_C, 1.0f, 3);
    fill(r, LN_N * LN_C, 1.0f, 4);
    ops()->layernorm_forward(out, mean, rstd, in, w, b, LN_N, LN_C);
    /* Forward by hand for row 0: out = (x - mean) / sqrt(var + 1e-5) * w + b. */
    double m = 0, v = 0;
    for (int c = 0; c < LN_C; c++) m += in[c] / (double)LN_C;
    for (int c = 0; c < LN_C; c++) v += (in[c] - m) * (in[c] - m) / LN_C;
    cr_expect(fabs(out[2] - ((in[2] - m) / sqrt(v + 1e-5) * w[2] + b[2])) < 1e-5);
    float din[LN_N * LN_C], dw[LN_C], db[LN_C];
    for (int i = 0; i < LN_N * LN_C; i++) din[i] = 1.0f; /* accumulate: din = 1 + gradient */
    ops()->layernorm_backward(din, dw, db, r, in, w, mean, rstd, LN_N, LN_C, 1, NULL);
    float *params[3] = {in, w, b}, *grads[3] = {din, dw, db};
    int sizes[3] = {LN_N * LN_C, LN_C, LN_C};
    for (int p = 0; p < 3; p++)
        for (int i = 0; i < sizes[p]; i++) {
            float keep = params[p][i];
            params[p][i] = keep + FD_H;
            double up = ln_loss(in, w, b, r);
            params[p][i] = keep - FD_H;
            double down = ln_loss(in, w, b, r);
            params[p][i] = keep;
            double fd = (up - down) / (2 * FD_H), an = grads[p][i] - (p == 0 ? 1.0 : 0.0);
            cr_expect(FD_OK(fd, an), "tensor %d [%d]: analytic %.6g, numeric %.6g", p, i, an, fd);
        }
    /* Without accumulate the gradient overwrites. */
    float din2[LN_N * LN_C];
    for (int i = 0; i < LN_N * LN_C; i++) din2[i] = 123.0f;
    ops()->layernorm_backward(din2, dw, db, r, in, w, mean, rstd, LN_N, LN_C, 0, NULL);
    for (int i = 0; i < LN_N * LN_C; i++) cr_expect_float_eq(din2[i], din[i] - 1.0f, 1e-6);
}

/* Rows of 7 values go 16384 / 7 = 2340 to a task: 2500 rows are a full task and a last one of
 * 160. Every row's mean is its own, by hand, the last task's too (the outputs start as NaN, so a
 * row no task wrote fails). */
enum { LN_ROWS = 2500 };

Test(gpt_kernels, layernorm_writes_the_rows_of_a_last_short_task)
{
    static float in[LN_ROWS * LN_C], out[LN_ROWS * LN_C], mean[LN_ROWS], rstd[LN_ROWS];
    float w[LN_C], b[LN_C];
    fill(in, LN_ROWS * LN_C, 2.0f, 11);
    for (int c = 0; c < LN_C; c++) w[c] = 1.0f, b[c] = 0.0f;
    for (int i = 0; i < LN_ROWS * LN_C; i++) out[i] = NAN;
    for (int r = 0; r < LN_ROWS; r++) mean[r] = rstd[r] = NAN;
    eng_pool_set_threads(2);
    ops()->layernorm_forward(out, mean, rstd, in, w, b, LN_ROWS, LN_C);
    for (int r = 0; r < LN_ROWS; r += r < 2330 ? 233 : 1) {
        double m = 0;
        for (int c = 0; c < LN_C; c++) m += in[r * LN_C + c] / (double)LN_C;
        cr_expect(fabs(mean[r] - m) < 1e-5, "row %d: mean %g, by hand %g", r, mean[r], m);
        cr_expect(fabs(out[r * LN_C + 3] - (in[r * LN_C + 3] - m) * rstd[r]) < 1e-4, "row %d: %g", r, out[r * LN_C + 3]);
    }
}

Test(gpt_kernels, residual_layernorm_adds_bias_and_skip_first)
{
    float res[LN_N * LN_C], skip[LN_N * LN_C], bias[LN_C], w[LN_C], b[LN_C];
    fill(res, LN_N * LN_C, 1.0f, 5);
    fill(skip, LN_N * LN_C, 1.0f, 6);
    fill(bias, LN_C, 1.0f, 7);
    fill(w, LN_C, 1.0f, 8);
    fill(b, LN_C, 1.0f, 9);
    float sum[LN_N * LN_C], want[LN_N * LN_C], out[LN_N * LN_C], m1[LN_N], r1[LN_N], m2[LN_N], r2[LN_N];
    for (int i = 0; i < LN_N * LN_C; i++) sum[i] = (res[i] + bias[i % LN_C]) + skip[i];
    ops()->layernorm_forward(want, m1, r1, sum, w, b, LN_N, LN_C);
    ops()->residual_layernorm_forward(res, out, m2, r2, skip, bias, w, b, LN_N, LN_C);
    for (int i = 0; i < LN_N * LN_C; i++) {
        cr_expect_eq(res[i], sum[i]);
        cr_expect_eq(out[i], want[i]);
    }
}

/* --- GELU and bias ------------------------------------------------------------------------ */

Test(gpt_kernels, gelu_tanh_values_and_gradient)
{
    /* GELU(1) = 0.5 (1 + tanh(sqrt(2/pi) * 1.044715)) = 0.841192 (tanh form; erf form: 0.841345);
     * GELU(-3) = -0.003637; GELU(0) = 0. */
    float pre[4] = {1.0f, -3.0f, 0.0f, 10.0f}, out[4], zero[4] = {0};
    ops()->bias_gelu_forward(out, pre, zero, 1, 4);
    cr_expect(fabsf(out[0] - 0.841192f) < 2e-6, "%.7f", out[0]);
    cr_expect(fabsf(out[1] - -0.0036374f) < 1e-6, "%.7f", out[1]);
    cr_expect_eq(out[2], 0.0f);
    cr_expect_float_eq(out[3], 10.0f, 1e-5);
    enum { N = 4, C = 9 };
    float x[N * C], bias[C], r[N * C], o[N * C], p[N * C];
    fill(x, N * C, 3.0f, 11);
    fill(bias, C, 0.5f, 12);
    fill(r, N * C, 1.0f, 13);
    float d[N * C];
    memcpy(p, x, sizeof x);
    ops()->bias_gelu_forward(o, p, bias, N, C); /* p: x + bias */
    memcpy(d, r, sizeof r);
    ops()->gelu_backward(d, p, N * C);
    for (int i = 0; i < N * C; i++) {
        float keep = x[i];
        double lo, hi;
        x[i] = keep + FD_H, memcpy(p, x, sizeof x), ops()->bias_gelu_forward(o, p, bias, N, C), hi = dot(o, r, N * C);
        x[i] = keep - FD_H, memcpy(p, x, sizeof x), ops()->bias_gelu_forward(o, p, bias, N, C), lo = dot(o, r, N * C);
        x[i] = keep;
        double fd = (hi - lo) / (2 * FD_H);
        cr_expect(FD_OK(fd, d[i]), "x[%d]: analytic %.6g, numeric %.6g", i, d[i], fd);
    }
}

/* --- linear layers ------------------------------------------------------------------------ */

enum { M_N = 70, M_IC = 5, M_OC = 40 }; /* more rows than one task, more outputs than one split */

static double mm_loss(const float *in, const float *w, const float *b, const float *r)
{
    static float out[M_N * M_OC];
    ops()->matmul_forward(out, in, w, b, M_N, M_IC, M_OC);
    return dot(out, r, M_N * M_OC);
}

Test(gpt_kernels, matmul_forward_and_backward)
{
    static float in[M_N * M_IC], w[M_OC * M_IC], b[M_OC], r[M_N * M_OC], out[M_N * M_OC], din[M_N * M_IC],
        dw[M_OC * M_IC], db[M_OC];
    fill(in, M_N * M_IC, 1.0f, 51);
    fill(w, M_OC * M_IC, 1.0f, 52);
    fill(b, M_OC, 1.0f, 53);
    fill(r, M_N * M_OC, 1.0f, 54);
    eng_pool_set_threads(2);
    ops()->matmul_forward(out, in, w, b, M_N, M_IC, M_OC);
    /* out[69][33] = b[33] + sum_k in[69][k] w[33][k] (nn.Linear) */
    double want = b[33];
    for (int k = 0; k < M_IC; k++) want += (double)in[69 * M_IC + k] * w[33 * M_IC + k];
    cr_expect(fabs(out[69 * M_OC + 33] - want) < 1e-5);
    ops()->matmul_backward(din, dw, db, r, in, w, M_N, M_IC, M_OC, NULL);
    /* The loss is linear in each tensor: differences are exact up to rounding (h 1e-2 is fine). */
    float *params[3] = {in, w, b}, *grads[3] = {din, dw, db};
    int sizes[3] = {M_N * M_IC, M_OC * M_IC, M_OC};
    for (int p = 0; p < 3; p++)
        for (int i = 0; i < sizes[p]; i += p == 0 ? 7 : 3) {
            float keep = params[p][i];
            params[p][i] = keep + FD_H;
            double up = mm_loss(in, w, b, r);
            params[p][i] = keep - FD_H;
            double down = mm_loss(in, w, b, r);
            params[p][i] = keep;
            double fd = (up - down) / (2 * FD_H);
            cr_expect(FD_OK(fd, grads[p][i]), "tensor %d [%d]: analytic %.6g, numeric %.6g", p, i, grads[p][i], fd);
        }
    /* Without din (the first layer's input needs none) the rest is the same. */
    float dw2[M_OC * M_IC];
    ops()->matmul_backward(NULL, dw2, NULL, r, in, w, M_N, M_IC, M_OC, NULL);
    cr_expect_eq(memcmp(dw, dw2, sizeof dw2), 0);
}

/* --- attention ---------------------------------------------------------------------------- */

enum { A_B = 2, A_T = 5, A_C = 8, A_NH = 2 };

static double attn_loss(const float *qkv, const float *r)
{
    float out[A_B * A_T * A_C], state[A_B * A_NH * A_T * A_T], scratch[A_B * A_NH * A_T * A_T];
    ops()->attention_forward(out, state, qkv, scratch, A_B, A_T, A_C, A_NH);
    return dot(out, r, A_B * A_T * A_C);
}

Test(gpt_kernels, attention_is_causal_and_its_gradient_matches)
{
    enum { NQ = A_B * A_T * 3 * A_C, NO = A_B * A_T * A_C };
    float qkv[NQ], r[NO], out[NO], state[A_B * A_NH * A_T * A_T], scratch[A_B * A_NH * A_T * A_T], dqkv[NQ];
    fill(qkv, NQ, 1.5f, 21);
    fill(r, NO, 1.0f, 22);
    ops()->attention_forward(out, state, qkv, scratch, A_B, A_T, A_C, A_NH);
    /* Row 0 attends to itself alone: its output is its own value vector. */
    for (int c = 0; c < A_C; c++) cr_expect_float_eq(out[c], qkv[2 * A_C + c], 1e-6);
    /* Probabilities: each row sums to 1, nothing after the diagonal. */
    for (int row = 0; row < A_B * A_NH * A_T; row++) {
        int t = row % A_T;
        double s = 0;
        for (int j = 0; j < A_T; j++) {
            s += state[row * A_T + j];
            if (j > t) cr_expect_eq(state[row * A_T + j], 0.0f);
        }
        cr_expect(fabs(s - 1) < 1e-6);
    }
    /* A later token's values do not reach an earlier output. */
    float changed[NQ], out2[NO];
    memcpy(changed, qkv, sizeof qkv);
    for (int c = 0; c < 3 * A_C; c++) changed[(A_T - 1) * 3 * A_C + c] += 1.0f;
    ops()->attention_forward(out2, state, changed, scratch, A_B, A_T, A_C, A_NH);
    for (int i = 0; i < (A_T - 1) * A_C; i++) cr_expect_eq(out2[i], out[i]);
    ops()->attention_forward(out, state, qkv, scratch, A_B, A_T, A_C, A_NH);
    ops()->attention_backward(dqkv, r, qkv, out, state, scratch, A_B, A_T, A_C, A_NH);
    for (int i = 0; i < NQ; i++) {
        float keep = qkv[i];
        qkv[i] = keep + FD_H;
        double up = attn_loss(qkv, r);
        qkv[i] = keep - FD_H;
        double down = attn_loss(qkv, r);
        qkv[i] = keep;
        double fd = (up - down) / (2 * FD_H);
        cr_expect(FD_OK(fd, dqkv[i]), "qkv[%d]: analytic %.6g, numeric %.6g", i, dqkv[i], fd);
    }
}

/* Longer than one 64-row block of the attention kernel, and not a multiple of it. */
Test(gpt_kernels, attention_blocks_agree_with_a_direct_sum)
{
    enum { T = 70, C = 4, NH = 1 };
    static float qkv[T * 3 * C], out[T * C], state[T * T], scratch[T * T];
    fill(qkv, T * 3 * C, 1.0f, 31);
    ops()->attention_forward(out, state, qkv, scratch, 1, T, C, NH);
    for (int t = 0; t < T; t += 23) {
        double w[T], s = 0, max = -1e30;
        for (int j = 0; j <= t; j++) {
            w[j] = dot(qkv + t * 3 * C, qkv + j * 3 * C + C, C) / 2.0; /* 1/sqrt(4) */
            if (w[j] > max) max = w[j];
        }
        for (int j = 0; j <= t; j++) s += (w[j] = exp(w[j] - max));
        for (int c = 0; c < C; c++) {
            double y = 0;
            for (int j = 0; j <= t; j++) y += w[j] / s * qkv[j * 3 * C + 2 * C + c];
            cr_expect(fabs(out[t * C + c] - y) < 1e-5, "t %d c %d: %.7g vs %.7g", t, c, out[t * C + c], y);
        }
    }
}

/* --- cross-entropy and embeddings ----------------------------------------------------------- */

Test(gpt_kernels, crossentropy_value_and_gradient)
{
    /* Two rows over 3 classes: [0, 0, 0] -> ln 3; [ln 1, ln 2, ln 5] with target 2 -> ln(8/5).
     * Mean: (1.0986123 + 0.4700036) / 2 = 0.7843080. */
    float z[6] = {0, 0, 0, 0, logf(2.0f), logf(5.0f)}, d[6], loss, scratch[2];
    int32_t y[2] = {1, 2};
    ops()->crossentropy(&loss, d, z, y, 2, 3, scratch);
    cr_expect(fabsf(loss - 0.7843080f) < 1e-6, "%.7f", loss);
    /* d = (softmax - onehot) / 2: row 0 (1/3, -2/3, 1/3) / 2; row 1 (1/8, 2/8, 5/8 - 1) / 2. */
    float want[6] = {1 / 6.0f, -1 / 3.0f, 1 / 6.0f, 1 / 16.0f, 1 / 8.0f, -3 / 16.0f};
    for (int i = 0; i < 6; i++) cr_expect(fabsf(d[i] - want[i]) < 1e-6, "d[%d] %.7f", i, d[i]);
    /* In place, as the model calls it. */
    ops()->crossentropy(&loss, z, z, y, 2, 3, scratch);
    for (int i = 0; i < 6; i++) cr_expect(fabsf(z[i] - want[i]) < 1e-6);
}

Test(gpt_kernels, encoder_forward_and_backward)
{
    enum { B = 2, T = 3, C = 40, V = 5 }; /* C over one column task */
    float wte[V * C], wpe[T * C], out[B * T * C], d[B * T * C], dwte[V * C] = {0}, dwpe[T * C];
    int32_t tok[B * T] = {4, 1, 4, 0, 4, 2};
    fill(wte, V * C, 1.0f, 41);
    fill(wpe, T * C, 1.0f, 42);
    fill(d, B * T * C, 1.0f, 43);
    ops()->encoder_forward(out, tok, wte, wpe, B, T, C);
    cr_expect_eq(out[(1 * T + 2) * C + 33], wte[2 * C + 33] + wpe[2 * C + 33]);
    ops()->encoder_backward(dwte, dwpe, d, tok, B, T, C, NULL);
    for (int c = 0; c < C; c++) {
        /* token 4 at (0,0), (0,2), (1,1); position 1 at (0,1) and (1,1); token 3 nowhere */
        cr_expect_float_eq(dwte[4 * C + c], d[0 * C + c] + d[2 * C + c] + d[4 * C + c], 1e-6);
        cr_expect_float_eq(dwpe[1 * C + c], d[1 * C + c] + d[4 * C + c], 1e-6);
        cr_expect_eq(dwte[3 * C + c], 0.0f);
    }
}

/* --- the whole model ---------------------------------------------------------------------- */

static struct eng_gpt *build(int L, int H, int C, int T, int V, int B, enum eng_opt opt)
{
    struct eng_gpt_config c;
    eng_gpt_config_defaults(&c);
    c.n_layer = L, c.n_head = H, c.n_embd = C, c.ctx = T, c.vocab = V, c.batch = B, c.opt = opt, c.threads = 2;
    struct eng_gpt *m;
    cr_assert_eq(eng_gpt_create(&c, eng_cpu_backend(), &m, err, sizeof err), ENG_OK, "%s", err);
    return m;
}

/* Every tensor's entries (three of each, first, middle, last) against central differences of the
 * whole model's loss, the weights drawn wide (uniform +-0.5) so gradients are large enough to
 * measure. Loss ~3, h 1e-2: as the kernels' tolerance. */
Test(gpt_model, gradients_match_finite_differences, .timeout = 60)
{
    struct eng_gpt *m = build(2, 2, 8, 5, 11, 2, ENG_OPT_SGD);
    int n = eng_gpt_tensor_count(m);
    float *buf[64];
    for (int i = 0; i < n; i++) {
        const struct eng_gpt_tensor *t = eng_gpt_tensor_at(m, i);
        buf[i] = malloc(t->count * sizeof(float));
        fill(buf[i], t->count, 0.5f, 100 + (uint64_t)i);
        eng_gpt_write_tensor(m, i, buf[i]);
    }
    int32_t in[10], tg[10];
    for (int i = 0; i < 10; i++) in[i] = (i * 7) % 11, tg[i] = (i * 3 + 1) % 11;
    eng_gpt_forward_backward(m, in, tg);
    int checked = 0, large = 0;
    for (int i = 0; i < n; i++) {
        const struct eng_gpt_tensor *t = eng_gpt_tensor_at(m, i);
        float *g = malloc(t->count * sizeof(float));
        eng_gpt_read_grad(m, i, g);
        size_t at[3] = {0, t->count / 2, t->count - 1};
        for (int k = 0; k < 3; k++) {
            size_t j = at[k];
            float keep = buf[i][j];
            buf[i][j] = keep + FD_H;
            eng_gpt_write_tensor(m, i, buf[i]);
            double up = eng_gpt_forward_backward(m, in, tg);
            buf[i][j] = keep - FD_H;
            eng_gpt_write_tensor(m, i, buf[i]);
            double down = eng_gpt_forward_backward(m, in, tg);
            buf[i][j] = keep;
            eng_gpt_write_tensor(m, i, buf[i]);
            double fd = (up - down) / (2 * FD_H);
            cr_expect(FD_OK(fd, g[j]), "%s[%zu]: analytic %.6g, numeric %.6g", t->name, j, g[j], fd);
            checked++;
            large += fabs(g[j]) > 1e-2;
        }
        free(g);
    }
    cr_expect_eq(checked, 3 * (2 + 12 * 2 + 2));
    /* Not vacuous: a third of the checked gradients exceed 1e-2, twenty times the tolerance. */
    cr_expect_gt(large, checked / 3, "measurable gradients: %d of %d", large, checked);
    for (int i = 0; i < n; i++) free(buf[i]);
    eng_gpt_free(m);
}

Test(gpt_model, sizes_and_flops_by_hand)
{
    struct eng_gpt *m = build(2, 2, 64, 32, 256, 4, ENG_OPT_ADAMW);
    /* wte 256*64 = 16384, wpe 32*64 = 2048; a block: ln 2*128, c_attn 64*192 + 192 = 12480,
     * attn.c_proj 4096 + 64, c_fc 64*256 + 256 = 16640, mlp.c_proj 16384 + 64: 49984;
     * ln_f 128. 16384 + 2048 + 2*49984 + 128 = 118528. */
    cr_expect_eq(eng_gpt_param_count(m), 118528);
    /* 6 (118528 - 2048) + 12 * 2 layers * 2 heads * 32 wide * 32 tokens = 698880 + 49152 */
    cr_expect_float_eq(eng_gpt_flops_per_token(m), 748032.0, 0.5);
    cr_expect_eq(eng_gpt_tensor_count(m), 28);
    cr_expect_str_eq(eng_gpt_tensor_at(m, 4)->name, "transformer.h.0.attn.c_attn.weight");
    cr_expect_eq(eng_gpt_tensor_at(m, 4)->shape[0], 192);
    cr_expect_eq(eng_gpt_tensor_at(m, 4)->shape[1], 64);
    cr_expect_str_eq(eng_gpt_tensor_at(m, 27)->name, "transformer.ln_f.bias");
    eng_gpt_free(m);
}

Test(gpt_model, bad_configurations_name_the_option)
{
    struct eng_gpt_config c;
    eng_gpt_config_defaults(&c);
    c.n_embd = 100, c.n_head = 3;
    cr_expect_neq(eng_gpt_config_check(&c, err, sizeof err), 0);
    cr_expect(strstr(err, "--n-embd 100 is not a multiple of --n-head 3"), "%s", err);
    c.n_embd = 99; /* 99 = 3 x 33: fine */
    cr_expect_eq(eng_gpt_config_check(&c, err, sizeof err), 0, "%s", err);
    c.block_size = 16, c.ctx = 17;
    cr_expect_neq(eng_gpt_config_check(&c, err, sizeof err), 0);
    cr_expect(strstr(err, "--ctx 17 is larger than the position table (16 positions)"), "%s", err);
    c.ctx = 16;
    cr_expect_eq(eng_gpt_config_check(&c, err, sizeof err), 0, "%s", err);
    c.n_layer = 0;
    cr_expect_neq(eng_gpt_config_check(&c, err, sizeof err), 0);
    cr_expect(strstr(err, "--n-layer 0"), "%s", err);
}

/* A one-token, one-layer model of width 8 (1024 for the heads, which must divide it) takes each
 * size at its limit and refuses one past it, naming the option and the range. */
Test(gpt_model, each_size_is_taken_at_its_limit_and_refused_one_past)
{
    static const struct {
        const char *option;
        size_t at;
        int max, n_embd;
    } sizes[] = {
        {"--n-layer", offsetof(struct eng_gpt_config, n_layer), 1024, 8},
        {"--n-head", offsetof(struct eng_gpt_config, n_head), 1024, 1024},
        {"--n-embd", offsetof(struct eng_gpt_config, n_embd), 1 << 16, 0},
        {"--vocab", offsetof(struct eng_gpt_config, vocab), 1 << 24, 8},
        {"--ctx", offsetof(struct eng_gpt_config, ctx), 1 << 20, 8},
        {"--batch", offsetof(struct eng_gpt_config, batch), 1 << 20, 8},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int past = 0; past < 2; past++) {
            struct eng_gpt_config c;
            eng_gpt_config_defaults(&c);
            c.n_layer = 1, c.n_head = 1, c.n_embd = sizes[i].n_embd, c.vocab = 8, c.ctx = 1, c.batch = 1;
            *(int *)(void *)((char *)&c + sizes[i].at) = sizes[i].max + past;
            char want[96];
            snprintf(want, sizeof want, "%s %d: expected 1 to %d", sizes[i].option, sizes[i].max + 1, sizes[i].max);
            err[0] = '\0';
            cr_expect_eq(eng_gpt_config_check(&c, err, sizeof err), past ? -1 : 0, "%s %d: %s", sizes[i].option,
                         sizes[i].max + past, err);
            if (past) cr_expect_str_eq(err, want);
        }
}

/* The products take int sizes: 2^19 tokens x 4 x 1024 wide = 2^31 is one past INT_MAX, 1023 wide
 * (2145386496) fits; the logits 2^19 x vocab 4096 = 2^31 do not, vocab 4095 (2146959360) does. */
Test(gpt_model, products_past_an_int_are_refused)
{
    static const struct { int n_embd, vocab, ok; } cases[] = {
        {1024, 8, 0}, {1023, 8, 1}, {8, 4096, 0}, {8, 4095, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct eng_gpt_config c;
        eng_gpt_config_defaults(&c);
        c.n_layer = 1, c.n_head = 1, c.n_embd = cases[i].n_embd, c.vocab = cases[i].vocab, c.ctx = 1, c.batch = 1 << 19;
        err[0] = '\0';
        cr_expect_eq(eng_gpt_config_check(&c, err, sizeof err), cases[i].ok ? 0 : -1, "width %d, vocab %d: %s",
                     cases[i].n_embd, cases[i].vocab, err);
        if (!cases[i].ok)
            cr_expect_str_eq(err, "--batch 524288 x --ctx 1 is too large for this model width and vocabulary");
    }
}

Test(gpt_model, initialisation_follows_nanogpt)
{
    struct eng_gpt *m = build(4, 2, 64, 16, 256, 1, ENG_OPT_ADAMW);
    eng_gpt_init(m, 7);
    float *buf = malloc(256 * 64 * sizeof(float));
    for (int i = 0; i < eng_gpt_tensor_count(m); i++) {
        const struct eng_gpt_tensor *t = eng_gpt_tensor_at(m, i);
        eng_gpt_read_tensor(m, i, buf);
        double s = 0, s2 = 0;
        for (size_t k = 0; k < t->count; k++) s += buf[k], s2 += (double)buf[k] * buf[k];
        double mean = s / t->count, sd = sqrt(s2 / t->count - mean * mean);
        if (t->ndim == 2) {
            /* c_proj: 0.02 / sqrt(2 * 4 layers) = 0.0070711; the rest 0.02. Thousands of draws: the
             * sample sd is within 5% (its relative error is about 1/sqrt(2n) < 2%). */
            double want = strstr(t->name, "c_proj") ? 0.02 / sqrt(8.0) : 0.02;
            cr_expect(fabs(sd - want) < 0.05 * want, "%s: sd %.5f, want %.5f", t->name, sd, want);
            cr_expect(fabs(mean) < 0.1 * want, "%s: mean %.5f", t->name, mean);
        } else {
            double want = strstr(t->name, "ln_") && strstr(t->name, ".weight") ? 1.0 : 0.0;
            cr_expect(mean == want && sd == 0, "%s: mean %g sd %g", t->name, mean, sd);
        }
    }
    free(buf);
    eng_gpt_free(m);
}

/* SGD without momentum or clipping, lr 0.1, weight decay 0.5: torch.optim.SGD updates
 * p -= lr (g + wd p), with wd 0.5 in the decayed group (matrices and embeddings) and 0 for biases
 * and LayerNorm weights. Checked entry by entry against the gradients the step used. */
Test(gpt_model, weight_decay_only_on_matrices_and_embeddings)
{
    struct eng_gpt_config c;
    eng_gpt_config_defaults(&c);
    c.n_layer = 1, c.n_embd = 8, c.n_head = 2, c.ctx = 4, c.vocab = 6, c.batch = 1, c.opt = ENG_OPT_SGD;
    c.lr = 0.1f, c.weight_decay = 0.5f, c.clip = 0;
    struct eng_gpt *m;
    cr_assert_eq(eng_gpt_create(&c, eng_cpu_backend(), &m, err, sizeof err), ENG_OK, "%s", err);
    eng_gpt_init(m, 3);
    int n = eng_gpt_tensor_count(m);
    float *before[20], *after = malloc(8 * 32 * sizeof(float));
    for (int i = 0; i < n; i++) {
        const struct eng_gpt_tensor *t = eng_gpt_tensor_at(m, i);
        before[i] = malloc(t->count * sizeof(float));
        for (size_t k = 0; k < t->count; k++) before[i][k] = 0.25f + 0.01f * (float)k; /* nonzero */
        eng_gpt_write_tensor(m, i, before[i]);
    }
    int32_t in[4] = {1, 2, 3, 4}, tg[4] = {2, 3, 4, 5};
    eng_gpt_forward_backward(m, in, tg);
    float *grads[20];
    for (int i = 0; i < n; i++) {
        grads[i] = malloc(eng_gpt_tensor_at(m, i)->count * sizeof(float));
        eng_gpt_read_grad(m, i, grads[i]);
    }
    eng_gpt_step(m, in, tg);
    for (int i = 0; i < n; i++) {
        const struct eng_gpt_tensor *t = eng_gpt_tensor_at(m, i);
        eng_gpt_read_tensor(m, i, after);
        float wd = t->decay ? 0.5f : 0.0f;
        cr_expect_eq(t->decay, t->ndim == 2, "%s", t->name);
        for (size_t k = 0; k < t->count; k++) {
            float want = before[i][k] - 0.1f * (grads[i][k] + wd * before[i][k]);
            cr_expect(fabsf(after[k] - want) <= 1e-6f, "%s[%zu]: %.7g vs %.7g", t->name, k, after[k], want);
        }
        free(before[i]);
        free(grads[i]);
    }
    free(after);
    eng_gpt_free(m);
}

/* Clipping as clip_grad_norm_: gradients scaled by clip / (norm + 1e-6) when that is below 1. */
Test(gpt_model, clipping_scales_by_the_global_norm)
{
    float g[5] = {3, 0, 0, 4, 0}, norm; /* norm 5 */
    ops()->global_norm(&norm, g, 5, NULL);
    cr_expect_float_eq(norm, 5.0f, 1e-6);
    float p[5] = {0}, buf[5] = {0};
    struct eng_sgd_args a = {1.0f, 0.0f, 0.0f, 1};
    ops()->sgd_step(p, g, buf, 5, &a, &norm, 1.0f); /* scale 1 / 5.000001 */
    cr_expect_float_eq(p[0], -0.6f, 1e-6);
    cr_expect_float_eq(p[3], -0.8f, 1e-6);
    float q[5] = {0};
    ops()->sgd_step(q, g, buf, 5, &a, &norm, 10.0f); /* 10 / 5 > 1: not scaled */
    cr_expect_eq(q[0], -3.0f);
    float r[5] = {0};
    ops()->sgd_step(r, g, buf, 5, &a, &norm, 0.0f); /* off */
    cr_expect_eq(r[3], -4.0f);
}

/* The loss and weights do not depend on the number of threads: every reduction runs in a fixed
 * order. */
Test(gpt_model, results_do_not_depend_on_threads, .timeout = 60)
{
    float loss[2][3], w[2][64];
    for (int run = 0; run < 2; run++) {
        struct eng_gpt *m = build(2, 2, 32, 20, 40, 3, ENG_OPT_ADAMW);
        eng_pool_set_threads(run ? 2 : 1);
        eng_gpt_init(m, 5);
        struct eng_tokens t;
        cr_assert_eq(eng_tokens_synthetic(&t, 500, 40, 9, err, sizeof err), ENG_OK);
        int32_t in[60], tg[60];
        for (int s = 0; s < 3; s++) {
            eng_tokens_batch(&t, s, 3, 20, in, tg);
            loss[run][s] = eng_gpt_step(m, in, tg);
        }
        float *all = malloc(40 * 32 * sizeof(float));
        eng_gpt_read_tensor(m, 0, all);
        memcpy(w[run], all, sizeof w[run]);
        free(all);
        eng_tokens_free(&t);
        eng_gpt_free(m);
    }
    for (int s = 0; s < 3; s++) cr_expect_eq(loss[0][s], loss[1][s], "step %d", s);
    cr_expect_eq(memcmp(w[0], w[1], sizeof w[0]), 0);
}

Test(gpt_model, loss_falls_on_synthetic_tokens, .timeout = 60)
{
    struct eng_gpt_config c;
    eng_gpt_config_defaults(&c);
    c.n_layer = 1, c.n_embd = 32, c.n_head = 2, c.ctx = 16, c.vocab = 32, c.batch = 8, c.lr = 1e-2f;
    struct eng_gpt *m;
    cr_assert_eq(eng_gpt_create(&c, eng_cpu_backend(), &m, err, sizeof err), ENG_OK, "%s", err);
    eng_gpt_init(m, 1);
    struct eng_tokens t;
    cr_assert_eq(eng_tokens_synthetic(&t, 4096, 32, 1, err, sizeof err), ENG_OK);
    float losses[60];
    struct eng_run run = {60, losses, NULL, NULL};
    cr_assert_eq(eng_gpt_train(m, &t, &run, NULL, NULL, err, sizeof err), ENG_OK, "%s", err);
    /* Starts near ln 32 = 3.466; each token has 4 successors, so the floor is ln 4 = 1.386. */
    cr_expect(fabsf(losses[0] - 3.466f) < 0.1f, "%f", losses[0]);
    cr_expect_lt(losses[59], 2.6f, "%f", losses[59]);
    cr_expect_gt(losses[59], 1.3f);
    eng_tokens_free(&t);
    eng_gpt_free(m);
}

Test(gpt_model, non_finite_loss_stops_with_the_step)
{
    struct eng_gpt *m = build(1, 1, 4, 4, 8, 1, ENG_OPT_SGD);
    float *w = malloc(8 * 4 * sizeof(float));
    for (int i = 0; i < 32; i++) w[i] = i == 5 ? NAN : 0.1f;
    eng_gpt_write_tensor(m, 0, w);
    struct eng_tokens t;
    cr_assert_eq(eng_tokens_synthetic(&t, 64, 8, 1, err, sizeof err), ENG_OK);
    float losses[5] = {0};
    struct eng_run run = {5, losses, NULL, NULL};
    cr_expect_eq(eng_gpt_train(m, &t, &run, NULL, NULL, err, sizeof err), ENG_ERR_RUNTIME);
    cr_expect(strstr(err, "step 1: the loss is not a number"), "%s", err);
    cr_expect_eq(run.steps, 0);
    free(w);
    eng_tokens_free(&t);
    eng_gpt_free(m);
}

/* A stop set in the middle of a step is seen between two layers: the step is dropped (no
 * update: the weights are the initial ones), the run says no step finished, and it returns long
 * before the step would have ended. S, one step's time, is measured first; the stop comes at
 * S / 4, and 32 layers make a layer about S / 64. */
struct stopper {
    volatile sig_atomic_t flag;
    double after_s, set_at;
};

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *set_stop(void *arg)
{
    struct stopper *s = arg;
    usleep((useconds_t)(s->after_s * 1e6));
    s->set_at = mono_s();
    s->flag = 1;
    return NULL;
}

Test(gpt_model, stop_is_seen_between_layers, .timeout = 120)
{
    struct eng_gpt_config c;
    eng_gpt_config_defaults(&c);
    c.n_layer = 32, c.n_embd = 128, c.n_head = 4, c.ctx = 64, c.vocab = 64, c.batch = 8, c.threads = 1;
    struct eng_gpt *m;
    cr_assert_eq(eng_gpt_create(&c, eng_cpu_backend(), &m, err, sizeof err), ENG_OK, "%s", err);
    eng_gpt_init(m, 1);
    struct eng_tokens t;
    cr_assert_eq(eng_tokens_synthetic(&t, 8192, 64, 1, err, sizeof err), ENG_OK);
    double secs[2];
    struct eng_run once = {2, NULL, secs, NULL};
    cr_assert_eq(eng_gpt_train(m, &t, &once, NULL, NULL, err, sizeof err), ENG_OK, "%s", err);
    double step = secs[1];
    const struct eng_gpt_tensor *first = eng_gpt_tensor_at(m, 0);
    size_t len = 1;
    for (int d = 0; d < first->ndim; d++) len *= (size_t)first->shape[d];
    float *before = malloc(len * sizeof *before), *after = malloc(len * sizeof *after);
    eng_gpt_read_tensor(m, 0, before);
    struct stopper st = {0, step / 4, 0};
    pthread_t th;
    struct eng_run run = {1000, NULL, NULL, &st.flag};
    double t0 = mono_s();
    pthread_create(&th, NULL, set_stop, &st);
    cr_expect_eq(eng_gpt_train(m, &t, &run, NULL, NULL, err, sizeof err), ENG_OK, "%s", err);
    double end = mono_s();
    pthread_join(th, NULL);
    eng_gpt_read_tensor(m, 0, after);
    cr_expect_eq(run.steps, 0, "the half step is not counted (one step takes %.3f s)", step);
    cr_expect_eq(memcmp(before, after, len * sizeof *before), 0, "no update from the dropped step");
    cr_expect_lt(end - t0, step, "the step was not finished: %.3f s of a %.3f s step", end - t0, step);
    double second = ts_seconds_at_pace(1.0);
    cr_expect_lt(end - st.set_at, second, "stopped %.3f s after the flag (a second is %.2f s at this pace)", end - st.set_at,
                 second);
    free(before);
    free(after);
    eng_tokens_free(&t);
    eng_gpt_free(m);
}

/* The MLP's loop stops before the next step. */
Test(gpt_model, mlp_run_stops_before_the_next_step)
{
    struct eng_config c;
    eng_config_defaults(&c);
    cr_assert_eq(eng_parse_layers(&c, "8,4", err, sizeof err), 0);
    c.batch = 4;
    struct eng_model *m;
    cr_assert_eq(eng_model_create(&c, eng_cpu_backend(), &m, err, sizeof err), ENG_OK);
    eng_model_init(m, 1);
    struct eng_data d;
    cr_assert_eq(eng_data_synthetic(&d, 64, 8, 4, ENG_LOSS_CE, 1, err, sizeof err), ENG_OK);
    volatile sig_atomic_t stop = 1;
    struct eng_run run = {10, NULL, NULL, &stop};
    cr_expect_eq(eng_train(m, &d, &run, NULL, NULL, err, sizeof err), ENG_OK);
    cr_expect_eq(run.steps, 0);
    eng_data_free(&d);
    eng_model_free(m);
}

Test(gpt_model, gemm_only_timing_runs)
{
    struct eng_gpt *m = build(1, 2, 16, 8, 32, 2, ENG_OPT_ADAMW);
    cr_expect_gt(eng_gpt_time_gemms(m), 0.0);
    eng_gpt_free(m);
}

/* --- tokens ------------------------------------------------------------------------------- */

Test(gpt_tokens, text_batches_follow_the_rule)
{
    char *dir = ts_tmpdir(), *path = ts_path(dir, "t.txt");
    cr_assert_eq(ts_write_str(path, "abcdefghij"), 0);
    struct eng_tokens t;
    cr_assert_eq(eng_tokens_from_file(&t, path, 7, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(t.len, 10);
    int32_t in[6], tg[6];
    /* Step 1, B 2, T 3: row 0 starts at (1*2 + 0) * 3 mod 10 = 6: "ghi" -> "hij"; row 1 at
     * (1*2 + 1) * 3 mod 10 = 9: "jab" -> "abc" (wrapping). */
    eng_tokens_batch(&t, 1, 2, 3, in, tg);
    int32_t want_in[6] = {'g', 'h', 'i', 'j', 'a', 'b'}, want_tg[6] = {'h', 'i', 'j', 'a', 'b', 'c'};
    for (int i = 0; i < 6; i++) {
        cr_expect_eq(in[i], want_in[i], "in[%d]", i);
        cr_expect_eq(tg[i], want_tg[i], "tg[%d]", i);
    }
    eng_tokens_free(&t);
    /* Shorter than one batch: 10 bytes against 2 x 5 + 1 = 11. */
    cr_expect_eq(eng_tokens_from_file(&t, path, 11, err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "10 bytes, shorter than one batch (11 bytes"), "%s", err);
    cr_expect_eq(eng_tokens_from_file(&t, path, 10, err, sizeof err), ENG_OK);
    eng_tokens_free(&t);
    ts_rmtree(dir);
    free(dir);
    free(path);
}

Test(gpt_tokens, synthetic_chain_has_four_successors)
{
    struct eng_tokens t;
    cr_assert_eq(eng_tokens_synthetic(&t, 20000, 16, 3, err, sizeof err), ENG_OK);
    int seen[16][16] = {{0}};
    for (size_t i = 0; i + 1 < t.len; i++) {
        cr_assert(t.ids[i] >= 0 && t.ids[i] < 16);
        seen[t.ids[i]][t.ids[i + 1]] = 1;
    }
    for (int a = 0; a < 16; a++) {
        int n = 0;
        for (int b = 0; b < 16; b++) n += seen[a][b];
        cr_expect(n >= 1 && n <= 4, "token %d has %d successors", a, n);
    }
    eng_tokens_free(&t);
}

/* --- weights files ------------------------------------------------------------------------- */

Test(gpt_io, save_and_load_round_trip)
{
    char *dir = ts_tmpdir(), *path = ts_path(dir, "w.safetensors");
    struct eng_gpt *a = build(2, 2, 16, 8, 32, 1, ENG_OPT_ADAMW), *b = build(2, 2, 16, 8, 32, 1, ENG_OPT_ADAMW);
    eng_gpt_init(a, 1);
    eng_gpt_init(b, 2);
    cr_assert_eq(eng_gpt_save(path, a, err, sizeof err), ENG_OK, "%s", err);
    cr_assert_eq(eng_gpt_load(path, b, err, sizeof err), ENG_OK, "%s", err);
    static float x[64 * 16], y[64 * 16]; /* the widest tensor: c_fc, 4C x C */
    for (int i = 0; i < eng_gpt_tensor_count(a); i++) {
        eng_gpt_read_tensor(a, i, x);
        eng_gpt_read_tensor(b, i, y);
        cr_expect_eq(memcmp(x, y, eng_gpt_tensor_at(a, i)->count * sizeof(float)), 0, "%s", eng_gpt_tensor_at(a, i)->name);
    }
    int rows, width;
    cr_expect_eq(eng_gpt_file_positions(path, &rows, &width, err, sizeof err), ENG_OK);
    cr_expect_eq(rows, 8);
    cr_expect_eq(width, 16);
    /* The file names lm_head.weight too, for nanoGPT's strict loading. */
    size_t len;
    char *text = ts_read(path, &len);
    cr_expect(text && len > 8 && strstr(text + 8, "\"lm_head.weight\""));  /* the JSON header after the length */
    free(text);
    /* A model of another shape: the first mismatching tensor is named. */
    struct eng_gpt *c = build(2, 2, 16, 8, 48, 1, ENG_OPT_ADAMW);
    cr_expect_eq(eng_gpt_load(path, c, err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "tensor 'transformer.wte.weight' has shape [32, 16], this model needs [48, 16]"), "%s", err);
    struct eng_gpt *d = build(1, 2, 16, 8, 32, 1, ENG_OPT_ADAMW);
    cr_expect_eq(eng_gpt_load(path, d, err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "tensor 'transformer.h.1.ln_1.weight' is not part of this model (1 layers)"), "%s", err);
    struct eng_gpt *e = build(3, 2, 16, 8, 32, 1, ENG_OPT_ADAMW);
    cr_expect_eq(eng_gpt_load(path, e, err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "missing tensor 'transformer.h.2.ln_1.weight'"), "%s", err);
    eng_gpt_free(a), eng_gpt_free(b), eng_gpt_free(c), eng_gpt_free(d), eng_gpt_free(e);
    ts_rmtree(dir);
    free(dir);
    free(path);
}
