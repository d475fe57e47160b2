/* Shared by the command-line front end (cli/). Command functions return an exit status; only
 * main() exits. */
#ifndef FWADVISOR_CLI_H
#define FWADVISOR_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

enum exit_code {
    EXIT_OK = 0,
    EXIT_RUNTIME = 1, /* failure at run time */
    EXIT_USAGE = 2,   /* bad command line */
    EXIT_INPUT = 3,   /* invalid input file or value */
    EXIT_DB = 4,      /* database error */
};

struct globals {
    const char *db;     /* --db PATH, or NULL */
    int color;          /* colour and bold allowed on stdout */
    const char *config; /* --config FILE, or NULL: the default file (knowledge/config_file.h) */
    int no_config;      /* --no-config: no config file at all */
};

/* getopt_long's ids of the global options; a command's rows take the ids from OPT_FIRST_FREE on
 * (cli/options.h). */
enum { OPT_DB = 0x100, OPT_NO_COLOR, OPT_WIDE, OPT_CONFIG, OPT_NO_CONFIG, OPT_LANG, OPT_FIRST_FREE };

/* The global options, accepted after the subcommand too: entries of a struct option table. */
#define CLI_GLOBAL_OPTIONS                                                                                          \
    {"db", required_argument, NULL, OPT_DB}, {"no-color", no_argument, NULL, OPT_NO_COLOR},                       \
        {"wide", no_argument, NULL, OPT_WIDE}, {"config", required_argument, NULL, OPT_CONFIG},                    \
        {"no-config", no_argument, NULL, OPT_NO_CONFIG}, {"lang", required_argument, NULL, OPT_LANG},              \
        {"help", no_argument, NULL, 'h'}

/* The value of the last --lang (or --lang=) in argv before a "--", read before anything else so
 * that the whole run speaks it: 0 with *lang set (NULL: none), or 1 for a value other than en
 * and zh (*lang is that value). The parsers then take --lang where it stands as already done. */
int cli_lang_option(int argc, char **argv, const char **lang);

/* Handles the global options a subcommand parser met; 1 if it was one. */
int cli_global_option(struct globals *g, int opt, const char *arg);

/* Colour and bold on standard output: a terminal, NO_COLOR unset, TERM not dumb, and no MPI
 * launcher (Open MPI gives its ranks a pseudo-terminal even when their output goes to a file). */
int cli_color_default(void);
/* Tables and lists as wide as the terminal (at least 80 columns), or never cut when standard
 * output is not a terminal or --wide was given (common/text.h, text_set_table_width). */
void cli_table_width_default(void);


/* Prints "fwadvisor: msg" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints an error and "Try 'fwadvisor CMD --help'." and returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The usage error for an unknown word among choices (NULL-terminated): "unknown WHAT 'x' (did you
 * mean 'y'?)" by common/suggest.h, else the choices listed. Returns EXIT_USAGE. */
int cli_unknown(const char *cmd, const char *what, const char *word, const char *const *choices);
/* The index of word among choices, any case, or -1. */
int cli_choice(const char *word, const char *const *choices);
/* An option that does nothing with the others given: "OPT applies to WHEN" (exit 2). */
int cli_not_applicable(const char *cmd, const char *opt, const char *when);

/* Reads a whole file ("-" for stdin, at most 64 MiB) into a NUL-terminated buffer the caller
 * frees. Returns 0, or -1 with a message in err. */
int cli_read_file(const char *path, char **data, size_t *len, char *err, size_t errsz);
/* Writes data to path (common/file.h: atomic for a regular file, in place for a FIFO or a
 * terminal, never over a directory), or to stdout when path is NULL or "-". Prints the error
 * and returns the exit status: 0, 2 for a target that cannot be a file, 1 for other failures. */
