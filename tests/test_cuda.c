/* The CUDA plug-in: it builds and loads with every symbol here and refuses one built from other
 * headers; the program says why there is no GPU back-end where there is none; on a machine with
 * an NVIDIA GPU, the GPU back-end computes the CPU back-end's gradients and losses to stated
 * tolerances, its optimizers to the bit, its GEMMs to a host reference in every layout, its
 * graphs to the bits of eager steps, and the probe kernels' results check out.
 *
 * Without a GPU the GPU's arithmetic is emulated on the CPU: the optimizer kernels' device code
 * (engine/cuda/numerics.h) compiled for the host against the CPU back-end bit for bit, and the
 * GPU tests' tolerances against the CPU back-end with its GEMMs summed in another order or fed
 * bf16 inputs, so the tolerances the GPU tests use are known to pass for the right arithmetic
 * and to fail for the wrong one. Tests that need a GPU skip with the reason. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cuda/numerics.h"
#include "engine/cuda/plugin.h"
#include "engine/engine.h"
#include "knowledge/kb.h"
#include "probes/dist.h"
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

/* GPU 0 opened in `precision`; close with close_checked. */
static const struct eng_backend *open_gpu(const struct eng_cuda_plugin *p, enum eng_precision precision)
{
    char err[512];
    cr_assert_eq(p->open(0, precision, NULL, err, sizeof err), 0, "%s", err);
    return p->backend;
}

static void close_checked(const struct eng_cuda_plugin *p)
{
    const char *e = p->last_error();
    cr_expect_null(e, "%s", e ? e : "");
    p->close();
}

TestSuite(cuda, .timeout = 240);

/* --- the plug-in and its loader (no GPU needed) ------------------------------------------- */

Test(cuda, plugin_loads_with_every_entry_point)
{
    const struct eng_cuda_plugin *p = plugin_or_skip();
    cr_expect_eq(p->abi, ENG_CUDA_ABI);
    cr_expect_str_eq(p->version, FWADVISOR_VERSION);
    const struct eng_cuda_sizes mine = ENG_CUDA_SIZES;
    cr_expect_eq(p->sizes.plugin, mine.plugin);
    cr_expect_eq(p->sizes.backend, mine.backend);
    cr_expect_eq(p->sizes.device, mine.device);
    cr_expect(p->device_count && p->open && p->close && p->bench_prepare && p->bench_run && p->bench_check &&
              p->bench_release && p->last_error && p->nccl_version && p->nccl_unique_id && p->nccl_join &&
              p->nccl_leave);
    const struct eng_backend *be = p->backend;
    cr_assert_not_null(be);
    cr_expect_str_eq(be->name, "cuda");
    cr_expect_eq(be->host_memory, 0);
    cr_expect(be->alloc && be->release && be->upload && be->download && be->set_threads && be->synchronize &&
              be->gemm && be->bias_act_forward && be->act_backward && be->bias_backward && be->loss &&
              be->adam_step && be->sgd_step && be->graph_begin && be->graph_end && be->graph_loss && be->graph_forget);
    /* Here or on a GPU machine alike: a device count, or the reason there is none. */
    char err[512] = "";
    int n = p->device_count(err, sizeof err);
    if (n < 0) cr_expect_neq(err[0], 0);
    else cr_expect_gt(n, 0);
}

/* The handshake compares the sizes of the structs both sides use: a plug-in whose back-end
 * struct is 8 bytes larger is refused with one line, not called through misread pointers. */
Test(cuda, plugin_from_other_headers_is_refused)
{
    const char *fake = getenv("FWADVISOR_FAKE_CUDA_PLUGIN");
    if (!fake || access(fake, F_OK) != 0) cr_skip_test("FWADVISOR_FAKE_CUDA_PLUGIN not built (make test builds it)");
    char var[600];
    snprintf(var, sizeof var, "FWADVISOR_CUDA_PLUGIN=%s", fake);
    const char *fenv[] = {"NO_COLOR=1", var, NULL};
    struct ts_run r;
    cr_assert_eq(ts_run(&r, fenv, NULL, (const char *const[]){"train", "--layers", "4,3", "--device", "cuda", NULL}), 0);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "no CUDA back-end: ") && strstr(r.err, "was built from other headers"), "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    ts_run_free(&r);
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

/* A rank's GPU is its local rank modulo the GPUs it sees: with one visible GPU per rank every
 * rank takes its device 0; with all of a node's GPUs visible, rank r takes GPU r. */
Test(cuda, each_rank_takes_its_local_rank_modulo_the_gpus_it_sees)
{
    cr_expect_eq(dist_gpu_for_rank(0, 1), 0);
    cr_expect_eq(dist_gpu_for_rank(3, 1), 0, "CUDA_VISIBLE_DEVICES set per rank");
    cr_expect_eq(dist_gpu_for_rank(3, 8), 3);
    cr_expect_eq(dist_gpu_for_rank(9, 8), 1, "more ranks than GPUs on the node");
    cr_expect_eq(dist_gpu_for_rank(2, 0), -1, "no GPU");
    cr_expect_eq(dist_gpu_for_rank(0, -1), -1, "the count failed");
}

/* NCCL is opened at run time: where it is missing (or is not NCCL) every NCCL call says so in
 * one line, and the plug-in itself loaded and works regardless. */
