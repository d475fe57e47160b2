/* line_edit: one line of text being typed, with the editing keys of readline: Ctrl-A / Home and
 * Ctrl-E / End, Left / Right (Ctrl-B / Ctrl-F), Backspace and Delete (Ctrl-D), Ctrl-U (to the
 * start), Ctrl-K (to the end), Ctrl-W (the word before), and for paths `~` for the home folder
 * and Tab completion. Bytes of UTF-8 are inserted as typed and the cursor moves over whole
 * characters. No terminal is needed: the interface draws it (tui/app.c). */
#ifndef FWADVISOR_TUI_LINE_EDIT_H
#define FWADVISOR_TUI_LINE_EDIT_H

#include <stddef.h>

#define LINE_EDIT_MAX 1024

struct line_edit {
    char buf[LINE_EDIT_MAX];
    size_t len, cur;   /* bytes; cur <= len, on a character boundary */
    int paths;         /* Tab completes a path */
    char note[160];    /* what the last Tab found ("3 matches: a.json b.json c.json"), else "" */
};

enum { LE_EDITED, LE_ACCEPT, LE_CANCEL, LE_IGNORED };

/* Starts editing text (cursor at the end). */
void le_set(struct line_edit *e, const char *text, int paths);
/* A key (a byte or a curses KEY_ code): LE_ACCEPT on Enter, LE_CANCEL on Esc, LE_EDITED for an
 * editing key, LE_IGNORED for others. */
int le_key(struct line_edit *e, int ch);
/* "~" or "~/..." with $HOME put in front; anything else copied. */
void le_expand_home(const char *in, char *out, size_t outsz);
/* Tab: completes the path before the cursor as far as every match agrees (a folder gets its '/'),
 * and fills note with the matches when there are several. Returns the number of matches. */
int le_complete(struct line_edit *e);

#endif
