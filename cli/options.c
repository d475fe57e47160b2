/* The commands' option tables read: getopt_long's array, the values into the settings, the help's
 * options part and the "applies to" refusals (cli/options.h). */
#include "cli/options.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/i18n.h"
#include "common/units.h"

/* getopt_long's value for a row: its letter, else a number above the global options'. */
static int row_value(const struct cli_command *cmd, int row)
{
    return cmd->options[row].letter ? cmd->options[row].letter : OPT_FIRST_FREE + row;
}

static int row_of_value(const struct cli_command *cmd, int value)
{
    for (int i = 0; i < cmd->count; i++)
        if (row_value(cmd, i) == value) return i;
    return -1;
}

int cli_options_getopt(const struct cli_command *cmd, struct option *opts, int n, char *shorts, size_t shortsz)
{
    static const struct option globals[] = {CLI_GLOBAL_OPTIONS};
    enum { NGLOBALS = sizeof globals / sizeof globals[0] };
    int used = 0;
    size_t s = 0;
    if (shortsz > 3) shorts[s++] = ':', shorts[s++] = 'h';
    for (int i = 0; i < cmd->count && used + 1 < n; i++) {
        const struct cli_option *o = &cmd->options[i];
        opts[used++] = (struct option){o->name, o->kind == CLI_FLAG ? no_argument : required_argument, NULL,
                                       row_value(cmd, i)};
        if (o->letter && s + 3 < shortsz) {
            shorts[s++] = o->letter;
            if (o->kind != CLI_FLAG) shorts[s++] = ':';
        }
    }
    for (int i = 0; i < NGLOBALS && used + 1 < n; i++) opts[used++] = globals[i];
    if (n > 0) opts[used] = (struct option){NULL, 0, NULL, 0};
    if (shortsz) shorts[s] = '\0';
    return used;
}

