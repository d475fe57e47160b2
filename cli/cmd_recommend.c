/* fwadvisor recommend: answers -> ranked, explained recommendation with a plan. */
#include "cli/cli.h"
#include "common/i18n.h"
#include "cli/cmd_compare.h"
#include "cli/options.h"
#include "common/file.h"
#include "common/text.h"
#include "knowledge/advisor.h"
#include "knowledge/answer_keys.h"
#include "knowledge/config_file.h"
#include "knowledge/launch_files.h"
#include "knowledge/model_answers.h"
#include "knowledge/model_config.h"
#include "knowledge/presets.h"
#include "knowledge/report_html.h"
#include "common/units.h"
#include "probes/advisor_hw.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h> /* optind */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static const char recommend_head[] =
    N_("Usage: fwadvisor recommend [-a FILE|-] [--preset NAME] [--set KEY=VALUE]...\n"
    "                           [--json] [--fields LIST] [-o FILE] [--html FILE]\n"
    "                           [--emit DIR] [--probe ID|latest|none]\n"
    "                           [--model NAME] [--model-config FILE]\n"
    "                           [--compare-hardware | --sweep KEY=V1,V2,...]\n"
    "                           [--prices FILE]\n"
    "       fwadvisor recommend --list-presets [--json [--fields LIST]]\n"
    "\n"
    "Ranks the frameworks for your answers (fwadvisor.answers/1), explains every\n"
    "point, and plans the distributed strategy, deployment runtime, memory per\n"
    "device, training time and cost. Answers left out come from the config file\n"
    "($XDG_CONFIG_HOME/fwadvisor/config or ~/.config/fwadvisor/config; --config\n"
    "FILE, --no-config), then the built-in defaults.\n"
    "\n");
/* The answer keys --set takes, from their table. */
static void answer_keys_help(FILE *out)
{
    char keys[1024];
    size_t used = 0;
    for (int i = 0; i < ans_key_count && used < sizeof keys; i++)
        used += (size_t)snprintf(keys + used, sizeof keys - used, "%s%s", i ? ", " : "", ans_keys[i].name);
    if (used < sizeof keys)
        snprintf(keys + used, sizeof keys - used, ". Values in any case; accelerator ids: fwadvisor kb list "
                                                  "accelerators. See docs/report.md and docs/advisor.md.");
    fputs("\nKeys: ", out);
    text_wrap(out, keys, 6, 6);
}

/* --emit DIR must be a new path in a folder that exists, or an empty directory of the user's that
 * nobody else can write (common/file.h): 0, or the error's status with the message printed. */
static int check_emit_dir(const char *dir)
{
    char err[PATH_MAX + 256];
    int status = file_dir_check_new(dir, err, sizeof err);
    if (status == FILE_OK) return EXIT_OK;
    if (status == FILE_REFUSED) return cli_usage_error("recommend", "--emit %s", err);
    cli_error("--emit %s", err);
    return EXIT_RUNTIME;
}

/* Writes the plan's launch files into dir, all or none; the scripts executable; job.sbatch with the
 * site's partition and account (NULL: placeholders). */
static int emit_launch_files(const struct adv_kb *akb, const struct adv_result *r, const struct launch_site *site,
                             const char *dir)
{
    char err[PATH_MAX + 256], names[512];
    int status = launch_files_write(akb, r, site, dir, names, sizeof names, err, sizeof err);
    if (status == FILE_REFUSED) return cli_usage_error("recommend", "--emit %s", err);
    if (status != FILE_OK) {
        cli_error("--emit %s", err);
        return EXIT_RUNTIME;
    }
    text_printf(stderr, _("launch files written to %s: %s"), dir, names);
    fputc('\n', stderr);
    return EXIT_OK;
}

