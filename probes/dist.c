/* Workloads across MPI ranks: allreduce (time, algorithm and bus bandwidth as nccl-tests defines
 * them, every element checked) and train-dp (data-parallel training of the engine's MLP, the
 * gradients all-reduced as one flat buffer each step, weak scaling against a single process
 * measured in the same run). Every rank runs the same sequence of collectives; rank 0 keeps the
 * results. A watchdog ends a rank whose peers stop answering, so a lost rank never hangs the
 * others. */
#include "probes/dist.h"
#include "common/clock.h"

#include "engine/cuda/plugin.h"
#include "engine/engine.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* --- the watchdog ------------------------------------------------------------------------- */

static pthread_mutex_t dog_lock = PTHREAD_MUTEX_INITIALIZER;
static double dog_last;  /* when a collective last returned (monotonic seconds) */
static int dog_timeout, dog_rank, dog_running;
static pthread_t dog_thread;


static void pet(void)
{
    pthread_mutex_lock(&dog_lock);
    dog_last = clock_now_s();
    pthread_mutex_unlock(&dog_lock);
}

static void *watchdog(void *arg)
{
    (void)arg;
    for (;;) {
        usleep(200000);
        pthread_mutex_lock(&dog_lock);
        int running = dog_running;
        double idle = clock_now_s() - dog_last;
        pthread_mutex_unlock(&dog_lock);
        if (!running) return NULL;
        if (idle > dog_timeout) {
            char line[200];
            int n = snprintf(line, sizeof line,
                             "fwadvisor: rank %d: no answer from the other ranks for %d s (did one stop?); giving up, "
                             "nothing saved\n", dog_rank, dog_timeout);
            if (write(STDERR_FILENO, line, (size_t)n) < 0) { /* nothing more to do */ }
            _exit(1);
        }
    }
}

/* --- set-up ------------------------------------------------------------------------------- */

int dist_start(struct dist *d, const struct fw_mpi *mpi, char *err, size_t errsz)
{
    memset(d, 0, sizeof *d);
    d->mpi = mpi;
    if (mpi->init(&d->rank, &d->size, &d->local_rank, &d->local_size, err, errsz)) return -1;
    mpi->host(d->host, sizeof d->host);
    const char *t = getenv("FWADVISOR_MPI_TIMEOUT");
    dog_timeout = t && atoi(t) > 0 ? atoi(t) : 120;
    dog_rank = d->rank;
    dog_running = 1;
    pet();
    if (pthread_create(&dog_thread, NULL, watchdog, NULL) != 0) dog_running = 0;
    return 0;
}

void dist_stop(struct dist *d)
{
    pthread_mutex_lock(&dog_lock);
    int was = dog_running;
    dog_running = 0;
    pthread_mutex_unlock(&dog_lock);
    if (was) pthread_join(dog_thread, NULL);
    d->mpi->finalize();
}

/* A failed collective leaves the ranks out of step: the whole job ends. */
static void must(struct dist *d, int rc)
{
    if (rc == 0) {
        pet();
        return;
    }
    fprintf(stderr, "fwadvisor: rank %d: %s; stopping every rank, nothing saved\n", d->rank, d->mpi->last_error());
    d->mpi->abort(1);
    _exit(1);
}

void dist_barrier(struct dist *d) { must(d, d->mpi->quiet_barrier()); }

int dist_check_versions(struct dist *d, const char *version, char *err, size_t errsz)
{
    char mine[32] = {0};
    snprintf(mine, sizeof mine, "%s", version);
    char *all = calloc((size_t)d->size, sizeof mine);
    if (!all) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    must(d, d->mpi->allgather(mine, all, (int)sizeof mine));
    int bad = -1;
    for (int r = 0; r < d->size && bad < 0; r++)
        if (strncmp(all + (size_t)r * sizeof mine, mine, sizeof mine) != 0) bad = r;
    if (bad >= 0) {
        char theirs[32];
        memcpy(theirs, all + (size_t)bad * sizeof mine, sizeof theirs);
        theirs[31] = 0;
        snprintf(err, errsz, "rank %d runs fwadvisor %s but rank %d runs %s: start the same version on every rank",
                 bad, theirs, d->rank, mine);
    }
    free(all);
    return bad >= 0 ? -1 : 0;
}

