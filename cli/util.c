/* Errors, file input and atomic output for the command line. */
#include "cli/cli.h"
#include "common/file.h"
#include "common/html.h"
#include "common/i18n.h"
#include "common/json_doc.h"
#include "knowledge/config_file.h"
#include "knowledge/kb.h"
#include "common/suggest.h"
#include "probes/mpi/plugin.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* One line on stderr, through the output filter: messages carry names and values from files and
 * the knowledge base, and nothing in them may act on the terminal or start a second line. */
static void error_line(const char *fmt, va_list ap)
{
    char msg[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fputs("fwadvisor: ", stderr);
    text_put(stderr, msg);
    fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_line(fmt, ap);
    va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_line(fmt, ap);
    va_end(ap);
    fprintf(stderr, _("Try 'fwadvisor %s%s--help'.\n"), cmd ? cmd : "", cmd ? " " : "");
    return EXIT_USAGE;
}

int cli_unknown(const char *cmd, const char *what, const char *word, const char *const *choices)
{
    struct suggest s;
    const char *near = suggest_from(&s, word, choices);
    if (near) return cli_usage_error(cmd, _("unknown %s '%s' (did you mean '%s'?)"), what, word, near);
    char list[512];
    size_t used = 0;
    list[0] = '\0';
    for (const char *const *c = choices; *c && used < sizeof list; c++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", *c);
    return cli_usage_error(cmd, _("unknown %s '%s' (%s)"), what, word, list);
}

int cli_choice(const char *word, const char *const *choices)
{
    for (int i = 0; choices[i]; i++)
        if (strcasecmp(choices[i], word) == 0) return i;
    return -1;
}

int cli_not_applicable(const char *cmd, const char *opt, const char *when)
{
    return cli_usage_error(cmd, _("%s applies %s: it would change nothing here"), opt, when);
}

int cli_lang_option(int argc, char **argv, const char **lang)
{
    *lang = NULL;
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--lang") == 0 && i + 1 < argc) *lang = argv[++i];
        else if (strncmp(argv[i], "--lang=", 7) == 0) *lang = argv[i] + 7;
    }
    return *lang && strcmp(*lang, "en") != 0 && strcmp(*lang, "zh") != 0;
}

int cli_global_option(struct globals *g, int opt, const char *arg)
{
    switch (opt) {
    case OPT_DB: g->db = arg, kb_protect_path(arg); return 1;
    case OPT_NO_COLOR: g->color = 0; return 1;
    case OPT_WIDE: text_set_table_width(0); return 1;
    case OPT_CONFIG: g->config = arg; return 1;
    case OPT_NO_CONFIG: g->no_config = 1; return 1;
    case OPT_LANG: (void)arg; return 1; /* applied before parsing (cli_lang_option) */
    default: return 0;
    }
}

int cli_color_default(void)
{
    const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
    return isatty(STDOUT_FILENO) && !(no_color && *no_color) && !(term && strcmp(term, "dumb") == 0) &&
           !fw_mpi_rank_env();
}

void cli_table_width_default(void)
{
    struct winsize ws;
    if (!isatty(STDOUT_FILENO)) text_set_table_width(0);
    else if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > TEXT_WIDTH) text_set_table_width(ws.ws_col);
    else text_set_table_width(TEXT_WIDTH);
}

static int open_kb(struct globals *g, kb **k, int read_only)
{
    char path[PATH_MAX], err[1024];
    int is_default;
    int status = kb_resolve_path(g->db, path, sizeof path, &is_default, err, sizeof err);
    if (status == KB_OK && read_only) status = kb_open_read(path, is_default, k, err, sizeof err);
    else if (status == KB_OK) status = kb_open(path, is_default, k, err, sizeof err);
    if (status != KB_OK) {
        cli_error("%s", err);
        return cli_exit_from_kb(status);
    }
    if (*kb_notice(*k)) cli_error(_("warning: %s"), kb_notice(*k));
    return EXIT_OK;
}

int cli_open_kb(struct globals *g, kb **k) { return open_kb(g, k, 0); }

int cli_open_kb_read(struct globals *g, kb **k) { return open_kb(g, k, 1); }

