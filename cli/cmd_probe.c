/* fwadvisor probe: detect and measure this machine; list, show, delete and compare stored runs. */
#include "cli/cli.h"
#include "engine/cuda/plugin.h"
#include "knowledge/probe_store.h"
#include "probes/dist.h"
#include "probes/probe.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char probe_usage[] =
    "Usage: fwadvisor probe [--quick|--full] [--device auto|cpu|cuda[:N]] [--workload W[,W]] [--threads N]\n"
    "                       [--json] [-o FILE] [--no-save] [--compare ID|latest]\n"
    "       fwadvisor probe list [--json]\n"
    "       fwadvisor probe show ID|latest [--json]\n"
    "       fwadvisor probe delete ID\n"
    "\n"
    "Detects the CPU (hwloc, cpuid) and accelerators, then measures: gemm (sgemm sweep, GFLOP/s),\n"
    "stream (copy/scale/add/triad GB/s), train-mlp and train-tiny (the engine's training steps);\n"
    "with a GPU (the CUDA plug-in) the same on the GPU plus transfer. Under `mpirun -np N`:\n"
    "allreduce (bus bandwidth, checked) and train-dp (data-parallel scaling efficiency). What\n"
    "cannot run says why. The run is stored in the knowledge base (unless --no-save) and feeds\n"
    "`fwadvisor recommend`. Ctrl-C stops within a second; what was finished is saved, marked\n"
    "interrupted.\n"
    "\n"
    "  --quick / --full     fewer or more sizes and repeats (--quick is the default)\n"
    "  --workload W,...     gemm, stream, transfer, train-mlp, train-tiny, allreduce, train-dp\n"
    "                       (default: all; under mpirun: allreduce,train-dp)\n"
    "  --threads N          threads for the measurements (default: the physical cores)\n"
    "  --compare ID|latest  print each result beside a stored run, with the change in percent\n"
    "  --json, -o FILE      the run as JSON (fwadvisor.probe/1) on stdout, or written to FILE\n";

enum { OPT_QUICK = OPT_FIRST_FREE, OPT_FULL, OPT_DEVICE, OPT_WORKLOAD, OPT_THREADS, OPT_NOSAVE, OPT_COMPARE };

static volatile sig_atomic_t stop_flag;
static void on_sigint(int sig)
{
    (void)sig;
    stop_flag = 1;
}

struct bar {
    double start;
    int active;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void draw_progress(void *ctx, double fraction, const char *what)
{
    struct bar *b = ctx;
    if (!b->active) return;
    char line[40];
    int filled = (int)(fraction * 30);
    for (int i = 0; i < 30; i++) line[i] = i < filled ? '#' : '.';
    line[30] = '\0';
    double elapsed = now_s() - b->start;
    double left = fraction > 0.02 ? elapsed / fraction - elapsed : 0;
    fprintf(stderr, "\r[%s] %3.0f%%  %-11s about %3.0f s left ", line, fraction * 100, what, left);
    fflush(stderr);
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* A short text of a result's params ("n=2048", "784,1024,1024,10 b256"). */
static void human_bytes(double b, char *out, size_t n)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB"};
    int u = 0;
    while (b >= 1024 && u < 3) b /= 1024, u++;
    snprintf(out, n, "%.0f %s", b, units[u]);
}

static void short_params(const cJSON *r, char *out, size_t n)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params");
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(p, "n");
    const cJSON *array = cJSON_GetObjectItemCaseSensitive(p, "array_bytes");
    const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(p, "bytes");
    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(p, "dtype");
    const cJSON *pinned = cJSON_GetObjectItemCaseSensitive(p, "pinned");
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(p, "ranks");
    const cJSON *layers = cJSON_GetObjectItemCaseSensitive(p, "layers");
    const cJSON *batch = cJSON_GetObjectItemCaseSensitive(p, "batch");
    char h[32];
    if (cJSON_IsNumber(size))
        snprintf(out, n, "n=%.0f%s%s", size->valuedouble, cJSON_IsString(dtype) && strcmp(dtype->valuestring, "fp32") ? " " : "",
                 cJSON_IsString(dtype) && strcmp(dtype->valuestring, "fp32") ? dtype->valuestring : "");
    else if (cJSON_IsNumber(array)) snprintf(out, n, "%.0f MB", array->valuedouble / 1e6);
    else if (cJSON_IsNumber(bytes)) {
        human_bytes(bytes->valuedouble, h, sizeof h);
        snprintf(out, n, "%s%s", h, cJSON_IsBool(pinned) ? (cJSON_IsTrue(pinned) ? " pin" : " page") : "");
    } else if (cJSON_IsNumber(ranks)) snprintf(out, n, "%.0f ranks", ranks->valuedouble);
    else if (cJSON_IsString(layers)) {
        const char *l = layers->valuestring;
        if (strcmp(l, "784,1024,1024,10") == 0) snprintf(out, n, "784..10 b256");
        else if (strcmp(l, "100,10") == 0) snprintf(out, n, "100,10 b32");
        else {
            /* equal widths: "4096x4 b4096" */
            int count = 1, width = atoi(l), same = 1;
            for (const char *c = l; *c; c++)
                if (*c == ',') count++, same &= atoi(c + 1) == width;
            if (same && count > 2) snprintf(out, n, "%dx%d b%.0f", width, count - 1, cJSON_IsNumber(batch) ? batch->valuedouble : 0);
            else snprintf(out, n, "%s", l);
        }
    } else out[0] = '\0';
}

