/* The top-level commands: what main() dispatches on, and what the help and the shell completions
 * (cli/completion.c) list. */
#include "cli/options.h"

static const struct cli_command *const recommend_tables[] = {&cli_recommend_command, NULL};
static const struct cli_command *const probe_tables[] = {&cli_probe_command, NULL};
static const struct cli_command *const train_tables[] = {&cli_train_command, &cli_train_gpt_command, NULL};
static const struct cli_command *const kb_tables[] = {&cli_kb_command, NULL};
static const struct cli_command *const completion_tables[] = {&cli_completion_command, NULL};
static const struct cli_command *const no_tables[] = {NULL};

const struct cli_top cli_commands[] = {
    {"recommend", cmd_recommend, recommend_tables},
    {"probe", cmd_probe, probe_tables},
    {"train", cmd_train, train_tables},
    {"kb", cmd_kb, kb_tables},
    {"completion", cmd_completion, completion_tables},
    {"help", NULL, no_tables},
};
const int cli_command_count = (int)(sizeof cli_commands / sizeof cli_commands[0]);
