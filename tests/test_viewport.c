/* The scrolling pane and the line editor, without a terminal: their arithmetic is plain code
 * (the tmux tests in test_tui.c check what the screen shows). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/support.h"
#include "tui/line_edit.h"
#include "tui/viewport.h"

/* A text pane of n lines, "line 0" ... */
static void text_pane(struct pane *p, int n)
{
    pane_reset(p, 40);
    for (int i = 0; i < n; i++) {
        char line[32];
        snprintf(line, sizeof line, i % 15 == 5 ? "line %d needle" : "line %d", i);
        pane_add(p, -1, 0, 0, line);
    }
}

Test(viewport, text_pane_stops_at_the_end_and_returns_in_one_key)
{
    struct pane p = {0};
    struct viewport v = {.cursor = -1};
    text_pane(&p, 50);
    vp_layout(&v, &p, 10);
    cr_expect_eq(v.top, 0);
    cr_expect(vp_key(&v, &p, KEY_END));
    cr_expect_eq(v.top, 40, "50 lines in 10 rows: the last page starts at 40, full");
    cr_expect(vp_key(&v, &p, KEY_DOWN), "a key at the end is still used");
    cr_expect_eq(v.top, 40, "and moves nothing");
    for (int i = 0; i < 30; i++) vp_key(&v, &p, KEY_NPAGE);
    cr_expect_eq(v.top, 40);
    cr_expect(vp_key(&v, &p, KEY_HOME));
    cr_expect_eq(v.top, 0, "one key back to the start");
    vp_key(&v, &p, KEY_NPAGE);
    cr_expect_eq(v.top, 9, "a page keeps one line of the last");
    vp_key(&v, &p, KEY_PPAGE);
    vp_key(&v, &p, KEY_UP);
    cr_expect_eq(v.top, 0, "clamped at the start");
    /* A pane shorter than the rows never scrolls. */
    text_pane(&p, 4);
    vp_key(&v, &p, KEY_END);
    cr_expect_eq(v.top, 0);
    pane_free(&p);
}

Test(viewport, search_goes_from_match_to_match)
{
    struct pane p = {0};
    struct viewport v = {.cursor = -1};
    text_pane(&p, 50); /* "needle" on lines 5, 20, 35 */
    vp_layout(&v, &p, 10);
    snprintf(v.query, sizeof v.query, "NEEDLE");
    cr_expect(vp_matches(&v, "a needle here") && !vp_matches(&v, "a pin"), "any case");
    vp_key(&v, &p, 'n');
    cr_expect_eq(v.top, 5);
    vp_key(&v, &p, 'n');
    cr_expect_eq(v.top, 20);
    vp_key(&v, &p, 'n');
    cr_expect_eq(v.top, 35);
    vp_key(&v, &p, 'n');
    cr_expect_eq(v.top, 35, "no match after the last: stays");
    vp_key(&v, &p, 'N');
    cr_expect_eq(v.top, 20);
    v.query[0] = '\0';
    cr_expect(vp_matches(&v, "anything"), "no query matches everything");
    pane_free(&p);
}

/* 10 items of 3 lines each under a heading: 31 lines in 7 rows. */
static void list_pane(struct pane *p)
{
    pane_reset(p, 40);
    pane_add(p, -1, 0, 0, "Heading");
    for (int i = 0; i < 10; i++)
        for (int l = 0; l < 3; l++) {
            char line[64];
            snprintf(line, sizeof line, "item %d part %d", i, l);
            pane_add(p, i, 0, 0, line);
        }
}

Test(viewport, list_keeps_the_cursor_whole_on_screen)
{
    struct pane p = {0};
    struct viewport v = {.cursor = 0};
    list_pane(&p);
    vp_layout(&v, &p, 7);
    cr_expect_eq(v.top, 0, "the heading above the first item shows");
    for (int i = 0; i < 5; i++) vp_key(&v, &p, KEY_DOWN);
    cr_expect_eq(v.cursor, 5);
    /* item 5 is lines 16..18: the view ends at its last line. */
    cr_expect_eq(v.top, 12, "top %d", v.top);
    vp_key(&v, &p, KEY_END);
    cr_expect_eq(v.cursor, 9);
    cr_expect_eq(v.top, 24, "31 lines, 7 rows");
    vp_key(&v, &p, KEY_DOWN);
    cr_expect_eq(v.cursor, 9, "nothing after the last item");
    vp_key(&v, &p, KEY_HOME);
    cr_expect(v.cursor == 0 && v.top == 0);
    vp_key(&v, &p, KEY_NPAGE);
    cr_expect_eq(v.cursor, 2, "a page of 7 rows: from item 0's last line (3) to line 9, item 2");
    vp_key(&v, &p, KEY_PPAGE);
    cr_expect_eq(v.cursor, 0);
    /* A filter that leaves the cursor's item out moves it to the next one there is. */
    pane_reset(&p, 40);
    for (int i = 6; i < 10; i++) pane_add(&p, i, 0, 0, "kept");
    v.cursor = 3;
    vp_layout(&v, &p, 7);
    cr_expect_eq(v.cursor, 6);
    pane_free(&p);
}

