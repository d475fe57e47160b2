/* The commands' options as tables: one row per option, from which come getopt_long's array, the
 * options part of the help, the value checks (ranges, suffixes, choices) and the "applies to"
 * refusals. A command keeps its settings in a struct; each row names its field by offsetof. */
#ifndef FWADVISOR_CLI_OPTIONS_H
#define FWADVISOR_CLI_OPTIONS_H

#include "cli/cli.h"

#include <stddef.h>
#include <stdint.h>

enum cli_kind {
    CLI_FLAG,    /* int, set to 1 */
    CLI_INT,     /* int, a whole number in [lo, hi], K/M/B/T suffixes (common/units.h) */
    CLI_WHOLE,   /* double, a whole number in [lo, hi], suffixes */
    CLI_NUMBER,  /* double in [lo, hi], suffixes */
    CLI_FLOAT,   /* float in [lo, hi], suffixes */
    CLI_SECONDS, /* double, a duration in [lo, hi] seconds: 90, 90s, 2m, 1h */
    CLI_TEXT,    /* const char *, the value as given */
    CLI_FILE,    /* const char *, a file's path as given (shells complete file names) */
    CLI_DIR,     /* const char *, a folder's path as given (shells complete folder names) */
    CLI_CHOICE,  /* a value parse() reads into the field; `expected` names the choices */
    CLI_LIST,    /* const char *[hi], repeatable; the count is the int at `count` */
};

struct cli_option {
    const char *name; /* the long name, without "--" */
    char letter;      /* the short option, or 0 */
    enum cli_kind kind;
    double lo, hi;          /* the range; for CLI_LIST, hi is the most values */
    size_t field;           /* offsetof the value in the command's settings */
    size_t count;           /* CLI_LIST: offsetof the int count */
    /* CLI_CHOICE: 0, or -1 for a value it does not take (a message in err, else `expected` is named) */
    int (*parse)(const char *arg, void *field, char *err, size_t errsz);
    const char *expected;   /* CLI_CHOICE: "relu, gelu or tanh" */
    unsigned modes;         /* the modes (bits) it applies to; 0: every one */
    const char *label;      /* the help's left column, when not "--name ARG" */
    const char *arg;        /* the value's name in the help ("N"); NULL for a flag */
    const char *help;       /* the help's right column, lines split by '\n'; NULL: no line of its own
                             * (the row above's label names it, or the help's head does) */
};

/* A subcommand and what its one argument is: CLI_FILE (a file), CLI_CHOICE (one of `words`,
 * NULL-terminated), else nothing a shell can offer (CLI_TEXT: an id, CLI_FLAG: no argument). */
struct cli_sub {
    const char *name;
    enum cli_kind arg;
    const char *const *words;
};

struct cli_command {
    const char *name;                 /* "probe", for "Try 'fwadvisor probe --help'." */
    const struct cli_option *options;
    int count;
    const char *const *mode_names;    /* the name of mode bit i, for the refusals */
    const char *head, *tail;          /* the help before and after the options */
    int column;                       /* where the help's right column starts */
    const char *unknown_suffix;       /* after "unknown option '--x'" (" for --model gpt"), or NULL */
    void (*list)(FILE *out);          /* the help's last part, drawn from the command's own table
                                       * (probe: its workloads), or NULL */
    /* Its subcommands, for the shell completions: fills *out with the i-th and returns 0, -1 past
     * the last; NULL for a command without subcommands. */
    int (*sub)(int i, struct cli_sub *out);
    /* The words the value of option row `row` may be, drawn from the table that checks it (a
     * preset, a shipped model, a workload), for the completions: the i-th into buf, or NULL past
     * the last; NULL: none beyond a choice row's `expected`. */
    const char *(*words)(int row, int i, char *buf, size_t n);
    int reads_config;                 /* the command reads the config file; elsewhere the global
                                       * --config and --no-config are refused */
};

/* Which rows were given on the command line: bit i for options[i]. */
typedef uint64_t cli_given;
#define CLI_GIVEN(given, row) (((given) >> (row)) & 1u)

/* Parses argv into settings by the command's rows, the global options into g. Returns EXIT_OK,
 * -1 after printing the help, or the error's exit status with its line printed: a range or
 * choice error is invalid input (3), an unknown option or a missing value a usage error (2), as
 * is --config or --no-config for a command that does not read the config file. */
int cli_options_parse(const struct cli_command *cmd, struct globals *g, int argc, char **argv, void *settings,
                      cli_given *given);

/* The first given option whose row does not apply in mode (a set of mode bits): "--X applies to
 * A, B and C: it would change nothing here", exit 2; else EXIT_OK. */
int cli_options_refuse(const struct cli_command *cmd, cli_given given, unsigned mode);

/* The help: head, the options part drawn from the rows, tail. */
void cli_options_help(const struct cli_command *cmd, FILE *out);

/* getopt_long's array for the command (its rows, then the global options, then the zero row) and
 * its short-option string; n is the room in opts. Returns the entries, the zero row left out. */
struct option;
int cli_options_getopt(const struct cli_command *cmd, struct option *opts, int n, char *shorts, size_t shortsz);

/* The commands' tables, for the tests. */
extern const struct cli_command cli_probe_command, cli_recommend_command, cli_train_command, cli_train_gpt_command,
    cli_kb_command, cli_completion_command;

/* The top-level commands (cli/commands.c), in the help's order: the name main() dispatches on, its
 * function (NULL: the usage), and its option tables (NULL-terminated; train has two, one per
 * --model). */
struct cli_top {
    const char *name;
    int (*run)(struct globals *g, int argc, char **argv);
    const struct cli_command *const *tables;
};
extern const struct cli_top cli_commands[];
extern const int cli_command_count;

#endif