/* --- results (rank 0) -------------------------------------------------------------------- */

static struct probe_result *add(struct probe_run *run, const char *workload, const char *metric, const char *unit)
{
    if (!run || run->nresults == PROBE_MAX_RESULTS) return NULL;
    struct probe_result *r = &run->results[run->nresults++];
    memset(r, 0, sizeof *r);
    snprintf(r->workload, sizeof r->workload, "%s", workload);
    snprintf(r->device, sizeof r->device, "cpu");
    snprintf(r->metric, sizeof r->metric, "%s", metric);
    snprintf(r->unit, sizeof r->unit, "%s", unit);
    probe_params_init(&r->params, PROBE_PP_NONE);
    r->peak_fraction = -1;
    return r;
}

static void set_stats(struct probe_result *r, double *samples, int n)
{
    probe_stats(samples, n, &r->stats);
    r->noisy = r->stats.cv > 0.05;
}

static void fail(struct probe_result *r, const char *why)
{
    if (!r) return;
    r->skipped = 1;
    snprintf(r->reason, sizeof r->reason, "%s", why);
}

/* --- allreduce ---------------------------------------------------------------------------- */

/* Rank r contributes (r + 1) (i mod 7 + 1) at element i: small integers, so every sum is exact
 * in float and the result is known: (i mod 7 + 1) n (n + 1) / 2. */
static float contribution(int rank, size_t i) { return (float)((rank + 1) * (int)(i % 7 + 1)); }

double dist_busbw_factor(int ranks) { return ranks > 0 ? 2.0 * (ranks - 1) / ranks : 0; }

/* One allreduce row from the slowest rank's time per iteration (seconds, overwritten) and the
 * wrong-element count summed over the ranks: algbw = S / t, busbw = algbw x 2 (n - 1) / n. */
static void record_allreduce(struct dist *d, struct probe_result *r, size_t bytes, double *t, int iters,
                             long long wrong, const char *via)
{
    if (!r) return;
    double copy[64];
    memcpy(copy, t, sizeof(double) * (size_t)iters);
    struct probe_stats ts;
    probe_stats(copy, iters, &ts);
    double algbw = ts.median > 0 ? bytes / ts.median / 1e9 : 0;
    probe_params_init(&r->params, PROBE_PP_ALLREDUCE);
    r->params.bytes = bytes, r->params.ranks = d->size, r->params.dtype = PROBE_DTYPE_FP32;
    r->params.time_us = ts.median * 1e6, r->params.algbw_gbs = algbw, r->params.wrong = wrong;
    snprintf(r->params.via, sizeof r->params.via, "%s", via);
    if (wrong) {
        char why[96];
        snprintf(why, sizeof why, "result check failed: %lld wrong %s", wrong,
                 strcmp(via, "nccl") ? "elements" : "results (or a failed NCCL call) over the ranks");
        fail(r, why);
        return;
    }
    for (int i = 0; i < iters; i++) t[i] = t[i] > 0 ? bytes / t[i] / 1e9 * dist_busbw_factor(d->size) : 0;
    set_stats(r, t, iters);
}

