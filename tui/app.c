/* The interactive advisor: the main loop, help, the prompt, the mouse, and drawing helpers. */
#include "tui/tui.h"
#include "common/clock.h"
#include "common/i18n.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "common/text.h"
#include "probes/advisor_hw.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- drawing helpers ----------------------------------------------------------------------- */

static int utf8_mode;

void ui_text(int y, int x, int width, const char *s, attr_t attr)
{
    if (width <= 0 || y < 0 || y >= LINES) return;
    char fit[1024], ascii[1024];
    if (!s) s = "";
    if (!utf8_mode) { /* ASCII first, so the cut is measured on what is shown */
        text_ascii(s, ascii, sizeof ascii);
        s = ascii;
    }
    text_fit(s, width, fit, sizeof fit);
    attron(attr);
    mvaddstr(y, x, fit);
    attroff(attr);
}

struct wrap_ctx {
    int y, x, width, max, n;
    attr_t attr;
};

static void wrap_line(void *vctx, const char *start, size_t bytes)
{
    struct wrap_ctx *c = vctx;
    if (c->n < c->max) {
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(bytes < sizeof line - 1 ? bytes : sizeof line - 1), start);
        ui_text(c->y + c->n, c->x, c->width, line, c->attr);
    }
    c->n++;
}

int ui_wrap(int y, int x, int width, int max_lines, const char *s, attr_t attr)
{
    struct wrap_ctx c = {y, x, width, max_lines, 0, attr};
    text_wrap_lines(s ? s : "", width, wrap_line, &c);
    return c.n < max_lines ? c.n : max_lines;
}

void ui_title(struct app *a, const char *title)
{
    (void)a;
    attron(crt_attr(PAIR_TITLE));
    mvhline(0, 0, ' ', COLS);
    attroff(crt_attr(PAIR_TITLE));
    char t[256];
    snprintf(t, sizeof t, " fwadvisor  %s", title);
    ui_text(0, 0, COLS, t, crt_attr(PAIR_TITLE) | A_BOLD);
}

int ui_content_rows(int top) { return LINES - 2 - top > 1 ? LINES - 2 - top : 1; }

void ui_footer(struct app *a, const char *keys)
{
    move(LINES - 1, 0);
    clrtoeol();
    ui_text(LINES - 1, 0, COLS, keys, crt_attr(PAIR_DIM));
    if (a->message[0]) {
        move(LINES - 2, 0);
        clrtoeol();
        ui_text(LINES - 2, 0, COLS, a->message, a->message_bad ? crt_attr(PAIR_BAD) | A_BOLD : crt_attr(PAIR_GOOD));
    }
}

void ui_hotspot(struct app *a, int y, int x, int w, int key)
{
    if (a->nhot < (int)(sizeof a->hot / sizeof a->hot[0])) a->hot[a->nhot++] = (struct hotspot){y, x, w, key};
}

void ui_pane(struct app *a, struct viewport *v, const struct pane *p)
{
    if (a->nmouse < 4) {
        a->mouse_vp[a->nmouse] = v;
        a->mouse_pane[a->nmouse++] = p;
    }
}

void ui_searchable(struct app *a, struct viewport *v) { a->search = v; }

void ui_tabs(struct app *a, int y, const char *const *labels, int n, int active, int base_key)
{
    /* Whole labels when they fit; else the others cut to as many columns as leaves room (whole
     * characters: a Chinese one takes two). */
    int cut = 0, longest = 0, widths[32];
    if (n > 32) n = 32;
    for (int t = 0; t < n; t++) {
        widths[t] = text_width(_(labels[t]));
        longest = widths[t] > longest ? widths[t] : longest;
    }
    for (cut = longest; cut > 2; cut--) {
        int total = 1;
        for (int t = 0; t < n; t++) total += (t == active || widths[t] <= cut ? widths[t] : cut) + 2;
        if (total <= COLS - 1) break;
    }
    int x = 1;
    for (int t = 0; t < n; t++) {
        char label[160], text[128];
        text_pad(text, sizeof text, _(labels[t]), 0, t == active || widths[t] <= cut ? -1 : cut);
        snprintf(label, sizeof label, t == active ? "[%s]" : " %s ", text);
        int w = text_width(label);
        ui_text(y, x, w, label, t == active ? crt_attr(PAIR_SELECT) | A_BOLD : A_NORMAL);
        ui_hotspot(a, y, x, w, base_key + t);
        x += w;
    }
}

