/* Model shapes: parameter counts of published open models from their config.json shapes, QLoRA's
 * frozen base, LoRA adapters and the KV cache from the one shape; config files read and refused;
 * the shape keys of the answers checked on both sides of each boundary. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "knowledge/model_answers.h"
#include "knowledge/model_config.h"
#include "knowledge/model_shape.h"
#include "knowledge/planner.h"

static struct model_shape known(const char *name)
{
    struct model_shape s;
    char err[512];
    int i = model_known_find(name);
    cr_assert_geq(i, 0, "no shipped model %s", name);
    cr_assert_eq(model_known_shape((size_t)i, &s, err, sizeof err), 0, "%s", err);
    return s;
}

#define COUNT_EQ(got, want) cr_expect_float_eq((got), (want), 0.5, "%.0f, want %.0f", (double)(got), (double)(want))

/* Llama 3.1 8B (h 4096, 32 layers, 32 heads, 8 KV heads of 128, SwiGLU 14336, vocab 128256,
 * untied): attention 2 x 4096^2 + 2 x 4096 x 1024 = 41,943,040; MLP 3 x 4096 x 14336 =
 * 176,160,768; per layer 218,103,808, x 32 = 6,979,321,856 linear; embedding and head
 * 2 x 128256 x 4096 = 1,050,673,152; norms (2 x 32 + 1) x 4096 = 266,240.
 * Total 8,030,261,248: the 8.03B Meta publishes. */
Test(model_shape, llama_3_1_8b_has_8_03b_parameters)
{
    struct model_shape s = known("llama-3.1-8b");
    cr_expect_eq(s.arch, SHAPE_LLAMA);
    COUNT_EQ(shape_attention_params(&s), 41943040);
    COUNT_EQ(shape_linear_params(&s), 6979321856.0);
    COUNT_EQ(shape_total_params(&s), 8030261248.0);
    COUNT_EQ(shape_active_params(&s), 8030261248.0); /* dense: every weight is used */
}

/* Llama 3.1 70B (h 8192, 80 layers, 64 heads, 8 KV heads, SwiGLU 28672): attention
 * 2 x 8192^2 + 2 x 8192 x 1024 = 150,994,944; MLP 3 x 8192 x 28672 = 704,643,072; per layer
 * 855,638,016, x 80 = 68,451,041,280; embeddings 2 x 128256 x 8192 = 2,101,346,304; norms
 * 161 x 8192 = 1,318,912. Total 70,553,706,496 (70.6B). */
Test(model_shape, llama_3_1_70b_has_70_6b_parameters)
{
    struct model_shape s = known("llama-3.1-70b");
    COUNT_EQ(shape_linear_params(&s), 68451041280.0);
    COUNT_EQ(shape_other_params(&s), 2101346304.0 + 1318912.0);
    COUNT_EQ(shape_total_params(&s), 70553706496.0);
}

/* Mixtral 8x7B: per layer attention 41,943,040, 8 experts of 3 x 4096 x 14336 = 176,160,768 and a
 * router 4096 x 8 = 32,768: 1,451,261,952, x 32 = 46,440,382,464; embeddings 2 x 32000 x 4096 =
 * 262,144,000 and norms 65 x 4096 = 266,240: total 46,702,792,704 (46.7B). Active: 2 of the 8
 * experts, 41,943,040 + 352,321,536 + 32,768 = 394,297,344 per layer, x 32 = 12,617,515,008,
 * plus 262,410,240: 12,879,925,248 (12.9B). */
Test(model_shape, mixtral_8x7b_total_and_active)
{
    struct model_shape s = known("mixtral-8x7b");
    cr_expect_eq(s.arch, SHAPE_MOE);
    cr_expect_float_eq(s.top_k, 2, 0);
    COUNT_EQ(shape_total_params(&s), 46702792704.0);
    COUNT_EQ(shape_active_params(&s), 12879925248.0);
    /* the largest layer holds all its experts */
    COUNT_EQ(shape_largest_layer_params(&s), 1451261952.0);
}