double cli_float(float f)
{
    if (!isfinite(f)) return f;
    for (int digits = 1; digits <= 9; digits++) { /* 9 significant digits always read back */
        char text[32];
        snprintf(text, sizeof text, "%.*g", digits, (double)f);
        double d = strtod(text, NULL);
        if ((float)d == f) return d;
    }
    return f;
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

#define INPUT_LIMIT ((size_t)64 << 20)

int cli_read_file(const char *path, char **data, size_t *len, char *err, size_t errsz)
{
    unsigned char *bytes;
    if (file_read(path, INPUT_LIMIT, &bytes, len, err, errsz) != FILE_OK) return -1;
    *data = (char *)bytes;
    return 0;
}

static int write_output(const char *path, const char *data, size_t len, int refused_status)
{
    char err[PATH_MAX + 256];
    if (!path || strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            cli_error(_("cannot write to standard output: %s"), strerror(errno));
            return EXIT_RUNTIME;
        }
        return EXIT_OK;
    }
    int status = file_write(path, &(struct file_chunk){data, len}, 1, err, sizeof err);
    if (status == FILE_OK) return EXIT_OK;
    cli_error("%s", err);
    return status == FILE_REFUSED ? refused_status : EXIT_RUNTIME;
}

int cli_write_output(const char *path, const char *data, size_t len) { return write_output(path, data, len, EXIT_USAGE); }

int cli_write_html(const char *path, const struct html *page)
{
    if (page->failed) {
        cli_error(_("out of memory"));
        return EXIT_RUNTIME;
    }
    int rc = write_output(path, page->data, page->len, EXIT_RUNTIME);
    if (rc == EXIT_OK && path && strcmp(path, "-") != 0) {
        text_printf(stderr, _("HTML report written to %s"), path);
        fputc('\n', stderr);
    }
    return rc;
}

int cli_check_output(const char *path, int refused_status)
{
    char err[PATH_MAX + 256];
    if (!path || strcmp(path, "-") == 0) return EXIT_OK;
    int status = file_check_write(path, err, sizeof err);
    if (status == FILE_OK) return EXIT_OK;
    cli_error("%s", err);
    return status == FILE_REFUSED ? refused_status : EXIT_RUNTIME;
}

/* --fields of the command being run: the one filter every JSON output of it passes through. */
static struct {
    const char *cmd, *fields;
} json_filter;

int cli_json_fields(const char *cmd, const char *fields, int json_out)
{
    json_filter.cmd = cmd;
    json_filter.fields = fields;
    if (fields && !json_out) return cli_not_applicable(cmd, "--fields", _("to --json output"));
    return EXIT_OK;
}

int cli_write_json(const cJSON *doc, const char *path)
{
    cJSON *cut = NULL;
    if (json_filter.fields) {
        char err[1024];
        int bad = json_select(doc, json_filter.fields, &cut, err, sizeof err);
        if (bad == -1) return cli_usage_error(json_filter.cmd, "--fields: %s", err);
        if (bad) {
            cli_error(_("out of memory"));
            return EXIT_RUNTIME;
        }
        doc = cut;
    }
    size_t len;
    char *text = json_doc_text(doc, &len);
    cJSON_Delete(cut);
    if (!text) {
        cli_error(_("out of memory"));
        return EXIT_RUNTIME;
    }
    int rc = cli_write_output(path, text, len);
    free(text);
    return rc;
}

void cli_print_step_times(double median, double min, double max, int n)
{
    char line[256];
    double scale = median < 1e-3 ? 1e6 : 1e3; /* microseconds for the tiny steps */
    snprintf(line, sizeof line, _("step time: median %.4g %s, min %.4g, max %.4g (%d steps, the first left out)"),
             median * scale, scale == 1e6 ? "us" : "ms", min * scale, max * scale, n);
    putchar('\n');
    text_wrap(stdout, line, 0, 2); /* a slow step widens the figures: the line wraps, never runs past 80 columns */
}

int cli_load_config(const struct globals *g, struct config_file **out)
{
    *out = NULL;
    char path[PATH_MAX], err[PATH_MAX + 1024];
    if (g->no_config || (!g->config && config_default_path(path, sizeof path) != 0)) return EXIT_OK;
    if (config_load(g->config ? g->config : path, !g->config, out, err, sizeof err) == CONFIG_BAD) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}
