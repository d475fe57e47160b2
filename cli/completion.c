/* fwadvisor completion bash|zsh|fish: the shell's completion script, written from the program's
 * own tables: the commands (cli/commands.c), their option rows and subcommands (cli/options.h),
 * the answer keys and their choices (knowledge/answer_keys.c), the built-in catalog's ids and the
 * shipped models. Nothing in the scripts is a list kept by hand, so they cannot drift from what
 * the program takes. */
#include "cli/cli.h"
#include "common/i18n.h"
#include "cli/options.h"
#include "knowledge/answer_keys.h"
#include "knowledge/kb.h"
#include "knowledge/model_config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char completion_head[] =
    N_("Usage: fwadvisor completion bash|zsh|fish\n"
    "\n"
    "Prints the shell's completion script: commands, subcommands, options,\n"
    "--set KEY= answer keys and their values, catalog ids and file names.\n"
    "make install puts the three where the shells look for them; by hand:\n"
    "  bash: source <(fwadvisor completion bash)\n"
    "  zsh:  fwadvisor completion zsh > ~/.zfunc/_fwadvisor (a folder on $fpath)\n"
    "  fish: fwadvisor completion fish > ~/.config/fish/completions/fwadvisor.fish\n");

/* The shells, in the order the usage names them. */
enum shell { SH_BASH, SH_ZSH, SH_FISH, SH_COUNT };
static const char *const shell_names[] = {"bash", "zsh", "fish", NULL};

/* The shells are the command's one argument, offered as its subcommands. */
static int completion_sub(int i, struct cli_sub *out)
{
    if (i < 0 || i >= SH_COUNT) return -1;
    *out = (struct cli_sub){shell_names[i], CLI_FLAG, NULL};
    return 0;
}

/* No options of its own: the global ones only. */
const struct cli_command cli_completion_command = {"completion", NULL, 0, NULL, completion_head, "", 18, NULL, NULL,
                                                   completion_sub, NULL, 0};

/* --- the words a shell offers ----------------------------------------------------------------- */

/* A list of words, each one a shell takes inside single quotes as it stands. */
struct words {
    char **w;
    int n, cap;
};

/* Letters, digits and ._+:- only: anything else is left out, so that no word can break a script's
 * quoting or reach the terminal raw. */
static int safe_word(const char *s)
{
    if (!s || !*s) return 0;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+:-", *s)) return 0;
    return 1;
}

static int words_add(struct words *ws, const char *w, size_t len)
{
    char word[128];
    if (len >= sizeof word) return 0;
    memcpy(word, w, len);
    word[len] = '\0';
    if (!safe_word(word)) return 0;
    for (int i = 0; i < ws->n; i++)
        if (strcmp(ws->w[i], word) == 0) return 0;
    if (ws->n == ws->cap) {
        int cap = ws->cap ? 2 * ws->cap : 16;
        char **grown = realloc(ws->w, (size_t)cap * sizeof *grown);
        if (!grown) return -1;
        ws->w = grown, ws->cap = cap;
    }
    if (!(ws->w[ws->n] = strdup(word))) return -1;
    ws->n++;
    return 0;
}

static int words_add_str(struct words *ws, const char *w) { return w ? words_add(ws, w, strlen(w)) : 0; }

static void words_free(struct words *ws)
{
    for (int i = 0; i < ws->n; i++) free(ws->w[i]);
    free(ws->w);
    *ws = (struct words){0};
}

/* The words of a choice row's `expected`, "relu, gelu or tanh": what its error names. */
static int words_of_expected(struct words *ws, const char *expected)
{
    for (const char *p = expected; p && *p;) {
        p += strspn(p, ", ");
        size_t len = strcspn(p, ", ");
        if (len && !(len == 2 && strncmp(p, "or", 2) == 0) && words_add(ws, p, len)) return -1;
        p += len;
    }
    return 0;
}

/* --- what the script knows: the model drawn from the tables ------------------------------------ */

/* What a value completes to. */
enum value_class { V_NONE, V_FILE, V_DIR, V_KEYS, V_WORDS };
static const char *const class_names[] = {"any", "file", "dir", "keys", "words"};

struct comp_opt {
    const char *name, *help;
    char letter;
    int takes; /* takes a value */
    enum value_class cls;
    struct words words; /* V_WORDS */
};

