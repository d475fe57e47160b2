/* Measurements that reach the plan: stored runs (CPU only, GPU, MPI only, cancelled, empty)
 * matched to the answers; each case checks which figures the plan took and why the others were
 * passed over. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/advisor.h"
#include "knowledge/measured.h"
#include "knowledge/probe_store.h"
#include "probes/advisor_hw.h"
#include "tests/support.h"

static struct ts_advisor t;
static char err[1024];

static void setup(void) { cr_assert_eq(ts_advisor_open(&t, err, sizeof err), 0, "%s", err); }
static void teardown(void) { ts_advisor_close(&t); }

TestSuite(measured, .init = setup, .fini = teardown, .timeout = 60);

/* A run document: id, start (ordering), cancelled or not, the accelerator (NULL: none) and the
 * results as JSON text. */
static void store(const char *id, const char *started, int interrupted, const char *accel, const char *results,
                  const char *ranks)
{
    char text[8192];
    snprintf(text, sizeof text,
             "{\"schema\": \"fwadvisor.probe/1\", \"id\": \"%s\", \"started_at\": \"%s\", \"duration_s\": 3,"
             " \"interrupted\": %s, \"cpu\": {\"model\": \"Test CPU\", \"cores\": 16, \"memory_bytes\": 64e9},"
             " \"accelerators\": [%s], \"results\": [%s]%s%s}",
             id, started, interrupted ? "true" : "false", accel ? accel : "", results, ranks ? ", \"ranks\": " : "",
             ranks ? ranks : "");
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc, "%s", text);
    cr_assert_eq(kb_probe_save(t.kb.kb, doc, err, sizeof err), KB_OK, "%s", err);
    cJSON_Delete(doc);
}

#define H100 "{\"kind\": \"nvidia\", \"name\": \"NVIDIA H100 80GB HBM3\", \"count\": 8, \"memory_bytes\": 85e9, \"catalog\": {\"id\": \"h100-sxm\"}}"
#define CPU_ROWS                                                                                                        \
    "{\"workload\": \"gemm\", \"device\": \"cpu\", \"metric\": \"gflops_best\", \"status\": \"ok\", \"median\": 2000,"  \
    " \"params\": {\"n\": 2048}},"                                                                                     \
    "{\"workload\": \"stream\", \"device\": \"cpu\", \"metric\": \"triad_gbs\", \"status\": \"ok\", \"median\": 150},"  \
    "{\"workload\": \"train-mlp\", \"device\": \"cpu\", \"metric\": \"gflops\", \"status\": \"ok\", \"median\": 1500,"  \
    " \"peak_fraction\": 0.75}"
#define GPU_ROWS                                                                                                        \
    "{\"workload\": \"gemm\", \"device\": \"cuda:0\", \"metric\": \"gflops\", \"status\": \"ok\", \"median\": 750000,"  \
    " \"params\": {\"n\": 8192, \"dtype\": \"bf16\"}},"                                                                \
    "{\"workload\": \"gemm\", \"device\": \"cuda:0\", \"metric\": \"gflops\", \"status\": \"ok\", \"median\": 50000,"   \
    " \"params\": {\"n\": 8192, \"dtype\": \"fp32\"}},"                                                                \
    "{\"workload\": \"stream\", \"device\": \"cuda:0\", \"metric\": \"copy_gbs\", \"status\": \"ok\", \"median\": 3000},"\
    "{\"workload\": \"transfer\", \"device\": \"cuda:0\", \"metric\": \"h2d_gbs\", \"status\": \"ok\", \"median\": 50},"\
    "{\"workload\": \"train-gpt\", \"device\": \"cuda:0\", \"metric\": \"mfu\", \"status\": \"ok\", \"median\": 0.45}"
#define MPI_CPU_ROWS                                                                                                    \
    "{\"workload\": \"allreduce\", \"device\": \"cpu\", \"metric\": \"busbw_gbs\", \"status\": \"ok\", \"median\": 1.8,"\
    " \"params\": {\"bytes\": 67108864, \"ranks\": 2, \"via\": \"mpi\"}},"                                             \
    "{\"workload\": \"allreduce\", \"device\": \"cpu\", \"metric\": \"busbw_gbs\", \"status\": \"ok\", \"median\": 0.9,"\
    " \"params\": {\"bytes\": 1048576, \"ranks\": 2, \"via\": \"mpi\"}},"                                              \
    "{\"workload\": \"train-dp\", \"device\": \"cpu\", \"metric\": \"scaling_efficiency\", \"status\": \"ok\","         \
    " \"median\": 0.86, \"params\": {\"ranks\": 2}}"
