#include "knowledge/model_shape.h"
#include "knowledge/planner.h"

#include <math.h>
#include <string.h>

static const char *const arch_names[SHAPE_ARCH_COUNT] = {"gpt3", "llama", "moe"};

const char *shape_arch_name(enum shape_arch arch) { return arch < SHAPE_ARCH_COUNT ? arch_names[arch] : "gpt3"; }

int shape_arch_index(const char *name)
{
    for (int i = 0; name && i < SHAPE_ARCH_COUNT; i++)
        if (strcmp(arch_names[i], name) == 0) return i;
    return -1;
}

double shape_ffn(const struct model_shape *s)
{
    if (s->ffn > 0) return s->ffn;
    if (s->arch == SHAPE_GPT3) return 4 * s->hidden;
    return ceil(8 * s->hidden / 3 / 256) * 256;
}

double shape_kv_heads(const struct model_shape *s)
{
    return s->kv_heads > 0 ? s->kv_heads : s->heads;
}

double shape_head_dim(const struct model_shape *s) { return s->heads > 0 ? s->hidden / s->heads : 0; }

/* The key and value width the parameters count: gpt3 is multi-head attention whatever kv_heads
 * says (kv_heads then sizes only the cache a grouped-query server keeps). */
static double kv_width(const struct model_shape *s)
{
    return (s->arch == SHAPE_GPT3 ? s->heads : shape_kv_heads(s)) * shape_head_dim(s);
}

double shape_attention_params(const struct model_shape *s)
{
    double h = s->hidden, kv = kv_width(s);
    return 2 * h * h + 2 * h * kv;
}

/* Matrices of one MLP of f hidden units: two (gpt3) or three (SwiGLU). */
static double mlp_params(const struct model_shape *s, double f)
{
    return (s->arch == SHAPE_GPT3 ? 2 : 3) * s->hidden * f;
}

static double moe_layers(const struct model_shape *s)
{
    if (s->arch != SHAPE_MOE || s->experts <= 1) return 0;
    double dense = s->dense_layers < s->layers ? s->dense_layers : s->layers;
    return s->layers - (dense > 0 ? dense : 0);
}

static double expert_ffn(const struct model_shape *s) { return s->expert_ffn > 0 ? s->expert_ffn : shape_ffn(s); }

double shape_layer_params(const struct model_shape *s, int moe_layer, int active)
{
    double attention = shape_attention_params(s);
    if (!moe_layer) return attention + mlp_params(s, shape_ffn(s));
    double routed = active ? (s->top_k > 0 ? s->top_k : 1) : s->experts;
    return attention + (routed + s->shared_experts) * mlp_params(s, expert_ffn(s)) + s->hidden * s->experts;
}

static double layers_params(const struct model_shape *s, int active)
{
    double moe = moe_layers(s);
    return (s->layers - moe) * shape_layer_params(s, 0, active) + moe * shape_layer_params(s, 1, active);
}

double shape_linear_params(const struct model_shape *s) { return layers_params(s, 0); }

double shape_other_params(const struct model_shape *s)
{
    double h = s->hidden, norm = s->arch == SHAPE_GPT3 ? 2 * h : h; /* LayerNorm: weight and bias */
    return s->vocab * h * (s->tied ? 1 : 2) + (2 * s->layers + 1) * norm;
}

double shape_total_params(const struct model_shape *s) { return shape_linear_params(s) + shape_other_params(s); }

double shape_active_params(const struct model_shape *s) { return layers_params(s, 1) + shape_other_params(s); }

double shape_moe_layers(const struct model_shape *s) { return moe_layers(s); }

double shape_routed_expert_params(const struct model_shape *s)
{
    return moe_layers(s) * s->experts * mlp_params(s, expert_ffn(s));
}

double shape_largest_layer_params(const struct model_shape *s)
{
    return shape_layer_params(s, moe_layers(s) > 0, 0);
}

double shape_lora_params(const struct model_shape *s, double rank, enum shape_lora_targets targets)
{
    double h = s->hidden, kv = kv_width(s);
    if (targets == SHAPE_LORA_QV) return s->layers * rank * ((h + h) + (h + kv));
    double attention = rank * (2 * (h + h) + 2 * (h + kv));
    if (targets == SHAPE_LORA_ATTENTION) return s->layers * attention;
    /* gpt3: fc1 and fc2, each r (h + f); SwiGLU: gate, up and down, each r (h + f). */
    double per_mlp_f = (s->arch == SHAPE_GPT3 ? 2 : 3) * rank * h;
    double dense = per_mlp_f + (s->arch == SHAPE_GPT3 ? 2 : 3) * rank * shape_ffn(s);
    double expert = per_mlp_f + 3 * rank * expert_ffn(s);
    double moe = moe_layers(s);
    return s->layers * attention + (s->layers - moe) * dense + moe * (s->experts + s->shared_experts) * expert;
}

double shape_qlora_base_bytes(const struct model_shape *s, double params, double nf4_bits)
{
    double linear = shape_linear_params(s);
    if (linear > params) linear = params;
    return linear * nf4_bits / 8 + (params - linear) * 2;
}

double shape_kv_bytes_per_token(const struct model_shape *s, double bytes_per_value)
{
    return plan_kv_cache_bytes(s->layers, shape_kv_heads(s), shape_head_dim(s), 1, bytes_per_value);
}

double shape_training_flops_per_token(const struct model_shape *s, double seq)
{
    return plan_training_flops(shape_active_params(s), 1) + plan_attention_flops_per_token(s->layers, s->hidden, seq);
}

struct plan_act_terms shape_activation_terms(const struct model_shape *s)
{
    if (s->hidden <= 0 || s->heads <= 0) return plan_act_gpt3;
    double h = s->hidden;
    if (s->arch == SHAPE_GPT3) {
        double f = shape_ffn(s);
        return (struct plan_act_terms){10, 8 + 4 * f / h, 2, 1 + f / h};
    }
    double g = shape_kv_heads(s) / s->heads;
    double f = moe_layers(s) > 0 ? ((s->top_k > 0 ? s->top_k : 1) + s->shared_experts) * expert_ffn(s) : shape_ffn(s);
    return (struct plan_act_terms){8, 4 + 4 * g + 8 * f / h, 2, 1 + f / h};
}

void shape_derive(enum shape_arch arch, double params, double hidden_per_layer, double head_dim, double vocab,
                  double experts, struct model_shape *out)
{
    memset(out, 0, sizeof *out);
    double h, l, heads;
    int moe = arch == SHAPE_MOE && experts > 1;
    /* A mixture's layer holds about (4 + 8 E) h^2 (attention and E SwiGLU experts of 8h/3) where a
     * GPT-3 layer holds 12 h^2: the hidden size of h = r L that such layers fill. */
    plan_llm_shape(moe ? params * 12 / (4 + 8 * experts) : params, hidden_per_layer, head_dim, &h, &l, &heads);
    out->arch = moe ? SHAPE_MOE : arch == SHAPE_LLAMA ? SHAPE_LLAMA : SHAPE_GPT3;
    out->hidden = h, out->layers = l, out->heads = heads;
    if (out->arch == SHAPE_GPT3) return;
    out->vocab = vocab;
    out->experts = moe ? experts : 0;
    out->layers = 1;
    double per_layer = shape_layer_params(out, moe, 0) + 2 * h;
    double body = params - 2 * vocab * h - h;
    l = round(body / per_layer);
    out->layers = l < 1 ? 1 : l;
}
