/* make bench: the speed targets, measured.
 *   first-run creation of the database            < 200 ms (in process and as a whole command)
 *   `fwadvisor kb list` on an existing database   < 20 ms median, as a whole process
 *   adv_rank with the knowledge base in memory    well under 1 ms (target: median < 0.1 ms)
 *   `fwadvisor recommend --json`, existing db     < 15 ms median, as a whole process
 *   a 20-value `recommend --sweep`, in memory    < 100 ms median
 *   `recommend --compare-hardware` of a 70B LoRA fine-tune, in memory   < 500 ms median (the
 *     interface's Hardware tab plans it on a thread of its own)
 *   engine, side by side with cblas_sgemm and (where torch imports) PyTorch, same threads:
 *     (a) MLP 784-1024-1024-10, batch 256, Adam: >= 1.5x PyTorch's samples/s, >= 70% of (c)
 *     (b) Linear(100,10), batch 32, Adam: >= 50x faster per step than PyTorch eager
 *     (c) cblas_sgemm alone on (a)'s matrix products: the machine's practical peak
 *     peak resident memory of (a) <= 1.3 x (parameters + gradients + optimizer + activations) + 30 MB
 *   GPT step, 4 layers x 4 heads x 256 wide, T 128, batch 8, vocab 256, AdamW, clipping at 1, side
 *     by side with PyTorch eager (Debian's, and PyPI's from `make bench-peers`) and JAX jit (same
 *     environment), each at its best of 1 thread and the physical cores, three rounds:
 *     >= 1.3x PyTorch's step rate, ahead of JAX; the step's GEMMs at >= 80% of cblas_sgemm's rate
 *     on the same shapes (step time against the same products alone); peak resident memory of
 *     the run <= 1.5 x the planner's parameters + gradients + Adam + activations
 *   interface: first frame < 100 ms after start, every key handled and redrawn < 16 ms
 *     (measured inside fwadvisor, FWADVISOR_TUI_STATS, driven through tmux)
 *   probe: `fwadvisor probe --quick` <= 15 s and `--full` <= 90 s as whole processes (the
 *     hardware workloads: all but frameworks); its gemm peak within 10% of the best cblas_sgemm
 *     this program gets in the same run
 *   frameworks: `fwadvisor probe --quick --workload frameworks` with the bench-peers environment
 *     (PyTorch, JAX, TensorFlow, and Keras 3 on each) < 60 s as a whole process; every row timed
 * Prints median/min/max per measurement and exits 1 when a target is missed.
 *
 *   bench PATH-TO-fwadvisor [PATH-TO-bench_torch.py [PATH-TO-bench_gpt.py [PEERS-VENV-PYTHON]]]
 * FWADVISOR_BENCH_ONLY=gpt runs the GPT comparison alone, FWADVISOR_BENCH_ONLY=frameworks the
 * frameworks workload alone. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include <cjson/cJSON.h>

#include "engine/engine.h"
#include "engine/gpt.h"
#include "knowledge/advisor.h"
#include "knowledge/compare.h"
#include "knowledge/kb.h"
#include "knowledge/presets.h"
#include "probes/cpu_cores.h"
#include "tests/support.h"

extern char **environ;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct stats { double median, min, max; };

static struct stats summarize(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    struct stats s = {n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0], v[n - 1]};
    return s;
}

/* Runs argv with stdout and stderr to /dev/null; returns wall milliseconds or -1. */
static double time_command(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    double t0 = now_ms();
    if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        return -1;
    }
    int status;
    waitpid(pid, &status, 0);
    double t = now_ms() - t0;
    posix_spawn_file_actions_destroy(&fa);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static int report(const char *what, struct stats s, double target_ms, const char *which)
{
    int ok = (strcmp(which, "median") == 0 ? s.median : s.max) < target_ms;
    printf("%-50s median %7.3f ms  min %7.3f  max %7.3f  target %s < %g ms  %s\n", what, s.median, s.min,
           s.max, which, target_ms, ok ? "PASS" : "FAIL");
    return ok;
}

/* Runs argv and returns its standard output (NULL on failure). Caller frees. */
static char *capture(char *const argv[])
{
    int fds[2];
    if (pipe(fds) != 0) return NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int ok = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) == 0;
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    size_t cap = 1 << 16, used = 0;
    char *out = malloc(cap);
    ssize_t n;
    while (ok && out && (n = read(fds[0], out + used, cap - used - 1)) > 0) {
        used += (size_t)n;
        if (used + 1 == cap) out = realloc(out, cap *= 2);
    }
    close(fds[0]);
    int status = 0;
    if (ok) waitpid(pid, &status, 0);
    if (!ok || !out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(out);
        return NULL;
    }
    out[used] = '\0';
    return out;
}

