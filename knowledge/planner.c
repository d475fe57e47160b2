#include "knowledge/planner.h"

#include <math.h>

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
    h = round(h / head_dim) * head_dim;
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
