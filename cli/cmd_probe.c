/* fwadvisor probe: detect and measure this machine; list, show, delete and compare stored runs. */
#include "cli/cli.h"
#include "common/i18n.h"
#include "cli/options.h"
#include "common/json_doc.h"
#include "knowledge/probe_store.h"
#include "common/units.h"
#include "probes/dist.h"
#include "probes/probe.h"
#include "probes/run_html.h"
#include "probes/run_table.h"
#include "probes/session.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static const char probe_head[] =
    N_("Usage: fwadvisor probe [--quick|--full] [--device auto|cpu|cuda[:N]]\n"
    "                       [--workload W[,W]] [--threads N] [--python PATH]...\n"
    "                       [--framework-timeout S] [--json] [--fields LIST]\n"
    "                       [-o FILE] [--html FILE] [--no-save] [--compare ID|latest]\n"
    "       fwadvisor probe list [--json] [--fields LIST] [-o FILE]\n"
    "       fwadvisor probe show ID|latest [--json] [--fields LIST] [-o FILE]\n"
    "                            [--html FILE] [--compare ID|latest]\n"
    "       fwadvisor probe delete ID\n"
    "\n"
    "Detects the CPU (hwloc, cpuid) and accelerators, then measures the workloads\n"
    "listed below on the CPU, and with a GPU (the CUDA plug-in) on the GPU as well;\n"
    "the frameworks workload trains the same models in every installed PyTorch, JAX,\n"
    "TensorFlow, Keras 3, MLX, PaddlePaddle and MindSpore, side by side with the\n"
    "engine. Under `mpirun -np N` the workloads across ranks run as well. What\n"
    "cannot run says why. The run is stored in the knowledge base (unless\n"
    "--no-save) and feeds `fwadvisor recommend`. Ctrl-C, SIGTERM or SIGHUP stops it\n"
    "within a second; what was finished is saved, marked interrupted (status 1). A\n"
    "second one ends the program at once.\n"
    "\n");

/* What the command line asked for: the options (by the rows below), the subcommand and its ID. */
struct probe_args {
    const char *output, *compare, *device, *html, *fields;
    int json, nosave, full, quick, threads, npythons;
    unsigned workloads;
    const char *pythons[PROBE_FW_MAX_PYTHONS];
    double fw_timeout;
    cli_given given;
    int sub; /* -1: a measurement, else the index in probe_subs */
    const char *id;
};

/* The modes an option may apply to, bit by bit: the subcommands, then a measurement. */
enum { PM_LIST = 1, PM_SHOW = 2, PM_DELETE = 4, PM_MEASURE = 8 };
static const char *const probe_subs[] = {"list", "show", "delete", NULL};
static const char *const probe_modes[] = {"probe list", "probe show", "probe delete", N_("a measurement")};

static int parse_workloads(const char *arg, void *field, char *err, size_t errsz)
{
    return probe_parse_workloads(arg, field, err, errsz) ? -1 : 0;
}

enum { P_QUICK, P_FULL, P_DEVICE, P_WORKLOAD, P_PYTHON, P_FW_TIMEOUT, P_THREADS, P_COMPARE, P_JSON, P_FIELDS, P_OUTPUT, P_HTML,
       P_NOSAVE, P_COUNT };