Test(cuda, nccl_missing_says_why_and_present_gives_its_version)
{
    const struct eng_cuda_plugin *p = plugin_or_skip();
    char err[512] = "", id[ENG_NCCL_ID_BYTES];
    setenv("FWADVISOR_NCCL_LIB", "/nonexistent/libnccl.so.2", 1);
    cr_expect_eq(p->nccl_version(err, sizeof err), -1);
    cr_expect(strstr(err, "NCCL is not available") && strstr(err, "/nonexistent/libnccl.so.2"), "%s", err);
    err[0] = 0;
    cr_expect_eq(p->nccl_unique_id(id, err, sizeof err), -1);
    cr_expect(strstr(err, "NCCL is not available") != NULL, "%s", err);
    memset(id, 0, sizeof id);
    err[0] = 0;
    cr_expect_eq(p->nccl_join(id, 0, 1, err, sizeof err), -1);
    cr_expect(strstr(err, "NCCL is not available") != NULL, "%s", err);
    const char *fake = getenv("FWADVISOR_FAKE_NVML"); /* a library that is not NCCL */
    if (fake && access(fake, F_OK) == 0) {
        setenv("FWADVISOR_NCCL_LIB", fake, 1);
        cr_expect_eq(p->nccl_version(err, sizeof err), -1);
        cr_expect(strstr(err, "has no ncclGetVersion (NCCL 2.4 or newer is needed)") != NULL, "%s", err);
    }
    unsetenv("FWADVISOR_NCCL_LIB");
    int v = p->nccl_version(err, sizeof err);
    if (v < 0) cr_expect(strstr(err, "NCCL is not available") != NULL, "%s", err);
    else cr_expect_geq(v, 20400, "NCCL_VERSION_CODE %d: 2.4 or newer (ncclCommAbort, async errors)", v);
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

/* --- optimizer inputs and the emulated optimizer kernels ------------------------------------ */

static float uniform_pm1(struct eng_rng *r) { return eng_rng_uniform(r) * 2.0f - 1.0f; }

/* Weights, gradients and optimizer state of n elements (n >= 8): gradients over 24 binades,
 * v >= 0, and at the front the edge cases, a zero gradient and weight, subnormal gradients, and
 * a gradient whose square overflows v to infinity (then m / inf = 0). No NaN: a NaN's payload
 * is the one thing x86 and the GPU propagate differently. */
static void optimizer_inputs(size_t n, uint64_t seed, float *p, float *g, float *m, float *v)
{
    struct eng_rng r;
    eng_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) {
        p[i] = uniform_pm1(&r);
        g[i] = ldexpf(uniform_pm1(&r), -(int)(eng_rng_next(&r) % 24));
        m[i] = g[i] * uniform_pm1(&r);
        v[i] = g[i] * g[i] * eng_rng_uniform(&r);
    }
    static const float edge_g[8] = {0.0f, 1e-40f, -3e-39f, 3e30f, -1e-20f, 1.0f, -0.5f, 0.0f};
    for (int i = 0; i < 8; i++) {
        g[i] = edge_g[i];
        m[i] = v[i] = 0.0f;
    }
    p[7] = 0.0f;
}

/* The steps the engine takes (model.c's issue_update): bias corrections in double. */
static struct eng_adam_args adam_args(int step, int decoupled, float weight_decay)
{
    struct eng_adam_args a = {1e-3f, 0.9f, 0.999f, 1e-8f, weight_decay, decoupled,
                              1.0 - pow(0.9, (double)step), 1.0 - pow(0.999, (double)step)};
    return a;
}

enum opt_case { OPT_ADAM, OPT_ADAM_L2, OPT_ADAMW, OPT_SGD, OPT_SGD_L2, OPT_MOMENTUM };
static const char *const opt_case_names[] = {"adam", "adam+l2", "adamw", "sgd", "sgd+l2", "momentum"};

/* One step of optimizer case c, step number `step` (from 1), on a back-end. */
static void backend_opt_step(const struct eng_backend *be, enum opt_case c, int step, float *p, const float *g,
                             float *m, float *v, size_t n)
{
    if (c <= OPT_ADAMW) {
        struct eng_adam_args a = adam_args(step, c == OPT_ADAMW, c == OPT_ADAM ? 0.0f : c == OPT_ADAM_L2 ? 0.01f : 0.1f);
        be->adam_step(p, g, m, v, n, &a);
    } else {
        struct eng_sgd_args a = {0.05f, c == OPT_MOMENTUM ? 0.9f : 0.0f, c == OPT_SGD ? 0.0f : 0.01f, step == 1};
        be->sgd_step(p, g, m, n, &a);
    }
}

/* The same step through numerics.h compiled for the host: the device's code, element by element.
 * fused_v: compute Adam's v with one fused multiply-add, as nvcc would without the explicit
 * intrinsics, to show the comparison sees a single rounding. */
static void emulated_opt_step(enum opt_case c, int step, float *p, const float *g, float *m, float *v, size_t n,
                              int fused_v)
{
    if (c <= OPT_ADAMW) {
        struct eng_adam_args a = adam_args(step, c == OPT_ADAMW, c == OPT_ADAM ? 0.0f : c == OPT_ADAM_L2 ? 0.01f : 0.1f);
        struct eng_adam_scalars s = eng_adam_scalars_of(&a);
        for (size_t i = 0; i < n; i++) {
            float v_before = v[i];
            eng_adam_element(&p[i], &m[i], &v[i], g[i], &s);
            /* plain Adam (no weight decay): the gradient used is g itself */
            if (fused_v) v[i] = fmaf(s.one_b2 * g[i], g[i], s.b2 * v_before);
        }
    } else {
        struct eng_sgd_args a = {0.05f, c == OPT_MOMENTUM ? 0.9f : 0.0f, c == OPT_SGD ? 0.0f : 0.01f, step == 1};
        struct eng_sgd_scalars s = eng_sgd_scalars_of(&a);
        for (size_t i = 0; i < n; i++) eng_sgd_element(&p[i], c == OPT_MOMENTUM ? &m[i] : NULL, g[i], &s);
    }
}

struct opt_state {
    float *p, *g, *m, *v;
};

static void opt_state_alloc(struct opt_state *s, size_t n)
{
    s->p = malloc(n * sizeof(float)), s->g = malloc(n * sizeof(float));
    s->m = malloc(n * sizeof(float)), s->v = malloc(n * sizeof(float));
    cr_assert(s->p && s->g && s->m && s->v);
}

static void opt_state_free(struct opt_state *s) { free(s->p), free(s->g), free(s->m), free(s->v); }

/* Elements whose bits differ in p, m or v. */
static size_t bits_differ(const struct opt_state *a, const struct opt_state *b, size_t n, size_t *first)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a->p[i], &b->p[i], 4) || memcmp(&a->m[i], &b->m[i], 4) || memcmp(&a->v[i], &b->v[i], 4))
            if (count++ == 0 && first) *first = i;
    return count;
}

/* The optimizer kernels' device code, compiled here for the host, gives the CPU back-end's bits
 * for every case over three steps (so three bias corrections and momentum's first and later
 * steps); and a single fused multiply-add in Adam's v is caught, so the comparison is one that
 * an ulp fails. */