static void run_allreduce(struct dist *d, struct probe_run *run, const struct probe_options *opt)
{
    size_t sizes[32];
    int nsizes = 0;
    if (opt->smoke) {
        static const size_t s[] = {8, 4096, (size_t)1 << 20};
        for (int i = 0; i < 3; i++) sizes[nsizes++] = s[i];
    } else if (opt->full) {
        for (size_t b = 8; b <= ((size_t)256 << 20); b *= 2) sizes[nsizes++] = b;
    } else {
        static const size_t s[] = {8, 1024, (size_t)64 << 10, (size_t)1 << 20, (size_t)16 << 20, (size_t)64 << 20};
        for (int i = 0; i < 6; i++) sizes[nsizes++] = s[i];
    }
    size_t max = sizes[nsizes - 1] / sizeof(float);
    float *send = malloc(max * sizeof *send), *recv = malloc(max * sizeof *recv);
    long long ok = send && recv ? 1 : 0;
    must(d, d->mpi->allreduce_sum_i64(&ok, 1));
    if (ok != d->size) {
        fail(add(run, PROBE_WL_ALLREDUCE, PROBE_M_BUSBW_GBS, "GB/s"), "out of memory for the buffers on some rank");
        free(send);
        free(recv);
        return;
    }
    for (size_t i = 0; i < max; i++) send[i] = contribution(d->rank, i);
    double expected_scale = (double)d->size * (d->size + 1) / 2;
    for (int s = 0; s < nsizes; s++) {
        size_t count = sizes[s] / sizeof(float), bytes = count * sizeof(float);
        /* nccl-tests' defaults: 5 warm-up runs, then timed ones (fewer for the largest sizes) */
        int warm = opt->smoke ? 1 : 5, iters = opt->smoke ? 3 : bytes >= ((size_t)16 << 20) ? 10 : 20;
        if (opt->full) iters *= 2;
        for (int i = 0; i < warm; i++) must(d, d->mpi->allreduce_sum_f32(send, recv, count));
        memset(recv, 0, bytes);
        double t[64];
        must(d, d->mpi->quiet_barrier());
        for (int i = 0; i < iters; i++) {
            double t0 = d->mpi->wtime();
            must(d, d->mpi->allreduce_sum_f32(send, recv, count));
            t[i] = d->mpi->wtime() - t0;
        }
        /* an iteration lasts as long as its slowest rank */
        must(d, d->mpi->allreduce_max_f64(t, iters));
        long long wrong = 0;
        for (size_t i = 0; i < count; i++)
            if ((double)recv[i] != (double)(i % 7 + 1) * expected_scale) wrong++;
        must(d, d->mpi->allreduce_sum_i64(&wrong, 1));
        record_allreduce(d, add(run, PROBE_WL_ALLREDUCE, PROBE_M_BUSBW_GBS, "GB/s"), bytes, t, iters, wrong, "mpi");
    }
    free(send);
    free(recv);
}

int dist_gpu_for_rank(int local_rank, int device_count)
{
    return device_count > 0 && local_rank >= 0 ? local_rank % device_count : -1;
}

/* The same sizes and check through NCCL on each rank's GPU: each run timed with CUDA events on
 * its rank, an iteration lasting as long as its slowest rank. */
