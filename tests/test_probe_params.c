/* A result's parameters as data: the typed parameters give the same "params" objects the stored
 * runs have always held, the catalog fraction follows the dtype, the MFU rows say against which
 * peak, and the one reader of stored runs takes whatever a hand-written run holds. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "knowledge/measured.h"
#include "probes/probe.h"
#include "probes/run_table.h"
#include "tests/support.h"

TestSuite(probe_params, .timeout = 30);

static void expect_json(const struct probe_params *p, const char *want)
{
    cJSON *o = probe_params_to_json(p);
    cr_assert_not_null(o);
    char *text = cJSON_PrintUnformatted(o);
    cr_expect_str_eq(text, want);
    /* and read back: the same object again */
    struct probe_params back;
    measured_params_read(o, &back);
    cJSON *again = probe_params_to_json(&back);
    char *text2 = cJSON_PrintUnformatted(again);
    cr_expect_str_eq(text2, want, "read back");
    free(text), free(text2);
    cJSON_Delete(o), cJSON_Delete(again);
}

Test(probe_params, cpu_gemm_stream_and_mlp_keep_their_keys_in_order)
{
    struct probe_params p;
    probe_params_init(&p, PROBE_PP_GEMM);
    p.n = 2048, p.threads = 4, p.dtype = PROBE_DTYPE_FP32;
    expect_json(&p, "{\"n\":2048,\"threads\":4,\"dtype\":\"fp32\"}");
    probe_params_init(&p, PROBE_PP_STREAM);
    p.array_bytes = 80000000, p.threads = 8, p.ntimes = 10, p.bytes_per_element = 24;
    expect_json(&p, "{\"array_bytes\":80000000,\"threads\":8,\"ntimes\":10,\"bytes_per_element\":24}");
    probe_params_init(&p, PROBE_PP_MLP);
    snprintf(p.layers, sizeof p.layers, "784,1024,1024,10");
    snprintf(p.optimizer, sizeof p.optimizer, "adam");
    p.batch = 256, p.threads = 4;
    expect_json(&p, "{\"layers\":\"784,1024,1024,10\",\"batch\":256,\"optimizer\":\"adam\",\"threads\":4}");
    probe_params_init(&p, PROBE_PP_NONE);
    expect_json(&p, "{}");
}

/* The planned GPT step: the shape, then the plan's figures at four digits (0.45599625 s planned
 * is 456 ms), then where the bandwidth came from; without a plan its figures are null. */
Test(probe_params, the_planned_step_keeps_its_keys_and_digits)
{
    struct probe_params p;
    probe_params_init(&p, PROBE_PP_PLAN);
    p.n_layer = 4, p.n_head = 4, p.n_embd = 256, p.ctx = 128, p.vocab = 256, p.batch = 8, p.dtype = PROBE_DTYPE_FP32;
    p.planned_ms = 455.99625216, p.gemm_ms = 428.51106816, p.memory_ms = 27.485184, p.gemm_gflops = 50;
    p.bandwidth_gbs = 10.04;
    snprintf(p.bandwidth_source, sizeof p.bandwidth_source, "stream triad");
    expect_json(&p, "{\"n_layer\":4,\"n_head\":4,\"n_embd\":256,\"ctx\":128,\"vocab\":256,\"batch\":8,"
                    "\"precision\":\"fp32\",\"planned_ms\":456,\"gemm_ms\":428.5,\"memory_ms\":27.49,"
                    "\"gemm_gflops\":50,\"bandwidth_gbs\":10.04,\"bandwidth_source\":\"stream triad\"}");
    probe_params_init(&p, PROBE_PP_PLAN);
    p.n_layer = 1, p.n_head = 2, p.n_embd = 32, p.ctx = 16, p.vocab = 64, p.batch = 2, p.gemm_gflops = 3;
    snprintf(p.bandwidth_source, sizeof p.bandwidth_source, "none");
    expect_json(&p, "{\"n_layer\":1,\"n_head\":2,\"n_embd\":32,\"ctx\":16,\"vocab\":64,\"batch\":2,"
                    "\"planned_ms\":null,\"gemm_ms\":null,\"memory_ms\":null,\"gemm_gflops\":3,"
                    "\"bandwidth_gbs\":null,\"bandwidth_source\":\"none\"}");
}