Test(cuda, optimizer_device_code_gives_the_cpu_backends_bits)
{
    enum { N = 4099 };
    struct opt_state cpu, emu;
    opt_state_alloc(&cpu, N);
    opt_state_alloc(&emu, N);
    for (int c = OPT_ADAM; c <= OPT_MOMENTUM; c++) {
        optimizer_inputs(N, 100 + (uint64_t)c, cpu.p, cpu.g, cpu.m, cpu.v);
        optimizer_inputs(N, 100 + (uint64_t)c, emu.p, emu.g, emu.m, emu.v);
        for (int step = 1; step <= 3; step++) {
            backend_opt_step(eng_cpu_backend(), (enum opt_case)c, step, cpu.p, cpu.g, cpu.m, cpu.v, N);
            emulated_opt_step((enum opt_case)c, step, emu.p, emu.g, emu.m, emu.v, N, 0);
            size_t first = 0, bad = bits_differ(&cpu, &emu, N, &first);
            cr_expect_eq(bad, 0, "%s step %d: %zu elements differ, first %zu: p %a vs %a", opt_case_names[c], step, bad,
                         first, (double)cpu.p[first], (double)emu.p[first]);
        }
    }
    /* one fused rounding in v: some of the 4099 elements must come out different */
    optimizer_inputs(N, 7, cpu.p, cpu.g, cpu.m, cpu.v);
    optimizer_inputs(N, 7, emu.p, emu.g, emu.m, emu.v);
    backend_opt_step(eng_cpu_backend(), OPT_ADAM, 1, cpu.p, cpu.g, cpu.m, cpu.v, N);
    emulated_opt_step(OPT_ADAM, 1, emu.p, emu.g, emu.m, emu.v, N, 1);
    cr_expect_gt(bits_differ(&cpu, &emu, N, NULL), 0, "a fused multiply-add went unnoticed");
    opt_state_free(&cpu);
    opt_state_free(&emu);
}

/* --- GEMM against a host reference ----------------------------------------------------------- */

static size_t span_of(int rows, int cols, int ld) { return rows > 0 ? (size_t)(rows - 1) * ld + cols : 0; }

#define PAD_SENTINEL 12345.0f

/* C = alpha op(A) op(B) + beta C on `be` with random operands, every leading dimension `pad`
 * wider than its matrix (the gaps in C holding a sentinel), against a double-precision
 * reference computed as if the operands were transposed ref_ta/ref_tb. Returns the worst
 * |C - ref| / tolerance over C (above 1: a wrong entry), or INFINITY when a gap was written. */
static double gemm_worst(const struct eng_backend *be, struct eng_gemm_rounding rounding, int ta, int tb, int m,
                         int n, int k, int pad, int ref_ta, int ref_tb, uint64_t seed)
{
    int lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad, ldc = n + pad;
    size_t na = span_of(ta ? k : m, ta ? m : k, lda), nb = span_of(tb ? n : k, tb ? k : n, ldb);
    size_t nc = (size_t)m * ldc;
    float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c0 = malloc(nc * sizeof *c0),
          *c = malloc(nc * sizeof *c);
    cr_assert(a && b && c0 && c);
    struct eng_rng r;
    eng_rng_seed(&r, seed);
    for (size_t i = 0; i < na; i++) a[i] = uniform_pm1(&r);
    for (size_t i = 0; i < nb; i++) b[i] = uniform_pm1(&r);
    for (size_t i = 0; i < nc; i++) c0[i] = (int)(i % ldc) >= n ? PAD_SENTINEL : uniform_pm1(&r);
    float *da = be->alloc(na * sizeof *a), *db = be->alloc(nb * sizeof *b), *dc = be->alloc(nc * sizeof *c);
    cr_assert(da && db && dc);
    be->upload(da, a, na * sizeof *a);
    be->upload(db, b, nb * sizeof *b);
    be->upload(dc, c0, nc * sizeof *c);
    const float alpha = 0.75f, beta = 0.5f;
    be->gemm(ta, tb, m, n, k, alpha, da, lda, db, ldb, beta, dc, ldc);
    be->synchronize();
    be->download(c, dc, nc * sizeof *c);
    double worst = 0;
    for (int i = 0; i < m; i++) {
        for (int j = n; j < ldc; j++)
            if (c[(size_t)i * ldc + j] != PAD_SENTINEL) worst = INFINITY;
        for (int j = 0; j < n; j++) {
            double dot = 0, sum_abs = 0, sum_sq = 0;
            for (int l = 0; l < k; l++) {
                double x = (double)(ref_ta ? a[(size_t)l * lda + i] : a[(size_t)i * lda + l]) *
                           (ref_tb ? b[(size_t)j * ldb + l] : b[(size_t)l * ldb + j]);
                dot += x, sum_abs += fabs(x), sum_sq += x * x;
            }
            double old = c0[(size_t)i * ldc + j], ref = alpha * dot + beta * old;
            /* the dot product's tolerance, scaled by alpha, and a rounding or two of fp32 for
             * the scaling and the sum with beta C */
            double tol = alpha * eng_gemm_tolerance(rounding, k, sum_abs, sum_sq, dot) +
                         0x1p-22 * (fabs(alpha * dot) + fabs(beta * old));
            double ratio = fabs(c[(size_t)i * ldc + j] - ref) / tol;
            if (!(ratio <= worst)) worst = ratio; /* NaN counts as worst */
        }
    }
    be->release(da), be->release(db), be->release(dc);
    free(a), free(b), free(c0), free(c);
    return worst;
}

/* Odd sizes (no multiple of a tile), a long k, and a single entry; every layout padded. */
static const struct {
    int m, n, k, pad;
} gemm_shapes[] = {{37, 53, 71, 3}, {129, 67, 1031, 5}, {1, 1, 1, 1}, {64, 256, 8, 0}};

/* --- the GPU's arithmetic emulated on the CPU ------------------------------------------------ */

static float round_to_bf16(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u; /* nearest even */
    memcpy(&x, &u, 4);
    return x;
}

/* GEMM with bf16 inputs and fp32 accumulation, as cu_gemm computes in bf16 precision. */
static void gemm_bf16_inputs(int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                             int ldb, float beta, float *c, int ldc)
{
    size_t na = span_of(ta ? k : m, ta ? m : k, lda), nb = span_of(tb ? n : k, tb ? k : n, ldb);
    float *a16 = malloc((na + 1) * sizeof *a16), *b16 = malloc((nb + 1) * sizeof *b16);
    cr_assert(a16 && b16);
    for (size_t i = 0; i < na; i++) a16[i] = round_to_bf16(a[i]);
    for (size_t i = 0; i < nb; i++) b16[i] = round_to_bf16(b[i]);
    eng_cpu_backend()->gemm(ta, tb, m, n, k, alpha, a16, lda, b16, ldb, beta, c, ldc);
    free(a16), free(b16);
}

/* GEMM in fp32 summed in another order, as cuBLAS sums: the two halves of k apart, then added
 * (a split-k GEMM). */
