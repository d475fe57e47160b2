/* The probe screen: a probe session (probes/session.h, the same workflow as `fwadvisor probe`)
 * measures in a worker thread while the screen shows the steps, an overall bar and the time
 * left; Esc cancels (what finished is kept). Then the run as the command line shows it: the same
 * summary and the same table, compared with a baseline run the user picks (b). A stored run
 * opens here too, from the home screen. The knowledge base is only touched from the
 * interface's thread. */
#include "knowledge/probe_store.h"
#include "probes/run_html.h"
#include "probes/run_table.h"
#include "probes/session.h"
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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The steps seen, in order, for the list while measuring (measuring thread, under the lock). */
static void on_progress(void *ctx, const struct probe_progress *pr)
{
    struct probe_state *p = ctx;
    pthread_mutex_lock(&p->lock);
    if (p->nsteps == 0 || strcmp(p->steps[p->nsteps - 1], pr->what) != 0) {
        if (p->nsteps == PROBE_VIEW_STEPS) memmove(p->steps, p->steps + 1, sizeof p->steps[0] * (PROBE_VIEW_STEPS - 1)), p->nsteps--;
        snprintf(p->steps[p->nsteps++], sizeof p->steps[0], "%s", pr->what);
    }
    pthread_mutex_unlock(&p->lock);
}

static void *worker(void *arg)
{
    struct probe_state *p = arg;
    probe_session_measure(&p->session);
    pthread_mutex_lock(&p->lock);
    p->finished = 1;
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int probe_view_running(const struct app *a)
{
    struct probe_state *p = (struct probe_state *)&a->probe;
    if (!p->started) return 0;
    pthread_mutex_lock(&p->lock);
    int running = !p->finished;
    pthread_mutex_unlock(&p->lock);
    return running;
}

static void reset(struct probe_state *p)
{
    cJSON_Delete(p->shown);
    cJSON_Delete(p->baseline);
    p->shown = p->baseline = NULL;
    p->started = p->finished = p->collected = 0;
    p->nsteps = 0;
    p->scroll = 0;
    p->baseline_pick = 0;
    p->message[0] = '\0';
}

void probe_view_start(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (probe_view_running(a)) {
        a->screen = SCR_PROBE;
        return;
    }
    probe_view_cleanup(a);
    /* As `probe --device auto`: the CPU, and GPU 0 as well when the CUDA plug-in opens one. */
    struct probe_session_config cfg = {"auto", 0, 0, 0, 0, NULL, 0, NULL, 0, 0};
    char err[512];
    p->session.on_progress = on_progress;
    p->session.on_progress_ctx = p;
    if (probe_session_begin(&p->session, &cfg, err, sizeof err) != PROBE_BEGIN_OK) {
        probe_session_end(&p->session);
        ui_message(a, 1, "%s", err);
        return;
    }
    if (p->session.warning[0]) ui_message(a, 1, "warning: %s", p->session.warning);
    p->t0 = now_s();
    p->started = 1;
    if (pthread_create(&p->thread, NULL, worker, p) != 0) {
        probe_session_end(&p->session);
        p->started = 0;
        ui_message(a, 1, "cannot start the probe thread");
        return;
    }
    a->screen = SCR_PROBE;
}

/* Shows a stored run (an id or "latest") with its latest comparable baseline. */
void probe_view_open_stored(struct app *a, const char *id)
{
    struct probe_state *p = &a->probe;
    if (probe_view_running(a)) {
        a->screen = SCR_PROBE;
        return;
    }
    probe_view_cleanup(a);
    char err[512];
    if (kb_probe_get(a->k, id, &p->shown, err, sizeof err) != KB_OK || !p->shown) {
        ui_message(a, 1, "%s", p->shown ? err : "no probe run stored yet: run one from the home screen");
        return;
    }
    probe_session_baseline(a->k, "latest", p->shown, &p->baseline, err, sizeof err);
    snprintf(p->message, sizeof p->message, "stored probe run");
    a->screen = SCR_PROBE;
}

/* Once the worker is done: join it, finish the document, store the run and let the advisor
 * use it; compare with the latest stored run of the same machine. */
void probe_view_poll(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (!p->started || p->collected || probe_view_running(a)) return;
    pthread_join(p->thread, NULL);
    p->collected = 1;
    char err[512], where[PATH_MAX];
    if (probe_session_finish(&p->session, a->k) != 0) {
        snprintf(p->message, sizeof p->message, "out of memory");
        return;
    }
    probe_session_baseline(a->k, "latest", p->session.doc, &p->baseline, err, sizeof err);
    switch (probe_session_save(&p->session, a->k, where, sizeof where, err, sizeof err)) {
    case PROBE_SAVED:
        snprintf(p->message, sizeof p->message, "saved as probe run %s%s", p->session.run->id,
                 p->session.run->interrupted ? " (cancelled: the finished results only)" : "");
        app_refresh_hardware(a);
        break;
    case PROBE_SPILLED: snprintf(p->message, sizeof p->message, "not stored (%.100s); kept in %.120s", err, where); break;
    case PROBE_LOST: snprintf(p->message, sizeof p->message, "%.250s", err); break;
    case PROBE_NOTHING: snprintf(p->message, sizeof p->message, "cancelled before anything finished: nothing saved"); break;
    }
    p->shown = cJSON_Duplicate(p->session.doc, 1);
    probe_session_end(&p->session);
}

void probe_view_cleanup(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (p->started && !p->collected) {
        p->session.stop = 1;
        pthread_join(p->thread, NULL);
        probe_session_end(&p->session);
    }
    reset(p);
}

/* b: the next stored run as the baseline (newest first), then none, then around again. */
static void next_baseline(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (!p->shown) return;
    cJSON *rows = NULL;
    char err[256];
    if (kb_probe_list(a->k, &rows, err, sizeof err) != KB_OK) return;
    const char *self = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p->shown, "id"));
    int n = 0;
    const cJSON *row, *pick = NULL;
    p->baseline_pick++;
    cJSON_ArrayForEach(row, rows) {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "id"));
        if (!id || (self && strcmp(id, self) == 0)) continue;
        if (++n == p->baseline_pick) pick = row;
    }
    cJSON_Delete(p->baseline);
    p->baseline = NULL;
    if (pick) kb_probe_get(a->k, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pick, "id")), &p->baseline, err,
                           sizeof err);
    else p->baseline_pick = 0;
    cJSON_Delete(rows);
}