/* DeepSeek-V3 (h 7168, 61 layers of which the first 3 dense with SwiGLU 18432, then 256 routed
 * experts of 2048 and 1 shared, top-8, vocab 129280). Attention is counted as multi-head,
 * 4 x 7168^2 = 205,520,896 a layer, where its latent attention (MLA) has 187,105,280. Per MoE
 * layer 205,520,896 + 257 x (3 x 7168 x 2048 = 44,040,192) + 7168 x 256 = 11,525,685,248, x 58 =
 * 668,489,744,384; per dense layer 205,520,896 + 3 x 7168 x 18432 = 601,882,624, x 3 =
 * 1,805,647,872; embeddings 2 x 129280 x 7168 = 1,853,358,080 and norms 123 x 7168 = 881,664.
 * Total 672,149,632,000 against the published 671B (+0.17%; MLA would take 61 x 18,415,616 =
 * 1.12B off: 671.03B). Active, 8 routed and the shared expert: (205,520,896 + 9 x 44,040,192 +
 * 1,835,008) x 58 + 1,805,647,872 + 1,854,239,744 = 38,675,510,272 against 37B (+4.5%; 36.6B of
 * it without the output head's 0.9B per DeepSeek's README_WEIGHTS; MLA again 1.12B less). */
Test(model_shape, deepseek_v3_within_the_family_residual)
{
    struct model_shape s = known("deepseek-v3");
    cr_expect_float_eq(s.dense_layers, 3, 0);
    double total = shape_total_params(&s), active = shape_active_params(&s);
    COUNT_EQ(active, 38675510272.0);
    COUNT_EQ(total, 672149632000.0);
    cr_expect_lt(fabs(total / 671e9 - 1), 0.005, "total %.4g within 0.5%% of 671B", total);
    cr_expect_lt(fabs(active / 37e9 - 1), 0.05, "active %.4g within 5%% of 37B", active);
}

/* QLoRA keeps every linear weight in NF4 at 4.127 bits (4 bits plus the double-quantised
 * constants, 8/64 + 32/(64 x 256) = 0.127 bit: Dettmers et al. 2023, arXiv 2305.14314, 3), the
 * rest in bf16. Llama 3.1 70B: 68,451,041,280 x 4.127 / 8 = 35,312,180,920.32 plus
 * 2,102,665,216 x 2 = 4,205,330,432: 39.5175 GB, the 128K vocabulary's embeddings and head
 * being 4.2 GB of it. A Llama 2 70B shape (vocab 32000): 35,312,180,920.32 + 525,606,912 x 2 =
 * 36.3634 GB, the "about 35 GB" a 70B takes in 4 bits. */
Test(model_shape, qlora_base_of_70b)
{
    struct model_shape s = known("llama-3.1-70b");
    cr_expect_float_eq(shape_qlora_base_bytes(&s, shape_total_params(&s), 4.127), 39517511352.32, 1, "%.2f",
                       shape_qlora_base_bytes(&s, shape_total_params(&s), 4.127));
    s.vocab = 32000;
    cr_expect_float_eq(shape_qlora_base_bytes(&s, shape_total_params(&s), 4.127), 36363394744.32, 1, "%.2f",
                       shape_qlora_base_bytes(&s, shape_total_params(&s), 4.127));
    /* params below the linear weights (a wrong answer) cap the NF4 share at params */
    cr_expect_float_eq(shape_qlora_base_bytes(&s, 1e9, 4.127), 1e9 * 4.127 / 8, 1);
}

/* LoRA rank r on every linear weight, r x (in + out) each. GPT-3 style (MHA, 4h MLP): 18 r h per
 * layer, planner.h's plan_lora_params. Llama 3.1 70B at rank 16: Q and O 16 x 16384 each, K and V
 * 16 x (8192 + 1024) each, gate, up and down 16 x (8192 + 28672) each: 2,588,672 per layer,
 * x 80 = 207,093,760. */
