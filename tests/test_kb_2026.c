/* The built-in facts checked for 2026 against their primary sources: each test pins one corrected
 * or added fact (a value, a level, the source it cites), so that a revert or a slip in the data
 * fails here. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "knowledge/kb.h"
#include "tests/support.h"

static struct ts_kb fx;
static char err[1024];

static void setup(void) { cr_assert_eq(ts_kb_open(&fx, err, sizeof err), 0, "%s", err); }
static void teardown(void) { ts_kb_close(&fx); }

TestSuite(kb_2026, .init = setup, .fini = teardown);

/* The first column of the first row of sql with ?1 bound to arg, as text ("" when no row or NULL)
 * copied into out. */
static const char *text_of(const char *sql, const char *arg, char *out, size_t n)
{
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(kb_db(fx.kb), sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(kb_db(fx.kb)));
    if (arg) sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    out[0] = '\0';
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
}

/* The same as a number; -1 when there is no row. */
static double number_of(const char *sql, const char *arg)
{
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(kb_db(fx.kb), sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(kb_db(fx.kb)));
    if (arg) sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    double v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_double(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

static double accel(const char *column, const char *id)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT %s FROM accelerators WHERE id = ?1", column);
    return number_of(sql, id);
}

/* TPU v5e/v5p: network_gbs stays the in-slice ICI figure (hosts of one slice talk over ICI); the
 * cross-slice data-centre network has no column, so the interconnect text states it. */
Test(kb_2026, tpu_v5_network_is_the_in_slice_ici_figure)
{
    char t[512];
    cr_expect_eq(accel("network_gbs", "tpu-v5e"), 200);
    cr_expect_eq(accel("link_gbs", "tpu-v5e"), 200);
    cr_expect_eq(accel("network_gbs", "tpu-v5p"), 600);
    cr_expect_eq(accel("link_gbs", "tpu-v5p"), 600);
    cr_expect_str_eq(text_of("SELECT interconnect FROM accelerators WHERE id = ?1", "tpu-v5e", t, sizeof t),
                     "ICI 2D torus within a slice (400 GB/s per chip, both directions; network_gbs is this in-slice "
                     "figure); DCN 25 Gb/s per chip across slices");
    cr_expect_str_eq(text_of("SELECT interconnect FROM accelerators WHERE id = ?1", "tpu-v5p", t, sizeof t),
                     "ICI 3D torus within a slice (1,200 GB/s per chip, both directions; network_gbs is this in-slice "
                     "figure); DCN 50 Gb/s per chip across slices");
    cr_expect_str_eq(text_of("SELECT url FROM sources WHERE id = ?1", "hw-tpu-v5p", t, sizeof t),
                     "https://docs.cloud.google.com/tpu/docs/v5p");
}

/* Keras 3 supports Linux and macOS (WSL2 on Windows): native Windows is experimental, not
 * "supported through the PyTorch backend". */
Test(kb_2026, keras_on_native_windows_is_experimental)
{
    char t[256];
    static const char *const hw[] = {"nvidia", "amd", NULL};
    for (const char *const *h = hw; *h; h++) {
        cr_expect_str_eq(text_of("SELECT json_extract(os_support, '$.windows.level') FROM hw_support "
                                 "WHERE framework = 'keras' AND hardware = ?1", *h, t, sizeof t),
                         "experimental", "keras/%s on Windows", *h);
        cr_expect_str_eq(text_of("SELECT json_extract(os_support, '$.windows.source') FROM hw_support "
                                 "WHERE framework = 'keras' AND hardware = ?1", *h, t, sizeof t),
                         "keras-pypi", "keras/%s cites the Keras page", *h);
    }
    cr_expect_str_eq(text_of("SELECT level FROM hw_support WHERE framework = 'keras' AND hardware = ?1", "nvidia", t,
                             sizeof t),
                     "first-class", "Linux stays first-class");
}

/* PyTorch's own docs label Intel GPU support Prototype, with wheels from 2.5. */
Test(kb_2026, pytorch_on_intel_gpus_is_prototype)
{
    char t[256];
    cr_expect_str_eq(text_of("SELECT level FROM hw_support WHERE framework = 'pytorch' AND hardware = ?1", "intel", t,
                             sizeof t),
                     "experimental");
    cr_expect_str_eq(text_of("SELECT since FROM hw_support WHERE framework = 'pytorch' AND hardware = ?1", "intel", t,
                             sizeof t),
                     "2.5");
    cr_expect_str_eq(text_of("SELECT s.url FROM hw_support h JOIN sources s ON s.id = h.source "
                             "WHERE h.framework = 'pytorch' AND h.hardware = ?1", "intel", t, sizeof t),
                     "https://docs.pytorch.org/docs/stable/notes/get_start_xpu.html");
    cr_expect_str_eq(text_of("SELECT also FROM hw_support WHERE framework = 'pytorch' AND hardware = ?1", "intel", t,
                             sizeof t),
                     "ipex-eol");
}

/* NVIDIA's pages: HGX B200 600 TFLOPS FP32 per 8 GPUs, GB200 NVL72 5,760 per 72. */
Test(kb_2026, blackwell_fp32_peaks_follow_nvidia)
{
    cr_expect_eq(accel("fp32_tflops", "b200"), 75);
    cr_expect_eq(accel("fp32_tflops * 8", "b200"), 600);
    cr_expect_eq(accel("fp32_tflops", "gb200"), 80);
    cr_expect_eq(accel("fp32_tflops * 72", "gb200"), 5760);
    cr_expect_eq(accel("tf32_tflops", "gb200"), 1250, "180 PF sparse per rack, dense is half, per GPU");
}

/* Gaudi 3 is filed under its own vendor id, gaudi (not intel, whose rows are Intel GPUs), and
 * runs the Gaudi software stack: its source says so and cites Intel's Gaudi documentation. */
Test(kb_2026, gaudi3_names_its_own_software_stack)
{
    char t[512];
    cr_expect_str_eq(text_of("SELECT vendor FROM accelerators WHERE id = ?1", "gaudi3", t, sizeof t), "gaudi");
    cr_expect_str_eq(text_of("SELECT interconnect FROM accelerators WHERE id = ?1", "gaudi3", t, sizeof t),
                     "24 x 200 GbE RoCE on chip: 21 to the node's 7 peers, 3 to scale-out; Intel Gaudi software "
                     "(PyTorch hpu device), not XPU");
    cr_expect_str_eq(text_of("SELECT url FROM sources WHERE id = ?1", "gaudi-docs", t, sizeof t),
                     "https://docs.habana.ai/en/latest/");
    cr_expect_str_eq(text_of("SELECT url FROM sources WHERE id = ?1", "vllm-gaudi", t, sizeof t),
                     "https://docs.vllm.ai/projects/gaudi/en/latest/");
    cr_expect_eq(accel("bf16_tflops", "gaudi3"), 1835);
    cr_expect_eq(accel("fp8_tflops", "gaudi3"), 1835, "FP8 at the BF16 rate");
}

/* The PyTorch-to-LiteRT converter is litert-torch now (formerly AI Edge Torch). */
Test(kb_2026, litert_converter_is_litert_torch)
{
    char t[256];
    static const char *const fws[] = {"pytorch", "fastai", NULL};
    for (const char *const *f = fws; *f; f++)
        cr_expect_str_eq(text_of("SELECT s.url FROM runtime_frameworks r JOIN sources s ON s.id = r.source "
                                 "WHERE r.runtime = 'litert' AND r.framework = ?1", *f, t, sizeof t),
                         "https://github.com/google-ai-edge/litert-torch", "%s -> LiteRT", *f);
    cr_expect_str_eq(text_of("SELECT path FROM runtime_frameworks WHERE runtime = 'litert' AND framework = ?1",
                             "pytorch", t, sizeof t),
                     "converter");
}

/* vLLM's hardware from its installation docs: Apple Silicon through vLLM-Metal joins the list. */
Test(kb_2026, vllm_hardware_follows_its_docs)
{
    char t[256];
    cr_expect_str_eq(text_of("SELECT hardware FROM runtimes WHERE id = ?1", "vllm", t, sizeof t),
                     "nvidia,amd,tpu,intel,ascend,apple,cpu");
}

/* OpenVINO runs on x86 and Arm CPUs as well as Intel's GPUs and NPUs (its README and system
 * requirements): a CPU server or edge box is one of its targets, not "not on cpu hardware". */
Test(kb_2026, openvino_runs_on_cpus)
{
    char t[256];
    cr_expect_str_eq(text_of("SELECT hardware FROM runtimes WHERE id = ?1", "openvino", t, sizeof t), "cpu,intel");
    cr_expect_str_eq(text_of("SELECT targets FROM runtimes WHERE id = ?1", "openvino", t, sizeof t), "server,edge");
}

/* The RL rule keeps seed 002 and cites Flax NNX for today's advice; its effect is unchanged. */
Test(kb_2026, rl_rule_cites_flax_nnx)
{
    char t[256];
    cr_expect_str_eq(text_of("SELECT also FROM rules WHERE id = ?1", "s-rl-jax", t, sizeof t), "flax-nnx");
    cr_expect_str_eq(text_of("SELECT source FROM rules WHERE id = ?1", "s-rl-jax", t, sizeof t), "seed-002");
    cr_expect_eq(number_of("SELECT json_extract(effect, '$.score.jax') FROM rules WHERE id = ?1", "s-rl-jax"), 5);
    cr_expect_str_eq(text_of("SELECT url FROM sources WHERE id = ?1", "flax-nnx", t, sizeof t),
                     "https://flax.readthedocs.io/en/latest/migrating/haiku_to_flax.html");
}

/* MI350X: dense figures (sparse ones are twice these), no TF32 matrix mode on CDNA 4. */
Test(kb_2026, mi350x_dense_figures)
{
    static const struct {
        const char *column;
        double value;
    } figures[] = {{"memory_gb", 288},     {"bandwidth_gbs", 8000}, {"fp32_tflops", 144.2}, {"bf16_tflops", 2307},
                   {"fp16_tflops", 2307}, {"fp8_tflops", 4614},    {"tf32_tflops", 0}};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        cr_expect_eq(accel(figures[i].column, "mi350x"), figures[i].value, "mi350x %s", figures[i].column);
    cr_expect_lt(accel("bf16_tflops", "mi350x"), accel("bf16_tflops", "mi355x"), "the lower-clocked part");
    cr_expect_eq(accel("planner_default", "mi350x"), 0, "the MI300X stays AMD's assumed device");
}

/* Every accelerator row cites a source with an address and a date, and carries a checked day. */
Test(kb_2026, every_accelerator_row_has_a_source)
{
    cr_assert_gt(number_of("SELECT count(*) FROM accelerators", NULL), 30);
    cr_expect_eq(number_of("SELECT count(*) FROM accelerators a LEFT JOIN sources s ON s.id = a.source "
                           "WHERE s.id IS NULL OR s.url = '' OR s.published = '' OR s.title = ''",
                           NULL),
                 0);
    cr_expect_eq(number_of("SELECT count(*) FROM accelerators WHERE as_of NOT GLOB "
                           "'20[0-9][0-9]-[01][0-9]-[0-3][0-9]' OR as_of > '2026-12-31'",
                           NULL),
                 0);
}

/* The data version moved with the facts. */
Test(kb_2026, data_version_names_the_refresh)
{
    char version[64], date[32];
    kb_version(fx.kb, version, sizeof version, date, sizeof date);
    cr_expect_str_eq(version, "2026.12.5");
    cr_expect_str_eq(date, "2026-12-02");
}

/* Seed 003's static-graph picture of TensorFlow is superseded: TensorFlow 2 runs eagerly by
 * default (tf.compat.v1.enable_eager_execution: "Eager execution is enabled by default"). */
Test(kb_2026, tensorflow_is_eager_by_default)
{
    char t[512];
    text_of("SELECT summary FROM frameworks WHERE id = ?1", "tensorflow", t, sizeof t);
    cr_expect(strstr(t, "Eager by default since TensorFlow 2") != NULL, "%s", t);
    cr_expect(strstr(t, "graph-compiled") == NULL, "%s", t);
    cr_expect_str_eq(text_of("SELECT url FROM sources WHERE id = ?1", "tf-eager-default", t, sizeof t),
                     "https://www.tensorflow.org/api_docs/python/tf/compat/v1/enable_eager_execution");
}
