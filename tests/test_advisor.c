/* The advisor: the seed articles' Q&A and decision tree as a table, ranking invariants, hardware
 * and OS handling, the plan, determinism and the report's JSON Schema. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/advisor.h"
#include "knowledge/presets.h"
#include "tests/support.h"

static struct ts_advisor fx;
static struct adv_kb *akb;
static struct adv_result *res;
static char err[1024];

static void setup(void)
{
    cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err);
    akb = fx.akb;
    res = fx.res;
}

static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(advisor, .init = setup, .fini = teardown);

/* Answers from a preset name or an inline JSON document, then --set style overrides. */
static void load_answers(struct answers *a, const char *spec)
{
    answers_init(a);
    const char *text = spec;
    if (spec[0] != '{') {
        int i = preset_find(spec);
        cr_assert_geq(i, 0, "no preset %s", spec);
        text = preset_text((size_t)i);
    }
    cr_assert_eq(answers_parse_json(a, text, strlen(text), spec, err, sizeof err), 0, "%s", err);
}

static void recommend(const char *spec, const struct adv_hw *hw)
{
    struct answers a;
    load_answers(&a, spec);
    cr_assert_eq(adv_recommend(akb, &a, hw, res, err, sizeof err), KB_OK, "%s", err);
}

static int in_set(const char *id, const char *set)
{
    char copy[128];
    snprintf(copy, sizeof copy, "%s", set);
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (strcmp(t, id) == 0) return 1;
    return 0;
}

struct seed_case {
    char name[40];
    char answers[400];   /* preset name or inline answers */
    char top[64];        /* accepted top frameworks */
    char strategy[64];   /* accepted strategies ("" = any) */
    char runtime[64];    /* accepted runtimes ("" = any) */
};

static struct seed_case seed_cases[] = {
    /* Seed 002, Q1: first image classifier -> PyTorch + torchvision (Keras on a budget). */
    {"q1_first_image_classifier", "first-image-classifier", "pytorch,keras", "single", "none"},
    /* Q2: 2000 NVIDIA GPUs -> PyTorch with FSDP/DeepSpeed; at that scale 3D parallelism. The
     * model is an LLM served on the same GPUs, with cost first: an LLM server on NVIDIA. */
    {"q2_2000_nvidia_gpus", "nvidia-2000-gpus", "pytorch", "fsdp,fsdp-tp,zero3,megatron", "vllm,tensorrt-llm,sglang"},
    /* Q2, TPU branch: TPU pod -> JAX or TensorFlow; never DeepSpeed or Megatron on TPUs; an
     * LLM served on TPUs -> JetStream or vLLM. */
    {"q2_tpu_pod", "tpu-pod", "jax,tensorflow", "jax-sharding,tf-tpu", "jetstream,vllm"},
    /* Q3: GPT-4-class model -> JAX or PyTorch. */
    {"q3_gpt4_class", "gpt4-class-model", "jax,pytorch", "megatron,zero3,fsdp,jax-sharding", ""},
    /* Q4: Raspberry Pi -> TensorFlow Lite (LiteRT), ONNX Runtime for very light inference; since
     * ExecuTorch 1.0 PyTorch is as strong on an Arm CPU (the team is unknown). */
    {"q4_raspberry_pi", "raspberry-pi", "tensorflow,pytorch", "single", "litert,onnxruntime,executorch"},
    /* Tree 1: academic research -> PyTorch. */
    {"tree_research", "academic-research", "pytorch", "ddp,fsdp", "none"},
    /* Tree 2: mobile deployment -> TensorFlow Lite, now a lean: PyTorch has ExecuTorch 1.0, and
     * the runtime follows the framework (tests/test_scenarios.c checks the pairing). */
    {"tree_mobile", "mobile-app", "tensorflow,pytorch", "single", "litert,executorch"},
    /* Tree 3: functional-programming team -> JAX. */
    {"tree_functional", "functional-team", "jax", "jax-sharding", "none"},
    /* Tree 4: zero-barrier quick validation -> Keras or fastai. */
    {"tree_quick_validation", "quick-validation", "keras,fastai", "single", "none"},
    /* Tree 5: tight budget, free TPU only -> TensorFlow + Colab in 2025; Colab's TPU runtime
     * now ships JAX, so JAX is accepted too. */
    {"tree_free_tpu", "{\"stage\": \"production\", \"hardware\": \"tpu\", \"priority\": \"cost\"}",
     "jax,tensorflow", "", ""},
    /* Seed 001: AMD GPUs -> prefer PyTorch. */
    {"amd_prefers_pytorch", "{\"hardware\": \"amd\", \"stage\": \"production\", \"devices\": 8}", "pytorch", "ddp,fsdp", ""},
    /* Seed 000: choose what the team knows. */
    {"team_knows_tensorflow", "{\"stage\": \"production\", \"team\": [\"tensorflow\"], \"hardware\": \"nvidia\"}",
     "tensorflow", "single", ""},
    /* Apple Silicon: MLX first-class, PyTorch MPS supported. */
    {"apple_silicon", "{\"hardware\": \"apple\", \"stage\": \"prototype\", \"os\": \"macos\"}", "mlx,pytorch", "single", ""},
    /* Ascend: MindSpore first-class. */
    {"ascend", "{\"hardware\": \"ascend\", \"stage\": \"production\", \"devices\": 8}", "mindspore,pytorch", "", ""},
};