/* Metric names as the table shows them (the JSON keeps the full names). */
static const char *short_metric(const cJSON *r)
{
    const char *m = str(r, "metric");
    if (!strcmp(m, "scaling_efficiency")) return "efficiency";
    if (!strcmp(m, "samples_per_s_single")) return "samples/s x1";
    if (!strcmp(m, "samples_per_s")) return "samples/s";
    return m;
}

/* The matching result of a baseline run: same workload, metric and params. */
static const cJSON *find_result(const cJSON *base, const cJSON *r)
{
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(base, "results")) {
        if (strcmp(str(b, "workload"), str(r, "workload")) || strcmp(str(b, "metric"), str(r, "metric"))) continue;
        if (!cJSON_Compare(cJSON_GetObjectItemCaseSensitive(b, "params"), cJSON_GetObjectItemCaseSensitive(r, "params"), 1))
            continue;
        return b;
    }
    return NULL;
}

static void print_run(const cJSON *doc, const cJSON *base, int bold)
{
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(doc, "cpu");
    char line[512];
    snprintf(line, sizeof line, "probe run %s, %s, %.1f s%s", str(doc, "id"), str(doc, "started_at"),
             num(doc, "duration_s"), cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted")) ? ", INTERRUPTED" : "");
    if (bold) fputs("\033[1m", stdout);
    text_put(stdout, line);
    fputs(bold ? "\033[0m\n" : "\n", stdout);
    const cJSON *caches = cJSON_GetObjectItemCaseSensitive(cpu, "caches");
    char peak_text[32] = "unknown";
    if (!isnan(num(cpu, "peak_gflops_fp32"))) snprintf(peak_text, sizeof peak_text, "%.0f GFLOP/s", num(cpu, "peak_gflops_fp32"));
    char simd[160] = "";
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(cpu, "simd")) {
        size_t used = strlen(simd);
        snprintf(simd + used, sizeof simd - used, "%s%s", used ? " " : "", f->valuestring);
    }
    snprintf(line, sizeof line,
             "CPU: %s (%s), %.0f package(s), %.0f cores, %.0f threads, %.0f NUMA node(s), L3 %.0f MB, memory %.1f GB; "
             "SIMD: %s; FP32 peak %s (%s)",
             *str(cpu, "model") ? str(cpu, "model") : "model unknown", str(cpu, "microarchitecture"), num(cpu, "packages"), num(cpu, "cores"), num(cpu, "threads"),
             num(cpu, "numa_nodes"), num(caches, "l3_bytes") / 1e6, num(cpu, "memory_bytes") / 1e9, simd[0] ? simd : "-",
             peak_text, str(cpu, "peak_note"));
    text_wrap(stdout, line, 0, 2);
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(doc, "accelerators")) {
        snprintf(line, sizeof line, "%s: %.0f x %s%s%s%s%s. %s", str(a, "kind"), num(a, "count"), str(a, "name"),
                 isnan(num(a, "memory_bytes")) ? "" : ", ", "", "", "", str(a, "note"));
        if (!isnan(num(a, "memory_bytes")))
            snprintf(line, sizeof line, "%s: %.0f x %s, %.1f GB each%s%s. %s", str(a, "kind"), num(a, "count"), str(a, "name"),
                     num(a, "memory_bytes") / 1e9, *str(a, "compute_capability") ? ", compute capability " : "",
                     str(a, "compute_capability"), str(a, "note"));
        text_wrap(stdout, line, 0, 2);
    }
    if (!cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "accelerators"))) printf("accelerators: none found\n");
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(doc, "ranks");
    if (ranks) {
        char hosts[256] = "";
        const cJSON *h;
        size_t at = 0;
        cJSON_ArrayForEach(h, cJSON_GetObjectItemCaseSensitive(ranks, "hosts")) {
            if (cJSON_IsString(h) && at < sizeof hosts)
                at += (size_t)snprintf(hosts + at, sizeof hosts - at, "%s%s", at ? ", " : "", h->valuestring);
        }
        const cJSON *count = cJSON_GetObjectItemCaseSensitive(ranks, "count");
        snprintf(line, sizeof line, "ranks: %.0f on %s (%s)", cJSON_IsNumber(count) ? count->valuedouble : 0, hosts,
                 str(ranks, "mpi"));
        text_wrap(stdout, line, 0, 2);
    }
    printf("\n");
    if (base) printf("%-10s %-13s %-16s %10s %10s %8s\n", "WORKLOAD", "METRIC", "PARAMS", "MEDIAN", "BASELINE", "CHANGE");
    else printf("%-10s %-13s %-12s %9s %-17s %5s %5s\n", "WORKLOAD", "METRIC", "PARAMS", "MEDIAN", " MIN..MAX", "CV%", "PEAK%");
    const cJSON *r;
    int noisy = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        char params[64];
        short_params(r, params, sizeof params);
        if (strcmp(str(r, "status"), "ok") != 0) {
            char why[256];
            snprintf(why, sizeof why, "%-10s %-13.13s %s", str(r, "workload"), short_metric(r), str(r, "reason"));
            text_wrap(stdout, why, 0, 25);
            continue;
        }
        double med = num(r, "median");
        if (base) {
            const cJSON *b = find_result(base, r);
            if (!b || strcmp(str(b, "status"), "ok") != 0) {
                printf("%-10s %-13.13s %-16.16s %10.4g %10s %8s\n", str(r, "workload"), short_metric(r), params, med,
                       "-", "new");
                continue;
            }
            double bm = num(b, "median"), change = (med - bm) / bm * 100;
            /* Larger than the noise: twice the larger coefficient of variation, at least 3%. */
            double noise = 200 * fmax(num(r, "cv"), num(b, "cv"));
            if (noise < 3) noise = 3;
            int lower_better = strcmp(str(r, "unit"), "us") == 0;
            const char *flag = fabs(change) <= noise ? "" : (change > 0) != lower_better ? " better" : " WORSE";
            printf("%-10s %-13.13s %-16.16s %10.4g %10.4g %+7.1f%%%s\n", str(r, "workload"), short_metric(r), params, med,
                   bm, change, flag);
        } else {
            char range[40], peak[8] = "-";
            snprintf(range, sizeof range, "%8.4g..%-8.4g", num(r, "min"), num(r, "max"));
            if (!isnan(num(r, "peak_fraction"))) snprintf(peak, sizeof peak, "%.0f", num(r, "peak_fraction") * 100);
            int is_noisy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "noisy"));
            noisy |= is_noisy;
            printf("%-10s %-13.13s %-12.12s %9.4g %-17.17s %4.1f%s %5s\n", str(r, "workload"), short_metric(r), params, med,
                   range, num(r, "cv") * 100, is_noisy ? "!" : " ", peak);
        }
    }
    if (noisy) printf("\n! coefficient of variation above 5%%: the machine was busy; run again for steadier figures\n");
    if (base) printf("\nChanges beyond the noise (twice the larger CV, at least 3%%) say better or WORSE.\n");
}