#define F(member) offsetof(struct probe_args, member)
static const struct cli_option probe_options[P_COUNT] = {
    [P_QUICK] = {"quick", 0, CLI_FLAG, 0, 0, F(quick), 0, NULL, NULL, PM_MEASURE, "--quick / --full", NULL,
                 N_("fewer or more sizes and repeats (--quick: the default)")},
    [P_FULL] = {"full", 0, CLI_FLAG, 0, 0, F(full), 0, NULL, NULL, PM_MEASURE, NULL, NULL, NULL},
    [P_DEVICE] = {"device", 0, CLI_TEXT, 0, 0, F(device), 0, NULL, NULL, PM_MEASURE, NULL, "D",
                  N_("auto (default: the CPU, and GPU 0 when one opens), cpu,\ncuda or cuda:N (that GPU only)")},
    [P_WORKLOAD] = {"workload", 0, CLI_CHOICE, 0, 0, F(workloads), 0, parse_workloads, NULL, PM_MEASURE, NULL, "W,...",
                    N_("the workloads to run, by name (listed below)")},
    [P_PYTHON] = {"python", 0, CLI_LIST, 0, PROBE_FW_MAX_PYTHONS, F(pythons), F(npythons), NULL, NULL, PM_MEASURE, NULL,
                  "PATH",
                  N_("an interpreter whose frameworks to measure\n(repeatable; default: python3 on PATH and the active\n"
                  "virtual or conda environment)")},
    [P_FW_TIMEOUT] = {"framework-timeout", 0, CLI_SECONDS, 1, 86400, F(fw_timeout), 0, NULL, NULL, PM_MEASURE, NULL, "S",
                      N_("each framework's process at most S seconds (default\n120, --full 600)")},
    [P_THREADS] = {"threads", 0, CLI_INT, 1, 1024, F(threads), 0, NULL, NULL, PM_MEASURE, NULL, "N",
                   N_("threads for the CPU measurements (default: the\nphysical cores)")},
    [P_COMPARE] = {"compare", 0, CLI_TEXT, 0, 0, F(compare), 0, NULL, NULL, PM_SHOW | PM_MEASURE, NULL, "ID|latest",
                   N_("each result beside a stored run, with the change in\npercent, in the table or the --html page")},
    [P_JSON] = {"json", 0, CLI_FLAG, 0, 0, F(json), 0, NULL, NULL, PM_LIST | PM_SHOW | PM_MEASURE, "--json, -o FILE", NULL,
                N_("the run as JSON (fwadvisor.probe/1) on stdout, or\nwritten to FILE")},
    [P_FIELDS] = {"fields", 0, CLI_TEXT, 0, 0, F(fields), 0, NULL, NULL, PM_LIST | PM_SHOW | PM_MEASURE, NULL, "LIST",
                  N_("with --json or -o: only these members, dotted paths\nsplit by commas: --fields workloads.name,cpu.model")},
    [P_OUTPUT] = {"output", 'o', CLI_FILE, 0, 0, F(output), 0, NULL, NULL, PM_LIST | PM_SHOW | PM_MEASURE, NULL, "FILE",
                  NULL},
    [P_HTML] = {"html", 0, CLI_FILE, 0, 0, F(html), 0, NULL, NULL, PM_SHOW | PM_MEASURE, NULL, "FILE",
                N_("the run as one self-contained HTML page with charts")},
    [P_NOSAVE] = {"no-save", 0, CLI_FLAG, 0, 0, F(nosave), 0, NULL, NULL, PM_MEASURE, NULL, NULL,
                  N_("do not store the run")},
};
#undef F

/* The subcommands for the completions: list takes nothing, show and delete a run's ID. */
static int probe_sub(int i, struct cli_sub *out)
{
    if (i < 0 || i >= (int)(sizeof probe_subs / sizeof probe_subs[0]) - 1) return -1;
    *out = (struct cli_sub){probe_subs[i], i == 0 ? CLI_FLAG : CLI_TEXT, NULL};
    return 0;
}

/* The workloads and "all", for the completions of --workload. */
static const char *probe_words(int row, int i, char *buf, size_t n)
{
    (void)buf, (void)n;
    if (row != P_WORKLOAD) return NULL;
    const char *name = probe_workload_name(i, NULL);
    return name ? name : probe_workload_name(i - 1, NULL) ? "all" : NULL;
}

const struct cli_command cli_probe_command = {"probe", probe_options, P_COUNT, probe_modes, probe_head, "", 23, NULL,
                                           probe_workloads_help, probe_sub, probe_words, 0};

struct bar {
    int active;
};

