/* fwadvisor probe: detect and measure this machine; list, show, delete and compare stored runs. */
#include "cli/cli.h"
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

static const char probe_usage[] =
    "Usage: fwadvisor probe [--quick|--full] [--device auto|cpu|cuda[:N]]\n"
    "                       [--workload W[,W]] [--threads N] [--python PATH]...\n"
    "                       [--framework-timeout S] [--json] [-o FILE]\n"
    "                       [--html FILE] [--no-save] [--compare ID|latest]\n"
    "       fwadvisor probe list [--json] [-o FILE]\n"
    "       fwadvisor probe show ID|latest [--json] [-o FILE] [--html FILE]\n"
    "                            [--compare ID|latest]\n"
    "       fwadvisor probe delete ID\n"
    "\n"
    "Detects the CPU (hwloc, cpuid) and accelerators, then measures: gemm (sgemm\n"
    "sweep, GFLOP/s), stream (copy/scale/add/triad GB/s), train-mlp and train-tiny\n"
    "(the engine's training steps), train-gpt (a GPT step: tokens/s, TFLOP/s, MFU\n"
    "against the measured and the catalog's peak), frameworks, when asked for (the\n"
    "same MLP and GPT trained by every installed PyTorch, JAX, TensorFlow, Keras 3,\n"
    "MLX, PaddlePaddle and MindSpore, side by side with the engine); with a GPU\n"
    "(the CUDA plug-in) the same on the GPU plus transfer. Under `mpirun -np N`:\n"
    "allreduce (bus bandwidth, checked) and train-dp (data-parallel scaling\n"
    "efficiency). What cannot run says why. The run is stored in the knowledge\n"
    "base (unless --no-save) and feeds `fwadvisor recommend`. Ctrl-C, SIGTERM or\n"
    "SIGHUP stops it within a second; what was finished is saved, marked\n"
    "interrupted (status 1). A second one ends the program at once.\n"
    "\n"
    "  --quick / --full     fewer or more sizes and repeats (--quick: the default)\n"
    "  --device D           auto (default: the CPU, and GPU 0 when one opens), cpu,\n"
    "                       cuda or cuda:N (that GPU only)\n"
    "  --workload W,...     gemm, stream, transfer, train-mlp, train-tiny,\n"
    "                       train-gpt, frameworks, allreduce, train-dp (default:\n"
    "                       all but frameworks; all: every one; under mpirun:\n"
    "                       allreduce,train-dp)\n"
    "  --python PATH        an interpreter whose frameworks to measure\n"
    "                       (repeatable; default: python3 on PATH and the active\n"
    "                       virtual or conda environment)\n"
    "  --framework-timeout S\n"
    "                       each framework's process at most S seconds (default\n"
    "                       120, --full 600)\n"
    "  --threads N          threads for the CPU measurements (default: the\n"
    "                       physical cores)\n"
    "  --compare ID|latest  each result beside a stored run, with the change in\n"
    "                       percent, in the table or the --html page\n"
    "  --json, -o FILE      the run as JSON (fwadvisor.probe/1) on stdout, or\n"
    "                       written to FILE\n"
    "  --html FILE          the run as one self-contained HTML page with charts\n"
    "  --no-save            do not store the run\n";

enum { OPT_QUICK = OPT_FIRST_FREE, OPT_FULL, OPT_DEVICE, OPT_WORKLOAD, OPT_THREADS, OPT_NOSAVE, OPT_COMPARE, OPT_HTML,
       OPT_PYTHON, OPT_FW_TIMEOUT };

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
        snprintf(eta, sizeof eta, "about %s left%s", units_duration(p->eta_s, left, sizeof left), p->eta_revised ? " (revised up)" : "");
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
    const char *notes[] = {probe_table_noise_note(t), probe_table_compare_note(t)};
    for (int i = 0; i < 2; i++)
        if (*notes[i]) {
            putchar('\n');
            text_wrap(stdout, notes[i], 0, 2);
        }
}

/* The frameworks workload's rows: a table per model, then what did not run and why, then what
 * each interpreter has. */
