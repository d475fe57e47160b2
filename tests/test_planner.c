/* The planner's formulas against worked numbers from their sources. */
#include <criterion/criterion.h>
#include <math.h>

#include "knowledge/planner.h"

#define GB 1e9

/* ZeRO paper (Rajbhandari et al. 2019), Figure 1 / Table 1: a 7.5B-parameter model on 64 GPUs,
 * mixed-precision Adam (K = 12): baseline 120 GB, P_os 31.4 GB, P_os+g 16.6 GB, P_os+g+p 1.9 GB. */
Test(planner, zero_paper_7_5b_on_64_gpus)
{
    double P = 7.5e9, N = 64;
    cr_expect_float_eq(plan_model_states_bytes(16, 0, P, N) / GB, 120.0, 0.05);
    cr_expect_float_eq(plan_model_states_bytes(4, 12, P, N) / GB, 31.4, 0.05);
    cr_expect_float_eq(plan_model_states_bytes(2, 14, P, N) / GB, 16.6, 0.05);
    cr_expect_float_eq(plan_model_states_bytes(0, 16, P, N) / GB, 1.9, 0.05);
}

/* DeepSpeed's estimators as written in stage_1_and_2.py and stage3.py (buffer factor 1.5). */
Test(planner, deepspeed_estimators)
{
    double P = 1e9, N = 8, LL = 5e7;
    cr_expect_float_eq(plan_ds_zero2_gpu_bytes(P, N), 2e9 + 18e9 / 8, 1);
    cr_expect_float_eq(plan_ds_zero2_offload_cpu_bytes(P, N), 1e9 * 32 * 1.5, 1);      /* max(4N, 16) = 32 */
    cr_expect_float_eq(plan_ds_zero2_offload_cpu_bytes(P, 2), 1e9 * 16 * 1.5, 1);      /* max(8, 16) = 16 */
    cr_expect_float_eq(plan_ds_zero3_gpu_bytes(P, LL, N), 4 * 5e7 + 18e9 / 8, 1);
    cr_expect_float_eq(plan_ds_zero3_offload_opt_gpu_bytes(P, LL, N), 4 * 5e7 + 2e9 / 8, 1);
    cr_expect_float_eq(plan_ds_zero3_offload_opt_cpu_bytes(P, 2), 16e9 * 1.5 / 2, 1);
}

/* Korthikanti et al. (2022), GPT-3 175B layer: s = 2048, h = 12288, a = 96, micro-batch 1.
 * sbh(34 + 5as/h) = 25,165,824 x 114 bytes; with t = 8: sbh(10 + 3 + 10) bytes; with sequence
 * parallelism and selective recomputation 34sbh/8. */
Test(planner, korthikanti_gpt3_layer)
{
    double s = 2048, h = 12288, a = 96, sbh = s * h;
    cr_expect_float_eq(plan_activation_layer_bytes(s, 1, h, a), sbh * 114, 1);
    cr_expect_float_eq(plan_activation_layer_bytes(s, 1, h, a) / GB, 2.869, 0.001);
    cr_expect_float_eq(plan_activation_layer_tp_bytes(s, 1, h, a, 8), sbh * 23, 1);
    cr_expect_float_eq(plan_activation_layer_tp_sp_selective_bytes(s, 1, h, 8), sbh * 34 / 8, 1);
    cr_expect_float_eq(plan_activation_layer_full_recompute_bytes(s, 1, h, 1), 2 * sbh, 1);
}

/* Chinchilla (Hoffmann et al. 2022): 70B parameters on 1.4T tokens; C = 6ND = 5.88e23 FLOPs. */
Test(planner, six_n_d_for_chinchilla)
{
    cr_expect_float_eq(plan_training_flops(70e9, 1.4e12), 5.88e23, 1e18);
    /* 5.88e23 FLOPs on 1024 devices of 312 TFLOP/s at 40% MFU. */
    double hours = plan_hours(5.88e23, 1024, 312, 0.4);
    cr_expect_float_eq(hours, 5.88e23 / (1024 * 312e12 * 0.4) / 3600, 1e-9);
    cr_expect(hours > 1270 && hours < 1290, "%f", hours);
}

Test(planner, llm_shape_like_gpt3)
{
    double h, l, heads;
    plan_llm_shape(175e9, 128, 128, &h, &l, &heads);
    cr_expect_float_eq(h, 12288, 0.5);
    cr_expect(l >= 96 && l <= 97, "layers %g", l);
    cr_expect_float_eq(heads, 96, 0.5);
    plan_llm_shape(6.7e9, 128, 128, &h, &l, &heads);
    cr_expect_float_eq(h, 4096, 0.5, "GPT-3 6.7B has hidden 4096, got %g", h);
    cr_expect(fabs(l - 32) <= 1, "GPT-3 6.7B has 32 layers, got %g", l);
}