struct comp_sub {
    const char *name;
    enum value_class cls; /* its argument */
    struct words words;
};

enum { MAX_OPTS = 80, MAX_SUBS = 16, MAX_CMDS = 16 };

struct comp_cmd {
    const char *name;
    struct comp_opt opts[MAX_OPTS];
    int nopts;
    struct comp_sub subs[MAX_SUBS];
    int nsubs;
};

struct model {
    struct comp_opt globals[8]; /* with every command */
    int nglobals;
    struct comp_opt config[2];  /* with the commands that read the config file */
    int nconfig;
    struct comp_opt top[4];     /* before a command only: --version, and --config and --no-config,
                                 * which the interface (no command) reads */
    int ntop;
    struct comp_cmd cmds[MAX_CMDS];
    int ncmds;
    struct words keys;                    /* the answer keys, in the table's order */
    struct words values[ANS_KEY_COUNT];   /* each key's words: none for a number */
};

static int option_class(const struct cli_command *cmd, int row, struct comp_opt *out)
{
    const struct cli_option *o = &cmd->options[row];
    out->name = o->name;
    out->letter = o->letter;
    out->takes = o->kind != CLI_FLAG;
    out->cls = V_NONE;
    if (o->help) out->help = o->help;
    switch (o->kind) {
    case CLI_FILE: out->cls = V_FILE; break;
    case CLI_DIR: out->cls = V_DIR; break;
    case CLI_CHOICE:
        if (words_of_expected(&out->words, o->expected)) return -1;
        if (out->words.n) out->cls = V_WORDS;
        break;
    default:
        /* --set KEY=VALUE, --sweep KEY=V1,V2,...: an answer key, then its values. */
        if (o->arg && strncmp(o->arg, "KEY=", 4) == 0) out->cls = V_KEYS;
        break;
    }
    char buf[128];
    const char *w;
    for (int i = 0; out->cls != V_FILE && out->cls != V_DIR && cmd->words && (w = cmd->words(row, i, buf, sizeof buf)); i++) {
        if (words_add_str(&out->words, w)) return -1;
        out->cls = V_WORDS;
    }
    return 0;
}

static int command_model(const struct cli_top *top, struct comp_cmd *c)
{
    c->name = top->name;
    for (const struct cli_command *const *t = top->tables; *t; t++) {
        for (int i = 0; i < (*t)->count; i++) {
            const struct cli_option *o = &(*t)->options[i];
            int seen = 0;
            for (int j = 0; j < c->nopts; j++) seen |= strcmp(c->opts[j].name, o->name) == 0;
            if (seen || c->nopts == MAX_OPTS) continue;
            if (option_class(*t, i, &c->opts[c->nopts++])) return -1;
        }
        struct cli_sub s;
        for (int i = 0; (*t)->sub && c->nsubs < MAX_SUBS && (*t)->sub(i, &s) == 0; i++) {
            struct comp_sub *cs = &c->subs[c->nsubs++];
            cs->name = s.name;
            cs->cls = s.arg == CLI_FILE ? V_FILE : s.arg == CLI_CHOICE && s.words ? V_WORDS : V_NONE;
            for (int w = 0; cs->cls == V_WORDS && s.words[w]; w++)
                if (words_add_str(&cs->words, s.words[w])) return -1;
        }
    }
    return 0;
}

/* The ids of one `kb list` kind of the built-in knowledge base. */
static int kb_ids(kb *k, const char *kind, struct words *out, char *err, size_t errsz)
{
    cJSON *rows = NULL;
    if (kb_list(k, kind, &rows, err, errsz) != KB_OK) return -1;
    const cJSON *row;
    int rc = 0;
    cJSON_ArrayForEach(row, rows) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(row, "id");
        if (cJSON_IsString(id) && words_add_str(out, id->valuestring)) rc = -1;
    }
    cJSON_Delete(rows);
    return rc;
}

/* Each key's words: an enum's or a boolean's choices; a list of ids: its table's ids of the
 * built-in knowledge base and the words taken alone ("none"); the accelerator: the catalog's ids;
 * the model: the shipped models. Numbers get none. */