void ui_message(struct app *a, int bad, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->message, sizeof a->message, fmt, ap);
    va_end(ap);
    a->message[text_utf8_prefix(a->message)] = '\0'; /* a cut never leaves half a character */
    a->message_bad = bad;
}

/* --- the prompt ---------------------------------------------------------------------------- */

void ui_begin_input(struct app *a, const char *title, const char *initial, int paths,
                    void (*done)(struct app *, const char *))
{
    struct prompt *p = &a->prompt;
    p->open = 1;
    p->footer = 0;
    snprintf(p->title, sizeof p->title, "%s", title);
    le_set(&p->le, initial, paths);
    p->done = done;
}

/* `/`: the footer becomes the search line; the pane filters or marks as the text is typed. */
static void begin_search(struct app *a)
{
    snprintf(a->search_was, sizeof a->search_was, "%s", a->search->query);
    ui_begin_input(a, "/", a->search->query, 0, NULL);
    a->prompt.footer = 1;
}

/* The text shown around the cursor when it is longer than the room; returns the cursor's column. */
static int draw_edit_line(const struct line_edit *e, int y, int x, int room, attr_t attr)
{
    size_t start = 0;
    char before[LINE_EDIT_MAX];
    for (;;) { /* drop whole characters from the front until the cursor fits */
        snprintf(before, sizeof before, "%.*s", (int)(e->cur - start), e->buf + start);
        if (text_width(before) < room - 1 || start >= e->cur) break;
        do start++;
        while (start < e->cur && (e->buf[start] & 0xc0) == 0x80);
    }
    attron(attr);
    mvhline(y, x, ' ', room);
    attroff(attr);
    ui_text(y, x, room, e->buf + start, attr);
    snprintf(before, sizeof before, "%.*s", (int)(e->cur - start), e->buf + start);
    return x + text_width(before);
}

static void draw_prompt(struct app *a)
{
    struct prompt *p = &a->prompt;
    if (p->footer) {
        move(LINES - 1, 0);
        clrtoeol();
        ui_text(LINES - 1, 0, 1, "/", A_BOLD);
        int cx = draw_edit_line(&p->le, LINES - 1, 1, COLS - 40 > 20 ? COLS - 40 : 20, A_NORMAL);
        ui_text(LINES - 1, COLS - 38, 38, _("  Enter: keep   Esc: clear   n/N: matches"), crt_attr(PAIR_DIM));
        move(LINES - 1, cx);
        curs_set(1);
        return;
    }
    int w = COLS - 8, h = 10, y = LINES / 2 - 5, x = 4;
    for (int r = 0; r < h; r++) mvhline(y + r, x, ' ', w);
    crt_box(y, x, h, w);
    int ty = y + 1 + ui_wrap(y + 1, x + 2, w - 4, 2, p->title, A_BOLD);
    int cx = draw_edit_line(&p->le, ty, x + 2, w - 4, crt_attr(PAIR_SELECT));
    ui_wrap(ty + 1, x + 2, w - 4, 2, p->le.note, crt_attr(PAIR_ACCENT));
    ui_wrap(y + h - 3, x + 2, w - 4, 2,
            p->le.paths ? _("Enter: accept  Esc: cancel  Tab: complete  ~: home folder  Ctrl-A/E: start/end  Ctrl-U/K/W: "
                            "delete to the start/end/word  Left/Right: move")
                        : _("Enter: accept  Esc: cancel  Ctrl-A/E: start/end  Ctrl-U/K/W: delete to the start/end/word  "
                            "Left/Right: move"),
            crt_attr(PAIR_DIM));
    move(ty, cx);
    curs_set(1);
}