static double json_number(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b) v = cJSON_GetObjectItemCaseSensitive(v, b);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* Median seconds per step of `steps` timed steps after `warmup`. */
static double engine_step(const char *layers, int batch, int threads, int warmup, int steps, double *flops)
{
    char err[256];
    struct eng_config c;
    eng_config_defaults(&c);
    eng_parse_layers(&c, layers, err, sizeof err);
    c.batch = batch;
    c.threads = threads;
    struct eng_model *m;
    if (eng_model_create(&c, eng_cpu_backend(), &m, err, sizeof err) != ENG_OK) return -1;
    eng_model_init(m, 1);
    struct eng_data d;
    eng_data_synthetic(&d, batch * 4, c.sizes[0], c.sizes[c.nsizes - 1], ENG_LOSS_CE, 1, err, sizeof err);
    double *t = malloc((size_t)(warmup + steps) * sizeof *t);
    struct eng_run run = {warmup + steps, NULL, t, NULL};
    eng_train(m, &d, &run, NULL, NULL, err, sizeof err);
    struct stats s = summarize(t + warmup, steps);
    *flops = eng_model_step_flops(m);
    free(t);
    eng_data_free(&d);
    eng_model_free(m);
    return s.median;
}

/* (c): the matrix products of one (a) step, alone, through the same back-end call. */
static double gemm_only(int threads, double *flops)
{
    const struct eng_backend *be = eng_cpu_backend();
    be->set_threads(threads);
    const int B = 256, w[4] = {784, 1024, 1024, 10};
    float *x = calloc((size_t)B * 1024, sizeof(float)), *y[3], *wt[3], *dw[3], *dy = calloc((size_t)B * 1024, sizeof(float)),
          *dx = calloc((size_t)B * 1024, sizeof(float));
    for (int i = 0; i < 3; i++) {
        wt[i] = calloc((size_t)w[i] * w[i + 1], sizeof(float));
        dw[i] = calloc((size_t)w[i] * w[i + 1], sizeof(float));
        y[i] = calloc((size_t)B * w[i + 1], sizeof(float));
        for (int j = 0; j < w[i] * w[i + 1]; j++) wt[i][j] = 0.001f * (float)(j % 13);
    }
    for (int j = 0; j < B * 1024; j++) x[j] = dy[j] = 0.01f * (float)(j % 7);
    enum { REPS = 30 };
    double t[REPS];
    for (int rep = -3; rep < REPS; rep++) {
        double t0 = now_ms();
        for (int i = 0; i < 3; i++)
            be->gemm(0, 1, B, w[i + 1], w[i], 1, i ? y[i - 1] : x, w[i], wt[i], w[i], 0, y[i], w[i + 1]);
        for (int i = 2; i >= 0; i--) {
            be->gemm(1, 0, w[i + 1], w[i], B, 1, dy, w[i + 1], i ? y[i - 1] : x, w[i], 0, dw[i], w[i]);
            if (i) be->gemm(0, 0, B, w[i], w[i + 1], 1, dy, w[i + 1], wt[i], w[i], 0, dx, w[i]);
        }
        if (rep >= 0) t[rep] = (now_ms() - t0) / 1e3;
    }
    for (int i = 0; i < 3; i++) {
        free(wt[i]);
        free(dw[i]);
        free(y[i]);
    }
    free(x);
    free(dy);
    free(dx);
    *flops = 2.0 * B * (3.0 * (784 * 1024 + 1024 * 1024 + 1024 * 10) - 784 * 1024);
    return summarize(t, REPS).median;
}

static int check(const char *what, double value, double target, int at_least)
{
    int ok = at_least ? value >= target : value <= target;
    printf("  %-58s %9.2f  target %s %g  %s\n", what, value, at_least ? ">=" : "<=", target, ok ? "PASS" : "FAIL");
    return ok;
}