static void draw_progress(void *ctx, const struct probe_progress *p)
{
    struct bar *b = ctx;
    if (!b->active) return;
    char line[40], eta[64] = "";
    int filled = (int)(p->fraction * 30);
    for (int i = 0; i < 30; i++) line[i] = i < filled ? '#' : '.';
    line[30] = '\0';
    char left[48];
    if (p->eta_s >= 0)
        snprintf(eta, sizeof eta, p->eta_revised ? _("about %s left (revised up)") : _("about %s left"),
                 units_duration_text(p->eta_s, left, sizeof left));
    fprintf(stderr, "\r\033[K[%s] %3.0f%%  %-16s %s", line, p->fraction * 100, p->what, eta);
    fflush(stderr);
}

static void clear_progress(const struct bar *b)
{
    if (b->active) fputs("\r\033[K", stderr);
}

static void print_table(const struct probe_table *t)
{
    probe_table_print(stdout, t, 0);
    /* Skipped ones after the table, each with its reason. */
    for (int r = 0; r < t->nrows; r++) {
        if (!t->rows[r].skipped || t->rows[r].frameworks) continue;
        char why[400];
        snprintf(why, sizeof why, "%-10s %-13.13s %s", t->rows[r].cell[PT_WORKLOAD], t->rows[r].cell[PT_METRIC],
                 t->rows[r].reason);
        text_wrap(stdout, why, 0, 25);
    }
    const char *notes[] = {probe_table_plan_note_shown(t), probe_table_noise_note(t), probe_table_compare_note(t)};
    for (int i = 0; i < 3; i++)
        if (*notes[i]) {
            putchar('\n');
            text_wrap(stdout, _(notes[i]), 0, 2);
        }
}

/* The frameworks workload's rows: a table per model, then what did not run and why, then what
 * each interpreter has. */
static void print_fw_table(const struct measured_run *run)
{
    struct probe_fw_table *t = malloc(sizeof *t);
    if (t) probe_fw_table_from(run, t);
    if (!t || !t->nrows) {
        free(t);
        return;
    }
    for (int m = 0; m < 2; m++) {
        int rows = 0;
        for (int r = 0; r < t->nrows; r++) rows += !t->rows[r].skipped && t->rows[r].model == m;
        if (!rows) continue;
        printf("\n");
        text_wrap(stdout, t->title[m], 0, 2);
        probe_fw_table_print(stdout, t, m);
    }
    int first = 1;
    for (int r = 0; r < t->nrows; r++)
        if (t->rows[r].skipped) {
            if (first) printf("\n"), first = 0;
            text_wrap(stdout, t->rows[r].reason, 0, 2);
        }
    printf("\n");
    for (int i = 0; i < t->nfound; i++) text_wrap(stdout, t->found[i], 0, 2);
    if (t->ntimed) {
        printf("\n");
        text_wrap(stdout, probe_fw_table_note(), 0, 0);
    }
    free(t);
}

static void print_read_run(const struct measured_run *run, const struct measured_run *base, int bold)
{
    char lines[24][512];
    int n = probe_summary_shown_from(run, lines, 24);
    for (int i = 0; i < n; i++) {
        if (i == 0) {
            if (bold) fputs("\033[1m", stdout);
            text_put(stdout, lines[0]);
            fputs(bold ? "\033[0m\n" : "\n", stdout);
        } else {
            text_wrap(stdout, lines[i], 0, 2);
        }
    }
    printf("\n");
    struct probe_table *t = malloc(sizeof *t);
    if (!t) return;
    probe_table_from(run, base, t);
    print_table(t);
    free(t);
    print_fw_table(run);
}

/* The run and its baseline, each read once (knowledge/measured.h). */
static void print_run(const cJSON *doc, const cJSON *base, int bold)
{
    struct measured_run *run = measured_read_new(doc), *then = measured_read_new(base);
    if (run && (then || !base)) print_read_run(run, then, bold);
    free(run);
    free(then);
}

/* The run as a page, compared with base when there is one, with the planned and measured GPT
 * step of the machine's stored runs (k may be NULL: this run's alone). */
