/* Results in tabs: Ranking, Why, Compare, Plan, Deploy, Pitfalls; and the report's export. */
#include "engine/file.h"
#include "knowledge/report_html.h"
#include "probes/advisor_hw.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "tui/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const tab_names[TAB_COUNT] = {"1 Ranking", "2 Why", "3 Compare", "4 Plan", "5 Deploy", "6 Pitfalls"};

void results_compute(struct app *a)
{
    if (!a->res) a->res = calloc(1, sizeof *a->res);
    if (!a->res) return;
    struct answers ans;
    wizard_build(a, &ans, -1, 0);
    char err[256];
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
    a->screen = SCR_RESULTS;
    a->tab = TAB_RANKING;
    a->rank_sel = a->scroll = a->pit_sel = 0;
    memset(a->ticked, 0, sizeof a->ticked);
}

void results_save(struct app *a, const char *path, const char *data, size_t len, const char *what)
{
    char err[512];
    if (eng_file_write(path, &(struct eng_chunk){data, len}, 1, err, sizeof err) != ENG_FILE_OK) ui_message(a, 1, "%s", err);
    else ui_message(a, 0, "%s written to %s", what, path);
}

/* The report document of the results shown (fwadvisor.report/1), stamped now. */
static cJSON *report_now(struct app *a)
{
    char now[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return adv_report_json(a->akb, a->res, now);
}

static void export_done(struct app *a, const char *path)
{
    cJSON *doc = report_now(a);
    char *text = doc ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    if (!text) {
        ui_message(a, 1, "out of memory");
        return;
    }
    size_t len = strlen(text);
    text[len] = '\n';
    results_save(a, path, text, len + 1, "report");
    free(text);
}

/* The same document as a page (what recommend --html writes). */
static void html_done(struct app *a, const char *path)
{
    cJSON *doc = report_now(a);
    struct html page = {0};
    if (!doc || adv_report_html(doc, &page) != 0) ui_message(a, 1, "out of memory");
    else results_save(a, path, page.data, page.len, "HTML report");
    html_free(&page);
    cJSON_Delete(doc);
}

static void draw_tabs(struct app *a)
{
    int x = 1;
    for (int t = 0; t < TAB_COUNT; t++) {
        char label[32];
        snprintf(label, sizeof label, t == a->tab ? "[%s]" : " %s ", tab_names[t]);
        ui_text(1, x, (int)strlen(label), label, t == a->tab ? crt_attr(PAIR_SELECT) | A_BOLD : A_NORMAL);
        x += (int)strlen(label) + 1;
    }
}

static void draw_ranking(struct app *a, int top, int rows)
{
    const struct adv_ranking *rk = &a->res->ranking;
    int barw = COLS - 30;
    for (int i = 0; i < rk->count && i < rows / 2; i++) {
        const struct adv_framework *f = &rk->items[i];
        int y = top + 2 * i;
        char line[128], bar[512];
        attr_t sel = i == a->rank_sel ? crt_attr(PAIR_SELECT) | A_BOLD : A_NORMAL;
        if (f->excluded) {
            snprintf(line, sizeof line, "%s %-12s excluded", i == a->rank_sel ? ">" : " ", f->name);
            ui_text(y, 1, 26, line, sel | crt_attr(PAIR_DIM));
            char reason[600];
            adv_reason_text(&f->reasons[0], reason, sizeof reason);
            ui_text(y, 28, COLS - 29, reason, crt_attr(PAIR_DIM));
            continue;
        }
        snprintf(line, sizeof line, "%s %-12s %5.1f", i == a->rank_sel ? ">" : " ", f->name, f->score_tenths / 10.0);
        ui_text(y, 1, 26, line, sel);
        tui_bar(bar, sizeof bar, f->score_tenths / 1000.0, barw, a->utf8);
        ui_text(y, 28, barw, bar, i == 0 ? crt_attr(PAIR_GOOD) : A_NORMAL);
    }
}

static int draw_reasons(struct app *a, const struct adv_reason *r, int n, int top, int rows, int with_delta)
{
    int y = top, skipped = 0;
    for (int i = 0; i < n && y < top + rows; i++) {
        char text[1200], line[1600], cite[256];
        adv_reason_text(&r[i], text, sizeof text);
        adv_cite(r[i].source, r[i].also, cite, sizeof cite);
        if (cite[0]) snprintf(line, sizeof line, "%s [%s]", text, cite);
        else snprintf(line, sizeof line, "%s", text);
        if (skipped < a->scroll) {
            skipped++;
            continue;
        }
        if (with_delta) {
            char d[16];
            snprintf(d, sizeof d, "%+6.1f", r[i].delta_tenths / 10.0);
            ui_text(y, 1, 7, d, r[i].delta_tenths < 0 ? crt_attr(PAIR_BAD) : crt_attr(PAIR_GOOD));
        }
        y += ui_wrap(y, with_delta ? 9 : 2, COLS - (with_delta ? 10 : 3), top + rows - y, line, A_NORMAL);
    }
    return y;
}

static void draw_why(struct app *a, int top, int rows)
{
    const struct adv_framework *f = &a->res->ranking.items[a->rank_sel];
    char head[160];
    snprintf(head, sizeof head, "%s: %.1f points from %d reasons (Up/Down scroll; pick another on Ranking)", f->name,
             f->score_tenths / 10.0, f->nreasons);
    ui_text(top, 1, COLS - 2, head, A_BOLD);
    draw_reasons(a, f->reasons, f->nreasons, top + 1, rows - 1, 1);
}

static void draw_compare(struct app *a, int top, int rows)
{
    int nf = adv_kb_framework_count(a->akb), nc = adv_kb_criterion_count(a->akb);
    int namew = COLS - 2 - nf * 6;
    if (namew > 30) namew = 30;
    ui_text(top, 1, namew, "criterion (score 0-10)", A_BOLD);
    for (int f = 0; f < nf; f++) {
        char head[8];
        snprintf(head, sizeof head, "%.5s", adv_kb_framework_name(a->akb, f));
        ui_text(top, 2 + namew + f * 6, 5, head, A_BOLD);
    }
    for (int c = 0; c < nc && c + 1 < rows; c++) {
        ui_text(top + 1 + c, 1, namew, adv_kb_criterion_name(a->akb, c), A_NORMAL);
        for (int f = 0; f < nf; f++) {
            int s = adv_kb_score(a->akb, f, c);
            char cell[16];
            snprintf(cell, sizeof cell, s < 0 ? "   -" : "%4d", s);
            ui_text(top + 1 + c, 2 + namew + f * 6, 5, cell, s >= 8 ? crt_attr(PAIR_GOOD) | A_BOLD : A_NORMAL);
        }
    }
    ui_text(top + 1 + nc + 1, 1, COLS - 2, "From the knowledge base (fwadvisor kb show FRAMEWORK has every note and source).",
            crt_attr(PAIR_DIM));
}

struct plan_lines {
    struct app *a;
    int y, bottom, skipped;
};

/* One labelled line of the plan, wrapped, after the lines scrolled past. */
static void plan_line(void *ctx, const char *label, const char *text)
{
    struct plan_lines *p = ctx;
    if (p->skipped < p->a->scroll) {
        p->skipped++;
        return;
    }
    if (p->y >= p->bottom) return;
    char line[1200];
    snprintf(line, sizeof line, "%s: %s", label, text);
    int warn = strcmp(label, "Warning") == 0 || strcmp(label, "Nothing fits") == 0;
    p->y += ui_wrap(p->y, 1, COLS - 2, p->bottom - p->y, line,
                    warn ? crt_attr(PAIR_BAD) | A_BOLD : strcmp(label, "Assumed") == 0 ? crt_attr(PAIR_DIM) : A_NORMAL);
}

static void draw_plan(struct app *a, int top, int rows)
{
    const struct adv_result *r = a->res;
    char line[512], bar[512];
    int y = top;
    snprintf(line, sizeof line, "Strategy: %s (%s)", r->strategy_name ? r->strategy_name : "-", r->strategy ? r->strategy : "-");
    ui_text(y++, 1, COLS - 2, line, A_BOLD);
    size_t used = (size_t)snprintf(line, sizeof line, "Alternatives:");
    for (int i = 0; i < r->nalternatives; i++) used += (size_t)snprintf(line + used, sizeof line - used, " %s", r->alternatives[i]);
    ui_text(y++, 1, COLS - 2, r->nalternatives ? line : "Alternatives: none", A_NORMAL);
    const struct adv_memory *m = &r->memory;
    double usable = m->usable_gb > 0 ? m->usable_gb : m->device_memory_gb;
    if (usable > 0) {
        tui_bar_parts(bar, sizeof bar, (const double[]){m->model_states_gb / usable, m->activations_gb / usable, m->buffers_gb / usable},
                      3, COLS - 4, a->utf8);
        ui_text(y++, 2, COLS - 4, bar, m->fits ? A_NORMAL : crt_attr(PAIR_BAD));
        ui_text(y++, 2, COLS - 4,
                a->utf8 ? "\u2588 model states  \u2592 activations  \u2591 buffers  \u00b7 headroom (Up/Down scroll)"
                        : "# model states  + activations  = buffers  . headroom (Up/Down scroll)",
                crt_attr(PAIR_DIM));
    }
    struct plan_lines p = {a, y, top + rows, 0};
    adv_plan_text(a->akb, r, plan_line, &p);
    snprintf(line, sizeof line, "%s%s%s", r->scaling_source, r->scaling_seed_short[0] ? "; " : "", r->scaling_seed_short);
    plan_line(&p, "Scaling", line);
    /* The strategy's reasons follow; scrolling continues into them past the plan's lines. */
    int scroll = a->scroll;
    a->scroll = scroll - p.skipped;
    if (p.y < top + rows) draw_reasons(a, r->strategy_reasons, r->nstrategy_reasons, p.y + 1, top + rows - p.y - 1, 0);
    a->scroll = scroll;
}

static void draw_deploy(struct app *a, int top, int rows)
{
    char line[256];
    snprintf(line, sizeof line, "Runtime: %s (%s)", a->res->runtime_name ? a->res->runtime_name : "-", a->res->runtime ? a->res->runtime : "-");
    ui_text(top, 1, COLS - 2, line, A_BOLD);
    ui_text(top + 1, 1, COLS - 2, a->res->deploy_hardware_note, A_NORMAL);
    /* The inference plan's lines (the command line's), then the reasons; Up/Down scroll both. */
    struct plan_lines p = {a, top + 3, top + rows, 0};
    adv_inference_text(a->akb, a->res, plan_line, &p);
    int scroll = a->scroll;
    a->scroll = scroll - p.skipped;
    int y = p.y + (p.y > top + 3); /* a blank line after the serving lines */
    if (y < top + rows) draw_reasons(a, a->res->runtime_reasons, a->res->nruntime_reasons, y, top + rows - y, 0);
    a->scroll = scroll;
}

static void draw_pitfalls(struct app *a, int top, int rows)
{
    int y = top;
    ui_text(y++, 1, COLS - 2, "Checklist (Space ticks):", A_BOLD);
    for (int i = 0; i < a->res->npitfalls && y < top + rows; i++) {
        char line[1500], cite[256];
        adv_cite(a->res->pitfalls[i].source, a->res->pitfalls[i].also, cite, sizeof cite);
        snprintf(line, sizeof line, "%s %s [%s]", a->ticked[i] ? "[x]" : "[ ]", a->res->pitfalls[i].text, cite);
        y += ui_wrap(y, 1, COLS - 2, top + rows - y, line, i == a->pit_sel ? crt_attr(PAIR_SELECT) : A_NORMAL);
    }
}

void results_draw(struct app *a)
{
    ui_title(a, "results");
    draw_tabs(a);
    int top = 3, rows = LINES - 4;
    switch (a->tab) {
    case TAB_RANKING: draw_ranking(a, top, rows); break;
    case TAB_WHY: draw_why(a, top, rows); break;
    case TAB_COMPARE: draw_compare(a, top, rows); break;
    case TAB_PLAN: draw_plan(a, top, rows); break;
    case TAB_DEPLOY: draw_deploy(a, top, rows); break;
    case TAB_PITFALLS: draw_pitfalls(a, top, rows); break;
    }
    ui_footer(a, " Tab/1-6: tabs  Enter: why  e: JSON  h: HTML  Esc: wizard  ?: help  q: quit");
}

void results_key(struct app *a, int ch)
{
    switch (ch) {
    case '\t': a->tab = (a->tab + 1) % TAB_COUNT, a->scroll = 0; break;
    case KEY_BTAB: a->tab = (a->tab + TAB_COUNT - 1) % TAB_COUNT, a->scroll = 0; break;
    case '1': case '2': case '3': case '4': case '5': case '6': a->tab = ch - '1', a->scroll = 0; break;
    case KEY_UP: case 'k':
        if (a->tab == TAB_RANKING) a->rank_sel = tui_move(a->rank_sel, -1, a->res->ranking.count);
        else if (a->tab == TAB_PITFALLS) a->pit_sel = tui_move(a->pit_sel, -1, a->res->npitfalls > 0 ? a->res->npitfalls : 1);
        else if (a->scroll > 0) a->scroll--;
        break;
    case KEY_DOWN: case 'j':
        if (a->tab == TAB_RANKING) a->rank_sel = tui_move(a->rank_sel, 1, a->res->ranking.count);
        else if (a->tab == TAB_PITFALLS) a->pit_sel = tui_move(a->pit_sel, 1, a->res->npitfalls > 0 ? a->res->npitfalls : 1);
        else a->scroll++;
        break;
    case ' ':
        if (a->tab == TAB_PITFALLS && a->pit_sel < a->res->npitfalls) a->ticked[a->pit_sel] ^= 1;
        break;
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        if (a->tab == TAB_RANKING) a->tab = TAB_WHY, a->scroll = 0;
        break;
    case 'e': ui_begin_input(a, "Export the report (fwadvisor.report/1) to", "./fwadvisor-report.json", export_done); break;
    case 'h': ui_begin_input(a, "Write the report as an HTML page to", "./fwadvisor-report.html", html_done); break;
    case KEY_LEFT: case KEY_BACKSPACE: case 127: case 8: case 27:
        if (a->tab == TAB_WHY) a->tab = TAB_RANKING;
        else a->screen = SCR_WIZARD;
        break;
    }
}