static int key_values(kb *k, const struct ans_key *key, int index, struct words *out, char *err, size_t errsz)
{
    switch (key->type) {
    case ANS_ENUM:
    case ANS_BOOL:
        for (int i = 0; i < key->nchoices; i++)
            if (words_add_str(out, key->choices[i].value)) return -1;
        return 0;
    case ANS_ID_LIST:
        if (kb_ids(k, key->table, out, err, errsz)) return -1;
        for (int i = 0; i < key->nchoices; i++)
            if (words_add_str(out, key->choices[i].value)) return -1;
        return 0;
    case ANS_ID:
        if (index == ANS_ACCELERATOR) return kb_ids(k, "accelerators", out, err, errsz);
        if (index == ANS_MODEL) {
            for (size_t i = 0; i < model_known_count(); i++) {
                char name[128];
                if (words_add_str(out, model_known_name(i, name, sizeof name))) return -1;
            }
        }
        return 0;
    case ANS_INT:
    case ANS_NUMBER: return 0;
    }
    return 0;
}

static void model_free(struct model *m)
{
    for (int c = 0; c < m->ncmds; c++) {
        for (int i = 0; i < m->cmds[c].nopts; i++) words_free(&m->cmds[c].opts[i].words);
        for (int i = 0; i < m->cmds[c].nsubs; i++) words_free(&m->cmds[c].subs[i].words);
    }
    for (int i = 0; i < m->nglobals; i++) words_free(&m->globals[i].words);
    words_free(&m->keys);
    for (int i = 0; i < ANS_KEY_COUNT; i++) words_free(&m->values[i]);
}

static int model_build(struct model *m, char *err, size_t errsz)
{
    memset(m, 0, sizeof *m);
    /* The global options, those every command's parser takes (cli/cli.h), and --version before a
     * command (cli/main.c); --db and --config name a file, --lang takes en or zh. */
    static const struct option globals[] = {CLI_GLOBAL_OPTIONS}, top[] = {{"version", no_argument, NULL, 'V'}};
    for (size_t i = 0; i < sizeof globals / sizeof globals[0] + 1; i++) {
        const struct option *o = i < sizeof globals / sizeof globals[0] ? &globals[i] : &top[0];
        /* --config and --no-config go only with the commands that read the config file */
        int config = o->val == OPT_CONFIG || o->val == OPT_NO_CONFIG;
        struct comp_opt *g = o == top ? &m->top[m->ntop++]
                             : config ? &m->config[m->nconfig++]
                                      : &m->globals[m->nglobals++];
        g->name = o->name;
        g->letter = o->val < 0x80 ? (char)o->val : 0;
        g->takes = o->has_arg == required_argument;
        g->cls = g->takes ? V_FILE : V_NONE;
        if (o->val == OPT_LANG && words_of_expected(&g->words, "en or zh") == 0) g->cls = V_WORDS;
    }
    for (int j = 0; j < m->nconfig; j++) m->top[m->ntop++] = m->config[j];
    int rc = 0;
    for (int i = 0; i < cli_command_count && m->ncmds < MAX_CMDS && !rc; i++) {
        struct comp_cmd *c = &m->cmds[m->ncmds++];
        rc = command_model(&cli_commands[i], c);
        int reads = 0;
        for (const struct cli_command *const *t = cli_commands[i].tables; *t; t++) reads |= (*t)->reads_config;
        for (int j = 0; reads && j < m->nconfig && c->nopts < MAX_OPTS; j++) c->opts[c->nopts++] = m->config[j];
    }
    kb *k = NULL;
    if (!rc && kb_open_builtin(&k, err, errsz) != KB_OK) return -1;
    for (int i = 0; i < ans_key_count && !rc; i++) {
        if (words_add_str(&m->keys, ans_keys[i].name)) rc = -1;
        else rc = key_values(k, &ans_keys[i], i, &m->values[i], err, errsz);
    }
    kb_close(k);
    if (rc && !err[0]) snprintf(err, errsz, "out of memory");
    return rc;
}

/* --- bash and zsh: the tables as shell functions, then each shell's own driver ------------- */

static void put_words(FILE *f, const struct words *ws)
{
    for (int i = 0; i < ws->n; i++) fprintf(f, "%s%s", i ? " " : "", ws->w[i]);
}

