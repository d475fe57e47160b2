/* tui: the interactive advisor (ncurses). One module, crt.c, owns curses set-up and tear-down;
 * screens are states with their own draw and key functions. */
#ifndef FWADVISOR_TUI_H
#define FWADVISOR_TUI_H

#include <stdio.h>

struct config_file;
struct tui_options {
    const char *db;  /* --db, or NULL for the default location */
    int color;       /* colour allowed (NO_COLOR and --no-color turn it off) */
    const struct config_file *config; /* the team's defaults (knowledge/config_file.h), or NULL */
};

/* Runs until the user quits, or until a signal has stopped a probe and what finished is stored
 * (then 1, as an interrupted `fwadvisor probe`). Returns 0, or an exit status with a message
 * already printed. */
int tui_run(const struct tui_options *opt);

#endif
