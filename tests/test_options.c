/* The commands' option tables (cli/options.h): the getopt array each builds, every kind of value on
 * both sides of its range, the refusals of options given where they change nothing, and the help
 * drawn from the rows: within 80 columns and naming exactly the table's options. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"
#include "knowledge/answer_keys.h"
#include "knowledge/kb.h"
#include "tests/support.h"

TestSuite(options, .timeout = 60);

static const struct cli_command *const commands[] = {
    &cli_probe_command, &cli_recommend_command, &cli_train_command, &cli_train_gpt_command, &cli_kb_command,
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };
static const char *const globals[] = {"db", "no-color", "wide", "config", "no-config", "lang", "help"};

/* Error lines go nowhere between quiet() and loud(): the status is what these tests read. */
static int quiet(void)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, STDERR_FILENO), close(null);
    return saved;
}

static void loud(int saved)
{
    fflush(stderr);
    if (saved >= 0) dup2(saved, STDERR_FILENO), close(saved);
}

/* Parses the NULL-terminated words (after the command's name) into settings; the status. */
static int parse_words(const struct cli_command *cmd, void *settings, cli_given *given, const char *const *words)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)cmd->name;
    for (; *words && argc < 31; words++) argv[argc++] = (char *)*words;
    argv[argc] = NULL;
    struct globals g = {NULL, 0, NULL, 0};
    optind = 0; /* glibc: a full reset between parses */
    int saved = quiet();
    int status = cli_options_parse(cmd, &g, argc, argv, settings, given);
    loud(saved);
    return status;
}
#define PARSE(cmd, settings, given, ...) parse_words((cmd), (settings), (given), (const char *const[]){__VA_ARGS__, NULL})

/* --- a table of every kind -------------------------------------------------------------- */

struct every {
    int flag, whole_int, choice, nlist;
    double whole, number, seconds;
    float real;
    const char *text, *list[2];
};

static int parse_ab(const char *arg, void *field, char *err, size_t errsz)
{
    (void)err, (void)errsz;
    if (strcmp(arg, "a") && strcmp(arg, "b")) return -1;
    *(int *)field = arg[0] - 'a';
    return 0;
}

enum { E_FLAG, E_INT, E_WHOLE, E_NUMBER, E_REAL, E_SECONDS, E_TEXT, E_CHOICE, E_LIST, E_COUNT };
#define F(member) offsetof(struct every, member)
static const struct cli_option every_rows[E_COUNT] = {
    [E_FLAG] = {"flag", 0, CLI_FLAG, 0, 0, F(flag), 0, NULL, NULL, 1, NULL, NULL, "a flag"},
    [E_INT] = {"int", 'i', CLI_INT, 1, 1024, F(whole_int), 0, NULL, NULL, 0, NULL, "N", "an int"},
    [E_WHOLE] = {"whole", 0, CLI_WHOLE, 0, 1e12, F(whole), 0, NULL, NULL, 0, NULL, "N", "a whole number"},
    [E_NUMBER] = {"number", 0, CLI_NUMBER, 1e-3, 1e6, F(number), 0, NULL, NULL, 2, NULL, "X", "a number"},
    [E_REAL] = {"real", 0, CLI_FLOAT, 0, 0.999999, F(real), 0, NULL, NULL, 0, NULL, "X", "a float"},
    [E_SECONDS] = {"seconds", 0, CLI_SECONDS, 1, 86400, F(seconds), 0, NULL, NULL, 0, NULL, "S", "a duration"},
    [E_TEXT] = {"text", 't', CLI_TEXT, 0, 0, F(text), 0, NULL, NULL, 0, NULL, "T", "text"},
    [E_CHOICE] = {"choice", 0, CLI_CHOICE, 0, 0, F(choice), 0, parse_ab, "a or b", 0, NULL, "C", "a or b"},
    [E_LIST] = {"list", 0, CLI_LIST, 0, 2, F(list), F(nlist), NULL, NULL, 0, NULL, "L", "at most two"},
};
#undef F
static const char *const every_modes[] = {"mode one", "mode two"};
static const struct cli_command every = {"every", every_rows, E_COUNT, every_modes, "head\n", "tail\n", 20, NULL, NULL, NULL, NULL, 0};

