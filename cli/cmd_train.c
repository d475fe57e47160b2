/* fwadvisor train: the built-in engine on this machine's CPU or, through the CUDA plug-in, a GPU. */
#include "cli/cli.h"
#include "common/i18n.h"
#include "cli/options.h"
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

static const char train_head[] =
    N_("Usage: fwadvisor train [--model mlp] --layers 784,1024,1024,10\n"
    "                       [--activation relu|gelu|tanh] [--loss ce|mse]\n"
    "                       [--batch N] [--steps N] [--lr X]\n"
    "                       [--optimizer sgd|momentum|adam|adamw]\n"
    "                       [--weight-decay X] [--momentum X] [--seed N]\n"
    "                       [--data X.npy --targets Y.npy]\n"
    "                       [--init FILE.safetensors] [--save FILE.safetensors]\n"
    "                       [--device cpu|cuda[:N]] [--precision fp32|tf32|bf16]\n"
    "                       [--threads N] [--max-memory GB]\n                       [--json [--fields LIST]]\n"
    "\n"
    "Trains a multilayer perceptron with the built-in engine exactly as PyTorch\n"
    "would (nn.Linear layout and initialisation, torch.optim semantics) and times\n"
    "every step. For a GPT decoder see 'fwadvisor train --model gpt --help'.\n"
    "\n");
static const char train_tail[] = N_("Numbers take K, M suffixes (--steps 10K).\n");

double cli_train_memory_limit(double max_memory_gb, const char **what)
{
    if (max_memory_gb > 0) {
        *what = "--max-memory";
        return max_memory_gb * 1e9;
    }
    *what = _("available on this machine");
    return quick_memory_available_bytes();
}

int cli_train_on_step(void *ctx, int step, float loss, double seconds)
{
    struct cli_train_progress *p = ctx;
    if (!p->json && (step == 0 || (step + 1) % p->every == 0 || step + 1 == p->steps))
        printf(_("step %6d/%d  loss %.6f  %8.3f ms\n"), step + 1, p->steps, loss, seconds * 1e3);
    return 0;
}

/* Rows of synthetic data: four batches, at least 1024. */
static int synthetic_rows(int batch) { return batch * 4 > 1024 ? batch * 4 : 1024; }

/* --- the command: parse, check, load the data, train, report --------------------------------- */

struct train_opts {
    struct eng_config cfg;
    const char *model, *layers, *data, *targets, *init, *save, *device, *fields;
    double steps, seed, max_memory_gb;
    int json, device_index;
    enum eng_precision precision;
    cli_given given;
};

static int parse_act(const char *arg, void *field, char *err, size_t errsz)
{
    (void)err, (void)errsz;
    return eng_act_parse(arg, field);
}

static int parse_loss(const char *arg, void *field, char *err, size_t errsz)
{
    (void)err, (void)errsz;
    return eng_loss_parse(arg, field);
}

int cli_parse_optimizer(const char *arg, void *field, char *err, size_t errsz)
{
    (void)err, (void)errsz;
    return eng_opt_parse(arg, field);
}

int cli_parse_precision(const char *arg, void *field, char *err, size_t errsz)
{
    (void)err, (void)errsz;
    enum eng_precision p;
    if (eng_precision_parse(arg, &p) || p == ENG_PREC_FP16) return -1; /* fp16: no loss scaling */
    *(enum eng_precision *)field = p;
    return 0;
}

const char *const cli_train_modes[] = {"--device cpu", N_("a GPU"), N_("--optimizer momentum only")};

enum { T_MODEL, T_LAYERS, T_ACTIVATION, T_LOSS, T_BATCH, T_STEPS, T_OPTIMIZER, T_LR, T_WD, T_MOMENTUM, T_SEED, T_DATA,
       T_TARGETS, T_INIT, T_SAVE, T_DEVICE, T_PRECISION, T_THREADS, T_MAX_MEMORY, T_JSON, T_FIELDS, T_COUNT };
