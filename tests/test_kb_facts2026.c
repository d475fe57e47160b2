/* The 2026 refresh of wrong facts and seed claims: each corrected fact pinned by its value (level,
 * source, list membership), each seed claim added shown to reach the advice (a reason with its
 * points, or a pitfall for the choice it concerns and not for others), and every hardware answer
 * value backed by a platform row with framework support. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "knowledge/advisor.h"
#include "knowledge/answer_keys.h"
#include "knowledge/kb.h"
#include "tests/support.h"

static struct ts_advisor fx;
static char err[1024];

static void setup(void) { cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err); }
static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(kb_facts2026, .init = setup, .fini = teardown);

static void recommend(const char *sets)
{
    cr_assert_eq(ts_advisor_recommend_sets(&fx, sets, err, sizeof err), KB_OK, "%s: %s", sets, err);
}

static const char *text_of(const char *sql, const char *arg, char *out, size_t n)
{
    const char *t = ts_kb_text(fx.kb.kb, sql, arg, out, n);
    cr_assert(t, "%s", sql);
    return t;
}

static double number_of(const char *sql, const char *arg) { return ts_kb_number(fx.kb.kb, sql, arg); }

static int has_pitfall(const char *id)
{
    for (int i = 0; i < fx.res->npitfalls; i++)
        if (strcmp(fx.res->pitfalls[i].id, id) == 0) return 1;
    return 0;
}

static const struct adv_framework *framework(const char *id)
{
    for (int i = 0; i < fx.res->ranking.count; i++)
        if (strcmp(fx.res->ranking.items[i].id, id) == 0) return &fx.res->ranking.items[i];
    cr_assert_fail("no framework %s in the ranking", id);
    return NULL;
}

/* The points (tenths) of the reason titled label on framework id; -9999 when it has none. */
static int reason_points(const char *id, const char *label)
{
    const struct adv_framework *f = framework(id);
    for (int i = 0; i < f->nreasons; i++)
        if (strcmp(f->reasons[i].label, label) == 0) return f->reasons[i].delta_tenths;
    return -9999;
}

/* 1 when the comma-separated list holds id as one of its members. */
static int listed(const char *list, const char *id)
{
    size_t n = strlen(id);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, id, n) == 0) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

/* MindSpore's own install guide lists the GPU platform: supported on Linux, none on Windows, and
 * the blog that said otherwise is kept only as the superseded view. */
Test(kb_facts2026, mindspore_on_nvidia_follows_its_install_docs)
{
    char t[512];
    static const char *const sql[] = {
        "SELECT level FROM hw_support WHERE framework = 'mindspore' AND hardware = ?1",
        "SELECT json_extract(os_support, '$.windows.level') FROM hw_support WHERE framework = 'mindspore' AND hardware = ?1",
        "SELECT s.url FROM hw_support h JOIN sources s ON s.id = h.source WHERE h.framework = 'mindspore' AND h.hardware = ?1",
        "SELECT also FROM hw_support WHERE framework = 'mindspore' AND hardware = ?1",
        "SELECT as_of FROM hw_support WHERE framework = 'mindspore' AND hardware = ?1"};
    static const char *const want[] = {"supported", "none",
                                       "https://github.com/mindspore-ai/docs/blob/master/install/mindspore_gpu_install_pip_en.md",
                                       "fw-mindspore-gpu", "2026-12-02"};
    for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++)
        cr_expect_str_eq(text_of(sql[i], "nvidia", t, sizeof t), want[i], "%s", sql[i]);
    cr_expect_eq(number_of("SELECT fit FROM hw_support WHERE framework = 'mindspore' AND hardware = ?1", "nvidia"), 3,
                 "CUDA 11 builds only: the fit stays low");
    cr_expect_str_eq(text_of("SELECT published FROM sources WHERE id = ?1", "ms-gpu-install", t, sizeof t), "2025-06-27");
}

/* vLLM's hardware as its installation docs give it: the main row serves Apple Silicon (vLLM-Metal)
 * beside the in-tree platforms; Gaudi and Trainium run through their plug-in rows, which the
 * source now names (vllm-gaudi, vllm-neuron). */