static void gemm_split_k(int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                         int ldb, float beta, float *c, int ldc)
{
    const struct eng_backend *cpu = eng_cpu_backend();
    int k1 = k / 2;
    if (k1 == 0) {
        cpu->gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    float *part = malloc((size_t)m * n * sizeof *part);
    cr_assert(part);
    cpu->gemm(ta, tb, m, n, k1, alpha, a, lda, b, ldb, beta, c, ldc);
    const float *a2 = ta ? a + (size_t)k1 * lda : a + k1, *b2 = tb ? b + k1 : b + (size_t)k1 * ldb;
    cpu->gemm(ta, tb, m, n, k - k1, alpha, a2, lda, b2, ldb, 0.0f, part, n);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) c[(size_t)i * ldc + j] += part[(size_t)i * n + j];
    free(part);
}

/* The CPU back-end with its GEMM replaced: the GPU's arithmetic, as far as it is not the
 * transcendental functions (the GPU's expf, erff and tanhf differ from glibc's by an ulp or
 * two, of the same order as the GEMMs' reordering). */
static const struct eng_backend *emulated_gpu(int bf16)
{
    static struct eng_backend emu;
    emu = *eng_cpu_backend();
    emu.name = bf16 ? "emulated bf16" : "emulated fp32";
    emu.gemm = bf16 ? gemm_bf16_inputs : gemm_split_k;
    return &emu;
}

/* The reference check does fail: bf16 inputs under the fp32 rule, and a transposed operand. */
Test(cuda, gemm_reference_check_passes_right_results_and_fails_wrong_ones)
{
    const struct eng_backend *cpu = eng_cpu_backend();
    struct eng_gemm_rounding fp32 = eng_gemm_rounding_of(ENG_PREC_FP32, 0, 0), bf16 = eng_gemm_rounding_of(ENG_PREC_BF16, 0, 0);
    for (size_t s = 0; s < sizeof gemm_shapes / sizeof gemm_shapes[0]; s++)
        for (int t = 0; t < 4; t++) {
            int ta = t & 1, tb = t >> 1, m = gemm_shapes[s].m, n = gemm_shapes[s].n, k = gemm_shapes[s].k;
            double w = gemm_worst(cpu, fp32, ta, tb, m, n, k, gemm_shapes[s].pad, ta, tb, 1 + s);
            cr_expect_leq(w, 1.0, "cpu %dx%dx%d ta %d tb %d: %.3g of the tolerance", m, n, k, ta, tb, w);
            w = gemm_worst(emulated_gpu(1), bf16, ta, tb, m, n, k, gemm_shapes[s].pad, ta, tb, 1 + s);
            cr_expect_leq(w, 1.0, "bf16 %dx%dx%d ta %d tb %d: %.3g of the tolerance", m, n, k, ta, tb, w);
        }
    double w = gemm_worst(emulated_gpu(1), fp32, 0, 0, 37, 53, 71, 3, 0, 0, 9);
    cr_expect_gt(w, 1.0, "bf16 inputs passed for fp32: %.3g", w);
    w = gemm_worst(cpu, bf16, 0, 0, 64, 64, 64, 2, 1, 0, 9);
    cr_expect_gt(w, 1.0, "a transposed A passed: %.3g", w);
}

/* The tolerance rule's numbers, worked by hand.
 *   fp32 GEMM, operands exact, n = 8192, sum |x| = 2048 (uniform [-1, 1) operands: E|ab| = 1/4),
 *   entry 30:  8 sqrt(8192) 2^-24 2048 + 2^-24 30 = 8 x 90.50967 x 1.2207031e-4 + 1.79e-6
 *            = 0.0883883 + 0.0000018 = 0.0883901
 *   the same in bf16 with a bf16 output: 0.0883883 + 2^-8 x 30 = 0.0883883 + 0.1171875 = 0.2055758
 *   TF32 (fp32 operands chopped to 11 bits), sum x^2 = 910: + 8 x 2 x 2^-10 x sqrt(910) = 0.4713470
 *            on top of the fp32 figure: 0.5597371
 *   engine GEMM in bf16 (fp32 operands rounded to bf16), k = 71, sum |x| = 17.75, sum x^2 = 7.9,
 *   entry 2.8:  8 (2 x 2^-7 x sqrt(7.9) + sqrt(71) 2^-24 17.75) + 2^-24 2.8 = 0.3514082 */
Test(cuda, gemm_tolerance_follows_precision_and_k)
{
    struct eng_gemm_rounding r = eng_gemm_rounding_of(ENG_PREC_FP32, 1, 0);
    cr_expect_float_eq(eng_gemm_tolerance(r, 8192, 2048, 0, 30), 0.0883901358, 1e-9);
    r = eng_gemm_rounding_of(ENG_PREC_BF16, 1, 1);
    cr_expect_float_eq(eng_gemm_tolerance(r, 8192, 2048, 0, 30), 0.2055758476, 1e-9);
    r = eng_gemm_rounding_of(ENG_PREC_TF32, 0, 0);
    cr_expect_float_eq(eng_gemm_tolerance(r, 8192, 2048, 910, 30), 0.5597371086, 1e-9);
    r = eng_gemm_rounding_of(ENG_PREC_BF16, 0, 0);
    cr_expect_float_eq(eng_gemm_tolerance(r, 71, 17.75, 7.9, 2.8), 0.3514082177, 1e-9);
    /* the old rule's allowance at n = 8192, 1e-6 n (sum |x| + 1), was 16.79: 190 times this one */
    cr_expect_gt(1e-6 * 8192 * 2049 / eng_gemm_tolerance(eng_gemm_rounding_of(ENG_PREC_FP32, 1, 0), 8192, 2048, 0, 30),
                 189);
}

/* --- training on another back-end against the CPU back-end --------------------------------- */

struct train_case {
    const char *layers;
    enum eng_act act;
    enum eng_loss loss;
    enum eng_opt opt;
    int batch;
};

static const struct train_case train_cases[] = {
    {"64,128,128,10", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_ADAM, 32},
    {"33,50,7", ENG_ACT_GELU, ENG_LOSS_CE, ENG_OPT_ADAMW, 17},
    {"20,40,5", ENG_ACT_TANH, ENG_LOSS_MSE, ENG_OPT_MOMENTUM, 16},
    {"100,10", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_SGD, 32},
    {"256,1024,1000", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_ADAM, 64},
};

/* A model and its data on a back-end, stepped one batch at a time. */
struct session {
    struct eng_model *m;
    struct eng_data d;
    float *x;
    void *t;
    int batch;
};

