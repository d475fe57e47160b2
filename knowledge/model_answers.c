#include "knowledge/model_answers.h"
#include "knowledge/model_config.h"
#include "common/suggest.h"

#include <stdio.h>
#include <string.h>

/* The shape keys and the field of struct model_shape each fills. */
static const struct {
    enum ans_index key;
    size_t offset;
} shape_keys[] = {
    {ANS_HIDDEN, offsetof(struct model_shape, hidden)},
    {ANS_LAYERS, offsetof(struct model_shape, layers)},
    {ANS_HEADS, offsetof(struct model_shape, heads)},
    {ANS_KV_HEADS, offsetof(struct model_shape, kv_heads)},
    {ANS_FFN_HIDDEN, offsetof(struct model_shape, ffn)},
    {ANS_VOCAB, offsetof(struct model_shape, vocab)},
    {ANS_EXPERTS, offsetof(struct model_shape, experts)},
    {ANS_TOP_K, offsetof(struct model_shape, top_k)},
    {ANS_SHARED_EXPERTS, offsetof(struct model_shape, shared_experts)},
    {ANS_EXPERT_FFN_HIDDEN, offsetof(struct model_shape, expert_ffn)},
    {ANS_DENSE_LAYERS, offsetof(struct model_shape, dense_layers)},
    {ANS_MAX_POSITIONS, offsetof(struct model_shape, positions)},
};
enum { NSHAPE_KEYS = sizeof shape_keys / sizeof shape_keys[0] };

static double *field(struct model_shape *s, int i) { return (double *)(void *)((char *)s + shape_keys[i].offset); }

enum shape_arch model_answers_arch(const struct answers *a)
{
    int given = answers_has(a, ANS_ARCH) ? shape_arch_index(answers_str(a, ANS_ARCH)) : -1;
    if (given >= 0) return (enum shape_arch)given;
    if (answers_has(a, ANS_EXPERTS) && answers_num(a, ANS_EXPERTS) > 1) return SHAPE_MOE;
    return answers_has(a, ANS_FFN_HIDDEN) ? SHAPE_LLAMA : SHAPE_GPT3;
}

void model_answers_fill(struct answers *a, const struct model_shape *s)
{
    struct model_shape merged = *s;
    for (int i = 0; i < NSHAPE_KEYS; i++)
        if (answers_has(a, shape_keys[i].key)) *field(&merged, i) = answers_num(a, shape_keys[i].key);
    if (answers_has(a, ANS_ARCH)) merged.arch = model_answers_arch(a);
    for (int i = 0; i < NSHAPE_KEYS; i++)
        if (!answers_has(a, shape_keys[i].key) && *field(&merged, i) > 0) answers_set_num(a, shape_keys[i].key, *field(&merged, i));
    if (!answers_has(a, ANS_ARCH)) answers_set_str(a, ANS_ARCH, shape_arch_name(merged.arch));
    if (!answers_has(a, ANS_MODEL_KIND)) answers_set_str(a, ANS_MODEL_KIND, "llm");
    if (answers_has(a, ANS_MODEL_PARAMS)) return;
    answers_set_num(a, ANS_MODEL_PARAMS, shape_total_params(&merged));
    if (merged.arch == SHAPE_MOE && merged.top_k <= merged.experts && !answers_has(a, ANS_ACTIVE_PARAMS))
        answers_set_num(a, ANS_ACTIVE_PARAMS, shape_active_params(&merged));
}

int model_answers_apply_known(struct answers *a, char *err, size_t errsz)
{
    if (!answers_has(a, ANS_MODEL)) return 0;
    const char *name = answers_str(a, ANS_MODEL);
    int i = model_known_find(name);
    char known[600], near[128] = "", candidate[128];
    if (i < 0) {
        struct suggest sg;
        suggest_init(&sg, name);
        for (size_t k = 0; k < model_known_count(); k++) suggest_offer(&sg, model_known_name(k, candidate, sizeof candidate));
        if (suggest_result(&sg)) snprintf(near, sizeof near, "did you mean '%s'? ", suggest_result(&sg));
        snprintf(err, errsz, "key 'model': unknown model '%s' (%sknown: %s; or recommend --model-config FILE)", name, near,
                 model_known_list(known, sizeof known));
        return -1;
    }
    struct model_shape s;
    if (model_known_shape((size_t)i, &s, err, errsz)) return -1;
    model_answers_fill(a, &s);
    return 0;
}