Test(kb_facts2026, vllm_family_covers_the_documented_hardware)
{
    char t[1024];
    static const struct {
        const char *runtime, *hardware;
    } serves[] = {{"vllm", "apple"},        {"vllm", "tpu"},         {"vllm", "ascend"},
                  {"vllm", "intel"},        {"vllm", "cpu"},         {"vllm-gaudi", "gaudi"},
                  {"vllm-neuron", "trainium"}};
    for (size_t i = 0; i < sizeof serves / sizeof serves[0]; i++)
        cr_expect(listed(text_of("SELECT hardware FROM runtimes WHERE id = ?1", serves[i].runtime, t, sizeof t),
                         serves[i].hardware),
                  "%s should serve %s: %s", serves[i].runtime, serves[i].hardware, t);
    cr_expect_not(listed(text_of("SELECT hardware FROM runtimes WHERE id = ?1", "vllm", t, sizeof t), "gaudi"),
                  "Gaudi is the plug-in row's, not the main row's");
    text_of("SELECT note FROM sources WHERE id = ?1", "vllm-install", t, sizeof t);
    cr_expect(strstr(t, "vllm-project/vllm-neuron") != NULL, "%s", t);
    cr_expect(strstr(t, "not confirmed") == NULL, "%s", t);
}

/* The plug-in rows win on their platforms: a Gaudi LLM server gets vllm-gaudi, a Trainium one vLLM
 * Neuron, an Apple Silicon one stays off the Gaudi row. */
Test(kb_facts2026, vllm_plugins_serve_their_platforms)
{
    recommend("hardware=gaudi deploy_hardware=gaudi team=pytorch model_kind=llm model_params=7e9 deploy=server");
    cr_expect_str_eq(fx.res->runtime, "vllm-gaudi");
    recommend("hardware=trainium deploy_hardware=trainium team=pytorch model_kind=llm model_params=7e9 deploy=server");
    cr_expect_str_eq(fx.res->runtime, "vllm-neuron");
}

/* Seed 002's FairScale is superseded in the 4-16 device rule, which cites why; its preferences
 * are unchanged. */
Test(kb_facts2026, fairscale_is_superseded)
{
    char t[1024];
    cr_expect_str_eq(text_of("SELECT also FROM rules WHERE id = ?1", "rt-4-16-ddp", t, sizeof t), "fairscale-1133");
    cr_expect_str_eq(text_of("SELECT source FROM rules WHERE id = ?1", "rt-4-16-ddp", t, sizeof t), "seed-002");
    text_of("SELECT text FROM rules WHERE id = ?1", "rt-4-16-ddp", t, sizeof t);
    cr_expect(strstr(t, "superseded: FairScale") != NULL, "%s", t);
    cr_expect_eq(number_of("SELECT json_extract(effect, '$.strategy.ddp') FROM rules WHERE id = ?1", "rt-4-16-ddp"), 5);
    cr_expect_eq(number_of("SELECT json_extract(effect, '$.strategy.fsdp') FROM rules WHERE id = ?1", "rt-4-16-ddp"), 2);
    cr_expect_str_eq(text_of("SELECT url FROM sources WHERE id = ?1", "fairscale-1133", t, sizeof t),
                     "https://github.com/facebookresearch/fairscale/issues/1133");
}

/* Seed 000's jax.tree_map: a JAX plan warns that the name is gone (JAX 0.6.0), citing the change
 * log; a PyTorch plan does not. */
Test(kb_facts2026, jax_tree_map_is_superseded)
{
    char t[256];
    recommend("team=jax functional=true hardware=tpu");
    cr_assert_str_eq(fx.res->ranking.items[0].id, "jax");
    cr_expect(has_pitfall("pit-jax-tree-map"));
    cr_expect_str_eq(text_of("SELECT also FROM rules WHERE id = ?1", "pit-jax-tree-map", t, sizeof t), "jax-0.6-tree-map");
    cr_expect_str_eq(text_of("SELECT url FROM sources WHERE id = ?1", "jax-0.6-tree-map", t, sizeof t),
                     "https://docs.jax.dev/en/latest/changelog.html");
    recommend("team=pytorch hardware=nvidia");
    cr_assert_str_eq(fx.res->ranking.items[0].id, "pytorch");
    cr_expect_not(has_pitfall("pit-jax-tree-map"));
}

/* Seed 002's DirectML trend: a Windows deployment through ONNX Runtime is told DirectML is in
 * sustained engineering; one with no deployment is not. */
