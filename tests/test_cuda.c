/* The CUDA plug-in: it builds and loads with every symbol here; the program says why there is no
 * GPU back-end where there is none; and, on a machine with an NVIDIA GPU, the GPU back-end trains
 * to the CPU back-end's numbers and the probe kernels' results check out. Tests that need a GPU
 * skip with the reason when none can be opened. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cuda/plugin.h"
#include "engine/engine.h"
#include "knowledge/kb.h"
#include "probes/probe.h"
#include "tests/support.h"

static const char *env[] = {"NO_COLOR=1", NULL};

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

static int plugin_built(void)
{
    const char *p = getenv("FWADVISOR_CUDA_PLUGIN");
    return p && access(p, F_OK) == 0;
}

/* The plug-in, or a skip with the reason. */
static const struct eng_cuda_plugin *plugin_or_skip(void)
{
    char err[512];
    if (!plugin_built()) cr_skip_test("the CUDA plug-in is not built here (no nvcc, or CUDA=0)");
    const struct eng_cuda_plugin *p = eng_cuda_load(err, sizeof err);
    cr_assert_not_null(p, "%s", err);
    return p;
}

static const struct eng_cuda_plugin *gpu_or_skip(void)
{
    const struct eng_cuda_plugin *p = plugin_or_skip();
    char err[512];
    if (p->device_count(err, sizeof err) <= 0) cr_skip_test("no GPU: %s", err);
    return p;
}

TestSuite(cuda, .timeout = 120);

Test(cuda, plugin_loads_with_every_entry_point)
{
    const struct eng_cuda_plugin *p = plugin_or_skip();
    cr_expect_eq(p->abi, ENG_CUDA_ABI);
    cr_expect_str_eq(p->version, FWADVISOR_VERSION);
    cr_expect(p->device_count && p->open && p->close && p->bench_prepare && p->bench_run && p->bench_check &&
              p->bench_release && p->last_error);
    const struct eng_backend *be = p->backend;
    cr_assert_not_null(be);
    cr_expect_str_eq(be->name, "cuda");
    cr_expect_eq(be->host_memory, 0);
    cr_expect(be->alloc && be->release && be->upload && be->download && be->set_threads && be->synchronize &&
              be->gemm && be->bias_act_forward && be->act_backward && be->bias_backward && be->loss &&
              be->adam_step && be->sgd_step);
    /* Here or on a GPU machine alike: a device count, or the reason there is none. */
    char err[512] = "";
    int n = p->device_count(err, sizeof err);
    if (n < 0) cr_expect_neq(err[0], 0);
    else cr_expect_gt(n, 0);
}

Test(cuda, device_names_parse)
{
    int index;
    char err[256];
    cr_expect_eq(eng_device_parse("cpu", &index, err, sizeof err), 0);
    cr_expect_eq(index, -1);
    cr_expect_eq(eng_device_parse("cuda", &index, err, sizeof err), 0);
    cr_expect_eq(index, 0);
    cr_expect_eq(eng_device_parse("cuda:3", &index, err, sizeof err), 0);
    cr_expect_eq(index, 3);
    cr_expect_eq(eng_device_parse("cuda:", &index, err, sizeof err), -1);
    cr_expect_eq(eng_device_parse("cuda:-1", &index, err, sizeof err), -1);
    cr_expect_eq(eng_device_parse("cuda:1x", &index, err, sizeof err), -1);
    cr_expect_eq(eng_device_parse("gpu", &index, err, sizeof err), -1);
    cr_expect(strstr(err, "expected cpu, cuda or cuda:N") != NULL, "%s", err);
    enum eng_precision prec;
    cr_expect_eq(eng_precision_parse("bf16", &prec), 0);
    cr_expect_eq(prec, ENG_PREC_BF16);
    cr_expect_eq(eng_precision_parse("fp64", &prec), -1);
}

