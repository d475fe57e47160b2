/* The probe's workloads: sgemm sweep, STREAM kernels, the engine's training steps. Every timed
 * loop warms up first, repeats until both a minimum count and a minimum time, and reports the
 * median with min, max and the coefficient of variation; every result is checked. */
#include "engine/cuda/plugin.h"
#include "common/clock.h"
#include "engine/engine.h"
#include "engine/gpt.h"
#include "knowledge/planner.h"
#include "probes/frameworks.h"
#include "probes/probe.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>


double probe_gemm_flops(int n) { return 2.0 * n * n * (double)n; }

/* --- bookkeeping ------------------------------------------------------------------------- */

struct runner {
    struct probe_run *run;
    const struct probe_options *opt;
    int threads;
    /* Progress in planned seconds: each step's cost is planned from its size and a prior rate
     * (plan_* below); the time left is what remains of the plan scaled by how long the finished
     * steps really took against their plan. */
    double done, total, started, last_eta;
    double gemm_best;   /* GFLOP/s, for the training steps' fraction */
    double bandwidth_gbs[2]; /* this run's memory bandwidth, CPU (STREAM triad) and GPU (device copy); 0 none */
    char gpu_lost[256]; /* why the GPU could not be opened again, once that happened */
};

static int stopped(const struct runner *r) { return r->opt->stop && *r->opt->stop; }

/* The longest a CPU product is planned to run without a look at the stop flag: a stop within a
 * second, with room for a loaded machine that runs it at a third of the rate seen. */
#define STOP_SLICE_S 0.1

static void progress(struct runner *r, double planned_seconds, const char *what)
{
    r->done += planned_seconds;
    if (!r->opt->progress) return;
    struct probe_progress p = {r->total > 0 ? r->done / r->total : 1, -1, 0, ""};
    if (p.fraction > 1) p.fraction = 1;
    snprintf(p.what, sizeof p.what, "%s", what);
    double elapsed = clock_now_s() - r->started;
    if (r->done > 0 && elapsed > 0) {
        p.eta_s = (r->total > r->done ? r->total - r->done : 0) * elapsed / r->done;
        /* Rising against the last figure by more than a second and a tenth: said, not hidden. */
        p.eta_revised = r->last_eta >= 0 && p.eta_s > r->last_eta * 1.1 + 1;
        r->last_eta = p.eta_s;
    }
    r->opt->progress(r->opt->progress_ctx, &p);
}

/* --- the plan: seconds each step should take, from its size -------------------------------- */

/* What the CPU's sgemm is taken to reach before it is measured: half the theoretical peak, or
 * 50 GFLOP/s when that is unknown; memory bandwidth 10 GB/s. Only the time left uses these, and
 * only until the first steps have run. */
static double prior_gflops(const struct runner *r)
{
    return r->run->hw.cpu.peak_gflops > 0 ? 0.5 * r->run->hw.cpu.peak_gflops : 50;
}

static double gemm_min_time(const struct runner *r) { return r->opt->smoke ? 0.01 : r->opt->full ? 1.0 : 0.25; }
static int gemm_min_count(const struct runner *r) { return r->opt->full ? 5 : 3; }

static double plan_gemm(const struct runner *r, int n)
{
    double once = 2.0 * n * n * (double)n / (prior_gflops(r) * 1e9), timed = gemm_min_count(r) * once;
    return once + (timed > gemm_min_time(r) ? timed : gemm_min_time(r)); /* warm-up, then the repeats */
}

static double plan_train(const struct runner *r, double step_flops, int steps)
{
    return steps * (step_flops / (0.5 * prior_gflops(r) * 1e9) + 2e-6);
}

/* One round of STREAM's four kernels over arrays of n doubles: 80 bytes per element. */
static double plan_stream_round(size_t n) { return 80.0 * (double)n / 10e9; }

/* A GPU step: its sizes are fixed and its rate unknown before it runs. */
#define PLAN_GPU_STEP 2.0

struct probe_result *probe_result_add(struct probe_run *run, const char *workload, const char *device, const char *metric,
                                      const char *unit)
{
    if (run->nresults == PROBE_MAX_RESULTS) return NULL;
    struct probe_result *res = &run->results[run->nresults++];
    memset(res, 0, sizeof *res);
    snprintf(res->workload, sizeof res->workload, "%s", workload);
    snprintf(res->device, sizeof res->device, "%s", device && device[0] ? device : "cpu");
    snprintf(res->metric, sizeof res->metric, "%s", metric);
    snprintf(res->unit, sizeof res->unit, "%s", unit);
    probe_params_init(&res->params, PROBE_PP_NONE);
    res->peak_fraction = -1;
    return res;
}

void probe_result_finish(struct probe_result *res, double *samples, int n)
{
    probe_stats(samples, n, &res->stats);
    res->noisy = res->stats.cv > 0.05;
}

static struct probe_result *add_result(struct runner *r, const char *workload, const char *metric, const char *unit)
{
    return probe_result_add(r->run, workload, r->opt->device, metric, unit);
}

static void skip(struct runner *r, const char *workload, const char *metric, const char *unit, const char *reason)
{
    struct probe_result *res = add_result(r, workload, metric, unit);
    if (!res) return;
    res->skipped = 1;
    snprintf(res->reason, sizeof res->reason, "%s", reason);
}

static void finish(struct probe_result *res, double *samples, int n) { probe_result_finish(res, samples, n); }

/* --- gemm -------------------------------------------------------------------------------- */

int probe_gemm_check(const float *a, const float *b, const float *c, int n, uint64_t seed)
{
    struct eng_rng rng;
    eng_rng_seed(&rng, seed);
    for (int s = 0; s < 16; s++) {
        int i = (int)(eng_rng_next(&rng) % (uint64_t)n), j = (int)(eng_rng_next(&rng) % (uint64_t)n);
        double ref = 0, mag = 0;
        for (int k = 0; k < n; k++) {
            ref += (double)a[(size_t)i * n + k] * b[(size_t)k * n + j];
            mag += fabs((double)a[(size_t)i * n + k] * b[(size_t)k * n + j]);
        }
        /* fp32 accumulation: error well below n * 2^-24 * sum |a b| */
        if (fabs(c[(size_t)i * n + j] - ref) > 1e-6 * n * (mag + 1)) return 0;
    }
    return 1;
}

/* The sgemm sweep's sizes. */
static const int *gemm_sizes(const struct runner *r, int *count)
{
    static const int quick[] = {256, 512, 1024, 2048}, full[] = {256, 512, 1024, 1536, 2048, 3072, 4096},
                     smoke[] = {64, 128};
    *count = r->opt->smoke ? 2 : r->opt->full ? 7 : 4;
    return r->opt->smoke ? smoke : r->opt->full ? full : quick;
}

/* The depth of one call of a product of n that should take at most STOP_SLICE_S at `gflops`:
 * n when the whole product does, else a multiple of 256 (the BLAS blocks its depth in such
 * steps and updates C once a step anyway, so the cut costs next to nothing). */
static int gemm_slice_depth(int n, double gflops)
{
    double once = probe_gemm_flops(n) / (gflops * 1e9);
    int slices = (int)ceil(once / STOP_SLICE_S);
    if (slices <= 1) return n;
    int depth = ((n + slices - 1) / slices + 255) / 256 * 256;
    return depth < n ? depth : n;
}