static void draw_running(struct app *a)
{
    struct probe_state *p = &a->probe;
    struct probe_progress pr;
    probe_session_progress(&p->session, &pr);
    char steps[PROBE_VIEW_STEPS][32], line[512], bar[512];
    pthread_mutex_lock(&p->lock);
    int nsteps = p->nsteps;
    memcpy(steps, p->steps, sizeof steps);
    pthread_mutex_unlock(&p->lock);
    ui_text(2, 2, COLS - 4, p->session.stop ? "Cancelling: finishing the current repeat..." : "Running (Esc cancels)", A_BOLD);
    int y = 4;
    for (int i = 0; i < nsteps && y < LINES - 6; i++, y++) {
        int current = i == nsteps - 1;
        snprintf(line, sizeof line, "%-18.31s %s", steps[i], current ? "running" : "done");
        ui_text(y, 2, COLS - 4, line, current ? A_BOLD : crt_attr(PAIR_GOOD));
    }
    y++;
    tui_bar(bar, sizeof bar, pr.fraction, COLS - 30, a->utf8);
    snprintf(line, sizeof line, "overall %3.0f%%", pr.fraction * 100);
    ui_text(y, 2, 24, line, A_NORMAL);
    ui_text(y, 27, COLS - 30, bar, A_NORMAL);
    double elapsed = now_s() - p->t0;
    if (pr.eta_s >= 0)
        snprintf(line, sizeof line, "%.0f s so far, about %.0f s left%s", elapsed, pr.eta_s,
                 pr.eta_revised ? " (revised up: the last step ran slower than planned)" : "");
    else
        snprintf(line, sizeof line, "%.0f s so far; the time left follows the first step", elapsed);
    ui_text(y + 2, 2, COLS - 4, line, A_NORMAL);
    ui_footer(a, " Esc: cancel   q: quit (asks first)");
}