Test(kb_facts2026, directml_trend_is_superseded)
{
    char t[64];
    recommend("os=windows hardware=nvidia team=pytorch deploy=browser");
    cr_assert_str_eq(fx.res->runtime, "onnxruntime");
    cr_expect(has_pitfall("pit-directml-trend"));
    cr_expect_str_eq(text_of("SELECT also FROM rules WHERE id = ?1", "pit-directml-trend", t, sizeof t), "directml-sustained");
    recommend("os=windows hardware=nvidia team=pytorch deploy=none");
    cr_expect_not(has_pitfall("pit-directml-trend"));
}

/* Seed 001's warning about work that silently runs on the CPU concerns every accelerator, not
 * Apple's MPS only; on the CPU itself there is nothing to fall back from. */
Test(kb_facts2026, cpu_fallback_warning_covers_every_accelerator)
{
    static const char *const accelerated[] = {"nvidia", "amd", "tpu", "apple", "intel", "ascend", "trainium", "gaudi", NULL};
    char sets[96], t[64];
    for (const char *const *h = accelerated; *h; h++) {
        snprintf(sets, sizeof sets, "hardware=%s", *h);
        recommend(sets);
        cr_expect(has_pitfall("pit-cpu-fallback"), "%s", *h);
    }
    recommend("hardware=cpu");
    cr_expect_not(has_pitfall("pit-cpu-fallback"));
    cr_expect_str_eq(text_of("SELECT source FROM rules WHERE id = ?1", "pit-cpu-fallback", t, sizeof t), "seed-001");
    cr_expect_str_eq(text_of("SELECT also FROM rules WHERE id = ?1", "pit-mps-fallback", t, sizeof t), "",
                     "the Mac's pitfall no longer carries seed 001's general warning");
}

/* Seed 000: PyTorch's compile overhead and memory management, as pitfalls of a PyTorch plan on
 * NVIDIA, and of no TensorFlow plan. */
Test(kb_facts2026, pytorch_compile_and_memory_pitfalls)
{
    recommend("team=pytorch hardware=nvidia");
    cr_assert_str_eq(fx.res->ranking.items[0].id, "pytorch");
    cr_expect(has_pitfall("pit-torch-compile-time"));
    cr_expect(has_pitfall("pit-torch-memory"));
    recommend("team=pytorch hardware=amd");
    cr_expect(has_pitfall("pit-torch-compile-time"));
    cr_expect_not(has_pitfall("pit-torch-memory"), "nvidia-smi's reading is NVIDIA's");
    recommend("team=tensorflow hardware=nvidia stage=production");
    cr_assert_str_eq(fx.res->ranking.items[0].id, "tensorflow");
    cr_expect_not(has_pitfall("pit-torch-compile-time"));
    cr_expect_not(has_pitfall("pit-torch-memory"));
}

/* Seeds 000 and 001: TensorFlow's API churn is a pitfall of a TensorFlow plan, citing TF 2.16's
 * switch to Keras 3. */
Test(kb_facts2026, tensorflow_api_churn_pitfall)
{
    char t[128];
    recommend("team=tensorflow hardware=nvidia stage=production");
    cr_assert_str_eq(fx.res->ranking.items[0].id, "tensorflow");
    cr_expect(has_pitfall("pit-tf-api-churn"));
    cr_expect_str_eq(text_of("SELECT also FROM rules WHERE id = ?1", "pit-tf-api-churn", t, sizeof t),
                     "seed-001,tf-2.16-keras3");
    recommend("team=pytorch hardware=nvidia");
    cr_expect_not(has_pitfall("pit-tf-api-churn"));
}

/* Seed 001: Keras's limits for low-level work cost it 3 points where gradients of gradients are
 * needed, and only there. */
Test(kb_facts2026, keras_low_level_limits_cost_points)
{
    recommend("stage=research team=keras hardware=nvidia higher_order_grad=true");
    cr_expect_eq(reason_points("keras", "Low-level work in Keras"), -30);
    recommend("stage=research team=keras hardware=nvidia");
    cr_expect_eq(reason_points("keras", "Low-level work in Keras"), -9999);
}

/* Seed 001: custom gradients in TensorFlow take longer; a research plan on TensorFlow says so, a
 * production one does not. */
Test(kb_facts2026, custom_gradient_pitfall_for_tensorflow_research)
{
    recommend("stage=research team=tensorflow hardware=nvidia");
    cr_assert_str_eq(fx.res->ranking.items[0].id, "tensorflow");
    cr_expect(has_pitfall("pit-custom-gradient"));
    recommend("stage=production team=tensorflow hardware=nvidia");
    cr_expect_not(has_pitfall("pit-custom-gradient"));
}