static int bench_engine(char *bin, const char *torch_script)
{
    int threads = probe_physical_cores(), ok = 1;
    printf("\nengine, %d thread%s (the physical cores):\n", threads, threads == 1 ? "" : "s");
    double flops_a, flops_c, flops_b;
    /* (b) first: after a large GEMM, OpenBLAS's idle workers keep polling for a while, which
     * would be charged to the microsecond steps of (b). */
    double b = engine_step("100,10", 32, threads, 200, 5000, &flops_b);
    double a = engine_step("784,1024,1024,10", 256, threads, 3, 30, &flops_a);
    double c = gemm_only(threads, &flops_c);
    printf("  (a) MLP 784-1024-1024-10, batch 256, Adam: %.2f ms/step, %.0f samples/s, %.1f GFLOP/s\n", a * 1e3, 256 / a,
           flops_a / a / 1e9);
    printf("  (b) Linear(100,10), batch 32, Adam: %.2f us/step\n", b * 1e6);
    printf("  (c) cblas_sgemm alone on (a)'s products: %.2f ms, %.1f GFLOP/s\n", c * 1e3, flops_c / c / 1e9);
    ok &= check("(a) GFLOP/s as a fraction of (c) [%]", 100 * (flops_a / a) / (flops_c / c), 70, 1);

    char layers[] = "--layers=784,1024,1024,10", batch[] = "--batch=256", steps[] = "--steps=20", json[] = "--json",
         train[] = "train";
    char *args[] = {bin, train, layers, batch, steps, json, NULL};
    char *out = capture(args);
    cJSON *doc = out ? cJSON_Parse(out) : NULL;
    double rss = json_number(doc, "peak_rss_bytes", NULL), buf = json_number(doc, "buffer_bytes", NULL);
    printf("  (a) as a process: peak resident %.1f MB; parameters, gradients, Adam state, activations %.1f MB\n",
           rss / 1e6, buf / 1e6);
    ok &= check("(a) peak resident memory [MB] vs 1.3 x buffers + 30 MB", rss / 1e6, 1.3 * buf / 1e6 + 30, 0);
    cJSON_Delete(doc);
    free(out);

    char py[] = "/usr/bin/python3", th[16];
    snprintf(th, sizeof th, "%d", threads);
    char *pargs[] = {py, (char *)torch_script, th, NULL};
    out = torch_script && access(py, X_OK) == 0 ? capture(pargs) : NULL;
    doc = out ? cJSON_Parse(out) : NULL;
    if (!doc) {
        printf("  PyTorch: not importable here (scripts/deps.sh --peer installs it); its comparisons are skipped\n");
        free(out);
        return ok;
    }
    double ta = json_number(doc, "mlp", "step_s"), tb = json_number(doc, "tiny", "step_s");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "torch");
    printf("  PyTorch %s eager, best of its thread settings: (a) %.2f ms/step, %.0f samples/s (%g threads); "
           "(b) %.1f us/step\n",
           cJSON_IsString(ver) ? ver->valuestring : "?", ta * 1e3, 256 / ta, json_number(doc, "mlp", "threads"), tb * 1e6);
    ok &= check("(a) samples/s, engine / PyTorch", ta / a, 1.5, 1);
    ok &= check("(b) step time, PyTorch / engine", tb / b, 50, 1);
    cJSON_Delete(doc);
    free(out);
    return ok;
}

/* --- the GPT step side by side ------------------------------------------------------------ */

#define GPT_SHAPE "4,4,256,128,256,8"
enum { GPT_ROUNDS = 3, GPT_STEPS = 10 };

/* Median seconds of the engine's GPT step at `threads`, and of the same step's linear-layer GEMMs
 * run alone as plain cblas_sgemm calls (OpenBLAS threaded). */
static double gpt_engine_step(int threads, double *gemms)
{
    char err[256];
    struct eng_gpt_config c;
    eng_gpt_config_defaults(&c);
    c.n_layer = 4, c.n_head = 4, c.n_embd = 256, c.ctx = 128, c.vocab = 256, c.batch = 8, c.threads = threads;
    struct eng_gpt *m;
    struct eng_tokens t;
    if (eng_gpt_create(&c, eng_cpu_backend(), &m, err, sizeof err) != ENG_OK) return -1;
    eng_gpt_init(m, 1);
    eng_tokens_synthetic(&t, 65536, 256, 1, err, sizeof err);
    double secs[GPT_STEPS + 1], g[GPT_STEPS];
    struct eng_run run = {GPT_STEPS + 1, NULL, secs, NULL};
    eng_gpt_train(m, &t, &run, NULL, NULL, err, sizeof err);
    for (int i = 0; i < GPT_STEPS; i++) g[i] = eng_gpt_time_gemms(m);
    *gemms = summarize(g, GPT_STEPS).median;
    eng_tokens_free(&t);
    eng_gpt_free(m);
    return summarize(secs + 1, GPT_STEPS).median;
}

/* A framework's median step (seconds) from bench_gpt.py, or -1 when it cannot run there. */
static double gpt_peer_step(const char *python, const char *script, const char *framework, int threads, char *version,
                            size_t versionsz)
{
    char th[16], steps[16], shape[] = GPT_SHAPE;
    snprintf(th, sizeof th, "%d", threads);
    snprintf(steps, sizeof steps, "%d", GPT_STEPS);
    char *args[] = {(char *)python, (char *)script, (char *)framework, th, shape, steps, NULL};
    char *out = access(python, X_OK) == 0 ? capture(args) : NULL;
    cJSON *doc = out ? cJSON_Parse(out) : NULL;
    double step = json_number(doc, "step_s", NULL);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "version");
    if (cJSON_IsString(v)) snprintf(version, versionsz, "%s", v->valuestring);
    cJSON_Delete(doc);
    free(out);
    return doc ? step : -1;
}

struct gpt_peer {
    const char *label, *python, *framework;
    double best[GPT_ROUNDS]; /* per round, the best thread setting's median step */
    int threads[GPT_ROUNDS];
    char version[64];
};

