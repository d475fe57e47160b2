/* The interactive advisor: the main loop, the home screen, help, and drawing helpers. */
#include "tui/tui.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "tui/text.h"
#include "engine/file.h"
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
    const char *out = fit;
    attron(attr);
    mvaddstr(y, x, out);
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

void ui_footer(struct app *a, const char *keys)
{
    int y = LINES - 1;
    move(y, 0);
    clrtoeol();
    if (a->message[0]) {
        ui_text(y, 0, COLS, a->message, a->message_bad ? crt_attr(PAIR_BAD) | A_BOLD : crt_attr(PAIR_GOOD));
        return;
    }
    ui_text(y, 0, COLS, keys, crt_attr(PAIR_DIM));
}

void ui_message(struct app *a, int bad, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->message, sizeof a->message, fmt, ap);
    va_end(ap);
    a->message_bad = bad;
}

void ui_begin_input(struct app *a, const char *title, const char *initial, void (*done)(struct app *, const char *))
{
    a->input = 1;
    snprintf(a->input_title, sizeof a->input_title, "%s", title);
    snprintf(a->input_buf, sizeof a->input_buf, "%s", initial ? initial : "");
    a->input_done = done;
}

static void draw_input(struct app *a)
{
    int w = COLS - 8, h = 5, y = LINES / 2 - 2, x = 4;
    for (int r = 0; r < h; r++) mvhline(y + r, x, ' ', w);
    crt_box(y, x, h, w);
    ui_text(y + 1, x + 2, w - 4, a->input_title, A_BOLD);
    char shown[1100];
    int len = (int)strlen(a->input_buf), room = w - 6;
    snprintf(shown, sizeof shown, "%s_", len > room - 1 ? a->input_buf + (len - room + 1) : a->input_buf);
    ui_text(y + 2, x + 2, w - 4, shown, crt_attr(PAIR_SELECT));
    ui_text(y + 3, x + 2, w - 4, "Enter: accept   Esc: cancel   Backspace: delete", crt_attr(PAIR_DIM));
}

static void input_key(struct app *a, int ch)
{
    size_t len = strlen(a->input_buf);
    if (ch == 27) {
        a->input = 0;
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        a->input = 0;
        char text[1024];
        snprintf(text, sizeof text, "%s", a->input_buf);
        if (a->input_done) a->input_done(a, text);
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (len) a->input_buf[len - 1] = '\0';
    } else if (ch >= 32 && ch < 127 && len + 1 < sizeof a->input_buf) {
        a->input_buf[len] = (char)ch;
        a->input_buf[len + 1] = '\0';
    }
}

/* --- hardware shown on the home screen ----------------------------------------------------- */

void app_refresh_hardware(struct app *a)
{
    char err[512];
    if (probe_advisor_hardware(a->k, "latest", NULL, 1, &a->hw, err, sizeof err) != KB_OK) memset(&a->hw, 0, sizeof a->hw);
    if (strcmp(a->hw.kind, "cpu") == 0)
        snprintf(a->hw_line, sizeof a->hw_line, "CPU: %s (%d cores), %.1f GB memory; no accelerator found",
                 a->hw.name[0] ? a->hw.name : "model unknown", a->hw.cpu_threads, a->hw.host_memory_gb);
    else
        snprintf(a->hw_line, sizeof a->hw_line, "%s: %d x %s", a->hw.kind, a->hw.count > 0 ? a->hw.count : 1,
                 a->hw.name[0] ? a->hw.name : "(model unknown)");
    if (strcmp(a->hw.source, "probe") == 0)
        snprintf(a->probe_line, sizeof a->probe_line, "Latest probe run: %.60s%s%.90s", a->hw.evidence,
                 a->hw.peak_tflops > 0 ? "; " : "", a->hw.peak_tflops > 0 ? a->hw.peak_source : "");
    else
        snprintf(a->probe_line, sizeof a->probe_line, "No probe run yet (%s): run one to measure this machine",
                 a->hw.evidence);
}

/* --- home ---------------------------------------------------------------------------------- */

static const char *const home_items[] = {
    "Start the advisor",        "Run a probe of this machine", "Open the latest probe run",
    "Browse the knowledge base", "Load answers from a file",   "Quit",
};
enum { HOME_ITEMS = 6 };

