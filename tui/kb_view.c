/* The knowledge-base browser: every kind of fact (frameworks, criteria, hardware support,
 * distributed strategies, deployment runtimes, accelerators, rules, sources) in a list, the fact
 * picked in full beside it, as `fwadvisor kb show` words it (knowledge/kb_text.h): a framework's
 * scores with their notes, sources with whole addresses. Hardware support is grouped by framework
 * or by hardware (g). Both panes scroll and search. */
#include "knowledge/kb_text.h"
#include "common/i18n.h"
#include "common/json_doc.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "common/text.h"

#include <stdio.h>
#include <string.h>

#define KB_KINDS kb_list_kind_count
static int is_hardware(const struct app *a) { return kb_list_kind_rows[a->kb_tab].matrix; }

static void forget_fact(struct app *a)
{
    cJSON_Delete(a->kb_fact);
    a->kb_fact = NULL;
    a->kb_fact_row = -1;
    a->kb_detail_vp.top = 0;
}

static void load(struct app *a)
{
    char err[256];
    cJSON_Delete(a->kb_rows);
    a->kb_rows = NULL;
    forget_fact(a);
    if (kb_list(a->k, kb_list_kind_rows[a->kb_tab].name, &a->kb_rows, err, sizeof err) != KB_OK) ui_message(a, 1, "%s", err);
    a->kb_list_vp = (struct viewport){.cursor = 0};
    a->kb_detail_vp = (struct viewport){.cursor = -1};
    a->kb_focus = 0;
}

void kb_view_open(struct app *a)
{
    a->screen = SCR_KB;
    load(a);
}

void kb_view_free(struct app *a)
{
    cJSON_Delete(a->kb_rows);
    a->kb_rows = NULL;
    forget_fact(a);
    pane_free(&a->kb_list_pane);
    pane_free(&a->kb_detail_pane);
}

/* --- the list ------------------------------------------------------------------------------ */

/* What a row is called in the list (shown) and what a search looks at (find): the id and the
 * name, or the id alone where both would not fit the list's width (the name is the fact's title
 * beside it, and the search still finds it). */
static void row_label(const cJSON *row, int width, char *shown, char *find, size_t n)
{
    const char *name = *json_str(row, "name") ? kb_text_field(row, "name") : kb_text_field(row, "title");
    if (*json_str(row, "id")) snprintf(find, n, "%s%s%s", json_str(row, "id"), *name ? "  " : "", name);
    else snprintf(find, n, "%s/%s %s", json_str(row, "framework"), json_str(row, "hardware"), json_str(row, "level"));
    if (*json_str(row, "id") && text_width(find) > width) snprintf(shown, n, "%s", json_str(row, "id"));
    else snprintf(shown, n, "%s", find);
}

/* Hardware support under a heading per framework, or per hardware platform. */
static void build_grouped(struct app *a, struct pane *p)
{
    const char *group = a->kb_by_hardware ? "hardware" : "framework", *other = a->kb_by_hardware ? "framework" : "hardware";
    const cJSON *row;
    cJSON_ArrayForEach(row, a->kb_rows) {
        const char *g = json_str(row, group);
        int first = 1; /* the group's first row: its heading goes here */
        for (const cJSON *before = a->kb_rows->child; before != row && first; before = before->next)
            first = strcmp(json_str(before, group), g) != 0;
        if (!first) continue;
        int heading = 0, i = 0;
        const cJSON *r;
        cJSON_ArrayForEach(r, a->kb_rows) {
            char label[160];
            snprintf(label, sizeof label, "%-*s %s", a->kb_by_hardware ? 12 : 7, json_str(r, other),
                     kb_level_short(json_str(r, "level")));
            if (strcmp(json_str(r, group), g) == 0 && (vp_matches(&a->kb_list_vp, label) || vp_matches(&a->kb_list_vp, g))) {
                if (!heading++) pane_add(p, -1, 0, A_BOLD | A_UNDERLINE, g);
                pane_add(p, i, 2, A_NORMAL, label);
            }
            i++;
        }
    }
}