static void bar(char *out, size_t n, double fraction, int width)
{
    if (fraction < 0) fraction = 0;
    if (fraction > 1) fraction = 1;
    int filled = (int)lround(fraction * width);
    size_t i = 0;
    for (; i < (size_t)width && i + 1 < n; i++) out[i] = (int)i < filled ? '#' : '.';
    out[i] = '\0';
}

static void print_reason(const struct adv_kb *akb, const struct adv_reason *r, int with_delta)
{
    char text[1200], line[1600], cite[256];
    adv_reason_local(akb, r, text, sizeof text);
    adv_cite(r->source, r->also, cite, sizeof cite);
    if (cite[0]) snprintf(line, sizeof line, "%s [%s]", text, cite);
    else snprintf(line, sizeof line, "%s", text);
    if (with_delta) {
        printf("  %+6.1f  ", r->delta_tenths / 10.0);
        text_wrap(stdout, line, 10, 10);
    } else {
        printf("  - ");
        text_wrap(stdout, line, 4, 4);
    }
}

static void plan_line(void *ctx, const char *label, const char *text)
{
    (void)ctx;
    char line[1200];
    snprintf(line, sizeof line, _("%s: %s."), _(label), text);
    printf("  ");
    text_wrap(stdout, line, 2, 4);
}

static void section(const char *title, int bold)
{
    fputs(bold ? "\n\033[1m" : "\n", stdout);
    text_put(stdout, title);
    fputs(bold ? "\033[0m\n" : "\n", stdout);
}

static void print_deployment(const struct adv_kb *akb, const struct adv_result *r, int bold)
{
    char line[1024];
    snprintf(line, sizeof line, _("Deployment: %s (%s)"), r->runtime_name ? r->runtime_name : "-", r->runtime ? r->runtime : "-");
    section(line, bold);
    if (strcmp(answers_str(&r->answers, ANS_DEPLOY), "none") != 0) {
        printf("  ");
        text_wrap(stdout, ADV_LOCAL(r, deploy_hardware_note), 2, 4);
    }
    for (int i = 0; i < r->nruntime_reasons; i++) print_reason(akb, &r->runtime_reasons[i], 0);
}

static void print_training(const struct adv_kb *akb, const struct adv_result *r, int bold);
static void print_pitfalls(const struct adv_kb *akb, const struct adv_result *r, int bold);

static void print_text(const struct adv_kb *akb, const struct adv_result *r, int bold)
{
    const struct answers *a = &r->answers;
    char line[1024];
    /* the version and date come from the database file: through the output filter */
    if (bold) fputs("\033[1m", stdout);
    fputs(_("fwadvisor recommendation"), stdout);
    if (bold) fputs("\033[0m", stdout);
    text_printf(stdout, _(" (knowledge base %s, %s)"), adv_kb_version(akb), adv_kb_date(akb));
    putchar('\n');
    char devices[32], nodes[48], params[32];
    snprintf(line, sizeof line, _("Answers: stage %s, %s x %s on %s, %s model of %s parameters, deploy %s, priority %s; %s."),
             answers_str(a, ANS_STAGE), answers_str(a, ANS_HARDWARE), units_thousands(answers_num(a, ANS_DEVICES), 0, devices, sizeof devices),
             units_count(answers_num(a, ANS_NODES), _("node"), _("nodes"), nodes, sizeof nodes), answers_str(a, ANS_MODEL_KIND),
             units_short(answers_num(a, ANS_MODEL_PARAMS), params, sizeof params), answers_str(a, ANS_DEPLOY),
             answers_str(a, ANS_PRIORITY), ADV_LOCAL(r, hardware_note));
    text_wrap(stdout, line, 0, 9);
    if (r->job == ADV_JOB_SERVE) { /* serving only: its plan first, and no training plan below */
        section(_("Serving plan (job serve: no training planned)"), bold);
        adv_inference_text(akb, r, plan_line, NULL);
        if (!r->inference.planned) plan_line(NULL, N_("Serving"), _("no serving plan: it is made for model_kind llm on deploy server"));
    }

    section(_("Ranking (0-100)"), bold);
    int rank = 0;
    for (int i = 0; i < r->ranking.count; i++) {
        const struct adv_framework *f = &r->ranking.items[i];
        if (f->excluded) {
            char text[1024];
            adv_reason_local(akb, &f->reasons[0], text, sizeof text);
            snprintf(line, sizeof line, "%s", text);
            /* the reason from column 30 in either language: the name and the word padded by columns */
            char name[160], word[64];
            text_printf(stdout, "   -  %s %s ", text_pad(name, sizeof name, f->name, 13, -1),
                        text_pad(word, sizeof word, _("excluded"), 9, -1));
            text_wrap(stdout, line, 30, 30);
            continue;
        }
        char b[48];
        bar(b, sizeof b, f->score_tenths / 1000.0, 40);
        text_printf(stdout, "  %2d  %-13s %5.1f  %s", ++rank, f->name, f->score_tenths / 10.0, b);
        putchar('\n');
    }

    const struct adv_framework *top = &r->ranking.items[0];
    if (!top->excluded) {
        snprintf(line, sizeof line, _("Why %s: the largest of its %d %s (all: --json)"), top->name, adv_reason_total(top),
                 units_plural(adv_reason_total(top), _("reason"), _("reasons")));
        section(line, bold);
        const struct adv_reason *sorted[ADV_MAX_REASONS];
        adv_reasons_by_size(top->reasons, top->nreasons, sorted);
        for (int i = 0; i < top->nreasons && i < 6; i++) print_reason(akb, sorted[i], 1);
    }

    print_training(akb, r, bold);
    print_pitfalls(akb, r, bold);
}