static void ratio_line(const char *what, const double *engine, const double *peer, double *median)
{
    double r[GPT_ROUNDS];
    for (int i = 0; i < GPT_ROUNDS; i++) r[i] = peer[i] / engine[i];
    struct stats s = summarize(r, GPT_ROUNDS);
    printf("  %-58s median %.2f, min %.2f, max %.2f over %d rounds\n", what, s.median, s.min, s.max, GPT_ROUNDS);
    *median = s.median;
}

static int bench_gpt(char *bin, const char *script, const char *venv_python)
{
    int cores = probe_physical_cores(), settings[2] = {1, cores}, nsettings = cores > 1 ? 2 : 1, ok = 1;
    printf("\nGPT step (4 layers, 4 heads, 256 wide, T 128, batch 8, vocab 256, AdamW, clip 1), %d rounds of %d "
           "steps,\neach side at its best of 1 and %d threads:\n", GPT_ROUNDS, GPT_STEPS, cores);
    struct gpt_peer peers[] = {
        {"PyTorch eager (Debian)", "/usr/bin/python3", "torch", {0}, {0}, ""},
        {"PyTorch eager (PyPI)", venv_python, "torch", {0}, {0}, ""},
        {"JAX jit (PyPI)", venv_python, "jax", {0}, {0}, ""},
    };
    enum { NPEERS = sizeof peers / sizeof peers[0] };
    double engine[GPT_ROUNDS], share[GPT_ROUNDS];
    int engine_threads[GPT_ROUNDS];
    for (int round = 0; round < GPT_ROUNDS; round++) {
        engine[round] = 1e30;
        for (int k = 0; k < nsettings; k++) {
            double gemms, t = gpt_engine_step(settings[k], &gemms);
            if (t > 0 && t < engine[round]) engine[round] = t, engine_threads[round] = settings[k], share[round] = gemms / t;
        }
        for (int p = 0; p < NPEERS; p++) {
            peers[p].best[round] = -1;
            for (int k = 0; k < nsettings && script && peers[p].python; k++) {
                double t = gpt_peer_step(peers[p].python, script, peers[p].framework, settings[k], peers[p].version,
                                         sizeof peers[p].version);
                if (t > 0 && (peers[p].best[round] < 0 || t < peers[p].best[round]))
                    peers[p].best[round] = t, peers[p].threads[round] = settings[k];
            }
        }
    }
    for (int round = 0; round < GPT_ROUNDS; round++) {
        printf("  round %d: engine %.1f ms (%d thread%s; its GEMMs alone %.1f ms)", round + 1, engine[round] * 1e3,
               engine_threads[round], engine_threads[round] == 1 ? "" : "s", share[round] * engine[round] * 1e3);
        for (int p = 0; p < NPEERS; p++)
            if (peers[p].best[0] > 0)
                printf(",\n    %s %.1f ms (%d)", peers[p].label, peers[p].best[round] * 1e3, peers[p].threads[round]);
        printf("\n");
    }
    double median;
    for (int p = 0; p < NPEERS; p++) {
        if (peers[p].best[0] < 0) {
            printf("  %s: not available here (%s)\n", peers[p].label,
                   p == 0 ? "scripts/deps.sh --peer installs it" : "make bench-peers sets it up");
            continue;
        }
        char what[128];
        snprintf(what, sizeof what, "step rate, engine / %s %s", peers[p].label, peers[p].version);
        ratio_line(what, engine, peers[p].best, &median);
        ok &= check(what, median, strcmp(peers[p].framework, "jax") ? 1.3 : 1.0, 1);
    }
    struct stats sh = summarize(share, GPT_ROUNDS);
    printf("  GEMMs alone / whole step: median %.2f, min %.2f, max %.2f\n", sh.median, sh.min, sh.max);
    ok &= check("step's GEMM rate vs cblas_sgemm alone on its shapes [%]", 100 * sh.median, 80, 1);

    char model[] = "--model=gpt", nl[] = "--n-layer=4", nh[] = "--n-head=4", ne[] = "--n-embd=256", ctx[] = "--ctx=128",
         batch[] = "--batch=8", steps[] = "--steps=5", json[] = "--json", train[] = "train";
    char *args[] = {bin, train, model, nl, nh, ne, ctx, batch, steps, json, NULL};
    char *out = capture(args);
    cJSON *doc = out ? cJSON_Parse(out) : NULL;
    double rss = json_number(doc, "peak_rss_bytes", NULL), planned = json_number(doc, "planner_bytes", NULL),
           buffers = json_number(doc, "buffer_bytes", NULL);
    printf("  as a process: peak resident %.1f MB; the engine's buffers %.1f MB; the planner's parameters, gradients,\n"
           "  Adam state and activations %.1f MB (ratio %.2f)\n", rss / 1e6, buffers / 1e6, planned / 1e6, rss / planned);
    ok &= check("peak resident memory / planner's estimate", rss / planned, 1.5, 0);
    cJSON_Delete(doc);
    free(out);
    return ok;
}

