/* The shell completions: `fwadvisor completion bash|zsh|fish` written from the program's tables,
 * each script run in its real shell (where installed) and its completion asked what it offers for
 * a command line, the cursor at the end of the last word. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/options.h"
#include "knowledge/answer_keys.h"
#include "knowledge/kb.h"
#include "tests/support.h"

enum shell { BASH, ZSH, FISH, NSHELLS };
static const char *const shell_names[] = {"bash", "zsh", "fish"};

static char *dir;
static char scripts[NSHELLS][4200];
static const char *env[] = {"FWADVISOR_DB", "NO_COLOR=1", "LC_ALL=C.UTF-8", NULL};

static void setup(void)
{
    dir = ts_tmpdir();
    cr_assert_not_null(dir);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(completion, .init = setup, .fini = teardown, .timeout = 120);

/* The shell's path on PATH (as `command -v` finds it), or NULL. */
static const char *shell_path(enum shell sh)
{
    static char found[NSHELLS][4200];
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t len = strcspn(p, ":");
        snprintf(found[sh], sizeof found[sh], "%.*s/%s", (int)len, p, shell_names[sh]);
        if (len && access(found[sh], X_OK) == 0) return found[sh];
        p += len + (p[len] == ':');
    }
    return NULL;
}

/* The shell's path, the test skipped with the reason when it is not installed; its script
 * written by the program into the test's folder. */
static const char *need_shell(enum shell sh)
{
    const char *path = shell_path(sh);
    if (!path) cr_skip_test("%s is not installed here (command -v %s finds nothing)", shell_names[sh], shell_names[sh]);
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){"completion", shell_names[sh], NULL}), 0);
    cr_assert_eq(r.status, 0, "completion %s: %s", shell_names[sh], r.err);
    cr_assert_str_empty(r.err, "completion %s", shell_names[sh]);
    snprintf(scripts[sh], sizeof scripts[sh], "%s/fwadvisor.%s", dir, shell_names[sh]);
    cr_assert_eq(ts_write_str(scripts[sh], r.out), 0);
    ts_run_free(&r);
    return path;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Lines (up to a tab: fish's descriptions) sorted and joined by single spaces. */
static void sorted_words(char *text, char *out, size_t n)
{
    char *lines[512];
    int count = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && count < 512; line = strtok_r(NULL, "\n", &save)) {
        line[strcspn(line, "\t")] = '\0';
        if (*line) lines[count++] = line;
    }
    qsort(lines, (size_t)count, sizeof *lines, cmp_str);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < count && used < n; i++) used += (size_t)snprintf(out + used, n - used, "%s%s", i ? " " : "", lines[i]);
}

/* zsh's completion builtins work only inside a completion widget: these stand-ins print what the
 * script offers, filtered by PREFIX as zsh would, and _files says what it was asked for. */
static const char zsh_stubs[] =
    "compdef() { :; }\n"
    "compset() { [[ $1 == -P ]] || return 1; local m=${(M)PREFIX##$~2}; [[ -n $m ]] || return 1;\n"
    "  IPREFIX+=$m; PREFIX=${PREFIX#$m}; }\n"
    "compadd() { local pre= suf= w; while [[ $1 == -* && $1 != -- ]]; do case $1 in\n"
    "  -S) suf=$2; shift 2;; -P) pre=$2; shift 2;; *) shift;; esac; done; [[ $1 == -- ]] && shift\n"
    "  for w; do [[ $w == ${PREFIX}* ]] && print -r -- \"$IPREFIX$pre$w$suf\"; done; }\n"
    "_files() { print -r -- \"<files${*:+ $*}>\"; }\n";

/* What the shell's completion offers for the words (the last the one being completed), sorted and
 * joined by spaces, into out. In bash the words are COMP_WORDS as given (bash itself splits at =
 * and :, which split_words tests). */