#define RANKS "{\"count\": 2, \"hosts\": [\"h1\"], \"mpi\": \"Open MPI\"}"

static void recommend(const char *sets)
{
    struct answers a;
    cr_assert_eq(ts_answers_sets(&a, sets, err, sizeof err), 0, "%s", err);
    struct adv_hw *hw = calloc(1, sizeof *hw);
    cr_assert_eq(probe_advisor_hardware(t.kb.kb, "latest", &a, 0, hw, err, sizeof err), KB_OK, "%s", err);
    cr_assert_eq(adv_recommend(t.akb, &a, hw, t.res, err, sizeof err), KB_OK, "%s", err);
    free(hw);
}

static const struct adv_measured *figure(const char *name)
{
    for (int i = 0; i < t.res->hw.nmeasured; i++)
        if (strcmp(t.res->hw.measured[i].name, name) == 0) return &t.res->hw.measured[i];
    return NULL;
}

static const char *skip_reason(const char *run)
{
    for (int i = 0; i < t.res->hw.nskipped; i++)
        if (strcmp(t.res->hw.skipped[i].run, run) == 0) return t.res->hw.skipped[i].why;
    return NULL;
}

/* The newest runs are empty, cancelled and MPI-only on CPUs; the complete GPU run behind them is
 * the one an H100 plan takes; the CPU ranks' scaling is not applied to GPUs. */
Test(measured, a_gpu_plan_takes_the_complete_gpu_run_behind_newer_ones)
{
    store("gpu", "2026-11-01T00:00:00Z", 0, H100, GPU_ROWS, NULL);
    store("cpu", "2026-11-02T00:00:00Z", 0, NULL, CPU_ROWS, NULL);
    store("mpi", "2026-11-03T00:00:00Z", 0, NULL, MPI_CPU_ROWS, RANKS);
    store("cancelled", "2026-11-04T00:00:00Z", 1, H100,
          "{\"workload\": \"gemm\", \"device\": \"cuda:0\", \"metric\": \"gflops\", \"status\": \"ok\", \"median\": 1,"
          " \"params\": {\"n\": 1024, \"dtype\": \"bf16\"}}",
          NULL);
    store("empty", "2026-11-05T00:00:00Z", 0, NULL,
          "{\"workload\": \"transfer\", \"device\": \"cpu\", \"metric\": \"h2d_gbs\", \"status\": \"skipped\","
          " \"reason\": \"no GPU\"}",
          NULL);
    recommend("hardware=nvidia accelerator=h100-sxm devices=8 model_kind=llm model_params=7e9 tokens=1e11");
    cr_expect_str_eq(t.res->hw.measured_run, "gpu");
    /* 750000 GFLOP/s of bf16 GEMM = 750 TFLOP/s per device, used as the peak */
    cr_expect_float_eq(t.res->peak_tflops, 750, 1e-9);
    cr_expect(strstr(t.res->peak_source, "probe gpu") != NULL, "%s", t.res->peak_source);
    cr_expect_float_eq(figure("memory_bandwidth")->value, 3000, 1e-9);
    cr_expect_float_eq(figure("host_to_device")->value, 50, 1e-9);
    /* train-gpt's MFU against the same measured peak replaces the planning efficiency */
    cr_expect_float_eq(t.res->efficiency, 0.45, 1e-9);
    cr_expect(adv_measured_used(t.res, "training_mfu") && adv_measured_used(t.res, "gemm_peak"));
    cr_expect_null(figure("data_parallel_efficiency"), "CPU ranks' efficiency taken for GPUs");
    cr_expect(strstr(skip_reason("empty"), "nothing in it finished"), "%s", skip_reason("empty"));
    cr_expect(strstr(skip_reason("cancelled"), "cancelled"), "%s", skip_reason("cancelled"));
    cr_expect(strstr(skip_reason("mpi"), "CPU communication; your answers name nvidia"), "%s", skip_reason("mpi"));
    cr_expect(strstr(skip_reason("cpu"), "it measured a CPU; your answers name nvidia hardware"), "%s", skip_reason("cpu"));
    cr_expect_float_eq(t.res->scaling, 1, 0, "no measured scaling applied");
}

