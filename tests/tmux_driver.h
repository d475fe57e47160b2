/* Driving the interface in a real terminal: fwadvisor in a tmux pane of a given size, keys and
 * mouse events sent with send-keys, the screen read with capture-pane (tmux's own regress tests
 * and fzf's work the same way). Each test gets its own tmux server and temporary folder; the
 * screen is polled until it shows what is awaited and has settled, so a loaded machine only
 * makes a test slower, not wrong. */
#ifndef FWADVISOR_TESTS_TMUX_DRIVER_H
#define FWADVISOR_TESTS_TMUX_DRIVER_H

#include "tests/support.h"

/* For TestSuite's .init and .fini. */
void tty_setup(void);
void tty_teardown(void);
/* The test's temporary folder (the program's working directory) and "--db=FOLDER/kb.sqlite3". */
const char *tty_dir(void);
const char *tty_dbarg(void);

/* Runs tmux with args (NULL-terminated); fills out when not NULL (caller frees with ts_run_free). */
void tty_tmux(const char *const *args, struct ts_run *out);
/* fwadvisor in a w x h pane with extra environment (VAR=value ...) and arguments after --db.
 * recorded: 1 for the recorded machine of tests/fixtures (an H100 box), 0 for this machine as
 * it is. The shell says "EXITED status=N" when the program ends. Skips the test without tmux. */
void tty_start(int w, int h, const char *envs, int recorded);
/* Any shell command line in a w x h pane (the command line's output on a terminal). */
void tty_start_shell(int w, int h, const char *cmd);
/* From the home screen just started: "Load answers from a file", the path typed, Enter. */
void tty_load_answers(const char *path);
/* The screen as text (escapes: with its colours and attributes as escape sequences). Caller frees. */
char *tty_screen(int escapes);
/* Waits for text on a settled screen (about `seconds`); fails the test when it never shows. */
char *tty_wait_s(const char *text, int seconds);
char *tty_wait(const char *text);
/* Waits until the screen has not changed for a while, and returns it. */
char *tty_settled(void);
/* Keys by tmux's names (Enter, Down, PageDown, C-a, ...), n times; text typed as it is. */
void tty_keys(const char *key);
void tty_keys_n(const char *key, int n);
void tty_type(const char *text);
/* A mouse event at column x, row y (from 0) as a terminal sends it (X10 encoding): button 0 a
 * click of the left button (press and release), 64 the wheel up, 65 the wheel down. */
void tty_mouse(int button, int x, int y);
/* The screen's line y (from 0), without its newline, in a static buffer. */
const char *tty_line(const char *screen, int y);
/* 1 when the screen's rows hold "..." (a cut) in the rows from..to (inclusive). */
int tty_cut(const char *screen, int from, int to);
/* The fwadvisor the pane's shell started (the test fails when there is none). */
pid_t tty_program(void);

#endif