Test(model_shape, lora_adapters_by_rank_and_matrices)
{
    struct model_shape g = {.arch = SHAPE_GPT3, .hidden = 4096, .layers = 32, .heads = 32};
    COUNT_EQ(shape_lora_params(&g, 16, SHAPE_LORA_ALL), plan_lora_params(32, 4096, 16));
    COUNT_EQ(shape_linear_params(&g), plan_linear_params(1e12, 32, 4096)); /* 12 L h^2 */
    struct model_shape s = known("llama-3.1-70b");
    COUNT_EQ(shape_lora_params(&s, 16, SHAPE_LORA_ALL), 207093760);
    COUNT_EQ(shape_lora_params(&s, 8, SHAPE_LORA_ALL), 207093760 / 2);
    /* Q, K, V, O: 16 x (2 x 16384 + 2 x 9216) = 819,200 a layer, 65,536,000; Q and V:
     * 16 x (16384 + 9216) = 409,600 a layer, 32,768,000 */
    COUNT_EQ(shape_lora_params(&s, 16, SHAPE_LORA_ATTENTION), 65536000);
    COUNT_EQ(shape_lora_params(&s, 16, SHAPE_LORA_QV), 32768000);
}

/* KV cache of Llama 3.1 70B: 2 (K, V) x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 bytes a
 * token in bf16; with multi-head attention (64 KV heads) eight times that. */
Test(model_shape, kv_cache_per_token_with_gqa)
{
    struct model_shape s = known("llama-3.1-70b");
    COUNT_EQ(shape_kv_bytes_per_token(&s, 2), 327680);
    s.kv_heads = 0;
    COUNT_EQ(shape_kv_bytes_per_token(&s, 2), 8 * 327680);
}

/* Training FLOPs a token: 6 x 8,030,261,248 + 12 x 32 x 4096 x 8192 (PaLM's attention term) =
 * 48,181,567,488 + 12,884,901,888 = 61,066,469,376. */
Test(model_shape, training_flops_per_token)
{
    struct model_shape s = known("llama-3.1-8b");
    COUNT_EQ(shape_training_flops_per_token(&s, 8192), 61066469376.0);
}

/* From a parameter count alone. GPT-3 style as before: 13e9 -> h = cbrt(13e9 x 128 / 12) = 5176,
 * rounded to 5 x 1024 = 5120, layers round(13e9 / (12 x 5120^2)) = round(41.33) = 41. Llama style
 * (the layer count Llama 2 13B has): MHA attention 4 x 5120^2 = 104,857,600, SwiGLU of
 * 8 x 5120 / 3 = 13653.3 rounded up to 13,824 (Llama 2 13B's), 3 x 5120 x 13824 = 212,336,640,
 * norms 10,240: 317,204,480 a layer; (13e9 - 2 x 32000 x 5120 - 5120) / 317,204,480 = 39.95 -> 40. */
Test(model_shape, derived_layers_gpt3_and_llama)
{
    struct model_shape s;
    shape_derive(SHAPE_GPT3, 13e9, 128, 128, 32000, 0, &s);
    cr_expect_float_eq(s.hidden, 5120, 0);
    cr_expect_float_eq(s.layers, 41, 0);
    shape_derive(SHAPE_LLAMA, 13e9, 128, 128, 32000, 0, &s);
    cr_expect_float_eq(s.hidden, 5120, 0);
    cr_expect_float_eq(shape_ffn(&s), 13824, 0);
    cr_expect_float_eq(s.layers, 40, 0);
    cr_expect_float_eq(s.heads, 40, 0);
}

