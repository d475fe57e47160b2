/* session: one probe run from start to stored (session.h), and the signals that stop it. */
#include "probes/session.h"

#include "common/clock.h"
#include "common/i18n.h"
#include "engine/engine.h"
#include "engine/cuda/plugin.h"
#include "engine/libpath.h"
#include "knowledge/kb.h"
#include "knowledge/probe_store.h"
#include "probes/dist.h"
#include "probes/run_table.h"

#include "common/json_doc.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#ifndef FWADVISOR_VERSION
#define FWADVISOR_VERSION "unknown"
#endif


/* The libraries a probe opens from a path in the environment: detection's NVML and CUDA
 * driver (probes/accel.c) and the CUDA plug-in's NCCL (engine/cuda/cuda_bench.cu). */
static const char *const env_libraries[] = {"FWADVISOR_NVML_LIB", "FWADVISOR_CUDA_LIB", "FWADVISOR_NCCL_LIB"};

/* A plug-in or library that is there but will not be loaded, and why, into s->warning: each
 * said once, "; " between them. */
static void collect_warnings(struct probe_session *s)
{
    size_t used = 0;
    const char *w = eng_cuda_load_warning();
    if (w) used = (size_t)snprintf(s->warning, sizeof s->warning, "%s", w);
    for (size_t i = 0; i < sizeof env_libraries / sizeof env_libraries[0] && used < sizeof s->warning; i++) {
        char path[PATH_MAX], why[PATH_MAX + 256];
        if (eng_env_library(env_libraries[i], "", path, sizeof path, why, sizeof why) == 0) continue;
        used += (size_t)snprintf(s->warning + used, sizeof s->warning - used, "%s%s", used ? "; " : "", why);
    }
}

static void on_runner_progress(void *ctx, const struct probe_progress *p)
{
    struct probe_session *s = ctx;
    pthread_mutex_lock(&s->lock);
    s->progress = *p;
    pthread_mutex_unlock(&s->lock);
    if (s->on_progress) s->on_progress(s->on_progress_ctx, p);
}

