/* The GPU's arithmetic where it is defined exactly, written once for the device and the host.
 *
 * 1. The optimizers' per-element update. The CUDA kernels call these functions; so do the tests,
 *    compiled for the host, against the CPU back-end, bit for bit. On the device every operation
 *    is an explicitly rounded intrinsic (__fmul_rn, __fadd_rn, __fdiv_rn, __fsqrt_rn), which nvcc
 *    never fuses into a multiply-add; on the host they are plain C operations, which the project's
 *    compilers (GCC in ISO C mode, -ffp-contract=off) never fuse either. Both round each
 *    operation once to nearest even with subnormals kept, so the GPU's result is the CPU's.
 *
 *    The semantics, beside torch.optim's (single-tensor path; * + / rounded once each, in this
 *    order; scalars computed on the host in double, then rounded to float once):
 *
 *    Adam/AdamW   ours                                   torch.optim
 *      decay      w = p * (1 - lr*wd)   (AdamW)          param.mul_(1 - lr*wd)
 *      L2         g = g + wd*w          (Adam)           grad = grad.add(param, alpha=wd)
 *      m          m = b1*m + (1-b1)*g                    exp_avg.lerp_(grad, 1-b1)
 *      v          v = b2*v + ((1-b2)*g)*g                exp_avg_sq.mul_(b2).addcmul_(g, g, value=1-b2)
 *      denom      d = sqrt(v) * (1/sqrt(bc2)) + eps      (exp_avg_sq.sqrt() / sqrt(bc2)).add_(eps)
 *      p          p = w - (lr/bc1) * (m / d)             param.addcdiv_(exp_avg, denom, value=-lr/bc1)
 *    SGD
 *      L2         g = g + wd*p                           d_p = grad.add(param, alpha=wd)
 *      momentum   b = g (first step), else mu*b + g      buf.mul_(mu).add_(d_p)   (dampening 0)
 *      p          p = p - lr*b                           param.add_(d_p, alpha=-lr)
 *
 *    The same algebra; PyTorch's rounding differs in places (lerp instead of two products, a
 *    division by sqrt(bc2) instead of a product with its reciprocal, and kernels that may fuse a
 *    multiply into the add of add/addcmul/addcdiv), so PyTorch agrees with this to about an ulp
 *    per operation, not bit for bit, while the CPU and GPU back-ends here agree exactly.
 *
 * 2. The tolerance of a GEMM checked against a double-precision reference on the host, from the
 *    precision and k (the tests and the probe's result check use the same rule).
 *
 * 3. Attention with bf16 operands (gpt_kernels.cu's tensor-core path), emulated on the host: the
 *    products' operands rounded to bf16, fp32 accumulation, an fp32 softmax, and the bound on
 *    how far that may lie from exact fp32 attention.
 *
 * Plain C (the tests) and CUDA C++ (the plug-in's .cu files) both include this. */
#ifndef FWADVISOR_ENGINE_CUDA_NUMERICS_H
#define FWADVISOR_ENGINE_CUDA_NUMERICS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif
#include "engine/backend.h"
#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
#define ENG_HD __host__ __device__ static inline
#else
#define ENG_HD static inline
#endif

#if defined(__CUDA_ARCH__)
#if defined(__USE_FAST_MATH__)
#error "the optimizer kernels must be built without --use_fast_math (it flushes subnormals)"
#endif
#define ENG_MUL(a, b) __fmul_rn((a), (b))
#define ENG_ADD(a, b) __fadd_rn((a), (b))
#define ENG_SUB(a, b) __fsub_rn((a), (b))
#define ENG_DIV(a, b) __fdiv_rn((a), (b))
#define ENG_SQRT(a) __fsqrt_rn(a)
#else
#define ENG_MUL(a, b) ((a) * (b))
#define ENG_ADD(a, b) ((a) + (b))
#define ENG_SUB(a, b) ((a) - (b))
#define ENG_DIV(a, b) ((a) / (b))
#define ENG_SQRT(a) sqrtf(a)
#endif