static void put_option_names(FILE *f, const struct comp_opt *opts, int n, int *first)
{
    for (int i = 0; i < n; i++) {
        if (opts[i].letter) fprintf(f, "%s-%c", (*first)++ ? " " : "", opts[i].letter);
        fprintf(f, "%s--%s", (*first)++ ? " " : "", opts[i].name);
    }
}

/* One case of _fwadvisor_value: the option's patterns (any command for a global one) and the
 * class of its value. */
static void put_value_case(FILE *f, const char *cmd, const struct comp_opt *o)
{
    if (!o->takes) return;
    const char *pre = cmd ? "'" : "*' ";
    if (cmd) fprintf(f, "    '%s --%s'", cmd, o->name);
    else fprintf(f, "    %s--%s'", pre, o->name);
    if (o->letter) {
        if (cmd) fprintf(f, "|'%s -%c'", cmd, o->letter);
        else fprintf(f, "|*' -%c'", o->letter);
    }
    fprintf(f, ") echo '%s", class_names[o->cls]);
    if (o->cls == V_WORDS) fputc(' ', f), put_words(f, &o->words);
    fputs("' ;;\n", f);
}

static void put_sh_tables(FILE *f, const struct model *m)
{
    fputs("_fwadvisor_commands() { echo '", f);
    for (int c = 0; c < m->ncmds; c++) fprintf(f, "%s%s", c ? " " : "", m->cmds[c].name);
    fputs("'; }\n_fwadvisor_globals() { echo '", f);
    int first = 0;
    put_option_names(f, m->globals, m->nglobals, &first);
    fputs("'; }\n\n# The options of command $1 (none yet: those before a command).\n_fwadvisor_options() {\n"
          "    case $1 in\n    '') echo '", f);
    first = 0;
    put_option_names(f, m->top, m->ntop, &first);
    fputs("' ;;\n", f);
    for (int c = 0; c < m->ncmds; c++) {
        if (!m->cmds[c].nopts) continue;
        fprintf(f, "    %s) echo '", m->cmds[c].name);
        first = 0;
        put_option_names(f, m->cmds[c].opts, m->cmds[c].nopts, &first);
        fputs("' ;;\n", f);
    }
    fputs("    esac\n}\n\n"
          "# What the value of option $2 of command $1 is (any, file, dir, keys, words W...);\n"
          "# status 1 for an option without a value.\n"
          "_fwadvisor_value() {\n    case \"$1 $2\" in\n",
          f);
    for (int i = 0; i < m->nglobals; i++) put_value_case(f, NULL, &m->globals[i]);
    for (int i = 0; i < m->nconfig; i++) put_value_case(f, NULL, &m->config[i]); /* --config FILE: a file anywhere */
    for (int c = 0; c < m->ncmds; c++)
        for (int i = 0; i < m->cmds[c].nopts; i++) put_value_case(f, m->cmds[c].name, &m->cmds[c].opts[i]);
    fputs("    *) return 1 ;;\n    esac\n}\n\n# The subcommands of command $1.\n_fwadvisor_subs() {\n    case $1 in\n", f);
    for (int c = 0; c < m->ncmds; c++) {
        if (!m->cmds[c].nsubs) continue;
        fprintf(f, "    %s) echo '", m->cmds[c].name);
        for (int i = 0; i < m->cmds[c].nsubs; i++) fprintf(f, "%s%s", i ? " " : "", m->cmds[c].subs[i].name);
        fputs("' ;;\n", f);
    }
    fputs("    *) return 1 ;;\n    esac\n}\n\n# What the argument of subcommand $2 of command $1 is.\n"
          "_fwadvisor_sub_arg() {\n    case \"$1 $2\" in\n",
          f);
    for (int c = 0; c < m->ncmds; c++)
        for (int i = 0; i < m->cmds[c].nsubs; i++) {
            const struct comp_sub *s = &m->cmds[c].subs[i];
            if (s->cls == V_NONE) continue;
            fprintf(f, "    '%s %s') echo '%s", m->cmds[c].name, s->name, class_names[s->cls]);
            if (s->cls == V_WORDS) fputc(' ', f), put_words(f, &s->words);
            fputs("' ;;\n", f);
        }
    fputs("    *) return 1 ;;\n    esac\n}\n\n# The answer keys, and the values of key $1 where it has a fixed set.\n"
          "_fwadvisor_keys() { echo '",
          f);
    put_words(f, &m->keys);
    fputs("'; }\n_fwadvisor_key_values() {\n    case $1 in\n", f);
    for (int i = 0; i < m->keys.n; i++) {
        if (!m->values[i].n) continue;
        fprintf(f, "    %s) echo '", m->keys.w[i]);
        put_words(f, &m->values[i]);
        fputs("' ;;\n", f);
    }
    fputs("    *) return 1 ;;\n    esac\n}\n", f);
}

