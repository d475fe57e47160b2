/* model_shape: a transformer's shape and what follows from it, free of the knowledge base so that
 * tests check it against published parameter counts. Three families:
 *   gpt3   GPT-3 style: multi-head attention (kv_heads sizes only the KV cache), an MLP of two
 *          matrices h -> ffn -> h (ffn 4h);
 *   llama  Llama style: grouped-query attention (kv_heads), a SwiGLU MLP of three matrices
 *          (gate and up h -> ffn, down ffn -> h);
 *   moe    a mixture of experts on the llama layer: each MoE layer has `experts` routed SwiGLU
 *          experts of expert_ffn hidden units, top_k of them per token, plus shared_experts always
 *          active, and a router h -> experts; the first dense_layers layers keep a dense MLP.
 * Counts are parameters; bytes are doubles. */
#ifndef FWADVISOR_MODEL_SHAPE_H
#define FWADVISOR_MODEL_SHAPE_H

#include "knowledge/planner.h"

enum shape_arch { SHAPE_GPT3, SHAPE_LLAMA, SHAPE_MOE, SHAPE_ARCH_COUNT };

struct model_shape {
    enum shape_arch arch;
    double hidden, layers, heads, kv_heads; /* kv_heads 0: heads (multi-head attention) */
    double ffn;                             /* the dense MLP's hidden units; 0: the family's default */
    double vocab;                           /* 0: no embeddings counted */
    int tied;                               /* the output head shares the input embedding */
    double experts, top_k, shared_experts, expert_ffn, dense_layers;
    double positions;                       /* max_position_embeddings, 0 unknown */
};

/* The family's name ("gpt3", "llama", "moe") and its index by name, or -1. */
const char *shape_arch_name(enum shape_arch arch);
int shape_arch_index(const char *name);

/* The dense MLP's hidden units: as set, else gpt3 4h, llama and moe 8h/3 rounded up to a multiple
 * of 256 (Llama 2 7B: 11008, 13B: 13824). */
double shape_ffn(const struct model_shape *s);
/* Key and value heads: kv_heads when set (grouped-query attention), else heads. */
double shape_kv_heads(const struct model_shape *s);
double shape_head_dim(const struct model_shape *s);

/* Linear parameters of one layer's attention: Q and O h x h, K and V h x (kv_heads x head_dim)
 * (gpt3: heads x head_dim). */
double shape_attention_params(const struct model_shape *s);
/* Linear parameters of one layer (dense or MoE); with active set, only the experts a token uses
 * (top_k routed and the shared ones) are counted. */
double shape_layer_params(const struct model_shape *s, int moe_layer, int active);
/* Every layer's linear weights (all experts), without embeddings, head and norms: what QLoRA
 * stores in NF4. */
double shape_linear_params(const struct model_shape *s);
/* Embeddings and output head (vocab x h, twice unless tied) and the norms (two per layer and a
 * final one; gpt3's LayerNorms with their biases): what QLoRA keeps as it is. */
double shape_other_params(const struct model_shape *s);
double shape_total_params(const struct model_shape *s);
/* The parameters one token uses: every weight but the experts it is not routed to. */
double shape_active_params(const struct model_shape *s);
/* Layers with experts (0 for a dense family), and every routed expert's parameters in them: what
 * expert parallelism splits. */
double shape_moe_layers(const struct model_shape *s);
double shape_routed_expert_params(const struct model_shape *s);
/* The largest layer (an MoE layer with all its experts). */
double shape_largest_layer_params(const struct model_shape *s);

/* The matrices LoRA adapts: every linear weight (QLoRA's choice, each expert's too, not the
 * router), the attention's Q, K, V and O, or Q and V alone (the LoRA paper's, PEFT's default for
 * Llama). */
enum shape_lora_targets { SHAPE_LORA_ALL, SHAPE_LORA_ATTENTION, SHAPE_LORA_QV };
/* LoRA adapters of rank r, r x (in + out) per adapted matrix. gpt3 with MHA and ffn 4h, all:
 * 18 r h per layer. */
double shape_lora_params(const struct model_shape *s, double rank, enum shape_lora_targets targets);
/* The frozen base under QLoRA in bytes: the linear weights at nf4_bits bits each (NF4 with
 * double-quantised constants), everything else of `params` in bf16. */
double shape_qlora_base_bytes(const struct model_shape *s, double params, double nf4_bits);
/* KV cache per token: 2 x layers x kv_heads x head_dim x bytes per value. */
double shape_kv_bytes_per_token(const struct model_shape *s, double bytes_per_value);
/* Training FLOPs per token: 6 x active parameters plus attention's 12 L h s (PaLM, appendix B). */
double shape_training_flops_per_token(const struct model_shape *s, double seq);

/* A layer's stored activations (planner.h's struct plan_act_terms), s*b*h units. gpt3: Korthikanti
 * et al.'s 10 replicated (two LayerNorm inputs 4, the QKV and fc1 inputs 2 each, two dropout
 * masks) and 4 + 4g + 4f/h split (Q, K and V with g = kv_heads / heads = 1, the projection's input,
 * GeLU's input and output at f hidden units): 10 and 24 at f = 4h. llama and moe, without dropout:
 * 8 replicated (two RMSNorm inputs, the attention and MLP inputs) and 4 + 4g + 8f/h split (SwiGLU's
 * gate and up outputs, the SiLU output and the product); an MoE layer counts the f of the top_k
 * routed and the shared experts a token passes through. FP8 halves the linear inputs: 2
 * replicated, 1 + f/h split. */
struct plan_act_terms shape_activation_terms(const struct model_shape *s);

/* A shape from a parameter count alone. gpt3: planner.h's plan_llm_shape (12 L h^2, h = r L).
 * llama: the same hidden size, then as many llama layers (MHA, ffn 8h/3) as the parameters less
 * the untied embeddings of `vocab` hold. moe with experts above 1: llama layers whose MLP is
 * `experts` SwiGLU experts of 8h/3 (Mixtral's proportions), h = r L sized for (4 + 8 E) h^2 a
 * layer, then as many such layers as the parameters hold; every layer has experts. Other arch
 * values (moe with one expert) derive gpt3. */
void shape_derive(enum shape_arch arch, double params, double hidden_per_layer, double head_dim, double vocab,
                  double experts, struct model_shape *out);

#endif