/* A mixture by its size alone, Mixtral 8x7B's 46.7e9 in 8 experts: a layer holds about
 * (4 + 8 x 8) h^2, so h = cbrt(46.7e9 x 12 / 68 x 128 / 12) = 4446, rounded to 4 x 1024 = 4096.
 * A layer: attention 4 x 4096^2 = 67,108,864, 8 SwiGLU experts of 11,008 (8 x 4096 / 3 rounded up
 * to 256) 8 x 3 x 4096 x 11008 = 1,082,130,432, router 4096 x 8 = 32,768, norms 8,192:
 * 1,149,280,256; (46.7e9 - 2 x 32000 x 4096 - 4096) / 1,149,280,256 = 40.4 -> 40 layers (Mixtral's
 * 32 with its 14,336-wide experts). Active: 40 x (67,108,864 + 2 x 135,266,304 + 32,768) +
 * 262,144,000 + 81 x 4096 = 13,769,445,376 of 46,233,358,336 (29.8%; Mixtral's own 12.9 of 46.7 is
 * 27.6%). One expert is no mixture: the GPT-3 shape. */
Test(model_shape, derived_mixture_by_size)
{
    struct model_shape s;
    shape_derive(SHAPE_MOE, 46.7e9, 128, 128, 32000, 8, &s);
    cr_expect_eq(s.arch, SHAPE_MOE);
    cr_expect_float_eq(s.hidden, 4096, 0);
    cr_expect_float_eq(s.layers, 40, 0);
    cr_expect_float_eq(s.experts, 8, 0);
    s.top_k = 2;
    COUNT_EQ(shape_total_params(&s), 46233358336.0);
    COUNT_EQ(shape_active_params(&s), 13769445376.0);
    cr_expect_float_eq(shape_moe_layers(&s), 40, 0);
    shape_derive(SHAPE_MOE, 46.7e9, 128, 128, 32000, 1, &s);
    cr_expect_eq(s.arch, SHAPE_GPT3);
    cr_expect_float_eq(s.layers, round(46.7e9 / (12 * s.hidden * s.hidden)), 0);
    shape_derive(SHAPE_MOE, 46.7e9, 128, 128, 32000, 2, &s);
    cr_expect_eq(s.arch, SHAPE_MOE, "two experts are a mixture");
}

/* Every shipped model parses and names its source on Hugging Face with the date it was read. */
Test(model_shape, shipped_models_parse_with_sources)
{
    cr_assert_geq(model_known_count(), 9);
    for (size_t i = 0; i < model_known_count(); i++) {
        char name[128], source[300], read[32], err[512];
        struct model_shape s;
        model_known_name(i, name, sizeof name);
        cr_expect_eq(model_known_shape(i, &s, err, sizeof err), 0, "%s: %s", name, err);
        model_known_source(i, source, sizeof source);
        cr_expect_eq(strncmp(source, "https://huggingface.co/", 23), 0, "%s: source %s", name, source);
        cr_expect_eq(strlen(model_known_read(i, read, sizeof read)), 10, "%s: date read", name);
        cr_expect_eq(model_known_find(name), (int)i);
    }
    cr_expect_eq(model_known_find("llama-3.1-9b"), -1);
    /* Llama 3.1 405B: 405,853,388,800; Qwen 2.5 72B: 72,705,384,448 (72.7B, QKV biases aside) */
    struct model_shape s = known("llama-3.1-405b");
    COUNT_EQ(shape_total_params(&s), 405853388800.0);
    s = known("qwen2.5-72b");
    COUNT_EQ(shape_total_params(&s), 72705384448.0);
}

static int parse(const char *text, struct model_shape *s, char *err, size_t n)
{
    return model_config_parse(text, strlen(text), "cfg.json", s, err, n);
}

#define BASE "\"hidden_size\": 4096, \"intermediate_size\": 14336, \"num_hidden_layers\": 32, " \
             "\"num_attention_heads\": 32, \"vocab_size\": 32000"