/* One Adam/AdamW step's scalars, as the CPU back-end derives them from eng_adam_args: Adam has
 * decay 1 and l2 = wd, AdamW decay 1 - lr*wd and l2 0 (a product with exactly 1 and a sum with
 * exactly 0 change no bits, so one formula serves both). */
struct eng_adam_scalars {
    float b1, b2, one_b1, one_b2, step_size, inv_bc2_sqrt, eps, l2, decay;
};

static inline struct eng_adam_scalars eng_adam_scalars_of(const struct eng_adam_args *a)
{
    struct eng_adam_scalars s;
    s.b1 = a->beta1;
    s.b2 = a->beta2;
    s.one_b1 = 1.0f - a->beta1;
    s.one_b2 = 1.0f - a->beta2;
    s.step_size = (float)(a->lr / a->bias_correction1);
    s.inv_bc2_sqrt = (float)(1.0 / sqrt(a->bias_correction2));
    s.eps = a->eps;
    s.l2 = a->decoupled ? 0.0f : a->weight_decay;
    s.decay = a->decoupled ? 1.0f - a->lr * a->weight_decay : 1.0f;
    return s;
}

/* p, m, v of one element after one step with gradient g. */
ENG_HD void eng_adam_element(float *p, float *m, float *v, float g, const struct eng_adam_scalars *s)
{
    float w = ENG_MUL(*p, s->decay);
    float grad = ENG_ADD(g, ENG_MUL(s->l2, w));
    float mi = ENG_ADD(ENG_MUL(s->b1, *m), ENG_MUL(s->one_b1, grad));
    float vi = ENG_ADD(ENG_MUL(s->b2, *v), ENG_MUL(ENG_MUL(s->one_b2, grad), grad));
    float denom = ENG_ADD(ENG_MUL(ENG_SQRT(vi), s->inv_bc2_sqrt), s->eps);
    *m = mi;
    *v = vi;
    *p = ENG_SUB(w, ENG_MUL(s->step_size, ENG_DIV(mi, denom)));
}

struct eng_sgd_scalars {
    float lr, mu, wd;
    int first; /* the momentum buffer starts as the gradient */
};

static inline struct eng_sgd_scalars eng_sgd_scalars_of(const struct eng_sgd_args *a)
{
    struct eng_sgd_scalars s = {a->lr, a->momentum, a->weight_decay, a->first_step};
    return s;
}

/* p (and the momentum buffer buf, NULL without momentum) of one element after one step. */
ENG_HD void eng_sgd_element(float *p, float *buf, float g, const struct eng_sgd_scalars *s)
{
    float grad = ENG_ADD(g, ENG_MUL(s->wd, *p));
    if (buf) {
        float b = s->first ? grad : ENG_ADD(ENG_MUL(s->mu, *buf), grad);
        *buf = b;
        grad = b;
    }
    *p = ENG_SUB(*p, ENG_MUL(s->lr, grad));
}

/* --- GEMM tolerance ------------------------------------------------------------------------ */

/* Unit roundoffs of a GEMM: each input's relative rounding (0 when the operands are already
 * stored in the precision the GEMM multiplies in), the fp32 accumulation's, and the output's.
 * TF32 and bf16 inputs are bounded as if chopped (2^(1-p), p the significand's bits), since the
 * tensor cores may truncate rather than round. */
struct eng_gemm_rounding {
    double input, accumulate, output;
};

/* precision: an eng_precision (plugin.h) as an int, so that this header needs no other one;
 * inputs_exact: 1 when the operands are stored in the multiplying precision already (the probe's
 * 16-bit matrices), 0 when fp32 operands are rounded on the way in (the engine's GEMMs);
 * output_16: 1 when C is stored in 16 bits (the probe's bf16/fp16 GEMMs). */
static inline struct eng_gemm_rounding eng_gemm_rounding_of(int precision, int inputs_exact, int output_16)
{
    /* 0 fp32, 1 tf32, 2 bf16, 3 fp16 (enum eng_precision) */
    static const double input_u[4] = {0, 0x1p-10, 0x1p-7, 0x1p-10};
    static const double output_u[4] = {0x1p-24, 0x1p-24, 0x1p-8, 0x1p-11};
    struct eng_gemm_rounding r;
    int p = precision >= 0 && precision < 4 ? precision : 0;
    r.input = inputs_exact ? 0 : input_u[p];
    r.accumulate = 0x1p-24;
    r.output = output_16 ? output_u[p] : 0x1p-24;
    return r;
}

