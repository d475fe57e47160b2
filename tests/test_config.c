/* The config file (knowledge/config_file.h): each section read, every refusal with its exact line,
 * and through `fwadvisor recommend`: which file is read (XDG_CONFIG_HOME, HOME, --config,
 * --no-config), its place beneath presets, answer files and --set, its prices beside --prices,
 * and the partition and account it gives job.sbatch. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "knowledge/config_file.h"
#include "tests/support.h"

static char *dir;
static char dbarg[4200], sysroot_env[4200], xdg_env[4200], home_env[4200];
/* the H100 machine's four entries, then XDG_CONFIG_HOME and HOME */
static const char *env[8];

static void setup(void)
{
    dir = ts_tmpdir();
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
    ts_h100_env(env, sysroot_env, sizeof sysroot_env);
    snprintf(xdg_env, sizeof xdg_env, "XDG_CONFIG_HOME=%s/xdg", dir);
    snprintf(home_env, sizeof home_env, "HOME=%s/home", dir);
    env[4] = xdg_env;
    env[5] = home_env;
    env[6] = NULL;
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(config, .init = setup, .fini = teardown, .timeout = 120);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

/* text written as dir/rel, its folders made; the path (caller frees). */
static char *put(const char *rel, const char *text)
{
    char *path = ts_path(dir, rel);
    for (char *slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(path, 0700);
        *slash = '/';
    }
    cr_assert_eq(ts_write_str(path, text), 0, "%s", path);
    return path;
}

static struct config_file *parse(const char *text, char *err, size_t errsz)
{
    struct config_file *c = NULL;
    err[0] = '\0';
    int rc = config_parse(text, strlen(text), "team.conf", &c, err, errsz);
    cr_expect_eq(rc == 0, c != NULL, "a status and a result that agree");
    return c;
}

/* --- the reader -------------------------------------------------------------------------- */

Test(config, each_section_is_read)
{
    char err[1024];
    struct config_file *c = parse("# our cluster\n"
                                  "\n"
                                  "[answers]\n"
                                  "hardware = NVIDIA\n"
                                  "  devices=8   # two nodes of four\n"
                                  "nodes = 2\r\n"
                                  "team = pytorch, jax\n"
                                  "model_params = 70B\n"
                                  "[ prices ]\n"
                                  "h100-sxm = 2.5\n"
                                  "provider = ourcloud\n"
                                  "mi300x = 1.75\n"
                                  "[site]\n"
                                  "partition = gpu,long\n"
                                  "account = ml-team\n",
                                  err, sizeof err);
    cr_assert_not_null(c, "%s", err);
    cr_expect_str_eq(answers_str(&c->answers, ANS_HARDWARE), "nvidia", "enum values in any case, as --set");
    cr_expect_eq(answers_num(&c->answers, ANS_DEVICES), 8);
    cr_expect_eq(answers_num(&c->answers, ANS_NODES), 2, "a \\r before the newline is not part of the value");
    cr_expect_eq(answers_num(&c->answers, ANS_MODEL_PARAMS), 70e9);
    cr_expect_eq(answers_id_count(&c->answers, ANS_TEAM), 2);
    cr_expect_str_eq(answers_id(&c->answers, ANS_TEAM, 1), "jax");
    cr_expect(c->answers.v[ANS_DEVICES].given);
    cr_expect(!c->answers.v[ANS_STAGE].present, "no defaults filled: only what the file says");
    cr_expect_eq(c->answer_line[ANS_HARDWARE], 4);
    cr_expect_eq(c->answer_line[ANS_DEVICES], 5);
    cr_expect_eq(c->answer_line[ANS_MODEL_PARAMS], 8);
    cr_expect_eq(c->answer_line[ANS_STAGE], 0);
    cr_assert_eq(c->nprices, 2);
    cr_expect_str_eq(c->prices[0].accelerator, "h100-sxm");
    cr_expect_str_eq(c->prices[0].price, "2.5");
    cr_expect_eq(c->prices[0].line, 10);
    cr_expect_str_eq(c->prices[1].accelerator, "mi300x");
    cr_expect_eq(c->prices[1].line, 12);
    cr_expect_str_eq(c->provider, "ourcloud");
    cr_expect_str_eq(c->site.partition, "gpu,long");
    cr_expect_str_eq(c->site.account, "ml-team");
    config_free(c);

    c = parse("", err, sizeof err);
    cr_assert_not_null(c, "an empty file is no error: %s", err);
    cr_expect_eq(c->nprices, 0);
    cr_expect_str_empty(c->site.partition);
    config_free(c);
}

/* Every refusal: the file's name, the line, what is wrong. */
Test(config, every_bad_line_is_named_exactly)
{
    char long_line[CONFIG_LINE_MAX + 40];
    snprintf(long_line, sizeof long_line, "[answers]\n# %0*d\n", CONFIG_LINE_MAX - 1, 0); /* 1025 bytes */
    const struct {
        const char *text, *want;
    } cases[] = {
        {"[answrs]\n", "team.conf: line 1: unknown section [answrs] (did you mean [answers]?)"},
        {"\n[colours]\n", "team.conf: line 2: unknown section [colours] (sections: [answers], [prices], [site])"},
        {"[answers\n", "team.conf: line 1: a section is written [name]"},
        {"devices = 2\n", "team.conf: line 1: devices = ... before any section ([answers], [prices] or [site])"},
        {"[answers]\ndevics = 2\n", "team.conf: line 2: unknown key 'devics' (did you mean 'devices'?)"},
        {"[site]\nqueue = gpu\n", "team.conf: line 2: unknown key 'queue' in [site] (keys: partition, account)"},
        {"[site]\naccont = ml\n", "team.conf: line 2: unknown key 'accont' in [site] (did you mean 'account'?)"},
        {"[answers]\ndevices = 0\n",
         "team.conf: line 2: key 'devices': '0' is not a whole number from 1 to 1e+15 (K, M, B, T suffixes allowed)"},
        {"[answers]\nstage = rsearch\n",
         "team.conf: line 2: key 'stage': 'rsearch' is not one of learning, research, prototype, production"},
        {"[answers]\nfunctional = maybe\n", "team.conf: line 2: key 'functional': 'maybe' is not true or false"},
        {"[site]\npartition = gpu long\n",
         "team.conf: line 2: partition 'gpu long' must be 1 to 63 letters, digits, '.', '_' or '-' (',' between partitions)"},
        {"[site]\naccount = a,b\n", "team.conf: line 2: account 'a,b' must be 1 to 63 letters, digits, '.', '_' or '-'"},
        {"[site]\npartition = gpu,\n",
         "team.conf: line 2: partition 'gpu,' must be 1 to 63 letters, digits, '.', '_' or '-' (',' between partitions)"},
        {"[answers]\ndevices\n", "team.conf: line 2: expected KEY = VALUE, a [section], a # comment or a blank line"},
        {"[answers]\n= 4\n", "team.conf: line 2: expected KEY = VALUE, a [section], a # comment or a blank line"},
        {"[answers]\ndevices =   # none\n", "team.conf: line 2: devices has no value"},
        {"[answers]\ndevices = 2\nnodes = 1\ndevices = 4\n", "team.conf: line 4: devices is given twice (first on line 2)"},
        {"[prices]\nh100-sxm = 2\nh100-sxm = 3\n", "team.conf: line 3: h100-sxm is given twice (first on line 2)"},
        {"[site]\naccount = a\n[site]\naccount = b\n", "team.conf: line 4: account is given twice (first on line 2)"},
        {"[answers]\nstage = r\xffsearch\n", "team.conf: line 2: bytes that are not UTF-8 at byte 10 of the line"},
        {"[answers]\nstage = \xed\xa0\x80\n", "team.conf: line 2: bytes that are not UTF-8 at byte 9 of the line"},
        {long_line, "team.conf: line 2: longer than 1024 bytes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[1024];
        struct config_file *c = parse(cases[i].text, err, sizeof err);
        cr_expect_null(c, "case %zu is refused", i);
        cr_expect_str_eq(err, cases[i].want, "case %zu: %s", i, err);
        config_free(c);
    }
}

/* The line limit counts the line's bytes without its newline, or a \r before it. */
Test(config, a_line_of_the_limit_is_taken_one_more_is_not)
{
    char text[CONFIG_LINE_MAX + 64], err[1024];
    snprintf(text, sizeof text, "# %0*d\r\n[answers]\ndevices = 3\n", CONFIG_LINE_MAX - 2, 0);
    cr_assert_eq(strcspn(text, "\r"), CONFIG_LINE_MAX);
    struct config_file *c = parse(text, err, sizeof err);
    cr_assert_not_null(c, "%s", err);
    cr_expect_eq(answers_num(&c->answers, ANS_DEVICES), 3);
    config_free(c);
    snprintf(text, sizeof text, "# %0*d\n", CONFIG_LINE_MAX - 1, 0);
    c = parse(text, err, sizeof err);
    cr_expect_null(c);
    cr_expect_str_eq(err, "team.conf: line 1: longer than 1024 bytes");
    config_free(c);
}

Test(config, a_nul_byte_is_refused_on_its_line)
{
    static const char text[] = "[answers]\nstage = res\0earch\n";
    struct config_file *c = NULL;
    char err[1024];
    cr_expect_eq(config_parse(text, sizeof text - 1, "team.conf", &c, err, sizeof err), -1);
    cr_expect_null(c);
    cr_expect_str_eq(err, "team.conf: line 2: a NUL byte");
}

/* [prices] rows are checked against the catalog once it is loaded, as a --prices file's are. */
Test(config, prices_are_checked_against_the_catalog)
{
    struct ts_advisor t;
    char err[1024];
    cr_assert_eq(ts_advisor_open(&t, err, sizeof err), 0, "%s", err);
    static struct compare_prices prices;
    struct config_file *c = parse("[prices]\nh100-sxm = 2.5\nmi300x = 1.75\n", err, sizeof err);
    cr_assert_not_null(c, "%s", err);
    cr_assert_eq(config_prices(c, t.akb, &prices, err, sizeof err), 0, "%s", err);
    cr_assert_eq(prices.count, 2);
    cr_expect_eq(prices.rows[1].from, PRICE_CONFIG);
    cr_expect_float_eq(prices.rows[1].usd, 1.75, 1e-12);
    cr_expect_str_empty(prices.rows[1].provider, "no provider: none is made up");
    config_free(c);
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"[prices]\nh100-sxm = 2\nh999 = 2\n",
         "team.conf: line 3: accelerator 'h999' is not in the catalog (fwadvisor kb list accelerators)"},
        {"[prices]\nh100-sxm = free\n", "team.conf: line 2: price must be a number above 0 (per device-hour), not 'free'"},
        {"[prices]\nh100-sxm = 0\n", "team.conf: line 2: price must be a number above 0 (per device-hour), not '0'"},
        {"[prices]\nprovider = a-provider-name-of-32-characters\nh100-sxm = 1\n",
         "team.conf: line 3: provider must be a word of 1 to 31 characters"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&prices, 0, sizeof prices);
        c = parse(bad[i].text, err, sizeof err);
        cr_assert_not_null(c, "case %zu parses: %s", i, err);
        cr_expect_eq(config_prices(c, t.akb, &prices, err, sizeof err), -1, "case %zu", i);
        cr_expect_str_eq(err, bad[i].want, "case %zu", i);
        config_free(c);
    }
    /* a provider of 31 characters is the longest taken */
    memset(&prices, 0, sizeof prices);
    c = parse("[prices]\nprovider = a-provider-name-of-31-character\nh100-sxm = 1\n", err, sizeof err);
    cr_assert_not_null(c, "%s", err);
    cr_expect_eq(config_prices(c, t.akb, &prices, err, sizeof err), 0, "%s", err);
    config_free(c);
    ts_advisor_close(&t);
}