/* C = A B (n x n, row-major) in slices of the inner dimension, the stop flag looked at between
 * them. The seconds it took, or -1 when the stop cut it (C is then incomplete). */
static double timed_gemm(const struct runner *r, const struct eng_backend *be, int n, int depth, const float *a,
                         const float *b, float *c)
{
    double t0 = clock_now_s();
    for (int k = 0; k < n; k += depth) {
        if (k && stopped(r)) return -1;
        int w = n - k < depth ? n - k : depth;
        be->gemm(0, 0, n, n, w, 1, a + k, n, b + (size_t)k * n, n, k ? 1 : 0, c, n);
    }
    return clock_now_s() - t0;
}

/* The tests' way to signal inside a product rather than in the filling of its matrices before
 * it (which a loaded machine can stretch past any delay): with FWADVISOR_TEST_GEMM_MARK set, the
 * empty file MARK.N appears as the first product of size N begins. Unset, this does nothing. */
static void mark_gemm_for_test(int n)
{
    const char *mark = getenv("FWADVISOR_TEST_GEMM_MARK");
    if (!mark || !*mark) return;
    char path[4200];
    snprintf(path, sizeof path, "%s.%d", mark, n);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) close(fd);
}

static void run_gemm(struct runner *r)
{
    int nsizes;
    const int *sizes = gemm_sizes(r, &nsizes);
    const struct eng_backend *be = eng_cpu_backend();
    char why[200];
    if (eng_backend_ready(be, why, sizeof why)) {
        skip(r, PROBE_WL_GEMM, PROBE_M_GFLOPS, "GFLOP/s", why);
        return;
    }
    be->set_threads(r->threads);
    int maxn = sizes[nsizes - 1];
    float *a = malloc((size_t)maxn * maxn * sizeof *a), *b = malloc((size_t)maxn * maxn * sizeof *b),
          *c = malloc((size_t)maxn * maxn * sizeof *c);
    double samples[256];
    struct eng_rng rng;
    eng_rng_seed(&rng, 2024);
    double best = 0;
    int best_n = 0;
    if (!a || !b || !c) {
        skip(r, PROBE_WL_GEMM, PROBE_M_GFLOPS, "GFLOP/s", "out of memory for the matrices");
        goto done;
    }
    for (int s = 0; s < nsizes && !stopped(r); s++) {
        int n = sizes[s];
        for (size_t i = 0; i < (size_t)n && !stopped(r); i++) /* a row at a time: 4096 rows take a while */
            for (size_t j = i * n; j < (i + 1) * n; j++) {
                a[j] = 2 * eng_rng_uniform(&rng) - 1;
                b[j] = 2 * eng_rng_uniform(&rng) - 1;
            }
        double flops = probe_gemm_flops(n);
        /* sliced as the rate seen so far (at first the prior) says a stop needs */
        int depth = gemm_slice_depth(n, best > 0 ? best : prior_gflops(r)), count = 0, min_n = gemm_min_count(r);
        /* A product the stop cut leaves C incomplete, so that size is interrupted as a whole. */
        if (!stopped(r)) mark_gemm_for_test(n);
        int cut = stopped(r) || timed_gemm(r, be, n, depth, a, b, c) < 0; /* warm-up: packing buffers, threads */
        double min_t = gemm_min_time(r), start = clock_now_s();
        while (!cut && count < 256 && (count < min_n || clock_now_s() - start < min_t) && !stopped(r)) {
            double t = timed_gemm(r, be, n, depth, a, b, c);
            if (t < 0) cut = 1;
            else samples[count++] = flops / t / 1e9;
        }
        if (cut) count = 0;
        struct probe_result *res = add_result(r, PROBE_WL_GEMM, PROBE_M_GFLOPS, "GFLOP/s");
        if (!res) break;
        probe_params_init(&res->params, PROBE_PP_GEMM);
        res->params.n = n, res->params.threads = r->threads, res->params.dtype = PROBE_DTYPE_FP32;
        if (count == 0 || !probe_gemm_check(a, b, c, n, eng_rng_next(&rng))) {
            res->skipped = 1;
            snprintf(res->reason, sizeof res->reason, count ? "result check failed: wrong products" : "interrupted");
        } else {
            finish(res, samples, count);
            if (r->run->hw.cpu.peak_gflops > 0) res->peak_fraction = res->stats.median / r->run->hw.cpu.peak_gflops;
            if (res->stats.median > best) best = res->stats.median, best_n = n;
        }
        progress(r, plan_gemm(r, n), PROBE_WL_GEMM);
    }
    if (best > 0) {
        /* The best size again, as the summary the advisor reads. */
        for (int i = 0; i < r->run->nresults; i++) {
            struct probe_result *src = &r->run->results[i];
            if (strcmp(src->workload, PROBE_WL_GEMM) || strcmp(src->metric, PROBE_M_GFLOPS) || src->skipped) continue;
            if (fabs(src->stats.median - best) > 0) continue;
            struct probe_result *res = add_result(r, PROBE_WL_GEMM, PROBE_M_GFLOPS_BEST, "GFLOP/s");
            if (!res) break;
            struct probe_result copy = *src;
            *res = copy;
            snprintf(res->metric, sizeof res->metric, "%s", PROBE_M_GFLOPS_BEST);
            break;
        }
        r->gemm_best = best;
        (void)best_n;
    }
done:
    free(a);
    free(b);
    free(c);
}

/* --- stream ------------------------------------------------------------------------------ */

int probe_stream_check(const double *a, const double *b, const double *c, size_t n, int ntimes)
{
    /* The scalar recurrence STREAM's own check uses: a = 2, b = 2, c = 0 before timing. */
    double aj = 2.0, bj = 2.0, cj = 0.0;
    for (int k = 0; k < ntimes; k++) {
        cj = aj;
        bj = 3.0 * cj;
        cj = aj + bj;
        aj = bj + 3.0 * cj;
    }
    double ea = 0, eb = 0, ec = 0;
    for (size_t j = 0; j < n; j++) {
        ea += fabs(a[j] - aj);
        eb += fabs(b[j] - bj);
        ec += fabs(c[j] - cj);
    }
    return n > 0 && ea / n <= 1e-13 * fabs(aj) && eb / n <= 1e-13 * fabs(bj) && ec / n <= 1e-13 * fabs(cj);
}

enum { K_COPY, K_SCALE, K_ADD, K_TRIAD, K_COUNT };

struct stream_ctx {
    double *a, *b, *c;
    size_t n;
    int threads, kernel, quit;
    pthread_barrier_t start, end;
};

struct stream_worker {
    struct stream_ctx *ctx;
    int id;
};

static void stream_chunk(struct stream_ctx *s, int id, size_t *lo, size_t *hi)
{
    size_t per = s->n / (size_t)s->threads;
    *lo = per * (size_t)id;
    *hi = id == s->threads - 1 ? s->n : *lo + per;
}

static void stream_kernel(struct stream_ctx *s, int id)
{
    size_t lo, hi;
    stream_chunk(s, id, &lo, &hi);
    double *restrict a = s->a, *restrict b = s->b, *restrict c = s->c;
    const double q = 3.0;
    switch (s->kernel) {
    case K_COPY: for (size_t j = lo; j < hi; j++) c[j] = a[j]; break;
    case K_SCALE: for (size_t j = lo; j < hi; j++) b[j] = q * c[j]; break;
    case K_ADD: for (size_t j = lo; j < hi; j++) c[j] = a[j] + b[j]; break;
    case K_TRIAD: for (size_t j = lo; j < hi; j++) a[j] = b[j] + q * c[j]; break;
    default: /* first touch, so pages land near the thread that uses them */
        for (size_t j = lo; j < hi; j++) a[j] = 1.0, b[j] = 2.0, c[j] = 0.0;
    }
}