/* Confidence factor of the bound below. */
#define ENG_GEMM_LAMBDA 8.0

/* How far one entry of C = sum_i x_i (x_i = a_i b_i, i < k) may lie from its exact value `ref`,
 * given sum_abs = sum |x_i| and sum_sq = sum x_i^2 of the exact products. Rounding errors of
 * random operands are independent and of mean zero, so they grow as sqrt(k), not k:
 *   inputs:      sum x_i (d_ai + d_bi), |d| <= u_in: Hoeffding, lambda * 2 u_in * sqrt(sum x_i^2)
 *   accumulate:  Higham & Mary's probabilistic bound, lambda * sqrt(k) * u_acc * sum |x_i|
 *   output:      u_out * |ref| (one rounding of the result)
 * With lambda = 8 each bound fails with probability below 2k exp(-lambda^2 / 2) = k * 2.5e-14,
 * so a result outside it is a wrong result, not bad luck, while a wrong operand, transpose or
 * leading dimension misses by a whole product. */
static inline double eng_gemm_tolerance(struct eng_gemm_rounding r, int k, double sum_abs, double sum_sq, double ref)
{
    return ENG_GEMM_LAMBDA * (2.0 * r.input * sqrt(sum_sq) + sqrt((double)k) * r.accumulate * sum_abs) +
           r.output * fabs(ref);
}

/* --- attention with bf16 operands ------------------------------------------------------------ */

/* x rounded to bf16 (8 significant bits) to nearest even, as __float2bfloat16_rn; NaN kept. */
static inline float eng_bf16_round(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu)) return x;
    u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* bf16's unit roundoff: 8 significant bits, round to nearest. */
#define ENG_BF16_U 0x1p-8
/* Factor over the first-order bound below, for its second-order terms and the fp32 rounding. */
#define ENG_ATTN_SAFETY 2.0

/* Causal self-attention of qkv [B x T x 3C] (q, k, v side by side, NH heads of hs = C/NH), as
 * gpt_ops.h. `bf16` 1: every GEMM operand rounded to bf16 (Q, K, V, P; backward also dO and dS),
 * sums in fp32, the softmax in fp32; 0: exact fp32 attention. */
struct eng_attn_shape {
    int B, T, C, NH;
};

static inline float eng_attn_op(float x, int bf16) { return bf16 ? eng_bf16_round(x) : x; }

/* out [B x T x C], lse [B x NH x T], P [B x NH x T x T] (the fp32 probabilities, 0 above the
 * diagonal): S = scale Q K^T, P = exp(S - lse), O = P V. */
static inline void eng_attn_forward_emulated(float *out, float *lse, float *P, const float *qkv,
                                             struct eng_attn_shape s, int bf16)
{
    int hs = s.C / s.NH;
    size_t ld = 3 * (size_t)s.C;
    float scale = 1.0f / sqrtf((float)hs);
    for (int bh = 0; bh < s.B * s.NH; bh++) {
        int b = bh / s.NH, h = bh % s.NH;
        const float *q = qkv + (size_t)b * s.T * ld + (size_t)h * hs, *k = q + s.C, *v = q + 2 * s.C;
        for (int i = 0; i < s.T; i++) {
            float *p = P + ((size_t)bh * s.T + i) * s.T, m = -INFINITY, l = 0.0f;
            for (int j = 0; j < s.T; j++) {
                float acc = 0.0f;
                for (int d = 0; d < hs && j <= i; d++)
                    acc += eng_attn_op(q[(size_t)i * ld + d], bf16) * eng_attn_op(k[(size_t)j * ld + d], bf16);
                p[j] = scale * acc;
                if (j <= i && p[j] > m) m = p[j];
            }
            for (int j = 0; j <= i; j++) l += expf(p[j] - m);
            float L = m + logf(l);
            for (int j = 0; j < s.T; j++) p[j] = j <= i ? expf(p[j] - L) : 0.0f;
            lse[(size_t)bh * s.T + i] = L;
            for (int d = 0; d < hs; d++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++) acc += eng_attn_op(p[j], bf16) * eng_attn_op(v[(size_t)j * ld + d], bf16);
                out[(size_t)b * s.T * s.C + (size_t)i * s.C + (size_t)h * hs + d] = acc;
            }
        }
    }
}