static void print_fw_table(const cJSON *doc)
{
    struct probe_fw_table *t = malloc(sizeof *t);
    if (t) probe_fw_table_build(doc, t);
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

static void print_run(const cJSON *doc, const cJSON *base, int bold)
{
    char lines[24][512];
    int n = probe_summary_lines(doc, lines, 24);
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
    probe_table_build(doc, base, t);
    print_table(t);
    free(t);
    print_fw_table(doc);
}

/* The run as a page, compared with base when there is one. */
static int write_html(const cJSON *doc, const cJSON *base, const char *path)
{
    struct html page = {0};
    probe_run_html(doc, base, &page);
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
        static const struct text_column cols[] = {{"ID", 0, 0}, {"STARTED", 0, 0}, {"SECONDS", 0, 1}, {"SUMMARY", 1, 0}};
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
        printf("%s%d %s%s\n", n ? "\n" : "", n, n == 1 ? "run" : "runs",
               n ? ". * = interrupted. Details: fwadvisor probe show ID" : "");
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
        printf("deleted probe run %s\n", id);
        return EXIT_OK;
    }
    cJSON *doc, *base = NULL;
    status = kb_probe_get(k, id, &doc, err, sizeof err);
    if (status == KB_OK && !doc) {
        kb_close(k);
        cli_error("no probe run stored yet (run fwadvisor probe)");
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
        if (!base) cli_error("--compare latest: no other complete run of this machine is stored");
    }
    kb_close(k);
    if (status != KB_OK) {
        cli_error("%s", err);
        cJSON_Delete(doc);
        return cli_exit_from_kb(status);
    }
    if (html) rc = write_html(doc, base, html);
    if (rc == EXIT_OK && (json || output)) rc = cli_write_json(doc, output);
    if (rc == EXIT_OK && !json && !(html && strcmp(html, "-") == 0)) print_run(doc, base, g->color);
    cJSON_Delete(base);
    cJSON_Delete(doc);
    return rc;
}