Test(probe_params, gpu_rows_keep_their_keys_in_order)
{
    struct probe_params p;
    probe_params_init(&p, PROBE_PP_GEMM);
    p.n = 8192, p.dtype = PROBE_DTYPE_BF16;
    expect_json(&p, "{\"n\":8192,\"dtype\":\"bf16\"}");
    probe_params_init(&p, PROBE_PP_DEVICE_COPY);
    p.bytes = (uint64_t)1 << 30;
    expect_json(&p, "{\"bytes\":1073741824,\"counted\":\"read + written\"}");
    probe_params_init(&p, PROBE_PP_TRANSFER);
    p.bytes = (uint64_t)256 << 20, p.pinned = PROBE_TRI_NO;
    expect_json(&p, "{\"bytes\":268435456,\"pinned\":false}");
    probe_params_init(&p, PROBE_PP_MLP);
    snprintf(p.layers, sizeof p.layers, "4096,4096,4096,4096,4096");
    snprintf(p.optimizer, sizeof p.optimizer, "adam");
    p.batch = 4096, p.dtype = PROBE_DTYPE_BF16;
    expect_json(&p, "{\"layers\":\"4096,4096,4096,4096,4096\",\"batch\":4096,\"optimizer\":\"adam\",\"precision\":\"bf16\"}");
    probe_params_init(&p, PROBE_PP_GPT);
    p.n_layer = 12, p.n_head = 12, p.n_embd = 768, p.ctx = 1024, p.vocab = 50304, p.batch = 8, p.dtype = PROBE_DTYPE_BF16;
    expect_json(&p, "{\"n_layer\":12,\"n_head\":12,\"n_embd\":768,\"ctx\":1024,\"vocab\":50304,\"batch\":8,\"precision\":\"bf16\"}");
}

/* Measures keep the digits they were always printed with: time_us two decimals, the bandwidth
 * and the peak four significant digits. */
Test(probe_params, ranks_peaks_and_frameworks_keep_their_digits)
{
    struct probe_params p;
    probe_params_init(&p, PROBE_PP_ALLREDUCE);
    p.bytes = 67108864, p.ranks = 2, p.dtype = PROBE_DTYPE_FP32, p.time_us = 1234.5678, p.algbw_gbs = 54.35567, p.wrong = 3;
    snprintf(p.via, sizeof p.via, "mpi");
    expect_json(&p, "{\"bytes\":67108864,\"ranks\":2,\"dtype\":\"fp32\",\"op\":\"sum\",\"time_us\":1234.57,"
                    "\"algbw_gbs\":54.36,\"wrong\":3,\"via\":\"mpi\"}");
    probe_params_init(&p, PROBE_PP_DATA_PARALLEL);
    snprintf(p.layers, sizeof p.layers, "784,256,10");
    snprintf(p.optimizer, sizeof p.optimizer, "adam");
    p.batch = 64, p.ranks = 4, p.threads = 2;
    expect_json(&p, "{\"layers\":\"784,256,10\",\"batch_per_rank\":64,\"ranks\":4,\"threads_per_rank\":2,\"optimizer\":\"adam\"}");
    probe_params_init(&p, PROBE_PP_PEAK);
    p.peak_tflops = 0.124362, p.peak_kind = PROBE_PEAK_GEMM;
    snprintf(p.peak_source, sizeof p.peak_source, "measured gemm");
    expect_json(&p, "{\"peak_tflops\":0.1244,\"peak_source\":\"measured gemm\",\"peak_kind\":\"gemm\"}");
    probe_params_init(&p, PROBE_PP_FRAMEWORK);
    snprintf(p.framework, sizeof p.framework, "pytorch");
    snprintf(p.mode, sizeof p.mode, "eager");
    snprintf(p.kind, sizeof p.kind, "nvidia");
    snprintf(p.version, sizeof p.version, "2.3.0");
    p.model = 1, p.per_step = 1024, p.python = 0, p.loss = 5.5, p.first_step_s = 0.123456;
    expect_json(&p, "{\"framework\":\"pytorch\",\"mode\":\"eager\",\"model\":\"gpt\",\"per_step\":1024,"
                    "\"per_step_unit\":\"tokens\",\"kind\":\"nvidia\",\"python\":0,\"loss\":5.5,\"first_step_s\":0.1235,"
                    "\"version\":\"2.3.0\"}");
    probe_params_init(&p, PROBE_PP_FRAMEWORK); /* the workload's own row: no model, no interpreter */
    snprintf(p.framework, sizeof p.framework, "engine");
    snprintf(p.mode, sizeof p.mode, "-");
    expect_json(&p, "{\"framework\":\"engine\",\"mode\":\"-\",\"version\":\"\"}");
}