/* The list pane in 7 rows at row 3, column 1, 40 wide, the cursor on item 0. */
static void list_view(struct pane *p, struct viewport *v)
{
    list_pane(p);
    *v = (struct viewport){.cursor = 0, .y = 3, .x = 1, .w = 40};
    vp_layout(v, p, 7);
}

Test(viewport, wheel_scrolls_and_a_click_selects)
{
    struct pane p = {0};
    struct viewport v;
    list_view(&p, &v);
    cr_expect_not(vp_mouse(&v, &p, 2, 5, 1, 0), "above the pane");
    cr_expect_not(vp_mouse(&v, &p, 5, 41, 1, 0), "right of it");
    cr_expect(vp_mouse(&v, &p, 5, 5, 1, 0));
    cr_expect_eq(v.top, 3);
    cr_expect_eq(v.cursor, 1, "the cursor comes along: the first whole item in view (lines 4-6)");
    for (int i = 0; i < 20; i++) vp_mouse(&v, &p, 5, 5, 1, 0);
    cr_expect_eq(v.top, 24, "stops at the end");
    vp_mouse(&v, &p, 5, 5, -1, 0);
    cr_expect_eq(v.top, 21);
    /* Row 3 + 2 shows line 23: item 7's last line. */
    cr_expect(vp_mouse(&v, &p, 5, 5, 0, 1));
    cr_expect_eq(v.cursor, 7);
    pane_free(&p);
}

/* The list's edges (item i is lines 3i+1 .. 3i+3 under the heading, 7 rows): back up to the first
 * item the heading shows again; a wheel up from the end brings the cursor to the last whole item in
 * view (top 21: items 7 and 8 whole, 8 taken); the pane at y 3 takes rows 3 to 9, row 10 is not
 * its own. */
Test(viewport, list_edges_heading_wheel_up_and_last_row)
{
    struct pane p = {0};
    struct viewport v;
    list_view(&p, &v);
    vp_key(&v, &p, KEY_NPAGE);
    cr_expect(v.cursor == 2 && v.top == 3, "item 2 ends at line 9: top 3, got cursor %d top %d", v.cursor, v.top);
    vp_key(&v, &p, KEY_UP);
    cr_expect(v.cursor == 1 && v.top == 3, "item 1 (lines 4-6) is in view: cursor %d top %d", v.cursor, v.top);
    vp_key(&v, &p, KEY_UP);
    cr_expect(v.cursor == 0 && v.top == 0, "the heading above item 0 too: cursor %d top %d", v.cursor, v.top);
    vp_key(&v, &p, KEY_END);
    cr_expect(v.cursor == 9 && v.top == 24);
    cr_expect(vp_mouse(&v, &p, 5, 5, -1, 0));
    cr_expect_eq(v.top, 21);
    cr_expect_eq(v.cursor, 8, "up: the last whole item in view, got %d", v.cursor);
    vp_key(&v, &p, KEY_HOME);
    cr_expect(vp_mouse(&v, &p, 9, 5, 0, 1), "the last row is the pane's");
    cr_expect_eq(v.cursor, 1, "line 6 is item 1's");
    cr_expect_not(vp_mouse(&v, &p, 10, 5, 0, 1), "the row below is not");
    cr_expect_eq(v.cursor, 1, "and selects nothing");
    pane_free(&p);
}