/* Line i of the frameworks table as the screen lists it below the results (a title and header
 * per model, its rows, then what did not run and what each interpreter has); 0 past the end. */
static int draw_fw_line(const struct probe_fw_table *ft, int i, int y)
{
    for (int m = 0; m < 2; m++) {
        int first = -1, count = 0;
        for (int r = 0; r < ft->nrows; r++)
            if (!ft->rows[r].skipped && ft->rows[r].model == m) first = first < 0 ? r : first, count++;
        if (!count) continue;
        if (i < count + 3) {
            if (i == 1) ui_text(y, 1, COLS - 2, ft->title[m], A_BOLD);
            for (int c = 0, x = 1; i >= 2 && c < FC_NCOLS && x < COLS - 1; x += probe_fw_widths[c++] + 1) {
                const struct probe_fw_row *row = &ft->rows[first + i - 3];
                attr_t attr = i == 2 ? A_BOLD : row->fastest ? crt_attr(PAIR_GOOD) : row->noisy ? crt_attr(PAIR_ACCENT) : A_NORMAL;
                ui_text(y, x, probe_fw_widths[c], i == 2 ? probe_fw_header(c, m) : row->cell[c], attr);
            }
            return 1;
        }
        i -= count + 3;
    }
    for (int r = 0; r < ft->nrows; r++)
        if (ft->rows[r].skipped && i-- == 0) return ui_text(y, 1, COLS - 2, ft->rows[r].reason, crt_attr(PAIR_DIM)), 1;
    if (i < ft->nfound) return ui_text(y, 1, COLS - 2, ft->found[i], crt_attr(PAIR_DIM)), 1;
    return i == ft->nfound && ft->ntimed ? (ui_text(y, 1, COLS - 2, probe_fw_table_note(), crt_attr(PAIR_DIM)), 1) : 0;
}

