#include "knowledge/planner.h"

#include <math.h>
#include <stddef.h>

double plan_model_states_bytes(double replicated, double sharded, double params, double devices)
{
    return replicated * params + sharded * params / (devices > 0 ? devices : 1);
}

#define DS_BUFFER_FACTOR 1.5

double plan_ds_zero2_gpu_bytes(double params, double gpus) { return 2 * params + 18 * params / gpus; }

double plan_ds_zero2_offload_cpu_bytes(double params, double gpus)
{
    double per = 4 * gpus > 16 ? 4 * gpus : 16;
    return params * per * DS_BUFFER_FACTOR;
}

double plan_ds_zero3_gpu_bytes(double params, double largest_layer_params, double gpus)
{
    return 4 * largest_layer_params + 18 * params / gpus;
}

double plan_ds_zero3_offload_opt_gpu_bytes(double params, double largest_layer_params, double gpus)
{
    return 4 * largest_layer_params + 2 * params / gpus;
}

double plan_ds_zero3_offload_opt_cpu_bytes(double params, double nodes)
{
    return 16 * params * DS_BUFFER_FACTOR / nodes;
}

double plan_activation_layer_bytes(double s, double b, double h, double a)
{
    return s * b * h * (34 + 5 * a * s / h);
}

double plan_activation_layer_tp_bytes(double s, double b, double h, double a, double t)
{
    return s * b * h * (10 + 24 / t + 5 * a * s / (h * t));
}

double plan_activation_layer_tp_sp_selective_bytes(double s, double b, double h, double t)
{
    return 34 * s * b * h / t;
}

void plan_llm_shape(double params, double hidden_per_layer, double head_dim, double *hidden, double *layers,
                    double *heads)
{
    /* params = 12 L h^2 and h = r L  =>  h^3 = 12... solved: h = cbrt(params * r / 12). */
    double h = cbrt(params * hidden_per_layer / 12);
    /* Heads in multiples of 8 once there are 8 of them, so that tensor parallelism within an
     * 8-device node divides them (GPT-3 175B: 96 heads, Llama 3 405B: 128). */
    double step = h >= 8 * head_dim ? 8 * head_dim : head_dim;
    h = round(h / step) * step;
    if (h < head_dim) h = head_dim;
    double l = round(params / (12 * h * h));
    *hidden = h;
    *layers = l < 1 ? 1 : l;
    *heads = h / head_dim;
}

double plan_activation_layer_full_recompute_bytes(double s, double b, double h, double t)
{
    return 2 * s * b * h / t;
}

double plan_training_flops(double params, double tokens) { return 6 * params * tokens; }

double plan_hours(double flops, double devices, double peak_tflops, double mfu)
{
    return flops / (devices * peak_tflops * 1e12 * mfu) / 3600;
}

int plan_gpt_step(const struct plan_gpt_step_in *in, struct plan_gpt_step *out)
{
    *out = (struct plan_gpt_step){0};
    const double need[] = {in->layers, in->heads, in->hidden, in->seq, in->batch, in->params, in->bytes_per_value,
                           in->gemm_gflops, in->bandwidth_gbs};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (!(need[i] > 0) || !isfinite(need[i])) return -1;
    double tokens = in->seq * in->batch;
    out->flops = plan_training_flops(in->params, tokens) +
                 plan_attention_flops_per_token(in->layers, in->hidden, in->seq) * tokens;
    out->gemm_s = out->flops / (in->gemm_gflops * 1e9);
    double stored = in->layers * plan_activation_layer_bytes(in->seq, in->batch, in->hidden, in->heads) *
                    in->bytes_per_value / 2;
    out->bytes = 2 * stored + PLAN_ADAMW_BYTES_PER_PARAM * in->params;
    out->memory_s = out->bytes / (in->bandwidth_gbs * 1e9);
    out->step_s = out->gemm_s + out->memory_s;
    return 0;
}

const struct plan_act_terms plan_act_gpt3 = {10, 24, 2, 5};

double plan_activation_terms_bytes(const struct plan_act_terms *k, double s, double b, double h, double t, int sp)
{
    double sbh = s * b * h;
    return sp ? (k->replicated + k->split) * sbh / t : sbh * (k->replicated + k->split / t);
}