ParameterizedTestParameters(advisor, seed_questions_and_tree)
{
    return cr_make_param_array(struct seed_case, seed_cases, sizeof seed_cases / sizeof seed_cases[0]);
}

ParameterizedTest(struct seed_case *c, advisor, seed_questions_and_tree)
{
    recommend(c->answers, NULL);
    const struct adv_framework *top = &res->ranking.items[0];
    cr_expect(in_set(top->id, c->top), "%s: top is %s (%.1f), expected one of %s; second %s (%.1f)", c->name, top->id,
              top->score_tenths / 10.0, c->top, res->ranking.items[1].id, res->ranking.items[1].score_tenths / 10.0);
    if (c->strategy[0])
        cr_expect(in_set(res->strategy, c->strategy), "%s: strategy %s, expected one of %s", c->name, res->strategy,
                  c->strategy);
    if (c->runtime[0])
        cr_expect(in_set(res->runtime, c->runtime), "%s: runtime %s, expected one of %s", c->name, res->runtime,
                  c->runtime);
}

static void check_invariants(const char *spec)
{
    const struct adv_ranking *rk = &res->ranking;
    cr_assert_eq(rk->count, 8, "%s", spec);
    int seen_excluded = 0;
    for (int i = 0; i < rk->count; i++) {
        const struct adv_framework *f = &rk->items[i];
        int sum = 0;
        for (int j = 0; j < f->nreasons; j++) {
            sum += f->reasons[j].delta_tenths;
            cr_expect(f->reasons[j].source != NULL, "%s: %s reason '%s' has no source", spec, f->id, f->reasons[j].label);
        }
        cr_expect_eq(sum, f->score_tenths, "%s: %s reasons add to %d, score %d", spec, f->id, sum, f->score_tenths);
        cr_expect(f->score_tenths >= 0 && f->score_tenths <= 1000, "%s: %s score %d", spec, f->id, f->score_tenths);
        cr_expect_gt(f->nreasons, 0);
        if (f->excluded) seen_excluded = 1;
        else cr_expect_not(seen_excluded, "%s: excluded frameworks must come last", spec);
        if (i > 0 && !f->excluded)
            cr_expect_leq(f->score_tenths, rk->items[i - 1].score_tenths, "%s: ranking not sorted", spec);
    }
}

/* devices=64000: many devices, a whole multiple of every preset's nodes (1, 64, 250, 512); on the
 * presets that answer nodes more a node than it holds, refused, and on the others as many nodes as
 * they need. */
Test(advisor, reasons_add_up_for_every_preset_and_variation)
{
    static const char *const sets[] = {NULL, "stage=learning", "stage=production", "priority=cost", "priority=stability",
                                       "os=windows", "hardware=apple", "hardware=tpu", "deploy=browser", "devices=64000",
                                       "team=pytorch,jax,keras", "functional=true", "higher_order_grad=true"};
    for (size_t p = 0; p < presets_size(); p++) {
        char name[64];
        preset_name(p, name, sizeof name);
        for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
            struct answers a;
            load_answers(&a, name);
            if (sets[s]) cr_assert_eq(answers_set(&a, sets[s], err, sizeof err), 0, "%s", err);
            int status = adv_recommend(akb, &a, NULL, res, err, sizeof err);
            if (status == KB_ERR_INPUT && strstr(err, "keys 'os' and 'hardware'")) continue; /* windows + tpu */
            /* 64000 devices on a preset's 64, 250 or 512 nodes are more than a node holds */
            if (status == KB_ERR_INPUT && strstr(err, "keys 'devices' and 'nodes'")) continue;
            cr_assert_eq(status, KB_OK, "%s + %s: %s", name, sets[s] ? sets[s] : "nothing", err);
            char label[128];
            snprintf(label, sizeof label, "%s + %s", name, sets[s] ? sets[s] : "nothing");
            check_invariants(label);
        }
    }
}

