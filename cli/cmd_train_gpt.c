/* fwadvisor train --model gpt: the engine's GPT decoder on synthetic tokens or the bytes of a
 * text file, on the CPU or through the CUDA plug-in a GPU. */
#include "cli/cli.h"
#include "common/i18n.h"
#include "cli/options.h"
#include "engine/cuda/plugin.h"
#include "engine/gpt.h"
#include "knowledge/planner.h"
#include "probes/cpu_cores.h"
#include "probes/probe.h"

#include <cjson/cJSON.h>
#include <getopt.h> /* optind */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static const char gpt_head[] =
    N_("Usage: fwadvisor train --model gpt [--n-layer L] [--n-head H] [--n-embd C]\n"
    "                       [--ctx T] [--vocab V] [--batch B] [--steps N]\n"
    "                       [--text FILE] [--optimizer sgd|momentum|adam|adamw]\n"
    "                       [--lr X] [--weight-decay X] [--momentum X] [--clip X]\n"
    "                       [--seed N] [--init FILE.safetensors]\n"
    "                       [--save FILE.safetensors] [--device cpu|cuda[:N]]\n"
    "                       [--precision fp32|tf32|bf16] [--threads N]\n"
    "                       [--max-memory GB] [--json [--fields LIST]]\n"
    "\n"
    "Trains a GPT-2-style decoder (nanoGPT's model: pre-LayerNorm blocks of causal\n"
    "attention and a GELU MLP, the LM head tied to the token embedding) with the\n"
    "built-in engine and times every step.\n"
    "\n");

struct gpt_args {
    struct eng_gpt_config cfg;
    double steps, seed, max_memory_gb;
    const char *model, *text, *init, *save, *device, *fields;
    int device_index, json;
    cli_given given;
    enum eng_precision precision;
};

enum { G_MODEL, G_LAYER, G_HEAD, G_EMBD, G_CTX, G_VOCAB, G_BATCH, G_STEPS, G_TEXT, G_OPTIMIZER, G_LR, G_WD, G_MOMENTUM,
       G_CLIP, G_SEED, G_INIT, G_SAVE, G_DEVICE, G_PRECISION, G_THREADS, G_MAX_MEMORY, G_JSON, G_FIELDS, G_COUNT };
