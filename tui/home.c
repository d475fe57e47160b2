/* The home screen (this machine, the way in to everything) and the preset picker. Answers
 * loaded from a file or a preset go straight to the results; Esc there opens the wizard with
 * them, to change one answer at a time. */
#include "common/file.h"
#include "common/i18n.h"
#include "knowledge/presets.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "common/text.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HOME_ADVISOR, HOME_PRESET, HOME_PROBE, HOME_LATEST, HOME_KB, HOME_LOAD, HOME_QUIT, HOME_ITEMS };
static const char *const home_items[HOME_ITEMS] = {
    N_("Start the advisor"), N_("Start from a preset"), N_("Run a probe of this machine"), N_("Open the latest probe run"),
    N_("Browse the knowledge base"), N_("Load answers from a file"), N_("Quit"),
};
#define HOME_CLICK 0x3000 /* a click on entry i: key HOME_CLICK + i */

/* Parses answers and shows their results (the wizard holds them, for Esc). */
static void answers_to_results(struct app *a, const char *text, size_t len, const char *name)
{
    char err[PATH_MAX + 512];
    struct answers loaded;
    answers_init(&loaded);
    if (answers_parse_json(&loaded, text, len, name, err, sizeof err)) {
        ui_message(a, 1, "%s", err);
        return;
    }
    wizard_start(a, &loaded);
    results_compute(a); /* on contradicting answers: the wizard, with the message */
    if (a->screen == SCR_RESULTS) ui_message(a, 0, _("answers from %s; Esc: change them in the wizard"), name);
}

void home_load_answers(struct app *a, const char *path)
{
    unsigned char *buf;
    size_t n;
    char err[PATH_MAX + 512];
    if (file_read_regular(path, (size_t)64 << 20, &buf, &n, err, sizeof err) != FILE_OK) {
        ui_message(a, 1, "%s", err);
        return;
    }
    answers_to_results(a, (const char *)buf, n, path);
    free(buf);
}

void home_draw(struct app *a)
{
    ui_title(a, _("choose a training framework, check it on this machine"));
    int y = 2;
    ui_text(y++, 2, COLS - 4, _("This machine"), A_BOLD);
    y += ui_wrap(y, 4, COLS - 6, 2, a->hw_line, A_NORMAL);
    y += ui_wrap(y, 4, COLS - 6, 2, a->probe_line, A_NORMAL);
    char kbline[160];
    snprintf(kbline, sizeof kbline, _("Knowledge base %s (%s)"), adv_kb_version(a->akb), adv_kb_date(a->akb));
    ui_text(y++, 4, COLS - 6, kbline, crt_attr(PAIR_DIM));
    y++;
    for (int i = 0; i < HOME_ITEMS; i++) {
        char line[96];
        snprintf(line, sizeof line, "%s %s", i == a->home_sel ? ">" : " ", _(home_items[i]));
        ui_text(y + i, 4, 40, line, i == a->home_sel ? crt_attr(PAIR_SELECT) | A_BOLD : A_NORMAL);
        ui_hotspot(a, y + i, 4, 40, HOME_CLICK + i);
    }
    if (a->res) ui_text(y + HOME_ITEMS + 1, 4, COLS - 6, _("r: back to the last results"), crt_attr(PAIR_DIM));
    ui_footer(a, _(" Up/Down: move  Enter: choose  r: results  ?: help  q: quit"));
}

void home_key(struct app *a, int ch)
{
    if (ch >= HOME_CLICK && ch < HOME_CLICK + HOME_ITEMS) {
        a->home_sel = ch - HOME_CLICK;
        ch = '\n';
    }
    switch (ch) {
    case KEY_UP: case 'k': a->home_sel = tui_move(a->home_sel, -1, HOME_ITEMS); break;
    case KEY_DOWN: case 'j': a->home_sel = tui_move(a->home_sel, 1, HOME_ITEMS); break;
    case KEY_HOME: case KEY_PPAGE: a->home_sel = 0; break;
    case KEY_END: case KEY_NPAGE: a->home_sel = HOME_ITEMS - 1; break;
    case 'r':
        if (a->res) a->screen = SCR_RESULTS;
        break;
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        switch (a->home_sel) {
        case HOME_ADVISOR: wizard_start(a, NULL); break;
        case HOME_PRESET: a->screen = SCR_PRESETS; break;
        case HOME_PROBE: probe_view_start(a); break;
        case HOME_LATEST: probe_view_open_stored(a, "latest"); break;
        case HOME_KB: kb_view_open(a); break;
        case HOME_LOAD:
            ui_begin_input(a, _("Answers file (fwadvisor.answers/1 JSON; data/sample-answers.json is one)"), "", 1,
                           home_load_answers);
            break;
        default: /* Quit: asked first where results would be lost */
            app_ask_quit(a);
        }
        break;
    }
}

/* --- the preset picker --------------------------------------------------------------------- */

void presets_draw(struct app *a)
{
    ui_title(a, _("start from a preset: a situation from the seed articles"));
    int top = 2, rows = ui_content_rows(top);
    struct pane *p = &a->preset_pane;
    pane_reset(p, COLS - 3);
    for (size_t i = 0; i < presets_size(); i++) {
        char name[128], desc[256];
        preset_name(i, name, sizeof name);
        preset_description(i, desc, sizeof desc);
        if (!vp_matches(&a->preset_vp, name) && !vp_matches(&a->preset_vp, desc)) continue;
        pane_add(p, (int)i, 0, A_BOLD, name);
        pane_wrap(p, (int)i, 2, A_NORMAL, NULL, 0, desc);
    }
    if (a->preset_vp.cursor < 0) a->preset_vp.cursor = 0;
    vp_draw(&a->preset_vp, p, top, 1, rows, COLS - 2, a->utf8);
    ui_pane(a, &a->preset_vp, p);
    ui_searchable(a, &a->preset_vp);
    ui_footer(a, _(" Up/Down: pick  Enter: results  /: search  Esc: home  ?: help  q: quit"));
}

void presets_key(struct app *a, int ch)
{
    if (vp_key(&a->preset_vp, &a->preset_pane, ch)) return;
    switch (ch) {
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l': {
        int i = a->preset_vp.cursor;
        if (i < 0 || (size_t)i >= presets_size()) break;
        char name[128];
        const char *text = preset_text((size_t)i);
        answers_to_results(a, text, strlen(text), preset_name((size_t)i, name, sizeof name));
        break;
    }
    case 27: case KEY_BACKSPACE: case 127: case 8: case KEY_LEFT: case 'h': app_home(a); break;
    }
}