/* Another NVIDIA device than the one measured: the run is passed over and the catalog used. */
Test(measured, another_accelerator_model_is_passed_over)
{
    store("gpu", "2026-11-01T00:00:00Z", 0, H100, GPU_ROWS, NULL);
    recommend("hardware=nvidia accelerator=a100-sxm4-80gb devices=8 model_kind=llm model_params=7e9 tokens=1e11");
    cr_expect_str_eq(t.res->hw.measured_run, "");
    cr_expect(strstr(skip_reason("gpu"), "h100-sxm); your answers name a100-sxm4-80gb"), "%s", skip_reason("gpu"));
    cr_expect(strncmp(t.res->peak_source, "catalog", 7) == 0, "%s", t.res->peak_source);
    cr_expect(!adv_measured_used(t.res, "gemm_peak"));
}

/* A CPU plan of this machine (one device, one node) takes the CPU run and the CPU ranks'
 * scaling; CPU servers elsewhere take neither this machine's peak nor its memory. */
Test(measured, cpu_runs_serve_plans_of_this_machine_only)
{
    store("cpu", "2026-11-01T00:00:00Z", 0, NULL, CPU_ROWS, NULL);
    store("mpi", "2026-11-02T00:00:00Z", 0, NULL, MPI_CPU_ROWS, RANKS);
    recommend("hardware=cpu model_kind=vision model_params=2.5e7 tokens=1e10");
    cr_expect_str_eq(t.res->hw.measured_run, "cpu");
    cr_expect_float_eq(t.res->peak_tflops, 2.0, 1e-9, "2000 GFLOP/s of sgemm");
    cr_expect_float_eq(figure("training_mfu")->value, 0.75, 1e-9, "train-mlp, labelled");
    cr_expect(strstr(figure("training_mfu")->note, "train-mlp") != NULL);
    /* the largest allreduce message's bus bandwidth, and the efficiency */
    cr_expect_float_eq(figure("allreduce_busbw")->value, 1.8, 1e-9);
    cr_expect_float_eq(figure("data_parallel_efficiency")->value, 0.86, 1e-9);
    recommend("hardware=cpu devices=8 nodes=8 model_kind=vision model_params=2.5e7 tokens=1e10");
    cr_expect_str_eq(t.res->hw.measured_run, "");
    cr_expect(strstr(skip_reason("cpu"), "the plan is for other CPU servers"), "%s", skip_reason("cpu"));
    cr_expect(strstr(t.res->peak_source, "64 cores per CPU server (assumed)") != NULL, "%s", t.res->peak_source);
    /* 64 cores x 32 FLOP/cycle x 2.5 GHz = 5.12 TFLOP/s per server */
    cr_expect_float_eq(t.res->peak_tflops, 5.12, 1e-9);
    cr_expect(strstr(t.res->device_memory_source, "this machine") == NULL, "%s", t.res->device_memory_source);
    /* the scaling measured on this machine's CPU ranks still applies to CPU plans */
    cr_expect_float_eq(t.res->hw.dp_efficiency, 0.86, 1e-9);
}

/* A run named with --probe gives its figures as asked, but its MFU replaces the efficiency only
 * when its peak is the one planned: another accelerator answered keeps the catalog's peak and
 * the planning efficiency. */
Test(measured, a_measured_mfu_needs_its_own_peak)
{
    store("gpu", "2026-11-01T00:00:00Z", 0, H100, GPU_ROWS, NULL);
    struct answers a;
    answers_init(&a);
    const char *sets[] = {"hardware=nvidia", "accelerator=a100-sxm4-80gb", "devices=8", "model_kind=llm", "model_params=7e9",
                          "tokens=1e11"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) cr_assert_eq(answers_set(&a, sets[i], err, sizeof err), 0);
    struct adv_hw *hw = calloc(1, sizeof *hw);
    cr_assert_eq(probe_advisor_hardware(t.kb.kb, "gpu", &a, 0, hw, err, sizeof err), KB_OK, "%s", err);
    cr_expect_float_eq(hw->train_mfu, 0.45, 1e-9);
    cr_assert_eq(adv_recommend(t.akb, &a, hw, t.res, err, sizeof err), KB_OK, "%s", err);
    free(hw);
    cr_expect(strncmp(t.res->peak_source, "catalog", 7) == 0, "%s", t.res->peak_source);
    cr_expect(t.res->efficiency != 0.45, "the measured MFU belongs to the H100's measured peak");
    cr_expect(!adv_measured_used(t.res, "training_mfu"));
}

