/* fwadvisor train: the built-in engine on this machine's CPU or, through the CUDA plug-in, a GPU. */
#include "cli/cli.h"
#include "engine/cuda/plugin.h"
#include "engine/engine.h"
#include "engine/tensor_io.h"
#include "common/units.h"
#include "probes/cpu_cores.h"
#include "probes/probe.h"
#include "probes/quick.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

static const char train_usage[] =
    "Usage: fwadvisor train [--model mlp] --layers 784,1024,1024,10\n"
    "                       [--activation relu|gelu|tanh] [--loss ce|mse]\n"
    "                       [--batch N] [--steps N] [--lr X]\n"
    "                       [--optimizer sgd|momentum|adam|adamw]\n"
    "                       [--weight-decay X] [--momentum X] [--seed N]\n"
    "                       [--data X.npy --targets Y.npy]\n"
    "                       [--init FILE.safetensors] [--save FILE.safetensors]\n"
    "                       [--device cpu|cuda[:N]] [--precision fp32|tf32|bf16]\n"
    "                       [--threads N] [--max-memory GB] [--json]\n"
    "\n"
    "Trains a multilayer perceptron with the built-in engine exactly as PyTorch\n"
    "would (nn.Linear layout and initialisation, torch.optim semantics) and times\n"
    "every step. For a GPT decoder see 'fwadvisor train --model gpt --help'.\n"
    "\n"
    "  --layers W0,W1,...   widths: inputs, hidden layers, outputs (required)\n"
    "  --activation A       between layers: relu (default), gelu (exact, erf), tanh\n"
    "  --loss L             ce: softmax cross-entropy on class ids (default);\n"
    "                       mse: mean squared error\n"
    "  --batch N            rows per step (default 64)\n"
    "  --steps N            training steps (default 100)\n"
    "  --optimizer O        sgd, momentum, adam (default), adamw\n"
    "  --lr X               learning rate (default 0.001)\n"
    "  --weight-decay X     L2 into the gradient (sgd, momentum, adam) or\n"
    "                       decoupled (adamw; default 0.01)\n"
    "  --momentum X         for the momentum optimizer only (default 0.9)\n"
    "  --seed N             initialisation and synthetic data (default 1; not with\n"
    "                       both --init and --data, which leave nothing to seed)\n"
    "  --data X.npy --targets Y.npy\n"
    "                       training data (float32 [N, in]; int32/int64 [N] or\n"
    "                       float32 [N, out]); default: seeded synthetic data\n"
    "  --init F, --save F   weights as safetensors (layers.{i}.weight [out, in],\n"
    "                       layers.{i}.bias [out]); --save's folder must exist\n"
    "  --device D           cpu (default), cuda or cuda:N (the CUDA plug-in,\n"
    "                       fwadvisor-cuda.so)\n"
    "  --precision P        GPU matrix precision: fp32 (default; TF32 off, as\n"
    "                       PyTorch), tf32, or bf16 (bf16 GEMM inputs, fp32\n"
    "                       accumulation, fp32 master weights and optimizer)\n"
    "  --threads N          OpenBLAS threads on the CPU (default: the physical\n"
    "                       cores)\n"
    "  --max-memory GB      on the CPU: refuse a model and data larger than this\n"
    "                       (default: the memory available)\n"
    "  --json               print losses and timings as JSON (fwadvisor.train/1)\n"
    "Numbers take K, M suffixes (--steps 10K).\n";

enum {
    OPT_MODEL = OPT_FIRST_FREE, OPT_LAYERS, OPT_ACTIVATION, OPT_LOSS, OPT_BATCH, OPT_STEPS, OPT_OPTIMIZER, OPT_LR, OPT_WD,
    OPT_MOMENTUM, OPT_SEED, OPT_DATA, OPT_TARGETS, OPT_INIT, OPT_SAVE, OPT_DEVICE, OPT_PRECISION, OPT_THREADS,
    OPT_MAX_MEMORY
};

