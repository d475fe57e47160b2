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
    /* full recomputation keeps each layer's input, split by tensor parallelism: 2 sbh / 8 =
     * 2 x 25,165,824 / 8 = 6,291,456 bytes */
    cr_expect_float_eq(plan_activation_layer_full_recompute_bytes(s, 1, h, 8), 6291456, 1);
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

/* FlashAttention keeps Korthikanti's sbh terms and drops the 5as^2b score term. GPT-3 175B layer
 * (s 2048, h 12288, a 96), t = 8 with sequence parallelism:
 *   Korthikanti sbh (34 + 5 x 96 x 2048 / 12288) / 8 = 25,165,824 x 114 / 8 = 358,612,992 bytes
 *   FlashAttention 34 sbh / 8 + 4 x 96 x 2048 / 8 (fp32 statistics) = 106,954,752 + 98,304 = 107,053,056
 * a 3.35x difference, the overestimate the plan no longer makes. Without sequence parallelism the
 * layer norms, QKV and fc1 inputs and dropout masks stay whole: sbh (10 + 24/t). */
Test(planner, flash_attention_drops_the_score_term)
{
    double s = 2048, h = 12288, a = 96;
    cr_expect_float_eq(plan_activation_layer_korthikanti_bytes(s, 1, h, a, 8, 1), 358612992.0, 1);
    cr_expect_float_eq(plan_activation_layer_flash_bytes(s, 1, h, a, 8, 1), 107053056.0, 1);
    cr_expect_float_eq(plan_activation_layer_korthikanti_bytes(s, 1, h, a, 8, 0), plan_activation_layer_tp_bytes(s, 1, h, a, 8), 1);
    cr_expect_float_eq(plan_activation_layer_flash_bytes(s, 1, h, a, 8, 0), s * h * (10 + 3) + 4 * 96 * 2048 / 8.0, 1);
    cr_expect_float_eq(plan_activation_layer_selective_bytes(s, 1, h, 8, 1), plan_activation_layer_tp_sp_selective_bytes(s, 1, h, 8), 1);
    cr_expect_float_eq(plan_activation_layer_input_bytes(s, 1, h, 8, 1), 2 * s * h / 8, 1);
    cr_expect_float_eq(plan_activation_layer_input_bytes(s, 1, h, 8, 0), 2 * s * h, 1);
    /* FP8 stores the 14 sbh of linear-layer inputs in one byte: 7 sbh / t saved (sequence
     * parallel), else 2 sbh (QKV and fc1 inputs, whole) + 5 sbh / t. */
    cr_expect_float_eq(plan_activation_layer_fp8_saving_bytes(s, 1, h, 8, 1), 7 * s * h / 8, 1);
    cr_expect_float_eq(plan_activation_layer_fp8_saving_bytes(s, 1, h, 8, 0), 2 * s * h + 5 * s * h / 8, 1);
}

/* Megatron Core's distributed-optimizer table (docs/api-guide/dist_optimizer.md): bytes per
 * parameter with d data-parallel ranks. With d = 8: bf16 6 + 12/8 = 7.5, fp16 4 + 16/8 = 6,
 * fp32 8 + 8/8 = 9; d = 1 gives the non-distributed 18, 20, 16. 70B on t = 8, p = 4, d = 64:
 * (6 + 12/64) x 70e9 / 32 = 13.535 GB, inside the 10.9-26.7 GB the layouts of 2,000 H100s give. */
Test(planner, megatron_distributed_optimizer_table)
{
    double rep, shard;
    plan_distopt_bytes(PLAN_BF16, &rep, &shard);
    cr_expect(rep == 6 && shard == 12);
    plan_distopt_bytes(PLAN_FP16, &rep, &shard);
    cr_expect(rep == 4 && shard == 16);
    plan_distopt_bytes(PLAN_FP32, &rep, &shard);
    cr_expect(rep == 8 && shard == 8);
    cr_expect_float_eq(plan_megatron_states_bytes(PLAN_BF16, 1, 1, 1, 8), 7.5, 1e-12);
    cr_expect_float_eq(plan_megatron_states_bytes(PLAN_FP16, 1, 1, 1, 8), 6, 1e-12);
    cr_expect_float_eq(plan_megatron_states_bytes(PLAN_FP32, 1, 1, 1, 8), 9, 1e-12);
    cr_expect_float_eq(plan_megatron_states_bytes(PLAN_BF16, 1, 1, 1, 1), 18, 1e-12);
    cr_expect_float_eq(plan_megatron_states_bytes(PLAN_FP16, 1, 1, 1, 1), 20, 1e-12);
    cr_expect_float_eq(plan_megatron_states_bytes(PLAN_BF16, 70e9, 8, 4, 64) / GB, 13.53515625, 1e-9);
}

/* Pipeline bubble (p-1)/(v m): p = 16, m = 16 -> 15/16 without interleaving, 15/128 with 8 virtual
 * stages; none without a pipeline. In-flight micro-batches of the first stage: min(p, m), times
 * 1 + (p-1)/(p v) when interleaved. */
Test(planner, pipeline_bubble_and_in_flight_micro_batches)
{
    cr_expect_float_eq(plan_bubble_fraction(16, 16, 1), 15.0 / 16, 1e-12);
    cr_expect_float_eq(plan_bubble_fraction(16, 16, 8), 15.0 / 128, 1e-12);
    cr_expect_float_eq(plan_bubble_fraction(1, 16, 1), 0, 1e-12);
    cr_expect_float_eq(plan_pipeline_inflight(1, 64, 1), 1, 1e-12);
    cr_expect_float_eq(plan_pipeline_inflight(8, 64, 1), 8, 1e-12);
    cr_expect_float_eq(plan_pipeline_inflight(8, 4, 1), 4, 1e-12);
    cr_expect_float_eq(plan_pipeline_inflight(8, 64, 2), 8 * (1 + 7.0 / 16), 1e-12);
}