/* The efficiency measured on CPU ranks enters the hours of a CPU plan whose communication cannot
 * be computed: communication = (hours without it) x (1 / 0.86 - 1). */
Test(measured, the_measured_efficiency_enters_the_hours)
{
    store("mpi", "2026-11-02T00:00:00Z", 0, NULL, MPI_CPU_ROWS, RANKS);
    recommend("hardware=cpu devices=4 model_kind=vision model_params=2.5e7 tokens=1e10");
    cr_assert_float_eq(t.res->scaling, 0.86, 1e-9);
    double before = t.res->hours - t.res->time.communication_hours;
    cr_expect_float_eq(t.res->time.communication_hours, (before - t.res->time.lost_hours) * (1 / 0.86 - 1), 1e-9);
    cr_expect(t.res->time.communication_hours > 0.16 * (before - t.res->time.lost_hours) &&
                  t.res->time.communication_hours < 0.17 * (before - t.res->time.lost_hours),
              "1/0.86 - 1 = 0.1628");
    cr_expect(adv_measured_used(t.res, "data_parallel_efficiency"));
}

/* Both sides of 100%: each train-dp rank trains the baseline's rows, so a figure above 1 is
 * timing noise; it counts as exactly 1 (no communication time), never as a speed-up that would
 * shorten the plan (1.25 taken as measured would take 20% off the hours). At exactly 1 the plan
 * adds nothing and says nothing of noise. */
static void dp_run(const char *id, double efficiency)
{
    char rows[512];
    snprintf(rows, sizeof rows,
             "{\"workload\": \"train-dp\", \"device\": \"cpu\", \"metric\": \"scaling_efficiency\","
             " \"status\": \"ok\", \"median\": %g, \"params\": {\"ranks\": 2}}",
             efficiency);
    store(id, "2026-11-02T00:00:00Z", 0, NULL, rows, RANKS);
}

Test(measured, an_efficiency_above_one_counts_as_one)
{
    dp_run("noisy", 1.25);
    recommend("hardware=cpu devices=4 model_kind=vision model_params=2.5e7 tokens=1e10");
    cr_expect_float_eq(t.res->hw.dp_efficiency, 1.25, 1e-9, "stored as measured");
    cr_expect_float_eq(t.res->scaling, 1.0, 1e-12);
    cr_expect_float_eq(t.res->time.communication_hours, 0.0, 1e-12);
    cr_expect(strstr(t.res->scaling_source, "measured: 125%") && strstr(t.res->scaling_source, "counted as 100%"), "%s",
              t.res->scaling_source);
}

Test(measured, an_efficiency_of_exactly_one_adds_no_time)
{
    dp_run("one", 1.0);
    recommend("hardware=cpu devices=4 model_kind=vision model_params=2.5e7 tokens=1e10");
    cr_expect_float_eq(t.res->scaling, 1.0, 1e-12);
    cr_expect_float_eq(t.res->time.communication_hours, 0.0, 1e-12);
    cr_expect(strstr(t.res->scaling_source, "measured: 100%") && !strstr(t.res->scaling_source, "counted as"), "%s",
              t.res->scaling_source);
}

Test(measured, an_efficiency_just_below_one_adds_its_time)
{
    dp_run("near", 0.99);
    recommend("hardware=cpu devices=4 model_kind=vision model_params=2.5e7 tokens=1e10");
    double before = t.res->hours - t.res->time.communication_hours - t.res->time.lost_hours;
    cr_expect_float_eq(t.res->scaling, 0.99, 1e-12);
    /* 1 / 0.99 - 1 = 0.010101... */
    cr_expect_float_eq(t.res->time.communication_hours, before * (1 / 0.99 - 1), 1e-9);
    cr_expect(t.res->time.communication_hours > 0.0101 * before && t.res->time.communication_hours < 0.0102 * before);
    cr_expect(!strstr(t.res->scaling_source, "counted as"), "%s", t.res->scaling_source);
}