static const struct adv_framework *find(const char *id)
{
    for (int i = 0; i < res->ranking.count; i++)
        if (strcmp(res->ranking.items[i].id, id) == 0) return &res->ranking.items[i];
    cr_assert_fail("%s not ranked", id);
    return NULL;
}

Test(advisor, no_support_excludes_with_a_sourced_reason)
{
    recommend("{\"hardware\": \"apple\", \"os\": \"macos\"}", NULL);
    const struct adv_framework *tf = find("tensorflow");
    cr_expect(tf->excluded, "tensorflow-metal is broken since TF 2.18: no TensorFlow on Apple GPUs");
    cr_expect_eq(tf->score_tenths, 0);
    cr_expect(strstr(tf->reasons[0].label, "no TensorFlow support") != NULL, "%s", tf->reasons[0].label);
    cr_expect_not_null(tf->reasons[0].source);
    cr_expect(res->ranking.items[res->ranking.count - 1].excluded);
    /* jax-metal is dead, but the community jax-mps plug-in is not nothing: community support. */
    const struct adv_framework *jax = find("jax");
    cr_expect_not(jax->excluded);
    int community = 0;
    for (int i = 0; i < jax->nreasons; i++)
        community |= strstr(jax->reasons[i].label, "support: community") && jax->reasons[i].delta_tenths < 0;
    cr_expect(community, "JAX on the Apple GPU costs points as community support");
}

Test(advisor, os_limits_cost_points)
{
    recommend("{\"hardware\": \"nvidia\", \"os\": \"linux\"}", NULL);
    int linux_tf = find("tensorflow")->score_tenths;
    recommend("{\"hardware\": \"nvidia\", \"os\": \"windows\"}", NULL);
    const struct adv_framework *tf = find("tensorflow");
    cr_expect_lt(tf->score_tenths, linux_tf, "TensorFlow GPU on native Windows ended with 2.10");
    int found = 0;
    for (int i = 0; i < tf->nreasons; i++)
        if (strstr(tf->reasons[i].label, "support under windows: supported since 2.11") && tf->reasons[i].delta_tenths < 0 &&
            strstr(tf->reasons[i].detail, "2.10") && strcmp(tf->reasons[i].source, "tf-2.11.1") == 0)
            found = 1;
    cr_expect(found, "the OS limit is a stated, structured reason");
    /* Keras 3 supports Linux and macOS only (WSL2 on Windows): experimental on native Windows,
     * as JAX, which has no native Windows GPU wheels. */
    recommend("{\"hardware\": \"nvidia\", \"os\": \"windows\"}", NULL);
    int keras_windows = find("keras")->score_tenths, jax_windows = find("jax")->score_tenths;
    recommend("{\"hardware\": \"nvidia\", \"os\": \"linux\"}", NULL);
    /* The criteria add up to the same total whichever frameworks form the average (MLX and
     * MindSpore drop out on Windows), up to one rounding of that total. */
    int keras_cost = find("keras")->score_tenths - keras_windows, jax_cost = find("jax")->score_tenths - jax_windows;
    cr_expect(keras_cost >= 119 && keras_cost <= 121, "first-class -> experimental on Windows: 12 points, got %d tenths", keras_cost);
    cr_expect(jax_cost >= 119 && jax_cost <= 121, "first-class -> experimental on Windows: 12 points, got %d tenths", jax_cost);
}

Test(advisor, team_and_weights_move_scores)
{
    recommend("{\"hardware\": \"nvidia\"}", NULL);
    int base = find("tensorflow")->score_tenths;
    recommend("{\"hardware\": \"nvidia\", \"team\": [\"tensorflow\"]}", NULL);
    cr_expect_gt(find("tensorflow")->score_tenths, base);
    /* production weighs deployment and maturity */
    recommend("{\"hardware\": \"nvidia\", \"stage\": \"production\"}", NULL);
    double deploy_w = 0, maturity_w = 0, base_w = 0, w[64];
    cr_assert_leq(adv_kb_criterion_count(akb), 64);
    adv_criterion_weights(akb, &res->answers, w);
    for (int k = 0; k < adv_kb_criterion_count(akb); k++) {
        if (!strcmp(adv_kb_criterion_id(akb, k), "deployment")) deploy_w = w[k];
        if (!strcmp(adv_kb_criterion_id(akb, k), "maturity")) maturity_w = w[k];
        if (!strcmp(adv_kb_criterion_id(akb, k), "single_device_speed")) base_w = w[k];
    }
    cr_expect_gt(deploy_w, base_w);
    cr_expect_gt(maturity_w, base_w);
}

