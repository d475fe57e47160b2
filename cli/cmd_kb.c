/* fwadvisor kb: list, show, export, import, path, reset. */
#include "cli/cli.h"
#include "common/i18n.h"
#include "cli/options.h"
#include "common/text.h"
#include "knowledge/advisor.h"
#include "knowledge/answer_keys.h"
#include "knowledge/kb.h"
#include "knowledge/kb_text.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char kb_head[] =
    N_("Usage: fwadvisor kb list [KIND] [--json [--fields LIST]]\n"
    "       fwadvisor kb show ID [--json [--fields LIST]]\n"
    "       fwadvisor kb export [-o FILE] [--user]\n"
    "       fwadvisor kb import FILE|-\n"
    "       fwadvisor kb path\n"
    "       fwadvisor kb reset --yes\n"
    "\n");
static const char kb_tail[] =
    N_("  --wide          tables at full width, never cut\n"
    "  --db PATH       knowledge base file\n"
    "  --no-color      no colour or bold\n");

/* The kinds `kb list` takes, from their table (the first the default), and what an ID is. */
static void kb_kinds_help(FILE *out)
{
    char kinds[512];
    size_t used = 0;
    for (int i = 0; i < kb_list_kind_count && used < sizeof kinds; i++)
        used += (size_t)snprintf(kinds + used, sizeof kinds - used, "%s%s%s", i ? _(", ") : "", kb_list_kind_rows[i].name,
                                 i ? "" : _(" (default)"));
    if (used < sizeof kinds) snprintf(kinds + used, sizeof kinds - used, "%s", _("."));
    fputs(_("\nKIND: "), out);
    text_wrap(out, kinds, 6, 6);
    fputs(_("ID:   any framework, strategy, runtime, hardware platform, criterion,\n"
            "      accelerator, rule or source id, e.g. pytorch, zero3, litert, nvidia,\n"
            "      debugging, h100-sxm, seed-001 (any case).\n"),
          out);
}

static const char *str(const cJSON *row, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num(const cJSON *row, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* A table whose cells are computed per row into a scratch block, ncols strings of 256 bytes. */
struct cells {
    char (*buf)[256];
    const char **ptrs;
    int ncols;
};

static int cells_init(struct cells *c, int nrows, int ncols)
{
    size_t n = (size_t)(nrows ? nrows : 1) * (size_t)ncols;
    c->buf = calloc(n, sizeof *c->buf);
    c->ptrs = calloc(n, sizeof *c->ptrs);
    c->ncols = ncols;
    for (size_t i = 0; c->buf && c->ptrs && i < n; i++) c->ptrs[i] = c->buf[i];
    return c->buf && c->ptrs ? 0 : -1;
}

static char *cell(struct cells *c, int r, int col) { return c->buf[r * c->ncols + col]; }

static void cells_free(struct cells *c)
{
    free(c->buf);
    free((void *)c->ptrs);
}

static int list_hardware_text(const cJSON *rows, int bold)
{
    /* The platforms are the hardware answer's values, auto left out. */
    const char *const *platforms = ans_hardware + 1;
    enum { NP_MAX = 32 };
    int np = 0;
    while (platforms[np] && np < NP_MAX) np++;
    /* Frameworks in the order the rows list them. */
    const char *fws[64];
    int nfw = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        const char *fw = str(row, "framework");
        int seen = 0;
        for (int i = 0; i < nfw; i++) seen |= strcmp(fws[i], fw) == 0;
        if (!seen && nfw < 64) fws[nfw++] = fw;
    }
    struct cells c;
    if (cells_init(&c, nfw, np + 1)) return EXIT_RUNTIME;
    for (int i = 0; i < nfw; i++) {
        snprintf(cell(&c, i, 0), 256, "%s", fws[i]);
        for (int p = 0; p < np; p++) snprintf(cell(&c, i, p + 1), 256, "?");
    }
    cJSON_ArrayForEach(row, rows) {
        for (int i = 0; i < nfw; i++) {
            if (strcmp(fws[i], str(row, "framework")) != 0) continue;
            for (int p = 0; p < np; p++)
                if (strcmp(platforms[p], str(row, "hardware")) == 0)
                    snprintf(cell(&c, i, p + 1), 256, "%s%s", kb_level_short(str(row, "level")),
                             cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(row, "os_support")) ? "*" : "");
        }
    }
    struct text_column cols[NP_MAX + 1] = {{_("FRAMEWORK"), 0, 0}};
    for (int p = 0; p < np; p++) cols[p + 1] = (struct text_column){platforms[p], 0, 0};
    text_table(stdout, cols, np + 1, c.ptrs, nfw, bold);
    cells_free(&c);
    printf("\n%s\n", _(kb_level_legend));
    fputs(_("*: limits on some operating systems. Details: fwadvisor kb show FRAMEWORK\n"), stdout);
    return EXIT_OK;
}