static void session_open(struct session *s, const struct eng_backend *be, const struct train_case *tc)
{
    struct eng_config c;
    char err[256];
    eng_config_defaults(&c);
    cr_assert_eq(eng_parse_layers(&c, tc->layers, err, sizeof err), 0, "%s", err);
    c.act = tc->act, c.loss = tc->loss, c.opt = tc->opt, c.batch = tc->batch, c.threads = 1, c.lr = 0.01f;
    if (tc->opt == ENG_OPT_ADAMW) c.weight_decay = 0.01f;
    cr_assert_eq(eng_model_create(&c, be, &s->m, err, sizeof err), ENG_OK, "%s", err);
    eng_model_init(s->m, 7);
    int in = c.sizes[0], out = c.sizes[c.nsizes - 1];
    cr_assert_eq(eng_data_synthetic(&s->d, tc->batch * 4, in, out, tc->loss, 11, err, sizeof err), ENG_OK, "%s", err);
    s->x = malloc((size_t)tc->batch * in * sizeof(float));
    s->t = malloc((size_t)tc->batch * (tc->loss == ENG_LOSS_CE ? sizeof(int32_t) : out * sizeof(float)));
    cr_assert(s->x && s->t);
    s->batch = tc->batch;
}

static float session_step(struct session *s, int k)
{
    eng_data_batch(&s->d, k, s->batch, s->x, s->t);
    return eng_model_step(s->m, s->x, s->t);
}

static void session_close(struct session *s)
{
    eng_model_free(s->m);
    eng_data_free(&s->d);
    free(s->x);
    free(s->t);
}

enum { CURVE = 5 };

struct case_run {
    float *grads; /* after the first forward/backward: flat, layer 0 weight, layer 0 bias, ... */
    float losses[CURVE];
    size_t nparams;
};

/* The gradients of the first batch, then the losses of CURVE steps (the first step's included). */
static void run_case(const struct eng_backend *be, const struct train_case *tc, struct case_run *out)
{
    struct session s;
    session_open(&s, be, tc);
    eng_data_batch(&s.d, 0, s.batch, s.x, s.t);
    out->losses[0] = eng_model_forward_backward(s.m, s.x, s.t);
    out->nparams = eng_model_param_count(s.m);
    out->grads = malloc(out->nparams * sizeof *out->grads);
    cr_assert(out->grads);
    eng_model_get_grads(s.m, out->grads);
    eng_model_update(s.m);
    for (int k = 1; k < CURVE; k++) out->losses[k] = session_step(&s, k);
    session_close(&s);
}

/* Gradients: every one within `grad` of the model's largest gradient (the GPU's error is
 * absolute, set by the terms summed, so a gradient near zero is no more exact than a large one),
 * and each tensor within `grad_norm` in relative L2 norm (so that a tensor computed wrongly as a
 * whole, small ones included, cannot hide under the largest gradient). Losses: within
 * loss_rel |reference| + loss_abs at each of the CURVE steps. */
struct tolerance {
    double grad, grad_norm, loss_rel, loss_abs;
};

/* fp32, TF32 off: the same sums in another order, to about sqrt(k) ulps of the largest terms
 * (emulated: 5e-7 of the largest gradient, 3e-7 of a tensor's norm at worst), so 1e-5; after 5
 * steps the losses agree to an ulp or two (emulated: 1e-7), since the weights whose Adam steps
 * flip with summation order are those with gradients near zero, which move the loss to second
 * order only. */
static const struct tolerance fp32_tolerance = {1e-5, 1e-5, 1e-5, 1e-6};
/* bf16 matrix inputs (8-bit significands, 2^-8 relative each), summed into gradients that
 * largely cancel (a mean over the batch at initialisation): emulated, 3.0% of the largest
 * gradient and 5.7% of a tensor's norm at worst, so 10% and 25%; the losses 0.24%, so 2%. */
static const struct tolerance bf16_tolerance = {0.10, 0.25, 0.02, 1e-3};

/* The worst of each measure over every case, as a fraction of its tolerance (<= 1 passes). */
struct verdict {
    double grads, grad_norms, losses;
    char grads_where[160], grad_norms_where[160], losses_where[160];
};

static void worst_of(double ratio, double *worst, char *where, size_t wheresz, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Keeps the larger ratio (NaN counts as the worst) and says where it was. */
static void worst_of(double ratio, double *worst, char *where, size_t wheresz, const char *fmt, ...)
{
    if (ratio <= *worst) return;
    *worst = isnan(ratio) ? INFINITY : ratio;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where, wheresz, fmt, ap);
    va_end(ap);
}

static void judge_case(const struct train_case *tc, const struct case_run *ref, const struct case_run *got,
                       const struct tolerance *tol, struct verdict *v)
{
    struct eng_config c;
    char err[64];
    eng_config_defaults(&c);
    cr_assert_eq(eng_parse_layers(&c, tc->layers, err, sizeof err), 0);
    cr_assert_eq(got->nparams, ref->nparams);
    double largest = 0;
    for (size_t i = 0; i < ref->nparams; i++) largest = fmax(largest, fabs((double)ref->grads[i]));
    size_t at = 0;
    for (int layer = 0; layer + 1 < c.nsizes; layer++)
        for (int part = 0; part < 2; part++) {
            size_t len = (size_t)c.sizes[layer + 1] * (part ? 1 : (size_t)c.sizes[layer]);
            double diff = 0, ref_sq = 0, diff_sq = 0;
            for (size_t i = at; i < at + len; i++) {
                double d = (double)got->grads[i] - ref->grads[i];
                if (!(fabs(d) <= diff)) diff = fabs(d);
                diff_sq += d * d;
                ref_sq += (double)ref->grads[i] * ref->grads[i];
            }
            const char *name = part ? "bias" : "weight";
            worst_of(diff / (tol->grad * largest), &v->grads, v->grads_where, sizeof v->grads_where,
                     "%s layer %d %s: off by %.3g, the largest gradient %.3g", tc->layers, layer, name, diff, largest);
            worst_of(diff_sq == 0 ? 0 : sqrt(diff_sq / ref_sq) / tol->grad_norm, &v->grad_norms, v->grad_norms_where,
                     sizeof v->grad_norms_where, "%s layer %d %s: %.3g of its norm", tc->layers, layer, name,
                     sqrt(diff_sq / ref_sq));
            at += len;
        }
    for (int k = 0; k < CURVE; k++) {
        double d = fabs((double)got->losses[k] - ref->losses[k]);
        worst_of(d / (tol->loss_rel * fabs((double)ref->losses[k]) + tol->loss_abs), &v->losses, v->losses_where,
                 sizeof v->losses_where, "%s step %d: %.9g against %.9g", tc->layers, k, (double)got->losses[k],
                 (double)ref->losses[k]);
    }
}

