/* The probe screen: the probe runs in a worker thread while the screen shows a bar per
 * workload; Esc cancels (what finished is kept); then the results as a table with bars against
 * the theoretical peak and the previous run. The knowledge base is only touched from the
 * interface's thread. */
#include "engine/cuda/plugin.h"
#include "knowledge/probe_store.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "tui/text.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const workloads[] = {"train-tiny", "stream", "gemm", "train-mlp"};
enum { NW = 4 };

static void on_progress(void *ctx, double fraction, const char *what)
{
    struct probe_state *p = ctx;
    pthread_mutex_lock(&p->lock);
    p->fraction = fraction;
    snprintf(p->what, sizeof p->what, "%s", what);
    for (int i = 0; i < NW; i++)
        if (!strcmp(workloads[i], what)) p->seen |= 1u << i;
    pthread_mutex_unlock(&p->lock);
}

static void *worker(void *arg)
{
    struct probe_state *p = arg;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    probe_detect(&p->run->hw);
    struct probe_options o;
    memset(&o, 0, sizeof o);
    o.workloads = PROBE_W_ALL;
    o.stop = &p->stop;
    o.progress = on_progress;
    o.progress_ctx = p;
    snprintf(o.device, sizeof o.device, "cpu");
    /* As `probe --device auto`: GPU 0 as well when the CUDA plug-in opens one. */
    char err[256];
    probe_use_gpu(&o, 0, 1, err, sizeof err);
    probe_run_workloads(p->run, &o);
    eng_device_close();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    p->run->duration_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    pthread_mutex_lock(&p->lock);
    p->finished = 1;
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int probe_view_running(const struct app *a) { return a->probe.started && !a->probe.finished; }

void probe_view_start(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (probe_view_running(a)) {
        a->screen = SCR_PROBE;
        return;
    }
    probe_view_cleanup(a);
    char err[256];
    kb_probe_get(a->k, "latest", &p->previous, err, sizeof err);
    p->run = calloc(1, sizeof *p->run);
    if (!p->run) {
        ui_message(a, 1, "out of memory");
        return;
    }
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(p->run->started_at, sizeof p->run->started_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    strftime(p->run->id, sizeof p->run->id, "%Y%m%d-%H%M%S", &tm); /* settled when it is saved */
    snprintf(p->run->version, sizeof p->run->version, "%s", FWADVISOR_VERSION);
    p->fraction = 0;
    p->seen = 0;
    p->stop = 0;
    p->finished = p->saved = p->cancelled = 0;
    p->message[0] = '\0';
    snprintf(p->what, sizeof p->what, "detection");
    if (pthread_create(&p->thread, NULL, worker, p) != 0) {
        ui_message(a, 1, "cannot start the probe thread");
        free(p->run);
        p->run = NULL;
        return;
    }
    p->started = 1;
    a->screen = SCR_PROBE;
}

/* Once the worker is done: join it, store the run and let the advisor use it. */
void probe_view_poll(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (!p->started || !p->finished || p->saved || !p->run) return;
    pthread_join(p->thread, NULL);
    p->saved = 1;
    int finished = 0;
    for (int i = 0; i < p->run->nresults; i++) finished += !p->run->results[i].skipped;
    p->doc = probe_run_to_json(p->run);
    char err[512];
    if (p->doc && (!p->run->interrupted || finished > 0)) {
        char where[PATH_MAX];
        int stored = probe_run_store(a->k, p->doc, where, sizeof where, err, sizeof err);
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(p->doc, "id");
        if (cJSON_IsString(id)) snprintf(p->run->id, sizeof p->run->id, "%s", id->valuestring);
        if (stored == 0) {
            snprintf(p->message, sizeof p->message, "saved as probe run %s%s", p->run->id,
                     p->run->interrupted ? " (cancelled: the finished results only)" : "");
            app_refresh_hardware(a);
        } else if (stored == 1) {
            snprintf(p->message, sizeof p->message, "not stored (%.100s); kept in %.120s", err, where);
        } else {
            snprintf(p->message, sizeof p->message, "%.250s", err);
        }
    } else {
        snprintf(p->message, sizeof p->message, "cancelled before anything finished: nothing saved");
    }
}

void probe_view_cleanup(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (p->started && !p->saved) {
        p->stop = 1;
        pthread_join(p->thread, NULL);
    }
    cJSON_Delete(p->doc);
    cJSON_Delete(p->previous);
    free(p->run);
    p->doc = p->previous = NULL;
    p->run = NULL;
    p->started = p->finished = p->saved = 0;
}

static const cJSON *previous_result(const cJSON *prev, const struct probe_result *r)
{
    const cJSON *b;
    cJSON *params = cJSON_Parse(r->params);
    const cJSON *found = NULL;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(prev, "results")) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(b, "workload"), *m = cJSON_GetObjectItemCaseSensitive(b, "metric");
        if (!cJSON_IsString(w) || !cJSON_IsString(m) || strcmp(w->valuestring, r->workload) || strcmp(m->valuestring, r->metric))
            continue;
        if (params && cJSON_Compare(params, cJSON_GetObjectItemCaseSensitive(b, "params"), 1)) found = b;
    }
    cJSON_Delete(params);
    return found;
}