static void prompt_key(struct app *a, int ch)
{
    struct prompt *p = &a->prompt;
    int r = le_key(&p->le, ch);
    if (p->footer) { /* the search follows the text as it is typed */
        if (r == LE_CANCEL) snprintf(a->search->query, sizeof a->search->query, "%s", a->search_was);
        else snprintf(a->search->query, sizeof a->search->query, "%s", p->le.buf);
        a->search->top = 0;
        if (r == LE_ACCEPT || r == LE_CANCEL) p->open = 0;
        return;
    }
    if (r == LE_CANCEL) p->open = 0;
    if (r != LE_ACCEPT) return;
    p->open = 0;
    char text[LINE_EDIT_MAX + 256];
    if (p->le.paths) le_expand_home(p->le.buf, text, sizeof text);
    else snprintf(text, sizeof text, "%s", p->le.buf);
    if (p->done) p->done(a, text);
}

/* --- hardware shown on the home screen ----------------------------------------------------- */

void app_refresh_hardware(struct app *a)
{
    char err[512];
    if (probe_advisor_hardware(a->k, "latest", NULL, 1, &a->hw, err, sizeof err) != KB_OK) memset(&a->hw, 0, sizeof a->hw);
    if (strcmp(a->hw.kind, "cpu") == 0)
        snprintf(a->hw_line, sizeof a->hw_line, _("CPU: %s (%d cores), %.1f GB memory; no accelerator found"),
                 a->hw.name[0] ? a->hw.name : _("model unknown"), a->hw.cpu_threads, a->hw.host_memory_gb);
    else
        snprintf(a->hw_line, sizeof a->hw_line, "%s: %d x %s", a->hw.kind, a->hw.count > 0 ? a->hw.count : 1,
                 a->hw.name[0] ? a->hw.name : _("(model unknown)"));
    if (strcmp(a->hw.source, "probe") == 0 && a->hw.peak_tflops > 0)
        snprintf(a->probe_line, sizeof a->probe_line, _("Latest probe run: %.60s; %.90s"), a->hw.evidence, a->hw.peak_source);
    else if (strcmp(a->hw.source, "probe") == 0)
        snprintf(a->probe_line, sizeof a->probe_line, _("Latest probe run: %.60s"), a->hw.evidence);
    else
        snprintf(a->probe_line, sizeof a->probe_line, _("No probe run yet (%s): run one to measure this machine"),
                 a->hw.evidence);
}

void app_home(struct app *a)
{
    a->screen = SCR_HOME;
    a->home_sel = 0;
}

void app_ask_quit(struct app *a)
{
    if (probe_view_running(a) || a->screen == SCR_RESULTS || a->screen == SCR_PROBE || a->res) a->confirm_quit = 1;
    else a->quit = 1;
}

/* --- help ---------------------------------------------------------------------------------- */

/* One key a line, so that no line wraps in the 72 columns the box has at 80x24. */
static const char *const help_keys[] = {
    N_("Up/Down, k/j          move"),
    N_("PgUp/PgDn, Home/End   page, first, last"),
    N_("Enter, l              choose, forward"),
    N_("Esc, Backspace, Left  back"),
    N_("Tab, Shift-Tab        next, previous tab"),
    N_("/                     search (n, N: next, previous match)"),
    N_("Space                 tick a choice"),
    N_("mouse                 the wheel scrolls, a click selects"),
    N_("?                     this help"),
    N_("q                     quit (asks on results and probes)"),
};