static struct verdict compare_with_cpu(const struct eng_backend *be, const struct tolerance *tol)
{
    struct verdict v = {0, 0, 0, "", "", ""};
    for (size_t i = 0; i < sizeof train_cases / sizeof train_cases[0]; i++) {
        struct case_run ref, got;
        run_case(eng_cpu_backend(), &train_cases[i], &ref);
        run_case(be, &train_cases[i], &got);
        judge_case(&train_cases[i], &ref, &got, tol, &v);
        free(ref.grads);
        free(got.grads);
    }
    return v;
}

/* The GPU tests' tolerances hold, with room (at most a fifth of the fp32 ones used, half of the
 * bf16 ones), for the GPU's arithmetic emulated here (fp32 summed in another order; bf16
 * inputs); the emulation does move the numbers; and the fp32 tolerance fails bf16 arithmetic:
 * the fp32 GPU test would notice bf16 (or TF32) GEMMs where fp32 was asked for. */
Test(cuda, training_tolerances_hold_for_emulated_gpu_arithmetic)
{
    struct verdict v = compare_with_cpu(emulated_gpu(0), &fp32_tolerance);
    if (getenv("FWADVISOR_TEST_VERBOSE"))
        fprintf(stderr, "fp32: %.3g %.3g %.3g of the tolerances\n", v.grads, v.grad_norms, v.losses);
    cr_expect_leq(v.grads, 0.2, "fp32 gradients: %.3g of the tolerance at %s", v.grads, v.grads_where);
    cr_expect_leq(v.grad_norms, 0.2, "fp32 gradients: %.3g of the tolerance at %s", v.grad_norms, v.grad_norms_where);
    cr_expect_leq(v.losses, 0.2, "fp32 losses: %.3g of the tolerance at %s", v.losses, v.losses_where);
    cr_expect_gt(v.grads, 0.0, "the reordered sums changed no gradient: the emulation emulates nothing");
    v = compare_with_cpu(emulated_gpu(1), &bf16_tolerance);
    if (getenv("FWADVISOR_TEST_VERBOSE"))
        fprintf(stderr, "bf16: %.3g %.3g %.3g of the tolerances\n", v.grads, v.grad_norms, v.losses);
    cr_expect_leq(v.grads, 0.5, "bf16 gradients: %.3g of the tolerance at %s", v.grads, v.grads_where);
    cr_expect_leq(v.grad_norms, 0.5, "bf16 gradients: %.3g of the tolerance at %s", v.grad_norms, v.grad_norms_where);
    cr_expect_leq(v.losses, 0.5, "bf16 losses: %.3g of the tolerance at %s", v.losses, v.losses_where);
    v = compare_with_cpu(emulated_gpu(1), &fp32_tolerance);
    cr_expect_gt(v.grads, 1.0, "bf16 gradients passed the fp32 tolerance: %.3g", v.grads);
    cr_expect_gt(v.grad_norms, 1.0, "bf16 gradients passed the fp32 tolerance: %.3g", v.grad_norms);
}

/* --- on a GPU ------------------------------------------------------------------------------ */

static void expect_gpu_matches_cpu(enum eng_precision precision, const struct tolerance *tol)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    struct verdict v = compare_with_cpu(open_gpu(p, precision), tol);
    close_checked(p);
    cr_expect_leq(v.grads, 1.0, "%s gradients: %.3g of the tolerance at %s", eng_precision_name(precision), v.grads,
                  v.grads_where);
    cr_expect_leq(v.grad_norms, 1.0, "%s gradients: %.3g of the tolerance at %s", eng_precision_name(precision),
                  v.grad_norms, v.grad_norms_where);
    cr_expect_leq(v.losses, 1.0, "%s losses: %.3g of the tolerance at %s", eng_precision_name(precision), v.losses,
                  v.losses_where);
}

Test(cuda, fp32_gradients_and_loss_curve_match_the_cpu_backend) { expect_gpu_matches_cpu(ENG_PREC_FP32, &fp32_tolerance); }

Test(cuda, bf16_gradients_and_loss_curve_within_bf16_tolerance) { expect_gpu_matches_cpu(ENG_PREC_BF16, &bf16_tolerance); }

/* The optimizer kernels on identical inputs: the CPU back-end's bits after every step, launched
 * one kernel at a time and replayed from a captured CUDA graph (whose scalars change with each
 * step's bias correction). n is odd and larger than one block's worth. */
Test(cuda, optimizer_kernels_give_the_cpu_backends_bits_eagerly_and_in_a_graph)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    unsetenv("FWADVISOR_CUDA_GRAPHS");
    const struct eng_backend *be = open_gpu(p, ENG_PREC_FP32);
    enum { N = 100003 };
    struct opt_state cpu, gpu;
    opt_state_alloc(&cpu, N);
    opt_state_alloc(&gpu, N);
    size_t bytes = N * sizeof(float);
    float *dp = be->alloc(bytes), *dg = be->alloc(bytes), *dm = be->alloc(bytes), *dv = be->alloc(bytes);
    cr_assert(dp && dg && dm && dv);
    int key;
    for (int c = OPT_ADAM; c <= OPT_MOMENTUM; c++) {
        optimizer_inputs(N, 200 + (uint64_t)c, cpu.p, cpu.g, cpu.m, cpu.v);
        be->upload(dp, cpu.p, bytes), be->upload(dg, cpu.g, bytes), be->upload(dm, cpu.m, bytes), be->upload(dv, cpu.v, bytes);
        for (int step = 1; step <= 4; step++) {
            /* step 1 eager; step 2 captured and launched; steps 3 and 4 replayed */
            int graphed = step >= 2;
            if (graphed) be->graph_begin(&key, 1);
            backend_opt_step(be, (enum opt_case)c, step, dp, dg, dm, dv, N);
            if (graphed) be->graph_end();
            be->synchronize();
            backend_opt_step(eng_cpu_backend(), (enum opt_case)c, step, cpu.p, cpu.g, cpu.m, cpu.v, N);
            be->download(gpu.p, dp, bytes), be->download(gpu.m, dm, bytes), be->download(gpu.v, dv, bytes);
            if (c > OPT_ADAMW) memcpy(gpu.v, cpu.v, bytes); /* SGD has no v */
            if (c != OPT_MOMENTUM && c > OPT_ADAMW) memcpy(gpu.m, cpu.m, bytes);
            size_t first = 0, bad = bits_differ(&cpu, &gpu, N, &first);
            cr_expect_eq(bad, 0, "%s step %d (%s): %zu elements differ, first %zu: p %a vs %a", opt_case_names[c], step,
                         graphed ? "graph" : "eager", bad, first, (double)cpu.p[first], (double)gpu.p[first]);
        }
        be->graph_forget(&key);
    }
    be->release(dp), be->release(dg), be->release(dm), be->release(dv);
    opt_state_free(&cpu);
    opt_state_free(&gpu);
    close_checked(p);
}