Test(config, the_default_path_is_xdg_then_home)
{
    char path[4096];
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    char *saved_xdg = xdg ? strdup(xdg) : NULL, *saved_home = home ? strdup(home) : NULL;
    setenv("XDG_CONFIG_HOME", "/cfg", 1);
    setenv("HOME", "/home/u", 1);
    cr_expect_eq(config_default_path(path, sizeof path), 0);
    cr_expect_str_eq(path, "/cfg/fwadvisor/config");
    setenv("XDG_CONFIG_HOME", "relative/cfg", 1);
    cr_expect_eq(config_default_path(path, sizeof path), 0);
    cr_expect_str_eq(path, "/home/u/.config/fwadvisor/config", "a relative XDG_CONFIG_HOME is ignored");
    unsetenv("XDG_CONFIG_HOME");
    cr_expect_eq(config_default_path(path, sizeof path), 0);
    cr_expect_str_eq(path, "/home/u/.config/fwadvisor/config");
    unsetenv("HOME");
    cr_expect_eq(config_default_path(path, sizeof path), -1, "no default file without either");
    cr_expect_eq(config_default_path(path, 10), -1);
    if (saved_xdg) setenv("XDG_CONFIG_HOME", saved_xdg, 1);
    if (saved_home) setenv("HOME", saved_home, 1);
    free(saved_xdg);
    free(saved_home);
}