/* One cell of a `kb list` column (knowledge/kb.h, kb_list_kind_rows). */
static void fill_cell(char *out, size_t n, const cJSON *row, const struct kb_list_column *col)
{
    double v = num(row, col->field);
    switch (col->cell) {
    case KB_CELL_TEXT: snprintf(out, n, "%s", kb_text_field(row, col->field)); break;
    case KB_CELL_NUMBER: snprintf(out, n, "%g", v); break;
    case KB_CELL_WHOLE: snprintf(out, n, "%.0f", v); break;
    case KB_CELL_WEIGHT: snprintf(out, n, "%.2g", v); break;
    case KB_CELL_RATE:
        if (v > 0) snprintf(out, n, "%g", v);
        else snprintf(out, n, "-");
        break;
    case KB_CELL_LIST:
    case KB_CELL_LIST_OR_DASH:
        kb_text_join(cJSON_GetObjectItemCaseSensitive(row, col->field), ", ", out, n);
        if (!out[0] && col->cell == KB_CELL_LIST_OR_DASH) snprintf(out, n, "-");
        break;
    case KB_CELL_TITLE:
        snprintf(out, n, "%s", *str(row, col->field) ? kb_text_field(row, col->field) : kb_text_field(row, "text"));
        break;
    }
}

static int list_text(const struct kb_list_kind *kind, const cJSON *rows, int bold)
{
    int n = cJSON_GetArraySize(rows);
    if (kind->matrix) return list_hardware_text(rows, bold);
    struct text_column cols[KB_LIST_MAX_COLUMNS];
    int ncols = 0;
    for (; ncols < KB_LIST_MAX_COLUMNS && kind->cols[ncols].header; ncols++)
        cols[ncols] = (struct text_column){_(kind->cols[ncols].header), kind->cols[ncols].flex, kind->cols[ncols].right};
    struct cells c;
    if (cells_init(&c, n, ncols)) {
        cli_error("%s", _("out of memory"));
        return EXIT_RUNTIME;
    }
    int r = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        for (int col = 0; col < ncols; col++) fill_cell(cell(&c, r, col), 256, row, &kind->cols[col]);
        r++;
    }
    text_table(stdout, cols, ncols, c.ptrs, n, bold);
    cells_free(&c);
    printf(_("\n%d %s. Details: fwadvisor kb show ID\n"), n, kind->name);
    return EXIT_OK;
}

/* `kb show` as text: the lines of knowledge/kb_text.h, labels padded, paragraphs wrapped. */
static void show_line(void *ctx, const struct kb_text_line *l)
{
    int bold = *(const int *)ctx;
    char text[2600];
    switch (l->kind) {
    case KB_TEXT_TITLE:
        if (bold) fputs("\033[1m", stdout);
        if (l->label) { /* the name in bold, the rest on its line */
            text_put(stdout, l->label);
            if (bold) fputs("\033[0m", stdout);
            text_put(stdout, l->text);
            putchar('\n');
        } else {
            text_wrap(stdout, l->text, 0, 0);
            if (bold) fputs("\033[0m", stdout);
        }
        break;
    case KB_TEXT_PARA: text_wrap(stdout, l->text, 0, 0); break;
    case KB_TEXT_HEADING:
        fputs(bold ? "\n\033[1m" : "\n", stdout);
        text_put(stdout, l->text);
        fputs(bold ? "\033[0m\n" : "\n", stdout);
        break;
    case KB_TEXT_ITEM:
    case KB_TEXT_FIELD:
    case KB_TEXT_SOURCE:
        snprintf(text, sizeof text, "%s%s%s", l->text, l->url ? " " : "", l->url ? l->url : "");
        text_printf(stdout, "  %-*s ", l->label_width, l->label);
        text_wrap(stdout, text, 3 + l->label_width, 3 + l->label_width);
        break;
    }
}

/* A progress line on a terminal for large imports. */
static void import_progress(void *ctx, size_t done, size_t total)
{
    (void)ctx;
    fputc('\r', stderr);
    fprintf(stderr, _("importing: %zu of %zu rows"), done, total);
    fflush(stderr);
}

/* --- the subcommands: parsed once, each a row with the options it takes ---------------- */

struct kb_args {
    struct globals *g;
    char **args;
    int nargs, json, yes, user_only;
    const char *output, *fields;
};

static int kb_path_cmd(struct kb_args *a)
{
    char path[PATH_MAX], err[1024];
    int is_default;
    if (kb_resolve_path(a->g->db, path, sizeof path, &is_default, err, sizeof err) != KB_OK) {
        cli_error("%s", err);
        return EXIT_DB;
    }
    text_put(stdout, path);
    putchar('\n');
    return EXIT_OK;
}