/* cuBLAS through the back-end's gemm: the four transpose combinations, odd sizes, leading
 * dimensions wider than the matrices (the gaps in C untouched), alpha and beta, random
 * operands, in fp32, TF32 and bf16, each within the tolerance of its precision and k. */
Test(cuda, gemm_matches_a_host_reference_in_every_layout_and_precision)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    static const enum eng_precision precisions[] = {ENG_PREC_FP32, ENG_PREC_TF32, ENG_PREC_BF16};
    for (int q = 0; q < 3; q++) {
        const struct eng_backend *be = open_gpu(p, precisions[q]);
        struct eng_gemm_rounding rounding = eng_gemm_rounding_of(precisions[q], 0, 0);
        for (size_t s = 0; s < sizeof gemm_shapes / sizeof gemm_shapes[0]; s++)
            for (int t = 0; t < 4; t++) {
                int ta = t & 1, tb = t >> 1, m = gemm_shapes[s].m, n = gemm_shapes[s].n, k = gemm_shapes[s].k;
                double w = gemm_worst(be, rounding, ta, tb, m, n, k, gemm_shapes[s].pad, ta, tb, 40 + s);
                cr_expect_leq(w, 1.0, "%s %dx%dx%d ta %d tb %d: %.3g of the tolerance", eng_precision_name(precisions[q]),
                              m, n, k, ta, tb, w);
            }
        close_checked(p);
    }
}

/* Small steps replay as one CUDA graph from the second step on; the numbers must be the bits
 * of the same steps launched one kernel at a time. */
static void train_steps(const struct eng_backend *be, const struct train_case *tc, int steps, float *losses,
                        float **params, size_t *nparams)
{
    struct session s;
    session_open(&s, be, tc);
    for (int k = 0; k < steps; k++) losses[k] = session_step(&s, k);
    *nparams = eng_model_param_count(s.m);
    *params = malloc(*nparams * sizeof **params);
    cr_assert(*params);
    eng_model_get_params(s.m, *params);
    session_close(&s);
}

static const struct train_case tiny_case = {"100,10", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_ADAM, 32};

Test(cuda, graph_replay_gives_the_same_bits)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    float eager_losses[20], graph_losses[20], *eager, *graph;
    size_t n;
    setenv("FWADVISOR_CUDA_GRAPHS", "0", 1);
    train_steps(open_gpu(p, ENG_PREC_FP32), &tiny_case, 20, eager_losses, &eager, &n);
    close_checked(p);
    unsetenv("FWADVISOR_CUDA_GRAPHS");
    train_steps(open_gpu(p, ENG_PREC_FP32), &tiny_case, 20, graph_losses, &graph, &n);
    close_checked(p);
    cr_expect_arr_eq(graph_losses, eager_losses, sizeof eager_losses);
    cr_expect_arr_eq(graph, eager, n * sizeof *eager);
    free(eager);
    free(graph);
}

/* The graph belongs to one model: model A captured, a larger model B (which grows the loss
 * buffer and takes the graph over), A again (captured anew), then A freed and made again (likely
 * at the same addresses). A's steps, before and after, and the new A's, are the bits of eager
 * steps of A. */
Test(cuda, graph_follows_its_model_through_another_and_a_remade_one)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    enum { STEPS = 10 };
    float eager_losses[STEPS], *eager;
    size_t n;
    setenv("FWADVISOR_CUDA_GRAPHS", "0", 1);
    train_steps(open_gpu(p, ENG_PREC_FP32), &tiny_case, STEPS, eager_losses, &eager, &n);
    close_checked(p);
    unsetenv("FWADVISOR_CUDA_GRAPHS");

    const struct eng_backend *be = open_gpu(p, ENG_PREC_FP32);
    static const struct train_case big = {"300,500,20", ENG_ACT_GELU, ENG_LOSS_CE, ENG_OPT_ADAMW, 64};
    struct session a, b;
    float losses[STEPS], *params = malloc(n * sizeof *params);
    cr_assert(params);
    session_open(&a, be, &tiny_case);
    for (int k = 0; k < STEPS / 2; k++) losses[k] = session_step(&a, k);
    session_open(&b, be, &big);
    for (int k = 0; k < 4; k++) cr_expect(isfinite(session_step(&b, k)));
    for (int k = STEPS / 2; k < STEPS; k++) losses[k] = session_step(&a, k);
    eng_model_get_params(a.m, params);
    cr_expect_arr_eq(losses, eager_losses, sizeof losses, "A around B");
    cr_expect_arr_eq(params, eager, n * sizeof *params, "A's weights around B");
    session_close(&a);
    session_open(&a, be, &tiny_case);
    for (int k = 0; k < STEPS; k++) losses[k] = session_step(&a, k);
    eng_model_get_params(a.m, params);
    cr_expect_arr_eq(losses, eager_losses, sizeof losses, "A made again");
    cr_expect_arr_eq(params, eager, n * sizeof *params, "the weights of A made again");
    session_close(&a);
    session_close(&b);
    close_checked(p);
    free(params);
    free(eager);
}

/* NCCL's path on a machine with one GPU: a communicator of one rank, allreduce at three sizes,
 * each result checked (one rank's sum is its own contribution); after leaving, no allreduce. */