int probe_session_begin(struct probe_session *s, const struct probe_session_config *c, char *err, size_t errsz)
{
    void (*cb)(void *, const struct probe_progress *) = s->on_progress;
    void *cb_ctx = s->on_progress_ctx;
    memset(s, 0, sizeof *s);
    s->on_progress = cb;
    s->on_progress_ctx = cb_ctx;
    pthread_mutex_init(&s->lock, NULL);
    s->progress.eta_s = -1;
    s->run = calloc(1, sizeof *s->run);
    if (!s->run) {
        snprintf(err, errsz, "%s", _("out of memory"));
        return PROBE_BEGIN_NO_GPU;
    }
    struct probe_options *o = &s->opt;
    o->full = c->full;
    o->smoke = c->smoke;
    o->threads = c->threads;
    o->workloads = c->workloads ? c->workloads : probe_workload_set(c->dist ? PROBE_WS_DIST : PROBE_WS_DEFAULT);
    o->distributed = c->dist != NULL;
    o->pythons = c->pythons;
    o->npythons = c->npythons;
    o->framework_timeout_s = c->framework_timeout_s;
    o->stop = &s->stop;
    o->progress = on_runner_progress;
    o->progress_ctx = s;
    snprintf(o->device, sizeof o->device, "cpu");
    s->dist = c->dist;
    s->dist_gpu = c->dist_gpu;

    /* auto: the CPU, and GPU 0 as well when the plug-in opens one; cpu: the CPU only; cuda[:N]:
     * that GPU only, and an error when it cannot be used. Under MPI the single-process
     * workloads stay on rank 0's CPU (the GPUs serve the distributed allreduce). */
    const char *device = c->dist ? "cpu" : c->device ? c->device : "auto";
    int index = -1;
    if (strcasecmp(device, "auto") != 0 && eng_device_parse(device, &index, err, errsz) != 0) {
        snprintf(err, errsz, _("--device %s: expected auto, cpu, cuda or cuda:N"), device);
        return PROBE_BEGIN_BAD_DEVICE;
    }
    if (strcasecmp(device, "auto") == 0 || index >= 0) {
        char why[512];
        if (probe_use_gpu(o, index >= 0 ? index : 0, index < 0, why, sizeof why) == 0) {
            s->gpu_open = 1;
        } else if (index >= 0) {
            snprintf(err, errsz, "%s", why);
            return PROBE_BEGIN_NO_GPU;
        }
    } else {
        snprintf(o->gpu_missing, sizeof o->gpu_missing, "not asked for (--device cpu)");
        o->cpu_only = 1;
    }
    /* A plug-in file in an unsafe place (or from another build) is not loaded: said once. */
    collect_warnings(s);

    time_t t0 = time(NULL);
    struct tm tm;
    gmtime_r(&t0, &tm);
    strftime(s->run->started_at, sizeof s->run->started_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    strftime(s->run->id, sizeof s->run->id, "%Y%m%d-%H%M%S", &tm); /* settled when it is saved */
    snprintf(s->run->version, sizeof s->run->version, "%s", FWADVISOR_VERSION);
    return PROBE_BEGIN_OK;
}

void probe_session_measure(struct probe_session *s)
{
    double start = clock_now_s();
    struct probe_progress p = {0, -1, 0, "detection"};
    on_runner_progress(s, &p);
    probe_detect(&s->run->hw);
    probe_run_workloads(s->run, &s->opt);
    if (s->gpu_open) eng_device_close();
    s->gpu_open = 0;
    if (s->dist) {
        dist_barrier(s->dist); /* the other ranks waited through rank 0's single-process part */
        dist_run(s->dist, s->run, &s->opt, s->dist_gpu);
    }
    if (s->stop) s->run->interrupted = 1;
    s->run->duration_s = clock_now_s() - start;
    s->measured = 1; /* before "done": who sees it knows a signal now waits for the release */
    p = (struct probe_progress){1, 0, 0, "done"};
    on_runner_progress(s, &p);
}

void probe_session_progress(struct probe_session *s, struct probe_progress *out)
{
    pthread_mutex_lock(&s->lock);
    *out = s->progress;
    pthread_mutex_unlock(&s->lock);
}

int probe_session_finished(const struct probe_session *s)
{
    int n = 0;
    for (int i = 0; s->run && i < s->run->nresults; i++) n += !s->run->results[i].skipped;
    return n;
}

int probe_session_finish(struct probe_session *s, struct kb *k)
{
    /* The catalog's dense peaks for each NVIDIA GPU found, for the fractions of peak. */
    for (int i = 0; k && i < s->run->hw.naccel; i++) {
        struct probe_accel *a = &s->run->hw.accel[i];
        struct kb_accel_peaks peaks;
        if (strcmp(a->kind, "nvidia") != 0 || !a->name[0] ||
            kb_accel_lookup(k, a->name, a->compute_capability, &peaks) != 1)
            continue;
        snprintf(a->catalog_id, sizeof a->catalog_id, "%s", peaks.id);
        a->peak_fp32_tflops = peaks.fp32_tflops;
        a->peak_bf16_tflops = peaks.bf16_tflops;
        a->peak_fp16_tflops = peaks.fp16_tflops;
        a->peak_bandwidth_gbs = peaks.bandwidth_gbs;
    }
    probe_apply_catalog(s->run);
    cJSON_Delete(s->doc);
    s->doc = probe_run_to_json(s->run);
    return s->doc ? 0 : -1;
}

enum probe_save_status probe_session_save(struct probe_session *s, struct kb *k, char *where, size_t wheresz,
                                          char *err, size_t errsz)
{
    where[0] = '\0';
    if (!s->doc) {
        snprintf(err, errsz, "%s", _("out of memory"));
        return PROBE_LOST;
    }
    if (s->run->interrupted && probe_session_finished(s) == 0) return PROBE_NOTHING;
    int stored = probe_run_store(k, s->doc, where, wheresz, err, errsz);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(s->doc, "id");
    if (cJSON_IsString(id)) snprintf(s->run->id, sizeof s->run->id, "%s", id->valuestring);
    return stored == 0 ? PROBE_SAVED : stored == 1 ? PROBE_SPILLED : PROBE_LOST;
}

void probe_session_end(struct probe_session *s)
{
    if (s->gpu_open) eng_device_close();
    s->gpu_open = 0;
    cJSON_Delete(s->doc);
    free(s->run);
    s->doc = NULL;
    s->run = NULL;
    pthread_mutex_destroy(&s->lock);
}

/* --- signals -------------------------------------------------------------------------------- */

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (sizeof stop_signals / sizeof stop_signals[0])

static struct probe_session *volatile catcher;
static struct sigaction before[NSTOP];
static volatile sig_atomic_t installed[NSTOP], held;

/* What was there before the catch, back for every signal caught. */
static void restore_before(void)
{
    for (size_t i = 0; i < NSTOP; i++)
        if (installed[i]) sigaction(stop_signals[i], &before[i], NULL);
    for (size_t i = 0; i < NSTOP; i++) installed[i] = 0;
}

/* Async-signal-safe: flags, sigaction and raise only. Raised inside the handler, the signal is
 * blocked until the handler returns and is then delivered to what was there before. */
static void on_stop_signal(int sig)
{
    int saved_errno = errno;
    struct probe_session *s = catcher;
    if (s && s->measured) {
        held = sig;
    } else if (s && !s->signal) {
        s->signal = sig;
        s->stop = 1;
    } else {
        catcher = NULL;
        restore_before();
        raise(sig);
    }
    errno = saved_errno;
}

void probe_session_catch_signals(struct probe_session *s)
{
    held = 0;
    catcher = s;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NSTOP; i++) sigaddset(&sa.sa_mask, stop_signals[i]);
    for (size_t i = 0; i < NSTOP; i++) {
        struct sigaction old;
        if (sigaction(stop_signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        if (sigaction(stop_signals[i], &sa, &before[i]) == 0) installed[i] = 1;
    }
}

void probe_session_release_signals(void)
{
    catcher = NULL;
    restore_before();
    int sig = held;
    held = 0;
    if (sig) raise(sig);
}

static const char *signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : _("a signal");
}

void probe_session_signal_line(const struct probe_session *s, int saved, char *out, size_t outsz)
{
    int n = probe_session_finished(s);
    /* One sentence for each case, so that every language can order its words. */
    if (saved && s->signal)
        snprintf(out, outsz,
                 n == 1 ? _("interrupted by %s: the %d finished result is saved as probe run %s, marked interrupted")
                        : _("interrupted by %s: the %d finished results are saved as probe run %s, marked interrupted"),
                 signal_name(s->signal), n, s->run->id);
    else if (saved)
        snprintf(out, outsz,
                 n == 1 ? _("interrupted: the %d finished result is saved as probe run %s, marked interrupted")
                        : _("interrupted: the %d finished results are saved as probe run %s, marked interrupted"),
                 n, s->run->id);
    else if (s->signal)
        snprintf(out, outsz, _("interrupted by %s: nothing was saved"), signal_name(s->signal));
    else
        snprintf(out, outsz, "%s", _("interrupted: nothing was saved"));
}

/* --- the baseline ---------------------------------------------------------------------------- */


/* The machine a run measured: its CPU and its accelerators by name. */
static void devices_of(const cJSON *doc, char *out, size_t n)
{
    size_t used = (size_t)snprintf(out, n, "%s", json_str(cJSON_GetObjectItemCaseSensitive(doc, "cpu"), "model"));
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(doc, "accelerators"))
        if (used < n) used += (size_t)snprintf(out + used, n - used, "|%s", json_str(a, "name"));
}