static void *stream_thread(void *arg)
{
    struct stream_worker *w = arg;
    for (;;) {
        pthread_barrier_wait(&w->ctx->start);
        if (w->ctx->quit) break;
        stream_kernel(w->ctx, w->id);
        pthread_barrier_wait(&w->ctx->end);
    }
    return NULL;
}

static double stream_once(struct stream_ctx *s, int kernel)
{
    s->kernel = kernel;
    double t0 = clock_now_s();
    pthread_barrier_wait(&s->start);
    stream_kernel(s, 0);
    pthread_barrier_wait(&s->end);
    return clock_now_s() - t0;
}

/* STREAM's array length: four times the last-level cache (at least 2^21 doubles), as STREAM's
 * rules ask, from figures that do not change between runs on one machine; cut to a quarter of
 * the memory for all three arrays only on a machine too small for that. */
static size_t stream_elements(const struct runner *r)
{
    if (r->opt->smoke) return (size_t)1 << 16;
    uint64_t llc = r->run->hw.cpu.l3_bytes ? r->run->hw.cpu.l3_bytes : r->run->hw.cpu.l2_bytes;
    if (!llc) llc = 32u << 20;
    size_t n = (size_t)(4 * llc / sizeof(double));
    if (n < (size_t)1 << 21) n = (size_t)1 << 21;
    uint64_t mem = r->run->hw.cpu.memory_bytes;
    if (mem && 3 * n * sizeof(double) > mem / 4) n = (size_t)(mem / 4 / 3 / sizeof(double));
    return n;
}

static int stream_rounds(const struct runner *r) { return r->opt->smoke ? 3 : r->opt->full ? 20 : 10; }

static void run_stream(struct runner *r)
{
    static const char *const names[K_COUNT] = {PROBE_M_COPY_GBS, PROBE_M_SCALE_GBS, PROBE_M_ADD_GBS, PROBE_M_TRIAD_GBS};
    static const double bytes_per[K_COUNT] = {16, 16, 24, 24}; /* as STREAM counts them */
    size_t n = stream_elements(r);
    int ntimes = stream_rounds(r);
    struct stream_ctx s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.threads = r->threads;
    s.a = malloc(n * sizeof(double));
    s.b = malloc(n * sizeof(double));
    s.c = malloc(n * sizeof(double));
    pthread_t tids[256];
    struct stream_worker workers[256];
    int started = 0;
    if (!s.a || !s.b || !s.c || s.threads > 256) {
        skip(r, PROBE_WL_STREAM, PROBE_M_TRIAD_GBS, "GB/s", "out of memory for the arrays");
        goto done;
    }
    pthread_barrier_init(&s.start, NULL, (unsigned)s.threads);
    pthread_barrier_init(&s.end, NULL, (unsigned)s.threads);
    for (int t = 1; t < s.threads; t++) {
        workers[t] = (struct stream_worker){&s, t};
        if (pthread_create(&tids[t], NULL, stream_thread, &workers[t]) != 0) break;
        started++;
    }
    if (started != s.threads - 1) { /* could not start every thread: run on what there is */
        skip(r, PROBE_WL_STREAM, PROBE_M_TRIAD_GBS, "GB/s", "could not start the threads");
        goto join;
    }
    stream_once(&s, -1); /* first touch */
    for (size_t j = 0; j < n; j++) s.a[j] *= 2.0; /* as STREAM does before timing */
    double times[K_COUNT][64];
    int done = 0;
    for (int k = 0; k < ntimes && !stopped(r); k++, done++) {
        for (int kern = 0; kern < K_COUNT; kern++) times[kern][k] = stream_once(&s, kern);
        progress(r, plan_stream_round(n), PROBE_WL_STREAM);
    }
    int valid = done > 0 && probe_stream_check(s.a, s.b, s.c, n, done);
    for (int kern = 0; kern < K_COUNT; kern++) {
        struct probe_result *res = add_result(r, PROBE_WL_STREAM, names[kern], "GB/s");
        if (!res) break;
        probe_params_init(&res->params, PROBE_PP_STREAM);
        res->params.array_bytes = n * sizeof(double), res->params.threads = s.threads, res->params.ntimes = done;
        res->params.bytes_per_element = bytes_per[kern];
        if (!valid) {
            res->skipped = 1;
            snprintf(res->reason, sizeof res->reason, done ? "result check failed: arrays hold wrong values" : "interrupted");
            continue;
        }
        /* The first iteration is left out, as STREAM does. */
        double rates[64];
        int m = 0;
        for (int k = done > 1 ? 1 : 0; k < done; k++) rates[m++] = bytes_per[kern] * (double)n / times[kern][k] / 1e9;
        finish(res, rates, m);
        if (kern == K_TRIAD) r->bandwidth_gbs[0] = res->stats.median; /* the pattern of a layer's elementwise work */
    }
join:
    s.quit = 1;
    if (started) pthread_barrier_wait(&s.start);
    for (int t = 1; t <= started; t++) pthread_join(tids[t], NULL);
    pthread_barrier_destroy(&s.start);
    pthread_barrier_destroy(&s.end);
done:
    free(s.a);
    free(s.b);
    free(s.c);
}

/* --- training steps ---------------------------------------------------------------------- */

/* The seconds of the steps after the warm-up, kept by the training loop's hook; a step whose
 * loss is not finite is no measurement. */
struct timed_steps {
    double *secs;
    int warmup, count;
};

static int keep_timed(void *ctx, int step, float loss, double seconds)
{
    struct timed_steps *t = ctx;
    if (step >= t->warmup && isfinite(loss)) t->secs[t->count++] = seconds;
    return 0;
}

static int train_steps(struct runner *r, const struct eng_backend *be, const char *layers, int batch, int warmup,
                       int steps, double *secs, double *flops)
{
    char err[256];
    struct eng_config c;
    eng_config_defaults(&c);
    eng_parse_layers(&c, layers, err, sizeof err);
    c.batch = batch;
    c.threads = r->threads;
    struct eng_model *m;
    if (eng_model_create(&c, be, &m, err, sizeof err) != ENG_OK) return 0;
    eng_model_init(m, 1);
    struct eng_data d;
    if (eng_data_synthetic(&d, batch * 4 > 1024 ? batch * 4 : 1024, c.sizes[0], c.sizes[c.nsizes - 1], ENG_LOSS_CE, 1,
                           err, sizeof err) != ENG_OK) {
        eng_model_free(m);
        return 0;
    }
    struct timed_steps timed = {secs, warmup, 0};
    struct eng_run run = {.steps = warmup + steps, .stop = r->opt->stop};
    struct eng_loop loop = {.on_step = keep_timed, .ctx = &timed};
    eng_train_loop(m, &d, &run, &loop, err, sizeof err); /* a diverging run keeps the steps before it */
    *flops = eng_model_step_flops(m);
    eng_data_free(&d);
    eng_model_free(m);
    return timed.count;
}