Test(cuda, missing_plugin_is_one_clear_line)
{
    static const char *bad[] = {"NO_COLOR=1", "FWADVISOR_CUDA_PLUGIN=/nonexistent/fwadvisor-cuda.so", NULL};
    struct ts_run r;
    cr_assert_eq(ts_run(&r, bad, NULL, (const char *const[]){"train", "--layers", "4,3", "--device", "cuda", NULL}), 0);
    cr_expect_eq(r.status, 1);
    cr_expect(strncmp(r.err, "fwadvisor: no CUDA back-end: ", 29) == 0, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    ts_run_free(&r);
    cr_assert_eq(ts_run(&r, bad, NULL, (const char *const[]){"probe", "--device", "cuda:0", "--no-save", NULL}), 0);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "no CUDA back-end: ") != NULL, "%s", r.err);
    ts_run_free(&r);
}

Test(cuda, no_gpu_means_a_clear_error_and_a_cpu_probe)
{
    char err[512];
    const struct eng_cuda_plugin *p = eng_cuda_load(err, sizeof err);
    if (p && p->device_count(err, sizeof err) > 0) cr_skip_test("this machine has a GPU");
    struct ts_run r;
    RUN(r, "train", "--layers", "4,3", "--device", "cuda:0", "--steps", "2");
    cr_expect_eq(r.status, 1);
    cr_expect(strncmp(r.err, "fwadvisor: no CUDA back-end: ", 29) == 0, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    ts_run_free(&r);
    /* auto measures the CPU and says in the transfer row why the GPU was left out */
    RUN(r, "probe", "--workload", "transfer", "--no-save", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"skipped: no CUDA back-end: ") != NULL, "%s", r.out);
    ts_run_free(&r);
}

Test(cuda, precision_needs_a_gpu_and_a_known_name)
{
    struct ts_run r;
    RUN(r, "train", "--layers", "4,3", "--precision", "bf16");
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "needs a GPU") != NULL, "%s", r.err);
    ts_run_free(&r);
    RUN(r, "train", "--layers", "4,3", "--device", "cuda", "--precision", "fp8");
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "expected fp32, tf32 or bf16") != NULL, "%s", r.err);
    ts_run_free(&r);
}

/* --- on a GPU ------------------------------------------------------------------------------ */

struct trained {
    float *losses, *params;
    size_t nparams;
};

static void train(const struct eng_backend *be, const char *layers, enum eng_act act, enum eng_loss loss,
                  enum eng_opt opt, int batch, int steps, struct trained *out)
{
    struct eng_config c;
    char err[256];
    eng_config_defaults(&c);
    cr_assert_eq(eng_parse_layers(&c, layers, err, sizeof err), 0, "%s", err);
    c.act = act, c.loss = loss, c.opt = opt, c.batch = batch, c.threads = 1, c.lr = 0.01f;
    if (opt == ENG_OPT_ADAMW) c.weight_decay = 0.01f;
    struct eng_model *m;
    cr_assert_eq(eng_model_create(&c, be, &m, err, sizeof err), ENG_OK, "%s", err);
    eng_model_init(m, 7);
    struct eng_data d;
    cr_assert_eq(eng_data_synthetic(&d, batch * 4, c.sizes[0], c.sizes[c.nsizes - 1], loss, 11, err, sizeof err), ENG_OK);
    int out_w = c.sizes[c.nsizes - 1];
    float *x = malloc((size_t)batch * c.sizes[0] * sizeof *x);
    void *t = malloc((size_t)batch * (loss == ENG_LOSS_CE ? sizeof(int32_t) : out_w * sizeof(float)));
    out->losses = malloc((size_t)steps * sizeof *out->losses);
    for (int s = 0; s < steps; s++) {
        eng_data_batch(&d, s, batch, x, t);
        out->losses[s] = eng_model_step(m, x, t);
    }
    out->nparams = eng_model_param_count(m);
    out->params = malloc(out->nparams * sizeof *out->params);
    eng_model_get_params(m, out->params);
    free(x);
    free(t);
    eng_data_free(&d);
    eng_model_free(m);
}