/* Best GFLOP/s of cblas_sgemm (through the engine's back-end) at n = 2048 and 4096. */
static double best_sgemm(int threads)
{
    const struct eng_backend *be = eng_cpu_backend();
    be->set_threads(threads);
    double best = 0;
    for (int n = 2048; n <= 4096; n *= 2) {
        float *a = malloc((size_t)n * n * sizeof *a), *b = malloc((size_t)n * n * sizeof *b), *c = malloc((size_t)n * n * sizeof *c);
        for (size_t i = 0; a && b && i < (size_t)n * n; i++) a[i] = b[i] = (float)(i % 7) * 0.1f;
        for (int rep = 0; a && b && c && rep < 6; rep++) {
            double t0 = now_ms();
            be->gemm(0, 0, n, n, n, 1, a, n, b, n, 0, c, n);
            double g = 2.0 * n * n * (double)n / ((now_ms() - t0) / 1e3) / 1e9;
            if (rep > 0 && g > best) best = g;
        }
        free(a);
        free(b);
        free(c);
    }
    return best;
}

static int bench_probe(char *bin)
{
    int ok = 1, threads = probe_physical_cores();
    printf("\nprobe:\n");
    char probe[] = "probe", nosave[] = "--no-save", json[] = "--json", quick[] = "--quick", full[] = "--full",
         workload[] = "--workload", hardware[] = "gemm,stream,transfer,train-mlp,train-tiny,train-gpt,allreduce,train-dp";
    char *qargs[] = {bin, probe, quick, nosave, json, workload, hardware, NULL};
    double t0 = now_ms();
    char *out = capture(qargs);
    double quick_s = (now_ms() - t0) / 1e3;
    cJSON *doc = out ? cJSON_Parse(out) : NULL;
    double probe_gemm = -1;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(r, "metric");
        if (cJSON_IsString(m) && !strcmp(m->valuestring, "gflops_best")) probe_gemm = json_number(r, "median", NULL);
    }
    cJSON_Delete(doc);
    free(out);
    ok &= check("`fwadvisor probe --quick` wall time [s]", quick_s, 15, 0);
    double direct = best_sgemm(threads);
    printf("  gemm: probe --quick best %.1f GFLOP/s; cblas_sgemm here, best of n = 2048 and 4096: %.1f GFLOP/s\n",
           probe_gemm, direct);
    ok &= check("probe gemm peak / best cblas_sgemm [%]", 100 * probe_gemm / direct, 90, 1);
    char *fargs[] = {bin, probe, full, nosave, json, workload, hardware, NULL};
    t0 = now_ms();
    out = capture(fargs);
    double full_s = (now_ms() - t0) / 1e3;
    free(out);
    ok &= check("`fwadvisor probe --full` wall time [s]", full_s, 90, 0);
    return ok;
}

/* The frameworks workload with the bench-peers environment: wall time, and each row's median
 * step time (or why it did not run). */
static int bench_frameworks(char *bin, const char *venv_python)
{
    printf("\nframeworks (probe --quick --workload frameworks, bench-peers environment):\n");
    if (!venv_python || access(venv_python, X_OK) != 0) {
        printf("  no bench-peers environment (make bench-peers): skipped\n");
        return 1;
    }
    char probe[] = "probe", nosave[] = "--no-save", json[] = "--json", quick[] = "--quick", workload[] = "--workload",
         frameworks[] = "frameworks", python[] = "--python", *venv = (char *)venv_python;
    char *args[] = {bin, probe, quick, nosave, json, workload, frameworks, python, venv, NULL};
    double t0 = now_ms();
    char *out = capture(args);
    double wall_s = (now_ms() - t0) / 1e3;
    cJSON *doc = out ? cJSON_Parse(out) : NULL;
    int ok = doc != NULL, timed = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params"), *st = cJSON_GetObjectItemCaseSensitive(r, "status");
        const cJSON *fw = cJSON_GetObjectItemCaseSensitive(p, "framework"), *mode = cJSON_GetObjectItemCaseSensitive(p, "mode"),
                    *model = cJSON_GetObjectItemCaseSensitive(p, "model"), *why = cJSON_GetObjectItemCaseSensitive(r, "reason");
        int good = cJSON_IsString(st) && !strcmp(st->valuestring, "ok");
        timed += good;
        ok &= good;
        printf("  %-11s %-15s %-4s %s", cJSON_IsString(fw) ? fw->valuestring : "-", cJSON_IsString(mode) ? mode->valuestring : "-",
               cJSON_IsString(model) ? model->valuestring : "-", good ? "" : "NOT TIMED: ");
        if (good) printf("%8.2f ms/step (cv %.1f%%, first step %.2f s)\n", json_number(r, "median", NULL),
                         100 * json_number(r, "cv", NULL), json_number(p, "first_step_s", NULL));
        else printf("%s\n", cJSON_IsString(why) ? why->valuestring : "?");
    }
    cJSON_Delete(doc);
    free(out);
    printf("  %d rows timed\n", timed);
    ok &= check("`fwadvisor probe --quick --workload frameworks` wall time [s]", wall_s, 60, 0);
    return ok;
}