/* The rows of a training workload from n timed steps (seconds): train-tiny's us per step, or
 * train-mlp's samples/s and GFLOP/s (rows[0] and rows[1], for a peak fraction); with n == 0 the
 * rows say why. `device` NULL: the CPU's name. */
static void train_rows(struct runner *r, const char *device, int tiny, const struct probe_params *params,
                       const double *secs, int n, int batch, double flops, const char *why, struct probe_result *rows[2])
{
    rows[0] = rows[1] = NULL;
    if (tiny) rows[0] = add_result(r, PROBE_WL_TRAIN_TINY, PROBE_M_US_PER_STEP, "us");
    else if ((rows[0] = add_result(r, PROBE_WL_TRAIN_MLP, PROBE_M_SAMPLES_PER_S, "samples/s")))
        rows[1] = add_result(r, PROBE_WL_TRAIN_MLP, PROBE_M_GFLOPS, "GFLOP/s");
    for (int k = 0; k < 2; k++) {
        struct probe_result *x = rows[k];
        if (!x) continue;
        if (device) snprintf(x->device, sizeof x->device, "%s", device);
        x->params = *params;
        if (n == 0) {
            x->skipped = 1;
            snprintf(x->reason, sizeof x->reason, "%s", why);
            continue;
        }
        double *v = malloc((size_t)n * sizeof *v);
        if (!v) continue;
        for (int i = 0; i < n; i++) v[i] = tiny ? secs[i] * 1e6 : k ? flops / secs[i] / 1e9 : batch / secs[i];
        finish(x, v, n);
        free(v);
    }
}

/* The CPU training steps: the seed article's Linear(100,10) at batch 32, and 784-1024-1024-10 at
 * batch 256 (2.448 GFLOP a step). */
struct cpu_train_setup {
    int steps, warmup, batch;
    const char *layers;
    double step_flops;
};

static struct cpu_train_setup cpu_train_setup(const struct runner *r, int tiny)
{
    struct cpu_train_setup s = {tiny ? (r->opt->full ? 10000 : 3000) : (r->opt->full ? 60 : 20), tiny ? 200 : 3,
                                tiny ? 32 : 256, tiny ? "100,10" : "784,1024,1024,10", tiny ? 2.0 * 32 * 1000 * 2 : 2.448e9};
    if (r->opt->smoke) s.steps = tiny ? 50 : 2, s.warmup = 1;
    return s;
}

static double plan_cpu_train(const struct runner *r, int tiny)
{
    struct cpu_train_setup s = cpu_train_setup(r, tiny);
    return plan_train(r, s.step_flops, s.steps + s.warmup);
}

static void run_train(struct runner *r, int tiny)
{
    struct cpu_train_setup setup = cpu_train_setup(r, tiny);
    int steps = setup.steps, warmup = setup.warmup, batch = setup.batch;
    const char *layers = setup.layers;
    double *secs = malloc((size_t)steps * sizeof *secs), flops = 0;
    int n = secs ? train_steps(r, eng_cpu_backend(), layers, batch, warmup, steps, secs, &flops) : 0;
    struct probe_params params;
    probe_params_init(&params, PROBE_PP_MLP);
    snprintf(params.layers, sizeof params.layers, "%s", layers);
    snprintf(params.optimizer, sizeof params.optimizer, "adam");
    params.batch = batch, params.threads = r->threads;
    struct probe_result *rows[2];
    train_rows(r, NULL, tiny, &params, secs, n, batch, flops, stopped(r) ? "interrupted" : "the engine could not run", rows);
    if (rows[1] && !rows[1]->skipped) {
        /* A fraction of the gemm the machine just showed, else of the theoretical peak. */
        double peak = r->gemm_best > 0 ? r->gemm_best : r->run->hw.cpu.peak_gflops;
        if (peak > 0) rows[0]->peak_fraction = rows[1]->peak_fraction = rows[1]->stats.median / peak;
    }
    free(secs);
    progress(r, plan_cpu_train(r, tiny), tiny ? PROBE_WL_TRAIN_TINY : PROBE_WL_TRAIN_MLP);
}

/* --- GPU workloads (the CUDA plug-in) ---------------------------------------------------- */

static struct probe_result *add_gpu_result(struct runner *r, const char *workload, const char *metric, const char *unit)
{
    struct probe_result *res = add_result(r, workload, metric, unit);
    if (res) snprintf(res->device, sizeof res->device, "%s", r->opt->gpu_device);
    return res;
}

/* Warm-up, then runs until a minimum count and time; samples are seconds per run. Returns the
 * count, 0 when a run failed or the probe was stopped before any. */
static int gpu_timed(struct runner *r, double *samples, int max)
{
    const struct eng_cuda_plugin *g = r->opt->gpu;
    if (g->bench_run() < 0) return 0;
    int count = 0, min_n = r->opt->full ? 10 : 5;
    double min_t = r->opt->smoke ? 0.01 : r->opt->full ? 0.5 : 0.15, start = clock_now_s();
    while (count < max && (count < min_n || clock_now_s() - start < min_t) && !stopped(r)) {
        double t = g->bench_run();
        if (t <= 0) return 0;
        samples[count++] = t;
    }
    return count;
}

static void gpu_bench(struct runner *r, enum eng_cuda_bench kind, size_t size, int arg, const char *workload,
                      const char *metric, const char *unit, double work, double scale, const struct probe_params *params)
{
    const struct eng_cuda_plugin *g = r->opt->gpu;
    struct probe_result *res = add_gpu_result(r, workload, metric, unit);
    if (!res) return;
    res->params = *params;
    char err[256];
    double samples[512];
    if (r->gpu_lost[0]) {
        res->skipped = 1;
        snprintf(res->reason, sizeof res->reason, "%s", r->gpu_lost);
        return;
    }
    if (g->bench_prepare(kind, size, arg, err, sizeof err) != 0) {
        res->skipped = 1;
        snprintf(res->reason, sizeof res->reason, "%s", err);
        return;
    }
    int n = gpu_timed(r, samples, 512);
    if (n == 0) {
        res->skipped = 1;
        const char *e = g->last_error();
        snprintf(res->reason, sizeof res->reason, "%s", stopped(r) ? "interrupted" : e ? e : "a CUDA call failed");
    } else if (!g->bench_check()) {
        res->skipped = 1;
        snprintf(res->reason, sizeof res->reason, "result check failed: wrong %s", kind == ENG_BENCH_GEMM ? "products" : "bytes");
    } else {
        for (int i = 0; i < n; i++) samples[i] = work / samples[i] / scale;
        finish(res, samples, n);
    }
    g->bench_release();
}

static void run_gpu_gemm(struct runner *r)
{
    static const int quick[] = {1024, 4096, 8192}, full[] = {1024, 2048, 4096, 8192}, smoke[] = {256};
    static const enum eng_precision types[] = {ENG_PREC_FP32, ENG_PREC_TF32, ENG_PREC_BF16, ENG_PREC_FP16};
    const int *sizes = r->opt->smoke ? smoke : r->opt->full ? full : quick;
    int nsizes = r->opt->smoke ? 1 : r->opt->full ? 4 : 3;
    for (int t = 0; t < 4 && !stopped(r); t++)
        for (int s = 0; s < nsizes && !stopped(r); s++) {
            int n = sizes[s];
            struct probe_params params;
            probe_params_init(&params, PROBE_PP_GEMM);
            params.n = n, params.dtype = probe_dtype_parse(eng_precision_name(types[t]));
            gpu_bench(r, ENG_BENCH_GEMM, (size_t)n, types[t], PROBE_WL_GEMM, PROBE_M_GFLOPS, "GFLOP/s", 2.0 * n * n * (double)n,
                      1e9, &params);
        }
    progress(r, PLAN_GPU_STEP, PROBE_WL_GEMM " (GPU)");
}