static void complete_in(enum shell sh, const char *const *words, char *out, size_t n)
{
    char driver[8192];
    size_t used = 0;
    int count = 0;
    while (words[count]) count++;
    if (sh == BASH) {
        used += (size_t)snprintf(driver + used, sizeof driver - used, "source '%s'\nCOMP_WORDS=(", scripts[sh]);
        for (int i = 0; i < count; i++) used += (size_t)snprintf(driver + used, sizeof driver - used, " '%s'", words[i]);
        snprintf(driver + used, sizeof driver - used, ")\nCOMP_CWORD=%d\n_fwadvisor\nprintf '%%s\\n' \"${COMPREPLY[@]}\"\n",
                 count - 1);
    } else if (sh == ZSH) {
        used += (size_t)snprintf(driver + used, sizeof driver - used, "%ssource '%s'\nwords=(", zsh_stubs, scripts[sh]);
        for (int i = 0; i < count; i++) used += (size_t)snprintf(driver + used, sizeof driver - used, " '%s'", words[i]);
        snprintf(driver + used, sizeof driver - used, ")\nCURRENT=%d PREFIX=${words[CURRENT]} IPREFIX=\n_fwadvisor\n:\n", count);
    } else {
        used += (size_t)snprintf(driver + used, sizeof driver - used, "source '%s'\ncomplete -C '", scripts[sh]);
        for (int i = 0; i < count; i++) used += (size_t)snprintf(driver + used, sizeof driver - used, "%s%s", i ? " " : "", words[i]);
        snprintf(driver + used, sizeof driver - used, "'\n");
    }
    static const char *const bash_args[] = {"--norc", "--noprofile", "-s", NULL};
    static const char *const zsh_args[] = {"-f", "-s", NULL};
    static const char *const fish_args[] = {"--no-config", NULL};
    const char *const *args = sh == BASH ? bash_args : sh == ZSH ? zsh_args : fish_args;
    struct ts_run r;
    cr_assert_eq(ts_exec(&r, shell_path(sh), env, driver, args), 0);
    cr_assert_eq(r.status, 0, "%s: %s", shell_names[sh], r.err);
    cr_expect_str_empty(r.err, "%s on '%s'", shell_names[sh], driver);
    sorted_words(r.out, out, n);
    ts_run_free(&r);
}

#define OFFERS(sh, want, ...)                                                                                        \
    do {                                                                                                             \
        const char *const w_[] = {"fwadvisor", __VA_ARGS__, NULL};                                                   \
        char got_[8192];                                                                                             \
        complete_in((sh), w_, got_, sizeof got_);                                                                    \
        cr_expect_str_eq(got_, (want), "%s: %s %s %s: offers '%s', not '%s'", shell_names[sh], w_[1], w_[2] ? w_[2] : "", \
                         w_[2] && w_[3] ? w_[3] : "", got_, (want));                                                 \
    } while (0)

/* A key's choices from the answer table as "key=v1 key=v2 ...", sorted as the shells' answers are. */
static void key_choices(int index, char *out, size_t n)
{
    const struct ans_key *key = &ans_keys[index];
    char lines[2048];
    size_t used = 0;
    for (int i = 0; i < key->nchoices; i++)
        used += (size_t)snprintf(lines + used, sizeof lines - used, "%s=%s\n", key->name, key->choices[i].value);
    sorted_words(lines, out, n);
}