/* --- through fwadvisor recommend ---------------------------------------------------------- */

/* One member of the JSON fwadvisor prints for args (dbarg leads them), detached for the caller to
 * free; the run must succeed. */
static cJSON *member_of(const char *member, const char *const *args)
{
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, args), 0);
    cJSON *doc = r.status == 0 ? cJSON_Parse(r.out) : NULL;
    cr_assert_not_null(doc, "status %d: %s", r.status, r.err);
    ts_run_free(&r);
    cJSON *item = cJSON_DetachItemFromObject(doc, member);
    cJSON_Delete(doc);
    cr_assert_not_null(item, "%s", member);
    return item;
}
#define ANSWERS(...) member_of("answers", (const char *const[]){dbarg, "recommend", __VA_ARGS__, "--json", NULL})

static double answer_num(const cJSON *answers, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(answers, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *answer_str(const cJSON *answers, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answers, key));
    return s ? s : "(none)";
}

Test(config, defaults_then_config_then_preset_then_set)
{
    char *cfg = put("xdg/fwadvisor/config", "[answers]\nstage = production\npriority = cost\ndevices = 4\n");
    char *file = put("answers.json", "{\"devices\": 2}");
    cJSON *a = ANSWERS("--wide");
    cr_expect_str_eq(answer_str(a, "stage"), "production", "the config over the default (research)");
    cr_expect_eq(answer_num(a, "devices"), 4, "the config over the default (1)");
    cr_expect_str_eq(answer_str(a, "deploy"), "none", "a key it leaves out keeps its default");
    cJSON_Delete(a);

    a = ANSWERS("--set", "devices=16", "--set", "stage=learning");
    cr_expect_eq(answer_num(a, "devices"), 16, "--set over the config");
    cr_expect_str_eq(answer_str(a, "stage"), "learning");
    cr_expect_str_eq(answer_str(a, "priority"), "cost", "what --set leaves alone stays the config's");
    cJSON_Delete(a);

    /* first-image-classifier: stage learning, devices 1, priority iteration; --set over it */
    a = ANSWERS("--preset", "first-image-classifier", "--set", "priority=stability");
    cr_expect_str_eq(answer_str(a, "stage"), "learning", "the preset over the config");
    cr_expect_eq(answer_num(a, "devices"), 1, "the preset over the config");
    cr_expect_str_eq(answer_str(a, "priority"), "stability", "--set over the preset");
    cJSON_Delete(a);

    a = ANSWERS("-a", file);
    cr_expect_eq(answer_num(a, "devices"), 2, "an answers file over the config");
    cr_expect_str_eq(answer_str(a, "stage"), "production", "the config beneath what the file leaves out");
    cJSON_Delete(a);
    free(file);
    free(cfg);
}