/* dqkv [B x T x 3C] from dout and the forward's out and P; dp: B x NH x T x T floats of room.
 * D = rowsum(dO * O), dP = dO V^T, dS = P (dP - D), dQ = scale dS K, dK = scale dS^T Q,
 * dV = P^T dO. */
static inline void eng_attn_backward_emulated(float *dqkv, float *dp, const float *dout, const float *qkv,
                                              const float *out, const float *P, struct eng_attn_shape s, int bf16)
{
    int hs = s.C / s.NH, T = s.T;
    size_t ld = 3 * (size_t)s.C;
    float scale = 1.0f / sqrtf((float)hs);
    for (int bh = 0; bh < s.B * s.NH; bh++) {
        int b = bh / s.NH, h = bh % s.NH;
        size_t at = (size_t)b * T * ld + (size_t)h * hs, ot = (size_t)b * T * s.C + (size_t)h * hs;
        const float *q = qkv + at, *k = q + s.C, *v = q + 2 * s.C, *g = dout + ot, *o = out + ot;
        const float *p = P + (size_t)bh * T * T;
        float *ds = dp + (size_t)bh * T * T, *dq = dqkv + at, *dk = dq + s.C, *dv = dq + 2 * s.C;
        for (int i = 0; i < T; i++) {
            float D = 0.0f;
            for (int d = 0; d < hs; d++) D += g[(size_t)i * s.C + d] * o[(size_t)i * s.C + d];
            for (int j = 0; j < T; j++) {
                float acc = 0.0f;
                for (int d = 0; d < hs && j <= i; d++)
                    acc += eng_attn_op(g[(size_t)i * s.C + d], bf16) * eng_attn_op(v[(size_t)j * ld + d], bf16);
                ds[(size_t)i * T + j] = eng_attn_op(p[(size_t)i * T + j] * (acc - D), bf16);
            }
        }
        for (int r = 0; r < T; r++)
            for (int d = 0; d < hs; d++) {
                float aq = 0.0f, ak = 0.0f, av = 0.0f;
                for (int j = 0; j < T; j++) {
                    aq += ds[(size_t)r * T + j] * eng_attn_op(k[(size_t)j * ld + d], bf16);
                    ak += ds[(size_t)j * T + r] * eng_attn_op(q[(size_t)j * ld + d], bf16);
                    av += eng_attn_op(p[(size_t)j * T + r], bf16) * eng_attn_op(g[(size_t)j * s.C + d], bf16);
                }
                dq[(size_t)r * ld + d] = scale * aq;
                dk[(size_t)r * ld + d] = scale * ak;
                dv[(size_t)r * ld + d] = av;
            }
    }
}

/* How far bf16-operand attention may lie from exact attention, entry by entry, to first order in
 * u = 2^-8, from the exact fp32 quantities (P as the forward writes it, dS as the backward):
 *   S_ij = scale q_i.k_j:  |dS_ij| <= 2u sigma_i,  sigma_i = max_j scale sum_d |q_id k_jd|
 *   P_ij = exp(S_ij - lse_i): |dP_ij| <= 2 max_j |dS_ij| P_ij = 4u sigma_i P_ij, then u P_ij rounded
 *   O_id:  sum_j P_ij |v_jd| (4u sigma_i + 2u)                       (P and v rounded)
 *   D_i = dO_i.O_i: |dD_i| <= delta_i = sum_d |g_id| times O_id's bound
 *   dV_jd: sum_i P_ij |g_id| (4u sigma_i + 2u)                       (P and dO rounded)
 *   dP_ij = g_i.v_j: |d dP_ij| <= 2u pi_ij, pi_ij = sum_d |g_id v_jd|
 *   dS_ij = P_ij (dP_ij - D_i): e_ij = 4u sigma_i |dS_ij| + P_ij (2u pi_ij + delta_i) + u |dS_ij|
 *   dQ_id: scale sum_j (e_ij + u |dS_ij|) |k_jd|;  dK_jd: scale sum_i (e_ij + u |dS_ij|) |q_id|
 * each times ENG_ATTN_SAFETY. bout [B x T x C], bdqkv [B x T x 3C]; work: 2T doubles. */