Test(options, getopt_array_has_every_row_once_then_the_globals)
{
    for (int c = 0; c < NCOMMANDS; c++) {
        const struct cli_command *cmd = commands[c];
        struct option opts[96];
        char shorts[64];
        int n = cli_options_getopt(cmd, opts, 96, shorts, sizeof shorts);
        cr_expect_lt(cmd->count, 64, "%s: a row more than cli_given holds", cmd->name);
        cr_expect_eq(n, cmd->count + (int)(sizeof globals / sizeof globals[0]), "%s: %d entries for %d rows", cmd->name,
                     n, cmd->count);
        cr_expect_null(opts[n].name, "%s: the zero row ends the array", cmd->name);
        cr_expect_eq(strncmp(shorts, ":h", 2), 0, "%s: %s", cmd->name, shorts);
        for (int i = 0; i < cmd->count; i++) {
            const struct cli_option *o = &cmd->options[i];
            int found = 0;
            for (int j = 0; j < n; j++)
                if (strcmp(opts[j].name, o->name) == 0) {
                    found++;
                    cr_expect_eq(opts[j].has_arg, o->kind == CLI_FLAG ? no_argument : required_argument, "%s --%s",
                                 cmd->name, o->name);
                }
            cr_expect_eq(found, 1, "%s --%s: %d times in getopt's array", cmd->name, o->name, found);
            if (o->letter) {
                char want[3] = {o->letter, o->kind == CLI_FLAG ? '\0' : ':', '\0'};
                cr_expect(strstr(shorts, want) != NULL, "%s -%c in '%s'", cmd->name, o->letter, shorts);
            }
        }
        for (size_t gl = 0; gl < sizeof globals / sizeof globals[0]; gl++) {
            int found = 0;
            for (int j = 0; j < n; j++) found += strcmp(opts[j].name, globals[gl]) == 0;
            cr_expect_eq(found, 1, "%s --%s", cmd->name, globals[gl]);
        }
    }
}

/* The global --config and --no-config: taken by the command that reads the config file (recommend),
 * a usage error for every other. */
Test(options, config_options_only_where_the_config_is_read)
{
    for (int c = 0; c < NCOMMANDS; c++) {
        const struct cli_command *cmd = commands[c];
        alignas(max_align_t) char settings[8192] = {0};
        cli_given given;
        int want = cmd == &cli_recommend_command ? 0 : 2;
        cr_expect_eq(cmd->reads_config, cmd == &cli_recommend_command, "%s", cmd->name);
        cr_expect_eq(PARSE(cmd, settings, &given, "--config", "team.conf"), want, "%s --config", cmd->name);
        memset(settings, 0, sizeof settings);
        cr_expect_eq(PARSE(cmd, settings, &given, "--no-config"), want, "%s --no-config", cmd->name);
        memset(settings, 0, sizeof settings);
        cr_expect_eq(PARSE(cmd, settings, &given, "--wide"), 0, "%s: another global option is no refusal", cmd->name);
    }
}