void probe_view_draw(struct app *a)
{
    struct probe_state *p = &a->probe;
    ui_title(a, "probe: measuring this machine");
    if (probe_view_running(a)) {
        draw_running(a);
        return;
    }
    if (!p->shown) {
        ui_text(2, 2, COLS - 4, p->message, crt_attr(PAIR_ACCENT));
        ui_footer(a, " Esc: home");
        return;
    }
    /* The same summary and table as `fwadvisor probe show`. */
    char lines[24][512];
    int n = probe_summary_lines(p->shown, lines, 24), y = 2;
    for (int i = 0; i < n && y < LINES - 8; i++)
        y += ui_wrap(y, 1, COLS - 2, 2, lines[i], i == 0 ? A_BOLD : A_NORMAL);
    int bad = strstr(p->message, "saved as") == NULL && strstr(p->message, "stored probe run") == NULL;
    ui_text(y++, 1, COLS - 2, p->message, bad ? crt_attr(PAIR_ACCENT) : crt_attr(PAIR_GOOD));
    char line[512];
    if (p->baseline)
        snprintf(line, sizeof line, "compared with probe run %s (b: another)",
                 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p->baseline, "id")));
    else
        snprintf(line, sizeof line, "no baseline (b: compare with a stored run)");
    ui_text(y++, 1, COLS - 2, line, crt_attr(PAIR_DIM));
    struct probe_table *t = malloc(sizeof *t);
    struct probe_fw_table *ft = malloc(sizeof *ft);
    if (!t || !ft) {
        free(t), free(ft);
        return;
    }
    probe_table_build(p->shown, p->baseline, t);
    probe_fw_table_build(p->shown, ft);
    const enum probe_col *cols = t->compared ? probe_table_compared : probe_table_plain;
    static const int widths[PT_NCOLS] = {10, 13, 12, 9, 19, 6, 5, 9, 14};
    /* the header, then the rows from the scroll position */
    int x = 1;
    for (int c = 0; cols[c] != PT_NCOLS && x < COLS - 1; c++) {
        ui_text(y, x, widths[cols[c]], probe_table_headers[cols[c]], A_BOLD);
        x += widths[cols[c]] + 1;
    }
    y++;
    /* the results' rows but the frameworks', then the frameworks table's lines */
    int rows_room = LINES - 2 - y - 1, fw_lines = 0, nshown = 0, shown[PROBE_MAX_RESULTS];
    for (int r = 0; r < t->nrows; r++)
        if (!t->rows[r].frameworks) shown[nshown++] = r;
    while (ft->nrows && draw_fw_line(ft, fw_lines, -1)) fw_lines++; /* counted off screen */
    if (p->scroll > nshown + fw_lines - rows_room) p->scroll = nshown + fw_lines - rows_room;
    if (p->scroll < 0) p->scroll = 0;
    for (int i = p->scroll; i < nshown + fw_lines && y < LINES - 3; i++, y++) {
        if (i >= nshown) {
            draw_fw_line(ft, i - nshown, y);
            continue;
        }
        const struct probe_table_row *row = &t->rows[shown[i]];
        if (row->skipped) {
            snprintf(line, sizeof line, "%-10s %-13.13s %s", row->cell[PT_WORKLOAD], row->cell[PT_METRIC], row->reason);
            ui_text(y, 1, COLS - 2, line, crt_attr(PAIR_DIM));
            continue;
        }
        attr_t attr = row->verdict == PV_WORSE ? crt_attr(PAIR_BAD) | A_BOLD
                      : row->verdict == PV_BETTER ? crt_attr(PAIR_GOOD)
                      : row->noisy               ? crt_attr(PAIR_ACCENT)
                                                 : A_NORMAL;
        x = 1;
        for (int c = 0; cols[c] != PT_NCOLS && x < COLS - 1; c++) {
            ui_text(y, x, widths[cols[c]], row->cell[cols[c]], attr);
            x += widths[cols[c]] + 1;
        }
    }
    const char *note = *probe_table_compare_note(t) ? probe_table_compare_note(t) : probe_table_noise_note(t);
    ui_text(LINES - 2, 1, COLS - 2, note, crt_attr(PAIR_DIM));
    free(t);
    free(ft);
    ui_footer(a, " Esc/Backspace: home  Up/Down: scroll  b: baseline  h: HTML  a: advisor  q: quit");
}

/* The run shown, with its baseline, as a page (what probe show --html writes). */
static void html_done(struct app *a, const char *path)
{
    struct html page = {0};
    if (probe_run_html(a->probe.shown, a->probe.baseline, &page) != 0) ui_message(a, 1, "out of memory");
    else results_save(a, path, page.data, page.len, "HTML report");
    html_free(&page);
}

void probe_view_key(struct app *a, int ch)
{
    if (probe_view_running(a)) {
        if (ch == 27) a->probe.session.stop = 1;
        return;
    }
    switch (ch) {
    case 27: case KEY_BACKSPACE: case 127: case 8: case KEY_LEFT: a->screen = SCR_HOME; break;
    case 'h':
        if (a->probe.shown) ui_begin_input(a, "Write the probe run as an HTML page to", "./fwadvisor-probe.html", html_done);
        break;
    case KEY_UP: case 'k': a->probe.scroll--; break;
    case KEY_DOWN: case 'j': a->probe.scroll++; break;
    case 'b': next_baseline(a); break;
    case 'a': wizard_start(a, NULL); break;
    }
}