static void run_allreduce_gpu(struct dist *d, struct probe_run *run, const struct probe_options *opt)
{
    char err[512] = "";
    const struct eng_cuda_plugin *g = eng_cuda_load(err, sizeof err);
    struct eng_cuda_device info;
    long long ok = 0;
    int index = g ? dist_gpu_for_rank(d->local_rank, g->device_count(err, sizeof err)) : -1;
    if (index >= 0 && eng_device_open(index, ENG_PREC_FP32, &info, err, sizeof err)) ok = 1;
    int usable = (int)ok;
    must(d, d->mpi->allreduce_sum_i64(&ok, 1));
    char id[ENG_NCCL_ID_BYTES] = {0};
    long long made = 0;
    if (ok == d->size && d->rank == 0) made = g->nccl_unique_id(id, err, sizeof err) == 0;
    must(d, d->mpi->bcast(&made, sizeof made, 0));
    if (made) must(d, d->mpi->bcast(id, (int)sizeof id, 0));
    long long joined = made && g->nccl_join(id, d->rank, d->size, err, sizeof err) == 0;
    must(d, d->mpi->allreduce_sum_i64(&joined, 1));
    char device[16];
    if (index >= 0) snprintf(device, sizeof device, "cuda:%d", index);
    else snprintf(device, sizeof device, "cuda");
    if (joined != d->size) {
        struct probe_result *r = add(run, PROBE_WL_ALLREDUCE, PROBE_M_BUSBW_GBS, "GB/s");
        if (r) snprintf(r->device, sizeof r->device, "%s", device);
        char why[256];
        if (!usable) snprintf(why, sizeof why, "no usable GPU on rank %d: %.200s", d->rank, err);
        else if (ok != d->size) snprintf(why, sizeof why, "a rank has no usable GPU (no CUDA back-end there)");
        else snprintf(why, sizeof why, "%.250s", err[0] ? err : "NCCL did not start on every rank");
        fail(r, why);
        eng_device_close();
        return;
    }
    size_t sizes[32];
    int nsizes = 0;
    for (size_t b = 8; b <= ((size_t)256 << 20); b *= opt->full ? 2 : 8) sizes[nsizes++] = b;
    if (opt->smoke) nsizes = 3;
    for (int s = 0; s < nsizes; s++) {
        size_t bytes = sizes[s] / 4 * 4;
        long long ready = g->bench_prepare(ENG_BENCH_ALLREDUCE, bytes, d->rank, err, sizeof err) == 0;
        must(d, d->mpi->allreduce_sum_i64(&ready, 1));
        struct probe_result *r = add(run, PROBE_WL_ALLREDUCE, PROBE_M_BUSBW_GBS, "GB/s");
        if (r) snprintf(r->device, sizeof r->device, "%s", device);
        if (ready != d->size) {
            fail(r, "the buffers could not be allocated on every GPU");
            g->bench_release();
            continue;
        }
        int warm = 5, iters = opt->full ? 40 : 20;
        double t[64];
        long long bad = 0;
        for (int i = 0; i < warm; i++) bad |= g->bench_run() < 0;
        for (int i = 0; i < iters; i++) {
            t[i] = g->bench_run();
            bad |= t[i] <= 0;
        }
        long long wrong = bad || !g->bench_check();
        g->bench_release();
        must(d, d->mpi->allreduce_max_f64(t, iters));
        must(d, d->mpi->allreduce_sum_i64(&wrong, 1));
        record_allreduce(d, r, bytes, t, iters, wrong, "nccl");
    }
    g->nccl_leave();
    eng_device_close();
}

/* --- train-dp ----------------------------------------------------------------------------- */

struct dp_setup {
    const char *layers;
    int batch;   /* per rank */
    int threads; /* per rank */
    int check_steps, warm, steps;
};

static int make_model(const struct dp_setup *s, int batch, struct eng_model **m, char *err, size_t errsz)
{
    struct eng_config c;
    eng_config_defaults(&c);
    if (eng_parse_layers(&c, s->layers, err, errsz)) return -1;
    c.batch = batch;
    c.threads = s->threads;
    if (eng_model_create(&c, eng_cpu_backend(), m, err, errsz) != ENG_OK) return -1;
    eng_model_init(*m, 1);
    return 0;
}

/* The loop's hooks on one rank: the gradients averaged over the ranks between the backward pass
 * and the update (each rank's gradient is already a mean over its rows, so this is the mean over
 * the global batch), and each step's seconds split into compute and the all-reduce. */
struct dp_hook {
    struct dist *d;
    double comm;            /* this step's all-reduce, seconds */
    double *step, *cp, *cm; /* per step (total, compute, communication), or NULL */
};

static void dp_average(void *ctx, float *g, size_t n)
{
    struct dp_hook *h = ctx;
    double t0 = clock_now_s();
    must(h->d, h->d->mpi->allreduce_sum_f32(NULL, g, n));
    h->comm = clock_now_s() - t0;
    float inv = 1.0f / (float)h->d->size;
    for (size_t i = 0; i < n; i++) g[i] *= inv;
}