Test(viewport, wrapped_lines_hang_under_their_lead)
{
    struct pane p = {0};
    pane_reset(&p, 20);
    int n = pane_wrap(&p, 3, 1, 0, "[ ] ", 0, "one two three four five six seven");
    cr_expect_eq(n, 3);
    cr_expect_str_eq(p.lines[0].text, "[ ] one two three");
    cr_expect_eq(p.lines[0].lead, 4);
    cr_expect_eq(p.lines[1].x, 5, "under the text, after the lead");
    cr_expect_str_eq(p.lines[1].text, "four five six");
    cr_expect_eq(p.lines[2].item, 3);
    pane_wrap(&p, -1, 0, 0, NULL, 0, "escape \x1b[31m here");
    cr_expect(strstr(p.lines[3].text, "\\x1b") != NULL, "outside text goes through the filter: %s", p.lines[3].text);
    pane_free(&p);
}

/* --- the line editor ----------------------------------------------------------------------- */

static void type(struct line_edit *e, const char *s)
{
    for (; *s; s++) le_key(e, (unsigned char)*s);
}

Test(line_edit, readline_keys)
{
    struct line_edit e;
    le_set(&e, "", 0);
    type(&e, "abc");
    cr_expect_eq(le_key(&e, 1), LE_EDITED); /* Ctrl-A */
    type(&e, "X");
    cr_expect_str_eq(e.buf, "Xabc");
    cr_expect_eq(e.cur, 1);
    le_key(&e, 5); /* Ctrl-E */
    type(&e, " two words");
    le_key(&e, 23); /* Ctrl-W: the word before */
    cr_expect_str_eq(e.buf, "Xabc two ");
    le_key(&e, KEY_LEFT);
    le_key(&e, KEY_LEFT);
    le_key(&e, 11); /* Ctrl-K: to the end */
    cr_expect_str_eq(e.buf, "Xabc tw");
    le_key(&e, 21); /* Ctrl-U: to the start */
    cr_expect_str_eq(e.buf, "");
    type(&e, "caf\xc3\xa9!");
    le_key(&e, KEY_LEFT);
    le_key(&e, KEY_LEFT); /* over '!' and the two bytes of 'é' */
    cr_expect_eq(e.cur, 3);
    le_key(&e, KEY_DC);
    cr_expect_str_eq(e.buf, "caf!", "Delete takes the whole character");
    le_key(&e, KEY_END);
    le_key(&e, 127);
    cr_expect_str_eq(e.buf, "caf");
    cr_expect_eq(le_key(&e, '\n'), LE_ACCEPT);
    cr_expect_eq(le_key(&e, 27), LE_CANCEL);
    cr_expect_eq(le_key(&e, '\t'), LE_IGNORED, "Tab completes paths only");
}

Test(line_edit, home_and_path_completion)
{
    char out[256];
    setenv("HOME", "/home/someone", 1);
    le_expand_home("~/answers.json", out, sizeof out);
    cr_expect_str_eq(out, "/home/someone/answers.json");
    le_expand_home("~", out, sizeof out);
    cr_expect_str_eq(out, "/home/someone");
    le_expand_home("a~b", out, sizeof out);
    cr_expect_str_eq(out, "a~b");

    char *dir = ts_tmpdir(), *f1 = ts_path(dir, "alpha.json"), *f2 = ts_path(dir, "alpine.txt"), *sub = ts_path(dir, "beta");
    ts_write_str(f1, "{}");
    ts_write_str(f2, "x");
    mkdir(sub, 0700);
    struct line_edit e;
    char start[4200];
    snprintf(start, sizeof start, "%s/al", dir);
    le_set(&e, start, 1);
    cr_expect_eq(le_complete(&e), 2);
    cr_expect(strstr(e.buf, "/alp") && !strstr(e.buf, "/alph"), "as far as both agree: %s", e.buf);
    cr_expect(strstr(e.note, "2 matches") && strstr(e.note, "alpha.json") && strstr(e.note, "alpine.txt"), "%s", e.note);
    type(&e, "h");
    cr_expect_eq(le_key(&e, '\t'), LE_EDITED);
    cr_expect(strstr(e.buf, "/alpha.json") != NULL, "one match: whole: %s", e.buf);
    snprintf(start, sizeof start, "%s/b", dir);
    le_set(&e, start, 1);
    le_complete(&e);
    cr_expect(strstr(e.buf, "/beta/") != NULL, "a folder gets its slash: %s", e.buf);
    snprintf(start, sizeof start, "%s/zz", dir);
    le_set(&e, start, 1);
    cr_expect_eq(le_complete(&e), 0);
    cr_expect(strstr(e.note, "starts with 'zz'") != NULL, "%s", e.note);
    ts_rmtree(dir);
    free(dir), free(f1), free(f2), free(sub);
}