Test(advisor, hardware_auto_uses_detection)
{
    struct adv_hw hw;
    memset(&hw, 0, sizeof hw);
    strcpy(hw.source, "detected");
    strcpy(hw.kind, "nvidia");
    strcpy(hw.name, "NVIDIA A100-SXM4-40GB");
    hw.count = 8;
    recommend("{\"model_kind\": \"llm\", \"model_params\": 1e9}", &hw);
    cr_expect_str_eq(answers_str(&res->answers, ANS_HARDWARE), "nvidia");
    cr_expect_str_eq(res->hardware_source, "detected");
    cr_expect_float_eq(answers_num(&res->answers, ANS_DEVICE_MEMORY_GB), 40, 1e-9, "matched the 40 GB A100");
    cr_expect_float_eq(res->peak_tflops, 312, 1e-9, "dense BF16 of the A100");
    recommend("{}", NULL);
    cr_expect_str_eq(answers_str(&res->answers, ANS_HARDWARE), "cpu");
    /* An explicit answer wins over detection. */
    recommend("{\"hardware\": \"tpu\"}", &hw);
    cr_expect_str_eq(res->hardware_source, "answers");
    cr_expect_str_eq(answers_str(&res->answers, ANS_HARDWARE), "tpu");
}

Test(advisor, memory_plan_follows_the_zero_paper)
{
    /* 7.5B parameters on 64 H100s: DDP would need 120 GB of model states, so a sharded strategy
     * is chosen and the per-device model states match the paper's division. */
    recommend("{\"hardware\": \"nvidia\", \"devices\": 64, \"nodes\": 8, \"model_params\": 7.5e9, \"model_kind\": \"vision\"}",
              NULL);
    cr_expect_str_neq(res->strategy, "ddp");
    cr_expect(res->memory.fits);
    double want = strcmp(res->strategy, "zero1") == 0 ? 31.4 : strcmp(res->strategy, "zero2") == 0 ? 16.6 : 1.875;
    cr_expect_float_eq(res->memory.model_states_gb, want, 0.05, "%s: %.3f GB", res->strategy, res->memory.model_states_gb);
    /* DDP: 120 GB of states + a 30 GB fp32 gradient copy + 1 + 5% x 150 GB = 158.5 GB. */
    int ddp_mentioned = 0;
    for (int i = 0; i < res->nstrategy_reasons; i++)
        if (strstr(res->strategy_reasons[i].label, "ddp would need 158.5 GB")) ddp_mentioned = 1;
    cr_expect(ddp_mentioned, "the plan says why DDP does not fit");
}

Test(advisor, single_device_too_small_offloads)
{
    recommend("{\"hardware\": \"nvidia\", \"devices\": 1, \"model_params\": 2e10, \"model_kind\": \"llm\", \"team\": [\"pytorch\"]}",
              NULL);
    cr_expect_str_eq(res->strategy, "zero3-offload", "16 B/param x 20e9 = 320 GB cannot fit one 80 GB GPU");
    cr_expect_gt(res->memory.cpu_gb, 400, "optimizer state moves to CPU memory (24 B/param)");
}

Test(advisor, time_plan_uses_6nd_and_the_device_efficiency)
{
    /* Chinchilla-size: 70e9 parameters, 1.4e12 tokens: 6ND = 5.88e23 model FLOPs without a shape
     * (vision: no attention term); 1024 H100s at 989.4 TFLOP/s and the Hopper efficiency 0.50. */
    recommend("{\"hardware\": \"nvidia\", \"devices\": 1024, \"nodes\": 128, \"model_kind\": \"vision\", \"model_params\": 7e10,"
              " \"tokens\": 1.4e12, \"price_per_device_hour\": 2}",
              NULL);
    cr_expect_float_eq(res->total_flops, 5.88e23, 1e18);
    cr_expect_float_eq(res->peak_tflops, 989.4, 1e-6, "H100 dense BF16 from the catalog");
    cr_expect_float_eq(res->efficiency, 0.50, 1e-9);
    cr_expect_str_eq(res->efficiency_source, "megatron-core");
    /* Without a shape there is no step to time communication by: compute and lost time only,
     * 0.1 x 1024 / 16384 = 0.625% of the wall time. */
    double compute = 5.88e23 / (1024 * 989.4e12 * 0.5) / 3600;
    cr_expect_float_eq(res->time.compute_hours, compute, 1e-6);
    cr_expect_not(res->time.communication_known);
    cr_expect_float_eq(res->hours, compute / (1 - 0.1 * 1024 / 16384), 1e-6);
    cr_expect_float_eq(res->cost, res->hours * 1024 * 2, 1e-3);
}