#define F(member) offsetof(struct train_opts, member)
static const struct cli_option train_options[T_COUNT] = {
    [T_MODEL] = CLI_TRAIN_ROW_MODEL(F(model)), /* mlp: checked before */
    [T_LAYERS] = {"layers", 0, CLI_TEXT, 0, 0, F(layers), 0, NULL, NULL, 0, NULL, "W0,W1,...",
                  N_("widths: inputs, hidden layers, outputs (required)")},
    [T_ACTIVATION] = {"activation", 0, CLI_CHOICE, 0, 0, F(cfg.act), 0, parse_act, "relu, gelu or tanh", 0, NULL, "A",
                      N_("between layers: relu (default), gelu (exact, erf), tanh")},
    [T_LOSS] = {"loss", 0, CLI_CHOICE, 0, 0, F(cfg.loss), 0, parse_loss, "ce or mse", 0, NULL, "L",
                N_("ce: softmax cross-entropy on class ids (default);\nmse: mean squared error")},
    [T_BATCH] = {"batch", 0, CLI_INT, 1, 1 << 20, F(cfg.batch), 0, NULL, NULL, 0, NULL, "N", N_("rows per step (default 64)")},
    [T_STEPS] = CLI_TRAIN_ROW_STEPS(F(steps)),
    [T_OPTIMIZER] = CLI_TRAIN_ROW_OPTIMIZER(F(cfg.opt), "sgd, momentum, adam (default), adamw"),
    [T_LR] = CLI_TRAIN_ROW_LR(F(cfg.lr)),
    [T_WD] = CLI_TRAIN_ROW_WD(F(cfg.weight_decay),
                              "L2 into the gradient (sgd, momentum, adam) or\n"
                              "decoupled (adamw; default 0.01)"),
    [T_MOMENTUM] = CLI_TRAIN_ROW_MOMENTUM(F(cfg.momentum)),
    [T_SEED] = CLI_TRAIN_ROW_SEED(F(seed),
                                  "initialisation and synthetic data (default 1; not with\n"
                                  "both --init and --data, which leave nothing to seed)"),
    [T_DATA] = {"data", 0, CLI_FILE, 0, 0, F(data), 0, NULL, NULL, 0, "--data X.npy --targets Y.npy", NULL,
                N_("training data (float32 [N, in]; int32/int64 [N] or\nfloat32 [N, out]); default: seeded synthetic data")},
    [T_TARGETS] = {"targets", 0, CLI_FILE, 0, 0, F(targets), 0, NULL, NULL, 0, NULL, "Y.npy", NULL},
    [T_INIT] = CLI_TRAIN_ROW_INIT(F(init),
                                  "weights as safetensors (layers.{i}.weight [out, in],\nlayers.{i}.bias [out]); --save's folder must exist"),
    [T_SAVE] = CLI_TRAIN_ROW_SAVE(F(save)),
    [T_DEVICE] = CLI_TRAIN_ROW_DEVICE(F(device),
                                      "cpu (default), cuda or cuda:N (the CUDA plug-in,\nfwadvisor-cuda.so)"),
    [T_PRECISION] = CLI_TRAIN_ROW_PRECISION(F(precision),
                                            "GPU matrix precision: fp32 (default; TF32 off, as\n"
                                            "PyTorch), tf32, or bf16 (bf16 GEMM inputs, fp32\n"
                                            "accumulation, fp32 master weights and optimizer)"),
    [T_THREADS] = CLI_TRAIN_ROW_THREADS(F(cfg.threads), "OpenBLAS threads on the CPU (default: the physical\ncores)"),
    [T_MAX_MEMORY] = CLI_TRAIN_ROW_MAX_MEMORY(F(max_memory_gb),
                                              "on the CPU: refuse a model and data larger than this\n"
                                              "(default: the memory available)"),
    [T_JSON] = {"json", 0, CLI_FLAG, 0, 0, F(json), 0, NULL, NULL, 0, NULL, NULL,
                N_("print losses and timings as JSON (fwadvisor.train/1)")},
    [T_FIELDS] = {"fields", 0, CLI_TEXT, 0, 0, F(fields), 0, NULL, NULL, 0, NULL, "LIST",
                  N_("with --json: only these members, dotted paths split\nby commas: --fields step_ms.median,losses")},
};
#undef F

const struct cli_command cli_train_command = {"train", train_options, T_COUNT, cli_train_modes, train_head, train_tail, 23,
                                              NULL, NULL, NULL, NULL, 0};

/* Options into o: EXIT_OK, -1 after the help, or the error's status. */
static int parse_options(struct globals *g, int argc, char **argv, struct train_opts *o)
{
    memset(o, 0, sizeof *o);
    eng_config_defaults(&o->cfg);
    o->device = "cpu";
    o->steps = 100, o->seed = 1, o->device_index = -1;
    o->precision = ENG_PREC_FP32;
    int rc = cli_options_parse(&cli_train_command, g, argc, argv, o, &o->given);
    if (rc != EXIT_OK) return rc;
    if (optind < argc) return cli_usage_error("train", _("unexpected argument '%s'"), argv[optind]);
    return EXIT_OK;
}

/* The options together: every one honoured or refused, none that would change nothing; the
 * --save path writable; the layers read. */