/* The command and subcommand before the cursor, the words that are options' values skipped; both
 * shells' drivers start with it (words: the line's words, 1-based in zsh, 0-based in bash). */
#define SH_SCAN(first, lower)                                                                       \
    "    for ((i = " first "; i < cword; i++)); do\n"                                              \
    "        w=${words[i]}\n"                                                                       \
    "        if [[ $w == -* ]]; then\n"                                                             \
    "            [[ $w != *=* ]] && _fwadvisor_value \"$cmd\" \"$w\" >/dev/null && ((i++))\n"     \
    "            continue\n"                                                                        \
    "        fi\n"                                                                                  \
    "        if [[ -z $cmd ]]; then cmd=" lower "\n"                                               \
    "        elif [[ -z $sub ]]; then sub=" lower "\n"                                             \
    "        else ((npos++)); fi\n"                                                                 \
    "    done\n"

static const char bash_driver[] =
    "\n"
    "# Fills COMPREPLY with the candidates of value class $1 for the word cur.\n"
    "_fwadvisor_complete_value() {\n"
    "    local key val head\n"
    "    case $1 in\n"
    "    file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n"
    "    dir) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;\n"
    "    words\\ *)\n"
    "        head=\n"
    "        if [[ $cur == *,* ]]; then head=${cur%,*},; fi\n"
    "        mapfile -t COMPREPLY < <(compgen -P \"$head\" -W \"${1#words }\" -- \"${cur##*,}\") ;;\n"
    "    keys)\n"
    "        if [[ $cur == *=* ]]; then\n"
    "            key=${cur%%=*} val=${cur#*=} head=\n"
    "            if [[ $val == *,* ]]; then head=${val%,*}, val=${val##*,}; fi\n"
    "            mapfile -t COMPREPLY < <(compgen -P \"$key=$head\" -W \"$(_fwadvisor_key_values \"$key\")\" -- \"$val\")\n"
    "        else\n"
    "            compopt -o nospace 2>/dev/null\n"
    "            mapfile -t COMPREPLY < <(compgen -S = -W \"$(_fwadvisor_keys)\" -- \"$cur\")\n"
    "        fi ;;\n"
    "    esac\n"
    "}\n"
    "\n"
    "_fwadvisor() {\n"
    "    local i w raw cur prefix prev cls cmd= sub= npos=0 cword=0 words=()\n"
    "    # bash splits words at = and : (COMP_WORDBREAKS): join them again.\n"
    "    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do\n"
    "        w=${COMP_WORDS[i]}\n"
    "        if ((i > 1)) && [[ $w == [=:] || ${COMP_WORDS[i-1]} == [=:] ]]; then\n"
    "            words[${#words[@]}-1]+=$w\n"
    "        else\n"
    "            words+=(\"$w\")\n"
    "        fi\n"
    "        ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))\n"
    "    done\n"
    "    raw=${COMP_WORDS[COMP_CWORD]} cur=${words[cword]}\n"
    "    # Right after the = readline completes the empty word that follows it.\n"
    "    [[ $raw == [=:] ]] && raw=\n"
    "    prefix=${cur%\"$raw\"}\n"
    SH_SCAN("1", "${w,,}")
    "    prev=${words[cword-1]}\n"
    "    COMPREPLY=()\n"
    "    if ((cword > 1)) && [[ $prev == -* && $prev != *=* ]] && cls=$(_fwadvisor_value \"$cmd\" \"$prev\"); then\n"
    "        _fwadvisor_complete_value \"$cls\"\n"
    "    elif [[ $cur == -* ]]; then\n"
    "        mapfile -t COMPREPLY < <(compgen -W \"$(_fwadvisor_globals) $(_fwadvisor_options \"$cmd\")\" -- \"$cur\")\n"
    "    elif [[ -z $cmd ]]; then\n"
    "        mapfile -t COMPREPLY < <(compgen -W \"$(_fwadvisor_commands)\" -- \"$cur\")\n"
    "    elif [[ -z $sub ]] && w=$(_fwadvisor_subs \"$cmd\"); then\n"
    "        mapfile -t COMPREPLY < <(compgen -W \"$w\" -- \"$cur\")\n"
    "    elif [[ -n $sub ]] && ((npos == 0)) && cls=$(_fwadvisor_sub_arg \"$cmd\" \"$sub\"); then\n"
    "        _fwadvisor_complete_value \"$cls\"\n"
    "    fi\n"
    "    # The part of the word bash did not split off is already on the line.\n"
    "    if [[ -n $prefix ]]; then COMPREPLY=(\"${COMPREPLY[@]#\"$prefix\"}\"); fi\n"
    "    return 0\n"
    "}\n"
    "complete -F _fwadvisor fwadvisor\n";