Test(options, every_kind_on_both_sides_of_its_range)
{
    static const struct {
        const char *opt, *value;
        int status;
    } cases[] = {
        {"--int", "0", EXIT_INPUT},          {"--int", "1", EXIT_OK},          {"--int", "1024", EXIT_OK},
        {"--int", "1025", EXIT_INPUT},       {"--int", "1.5", EXIT_INPUT},     {"--int", "1K", EXIT_OK},
        {"--whole", "-1", EXIT_INPUT},       {"--whole", "1T", EXIT_OK},       {"--whole", "1.001T", EXIT_INPUT},
        {"--number", "0.0009", EXIT_INPUT},  {"--number", "0.001", EXIT_OK},   {"--number", "1M", EXIT_OK},
        {"--number", "1000001", EXIT_INPUT}, {"--real", "0.999999", EXIT_OK},  {"--real", "1", EXIT_INPUT},
        {"--real", "0", EXIT_OK},            {"--seconds", "0.5", EXIT_INPUT}, {"--seconds", "1", EXIT_OK},
        {"--seconds", "24h", EXIT_OK},       {"--seconds", "86401", EXIT_INPUT}, {"--seconds", "2x", EXIT_INPUT},
        {"--seconds", "1.5m", EXIT_OK},      {"--seconds", "0x10", EXIT_INPUT}, {"--seconds", " 5", EXIT_INPUT},
        {"--seconds", "1e1m", EXIT_INPUT},   {"--seconds", "5sm", EXIT_INPUT}, {"--seconds", "m", EXIT_INPUT},
        {"--choice", "b", EXIT_OK},          {"--choice", "c", EXIT_INPUT},    {"--text", "", EXIT_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct every e = {0};
        cli_given given;
        int status = PARSE(&every, &e, &given, cases[i].opt, cases[i].value);
        cr_expect_eq(status, cases[i].status, "%s %s: %d", cases[i].opt, cases[i].value, status);
    }
    struct every e = {0};
    cli_given given;
    cr_assert_eq(PARSE(&every, &e, &given, "--flag", "-i", "7", "--whole", "70B", "--number", "2.5", "--real", "0.5",
                       "--seconds", "2m", "-t", "x", "--choice", "b", "--list", "p", "--list", "q"),
                 EXIT_OK);
    cr_expect_eq(e.flag, 1);
    cr_expect_eq(e.whole_int, 7);
    cr_expect_eq(e.whole, 70e9);
    cr_expect_eq(e.number, 2.5);
    cr_expect_eq(e.real, 0.5f);
    cr_expect_eq(e.seconds, 120);
    cr_expect_str_eq(e.text, "x");
    cr_expect_eq(e.choice, 1);
    cr_expect_eq(e.nlist, 2);
    cr_expect_str_eq(e.list[1], "q");
    cr_expect_eq(given, (1u << E_COUNT) - 1, "every row given: %#llx", (unsigned long long)given);
    struct every f = {0};
    cr_expect_eq(PARSE(&every, &f, &given, "--list", "p", "--list", "q", "--list", "r"), EXIT_USAGE, "a third --list");
    cr_expect_eq(PARSE(&every, &f, &given, "--bogus"), EXIT_USAGE);
    cr_expect_eq(PARSE(&every, &f, &given, "--int"), EXIT_USAGE, "a missing value");
    cr_expect_eq(PARSE(&every, &f, &given, "--flag", "--text", "y"), EXIT_OK);
    cr_expect_eq(given, 1u << E_FLAG | 1u << E_TEXT);
    cr_expect_eq(cli_options_refuse(&every, given, 1), EXIT_OK, "--flag applies to mode one");
    int saved = quiet();
    int refused = cli_options_refuse(&every, given, 2);
    loud(saved);
    cr_expect_eq(refused, EXIT_USAGE, "--flag does not apply to mode two");
}

/* Every number row of every command: lo and hi taken, one step beyond either refused (exit 3). */
Test(options, every_numeric_row_takes_its_bounds_and_refuses_beyond)
{
    for (int c = 0; c < NCOMMANDS; c++) {
        const struct cli_command *cmd = commands[c];
        for (int i = 0; i < cmd->count; i++) {
            const struct cli_option *o = &cmd->options[i];
            if (o->kind != CLI_INT && o->kind != CLI_WHOLE && o->kind != CLI_NUMBER && o->kind != CLI_FLOAT &&
                o->kind != CLI_SECONDS)
                continue;
            cr_assert_lt(o->field, 8192 - sizeof(double), "%s --%s", cmd->name, o->name);
            int whole = o->kind == CLI_INT || o->kind == CLI_WHOLE;
            double step = whole ? 1 : fmax(fabs(o->hi) * 1e-3, 1e-6);
            const double values[4] = {o->lo, o->hi, o->lo - step, o->hi + step};
            for (int k = 0; k < 4; k++) {
                alignas(max_align_t) char settings[8192] = {0};
                char name[64], text[64];
                snprintf(name, sizeof name, "--%s", o->name);
                snprintf(text, sizeof text, "%.17g", values[k]);
                cli_given given;
                int status = PARSE(cmd, settings, &given, name, text);
                cr_expect_eq(status, k < 2 ? EXIT_OK : EXIT_INPUT, "%s %s %s: %d", cmd->name, name, text, status);
            }
        }
    }
    /* The figures the help states. */
    static const struct {
        const struct cli_command *cmd;
        const char *opt;
        double lo, hi;
    } pinned[] = {
        {&cli_probe_command, "threads", 1, 1024},          {&cli_probe_command, "framework-timeout", 1, 86400},
        {&cli_train_command, "threads", 1, 1024},          {&cli_train_gpt_command, "threads", 1, 1024},
        {&cli_train_command, "steps", 1, 1e7},             {&cli_train_gpt_command, "n-embd", 1, 65536},
        {&cli_train_command, "max-memory", 1e-3, 1e6},     {&cli_recommend_command, "set", 0, 64},
    };
    for (size_t p = 0; p < sizeof pinned / sizeof pinned[0]; p++) {
        int found = 0;
        for (int i = 0; i < pinned[p].cmd->count; i++) {
            const struct cli_option *o = &pinned[p].cmd->options[i];
            if (strcmp(o->name, pinned[p].opt) != 0) continue;
            found = 1;
            cr_expect_eq(o->lo, pinned[p].lo, "%s --%s", pinned[p].cmd->name, o->name);
            cr_expect_eq(o->hi, pinned[p].hi, "%s --%s", pinned[p].cmd->name, o->name);
        }
        cr_expect(found, "%s --%s", pinned[p].cmd->name, pinned[p].opt);
    }
}

/* The words "--x" of a text, each once, into names (at most max); their count. */
static int option_words(const char *text, char names[][32], int max)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, "--")) != NULL;) {
        p += 2;
        size_t len = 0;
        while ((p[len] >= 'a' && p[len] <= 'z') || (p[len] >= '0' && p[len] <= '9') || (len && p[len] == '-')) len++;
        if (!len || len >= 32) continue;
        int seen = 0;
        for (int i = 0; i < n; i++) seen |= strlen(names[i]) == len && strncmp(names[i], p, len) == 0;
        if (!seen && n < max) memcpy(names[n], p, len), names[n][len] = '\0', n++;
    }
    return n;
}