/* fp32 against the vector peak, bf16 and fp16 against their own matrix peaks (fp16 set apart
 * from bf16 here, so a swap shows), tf32 and no dtype against none; train-mlp's GFLOP/s against
 * bf16 only when it ran in bf16. */
Test(probe_params, catalog_fraction_follows_the_dtype)
{
    struct probe_run *run = calloc(1, sizeof *run);
    cr_assert_not_null(run);
    run->hw.naccel = 1;
    struct probe_accel *a = &run->hw.accel[0];
    snprintf(a->kind, sizeof a->kind, "nvidia");
    snprintf(a->catalog_id, sizeof a->catalog_id, "test-gpu");
    a->peak_fp32_tflops = 67, a->peak_bf16_tflops = 989.4, a->peak_fp16_tflops = 900, a->peak_bandwidth_gbs = 4800;
    static const struct {
        const char *workload, *metric;
        enum probe_dtype dtype;
        double median, fraction;
    } rows[] = {
        {PROBE_WL_GEMM, PROBE_M_GFLOPS, PROBE_DTYPE_FP32, 50250, 0.75},   /* 50250 / 67000 */
        {PROBE_WL_GEMM, PROBE_M_GFLOPS, PROBE_DTYPE_BF16, 742050, 0.75},  /* 742050 / 989400 */
        {PROBE_WL_GEMM, PROBE_M_GFLOPS, PROBE_DTYPE_FP16, 270000, 0.3},   /* 270000 / 900000 */
        {PROBE_WL_GEMM, PROBE_M_GFLOPS, PROBE_DTYPE_TF32, 300000, -1},
        {PROBE_WL_GEMM, PROBE_M_GFLOPS, PROBE_DTYPE_NONE, 300000, -1},
        {PROBE_WL_TRAIN_MLP, PROBE_M_GFLOPS, PROBE_DTYPE_FP16, 33500, 0.5}, /* 33500 / 67000 */
        {PROBE_WL_TRAIN_MLP, PROBE_M_SAMPLES_PER_S, PROBE_DTYPE_FP16, 1000, 0.5},
    };
    int n = sizeof rows / sizeof rows[0];
    for (int i = 0; i < n; i++) {
        struct probe_result *r = probe_result_add(run, rows[i].workload, "cuda:0", rows[i].metric, "GFLOP/s");
        cr_assert_not_null(r);
        probe_params_init(&r->params, rows[i].workload[0] == 'g' ? PROBE_PP_GEMM : PROBE_PP_MLP);
        r->params.dtype = rows[i].dtype;
        r->stats.median = rows[i].median;
    }
    probe_apply_catalog(run);
    for (int i = 0; i < n; i++)
        cr_expect_float_eq(run->results[i].peak_fraction, rows[i].fraction, 1e-9, "row %d", i);
    free(run);
}

/* The PARAMS cell of an MFU row: the stored peak_kind, and for a run stored without it a neutral
 * label, whatever its sentence says. */