static void free_trained(struct trained *t)
{
    free(t->losses);
    free(t->params);
}

/* |gpu - cpu| <= rel |cpu| + abs, the worst element reported */
static void expect_close(const float *gpu, const float *cpu, size_t n, double rel, double abs_tol, const char *what)
{
    size_t worst = 0;
    double worst_excess = -1;
    for (size_t i = 0; i < n; i++) {
        double excess = fabs((double)gpu[i] - cpu[i]) - (rel * fabs((double)cpu[i]) + abs_tol);
        if (excess > worst_excess) worst_excess = excess, worst = i;
    }
    cr_expect_leq(worst_excess, 0, "%s[%zu]: gpu %.9g cpu %.9g", what, worst, (double)gpu[worst], (double)cpu[worst]);
}

static void compare_backends(enum eng_precision prec, double rel, double abs_tol)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    static const struct {
        const char *layers;
        enum eng_act act;
        enum eng_loss loss;
        enum eng_opt opt;
        int batch;
    } cases[] = {
        {"64,128,128,10", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_ADAM, 32},
        {"33,50,7", ENG_ACT_GELU, ENG_LOSS_CE, ENG_OPT_ADAMW, 17},
        {"20,40,5", ENG_ACT_TANH, ENG_LOSS_MSE, ENG_OPT_MOMENTUM, 16},
        {"100,10", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_SGD, 32},
        {"256,1024,1000", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_ADAM, 64},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[512];
        struct trained cpu, gpu;
        train(eng_cpu_backend(), cases[i].layers, cases[i].act, cases[i].loss, cases[i].opt, cases[i].batch, 5, &cpu);
        cr_assert_eq(p->open(0, prec, NULL, err, sizeof err), 0, "%s", err);
        train(p->backend, cases[i].layers, cases[i].act, cases[i].loss, cases[i].opt, cases[i].batch, 5, &gpu);
        const char *e = p->last_error();
        cr_expect_null(e, "%s", e ? e : "");
        p->close();
        char what[96];
        snprintf(what, sizeof what, "%s losses", cases[i].layers);
        expect_close(gpu.losses, cpu.losses, 5, rel, abs_tol, what);
        snprintf(what, sizeof what, "%s weights", cases[i].layers);
        /* weights: an absolute floor of lr / 10^4, where Adam's step (about lr whatever the
         * gradient's size) meets gradients that summation order alone can move */
        expect_close(gpu.params, cpu.params, cpu.nparams, rel, abs_tol > 1e-6 ? abs_tol : 1e-6, what);
        free_trained(&cpu);
        free_trained(&gpu);
    }
}

/* fp32 with TF32 off: the same arithmetic in another order, so within 1e-5 relative (a small
 * absolute floor for weights that cross zero). */
Test(cuda, fp32_training_matches_the_cpu_backend) { compare_backends(ENG_PREC_FP32, 1e-5, 1e-7); }

/* bf16 matrix inputs: llm.c's tolerance, a threshold plus 0.079 x |reference|. */
Test(cuda, bf16_training_stays_within_bf16_tolerance) { compare_backends(ENG_PREC_BF16, 0.079, 2e-2); }

/* Small steps replay as one CUDA graph from the second step on; the numbers must be the bits
 * of the same steps launched one kernel at a time. */