static const char zsh_driver[] =
    "\n"
    "# Offers the candidates of value class $1 for the word before the cursor.\n"
    "_fwadvisor_complete_value() {\n"
    "    local key\n"
    "    case $1 in\n"
    "    file) _files ;;\n"
    "    dir) _files -/ ;;\n"
    "    words\\ *) compset -P '*,'; compadd -- ${=${1#words }} ;;\n"
    "    keys)\n"
    "        if [[ $PREFIX == *=* ]]; then\n"
    "            key=${PREFIX%%=*}\n"
    "            compset -P '*='\n"
    "            compset -P '*,'\n"
    "            compadd -- ${=$(_fwadvisor_key_values \"$key\")}\n"
    "        else\n"
    "            compadd -S = -- ${=$(_fwadvisor_keys)}\n"
    "        fi ;;\n"
    "    esac\n"
    "}\n"
    "\n"
    "_fwadvisor() {\n"
    "    local i w prev cls cmd= sub= npos=0 cword=$CURRENT\n"
    SH_SCAN("2", "${w:l}")
    "    prev=${words[cword-1]}\n"
    "    if ((cword > 2)) && [[ $prev == -* && $prev != *=* ]] && cls=$(_fwadvisor_value \"$cmd\" \"$prev\"); then\n"
    "        _fwadvisor_complete_value \"$cls\"\n"
    "    elif [[ $PREFIX == -* ]]; then\n"
    "        compadd -- ${=$(_fwadvisor_globals)} ${=$(_fwadvisor_options \"$cmd\")}\n"
    "    elif [[ -z $cmd ]]; then\n"
    "        compadd -- ${=$(_fwadvisor_commands)}\n"
    "    elif [[ -z $sub ]] && w=$(_fwadvisor_subs \"$cmd\"); then\n"
    "        compadd -- ${=w}\n"
    "    elif [[ -n $sub ]] && ((npos == 0)) && cls=$(_fwadvisor_sub_arg \"$cmd\" \"$sub\"); then\n"
    "        _fwadvisor_complete_value \"$cls\"\n"
    "    fi\n"
    "}\n"
    "\n"
    "# Autoloaded from $fpath, the file is the function; sourced, it registers the function.\n"
    "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n"
    "    _fwadvisor \"$@\"\n"
    "else\n"
    "    compdef _fwadvisor fwadvisor\n"
    "fi\n";

static const char generated_note[] =
    "# Written by `fwadvisor completion %s` from the program's own command, option and answer-key\n"
    "# tables and its built-in knowledge base; write it again after an upgrade.\n";

static void write_bash(FILE *f, const struct model *m)
{
    fputs("# bash completion for fwadvisor\n", f);
    fprintf(f, generated_note, "bash");
    fputc('\n', f);
    put_sh_tables(f, m);
    fputs(bash_driver, f);
}

static void write_zsh(FILE *f, const struct model *m)
{
    fputs("#compdef fwadvisor\n# zsh completion for fwadvisor\n", f);
    fprintf(f, generated_note, "zsh");
    fputc('\n', f);
    put_sh_tables(f, m);
    fputs(zsh_driver, f);
}