Test(probe_params, mfu_rows_say_their_peak_kind)
{
    static const char *const kinds[] = {"gemm", "estimate", "table", "catalog", NULL};
    static const char *const want[] = {"vs gemm", "vs estimate", "vs table", "vs catalog", "vs peak"};
    cJSON *doc = cJSON_CreateObject(), *results = cJSON_AddArrayToObject(doc, "results");
    for (int i = 0; i < 5; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "workload", PROBE_WL_TRAIN_GPT);
        cJSON_AddStringToObject(r, "metric", PROBE_M_MFU_CATALOG);
        cJSON_AddStringToObject(r, "status", "ok");
        cJSON_AddNumberToObject(r, "median", 0.4);
        cJSON *p = cJSON_AddObjectToObject(r, "params");
        cJSON_AddNumberToObject(p, "peak_tflops", 1);
        /* the sentence names another peak than the kind, as no sentence is read */
        cJSON_AddStringToObject(p, "peak_source", "measured gemm from the cpu peak table");
        if (kinds[i]) cJSON_AddStringToObject(p, "peak_kind", kinds[i]);
        cJSON_AddItemToArray(results, r);
    }
    struct probe_table *t = calloc(1, sizeof *t);
    cr_assert_not_null(t);
    probe_table_build(doc, NULL, t);
    cr_assert_eq(t->nrows, 5);
    for (int i = 0; i < 5; i++) cr_expect_str_eq(t->rows[i].cell[PT_PARAMS], want[i], "row %d", i);
    free(t);
    cJSON_Delete(doc);
    for (int k = PROBE_PEAK_GEMM; k <= PROBE_PEAK_CATALOG; k++)
        cr_expect_eq(probe_peak_kind_parse(probe_peak_kind_name((enum probe_peak_kind)k)), k);
    cr_expect_eq(probe_peak_kind_parse("measured gemm"), PROBE_PEAK_UNKNOWN);
}

/* A run written by hand: wrong types everywhere read as not given, never a failure. */
Test(probe_params, the_reader_takes_a_malformed_run)
{
    const char *text =
        "{\"id\": 7, \"interrupted\": \"yes\", \"cpu\": \"fast\", \"accelerators\": {\"kind\": \"nvidia\"},"
        " \"ranks\": {\"count\": \"two\", \"hosts\": \"a\"},"
        " \"results\": [{\"workload\": 3, \"status\": \"ok\", \"median\": \"fast\", \"params\": \"n=4\"},"
        " {\"workload\": \"gemm\", \"status\": \"ok\", \"median\": 100, \"params\": {\"n\": \"big\", \"dtype\": 7}},"
        " {\"workload\": \"transfer\", \"status\": \"skipped\", \"params\": {\"bytes\": -5, \"pinned\": 1}}, 17]}";
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc);
    struct measured_run *m = calloc(1, sizeof *m);
    cr_assert_not_null(m);
    cr_assert_eq(measured_read(doc, m), 0);
    cr_expect_str_eq(m->id, "");
    cr_expect_eq(m->interrupted, 0);
    cr_expect_eq(m->naccel, 0);
    cr_expect(m->has_ranks);
    cr_expect_eq(m->rank_count, 0);
    cr_expect_eq(m->host_count, 0);
    cr_expect(isnan(m->cpu_cores));
    cr_assert_eq(m->nresults, 4);
    cr_expect_str_eq(m->results[0].workload, "");
    cr_expect(m->results[0].stated_ok);
    cr_expect_not(m->results[0].ok, "'ok' without a finite median");
    cr_expect_eq(m->results[0].params.shape, PROBE_PP_NONE);
    cr_expect(m->results[1].ok);
    cr_expect_eq(m->results[1].params.shape, PROBE_PP_GEMM);
    cr_expect_eq(m->results[1].params.n, 0);
    cr_expect_eq(m->results[1].params.dtype, PROBE_DTYPE_NONE);
    cr_expect_eq(m->results[2].params.shape, PROBE_PP_TRANSFER);
    cr_expect_eq(m->results[2].params.bytes, 0);
    cr_expect_eq(m->results[2].params.pinned, PROBE_TRI_UNSET);
    cr_expect_not(m->results[3].ok);
    cr_expect_eq(measured_read(NULL, m), -1);
    cJSON *arr = cJSON_CreateArray();
    cr_expect_eq(measured_read(arr, m), -1);
    cr_expect_eq(m->nresults, 0);
    cJSON_Delete(arr);
    cJSON_Delete(doc);
    free(m);
}

/* The devices a framework reports, each listed once: a set of names, so cuda:1 is not taken for
 * part of cuda:10 (an interpreter that answers as a Python would, saying its devices twice). */