/* With hardware auto, the newest complete run decides what this machine is. */
Test(measured, hardware_auto_follows_the_newest_complete_run)
{
    store("gpu", "2026-11-01T00:00:00Z", 0, H100, GPU_ROWS, NULL);
    store("cancelled", "2026-11-04T00:00:00Z", 1, NULL, CPU_ROWS, NULL);
    recommend("model_kind=llm model_params=7e9 tokens=1e11 devices=8");
    cr_expect_str_eq(answers_str(&t.res->answers, ANS_HARDWARE), "nvidia");
    cr_expect_str_eq(t.res->hw.measured_run, "gpu");
    cr_expect_float_eq(t.res->peak_tflops, 750, 1e-9);
}

/* The report says what was used and what was passed over. */
Test(measured, the_report_lists_figures_and_skipped_runs)
{
    store("gpu", "2026-11-01T00:00:00Z", 0, H100, GPU_ROWS, NULL);
    store("cpu", "2026-11-02T00:00:00Z", 0, NULL, CPU_ROWS, NULL);
    recommend("hardware=nvidia accelerator=h100-sxm devices=8 model_kind=llm model_params=7e9 tokens=1e11");
    cJSON *doc = adv_report_json(t.akb, t.res, "2026-12-01T00:00:00Z");
    const cJSON *m = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "measured");
    cr_assert_not_null(m);
    cr_expect_str_eq(cJSON_GetObjectItem(m, "run")->valuestring, "gpu");
    int used_peak = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(m, "figures"))
        if (!strcmp(cJSON_GetObjectItem(f, "name")->valuestring, "gemm_peak")) used_peak = cJSON_IsTrue(cJSON_GetObjectItem(f, "used"));
    cr_expect(used_peak);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(m, "skipped")), 1);
    cJSON_Delete(doc);
}

/* --- the reader's run-wide figures ----------------------------------------------------------- */

/* The report fixture (tests/fixtures/reports/probe-full.json), read. */
static struct measured_run *read_report_fixture(void)
{
    const char *f = getenv("FWADVISOR_FIXTURES");
    char path[4200];
    snprintf(path, sizeof path, "%s/reports/probe-full.json", f && *f ? f : "tests/fixtures");
    char *text = ts_read(path, NULL);
    cr_assert_not_null(text, "%s", path);
    cJSON *doc = cJSON_Parse(text);
    struct measured_run *m = calloc(1, sizeof *m);
    cr_assert(doc && m);
    cr_assert_eq(measured_read(doc, m), 0);
    cJSON_Delete(doc); /* the figures are copies: they outlive the document */
    free(text);
    return m;
}

/* The report fixture's host, version, CPU peaks, catalog peaks and per-rank figures, as written. */
Test(measured, the_run_wide_figures_read_from_a_stored_run)
{
    struct measured_run *m = read_report_fixture();
    cr_expect_str_eq(m->version, "0.1.0");
    cr_expect_str_eq(m->host_os, "linux");
    cr_expect_str_eq(m->host_kernel, "6.18.44-fc-v857");
    cr_expect_str_eq(m->host_arch, "x86_64");
    cr_expect_float_eq(m->cpu_peak_gflops_fp32, 491.549, 1e-9);
    cr_expect(isnan(m->cpu_peak_gflops_bf16), "null in the fixture: not given");
    cr_assert_eq(m->naccel, 1);
    const struct measured_accel *a = &m->accel[0];
    cr_expect(a->has_catalog);
    cr_expect_str_eq(a->catalog_id, "h100-sxm");
    cr_expect_float_eq(a->catalog_fp32_tflops, 66.9, 1e-9);
    cr_expect_float_eq(a->catalog_bf16_tflops, 989.4, 1e-9);
    cr_expect_float_eq(a->catalog_fp16_tflops, 989.4, 1e-9);
    cr_expect_float_eq(a->catalog_bandwidth_gbs, 3350, 1e-9);
    cr_expect_eq(m->rank_count, 2);
    cr_expect_float_eq(m->rank_count_given, 2, 1e-12);
    cr_expect_eq(m->host_count, 1);
    cr_assert_eq(m->nper_rank, 2);
    cr_expect_float_eq(m->per_rank[0].rank, 0, 1e-12);
    cr_expect_str_eq(m->per_rank[0].host, "vm");
    cr_expect_float_eq(m->per_rank[0].compute_ms, 83.584, 1e-9);
    cr_expect_float_eq(m->per_rank[0].comm_ms, 29.166, 1e-9);
    cr_expect_float_eq(m->per_rank[0].samples_per_s, 2259.6, 1e-9);
    cr_expect_float_eq(m->per_rank[1].rank, 1, 1e-12);
    cr_expect_float_eq(m->per_rank[1].compute_ms, 72.692, 1e-9);
    cr_expect_float_eq(m->per_rank[1].comm_ms, 37.462, 1e-9);
    cr_expect_float_eq(m->per_rank[1].samples_per_s, 2068.1, 1e-9);
    cr_expect_eq(m->nresults, 41);
    cr_expect_eq(measured_device_kind(m->results[0].device), MEASURED_DEV_CPU);
    free(m);
}