/* The GPU's stream row: a device-to-device copy of 1 GiB. */
static void gpu_stream(struct runner *r)
{
    size_t big = r->opt->smoke ? (size_t)16 << 20 : (size_t)1 << 30;
    struct probe_params params;
    probe_params_init(&params, PROBE_PP_DEVICE_COPY);
    params.bytes = big;
    gpu_bench(r, ENG_BENCH_COPY, big, 0, PROBE_WL_STREAM, PROBE_M_COPY_GBS, "GB/s", 2.0 * (double)big, 1e9, &params);
    const struct probe_result *res = r->run->nresults ? &r->run->results[r->run->nresults - 1] : NULL;
    if (res && !res->skipped && !strcmp(res->metric, PROBE_M_COPY_GBS)) r->bandwidth_gbs[1] = res->stats.median;
    progress(r, PLAN_GPU_STEP, "device copy");
}

/* Host to device and back, pinned and pageable, 256 MiB each way. */
static void gpu_transfer(struct runner *r)
{
    size_t xfer = r->opt->smoke ? (size_t)8 << 20 : (size_t)256 << 20;
    struct probe_params params;
    for (int pinned = 1; pinned >= 0 && !stopped(r); pinned--) {
        probe_params_init(&params, PROBE_PP_TRANSFER);
        params.bytes = xfer, params.pinned = pinned ? PROBE_TRI_YES : PROBE_TRI_NO;
        gpu_bench(r, ENG_BENCH_H2D, xfer, pinned, PROBE_WL_TRANSFER, PROBE_M_H2D_GBS, "GB/s", (double)xfer, 1e9, &params);
        gpu_bench(r, ENG_BENCH_D2H, xfer, pinned, PROBE_WL_TRANSFER, PROBE_M_D2H_GBS, "GB/s", (double)xfer, 1e9, &params);
    }
    progress(r, PLAN_GPU_STEP, PROBE_WL_TRANSFER);
}

static void run_gpu_train(struct runner *r, int tiny)
{
    const char *layers = tiny ? "100,10" : r->opt->smoke ? "256,256,10" : r->opt->full ? "8192,8192,8192,8192,8192" : "4096,4096,4096,4096,4096";
    int batch = tiny ? 32 : r->opt->smoke ? 64 : r->opt->full ? 8192 : 4096;
    int steps = tiny ? (r->opt->full ? 5000 : 2000) : (r->opt->full ? 40 : 20), warmup = tiny ? 200 : 3;
    if (r->opt->smoke) steps = tiny ? 50 : 3, warmup = 1;
    /* The matrix work in bf16 for the wide model (as mixed-precision training runs), fp32 for
     * the tiny step, where launch latency is all there is to measure. */
    enum eng_precision prec = tiny ? ENG_PREC_FP32 : ENG_PREC_BF16;
    struct eng_cuda_device info;
    char err[256];
    const struct eng_cuda_plugin *g = r->opt->gpu;
    int index = atoi(r->opt->gpu_device + 5);
    double *secs = malloc((size_t)steps * sizeof *secs), flops = 0;
    int n = 0;
    if (r->gpu_lost[0]) snprintf(err, sizeof err, "%s", r->gpu_lost);
    else if (secs && g->open(index, prec, &info, err, sizeof err) == 0)
        n = train_steps(r, g->backend, layers, batch, warmup, steps, secs, &flops);
    else if (secs)
        snprintf(r->gpu_lost, sizeof r->gpu_lost, "the GPU could not be opened again: %.200s", err);
    const char *e = g->last_error();
    if (e) n = 0;
    struct probe_params params;
    probe_params_init(&params, PROBE_PP_MLP);
    snprintf(params.layers, sizeof params.layers, "%s", layers);
    snprintf(params.optimizer, sizeof params.optimizer, "adam");
    params.batch = batch, params.dtype = probe_dtype_parse(eng_precision_name(prec));
    const char *why = stopped(r) ? "interrupted" : e ? e : r->gpu_lost[0] ? r->gpu_lost : "the engine could not run (out of device memory?)";
    struct probe_result *rows[2];
    train_rows(r, r->opt->gpu_device, tiny, &params, secs, n, batch, flops, why, rows);
    free(secs);
    progress(r, PLAN_GPU_STEP, tiny ? PROBE_WL_TRAIN_TINY " (GPU)" : PROBE_WL_TRAIN_MLP " (GPU)");
}

/* --- train-gpt: tokens/s, TFLOP/s and MFU of the engine's GPT step ---------------------------- */

/* The model: on the CPU the benchmark's 4 layers x 256 wide at T 128, on a GPU GPT-2 124M's shape
 * at T 1024 (vocabulary padded to 50304, as nanoGPT and llm.c pad 50257). */
struct gpt_shape {
    int L, H, C, T, V, B;
    int warmup, steps;
};

static struct gpt_shape gpt_shape_for(const struct runner *r, int gpu)
{
    int steps = r->opt->full ? 20 : 8;
    if (r->opt->smoke) return (struct gpt_shape){1, 2, 32, 16, 64, 2, 1, 2};
    if (!gpu) return (struct gpt_shape){4, 4, 256, 128, 256, 8, 2, steps};
    return (struct gpt_shape){12, 12, 768, 1024, 50304, r->opt->full ? 16 : 8, 2, steps};
}

/* Planned seconds: the steps at the prior rate (6 x 12 L C^2 + V C FLOPs per token, the bulk of
 * 6 N), and on the CPU the GEMM peak's four products when no sweep ran. */
static double plan_train_gpt(const struct runner *r, int gpu)
{
    if (gpu) return PLAN_GPU_STEP;
    struct gpt_shape s = gpt_shape_for(r, 0);
    double per_token = 6.0 * (12.0 * s.L * s.C * s.C + (double)s.V * s.C);
    double peak = r->opt->workloads & probe_workload_bit(PROBE_WL_GEMM) ? 0 : 4 * plan_gemm(r, r->opt->smoke ? 256 : 2048);
    return plan_train(r, per_token * s.B * s.T, s.warmup + s.steps) + peak;
}

/* The GEMM peak this machine showed (GFLOP/s): this run's gemm sweep, else a few square products
 * measured now; on a GPU cuBLAS at n = 8192 in the step's precision. 0 when it cannot be had. */