static int check_options(struct train_opts *o)
{
    char err[1024];
    if (!o->layers) return cli_usage_error("train", "%s", _("--layers is required (e.g. --layers 784,1024,1024,10)"));
    if (!o->data != !o->targets) return cli_usage_error("train", "%s", _("--data and --targets go together"));
    if (eng_device_parse(o->device, &o->device_index, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    if (o->device_index < 0 && o->precision != ENG_PREC_FP32) {
        cli_error(_("--precision %s needs a GPU (--device cuda): the CPU back-end computes in fp32"),
                  eng_precision_name(o->precision));
        return EXIT_INPUT;
    }
    if (CLI_GIVEN(o->given, T_SEED) && o->init && o->data)
        return cli_not_applicable("train", "--seed", _("to the initialisation and the synthetic data; --init and --data give both"));
    unsigned mode = (o->device_index < 0 ? CLI_TRAIN_CPU : CLI_TRAIN_GPU) |
                    (o->cfg.opt == ENG_OPT_MOMENTUM ? CLI_TRAIN_MOMENTUM : 0);
    int wrc = cli_options_refuse(&cli_train_command, o->given, mode);
    if (wrc == EXIT_OK) wrc = cli_json_fields("train", o->fields, o->json);
    if (wrc != EXIT_OK) return wrc;
    wrc = cli_check_output(o->save, EXIT_USAGE); /* before minutes of training, not after */
    if (wrc != EXIT_OK) return wrc;
    if (eng_parse_layers(&o->cfg, o->layers, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    if (o->cfg.opt == ENG_OPT_ADAMW && !CLI_GIVEN(o->given, T_WD)) o->cfg.weight_decay = 0.01f; /* torch.optim.AdamW's default */
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
        cli_error(_("--layers %s needs %.3g GB (parameters, gradients, optimizer state, activations and data), more "
                    "than the %.3g GB %s"),
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
    struct cli_train_field config[16] = {
        {"activation", eng_act_name(cfg->act), 0}, {"loss", eng_loss_name(cfg->loss), 0}, {"batch", NULL, cfg->batch},
        {"steps", NULL, nsteps}, {"optimizer", eng_opt_name(cfg->opt), 0}, {"lr", NULL, cli_float(cfg->lr)},
        {"weight_decay", NULL, cli_float(cfg->weight_decay)}, {"momentum", NULL, cli_float(cfg->momentum)},
        {"seed", NULL, o->seed}, {"threads", NULL, cfg->threads},
        {"device", o->device_index < 0 ? "cpu" : o->device, 0}, {"precision", eng_precision_name(o->precision), 0},
    };
    int n = 12;
    if (o->device_index >= 0) config[n++] = (struct cli_train_field){"gpu", gpu->name, 0};
    config[n++] = (struct cli_train_field){"data", o->data ? o->data : "synthetic", 0};
    config[n++] = (struct cli_train_field){"params", NULL, (double)eng_model_param_count(m)};
    const struct cli_train_field results[] = {
        {"samples_per_s", NULL, st->median > 0 ? cfg->batch / st->median : 0},
        {"flops_per_step", NULL, flops},
        {"gflops", NULL, st->median > 0 ? flops / st->median / 1e9 : 0},
        {"peak_rss_bytes", NULL, rss},
        {"buffer_bytes", NULL, (double)eng_model_buffer_bytes(m)},
    };
    struct cli_train_report r = {cfg->sizes, cfg->nsizes, n, nsteps, st->n, 5, config, results, losses,
                                 st->median, st->min, st->max};
    return cli_train_json(&r);
}

static void report_text(const struct train_opts *o, const struct eng_model *m, const struct step_stats *st, double rss)
{
    double flops = eng_model_step_flops(m);
    cli_print_step_times(st->median, st->min, st->max, st->n);
    printf(_("throughput: %.0f samples/s, %.2f GFLOP/s (%.4g FLOP per step)\n"), st->median > 0 ? o->cfg.batch / st->median : 0,
           st->median > 0 ? flops / st->median / 1e9 : 0, flops);
    printf(_("memory: peak resident %.1f MB; model buffers %.1f MB\n"), rss / 1e6, eng_model_buffer_bytes(m) / 1e6);
    if (o->save) {
        text_printf(stdout, _("weights saved to %s"), o->save);
        putchar('\n');
    }
}

static void print_header(const struct train_opts *o, const struct eng_model *m, const struct eng_cuda_device *gpu)
{
    const struct eng_config *cfg = &o->cfg;
    char line[512], where[192];
    if (o->device_index < 0) snprintf(where, sizeof where, cfg->threads == 1 ? _("%d thread") : _("%d threads"), cfg->threads);
    else snprintf(where, sizeof where, "%s (%s), %s", o->device, gpu->name, eng_precision_name(o->precision));
    snprintf(line, sizeof line,
             o->data ? _("training %s (%zu parameters), batch %d, %s lr %g, %s loss, %s, %s, file data")
                     : _("training %s (%zu parameters), batch %d, %s lr %g, %s loss, %s, %s, synthetic data"),
             o->layers, eng_model_param_count(m), cfg->batch, eng_opt_name(cfg->opt), (double)cfg->lr,
             eng_loss_name(cfg->loss), eng_act_name(cfg->act), where);
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
        if (strcasecmp(model, "mlp") != 0) return cli_usage_error("train", _("--model %s: expected mlp or gpt"), model);
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
        snprintf(err, sizeof err, _("out of memory for %d steps of results"), nsteps);
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