static void loaded_answers(struct app *a, const char *path)
{
    unsigned char *buf;
    size_t n;
    char err[PATH_MAX + 512];
    if (eng_file_read(path, (size_t)64 << 20, &buf, &n, err, sizeof err) != ENG_FILE_OK) {
        ui_message(a, 1, "%s", err);
        return;
    }
    struct answers loaded;
    answers_init(&loaded);
    int bad = answers_parse_json(&loaded, (const char *)buf, n, path, err, sizeof err);
    free(buf);
    if (bad) {
        ui_message(a, 1, "%s", err);
        return;
    }
    ui_message(a, 0, "answers loaded from %s: check each step, Enter accepts", path);
    wizard_start(a, &loaded);
}

static void home_draw(struct app *a)
{
    ui_title(a, "choose a training framework, check it on this machine");
    int y = 2;
    ui_text(y++, 2, COLS - 4, "This machine", A_BOLD);
    ui_text(y++, 4, COLS - 6, a->hw_line, A_NORMAL);
    ui_text(y++, 4, COLS - 6, a->probe_line, A_NORMAL);
    char kbline[160];
    snprintf(kbline, sizeof kbline, "Knowledge base %s (%s)", adv_kb_version(a->akb), adv_kb_date(a->akb));
    ui_text(y++, 4, COLS - 6, kbline, crt_attr(PAIR_DIM));
    y++;
    for (int i = 0; i < HOME_ITEMS; i++) {
        char line[96];
        snprintf(line, sizeof line, "%s %s", i == a->home_sel ? ">" : " ", home_items[i]);
        ui_text(y + i, 4, 40, line, i == a->home_sel ? crt_attr(PAIR_SELECT) | A_BOLD : A_NORMAL);
    }
    if (a->res) ui_text(y + HOME_ITEMS + 1, 4, COLS - 6, "r: back to the last results", crt_attr(PAIR_DIM));
    ui_footer(a, " Up/Down/j/k: move   Enter: choose   r: results   ?: help   q: quit");
}

static void home_key(struct app *a, int ch)
{
    switch (ch) {
    case KEY_UP: case 'k': a->home_sel = tui_move(a->home_sel, -1, HOME_ITEMS); break;
    case KEY_DOWN: case 'j': a->home_sel = tui_move(a->home_sel, 1, HOME_ITEMS); break;
    case 'r':
        if (a->res) a->screen = SCR_RESULTS;
        break;
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        switch (a->home_sel) {
        case 0: wizard_start(a, NULL); break;
        case 1: probe_view_start(a); break;
        case 2: probe_view_open_stored(a, "latest"); break;
        case 3: kb_view_open(a); break;
        case 4: ui_begin_input(a, "Answers file (fwadvisor.answers/1 JSON)", "", loaded_answers); break;
        default: a->quit = 1;
        }
        break;
    }
}

/* --- help ---------------------------------------------------------------------------------- */

static void help_draw(struct app *a)
{
    static const char *const lines[] = {
        "Keys (every screen)",
        "  Up/Down, k/j      move          Left/Right, h/l   back / forward (h: see below)",
        "  Enter             choose        Space             toggle a choice or a tick",
        "  Tab, Shift-Tab    next tab      Backspace, Esc    back",
        "  ?                 this help     q                 quit (asks while a probe runs)",
        "",
        "Wizard: the side panel reranks the frameworks as you move between choices.",
        "Results: 1-6 pick a tab; e exports the JSON report, h the HTML report;",
        "  on Pitfalls, Space ticks.",
        "Probe: Esc cancels; what finished is kept, marked interrupted; h: HTML.",
        "Knowledge base: Tab switches tables; Up/Down picks a fact.",
        "",
        "Press any key to close.",
    };
    int n = (int)(sizeof lines / sizeof lines[0]);
    int w = 76, h = n + 2, y = (LINES - h) / 2, x = (COLS - w) / 2;
    for (int r = 0; r < h; r++) mvhline(y + r, x, ' ', w);
    crt_box(y, x, h, w);
    for (int i = 0; i < n; i++) ui_text(y + 1 + i, x + 2, w - 4, lines[i], i == 0 ? A_BOLD : A_NORMAL);
    (void)a;
}

