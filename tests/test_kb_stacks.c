/* Stacks the knowledge base names for 2026: the local LLM runtimes a desktop gets by hardware and
 * operating system (rules rt-local-llm-mac and rt-local-llm-windows), the expert-parallel strategy
 * offered to mixtures of experts only (rule strat-moe-ep-only-moe), and the sources of both. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "knowledge/advisor_kb.h"
#include "tests/support.h"

static struct ts_advisor fx;
static struct adv_result *res;
static char err[1024];

static void setup(void)
{
    cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err);
    res = fx.res;
}

static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(kb_stacks, .init = setup, .fini = teardown);

/* Plans sets and returns the status, err holding the refusal. */
static int plan_status(const char *sets)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(ts_answers_sets(&a, sets, err, sizeof err), 0, "%s: %s", sets, err);
    err[0] = '\0';
    return adv_recommend(fx.akb, &a, NULL, res, err, sizeof err);
}

static void plan(const char *sets) { cr_assert_eq(plan_status(sets), KB_OK, "%s: %s", sets, err); }

/* 1 when id is the chosen strategy or one of the alternatives. */
static int strategy_listed(const char *id)
{
    if (res->strategy && strcmp(res->strategy, id) == 0) return 1;
    for (int i = 0; i < res->nalternatives; i++)
        if (strcmp(res->alternatives[i], id) == 0) return 1;
    return 0;
}

#define LLM_EDGE "model_kind=llm model_params=8B deploy=edge "

/* A Mac: MLX-LM 8 points + converter beats Core ML's 4 + converter and llama.cpp's 6. */
Test(kb_stacks, mac_llm_gets_mlx_lm)
{
    plan(LLM_EDGE "os=macos hardware=apple deploy_hardware=apple");
    cr_expect_str_eq(res->runtime, "mlx-lm");
    cr_expect_eq(res->deploy_fit.runtime_bits, 4, "mlx_lm.convert -q: 4 bits by default");
}

/* A Windows desktop, served on its CPU (auto -> cpu): llama.cpp's 8 points beat LiteRT's 5 and
 * Ollama's 7; on its NVIDIA GPU llama.cpp's 8 beat TensorRT's 6. */
Test(kb_stacks, windows_llm_gets_llama_cpp)
{
    plan(LLM_EDGE "os=windows hardware=nvidia");
    cr_expect_str_eq(res->runtime, "llama-cpp");
    cr_expect_eq(res->deploy_fit.runtime_bits, 4);
    plan(LLM_EDGE "os=windows hardware=nvidia deploy_hardware=nvidia");
    cr_expect_str_eq(res->runtime, "llama-cpp");
}

/* The other side of each condition: Linux keeps the edge CPU runtimes, a vision model on a Mac
 * keeps Core ML (the local LLM runtimes serve language models only). */
Test(kb_stacks, local_llm_runtimes_stay_within_their_conditions)
{
    plan(LLM_EDGE "os=linux hardware=nvidia");
    cr_expect_str_neq(res->runtime, "llama-cpp");
    cr_expect_str_neq(res->runtime, "ollama");
    plan("model_kind=vision model_params=25M deploy=edge os=macos hardware=apple deploy_hardware=apple");
    cr_expect_str_eq(res->runtime, "coreml");
    plan("model_kind=llm model_params=8B deploy=server os=macos hardware=apple deploy_hardware=apple");
    cr_expect_str_neq(res->runtime, "mlx-lm", "MLX-LM is a local runtime, not a server target");
}

/* Mixtral 8x7B (8 experts) on 64 H100 over 8 nodes: ZeRO-3 stays the choice and expert
 * parallelism is among the options (18 bytes x 46.7B / 64 = 13 GB of model states fits 80 GB). */
Test(kb_stacks, moe_answer_lists_expert_parallelism)
{
    plan("model=mixtral-8x7b devices=64 nodes=8 hardware=nvidia");
    cr_expect(strategy_listed("moe-ep"), "chosen %s, %d alternatives", res->strategy, res->nalternatives);
    cr_expect_str_eq(res->strategy, "zero3");
}

/* A dense 70B on the same 64 devices: no experts, so no expert parallelism anywhere. */
Test(kb_stacks, dense_answer_has_no_expert_parallelism)
{
    plan("model_kind=llm model_params=70B devices=64 nodes=8 hardware=nvidia");
    cr_expect_not(strategy_listed("moe-ep"), "chosen %s", res->strategy);
    cr_expect_gt(res->nalternatives, 0);
}