static int is_global(const char *name)
{
    for (size_t i = 0; i < sizeof globals / sizeof globals[0]; i++)
        if (strcmp(globals[i], name) == 0) return 1;
    return 0;
}

/* A command's whole help, as --help prints it. */
static char *help_of(const struct cli_command *cmd)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    cli_options_help(cmd, out);
    fclose(out);
    return text;
}

Test(options, every_help_fits_80_columns_and_names_exactly_its_rows)
{
    for (int c = 0; c < NCOMMANDS; c++) {
        const struct cli_command *cmd = commands[c];
        char *text = help_of(cmd);
        cr_expect_leq(ts_max_width(text), 80, "%s:\n%s", cmd->name, text);
        char words[96][32];
        int n = option_words(text, words, 96);
        for (int i = 0; i < cmd->count; i++) {
            int found = 0;
            for (int w = 0; w < n; w++) found |= strcmp(words[w], cmd->options[i].name) == 0;
            if (cmd->options[i].letter) { /* a row with a letter may be listed by it alone: "-o FILE" */
                char shortopt[4] = {'-', cmd->options[i].letter, ' ', '\0'};
                found |= strstr(text, shortopt) != NULL;
            }
            cr_expect(found, "%s --help lacks --%s", cmd->name, cmd->options[i].name);
        }
        for (int w = 0; w < n; w++) {
            int row = 0;
            for (int i = 0; i < cmd->count; i++) row |= strcmp(words[w], cmd->options[i].name) == 0;
            cr_expect(row || is_global(words[w]), "%s --help names --%s, which is no row", cmd->name, words[w]);
        }
        free(text);
    }
}