static int write_html(kb *k, const cJSON *doc, const cJSON *base, const char *path)
{
    struct html page = {0};
    struct probe_plan_point history[PROBE_PLAN_HISTORY];
    int n = probe_session_plan_history(k, doc, history, PROBE_PLAN_HISTORY);
    probe_run_html(doc, base, history, n, &page);
    int rc = cli_write_html(path, &page);
    html_free(&page);
    return rc;
}

static int sub_list(struct globals *g, int json, const char *output)
{
    kb *k;
    int rc = cli_open_kb_read(g, &k);
    if (rc) return rc;
    char err[1024];
    cJSON *rows;
    int status = kb_probe_list(k, &rows, err, sizeof err);
    kb_close(k);
    if (status != KB_OK) {
        cli_error("%s", err);
        return cli_exit_from_kb(status);
    }
    if (json || output) rc = cli_write_json(rows, output);
    if (!json) {
        /* A table: wide when the output is not a terminal, so nothing is cut in a pipe. */
        const struct text_column cols[] = {{"ID", 0, 0}, {_("STARTED"), 0, 0}, {_("SECONDS"), 0, 1}, {_("SUMMARY"), 1, 0}};
        int n = cJSON_GetArraySize(rows), r = 0;
        char (*secs)[32] = calloc((size_t)n + 1, sizeof *secs);
        const char **cells = calloc((size_t)(n + 1) * 4, sizeof *cells);
        const cJSON *row;
        cJSON_ArrayForEach(row, rows) {
            if (!secs || !cells) break;
            snprintf(secs[r], sizeof secs[r], "%.1f%s", json_num(row, "duration_s"),
                     cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "interrupted")) ? "*" : "");
            const char *row_cells[4] = {json_str(row, "id"), json_str(row, "started_at"), secs[r], json_str(row, "summary")};
            memcpy(cells + 4 * r++, row_cells, sizeof row_cells);
        }
        if (n && secs && cells) text_table(stdout, cols, 4, cells, n, g->color);
        free(secs);
        free((void *)cells);
        if (!n) printf(_("%d runs\n"), n);
        else printf(n == 1 ? _("\n%d run. * = interrupted. Details: fwadvisor probe show ID\n")
                           : _("\n%d runs. * = interrupted. Details: fwadvisor probe show ID\n"),
                    n);
    }
    cJSON_Delete(rows);
    return rc;
}

static int sub_show_delete(struct globals *g, const char *sub, const char *id, int json, const char *output,
                           const char *html, const char *compare)
{
    kb *k;
    int rc = strcmp(sub, "delete") == 0 ? cli_open_kb(g, &k) : cli_open_kb_read(g, &k);
    if (rc) return rc;
    char err[1024];
    int status;
    if (strcmp(sub, "delete") == 0) {
        status = kb_probe_delete(k, id, err, sizeof err);
        kb_close(k);
        if (status != KB_OK) {
            cli_error("%s", err);
            return cli_exit_from_kb(status);
        }
        printf(_("deleted probe run %s\n"), id);
        return EXIT_OK;
    }
    cJSON *doc, *base = NULL;
    status = kb_probe_get(k, id, &doc, err, sizeof err);
    if (status == KB_OK && !doc) {
        kb_close(k);
        cli_error(_("no probe run stored yet (run fwadvisor probe)"));
        return EXIT_INPUT;
    }
    if (status == KB_OK && compare) {
        int found = probe_session_baseline(k, compare, doc, &base, err, sizeof err);
        if (found != KB_OK) {
            kb_close(k);
            cli_error("--compare %s: %s", compare, err);
            cJSON_Delete(doc);
            return cli_exit_from_kb(found);
        }
        if (!base) cli_error(_("--compare latest: no other complete run of this machine is stored"));
    }
    if (status != KB_OK) {
        kb_close(k);
        cli_error("%s", err);
        cJSON_Delete(doc);
        return cli_exit_from_kb(status);
    }
    if (html) rc = write_html(k, doc, base, html);
    kb_close(k);
    if (rc == EXIT_OK && (json || output)) rc = cli_write_json(doc, output);
    if (rc == EXIT_OK && !json && !(html && strcmp(html, "-") == 0)) print_run(doc, base, g->color);
    cJSON_Delete(base);
    cJSON_Delete(doc);
    return rc;
}

