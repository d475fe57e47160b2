/* layout: the interface's arithmetic, free of curses so tests can call it without a terminal
 * (nvtop tests its layout the same way). */
#ifndef FWADVISOR_TUI_LAYOUT_H
#define FWADVISOR_TUI_LAYOUT_H

#include <stddef.h>

#define TUI_MIN_COLS 80
#define TUI_MIN_ROWS 24

/* 1 when the terminal is big enough to draw. */
int tui_fits(int rows, int cols);

/* A horizontal bar of `width` cells for fraction 0..1 into out (NUL-terminated): full cells '#'
 * (ASCII) or U+2588 (UTF-8), then '.' or U+00B7 for the rest. Returns bytes written. */
size_t tui_bar(char *out, size_t outsz, double fraction, int width, int utf8);

/* A bar of three segments (e.g. model states, activations, headroom) with a different character
 * each, so the split reads without colour: '#', '+', '.' (ASCII) or U+2588, U+2592, U+00B7. The
 * segments are fractions of the whole width; they are clamped so they never exceed it. */
size_t tui_bar3(char *out, size_t outsz, double first, double second, int width, int utf8);
/* The same with up to three segments ('#', '+', '=' or U+2588, U+2592, U+2591; the rest '.' or
 * U+00B7): the plan's model states, activations and buffers against usable memory. */
size_t tui_bar_parts(char *out, size_t outsz, const double *parts, int n, int width, int utf8);


/* Moves a selection by delta within 0..n-1 (clamped, n > 0). */
int tui_move(int selected, int delta, int n);

/* The wizard's split: the question pane and the side panel (top frameworks). */
struct tui_split {
    int left_w, right_x, right_w;
};
struct tui_split tui_wizard_split(int cols);

#endif