/* The strategy, the deployment and the training plan: for serving only, the deployment alone. */
static void print_training(const struct adv_kb *akb, const struct adv_result *r, int bold)
{
    char line[1024];
    if (r->job == ADV_JOB_SERVE) {
        print_deployment(akb, r, bold);
        section(_("Plan"), bold);
        adv_plan_text(akb, r, plan_line, NULL);
        return;
    }
    snprintf(line, sizeof line, _("Distributed training: %s (%s)"), r->strategy_name ? adv_kb_local(akb, r->strategy_name) : "-",
             r->strategy ? r->strategy : "-");
    section(line, bold);
    for (int i = 0; i < r->nstrategy_reasons; i++) print_reason(akb, &r->strategy_reasons[i], 0);
    if (r->nalternatives) {
        size_t used = (size_t)snprintf(line, sizeof line, "%s", _("Alternatives:"));
        for (int i = 0; i < r->nalternatives; i++)
            used += (size_t)snprintf(line + used, sizeof line - used, "%s %s", i ? "," : "", r->alternatives[i]);
        printf("  ");
        text_wrap(stdout, line, 2, 4);
    }

    print_deployment(akb, r, bold);
    adv_inference_text(akb, r, plan_line, NULL);

    section(_("Plan"), bold);
    const struct adv_memory *m = &r->memory;
    if (m->device_memory_gb > 0) {
        char b[48];
        bar(b, sizeof b, m->total_gb / (m->usable_gb > 0 ? m->usable_gb : m->device_memory_gb), 40);
        printf(_("  %s %.0f%% of usable memory %s\n"), b, 100 * m->total_gb / (m->usable_gb > 0 ? m->usable_gb : m->device_memory_gb),
               m->fits ? "" : _("(DOES NOT FIT)"));
    }
    adv_plan_text(akb, r, plan_line, NULL);
    snprintf(line, sizeof line, _("Scaling: %s%s%s%s"), ADV_LOCAL(r, scaling_source), r->scaling_seed_short[0] ? "; " : "",
             r->scaling_seed_short, r->scaling_seed_short[0] ? "." : "");
    printf("  ");
    text_wrap(stdout, line, 2, 4);
}