/* --- the command: parse, validate, then the stored runs or a measurement and its outputs ------ */

/* The options into a, then the subcommand: EXIT_OK, -1 after the help, or the error's status. */
static int parse(struct globals *g, int argc, char **argv, struct probe_args *a)
{
    memset(a, 0, sizeof *a);
    a->device = "auto";
    a->sub = -1;
    int rc = cli_options_parse(&cli_probe_command, g, argc, argv, a, &a->given);
    if (rc != EXIT_OK) return rc;
    if (optind < argc) {
        a->sub = cli_choice(argv[optind], probe_subs);
        if (a->sub < 0) return cli_unknown("probe", _("probe subcommand"), argv[optind], probe_subs);
        int nargs = argc - optind - 1;
        if (a->sub == 0 && nargs) return cli_usage_error("probe", _("probe list takes no arguments"));
        if (a->sub > 0 && nargs != 1) return cli_usage_error("probe", _("probe %s takes one ID"), probe_subs[a->sub]);
        a->id = argv[optind + 1];
    }
    return EXIT_OK;
}

/* The options together: each honoured or refused, none that would change nothing. */
static int validate(const struct probe_args *a)
{
    if (a->quick && a->full) return cli_usage_error("probe", _("--quick and --full contradict each other: choose one"));
    if (a->html && strcmp(a->html, "-") == 0 && (a->json || (a->output && strcmp(a->output, "-") == 0)))
        return cli_usage_error("probe", _("--html - and the JSON document cannot both go to standard output"));
    if (a->sub == 0 && a->html)
        return cli_usage_error("probe", _("probe list writes no page (--html): probe show ID --html FILE does"));
    int rc = cli_options_refuse(&cli_probe_command, a->given, a->sub < 0 ? PM_MEASURE : 1u << a->sub);
    if (rc == EXIT_OK) rc = cli_json_fields("probe", a->fields, a->json || a->output);
    if (rc != EXIT_OK) return rc;
    if (a->compare && a->json && !a->html)
        return cli_not_applicable("probe", "--compare", _("to the table or the --html page, which --json alone leaves out"));
    if (a->sub >= 0) return EXIT_OK;
    if (a->threads && CLI_GIVEN(a->given, P_DEVICE) && strncasecmp(a->device, "cuda", 4) == 0)
        return cli_not_applicable("probe", "--threads", _("to the CPU's measurements, which --device cuda leaves out"));
    if ((a->npythons || a->fw_timeout > 0) && !(CLI_GIVEN(a->given, P_WORKLOAD) && (a->workloads & probe_workload_bit(PROBE_WL_FRAMEWORKS))))
        return cli_not_applicable("probe", a->npythons ? "--python" : "--framework-timeout",
                                  _("to the frameworks workload (--workload frameworks or all)"));
    int wrc = cli_check_output(a->output, EXIT_USAGE); /* before minutes of measuring, not after */
    if (wrc == EXIT_OK && a->html && strcmp(a->html, "-") != 0) wrc = cli_check_output(a->html, EXIT_RUNTIME);
    return wrc;
}

static unsigned workloads_of(const struct probe_args *a, unsigned otherwise)
{
    return CLI_GIVEN(a->given, P_WORKLOAD) ? a->workloads : otherwise;
}

/* Under an MPI launcher: every rank starts MPI and checks the others run this version; rank 0
 * detects, measures, gathers and stores, the others take part in the collectives only (here,
 * whole). The default workloads there are the distributed ones. Returns -1 for rank 0 to go on,
 * else the exit status. */