/* The same queries in every shell: options, keys, values, subcommands, the values the scan skips. */
static void completes_everything(enum shell sh)
{
    need_shell(sh);
    OFFERS(sh, "--set --sweep", "recommend", "--s");
    OFFERS(sh, "--set", "recommend", "--se");
    OFFERS(sh, "accelerator=", "recommend", "--set", "acc");
    /* accelerator, active_params, arch: the three keys that begin with a */
    OFFERS(sh, "accelerator= active_params= arch=", "recommend", "--set", "a");
    char want[2048];
    key_choices(ANS_PRECISION, want, sizeof want);
    cr_expect_str_eq(want, "precision=bf16 precision=fp16 precision=fp32 precision=fp8");
    OFFERS(sh, want, "recommend", "--set", "precision=");
    OFFERS(sh, "precision=fp16 precision=fp32 precision=fp8", "recommend", "--set", "precision=f");
    key_choices(ANS_LORA_TARGETS, want, sizeof want);
    OFFERS(sh, want, "recommend", "--set", "lora_targets=");
    /* --sweep takes the same keys, its values after the comma */
    OFFERS(sh, "deploy=edge,browser", "recommend", "--sweep", "deploy=edge,b");
    /* a list of the knowledge base's framework ids, "none" among them */
    OFFERS(sh, "team=pytorch,jax", "recommend", "--set", "team=pytorch,j");
    OFFERS(sh, "team=none", "recommend", "--set", "team=n");
    /* the catalog's ids, the shipped models */
    OFFERS(sh, "accelerator=h100-sxm", "recommend", "--set", "accelerator=h10");
    OFFERS(sh, "accelerator=mi325x", "recommend", "--set", "accelerator=mi32");
    OFFERS(sh, "model=mixtral-8x22b model=mixtral-8x7b", "recommend", "--set", "model=mixtral");
    /* subcommands, kb list's kinds, the shells */
    OFFERS(sh, "list", "kb", "l");
    OFFERS(sh, "accelerators", "kb", "list", "ac");
    OFFERS(sh, "bash fish zsh", "completion", "");
    OFFERS(sh, "delete", "probe", "d");
    /* a choice row's words; the words of the tables --preset, --model and --workload are
     * checked against, a workload list's after its last comma */
    OFFERS(sh, "adam adamw", "train", "--optimizer", "ad");
    OFFERS(sh, "tpu-pod", "recommend", "--preset", "tpu");
    OFFERS(sh, "mistral-7b", "recommend", "--model", "mis");
    OFFERS(sh, "gemm,stream", "probe", "--workload", "gemm,st");
    OFFERS(sh, "all allreduce", "probe", "--workload", "al");
    /* train --model is the engine's model (mlp, gpt), not a shipped one */
    OFFERS(sh, "", "train", "--model", "mis");
    OFFERS(sh, "gelu", "train", "--activation", "g");
    /* the options of both train tables */
    OFFERS(sh, "--n-embd --n-head --n-layer --no-color", "train", "--n");
    /* --config only with the command that reads the config file, and its value is a file */
    OFFERS(sh, "--no-color --no-config", "recommend", "--no-");
    OFFERS(sh, "", "kb", "--no-con");
    /* and before any command: the interface reads the file too */
    OFFERS(sh, "--no-config", "--no-con");
    /* --config's value before a command is a file, then the commands follow it */
    OFFERS(sh, "kb", "--config", "x", "k");
    /* --db's value is not the command: after it, commands, and kb's subcommands only after kb */
    OFFERS(sh, "kb", "--db", "x", "k");
    OFFERS(sh, "list", "--db", "x", "kb", "li");
    OFFERS(sh, "list", "kb", "--json", "li");
}

Test(completion, bash_completes_options_keys_values_and_subcommands) { completes_everything(BASH); }
Test(completion, zsh_completes_options_keys_values_and_subcommands) { completes_everything(ZSH); }
Test(completion, fish_completes_options_keys_values_and_subcommands) { completes_everything(FISH); }

/* Numbers have no fixed set: nothing is offered after devices=, nor for a free option's value. */
static void offers_nothing_for_free_values(enum shell sh)
{
    need_shell(sh);
    OFFERS(sh, "", "recommend", "--set", "devices=");
    OFFERS(sh, "", "recommend", "--set", "model_params=7");
    OFFERS(sh, "", "train", "--steps", "1");
    /* kb is --db's value here, so li is a command, and none begins so */
    OFFERS(sh, "", "--db", "kb", "li");
}

Test(completion, bash_offers_nothing_for_free_values) { offers_nothing_for_free_values(BASH); }
Test(completion, zsh_offers_nothing_for_free_values) { offers_nothing_for_free_values(ZSH); }

/* File and folder arguments: the options of kind CLI_FILE and CLI_DIR and kb import. */
static void completes_files(enum shell sh)
{
    need_shell(sh);
    char path[4400], sub[4400], word[4400];
    snprintf(path, sizeof path, "%s/answers.json", dir);
    cr_assert_eq(ts_write_str(path, "{}"), 0);
    snprintf(path, sizeof path, "%s/another.txt", dir);
    cr_assert_eq(ts_write_str(path, ""), 0);
    snprintf(path, sizeof path, "%s/other.txt", dir);
    cr_assert_eq(ts_write_str(path, ""), 0);
    snprintf(sub, sizeof sub, "%s/anfolder", dir);
    cr_assert_eq(mkdir(sub, 0755), 0);
    char want[9000];
    snprintf(word, sizeof word, "%s/an", dir);
    if (sh == ZSH) {
        OFFERS(sh, "<files>", "recommend", "-a", word);
        OFFERS(sh, "<files>", "kb", "import", word);
        OFFERS(sh, "<files -/>", "recommend", "--emit", word);
        return;
    }
    /* bash lists the folder among the files (compgen -f), fish marks it with a slash */
    snprintf(want, sizeof want, "%s/anfolder%s %s/another.txt %s/answers.json", dir, sh == FISH ? "/" : "", dir, dir);
    OFFERS(sh, want, "recommend", "-a", word);
    OFFERS(sh, want, "recommend", "--model-config", word);
    OFFERS(sh, want, "train", "--init", word);
    OFFERS(sh, want, "--db", word);
    OFFERS(sh, want, "kb", "import", word);
    snprintf(want, sizeof want, "%s/anfolder%s", dir, sh == FISH ? "/" : "");
    OFFERS(sh, want, "recommend", "--emit", word);
}