/* The screens: each one's draw and key functions and what its help adds. */
static const struct screen {
    void (*draw)(struct app *a);
    void (*key)(struct app *a, int ch);
    const char *help;
} screens[] = {
    [SCR_HOME] = {home_draw, home_key,
                 N_("Home: r returns to the last results. Loading answers or a preset goes straight to the results; "
                 "Esc there opens the wizard with those answers.")},
    [SCR_PRESETS] = {presets_draw, presets_key,
                 N_("Presets: Enter gives the results of the situation picked.")},
    [SCR_WIZARD] = {wizard_draw, wizard_key,
                 N_("Wizard: the side panel reranks as you move. Where a question takes a number, type it (K, M, B, T: "
                 "70B). Text prompts edit as readline does (Ctrl-A/E/U/W/K, arrows); Tab completes paths, ~ is home.")},
    [SCR_RESULTS] = {results_draw, results_key,
                 N_("Results: 1-7 pick a tab; e exports the JSON report, h the HTML report; s saves the answers, c shows "
                 "them as a command line, L writes the plan's launch files into a new folder; Space ticks a pitfall; H "
                 "goes home.")},
    [SCR_PROBE] = {probe_view_draw, probe_view_key,
                 N_("Probe: Esc cancels within a second, keeping what finished; b picks the run compared with; h writes "
                 "the HTML page; a opens the advisor.")},
    [SCR_KB] = {kb_view_draw, kb_view_key,
                 N_("Knowledge base: Tab picks the kind, Enter or Right reads the fact, Left returns to the list; g groups "
                 "hardware by framework or by hardware. Shift+drag selects text to copy.")},
};
_Static_assert(sizeof screens / sizeof screens[0] == SCR_COUNT, "a screen without its row");

struct help_lines {
    char lines[40][160];
    int n;
};

static void help_line(void *ctx, const char *start, size_t bytes)
{
    struct help_lines *h = ctx;
    if (h->n < 40) snprintf(h->lines[h->n++], sizeof h->lines[0], "%.*s", (int)bytes, start);
}

/* The box the help and the notes share: the lines centred, the first in bold, "Press any key to
 * close." last where it fits. */
static void box_draw(struct help_lines *h, int w)
{
    if (h->n < LINES - 4 && h->n < 38) {
        h->n++; /* a blank line */
        snprintf(h->lines[h->n++], sizeof h->lines[0], "%s", _("Press any key to close."));
    }
    int rows = h->n + 2 < LINES - 1 ? h->n + 2 : LINES - 1, y = (LINES - rows) / 2, x = (COLS - w) / 2;
    for (int r = 0; r < rows; r++) mvhline(y + r, x, ' ', w);
    crt_box(y, x, rows, w);
    for (int i = 0; i < h->n && i < rows - 2; i++) ui_text(y + 1 + i, x + 2, w - 4, h->lines[i], i == 0 ? A_BOLD : A_NORMAL);
}

static void help_draw(struct app *a)
{
    int w = COLS - 4 < 80 ? COLS - 4 : 80;
    struct help_lines h = {.n = 0};
    snprintf(h.lines[h.n++], sizeof h.lines[0], "%s", _("Keys (every screen)"));
    for (size_t i = 0; i < sizeof help_keys / sizeof help_keys[0]; i++)
        text_wrap_lines(_(help_keys[i]), w - 4, help_line, &h);
    h.n++; /* a blank line */
    text_wrap_lines(_(screens[a->screen].help), w - 4, help_line, &h);
    box_draw(&h, w);
}

void ui_note(struct app *a, const char *title, const char *text, int command)
{
    a->note = 1;
    a->note_command = command;
    snprintf(a->note_title, sizeof a->note_title, "%s", title);
    snprintf(a->note_text, sizeof a->note_text, "%s", text);
}

static void note_draw(struct app *a)
{
    int w = COLS - 4 < 100 ? COLS - 4 : 100;
    struct help_lines h = {.n = 0};
    snprintf(h.lines[h.n++], sizeof h.lines[0], "%s", a->note_title);
    h.n++; /* a blank line */
    int first = h.n;
    /* a command's lines keep room for " \\" */
    text_wrap_lines(a->note_text, w - 4 - (a->note_command ? 2 : 0), help_line, &h);
    for (int i = first; a->note_command && i < h.n - 1; i++) {
        size_t len = strlen(h.lines[i]);
        if (len + 2 < sizeof h.lines[0]) memcpy(h.lines[i] + len, " \\", 3);
    }
    box_draw(&h, w);
}

/* --- the loop ------------------------------------------------------------------------------ */

static double now_ms(void) { return clock_now_s() * 1e3; }

