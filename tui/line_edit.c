/* Editing one line of text, readline's keys, and path completion. */
#include "tui/line_edit.h"

#include "common/i18n.h"

#include <curses.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CTRL(c) ((c) & 0x1f)

void le_set(struct line_edit *e, const char *text, int paths)
{
    snprintf(e->buf, sizeof e->buf, "%s", text ? text : "");
    e->len = e->cur = strlen(e->buf);
    e->paths = paths;
    e->note[0] = '\0';
}

static int continuation(unsigned char c) { return (c & 0xc0) == 0x80; }

static size_t prev_char(const struct line_edit *e, size_t at)
{
    while (at > 0 && continuation((unsigned char)e->buf[--at])) {
    }
    return at;
}

static size_t next_char(const struct line_edit *e, size_t at)
{
    if (at < e->len) at++;
    while (at < e->len && continuation((unsigned char)e->buf[at])) at++;
    return at;
}

/* Removes bytes [from, to). */
static void cut(struct line_edit *e, size_t from, size_t to)
{
    memmove(e->buf + from, e->buf + to, e->len - to + 1);
    e->len -= to - from;
    if (e->cur > to) e->cur -= to - from;
    else if (e->cur > from) e->cur = from;
}

static void insert(struct line_edit *e, const char *s, size_t n)
{
    if (e->len + n + 1 > sizeof e->buf) return;
    memmove(e->buf + e->cur + n, e->buf + e->cur, e->len - e->cur + 1);
    memcpy(e->buf + e->cur, s, n);
    e->len += n;
    e->cur += n;
}

int le_key(struct line_edit *e, int ch)
{
    size_t at;
    if (ch != '\t') e->note[0] = '\0';
    switch (ch) {
    case '\n': case '\r': case KEY_ENTER: return LE_ACCEPT;
    case 27: return LE_CANCEL;
    case CTRL('a'): case KEY_HOME: e->cur = 0; break;
    case CTRL('e'): case KEY_END: e->cur = e->len; break;
    case CTRL('b'): case KEY_LEFT: e->cur = prev_char(e, e->cur); break;
    case CTRL('f'): case KEY_RIGHT: e->cur = next_char(e, e->cur); break;
    case KEY_BACKSPACE: case 127: case CTRL('h'): cut(e, prev_char(e, e->cur), e->cur); break;
    case KEY_DC: case CTRL('d'): cut(e, e->cur, next_char(e, e->cur)); break;
    case CTRL('u'): cut(e, 0, e->cur); break;
    case CTRL('k'): cut(e, e->cur, e->len); break;
    case CTRL('w'): /* the word before the cursor and the spaces after it (readline's unix-word-rubout) */
        at = e->cur;
        while (at > 0 && e->buf[at - 1] == ' ') at--;
        while (at > 0 && e->buf[at - 1] != ' ' && !(e->paths && e->buf[at - 1] == '/' && at != e->cur)) at--;
        cut(e, at, e->cur);
        break;
    case '\t':
        if (!e->paths) return LE_IGNORED;
        le_complete(e);
        break;
    default:
        if (ch < 32 || ch > 255) return LE_IGNORED;
        insert(e, &(char){(char)ch}, 1);
    }
    return LE_EDITED;
}

void le_expand_home(const char *in, char *out, size_t outsz)
{
    const char *home = getenv("HOME");
    if (in[0] == '~' && (in[1] == '/' || in[1] == '\0') && home && *home) snprintf(out, outsz, "%s%s", home, in + 1);
    else snprintf(out, outsz, "%s", in);
}

int le_complete(struct line_edit *e)
{
    char typed[LINE_EDIT_MAX], dir[LINE_EDIT_MAX + 8], expanded[LINE_EDIT_MAX + 256];
    snprintf(typed, sizeof typed, "%.*s", (int)e->cur, e->buf);
    const char *slash = strrchr(typed, '/');
    const char *prefix = slash ? slash + 1 : typed;
    if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - typed) + 1, typed);
    else snprintf(dir, sizeof dir, "./");
    le_expand_home(typed[0] == '~' && !slash ? "~/" : dir, expanded, sizeof expanded);
    if (typed[0] == '~' && !slash) { /* "~" alone: the home folder itself */
        insert(e, "/", 1);
        return 1;
    }
    DIR *d = opendir(expanded);
    if (!d) {
        snprintf(e->note, sizeof e->note, _("no folder %.140s"), dir);
        return 0;
    }
    size_t plen = strlen(prefix), common = 0;
    char first[256] = "";
    int matches = 0, first_is_dir = 0;
    size_t noted = (size_t)snprintf(e->note, sizeof e->note, "%s", "");
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *name = de->d_name;
        if (strncmp(name, prefix, plen) != 0 || !strcmp(name, ".") || !strcmp(name, "..")) continue;
        if (name[0] == '.' && prefix[0] != '.') continue; /* hidden files only when asked for */
        if (matches++ == 0) {
            snprintf(first, sizeof first, "%s", name);
            common = strlen(first);
            char full[LINE_EDIT_MAX + 512];
            struct stat st;
            snprintf(full, sizeof full, "%s%s", expanded, name);
            first_is_dir = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
        } else {
            size_t i = 0;
            while (i < common && name[i] == first[i]) i++;
            common = i;
        }
        if (noted < sizeof e->note)
            noted += (size_t)snprintf(e->note + noted, sizeof e->note - noted, " %s", name);
    }
    closedir(d);
    if (matches == 0) snprintf(e->note, sizeof e->note, _("nothing in %.60s starts with '%.60s'"), dir, prefix);
    else if (matches == 1) e->note[0] = '\0';
    else {
        char names[sizeof e->note];
        snprintf(names, sizeof names, "%s", e->note);
        snprintf(e->note, sizeof e->note, _("%d matches:%.140s"), matches, names);
    }
    if (matches > 0 && common > plen) insert(e, first + plen, common - plen);
    if (matches == 1 && first_is_dir) insert(e, "/", 1);
    return matches;
}
