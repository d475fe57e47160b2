/* Errors, file input and atomic output for the command line. */
#include "cli/cli.h"
#include "knowledge/atomic_file.h"
#include "knowledge/kb.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fwadvisor: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fwadvisor: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fprintf(stderr, "Try 'fwadvisor %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
    return EXIT_USAGE;
}

int cli_global_option(struct globals *g, int opt, const char *arg)
{
    switch (opt) {
    case OPT_DB: g->db = arg; return 1;
    case OPT_NO_COLOR: g->color = 0; return 1;
    default: return 0;
    }
}

int cli_open_kb(struct globals *g, kb **k)
{
    char path[PATH_MAX], err[1024];
    int is_default;
    int status = kb_resolve_path(g->db, path, sizeof path, &is_default, err, sizeof err);
    if (status == KB_OK) status = kb_open(path, is_default, k, err, sizeof err);
    if (status != KB_OK) {
        cli_error("%s", err);
        return cli_exit_from_kb(status);
    }
    return EXIT_OK;
}

int cli_exit_from_kb(int status)
{
    switch (status) {
    case KB_OK: return EXIT_OK;
    case KB_ERR_INPUT: return EXIT_INPUT;
    case KB_ERR_DB: return EXIT_DB;
    default: return EXIT_RUNTIME;
    }
}

#define INPUT_LIMIT (64u << 20)

int cli_read_file(const char *path, char **data, size_t *len, char *err, size_t errsz)
{
    int from_stdin = strcmp(path, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    const char *name = from_stdin ? "standard input" : path;
    *data = NULL;
    *len = 0;
    if (!f) {
        snprintf(err, errsz, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (used + 1 >= cap) {
            if (cap >= INPUT_LIMIT) {
                snprintf(err, errsz, "%s: larger than %u MiB", name, INPUT_LIMIT >> 20);
                goto fail;
            }
            char *grown = realloc(buf, cap * 2);
            if (!grown) break;
            buf = grown;
            cap *= 2;
        }
        size_t n = fread(buf + used, 1, cap - used - 1, f);
        used += n;
        if (n == 0) break;
    }
    if (!buf) {
        snprintf(err, errsz, "out of memory reading %s", name);
        goto fail;
    }
    if (ferror(f)) {
        snprintf(err, errsz, "cannot read %s: %s", name, strerror(errno));
        goto fail;
    }
    buf[used] = '\0';
    if (!from_stdin) fclose(f);
    *data = buf;
    *len = used;
    return 0;
fail:
    free(buf);
    if (!from_stdin) fclose(f);
    return -1;
}

int cli_write_output(const char *path, const char *data, size_t len, char *err, size_t errsz)
{
    if (!path || strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            snprintf(err, errsz, "cannot write to standard output: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    return atomic_write_file(path, data, len, err, errsz);
}