#define F(member) offsetof(struct gpt_args, member)
static const struct cli_option gpt_options[G_COUNT] = {
    [G_MODEL] = CLI_TRAIN_ROW_MODEL(F(model)), /* gpt: how we got here */
    [G_LAYER] = {"n-layer", 0, CLI_INT, 1, 1024, F(cfg.n_layer), 0, NULL, NULL, 0, "--n-layer, --n-head, --n-embd", NULL,
                 N_("blocks, attention heads, width (default 2, 2, 64; the\nwidth a multiple of the heads)")},
    [G_HEAD] = {"n-head", 0, CLI_INT, 1, 1024, F(cfg.n_head), 0, NULL, NULL, 0, NULL, "H", NULL},
    [G_EMBD] = {"n-embd", 0, CLI_INT, 1, 65536, F(cfg.n_embd), 0, NULL, NULL, 0, NULL, "C", NULL},
    [G_CTX] = {"ctx", 0, CLI_INT, 1, 1 << 20, F(cfg.ctx), 0, NULL, NULL, 0, NULL, "T", N_("tokens per sequence (default 32)")},
    [G_VOCAB] = {"vocab", 0, CLI_INT, 1, 1 << 24, F(cfg.vocab), 0, NULL, NULL, 0, NULL, "V", N_("vocabulary (default 256)")},
    [G_BATCH] = {"batch", 0, CLI_INT, 1, 1 << 20, F(cfg.batch), 0, NULL, NULL, 0, NULL, "B",
                 N_("sequences per step (default 4)")},
    [G_STEPS] = CLI_TRAIN_ROW_STEPS(F(steps)),
    [G_TEXT] = {"text", 0, CLI_FILE, 0, 0, F(text), 0, NULL, NULL, 0, NULL, "FILE",
                N_("train on the bytes of FILE (vocab 256); default:\nseeded synthetic tokens")},
    [G_OPTIMIZER] = CLI_TRAIN_ROW_OPTIMIZER(F(cfg.opt),
                                            "sgd, momentum, adam, adamw (default); weight decay on\n"
                                            "matrices and embeddings only, as nanoGPT"),
    [G_LR] = CLI_TRAIN_ROW_LR(F(cfg.lr)),
    [G_WD] = CLI_TRAIN_ROW_WD(F(cfg.weight_decay), "default 0.01 for adamw, else 0"),
    [G_MOMENTUM] = CLI_TRAIN_ROW_MOMENTUM(F(cfg.momentum)),
    [G_CLIP] = {"clip", 0, CLI_FLOAT, 0, 1e6, F(cfg.clip), 0, NULL, NULL, 0, NULL, "X",
                N_("clip gradients to this global norm (default 1; 0: off)")},
    [G_SEED] = CLI_TRAIN_ROW_SEED(F(seed),
                                  "initialisation and synthetic tokens (default 1; not\n"
                                  "with both --init and --text)"),
    [G_INIT] = CLI_TRAIN_ROW_INIT(F(init),
                                  "weights as safetensors with nanoGPT's names\n(transformer.wte.weight, ...); --save's folder must\nexist"),
    [G_SAVE] = CLI_TRAIN_ROW_SAVE(F(save)),
    [G_DEVICE] = CLI_TRAIN_ROW_DEVICE(F(device),
                                      "cpu (default), cuda or cuda:N (the CUDA plug-in)"),
    [G_PRECISION] = CLI_TRAIN_ROW_PRECISION(F(precision),
                                            "GPU matrix precision: fp32 (default), tf32 or bf16\n"
                                            "(fp32 master weights)"),
    [G_THREADS] = CLI_TRAIN_ROW_THREADS(F(cfg.threads),
                                        "CPU threads for GEMMs and kernels (default: the\n"
                                        "physical cores)"),
    [G_MAX_MEMORY] = CLI_TRAIN_ROW_MAX_MEMORY(F(max_memory_gb),
                                              "on the CPU: refuse a model larger than this (default:\n"
                                              "the memory available)"),
    [G_JSON] = {"json", 0, CLI_FLAG, 0, 0, F(json), 0, NULL, NULL, 0, NULL, NULL,
                N_("print losses, timings and memory as JSON\n(fwadvisor.train/1)")},
    [G_FIELDS] = {"fields", 0, CLI_TEXT, 0, 0, F(fields), 0, NULL, NULL, 0, NULL, "LIST",
                  N_("with --json: only these members, dotted paths split\nby commas: --fields step_ms.median,losses")},
};
#undef F

const struct cli_command cli_train_gpt_command = {"train", gpt_options, G_COUNT, cli_train_modes, gpt_head, "", 23,
                                                  N_(" for --model gpt"), NULL, NULL, NULL, 0};

/* Parses argv into a; returns -1 when parsing is done, else the exit status to return now. */
static int parse(struct globals *g, int argc, char **argv, struct gpt_args *a)
{
    struct eng_gpt_config *c = &a->cfg;
    eng_gpt_config_defaults(c);
    a->steps = 100, a->seed = 1;
    a->device = "cpu";
    a->device_index = -1;
    a->precision = ENG_PREC_FP32;
    int rc = cli_options_parse(&cli_train_gpt_command, g, argc, argv, a, &a->given);
    if (rc != EXIT_OK) return rc < 0 ? EXIT_OK : rc;
    if (optind < argc) return cli_usage_error("train", _("unexpected argument '%s'"), argv[optind]);
    if (!CLI_GIVEN(a->given, G_WD)) c->weight_decay = c->opt == ENG_OPT_ADAMW ? 0.01f : 0.0f; /* torch's defaults */
    if (!CLI_GIVEN(a->given, G_THREADS)) c->threads = probe_physical_cores();
    return -1;
}

