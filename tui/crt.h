/* crt: curses set-up and tear-down, the terminal's capabilities, and restoring the terminal on
 * a signal (htop's CRT.c). Nothing else calls initscr or endwin. */
#ifndef FWADVISOR_TUI_CRT_H
#define FWADVISOR_TUI_CRT_H

#include <curses.h>

enum { PAIR_TITLE = 1, PAIR_SELECT, PAIR_GOOD, PAIR_BAD, PAIR_DIM, PAIR_ACCENT };

/* Starts curses; color only when wanted and the terminal has it. Returns 0 or -1. */
int crt_init(int want_color);
void crt_done(void);
int crt_utf8(void);  /* the locale is UTF-8: box drawing and block bars */
int crt_color(void);
/* Attributes for a role, colour or not (meaning never rests on colour alone). */
attr_t crt_attr(int pair);
/* Draws a box; UTF-8 lines or ASCII '+', '-', '|'. */
void crt_box(int y, int x, int h, int w);

#endif