/* What the summary lines show, read from the report fixture: the run's length, the CPU's shape,
 * caches and vector extensions, the accelerator's compute capability and note, the ranks' hosts
 * and MPI. */
Test(measured, the_summary_figures_read_from_a_stored_run)
{
    struct measured_run *m = read_report_fixture();
    cr_expect_float_eq(m->duration_s, 9.56, 1e-12);
    cr_expect_str_eq(m->cpu_microarchitecture, "Zen 5");
    cr_expect_float_eq(m->cpu_packages, 1, 1e-12);
    cr_expect_float_eq(m->cpu_threads, 2, 1e-12);
    cr_expect_float_eq(m->cpu_numa_nodes, 1, 1e-12);
    cr_expect_float_eq(m->cpu_l3_bytes, 33554432, 1e-6);
    cr_expect_str_eq(m->cpu_peak_note, "2 cores x 3840 MHz (measured (dependent additions)) x 64 FP32 FLOP/cycle (Zen 5)");
    cr_assert_eq(m->nsimd, 9);
    cr_expect_str_eq(m->cpu_simd[0], "sse4.2");
    cr_expect_str_eq(m->cpu_simd[8], "avx512_bf16");
    cr_assert_eq(m->naccel, 1);
    cr_expect_float_eq(m->accel[0].count_given, 1, 1e-12);
    cr_expect_str_eq(m->accel[0].compute_capability, "9.0");
    cr_expect_str_eq(m->accel[0].note, "NVML");
    cr_assert_eq(m->nhosts, 1);
    cr_expect_str_eq(m->hosts[0], "vm");
    cr_expect_str_eq(m->mpi, "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022");
    free(m);
}

/* The same of the wrong type: not given; a list's items that are no strings are passed over. */
Test(measured, summary_figures_of_the_wrong_type_read_as_not_given)
{
    cJSON *doc = cJSON_Parse("{\"duration_s\": \"long\", \"cpu\": {\"packages\": \"one\", \"caches\": 5,"
                             " \"simd\": [\"avx\", 3, null, \"fma\"], \"microarchitecture\": 7},"
                             " \"accelerators\": [{\"count\": \"1\", \"note\": {}}],"
                             " \"ranks\": {\"hosts\": [\"a\", 1, \"b\"], \"mpi\": 2}}");
    struct measured_run *m = calloc(1, sizeof *m);
    cr_assert(doc && m);
    cr_assert_eq(measured_read(doc, m), 0);
    cr_expect(isnan(m->duration_s) && isnan(m->cpu_packages) && isnan(m->cpu_l3_bytes) && isnan(m->cpu_threads));
    cr_expect_str_eq(m->cpu_microarchitecture, "");
    cr_assert_eq(m->nsimd, 2);
    cr_expect_str_eq(m->cpu_simd[1], "fma");
    cr_assert_eq(m->naccel, 1);
    cr_expect(isnan(m->accel[0].count_given));
    cr_expect_eq(m->accel[0].count, 0);
    cr_expect_str_eq(m->accel[0].note, "");
    cr_assert_eq(m->nhosts, 2);
    cr_expect_str_eq(m->hosts[1], "b");
    cr_expect_eq(m->host_count, 3, "the count of hosts is the list's, whatever its items");
    cr_expect_str_eq(m->mpi, "");
    cJSON_Delete(doc);
    free(m);
}