/* --- fish: one `complete` line per option, subcommand and argument ---------------------------- */

/* The first line of a help text in fish's single quotes. */
static void put_fish_help(FILE *f, const char *help)
{
    if (!help) return;
    fputs(" -d '", f);
    for (const char *p = help; *p && *p != '\n'; p++) {
        if (*p == '\'' || *p == '\\') fputc('\\', f);
        if ((unsigned char)*p >= 0x20) fputc(*p, f);
    }
    fputc('\'', f);
}

static void put_fish_option(FILE *f, const char *condition, const struct comp_opt *o)
{
    fprintf(f, "complete -c fwadvisor -n \"%s\"", condition);
    if (o->letter) fprintf(f, " -s %c", o->letter);
    fprintf(f, " -l %s", o->name);
    if (o->takes) fputs(" -r", f);
    switch (o->cls) {
    case V_FILE: fputs(" -F", f); break;
    case V_DIR: fputs(" -f -a '(__fish_complete_directories (commandline -ct))'", f); break;
    case V_KEYS: fputs(" -f -a '(__fwadvisor_keys (commandline -ct))'", f); break;
    case V_WORDS:
        fputs(" -f -a '(__fwadvisor_words (commandline -ct) ", f);
        put_words(f, &o->words);
        fputs(")'", f);
        break;
    case V_NONE: break;
    }
    put_fish_help(f, o->help);
    fputc('\n', f);
}

static const char fish_functions[] =
    "# The command ($argv[1]) and subcommand ($argv[2]) the line holds before the cursor: true when\n"
    "# they are these (\"\": none yet).\n"
    "function __fwadvisor_using\n"
    "    set -l cmd ''\n"
    "    set -l sub ''\n"
    "    set -l skip 0\n"
    "    set -l line (commandline -opc)\n"
    "    set -e line[1]\n"
    "    for w in $line\n"
    "        if test $skip = 1\n"
    "            set skip 0\n"
    "            continue\n"
    "        end\n"
    "        if string match -q -- '-*' $w\n"
    "            if not string match -q -- '*=*' $w; and contains -- \"$cmd $w\" $__fwadvisor_takes\n"
    "                set skip 1\n"
    "            end\n"
    "            continue\n"
    "        end\n"
    "        if test -z \"$cmd\"\n"
    "            set cmd (string lower -- $w)\n"
    "        else if test -z \"$sub\"\n"
    "            set sub (string lower -- $w)\n"
    "        else\n"
    "            set sub \"$sub \"\n"
    "        end\n"
    "    end\n"
    "    test \"$cmd\" = \"$argv[1]\"; or return 1\n"
    "    test (count $argv) -lt 2; or test \"$sub\" = \"$argv[2]\"\n"
    "end\n"
    "\n"
    "# The words after $argv[1], each after the list's last comma.\n"
    "function __fwadvisor_words\n"
    "    set -l head (string replace -r -- '[^,]*$' '' $argv[1])\n"
    "    for w in $argv[2..-1]\n"
    "        echo $head$w\n"
    "    end\n"
    "end\n"
    "\n"
    "# An answer key and '=', or after KEY= (and after a comma) the key's values.\n"
    "function __fwadvisor_keys\n"
    "    set -l word $argv[1]\n"
    "    if string match -q -- '*=*' $word\n"
    "        set -l key (string split -m 1 = -- $word)[1]\n"
    "        set -l head (string replace -r -- '[^=,]*$' '' $word)\n"
    "        set -l var __fwadvisor_values_$key\n"
    "        set -q $var; or return\n"
    "        for v in $$var\n"
    "            echo $head$v\n"
    "        end\n"
    "    else\n"
    "        for k in $__fwadvisor_key_names\n"
    "            echo $k=\n"
    "        end\n"
    "    end\n"
    "end\n"
    "\n";

/* The "CMD --opt" and "CMD -o" pairs whose option takes a value (a global one with every command
 * and none), for __fwadvisor_using to skip the value. */
static void put_fish_takes(FILE *f, const char *cmd, const struct comp_opt *o)
{
    if (!o->takes) return;
    fprintf(f, " '%s --%s'", cmd, o->name);
    if (o->letter) fprintf(f, " '%s -%c'", cmd, o->letter);
}

