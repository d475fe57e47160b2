/* fwadvisor: command-line entry point. Parses the global options, dispatches the subcommands and
 * is the only place that exits. */
#include "cli/cli.h"
#include "cli/options.h"
#include "knowledge/config_file.h"
#include "knowledge/kb.h"
#include "common/i18n.h"
#include "common/text.h"
#include "tui/tui.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    N_("Usage: fwadvisor [GLOBAL OPTIONS] [COMMAND [ARGS]]\n"
    "\n"
    "Helps choose a deep-learning training framework, distributed stack and\n"
    "deployment path, and measures your own hardware to back the advice.\n"
    "\n"
    "Commands:\n"
    "  (none)          the interactive advisor (when stdin and stdout are terminals)\n"
    "  recommend       ranked, explained recommendation from answers (-a FILE,\n"
    "                  --preset NAME, --set KEY=VALUE)\n"
    "  probe           detect and measure this machine's hardware\n"
    "  train           run the built-in training engine\n"
    "  kb              browse, export, import or reset the knowledge base\n"
    "\n"
    "Global options (before or after the command):\n"
    "  --db PATH       knowledge base file (default: $FWADVISOR_DB, else\n"
    "                  $XDG_DATA_HOME/fwadvisor/kb.sqlite3 or\n"
    "                  ~/.local/share/fwadvisor/kb.sqlite3)\n"
    "  --no-color      no colour or bold (also when NO_COLOR is set, output is not\n"
    "                  a terminal, or an MPI launcher started the program)\n"
    "  --wide          tables at full width, never cut (the default when output is\n"
    "                  not a terminal)\n"
    "  --config FILE   the defaults of recommend and the interface from FILE\n"
    "                  (default, when it exists: $XDG_CONFIG_HOME/fwadvisor/config,\n"
    "                  else ~/.config/fwadvisor/config)\n"
    "  --no-config     recommend and the interface read no config file\n"
    "  --lang en|zh    the language of the text, help and errors: English or\n"
    "                  Chinese (default: LANGUAGE, LC_ALL, LC_MESSAGES or LANG);\n"
    "                  JSON and launch files are the same in every language\n"
    "  -h, --help      show this help\n"
    "  -V, --version   show the version\n"
    "\n"
    "Exit status: 0 success, 1 run-time failure, 2 usage error, 3 invalid input,\n"
    "4 database error. Run 'fwadvisor COMMAND --help' for a command's options.\n");

static int cmd_version(struct globals *g)
{
    printf("fwadvisor %s\n", FWADVISOR_VERSION);
    printf("knowledge base schema %d, SQLite %s\n", KB_SCHEMA_VERSION, sqlite3_libversion());
    (void)g;
    return EXIT_OK;
}

static int run(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    /* The language before anything is printed, so that every line of a run speaks it. */
    const char *lang = NULL;
    int lang_error = cli_lang_option(argc, argv, &lang);
    i18n_init(lang, NULL);
    text_set_ascii(!text_locale_utf8()); /* no '??' on terminals without UTF-8 */
    if (lang_error) return cli_usage_error(NULL, _("--lang %s: expected en or zh"), lang);
    struct globals g = {NULL, cli_color_default(), NULL, 0};
    cli_table_width_default();
    kb_protect_path(NULL); /* --db adds its own as it is read */

    static const struct option opts[] = {
        CLI_GLOBAL_OPTIONS,
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int opt;
    /* "+": stop at the first non-option, the subcommand; ":": a missing value is ':'. */
    while ((opt = getopt_long(argc, argv, "+:hV", opts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(_(usage_text), stdout); return EXIT_OK;
        case 'V': return cmd_version(&g);
        case '?':
            if (optopt) return cli_usage_error(NULL, _("unknown option '-%c'"), optopt);
            return cli_usage_error(NULL, _("unknown or incomplete option '%s'"), argv[optind - 1]);
        case ':': return cli_usage_error(NULL, _("option '%s' needs a value"), argv[optind - 1]);
        default:
            if (!cli_global_option(&g, opt, optarg)) return cli_usage_error(NULL, _("unexpected option"));
        }
    }
    if (optind >= argc) {
        if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
            /* Never draw into a pipe. */
            fputs(_("fwadvisor: the interactive advisor needs a terminal; without one use\n"
                    "  fwadvisor recommend -a answers.json (or --set KEY=VALUE) and fwadvisor probe\n"
                    "Run 'fwadvisor --help' for every command.\n"),
                  stderr);
            return EXIT_USAGE;
        }
        /* the team's defaults under the wizard's questions, and its site in job.sbatch, as for recommend */
        struct config_file *config;
        int rc = cli_load_config(&g, &config);
        if (rc != EXIT_OK) return rc;
        struct tui_options to = {g.db, g.color, config};
        int status = tui_run(&to);
        config_free(config);
        return status == 0 ? EXIT_OK : cli_exit_from_kb(status);
    }
    char *cmd = argv[optind];
    int sub_argc = argc - optind;
    char **sub_argv = argv + optind;
    optind = 0; /* glibc: a full reset for the subcommand's own getopt_long */
    /* The commands (cli/commands.c); names are taken in any case. */
    enum { NAMES_MAX = 16 };
    const char *names[NAMES_MAX + 1];
    int n = 0;
    for (; n < cli_command_count && n < NAMES_MAX; n++) names[n] = cli_commands[n].name;
    names[n] = NULL;
    int i = cli_choice(cmd, names);
    if (i < 0) return cli_unknown(NULL, _("command"), cmd, names);
    if (!cli_commands[i].run) {
        fputs(_(usage_text), stdout);
        return EXIT_OK;
    }
    return cli_commands[i].run(&g, sub_argc, sub_argv);
}

int main(int argc, char **argv)
{
    int rc = run(argc, argv);
    /* Output that could not be written (a full disk, a closed pipe) is a failure, whatever the
     * command thought of its own work. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (rc == EXIT_OK) cli_error(_("cannot write to standard output: %s"), strerror(errno ? errno : EIO));
        if (rc == EXIT_OK) rc = EXIT_RUNTIME;
    }
    return rc;
}