Test(completion, bash_completes_file_arguments) { completes_files(BASH); }
Test(completion, zsh_completes_file_arguments) { completes_files(ZSH); }
Test(completion, fish_completes_file_arguments) { completes_files(FISH); }

/* Every accelerator of the built-in catalog, and nothing else, after accelerator=. */
Test(completion, bash_offers_the_whole_catalog_after_accelerator)
{
    need_shell(BASH);
    struct ts_kb t;
    char err[1024];
    cr_assert_eq(ts_kb_open(&t, err, sizeof err), 0, "%s", err);
    double n = ts_kb_number(t.kb, "SELECT count(*) FROM accelerators", NULL);
    char want[8192], first[128], last[128];
    ts_kb_text(t.kb, "SELECT 'accelerator=' || min(id) FROM accelerators", NULL, first, sizeof first);
    ts_kb_text(t.kb, "SELECT 'accelerator=' || max(id) FROM accelerators", NULL, last, sizeof last);
    ts_kb_close(&t);
    cr_assert_gt(n, 30, "the catalog holds %g accelerators", n);
    const char *const words[] = {"fwadvisor", "recommend", "--set", "accelerator=", NULL};
    complete_in(BASH, words, want, sizeof want);
    int count = *want ? 1 : 0;
    for (const char *p = want; *p; p++) count += *p == ' ';
    cr_expect_eq(count, (int)n, "%d offered for %g in the catalog: %s", count, n, want);
    cr_expect_eq(strncmp(want, first, strlen(first)), 0, "%s first in %s", first, want);
    cr_expect(strstr(want, last) != NULL, "%s in %s", last, want);
}

/* bash splits `--set precision=f` at the = (COMP_WORDBREAKS): the words are precision, =, f and
 * readline replaces only the text after the =, so the candidates are the rest of the word (right
 * after the =, the current word is "=" and readline's text the empty one after it). */
Test(completion, bash_completes_after_the_split_at_the_equals_sign)
{
    need_shell(BASH);
    OFFERS(BASH, "bf16 fp16 fp32 fp8", "recommend", "--set", "precision", "=");
    OFFERS(BASH, "fp16 fp32 fp8", "recommend", "--set", "precision", "=", "f");
    /* a comma does not split: the word is the list so far */
    OFFERS(BASH, "pytorch,jax", "recommend", "--set", "team", "=", "pytorch,j");
    /* the word after the split value is the next one, not part of it */
    OFFERS(BASH, "--json", "recommend", "--set", "precision", "=", "bf16", "--js");
}

/* Every command of the command table, and every option row of its tables, is offered by each
 * script: a command or an option added to a table cannot be left out of the completions. */
static void every_command_and_option(enum shell sh)
{
    need_shell(sh);
    char want[8192], lines[8192];
    size_t used = 0;
    for (int c = 0; c < cli_command_count; c++)
        used += (size_t)snprintf(lines + used, sizeof lines - used, "%s\n", cli_commands[c].name);
    sorted_words(lines, want, sizeof want);
    cr_expect(strstr(want, "completion") && strstr(want, "recommend"), "%s", want);
    OFFERS(sh, want, "");
    for (int c = 0; c < cli_command_count; c++) {
        used = 0;
        int rows = 0;
        static const char *const globals[] = {"db", "no-color", "wide", "lang", "help"};
        for (size_t g = 0; g < sizeof globals / sizeof globals[0]; g++)
            used += (size_t)snprintf(lines + used, sizeof lines - used, "--%s\n", globals[g]);
        /* --config and --no-config only where the command reads the config file */
        int reads = 0;
        for (const struct cli_command *const *t = cli_commands[c].tables; *t; t++) reads |= (*t)->reads_config;
        if (reads) used += (size_t)snprintf(lines + used, sizeof lines - used, "--config\n--no-config\n");
        cr_expect_eq(reads, strcmp(cli_commands[c].name, "recommend") == 0, "%s: reads the config file", cli_commands[c].name);
        for (const struct cli_command *const *t = cli_commands[c].tables; *t; t++)
            for (int i = 0; i < (*t)->count; i++) {
                char line[80];
                snprintf(line, sizeof line, "--%s\n", (*t)->options[i].name);
                if (!strstr(lines, line)) used += (size_t)snprintf(lines + used, sizeof lines - used, "%s", line);
                rows++;
            }
        sorted_words(lines, want, sizeof want);
        const char *const words[] = {"fwadvisor", cli_commands[c].name, "--", NULL};
        char got[8192];
        complete_in(sh, words, got, sizeof got);
        cr_expect_str_eq(got, want, "%s %s --: '%s', not '%s'", shell_names[sh], cli_commands[c].name, got, want);
        if (strcmp(cli_commands[c].name, "train") == 0) cr_expect_eq(rows, 21 + 23, "train: the MLP's and the GPT's rows");
    }
}

