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
 * Plain C (the tests) and CUDA C++ (the plug-in's .cu files) both include this. */
#ifndef FWADVISOR_ENGINE_CUDA_NUMERICS_H
#define FWADVISOR_ENGINE_CUDA_NUMERICS_H

#include <math.h>
#include <stddef.h>

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

#endif