static int kb_reset_cmd(struct kb_args *a)
{
    if (!a->yes)
        return cli_usage_error("kb", "%s", _("kb reset replaces the knowledge base (your imported facts and probe "
                                             "runs go with it, into FILE.bak); add --yes to confirm"));
    char path[PATH_MAX], backup[PATH_MAX + 16], err[1024];
    int is_default;
    int status = kb_resolve_path(a->g->db, path, sizeof path, &is_default, err, sizeof err);
    if (status == KB_OK) status = kb_reset(path, is_default, backup, sizeof backup, err, sizeof err);
    if (status != KB_OK) {
        cli_error("%s", err);
        return cli_exit_from_kb(status);
    }
    if (backup[0]) text_printf(stdout, _("knowledge base reset: %s (previous file kept as %s)"), path, backup);
    else text_printf(stdout, _("knowledge base created: %s"), path);
    putchar('\n');
    return EXIT_OK;
}

static int kb_list_cmd(struct kb_args *a)
{
    const char *const *kinds = kb_list_kind_names();
    int known = a->nargs ? cli_choice(a->args[0], kinds) : 0;
    if (known < 0) return cli_unknown("kb", _("kind"), a->args[0], kinds);
    const struct kb_list_kind *kind = &kb_list_kind_rows[known];
    kb *k;
    char err[1024];
    int rc = cli_open_kb_read(a->g, &k);
    if (rc != EXIT_OK) return rc;
    cJSON *rows = NULL;
    int status = kb_list(k, kind->name, &rows, err, sizeof err);
    kb_close(k);
    if (status != KB_OK) {
        cli_error("%s", err);
        return cli_exit_from_kb(status);
    }
    rc = a->json ? cli_write_json(rows, NULL) : list_text(kind, rows, a->g->color);
    cJSON_Delete(rows);
    return rc;
}

static int kb_show_cmd(struct kb_args *a)
{
    kb *k;
    char err[1024];
    int rc = cli_open_kb_read(a->g, &k), bold = a->g->color;
    if (rc != EXIT_OK) return rc;
    cJSON *obj = NULL;
    int status = kb_show(k, a->args[0], &obj, err, sizeof err);
    kb_close(k);
    if (status != KB_OK) {
        cli_error("%s", err);
        return cli_exit_from_kb(status);
    }
    if (a->json) rc = cli_write_json(obj, NULL);
    else kb_fact_text(obj, show_line, &bold), rc = EXIT_OK;
    cJSON_Delete(obj);
    return rc;
}

static int kb_export_cmd(struct kb_args *a)
{
    kb *k;
    char err[1024];
    int rc = cli_open_kb_read(a->g, &k);
    if (rc != EXIT_OK) return rc;
    cJSON *doc = NULL;
    int status = kb_export(k, a->user_only, &doc, err, sizeof err);
    kb_close(k);
    if (status != KB_OK) {
        cli_error("%s", err);
        return cli_exit_from_kb(status);
    }
    rc = cli_write_json(doc, a->output);
    cJSON_Delete(doc);
    if (rc == EXIT_OK && a->output && strcmp(a->output, "-") != 0) {
        text_printf(stderr, _("exported to %s"), a->output);
        fputc('\n', stderr);
    }
    return rc;
}