Test(probe_params, a_frameworks_devices_are_a_set, .timeout = 180)
{
    char *dir = ts_tmpdir(), *fake = ts_path(dir, "devices");
    const char *text =
        "#!/bin/sh\n"
        "case \"$2\" in */fwdetect.py) echo '{\"event\": \"python\", \"version\": \"3.0\", \"prefix\": \"/fake/devices\","
        " \"frameworks\": [{\"id\": \"jax\", \"version\": \"9.9\"}]}'; exit 0;; esac\n"
        "echo '{\"event\": \"framework\", \"id\": \"jax\", \"version\": \"9.9\", \"devices\": [{\"name\": \"cuda:10\","
        " \"kind\": \"nvidia\", \"label\": \"A\"}, {\"name\": \"cuda:1\", \"kind\": \"nvidia\", \"label\": \"B\"}]}'\n"
        "echo '{\"event\": \"framework\", \"id\": \"jax\", \"version\": \"9.9\", \"devices\": [{\"name\": \"cuda:1\","
        " \"kind\": \"nvidia\", \"label\": \"B\"}, {\"name\": \"cpu\", \"kind\": \"cpu\", \"label\": \"CPU\"}]}'\n"
        "echo '{\"event\": \"done\"}'\n";
    cr_assert_eq(ts_write_str(fake, text), 0);
    chmod(fake, 0755);
    char db[4200];
    snprintf(db, sizeof db, "--db=%s/kb.sqlite3", dir);
    const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE", NULL};
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL,
                        (const char *const[]){db, "probe", "--workload", "frameworks", "--device", "cpu", "--no-save",
                                              "--json", "--threads", "1", "--framework-timeout", "3", "--python", fake,
                                              NULL}),
                 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "%s", r.out);
    const cJSON *py = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "frameworks"), "interpreters"), 0);
    const cJSON *jax = cJSON_GetArrayItem(cJSON_GetObjectItem(py, "frameworks"), 0);
    cr_assert_not_null(jax, "%s", r.out);
    cr_expect_str_eq(cJSON_GetObjectItem(jax, "devices")->valuestring, "cuda:10 (A), cuda:1 (B), cpu");
    cJSON_Delete(doc);
    ts_run_free(&r);
    free(fake);
    ts_rmtree(dir);
    free(dir);
}

/* The accelerator's catalog entry as the run's document writes it ("catalog": {"id": ...}) is
 * the one the reader takes back: the advisor matches an answered accelerator against it. A run
 * without a match reads back with no id. */
Test(probe_params, catalog_id_read_back_from_the_written_document)
{
    struct probe_run *run = calloc(1, sizeof *run);
    cr_assert_not_null(run);
    run->hw.naccel = 2;
    snprintf(run->hw.accel[0].kind, sizeof run->hw.accel[0].kind, "nvidia");
    snprintf(run->hw.accel[0].name, sizeof run->hw.accel[0].name, "NVIDIA H100 80GB HBM3");
    snprintf(run->hw.accel[0].catalog_id, sizeof run->hw.accel[0].catalog_id, "h100-sxm");
    run->hw.accel[0].count = 8;
    snprintf(run->hw.accel[1].kind, sizeof run->hw.accel[1].kind, "amd");
    snprintf(run->hw.accel[1].name, sizeof run->hw.accel[1].name, "gfx000");
    run->hw.accel[1].count = 1;
    cJSON *doc = probe_run_to_json(run);
    cr_assert_not_null(doc);
    struct measured_run *m = calloc(1, sizeof *m);
    cr_assert_not_null(m);
    cr_assert_eq(measured_read(doc, m), 0);
    cr_assert_eq(m->naccel, 2);
    cr_expect_str_eq(m->accel[0].catalog_id, "h100-sxm");
    cr_expect_eq(m->accel[0].count, 8);
    cr_expect_str_eq(m->accel[1].catalog_id, "");
    cJSON_Delete(doc);
    free(m);
    free(run);
}

/* The table's figures as a person reads them: four significant digits below 1,000, separators
 * above and never an exponent (which widened MIN..MAX until PARAMS was cut to "784..1..."), and a
 * ratio in percent with no second PEAK% of the same figure. */