/* Every new row cites a source with a URL. */
Test(kb_stacks, new_rows_cite_sources)
{
    static const char *const sql[] = {
        "SELECT count(*) FROM runtimes r JOIN sources s ON s.id = r.source WHERE r.id IN ('llama-cpp', 'ollama', 'mlx-lm') AND s.url LIKE 'https://%'",
        "SELECT count(*) FROM strategies t JOIN sources s ON s.id = t.source WHERE t.id = 'moe-ep' AND s.url LIKE 'https://github.com/NVIDIA/%'",
        "SELECT count(*) FROM strategy_frameworks WHERE strategy = 'moe-ep' AND framework = 'pytorch' AND hardware = 'nvidia'",
    };
    static const int want[] = {3, 1, 1};
    for (size_t i = 0; i < sizeof sql / sizeof *sql; i++) {
        sqlite3_stmt *st;
        cr_assert_eq(sqlite3_prepare_v2(kb_db(fx.kb.kb), sql[i], -1, &st, NULL), SQLITE_OK);
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
        cr_expect_eq(sqlite3_column_int(st, 0), want[i], "%s", sql[i]);
        sqlite3_finalize(st);
    }
}

static int assumed(const char *text)
{
    for (int i = 0; i < res->nassumptions; i++)
        if (strstr(res->assumptions[i], text)) return 1;
    return 0;
}

#define FP8_H100 "accelerator=h100-sxm model_params=7e9 devices=8 "

/* H100 (compute capability 9.0): Transformer Engine and torchao float8 give PyTorch FP8
 * training; the plan says so and runs at the realised FP8 rate (989.4 x (1 + (1978.9 / 989.4 - 1)
 * x 0.3) = 1286.25 TFLOP/s). */
Test(kb_stacks, fp8_on_h100_with_pytorch_names_its_stack)
{
    cr_assert_eq(plan_status(FP8_H100 "precision=fp8 team=pytorch"), KB_OK, "%s", err);
    cr_expect(assumed("PyTorch has an FP8 training stack on h100-sxm"));
    cr_expect_float_eq(res->in.rate_tflops, 1286.25, 1e-6);
}

/* TensorFlow's own APIs (a recommendation model, where TensorFlow ranks first for its team) have
 * no FP8 training stack on an H100: refused naming precision and the device; bf16 plans. */
Test(kb_stacks, fp8_without_a_stack_is_refused)
{
    cr_expect_eq(plan_status(FP8_H100 "precision=fp8 team=tensorflow model_kind=recsys"), KB_ERR_INPUT);
    cr_expect(strstr(err, "keys 'precision' and 'accelerator': no FP8 training stack for TensorFlow on h100-sxm") != NULL,
              "%s", err);
    cr_expect_eq(plan_status(FP8_H100 "precision=bf16 team=tensorflow model_kind=recsys"), KB_OK, "%s", err);
    cr_expect_str_eq(res->ranking.items[0].id, "tensorflow");
}

/* A100 (Ampere, compute capability 8.0) and TPU v5e (bf16 and int8, no FP8) have no FP8 rate:
 * refused before any stack is asked for. */
Test(kb_stacks, fp8_on_devices_without_fp8)
{
    cr_expect_eq(plan_status("accelerator=a100-sxm4-80gb precision=fp8 model_params=7e9 team=pytorch"), KB_ERR_INPUT);
    cr_expect(strstr(err, "keys 'precision' and 'accelerator': no fp8 matrix rate on a100-sxm4-80gb") != NULL, "%s", err);
    cr_expect_eq(plan_status("accelerator=tpu-v5e precision=fp8 model_params=7e9 team=jax"), KB_ERR_INPUT);
    cr_expect(strstr(err, "no fp8 matrix rate on tpu-v5e") != NULL, "%s", err);
}

static int pitfall(const char *id)
{
    for (int i = 0; i < res->npitfalls; i++)
        if (strcmp(res->pitfalls[i].id, id) == 0) return 1;
    return 0;
}

#define FP8_LLM "precision=fp8 model_kind=llm model_params=7e9 devices=8 "

/* TPU7x (Ironwood): JAX trains in FP8 through MaxText's Qwix recipes, at 2307 x (1 + (4614 / 2307
 * - 1) x 0.3) = 2999.1 TFLOP/s; PyTorch and Keras have no FP8 stack there and are refused. */
Test(kb_stacks, fp8_on_tpu7x_is_jax_only)
{
    cr_assert_eq(plan_status(FP8_LLM "hardware=tpu accelerator=tpu7x team=jax"), KB_OK, "%s", err);
    cr_expect(assumed("JAX has an FP8 training stack on tpu7x"));
    cr_expect_float_eq(res->in.rate_tflops, 2999.1, 1e-6);
    cr_expect_eq(plan_status(FP8_LLM "hardware=tpu accelerator=tpu7x team=pytorch"), KB_ERR_INPUT);
    cr_expect(strstr(err, "no FP8 training stack for PyTorch on tpu7x") != NULL, "%s", err);
    cr_expect_eq(plan_status(FP8_LLM "hardware=tpu accelerator=tpu7x team=pytorch precision=bf16"), KB_OK, "%s", err);
}