Test(model_shape, config_file_refusals_name_the_field)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"[1, 2]", "cfg.json: not a JSON object"},
        {"{\"hidden_size\": 4096", "cfg.json: not a JSON object"},
        {"{\"intermediate_size\": 14336, \"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"vocab_size\": 3}",
         "field 'hidden_size' is missing"},
        {"{" BASE ", \"num_key_value_heads\": \"8\"}", "field 'num_key_value_heads' must be a whole number"},
        {"{" BASE ", \"num_key_value_heads\": -8}", "field 'num_key_value_heads' must be a whole number"},
        {"{" BASE ", \"num_key_value_heads\": 8.5}", "field 'num_key_value_heads' must be a whole number"},
        {"{" BASE ", \"max_position_embeddings\": 1e12}", "field 'max_position_embeddings' must be a whole number"},
        {"{" BASE ", \"num_key_value_heads\": 6}", "field 'num_key_value_heads' (6) does not divide"},
        {"{" BASE ", \"num_local_experts\": 8}", "field 'num_experts_per_tok' is missing"},
        {"{" BASE ", \"num_local_experts\": 8, \"num_experts_per_tok\": 9}", "field 'num_experts_per_tok' (9) is more"},
        {"{" BASE ", \"tie_word_embeddings\": 1}", "field 'tie_word_embeddings' must be true or false"},
        {"{\"hidden_size\": 4000, \"intermediate_size\": 1, \"num_hidden_layers\": 1, \"num_attention_heads\": 3, "
         "\"vocab_size\": 1}", "field 'num_attention_heads' (3) does not divide hidden_size"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct model_shape s;
        char err[512] = "";
        cr_expect_eq(parse(cases[i].text, &s, err, sizeof err), -1, "accepted %s", cases[i].text);
        cr_expect(strstr(err, cases[i].want) != NULL, "%s: %s", cases[i].text, err);
        cr_expect_eq(strncmp(err, "cfg.json: ", 10), 0, "%s", err);
    }
    /* the other side of each boundary */
    struct model_shape s;
    char err[512];
    cr_expect_eq(parse("{" BASE ", \"num_key_value_heads\": 8, \"num_local_experts\": 8, \"num_experts_per_tok\": 8, "
                       "\"tie_word_embeddings\": true, \"unknown\": \"ignored\"}", &s, err, sizeof err), 0, "%s", err);
    cr_expect_eq(s.arch, SHAPE_MOE);
    cr_expect(s.tied);
    cr_expect_eq(parse("{" BASE ", \"num_local_experts\": 1}", &s, err, sizeof err), 0, "%s", err);
    cr_expect_eq(s.arch, SHAPE_LLAMA, "one expert is a dense model");
}

static void answers_with(struct answers *a, const char *json)
{
    char err[512];
    answers_init(a);
    cr_assert_eq(answers_parse_json(a, json, strlen(json), "answers", err, sizeof err), 0, "%s", err);
}

/* The model key fills what the answers leave out; what they give wins, and the parameters follow
 * from the merged shape: Llama 3.1 8B with vocab 32000 answered has 8,030,261,248 -
 * 2 x 96256 x 4096 = 7,241,732,096 parameters. */
