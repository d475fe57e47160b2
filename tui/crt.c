#include "tui/crt.h"
#include "common/text.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int utf8, color, active;

static void restore_and_die(int sig)
{
    if (active) endwin(); /* not async-signal-safe, but the alternative is a broken terminal */
    active = 0;
    signal(sig, SIG_DFL);
    raise(sig);
}

int crt_init(int want_color)
{
    utf8 = text_locale_utf8();
    if (!initscr()) return -1;
    active = 1;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    /* The wheel and the left button; presses come at once (no wait to tell a click from a
     * double click). Terminals still select text with Shift held. */
    mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    color = want_color && has_colors();
    if (color) {
        start_color();
        use_default_colors();
        init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_CYAN);
        init_pair(PAIR_SELECT, COLOR_BLACK, COLOR_WHITE);
        init_pair(PAIR_GOOD, COLOR_GREEN, -1);
        init_pair(PAIR_BAD, COLOR_RED, -1);
        init_pair(PAIR_DIM, COLOR_BLUE, -1);
        init_pair(PAIR_ACCENT, COLOR_YELLOW, -1);
    }
    /* The terminal comes back on Ctrl-C, termination and crashes too. */
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], restore_and_die);
    return 0;
}

void crt_done(void)
{
    if (active) endwin();
    active = 0;
}

int crt_utf8(void) { return utf8; }
int crt_color(void) { return color; }

attr_t crt_attr(int pair)
{
    /* Without colour: reverse video for the title and the selection, bold for accents, dim for
     * what is greyed out. */
    if (!color) {
        switch (pair) {
        case PAIR_TITLE:
        case PAIR_SELECT: return A_REVERSE;
        case PAIR_ACCENT:
        case PAIR_GOOD: return A_BOLD;
        case PAIR_DIM: return A_DIM;
        default: return A_NORMAL;
        }
    }
    return COLOR_PAIR(pair) | (pair == PAIR_SELECT || pair == PAIR_TITLE ? A_NORMAL : A_NORMAL);
}

void crt_box(int y, int x, int h, int w)
{
    if (h < 2 || w < 2) return;
    if (utf8) {
        /* The characters themselves, not the terminal's alternate character set, which some
         * terminal descriptions map to letters. */
        for (int i = 1; i < w - 1; i++) {
            mvaddstr(y, x + i, "\u2500");
            mvaddstr(y + h - 1, x + i, "\u2500");
        }
        for (int i = 1; i < h - 1; i++) {
            mvaddstr(y + i, x, "\u2502");
            mvaddstr(y + i, x + w - 1, "\u2502");
        }
        mvaddstr(y, x, "\u250c");
        mvaddstr(y, x + w - 1, "\u2510");
        mvaddstr(y + h - 1, x, "\u2514");
        mvaddstr(y + h - 1, x + w - 1, "\u2518");
    } else {
        mvhline(y, x + 1, '-', w - 2);
        mvhline(y + h - 1, x + 1, '-', w - 2);
        mvvline(y + 1, x, '|', h - 2);
        mvvline(y + 1, x + w - 1, '|', h - 2);
        mvaddch(y, x, '+');
        mvaddch(y, x + w - 1, '+');
        mvaddch(y + h - 1, x, '+');
        mvaddch(y + h - 1, x + w - 1, '+');
    }
}