static int sub_list(struct globals *g, int json)
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
    if (json) rc = cli_write_json(rows, NULL);
    else {
        printf("%-22s %-20s %7s  %s\n", "ID", "STARTED", "SECONDS", "SUMMARY");
        const cJSON *r;
        cJSON_ArrayForEach(r, rows) {
            char summary[128];
            text_fit(str(r, "summary"), 80 - 54, summary, sizeof summary);
            printf("%-22s %-20s %7.1f%s %s\n", str(r, "id"), str(r, "started_at"), num(r, "duration_s"),
                   cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "interrupted")) ? "*" : " ", summary);
        }
        printf("\n%d run%s%s\n", cJSON_GetArraySize(rows), cJSON_GetArraySize(rows) == 1 ? "" : "s",
               cJSON_GetArraySize(rows) ? ". * = interrupted. Details: fwadvisor probe show ID" : "");
    }
    cJSON_Delete(rows);
    return rc;
}

static int sub_show_delete(struct globals *g, const char *sub, const char *id, int json)
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
    cJSON *doc;
    status = kb_probe_get(k, id, &doc, err, sizeof err);
    kb_close(k);
    if (status == KB_OK && !doc) {
        cli_error("no probe run stored yet (run fwadvisor probe)");
        return EXIT_INPUT;
    }
    if (status != KB_OK) {
        cli_error("%s", err);
        return cli_exit_from_kb(status);
    }
    if (json) rc = cli_write_json(doc, NULL);
    else print_run(doc, NULL, g->color);
    cJSON_Delete(doc);
    return rc;
}