int cli_parse_number(const char *opt, const char *s, double lo, double hi, int integer, double *out)
{
    double v = 0;
    if (units_parse(s, &v) || v < lo || v > hi || (integer && v != floor(v))) {
        if (integer) cli_error(_("--%s %s: expected a whole number from %g to %g"), opt, s, lo, hi);
        else cli_error(_("--%s %s: expected a number from %g to %g"), opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* One value into its field: EXIT_OK, or the error's status with its line printed. */
static int take(const struct cli_command *cmd, const struct cli_option *o, const char *arg, void *settings)
{
    char *field = (char *)settings + o->field;
    double v = 0;
    switch (o->kind) {
    case CLI_FLAG: *(int *)field = 1; return EXIT_OK;
    case CLI_TEXT:
    case CLI_FILE:
    case CLI_DIR: *(const char **)field = arg; return EXIT_OK;
    case CLI_INT:
    case CLI_WHOLE:
    case CLI_NUMBER:
    case CLI_FLOAT:
        if (cli_parse_number(o->name, arg, o->lo, o->hi, o->kind == CLI_INT || o->kind == CLI_WHOLE, &v))
            return EXIT_INPUT;
        if (o->kind == CLI_INT) *(int *)field = (int)v;
        else if (o->kind == CLI_FLOAT) *(float *)field = (float)v;
        else *(double *)field = v;
        return EXIT_OK;
    case CLI_SECONDS:
        if (units_parse_duration(arg, &v) || !(v >= o->lo && v <= o->hi)) {
            cli_error(_("--%s %s: expected seconds from %g to %g"), o->name, arg, o->lo, o->hi);
            return EXIT_INPUT;
        }
        *(double *)field = v;
        return EXIT_OK;
    case CLI_CHOICE: {
        char err[512] = "";
        if (!o->parse(arg, field, err, sizeof err)) return EXIT_OK;
        if (err[0]) cli_error("--%s: %s", o->name, err);
        else cli_error(_("--%s %s: expected %s"), o->name, arg, o->expected);
        return EXIT_INPUT;
    }
    case CLI_LIST: {
        int *count = (int *)((char *)settings + o->count);
        if (*count >= (int)o->hi) return cli_usage_error(cmd->name, _("too many --%s options (%d at most)"), o->name, (int)o->hi);
        ((const char **)field)[(*count)++] = arg;
        return EXIT_OK;
    }
    }
    return EXIT_OK;
}

int cli_options_parse(const struct cli_command *cmd, struct globals *g, int argc, char **argv, void *settings,
                      cli_given *given)
{
    struct option opts[80];
    char shorts[64];
    cli_options_getopt(cmd, opts, 80, shorts, sizeof shorts);
    *given = 0;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
        if (opt == 'h') {
            cli_options_help(cmd, stdout);
            return -1;
        }
        if (opt == ':') return cli_usage_error(cmd->name, _("option '%s' needs a value"), argv[optind - 1]);
        if (opt == '?') {
            if (optopt > 0 && optopt < 0x80) return cli_usage_error(cmd->name, _("unknown option '-%c'"), optopt);
            return cli_usage_error(cmd->name, _("unknown option '%s'%s"), argv[optind - 1],
                                   cmd->unknown_suffix ? _(cmd->unknown_suffix) : "");
        }
        if (cli_global_option(g, opt, optarg)) continue;
        int row = row_of_value(cmd, opt);
        if (row < 0) continue;
        int rc = take(cmd, &cmd->options[row], optarg, settings);
        if (rc != EXIT_OK) return rc;
        *given |= (cli_given)1 << row;
    }
    if ((g->config || g->no_config) && !cmd->reads_config)
        return cli_not_applicable(cmd->name, g->config ? "--config" : "--no-config", _("to recommend and the interface"));
    return EXIT_OK;
}

int cli_options_refuse(const struct cli_command *cmd, cli_given given, unsigned mode)
{
    for (int i = 0; i < cmd->count; i++) {
        unsigned modes = cmd->options[i].modes;
        if (!CLI_GIVEN(given, i) || !modes || (modes & mode)) continue;
        char list[256] = "", where[320], name[64];
        int count = 0, n = 0;
        for (unsigned m = modes; m; m &= m - 1) count++;
        for (int bit = 0; bit < 32; bit++) {
            if (!(modes >> bit & 1)) continue;
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", n == 0 ? "" : n + 1 == count ? _(" and ") : _(", "),
                     _(cmd->mode_names[bit]));
            n++;
        }
        snprintf(where, sizeof where, _("to %s"), list);
        snprintf(name, sizeof name, "--%s", cmd->options[i].name);
        return cli_not_applicable(cmd->name, name, where);
    }
    return EXIT_OK;
}

/* The help's left column for a row: its label, or "-l, --name ARG". */
static void row_label(const struct cli_option *o, char *out, size_t n)
{
    if (o->label) snprintf(out, n, "%s", o->label);
    else if (o->letter) snprintf(out, n, "-%c, --%s%s%s", o->letter, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    else snprintf(out, n, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

void cli_options_help(const struct cli_command *cmd, FILE *out)
{
    fputs(_(cmd->head), out);
    int column = cmd->column;
    for (int i = 0; i < cmd->count; i++) {
        const struct cli_option *o = &cmd->options[i];
        if (!o->help) continue;
        char label[128];
        row_label(o, label, sizeof label);
        int width = (int)strlen(label) + 2;
        if (width + 1 > column) fprintf(out, "  %s\n%*s", label, column, "");
        else fprintf(out, "  %s%*s", label, column - width, "");
        for (const char *line = _(o->help); *line;) {
            size_t len = strcspn(line, "\n");
            fprintf(out, "%.*s\n", (int)len, line);
            line += len;
            if (*line == '\n' && *++line) fprintf(out, "%*s", column, "");
        }
    }
    fputs(_(cmd->tail), out);
    if (cmd->list) cmd->list(out);
}