/* XDG_CONFIG_HOME's file when it is set and absolute, else ~/.config's; --config another file
 * instead of either; --no-config none. */
Test(config, which_file_is_read)
{
    char *xdg = put("xdg/fwadvisor/config", "[answers]\ndevices = 3\n");
    char *home = put("home/.config/fwadvisor/config", "[answers]\ndevices = 5\n");
    char *other = put("team.conf", "[answers]\ndevices = 7\n");
    static const struct {
        const char *xdg; /* NULL: unset; "rel": relative */
        const char *option;
        double devices;
    } cases[] = {
        {"xdg", NULL, 3}, {NULL, NULL, 5}, {"rel", NULL, 5}, {"xdg", "--config", 7}, {"xdg", "--no-config", 1},
        {"missing", NULL, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char xdg_value[4200];
        if (!cases[i].xdg) snprintf(xdg_value, sizeof xdg_value, "XDG_CONFIG_HOME");
        else if (strcmp(cases[i].xdg, "rel") == 0) snprintf(xdg_value, sizeof xdg_value, "XDG_CONFIG_HOME=xdg");
        else snprintf(xdg_value, sizeof xdg_value, "XDG_CONFIG_HOME=%s/%s", dir, cases[i].xdg);
        env[4] = xdg_value;
        cJSON *a;
        if (!cases[i].option) a = ANSWERS("--wide");
        else if (strcmp(cases[i].option, "--config") == 0) a = ANSWERS("--config", other);
        else a = ANSWERS(cases[i].option);
        cr_expect_eq(answer_num(a, "devices"), cases[i].devices, "case %zu", i);
        cJSON_Delete(a);
    }
    env[4] = xdg_env;
    free(xdg);
    free(home);
    free(other);
}

/* A bad config stops the command with one line and status 3, before anything is written. */
Test(config, a_bad_file_stops_everything_with_one_line)
{
    char *cfg = put("xdg/fwadvisor/config", "[answers]\nstage = \x1b[31mred\n");
    char *emit = ts_path(dir, "launch");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--set", "model_kind=llm", "--emit", emit);
    cr_expect_eq(r.status, 3);
    cr_expect_str_empty(r.out);
    char want[4400];
    snprintf(want, sizeof want,
             "fwadvisor: %s: line 2: key 'stage': '\\x1b[31mred' is not one of learning, research, prototype, "
             "production\n",
             cfg);
    cr_expect_str_eq(r.err, want, "escaped, never raw");
    struct stat st;
    cr_expect_neq(stat(emit, &st), 0, "nothing emitted");
    ts_run_free(&r);

    /* the same line for a --config file; a missing one is refused too, a directory is unreadable */
    RUN(r, dbarg, "recommend", "--config", cfg);
    cr_expect_eq(r.status, 3);
    cr_expect_str_eq(r.err, want);
    ts_run_free(&r);
    char *missing = ts_path(dir, "nope.conf");
    RUN(r, dbarg, "recommend", "--no-color", "--config", missing);
    cr_expect_eq(r.status, 3);
    snprintf(want, sizeof want, "fwadvisor: cannot read '%s': No such file or directory\n", missing);
    cr_expect_str_eq(r.err, want);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--config", dir);
    cr_expect_eq(r.status, 3);
    snprintf(want, sizeof want, "fwadvisor: cannot read '%s': Is a directory\n", dir);
    cr_expect_str_eq(r.err, want);
    ts_run_free(&r);

    /* a default file that is not there is no error; one that is a directory is */
    cr_assert_eq(remove(cfg), 0);
    RUN(r, dbarg, "recommend", "--json");
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    cr_assert_eq(mkdir(cfg, 0700), 0);
    RUN(r, dbarg, "recommend", "--json");
    cr_expect_eq(r.status, 3);
    snprintf(want, sizeof want, "fwadvisor: cannot read '%s': Is a directory\n", cfg);
    cr_expect_str_eq(r.err, want);
    cr_expect_str_empty(r.out);
    ts_run_free(&r);
    free(missing);
    free(emit);
    free(cfg);
}

/* A catalog id the [prices] section gets wrong is refused on a plain recommendation too. */
Test(config, a_bad_price_row_is_refused_on_any_recommendation)
{
    char *cfg = put("team.conf", "[prices]\nh100 = 2\n");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--config", cfg);
    cr_expect_eq(r.status, 3);
    cr_expect_str_empty(r.out);
    char want[4400];
    snprintf(want, sizeof want,
             "fwadvisor: %s: line 2: accelerator 'h100' is not in the catalog (fwadvisor kb list accelerators)\n", cfg);
    cr_expect_str_eq(r.err, want);
    ts_run_free(&r);
    free(cfg);
}

/* Answers of the file and of the command line that contradict each other: the line says where in
 * the file its side was set. */
Test(config, a_contradiction_names_the_config_line)
{
    char *cfg = put("team.conf", "[answers]\n# cluster\nnodes = 4\n");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--config", cfg, "--set", "devices=2");
    cr_expect_eq(r.status, 3);
    char want[4400];
    snprintf(want, sizeof want,
             "fwadvisor: keys 'nodes' and 'devices': nodes 4 is more than devices 2 (devices counts the accelerators of "
             "all nodes together, and each node has at least one) (from %s: nodes on line 3)\n",
             cfg);
    cr_expect_str_eq(r.err, want);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--no-config", "--set", "devices=2", "--set", "nodes=4");
    cr_expect_eq(r.status, 3);
    cr_expect_str_eq(r.err, "fwadvisor: keys 'nodes' and 'devices': nodes 4 is more than devices 2 (devices counts the "
                            "accelerators of all nodes together, and each node has at least one)\n");
    ts_run_free(&r);
    free(cfg);
}

/* The [site] partition and account go into job.sbatch as sbatch options; one left out keeps its
 * placeholder. */
Test(config, launch_files_carry_the_site)
{
    static const char *const plan[] = {"--set", "model_kind=llm", "--set", "model_params=7B",
                                       "--set", "accelerator=h100-sxm", "--set", "devices=16",
                                       "--set", "nodes=2"};
    static const struct {
        const char *site, *holds[3], *lacks[2];
    } cases[] = {
        {"[site]\npartition = gpu,long\naccount = ml-team\n",
         {"\n#SBATCH --output=fwadvisor-%x-%j.out\n#SBATCH --partition=gpu,long\n#SBATCH --account=ml-team\nset -euo",
          NULL, NULL},
         {"CHANGE_ME", "PLACEHOLDERS"}},
        {"[site]\naccount = ml-team\n",
         {"\n#SBATCH --account=ml-team\n# PLACEHOLDERS:", "\n##SBATCH --partition=CHANGE_ME\nset -euo", NULL},
         {"--account=CHANGE_ME", "\n#SBATCH --partition"}},
        {"[answers]\nstage = research\n",
         {"\n##SBATCH --partition=CHANGE_ME\n##SBATCH --account=CHANGE_ME\nset -euo", NULL, NULL},
         {"\n#SBATCH --partition", "\n#SBATCH --account"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[32], *cfg, *out;
        snprintf(name, sizeof name, "site%zu.conf", i);
        cfg = put(name, cases[i].site);
        snprintf(name, sizeof name, "launch%zu", i);
        out = ts_path(dir, name);
        const char *args[20] = {dbarg, "recommend", "--config", cfg};
        int n = 4;
        for (size_t k = 0; k < sizeof plan / sizeof plan[0]; k++) args[n++] = plan[k];
        args[n++] = "--emit";
        args[n++] = out;
        args[n] = NULL;
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, args), 0);
        cr_expect_eq(r.status, 0, "case %zu: %s", i, r.err);
        ts_run_free(&r);
        char *sbatch = ts_path(out, "job.sbatch");
        char *text = ts_read(sbatch, NULL);
        cr_assert_not_null(text, "case %zu: a job.sbatch for two nodes", i);
        for (int k = 0; k < 3 && cases[i].holds[k]; k++)
            cr_expect(strstr(text, cases[i].holds[k]), "case %zu holds %s:\n%s", i, cases[i].holds[k], text);
        for (int k = 0; k < 2; k++)
            cr_expect(!strstr(text, cases[i].lacks[k]), "case %zu lacks %s:\n%s", i, cases[i].lacks[k], text);
        free(text);
        free(sbatch);
        free(out);
        free(cfg);
    }
}

/* recommend --sweep's price row: the config's, then a --prices file's for the same accelerator;
 * the config's price_per_device_hour for every device, unless --prices is given. */
static cJSON *sweep_price(const char *cfg, const char *prices_file, double *cost, double *device_hours)
{
    const char *args[24] = {dbarg, "recommend", "--config", cfg, "--set", "model_kind=llm", "--set", "model_params=7B",
                            "--set", "accelerator=h100-sxm", "--sweep", "devices=8", "--json"};
    int n = 13;
    if (prices_file) args[n++] = "--prices", args[n++] = prices_file;
    args[n] = NULL;
    cJSON *rows = member_of("rows", args), *row = cJSON_GetArrayItem(rows, 0);
    cr_assert_not_null(row);
    *cost = cJSON_GetNumberValue(cJSON_GetObjectItem(row, "cost"));
    *device_hours = cJSON_GetNumberValue(cJSON_GetObjectItem(row, "device_hours"));
    cJSON *price = cJSON_DetachItemFromObject(row, "price");
    cJSON_Delete(rows);
    return price;
}

Test(config, prices_sit_between_a_price_file_and_the_knowledge_base)
{
    char *cfg = put("prices.conf", "[prices]\nprovider = ourcloud\nh100-sxm = 2.5\n");
    char *file = put("p.csv", "h100-sxm,acme,3\n");
    double cost, hours;
    cJSON *price = sweep_price(cfg, NULL, &cost, &hours);
    cr_expect_float_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(price, "usd_per_device_hour")), 2.5, 1e-12);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(price, "from")), "config");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(price, "provider")), "ourcloud");
    cr_expect_float_eq(cost, hours * 2.5, 1e-6 * cost, "cost = device-hours x the config's price");
    cJSON_Delete(price);

    price = sweep_price(cfg, file, &cost, &hours);
    cr_expect_float_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(price, "usd_per_device_hour")), 3, 1e-12,
                       "--prices over the config for the same accelerator");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(price, "from")), "file");
    cJSON_Delete(price);

    char *answer = put("answer.conf", "[answers]\nprice_per_device_hour = 1.5\n[prices]\nh100-sxm = 2.5\n");
    price = sweep_price(answer, NULL, &cost, &hours);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(price, "from")), "answers",
                     "the config's price_per_device_hour counts as an answer");
    cr_expect_float_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(price, "usd_per_device_hour")), 1.5, 1e-12);
    cJSON_Delete(price);
    price = sweep_price(answer, file, &cost, &hours);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(price, "from")), "file",
                     "--prices on the command line over the config's one price");
    cJSON_Delete(price);
    free(answer);
    free(file);
    free(cfg);
}