static double measured_peak_gflops(struct runner *r, int gpu, enum eng_precision prec)
{
    if (!gpu && r->gemm_best > 0) return r->gemm_best;
    int n = r->opt->smoke ? 256 : gpu ? 8192 : 2048;
    double flops = probe_gemm_flops(n), best = 0;
    if (gpu) {
        const struct eng_cuda_plugin *g = r->opt->gpu;
        char err[256];
        if (g->bench_prepare(ENG_BENCH_GEMM, (size_t)n, prec, err, sizeof err) != 0) return 0;
        for (int i = 0; i < 6 && !stopped(r); i++) {
            double t = g->bench_run();
            if (t > 0 && i > 0 && flops / t / 1e9 > best) best = flops / t / 1e9;
        }
        if (!g->bench_check()) best = 0;
        g->bench_release();
        return best;
    }
    const struct eng_backend *be = eng_cpu_backend();
    if (eng_backend_ready(be, NULL, 0)) return 0;
    be->set_threads(r->threads);
    float *a = calloc((size_t)n * n, sizeof *a), *b = calloc((size_t)n * n, sizeof *b), *c = malloc((size_t)n * n * sizeof *c);
    for (size_t i = 0; a && b && i < (size_t)n * n; i++) a[i] = b[i] = (float)(i % 13) * 0.01f;
    int depth = gemm_slice_depth(n, prior_gflops(r));
    for (int i = 0; a && b && c && i < 4 && !stopped(r); i++) {
        double t = timed_gemm(r, be, n, depth, a, b, c);
        if (t < 0) break;
        if (i > 0 && flops / t / 1e9 > best) best = flops / t / 1e9;
    }
    free(a), free(b), free(c);
    return best;
}

/* The catalog's dense peak for the step's precision (GFLOP/s): the CPU's from its table (or its
 * vector units), a GPU's from the knowledge base's accelerator catalog; 0 when there is none.
 * *source says which. */
static double catalog_peak_gflops(const struct runner *r, int gpu, enum eng_precision prec, const char **source,
                                  enum probe_peak_kind *kind)
{
    *source = "catalog", *kind = PROBE_PEAK_CATALOG;
    if (!gpu) {
        *source = r->run->hw.cpu.peak_estimated ? "cpu peak estimated from its vector units" : "cpu peak table";
        *kind = r->run->hw.cpu.peak_estimated ? PROBE_PEAK_ESTIMATE : PROBE_PEAK_TABLE;
        return r->run->hw.cpu.peak_gflops;
    }
    const struct probe_accel *a = NULL;
    for (int i = 0; i < r->run->hw.naccel; i++)
        if (!strcmp(r->run->hw.accel[i].kind, "nvidia") && r->run->hw.accel[i].catalog_id[0]) a = &r->run->hw.accel[i];
    if (!a) return 0;
    return 1e3 * (prec == ENG_PREC_BF16 ? a->peak_bf16_tflops : prec == ENG_PREC_FP16 ? a->peak_fp16_tflops
                                                                                       : a->peak_fp32_tflops);
}

/* This run's memory bandwidth for the planned step (GB/s) and where it came from: the STREAM triad
 * on the CPU; the device copy on a GPU, else its catalog figure. 0 when there is none. */
static double gpu_bandwidth(const struct runner *r, int gpu)
{
    if (!gpu || r->bandwidth_gbs[1] > 0) return r->bandwidth_gbs[gpu];
    for (int i = 0; i < r->run->hw.naccel; i++)
        if (!strcmp(r->run->hw.accel[i].kind, "nvidia") && r->run->hw.accel[i].peak_bandwidth_gbs > 0)
            return -r->run->hw.accel[i].peak_bandwidth_gbs; /* negative: the catalog's, not measured */
    return 0;
}

struct gpt_plan_in {
    struct gpt_shape s;
    const struct probe_params *shape; /* the tokens row's parameters */
    const double *secs;               /* the timed steps, NULL when none ran */
    int n;
    double gemm_gflops, bandwidth_gbs; /* bandwidth < 0: the catalog's figure */
    double params;
    double bytes_per_value;
    const char *why;
};

/* The step_ms row: the measured step, and beside it the step the planner's formula gives from this
 * run's GEMM rate and bandwidth (knowledge/planner.h, plan_gpt_step); the plan's figures stay NaN
 * (null) when the run has no GEMM rate or bandwidth to plan from. */
static void add_planned_step(struct runner *r, int gpu, const struct gpt_plan_in *in)
{
    struct probe_result *res = add_result(r, PROBE_WL_TRAIN_GPT, PROBE_M_STEP_MS, "ms");
    if (!res) return;
    if (gpu) snprintf(res->device, sizeof res->device, "%s", r->opt->gpu_device);
    res->params = *in->shape;
    res->params.shape = PROBE_PP_PLAN;
    double gbs = fabs(in->bandwidth_gbs);
    struct plan_gpt_step_in pin = {in->s.L, in->s.H, in->s.C, in->s.T, in->s.B, in->params, in->bytes_per_value,
                                   in->gemm_gflops, gbs};
    struct plan_gpt_step step;
    if (in->gemm_gflops > 0) res->params.gemm_gflops = in->gemm_gflops; /* what there was to plan from */
    if (gbs > 0) res->params.bandwidth_gbs = gbs;
    if (plan_gpt_step(&pin, &step) == 0) {
        res->params.planned_ms = step.step_s * 1e3, res->params.gemm_ms = step.gemm_s * 1e3;
        res->params.memory_ms = step.memory_s * 1e3;
    }
    snprintf(res->params.bandwidth_source, sizeof res->params.bandwidth_source, "%s",
             !(gbs > 0) ? "none" : in->bandwidth_gbs < 0 ? "catalog" : gpu ? "device copy" : "stream triad");
    if (!in->secs) {
        res->skipped = 1;
        snprintf(res->reason, sizeof res->reason, "%s",
                 stopped(r) ? "interrupted" : in->why[0] ? in->why : "the engine could not run");
        return;
    }
    double v[64];
    for (int i = 0; i < in->n; i++) v[i] = in->secs[i] * 1e3;
    finish(res, v, in->n);
}

/* Runs the steps; fills secs (after warm-up) and returns their count, 0 with why on failure. */
static int gpt_steps(struct runner *r, const struct eng_backend *be, struct gpt_shape s, int warmup, int steps,
                     double *secs, double *flops_per_token, double *params, char *why, size_t whysz)
{
    struct eng_gpt_config c;
    eng_gpt_config_defaults(&c);
    c.n_layer = s.L, c.n_head = s.H, c.n_embd = s.C, c.ctx = s.T, c.vocab = s.V, c.batch = s.B, c.threads = r->threads;
    struct eng_gpt *m = NULL;
    struct eng_tokens t;
    int n = 0;
    if (eng_tokens_synthetic(&t, (size_t)s.B * s.T * 4 + 1, s.V, 1, why, whysz) != ENG_OK) return 0;
    if (eng_gpt_create(&c, be, &m, why, whysz) == ENG_OK) {
        struct eng_run run = {.steps = warmup + steps, .stop = r->opt->stop}; /* Esc and Ctrl-C end it within a layer */
        struct timed_steps timed = {secs, warmup, 0};
        struct eng_loop loop = {.on_step = keep_timed, .ctx = &timed};
        /* The model's set-up alone took a quarter of a second on two busy cores: its weights are
         * drawn only when no stop came meanwhile. */
        if (!stopped(r)) eng_gpt_init(m, 1);
        if (!stopped(r) && eng_gpt_train_loop(m, &t, &run, &loop, why, whysz) == ENG_OK) n = timed.count;
        *flops_per_token = eng_gpt_flops_per_token(m);
        *params = (double)eng_gpt_param_count(m) - (double)s.T * s.C; /* the positions' table takes part in no product */
    }
    eng_gpt_free(m);
    eng_tokens_free(&t);
    return n;
}

