/* The scrolling pane: content as lines, a viewport over them, keys, mouse and the scroll bar. */
#include "tui/viewport.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "common/text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the content --------------------------------------------------------------------------- */

void pane_reset(struct pane *p, int width)
{
    for (int i = 0; i < p->nlines; i++) free(p->lines[i].text);
    p->nlines = 0;
    p->width = width > 1 ? width : 1;
}

void pane_free(struct pane *p)
{
    pane_reset(p, 1);
    free(p->lines);
    memset(p, 0, sizeof *p);
}

static struct pane_line *push(struct pane *p, int item, int x, attr_t attr, const char *text, size_t len)
{
    if (p->nlines == p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        struct pane_line *lines = realloc(p->lines, (size_t)cap * sizeof *lines);
        if (!lines) return NULL;
        p->lines = lines;
        p->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy) return NULL;
    memcpy(copy, text, len);
    copy[len] = '\0';
    struct pane_line *l = &p->lines[p->nlines++];
    *l = (struct pane_line){copy, attr, item, x, 0, 0};
    return l;
}

void pane_add(struct pane *p, int item, int x, attr_t attr, const char *text)
{
    push(p, item, x, attr, text ? text : "", strlen(text ? text : ""));
}

void pane_gap(struct pane *p) { pane_add(p, -1, 0, A_NORMAL, ""); }

struct wrap_into {
    struct pane *p;
    int item, x, n;
    attr_t attr, lead_attr;
    const char *lead;
    int lead_w;
};

static void wrapped_line(void *ctx, const char *start, size_t bytes)
{
    struct wrap_into *w = ctx;
    if (w->n++ == 0 && w->lead) {
        size_t ll = strlen(w->lead);
        char *joined = malloc(ll + bytes + 1);
        if (!joined) return;
        memcpy(joined, w->lead, ll);
        memcpy(joined + ll, start, bytes);
        struct pane_line *l = push(w->p, w->item, w->x, w->attr, joined, ll + bytes);
        free(joined);
        if (l) l->lead = (int)ll, l->lead_attr = w->lead_attr;
        return;
    }
    push(w->p, w->item, w->x + w->lead_w, w->attr, start, bytes);
}

int pane_wrap(struct pane *p, int item, int x, attr_t attr, const char *lead, attr_t lead_attr, const char *text)
{
    if (!text) text = "";
    /* Measured as it will be shown: ASCII first under a locale without UTF-8. */
    char *ascii = NULL;
    if (!crt_utf8()) {
        size_t n = strlen(text) * 3 + 1;
        if ((ascii = malloc(n))) text_ascii(text, ascii, n), text = ascii;
    }
    int lead_w = lead ? text_width(lead) : 0;
    struct wrap_into w = {p, item, x, 0, attr, lead_attr, lead, lead_w};
    int width = p->width - x - lead_w;
    text_wrap_lines(text, width > 4 ? width : 4, wrapped_line, &w);
    if (w.n == 0) wrapped_line(&w, "", 0); /* an empty text still takes its line */
    free(ascii);
    return w.n;
}

/* --- the arithmetic ------------------------------------------------------------------------ */

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0) return 1;
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i])) i++;
        if (i == n) return 1;
    }
    return 0;
}

int vp_matches(const struct viewport *v, const char *text) { return contains_nocase(text ? text : "", v->query); }

static int max_top(const struct pane *p, int rows) { return p->nlines > rows ? p->nlines - rows : 0; }

/* First and last line of an item; -1 when the pane does not have it. */
static int item_first(const struct pane *p, int item)
{
    for (int i = 0; i < p->nlines; i++)
        if (p->lines[i].item == item) return i;
    return -1;
}

static int item_last(const struct pane *p, int item)
{
    for (int i = p->nlines - 1; i >= 0; i--)
        if (p->lines[i].item == item) return i;
    return -1;
}

int pane_has_item(const struct pane *p, int item) { return item_first(p, item) >= 0; }

static int has_items(const struct pane *p)
{
    for (int i = 0; i < p->nlines; i++)
        if (p->lines[i].item >= 0) return 1;
    return 0;
}

