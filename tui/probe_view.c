/* The probe screen: a probe session (probes/session.h, the same workflow as `fwadvisor probe`)
 * measures in a worker thread while the screen shows the steps, an overall bar and the time
 * left; Esc cancels (what finished is kept). Then the run as the command line shows it: the same
 * summary and the same table, compared with a baseline run the user picks (b). A stored run
 * opens here too, from the home screen. The knowledge base is only touched from the
 * interface's thread. While a probe runs, Ctrl-C, SIGTERM and SIGHUP stop it as on the command
 * line (the session's signals): what finished is stored, marked interrupted, and the interface
 * ends (status 1). */
#include "knowledge/probe_store.h"
#include "common/clock.h"
#include "common/i18n.h"
#include "common/units.h"
#include "probes/run_html.h"
#include "probes/run_table.h"
#include "probes/session.h"
#include "tui/tui.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "common/text.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* The steps seen, in order, for the list while measuring (measuring thread, under the lock). */
static void on_progress(void *ctx, const struct probe_progress *pr)
{
    struct probe_state *p = ctx;
    pthread_mutex_lock(&p->lock);
    if (p->nsteps == 0 || strcmp(p->steps[p->nsteps - 1], pr->what) != 0) {
        if (p->nsteps == PROBE_VIEW_STEPS) memmove(p->steps, p->steps + 1, sizeof p->steps[0] * (PROBE_VIEW_STEPS - 1)), p->nsteps--;
        text_pad(p->steps[p->nsteps++], sizeof p->steps[0], pr->what, 0, -1); /* whole characters only */
    }
    pthread_mutex_unlock(&p->lock);
}