int cmd_probe(struct globals *g, int argc, char **argv)
{
    static const struct option opts[] = {
        {"quick", no_argument, NULL, OPT_QUICK},       {"full", no_argument, NULL, OPT_FULL},
        {"device", required_argument, NULL, OPT_DEVICE}, {"workload", required_argument, NULL, OPT_WORKLOAD},
        {"threads", required_argument, NULL, OPT_THREADS}, {"json", no_argument, NULL, OPT_JSON},
        {"output", required_argument, NULL, 'o'},      {"no-save", no_argument, NULL, OPT_NOSAVE},
        {"compare", required_argument, NULL, OPT_COMPARE}, {"html", required_argument, NULL, OPT_HTML},
        {"python", required_argument, NULL, OPT_PYTHON}, {"framework-timeout", required_argument, NULL, OPT_FW_TIMEOUT},
        CLI_GLOBAL_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL, *compare = NULL, *device = "auto", *html = NULL;
    int json = 0, nosave = 0, opt, workloads_given = 0, full = 0, quick = 0, threads = 0, device_given = 0;
    unsigned workloads = 0;
    const char *pythons[PROBE_FW_MAX_PYTHONS];
    int npythons = 0;
    double fw_timeout = 0;
    char err[1024];
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(probe_usage, stdout); return EXIT_OK;
        case OPT_QUICK: quick = 1; break;
        case OPT_FULL: full = 1; break;
        case OPT_DEVICE: device = optarg, device_given = 1; break;
        case OPT_WORKLOAD:
            if (probe_parse_workloads(optarg, &workloads, err, sizeof err)) {
                cli_error("--workload: %s", err);
                return EXIT_INPUT;
            }
            workloads_given = 1;
            break;
        case OPT_THREADS: {
            char *end;
            long t = strtol(optarg, &end, 10);
            if (*end || t < 1 || t > 1024) {
                cli_error("--threads %s: expected a whole number from 1 to 1024", optarg);
                return EXIT_INPUT;
            }
            threads = (int)t;
            break;
        }
        case OPT_PYTHON:
            if (npythons == PROBE_FW_MAX_PYTHONS)
                return cli_usage_error("probe", "--python: at most %d interpreters", PROBE_FW_MAX_PYTHONS);
            pythons[npythons++] = optarg;
            break;
        case OPT_FW_TIMEOUT: {
            char *end;
            fw_timeout = strtod(optarg, &end);
            if (*end || !(fw_timeout >= 1 && fw_timeout <= 86400)) {
                cli_error("--framework-timeout %s: expected seconds from 1 to 86400", optarg);
                return EXIT_INPUT;
            }
            break;
        }
        case OPT_JSON: json = 1; break;
        case 'o': output = optarg; break;
        case OPT_NOSAVE: nosave = 1; break;
        case OPT_COMPARE: compare = optarg; break;
        case OPT_HTML: html = optarg; break;
        case ':': return cli_usage_error("probe", "option '%s' needs a value", argv[optind - 1]);
        case '?':
            if (optopt) return cli_usage_error("probe", "unknown option '-%c'", optopt);
            return cli_usage_error("probe", "unknown option '%s'", argv[optind - 1]);
        default: cli_global_option(g, opt, optarg);
        }
    }
    if (quick && full) return cli_usage_error("probe", "--quick and --full contradict each other: choose one");
    if (html && strcmp(html, "-") == 0 && (json || (output && strcmp(output, "-") == 0)))
        return cli_usage_error("probe", "--html - and the JSON document cannot both go to standard output");
    if (optind < argc) {
        /* The stored runs: the options of a measurement would change nothing there. */
        static const char *const subs[] = {"list", "show", "delete", NULL};
        const char *run_opt = quick ? "--quick" : full ? "--full" : device_given ? "--device" : workloads_given ? "--workload"
                              : threads ? "--threads" : nosave ? "--no-save" : npythons ? "--python"
                              : fw_timeout > 0 ? "--framework-timeout" : NULL;
        int sub = cli_choice(argv[optind], subs), nargs = argc - optind - 1;
        if (sub < 0) return cli_unknown("probe", "probe subcommand", argv[optind], subs);
        if (run_opt) return cli_not_applicable("probe", run_opt, "to a measurement, not to probe list, show or delete");
        if (sub == 0) {
            if (nargs) return cli_usage_error("probe", "probe list takes no arguments");
            if (html) return cli_usage_error("probe", "probe list writes no page (--html): probe show ID --html FILE does");
            if (compare) return cli_not_applicable("probe", "--compare", "to probe show and a measurement");
            return sub_list(g, json, output);
        }
        if (nargs != 1) return cli_usage_error("probe", "probe %s takes one ID", subs[sub]);
        if (sub == 2 && (output || json || html || compare))
            return cli_not_applicable("probe", output ? "-o" : json ? "--json" : html ? "--html" : "--compare",
                                      "to probe list and show");
        if (compare && json && !html)
            return cli_not_applicable("probe", "--compare", "to the table or the --html page, which --json alone leaves out");
        return sub_show_delete(g, subs[sub], argv[optind + 1], json, output, html, compare);
    }
    if (compare && json && !html)
        return cli_not_applicable("probe", "--compare", "to the table or the --html page, which --json alone leaves out");
    if (threads && device_given && strncasecmp(device, "cuda", 4) == 0)
        return cli_not_applicable("probe", "--threads", "to the CPU's measurements, which --device cuda leaves out");
    if ((npythons || fw_timeout > 0) && !(workloads_given && (workloads & PROBE_W_FRAMEWORKS)))
        return cli_not_applicable("probe", npythons ? "--python" : "--framework-timeout",
                                  "to the frameworks workload (--workload frameworks or all)");
    int wrc0 = cli_check_output(output, EXIT_USAGE); /* before minutes of measuring, not after */
    if (wrc0 == EXIT_OK && html && strcmp(html, "-") != 0) wrc0 = cli_check_output(html, EXIT_RUNTIME);
    if (wrc0 != EXIT_OK) return wrc0;
    /* Under an MPI launcher: every rank starts MPI and checks the others run this version; rank 0
     * detects, measures, gathers and stores, the others take part in the collectives only. The
     * default workloads there are the distributed ones. */
    struct dist dist;
    int mpi = 0, mpi_gpu = 0;
    if (fw_mpi_launched()) {
        const struct fw_mpi *mp = fw_mpi_load(err, sizeof err);
        if (!mp) {
            cli_error("started by an MPI launcher, but %s", err);
            return EXIT_RUNTIME;
        }
        if (dist_start(&dist, mp, err, sizeof err)) {
            cli_error("%s", err);
            return EXIT_RUNTIME;
        }
        mpi = 1;
        const char *v = getenv("FWADVISOR_TEST_VERSION"); /* the tests' way to start a mismatched rank */
        if (dist_check_versions(&dist, v && *v ? v : FWADVISOR_VERSION, err, sizeof err)) {
            if (dist.rank == 0) cli_error("%s", err);
            dist_stop(&dist);
            return EXIT_RUNTIME;
        }
        /* --device cuda under MPI: each rank's GPU is its local rank's, allreduce goes through
         * NCCL; the single-process workloads stay on rank 0's CPU. */
        mpi_gpu = strncasecmp(device, "cuda", 4) == 0;
        if (dist.rank != 0) {
            struct probe_options po;
            memset(&po, 0, sizeof po);
            po.full = full;
            po.threads = threads;
            po.distributed = 1;
            po.workloads = workloads_given ? workloads : PROBE_W_DIST;
            dist_barrier(&dist); /* rank 0's detection and single-process workloads */
            dist_run(&dist, NULL, &po, mpi_gpu);
            dist_barrier(&dist); /* rank 0 has stored the run */
            dist_stop(&dist);
            return EXIT_OK;
        }
    }

    struct bar bar = {isatty(STDERR_FILENO) && !json};
    struct probe_session *s = calloc(1, sizeof *s);
    if (!s) {
        cli_error("out of memory");
        if (mpi) dist_stop(&dist);
        return EXIT_RUNTIME;
    }
    s->on_progress = draw_progress;
    s->on_progress_ctx = &bar;
    struct probe_session_config cfg = {device, workloads_given ? workloads : 0, full, 0, threads, mpi ? &dist : NULL,
                                       mpi_gpu, pythons, npythons, fw_timeout};
    int rc = EXIT_OK;
    kb *k = NULL;
    cJSON *base = NULL;
    int begun = probe_session_begin(s, &cfg, err, sizeof err);
    if (begun != PROBE_BEGIN_OK) {
        cli_error("%s", err);
        rc = begun == PROBE_BEGIN_BAD_DEVICE ? EXIT_INPUT : EXIT_RUNTIME;
        goto done;
    }
    if (s->warning[0]) cli_error("warning: %s", s->warning);
    /* For reading: the catalog's peaks and the baseline. On a read-only or full disk the probe
     * still runs and keeps a run it cannot store in a file. With --no-save a database that will
     * not open only costs the peaks. */
    if (nosave && !compare) {
        char path[PATH_MAX];
        int is_default;
        if (kb_resolve_path(g->db, path, sizeof path, &is_default, err, sizeof err) != KB_OK ||
            kb_open_read(path, is_default, &k, err, sizeof err) != KB_OK)
            k = NULL;
    } else if ((rc = cli_open_kb_read(g, &k)) != EXIT_OK) {
        goto done;
    }
    if (compare && strcasecmp(compare, "latest") != 0) { /* a named baseline must exist before minutes of work */
        int status = probe_session_baseline(k, compare, NULL, &base, err, sizeof err);
        if (status != KB_OK) {
            cli_error("--compare %s: %s", compare, err);
            rc = cli_exit_from_kb(status);
            goto done;
        }
    }

    /* Ctrl-C, SIGTERM and SIGHUP stop the measuring and keep what finished (probes/session.h);
     * under MPI an interrupt ends every rank (the launcher forwards it) and nothing is saved. */
    if (!mpi) probe_session_catch_signals(s);
    probe_session_measure(s);
    clear_progress(&bar);

    if (probe_session_finish(s, k) != 0) {
        if (!mpi) probe_session_release_signals();
        cli_error("out of memory");
        rc = EXIT_RUNTIME;
        goto done;
    }
    if (compare && !base) {
        int status = probe_session_baseline(k, compare, s->doc, &base, err, sizeof err);
        if (status == KB_OK && !base) cli_error("--compare latest: no earlier complete run of this machine is stored");
    }
    int saved = 0;
    if (!nosave) {
        char where[PATH_MAX];
        enum probe_save_status st = probe_session_save(s, k, where, sizeof where, err, sizeof err);
        saved = st == PROBE_SAVED;
        if (st == PROBE_SPILLED) cli_error("%s; the run is kept in %s instead", err, where);
        else if (st == PROBE_LOST) cli_error("%s; the run could not be written to a file either", err);
        if (st == PROBE_SPILLED || st == PROBE_LOST) rc = EXIT_DB;
    }
    if (!mpi) probe_session_release_signals(); /* a signal that came while storing ends the program here */
    int wrc = EXIT_OK;
    if (html) wrc = write_html(s->doc, base, html);
    if (output && wrc == EXIT_OK) wrc = cli_write_json(s->doc, output);
    if (json && !output && wrc == EXIT_OK) wrc = cli_write_json(s->doc, NULL);
    else if (!json && !(html && strcmp(html, "-") == 0)) {
        print_run(s->doc, base, g->color);
        if (saved) printf("\nsaved as probe run %s (fwadvisor probe show %s)\n", s->run->id, s->run->id);
    }
    if (rc == EXIT_OK) rc = wrc;
    if (s->run->interrupted) {
        char line[256];
        probe_session_signal_line(s, saved, line, sizeof line);
        cli_error("%s", line);
        if (rc == EXIT_OK) rc = EXIT_RUNTIME;
    }
done:
    probe_session_end(s);
    free(s);
    if (mpi) {
        dist_barrier(&dist);
        dist_stop(&dist);
    }
    cJSON_Delete(base);
    kb_close(k);
    return rc;
}