static int dp_record(void *ctx, int step, float loss, double seconds)
{
    struct dp_hook *h = ctx;
    (void)loss;
    if (h->step) h->step[step] = seconds, h->cp[step] = seconds - h->comm, h->cm[step] = h->comm;
    return 0;
}

/* `steps` data-parallel steps of m from global step k0, each on this rank's rows of the global
 * batch (batch k * ranks + rank of the data); with step, cp and cm each step's times. */
static void dp_steps(struct dist *d, struct eng_model *m, const struct eng_data *data, int k0, int steps, double *step,
                     double *cp, double *cm)
{
    struct dp_hook h = {d, 0, step, cp, cm};
    struct eng_run run = {.steps = steps};
    struct eng_loop loop = {.on_step = dp_record, .ctx = &h, .on_grads = dp_average,
                            .first_batch = (long)k0 * d->size + d->rank, .batch_stride = d->size, .every_step = 1};
    char err[256];
    eng_train_loop(m, data, &run, &loop, err, sizeof err);
}

/* `steps` steps of one process from batch `first` of the data; with secs each step's seconds. */
static void one_steps(struct eng_model *m, const struct eng_data *data, long first, int steps, double *secs)
{
    struct eng_run run = {.steps = steps, .step_seconds = secs};
    struct eng_loop loop = {.first_batch = first};
    char err[256];
    eng_train_loop(m, data, &run, &loop, err, sizeof err);
}

/* The tests' way to stop one rank at a known point of train-dp (every rank has started the
 * engine, none has begun a step): the rank FWADVISOR_TEST_HOLD_RANK writes its process id to
 * FWADVISOR_TEST_HOLD_FILE and waits there (two minutes at most), so a test can kill it mid-run
 * whatever the machine's speed. Unset, this does nothing. */
static void hold_for_test(const struct dist *d)
{
    const char *rank = getenv("FWADVISOR_TEST_HOLD_RANK"), *file = getenv("FWADVISOR_TEST_HOLD_FILE");
    if (!rank || !file || !*file || atoi(rank) != d->rank) return;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", file);
    FILE *f = fopen(tmp, "w");
    if (!f) return;
    fprintf(f, "%ld\n", (long)getpid());
    if (fclose(f) != 0 || rename(tmp, file) != 0) return;
    for (int i = 0; i < 1200; i++) usleep(100000);
}

/* The cores of this host shared between its ranks: the threads each rank's engine runs. */
static int dp_threads(struct dist *d, struct probe_run *run, const struct probe_options *opt)
{
    int cores = opt->threads > 0 ? opt->threads : (run ? run->hw.cpu.cores : 0);
    long long c = cores;
    must(d, d->mpi->bcast(&c, sizeof c, 0));
    cores = c > 0 ? (int)c : 1;
    int threads = cores / (d->local_size > 0 ? d->local_size : 1);
    return threads < 1 ? 1 : threads;
}

/* Rank 0 (holding every rank's weights after the check's steps): 0 when the ranks agree and
 * match one process stepping over the same global batches, 1 ranks differ, 2 differs from one
 * process, 3 the single-process reference could not run. `mine` is scratch of np floats. */
static long long dp_verdict(const struct dist *d, const struct dp_setup *s, const struct eng_data *data,
                            const float *every, float *mine, size_t np)
{
    for (int r = 1; r < d->size; r++)
        if (memcmp(every, every + (size_t)r * np, np * sizeof *mine) != 0) return 1;
    struct eng_model *one = NULL;
    char err[256];
    if (make_model(s, s->batch * d->size, &one, err, sizeof err) != 0) return 3;
    one_steps(one, data, 0, s->check_steps, NULL);
    eng_model_get_params(one, mine);
    eng_model_free(one);
    /* the same sums in another order: relative 1e-4 (Adam's first steps move each weight by
     * about lr whatever the gradient's size, so the floor is lr / 100) */
    double worst = 0;
    for (size_t i = 0; i < np; i++) {
        double diff = fabs((double)every[i] - mine[i]), tol = 1e-4 * fabs((double)mine[i]) + 1e-5;
        if (diff / tol > worst) worst = diff / tol;
    }
    return worst > 1 ? 2 : 0;
}