/* The interface in a tmux pane: walk the wizard, visit every results tab and the knowledge
 * base, quit; fwadvisor writes its own timings to FWADVISOR_TUI_STATS. */
/* Two ranks on this machine through mpirun: the allreduce bus bandwidth at 64 MiB and the
 * train-dp scaling efficiency against the single-process baseline of the same run. Reported,
 * with the checks the workloads make themselves as the pass condition. */
static int bench_mpi(char *bin)
{
    printf("\nMPI, 2 ranks on this machine (mpirun --oversubscribe):\n");
    char mpirun[] = "/usr/bin/mpirun";
    if (access(mpirun, X_OK) != 0) {
        printf("  mpirun is not installed: skipped\n");
        return 1;
    }
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    char np[] = "-np", two[] = "2", over[] = "--oversubscribe", probe[] = "probe", nosave[] = "--no-save",
         json[] = "--json";
    char *args[] = {mpirun, np, two, over, bin, probe, nosave, json, NULL};
    double t0 = now_ms();
    char *out = capture(args);
    double secs = (now_ms() - t0) / 1e3;
    cJSON *doc = out ? cJSON_Parse(out) : NULL;
    free(out);
    if (!doc) {
        printf("  mpirun -np 2 fwadvisor probe failed (is the MPI plug-in built?): FAIL\n");
        return 0;
    }
    int ok = 1;
    double busbw = -1, time_us = 0, eff = -1, rate_n = 0, rate_1 = 0, comp = 0, comm = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "results")) {
        const char *w = cJSON_GetObjectItem(r, "workload")->valuestring, *m = cJSON_GetObjectItem(r, "metric")->valuestring;
        int good = strcmp(cJSON_GetObjectItem(r, "status")->valuestring, "ok") == 0;
        const cJSON *med = cJSON_GetObjectItem(r, "median"), *params = cJSON_GetObjectItem(r, "params");
        if (!good) {
            printf("  %s %s: %s: FAIL\n", w, m, cJSON_GetObjectItem(r, "reason")->valuestring);
            ok = 0;
            continue;
        }
        if (!strcmp(w, "allreduce")) {
            double bytes = cJSON_GetObjectItem(params, "bytes")->valuedouble;
            printf("  allreduce %10.0f B: %10.2f us, algbw %7.3f GB/s, busbw %7.3f GB/s\n", bytes,
                   cJSON_GetObjectItem(params, "time_us")->valuedouble, cJSON_GetObjectItem(params, "algbw_gbs")->valuedouble,
                   med->valuedouble);
            if (bytes == 67108864) busbw = med->valuedouble, time_us = cJSON_GetObjectItem(params, "time_us")->valuedouble;
        } else if (!strcmp(m, "scaling_efficiency")) eff = med->valuedouble;
        else if (!strcmp(m, "samples_per_s")) rate_n = med->valuedouble;
        else if (!strcmp(m, "samples_per_s_single")) rate_1 = med->valuedouble;
        else if (!strcmp(m, "compute_ms")) comp = med->valuedouble;
        else if (!strcmp(m, "comm_ms")) comm = med->valuedouble;
    }
    printf("  allreduce at 64 MiB: busbw %.3f GB/s (%.0f us)\n", busbw, time_us);
    printf("  train-dp 784-1024-1024-10, 256 rows per rank: %.0f samples/s on 2 ranks, %.0f on one process;\n",
           rate_n, rate_1);
    printf("  scaling efficiency %.3f; per step %.2f ms compute, %.2f ms communication; %.1f s in all\n", eff, comp,
           comm, secs);
    ok &= check("allreduce busbw at 64 MiB [GB/s]", busbw, 0.000001, 1);
    cJSON_Delete(doc);
    return ok;
}