/* A run written by hand without them, or with them of the wrong type: not given, never a failure. */
Test(measured, run_wide_figures_not_given_read_as_nan_and_empty)
{
    static const char *const docs[] = {
        "{\"id\": \"bare\", \"results\": []}",
        "{\"id\": \"odd\", \"version\": 3, \"host\": \"linux\", \"cpu\": {\"peak_gflops_fp32\": \"fast\"},"
        " \"accelerators\": [{\"kind\": \"nvidia\", \"catalog\": null}, {\"catalog\": {\"bf16_tflops\": null}}],"
        " \"ranks\": {\"count\": \"two\", \"per_rank\": [{\"rank\": \"a\", \"host\": 4, \"comm_ms\": null}, 7]}}",
    };
    struct measured_run *m = calloc(1, sizeof *m);
    cr_assert_not_null(m);
    for (int i = 0; i < 2; i++) {
        cJSON *doc = cJSON_Parse(docs[i]);
        cr_assert_not_null(doc);
        cr_assert_eq(measured_read(doc, m), 0, "%s", docs[i]);
        cr_expect_str_eq(m->version, "");
        cr_expect_str_eq(m->host_os, "");
        cr_expect_str_eq(m->host_kernel, "");
        cr_expect_str_eq(m->host_arch, "");
        cr_expect(isnan(m->cpu_peak_gflops_fp32) && isnan(m->cpu_peak_gflops_bf16));
        cr_expect(isnan(m->rank_count_given));
        cr_expect_eq(m->rank_count, 0);
        cJSON_Delete(doc);
    }
    /* the second: a catalog null is none; an empty one is there without its peaks; ranks of
     * another type have no figures */
    cr_assert_eq(m->naccel, 2);
    cr_expect_not(m->accel[0].has_catalog);
    cr_expect(m->accel[1].has_catalog);
    cr_expect_str_eq(m->accel[1].catalog_id, "");
    cr_expect(isnan(m->accel[1].catalog_bf16_tflops) && isnan(m->accel[1].catalog_fp32_tflops));
    cr_expect(isnan(m->accel[1].catalog_fp16_tflops) && isnan(m->accel[1].catalog_bandwidth_gbs));
    cr_assert_eq(m->nper_rank, 2);
    for (int i = 0; i < 2; i++) {
        cr_expect(isnan(m->per_rank[i].rank) && isnan(m->per_rank[i].compute_ms), "rank %d", i);
        cr_expect(isnan(m->per_rank[i].comm_ms) && isnan(m->per_rank[i].samples_per_s), "rank %d", i);
        cr_expect_str_eq(m->per_rank[i].host, "");
    }
    /* no document at all: the same, and -1 */
    cr_expect_eq(measured_read(NULL, m), -1);
    cr_expect(isnan(m->cpu_peak_gflops_fp32) && isnan(m->rank_count_given));
    cr_expect_eq(m->nper_rank, 0);
    free(m);
}

/* A run of its own: read as measured_read reads it; none for no document. */
Test(measured, a_run_read_into_its_own_allocation)
{
    cr_expect_null(measured_read_new(NULL));
    cJSON *doc = cJSON_Parse("{\"id\": \"own\", \"duration_s\": 3, \"results\": [{\"workload\": \"gemm\"}]}");
    struct measured_run *m = measured_read_new(doc);
    cJSON_Delete(doc);
    cr_assert_not_null(m);
    cr_expect_str_eq(m->id, "own");
    cr_expect_float_eq(m->duration_s, 3, 1e-12);
    cr_expect_eq(m->nresults, 1);
    cr_expect_str_eq(m->results[0].workload, "gemm");
    free(m);
}

/* A device's kind from its name: the CPU exactly, CUDA by its prefix. */
Test(measured, device_names_read_as_kinds)
{
    cr_expect_eq(measured_device_kind("cpu"), MEASURED_DEV_CPU);
    cr_expect_eq(measured_device_kind("cuda:1"), MEASURED_DEV_CUDA);
    cr_expect_eq(measured_device_kind("cuda"), MEASURED_DEV_CUDA);
    cr_expect_eq(measured_device_kind("cpu:0"), MEASURED_DEV_OTHER);
    cr_expect_eq(measured_device_kind("rocm:0"), MEASURED_DEV_OTHER);
    cr_expect_eq(measured_device_kind(""), MEASURED_DEV_OTHER);
    cr_expect_eq(measured_device_kind(NULL), MEASURED_DEV_OTHER);
}