static int kb_import_cmd(struct kb_args *a)
{
    char *data, err[1024];
    size_t len;
    if (cli_read_file(a->args[0], &data, &len, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    kb *k;
    int rc = cli_open_kb(a->g, &k);
    if (rc != EXIT_OK) {
        free(data);
        return rc;
    }
    struct kb_import_stats stats;
    int progress = isatty(STDERR_FILENO);
    if (progress) kb_set_progress(k, import_progress, NULL);
    int status = kb_import(k, data, len, strcmp(a->args[0], "-") == 0 ? "standard input" : a->args[0], &stats, err,
                           sizeof err);
    if (progress) fputs("\r\033[K", stderr); /* the progress line, cleared */
    free(data);
    kb_close(k);
    if (status != KB_OK) {
        cli_error("%s", err);
        return cli_exit_from_kb(status);
    }
    printf(_("imported %d facts: %d added, %d changed, %d unchanged\n"), stats.added + stats.changed + stats.unchanged,
           stats.added, stats.changed, stats.unchanged);
    if (stats.one_language == 1)
        printf("%s\n", _("1 fact has its text in one language only; the other language shows it as it is"));
    else if (stats.one_language > 1)
        printf(_("%d facts have their text in one language only; the other language shows it as it is\n"),
               stats.one_language);
    return EXIT_OK;
}

static const struct kb_sub {
    const char *name;
    int min_args, max_args;
    const char *args_error; /* when the count is outside [min_args, max_args] */
    int (*run)(struct kb_args *a);
    enum cli_kind arg; /* what its argument is, for the shell completions (cli/options.h) */
} kb_subs[] = {
    {"list", 0, 1, N_("kb list takes at most one KIND"), kb_list_cmd, CLI_CHOICE},
    {"show", 1, 1, N_("kb show takes one ID"), kb_show_cmd, CLI_TEXT},
    {"export", 0, 0, N_("kb export takes no arguments (use -o FILE)"), kb_export_cmd, CLI_FLAG},
    {"import", 1, 1, N_("kb import takes one FILE (or - for standard input)"), kb_import_cmd, CLI_FILE},
    {"path", 0, 0, N_("kb path takes no arguments"), kb_path_cmd, CLI_FLAG},
    {"reset", 0, 0, N_("kb reset takes no arguments"), kb_reset_cmd, CLI_FLAG},
};
#define NSUBS (int)(sizeof kb_subs / sizeof kb_subs[0])

/* The subcommands for the completions; kb list's words are the kinds. */
static int kb_sub(int i, struct cli_sub *out)
{
    if (i < 0 || i >= NSUBS) return -1;
    *out = (struct cli_sub){kb_subs[i].name, kb_subs[i].arg, kb_subs[i].arg == CLI_CHOICE ? kb_list_kind_names() : NULL};
    return 0;
}

/* The modes of the options' rows: bit i is kb_subs[i]. */
enum { KM_LIST = 1, KM_SHOW = 2, KM_EXPORT = 4, KM_IMPORT = 8, KM_PATH = 16, KM_RESET = 32 };
static const char *const kb_modes[] = {"kb list", "kb show", "kb export", "kb import", "kb path", "kb reset"};
_Static_assert(sizeof kb_modes / sizeof kb_modes[0] == NSUBS, "a mode name for every kb subcommand");

enum { K_JSON, K_FIELDS, K_OUTPUT, K_USER, K_YES, K_COUNT };
#define F(member) offsetof(struct kb_args, member)
static const struct cli_option kb_options[K_COUNT] = {
    [K_JSON] = {"json", 0, CLI_FLAG, 0, 0, F(json), 0, NULL, NULL, KM_LIST | KM_SHOW, NULL, NULL,
                N_("print JSON instead of text")},
    [K_FIELDS] = {"fields", 0, CLI_TEXT, 0, 0, F(fields), 0, NULL, NULL, KM_LIST | KM_SHOW, NULL, "LIST",
                  N_("with --json: only these members, dotted paths split\nby commas: --fields id,name")},
    [K_OUTPUT] = {"output", 'o', CLI_FILE, 0, 0, F(output), 0, NULL, NULL, KM_EXPORT, NULL, "F",
                  N_("export to file F (written atomically) instead of standard\noutput")},
    [K_USER] = {"user", 0, CLI_FLAG, 0, 0, F(user_only), 0, NULL, NULL, KM_EXPORT, NULL, NULL,
                N_("export only the facts you imported or changed")},
    [K_YES] = {"yes", 0, CLI_FLAG, 0, 0, F(yes), 0, NULL, NULL, KM_RESET, NULL, NULL,
               N_("confirm kb reset (the old file is kept as FILE.bak)")},
};
#undef F

const struct cli_command cli_kb_command = {"kb", kb_options, K_COUNT, kb_modes, kb_head, kb_tail, 18, NULL, kb_kinds_help,
                                        kb_sub, NULL, 0};

int cmd_kb(struct globals *g, int argc, char **argv)
{
    struct kb_args a = {.g = g};
    cli_given given;
    int rc = cli_options_parse(&cli_kb_command, g, argc, argv, &a, &given);
    if (rc != EXIT_OK) return rc < 0 ? EXIT_OK : rc;
    const char *names[NSUBS + 1];
    for (int i = 0; i < NSUBS; i++) names[i] = kb_subs[i].name;
    names[NSUBS] = NULL;
    if (optind >= argc) return cli_usage_error("kb", "%s", _("missing subcommand (list, show, export, import, path, reset)"));
    int which = cli_choice(argv[optind], names);
    if (which < 0) return cli_unknown("kb", _("kb subcommand"), argv[optind], names);
    const struct kb_sub *sub = &kb_subs[which];
    a.args = argv + optind + 1;
    a.nargs = argc - optind - 1;
    /* Options that only some subcommands take. */
    if ((rc = cli_options_refuse(&cli_kb_command, given, 1u << which)) != EXIT_OK) return rc;
    if ((rc = cli_json_fields("kb", a.fields, a.json)) != EXIT_OK) return rc;
    if (a.nargs < sub->min_args || a.nargs > sub->max_args) return cli_usage_error("kb", "%s", _(sub->args_error));
    return sub->run(&a);
}
