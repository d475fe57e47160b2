/* session: one probe run from start to stored, the single workflow behind `fwadvisor probe` and
 * the interface's probe screen.
 *
 *   begin    which GPU the device asks for, which workloads, the run's start time and id
 *   measure  detection and the workloads (any thread; progress through a callback, with the
 *            time left; setting `stop` cancels within a second, keeping what finished)
 *   finish   the accelerator catalog's peaks and the fwadvisor.probe/1 document (the thread
 *            that owns the knowledge base)
 *   save     stored in the knowledge base, else kept in a JSON file (probe_run_store)
 *   end      the GPU closed, everything freed
 *
 * Signals: between catch_signals and release_signals, SIGINT, SIGTERM and SIGHUP stop the
 * measuring as `stop` does (the first one; it is kept in `signal`), so the command line and the
 * interface keep what finished, stored marked interrupted. A second one while the workloads wind
 * down gets what it got before the catch (the default: the program ends at once and keeps
 * nothing; the interface's handler restores the terminal first). Once the measuring is over, a
 * signal waits for release_signals and takes its course then, so a run being stored is stored
 * whole. A signal ignored at the catch (nohup) stays ignored. One session catches at a time.
 *
 * Nothing here prints; the front end shows what the session reports. */
#ifndef FWADVISOR_PROBES_SESSION_H
#define FWADVISOR_PROBES_SESSION_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "probes/probe.h"

struct kb;
struct dist;

struct probe_session_config {
    const char *device;  /* "auto" (the CPU, and GPU 0 when one opens), "cpu", "cuda", "cuda:N" */
    unsigned workloads;  /* workload bits; 0: PROBE_WS_DEFAULT's (under MPI: PROBE_WS_DIST's) */
    int full, smoke, threads;
    struct dist *dist;   /* rank 0 of a run under MPI (its distributed workloads follow), else NULL */
    int dist_gpu;        /* under MPI: allreduce through NCCL on each rank's GPU */
    /* The frameworks workload: interpreters to measure (none: found on PATH and in the active
     * environment) and each framework process's time limit in seconds (0: the default). */
    const char *const *pythons;
    int npythons;
    double framework_timeout_s;
};

enum probe_begin_status {
    PROBE_BEGIN_OK = 0,
    PROBE_BEGIN_BAD_DEVICE = -1, /* not auto, cpu, cuda or cuda:N (invalid input) */
    PROBE_BEGIN_NO_GPU = -2,     /* cuda[:N] asked for and not usable (a run-time failure) */
};

enum probe_save_status {
    PROBE_SAVED = 0,   /* stored in the knowledge base as s->run->id */
    PROBE_SPILLED = 1, /* not stored (err says why); kept whole in the file `where` */
    PROBE_LOST = -1,   /* neither could be written */
    PROBE_NOTHING = 2, /* cancelled before any result finished: nothing to keep */
};

struct probe_session {
    struct probe_options opt;
    struct probe_run *run;          /* owned */
    cJSON *doc;                     /* after probe_session_finish; owned */
    struct dist *dist;
    int dist_gpu;
    char warning[1024];             /* plug-ins and libraries found but not loaded, and why ("; "
                                     * between them); "" when none */
    volatile sig_atomic_t stop;     /* set (from any thread or a signal handler) to cancel */
    volatile sig_atomic_t signal;   /* the caught signal that set stop; 0 when none did */
    volatile sig_atomic_t measured; /* the measuring is over (a signal now waits for the release) */
    /* Called from the measuring thread after each step. */
    void (*on_progress)(void *ctx, const struct probe_progress *p);
    void *on_progress_ctx;
    pthread_mutex_t lock;
    struct probe_progress progress; /* the latest, read with probe_session_progress */
    int gpu_open;
};

int probe_session_begin(struct probe_session *s, const struct probe_session_config *c, char *err, size_t errsz);
void probe_session_measure(struct probe_session *s);
/* The latest progress, safe to call while another thread measures. */
void probe_session_progress(struct probe_session *s, struct probe_progress *out);
/* Results that finished (not skipped). */
int probe_session_finished(const struct probe_session *s);
/* k may be NULL (no catalog peaks then). 0, or -1 when out of memory. */
int probe_session_finish(struct probe_session *s, struct kb *k);
/* After finish. A cancelled run is kept when at least one result finished. */
enum probe_save_status probe_session_save(struct probe_session *s, struct kb *k, char *where, size_t wheresz,
                                          char *err, size_t errsz);
void probe_session_end(struct probe_session *s);

/* After begin: SIGINT, SIGTERM and SIGHUP stop s (see above) until the release, which restores
 * what was there before and passes on a signal that waited (the program may end there). */
void probe_session_catch_signals(struct probe_session *s);
void probe_session_release_signals(void);
/* For standard error after a caught signal stopped the run: "interrupted by SIGTERM: the 3
 * finished results are saved as probe run ID, marked interrupted", or "...: nothing was saved". */
void probe_session_signal_line(const struct probe_session *s, int saved, char *out, size_t outsz);

/* The planned and measured GPT step of the stored runs made on the same devices as doc, oldest
 * first, doc's own last (also when it is not stored); at most max points (the newest). Runs
 * without a planned step are left out. Returns how many. */
struct probe_plan_point;
int probe_session_plan_history(struct kb *k, const cJSON *doc, struct probe_plan_point *out, int max);

/* The stored run to compare with: `which` is a run id or "latest" (the newest complete run made
 * on the same devices as doc, doc itself excluded). NULL with KB_OK when there is none; an
 * unknown id is KB_ERR_INPUT. Caller frees *out. */
int probe_session_baseline(struct kb *k, const char *which, const cJSON *doc, cJSON **out, char *err, size_t errsz);

#endif