static void run_train_gpt(struct runner *r, int gpu)
{
    struct gpt_shape s = gpt_shape_for(r, gpu);
    int steps = s.steps, warmup = s.warmup;
    enum eng_precision prec = gpu ? ENG_PREC_BF16 : ENG_PREC_FP32;
    const struct eng_backend *be = eng_cpu_backend();
    char why[256] = "";
    if (gpu) {
        struct eng_cuda_device info;
        int index = atoi(r->opt->gpu_device + 5);
        if (r->gpu_lost[0]) snprintf(why, sizeof why, "%s", r->gpu_lost);
        else if (r->opt->gpu->open(index, prec, &info, why, sizeof why) != 0) be = NULL;
        else be = r->opt->gpu->backend;
        if (r->gpu_lost[0]) be = NULL;
    }
    double *secs = malloc((size_t)steps * sizeof *secs), fpt = 0, nparams = 0;
    int n = be && secs ? gpt_steps(r, be, s, warmup, steps, secs, &fpt, &nparams, why, sizeof why) : 0;
    if (gpu && r->opt->gpu->last_error()) n = 0, snprintf(why, sizeof why, "%s", r->opt->gpu->last_error());
    const char *catalog_source;
    enum probe_peak_kind catalog_kind;
    double measured = n ? measured_peak_gflops(r, gpu, prec) : 0,
           catalog = catalog_peak_gflops(r, gpu, prec, &catalog_source, &catalog_kind);
    struct probe_params params;
    probe_params_init(&params, PROBE_PP_GPT);
    params.n_layer = s.L, params.n_head = s.H, params.n_embd = s.C, params.ctx = s.T, params.vocab = s.V, params.batch = s.B;
    params.dtype = probe_dtype_parse(eng_precision_name(prec));
    /* tokens/s, model TFLOP/s (FLOPs per token: 6 N + 12 L H Q T), and MFU against the measured GEMM
     * peak and against the catalog's; a device the catalog lacks is measured against its GEMM. */
    double peaks[2] = {measured, catalog > 0 ? catalog : measured};
    static const char *const metrics[4] = {PROBE_M_TOKENS_PER_S, PROBE_M_TFLOPS, PROBE_M_MFU, PROBE_M_MFU_CATALOG},
                             *const units[4] = {"tokens/s", "TFLOP/s", "ratio", "ratio"};
    for (int k = 0; k < 4; k++) {
        struct probe_result *res = add_result(r, PROBE_WL_TRAIN_GPT, metrics[k], units[k]);
        if (!res) break;
        if (gpu) snprintf(res->device, sizeof res->device, "%s", r->opt->gpu_device);
        if (k >= 2) {
            const char *source = k == 2 ? "measured gemm" : catalog > 0 ? catalog_source : "measured gemm (not in the catalog)";
            probe_params_init(&res->params, PROBE_PP_PEAK);
            res->params.peak_tflops = peaks[k - 2] / 1e3;
            snprintf(res->params.peak_source, sizeof res->params.peak_source, "%s", source);
            res->params.peak_kind = k == 2 || catalog <= 0 ? PROBE_PEAK_GEMM : catalog_kind;
        } else {
            res->params = params;
        }
        if (n == 0 || (k >= 2 && peaks[k - 2] <= 0)) {
            res->skipped = 1;
            snprintf(res->reason, sizeof res->reason, "%s",
                     stopped(r) ? "interrupted" : n == 0 ? (why[0] ? why : "the engine could not run")
                                                         : "no GEMM peak could be measured");
            continue;
        }
        double v[64];
        for (int i = 0; i < n; i++) {
            double tokens = (double)s.B * s.T / secs[i], gflops = tokens * fpt / 1e9;
            v[i] = k == 0 ? tokens : k == 1 ? gflops / 1e3 : gflops / peaks[k - 2];
        }
        finish(res, v, n);
        if (k == 1) res->peak_fraction = res->stats.median * 1e3 / peaks[1];
        if (k >= 2) res->peak_fraction = res->stats.median;
    }
    struct gpt_plan_in plan = {s, &params, n ? secs : NULL, n, measured, gpu_bandwidth(r, gpu), nparams,
                               gpu ? 2 : 4, why};
    add_planned_step(r, gpu, &plan);
    free(secs);
    progress(r, plan_train_gpt(r, gpu), gpu ? PROBE_WL_TRAIN_GPT " (GPU)" : PROBE_WL_TRAIN_GPT);
}

int probe_use_gpu(struct probe_options *o, int index, int also_cpu, char *err, size_t errsz)
{
    if (!eng_device_open(index, ENG_PREC_FP32, NULL, err, errsz)) {
        snprintf(o->gpu_missing, sizeof o->gpu_missing, "%.255s", err);
        return -1;
    }
    o->gpu = eng_cuda_load(NULL, 0);
    o->cpu = also_cpu;
    snprintf(o->gpu_device, sizeof o->gpu_device, "cuda:%d", index);
    return 0;
}

static void fw_progress(void *ctx, double planned_seconds, const char *what) { progress(ctx, planned_seconds, what); }

/* --- the workloads, one row each ------------------------------------------------------------ */

static void gpu_tiny(struct runner *r) { run_gpu_train(r, 1); }
static void gpu_mlp(struct runner *r) { run_gpu_train(r, 0); }
static void gpu_gpt(struct runner *r) { run_train_gpt(r, 1); }
static void cpu_tiny(struct runner *r) { run_train(r, 1); }
static void cpu_mlp(struct runner *r) { run_train(r, 0); }
static void cpu_gpt(struct runner *r) { run_train_gpt(r, 0); }
static void run_frameworks(struct runner *r) { probe_fw_run(r->run, r->opt, r->threads, fw_progress, r); }

static double plan_gemm_sweep(const struct runner *r)
{
    int nsizes;
    const int *sizes = gemm_sizes(r, &nsizes);
    double total = 0;
    for (int i = 0; i < nsizes; i++) total += plan_gemm(r, sizes[i]);
    return total;
}
static double plan_stream(const struct runner *r) { return stream_rounds(r) * plan_stream_round(stream_elements(r)); }
static double plan_tiny(const struct runner *r) { return plan_cpu_train(r, 1); }
static double plan_mlp(const struct runner *r) { return plan_cpu_train(r, 0); }
static double plan_gpt(const struct runner *r) { return plan_train_gpt(r, 0); }
static double plan_frameworks(const struct runner *r) { return probe_fw_plan_seconds(r->opt); }

/* The row saying why a workload asked for did not run here. */
static void no_transfer(struct runner *r)
{
    if (r->opt->gpu) return;
    char why[220];
    snprintf(why, sizeof why, "skipped: %.200s", r->opt->gpu_missing[0] ? r->opt->gpu_missing : "no GPU");
    skip(r, PROBE_WL_TRANSFER, PROBE_M_H2D_GBS, "GB/s", why);
}
/* Under MPI the command line runs these through probes/dist.c after the others. */
static void no_allreduce(struct runner *r)
{
    if (!r->opt->distributed) skip(r, PROBE_WL_ALLREDUCE, PROBE_M_BUSBW_GBS, "GB/s", "skipped: single process (run under mpirun -np N)");
}
static void no_train_dp(struct runner *r)
{
    if (!r->opt->distributed)
        skip(r, PROBE_WL_TRAIN_DP, PROBE_M_SCALING_EFFICIENCY, "ratio", "skipped: single process (run under mpirun -np N)");
}

