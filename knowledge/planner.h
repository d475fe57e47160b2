/* planner: the memory and time formulas, free of the knowledge base so tests can check them
 * against worked numbers. Bytes and FLOPs are doubles; parameters are counts. */
#ifndef FWADVISOR_PLANNER_H
#define FWADVISOR_PLANNER_H

/* ZeRO paper model states per device: replicated x P + sharded x P / devices (bytes). */
double plan_model_states_bytes(double replicated_bytes_per_param, double sharded_bytes_per_param,
                               double params, double devices);

/* DeepSpeed's estimators (stage_1_and_2.py, stage3.py), additional buffer factor 1.5.
 * largest_layer_params: parameters of the biggest layer; gpus: all GPUs; nodes: machines. */
double plan_ds_zero2_gpu_bytes(double params, double gpus);
double plan_ds_zero2_offload_cpu_bytes(double params, double gpus);
double plan_ds_zero3_gpu_bytes(double params, double largest_layer_params, double gpus);
double plan_ds_zero3_offload_opt_gpu_bytes(double params, double largest_layer_params, double gpus);
double plan_ds_zero3_offload_opt_cpu_bytes(double params, double nodes);

/* Korthikanti et al. (2022), 16-bit activations of one transformer layer in bytes:
 * no parallelism: s*b*h*(34 + 5*a*s/h); tensor parallel t: s*b*h*(10 + 24/t + 5*a*s/(h*t));
 * tensor + sequence parallel with selective recomputation: 34*s*b*h/t. */
double plan_activation_layer_bytes(double seq, double batch, double hidden, double heads);
double plan_activation_layer_tp_bytes(double seq, double batch, double hidden, double heads, double tp);
double plan_activation_layer_tp_sp_selective_bytes(double seq, double batch, double hidden, double tp);
/* Full recomputation (activation checkpointing) keeps only each layer's input: 2*s*b*h/t. */
double plan_activation_layer_full_recompute_bytes(double seq, double batch, double hidden, double tp);

/* GPT-3-like shape from a parameter count: params = 12 * layers * hidden^2 with
 * hidden = hidden_per_layer * layers, hidden rounded to a multiple of head_dim. */
void plan_llm_shape(double params, double hidden_per_layer, double head_dim, double *hidden, double *layers,
                    double *heads);

/* Training compute (Kaplan et al.): 6 * params * tokens FLOPs. */
double plan_training_flops(double params, double tokens);
/* Hours at a fraction mfu of `devices` x peak_tflops. */
double plan_hours(double flops, double devices, double peak_tflops, double mfu);

#endif
