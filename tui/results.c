/* Results in tabs: Ranking, Why, Compare, Plan, Deploy, Pitfalls, Hardware; and the report's
 * export. Each tab's content is a pane (tui/viewport.h); what carries a verdict is wrapped, never
 * cut, and the Plan's verdicts stay above its pane. */
#include "common/clock.h"
#include "common/file.h"
#include "common/i18n.h"
#include "common/json_doc.h"
#include "knowledge/compare_text.h"
#include "knowledge/launch_files.h"
#include "knowledge/report_html.h"
#include "common/units.h"
#include "probes/advisor_hw.h"
#include "knowledge/config_file.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "common/text.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const tab_names[TAB_COUNT] = {N_("1 Ranking"), N_("2 Why"),      N_("3 Compare"), N_("4 Plan"),
                                                  N_("5 Deploy"),  N_("6 Pitfalls"), N_("7 Hardware")};

void results_compute(struct app *a)
{
    if (!a->res) a->res = calloc(1, sizeof *a->res);
    if (!a->res) return;
    struct answers ans;
    char err[256];
    if (wizard_build(a, &ans, -1, 0, err, sizeof err)) {
        ui_message(a, 1, "%s", err); /* a choice the answers refuse: said, never dropped */
        return;
    }
    /* The stored runs that match these answers (the side panel used the latest run as it was). */
    struct adv_hw *hw = malloc(sizeof *hw);
    if (!hw) return;
    if (probe_advisor_hardware(a->k, "latest", &ans, 1, hw, err, sizeof err) != KB_OK) *hw = a->hw;
    int status = adv_recommend(a->akb, &ans, hw, a->res, err, sizeof err);
    free(hw);
    if (status != KB_OK) {
        ui_message(a, 1, "%s", err); /* answers loaded from a file that contradict each other */
        return;
    }
    a->res_answers = ans;
    a->hw_stale = 1; /* the Hardware tab plans these answers when it is next shown */
    a->screen = SCR_RESULTS;
    a->tab = TAB_RANKING;
    for (int t = 0; t < TAB_COUNT; t++) {
        a->tab_vp[t].top = 0;
        a->tab_vp[t].query[0] = '\0';
    }
    a->tab_vp[TAB_RANKING].cursor = a->tab_vp[TAB_PITFALLS].cursor = 0;
    memset(a->ticked, 0, sizeof a->ticked);
}

void results_save(struct app *a, const char *path, const char *data, size_t len, const char *what)
{
    char err[512];
    if (file_write_regular(path, &(struct file_chunk){data, len}, 1, err, sizeof err) != FILE_OK)
        ui_message(a, 1, "%s", err);
    else ui_message(a, 0, _("%s written to %s"), what, path);
}

/* The report document of the results shown (fwadvisor.report/1), stamped now; with `local`, its
 * words in the reader's language (for the page). */