static void build_list(struct app *a, struct pane *p)
{
    if (is_hardware(a)) {
        build_grouped(a, p);
        return;
    }
    int i = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, a->kb_rows) {
        char label[256], find[256];
        row_label(row, p->width, label, find, sizeof label);
        if (vp_matches(&a->kb_list_vp, find)) pane_add(p, i, 0, A_NORMAL, label);
        i++;
    }
}

/* --- the fact ------------------------------------------------------------------------------ */

static void detail_line(void *ctx, const struct kb_text_line *l)
{
    struct pane *p = ctx;
    char text[2600];
    switch (l->kind) {
    case KB_TEXT_TITLE:
        snprintf(text, sizeof text, "%s%s", l->label ? l->label : "", l->text);
        pane_wrap(p, -1, 0, A_BOLD, NULL, 0, text);
        break;
    case KB_TEXT_PARA: pane_wrap(p, -1, 0, A_NORMAL, NULL, 0, l->text); break;
    case KB_TEXT_HEADING:
        pane_gap(p);
        pane_add(p, -1, 0, A_BOLD, l->text);
        break;
    case KB_TEXT_ITEM:
    case KB_TEXT_FIELD:
    case KB_TEXT_SOURCE: {
        /* The label's runs of spaces closed up ("debugging 6"); beside the text where there is
         * room, above it where there is not. */
        char label[96];
        size_t n = 0;
        for (const char *c = l->label; *c && n + 1 < sizeof label; c++)
            if (*c != ' ' || (n && label[n - 1] != ' ')) label[n++] = *c;
        label[n] = '\0';
        /* a column's name (an accelerator's memory_gb) as words with its unit: Memory (GB) */
        if (l->kind == KB_TEXT_FIELD) {
            char words[96];
            text_key_words(label, words, sizeof words);
            snprintf(label, sizeof label, "%s", words);
        }
        int w = 0;
        if (p->width >= l->label_width + 24) {
            w = l->label_width;
            char padded[256];
            snprintf(text, sizeof text, "%s ", text_pad(padded, sizeof padded, label, w, -1));
            pane_wrap(p, -1, 0, A_NORMAL, text, A_BOLD, l->text);
            w++;
        } else {
            pane_add(p, -1, 0, A_BOLD, label);
            pane_wrap(p, -1, w = 2, A_NORMAL, NULL, 0, l->text);
        }
        /* An address on lines of its own, whole (wrapped, never cut), so that it can be copied. */
        if (l->url && *l->url) pane_wrap(p, -1, w, crt_attr(PAIR_ACCENT), NULL, 0, l->url);
        break;
    }
    }
}

/* A hardware-support row has no id of its own: worded as in the framework's fact. */
static void row_fields(const cJSON *row, struct pane *p)
{
    char title[256], label[64], text[2048];
    snprintf(title, sizeof title, _("%s on %s: %s"), json_str(row, "framework"), json_str(row, "hardware"), json_str(row, "level"));
    pane_wrap(p, -1, 0, A_BOLD, NULL, 0, title);
    snprintf(label, sizeof label, "%-7s %s", json_str(row, "hardware"), json_str(row, "level"));
    kb_support_text(row, text, sizeof text);
    struct kb_text_line l = {KB_TEXT_ITEM, label, 20, text, NULL};
    detail_line(p, &l);
    pane_gap(p);
    snprintf(text, sizeof text, _("All of %s: Tab to frameworks, or fwadvisor kb show %s."), json_str(row, "framework"),
             json_str(row, "framework"));
    pane_wrap(p, -1, 0, crt_attr(PAIR_DIM), NULL, 0, text);
}