Test(cuda, nccl_allreduce_on_a_single_rank)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    char err[512];
    int version = p->nccl_version(err, sizeof err);
    if (version < 0) cr_skip_test("%s", err);
    open_gpu(p, ENG_PREC_FP32);
    char id[ENG_NCCL_ID_BYTES];
    cr_assert_eq(p->nccl_unique_id(id, err, sizeof err), 0, "%s", err);
    cr_assert_eq(p->nccl_join(id, 0, 1, err, sizeof err), 0, "%s", err);
    static const size_t sizes[] = {8, (size_t)1 << 20, (size_t)64 << 20};
    for (int s = 0; s < 3; s++) {
        cr_assert_eq(p->bench_prepare(ENG_BENCH_ALLREDUCE, sizes[s], 0, err, sizeof err), 0, "%s", err);
        for (int i = 0; i < 3; i++) cr_expect_gt(p->bench_run(), 0, "NCCL %d, %zu bytes", version, sizes[s]);
        cr_expect(p->bench_check(), "%zu bytes", sizes[s]);
        p->bench_release();
    }
    p->nccl_leave();
    cr_expect_eq(p->bench_prepare(ENG_BENCH_ALLREDUCE, 1024, 0, err, sizeof err), -1);
    cr_expect(strstr(err, "no NCCL communicator") != NULL, "%s", err);
    close_checked(p);
}

/* Elementwise kernels over more than 2^28 elements (grids capped, loops striding over the
 * rest): bias + ReLU, its gradient and an Adam step, the elements past 2^28 checked at the end
 * of the range, Adam's to the bit. About 5.4 GB of device memory. */
Test(cuda, elementwise_kernels_reach_past_2_to_the_28_elements)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    const struct eng_backend *be = open_gpu(p, ENG_PREC_FP32);
    enum { COLS = 1000, ROWS = 268436 }; /* 268,436,000 = 2^28 + 544 */
    const size_t n = (size_t)ROWS * COLS, bytes = n * sizeof(float);
    cr_assert_gt(n, (size_t)1 << 28);
    float *pre = be->alloc(bytes), *out = be->alloc(bytes), *dpre = be->alloc(bytes), *m = be->alloc(bytes),
          *v = be->alloc(bytes), *bias = be->alloc(COLS * sizeof(float));
    if (!pre || !out || !dpre || !m || !v || !bias) {
        be->release(pre), be->release(out), be->release(dpre), be->release(m), be->release(v), be->release(bias);
        p->close();
        cr_skip_test("5.4 GB of device memory are not free");
    }
    float hb[COLS];
    for (int c = 0; c < COLS; c++) hb[c] = (c % 2 ? -1.0f : 1.0f) * (float)(c + 1) / 1024.0f; /* exact */
    be->upload(bias, hb, sizeof hb);
    be->bias_act_forward(out, pre, bias, ROWS, COLS, ENG_ACT_RELU);
    be->act_backward(dpre, out, pre, n, ENG_ACT_RELU);
    struct eng_adam_args a = adam_args(1, 0, 0.0f);
    be->adam_step(pre, out, m, v, n, &a);
    be->synchronize();
    /* the tail: 2000 elements ending at n, 1456 of them past 2^28 */
    enum { TAIL = 2000 };
    static float hp[TAIL], ho[TAIL], hd[TAIL], hm[TAIL], hv[TAIL];
    size_t start = n - TAIL;
    be->download(hp, pre + start, sizeof hp), be->download(ho, out + start, sizeof ho);
    be->download(hd, dpre + start, sizeof hd), be->download(hm, m + start, sizeof hm), be->download(hv, v + start, sizeof hv);
    struct eng_adam_scalars s = eng_adam_scalars_of(&a);
    size_t wrong = 0;
    for (size_t i = 0; i < TAIL; i++) {
        float b = hb[(start + i) % COLS], relu = b > 0 ? b : 0.0f;
        float ep = b, em = 0, ev = 0;
        eng_adam_element(&ep, &em, &ev, relu, &s);
        wrong += ho[i] != relu || hd[i] != relu || memcmp(&hp[i], &ep, 4) || memcmp(&hm[i], &em, 4) || memcmp(&hv[i], &ev, 4);
    }
    cr_expect_eq(wrong, 0, "%zu of the last %d elements wrong", wrong, TAIL);
    be->release(pre), be->release(out), be->release(dpre), be->release(m), be->release(v), be->release(bias);
    close_checked(p);
}

Test(cuda, probe_kernels_check_their_results)
{
    const struct eng_cuda_plugin *p = gpu_or_skip();
    open_gpu(p, ENG_PREC_FP32);
    char err[512];
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
    close_checked(p);
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

/* Two matches that both end at a word: the longer one names the board. "apple m5" and "apple m5
 * max" are both in "apple m5 max"; "nvidia l4" is in "nvidia l40" but not at a word end. */
Test(cuda, catalog_prefers_the_longer_of_two_whole_word_matches)
{
    static const struct { const char *name, *cc, *id; } cases[] = {
        {"Apple M5 Max", "", "apple-m5-max"},
        {"Apple M5", "", "apple-m5"},
        {"Apple M5 Pro", "", "apple-m5-pro"},
        {"NVIDIA L40", "8.9", "l40"},
        {"NVIDIA L4", "8.9", "l4"},
    };
    struct ts_kb t;
    char err[512];
    cr_assert_eq(ts_kb_open(&t, err, sizeof err), 0, "%s", err);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct kb_accel_peaks p;
        cr_expect_eq(kb_accel_lookup(t.kb, cases[i].name, cases[i].cc, &p), 1, "%s", cases[i].name);
        cr_expect_str_eq(p.id, cases[i].id, "%s", cases[i].name);
    }
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
    static const struct { const char *workload, *metric, *device; enum probe_dtype dtype; double median, fraction; } rows[] = {
        {"gemm", "gflops", "cuda:0", PROBE_DTYPE_BF16, 742050, 0.75},
        {"gemm", "gflops", "cuda:0", PROBE_DTYPE_FP32, 50250, 0.75},
        {"gemm", "gflops", "cuda:0", PROBE_DTYPE_TF32, 300000, -1},
        {"stream", "copy_gbs", "cuda:0", PROBE_DTYPE_NONE, 4320, 0.9},
        {"train-mlp", "gflops", "cuda:0", PROBE_DTYPE_BF16, 494700, 0.5},
        {"train-mlp", "samples_per_s", "cuda:0", PROBE_DTYPE_BF16, 1000, 0.5},
        {"gemm", "gflops", "cpu", PROBE_DTYPE_FP32, 200, -1},
    };
    int n = sizeof rows / sizeof rows[0];
    for (int i = 0; i < n; i++) {
        struct probe_result *r = &run->results[i];
        snprintf(r->workload, sizeof r->workload, "%s", rows[i].workload);
        snprintf(r->metric, sizeof r->metric, "%s", rows[i].metric);
        snprintf(r->device, sizeof r->device, "%s", rows[i].device);
        probe_params_init(&r->params, PROBE_PP_GEMM);
        r->params.dtype = rows[i].dtype;
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
