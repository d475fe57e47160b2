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
 * hidden = hidden_per_layer * layers, hidden rounded to a multiple of head_dim (of 8 x head_dim
 * from 8 heads up, so that the heads split over 8 tensor-parallel ranks). */
void plan_llm_shape(double params, double hidden_per_layer, double head_dim, double *hidden, double *layers,
                    double *heads);

/* A layer's stored activations in units of s*b*h bytes (16-bit), apart from the s x s scores:
 * `replicated` over tensor-parallel ranks unless sequence parallel, `split` over them; of them, the
 * inputs of the linear layers that FP8 stores in one byte save fp8_replicated + fp8_split / t.
 * Korthikanti et al.'s GPT-3 layer: 10 and 24, FP8 2 and 5 (model_shape.h has the other families). */
struct plan_act_terms {
    double replicated, split, fp8_replicated, fp8_split;
};
extern const struct plan_act_terms plan_act_gpt3;
/* The terms' bytes of one layer: sp ? (replicated + split) s b h / t : s b h (replicated + split / t). */
double plan_activation_terms_bytes(const struct plan_act_terms *k, double seq, double batch, double hidden, double tp,
                                   int seq_parallel);
/* With FlashAttention (the fp32 softmax statistics added) or with Korthikanti's stored scores. */
double plan_activation_terms_flash_bytes(const struct plan_act_terms *k, double seq, double batch, double hidden,
                                         double heads, double tp, int seq_parallel);
double plan_activation_terms_korthikanti_bytes(const struct plan_act_terms *k, double seq, double batch, double hidden,
                                               double heads, double tp, int seq_parallel);
double plan_activation_terms_fp8_saving_bytes(const struct plan_act_terms *k, double seq, double batch, double hidden,
                                              double tp, int seq_parallel);

/* FlashAttention (Dao et al. 2022) never stores the s x s scores: a layer keeps Korthikanti's
 * sbh terms (34 with sequence parallelism over t, else 10 + 24/t) plus the fp32 softmax statistics,
 * 4 bytes per row and head (4*a*s*b/t). */
double plan_activation_layer_flash_bytes(double seq, double batch, double hidden, double heads, double tp, int seq_parallel);
/* Korthikanti's terms without FlashAttention, with or without sequence parallelism. */
double plan_activation_layer_korthikanti_bytes(double seq, double batch, double hidden, double heads, double tp,
                                               int seq_parallel);
/* Selective recomputation (Korthikanti): the attention scores are recomputed, the rest kept. */
double plan_activation_layer_selective_bytes(double seq, double batch, double hidden, double tp, int seq_parallel);
/* What a layer keeps under full recomputation: its input, 2*s*b*h (/t with sequence parallelism). */
double plan_activation_layer_input_bytes(double seq, double batch, double hidden, double tp, int seq_parallel);
/* FP8 (Transformer Engine) stores the inputs of the four linear layers in one byte instead of two:
 * of Korthikanti's 34 sbh, 14 are such inputs (QKV 2, projection 2, fc1 2, fc2 8); the QKV and fc1
 * inputs are replicated over t unless sequence parallel. Bytes saved per layer. */
double plan_activation_layer_fp8_saving_bytes(double seq, double batch, double hidden, double tp, int seq_parallel);

/* Megatron Core distributed optimizer (docs/api-guide/dist_optimizer.md), bytes per parameter as
 * replicated + sharded / d: bf16 params with fp32 grads 6 + 12/d, fp16 4 + 16/d, fp32 8 + 8/d. */
enum plan_precision { PLAN_BF16, PLAN_FP16, PLAN_FP8, PLAN_FP32 };
void plan_distopt_bytes(enum plan_precision precision, double *replicated, double *sharded);
/* Model states of one device for Megatron with t x p x d: (replicated + sharded/d) * params/(t*p). */
double plan_megatron_states_bytes(enum plan_precision precision, double params, double tp, double pp, double dp);

/* LoRA on every linear layer of a GPT-like block (QKV, projection, fc1 h->4h, fc2 4h->h):
 * r*(h+h) x 4 + r*(h+4h) x 2 = 18*r*h parameters per layer. */