Test(model_shape, model_key_fills_and_answers_win)
{
    struct answers a;
    char err[512];
    answers_with(&a, "{\"model\": \"llama-3.1-8b\", \"vocab\": 32000, \"seq_len\": 4096}");
    cr_assert_eq(model_answers_apply_known(&a, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(answers_str(&a, ANS_ARCH), "llama");
    cr_expect_str_eq(answers_str(&a, ANS_MODEL_KIND), "llm");
    cr_expect_float_eq(answers_num(&a, ANS_KV_HEADS), 8, 0);
    cr_expect_float_eq(answers_num(&a, ANS_FFN_HIDDEN), 14336, 0);
    cr_expect_float_eq(answers_num(&a, ANS_VOCAB), 32000, 0);
    COUNT_EQ(answers_num(&a, ANS_MODEL_PARAMS), 7241732096.0);
    cr_expect(!answers_has(&a, ANS_ACTIVE_PARAMS), "dense: no active_params");
    answers_with(&a, "{\"model\": \"llama-3.1-8b\", \"model_params\": 8e9}");
    cr_assert_eq(model_answers_apply_known(&a, err, sizeof err), 0, "%s", err);
    cr_expect_float_eq(answers_num(&a, ANS_MODEL_PARAMS), 8e9, 0);
    answers_with(&a, "{\"model\": \"llama-3\"}");
    cr_expect_eq(model_answers_apply_known(&a, err, sizeof err), -1);
    cr_expect(strstr(err, "key 'model': unknown model 'llama-3'") && strstr(err, "llama-3.1-70b"), "%s", err);
    answers_with(&a, "{\"model\": \"mixtral-8x7\"}");
    cr_expect_eq(model_answers_apply_known(&a, err, sizeof err), -1);
    cr_expect(strstr(err, "did you mean 'mixtral-8x7b'?") != NULL, "%s", err);
}

Test(model_shape, shape_keys_checked_on_both_sides)
{
    static const struct {
        const char *json, *want; /* want NULL: accepted */
    } cases[] = {
        {"{\"experts\": 8, \"top_k\": 9}", "keys 'top_k' and 'experts': top_k 9 is more than experts 8"},
        {"{\"experts\": 8, \"top_k\": 8}", NULL},
        {"{\"top_k\": 2}", "keys 'top_k' and 'experts': top_k applies only to a mixture of experts"},
        {"{\"experts\": 1, \"shared_experts\": 1}", "keys 'shared_experts' and 'experts'"},
        {"{\"experts\": 2, \"shared_experts\": 1}", NULL},
        {"{\"expert_ffn_hidden\": 2048}", "keys 'expert_ffn_hidden' and 'experts'"},
        {"{\"experts\": 8, \"dense_layers\": 32, \"layers\": 32}", "keys 'dense_layers' and 'layers'"},
        {"{\"experts\": 8, \"dense_layers\": 31, \"layers\": 32}", NULL},
        {"{\"ffn_hidden\": 11008}", "keys 'ffn_hidden' and 'hidden'"},
        {"{\"ffn_hidden\": 11008, \"hidden\": 4096}", NULL},
        {"{\"arch\": \"moe\", \"experts\": 1}", "keys 'arch' and 'experts': arch moe needs experts above 1"},
        {"{\"arch\": \"moe\", \"experts\": 2}", NULL},
        {"{\"arch\": \"llama\", \"experts\": 8}", "keys 'arch' and 'experts': 8 experts make a mixture of experts"},
        {"{\"arch\": \"llama\"}", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct answers a;
        char err[512] = "";
        answers_with(&a, cases[i].json);
        int bad = model_answers_check(&a, err, sizeof err);
        if (!cases[i].want) {
            cr_expect_eq(bad, 0, "%s refused: %s", cases[i].json, err);
            continue;
        }
        cr_expect_eq(bad, -1, "%s accepted", cases[i].json);
        cr_expect(strstr(err, cases[i].want) != NULL, "%s: %s", cases[i].json, err);
    }
}

/* An answered shape with arch and no model_params: the parameters from it (no embeddings without
 * vocab): 32 Llama layers of h 4096 with MHA and ffn 11008: 4 x 4096^2 + 3 x 4096 x 11008 =
 * 202,375,168 a layer, norms 65 x 4096: 6,476,271,616; with vocab 32000 and its 262,144,000
 * embedding and head, 6,738,415,616, Llama 2 7B's 6.74B. */
Test(model_shape, answered_shape_gives_the_parameters)
{
    struct answers a;
    answers_with(&a, "{\"arch\": \"llama\", \"hidden\": 4096, \"layers\": 32, \"heads\": 32, \"ffn_hidden\": 11008}");
    model_answers_shape_params(&a);
    COUNT_EQ(answers_num(&a, ANS_MODEL_PARAMS), 202375168.0 * 32 + 65 * 4096);
    answers_with(&a, "{\"arch\": \"llama\", \"hidden\": 4096, \"layers\": 32, \"heads\": 32, \"ffn_hidden\": 11008,"
                     " \"vocab\": 32000}");
    model_answers_shape_params(&a);
    COUNT_EQ(answers_num(&a, ANS_MODEL_PARAMS), 6738415616.0);
    /* without arch the answers keep today's meaning: no parameters from the shape */
    answers_with(&a, "{\"hidden\": 4096, \"layers\": 32, \"heads\": 32}");
    model_answers_shape_params(&a);
    cr_expect(!answers_has(&a, ANS_MODEL_PARAMS));
}

/* Stored activations per layer in s*b*h units (Korthikanti et al. for GPT-3: 10 replicated, 24
 * split, FP8 saving 2 and 5). Llama 3.1 70B: 8 replicated, 4 + 4 x (8/64) + 8 x 28672/8192 =
 * 4 + 0.5 + 28 = 32.5 split, FP8 1 + 3.5 = 4.5. Mixtral 8x7B, 2 experts of 14336 a token:
 * 4 + 4 x (8/32) + 8 x 28672/4096 = 61. At s 4096, b 1, t 8 with sequence parallelism a 70B layer
 * keeps (8 + 32.5) x 4096 x 8192 / 8 = 169,869,312 bytes. */
Test(model_shape, activation_terms_by_family)
{
    struct model_shape g = {.arch = SHAPE_GPT3, .hidden = 4096, .layers = 32, .heads = 32};
    struct plan_act_terms k = shape_activation_terms(&g);
    cr_expect(k.replicated == 10 && k.split == 24 && k.fp8_replicated == 2 && k.fp8_split == 5, "%g %g %g %g",
              k.replicated, k.split, k.fp8_replicated, k.fp8_split);
    struct model_shape s = known("llama-3.1-70b");
    k = shape_activation_terms(&s);
    cr_expect(k.replicated == 8 && k.split == 32.5 && k.fp8_split == 4.5, "%g %g %g", k.replicated, k.split, k.fp8_split);
    cr_expect_float_eq(plan_activation_terms_bytes(&k, 4096, 1, 8192, 8, 1), 169869312.0, 0.5);
    cr_expect_float_eq(plan_activation_terms_bytes(&k, 4096, 1, 8192, 8, 0), 4096.0 * 8192 * (8 + 32.5 / 8), 0.5);
    s = known("mixtral-8x7b");
    cr_expect_float_eq(shape_activation_terms(&s).split, 61, 1e-12);
}

/* The shape keys' own ranges, on both sides: counts of 1 (of 0 for shared experts and dense
 * layers) and up, whole numbers, arch one of the families, model a name. */
Test(model_shape, shape_key_values_on_both_sides)
{
    static const struct {
        const char *set;
        int ok;
    } cases[] = {
        {"top_k=0", 0}, {"top_k=1", 1}, {"shared_experts=-1", 0}, {"shared_experts=0", 1}, {"dense_layers=1.5", 0},
        {"dense_layers=0", 1}, {"ffn_hidden=0", 0}, {"ffn_hidden=1", 1}, {"vocab=0", 0}, {"vocab=32K", 1},
        {"expert_ffn_hidden=0", 0}, {"expert_ffn_hidden=2048", 1}, {"arch=bert", 0}, {"arch=MoE", 1},
        {"model=Llama 3", 0}, {"model=llama-3.1-8b", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct answers a;
        char err[512] = "";
        answers_init(&a);
        int bad = answers_set(&a, cases[i].set, err, sizeof err);
        char key[32];
        snprintf(key, sizeof key, "key '%.*s'", (int)strcspn(cases[i].set, "="), cases[i].set);
        if (cases[i].ok) cr_expect_eq(bad, 0, "%s: %s", cases[i].set, err);
        else cr_expect(bad != 0 && strstr(err, key), "%s: %s", cases[i].set, err);
    }
}