static void draw(struct app *a)
{
    erase();
    curs_set(0);
    a->nhot = a->nmouse = 0;
    a->search = NULL;
    a->too_small = !tui_fits(LINES, COLS);
    if (a->too_small) {
        char msg[160];
        snprintf(msg, sizeof msg, _("terminal too small (need %dx%d, have %dx%d)"), TUI_MIN_COLS, TUI_MIN_ROWS, COLS, LINES);
        ui_text(LINES / 2, 0, COLS, msg, A_BOLD);
        ui_text(LINES / 2 + 1, 0, COLS, _("enlarge the window, or press q to quit"), A_NORMAL);
        refresh();
        return;
    }
    screens[a->screen].draw(a);
    if (a->help) help_draw(a);
    else if (a->note) note_draw(a);
    if (a->confirm_quit) {
        int w = 50, y = LINES / 2 - 2, x = (COLS - w) / 2;
        for (int r = 0; r < 4; r++) mvhline(y + r, x, ' ', w);
        crt_box(y, x, 4, w);
        ui_text(y + 1, x + 2, w - 4, probe_view_running(a) ? _("A probe is running. Quit anyway? (y/n)") : _("Quit fwadvisor? (y/n)"),
                A_BOLD);
    }
    if (a->prompt.open && !a->help && !a->note && !a->confirm_quit) draw_prompt(a); /* last: it places the cursor */
    refresh();
}

static void screen_key(struct app *a, int ch)
{
    screens[a->screen].key(a, ch);
}

/* The wheel scrolls the pane under the pointer; a click acts on a hotspot or selects in a pane. */
static void mouse(struct app *a)
{
    MEVENT ev;
    if (getmouse(&ev) != OK) return;
    int wheel = ev.bstate & BUTTON4_PRESSED ? -1 : ev.bstate & BUTTON5_PRESSED ? 1 : 0;
    int press = (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) != 0;
    if (!wheel && !press) return;
    if (press)
        for (int i = 0; i < a->nhot; i++)
            if (ev.y == a->hot[i].y && ev.x >= a->hot[i].x && ev.x < a->hot[i].x + a->hot[i].w) {
                screen_key(a, a->hot[i].key);
                return;
            }
    for (int i = 0; i < a->nmouse; i++)
        if (vp_mouse(a->mouse_vp[i], a->mouse_pane[i], ev.y, ev.x, wheel, press)) return;
}

static void key(struct app *a, int ch)
{
    if (ch != KEY_RESIZE && ch != ERR && ch != KEY_MOUSE) a->message[0] = '\0';
    if (ch == KEY_RESIZE || ch == ERR) return;
    if (a->confirm_quit) {
        if (ch == 'y' || ch == 'Y') a->quit = 1;
        a->confirm_quit = 0;
        return;
    }
    if (a->help || a->note) {
        a->help = a->note = 0;
        return;
    }
    if (a->prompt.open) {
        if (ch != KEY_MOUSE) prompt_key(a, ch);
        return;
    }
    if (ch == '?') {
        a->help = 1;
        return;
    }
    if (ch == 'q' || ch == 'Q') {
        app_ask_quit(a);
        return;
    }
    if (a->too_small) return;
    if (ch == KEY_MOUSE) {
        mouse(a);
        return;
    }
    if (ch == '/' && a->search) {
        begin_search(a);
        return;
    }
    if (ch == 27 && a->search && a->search->query[0]) { /* Esc clears a search before it goes back */
        a->search->query[0] = '\0';
        return;
    }
    screen_key(a, ch);
}

/* Timing of the first frame and of every key, and how long the Hardware tab's comparison took to
 * plan (on its own thread, not within a key), for make bench (FWADVISOR_TUI_STATS=FILE). */
struct stats {
    double start, first_frame, key_max, key_sum;
    int keys;
};

static void write_stats(const struct stats *s, double hardware_ms)
{
    const char *path = getenv("FWADVISOR_TUI_STATS");
    if (!path || !*path) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "{\"first_frame_ms\": %.3f, \"keys\": %d, \"key_mean_ms\": %.4f, \"key_max_ms\": %.4f, \"hardware_ms\": %.3f}\n",
            s->first_frame, s->keys, s->keys ? s->key_sum / s->keys : 0, s->key_max, hardware_ms);
    fclose(f);
}