Test(advisor, pitfalls_include_the_seed_checklist)
{
    recommend("{\"os\": \"windows\", \"hardware\": \"nvidia\", \"team\": [\"tensorflow\"]}", NULL);
    cr_assert_str_eq(res->ranking.items[0].id, "tensorflow");
    const char *want[] = {"pit-data-loading", "pit-version-pinning", "pit-tf-windows-gpu"};
    for (size_t w = 0; w < 3; w++) {
        int found = 0;
        for (int i = 0; i < res->npitfalls; i++) found |= strcmp(res->pitfalls[i].id, want[w]) == 0;
        cr_expect(found, "pitfall %s missing", want[w]);
    }
}

static char *report_text(void)
{
    cJSON *doc = adv_report_json(akb, res, "2026-11-30T00:00:00Z");
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    return text;
}

Test(advisor, same_answers_same_report)
{
    recommend("nvidia-2000-gpus", NULL);
    char *first = report_text();
    /* Reload everything from the database: nothing may depend on memory layout or order. */
    adv_kb_free(akb);
    cr_assert_eq(adv_kb_load(fx.kb.kb, &akb, err, sizeof err), KB_OK);
    fx.akb = akb;
    memset(res, 0xAB, sizeof *res);
    recommend("nvidia-2000-gpus", NULL);
    char *second = report_text();
    cr_expect_str_eq(first, second);
    free(first);
    free(second);
}

Test(advisor, reports_validate_against_the_schema)
{
    const char *schema = getenv("FWADVISOR_SCHEMA_DIR");
    char schema_path[4200], json_path[4200];
    snprintf(schema_path, sizeof schema_path, "%s/report.schema.json", schema && *schema ? schema : "docs");
    snprintf(json_path, sizeof json_path, "%s/report.json", fx.kb.dir);
    for (size_t p = 0; p < presets_size(); p++) {
        char name[64];
        recommend(preset_name(p, name, sizeof name), NULL);
        char *text = report_text();
        ts_write_str(json_path, text);
        free(text);
        int rc = ts_validate_json(json_path, schema_path, err, sizeof err);
        if (rc < 0) cr_skip_test("python3-jsonschema is not installed (scripts/deps.sh installs it)");
        cr_expect_eq(rc, 0, "%s: %s", name, err);
    }
}

/* `os` defaults to the running system only where that system can drive the hardware: Apple
 * GPUs mean macOS, TPUs Linux; an answered os is never overridden (the answers are refused). */
Test(advisor, default_os_follows_the_hardware)
{
    recommend("{\"hardware\": \"apple\"}", NULL);
    cr_expect_str_eq(answers_str(&res->answers, ANS_OS), "macos");
    cr_expect(strstr(res->hardware_note, "os: macos") != NULL || strcmp(answers_running_os(), "macos") == 0, "%s",
              res->hardware_note);
    recommend("{\"hardware\": \"tpu\"}", NULL);
    cr_expect_str_eq(answers_str(&res->answers, ANS_OS), "linux");
    struct answers a;
    load_answers(&a, "{\"hardware\": \"tpu\", \"os\": \"windows\"}");
    cr_expect_eq(adv_recommend(akb, &a, NULL, res, err, sizeof err), KB_ERR_INPUT);
    cr_expect(strstr(err, "keys 'os' and 'hardware'") != NULL, "%s", err);
}

static int reason_delta(const struct adv_framework *f, const char *prefix)
{
    for (int i = 0; i < f->nreasons; i++)
        if (strncmp(f->reasons[i].label, prefix, strlen(prefix)) == 0) return f->reasons[i].delta_tenths;
    cr_assert_fail("%s has no reason '%s'", f->id, prefix);
    return 0;
}

/* docs/advisor.md's worked example, number by number: W = 3.75 + 3 + 0.5 + 10 = 17.25; JAX's
 * weighted scores sum to 100 (learning curve 10 for a team that knows it), 100 x 60 / 172.5 =
 * 34.8 points, plus 20 + 12 + 6 + 2 from the rules = 74.8; PyTorch's sum to 146.25, 50.9
 * points, -10 + 4 + 3 = 47.9. Debugging for JAX: 60 x 3.75 x (4 - 6.0) / 172.5 = -2.6. */