/* Seed 001: TensorFlow deploys more smoothly with mature DevOps: 2 points in a production plan
 * that ships a model with stability first, none without a deployment. */
Test(kb_facts2026, tensorflow_with_mature_devops)
{
    recommend("stage=production priority=stability deploy=server hardware=nvidia");
    cr_expect_eq(reason_points("tensorflow", "Production with mature DevOps"), 20);
    cr_expect_eq(reason_points("pytorch", "Production with mature DevOps"), -9999);
    recommend("stage=production priority=stability deploy=none hardware=nvidia");
    cr_expect_eq(reason_points("tensorflow", "Production with mature DevOps"), -9999);
}

/* Seeds 001 and 003 on the choice itself: start and switch later (early stages), time to market
 * and margin (cost or iteration first), coordination at scale (100 devices and more, PyTorch). */
Test(kb_facts2026, framing_pitfalls_follow_their_conditions)
{
    static const struct {
        const char *sets, *pitfall;
        int shown;
    } cases[] = {
        {"stage=prototype hardware=nvidia", "pit-choosing-too-long", 1},
        {"stage=production hardware=nvidia", "pit-choosing-too-long", 0},
        {"priority=cost hardware=nvidia", "pit-speed-alone", 1},
        {"priority=iteration hardware=nvidia", "pit-speed-alone", 1},
        {"priority=stability hardware=nvidia", "pit-speed-alone", 0},
        {"team=pytorch hardware=nvidia devices=128 nodes=16 model_kind=llm model_params=1.3e10", "pit-large-team-code", 1},
        {"team=pytorch hardware=nvidia devices=8 model_kind=llm model_params=1.3e10", "pit-large-team-code", 0},
        {"team=jax functional=true hardware=tpu devices=256 model_kind=llm model_params=1.3e10", "pit-large-team-code", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        recommend(cases[i].sets);
        cr_expect_eq(has_pitfall(cases[i].pitfall), cases[i].shown, "%s: %s (top %s)", cases[i].sets, cases[i].pitfall,
                     fx.res->ranking.items[0].id);
    }
}

/* Seed 002's notes on JAX's documentation and PyTorch's CPU deployment sit on the score rows, with
 * the seed in `also` beside the original evidence. */
Test(kb_facts2026, seed_002_notes_on_scores)
{
    char t[256];
    cr_expect_str_eq(text_of("SELECT also FROM scores WHERE framework = 'jax' AND criterion = ?1", "learning_curve", t,
                             sizeof t),
                     "seed-002");
    cr_expect_eq(number_of("SELECT score FROM scores WHERE framework = 'jax' AND criterion = ?1", "learning_curve"), 3);
    text_of("SELECT also FROM scores WHERE framework = 'pytorch' AND criterion = ?1", "deployment", t, sizeof t);
    cr_expect(listed(t, "seed-002") && listed(t, "openvino-docs"), "%s", t);
    cr_expect_eq(number_of("SELECT score FROM scores WHERE framework = 'pytorch' AND criterion = ?1", "deployment"), 7);
}

/* Every value of the hardware answer (but auto) is a platform row with a support row for every
 * framework, each citing an existing source; every accelerator platform has catalog rows whose
 * source gives an address or citation and a date. */
Test(kb_facts2026, every_hardware_answer_has_support_rows)
{
    double frameworks = number_of("SELECT count(*) FROM frameworks", NULL);
    int n = 0;
    for (const char *const *h = ans_hardware; *h; h++) {
        if (strcmp(*h, "auto") == 0) continue;
        n++;
        cr_expect_eq(number_of("SELECT count(*) FROM hardware WHERE id = ?1", *h), 1, "%s has no platform row", *h);
        cr_expect_eq(number_of("SELECT count(*) FROM hw_support h JOIN sources s ON s.id = h.source WHERE h.hardware = ?1",
                               *h),
                     frameworks, "%s: a support row per framework, each with a source", *h);
    }
    cr_expect_eq(n, 9, "nvidia, amd, tpu, apple, intel, ascend, trainium, gaudi, cpu");
    for (const char *const *v = ans_accelerator_vendors; *v; v++)
        cr_expect_gt(number_of("SELECT count(*) FROM accelerators a JOIN sources s ON s.id = a.source "
                               "WHERE a.vendor = ?1 AND s.url <> '' AND s.published <> ''",
                               *v),
                     0, "%s has no sourced catalog row", *v);
}

/* Recommends for sets and expects the runtime chosen to be rt. */
static void expect_runtime(const char *sets, const char *rt)
{
    recommend(sets);
    cr_expect_str_eq(fx.res->runtime, rt, "%s", sets);
}

/* The points (tenths) of the runtime reason titled label; -9999 when the plan has none. */
static int runtime_points(const char *label)
{
    for (int i = 0; i < fx.res->nruntime_reasons; i++)
        if (strcmp(fx.res->runtime_reasons[i].label, label) == 0) return fx.res->runtime_reasons[i].delta_tenths;
    return -9999;
}

/* LiteRT-LM: language models only, on the hardware its README and overview name (CPUs, Android's
 * Qualcomm NPUs, Apple GPUs, an NVIDIA GPU on a Linux desktop), not on AMD or Intel GPUs, which
 * neither names; phones, desktops and the browser; PyTorch reaches it through litert-torch. */
Test(kb_facts2026, litert_lm_row_follows_its_sources)
{
    char t[1024];
    cr_expect_str_eq(text_of("SELECT targets FROM runtimes WHERE id = ?1", "litert-lm", t, sizeof t), "mobile,edge,browser");
    cr_expect_str_eq(text_of("SELECT kinds FROM runtimes WHERE id = ?1", "litert-lm", t, sizeof t), "llm");
    text_of("SELECT hardware FROM runtimes WHERE id = ?1", "litert-lm", t, sizeof t);
    static const char *const on[] = {"cpu", "qualcomm", "apple", "nvidia"}, *const off[] = {"amd", "intel", "tpu"};
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) cr_expect(listed(t, on[i]), "%s lacks %s", t, on[i]);
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) cr_expect_not(listed(t, off[i]), "%s has %s", t, off[i]);
    cr_expect_str_eq(text_of("SELECT s.url FROM runtimes r JOIN sources s ON s.id = r.source WHERE r.id = ?1", "litert-lm",
                             t, sizeof t),
                     "https://github.com/google-ai-edge/LiteRT-LM");
    cr_expect(strstr(text_of("SELECT note FROM sources WHERE id = ?1", "litert-lm", t, sizeof t), "Read 2026-12-02") != NULL);
    cr_expect_str_eq(text_of("SELECT group_concat(framework || ':' || path) FROM runtime_frameworks WHERE runtime = ?1",
                             "litert-lm", t, sizeof t),
                     "pytorch:converter");
}