void probe_view_draw(struct app *a)
{
    struct probe_state *p = &a->probe;
    ui_title(a, "probe: measuring this machine");
    char line[512], bar[512];
    if (probe_view_running(a)) {
        pthread_mutex_lock(&p->lock);
        double fraction = p->fraction;
        unsigned seen = p->seen;
        char what[32];
        snprintf(what, sizeof what, "%s", p->what);
        pthread_mutex_unlock(&p->lock);
        ui_text(2, 2, COLS - 4, p->stop ? "Cancelling: finishing the current repeat..." : "Running (Esc cancels)", A_BOLD);
        for (int i = 0; i < NW; i++) {
            /* A workload is done once a later one started; the current one shows the overall bar. */
            int done = 0;
            for (int j = i + 1; j < NW; j++) done |= (seen >> j) & 1u;
            int current = !strcmp(what, workloads[i]) && !done;
            tui_bar(bar, sizeof bar, done ? 1.0 : current ? fraction : 0.0, COLS - 30, a->utf8);
            snprintf(line, sizeof line, "%-11s %s", workloads[i], done ? "done" : current ? "running" : "waiting");
            ui_text(4 + 2 * i, 2, 24, line, current ? A_BOLD : A_NORMAL);
            ui_text(4 + 2 * i, 27, COLS - 30, bar, done ? crt_attr(PAIR_GOOD) : A_NORMAL);
        }
        snprintf(line, sizeof line, "overall %3.0f%%", fraction * 100);
        ui_text(4 + 2 * NW, 2, COLS - 4, line, A_NORMAL);
        ui_footer(a, " Esc: cancel   q: quit (asks first)");
        return;
    }
    if (!p->run) {
        ui_footer(a, " Esc: home");
        return;
    }
    const struct probe_cpu *c = &p->run->hw.cpu;
    snprintf(line, sizeof line, "CPU %s, %d cores; FP32 peak %s", c->model[0] ? c->model : "(model unknown)", c->cores,
             c->peak_gflops > 0 ? "" : "unknown");
    if (c->peak_gflops > 0)
        snprintf(line, sizeof line, "CPU %s, %d cores; FP32 peak %.0f GFLOP/s (%s)", c->model[0] ? c->model : "(model unknown)",
                 c->cores, c->peak_gflops, c->microarch);
    ui_text(2, 1, COLS - 2, line, A_BOLD);
    ui_text(3, 1, COLS - 2, p->message, p->run->interrupted ? crt_attr(PAIR_ACCENT) : crt_attr(PAIR_GOOD));
    ui_text(5, 1, COLS - 2, "WORKLOAD   METRIC         MEDIAN     PREVIOUS   CHANGE  vs PEAK", A_BOLD);
    int y = 6;
    for (int i = 0; i < p->run->nresults && y < LINES - 2; i++) {
        const struct probe_result *r = &p->run->results[i];
        if (r->skipped) {
            snprintf(line, sizeof line, "%-10s %-13.13s %s", r->workload, r->metric, r->reason);
            ui_text(y++, 1, COLS - 2, line, crt_attr(PAIR_DIM));
            continue;
        }
        const cJSON *prev = p->previous ? previous_result(p->previous, r) : NULL;
        const cJSON *pm = prev ? cJSON_GetObjectItemCaseSensitive(prev, "median") : NULL;
        char pcol[16] = "-", chg[16] = "";
        if (cJSON_IsNumber(pm) && pm->valuedouble > 0) {
            snprintf(pcol, sizeof pcol, "%.4g", pm->valuedouble);
            snprintf(chg, sizeof chg, "%+.1f%%", (r->stats.median - pm->valuedouble) / pm->valuedouble * 100);
        }
        snprintf(line, sizeof line, "%-10s %-13.13s %9.4g %10s %8s ", r->workload, r->metric, r->stats.median, pcol, chg);
        ui_text(y, 1, 57, line, r->noisy ? crt_attr(PAIR_ACCENT) : A_NORMAL);
        if (r->peak_fraction >= 0) {
            tui_bar(bar, sizeof bar, r->peak_fraction, COLS - 66, a->utf8);
            ui_text(y, 58, COLS - 66, bar, A_NORMAL);
            snprintf(line, sizeof line, "%3.0f%%", r->peak_fraction * 100);
            ui_text(y, COLS - 6, 5, line, A_NORMAL);
        }
        y++;
    }
    ui_footer(a, " Esc/Backspace: home   a: start the advisor with this hardware   ?: help   q: quit");
}

void probe_view_key(struct app *a, int ch)
{
    if (probe_view_running(a)) {
        if (ch == 27) a->probe.stop = 1;
        return;
    }
    switch (ch) {
    case 27: case KEY_BACKSPACE: case 127: case 8: case KEY_LEFT: case 'h': a->screen = SCR_HOME; break;
    case 'a': wizard_start(a, NULL); break;
    }
}