static void print_pitfalls(const struct adv_kb *akb, const struct adv_result *r, int bold)
{
    char line[1024];
    section(_("Pitfalls"), bold);
    for (int i = 0; i < r->npitfalls; i++) {
        char cite[256];
        adv_cite(r->pitfalls[i].source, r->pitfalls[i].also, cite, sizeof cite);
        snprintf(line, sizeof line, "%s [%s]", adv_kb_local(akb, r->pitfalls[i].text), cite);
        printf("  [ ] ");
        text_wrap(stdout, line, 6, 6);
    }
}

/* The presets with what each is for: a table, or JSON [{"name", "description"}]. */
static int list_presets(int json, int bold)
{
    size_t n = presets_size();
    char (*names)[128] = calloc(n + 1, sizeof *names), (*descs)[256] = calloc(n + 1, sizeof *descs);
    const char **cells = calloc(2 * n + 1, sizeof *cells);
    cJSON *arr = json ? cJSON_CreateArray() : NULL;
    int rc = names && descs && cells && (!json || arr) ? EXIT_OK : EXIT_RUNTIME;
    for (size_t i = 0; rc == EXIT_OK && i < n; i++) {
        cells[2 * i] = preset_name(i, names[i], sizeof names[i]);
        cells[2 * i + 1] = preset_description(i, descs[i], sizeof descs[i]);
        cJSON *item = json ? cJSON_CreateObject() : NULL;
        if (item) {
            cJSON_AddStringToObject(item, "name", names[i]);
            cJSON_AddStringToObject(item, "description", descs[i]);
            cJSON_AddItemToArray(arr, item);
        }
    }
    if (rc != EXIT_OK) cli_error("out of memory");
    else if (json) rc = cli_write_json(arr, NULL);
    else {
        const struct text_column cols[] = {{_("PRESET"), 0, 0}, {_("SITUATION"), 1, 0}};
        text_table(stdout, cols, 2, cells, (int)n, bold);
        printf("\n%s\n", _("Use one: fwadvisor recommend --preset NAME (files in data/presets/)"));
    }
    cJSON_Delete(arr);
    free(names);
    free(descs);
    free((void *)cells);
    return rc;
}

