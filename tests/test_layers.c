/* The layers of docs/architecture.md, held by the sources' own #include lines: cli -> tui ->
 * probes -> knowledge, engine -> common, each folder using only those below it, the command line
 * reaching the interface only through tui/tui.h (to start it), and nothing below the interface
 * including curses. A header put in the wrong folder, or a helper reached upward, fails here. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

/* Which folders a folder may include, as a string of initials: c common, e engine, k knowledge,
 * p probes, t tui, l cli. */
static const struct {
    const char *folder;
    const char *may;
} layers[] = {
    {"common", "c"},      {"engine", "ec"},       {"engine/cuda", "ec"}, {"knowledge", "kc"},
    {"probes", "pkec"},   {"tui", "tpkc"},        {"cli", "ltpkec"},
};

static char initial_of(const char *inc)
{
    static const struct {
        const char *prefix;
        char initial;
    } folders[] = {{"common/", 'c'}, {"engine/", 'e'}, {"knowledge/", 'k'}, {"probes/", 'p'}, {"tui/", 't'}, {"cli/", 'l'}};
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++)
        if (strncmp(inc, folders[i].prefix, strlen(folders[i].prefix)) == 0) return folders[i].initial;
    return 0; /* generated headers, the build's own */
}

/* Checks one folder's sources; returns the number of files read. */
static int check_folder(const char *folder, const char *may)
{
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/../../%s", fixtures ? fixtures : "tests/fixtures", folder);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    int files = 0, below_tui = strchr(may, 't') == NULL;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        int source = n > 2 && (!strcmp(e->d_name + n - 2, ".c") || !strcmp(e->d_name + n - 2, ".h") ||
                               (n > 3 && !strcmp(e->d_name + n - 3, ".cu")));
        if (!source) continue;
        char path[4500];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = ts_read(path, NULL);
        cr_assert_not_null(text, "%s", path);
        files++;
        for (char *p = text; (p = strstr(p, "#include ")) != NULL; p++) {
            const char *inc = p + 9;
            if (*inc == '<') {
                if (below_tui)
                    cr_expect(strncmp(inc, "<curses.h>", 10) && strncmp(inc, "<ncurses", 8),
                              "%s/%s includes curses below the interface", folder, e->d_name);
                continue;
            }
            if (*inc++ != '"') continue;
            char to = initial_of(inc);
            if (!to) continue;
            int len = (int)strcspn(inc, "\"\n");
            cr_expect(strchr(may, to) != NULL, "%s/%s includes %.*s, above its layer", folder, e->d_name, len, inc);
            if (to == 't' && !strcmp(folder, "cli"))
                cr_expect(!strncmp(inc, "tui/tui.h\"", 10) && !strcmp(e->d_name, "main.c"),
                          "cli/%s includes %.*s: the command line only starts the interface", e->d_name, len, inc);
        }
        free(text);
    }
    closedir(d);
    return files;
}

Test(layers, every_include_goes_down_the_layers)
{
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
        cr_expect_geq(check_folder(layers[i].folder, layers[i].may), 3, "the %s/ sources were read", layers[i].folder);
}