/* Windows ML: any model kind on a Windows PC, with the execution providers Microsoft Learn lists
 * (NVIDIA, AMD, Intel, Qualcomm, and the CPU), never Apple; every framework gets there through
 * ONNX, JAX only indirectly (jax2tf, then tf2onnx). */
Test(kb_facts2026, windows_ml_row_follows_microsoft_learn)
{
    char t[1024];
    cr_expect_str_eq(text_of("SELECT targets || '|' || kinds || '|' || status FROM runtimes WHERE id = ?1", "windows-ml", t,
                             sizeof t),
                     "edge||current");
    text_of("SELECT hardware FROM runtimes WHERE id = ?1", "windows-ml", t, sizeof t);
    static const char *const on[] = {"cpu", "nvidia", "amd", "intel", "qualcomm"};
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) cr_expect(listed(t, on[i]), "%s lacks %s", t, on[i]);
    cr_expect_not(listed(t, "apple"), "%s", t);
    cr_expect_str_eq(text_of("SELECT s.url FROM runtimes r JOIN sources s ON s.id = r.source WHERE r.id = ?1", "windows-ml",
                             t, sizeof t),
                     "https://learn.microsoft.com/en-us/windows/ai/new-windows-ml/overview");
    text_of("SELECT note FROM sources WHERE id = ?1", "windows-ml", t, sizeof t);
    cr_expect(strstr(t, "Windows 11 24H2 (build 26100)") != NULL, "%s", t);
    cr_expect(strstr(t, "Read 2026-12-02") != NULL, "%s", t);
    cr_expect_eq(number_of("SELECT count(*) FROM runtime_frameworks WHERE runtime = ?1", "windows-ml"), 7);
    cr_expect_str_eq(text_of("SELECT path FROM runtime_frameworks WHERE runtime = 'windows-ml' AND framework = ?1", "jax", t,
                             sizeof t),
                     "indirect");
    cr_expect_eq(number_of("SELECT count(*) FROM runtime_frameworks WHERE runtime = 'windows-ml' AND framework = ?1", "mlx"), 0);
}

