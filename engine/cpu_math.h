/* cpu_math: what the CPU kernels (cpu_backend.c, gpt_cpu.c) share: the multi-versioning
 * attribute and a vectorisable exponential. */
#ifndef FWADVISOR_ENGINE_CPU_MATH_H
#define FWADVISOR_ENGINE_CPU_MATH_H

#include <stdint.h>

/* The hot loops are built for the baseline and for AVX2 and AVX-512, chosen at load time (GCC's
 * function multi-versioning); the Makefile compiles the kernel files with -O3 -fno-math-errno so
 * sqrtf and the loops vectorise. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define HOT __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define HOT
#endif

/* e^x for x <= 0 (softmax after subtracting the row maximum), in a form the compiler vectorises:
 * x = n ln2 + r with |r| <= ln2/2 (ln2 split in two for an exact product), e^r by its Taylor
 * series to r^7 (truncation below 6e-9 relative, under one float ulp), times 2^n built in the
 * exponent bits. Below -87 the result is 0 (float underflow), as expf gives. */
static inline float exp_nonpositive(float x)
{
    const float log2e = 1.44269504088896341f, ln2_hi = 0.693359375f, ln2_lo = -2.12194440e-4f;
    /* NaN compares false: it takes the clamped path, so n is always a small whole number (a NaN
     * converted to int is undefined behaviour), and it comes out again as NaN below. */
    float clamped = x >= -87.0f ? x : -87.0f;
    /* round to nearest by adding and taking away 1.5 * 2^23: exact here (|n| <= 126) */
    float n = (clamped * log2e + 12582912.0f) - 12582912.0f;
    float r = (clamped - n * ln2_hi) - n * ln2_lo;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    union { float f; uint32_t i; } scale = {.i = (uint32_t)((int32_t)n + 127) << 23};
    return x >= -87.0f ? p * scale.f : x < -87.0f ? 0.0f : x;
}

#endif