static void write_fish(FILE *f, const struct model *m)
{
    fputs("# fish completion for fwadvisor\n", f);
    fprintf(f, generated_note, "fish");
    fputs("\nset -g __fwadvisor_takes", f);
    for (int c = -1; c < m->ncmds; c++)
        for (int i = 0; i < m->nglobals; i++) put_fish_takes(f, c < 0 ? "" : m->cmds[c].name, &m->globals[i]);
    for (int i = 0; i < m->nconfig; i++) put_fish_takes(f, "", &m->config[i]);
    for (int c = 0; c < m->ncmds; c++)
        for (int i = 0; i < m->cmds[c].nopts; i++) put_fish_takes(f, m->cmds[c].name, &m->cmds[c].opts[i]);
    fputs("\nset -g __fwadvisor_key_names ", f);
    put_words(f, &m->keys);
    fputc('\n', f);
    for (int i = 0; i < m->keys.n; i++) {
        if (!m->values[i].n) continue;
        fprintf(f, "set -g __fwadvisor_values_%s ", m->keys.w[i]);
        put_words(f, &m->values[i]);
        fputc('\n', f);
    }
    fputs("\n", f);
    fputs(fish_functions, f);
    fputs("complete -c fwadvisor -f\n", f);
    for (int i = 0; i < m->nglobals; i++) put_fish_option(f, "true", &m->globals[i]);
    for (int i = 0; i < m->ntop; i++) put_fish_option(f, "__fwadvisor_using ''", &m->top[i]);
    fputs("complete -c fwadvisor -n \"__fwadvisor_using ''\" -a '", f);
    for (int c = 0; c < m->ncmds; c++) fprintf(f, "%s%s", c ? " " : "", m->cmds[c].name);
    fputs("'\n", f);
    for (int c = 0; c < m->ncmds; c++) {
        const struct comp_cmd *cmd = &m->cmds[c];
        char cond[96];
        snprintf(cond, sizeof cond, "__fwadvisor_using %s", cmd->name);
        for (int i = 0; i < cmd->nopts; i++) put_fish_option(f, cond, &cmd->opts[i]);
        if (cmd->nsubs) {
            fprintf(f, "complete -c fwadvisor -n \"__fwadvisor_using %s ''\" -a '", cmd->name);
            for (int i = 0; i < cmd->nsubs; i++) fprintf(f, "%s%s", i ? " " : "", cmd->subs[i].name);
            fputs("'\n", f);
        }
        for (int i = 0; i < cmd->nsubs; i++) {
            const struct comp_sub *s = &cmd->subs[i];
            if (s->cls == V_NONE) continue;
            fprintf(f, "complete -c fwadvisor -n '__fwadvisor_using %s %s'", cmd->name, s->name);
            if (s->cls == V_FILE) fputs(" -F", f);
            else fputs(" -a '", f), put_words(f, &s->words), fputc('\'', f);
            fputc('\n', f);
        }
    }
}

/* --- the command ------------------------------------------------------------------------------ */

int cmd_completion(struct globals *g, int argc, char **argv)
{
    cli_given given;
    int rc = cli_options_parse(&cli_completion_command, g, argc, argv, NULL, &given);
    if (rc != EXIT_OK) return rc < 0 ? EXIT_OK : rc;
    if (argc - optind != 1) {
        cli_error("completion takes one shell: bash, zsh or fish");
        return EXIT_USAGE;
    }
    int shell = cli_choice(argv[optind], shell_names);
    if (shell < 0) {
        text_printf(stderr, "fwadvisor: unknown shell '%s' (bash, zsh or fish)", argv[optind]);
        fputc('\n', stderr);
        return EXIT_USAGE;
    }
    struct model *m = malloc(sizeof *m);
    char err[1024] = "";
    if (!m) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    if (model_build(m, err, sizeof err)) {
        cli_error("%s", err);
        model_free(m);
        free(m);
        return EXIT_RUNTIME;
    }
    switch ((enum shell)shell) {
    case SH_BASH: write_bash(stdout, m); break;
    case SH_ZSH: write_zsh(stdout, m); break;
    case SH_FISH:
    case SH_COUNT: write_fish(stdout, m); break;
    }
    model_free(m);
    free(m);
    return EXIT_OK;
}