/* A row with help starts a line "  LABEL" and its help at the command's column. */
Test(options, help_lines_come_from_the_rows)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cli_options_help(&every, out);
    fclose(out);
    cr_expect(strstr(text, "head\n  --flag            a flag\n  -i, --int N       an int\n") == text, "%s", text);
    cr_expect(strstr(text, "  --seconds S       a duration\n") != NULL, "%s", text);
    cr_expect(strstr(text, "at most two\ntail\n") != NULL, "%s", text);
    free(text);
}

static const char *const env[] = {"NO_COLOR=1", "FWADVISOR_DB=/nonexistent/kb.sqlite3", NULL};

/* Runs the program: the exit status and the whole of stderr as expected. */
static void expect_exactly(const char *const *args, int status, const char *err)
{
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, args), 0);
    cr_expect_eq(r.status, status, "%s %s: %d %s", args[0], args[1], r.status, r.err);
    cr_expect_str_eq(r.err, err, "%s %s", args[0], args[1]);
    ts_run_free(&r);
}

/* An option where it would change nothing: exactly one line naming where it applies, the hint,
 * and exit 2, before any work or database. */
Test(options, an_option_in_the_wrong_mode_is_refused_with_one_exact_line)
{
    static const struct {
        const char *args[8];
        const char *err;
    } cases[] = {
        {{"probe", "list", "--threads", "2"}, "fwadvisor: --threads applies to a measurement: it would change nothing here\n"
                                              "Try 'fwadvisor probe --help'.\n"},
        {{"probe", "delete", "x", "-o", "f.json"},
         "fwadvisor: --output applies to probe list, probe show and a measurement: it would change nothing here\n"
         "Try 'fwadvisor probe --help'.\n"},
        {{"kb", "path", "--user"}, "fwadvisor: --user applies to kb export: it would change nothing here\n"
                                   "Try 'fwadvisor kb --help'.\n"},
        {{"recommend", "--list-presets", "--emit", "d"},
         "fwadvisor: --emit applies to a recommendation: it would change nothing here\n"
         "Try 'fwadvisor recommend --help'.\n"},
        {{"train", "--layers", "4,2", "--device", "cuda", "--max-memory", "2"},
         "fwadvisor: --max-memory applies to --device cpu: it would change nothing here\n"
         "Try 'fwadvisor train --help'.\n"},
        {{"train", "--layers", "4,2", "--optimizer", "adam", "--momentum", "0.5"},
         "fwadvisor: --momentum applies to --optimizer momentum only: it would change nothing here\n"
         "Try 'fwadvisor train --help'.\n"},
        {{"train", "--model", "gpt", "--device", "cuda:0", "--threads", "3"},
         "fwadvisor: --threads applies to --device cpu: it would change nothing here\n"
         "Try 'fwadvisor train --help'.\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_exactly(cases[i].args, 2, cases[i].err);
}

/* A range error: one line, exit 3, the same words for the same option in every command. */
Test(options, a_value_out_of_range_is_one_line)
{
    static const struct {
        const char *args[6];
        const char *err;
    } cases[] = {
        {{"probe", "--threads", "0"}, "fwadvisor: --threads 0: expected a whole number from 1 to 1024\n"},
        {{"probe", "--threads", "1025"}, "fwadvisor: --threads 1025: expected a whole number from 1 to 1024\n"},
        {{"train", "--layers", "4,2", "--threads", "1025"},
         "fwadvisor: --threads 1025: expected a whole number from 1 to 1024\n"},
        {{"probe", "--framework-timeout", "86401"}, "fwadvisor: --framework-timeout 86401: expected seconds from 1 to 86400\n"},
        {{"train", "--model", "gpt", "--precision", "fp16"}, "fwadvisor: --precision fp16: expected fp32, tf32 or bf16\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_exactly(cases[i].args, 3, cases[i].err);
}

/* No function in the program's sources runs over 120 lines: from the line that opens its body at column 0 (or ends
 * its signature with " {") to the "}" at column 0 that closes it. */
/* The functions' lengths in one folder's sources; returns the number of files read. */
static int check_function_lengths(const char *folder)
{
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/../../%s", fixtures ? fixtures : "tests/fixtures", folder);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    int files = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 3 || (strcmp(e->d_name + n - 2, ".c") != 0 && strcmp(e->d_name + n - 3, ".cu") != 0)) continue;
        char path[4500];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = ts_read(path, NULL);
        cr_assert_not_null(text, "%s", path);
        files++;
        int line = 1, start = 0;
        for (char *p = text; *p; line++) {
            char *end = strchr(p, '\n');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            int opens = (len == 1 && p[0] == '{') ||
                        (len > 2 && p[0] != ' ' && p[0] != '#' && p[len - 1] == '{' && p[len - 2] == ' ' &&
                         p[len - 3] == ')');
            if (opens && !start) start = line;
            else if (len == 1 && p[0] == '}' && start) {
                cr_expect_leq(line - start + 1, 120, "%s/%s: the function from line %d has %d lines", folder, e->d_name,
                              start, line - start + 1);
                start = 0;
            }
            p = end ? end + 1 : p + len;
        }
        free(text);
    }
    closedir(d);
    return files;
}

Test(options, no_function_over_120_lines)
{
    static const struct {
        const char *folder;
        int at_least;
    } folders[] = {{"cli", 8}, {"tui", 10}, {"probes", 15}, {"knowledge", 20}, {"engine", 10}, {"engine/cuda", 3}, {"common", 8}};
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++)
        cr_expect_geq(check_function_lengths(folders[i].folder), folders[i].at_least, "the %s/ sources were read",
                      folders[i].folder);
}

/* The help's own lists come from their tables: every answer key after recommend's "Keys:", every
 * `kb list` kind after kb's "KIND:" (the first marked the default), so that a new key or kind is
 * its row, not its row and a line of help kept by hand. */
/* 1 when word occurs in text as a whole word (not inside a longer key's name). */
static int has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        char before = p == text ? ' ' : p[-1], after = p[n];
        int inner = (before >= 'a' && before <= 'z') || before == '_' || (after >= 'a' && after <= 'z') || after == '_';
        if (!inner) return 1;
    }
    return 0;
}

Test(options, the_lists_of_keys_and_kinds_come_from_their_tables)
{
    char *text = help_of(&cli_recommend_command);
    const char *keys = strstr(text, "\nKeys: ");
    cr_assert_not_null(keys, "%s", text);
    for (int i = 0; i < ans_key_count; i++) cr_expect(has_word(keys, ans_keys[i].name), "Keys: lacks %s", ans_keys[i].name);
    char last[64]; /* the table's last row ends the list */
    snprintf(last, sizeof last, "%s. Values in any case", ans_keys[ans_key_count - 1].name);
    cr_expect(strstr(keys, last), "the last key ends the list: %s", keys);
    free(text);
    text = help_of(&cli_kb_command);
    const char *kinds = strstr(text, "\nKIND: ");
    cr_assert_not_null(kinds, "%s", text);
    cr_expect(strncmp(kinds, "\nKIND: frameworks (default), criteria,", 38) == 0, "%s", kinds);
    for (int i = 0; i < kb_list_kind_count; i++)
        cr_expect(has_word(kinds, kb_list_kind_rows[i].name), "KIND: lacks %s", kb_list_kind_rows[i].name);
    free(text);
}
