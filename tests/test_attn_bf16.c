/* Attention with bf16 operands as the GPU's tensor-core path computes it, emulated on the host
 * (engine/cuda/numerics.h): the rounding itself, the emulation against exact fp32 attention
 * within the bound derived from bf16's 8-bit significand, and the exact emulation against the
 * CPU engine's attention, on B 2, T 16, NH 2, hs 8 and on a single token (T 1). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/cuda/numerics.h"
#include "engine/gpt_ops.h"

TestSuite(attn_bf16, .timeout = 60);

Test(attn_bf16, rounds_to_nearest_even_with_eight_significant_bits)
{
    cr_expect_eq(ENG_BF16_U, 1.0 / 256);
    cr_expect_eq(eng_bf16_round(1.0f + 0x1p-8f), 1.0f);              /* a tie, to the even 1 */
    cr_expect_eq(eng_bf16_round(1.0f + 3 * 0x1p-8f), 1.0f + 0x1p-6f); /* a tie, to the even 1 + 2^-6 */
    cr_expect_eq(eng_bf16_round(1.0f + 0x1p-8f + 0x1p-20f), 1.0f + 0x1p-7f);
    cr_expect_eq(eng_bf16_round(0.1f), 0.10009765625f);
    cr_expect_eq(eng_bf16_round(-3.0f), -3.0f);
    cr_expect(isnan(eng_bf16_round(NAN)));
    cr_expect_eq(eng_bf16_round(INFINITY), INFINITY);
}

struct attn_case {
    struct eng_attn_shape s;
    size_t nqkv, nout, ntt;
    float *qkv, *dout, *out[2], *lse[2], *P[2], *dS[2], *dqkv[2];
    double *bout, *bdqkv, *work;
};

static float uniform(unsigned *state, float amp)
{
    *state = *state * 1664525u + 1013904223u;
    return amp * ((float)(*state >> 8) / (float)(1u << 24) * 2.0f - 1.0f);
}

/* Inputs uniform in [-2, 2] (q, k, v) and [-1, 1] (dout); both pipelines run (0 exact, 1 bf16)
 * and the bounds are taken from the exact one. */
static void attn_case_run(struct attn_case *a, int B, int T, int C, int NH)
{
    struct eng_attn_shape s = {B, T, C, NH};
    a->s = s;
    a->nqkv = (size_t)B * T * 3 * C, a->nout = (size_t)B * T * C, a->ntt = (size_t)B * NH * T * T;
    a->qkv = malloc(a->nqkv * sizeof(float));
    a->dout = malloc(a->nout * sizeof(float));
    unsigned seed = 12345u;
    for (size_t i = 0; i < a->nqkv; i++) a->qkv[i] = uniform(&seed, 2.0f);
    for (size_t i = 0; i < a->nout; i++) a->dout[i] = uniform(&seed, 1.0f);
    for (int k = 0; k < 2; k++) {
        a->out[k] = malloc(a->nout * sizeof(float));
        a->lse[k] = malloc((size_t)B * NH * T * sizeof(float));
        a->P[k] = malloc(a->ntt * sizeof(float));
        a->dS[k] = malloc(a->ntt * sizeof(float));
        a->dqkv[k] = malloc(a->nqkv * sizeof(float));
        eng_attn_forward_emulated(a->out[k], a->lse[k], a->P[k], a->qkv, s, k);
        eng_attn_backward_emulated(a->dqkv[k], a->dS[k], a->dout, a->qkv, a->out[k], a->P[k], s, k);
    }
    a->bout = malloc(a->nout * sizeof(double));
    a->bdqkv = malloc(a->nqkv * sizeof(double));
    a->work = malloc(2 * (size_t)T * sizeof(double));
    eng_attn_bf16_bounds(a->bout, a->bdqkv, a->work, a->qkv, a->dout, a->P[0], a->dS[0], s);
}

static void attn_case_free(struct attn_case *a)
{
    for (int k = 0; k < 2; k++) {
        free(a->out[k]), free(a->lse[k]), free(a->P[k]), free(a->dS[k]), free(a->dqkv[k]);
    }
    free(a->qkv), free(a->dout), free(a->bout), free(a->bdqkv), free(a->work);
}

/* The worst |got - want| / bound over n entries (entries with bound 0 must be equal); *rel: the
 * worst bound relative to the largest |want|. */
static double worst_ratio(const float *got, const float *want, const double *bound, size_t n, double *rel)
{
    double worst = 0, mag = 0, bmax = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs((double)got[i] - want[i]);
        worst = fmax(worst, bound[i] > 0 ? e / bound[i] : (e > 0 ? INFINITY : 0));
        mag = fmax(mag, fabs(want[i]));
        bmax = fmax(bmax, bound[i]);
    }
    *rel = mag > 0 ? bmax / mag : 0;
    return worst;
}