static int start_mpi(const struct probe_args *a, struct dist *dist, int *mpi_gpu)
{
    char err[1024];
    const struct fw_mpi *mp = fw_mpi_load(err, sizeof err);
    if (!mp) {
        cli_error(_("started by an MPI launcher, but %s"), err);
        return EXIT_RUNTIME;
    }
    if (dist_start(dist, mp, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_RUNTIME;
    }
    const char *v = getenv("FWADVISOR_TEST_VERSION"); /* the tests' way to start a mismatched rank */
    if (dist_check_versions(dist, v && *v ? v : FWADVISOR_VERSION, err, sizeof err)) {
        if (dist->rank == 0) cli_error("%s", err);
        dist_stop(dist);
        return EXIT_RUNTIME;
    }
    /* --device cuda under MPI: each rank's GPU is its local rank's, allreduce goes through
     * NCCL; the single-process workloads stay on rank 0's CPU. */
    *mpi_gpu = strncasecmp(a->device, "cuda", 4) == 0;
    if (dist->rank == 0) return -1;
    struct probe_options po;
    memset(&po, 0, sizeof po);
    po.full = a->full;
    po.threads = a->threads;
    po.distributed = 1;
    po.workloads = workloads_of(a, probe_workload_set(PROBE_WS_DIST));
    dist_barrier(dist); /* rank 0's detection and single-process workloads */
    dist_run(dist, NULL, &po, *mpi_gpu);
    dist_barrier(dist); /* rank 0 has stored the run */
    dist_stop(dist);
    return EXIT_OK;
}

/* The knowledge base for reading: the catalog's peaks and the baseline. On a read-only or full
 * disk the probe still runs and keeps a run it cannot store in a file. With --no-save a database
 * that will not open only costs the peaks. */
static int open_for_measure(struct globals *g, const struct probe_args *a, kb **k)
{
    *k = NULL;
    if (!a->nosave || a->compare) return cli_open_kb_read(g, k);
    char path[PATH_MAX], err[1024];
    int is_default;
    if (kb_resolve_path(g->db, path, sizeof path, &is_default, err, sizeof err) != KB_OK ||
        kb_open_read(path, is_default, k, err, sizeof err) != KB_OK)
        *k = NULL;
    return EXIT_OK;
}

/* The run stored (unless --no-save): EXIT_OK or EXIT_DB, *saved when it went into the database. */
static int save_run(const struct probe_args *a, struct probe_session *s, kb *k, int *saved)
{
    char where[PATH_MAX], err[1024];
    *saved = 0;
    if (a->nosave) return EXIT_OK;
    enum probe_save_status st = probe_session_save(s, k, where, sizeof where, err, sizeof err);
    *saved = st == PROBE_SAVED;
    if (st == PROBE_SPILLED) cli_error(_("%s; the run is kept in %s instead"), err, where);
    else if (st == PROBE_LOST) cli_error(_("%s; the run could not be written to a file either"), err);
    return st == PROBE_SPILLED || st == PROBE_LOST ? EXIT_DB : EXIT_OK;
}

/* The outputs of a measurement: the page, the JSON, the table; then the interruption, if any. */
static int emit(struct globals *g, const struct probe_args *a, struct probe_session *s, kb *k, const cJSON *base,
                int saved, int rc)
{
    int wrc = EXIT_OK;
    if (a->html) wrc = write_html(k, s->doc, base, a->html);
    if (a->output && wrc == EXIT_OK) wrc = cli_write_json(s->doc, a->output);
    if (a->json && !a->output && wrc == EXIT_OK) wrc = cli_write_json(s->doc, NULL);
    else if (!a->json && !(a->html && strcmp(a->html, "-") == 0)) {
        print_run(s->doc, base, g->color);
        if (saved) printf(_("\nsaved as probe run %s (fwadvisor probe show %s)\n"), s->run->id, s->run->id);
    }
    if (rc == EXIT_OK) rc = wrc;
    if (s->run->interrupted) {
        char line[256];
        probe_session_signal_line(s, saved, line, sizeof line);
        cli_error("%s", line);
        if (rc == EXIT_OK) rc = EXIT_RUNTIME;
    }
    return rc;
}

/* A measurement in session s: begin, the baseline, measure, store, emit. */
static int run_session(struct globals *g, const struct probe_args *a, struct probe_session *s, struct dist *dist,
                       int mpi_gpu)
{
    char err[1024];
    struct probe_session_config cfg = {a->device, workloads_of(a, 0), a->full, 0, a->threads, dist, mpi_gpu,
                                       a->pythons, a->npythons, a->fw_timeout};
    struct bar bar = {isatty(STDERR_FILENO) && !a->json};
    s->on_progress = draw_progress;
    s->on_progress_ctx = &bar;
    int rc = EXIT_OK;
    kb *k = NULL;
    cJSON *base = NULL;
    int begun = probe_session_begin(s, &cfg, err, sizeof err);
    if (begun != PROBE_BEGIN_OK) {
        cli_error("%s", err);
        return begun == PROBE_BEGIN_BAD_DEVICE ? EXIT_INPUT : EXIT_RUNTIME;
    }
    if (s->warning[0]) cli_error(_("warning: %s"), s->warning);
    if ((rc = open_for_measure(g, a, &k)) != EXIT_OK) return rc;
    if (a->compare && strcasecmp(a->compare, "latest") != 0) { /* a named baseline must exist before minutes of work */
        int status = probe_session_baseline(k, a->compare, NULL, &base, err, sizeof err);
        if (status != KB_OK) {
            cli_error("--compare %s: %s", a->compare, err);
            kb_close(k);
            return cli_exit_from_kb(status);
        }
    }
    /* Ctrl-C, SIGTERM and SIGHUP stop the measuring and keep what finished (probes/session.h);
     * under MPI an interrupt ends every rank (the launcher forwards it) and nothing is saved. */
    if (!dist) probe_session_catch_signals(s);
    probe_session_measure(s);
    clear_progress(&bar);
    if (probe_session_finish(s, k) != 0) {
        if (!dist) probe_session_release_signals();
        cli_error(_("out of memory"));
        rc = EXIT_RUNTIME;
    } else {
        if (a->compare && !base) {
            int status = probe_session_baseline(k, a->compare, s->doc, &base, err, sizeof err);
            if (status == KB_OK && !base) cli_error(_("--compare latest: no earlier complete run of this machine is stored"));
        }
        int saved;
        rc = save_run(a, s, k, &saved);
        if (!dist) probe_session_release_signals(); /* a signal that came while storing ends the program here */
        rc = emit(g, a, s, k, base, saved, rc);
    }
    cJSON_Delete(base);
    kb_close(k);
    return rc;
}

static int measure(struct globals *g, const struct probe_args *a)
{
    struct dist dist;
    int mpi = fw_mpi_launched(), mpi_gpu = 0;
    if (mpi) {
        int rc = start_mpi(a, &dist, &mpi_gpu);
        if (rc >= 0) return rc;
    }
    struct probe_session *s = calloc(1, sizeof *s);
    int rc = EXIT_RUNTIME;
    if (!s) cli_error(_("out of memory"));
    else rc = run_session(g, a, s, mpi ? &dist : NULL, mpi_gpu);
    if (s) probe_session_end(s);
    free(s);
    if (mpi) {
        if (s) dist_barrier(&dist);
        dist_stop(&dist);
    }
    return rc;
}

int cmd_probe(struct globals *g, int argc, char **argv)
{
    struct probe_args a;
    int rc = parse(g, argc, argv, &a);
    if (rc != EXIT_OK) return rc < 0 ? EXIT_OK : rc;
    if ((rc = validate(&a)) != EXIT_OK) return rc;
    if (a.sub == 0) return sub_list(g, a.json, a.output);
    if (a.sub > 0) return sub_show_delete(g, probe_subs[a.sub], a.id, a.json, a.output, a.html, a.compare);
    return measure(g, &a);
}