/* 1. Correctness: K steps on every rank, then the weights everywhere must be the same bits and
 *    match one process stepping over the same global batch. NULL, or why the rows fail. */
static const char *dp_check(struct dist *d, const struct dp_setup *s, struct eng_model *m, const struct eng_data *data)
{
    dp_steps(d, m, data, 0, s->check_steps, NULL, NULL, NULL);
    size_t np = eng_model_param_count(m);
    float *mine = malloc(np * sizeof *mine);
    float *every = d->rank == 0 ? malloc(np * sizeof *every * (size_t)d->size) : NULL;
    long long have = mine && (d->rank != 0 || every);
    must(d, d->mpi->allreduce_sum_i64(&have, 1));
    long long verdict = 0;
    if (have == d->size) {
        eng_model_get_params(m, mine);
        must(d, d->mpi->gather(mine, every, (int)(np * sizeof *mine), 0));
        if (d->rank == 0) verdict = dp_verdict(d, s, data, every, mine, np);
    }
    free(mine);
    free(every);
    dist_barrier(d);
    must(d, d->mpi->bcast(&verdict, sizeof verdict, 0));
    if (have != d->size) return "out of memory for the weight check";
    return verdict == 1 ? "result check failed: the ranks' weights differ"
           : verdict == 2 ? "result check failed: weights differ from a single-process run"
           : verdict == 3 ? "the single-process reference could not run"
                          : NULL;
}

/* The timed steps of every rank (data-parallel: total, compute, communication) and rank 0's
 * single-process baseline with its round's rate. */
struct dp_times {
    int n;
    double *step, *cp, *cm, *base, *round_rate;
};

static void dp_times_free(struct dp_times *t)
{
    free(t->step), free(t->cp), free(t->cm), free(t->base), free(t->round_rate);
}

/* 2 and 3. The single-process baseline and the data-parallel steps, in interleaved rounds: each
 *    round times a few steps of one process on rank 0 (same rows per step and threads, the other
 *    ranks waiting without spinning), then as many data-parallel steps on every rank, each of
 *    which lasts as long as its slowest rank. A data-parallel step is compared with its own
 *    round's baseline, so a neighbour's load that comes and goes shifts both sides alike instead
 *    of making the efficiency look super-linear (or poor). 0, or -1 when out of memory. */
static int dp_time(struct dist *d, const struct probe_options *opt, const struct dp_setup *s, struct eng_model *m,
                   const struct eng_data *data, struct dp_times *t)
{
    int n = s->steps, rounds = opt->full ? 5 : 3;
    if (rounds > n) rounds = n;
    t->n = n;
    t->step = calloc((size_t)n, sizeof *t->step), t->cp = calloc((size_t)n, sizeof *t->cp);
    t->cm = calloc((size_t)n, sizeof *t->cm), t->base = calloc((size_t)n, sizeof *t->base);
    t->round_rate = calloc((size_t)n, sizeof *t->round_rate);
    struct eng_model *one = NULL;
    char err[256];
    long long have = t->step && t->cp && t->cm && t->base && t->round_rate &&
                     (d->rank != 0 || make_model(s, s->batch, &one, err, sizeof err) == 0);
    must(d, d->mpi->allreduce_sum_i64(&have, 1));
    if (have != d->size) {
        if (one) eng_model_free(one);
        return -1;
    }
    if (one) one_steps(one, data, 0, s->warm, NULL);
    dp_steps(d, m, data, s->check_steps, s->warm, NULL, NULL, NULL);
    for (int rd = 0, done = 0; rd < rounds; rd++) {
        int lo = done, hi = (int)((long long)n * (rd + 1) / rounds);
        if (one) {
            one_steps(one, data, s->warm + lo, hi - lo, t->base + lo);
            struct probe_stats st; /* the round's median step */
            probe_stats_copy(t->base + lo, hi - lo, &st);
            for (int k = lo; k < hi; k++) t->round_rate[k] = st.median > 0 ? s->batch / st.median : 0;
        }
        dist_barrier(d);
        dp_steps(d, m, data, s->check_steps + s->warm + lo, hi - lo, t->step + lo, t->cp + lo, t->cm + lo);
        done = hi;
    }
    if (one) eng_model_free(one);
    return 0;
}