static int bench_tui(const char *bin, const char *dir)
{
    printf("\ninterface:\n");
    if (access("/usr/bin/tmux", X_OK) != 0) {
        printf("  tmux is not installed: skipped\n");
        return 1;
    }
    char stats[4200], cmd[12000];
    snprintf(stats, sizeof stats, "%s/tui-stats.json", dir);
    snprintf(cmd, sizeof cmd,
             "tmux -L fwadv-bench new-session -d -s b -x 100 -y 32 "
             "'LANG=C.UTF-8 FWADVISOR_TUI_STATS=%s %s --db=%s/cmd-0.sqlite3; sleep 30'",
             stats, bin, dir);
    if (system(cmd) != 0) {
        printf("  could not start tmux: skipped\n");
        return 1;
    }
    /* Wait for the home screen, then type. */
    for (int i = 0; i < 500; i++) {
        FILE *p = popen("tmux -L fwadv-bench capture-pane -p -t b", "r");
        char buf[8192];
        size_t n = p ? fread(buf, 1, sizeof buf - 1, p) : 0;
        if (p) pclose(p);
        buf[n] = '\0';
        if (strstr(buf, "Start the advisor")) break;
        usleep(10000);
    }
    const char *script[] = {"Enter", "Down", "Up", "Enter", "Enter", "Down", "Enter", "Enter", "Enter", "Down",
                            "Enter", "Enter", "Enter", "Enter", "Enter", "Enter", "Enter", "Enter",
                            "Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "j", "Escape", "Escape", "Escape", NULL};
    for (const char *const *k = script; *k; k++) {
        snprintf(cmd, sizeof cmd, "tmux -L fwadv-bench send-keys -t b %s", *k);
        if (system(cmd) != 0) break;
        usleep(20000);
    }
    snprintf(cmd, sizeof cmd, "tmux -L fwadv-bench send-keys -t b q");
    int ok = system(cmd) == 0;
    char text[512] = "";
    for (int i = 0; i < 300 && ok; i++) {
        FILE *f = fopen(stats, "r");
        if (f) {
            size_t n = fread(text, 1, sizeof text - 1, f);
            text[n] = '\0';
            fclose(f);
            if (n) break;
        }
        usleep(10000);
    }
    if (system("tmux -L fwadv-bench kill-server 2>/dev/null") != 0) { /* already gone */ }
    cJSON *doc = cJSON_Parse(text);
    if (!doc) {
        printf("  no timings came back: FAIL\n");
        return 0;
    }
    double first = json_number(doc, "first_frame_ms", NULL), mean = json_number(doc, "key_mean_ms", NULL),
           max = json_number(doc, "key_max_ms", NULL), keys = json_number(doc, "keys", NULL);
    cJSON_Delete(doc);
    printf("  %.0f keys: mean %.3f ms, max %.3f ms from key to redrawn screen\n", keys, mean, max);
    ok = check("first frame after start [ms]", first, 100, 0);
    ok &= check("slowest key, handled and redrawn [ms]", max, 16, 0);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench PATH-TO-fwadvisor\n");
        return 2;
    }
    char *bin = argv[1];
    const char *only = getenv("FWADVISOR_BENCH_ONLY");
    if (only && strcmp(only, "gpt") == 0)
        return bench_gpt(bin, argc > 3 ? argv[3] : NULL, argc > 4 ? argv[4] : NULL) ? 0 : 1;
    if (only && strcmp(only, "frameworks") == 0) return bench_frameworks(bin, argc > 4 ? argv[4] : NULL) ? 0 : 1;
    char *dir = ts_tmpdir();
    if (!dir) {
        perror("bench: temporary directory");
        return 1;
    }
    enum { CREATE_RUNS = 15, LIST_RUNS = 60 };
    double t[LIST_RUNS];
    char err[1024], path[4200], dbarg[4300];
    int all_ok = 1;

    /* 1. Creation inside the process: open a path that does not exist yet. */
    for (int i = 0; i < CREATE_RUNS; i++) {
        snprintf(path, sizeof path, "%s/create-%d.sqlite3", dir, i);
        double t0 = now_ms();
        kb *k;
        if (kb_open(path, 0, &k, err, sizeof err) != KB_OK) {
            fprintf(stderr, "bench: %s\n", err);
            return 1;
        }
        t[i] = now_ms() - t0;
        kb_close(k);
    }
    all_ok &= report("first-run creation (kb_open, in process)", summarize(t, CREATE_RUNS), 200, "max");

    /* 2. Creation as users meet it: the first `fwadvisor kb list` on a new machine. */
    for (int i = 0; i < CREATE_RUNS; i++) {
        snprintf(dbarg, sizeof dbarg, "--db=%s/cmd-%d.sqlite3", dir, i);
        char *args[] = {bin, dbarg, "kb", "list", NULL};
        if ((t[i] = time_command(args)) < 0) {
            fprintf(stderr, "bench: %s kb list failed\n", bin);
            return 1;
        }
    }
    all_ok &= report("first `fwadvisor kb list` (creates, process)", summarize(t, CREATE_RUNS), 200, "max");

    /* 3. `kb list` on an existing database, whole process, after two warm-up runs. */
    snprintf(dbarg, sizeof dbarg, "--db=%s/cmd-0.sqlite3", dir);
    char *args[] = {bin, dbarg, "kb", "list", NULL};
    for (int i = 0; i < 2; i++) time_command(args);
    for (int i = 0; i < LIST_RUNS; i++) {
        if ((t[i] = time_command(args)) < 0) {
            fprintf(stderr, "bench: %s kb list failed\n", bin);
            return 1;
        }
    }
    all_ok &= report("`fwadvisor kb list`, existing database (process)", summarize(t, LIST_RUNS), 20, "median");

    /* 4. Ranking in process, knowledge base in memory: every preset, many times. */
    {
        snprintf(path, sizeof path, "%s/cmd-0.sqlite3", dir);
        kb *k;
        struct adv_kb *akb;
        if (kb_open(path, 0, &k, err, sizeof err) != KB_OK || adv_kb_load(k, &akb, err, sizeof err) != KB_OK) {
            fprintf(stderr, "bench: %s\n", err);
            return 1;
        }
        kb_close(k);
        struct adv_result *res = calloc(1, sizeof *res);
        struct adv_ranking *ranking = calloc(1, sizeof *ranking);
        enum { RANK_RUNS = 2000 };
        static double rt[RANK_RUNS], full[RANK_RUNS];
        size_t np = presets_size();
        for (int i = 0; i < RANK_RUNS; i++) {
            struct answers a;
            answers_init(&a);
            const char *text = preset_text((size_t)i % np);
            answers_parse_json(&a, text, strlen(text), "preset", err, sizeof err);
            double t0 = now_ms();
            adv_recommend(akb, &a, NULL, res, err, sizeof err);
            full[i] = now_ms() - t0;
            t0 = now_ms();
            adv_rank(akb, &res->answers, ranking);
            rt[i] = now_ms() - t0;
        }
        all_ok &= report("adv_rank, in memory (per keystroke)", summarize(rt, RANK_RUNS), 0.1, "median");
        all_ok &= report("adv_recommend (rank + strategy + plan), in memory", summarize(full, RANK_RUNS), 1, "median");
        /* A 20-value sweep of a 7B pre-training's devices, in memory. */
        {
            enum { SWEEP_RUNS = 20 };
            static double st[SWEEP_RUNS];
            static struct compare_table table;
            static const struct compare_prices none;
            const char *spec[] = {"devices=8,16,24,32,40,48,56,64,72,80,88,96,104,112,120,128,136,144,152,160"};
            struct answers a;
            struct compare_sweep sweep;
            answers_init(&a);
            answers_set(&a, "model_kind=llm", err, sizeof err);
            answers_set(&a, "model_params=7B", err, sizeof err);
            answers_set(&a, "accelerator=h100-sxm", err, sizeof err);
            if (compare_sweep_parse(spec, 1, &a, &sweep, err, sizeof err)) {
                fprintf(stderr, "bench: %s\n", err);
                return 1;
            }
            for (int i = 0; i < SWEEP_RUNS; i++) {
                double t0 = now_ms();
                compare_sweep_run(akb, &a, NULL, &none, &sweep, &table, err, sizeof err);
                st[i] = now_ms() - t0;
            }
            all_ok &= report("a 20-value --sweep devices=..., in memory", summarize(st, SWEEP_RUNS), 100, "median");
        }
        /* The hardware comparison of a 70B LoRA fine-tune (README's example; the interface's
         * Hardware tab plans it on its own thread), in memory. */
        {
            enum { HW_RUNS = 10 };
            static double ct[HW_RUNS];
            static struct compare_table table;
            static const struct compare_prices none;
            struct answers a;
            answers_init(&a);
            static const char *const sets[] = {"model_kind=llm", "model=llama-3.1-70b", "job=finetune", "finetune=lora",
                                               "dataset_tokens=1B", "team=jax", "priority=cost", "price_per_device_hour=2.5"};
            for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
                if (answers_set(&a, sets[i], err, sizeof err)) {
                    fprintf(stderr, "bench: %s\n", err);
                    return 1;
                }
            for (int i = 0; i < HW_RUNS; i++) {
                double t0 = now_ms();
                compare_hardware(akb, &a, &none, &table, err, sizeof err);
                ct[i] = now_ms() - t0;
            }
            all_ok &= report("--compare-hardware, 70B LoRA fine-tune, in memory", summarize(ct, HW_RUNS), 500, "median");
        }
        free(res);
        free(ranking);
        adv_kb_free(akb);
    }

    /* 5. `fwadvisor recommend --json` as a whole process. */
    char *rec[] = {bin, dbarg, "recommend", "--preset", "nvidia-2000-gpus", "--json", NULL};
    for (int i = 0; i < 2; i++) time_command(rec);
    for (int i = 0; i < LIST_RUNS; i++) {
        if ((t[i] = time_command(rec)) < 0) {
            fprintf(stderr, "bench: %s recommend failed\n", bin);
            return 1;
        }
    }
    all_ok &= report("`fwadvisor recommend --json` (process)", summarize(t, LIST_RUNS), 15, "median");
    if (only && strcmp(only, "advisor") == 0) { /* the knowledge base and the advisor alone */
        ts_rmtree(dir);
        free(dir);
        return all_ok ? 0 : 1;
    }

    all_ok &= bench_tui(bin, dir);
    ts_rmtree(dir);
    free(dir);
    all_ok &= bench_engine(bin, argc > 2 ? argv[2] : NULL);
    all_ok &= bench_gpt(bin, argc > 3 ? argv[3] : NULL, argc > 4 ? argv[4] : NULL);
    all_ok &= bench_probe(bin);
    all_ok &= bench_frameworks(bin, argc > 4 ? argv[4] : NULL);
    all_ok &= bench_mpi(bin);
    return all_ok ? 0 : 1;
}