double plan_lora_params(double layers, double hidden, double rank);
/* Linear-layer parameters of a GPT-like model, 12*L*h^2 (capped at the model's size). */
double plan_linear_params(double params, double layers, double hidden);

/* Attention FLOPs per token (PaLM, appendix B): 12 * L * H * Q * T with H*Q = hidden. */
double plan_attention_flops_per_token(double layers, double hidden, double seq);

/* Pipeline bubble (Narayanan et al. 2021): (p-1)/(v*m) of the compute for p stages, m
 * micro-batches, v virtual stages per device (interleaved 1F1B); 0 without a pipeline. */
double plan_bubble_fraction(double pp, double micro_batches, double virtual_stages);
/* Micro-batches whose activations the first stage holds: min(p, m), times (1 + (p-1)/(p*v)) for
 * the interleaved schedule (Korthikanti et al.); 1 without a pipeline. */
double plan_pipeline_inflight(double pp, double micro_batches, double virtual_stages);

/* Collective times in seconds over n ranks at gbs GB/s per rank and direction (ring algorithms,
 * as nccl-tests' bus bandwidth counts them): all-reduce 2(n-1)/n * bytes, all-gather and
 * reduce-scatter (n-1)/n * bytes (bytes = the whole buffer), all-to-all (n-1)/n * bytes. */
double plan_allreduce_seconds(double bytes, double n, double gbs);
double plan_allgather_seconds(double bytes, double n, double gbs);

/* Serving. KV cache of `tokens` tokens (context x sequences): keys and values of every layer,
 * 2 x layers x kv_heads x head_dim x tokens x bytes per value (grouped-query attention stores
 * kv_heads of the heads). */
double plan_kv_cache_bytes(double layers, double kv_heads, double head_dim, double tokens, double bytes_per_value);
/* One decode step is bound by memory bandwidth: every new token reads the weights once and the KV
 * cache of every sequence in the batch. Seconds at gbs GB/s; 0 when gbs is 0. */
double plan_decode_step_seconds(double weight_bytes, double kv_bytes, double gbs);
/* Prefill of one prompt of c tokens: 2 N c for the matrix products (N active parameters) plus
 * causal attention, 4 h t FLOPs per layer at position t (QK^T and AV) summed over t < c:
 * 2 L h c^2. */
double plan_prefill_flops(double active_params, double layers, double hidden, double context);

/* Training compute (Kaplan et al.): 6 * params * tokens FLOPs. */
double plan_training_flops(double params, double tokens);
/* Hours at a fraction mfu of `devices` x peak_tflops. */
double plan_hours(double flops, double devices, double peak_tflops, double mfu);

/* One training step of a GPT on one device, from the device's own GEMM rate and memory bandwidth:
 * the matrix products (6 N per token plus attention's 12 L h s, the FLOPs above) at gemm_gflops,
 * plus the passes over memory that are not products, at bandwidth_gbs: each layer's stored
 * activations (the Korthikanti figure above, scaled from 16 bits to bytes_per_value) written
 * forward and read back, and AdamW's seven fp32 values a parameter (weight, gradient and two
 * moments read; weight and moments written). The two parts add: on one device nothing overlaps a
 * layer's elementwise work with its products. `params` counts what the optimizer updates and the
 * products multiply (positions' table left out, as 6 N leaves it out). */
struct plan_gpt_step_in {
    double layers, heads, hidden, seq, batch, params;
    double bytes_per_value; /* of the stored activations: 4 in fp32, 2 in bf16 */
    double gemm_gflops, bandwidth_gbs;
};
struct plan_gpt_step {
    double flops, gemm_s;   /* the products' FLOPs a step and their seconds */
    double bytes, memory_s; /* the other passes' bytes and their seconds */
    double step_s;          /* gemm_s + memory_s */
};
#define PLAN_ADAMW_BYTES_PER_PARAM 28.0
/* Returns 0, or -1 (out zeroed) when a figure is missing: a size, the GEMM rate or the bandwidth. */
int plan_gpt_step(const struct plan_gpt_step_in *in, struct plan_gpt_step *out);

#endif