int cli_parse_number(const char *opt, const char *s, double lo, double hi, int integer, double *out)
{
    double v = 0;
    if (units_parse(s, &v) || v < lo || v > hi || (integer && v != floor(v))) {
        cli_error("--%s %s: expected %s from %g to %g", opt, s, integer ? "a whole number" : "a number", lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

double cli_train_memory_limit(double max_memory_gb, const char **what)
{
    if (max_memory_gb > 0) {
        *what = "--max-memory";
        return max_memory_gb * 1e9;
    }
    *what = "available on this machine";
    return quick_memory_available_bytes();
}

int cli_train_on_step(void *ctx, int step, float loss, double seconds)
{
    struct cli_train_progress *p = ctx;
    if (!p->json && (step == 0 || (step + 1) % p->every == 0 || step + 1 == p->steps))
        printf("step %6d/%d  loss %.6f  %8.3f ms\n", step + 1, p->steps, loss, seconds * 1e3);
    return 0;
}

/* Rows of synthetic data: four batches, at least 1024. */
static int synthetic_rows(int batch) { return batch * 4 > 1024 ? batch * 4 : 1024; }

/* --- the command: parse, check, load the data, train, report --------------------------------- */

struct train_opts {
    struct eng_config cfg;
    const char *layers, *data, *targets, *init, *save, *device;
    double steps, seed, max_memory_gb;
    int json, wd_given, device_index, momentum_given, seed_given, threads_given;
    enum eng_precision precision;
};

/* One option into o: EXIT_OK or the error's status (printed). */
static int take_option(struct train_opts *o, int opt, const char *arg)
{
    struct eng_config *cfg = &o->cfg;
    double v;
    switch (opt) {
    case OPT_MODEL: return EXIT_OK; /* mlp: checked before parsing */
    case OPT_LAYERS: o->layers = arg; return EXIT_OK;
    case OPT_ACTIVATION:
        if (!eng_act_parse(arg, &cfg->act)) return EXIT_OK;
        cli_error("--activation %s: expected relu, gelu or tanh", arg);
        return EXIT_INPUT;
    case OPT_LOSS:
        if (!eng_loss_parse(arg, &cfg->loss)) return EXIT_OK;
        cli_error("--loss %s: expected ce or mse", arg);
        return EXIT_INPUT;
    case OPT_OPTIMIZER:
        if (!eng_opt_parse(arg, &cfg->opt)) return EXIT_OK;
        cli_error("--optimizer %s: expected sgd, momentum, adam or adamw", arg);
        return EXIT_INPUT;
    case OPT_BATCH:
        if (cli_parse_number("batch", arg, 1, 1 << 20, 1, &v)) return EXIT_INPUT;
        cfg->batch = (int)v;
        return EXIT_OK;
    case OPT_STEPS: return cli_parse_number("steps", arg, 1, 1e7, 1, &o->steps) ? EXIT_INPUT : EXIT_OK;
    case OPT_LR:
        if (cli_parse_number("lr", arg, 0, 1e6, 0, &v)) return EXIT_INPUT;
        cfg->lr = (float)v;
        return EXIT_OK;
    case OPT_WD:
        if (cli_parse_number("weight-decay", arg, 0, 1e6, 0, &v)) return EXIT_INPUT;
        cfg->weight_decay = (float)v;
        o->wd_given = 1;
        return EXIT_OK;
    case OPT_MOMENTUM:
        if (cli_parse_number("momentum", arg, 0, 0.999999, 0, &v)) return EXIT_INPUT;
        cfg->momentum = (float)v;
        o->momentum_given = 1;
        return EXIT_OK;
    case OPT_SEED:
        if (cli_parse_number("seed", arg, 0, 9007199254740991.0, 1, &o->seed)) return EXIT_INPUT;
        o->seed_given = 1;
        return EXIT_OK;
    case OPT_THREADS:
        if (cli_parse_number("threads", arg, 1, 1024, 1, &v)) return EXIT_INPUT;
        cfg->threads = (int)v;
        o->threads_given = 1;
        return EXIT_OK;
    case OPT_MAX_MEMORY: return cli_parse_number("max-memory", arg, 1e-3, 1e6, 0, &o->max_memory_gb) ? EXIT_INPUT : EXIT_OK;
    case OPT_DATA: o->data = arg; return EXIT_OK;
    case OPT_TARGETS: o->targets = arg; return EXIT_OK;
    case OPT_INIT: o->init = arg; return EXIT_OK;
    case OPT_SAVE: o->save = arg; return EXIT_OK;
    case OPT_DEVICE: o->device = arg; return EXIT_OK;
    case OPT_PRECISION:
        if (!eng_precision_parse(arg, &o->precision) && o->precision != ENG_PREC_FP16) return EXIT_OK; /* fp16: no loss scaling */
        cli_error("--precision %s: expected fp32, tf32 or bf16", arg);
        return EXIT_INPUT;
    case OPT_JSON: o->json = 1; return EXIT_OK;
    }
    return EXIT_OK;
}

/* Options into o: EXIT_OK, -1 after the help, or the error's status. */
static int parse_options(struct globals *g, int argc, char **argv, struct train_opts *o)
{
    static const struct option opts[] = {
        {"model", required_argument, NULL, OPT_MODEL},
        {"layers", required_argument, NULL, OPT_LAYERS},
        {"activation", required_argument, NULL, OPT_ACTIVATION},
        {"loss", required_argument, NULL, OPT_LOSS},
        {"batch", required_argument, NULL, OPT_BATCH},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"optimizer", required_argument, NULL, OPT_OPTIMIZER},
        {"lr", required_argument, NULL, OPT_LR},
        {"weight-decay", required_argument, NULL, OPT_WD},
        {"momentum", required_argument, NULL, OPT_MOMENTUM},
        {"seed", required_argument, NULL, OPT_SEED},
        {"data", required_argument, NULL, OPT_DATA},
        {"targets", required_argument, NULL, OPT_TARGETS},
        {"init", required_argument, NULL, OPT_INIT},
        {"save", required_argument, NULL, OPT_SAVE},
        {"device", required_argument, NULL, OPT_DEVICE},
        {"precision", required_argument, NULL, OPT_PRECISION},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
        {"json", no_argument, NULL, OPT_JSON},
        CLI_GLOBAL_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    eng_config_defaults(&o->cfg);
    o->device = "cpu";
    o->steps = 100, o->seed = 1, o->device_index = -1;
    o->precision = ENG_PREC_FP32;
    int opt, rc;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(train_usage, stdout); return -1;
        case ':': return cli_usage_error("train", "option '%s' needs a value", argv[optind - 1]);
        case '?':
            if (optopt) return cli_usage_error("train", "unknown option '-%c'", optopt);
            return cli_usage_error("train", "unknown option '%s'", argv[optind - 1]);
        default:
            if (cli_global_option(g, opt, optarg)) break;
            if ((rc = take_option(o, opt, optarg)) != EXIT_OK) return rc;
        }
    }
    if (optind < argc) return cli_usage_error("train", "unexpected argument '%s'", argv[optind]);
    return EXIT_OK;
}

/* The options together: every one honoured or refused, none that would change nothing; the
 * --save path writable; the layers read. */
static int check_options(struct train_opts *o)
{
    char err[1024];
    if (!o->layers) return cli_usage_error("train", "--layers is required (e.g. --layers 784,1024,1024,10)");
    if (!o->data != !o->targets) return cli_usage_error("train", "--data and --targets go together");
    if (eng_device_parse(o->device, &o->device_index, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    if (o->device_index < 0 && o->precision != ENG_PREC_FP32) {
        cli_error("--precision %s needs a GPU (--device cuda): the CPU back-end computes in fp32",
                  eng_precision_name(o->precision));
        return EXIT_INPUT;
    }
    if (o->momentum_given && o->cfg.opt != ENG_OPT_MOMENTUM)
        return cli_not_applicable("train", "--momentum", "to --optimizer momentum only");
    if (o->seed_given && o->init && o->data)
        return cli_not_applicable("train", "--seed", "to the initialisation and the synthetic data; --init and --data give both");
    if (o->device_index >= 0 && (o->threads_given || o->max_memory_gb > 0))
        return cli_not_applicable("train", o->threads_given ? "--threads" : "--max-memory", "to --device cpu");
    int wrc = cli_check_output(o->save, EXIT_USAGE); /* before minutes of training, not after */
    if (wrc != EXIT_OK) return wrc;
    if (eng_parse_layers(&o->cfg, o->layers, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    if (o->cfg.opt == ENG_OPT_ADAMW && !o->wd_given) o->cfg.weight_decay = 0.01f; /* torch.optim.AdamW's default */
    if (o->cfg.threads == 0) o->cfg.threads = probe_physical_cores();
    return EXIT_OK;
}

/* What the model and the synthetic data will take, before anything is allocated: a
 * configuration the machine cannot hold is refused at once, not after minutes of paging. */
static int check_memory(const struct train_opts *o)
{
    const struct eng_config *cfg = &o->cfg;
    if (o->device_index >= 0) return EXIT_OK;
    int in = cfg->sizes[0], out = cfg->sizes[cfg->nsizes - 1];
    double need = eng_config_buffer_bytes(cfg);
    if (!o->data) need += (double)synthetic_rows(cfg->batch) * ((double)in + (cfg->loss == ENG_LOSS_CE ? 1 : out)) * 4;
    const char *what;
    double limit = cli_train_memory_limit(o->max_memory_gb, &what);
    if (limit > 0 && need > limit) {
        cli_error("--layers %s needs %.3g GB (parameters, gradients, optimizer state, activations and data), more "
                  "than the %.3g GB %s",
                  o->layers, need / 1e9, limit / 1e9, what);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

/* The training data: the files, or seeded synthetic rows. */
static int load_data(const struct train_opts *o, struct eng_data *d, char *err, size_t errsz)
{
    int in = o->cfg.sizes[0], out = o->cfg.sizes[o->cfg.nsizes - 1];
    if (!o->data) return eng_data_synthetic(d, synthetic_rows(o->cfg.batch), in, out, o->cfg.loss, (uint64_t)o->seed, err, errsz);
    struct eng_array x, y;
    int status = eng_npy_load(o->data, &x, err, errsz);
    if (status == ENG_OK) {
        status = eng_npy_load(o->targets, &y, err, errsz);
        if (status == ENG_OK) {
            status = eng_data_from_arrays(d, &x, &y, in, out, o->cfg.loss, o->data, o->targets, err, errsz);
            eng_array_free(&y);
        }
        eng_array_free(&x);
    }
    return status;
}

/* The step times of a run, the first (cold caches, first GEMM) left out when there are others. */
struct step_stats {
    double median, min, max;
    int n;
};

static void step_stats(const double *secs, int nsteps, struct step_stats *st)
{
    int skip = nsteps > 1 ? 1 : 0;
    struct probe_stats ps;
    probe_stats_copy(secs + skip, nsteps - skip, &ps);
    st->median = ps.median, st->min = ps.min, st->max = ps.max, st->n = nsteps - skip;
}

/* fwadvisor.train/1. */
static int report_json(const struct train_opts *o, const struct eng_model *m, const struct eng_cuda_device *gpu,
                       const float *losses, int nsteps, const struct step_stats *st, double rss)
{
    const struct eng_config *cfg = &o->cfg;
    double flops = eng_model_step_flops(m);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", "fwadvisor.train/1");
    cJSON *c = cJSON_AddObjectToObject(doc, "config");
    cJSON *l = cJSON_AddArrayToObject(c, "layers");
    for (int i = 0; i < cfg->nsizes; i++) cJSON_AddItemToArray(l, cJSON_CreateNumber(cfg->sizes[i]));
    cJSON_AddStringToObject(c, "activation", eng_act_name(cfg->act));
    cJSON_AddStringToObject(c, "loss", eng_loss_name(cfg->loss));
    cJSON_AddNumberToObject(c, "batch", cfg->batch);
    cJSON_AddNumberToObject(c, "steps", nsteps);
    cJSON_AddStringToObject(c, "optimizer", eng_opt_name(cfg->opt));
    cJSON_AddNumberToObject(c, "lr", cli_float(cfg->lr));
    cJSON_AddNumberToObject(c, "weight_decay", cli_float(cfg->weight_decay));
    cJSON_AddNumberToObject(c, "momentum", cli_float(cfg->momentum));
    cJSON_AddNumberToObject(c, "seed", o->seed);
    cJSON_AddNumberToObject(c, "threads", cfg->threads);
    cJSON_AddStringToObject(c, "device", o->device_index < 0 ? "cpu" : o->device);
    cJSON_AddStringToObject(c, "precision", eng_precision_name(o->precision));
    if (o->device_index >= 0) cJSON_AddStringToObject(c, "gpu", gpu->name);
    cJSON_AddStringToObject(c, "data", o->data ? o->data : "synthetic");
    cJSON_AddNumberToObject(c, "params", (double)eng_model_param_count(m));
    cJSON *ls = cJSON_AddArrayToObject(doc, "losses");
    for (int i = 0; i < nsteps; i++) cJSON_AddItemToArray(ls, cJSON_CreateNumber(cli_float(losses[i])));
    cJSON *sm = cJSON_AddObjectToObject(doc, "step_ms");
    cJSON_AddNumberToObject(sm, "median", st->median * 1e3);
    cJSON_AddNumberToObject(sm, "min", st->min * 1e3);
    cJSON_AddNumberToObject(sm, "max", st->max * 1e3);
    cJSON_AddNumberToObject(sm, "timed_steps", st->n);
    cJSON_AddNumberToObject(doc, "samples_per_s", st->median > 0 ? cfg->batch / st->median : 0);
    cJSON_AddNumberToObject(doc, "flops_per_step", flops);
    cJSON_AddNumberToObject(doc, "gflops", st->median > 0 ? flops / st->median / 1e9 : 0);
    cJSON_AddNumberToObject(doc, "peak_rss_bytes", rss);
    cJSON_AddNumberToObject(doc, "buffer_bytes", (double)eng_model_buffer_bytes(m));
    char *text = cJSON_Print(doc);
    int rc = text ? EXIT_OK : EXIT_RUNTIME;
    if (text) puts(text);
    free(text);
    cJSON_Delete(doc);
    return rc;
}

static void report_text(const struct train_opts *o, const struct eng_model *m, const struct step_stats *st, double rss)
{
    double flops = eng_model_step_flops(m);
    cli_print_step_times(st->median, st->min, st->max, st->n);
    printf("throughput: %.0f samples/s, %.2f GFLOP/s (%.4g FLOP per step)\n", st->median > 0 ? o->cfg.batch / st->median : 0,
           st->median > 0 ? flops / st->median / 1e9 : 0, flops);
    printf("memory: peak resident %.1f MB; model buffers %.1f MB\n", rss / 1e6, eng_model_buffer_bytes(m) / 1e6);
    if (o->save) {
        text_printf(stdout, "weights saved to %s", o->save);
        putchar('\n');
    }
}

static void print_header(const struct train_opts *o, const struct eng_model *m, const struct eng_cuda_device *gpu)
{
    const struct eng_config *cfg = &o->cfg;
    char line[512], where[192];
    if (o->device_index < 0) snprintf(where, sizeof where, "%d thread%s", cfg->threads, cfg->threads == 1 ? "" : "s");
    else snprintf(where, sizeof where, "%s (%s), %s", o->device, gpu->name, eng_precision_name(o->precision));
    snprintf(line, sizeof line, "training %s (%zu parameters), batch %d, %s lr %g, %s loss, %s, %s, %s data", o->layers,
             eng_model_param_count(m), cfg->batch, eng_opt_name(cfg->opt), (double)cfg->lr, eng_loss_name(cfg->loss),
             eng_act_name(cfg->act), where, o->data ? "file" : "synthetic");
    text_wrap(stdout, line, 0, 2);
}

int cmd_train(struct globals *g, int argc, char **argv)
{
    /* --model picks the parser: the GPT's options are its own (cmd_train_gpt.c). */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *model = strncmp(argv[i], "--model=", 8) == 0 ? argv[i] + 8
                            : strcmp(argv[i], "--model") == 0 && i + 1 < argc ? argv[i + 1] : NULL;
        if (!model) continue;
        if (strcasecmp(model, "gpt") == 0) return cmd_train_gpt(g, argc, argv);
        if (strcasecmp(model, "mlp") != 0) return cli_usage_error("train", "--model %s: expected mlp or gpt", model);
    }
    struct train_opts o;
    int rc = parse_options(g, argc, argv, &o);
    if (rc != EXIT_OK) return rc < 0 ? EXIT_OK : rc;
    if ((rc = check_options(&o)) != EXIT_OK || (rc = check_memory(&o)) != EXIT_OK) return rc;

    /* Data first: a bad file must fail before any work. */
    char err[1024];
    struct eng_data d;
    int status = load_data(&o, &d, err, sizeof err);
    if (status != ENG_OK) {
        cli_error("%s", err);
        return status == ENG_ERR_INPUT ? EXIT_INPUT : EXIT_RUNTIME;
    }
    struct eng_model *m = NULL;
    struct eng_cuda_device gpu = {0};
    const struct eng_backend *be = eng_device_open(o.device_index, o.precision, &gpu, err, sizeof err);
    if (!be) {
        cli_error("%s", err);
        eng_data_free(&d);
        return EXIT_RUNTIME;
    }
    status = eng_model_create(&o.cfg, be, &m, err, sizeof err);
    if (status == ENG_OK) {
        if (o.init) status = eng_st_load_model(o.init, m, err, sizeof err);
        else eng_model_init(m, (uint64_t)o.seed);
    }
    int nsteps = (int)o.steps;
    float *losses = malloc((size_t)nsteps * sizeof *losses);
    double *secs = malloc((size_t)nsteps * sizeof *secs);
    if (status == ENG_OK && (!losses || !secs)) {
        snprintf(err, sizeof err, "out of memory for %d steps of results", nsteps);
        status = ENG_ERR_RUNTIME;
    }
    struct cli_train_progress prog = {nsteps / 10 > 0 ? nsteps / 10 : 1, nsteps, o.json};
    if (status == ENG_OK && !o.json) print_header(&o, m, &gpu);
    struct eng_run run = {nsteps, losses, secs, NULL};
    if (status == ENG_OK) status = eng_train(m, &d, &run, cli_train_on_step, &prog, err, sizeof err);
    const char *gpu_error = status == ENG_OK ? eng_device_error() : NULL;
    if (gpu_error) {
        snprintf(err, sizeof err, "%s", gpu_error);
        status = ENG_ERR_RUNTIME;
    }
    if (status == ENG_OK && o.save) status = eng_st_save_model(o.save, m, err, sizeof err);
    if (status != ENG_OK) {
        cli_error("%s", err);
        rc = status == ENG_ERR_INPUT ? EXIT_INPUT : EXIT_RUNTIME;
    } else {
        struct step_stats st;
        step_stats(secs, nsteps, &st);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        double rss = (double)ru.ru_maxrss * 1024.0;
        if (o.json) rc = report_json(&o, m, &gpu, losses, nsteps, &st, rss);
        else report_text(&o, m, &st, rss);
    }
    free(losses);
    free(secs);
    eng_model_free(m);
    eng_device_close();
    eng_data_free(&d);
    return rc;
}