static cJSON *report_now(struct app *a, int local)
{
    char now[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return local ? adv_report_json_local(a->akb, a->res, now) : adv_report_json(a->akb, a->res, now);
}

/* doc (freed here) as indented JSON with a final newline, saved as results_save does. */
static void save_json(struct app *a, cJSON *doc, const char *path, const char *what)
{
    size_t len;
    char *text = doc ? json_doc_text(doc, &len) : NULL;
    cJSON_Delete(doc);
    if (!text) {
        ui_message(a, 1, "%s", _("out of memory"));
        return;
    }
    results_save(a, path, text, len, what);
    free(text);
}

/* The Slurm partition and account for job.sbatch: the config file's [site], or NULL, which leaves
 * the file's placeholders. */
static const struct launch_site *team_site(const struct app *a) { return a->team_config ? &a->team_config->site : NULL; }

static void export_done(struct app *a, const char *path) { save_json(a, report_now(a, 0), path, _("report")); }

/* The same document as a page (what recommend --html writes). */
static void html_done(struct app *a, const char *path)
{
    cJSON *doc = report_now(a, 1);
    struct html page = {0};
    struct launch_files files = {0};
    char err[256];
    int have = a->res->job != ADV_JOB_SERVE &&
               launch_files_make(a->akb, a->res, team_site(a), &files, err, sizeof err) == 0;
    if (!doc || adv_report_html_files(doc, have ? &files : NULL, &page) != 0) ui_message(a, 1, "%s", _("out of memory"));
    else results_save(a, path, page.data, page.len, _("HTML report"));
    html_free(&page);
    if (have) launch_files_free(&files);
    cJSON_Delete(doc);
}

/* The answers behind the results as an answers file (the given keys: what `fwadvisor recommend
 * --answers FILE` and the home screen's "load answers" read back). */
static void answers_done(struct app *a, const char *path) { save_json(a, answers_given_json(&a->res_answers), path, _("answers")); }

/* The plan's launch files into a new folder, as `recommend --emit DIR` writes them (job.sbatch
 * with the config file's [site], else its placeholders). */
static void launch_done(struct app *a, const char *dir)
{
    char err[PATH_MAX + 256], names[512];
    if (launch_files_write(a->akb, a->res, team_site(a), dir, names, sizeof names, err, sizeof err) != FILE_OK)
        ui_message(a, 1, "%s", err);
    else ui_message(a, 0, _("launch files written to %s: %s"), dir, names);
}

/* The same answers as one command line, to paste into a shell or a script. */
static void show_command(struct app *a)
{
    char cmd[2048];
    answers_command(&a->res_answers, cmd, sizeof cmd);
    ui_note(a, _("As a command line (Shift+drag selects it to copy):"), cmd, 1);
}

/* A reason with its sources: "text [seed-001, pytorch-2.11]". */
static void reason_line(const struct adv_kb *akb, const struct adv_reason *r, char *out, size_t n)
{
    char text[1200], cite[256];
    adv_reason_local(akb, r, text, sizeof text);
    adv_cite(r->source, r->also, cite, sizeof cite);
    if (cite[0]) snprintf(out, n, "%s [%s]", text, cite);
    else snprintf(out, n, "%s", text);
}

static void add_reasons(const struct adv_kb *akb, struct pane *p, const struct adv_reason *r, int n, int with_delta)
{
    /* with their points: largest first, as the command line lists them */
    const struct adv_reason *sorted[ADV_MAX_REASONS];
    if (with_delta) adv_reasons_by_size(r, n < ADV_MAX_REASONS ? n : ADV_MAX_REASONS, sorted);
    for (int i = 0; i < n && i < ADV_MAX_REASONS; i++) {
        char line[1600], lead[16];
        const struct adv_reason *ri = with_delta ? sorted[i] : &r[i];
        reason_line(akb, ri, line, sizeof line);
        if (with_delta) {
            snprintf(lead, sizeof lead, "%+6.1f  ", ri->delta_tenths / 10.0);
            pane_wrap(p, -1, 0, A_NORMAL, lead, ri->delta_tenths < 0 ? crt_attr(PAIR_BAD) : crt_attr(PAIR_GOOD), line);
        } else {
            pane_wrap(p, -1, 0, A_NORMAL, "- ", A_NORMAL, line);
        }
    }
}

static void build_ranking(struct app *a, struct pane *p)
{
    const struct adv_ranking *rk = &a->res->ranking;
    /* bars of at most 60 columns: wider ones only stretch the same picture */
    int barw = p->width - 26 > 10 ? p->width - 26 : 10;
    if (barw > 60) barw = 60;
    for (int i = 0; i < rk->count; i++) {
        const struct adv_framework *f = &rk->items[i];
        char lead[64], line[600];
        if (!vp_matches(&a->tab_vp[TAB_RANKING], f->name)) continue;
        if (f->excluded) { /* the reason is the verdict: wrapped, whole */
            adv_reason_local(a->akb, &f->reasons[0], line, sizeof line);
            snprintf(lead, sizeof lead, " -  %-12s ", f->name); /* the reason says "Excluded: ..." */
            pane_wrap(p, i, 0, crt_attr(PAIR_DIM), lead, crt_attr(PAIR_DIM), line);
            continue;
        }
        char bar[512];
        tui_bar(bar, sizeof bar, f->score_tenths / 1000.0, barw, a->utf8);
        snprintf(lead, sizeof lead, "%2d  %-12s %5.1f  ", i + 1, f->name, f->score_tenths / 10.0);
        snprintf(line, sizeof line, "%s%s", lead, bar);
        pane_add(p, i, 0, i == 0 ? crt_attr(PAIR_GOOD) : A_NORMAL, line);
    }
    pane_gap(p);
    pane_add(p, -1, 0, crt_attr(PAIR_DIM), _("Enter: why a framework ranks where it does."));
}

static void build_why(struct app *a, struct pane *p)
{
    int sel = a->tab_vp[TAB_RANKING].cursor;
    const struct adv_framework *f = &a->res->ranking.items[sel >= 0 && sel < a->res->ranking.count ? sel : 0];
    char head[300], n[64];
    snprintf(head, sizeof head, _("%s: %.1f points from %s (pick another on Ranking)"), f->name, f->score_tenths / 10.0,
             units_count(adv_reason_total(f), _("reason"), _("reasons"), n, sizeof n));
    pane_wrap(p, -1, 0, A_BOLD, NULL, 0, head);
    add_reasons(a->akb, p, f->reasons, f->nreasons, 1);
}

/* Criteria x frameworks, the frameworks in rank order under their full names where they fit,
 * else numbered by rank with the names above; excluded ones marked. */
static void build_compare(struct app *a, struct pane *p)
{
    const struct adv_ranking *rk = &a->res->ranking;
    int nc = adv_kb_criterion_count(a->akb), col[ADV_MAX_FRAMEWORKS], namew = 0, total = 0;
    char names[ADV_MAX_FRAMEWORKS][40];
    for (int i = 0; i < rk->count; i++) {
        col[i] = -1;
        for (int f = 0; f < adv_kb_framework_count(a->akb); f++)
            if (strcmp(adv_kb_framework_name(a->akb, f), rk->items[i].name) == 0) col[i] = f;
        snprintf(names[i], sizeof names[i], "%s%s", rk->items[i].name, rk->items[i].excluded ? "*" : "");
        total += (text_width(names[i]) > 4 ? text_width(names[i]) : 4) + 2;
    }
    for (int c = 0; c < nc; c++)
        if (text_width(adv_kb_local(a->akb, adv_kb_criterion_name(a->akb, c))) > namew) namew = text_width(adv_kb_local(a->akb, adv_kb_criterion_name(a->akb, c)));
    if (namew > 30) namew = 30;
    int full = namew + total <= p->width;
    char line[1024], legend[1024];
    size_t used = 0;
    legend[0] = '\0';
    for (int i = 0; i < rk->count && !full; i++)
        used += (size_t)snprintf(legend + used, sizeof legend - used, "%s#%d %s%s", i ? "  " : "", i + 1, rk->items[i].name,
                                 rk->items[i].excluded ? _(" (excluded)") : "");
    if (!full) pane_wrap(p, -1, 0, A_NORMAL, _("Columns by rank: "), A_BOLD, legend);
    char crit_head[128];
    used = (size_t)snprintf(line, sizeof line, "%s", text_pad(crit_head, sizeof crit_head, _("criterion (score 0-10)"), namew, -1));
    for (int i = 0; i < rk->count; i++) {
        char head[48];
        if (full) snprintf(head, sizeof head, "%.39s", names[i]);
        else snprintf(head, sizeof head, "#%d%s", i + 1, rk->items[i].excluded ? "*" : "");
        int w = full ? (text_width(names[i]) > 4 ? text_width(names[i]) : 4) : 4;
        used += (size_t)snprintf(line + used, sizeof line - used, "  %*s", w + (int)(strlen(head) - (size_t)text_width(head)), head);
    }
    pane_add(p, -1, 0, A_BOLD, line);
    for (int c = 0; c < nc; c++) {
        const char *crit = adv_kb_local(a->akb, adv_kb_criterion_name(a->akb, c));
        if (!vp_matches(&a->tab_vp[TAB_COMPARE], crit)) continue;
        char cname[128];
        text_fit(crit, namew, cname, sizeof cname);
        used = (size_t)snprintf(line, sizeof line, "%s%*s", cname, namew - text_width(cname), "");
        for (int i = 0; i < rk->count; i++) {
            int s = col[i] >= 0 ? adv_answer_score(a->akb, answers_str(&a->res->answers, ANS_HARDWARE), col[i], c) : -1, w = full ? (text_width(names[i]) > 4 ? text_width(names[i]) : 4) : 4;
            char cell[16];
            snprintf(cell, sizeof cell, s < 0 ? "-" : "%d", s);
            used += (size_t)snprintf(line + used, sizeof line - used, "  %*s", w, cell);
        }
        pane_add(p, -1, 0, A_NORMAL, line);
    }
    pane_gap(p);
    int any_excluded = 0;
    for (int i = 0; i < rk->count; i++) any_excluded |= rk->items[i].excluded;
    if (any_excluded) pane_add(p, -1, 0, crt_attr(PAIR_DIM), _("* excluded for these answers (Ranking says why)."));
    pane_wrap(p, -1, 0, crt_attr(PAIR_DIM), NULL, 0,
              _("From the knowledge base (fwadvisor kb show FRAMEWORK has every note and source)."));
}

static void plan_line(void *ctx, const char *label, const char *text)
{
    struct pane *p = ctx;
    char lead[128];
    /* every label comes as its English key (N_()), compared as such and shown translated */
    snprintf(lead, sizeof lead, _("%s: "), _(label));
    int warn = strcmp(label, "Warning") == 0 || strcmp(label, "Nothing fits") == 0;
    int assumed = strcmp(label, "Assumed") == 0;
    attr_t attr = warn ? crt_attr(PAIR_BAD) | A_BOLD : assumed ? crt_attr(PAIR_DIM) : A_NORMAL;
    pane_wrap(p, -1, 0, attr, lead, attr | A_BOLD, text);
}

/* Serving only: the serving plan first, then the line that says no training is planned. */
static void build_serving_plan(struct app *a, struct pane *p)
{
    pane_add(p, -1, 0, A_BOLD, _("Serving plan (job serve)"));
    adv_inference_text(a->akb, a->res, plan_line, p);
    if (!a->res->inference.planned) plan_line(p, N_("Serving"), _("no serving plan: it is made for model_kind llm on deploy server"));
    pane_gap(p);
    adv_plan_text(a->akb, a->res, plan_line, p);
}

static void build_plan(struct app *a, struct pane *p)
{
    const struct adv_result *r = a->res;
    char line[512], bar[512];
    if (r->job == ADV_JOB_SERVE) {
        build_serving_plan(a, p);
        return;
    }
    size_t used = (size_t)snprintf(line, sizeof line, "%s", r->nalternatives ? "" : _("none"));
    for (int i = 0; i < r->nalternatives; i++) used += (size_t)snprintf(line + used, sizeof line - used, "%s%s", i ? ", " : "", r->alternatives[i]);
    plan_line(p, N_("Alternatives"), line);
    const struct adv_memory *m = &r->memory;
    double usable = m->usable_gb > 0 ? m->usable_gb : m->device_memory_gb;
    if (usable > 0) {
        tui_bar_parts(bar, sizeof bar, (const double[]){m->model_states_gb / usable, m->activations_gb / usable, m->buffers_gb / usable},
                      3, p->width - 2, a->utf8);
        pane_add(p, -1, 1, m->fits ? A_NORMAL : crt_attr(PAIR_BAD), bar);
        pane_wrap(p, -1, 1, crt_attr(PAIR_DIM), NULL, 0,
                  a->utf8 ? _("\u2588 model states  \u2592 activations  \u2591 buffers  \u00b7 headroom")
                          : _("# model states  + activations  = buffers  . headroom"));
    }
    adv_plan_text(a->akb, r, plan_line, p);
    snprintf(line, sizeof line, "%s%s%s", ADV_LOCAL(r, scaling_source), r->scaling_seed_short[0] ? "; " : "", r->scaling_seed_short);
    plan_line(p, N_("Scaling"), line);
    pane_gap(p);
    pane_add(p, -1, 0, A_BOLD, _("Why this strategy"));
    add_reasons(a->akb, p, r->strategy_reasons, r->nstrategy_reasons, 0);
}

static void build_deploy(struct app *a, struct pane *p)
{
    pane_wrap(p, -1, 0, A_NORMAL, NULL, 0, ADV_LOCAL(a->res, deploy_hardware_note));
    pane_gap(p);
    /* The inference plan's lines (the command line's), then the reasons. */
    int before = p->nlines;
    adv_inference_text(a->akb, a->res, plan_line, p);
    if (p->nlines > before) pane_gap(p);
    add_reasons(a->akb, p, a->res->runtime_reasons, a->res->nruntime_reasons, 0);
}

static void build_pitfalls(struct app *a, struct pane *p)
{
    for (int i = 0; i < a->res->npitfalls; i++) {
        char line[1500], cite[256];
        adv_cite(a->res->pitfalls[i].source, a->res->pitfalls[i].also, cite, sizeof cite);
        snprintf(line, sizeof line, "%s [%s]", adv_kb_local(a->akb, a->res->pitfalls[i].text), cite);
        if (vp_matches(&a->tab_vp[TAB_PITFALLS], line))
            pane_wrap(p, i, 0, A_NORMAL, a->ticked[i] ? "[x] " : "[ ] ", A_BOLD, line);
    }
}

/* --- Hardware: the job on every accelerator of the catalog (recommend --compare-hardware) ---- */

/* The comparison of the answers shown, planned on a thread of its own (a 70B fine-tune is a few
 * hundred plans) so that every key is still handled at once; the tab says it is being planned
 * meanwhile. Prices are the command line's: the answers' price_per_device_hour, the knowledge
 * base's prices table and the config file's [prices] (read here, on the interface's thread). */
struct hw_job {
    pthread_t thread;
    pthread_mutex_t lock; /* done */
    int done, status;
    const struct adv_kb *akb;
    struct answers answers;
    struct compare_prices prices;
    struct compare_table table;
    char err[256];
    double ms;
};

static void *hw_plan(void *arg)
{
    struct hw_job *j = arg;
    double t0 = clock_now_s();
    int status = compare_hardware(j->akb, &j->answers, &j->prices, &j->table, j->err, sizeof j->err);
    pthread_mutex_lock(&j->lock);
    j->ms = (clock_now_s() - t0) * 1000;
    j->status = status;
    j->done = 1;
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

static void hw_join(struct app *a)
{
    struct hw_job *j = a->hw_job;
    if (!j) return;
    pthread_join(j->thread, NULL);
    pthread_mutex_destroy(&j->lock);
    free(j);
    a->hw_job = NULL;
}

int results_poll(struct app *a)
{
    struct hw_job *j = a->hw_job;
    if (!j) return 0;
    pthread_mutex_lock(&j->lock);
    int done = j->done;
    pthread_mutex_unlock(&j->lock);
    if (!done) return 1;
    if (!a->hw_stale) { /* else it planned answers since changed: dropped */
        if (!a->hw_table) a->hw_table = malloc(sizeof *a->hw_table);
        if (a->hw_table) *a->hw_table = j->table;
        snprintf(a->hw_err, sizeof a->hw_err, "%s", j->status != KB_OK ? j->err : a->hw_table ? "" : _("out of memory"));
        a->hw_ms = j->ms;
    }
    hw_join(a);
    return 0;
}

/* Takes a finished comparison, and starts one for the answers shown when the tab has none for
 * them (hw_stale; a failure is said once, not tried again every frame). */
static void hw_ensure(struct app *a)
{
    if (results_poll(a) || !a->hw_stale) return;
    struct hw_job *j;
    a->hw_err[0] = '\0';
    if (!(j = calloc(1, sizeof *j))) {
        snprintf(a->hw_err, sizeof a->hw_err, "%s", _("out of memory")); /* tried again when shown */
        return;
    }
    j->akb = a->akb;
    j->answers = a->res_answers;
    a->hw_stale = 0;
    /* the knowledge base's prices, then the config file's [prices], as recommend --compare-hardware */
    if (compare_prices_from_kb(a->k, &j->prices, a->hw_err, sizeof a->hw_err) != KB_OK ||
        config_prices(a->team_config, a->akb, &j->prices, a->hw_err, sizeof a->hw_err) != 0) {
        free(j);
        return;
    }
    pthread_mutex_init(&j->lock, NULL);
    if (pthread_create(&j->thread, NULL, hw_plan, j) != 0) {
        pthread_mutex_destroy(&j->lock);
        free(j);
        snprintf(a->hw_err, sizeof a->hw_err, "%s", _("cannot start the planning thread"));
        return;
    }
    a->hw_job = j;
}

void results_cleanup(struct app *a)
{
    hw_join(a);
    free(a->hw_table);
    a->hw_table = NULL;
}

/* The tab's columns: the comparison's cells, then the accelerator's name and what its plan
 * runs. Shown in this order; kept in hw_keep's, the columns of least use given up first when the
 * width does not hold them all. */
enum { HW_NAME = COMPARE_CELLS, HW_PRECISION, HW_FRAMEWORK, HW_STRATEGY, HW_COLS };
static const int hw_shown[HW_COLS] = {CC_WHAT, HW_NAME, CC_DEVICES, CC_LAYOUT, CC_MEMORY, CC_TIME,
                                      CC_DEVHOURS, CC_COST, HW_PRECISION, HW_FRAMEWORK, HW_STRATEGY};
static const int hw_keep[HW_COLS] = {CC_WHAT, CC_DEVICES, CC_TIME, CC_COST, CC_MEMORY, CC_DEVHOURS,
                                     CC_LAYOUT, HW_NAME, HW_PRECISION, HW_FRAMEWORK, HW_STRATEGY};

struct hw_cells {
    char c[HW_COLS][sizeof ((struct compare_row *)0)->name];
};

static void hw_cells_of(const struct compare_row *row, struct hw_cells *out)
{
    struct compare_cells cc;
    compare_row_cells(row, 0, &cc);
    for (int c = 0; c < COMPARE_CELLS; c++) snprintf(out->c[c], sizeof out->c[c], "%s", cc.c[c]);
    snprintf(out->c[HW_NAME], sizeof out->c[0], "%s", row->name);
    snprintf(out->c[HW_PRECISION], sizeof out->c[0], "%s", row->precision ? row->precision : "-");
    snprintf(out->c[HW_FRAMEWORK], sizeof out->c[0], "%s", row->framework ? row->framework : "-");
    snprintf(out->c[HW_STRATEGY], sizeof out->c[0], "%s", row->strategy ? row->strategy : "-");
}

/* The rows that run the job as a table `width` columns wide, nothing cut: the header line first.
 * Returns the lines (caller frees), NULL when none runs. */
static char *hw_table_text(const struct compare_table *t, int width)
{
    struct text_column cols[HW_COLS], all[HW_COLS];
    compare_columns(t, 0, all);
    all[HW_NAME] = (struct text_column){_("NAME"), 0, 0};
    all[HW_PRECISION] = (struct text_column){_("PRECISION"), 0, 0};
    all[HW_FRAMEWORK] = (struct text_column){_("FRAMEWORK"), 0, 0};
    all[HW_STRATEGY] = (struct text_column){_("STRATEGY"), 0, 0};
    struct hw_cells *cells = calloc((size_t)t->count + 1, sizeof *cells);
    const char **ptrs = calloc((size_t)(t->count + 1) * HW_COLS, sizeof *ptrs);
    int n = 0, widths[HW_COLS], keep[HW_COLS] = {0}, ncols = 0, total = 0;
    for (int i = 0; cells && ptrs && i < t->count; i++)
        if (t->rows[i].refusal == COMPARE_RUNS) hw_cells_of(&t->rows[i], &cells[n++]);
    for (int c = 0; c < HW_COLS; c++) {
        widths[c] = text_width(all[c].header);
        for (int r = 0; r < n; r++) widths[c] = text_width(cells[r].c[c]) > widths[c] ? text_width(cells[r].c[c]) : widths[c];
    }
    for (int k = 0; k < HW_COLS && total + widths[hw_keep[k]] + (k ? 2 : 0) <= width; k++)
        total += widths[hw_keep[k]] + (k ? 2 : 0), keep[hw_keep[k]] = 1;
    for (int k = 0; k < HW_COLS; k++)
        if (keep[hw_shown[k]]) cols[ncols++] = all[hw_shown[k]];
    for (int r = 0, c = 0; r < n; r++, c = 0)
        for (int k = 0; k < HW_COLS; k++)
            if (keep[hw_shown[k]]) ptrs[r * ncols + c++] = cells[r].c[hw_shown[k]];
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = n ? open_memstream(&buf, &len) : NULL;
    if (mem) {
        int was = text_table_width();
        text_set_table_width(0); /* the columns were chosen to fit: no cell is cut */
        text_table(mem, cols, ncols, ptrs, n, 0);
        text_set_table_width(was);
        fclose(mem);
    }
    free(cells);
    free((void *)ptrs);
    return buf;
}

static void note_into_pane(void *ctx, const char *text) { pane_wrap(ctx, -1, 0, crt_attr(PAIR_DIM), NULL, 0, text); }

static void build_hardware(struct app *a, struct pane *p)
{
    const struct compare_table *t = a->hw_table;
    if (a->hw_job) {
        pane_add(p, -1, 0, crt_attr(PAIR_DIM), _("Planning the job on every accelerator of the catalog; the table follows."));
        return;
    }
    if (a->hw_err[0] || !t) {
        pane_wrap(p, -1, 0, crt_attr(PAIR_BAD) | A_BOLD, _("Cannot compare: "), crt_attr(PAIR_BAD) | A_BOLD,
                  a->hw_err[0] ? a->hw_err : _("out of memory"));
        return;
    }
    char *text = hw_table_text(t, p->width), line[256];
    int row = 0;
    for (char *s = text, *nl = NULL; s && *s; s = nl ? nl + 1 : NULL, row++) {
        if ((nl = strchr(s, '\n'))) *nl = '\0';
        if (row > 0) pane_add(p, -1, 0, row == 1 ? crt_attr(PAIR_GOOD) : A_NORMAL, s); /* the header stays above */
    }
    free(text);
    if (row == 0) pane_add(p, -1, 0, crt_attr(PAIR_BAD) | A_BOLD, _("No accelerator of the catalog runs this job."));
    pane_gap(p);
    compare_notes(t, 0, note_into_pane, p);
    int any = 0;
    for (int i = 0; i < t->count; i++) {
        const struct compare_row *r = &t->rows[i];
        if (r->refusal == COMPARE_RUNS) continue;
        if (!any++) pane_gap(p), pane_add(p, -1, 0, A_BOLD, compare_refused_title(0));
        snprintf(line, sizeof line, "%s: ", compare_row_subject(r, 0));
        pane_wrap(p, -1, 2, A_NORMAL, line, A_BOLD, r->why);
    }
    if (t->truncated) compare_truncated(line, sizeof line), pane_gap(p), pane_add(p, -1, 0, crt_attr(PAIR_DIM), line);
}

/* Above the Hardware pane: the heading and the table's column header, kept in view. */
static int hardware_fixed(struct app *a, int top)
{
    hw_ensure(a);
    if (a->hw_job || a->hw_err[0] || !a->hw_table) return 0;
    char line[512];
    compare_heading(a->hw_table, &a->res_answers, 0, line, sizeof line);
    int n = ui_wrap(top, 1, COLS - 2, 2, line, A_BOLD);
    char *text = hw_table_text(a->hw_table, COLS - 3);
    if (text) {
        text[strcspn(text, "\n")] = '\0';
        ui_text(top + n++, 1, COLS - 3, text, A_BOLD);
    }
    free(text);
    return n;
}

/* Lines above a tab's pane that do not scroll away: the Plan's verdicts, Deploy's runtime, the
 * Hardware table's heading and columns. */
static int fixed_lines(struct app *a, int top)
{
    char line[600];
    const struct adv_result *r = a->res;
    switch (a->tab) {
    case TAB_PLAN: {
        if (r->job == ADV_JOB_SERVE)
            snprintf(line, sizeof line, "%s",
                     r->job_derived ? _("No training plan: serving only (job serve, derived)")
                                    : _("No training plan: serving only (job serve)"));
        else
            snprintf(line, sizeof line, _("Strategy: %s (%s)"), r->strategy_name ? adv_kb_local(a->akb, r->strategy_name) : "-",
                     r->strategy ? r->strategy : "-");
        int n = ui_wrap(top, 1, COLS - 2, 2, line, A_BOLD);
        adv_plan_verdict(r, line, sizeof line);
        return n + ui_wrap(top + n, 1, COLS - 2, 3, line, r->memory.fits || r->memory.device_memory_gb <= 0 ? A_BOLD
                                                                                                              : crt_attr(PAIR_BAD) | A_BOLD) + 1;
    }
    case TAB_DEPLOY:
        snprintf(line, sizeof line, _("Runtime: %s (%s)"), r->runtime_name ? r->runtime_name : "-", r->runtime ? r->runtime : "-");
        return ui_wrap(top, 1, COLS - 2, 2, line, A_BOLD) + 1;
    case TAB_PITFALLS: {
        int ticked = 0;
        for (int i = 0; i < r->npitfalls; i++) ticked += a->ticked[i];
        snprintf(line, sizeof line, _("Checklist (Space ticks): %d of %d ticked"), ticked, r->npitfalls);
        ui_text(top, 1, COLS - 2, line, A_BOLD);
        return 1;
    }
    case TAB_HARDWARE: return hardware_fixed(a, top);
    default: return 0;
    }
}

void results_draw(struct app *a)
{
    ui_title(a, _("results"));
    ui_tabs(a, 1, tab_names, TAB_COUNT, a->tab, '1');
    int top = 3;
    top += fixed_lines(a, top);
    struct pane *p = &a->tab_pane;
    struct viewport *v = &a->tab_vp[a->tab];
    /* from 140 columns the Ranking keeps 90 and the picked framework's reasons take the rest */
    int side = a->tab == TAB_RANKING && COLS >= 140, w = side ? 90 : COLS - 2;
    pane_reset(p, w - 1);
    switch (a->tab) {
    case TAB_RANKING: build_ranking(a, p); break;
    case TAB_WHY: build_why(a, p); break;
    case TAB_COMPARE: build_compare(a, p); break;
    case TAB_PLAN: build_plan(a, p); break;
    case TAB_DEPLOY: build_deploy(a, p); break;
    case TAB_PITFALLS: build_pitfalls(a, p); break;
    case TAB_HARDWARE: build_hardware(a, p); break;
    }
    vp_draw(v, p, top, 1, ui_content_rows(top), w, a->utf8);
    ui_pane(a, v, p);
    ui_searchable(a, v);
    if (side) {
        struct pane *sp = &a->why_side_pane;
        pane_reset(sp, COLS - w - 5);
        build_why(a, sp);
        vp_draw(&a->why_side_vp, sp, top, w + 3, ui_content_rows(top), COLS - w - 4, a->utf8);
        ui_pane(a, &a->why_side_vp, sp);
    }
    ui_footer(a, a->tab == TAB_RANKING    ? _(" 1-7: tabs  Enter: why  e/h/s: save  c: command  Esc: back  ?: help  q: quit")
                 : a->tab == TAB_PITFALLS ? _(" 1-7: tabs  Space: tick  e/h/s: save  c: command  Esc: back  ?: help  q: quit")
                 : a->tab == TAB_PLAN     ? _(" 1-7: tabs  L: launch  e/h/s: save  c: command  Esc: back  ?: help  q: quit")
                                          : _(" 1-7: tabs  PgDn: page  e/h/s: save  c: command  Esc: back  ?: help  q: quit"));
}

void results_key(struct app *a, int ch)
{
    switch (ch) {
    case '\t': a->tab = (a->tab + 1) % TAB_COUNT; return;
    case KEY_BTAB: a->tab = (a->tab + TAB_COUNT - 1) % TAB_COUNT; return;
    case '1': case '2': case '3': case '4': case '5': case '6': case '7': a->tab = ch - '1'; return;
    }
    if (vp_key(&a->tab_vp[a->tab], &a->tab_pane, ch)) {
        if (a->tab == TAB_RANKING) /* another framework's reasons from the start */
            a->tab_vp[TAB_WHY].top = a->why_side_vp.top = 0;
        return;
    }
    switch (ch) {
    case ' ': {
        int i = a->tab_vp[TAB_PITFALLS].cursor;
        if (a->tab == TAB_PITFALLS && i >= 0 && i < a->res->npitfalls) a->ticked[i] ^= 1;
        break;
    }
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        if (a->tab == TAB_RANKING) a->tab = TAB_WHY, a->tab_vp[TAB_WHY].top = 0;
        break;
    case 'e': ui_begin_input(a, _("Export the report (fwadvisor.report/1) to"), "./fwadvisor-report.json", 1, export_done); break;
    case 'h': ui_begin_input(a, _("Write the report as an HTML page to"), "./fwadvisor-report.html", 1, html_done); break;
    case 's': ui_begin_input(a, _("Save the answers (fwadvisor.answers/1) to"), "./fwadvisor-answers.json", 1, answers_done); break;
    case 'L':
        if (a->res->job == ADV_JOB_SERVE) ui_message(a, 1, "%s", _("no launch files: serving only (job serve)"));
        else ui_begin_input(a, _("Write the launch files into the new folder"), "./fwadvisor-launch", 1, launch_done);
        break;
    case 'c': show_command(a); break;
    case KEY_LEFT: case KEY_BACKSPACE: case 127: case 8: case 27:
        if (a->tab == TAB_WHY) a->tab = TAB_RANKING;
        else a->screen = SCR_WIZARD;
        break;
    case 'H': app_home(a); break;
    }
}