/* --- the loop ------------------------------------------------------------------------------ */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void draw(struct app *a)
{
    erase();
    a->too_small = !tui_fits(LINES, COLS);
    if (a->too_small) {
        char msg[96];
        snprintf(msg, sizeof msg, "terminal too small (need %dx%d, have %dx%d)", TUI_MIN_COLS, TUI_MIN_ROWS, COLS, LINES);
        ui_text(LINES / 2, 0, COLS, msg, A_BOLD);
        ui_text(LINES / 2 + 1, 0, COLS, "enlarge the window, or press q to quit", A_NORMAL);
        refresh();
        return;
    }
    switch (a->screen) {
    case SCR_HOME: home_draw(a); break;
    case SCR_WIZARD: wizard_draw(a); break;
    case SCR_RESULTS: results_draw(a); break;
    case SCR_PROBE: probe_view_draw(a); break;
    case SCR_KB: kb_view_draw(a); break;
    }
    if (a->input) draw_input(a);
    if (a->help) help_draw(a);
    if (a->confirm_quit) {
        int w = 50, y = LINES / 2 - 2, x = (COLS - w) / 2;
        for (int r = 0; r < 4; r++) mvhline(y + r, x, ' ', w);
        crt_box(y, x, 4, w);
        ui_text(y + 1, x + 2, w - 4, "A probe is running. Quit anyway? (y/n)", A_BOLD);
    }
    refresh();
}

static void key(struct app *a, int ch)
{
    if (ch != KEY_RESIZE && ch != ERR) a->message[0] = '\0';
    if (ch == KEY_RESIZE || ch == ERR) return;
    if (a->confirm_quit) {
        if (ch == 'y' || ch == 'Y') a->quit = 1;
        a->confirm_quit = 0;
        return;
    }
    if (a->help) {
        a->help = 0;
        return;
    }
    if (a->input) {
        input_key(a, ch);
        return;
    }
    if (ch == '?') {
        a->help = 1;
        return;
    }
    if (ch == 'q' || ch == 'Q') {
        if (probe_view_running(a)) a->confirm_quit = 1;
        else a->quit = 1;
        return;
    }
    if (a->too_small) return;
    switch (a->screen) {
    case SCR_HOME: home_key(a, ch); break;
    case SCR_WIZARD: wizard_key(a, ch); break;
    case SCR_RESULTS: results_key(a, ch); break;
    case SCR_PROBE: probe_view_key(a, ch); break;
    case SCR_KB: kb_view_key(a, ch); break;
    }
}

/* Timing of the first frame and of every key, for make bench (FWADVISOR_TUI_STATS=FILE). */
struct stats {
    double start, first_frame, key_max, key_sum;
    int keys;
};

static void write_stats(const struct stats *s)
{
    const char *path = getenv("FWADVISOR_TUI_STATS");
    if (!path || !*path) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "{\"first_frame_ms\": %.3f, \"keys\": %d, \"key_mean_ms\": %.4f, \"key_max_ms\": %.4f}\n", s->first_frame,
            s->keys, s->keys ? s->key_sum / s->keys : 0, s->key_max);
    fclose(f);
}

int tui_run(const struct tui_options *opt)
{
    struct stats st = {now_ms(), 0, 0, 0, 0};
    char path[PATH_MAX], err[1024];
    int is_default;
    struct app *a = calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "fwadvisor: out of memory\n");
        return 1;
    }
    int status = kb_resolve_path(opt->db, path, sizeof path, &is_default, err, sizeof err);
    if (status == KB_OK) status = kb_open(path, is_default, &a->k, err, sizeof err);
    if (status == KB_OK) status = adv_kb_load(a->k, &a->akb, err, sizeof err);
    if (status != KB_OK) {
        fputs("fwadvisor: ", stderr);
        text_put(stderr, err);
        fputc('\n', stderr);
        kb_close(a->k);
        free(a);
        return status;
    }
    a->preview = calloc(1, sizeof *a->preview);
    pthread_mutex_init(&a->probe.lock, NULL);
    app_refresh_hardware(a);
    if (crt_init(opt->color) != 0) {
        text_printf(stderr, "fwadvisor: cannot start the terminal interface (TERM=%s)", getenv("TERM") ? getenv("TERM") : "");
        fputc('\n', stderr);
        adv_kb_free(a->akb);
        kb_close(a->k);
        free(a->preview);
        free(a);
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
        timeout(pending ? 100 : -1);
        int ch = getch();
        double t0 = now_ms();
        if (ch == ERR && !pending) continue;
        if (ch == ERR) {
            probe_view_poll(a);
            draw(a);
            continue;
        }
        probe_view_poll(a);
        key(a, ch);
        if (a->quit) break;
        draw(a);
        if (ch != ERR && ch != KEY_RESIZE) {
            double dt = now_ms() - t0;
            st.keys++;
            st.key_sum += dt;
            if (dt > st.key_max) st.key_max = dt;
        }
    }
    crt_done();
    probe_view_cleanup(a);
    write_stats(&st);
    cJSON_Delete(a->kb_rows);
    free(a->res);
    free(a->preview);
    adv_kb_free(a->akb);
    kb_close(a->k);
    pthread_mutex_destroy(&a->probe.lock);
    free(a);
    return 0;
}