/* Rank 0's rows from the slowest rank's times per step, and every rank's own medians for the
 * per-rank figures. */
static void dp_report(struct dist *d, struct probe_run *run, const struct dp_setup *s, struct dp_times *t,
                      struct probe_result *rows_out[5])
{
    int n = t->n;
    struct probe_result *r_eff = rows_out[0], *r_n = rows_out[1], *r_1 = rows_out[2], *r_cp = rows_out[3],
                        *r_cm = rows_out[4];
    if (d->rank == 0 && r_1) {
        for (int i = 0; i < n; i++) t->base[i] = s->batch / t->base[i];
        set_stats(r_1, t->base, n);
    }
    struct probe_stats st;
    struct { double compute_ms, comm_ms, rate; } me = {0, 0, 0}, *all = NULL;
    probe_stats_copy(t->cp, n, &st), me.compute_ms = st.median * 1e3;
    probe_stats_copy(t->cm, n, &st), me.comm_ms = st.median * 1e3;
    probe_stats_copy(t->step, n, &st), me.rate = st.median > 0 ? s->batch / st.median : 0;
    if (d->rank == 0) all = calloc((size_t)d->size, sizeof *all);
    long long have_all = d->rank != 0 || all;
    must(d, d->mpi->allreduce_sum_i64(&have_all, 1));
    if (have_all == d->size) must(d, d->mpi->gather(&me, all, (int)sizeof me, 0));
    must(d, d->mpi->allreduce_max_f64(t->step, n));
    must(d, d->mpi->allreduce_max_f64(t->cp, n));
    must(d, d->mpi->allreduce_max_f64(t->cm, n));
    if (d->rank == 0 && run) {
        double *rate = malloc(sizeof(double) * (size_t)n);
        for (int i = 0; rate && i < n; i++) rate[i] = (double)s->batch * d->size / t->step[i];
        if (rate && r_n) set_stats(r_n, rate, n);
        int based = rate && r_eff;
        for (int i = 0; based && i < n; i++) based = t->round_rate[i] > 0;
        if (based) {
            for (int i = 0; i < n; i++) rate[i] = (double)s->batch * d->size / t->step[i] / (d->size * t->round_rate[i]);
            set_stats(r_eff, rate, n);
        } else {
            fail(r_eff, "no single-process baseline");
        }
        for (int i = 0; i < n; i++) t->cp[i] *= 1e3, t->cm[i] *= 1e3;
        if (r_cp) set_stats(r_cp, t->cp, n);
        if (r_cm) set_stats(r_cm, t->cm, n);
        free(rate);
        /* dist_run has listed the ranks and their hosts */
        for (int i = 0; all && i < run->ranks.listed; i++) {
            struct probe_rank *pr = &run->ranks.rank[i];
            pr->compute_ms = all[i].compute_ms;
            pr->comm_ms = all[i].comm_ms;
            pr->samples_per_s = all[i].rate;
        }
    }
    free(all);
}