/* The item after (dir 1) or before (dir -1) the one at line `from`, or -1. */
static int item_step(const struct pane *p, int from, int dir)
{
    int self = from >= 0 && from < p->nlines ? p->lines[from].item : -1;
    for (int i = from + dir; i >= 0 && i < p->nlines; i += dir)
        if (p->lines[i].item >= 0 && p->lines[i].item != self) return p->lines[i].item;
    return -1;
}

static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

void vp_layout(struct viewport *v, const struct pane *p, int rows)
{
    v->rows = rows > 1 ? rows : 1;
    if (v->cursor >= 0 && has_items(p)) {
        if (item_first(p, v->cursor) < 0) { /* filtered away or gone: the next one, else the last */
            int pick = -1;
            for (int i = 0; i < p->nlines && pick < 0; i++)
                if (p->lines[i].item > v->cursor) pick = p->lines[i].item;
            for (int i = p->nlines - 1; i >= 0 && pick < 0; i--)
                if (p->lines[i].item >= 0) pick = p->lines[i].item;
            v->cursor = pick;
        }
        int first = item_first(p, v->cursor), last = item_last(p, v->cursor);
        if (item_step(p, first, -1) < 0) first = 0; /* the first item: the headings above it too */
        if (last >= v->top + v->rows) v->top = last - v->rows + 1;
        if (first < v->top) v->top = first;
    }
    v->top = clamp(v->top, 0, max_top(p, v->rows));
}

/* Moves a list's cursor by about a page of lines. */
static void page_items(struct viewport *v, const struct pane *p, int dir)
{
    int from = dir > 0 ? item_last(p, v->cursor) : item_first(p, v->cursor);
    int target = clamp(from + dir * (v->rows - 1), 0, p->nlines - 1), pick = -1;
    for (int i = target; i >= 0 && i < p->nlines && pick < 0; i -= dir) /* the last item within the page */
        if (p->lines[i].item >= 0) pick = p->lines[i].item;
    if (pick < 0 || pick == v->cursor) pick = item_step(p, from, dir);
    if (pick >= 0) v->cursor = pick;
    else v->top = dir > 0 ? max_top(p, v->rows) : 0;
}

static int line_matches(const struct viewport *v, const struct pane *p, int i)
{
    return v->query[0] && contains_nocase(p->lines[i].text, v->query);
}

/* n / N: the next or previous match, a list's item or a text pane's line. */
static void next_match(struct viewport *v, const struct pane *p, int dir)
{
    int list = v->cursor >= 0 && has_items(p);
    int from = list ? (dir > 0 ? item_last(p, v->cursor) : item_first(p, v->cursor)) : v->top;
    for (int i = from + dir; i >= 0 && i < p->nlines; i += dir) {
        if (!line_matches(v, p, i) || (list && (p->lines[i].item < 0 || p->lines[i].item == v->cursor))) continue;
        if (list) v->cursor = p->lines[i].item;
        else v->top = clamp(i, 0, max_top(p, v->rows));
        return;
    }
}

int vp_key(struct viewport *v, const struct pane *p, int ch)
{
    int list = v->cursor >= 0 && has_items(p), step;
    switch (ch) {
    case KEY_UP: case 'k':
        if (!list) v->top--;
        else if ((step = item_step(p, item_first(p, v->cursor), -1)) >= 0) v->cursor = step;
        else v->top = 0;
        break;
    case KEY_DOWN: case 'j':
        if (!list) v->top++;
        else if ((step = item_step(p, item_last(p, v->cursor), 1)) >= 0) v->cursor = step;
        else v->top = max_top(p, v->rows); /* what follows the last item */
        break;
    case KEY_NPAGE:
        if (list) page_items(v, p, 1);
        else v->top += v->rows > 1 ? v->rows - 1 : 1;
        break;
    case KEY_PPAGE:
        if (list) page_items(v, p, -1);
        else v->top -= v->rows > 1 ? v->rows - 1 : 1;
        break;
    case KEY_HOME: case 'g':
        v->top = 0;
        if (list) v->cursor = item_step(p, -1, 1);
        break;
    case KEY_END: case 'G':
        v->top = max_top(p, v->rows);
        if (list) v->cursor = item_step(p, p->nlines, -1);
        break;
    case 'n': next_match(v, p, 1); break;
    case 'N': next_match(v, p, -1); break;
    default: return 0;
    }
    vp_layout(v, p, v->rows);
    return 1;
}