/* A vision model inside a Windows app gets Windows ML: its 8 points and PyTorch's converter (0.1
 * x 10) beat ExecuTorch's 3 + native 3 and LiteRT's 5 + 1; for a TensorFlow team 8 + 1 beat
 * LiteRT's 5 + native 3 by one point, so 7 points would lose that tie; on an NVIDIA GPU 8 + 1 beat
 * TensorRT's 6 + 1. The same model on Linux,
 * and a language model on Windows, keep their runtimes. */
Test(kb_facts2026, windows_desktop_gets_windows_ml)
{
    expect_runtime("model_kind=vision model_params=25M deploy=edge os=windows team=pytorch", "windows-ml");
    cr_expect_eq(runtime_points("A model inside a Windows app"), 80);
    expect_runtime("model_kind=vision model_params=25M deploy=edge os=windows team=tensorflow", "windows-ml");
    expect_runtime("model_kind=vision model_params=25M deploy=edge os=windows team=pytorch deploy_hardware=nvidia",
                   "windows-ml");
    recommend("model_kind=vision model_params=25M deploy=edge os=linux team=pytorch");
    cr_expect_str_neq(fx.res->runtime, "windows-ml");
    cr_expect_eq(runtime_points("A model inside a Windows app"), -9999);
    expect_runtime("model_kind=llm model_params=8B deploy=edge os=windows team=pytorch", "llama-cpp");
}

/* A language model in a browser tab gets LiteRT-LM (5 + converter 1 over ONNX Runtime Web's 4 +
 * 1), unless stability comes first: its web API is an early preview, so the rule does not hold
 * and ONNX Runtime Web keeps its 4 + 1 + the stability rule's 1. A vision model there keeps ONNX
 * Runtime, and LiteRT-LM serves no phone LLM over ExecuTorch's native path. */
Test(kb_facts2026, browser_llm_gets_litert_lm)
{
    expect_runtime("model_kind=llm model_params=1B deploy=browser team=pytorch", "litert-lm");
    cr_expect_eq(runtime_points("A language model in a browser tab"), 50);
    expect_runtime("model_kind=vision model_params=25M deploy=browser team=pytorch", "onnxruntime");
    expect_runtime("model_kind=llm model_params=1B deploy=browser team=pytorch priority=stability", "onnxruntime");
    cr_expect_eq(runtime_points("A language model in a browser tab"), -9999);
    expect_runtime("model_kind=llm model_params=1B deploy=mobile team=pytorch", "executorch");
}

/* ExecuTorch: stable since 1.0, at 1.5.1 by 2026-09-18 per the project's own release change. */
Test(kb_facts2026, executorch_row_names_its_latest_release)
{
    char t[1024];
    text_of("SELECT summary FROM runtimes WHERE id = ?1", "executorch", t, sizeof t);
    cr_expect(strstr(t, "stable since 1.0 (2025-10-17) and at 1.5.1 (2026-09-18") != NULL, "%s", t);
    cr_expect_str_eq(text_of("SELECT r.source || '|' || s.published || '|' || r.as_of FROM runtimes r JOIN sources s ON "
                             "s.id = r.source WHERE r.id = ?1",
                             "executorch", t, sizeof t),
                     "executorch-1.5.1|2026-09-18|2026-12-02");
    cr_expect_str_eq(text_of("SELECT url FROM sources WHERE id = ?1", "executorch-1.5.1", t, sizeof t),
                     "https://github.com/pytorch/executorch/pull/22922");
}

/* MindSpore's current release follows its own release notes (2.11.0, after 2.9.0 of 2026-04); the
 * row keeps the year only, as the notes give no day. */
Test(kb_facts2026, mindspore_version_follows_its_release_notes)
{
    char t[1024];
    cr_expect_str_eq(text_of("SELECT version || '|' || released || '|' || source || '|' || as_of FROM frameworks WHERE id = ?1",
                             "mindspore", t, sizeof t),
                     "2.11.0|2026|fw-mindspore-2.11|2026-12-02");
    cr_expect_str_eq(text_of("SELECT url FROM sources WHERE id = ?1", "fw-mindspore-2.11", t, sizeof t),
                     "https://www.mindspore.cn/docs/zh-CN/r2.11.0/_sources/RELEASE.md.txt");
}