static int by_start(const void *a, const void *b)
{
    const struct probe_plan_point *x = a, *y = b;
    int c = strcmp(x->started_at, y->started_at);
    return c ? c : strcmp(x->id, y->id);
}

int probe_session_plan_history(struct kb *k, const cJSON *doc, struct probe_plan_point *out, int max)
{
    char mine[1024] = "", err[256];
    devices_of(doc, mine, sizeof mine);
    struct measured_run *m = malloc(sizeof *m);
    cJSON *ids = NULL;
    int n = 0;
    struct probe_plan_point own;
    if (!m || max < 1) goto done;
    measured_read(doc, m);
    int has_own = probe_plan_point_from(m, &own);
    if (k && kb_probe_ids_with(k, PROBE_WL_TRAIN_GPT, &ids, err, sizeof err) == KB_OK) {
        const cJSON *id;
        cJSON_ArrayForEach(id, ids) { /* newest first: the newest max - 1 beside doc's own */
            if (n >= max - has_own) break;
            cJSON *cand = NULL;
            if (!cJSON_IsString(id) || (has_own && !strcmp(id->valuestring, own.id))) continue;
            if (kb_probe_get(k, id->valuestring, &cand, err, sizeof err) != KB_OK || !cand) continue;
            char theirs[1024];
            devices_of(cand, theirs, sizeof theirs);
            if (!strcmp(mine, theirs)) {
                measured_read(cand, m);
                n += probe_plan_point_from(m, &out[n]);
            }
            cJSON_Delete(cand);
        }
    }
    if (has_own) out[n++] = own;
    qsort(out, (size_t)n, sizeof *out, by_start);
done:
    cJSON_Delete(ids);
    free(m);
    return n;
}

int probe_session_baseline(struct kb *k, const char *which, const cJSON *doc, cJSON **out, char *err, size_t errsz)
{
    *out = NULL;
    if (strcasecmp(which, "latest") != 0) {
        int status = kb_probe_get(k, which, out, err, errsz);
        return status;
    }
    cJSON *rows = NULL;
    int status = kb_probe_list(k, &rows, err, errsz);
    if (status != KB_OK) return status;
    char mine[1024] = "";
    if (doc) devices_of(doc, mine, sizeof mine);
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "interrupted"))) continue;
        cJSON *cand = NULL;
        if (kb_probe_get(k, json_str(row, "id"), &cand, err, errsz) != KB_OK || !cand) continue;
        char theirs[1024];
        devices_of(cand, theirs, sizeof theirs);
        /* the same machine, and not the very run shown (a stored run is compared with others) */
        if (!doc || (strcmp(mine, theirs) == 0 && !cJSON_Compare(cand, doc, 1))) {
            *out = cand;
            break;
        }
        cJSON_Delete(cand);
    }
    cJSON_Delete(rows);
    return KB_OK;
}