int cli_write_output(const char *path, const char *data, size_t len);
/* Whether path ("-" and NULL: standard output) can be written, before the work that fills it:
 * prints the error and returns what the write would: refused_status for a target that cannot be
 * a file (2 as cli_write_output, 1 as cli_write_html), 1 for a missing or read-only folder; else 0. */
int cli_check_output(const char *path, int refused_status);
/* The same for a JSON document, indented, with a final newline; cut down to the members of
 * --fields when the command set them (exit 2 naming a member the document lacks). */
int cli_write_json(const cJSON *doc, const char *path);
/* A command's --fields (NULL: none), for every document it writes (common/json_doc.h, json_select);
 * json_out says whether the command line asks for JSON at all: without it, --fields is refused
 * (exit 2). Returns 0 or that status. */
int cli_json_fields(const char *cmd, const char *fields, int json_out);
/* An HTML page (--html FILE): written as cli_write_output does, but every failure, a directory
 * as the target included, is a failure at run time (1), and success says where on stderr. */
struct html;
int cli_write_html(const char *path, const struct html *page);

/* Parses the value s of option --opt as a number in [lo, hi] (a whole one when integer; K/M/B/T
 * suffixes as common/units.h reads them); on failure prints the error and returns -1. */
int cli_parse_number(const char *opt, const char *s, double lo, double hi, int integer, double *out);

/* A float as the double JSON should print: the shortest decimal that reads back as the same
 * float (0.001f is 0.001, not 0.0010000000474974513). */
double cli_float(float f);
/* The memory a CPU training run may take: --max-memory GB when given (> 0), else what this
 * machine has available (0 when unknown); *what names which, for the refusal. */
double cli_train_memory_limit(double max_memory_gb, const char **what);
/* The training commands' step-time line (seconds in), within 80 columns. */
void cli_print_step_times(double median, double min, double max, int n);

/* Maps a knowledge-base status to an exit code. */
int cli_exit_from_kb(int status);

/* Opens the knowledge base --db or the environment names (creating it on first use); on failure
 * prints the error and returns the exit code. */
struct kb;
int cli_open_kb(struct globals *g, struct kb **k);
/* The same for commands that only read: on a read-only or full disk they work on an in-memory
 * copy (kb_open_read). */
int cli_open_kb_read(struct globals *g, struct kb **k);

/* The config file (knowledge/config_file.h) recommend and the interface read: none under
 * --no-config, the file --config names (it must exist), else the default file when there is one.
 * EXIT_OK with *out set (NULL: none), or EXIT_INPUT with the line printed. */
struct config_file;
int cli_load_config(const struct globals *g, struct config_file **out);

/* Subcommands. argv[0] is the subcommand name. */
int cmd_kb(struct globals *g, int argc, char **argv);
int cmd_recommend(struct globals *g, int argc, char **argv);
int cmd_train(struct globals *g, int argc, char **argv);
/* Training progress on stdout (cmd_train.c): the first step, every `every`th and the last; nothing
 * with json. An on_step callback of the engine's training loops. */
struct cli_train_progress {
    int every, steps, json;
};
int cli_train_on_step(void *ctx, int step, float loss, double seconds);
/* The training commands' --optimizer and --precision values (fp32, tf32, bf16; fp16 is not taken),
 * as cli/options.h's CLI_CHOICE rows read them. */
int cli_parse_optimizer(const char *arg, void *field, char *err, size_t errsz);
int cli_parse_precision(const char *arg, void *field, char *err, size_t errsz);
/* The training commands' modes, for the options' rows: on the CPU or on a GPU, and with the
 * momentum optimizer. */
enum { CLI_TRAIN_CPU = 1, CLI_TRAIN_GPU = 2, CLI_TRAIN_MOMENTUM = 4 };
extern const char *const cli_train_modes[];
/* The rows both training commands share, so their ranges and choices are one: a row of
 * cli/options.h with the settings' field (offsetof) and, where the models differ, the help. */