Test(completion, bash_offers_every_command_and_option_of_the_tables) { every_command_and_option(BASH); }
Test(completion, zsh_offers_every_command_and_option_of_the_tables) { every_command_and_option(ZSH); }
Test(completion, fish_offers_every_command_and_option_of_the_tables) { every_command_and_option(FISH); }

/* Every answer key, once, in each script (a key added to the table is completed with the rest). */
Test(completion, every_answer_key_in_each_script)
{
    for (int sh = 0; sh < NSHELLS; sh++) {
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){"completion", shell_names[sh], NULL}), 0);
        cr_expect_eq(r.status, 0);
        /* the list of keys: one line, each key a word of it */
        const char *list = strstr(r.out, sh == FISH ? "__fwadvisor_key_names " : "_fwadvisor_keys() { echo '");
        cr_assert_not_null(list, "%s: no list of keys", shell_names[sh]);
        list = strchr(list, sh == FISH ? ' ' : '\'') + 1;
        size_t len = strcspn(list, sh == FISH ? "\n" : "'");
        int words = 1;
        for (size_t c = 0; c < len; c++) words += list[c] == ' ';
        cr_expect_eq(words, ans_key_count, "%s: %d keys listed", shell_names[sh], words);
        for (int i = 0; i < ans_key_count; i++) {
            char word[80];
            snprintf(word, sizeof word, "%s%s", i ? " " : "", ans_keys[i].name);
            const char *at = strstr(list, word);
            while (at && at < list + len && !strchr(" '\n", at[strlen(word)])) at = strstr(at + 1, word);
            cr_expect(at && at < list + len, "%s: key %s missing", shell_names[sh], ans_keys[i].name);
        }
        ts_run_free(&r);
    }
}

Test(completion, a_bad_shell_is_one_error_line_and_status_2)
{
    static const char *const bad[][4] = {{"completion", "tcsh", NULL}, {"completion", NULL}, {"completion", "bash", "zsh", NULL}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, bad[i]), 0);
        cr_expect_eq(r.status, 2, "%s: status %d", bad[i][1] ? bad[i][1] : "(none)", r.status);
        cr_expect_str_empty(r.out, "%s", bad[i][1] ? bad[i][1] : "(none)");
        cr_expect_eq(ts_lines(r.err), 1, "one line: '%s'", r.err);
        cr_expect(strstr(r.err, "bash, zsh or fish") != NULL, "%s", r.err);
        ts_run_free(&r);
    }
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){"completion", "tcsh", NULL}), 0);
    cr_expect_str_eq(r.err, "fwadvisor: unknown shell 'tcsh' (bash, zsh or fish)\n");
    ts_run_free(&r);
    /* any case, as every command word */
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){"completion", "BASH", NULL}), 0);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "complete -F _fwadvisor fwadvisor") != NULL);
    ts_run_free(&r);
}

/* The global options after the command, as with every command; --help is the command's own. */
Test(completion, takes_the_global_options_and_its_help)
{
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){"completion", "--no-color", "zsh", "--wide", NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_eq(strncmp(r.out, "#compdef fwadvisor\n", 19), 0, "zsh's script begins with its #compdef line");
    ts_run_free(&r);
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){"completion", "--help", NULL}), 0);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "Usage: fwadvisor completion bash|zsh|fish\n") == r.out, "%s", r.out);
    cr_expect_leq(ts_max_width(r.out), 80);
    ts_run_free(&r);
}