Test(probe_params, table_cells_have_no_exponents_and_ratios_in_percent)
{
    cJSON *doc = cJSON_Parse(
        "{\"results\": ["
        "{\"workload\": \"train-mlp\", \"device\": \"cpu\", \"metric\": \"samples_per_s\", \"unit\": \"samples/s\","
        " \"status\": \"ok\", \"median\": 5250.4, \"min\": 4405, \"max\": 6062.2, \"cv\": 0.01, \"peak_fraction\": 0.53,"
        " \"params\": {\"layers\": \"784,1024,1024,10\", \"batch\": 256}},"
        "{\"workload\": \"train-gpt\", \"device\": \"cpu\", \"metric\": \"mfu\", \"unit\": \"ratio\", \"status\": \"ok\","
        " \"median\": 0.7367, \"min\": 0.536, \"max\": 0.801, \"cv\": 0.01, \"peak_fraction\": 0.7367,"
        " \"params\": {\"peak_kind\": \"gemm\", \"peak_tflops\": 0.1}},"
        "{\"workload\": \"gemm\", \"device\": \"cuda:0\", \"metric\": \"gflops\", \"unit\": \"GFLOP/s\", \"status\": \"ok\","
        " \"median\": 483012, \"min\": 999.96, \"max\": 1000, \"cv\": 0.01, \"params\": {\"n\": 8192, \"dtype\": \"bf16\"}},"
        "{\"workload\": \"train-gpt\", \"device\": \"cpu\", \"metric\": \"tflops\", \"unit\": \"TFLOP/s\", \"status\": \"ok\","
        " \"median\": 0.069812, \"min\": 0.0508, \"max\": 0.0759, \"cv\": 0.01, \"peak_fraction\": 0.3,"
        " \"params\": {\"n_layer\": 4, \"n_embd\": 256, \"ctx\": 128}}]}");
    cJSON *base = cJSON_Parse(
        "{\"results\": ["
        "{\"workload\": \"train-gpt\", \"device\": \"cpu\", \"metric\": \"mfu\", \"unit\": \"ratio\", \"status\": \"ok\","
        " \"median\": 0.7, \"cv\": 0.01, \"params\": {\"peak_kind\": \"gemm\", \"peak_tflops\": 0.1}},"
        "{\"workload\": \"gemm\", \"device\": \"cuda:0\", \"metric\": \"gflops\", \"unit\": \"GFLOP/s\", \"status\": \"ok\","
        " \"median\": 12345.6, \"cv\": 0.01, \"params\": {\"n\": 8192, \"dtype\": \"bf16\"}}]}");
    struct probe_table *t = calloc(1, sizeof *t);
    cr_assert(doc && base && t);
    probe_table_build(doc, NULL, t);
    cr_assert_eq(t->nrows, 4);
    cr_expect_str_eq(t->rows[0].cell[PT_MEDIAN], "5,250");
    cr_expect_str_eq(t->rows[0].cell[PT_RANGE], "4,405..6,062");
    cr_expect_str_eq(t->rows[0].cell[PT_PEAK], "53");
    cr_expect_str_eq(t->rows[1].cell[PT_MEDIAN], "73.7%");
    cr_expect_str_eq(t->rows[1].cell[PT_RANGE], "53.6..80.1%");
    cr_expect_str_eq(t->rows[1].cell[PT_PEAK], "-", "an MFU is its own fraction of the peak");
    cr_expect_str_eq(t->rows[2].cell[PT_MEDIAN], "483,012");
    cr_expect_str_eq(t->rows[2].cell[PT_RANGE], "1,000..1,000", "999.96 is 1,000 in three digits, not 1e3");
    cr_expect_str_eq(t->rows[3].cell[PT_MEDIAN], "0.06981", "four digits below 1,000");
    cr_expect_str_eq(t->rows[3].cell[PT_RANGE], "0.0508..0.0759");
    /* the baseline column in the same forms */
    probe_table_build(doc, base, t);
    cr_expect_str_eq(t->rows[1].cell[PT_BASE], "70%");
    cr_expect_str_eq(t->rows[2].cell[PT_BASE], "12,346");
    cr_expect_str_eq(t->rows[2].cell[PT_CHANGE], "+3812.4% better");
    free(t);
    cJSON_Delete(base);
    cJSON_Delete(doc);
}