static void app_free(struct app *a)
{
    kb_view_free(a);
    pane_free(&a->preset_pane);
    pane_free(&a->wiz_pane);
    pane_free(&a->tab_pane);
    pane_free(&a->why_side_pane);
    pane_free(&a->probe.pane);
    results_cleanup(a);
    free(a->res);
    free(a->preview);
    adv_kb_free(a->akb);
    kb_close(a->k);
    pthread_mutex_destroy(&a->probe.lock);
    free(a);
}

int tui_run(const struct tui_options *opt)
{
    struct stats st = {now_ms(), 0, 0, 0, 0};
    char path[PATH_MAX], err[1024];
    int is_default;
    struct app *a = calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "fwadvisor: %s\n", _("out of memory"));
        return 1;
    }
    pthread_mutex_init(&a->probe.lock, NULL);
    a->team_config = opt->config;
    int status = kb_resolve_path(opt->db, path, sizeof path, &is_default, err, sizeof err);
    if (status == KB_OK) status = kb_open(path, is_default, &a->k, err, sizeof err);
    if (status == KB_OK) status = adv_kb_load(a->k, &a->akb, err, sizeof err);
    if (status != KB_OK) {
        fputs("fwadvisor: ", stderr);
        text_put(stderr, err);
        fputc('\n', stderr);
        app_free(a);
        return status;
    }
    a->preview = calloc(1, sizeof *a->preview);
    a->tab_vp[TAB_RANKING].cursor = a->tab_vp[TAB_PITFALLS].cursor = 0;
    for (int t = 0; t < TAB_COUNT; t++)
        if (t != TAB_RANKING && t != TAB_PITFALLS) a->tab_vp[t].cursor = -1;
    a->probe.vp.cursor = a->kb_detail_vp.cursor = a->why_side_vp.cursor = -1;
    a->kb_fact_row = -1;
    app_refresh_hardware(a);
    if (*kb_notice(a->k)) ui_message(a, 1, "%s", kb_notice(a->k));
    if (crt_init(opt->color) != 0) {
        text_printf(stderr, _("fwadvisor: cannot start the terminal interface (TERM=%s)"), getenv("TERM") ? getenv("TERM") : "");
        fputc('\n', stderr);
        app_free(a);
        return 1;
    }
    utf8_mode = a->utf8 = crt_utf8();
    draw(a);
    st.first_frame = now_ms() - st.start;
    while (!a->quit) {
        /* While a probe runs, and until its finished run has been collected, wake up to redraw:
         * a worker that finishes between two wake-ups must not leave the screen waiting for a
         * key. */
        int pending = a->probe.started && !a->probe.collected;
        int planning = a->hw_job != NULL; /* the Hardware tab's comparison, shown once planned */
        timeout(pending || planning ? 100 : -1);
        int ch = getch();
        double t0 = now_ms();
        if (probe_view_interrupted(a)) break; /* the run is stored: the interface ends */
        if (ch == ERR && !pending && !planning) continue;
        if (ch == ERR) {
            probe_view_poll(a);
            results_poll(a);
            draw(a);
            continue;
        }
        probe_view_poll(a);
        key(a, ch);
        if (a->quit) break;
        draw(a);
        if (ch != KEY_RESIZE) {
            double dt = now_ms() - t0;
            st.keys++;
            st.key_sum += dt;
            if (dt > st.key_max) st.key_max = dt;
        }
    }
    crt_done();
    int signalled = a->probe.signalled;
    for (int i = 0; signalled && i < 2; i++)
        if (a->probe.exit_lines[i][0]) {
            fputs("fwadvisor: ", stderr);
            text_put(stderr, a->probe.exit_lines[i]);
            fputc('\n', stderr);
        }
    probe_view_cleanup(a);
    write_stats(&st, a->hw_ms);
    app_free(a);
    return signalled ? 1 : 0; /* as `fwadvisor probe` after an interrupt */
}