Test(advisor, worked_example_in_the_docs)
{
    recommend("{\"stage\": \"research\", \"hardware\": \"nvidia\", \"os\": \"linux\", \"team\": [\"jax\"],"
              " \"functional\": true, \"higher_order_grad\": true}",
              NULL);
    double total = 0, w[64];
    cr_assert_leq(adv_kb_criterion_count(akb), 64);
    adv_criterion_weights(akb, &res->answers, w);
    for (int k = 0; k < adv_kb_criterion_count(akb); k++) total += w[k];
    cr_expect_float_eq(total, 17.25, 1e-12);
    const struct adv_framework *jax = find("jax"), *torch = find("pytorch");
    cr_expect_str_eq(res->ranking.items[0].id, "jax");
    cr_expect_eq(jax->score_tenths, 748);
    cr_expect_eq(torch->score_tenths, 479);
    cr_expect_eq(reason_delta(jax, "Baseline"), 358);
    cr_expect_eq(reason_delta(jax, "Debugging experience 4/10 (average 6.0, weight 3.75)"), -26);
    cr_expect_eq(reason_delta(jax, "Learning curve 10/10 for a team that knows it"), 5);
    cr_expect_eq(reason_delta(jax, "Your team knows JAX"), 200);
    cr_expect_eq(reason_delta(jax, "Is the team at home in functional programming?"), 120);
    cr_expect_eq(reason_delta(jax, "Gradients of gradients"), 60);
    cr_expect_eq(reason_delta(torch, "Your team would have to learn PyTorch"), -100);
    cr_expect_eq(reason_delta(torch, "Is the work academic research?"), 40);
    cr_expect_eq(reason_delta(torch, "Gradients of gradients"), 30);
}

static int has_pitfall(const char *id)
{
    for (int i = 0; i < res->npitfalls; i++)
        if (strcmp(res->pitfalls[i].id, id) == 0) return 1;
    return 0;
}

/* Pitfalls concern the choice: the migration warning only when the team must switch, CUDA only
 * on NVIDIA, JAX's asynchronous dispatch only for JAX, export only where a runtime needs one. */
Test(advisor, pitfalls_concern_the_choice)
{
    recommend("{\"stage\": \"research\", \"hardware\": \"nvidia\", \"team\": [\"tensorflow\"], \"devices\": 8,"
              " \"model_kind\": \"llm\", \"model_params\": 7e9}",
              NULL);
    cr_assert_str_eq(res->ranking.items[0].id, "pytorch", "TensorFlow cannot fit 112 GB of replicated states");
    cr_expect(has_pitfall("pit-migration-rollback"));
    cr_expect(has_pitfall("pit-cuda-cudnn"));
    cr_expect_not(has_pitfall("pit-jax-async"));
    recommend("{\"stage\": \"research\", \"hardware\": \"tpu\", \"team\": [\"jax\"], \"devices\": 8, \"nodes\": 2,"
              " \"model_kind\": \"llm\", \"model_params\": 7e9, \"deploy\": \"server\"}",
              NULL);
    cr_assert_str_eq(res->ranking.items[0].id, "jax");
    cr_expect_not(has_pitfall("pit-migration-rollback"), "the team keeps its framework");
    cr_expect_not(has_pitfall("pit-cuda-cudnn"));
    cr_expect_not(has_pitfall("pit-horovod"));
    cr_expect(has_pitfall("pit-jax-async"));
    cr_expect_not(has_pitfall("pit-export-early"), "%s loads the checkpoint: nothing to export", res->runtime);
}

static int index_of(int n, const char *(*name)(const struct adv_kb *, int), const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name(akb, i), id) == 0) return i;
    return -1;
}

/* The Compare tab's cells: hardware fit has no static score, so it is the support matrix's fit
 * on the answered platform (data/kb/20_hardware.sql: PyTorch on NVIDIA 10, JAX on Apple 3,
 * TensorFlow on Apple 1), and "-" (-1) with no platform; every other criterion is the KB's. */