/* The catalog's peaks for each detected NVIDIA GPU; with --no-save the knowledge base is opened
 * for this alone, and a missing one only means no peaks. */
static void add_catalog_peaks(struct globals *g, kb *k, struct probe_hw *hw)
{
    kb *own = NULL;
    for (int i = 0; i < hw->naccel; i++) {
        struct probe_accel *a = &hw->accel[i];
        if (strcmp(a->kind, "nvidia") != 0 || !a->name[0]) continue;
        if (!k && !own) {
            char path[PATH_MAX], err[512];
            int is_default;
            if (kb_resolve_path(g->db, path, sizeof path, &is_default, err, sizeof err) != KB_OK ||
                kb_open(path, is_default, &own, err, sizeof err) != KB_OK)
                return;
        }
        struct kb_accel_peaks peaks;
        if (kb_accel_lookup(k ? k : own, a->name, a->compute_capability, &peaks) == 1) {
            snprintf(a->catalog_id, sizeof a->catalog_id, "%s", peaks.id);
            a->peak_fp32_tflops = peaks.fp32_tflops;
            a->peak_bf16_tflops = peaks.bf16_tflops;
            a->peak_fp16_tflops = peaks.fp16_tflops;
            a->peak_bandwidth_gbs = peaks.bandwidth_gbs;
        }
    }
    kb_close(own);
}