static void build_detail(struct app *a, struct pane *p)
{
    int sel = a->kb_list_vp.cursor;
    const cJSON *row = pane_has_item(&a->kb_list_pane, sel) ? cJSON_GetArrayItem(a->kb_rows, sel) : NULL;
    if (!row) {
        pane_add(p, -1, 0, crt_attr(PAIR_DIM), _("Nothing matches the search (Esc clears it)."));
        return;
    }
    if (!*json_str(row, "id")) {
        row_fields(row, p);
        return;
    }
    if (a->kb_fact_row != sel) { /* read once per fact picked, not once per frame */
        char err[256];
        forget_fact(a);
        if (kb_show(a->k, json_str(row, "id"), &a->kb_fact, err, sizeof err) != KB_OK) ui_message(a, 1, "%s", err);
        a->kb_fact_row = sel;
    }
    if (a->kb_fact) kb_fact_text(a->kb_fact, detail_line, p);
}

void kb_view_draw(struct app *a)
{
    ui_title(a, _("knowledge base"));
    const char *tabs[16];
    for (int i = 0; i < KB_KINDS && i < 16; i++) tabs[i] = kb_list_kind_rows[i].tab;
    ui_tabs(a, 1, tabs, KB_KINDS < 16 ? KB_KINDS : 16, a->kb_tab, '1');
    int top = 3, rows = ui_content_rows(top);
    int listw = COLS / 3 < 26 ? 26 : COLS / 3 > 44 ? 44 : COLS / 3, dx = listw + 2, dw = COLS - dx - 1;
    struct pane *lp = &a->kb_list_pane, *dp = &a->kb_detail_pane;
    pane_reset(lp, listw - 1);
    build_list(a, lp);
    vp_draw(&a->kb_list_vp, lp, top, 1, rows, listw, a->utf8); /* settles the cursor the detail shows */
    pane_reset(dp, dw - 1);
    build_detail(a, dp);
    vp_draw(&a->kb_detail_vp, dp, top, dx, rows, dw, a->utf8);
    if (a->kb_focus) ui_text(2, dx, dw, _("(reading: Up/Down scroll, Left returns to the list)"), crt_attr(PAIR_DIM));
    else if (is_hardware(a)) {
        char line[400];
        snprintf(line, sizeof line, "%s  %s", a->kb_by_hardware ? _("by hardware (g: by framework)") : _("by framework (g: by hardware)"),
                 kb_level_legend);
        ui_text(2, 1, COLS - 2, line, crt_attr(PAIR_DIM));
    }
    ui_pane(a, &a->kb_list_vp, lp);
    ui_pane(a, &a->kb_detail_vp, dp);
    ui_searchable(a, a->kb_focus ? &a->kb_detail_vp : &a->kb_list_vp);
    ui_footer(a, a->kb_focus ? _(" PgUp/PgDn: scroll  /: find  Left/Esc: the list  Tab: kind  ?: help  q: quit")
                             : _(" Tab: kind  Enter: read  /: find  g: group  Esc: home  ?: help  q: quit"));
}

void kb_view_key(struct app *a, int ch)
{
    if (ch >= '1' && ch < '1' + KB_KINDS) {
        a->kb_tab = ch - '1';
        load(a);
        return;
    }
    switch (ch) {
    case '\t': a->kb_tab = (a->kb_tab + 1) % KB_KINDS, load(a); return;
    case KEY_BTAB: a->kb_tab = (a->kb_tab + KB_KINDS - 1) % KB_KINDS, load(a); return;
    case 'g':
        if (is_hardware(a) && !a->kb_focus) {
            a->kb_by_hardware = !a->kb_by_hardware;
            a->kb_list_vp.top = 0;
            return;
        }
        break;
    }
    struct viewport *v = a->kb_focus ? &a->kb_detail_vp : &a->kb_list_vp;
    int before = a->kb_list_vp.cursor;
    if (vp_key(v, a->kb_focus ? &a->kb_detail_pane : &a->kb_list_pane, ch)) {
        if (a->kb_list_vp.cursor != before) a->kb_detail_vp.top = 0;
        return;
    }
    switch (ch) {
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l': a->kb_focus = 1; break;
    case 27: case KEY_BACKSPACE: case 127: case 8: case KEY_LEFT: case 'h':
        if (a->kb_focus) a->kb_focus = 0;
        else app_home(a);
        break;
    }
}