/* In the order a probe runs them: the GPU's first when there is one, then the CPU's: the
 * training steps first, then STREAM (its own threads run while OpenBLAS's pool is idle), then
 * the sgemm sweep, whose best figure the training steps are compared with afterwards; last the
 * frameworks, the longest, and the one that starts other programs, on whatever device. A new
 * workload is its row here and its run functions; its bit is its place in the table. */
enum { WL_ON_REQUEST = 1, /* run only when named (or "all"): not in the default set */
       WL_ACROSS_RANKS = 2 /* run by probes/dist.c under MPI; the default set there */ };
static const struct workload {
    const char *name;                           /* as --workload names it */
    const char *help;                           /* what it measures, for the help's list */
    unsigned flags;                             /* WL_* */
    void (*gpu)(struct runner *r);              /* on the GPU (probe --device cuda), or NULL */
    void (*cpu)(struct runner *r);              /* on this machine's CPU, or NULL */
    int any_device;                             /* cpu runs once on a GPU run too (the frameworks) */
    double (*plan)(const struct runner *r);     /* planned seconds of cpu, or NULL */
    void (*absent)(struct runner *r);           /* the row of why it did not run here, or NULL */
} workloads[] = {
    {PROBE_WL_TRAIN_TINY, "the seed article's Linear(100,10) step: us per step", 0, gpu_tiny, cpu_tiny, 0, plan_tiny,
     NULL},
    {PROBE_WL_STREAM, "copy, scale, add and triad: GB/s", 0, gpu_stream, run_stream, 0, plan_stream, NULL},
    {PROBE_WL_TRANSFER, "host to device and back (a GPU only): GB/s", 0, gpu_transfer, NULL, 0, NULL, no_transfer},
    {PROBE_WL_GEMM, "the matrix product by size (sgemm; cuBLAS by dtype): GFLOP/s", 0, run_gpu_gemm, run_gemm, 0,
     plan_gemm_sweep, NULL},
    {PROBE_WL_TRAIN_MLP, "the engine's MLP training step: samples/s, GFLOP/s", 0, gpu_mlp, cpu_mlp, 0, plan_mlp, NULL},
    {PROBE_WL_TRAIN_GPT, "the engine's GPT step: tokens/s, TFLOP/s, MFU", 0, gpu_gpt, cpu_gpt, 0, plan_gpt, NULL},
    {PROBE_WL_FRAMEWORKS, "the same MLP and GPT in every installed framework", WL_ON_REQUEST, NULL, run_frameworks, 1,
     plan_frameworks, NULL},
    {PROBE_WL_ALLREDUCE, "all-reduce bus bandwidth by size, checked (mpirun)", WL_ACROSS_RANKS, NULL, NULL, 0, NULL,
     no_allreduce},
    {PROBE_WL_TRAIN_DP, "data-parallel training: scaling efficiency (mpirun)", WL_ACROSS_RANKS, NULL, NULL, 0, NULL,
     no_train_dp},
};
#define NWORKLOADS (int)(sizeof workloads / sizeof workloads[0])
_Static_assert(sizeof workloads / sizeof workloads[0] <= 32, "a workload set holds a bit per row");
#define BIT(i) (1u << (i))

const char *probe_workload_name(int i, unsigned *bit)
{
    if (i < 0 || i >= NWORKLOADS) return NULL;
    if (bit) *bit = BIT(i);
    return workloads[i].name;
}

unsigned probe_workload_bit(const char *name)
{
    for (int i = 0; i < NWORKLOADS; i++)
        if (strcmp(workloads[i].name, name) == 0) return BIT(i);
    return 0;
}

unsigned probe_workload_set(enum probe_workload_set which)
{
    unsigned set = 0;
    for (int i = 0; i < NWORKLOADS; i++) {
        unsigned f = workloads[i].flags;
        if (which == PROBE_WS_ALL || (which == PROBE_WS_DEFAULT && !(f & WL_ON_REQUEST)) ||
            (which == PROBE_WS_DIST && (f & WL_ACROSS_RANKS)))
            set |= BIT(i);
    }
    return set;
}

/* The names of the rows with flag (flag 0: every row), joined by sep: the help's default sets,
 * the parser's list of names. */
static void names_with(unsigned flag, const char *sep, char *out, size_t n)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < NWORKLOADS; i++)
        if ((!flag || (workloads[i].flags & flag)) && used < n)
            used += (size_t)snprintf(out + used, n - used, "%s%s", used ? sep : "", workloads[i].name);
}

void probe_workloads_help(FILE *out)
{
    char asked[128], ranks[128];
    names_with(WL_ON_REQUEST, ",", asked, sizeof asked);
    names_with(WL_ACROSS_RANKS, ",", ranks, sizeof ranks);
    fprintf(out, "\nWorkloads (--workload W,...; all: every one; default: all but %s; under\n"
                 "mpirun: %s):\n", asked, ranks);
    for (int i = 0; i < NWORKLOADS; i++) fprintf(out, "  %-12s %s\n", workloads[i].name, workloads[i].help);
}

int probe_parse_workloads(const char *list, unsigned *out, char *err, size_t errsz)
{
    char names[256];
    names_with(0, ", ", names, sizeof names);
    *out = 0;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned bit = strcasecmp(t, "all") == 0 ? probe_workload_set(PROBE_WS_ALL) : 0;
        for (int i = 0; i < NWORKLOADS; i++)
            if (strcasecmp(workloads[i].name, t) == 0) bit = BIT(i);
        if (!bit) {
            snprintf(err, errsz, "unknown workload '%s' (%s, all)", t, names);
            return -1;
        }
        *out |= bit;
    }
    if (!*out) {
        snprintf(err, errsz, "no workload named");
        return -1;
    }
    return 0;
}

/* Whether row w runs in this pass: asked for, and on this device. */
static int runs(const struct workload *w, const struct probe_options *opt, int gpu_pass)
{
    if (!(opt->workloads & BIT(w - workloads))) return 0;
    if (gpu_pass) return opt->gpu && w->gpu;
    return w->cpu && (w->any_device || opt->cpu || !opt->gpu);
}

double probe_plan_seconds(const struct probe_run *run, const struct probe_options *opt)
{
    struct runner r = {.run = (struct probe_run *)run, .opt = opt};
    double total = 0;
    for (int i = 0; i < NWORKLOADS; i++) {
        if (runs(&workloads[i], opt, 1)) total += PLAN_GPU_STEP;
        if (runs(&workloads[i], opt, 0) && workloads[i].plan) total += workloads[i].plan(&r);
    }
    return total;
}

int probe_run_workloads(struct probe_run *run, const struct probe_options *opt)
{
    struct runner r = {.run = run, .opt = opt, .threads = opt->threads > 0 ? opt->threads : (run->hw.cpu.cores > 0 ? run->hw.cpu.cores : 1),
                       .started = clock_now_s(), .last_eta = -1};
    r.total = probe_plan_seconds(run, opt);
    if (r.total <= 0) r.total = 1;
    for (int pass = 1; pass >= 0; pass--)
        for (int i = 0; i < NWORKLOADS && !stopped(&r); i++)
            if (runs(&workloads[i], opt, pass)) (pass ? workloads[i].gpu : workloads[i].cpu)(&r);
    for (int i = 0; i < NWORKLOADS; i++)
        if ((opt->workloads & BIT(i)) && workloads[i].absent) workloads[i].absent(&r);
    if (stopped(&r)) {
        run->interrupted = 1;
        return 1;
    }
    return 0;
}