Test(cuda, graph_replay_gives_the_same_bits)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    char err[512];
    struct trained eager, graph;
    setenv("FWADVISOR_CUDA_GRAPHS", "0", 1);
    cr_assert_eq(p->open(0, ENG_PREC_FP32, NULL, err, sizeof err), 0, "%s", err);
    train(p->backend, "100,10", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_ADAM, 32, 20, &eager);
    p->close();
    unsetenv("FWADVISOR_CUDA_GRAPHS");
    cr_assert_eq(p->open(0, ENG_PREC_FP32, NULL, err, sizeof err), 0, "%s", err);
    train(p->backend, "100,10", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_ADAM, 32, 20, &graph);
    const char *e = p->last_error();
    cr_expect_null(e, "%s", e ? e : "");
    p->close();
    cr_expect_arr_eq(graph.losses, eager.losses, 20 * sizeof(float));
    cr_expect_arr_eq(graph.params, eager.params, eager.nparams * sizeof(float));
    free_trained(&eager);
    free_trained(&graph);
}

Test(cuda, probe_kernels_check_their_results)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    char err[512];
    cr_assert_eq(p->open(0, ENG_PREC_FP32, NULL, err, sizeof err), 0, "%s", err);
    for (int t = ENG_PREC_FP32; t <= ENG_PREC_FP16; t++) {
        cr_assert_eq(p->bench_prepare(ENG_BENCH_GEMM, 512, t, err, sizeof err), 0, "%s", err);
        cr_expect_gt(p->bench_run(), 0);
        cr_expect(p->bench_check(), "gemm %s", eng_precision_name((enum eng_precision)t));
        p->bench_release();
    }
    static const enum eng_cuda_bench kinds[] = {ENG_BENCH_COPY, ENG_BENCH_H2D, ENG_BENCH_D2H};
    for (int k = 0; k < 3; k++)
        for (int pinned = 0; pinned < 2; pinned++) {
            cr_assert_eq(p->bench_prepare(kinds[k], (size_t)8 << 20, pinned, err, sizeof err), 0, "%s", err);
            cr_expect_gt(p->bench_run(), 0);
            cr_expect(p->bench_check(), "kind %d pinned %d", k, pinned);
            p->bench_release();
        }
    /* a check that can fail: a prepared but never run copy leaves the destination zeroed */
    cr_assert_eq(p->bench_prepare(ENG_BENCH_COPY, (size_t)1 << 20, 0, err, sizeof err), 0, "%s", err);
    cr_expect_not(p->bench_check());
    p->bench_release();
    p->close();
}

Test(cuda, gpu_probe_and_train_from_the_command_line)
{
    gpu_or_skip();
    struct ts_run r;
    RUN(r, "train", "--layers", "64,32,10", "--device", "cuda", "--steps", "20", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"device\":\t\"cuda\"") != NULL || strstr(r.out, "\"cuda\"") != NULL, "%s", r.out);
    ts_run_free(&r);
    RUN(r, "probe", "--device", "cuda", "--workload", "gemm,stream,transfer", "--no-save", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"copy_gbs\"") && strstr(r.out, "\"h2d_gbs\"") && strstr(r.out, "\"bf16\""), "%s", r.out);
    cr_expect(strstr(r.out, "result check failed") == NULL, "%s", r.out);
    ts_run_free(&r);
}

/* --- the catalog's peaks beside GPU results (no GPU needed) -------------------------------- */

Test(cuda, catalog_matches_by_longest_name_and_compute_capability)
{
    struct ts_kb t;
    char err[512];
    cr_assert_eq(ts_kb_open(&t, err, sizeof err), 0, "%s", err);
    struct kb_accel_peaks p;
    cr_expect_eq(kb_accel_lookup(t.kb, "NVIDIA H200", "9.0", &p), 1);
    cr_expect_str_eq(p.id, "h200-sxm");
    cr_expect_float_eq(p.bf16_tflops, 989.4, 0.01);
    cr_expect_float_eq(p.bandwidth_gbs, 4800, 0.01);
    cr_expect_eq(kb_accel_lookup(t.kb, "NVIDIA L40S", "8.9", &p), 1);
    cr_expect_str_eq(p.id, "l40s", "the longer match wins over l4");
    cr_expect_eq(kb_accel_lookup(t.kb, "NVIDIA H200", "8.0", &p), 0, "a different compute capability is no match");
    cr_expect_eq(kb_accel_lookup(t.kb, "Voodoo 5", "", &p), 0);
    ts_kb_close(&t);
}