/* --config and --no-config apply to recommend and the interface only, and not both at once. */
Test(config, the_options_are_refused_where_they_change_nothing)
{
    char *cfg = put("team.conf", "[answers]\ndevices = 2\n");
    static const struct {
        const char *args[5], *want;
    } cases[] = {
        {{"kb", "list", "--config", "team.conf", NULL}, "fwadvisor: --config applies to recommend and the interface: it would change nothing here\n"},
        {{"--no-config", "probe", "list", NULL}, "fwadvisor: --no-config applies to recommend and the interface: it would change nothing here\n"},
        {{"recommend", "--list-presets", "--config", "team.conf", NULL},
         "fwadvisor: --config applies to a recommendation: it would change nothing here\n"},
        {{"recommend", "--config", "team.conf", "--no-config", NULL},
         "fwadvisor: give either --config or --no-config, not both\n"},
        /* the interface reads it, but needs a terminal */
        {{"--config", "team.conf", NULL}, "fwadvisor: the interactive advisor needs a terminal"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[8] = {dbarg};
        int n = 1;
        for (int k = 0; cases[i].args[k]; k++) args[n++] = strcmp(cases[i].args[k], "team.conf") ? cases[i].args[k] : cfg;
        args[n] = NULL;
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, args), 0);
        cr_expect_eq(r.status, 2, "case %zu: %s", i, r.err);
        cr_expect_eq(strncmp(r.err, cases[i].want, strlen(cases[i].want)), 0, "case %zu: %s", i, r.err);
        cr_expect_str_empty(r.out, "case %zu", i);
        ts_run_free(&r);
    }
    free(cfg);
}