static void iso_now(char *out, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* --- the command: parse, check the outputs, gather the answers, advise, write ------------- */

struct rec_opts {
    const char *answers_file, *preset, *output, *html, *probe, *emit, *model, *model_config;
    const char *sets[64], *sweeps[2], *prices, *fields;
    int nsets, nsweeps, compare, json, list, html_stdout;
    cli_given given;
};

/* The modes of the options' rows. */
enum { RM_RECOMMEND = 1, RM_LIST = 2 };
static const char *const recommend_modes[] = {"a recommendation", "--list-presets"};

enum { R_ANSWERS, R_PRESET, R_SET, R_JSON, R_FIELDS, R_OUTPUT, R_HTML, R_PROBE, R_EMIT, R_LIST, R_MODEL, R_MODEL_CONFIG, R_COMPARE,
       R_SWEEP, R_PRICES, R_COUNT };
#define F(member) offsetof(struct rec_opts, member)
static const struct cli_option recommend_options[R_COUNT] = {
    [R_ANSWERS] = {"answers", 'a', CLI_FILE, 0, 0, F(answers_file), 0, NULL, NULL, RM_RECOMMEND, NULL, "FILE",
                   N_("answers as JSON (- for standard input)")},
    [R_PRESET] = {"preset", 0, CLI_TEXT, 0, 0, F(preset), 0, NULL, NULL, RM_RECOMMEND, NULL, "NAME",
                  N_("start from a built-in preset (--list-presets)")},
    [R_SET] = {"set", 0, CLI_LIST, 0, 64, F(sets), F(nsets), NULL, NULL, RM_RECOMMEND, NULL, "KEY=VALUE",
               N_("set one answer, after the file or preset (repeatable);\nlists are comma-separated: --set team=pytorch,jax;\n"
               "numbers take K, M, B, T: --set model_params=70B")},
    [R_JSON] = {"json", 0, CLI_FLAG, 0, 0, F(json), 0, NULL, NULL, 0, NULL, NULL,
                N_("print the report (fwadvisor.report/1) instead of text")},
    [R_FIELDS] = {"fields", 0, CLI_TEXT, 0, 0, F(fields), 0, NULL, NULL, 0, NULL, "LIST",
                  N_("with --json or -o: only these members, dotted paths\nsplit by commas: --fields ranking.framework,plan.time")},
    [R_OUTPUT] = {"output", 'o', CLI_FILE, 0, 0, F(output), 0, NULL, NULL, RM_RECOMMEND, NULL, "FILE",
                  N_("also write the report to FILE (atomically)")},
    [R_HTML] = {"html", 0, CLI_FILE, 0, 0, F(html), 0, NULL, NULL, RM_RECOMMEND, NULL, "FILE",
                N_("also write the report as one self-contained HTML page\nwith charts")},
    [R_PROBE] = {"probe", 0, CLI_TEXT, 0, 0, F(probe), 0, NULL, NULL, RM_RECOMMEND, NULL, "ID|latest|none",
                 N_("hardware and measured peak from a stored probe run\n(default latest; none: a quick look at the device\n"
                 "nodes instead)")},
    [R_EMIT] = {"emit", 0, CLI_DIR, 0, 0, F(emit), 0, NULL, NULL, RM_RECOMMEND, NULL, "DIR",
                N_("write ready-to-edit launch files for the plan into DIR\n(new or empty): launch.sh (torchrun, accelerate or\n"
                "Megatron-LM), accelerate.yaml, ds_config.json,\njob.sbatch, jax-distributed.txt")},
    [R_LIST] = {"list-presets", 0, CLI_FLAG, 0, 0, F(list), 0, NULL, NULL, RM_LIST, NULL, NULL,
                N_("list the presets with what each is for, and exit")},
    [R_MODEL] = {"model", 0, CLI_TEXT, 0, 0, F(model), 0, NULL, NULL, RM_RECOMMEND, NULL, "NAME",
                 N_("the shape of a shipped open model (the answer key model):\nllama-3.1-8b, llama-3.1-70b, mixtral-8x7b, ...")},
    [R_MODEL_CONFIG] = {"model-config", 0, CLI_FILE, 0, 0, F(model_config), 0, NULL, NULL, RM_RECOMMEND, NULL, "FILE",
                        N_("the model's shape from its Hugging Face config.json;\nanswers given explicitly win over it")},
    [R_COMPARE] = {"compare-hardware", 0, CLI_FLAG, 0, 0, F(compare), 0, NULL, NULL, RM_RECOMMEND, NULL, NULL,
                   N_("the job on every catalog accelerator that can run it:\nthe fewest devices that fit, x2, x4; time, cost")},
    [R_SWEEP] = {"sweep", 0, CLI_LIST, 0, 2, F(sweeps), F(nsweeps), NULL, NULL, RM_RECOMMEND, NULL, "KEY=V1,V2,...",
                 N_("the plan's figures for each value of a key (one or two:\n--sweep devices=8,16,32)")},
    [R_PRICES] = {"prices", 0, CLI_FILE, 0, 0, F(prices), 0, NULL, NULL, RM_RECOMMEND, NULL, "FILE",
                  N_("prices per device-hour for the comparison and sweeps:\nCSV accelerator,provider,price or JSON")},
};
#undef F

/* The presets and the shipped models, for the completions of --preset and --model. */
static const char *recommend_words(int row, int i, char *buf, size_t n)
{
    if (i < 0) return NULL;
    if (row == R_PRESET) return (size_t)i < presets_size() ? preset_name((size_t)i, buf, n) : NULL;
    if (row == R_MODEL) return (size_t)i < model_known_count() ? model_known_name((size_t)i, buf, n) : NULL;
    return NULL;
}

const struct cli_command cli_recommend_command = {"recommend", recommend_options, R_COUNT, recommend_modes,
                                                  recommend_head, "", 22, NULL, answer_keys_help, NULL,
                                                  recommend_words, 1};

/* Options into o: EXIT_OK, or the usage error's status (help printed: -1). */
static int parse_options(struct globals *g, int argc, char **argv, struct rec_opts *o)
{
    memset(o, 0, sizeof *o);
    o->probe = "latest";
    int rc = cli_options_parse(&cli_recommend_command, g, argc, argv, o, &o->given);
    if (rc != EXIT_OK) return rc;
    if (optind < argc) return cli_usage_error("recommend", "unexpected argument '%s'", argv[optind]);
    if (o->answers_file && o->preset) return cli_usage_error("recommend", "give either --answers or --preset, not both");
    o->html_stdout = o->html && strcmp(o->html, "-") == 0;
    if (o->compare && o->nsweeps) return cli_usage_error("recommend", "give either --compare-hardware or --sweep, not both");
    if ((o->compare || o->nsweeps) && (o->output || o->emit))
        return cli_usage_error("recommend", "--compare-hardware and --sweep print their table (--json, --html FILE) alone");
    if (o->prices && !o->compare && !o->nsweeps)
        return cli_usage_error("recommend", "--prices applies to --compare-hardware and --sweep");
    if (g->config && g->no_config) return cli_usage_error("recommend", "give either --config or --no-config, not both");
    if (o->list && (g->config || g->no_config))
        return cli_not_applicable("recommend", g->config ? "--config" : "--no-config", "to a recommendation");
    rc = cli_options_refuse(&cli_recommend_command, o->given, o->list ? RM_LIST : RM_RECOMMEND);
    return rc != EXIT_OK ? rc : cli_json_fields("recommend", o->fields, o->json || o->output);
}

/* Every output can be written, before the work. */
static int check_outputs(const struct rec_opts *o)
{
    if (o->html_stdout && (o->json || (o->output && strcmp(o->output, "-") == 0)))
        return cli_usage_error("recommend", "--html - and the JSON report cannot both go to standard output");
    if (o->emit) {
        int bad = check_emit_dir(o->emit);
        if (bad != EXIT_OK) return bad;
    }
    int unwritable = cli_check_output(o->output, EXIT_USAGE);
    if (unwritable == EXIT_OK && !o->html_stdout) unwritable = cli_check_output(o->html, EXIT_RUNTIME);
    return unwritable;
}

static int load_preset(const char *preset, struct answers *answers, char *err, size_t errsz)
{
    int i = preset_find(preset);
    char near[128];
    if (i < 0 && preset_suggest(preset, near, sizeof near)) {
        cli_error("unknown preset '%s' (did you mean '%s'? fwadvisor recommend --list-presets)", preset, near);
        return EXIT_INPUT;
    }
    if (i < 0) {
        cli_error("unknown preset '%s' (fwadvisor recommend --list-presets)", preset);
        return EXIT_INPUT;
    }
    const char *text = preset_text((size_t)i);
    if (answers_parse_json(answers, text, strlen(text), preset, err, errsz)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

/* --model NAME as the answer key model (unless answered), --model-config FILE into the shape keys
 * the answers leave out: EXIT_OK, or EXIT_INPUT with the line printed. */
static int apply_model_options(const struct rec_opts *o, struct answers *answers)
{
    char err[1024];
    if (o->model && !answers_has(answers, ANS_MODEL)) {
        char assignment[160];
        snprintf(assignment, sizeof assignment, "model=%s", o->model);
        if (answers_set(answers, assignment, err, sizeof err)) {
            cli_error("--model: %s", err);
            return EXIT_INPUT;
        }
    }
    if (!o->model_config) return EXIT_OK;
    unsigned char *data;
    size_t len;
    if (file_read(o->model_config, MODEL_CONFIG_MAX_BYTES, &data, &len, err, sizeof err) != FILE_OK) {
        cli_error("--model-config %s", err);
        return EXIT_INPUT;
    }
    struct model_shape shape;
    int bad = model_config_parse((const char *)data, len, o->model_config, &shape, err, sizeof err);
    free(data);
    if (bad) {
        cli_error("--model-config %s", err);
        return EXIT_INPUT;
    }
    model_answers_fill(answers, &shape);
    return EXIT_OK;
}

/* The config's answers beneath the command line's: a key the preset, the answers file, --set and
 * the model options leave out takes the config's value. Its price_per_device_hour (one price for
 * every device) yields to --prices, and its model to --model-config, which say the same thing.
 * Returns the keys taken from it. */
static ans_key_set merge_config(const struct rec_opts *o, const struct config_file *c, struct answers *answers)
{
    ans_key_set taken = 0;
    for (int i = 0; c && i < ANS_KEY_COUNT; i++) {
        if (answers->v[i].present || !c->answers.v[i].given) continue;
        if ((i == ANS_PRICE_PER_DEVICE_HOUR && o->prices) || (i == ANS_MODEL && o->model_config)) continue;
        answers->v[i] = c->answers.v[i];
        taken |= ANS_KEY_BIT(i);
    }
    return taken;
}

/* Answers that contradict each other: the line, and where in the config file those of its keys
 * that came from it were set. */
static int check_combination(const struct answers *answers, const struct config_file *c, ans_key_set from_config)
{
    char err[1024], where[PATH_MAX + 256] = "";
    ans_key_set keys = answers_conflict(answers, err, sizeof err);
    if (!keys) return EXIT_OK;
    keys &= from_config;
    for (int i = 0, n = 0; keys && i < ANS_KEY_COUNT; i++) {
        if (!(keys & ANS_KEY_BIT(i))) continue;
        size_t used = strlen(where);
        snprintf(where + used, sizeof where - used, "%s%s on line %d", n++ ? ", " : "", ans_keys[i].name, c->answer_line[i]);
    }
    if (where[0]) cli_error("%s (from %s: %s)", err, c->path, where);
    else cli_error("%s", err);
    return EXIT_INPUT;
}

/* The answers: a preset or a file, then each --set, then the config file's beneath them all, then
 * a check that they agree. */
static int gather_answers(const struct rec_opts *o, const struct config_file *config, struct answers *answers)
{
    char err[1024];
    answers_init(answers);
    if (o->preset && load_preset(o->preset, answers, err, sizeof err) != EXIT_OK) return EXIT_INPUT;
    if (o->answers_file) {
        char *data;
        size_t len;
        if (cli_read_file(o->answers_file, &data, &len, err, sizeof err)) {
            cli_error("%s", err);
            return EXIT_INPUT;
        }
        const char *name = strcmp(o->answers_file, "-") == 0 ? "standard input" : o->answers_file;
        int bad = answers_parse_json(answers, data, len, name, err, sizeof err);
        free(data);
        if (bad) {
            cli_error("%s", err);
            return EXIT_INPUT;
        }
    }
    for (int i = 0; i < o->nsets; i++) {
        if (answers_set(answers, o->sets[i], err, sizeof err)) {
            cli_error("%s", err);
            return EXIT_INPUT;
        }
    }
    if (apply_model_options(o, answers) != EXIT_OK) return EXIT_INPUT;
    return check_combination(answers, config, merge_config(o, config, answers));
}

/* The report as JSON and HTML, drawn from one document so the page shows what --json says. */
static int write_reports(const struct adv_kb *akb, const struct adv_result *r, const struct rec_opts *o,
                         const struct launch_site *site)
{
    char now[32];
    iso_now(now, sizeof now);
    cJSON *doc = adv_report_json(akb, r, now);
    if (!doc) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    int rc = EXIT_OK;
    if (o->html) {
        /* the plan's launch files on the page, as --emit writes them */
        struct launch_files files = {0};
        char err[256];
        int have = r->job != ADV_JOB_SERVE && launch_files_make(akb, r, site, &files, err, sizeof err) == 0;
        struct html page = {0};
        /* the page in the reader's words, its figures the document's */
        cJSON *local = i18n_lang() == I18N_EN ? NULL : adv_report_json_local(akb, r, now);
        adv_report_html_files(local ? local : doc, have ? &files : NULL, &page);
        cJSON_Delete(local);
        rc = cli_write_html(o->html, &page);
        html_free(&page);
        if (have) launch_files_free(&files);
    }
    if (rc == EXIT_OK && (o->json || o->output)) rc = cli_write_json(doc, o->output);
    cJSON_Delete(doc);
    if (rc == EXIT_OK && o->output && strcmp(o->output, "-") != 0) {
        text_printf(stderr, _("report written to %s"), o->output);
        fputc('\n', stderr);
    }
    return rc;
}

/* A recommendation (or a comparison, a sweep) for the options and the config file. */
static int recommend(struct globals *g, const struct rec_opts *o, const struct config_file *config)
{
    int rc;
    if ((rc = check_outputs(o)) != EXIT_OK) return rc;
    struct answers answers;
    if ((rc = gather_answers(o, config, &answers)) != EXIT_OK) return rc;

    char err[1024];
    kb *k = NULL;
    if ((rc = cli_open_kb_read(g, &k)) != EXIT_OK) return rc;
    struct adv_kb *akb = NULL;
    int status = adv_kb_load(k, &akb, err, sizeof err);
    struct adv_hw hw;
    if (status == KB_OK) status = probe_advisor_hardware(k, o->probe, &answers, 0, &hw, err, sizeof err);
    int tables = o->compare || o->nsweeps;
    struct compare_prices *prices = NULL;
    if (status == KB_OK && (tables || (config && config->nprices))) {
        /* the config's prices are checked against the catalog even where no table uses them */
        prices = calloc(1, sizeof *prices);
        rc = prices ? cli_compare_prices(k, akb, o->prices, config, prices) : (cli_error("out of memory"), EXIT_RUNTIME);
    }
    kb_close(k);
    if (rc == EXIT_OK && status == KB_OK && tables)
        rc = cli_compare_print(akb, &answers, &hw, prices, o->sweeps, o->nsweeps, o->json, o->html, g->color);
    free(prices);
    if (rc != EXIT_OK || (status == KB_OK && tables)) {
        adv_kb_free(akb);
        return rc;
    }
    struct adv_result *r = status == KB_OK ? calloc(1, sizeof *r) : NULL;
    if (status == KB_OK && !r) status = KB_ERR_RUNTIME, snprintf(err, sizeof err, "out of memory");
    if (status == KB_OK) status = adv_recommend(akb, &answers, &hw, r, err, sizeof err);
    if (status != KB_OK) {
        cli_error("%s", err);
        rc = cli_exit_from_kb(status);
    }
    if (rc == EXIT_OK && (o->json || o->output || o->html)) rc = write_reports(akb, r, o, config ? &config->site : NULL);
    if (rc == EXIT_OK && !o->json && !o->html_stdout) print_text(akb, r, g->color);
    if (rc == EXIT_OK && o->emit) rc = emit_launch_files(akb, r, config ? &config->site : NULL, o->emit);
    free(r);
    adv_kb_free(akb);
    return rc;
}

int cmd_recommend(struct globals *g, int argc, char **argv)
{
    struct rec_opts o;
    int rc = parse_options(g, argc, argv, &o);
    if (rc != EXIT_OK) return rc < 0 ? EXIT_OK : rc;
    if (o.list) return list_presets(o.json, g->color);
    struct config_file *config;
    if ((rc = cli_load_config(g, &config)) != EXIT_OK) return rc;
    rc = recommend(g, &o, config);
    config_free(config);
    return rc;
}