static void run_train_dp(struct dist *d, struct probe_run *run, const struct probe_options *opt)
{
    struct dp_setup s = {"784,1024,1024,10", 256, 1, 3, 3, opt->full ? 40 : 15};
    if (opt->smoke) s = (struct dp_setup){"32,64,10", 16, 1, 3, 1, 5};
    s.threads = dp_threads(d, run, opt);

    char err[256];
    struct eng_model *m = NULL;
    struct eng_data data;
    int rows = d->size * s.batch * 4, in = atoi(s.layers);
    int have_data = eng_data_synthetic(&data, rows, in, 10, ENG_LOSS_CE, 1, err, sizeof err) == ENG_OK;
    long long ok = have_data && make_model(&s, s.batch, &m, err, sizeof err) == 0;
    long long all_ok = ok;
    must(d, d->mpi->allreduce_sum_i64(&all_ok, 1));
    struct probe_result *r_eff = add(run, PROBE_WL_TRAIN_DP, PROBE_M_SCALING_EFFICIENCY, "ratio");
    struct probe_result *r_n = add(run, PROBE_WL_TRAIN_DP, PROBE_M_SAMPLES_PER_S, "samples/s");
    struct probe_result *r_1 = add(run, PROBE_WL_TRAIN_DP, PROBE_M_SAMPLES_PER_S_SINGLE, "samples/s");
    struct probe_result *r_cp = add(run, PROBE_WL_TRAIN_DP, PROBE_M_COMPUTE_MS, "ms");
    struct probe_result *r_cm = add(run, PROBE_WL_TRAIN_DP, PROBE_M_COMM_MS, "ms");
    struct probe_params params;
    probe_params_init(&params, PROBE_PP_DATA_PARALLEL);
    snprintf(params.layers, sizeof params.layers, "%s", s.layers);
    snprintf(params.optimizer, sizeof params.optimizer, "adam");
    params.batch = s.batch, params.ranks = d->size, params.threads = s.threads;
    struct probe_result *rows_out[] = {r_eff, r_n, r_1, r_cp, r_cm};
    for (int i = 0; i < 5; i++)
        if (rows_out[i]) rows_out[i]->params = params;
    const char *why = all_ok != d->size ? "the engine could not start on every rank (memory?)" : NULL;
    if (!why) {
        hold_for_test(d);
        why = dp_check(d, &s, m, &data);
    }
    struct dp_times times = {0};
    if (!why && dp_time(d, opt, &s, m, &data, &times) != 0) why = "out of memory for the timings";
    if (why) {
        for (int i = 0; i < 5; i++) fail(rows_out[i], why);
    } else {
        dp_report(d, run, &s, &times, rows_out);
    }
    dp_times_free(&times);
    if (m) eng_model_free(m);
    if (have_data) eng_data_free(&data);
}

void dist_run(struct dist *d, struct probe_run *run, const struct probe_options *opt, int gpu)
{
    if (run) {
        run->ranks.count = d->size;
        snprintf(run->ranks.mpi, sizeof run->ranks.mpi, "%s", d->mpi->library);
        run->ranks.listed = d->size < PROBE_MAX_RANKS ? d->size : PROBE_MAX_RANKS;
        for (int i = 0; i < run->ranks.listed; i++) {
            run->ranks.rank[i].rank = i;
            run->ranks.rank[i].compute_ms = run->ranks.rank[i].comm_ms = run->ranks.rank[i].samples_per_s = -1;
        }
    }
    /* hosts for the record, whatever runs */
    char(*hosts)[64] = calloc((size_t)d->size, 64);
    if (hosts) {
        char mine[64] = {0};
        snprintf(mine, sizeof mine, "%s", d->host);
        must(d, d->mpi->allgather(mine, hosts, 64));
        for (int i = 0; run && i < run->ranks.listed; i++) snprintf(run->ranks.rank[i].host, 64, "%s", hosts[i]);
        free(hosts);
    }
    if (opt->workloads & probe_workload_bit(PROBE_WL_ALLREDUCE)) {
        if (gpu) run_allreduce_gpu(d, run, opt);
        else run_allreduce(d, run, opt);
    }
    if (opt->workloads & probe_workload_bit(PROBE_WL_TRAIN_DP)) {
        if (gpu) fail(add(run, PROBE_WL_TRAIN_DP, PROBE_M_SCALING_EFFICIENCY, "ratio"),
                      "skipped: data-parallel training runs on the CPU ranks only in this build (run without --device cuda)");
        else run_train_dp(d, run, opt);
    }
}