int cmd_probe(struct globals *g, int argc, char **argv)
{
    static const struct option opts[] = {
        {"quick", no_argument, NULL, OPT_QUICK},       {"full", no_argument, NULL, OPT_FULL},
        {"device", required_argument, NULL, OPT_DEVICE}, {"workload", required_argument, NULL, OPT_WORKLOAD},
        {"threads", required_argument, NULL, OPT_THREADS}, {"json", no_argument, NULL, OPT_JSON},
        {"output", required_argument, NULL, 'o'},      {"no-save", no_argument, NULL, OPT_NOSAVE},
        {"compare", required_argument, NULL, OPT_COMPARE}, {"db", required_argument, NULL, OPT_DB},
        {"no-color", no_argument, NULL, OPT_NO_COLOR}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct probe_options po;
    memset(&po, 0, sizeof po);
    po.workloads = PROBE_W_ALL;
    snprintf(po.device, sizeof po.device, "cpu");
    const char *output = NULL, *compare = NULL, *device = "auto";
    int json = 0, nosave = 0, opt, workloads_given = 0;
    char err[1024];
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(probe_usage, stdout); return EXIT_OK;
        case OPT_QUICK: po.full = 0; break;
        case OPT_FULL: po.full = 1; break;
        case OPT_DEVICE: device = optarg; break;
        case OPT_WORKLOAD:
            if (probe_parse_workloads(optarg, &po.workloads, err, sizeof err)) {
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
            po.threads = (int)t;
            break;
        }
        case OPT_JSON: json = 1; break;
        case 'o': output = optarg; break;
        case OPT_NOSAVE: nosave = 1; break;
        case OPT_COMPARE: compare = optarg; break;
        case ':': return cli_usage_error("probe", "option '%s' needs a value", argv[optind - 1]);
        case '?':
            if (optopt) return cli_usage_error("probe", "unknown option '-%c'", optopt);
            return cli_usage_error("probe", "unknown option '%s'", argv[optind - 1]);
        default: cli_global_option(g, opt, optarg);
        }
    }
    if (optind < argc) {
        const char *sub = argv[optind];
        int nargs = argc - optind - 1;
        if (strcmp(sub, "list") == 0) {
            if (nargs) return cli_usage_error("probe", "probe list takes no arguments");
            return sub_list(g, json);
        }
        if (strcmp(sub, "show") == 0 || strcmp(sub, "delete") == 0) {
            if (nargs != 1) return cli_usage_error("probe", "probe %s takes one ID", sub);
            return sub_show_delete(g, sub, argv[optind + 1], json);
        }
        return cli_usage_error("probe", "unknown probe subcommand '%s' (list, show, delete)", sub);
    }
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
        po.distributed = 1;
        if (!workloads_given) po.workloads = PROBE_W_DIST;
        /* --device cuda under MPI: each rank's GPU is its local rank's, allreduce goes through
         * NCCL; the single-process workloads stay on rank 0's CPU. */
        mpi_gpu = strncmp(device, "cuda", 4) == 0;
        device = "cpu";
        if (dist.rank != 0) {
            dist_barrier(&dist); /* rank 0's detection and single-process workloads */
            dist_run(&dist, NULL, &po, mpi_gpu);
            dist_barrier(&dist); /* rank 0 has stored the run */
            dist_stop(&dist);
            return EXIT_OK;
        }
    }

    /* auto: the CPU, and GPU 0 as well when the plug-in opens one; cpu: the CPU only; cuda[:N]:
     * that GPU only, and an error when it cannot be used. */
    int gpu_index = -1;
    if (strcmp(device, "auto") != 0 && eng_device_parse(device, &gpu_index, err, sizeof err)) {
        cli_error("--device %s: expected auto, cpu, cuda or cuda:N", device);
        return EXIT_INPUT;
    }
    if (strcmp(device, "auto") == 0 || gpu_index >= 0) {
        if (probe_use_gpu(&po, gpu_index >= 0 ? gpu_index : 0, gpu_index < 0, err, sizeof err) && gpu_index >= 0) {
            cli_error("%s", err);
            return EXIT_RUNTIME;
        }
    } else {
        snprintf(po.gpu_missing, sizeof po.gpu_missing, "not asked for (--device cpu)");
    }
    /* A plug-in file found in an unsafe place (or from another build) is not loaded; the run goes
     * on without it, and says so once. */
    const char *plugin_warning = eng_cuda_load_warning();
    if (plugin_warning) cli_error("warning: %s", plugin_warning);

    kb *k = NULL;
    cJSON *base = NULL;
    int rc;
    if (!nosave || compare) {
        /* Read mode: on a read-only or full disk the probe still runs, and a run that cannot be
         * stored is written to a file instead (probe_run_store). */
        if ((rc = cli_open_kb_read(g, &k)) != EXIT_OK) {
            eng_device_close();
            return rc;
        }
    }
    if (compare) {
        int status = kb_probe_get(k, compare, &base, err, sizeof err);
        if (status == KB_OK && !base) {
            snprintf(err, sizeof err, "--compare %s: no probe run stored yet", compare);
            status = KB_ERR_INPUT;
        }
        if (status != KB_OK) {
            cli_error("%s", err);
            kb_close(k);
            return cli_exit_from_kb(status);
        }
    }

    struct probe_run *run = calloc(1, sizeof *run);
    if (!run) {
        cli_error("out of memory");
        kb_close(k);
        cJSON_Delete(base);
        return EXIT_RUNTIME;
    }
    time_t t0 = time(NULL);
    struct tm tm;
    gmtime_r(&t0, &tm);
    strftime(run->started_at, sizeof run->started_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(run->version, sizeof run->version, "%s", FWADVISOR_VERSION);
    char base_id[32];
    strftime(base_id, sizeof base_id, "%Y%m%d-%H%M%S", &tm);
    snprintf(run->id, sizeof run->id, "%s", base_id); /* the stored id is settled when it is saved */

    /* Under MPI an interrupt ends every rank (the launcher forwards it); nothing is saved. */
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = mpi ? SIG_DFL : on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    stop_flag = 0;
    struct bar bar = {now_s(), isatty(STDERR_FILENO) && !json};
    po.stop = &stop_flag;
    po.progress = draw_progress;
    po.progress_ctx = &bar;
    if (bar.active) draw_progress(&bar, 0, "detection");
    double start = now_s();
    probe_detect(&run->hw);
    add_catalog_peaks(g, k, &run->hw);
    probe_run_workloads(run, &po);
    eng_device_close();
    if (mpi) {
        dist_barrier(&dist);
        dist_run(&dist, run, &po, mpi_gpu);
    }
    probe_apply_catalog(run);
    run->duration_s = now_s() - start;
    sigaction(SIGINT, &old, NULL);
    if (bar.active) fprintf(stderr, "\r%60s\r", "");

    int finished = 0;
    for (int i = 0; i < run->nresults; i++) finished += !run->results[i].skipped;
    cJSON *doc = probe_run_to_json(run);
    rc = EXIT_OK;
    if (!doc) {
        cli_error("out of memory");
        rc = EXIT_RUNTIME;
        goto done;
    }
    /* Saved whole or not at all; an interrupted run only when something was finished. */
    int saved = 0;
    if (!nosave && (!run->interrupted || finished > 0)) {
        char where[PATH_MAX];
        int stored = probe_run_store(k, doc, where, sizeof where, err, sizeof err);
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(doc, "id");
        if (cJSON_IsString(id)) snprintf(run->id, sizeof run->id, "%s", id->valuestring);
        if (stored == 0) saved = 1;
        else if (stored == 1) cli_error("%s; the run is kept in %s instead", err, where);
        else cli_error("%s; the run could not be written to a file either", err);
        if (stored != 0) rc = EXIT_DB;
    }
    if (output && (rc = cli_write_json(doc, output)) != EXIT_OK) goto done;
    if (json && !output) rc = cli_write_json(doc, NULL);
    else if (!json) {
        print_run(doc, base, g->color);
        if (saved) printf("\nsaved as probe run %s (fwadvisor probe show %s)\n", run->id, run->id);
    }
    if (run->interrupted) {
        if (saved) cli_error("interrupted: the %d finished result%s saved as probe run %s, marked interrupted", finished,
                             finished == 1 ? " is" : "s are", run->id);
        else cli_error("interrupted: nothing was saved");
        if (rc == EXIT_OK) rc = EXIT_RUNTIME;
    }
done:
    eng_device_close();
    if (mpi) {
        dist_barrier(&dist);
        dist_stop(&dist);
    }
    cJSON_Delete(doc);
    cJSON_Delete(base);
    free(run);
    kb_close(k);
    return rc;
}