double plan_activation_terms_flash_bytes(const struct plan_act_terms *k, double s, double b, double h, double a, double t,
                                         int sp)
{
    return plan_activation_terms_bytes(k, s, b, h, t, sp) + 4 * a * s * b / t;
}

double plan_activation_terms_korthikanti_bytes(const struct plan_act_terms *k, double s, double b, double h, double a,
                                               double t, int sp)
{
    if (sp) return s * b * h * (k->replicated + k->split + 5 * a * s / h) / t;
    return s * b * h * (k->replicated + k->split / t + 5 * a * s / (h * t));
}

double plan_activation_terms_fp8_saving_bytes(const struct plan_act_terms *k, double s, double b, double h, double t, int sp)
{
    double sbh = s * b * h;
    return sp ? (k->fp8_replicated + k->fp8_split) * sbh / t : k->fp8_replicated * sbh + k->fp8_split * sbh / t;
}

double plan_activation_layer_flash_bytes(double s, double b, double h, double a, double t, int sp)
{
    return plan_activation_terms_flash_bytes(&plan_act_gpt3, s, b, h, a, t, sp);
}

double plan_activation_layer_korthikanti_bytes(double s, double b, double h, double a, double t, int sp)
{
    return plan_activation_terms_korthikanti_bytes(&plan_act_gpt3, s, b, h, a, t, sp);
}

double plan_activation_layer_selective_bytes(double s, double b, double h, double t, int sp)
{
    return plan_activation_terms_bytes(&plan_act_gpt3, s, b, h, t, sp);
}

double plan_activation_layer_input_bytes(double s, double b, double h, double t, int sp)
{
    return sp ? 2 * s * b * h / t : 2 * s * b * h;
}

double plan_activation_layer_fp8_saving_bytes(double s, double b, double h, double t, int sp)
{
    return plan_activation_terms_fp8_saving_bytes(&plan_act_gpt3, s, b, h, t, sp);
}

void plan_distopt_bytes(enum plan_precision precision, double *replicated, double *sharded)
{
    *replicated = 6, *sharded = 12; /* bf16 params with fp32 gradients, and FP8 (bf16 masters) */
    if (precision == PLAN_FP16) *replicated = 4, *sharded = 16;
    else if (precision == PLAN_FP32) *replicated = 8, *sharded = 8;
}

double plan_megatron_states_bytes(enum plan_precision precision, double params, double tp, double pp, double dp)
{
    double rep, shard;
    plan_distopt_bytes(precision, &rep, &shard);
    return (rep + shard / dp) * params / (tp * pp);
}

double plan_lora_params(double layers, double hidden, double rank) { return 18 * rank * hidden * layers; }

double plan_linear_params(double params, double layers, double hidden)
{
    double linear = 12 * layers * hidden * hidden;
    return linear < params ? linear : params;
}

double plan_attention_flops_per_token(double layers, double hidden, double seq) { return 12 * layers * hidden * seq; }

double plan_bubble_fraction(double p, double m, double v)
{
    if (p <= 1 || m <= 0) return 0;
    return (p - 1) / ((v > 1 ? v : 1) * m);
}

double plan_pipeline_inflight(double p, double m, double v)
{
    if (p <= 1) return 1;
    double n = m < p ? m : p;
    if (n < 1) n = 1;
    return v > 1 ? n * (1 + (p - 1) / (p * v)) : n;
}

double plan_allreduce_seconds(double bytes, double n, double gbs)
{
    if (n <= 1 || gbs <= 0) return 0;
    return 2 * (n - 1) / n * bytes / (gbs * 1e9);
}

double plan_allgather_seconds(double bytes, double n, double gbs)
{
    if (n <= 1 || gbs <= 0) return 0;
    return (n - 1) / n * bytes / (gbs * 1e9);
}

double plan_kv_cache_bytes(double layers, double kv_heads, double head_dim, double tokens, double bytes_per_value)
{
    return 2 * layers * kv_heads * head_dim * tokens * bytes_per_value;
}

double plan_decode_step_seconds(double weight_bytes, double kv_bytes, double gbs)
{
    return gbs > 0 ? (weight_bytes + kv_bytes) / (gbs * 1e9) : 0;
}

double plan_prefill_flops(double active_params, double layers, double hidden, double context)
{
    return 2 * active_params * context + 2 * layers * hidden * context * context;
}