static void *worker(void *arg)
{
    struct probe_state *p = arg;
    probe_session_measure(&p->session);
    pthread_mutex_lock(&p->lock);
    p->finished = 1;
    p->finished_at = clock_now_s();
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

/* The run shown and its baseline read once each, for every redraw until either changes. */
static void read_shown(struct probe_state *p)
{
    free(p->shown_run);
    free(p->baseline_run);
    p->shown_run = measured_read_new(p->shown);
    p->baseline_run = measured_read_new(p->baseline);
}

static void reset(struct probe_state *p)
{
    cJSON_Delete(p->shown);
    cJSON_Delete(p->baseline);
    p->shown = p->baseline = NULL;
    read_shown(p);
    p->started = p->finished = p->collected = 0;
    p->nsteps = 0;
    p->vp.top = 0;
    p->vp.query[0] = '\0';
    p->cancel_at = p->finished_at = 0;
    p->baseline_pick = 0;
    p->message[0] = '\0';
    p->message_status = PROBE_NOTHING;
    p->signalled = 0;
    p->exit_lines[0][0] = p->exit_lines[1][0] = '\0';
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
    if (p->session.warning[0]) ui_message(a, 1, _("warning: %s"), p->session.warning);
    p->t0 = clock_now_s();
    p->started = 1;
    probe_session_catch_signals(&p->session);
    if (pthread_create(&p->thread, NULL, worker, p) != 0) {
        probe_session_release_signals();
        probe_session_end(&p->session);
        p->started = 0;
        ui_message(a, 1, "%s", _("cannot start the probe thread"));
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
        read_shown(p);
        ui_message(a, 1, "%s", p->shown ? err : _("no probe run stored yet: run one from the home screen"));
        return;
    }
    probe_session_baseline(a->k, "latest", p->shown, &p->baseline, err, sizeof err);
    read_shown(p);
    snprintf(p->message, sizeof p->message, "%s", _("stored probe run"));
    p->message_status = PROBE_SAVED;
    a->screen = SCR_PROBE;
}

/* The run finished (or stopped): stored, and what became of it in p->message; after a signal,
 * the lines the interface leaves on standard error too. */
static void store(struct app *a)
{
    struct probe_state *p = &a->probe;
    char err[512], where[PATH_MAX];
    p->signalled = p->session.signal != 0;
    if (probe_session_finish(&p->session, a->k) != 0) {
        snprintf(p->message, sizeof p->message, "%s", _("out of memory"));
        p->message_status = PROBE_LOST;
        if (p->signalled) probe_session_signal_line(&p->session, 0, p->exit_lines[1], sizeof p->exit_lines[1]);
        return;
    }
    probe_session_baseline(a->k, "latest", p->session.doc, &p->baseline, err, sizeof err);
    /* How long Esc took to stop the measuring, said: the interface promises under a second. */
    char how[120], took[48];
    snprintf(how, sizeof how, "%s", _("interrupted"));
    if (p->cancel_at > 0)
        snprintf(how, sizeof how, _("cancelled in %s"), units_duration_text(p->finished_at - p->cancel_at, took, sizeof took));
    int cut = p->session.run->interrupted;
    enum probe_save_status st = probe_session_save(&p->session, a->k, where, sizeof where, err, sizeof err);
    p->message_status = st;
    switch (st) {
    case PROBE_SAVED:
        if (cut)
            snprintf(p->message, sizeof p->message, _("saved as probe run %s (%s: the finished results only)"),
                     p->session.run->id, how);
        else snprintf(p->message, sizeof p->message, _("saved as probe run %s"), p->session.run->id);
        app_refresh_hardware(a);
        break;
    case PROBE_SPILLED: snprintf(p->message, sizeof p->message, _("not stored (%.100s); kept in %.120s"), err, where); break;
    case PROBE_LOST: snprintf(p->message, sizeof p->message, "%.250s", err); break;
    case PROBE_NOTHING:
        snprintf(p->message, sizeof p->message, _("%s, before anything finished: nothing saved"), how);
        break;
    }
    p->message[text_utf8_prefix(p->message)] = '\0'; /* the error's %.Ns cut keeps whole characters */
    p->shown = cJSON_Duplicate(p->session.doc, 1);
    read_shown(p);
    if (p->signalled) {
        if (st == PROBE_SPILLED || st == PROBE_LOST)
            snprintf(p->exit_lines[0], sizeof p->exit_lines[0], "%s", p->message);
        probe_session_signal_line(&p->session, st == PROBE_SAVED, p->exit_lines[1], sizeof p->exit_lines[1]);
    }
}

/* The worker done: join it, finish the document, store the run and let the advisor use it;
 * compare with the latest stored run of the same machine. Then the signals are the
 * interface's again (one that came while storing takes its course here). */
static void collect(struct app *a)
{
    struct probe_state *p = &a->probe;
    pthread_join(p->thread, NULL);
    p->collected = 1;
    store(a);
    probe_session_end(&p->session);
    probe_session_release_signals();
}

void probe_view_poll(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (p->started && !p->collected && !probe_view_running(a)) collect(a);
}

int probe_view_interrupted(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (p->started && !p->collected && p->session.signal) collect(a); /* the worker stops within a second */
    return p->signalled;
}

void probe_view_cleanup(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (p->started && !p->collected) {
        p->session.stop = 1;
        pthread_join(p->thread, NULL);
        probe_session_end(&p->session);
        probe_session_release_signals();
    }
    reset(p);
}

/* b: the next stored run as the baseline (newest first), then none, then around again. */
static void next_baseline(struct app *a)
{
    struct probe_state *p = &a->probe;
    if (!p->shown || !p->shown_run) return;
    cJSON *rows = NULL;
    char err[256];
    if (kb_probe_list(a->k, &rows, err, sizeof err) != KB_OK) {
        ui_message(a, 1, "%s", err);
        return;
    }
    const char *self = p->shown_run->id;
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
    /* b with no other stored run says so rather than nothing */
    if (!n) ui_message(a, 1, "%s", _("no other stored probe run to compare with (run another probe first)"));
    read_shown(p);
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
    ui_text(2, 2, COLS - 4, p->session.stop ? _("Cancelling: finishing the current repeat...") : _("Running (Esc cancels)"), A_BOLD);
    int y = 4;
    for (int i = 0; i < nsteps && y < LINES - 6; i++, y++) {
        int current = i == nsteps - 1;
        char step[160];
        snprintf(line, sizeof line, "%s %s", text_pad(step, sizeof step, steps[i], 18, 31), current ? _("running") : _("done"));
        ui_text(y, 2, COLS - 4, line, current ? A_BOLD : crt_attr(PAIR_GOOD));
    }
    y++;
    tui_bar(bar, sizeof bar, pr.fraction, COLS - 30, a->utf8);
    snprintf(line, sizeof line, _("overall %3.0f%%"), pr.fraction * 100);
    ui_text(y, 2, 24, line, A_NORMAL);
    ui_text(y, 27, COLS - 30, bar, A_NORMAL);
    char so_far[48], left[48];
    units_duration_text(clock_now_s() - p->t0, so_far, sizeof so_far);
    if (pr.eta_s >= 0)
        snprintf(line, sizeof line,
                 pr.eta_revised ? _("%s so far, about %s left (revised up: the last step ran slower than planned)")
                                : _("%s so far, about %s left"),
                 so_far, units_duration_text(pr.eta_s, left, sizeof left));
    else
        snprintf(line, sizeof line, _("%s so far; the time left follows the first step"), so_far);
    ui_wrap(y + 2, 2, COLS - 4, 2, line, A_NORMAL);
    ui_footer(a, _(" Esc: cancel (within a second, keeping what finished)   q: quit (asks first)"));
}

/* A table printed by fn at the pane's width, into the pane: the header bold, each row in the
 * attribute attr_of gives its index. */
static void add_printed(struct app *a, struct pane *p, void (*fn)(FILE *f, const void *t, int arg), const void *t,
                        int arg, attr_t (*attr_of)(const void *t, int arg, int row))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) return;
    int keep = text_table_width();
    text_set_table_width(p->width);
    fn(mem, t, arg);
    text_set_table_width(keep);
    fclose(mem);
    int line = 0;
    for (char *s = buf, *nl; s && *s; s = nl ? nl + 1 : NULL, line++) {
        nl = strchr(s, '\n');
        if (nl) *nl = '\0';
        if (line == 0 || vp_matches(&a->probe.vp, s)) pane_add(p, -1, 0, line ? attr_of(t, arg, line - 1) : A_BOLD, s);
    }
    free(buf);
}

