/* viewport: the one scrolling pane of the interface. A screen builds its content each frame as a
 * pane of lines (wrapped to the pane's width; a line belongs to an item of a list, or to none:
 * headings, plain text), then a viewport shows part of it:
 *
 *   - clamped: the first line shown stays within 0 .. lines - rows, so scrolling stops at the end
 *     and one key (Home, or PgUp enough times) brings the start back;
 *   - a list (cursor >= 0) keeps its selected item on screen, whole when it fits;
 *   - Up/Down, PgUp/PgDn, Home/End, the mouse wheel and a click on an item;
 *   - `/` search: a list shows only the items holding the text (any case), a text pane marks the
 *     lines holding it; n and N go to the next and the previous match;
 *   - a scroll bar in the pane's last column, arrows at its ends while there is more that way.
 *
 * The arithmetic (vp_*) needs no terminal, so tests call it directly; vp_draw paints. */
#ifndef FWADVISOR_TUI_VIEWPORT_H
#define FWADVISOR_TUI_VIEWPORT_H

#include <curses.h>
#include <stddef.h>

struct pane_line {
    char *text;      /* owned by the pane */
    attr_t attr;
    int item;        /* the list item it belongs to, -1 for none */
    int x;           /* columns of indent within the pane */
    int lead;        /* the first `lead` bytes are drawn with lead_attr (a score's sign, a mark) */
    attr_t lead_attr;
};

struct pane {
    struct pane_line *lines;
    int nlines, cap;
    int width;       /* columns the text is wrapped to: the pane's width less the scroll bar */
};

/* Empties the pane for a new frame of the given text width (lines are freed). */
void pane_reset(struct pane *p, int width);
void pane_free(struct pane *p);
/* One line as is (cut to the width when drawn), of item (-1: none). */
void pane_add(struct pane *p, int item, int x, attr_t attr, const char *text);
/* Text wrapped to the width from column x; `lead` (may be NULL) starts the first line and the
 * continuation lines are indented under the text after it ("+12.0  reason ...", "[ ] pitfall").
 * Outside text goes through the output filter (common/text.h). Returns the lines added. */
int pane_wrap(struct pane *p, int item, int x, attr_t attr, const char *lead, attr_t lead_attr, const char *text);
/* A blank line. */
void pane_gap(struct pane *p);
/* 1 when a line of the pane belongs to item. */
int pane_has_item(const struct pane *p, int item);

struct viewport {
    int top;         /* first line shown */
    int cursor;      /* the selected item of a list; -1: a text pane without selection */
    int rows;        /* rows on screen, set by vp_layout */
    int y, x, w;     /* where it was drawn last, for the mouse */
    char query[64];  /* the `/` search; "" for none */
};

/* 1 when text holds the query (any case), or there is no query. */
int vp_matches(const struct viewport *v, const char *text);

/* Settles top and cursor for the pane's content and the rows on screen: the cursor on an item
 * the pane has (the nearest one when its own is gone), top clamped, the cursor's item visible. */
void vp_layout(struct viewport *v, const struct pane *p, int rows);

/* A key for the pane: Up/Down/k/j, PgUp/PgDn, Home/End, n/N. Returns 1 when it used the key
 * (the caller redraws), 0 for keys it leaves to the screen (Enter, Space, Tab, ...). A key that
 * would move past an end leaves the view where it is and still counts as used. */
int vp_key(struct viewport *v, const struct pane *p, int ch);
/* A mouse event at screen row y, column x: the wheel scrolls three lines (a list's cursor follows
 * into view), a press selects the item under it. Returns 1 when it was over the pane. */
int vp_mouse(struct viewport *v, const struct pane *p, int y, int x, int wheel, int press);

/* Paints the pane at y, x in h rows and w columns (the last column: the scroll bar). Calls
 * vp_layout first. The selected item is drawn in the selection's colours; lines holding the
 * query are marked. */
void vp_draw(struct viewport *v, const struct pane *p, int y, int x, int h, int w, int utf8);

#endif