Test(advisor, answer_scores_read_hardware_fit_from_the_platform)
{
    int nf = adv_kb_framework_count(akb), nc = adv_kb_criterion_count(akb);
    int fit = index_of(nc, adv_kb_criterion_id, "hardware_fit");
    int pt = index_of(nf, adv_kb_framework_id, "pytorch"), jax = index_of(nf, adv_kb_framework_id, "jax"),
        tf = index_of(nf, adv_kb_framework_id, "tensorflow");
    cr_assert(fit >= 0 && pt >= 0 && jax >= 0 && tf >= 0);
    cr_expect_eq(adv_kb_score(akb, pt, fit), -1, "no static hardware score");
    cr_expect_eq(adv_answer_score(akb, "nvidia", pt, fit), 10);
    cr_expect_eq(adv_answer_score(akb, "apple", jax, fit), 3);
    cr_expect_eq(adv_answer_score(akb, "apple", tf, fit), 1);
    cr_expect_eq(adv_answer_score(akb, NULL, pt, fit), -1);
    cr_expect_eq(adv_answer_score(akb, "no-such-platform", pt, fit), -1);
    for (int k = 0; k < nc; k++)
        if (k != fit) cr_expect_eq(adv_answer_score(akb, "nvidia", pt, k), adv_kb_score(akb, pt, k), "criterion %d", k);
}

/* Two runtimes for the same target tied on points, one of them in maintenance. Each gets 3 points
 * (30 tenths) for PyTorch's native path and a rule's points; the maintenance one loses 3 points
 * (runtime_maintenance, data/kb/70_method.sql) and its rule gives it 3 more: 50 + 3 = 53 - 3 + 3.
 * Tied at 53 points, the current one comes first whichever id sorts first and in whichever order
 * the document lists the rows; one point more (54) and the maintenance one wins, one less (52)
 * and it loses. */
struct tie_case {
    char maint[16], active[16];
    int reversed;      /* the rows in the document in the other order */
    int maint_points;  /* the rule's points for the maintenance runtime (the current one gets 50) */
    char want[16];
};

static struct tie_case tie_cases[] = {
    {"aa-old", "zz-new", 0, 53, "zz-new"}, {"aa-old", "zz-new", 1, 53, "zz-new"},
    {"zz-old", "aa-new", 0, 53, "aa-new"}, {"zz-old", "aa-new", 1, 53, "aa-new"},
    {"aa-old", "zz-new", 0, 54, "aa-old"}, {"zz-old", "aa-new", 1, 54, "zz-old"},
    {"aa-old", "zz-new", 1, 52, "zz-new"}, {"zz-old", "aa-new", 0, 52, "aa-new"},
};

ParameterizedTestParameters(advisor, a_tie_between_runtimes_goes_to_the_current_one)
{
    return cr_make_param_array(struct tie_case, tie_cases, sizeof tie_cases / sizeof tie_cases[0]);
}

ParameterizedTest(struct tie_case *c, advisor, a_tie_between_runtimes_goes_to_the_current_one)
{
#define RT_ROW(id, status) \
    "{\"id\": \"" id "\", \"name\": \"" id "\", \"targets\": [\"server\"], \"hardware\": [\"nvidia\"], \"status\": \"" status \
    "\", \"summary\": \"s\", \"source\": \"team-notes\", \"as_of\": \"2026-12-02\"}"
#define RF_ROW(id) \
    "{\"runtime\": \"" id "\", \"framework\": \"pytorch\", \"path\": \"native\", \"note\": \"n\", \"source\": \"team-notes\"," \
    " \"as_of\": \"2026-12-02\"}"
    char maint_rt[256], active_rt[256], maint_rf[200], active_rf[200];
    snprintf(maint_rt, sizeof maint_rt, RT_ROW("%s", "maintenance"), c->maint, c->maint);
    snprintf(active_rt, sizeof active_rt, RT_ROW("%s", "current"), c->active, c->active);
    snprintf(maint_rf, sizeof maint_rf, RF_ROW("%s"), c->maint);
    snprintf(active_rf, sizeof active_rf, RF_ROW("%s"), c->active);
    char doc[2048];
    snprintf(doc, sizeof doc,
             "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"team-notes\", \"title\": \"Our notes\", \"url\": \"internal wiki\","
             " \"published\": \"2026-12-02\"}], \"runtimes\": [%s, %s], \"runtime_frameworks\": [%s, %s],"
             " \"rules\": [{\"id\": \"our-servers\", \"kind\": \"rule_of_thumb\", \"title\": \"Our servers\", \"text\": \"t\","
             " \"condition\": {\"deploy\": \"server\"}, \"effect\": {\"runtime\": {\"%s\": 50, \"%s\": %d}},"
             " \"source\": \"team-notes\", \"as_of\": \"2026-12-02\"}]}",
             c->reversed ? active_rt : maint_rt, c->reversed ? maint_rt : active_rt, c->reversed ? active_rf : maint_rf,
             c->reversed ? maint_rf : active_rf, c->active, c->maint, c->maint_points);
    struct kb_import_stats stats;
    cr_assert_eq(kb_import(fx.kb.kb, doc, strlen(doc), "ours.json", &stats, err, sizeof err), KB_OK, "%s", err);
    cr_assert_eq(stats.added, 6, "a source, two runtimes, their two paths and the rule");
    adv_kb_free(fx.akb);
    cr_assert_eq(adv_kb_load(fx.kb.kb, &fx.akb, err, sizeof err), KB_OK, "%s", err);
    akb = fx.akb;
    recommend("{\"hardware\": \"nvidia\", \"team\": [\"pytorch\"], \"deploy\": \"server\", \"deploy_hardware\": \"nvidia\"}", NULL);
    cr_assert_str_eq(res->ranking.items[0].id, "pytorch");
    cr_expect_str_eq(res->runtime, c->want, "%s (maintenance, %d points) against %s (current, 50), rows %s", c->maint,
                     c->maint_points, c->active, c->reversed ? "reversed" : "in order");
    int status_reason = 0;
    for (int i = 0; i < res->nruntime_reasons; i++) status_reason |= strcmp(res->runtime_reasons[i].label, "Status: maintenance") == 0;
    cr_expect_eq(status_reason, strcmp(c->want, c->maint) == 0, "the maintenance status is a reason only when it is chosen");
#undef RT_ROW
#undef RF_ROW
}