static void print_results(FILE *f, const void *t, int arg) { (void)arg, probe_table_print(f, t, 0); }
static void print_fw(FILE *f, const void *t, int model) { probe_fw_table_print(f, t, model); }

/* The n-th finished row's colours: worse in bold red, better green, noisy marked. */
static attr_t result_attr(const void *vt, int arg, int n)
{
    const struct probe_table *t = vt;
    (void)arg;
    for (int r = 0; r < t->nrows; r++) {
        if (t->rows[r].skipped || t->rows[r].frameworks || n-- > 0) continue;
        const struct probe_table_row *row = &t->rows[r];
        return row->verdict == PV_WORSE ? crt_attr(PAIR_BAD) | A_BOLD
               : row->verdict == PV_BETTER ? crt_attr(PAIR_GOOD)
               : row->noisy               ? crt_attr(PAIR_ACCENT)
                                          : A_NORMAL;
    }
    return A_NORMAL;
}

/* The n-th row of a model's frameworks table: the fastest marked, noisy ones too. */
static attr_t fw_attr(const void *vt, int model, int n)
{
    const struct probe_fw_table *t = vt;
    for (int r = 0; r < t->nrows; r++) {
        if (t->rows[r].skipped || t->rows[r].model != model || n-- > 0) continue;
        return t->rows[r].fastest ? crt_attr(PAIR_GOOD) : t->rows[r].noisy ? crt_attr(PAIR_ACCENT) : A_NORMAL;
    }
    return A_NORMAL;
}

/* The frameworks workload as `probe show` prints it: a table per model, what did not run, what
 * each interpreter has, the note. */
static void add_fw_table(struct app *a, struct pane *p, const struct probe_fw_table *ft)
{
    if (!ft->nrows) return;
    for (int m = 0; m < 2; m++) {
        int rows = 0;
        for (int r = 0; r < ft->nrows; r++) rows += !ft->rows[r].skipped && ft->rows[r].model == m;
        if (!rows) continue;
        pane_gap(p);
        pane_wrap(p, -1, 0, A_BOLD, NULL, 0, ft->title[m]);
        add_printed(a, p, print_fw, ft, m, fw_attr);
    }
    for (int r = 0; r < ft->nrows; r++)
        if (ft->rows[r].skipped) pane_wrap(p, -1, 0, crt_attr(PAIR_DIM), NULL, 0, ft->rows[r].reason);
    for (int i = 0; i < ft->nfound; i++) pane_wrap(p, -1, 0, crt_attr(PAIR_DIM), NULL, 0, ft->found[i]);
    if (ft->ntimed) pane_wrap(p, -1, 0, crt_attr(PAIR_DIM), NULL, 0, probe_fw_table_note());
}