static inline double eng_attn_ds_error(double u, double sigma, double delta, double p, double ds, double pi)
{
    return 4 * u * sigma * fabs(ds) + p * (2 * u * pi + delta) + 2 * u * fabs(ds);
}

static inline void eng_attn_bf16_bounds(double *bout, double *bdqkv, double *work, const float *qkv, const float *dout,
                                        const float *P, const float *dS, struct eng_attn_shape s)
{
    int hs = s.C / s.NH, T = s.T;
    size_t ld = 3 * (size_t)s.C;
    double u = ENG_BF16_U, scale = 1.0 / sqrt((double)hs), f = ENG_ATTN_SAFETY, *sigma = work, *delta = work + T;
    for (int bh = 0; bh < s.B * s.NH; bh++) {
        int b = bh / s.NH, h = bh % s.NH;
        size_t at = (size_t)b * T * ld + (size_t)h * hs, ot = (size_t)b * T * s.C + (size_t)h * hs;
        const float *q = qkv + at, *k = q + s.C, *v = q + 2 * s.C, *g = dout + ot;
        const float *p = P + (size_t)bh * T * T, *ds = dS + (size_t)bh * T * T;
        for (int i = 0; i < T; i++) {
            sigma[i] = delta[i] = 0;
            for (int j = 0; j <= i; j++) {
                double a = 0;
                for (int d = 0; d < hs; d++) a += fabs((double)q[(size_t)i * ld + d] * k[(size_t)j * ld + d]);
                if (scale * a > sigma[i]) sigma[i] = scale * a;
            }
            for (int d = 0; d < hs; d++) {
                double bo = 0;
                for (int j = 0; j <= i; j++) bo += p[(size_t)i * T + j] * fabs(v[(size_t)j * ld + d]);
                bo *= f * (4 * u * sigma[i] + 2 * u);
                bout[(size_t)b * T * s.C + (size_t)i * s.C + (size_t)h * hs + d] = bo;
                delta[i] += fabs(g[(size_t)i * s.C + d]) * bo;
            }
        }
        for (int r = 0; r < T; r++)
            for (int d = 0; d < hs; d++) {
                double bv = 0, bq = 0, bk = 0;
                for (int j = 0; j < T; j++) {
                    double pi_rj = 0, pi_jr = 0;
                    for (int e = 0; e < hs; e++) {
                        pi_rj += fabs((double)g[(size_t)r * s.C + e] * v[(size_t)j * ld + e]);
                        pi_jr += fabs((double)g[(size_t)j * s.C + e] * v[(size_t)r * ld + e]);
                    }
                    double prj = p[(size_t)r * T + j], pjr = p[(size_t)j * T + r];
                    double erj = eng_attn_ds_error(u, sigma[r], delta[r], prj, ds[(size_t)r * T + j], pi_rj);
                    double ejr = eng_attn_ds_error(u, sigma[j], delta[j], pjr, ds[(size_t)j * T + r], pi_jr);
                    bv += pjr * fabs(g[(size_t)j * s.C + d]) * (4 * u * sigma[j] + 2 * u);
                    bq += scale * erj * fabs(k[(size_t)j * ld + d]);
                    bk += scale * ejr * fabs(q[(size_t)j * ld + d]);
                }
                bdqkv[at + (size_t)r * ld + d] = f * bq;
                bdqkv[at + (size_t)r * ld + s.C + d] = f * bk;
                bdqkv[at + (size_t)r * ld + 2 * s.C + d] = f * bv;
            }
    }
}

#endif