void model_answers_shape_params(struct answers *a)
{
    if (!a->v[ANS_ARCH].given || answers_has(a, ANS_MODEL_PARAMS) || !answers_has(a, ANS_HIDDEN) || !answers_has(a, ANS_LAYERS) ||
        !answers_has(a, ANS_HEADS))
        return;
    struct model_shape none;
    memset(&none, 0, sizeof none);
    none.arch = model_answers_arch(a);
    model_answers_fill(a, &none);
}

static int has_num(const struct answers *a, enum ans_index i) { return answers_has(a, i) ? 1 : 0; }

int model_answers_check(const struct answers *a, char *err, size_t errsz)
{
    static const enum ans_index moe_only[] = {ANS_TOP_K, ANS_SHARED_EXPERTS, ANS_EXPERT_FFN_HIDDEN, ANS_DENSE_LAYERS};
    double experts = has_num(a, ANS_EXPERTS) ? answers_num(a, ANS_EXPERTS) : 0;
    int arch = has_num(a, ANS_ARCH) ? shape_arch_index(answers_str(a, ANS_ARCH)) : -1;
    for (size_t i = 0; i < sizeof moe_only / sizeof moe_only[0]; i++)
        if (has_num(a, moe_only[i]) && experts <= 1) {
            snprintf(err, errsz, "keys '%s' and 'experts': %s applies only to a mixture of experts (experts above 1)",
                     ans_keys[moe_only[i]].name, ans_keys[moe_only[i]].name);
            return -1;
        }
    if (has_num(a, ANS_TOP_K) && answers_num(a, ANS_TOP_K) > experts)
        snprintf(err, errsz, "keys 'top_k' and 'experts': top_k %g is more than experts %g (each token is routed to "
                 "top_k of the experts)", answers_num(a, ANS_TOP_K), experts);
    else if (has_num(a, ANS_DENSE_LAYERS) && has_num(a, ANS_LAYERS) && answers_num(a, ANS_DENSE_LAYERS) >= answers_num(a, ANS_LAYERS))
        snprintf(err, errsz, "keys 'dense_layers' and 'layers': dense_layers %g leaves none of the %g layers with experts",
                 answers_num(a, ANS_DENSE_LAYERS), answers_num(a, ANS_LAYERS));
    else if (has_num(a, ANS_FFN_HIDDEN) && !has_num(a, ANS_HIDDEN))
        snprintf(err, errsz, "keys 'ffn_hidden' and 'hidden': ffn_hidden is the MLP's width beside a hidden size; set hidden "
                 "(and layers, heads) too");
    else if (arch == SHAPE_MOE && experts <= 1)
        snprintf(err, errsz, "keys 'arch' and 'experts': arch moe needs experts above 1");
    else if (arch >= 0 && arch != SHAPE_MOE && experts > 1)
        snprintf(err, errsz, "keys 'arch' and 'experts': %g experts make a mixture of experts (arch moe), not arch %s",
                 experts, shape_arch_name((enum shape_arch)arch));
    else
        return 0;
    return -1;
}

void model_answers_shape(const struct answers *a, double default_top_k, struct model_shape *out)
{
    memset(out, 0, sizeof *out);
    out->arch = model_answers_arch(a);
    for (int i = 0; i < NSHAPE_KEYS; i++)
        if (answers_has(a, shape_keys[i].key)) *field(out, i) = answers_num(a, shape_keys[i].key);
    if (out->arch != SHAPE_MOE) out->experts = out->top_k = out->shared_experts = out->expert_ffn = out->dense_layers = 0;
    else if (out->top_k <= 0) out->top_k = default_top_k;
}