/* The table as the command line prints it, at the pane's width; each row in its verdict's colours. */
static void add_table(struct app *a, struct pane *p, const struct probe_table *t)
{
    add_printed(a, p, print_results, t, 0, result_attr);
    for (int k = 0; k < t->nrows; k++) {
        const struct probe_table_row *row = &t->rows[k];
        if (!row->skipped || row->frameworks) continue;
        char lead[256], workload[96], metric[96];
        snprintf(lead, sizeof lead, "%s %s ", text_pad(workload, sizeof workload, row->cell[PT_WORKLOAD], 10, -1),
                 text_pad(metric, sizeof metric, row->cell[PT_METRIC], 13, 13));
        pane_wrap(p, -1, 0, crt_attr(PAIR_DIM), lead, crt_attr(PAIR_DIM), row->reason);
    }
    const char *notes[] = {probe_table_plan_note(t), probe_table_noise_note(t), probe_table_compare_note(t)};
    for (int k = 0; k < 3; k++)
        if (*notes[k]) pane_wrap(p, -1, 0, crt_attr(PAIR_DIM), NULL, 0, notes[k]);
}


void probe_view_draw(struct app *a)
{
    struct probe_state *p = &a->probe;
    /* the title says what the screen holds: a run going on, or one finished or stored */
    char title[160];
    if (probe_view_running(a)) snprintf(title, sizeof title, "%s", _("probe: measuring this machine"));
    else if (p->shown_run) snprintf(title, sizeof title, _("probe run %s"), p->shown_run->id);
    else snprintf(title, sizeof title, "%s", _("probe"));
    ui_title(a, title);
    if (probe_view_running(a)) {
        draw_running(a);
        return;
    }
    if (!p->shown_run) {
        ui_wrap(2, 2, COLS - 4, LINES - 4, p->message, crt_attr(PAIR_ACCENT));
        ui_footer(a, _(" Esc: home  ?: help  q: quit"));
        return;
    }
    /* The same summary and table as `fwadvisor probe show`, in one pane. */
    struct pane *pn = &p->pane;
    pane_reset(pn, COLS - 3);
    char lines[24][512];
    int n = probe_summary_from(p->shown_run, lines, 24);
    for (int i = 0; i < n; i++) pane_wrap(pn, -1, i ? 2 : 0, i == 0 ? A_BOLD : A_NORMAL, NULL, 0, lines[i]);
    int bad = p->message_status != PROBE_SAVED;
    pane_wrap(pn, -1, 0, bad ? crt_attr(PAIR_ACCENT) : crt_attr(PAIR_GOOD), NULL, 0, p->message);
    char line[512];
    if (p->baseline_run)
        snprintf(line, sizeof line, _("compared with probe run %s (b: another)"), p->baseline_run->id);
    else
        snprintf(line, sizeof line, "%s", _("no baseline (b: compare with a stored run)"));
    pane_wrap(pn, -1, 0, crt_attr(PAIR_DIM), NULL, 0, line);
    pane_gap(pn);
    struct probe_table *t = malloc(sizeof *t);
    struct probe_fw_table *ft = malloc(sizeof *ft);
    if (t && ft) {
        probe_table_from(p->shown_run, p->baseline_run, t);
        add_table(a, pn, t);
        probe_fw_table_from(p->shown_run, ft);
        add_fw_table(a, pn, ft);
    }
    free(t);
    free(ft);
    vp_draw(&p->vp, pn, 2, 1, ui_content_rows(2), COLS - 2, a->utf8);
    ui_pane(a, &p->vp, pn);
    ui_searchable(a, &p->vp);
    ui_footer(a, _(" Esc: home  b: baseline  h: HTML  a: advisor  /: find  ?: help  q: quit"));
}

/* The run shown, with its baseline, as a page (what probe show --html writes). */
static void html_done(struct app *a, const char *path)
{
    struct html page = {0};
    struct probe_plan_point history[PROBE_PLAN_HISTORY];
    int n = probe_session_plan_history(a->k, a->probe.shown, history, PROBE_PLAN_HISTORY);
    if (probe_run_html(a->probe.shown, a->probe.baseline, history, n, &page) != 0) ui_message(a, 1, "%s", _("out of memory"));
    else results_save(a, path, page.data, page.len, _("HTML report"));
    html_free(&page);
}

void probe_view_key(struct app *a, int ch)
{
    struct probe_state *p = &a->probe;
    if (probe_view_running(a)) {
        if (ch == 27 && !p->session.stop) {
            p->cancel_at = clock_now_s();
            p->session.stop = 1;
        }
        return;
    }
    if (p->shown && vp_key(&p->vp, &p->pane, ch)) return;
    switch (ch) {
    case 27: case KEY_BACKSPACE: case 127: case 8: case KEY_LEFT: app_home(a); break;
    case 'h':
        if (a->probe.shown) ui_begin_input(a, _("Write the probe run as an HTML page to"), "./fwadvisor-probe.html", 1, html_done);
        break;
    case 'b': next_baseline(a); break;
    case 'a': wizard_start(a, NULL); break;
    }
}