/* Everything that can be checked before any work: sizes, device, the --init file's table. */
static int check(struct gpt_args *a)
{
    char err[1024];
    struct eng_gpt_config *c = &a->cfg;
    if (eng_gpt_config_check(c, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    if (eng_device_parse(a->device, &a->device_index, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    if (a->device_index < 0 && a->precision != ENG_PREC_FP32) {
        cli_error(_("--precision %s needs a GPU (--device cuda): the CPU back-end computes in fp32"),
                  eng_precision_name(a->precision));
        return EXIT_INPUT;
    }
    /* Every option is honoured or refused: none that would change nothing. */
    if (CLI_GIVEN(a->given, G_SEED) && a->init && a->text)
        return cli_not_applicable("train", "--seed",
                                  _("to the initialisation and the synthetic tokens; --init and --text give both"));
    unsigned mode = (a->device_index < 0 ? CLI_TRAIN_CPU : CLI_TRAIN_GPU) |
                    (c->opt == ENG_OPT_MOMENTUM ? CLI_TRAIN_MOMENTUM : 0);
    int wrc = cli_options_refuse(&cli_train_gpt_command, a->given, mode);
    if (wrc == EXIT_OK) wrc = cli_json_fields("train", a->fields, a->json);
    if (wrc == EXIT_OK) wrc = cli_check_output(a->save, EXIT_USAGE);
    if (wrc != EXIT_OK) return wrc;
    if (a->text && c->vocab < 256) {
        cli_error(_("--text trains on bytes: --vocab must be at least 256, not %d"), c->vocab);
        return EXIT_INPUT;
    }
    if (a->init) {
        int rows, width, status = eng_gpt_file_positions(a->init, &rows, &width, err, sizeof err);
        if (status != ENG_OK) {
            cli_error("%s", err);
            return status == ENG_ERR_INPUT ? EXIT_INPUT : EXIT_RUNTIME;
        }
        if (c->ctx > rows) {
            cli_error(_("--ctx %d is larger than the position table of %s (transformer.wpe.weight has %d rows)"), c->ctx,
                      a->init, rows);
            return EXIT_INPUT;
        }
        c->block_size = rows; /* the file's table is kept whole, so a saved file loads where it came from */
    }
    /* What the model will hold, before anything is allocated: a size the machine cannot hold is
     * refused at once, not after minutes of paging. */
    if (a->device_index < 0) {
        double need = eng_gpt_config_buffer_bytes(c, eng_cpu_backend());
        const char *what;
        double limit = cli_train_memory_limit(a->max_memory_gb, &what);
        if (limit > 0 && need > limit) {
            cli_error(_("this model needs %.3g GB (parameters, gradients, optimizer state, activations), more than the "
                        "%.3g GB %s"),
                      need / 1e9, limit / 1e9, what);
            return EXIT_INPUT;
        }
    }
    return -1;
}

/* The planner's estimate of what training this model holds: parameters, gradients and Adam's
 * two moments at 4 bytes each (16 per parameter), and each block's activations by Korthikanti et
 * al.'s formula, written for 16-bit values, doubled for fp32. */
static double planner_bytes(const struct eng_gpt *m)
{
    const struct eng_gpt_config *c = eng_gpt_config_of(m);
    double states = plan_model_states_bytes(16, 0, (double)eng_gpt_param_count(m), 1);
    return states + c->n_layer * 2 * plan_activation_layer_bytes(c->ctx, c->batch, c->n_embd, c->n_head);
}

struct summary {
    struct probe_stats step; /* seconds, the first step left out */
    double tokens_per_s, flops_per_token, tflops, rss, buffers, planned;
};

static void summarise(const struct eng_gpt *m, const double *secs, int nsteps, struct summary *s)
{
    const struct eng_gpt_config *c = eng_gpt_config_of(m);
    int skip = nsteps > 1 ? 1 : 0;
    memset(s, 0, sizeof *s);
    probe_stats_copy(secs + skip, nsteps - skip, &s->step);
    double tokens = (double)c->batch * c->ctx;
    s->tokens_per_s = s->step.median > 0 ? tokens / s->step.median : 0;
    s->flops_per_token = eng_gpt_flops_per_token(m);
    s->tflops = s->tokens_per_s * s->flops_per_token / 1e12;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    s->rss = (double)ru.ru_maxrss * 1024.0;
    s->buffers = (double)eng_gpt_buffer_bytes(m);
    s->planned = planner_bytes(m);
}

static int print_json(const struct gpt_args *a, const struct eng_gpt *m, const char *gpu, const float *losses,
                      int nsteps, const struct summary *s)
{
    const struct eng_gpt_config *c = eng_gpt_config_of(m);
    struct cli_train_field config[24] = {
        {"model", "gpt", 0},          {"n_layer", NULL, c->n_layer},     {"n_head", NULL, c->n_head},
        {"n_embd", NULL, c->n_embd},  {"ctx", NULL, c->ctx},             {"block_size", NULL, c->block_size},
        {"vocab", NULL, c->vocab},    {"batch", NULL, c->batch},         {"steps", NULL, nsteps},
        {"lr", NULL, cli_float(c->lr)}, {"weight_decay", NULL, cli_float(c->weight_decay)},
        {"momentum", NULL, cli_float(c->momentum)}, {"clip", NULL, cli_float(c->clip)}, {"seed", NULL, a->seed},
        {"threads", NULL, c->threads}, {"params", NULL, (double)eng_gpt_param_count(m)},
        {"optimizer", eng_opt_name(c->opt), 0}, {"device", a->device_index < 0 ? "cpu" : a->device, 0},
        {"precision", eng_precision_name(a->precision), 0},
    };
    int n = 19;
    if (gpu) config[n++] = (struct cli_train_field){"gpu", gpu, 0};
    config[n++] = (struct cli_train_field){"data", a->text ? a->text : "synthetic", 0};
    const struct cli_train_field results[] = {
        {"tokens_per_s", NULL, s->tokens_per_s},
        {"flops_per_token", NULL, s->flops_per_token},
        {"flops_per_step", NULL, s->flops_per_token * c->batch * c->ctx},
        {"tflops", NULL, s->tflops},
        {"peak_rss_bytes", NULL, s->rss},
        {"buffer_bytes", NULL, s->buffers},
        {"planner_bytes", NULL, s->planned},
    };
    struct cli_train_report r = {NULL, 0, n, nsteps, s->step.n, 7, config, results, losses,
                                 s->step.median, s->step.min, s->step.max};
    return cli_train_json(&r);
}

static void print_text(const struct gpt_args *a, const struct summary *s)
{
    cli_print_step_times(s->step.median, s->step.min, s->step.max, s->step.n);
    printf(_("throughput: %.0f tokens/s, %.4f TFLOP/s of model FLOPs (%.4g per token)\n"), s->tokens_per_s, s->tflops,
           s->flops_per_token);
    printf(_("memory: peak resident %.1f MB; model buffers %.1f MB; planner %.1f MB\n"), s->rss / 1e6, s->buffers / 1e6,
           s->planned / 1e6);
    if (a->save) {
        text_printf(stdout, _("weights saved to %s"), a->save);
        putchar('\n');
    }
}

static void print_header(const struct gpt_args *a, const struct eng_gpt *m, const char *gpu)
{
    const struct eng_gpt_config *c = eng_gpt_config_of(m);
    char where[192], line[640];
    if (a->device_index < 0) snprintf(where, sizeof where, c->threads == 1 ? _("%d thread") : _("%d threads"), c->threads);
    else snprintf(where, sizeof where, "%s (%s), %s", a->device, gpu, eng_precision_name(a->precision));
    snprintf(line, sizeof line,
             _("training a GPT: %d layers, %d heads, %d wide, ctx %d, vocab %d (%zu parameters), batch %d, %s lr %g, "
               "clip %g, %s, %s"),
             c->n_layer, c->n_head, c->n_embd, c->ctx, c->vocab, eng_gpt_param_count(m), c->batch, eng_opt_name(c->opt),
             (double)c->lr, (double)c->clip, where, a->text ? a->text : _("synthetic tokens"));
    text_wrap(stdout, line, 0, 2);
}

int cmd_train_gpt(struct globals *g, int argc, char **argv)
{
    struct gpt_args a;
    memset(&a, 0, sizeof a);
    int rc = parse(g, argc, argv, &a);
    if (rc < 0) rc = check(&a);
    if (rc >= 0) return rc;
    struct eng_gpt_config *c = &a.cfg;
    char err[1024];
    int nsteps = (int)a.steps, status;

    /* Data before any work: a short file fails first. */
    struct eng_tokens tokens;
    size_t one_batch = (size_t)c->batch * c->ctx + 1;
    if (a.text) status = eng_tokens_from_file(&tokens, a.text, one_batch, err, sizeof err);
    else status = eng_tokens_synthetic(&tokens, one_batch * 16 > 65536 ? one_batch * 16 : 65536, c->vocab,
                                       (uint64_t)a.seed, err, sizeof err);
    if (status != ENG_OK) {
        cli_error("%s", err);
        return status == ENG_ERR_INPUT ? EXIT_INPUT : EXIT_RUNTIME;
    }
    struct eng_cuda_device gpu = {0};
    const struct eng_backend *be = eng_device_open(a.device_index, a.precision, &gpu, err, sizeof err);
    struct eng_gpt *m = NULL;
    float *losses = malloc((size_t)nsteps * sizeof *losses);
    double *secs = malloc((size_t)nsteps * sizeof *secs);
    if (!be) status = ENG_ERR_RUNTIME;
    else if (!losses || !secs) {
        snprintf(err, sizeof err, _("out of memory for %d steps of results"), nsteps);
        status = ENG_ERR_RUNTIME;
    } else status = eng_gpt_create(c, be, &m, err, sizeof err);
    if (status == ENG_OK) {
        if (a.init) status = eng_gpt_load(a.init, m, err, sizeof err);
        else eng_gpt_init(m, (uint64_t)a.seed);
    }
    const char *gpu_name = a.device_index >= 0 ? gpu.name : NULL;
    struct cli_train_progress prog = {nsteps / 10 > 0 ? nsteps / 10 : 1, nsteps, a.json};
    if (status == ENG_OK && !a.json) print_header(&a, m, gpu_name);
    struct eng_run run = {nsteps, losses, secs, NULL};
    if (status == ENG_OK) status = eng_gpt_train(m, &tokens, &run, cli_train_on_step, &prog, err, sizeof err);
    const char *gpu_error = status == ENG_OK ? eng_device_error() : NULL;
    if (gpu_error) {
        snprintf(err, sizeof err, "%s", gpu_error);
        status = ENG_ERR_RUNTIME;
    }
    if (status == ENG_OK && a.save) status = eng_gpt_save(a.save, m, err, sizeof err);
    rc = status == ENG_OK ? EXIT_OK : status == ENG_ERR_INPUT ? EXIT_INPUT : EXIT_RUNTIME;
    if (status != ENG_OK) {
        cli_error("%s", err);
    } else {
        struct summary s;
        summarise(m, secs, nsteps, &s);
        if (a.json) rc = print_json(&a, m, gpu_name, losses, nsteps, &s);
        else print_text(&a, &s);
    }
    free(losses);
    free(secs);
    eng_gpt_free(m);
    eng_device_close();
    eng_tokens_free(&tokens);
    return rc;
}