int vp_mouse(struct viewport *v, const struct pane *p, int y, int x, int wheel, int press)
{
    if (y < v->y || y >= v->y + v->rows || x < v->x || x >= v->x + v->w) return 0;
    if (wheel) {
        v->top = clamp(v->top + 3 * wheel, 0, max_top(p, v->rows));
        /* A list's cursor comes along into the view, so that layout does not scroll back. */
        if (v->cursor >= 0 && has_items(p)) {
            int first = item_first(p, v->cursor), last = item_last(p, v->cursor);
            if (first < v->top || last >= v->top + v->rows) {
                int pick = -1;
                for (int i = v->top; i < v->top + v->rows && i < p->nlines; i++) {
                    int it = p->lines[i].item;
                    if (it < 0 || item_first(p, it) < v->top || item_last(p, it) >= v->top + v->rows) continue;
                    if (pick < 0 || wheel < 0) pick = it; /* down: the first whole one; up: the last */
                    if (wheel > 0) break;
                }
                if (pick >= 0) v->cursor = pick;
            }
        }
        return 1;
    }
    int line = v->top + (y - v->y);
    if (press && line < p->nlines && p->lines[line].item >= 0 && v->cursor >= 0) v->cursor = p->lines[line].item;
    return 1;
}

/* --- painting ------------------------------------------------------------------------------ */

static void scroll_bar(const struct viewport *v, const struct pane *p, int y, int x, int utf8)
{
    int rows = v->rows, n = p->nlines, top_max = max_top(p, rows);
    if (n <= rows || rows < 2) return;
    int thumb = rows * rows / n;
    if (thumb < 1) thumb = 1;
    int at = top_max ? v->top * (rows - thumb) / top_max : 0;
    for (int r = 0; r < rows; r++) {
        const char *c = r >= at && r < at + thumb ? (utf8 ? "\u2588" : "#") : (utf8 ? "\u2502" : "|");
        if (r == 0 && v->top > 0) c = utf8 ? "\u25b2" : "^";
        if (r == rows - 1 && v->top < top_max) c = utf8 ? "\u25bc" : "v";
        attron(crt_attr(PAIR_DIM));
        mvaddstr(y + r, x, c);
        attroff(crt_attr(PAIR_DIM));
    }
}

void vp_draw(struct viewport *v, const struct pane *p, int y, int x, int h, int w, int utf8)
{
    v->y = y, v->x = x, v->w = w;
    vp_layout(v, p, h);
    int textw = w - 1; /* the last column is the scroll bar's */
    for (int r = 0; r < v->rows; r++) {
        int i = v->top + r;
        if (i >= p->nlines) break;
        const struct pane_line *l = &p->lines[i];
        int selected = v->cursor >= 0 && l->item == v->cursor;
        attr_t attr = selected ? crt_attr(PAIR_SELECT) | A_BOLD : l->attr;
        if (!selected && v->cursor < 0 && line_matches(v, p, i)) attr |= A_REVERSE;
        if (selected) {
            attron(attr);
            mvhline(y + r, x, ' ', textw);
            attroff(attr);
        }
        int lx = x + l->x, lw = textw - l->x;
        if (l->lead > 0 && !selected) {
            char lead[256]; /* a Chinese label takes three bytes a character */
            snprintf(lead, sizeof lead, "%.*s", l->lead < 255 ? l->lead : 255, l->text);
            int leadw = text_width(lead);
            ui_text(y + r, lx, lw, lead, l->lead_attr);
            ui_text(y + r, lx + leadw, lw - leadw, l->text + l->lead, attr);
        } else {
            ui_text(y + r, lx, lw, l->text, attr);
        }
    }
    scroll_bar(v, p, y, x + w - 1, utf8);
}