Test(attn_bf16, emulation_is_within_the_bf16_bound_of_exact_attention)
{
    struct attn_case a;
    attn_case_run(&a, 2, 16, 16, 2);
    double rel_out, rel_d;
    double ro = worst_ratio(a.out[1], a.out[0], a.bout, a.nout, &rel_out);
    double rd = worst_ratio(a.dqkv[1], a.dqkv[0], a.bdqkv, a.nqkv, &rel_d);
    fprintf(stderr, "attn_bf16: error/bound out %.3f dqkv %.3f; bound/max out %.4f dqkv %.4f\n", ro, rd, rel_out,
            rel_d);
    cr_expect_leq(ro, 1.0, "out: worst error %.3f of its bound", ro);
    cr_expect_leq(rd, 1.0, "dqkv: worst error %.3f of its bound", rd);
    /* The rounding is real (a pipeline that rounded nothing would show 0). The forward's bound
     * is 15% of the largest output; the backward's sums absolute values over dP - D's
     * cancellation, so it reaches the largest gradient (measured 1.008): the algebra itself is
     * pinned by the exact pipeline against the CPU engine below, which shares every line. */
    cr_expect_gt(ro, 0.01);
    cr_expect_gt(rd, 0.01);
    cr_expect_lt(rel_out, 0.2);
    cr_expect_lt(rel_d, 1.25);
    attn_case_free(&a);
}

/* The exact emulation is the CPU engine's attention (the same algebra, other summation order). */
Test(attn_bf16, exact_emulation_matches_the_cpu_engine)
{
    struct attn_case a;
    attn_case_run(&a, 2, 16, 16, 2);
    const struct eng_gpt_ops *o = &eng_cpu_gpt_ops;
    size_t ns = o->scratch_floats(2, 16, 16, 2, 64), nst = o->attention_state_floats(2, 16, 2);
    float *out = malloc(a.nout * sizeof(float)), *dqkv = malloc(a.nqkv * sizeof(float));
    float *state = malloc(nst * sizeof(float)), *scratch = malloc(ns * sizeof(float));
    o->attention_forward(out, state, a.qkv, scratch, 2, 16, 16, 2);
    o->attention_backward(dqkv, a.dout, a.qkv, out, state, scratch, 2, 16, 16, 2);
    double eo = 0, ed = 0;
    for (size_t i = 0; i < a.nout; i++) eo = fmax(eo, fabs((double)out[i] - a.out[0][i]));
    for (size_t i = 0; i < a.nqkv; i++) ed = fmax(ed, fabs((double)dqkv[i] - a.dqkv[0][i]));
    cr_expect_leq(eo, 1e-5, "out differs by %.3g", eo);
    cr_expect_leq(ed, 1e-4, "dqkv differs by %.3g", ed);
    free(out), free(dqkv), free(state), free(scratch);
    attn_case_free(&a);
}

/* One token sees only itself: P = 1, so O = V (bf16: V rounded), dV = dO, and dQ = dK = 0 in exact
 * arithmetic; bf16 stays within its bound of that. */
Test(attn_bf16, a_single_token_attends_to_itself)
{
    struct attn_case a;
    attn_case_run(&a, 2, 1, 16, 2);
    for (int b = 0; b < 2; b++)
        for (int c = 0; c < 16; c++) {
            float v = a.qkv[(size_t)b * 48 + 32 + c], g = a.dout[(size_t)b * 16 + c];
            cr_expect_eq(a.out[0][b * 16 + c], v);
            cr_expect_eq(a.out[1][b * 16 + c], eng_bf16_round(v));
            cr_expect_eq(a.dqkv[0][(size_t)b * 48 + c], 0.0f);
            cr_expect_eq(a.dqkv[0][(size_t)b * 48 + 16 + c], 0.0f);
            cr_expect_eq(a.dqkv[0][(size_t)b * 48 + 32 + c], g);
            cr_expect_eq(a.dqkv[1][(size_t)b * 48 + 32 + c], eng_bf16_round(g));
        }
    for (int k = 0; k < 2; k++) cr_expect_eq(a.P[k][0], 1.0f);
    double rel;
    cr_expect_leq(worst_ratio(a.out[1], a.out[0], a.bout, a.nout, &rel), 1.0);
    cr_expect_leq(worst_ratio(a.dqkv[1], a.dqkv[0], a.bdqkv, a.nqkv, &rel), 1.0);
    attn_case_free(&a);
}