/* Trainium3: PyTorch's MXFP8 through TorchAO Neuron, planned at the plain-FP8 (BF16) rate 671, a
 * lower bound the rule says; JAX has no FP8 stack there. Trainium2: a pitfall, not a refusal. */
Test(kb_stacks, fp8_on_trainium)
{
    cr_assert_eq(plan_status(FP8_LLM "hardware=trainium accelerator=trainium3 team=pytorch"), KB_OK, "%s", err);
    cr_expect(assumed("PyTorch has an FP8 training stack on trainium3"));
    cr_expect_float_eq(res->in.rate_tflops, 671, 1e-9);
    cr_expect_eq(plan_status(FP8_LLM "hardware=trainium accelerator=trainium3 team=jax"), KB_ERR_INPUT);
    cr_expect(strstr(err, "no FP8 training stack for JAX on trainium3") != NULL, "%s", err);
    cr_assert_eq(plan_status(FP8_LLM "hardware=trainium accelerator=trainium2 team=pytorch"), KB_OK, "%s", err);
    cr_expect(pitfall("pit-fp8-trainium2"));
    cr_assert_eq(plan_status("precision=bf16 model_kind=llm model_params=7e9 devices=8 hardware=trainium accelerator=trainium2 team=pytorch"),
                 KB_OK, "%s", err);
    cr_expect(!pitfall("pit-fp8-trainium2"), "bf16 meets no FP8 pitfall");
}

/* The pitfalls of the 2026 stacks, each on both sides of its condition. */
Test(kb_stacks, pitfalls_of_the_2026_stacks_hold_only_where_they_apply)
{
    plan(FP8_LLM "hardware=tpu accelerator=tpu-v5p team=jax");
    cr_expect(pitfall("pit-fp8-tpu-no-gain"));
    cr_expect_float_eq(res->in.rate_tflops, 459, 1e-9, "v5p's FP8 peak is its BF16 peak");
    plan(FP8_LLM "hardware=tpu accelerator=tpu7x team=jax");
    cr_expect(!pitfall("pit-fp8-tpu-no-gain"));
    plan(FP8_LLM "accelerator=b200 team=pytorch");
    cr_expect(pitfall("pit-nvfp4-blackwell"));
    plan(FP8_LLM "accelerator=h100-sxm team=pytorch");
    cr_expect(!pitfall("pit-nvfp4-blackwell"), "Hopper has no NVFP4");
    plan(FP8_LLM "hardware=amd accelerator=mi355x team=pytorch");
    cr_expect(pitfall("pit-mxfp4-amd"));
    /* long context: from 32,768 tokens, not at 16,384 */
    plan("model_kind=llm model_params=7e9 devices=8 accelerator=h100-sxm team=pytorch seq_len=32768");
    cr_expect(pitfall("pit-long-context"));
    cr_expect(pitfall("pit-nemo-bridge"), "8 NVIDIA GPUs for a language model");
    plan("model_kind=llm model_params=7e9 devices=8 accelerator=h100-sxm team=pytorch seq_len=16384");
    cr_expect(!pitfall("pit-long-context"));
    plan("model_kind=llm model_params=7e9 devices=4 accelerator=h100-sxm team=pytorch");
    cr_expect(!pitfall("pit-nemo-bridge"), "below 8 devices");
    /* JAX's loader from 8 devices; the quantisers for a served language model */
    plan("model_kind=llm model_params=7e9 devices=8 hardware=tpu accelerator=tpu-v5p team=jax");
    cr_expect(pitfall("pit-jax-data-loading"));
    plan("model_kind=llm model_params=7e9 devices=4 hardware=tpu accelerator=tpu-v5p team=jax");
    cr_expect(!pitfall("pit-jax-data-loading"));
    plan("model_kind=llm model_params=7e9 deploy=server team=pytorch");
    cr_expect(pitfall("pit-autoawq-autogptq"));
    plan("model_kind=llm model_params=7e9 deploy=none team=pytorch");
    cr_expect(!pitfall("pit-autoawq-autogptq"));
}

/* MaxText gives JAX expert parallelism for a mixture of experts, on TPUs and NVIDIA GPUs. */
Test(kb_stacks, jax_moe_gets_maxtext_expert_parallelism)
{
    plan("model_kind=llm model_params=47e9 experts=8 devices=64 nodes=16 hardware=tpu accelerator=tpu-v5p team=jax");
    cr_expect(strategy_listed("moe-ep"), "strategy %s", res->strategy);
}