#define CLI_TRAIN_ROW_MODEL(field) {"model", 0, CLI_TEXT, 0, 0, field, 0, NULL, NULL, 0, NULL, "M", NULL}
#define CLI_TRAIN_ROW_INIT(field, help) \
    {"init", 0, CLI_FILE, 0, 0, field, 0, NULL, NULL, 0, "--init F, --save F", NULL, help}
#define CLI_TRAIN_ROW_SAVE(field) {"save", 0, CLI_FILE, 0, 0, field, 0, NULL, NULL, 0, NULL, "F", NULL}
#define CLI_TRAIN_ROW_DEVICE(field, help) {"device", 0, CLI_TEXT, 0, 0, field, 0, NULL, NULL, 0, NULL, "D", help}
#define CLI_TRAIN_ROW_STEPS(field) \
    {"steps", 0, CLI_WHOLE, 1, 1e7, field, 0, NULL, NULL, 0, NULL, "N", "training steps (default 100)"}
#define CLI_TRAIN_ROW_OPTIMIZER(field, help) \
    {"optimizer", 0, CLI_CHOICE, 0, 0, field, 0, cli_parse_optimizer, "sgd, momentum, adam or adamw", 0, NULL, "O", help}
#define CLI_TRAIN_ROW_LR(field) \
    {"lr", 0, CLI_FLOAT, 0, 1e6, field, 0, NULL, NULL, 0, NULL, "X", "learning rate (default 0.001)"}
#define CLI_TRAIN_ROW_WD(field, help) {"weight-decay", 0, CLI_FLOAT, 0, 1e6, field, 0, NULL, NULL, 0, NULL, "X", help}
#define CLI_TRAIN_ROW_MOMENTUM(field) \
    {"momentum", 0, CLI_FLOAT, 0, 0.999999, field, 0, NULL, NULL, CLI_TRAIN_MOMENTUM, NULL, "X",                    \
     "for the momentum optimizer only (default 0.9)"}
#define CLI_TRAIN_ROW_SEED(field, help) \
    {"seed", 0, CLI_WHOLE, 0, 9007199254740991.0, field, 0, NULL, NULL, 0, NULL, "N", help}
#define CLI_TRAIN_ROW_PRECISION(field, help) \
    {"precision", 0, CLI_CHOICE, 0, 0, field, 0, cli_parse_precision, "fp32, tf32 or bf16", 0, NULL, "P", help}
#define CLI_TRAIN_ROW_THREADS(field, help) \
    {"threads", 0, CLI_INT, 1, 1024, field, 0, NULL, NULL, CLI_TRAIN_CPU, NULL, "N", help}
#define CLI_TRAIN_ROW_MAX_MEMORY(field, help) \
    {"max-memory", 0, CLI_NUMBER, 1e-3, 1e6, field, 0, NULL, NULL, CLI_TRAIN_CPU, NULL, "GB", help}
/* fwadvisor.train/1 on stdout, for both models: the config (the MLP's layers first, when given),
 * the losses, the step times (seconds in, milliseconds out) and the results. A field is a number,
 * or text when text is not NULL. Returns the exit status. */
struct cli_train_field {
    const char *key, *text;
    double number;
};
struct cli_train_report {
    const int *layers;
    int nlayers, nconfig, nsteps, timed, nresults;
    const struct cli_train_field *config, *results;
    const float *losses;
    double median, min, max;
};
int cli_train_json(const struct cli_train_report *r);
/* `fwadvisor train --model gpt ...` (cmd_train_gpt.c), called by cmd_train. */
int cmd_train_gpt(struct globals *g, int argc, char **argv);
int cmd_probe(struct globals *g, int argc, char **argv);
/* `fwadvisor completion bash|zsh|fish`: the shell's completion script, drawn from the command and
 * option tables, the answer keys and the built-in knowledge base (cli/completion.c). */
int cmd_completion(struct globals *g, int argc, char **argv);

#include "common/text.h"

#endif