/* Ring collectives as nccl-tests counts bus bandwidth: all-reduce of 1 GB over 8 ranks at
 * 100 GB/s = 2 x 7/8 x 1e9 / 1e11 = 17.5 ms; all-gather 8.75 ms; one rank moves nothing. */
Test(planner, collective_times)
{
    cr_expect_float_eq(plan_allreduce_seconds(1e9, 8, 100), 0.0175, 1e-12);
    cr_expect_float_eq(plan_allgather_seconds(1e9, 8, 100), 0.00875, 1e-12);
    cr_expect_float_eq(plan_allreduce_seconds(1e9, 1, 100), 0, 1e-12);
}

/* PaLM's appendix: 6N + 12 L H Q T FLOPs per token. Llama 2 7B (L 32, h 4096, T 4096):
 * 12 x 32 x 4096 x 4096 = 6,442,450,944, 16% on top of 6N = 40.44e9. LoRA on all linear layers:
 * 18 r h per layer, r = 16: 37,748,736 for Llama 2 7B. */
Test(planner, attention_flops_and_lora_parameters)
{
    cr_expect_float_eq(plan_attention_flops_per_token(32, 4096, 4096), 6442450944.0, 1);
    cr_expect_float_eq(plan_lora_params(32, 4096, 16), 37748736.0, 1e-6);
    cr_expect_float_eq(plan_linear_params(7e9, 32, 4096), 6442450944.0, 1);
    cr_expect_float_eq(plan_linear_params(1e9, 32, 4096), 1e9, 1, "never more than the model");
}

/* Derived shapes keep heads a multiple of 8 so that 8-way tensor parallelism divides them:
 * 405B -> hidden 16384 (128 heads), 126 layers, like Llama 3 405B. */
Test(planner, derived_shapes_split_over_eight_ranks)
{
    double h, l, heads;
    plan_llm_shape(405e9, 128, 128, &h, &l, &heads);
    cr_expect_float_eq(h, 16384, 0.5);
    cr_expect_float_eq(l, 126, 0.5);
    cr_expect_float_eq(heads, 128, 0.5);
    plan_llm_shape(70e9, 128, 128, &h, &l, &heads);
    cr_expect(fmod(heads, 8) == 0, "heads %g", heads);
}

/* The GPT step on one device from its GEMM rate and bandwidth, for the probe's CPU model (4
 * layers, 4 heads, h 256, T 128, batch 8; N = 3,225,088 without the positions' table) at 50
 * GFLOP/s and 10 GB/s in fp32:
 *   FLOPs 6 N x 1024 + 12 x 4 x 256 x 128 x 1024 = 19,814,940,672 + 1,610,612,736
 *         = 21,425,553,408, at 50 GFLOP/s 0.42851106816 s;
 *   bytes: stored activations 4 x 128 x 8 x 256 x (34 + 5 x 4 x 128 / 256) = 46,137,344 at 16 bits,
 *         92,274,688 in fp32, written and read: 184,549,376, plus AdamW 28 x N = 90,302,464:
 *         274,851,840, at 10 GB/s 0.027485184 s; the step 0.45599625216 s. */
Test(planner, gpt_step_from_gemm_rate_and_bandwidth)
{
    struct plan_gpt_step_in in = {4, 4, 256, 128, 8, 3225088, 4, 50, 10};
    struct plan_gpt_step s;
    cr_assert_eq(plan_gpt_step(&in, &s), 0);
    cr_expect_float_eq(s.flops, 21425553408.0, 1);
    cr_expect_float_eq(s.gemm_s, 0.42851106816, 1e-12);
    cr_expect_float_eq(s.bytes, 274851840.0, 1);
    cr_expect_float_eq(s.memory_s, 0.027485184, 1e-12);
    cr_expect_float_eq(s.step_s, 0.45599625216, 1e-12);
    /* bf16 activations halve their share only: 92,274,688 + 90,302,464 = 182,577,152 bytes */
    in.bytes_per_value = 2;
    cr_assert_eq(plan_gpt_step(&in, &s), 0);
    cr_expect_float_eq(s.bytes, 182577152.0, 1);
    cr_expect_float_eq(s.gemm_s, 0.42851106816, 1e-12, "the products do not depend on the activations' width");
    /* a missing figure gives no plan, and no figure */
    double *fields[] = {&in.layers, &in.heads, &in.hidden, &in.seq, &in.batch, &in.params, &in.bytes_per_value,
                        &in.gemm_gflops, &in.bandwidth_gbs};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        struct plan_gpt_step_in bad = {4, 4, 256, 128, 8, 3225088, 4, 50, 10};
        *(double *)((char *)&bad + ((char *)fields[i] - (char *)&in)) = 0;
        cr_expect_eq(plan_gpt_step(&bad, &s), -1, "field %zu at 0", i);
        cr_expect_float_eq(s.step_s, 0, 0, "field %zu at 0 leaves no step", i);
        *(double *)((char *)&bad + ((char *)fields[i] - (char *)&in)) = NAN;
        cr_expect_eq(plan_gpt_step(&bad, &s), -1, "field %zu NaN", i);
    }
}