/* An exclusion rule holds only where its condition does: an imported rule "no JAX on our
 * servers" (condition deploy: server) excludes JAX for a server and leaves it ranked for a
 * research job without deployment. */
Test(advisor, an_exclusion_rule_excludes_only_where_it_holds)
{
    const char *doc = "{\"schema\": \"fwadvisor.kb/1\", \"sources\": [{\"id\": \"team-notes\", \"title\": \"Our notes\","
                      " \"url\": \"internal wiki\", \"published\": \"2026-12-02\"}], \"rules\": [{\"id\": \"no-jax-servers\","
                      " \"kind\": \"rule_of_thumb\", \"title\": \"No JAX on our servers\", \"text\": \"t\", \"condition\":"
                      " {\"deploy\": \"server\"}, \"effect\": {\"exclude\": [\"jax\"]}, \"source\": \"team-notes\","
                      " \"as_of\": \"2026-12-02\"}]}";
    struct kb_import_stats stats;
    cr_assert_eq(kb_import(fx.kb.kb, doc, strlen(doc), "ours.json", &stats, err, sizeof err), KB_OK, "%s", err);
    adv_kb_free(fx.akb);
    cr_assert_eq(adv_kb_load(fx.kb.kb, &fx.akb, err, sizeof err), KB_OK, "%s", err);
    akb = fx.akb;
    static const struct {
        const char *answers;
        int excluded;
    } cases[] = {{"{\"hardware\": \"nvidia\", \"deploy\": \"server\"}", 1}, {"{\"hardware\": \"nvidia\", \"deploy\": \"none\"}", 0}};
    for (size_t i = 0; i < 2; i++) {
        recommend(cases[i].answers, NULL);
        int found = 0;
        for (int k = 0; k < res->ranking.count; k++)
            if (strcmp(res->ranking.items[k].id, "jax") == 0) {
                found = 1;
                cr_expect_eq(res->ranking.items[k].excluded, cases[i].excluded, "%s", cases[i].answers);
            }
        cr_expect(found, "jax ranked for %s", cases[i].answers);
    }
}

/* Reasons largest first by the points they move, either sign (the command line's order and the
 * Why tab's), ties by label; the reasons themselves untouched. */
Test(advisor, reasons_sort_by_size_either_sign)
{
    struct adv_reason r[4];
    memset(r, 0, sizeof r);
    static const struct { int delta; const char *label; } in[] = {{30, "b"}, {-50, "a"}, {30, "a"}, {-29, "c"}};
    for (int i = 0; i < 4; i++) r[i].delta_tenths = in[i].delta, snprintf(r[i].label, sizeof r[i].label, "%s", in[i].label);
    const struct adv_reason *out[4];
    adv_reasons_by_size(r, 4, out);
    cr_expect_eq(out[0], &r[1], "-5.0 first");
    cr_expect_eq(out[1], &r[2], "+3.0 'a' before +3.0 'b'");
    cr_expect_eq(out[2], &r[0]);
    cr_expect_eq(out[3], &r[3], "-2.9 last");
    cr_expect_eq(r[0].delta_tenths, 30, "the reasons are not moved");
}