Test(cuda, gpu_results_get_a_fraction_of_the_catalog_peak)
{
    struct probe_run *run = calloc(1, sizeof *run);
    run->hw.naccel = 1;
    struct probe_accel *a = &run->hw.accel[0];
    snprintf(a->kind, sizeof a->kind, "nvidia");
    snprintf(a->catalog_id, sizeof a->catalog_id, "h200-sxm");
    a->peak_fp32_tflops = 67, a->peak_bf16_tflops = 989.4, a->peak_fp16_tflops = 989.4, a->peak_bandwidth_gbs = 4800;
    static const struct { const char *workload, *metric, *device, *params; double median, fraction; } rows[] = {
        {"gemm", "gflops", "cuda:0", "{\"n\": 8192, \"dtype\": \"bf16\"}", 742050, 0.75},
        {"gemm", "gflops", "cuda:0", "{\"n\": 8192, \"dtype\": \"fp32\"}", 50250, 0.75},
        {"gemm", "gflops", "cuda:0", "{\"n\": 8192, \"dtype\": \"tf32\"}", 300000, -1},
        {"stream", "copy_gbs", "cuda:0", "{}", 4320, 0.9},
        {"train-mlp", "gflops", "cuda:0", "{\"precision\": \"bf16\"}", 494700, 0.5},
        {"train-mlp", "samples_per_s", "cuda:0", "{\"precision\": \"bf16\"}", 1000, 0.5},
        {"gemm", "gflops", "cpu", "{\"n\": 1024, \"dtype\": \"fp32\"}", 200, -1},
    };
    int n = sizeof rows / sizeof rows[0];
    for (int i = 0; i < n; i++) {
        struct probe_result *r = &run->results[i];
        snprintf(r->workload, sizeof r->workload, "%s", rows[i].workload);
        snprintf(r->metric, sizeof r->metric, "%s", rows[i].metric);
        snprintf(r->device, sizeof r->device, "%s", rows[i].device);
        snprintf(r->params, sizeof r->params, "%s", rows[i].params);
        r->stats.median = rows[i].median;
        r->peak_fraction = -1;
    }
    run->nresults = n;
    probe_apply_catalog(run);
    for (int i = 0; i < n; i++)
        cr_expect_float_eq(run->results[i].peak_fraction, rows[i].fraction, 1e-9, "row %d", i);
    free(run);
}

Test(cuda, detected_gpu_carries_its_catalog_peaks)
{
    const char *fake = getenv("FWADVISOR_FAKE_NVML"), *fx = getenv("FWADVISOR_FIXTURES");
    if (!fake || !*fake || !fx) cr_skip_test("FWADVISOR_FAKE_NVML not set (make test builds it)");
    char *dir = ts_tmpdir(), *db = ts_path(dir, "kb.sqlite3");
    char e1[600], e2[600], e3[600], e4[600];
    snprintf(e1, sizeof e1, "FWADVISOR_NVML_LIB=%s", fake);
    snprintf(e2, sizeof e2, "FWADVISOR_CUDA_LIB=%s", fake);
    snprintf(e3, sizeof e3, "FWADVISOR_DB=%s", db);
    snprintf(e4, sizeof e4, "FWADVISOR_SYSROOT=%s/sysroot/cpu-only", fx);
    const char *fenv[] = {"NO_COLOR=1", e1, e2, e3, e4, "FWADVISOR_CUDA_PLUGIN=/nonexistent.so", NULL};
    struct ts_run r;
    cr_assert_eq(ts_run(&r, fenv, NULL, (const char *const[]){"probe", "--workload", "train-tiny", "--no-save", "--json", NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"id\":\t\"h200-sxm\"") != NULL, "%s", r.out);
    ts_run_free(&r);
    ts_rmtree(dir);
    free(db);
    free(dir);
}
