/* fwadvisor train --model gpt: the engine's GPT decoder on synthetic tokens or the bytes of a
 * text file, on the CPU or through the CUDA plug-in a GPU. */
#include "cli/cli.h"
#include "engine/cuda/plugin.h"
#include "engine/gpt.h"
#include "knowledge/planner.h"
#include "probes/cpu_cores.h"
#include "probes/probe.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static const char gpt_usage[] =
    "Usage: fwadvisor train --model gpt [--n-layer L] [--n-head H] [--n-embd C]\n"
    "                       [--ctx T] [--vocab V] [--batch B] [--steps N]\n"
    "                       [--text FILE] [--optimizer sgd|momentum|adam|adamw]\n"
    "                       [--lr X] [--weight-decay X] [--momentum X] [--clip X]\n"
    "                       [--seed N] [--init FILE.safetensors]\n"
    "                       [--save FILE.safetensors] [--device cpu|cuda[:N]]\n"
    "                       [--precision fp32|tf32|bf16] [--threads N]\n"
    "                       [--max-memory GB] [--json]\n"
    "\n"
    "Trains a GPT-2-style decoder (nanoGPT's model: pre-LayerNorm blocks of causal\n"
    "attention and a GELU MLP, the LM head tied to the token embedding) with the\n"
    "built-in engine and times every step.\n"
    "\n"
    "  --n-layer, --n-head, --n-embd\n"
    "                       blocks, attention heads, width (default 2, 2, 64; the\n"
    "                       width a multiple of the heads)\n"
    "  --ctx T              tokens per sequence (default 32)\n"
    "  --vocab V            vocabulary (default 256)\n"
    "  --batch B            sequences per step (default 4)\n"
    "  --steps N            training steps (default 100)\n"
    "  --text FILE          train on the bytes of FILE (vocab 256); default:\n"
    "                       seeded synthetic tokens\n"
    "  --optimizer O        sgd, momentum, adam, adamw (default); weight decay on\n"
    "                       matrices and embeddings only, as nanoGPT\n"
    "  --lr X               learning rate (default 0.001)\n"
    "  --weight-decay X     default 0.01 for adamw, else 0\n"
    "  --momentum X         for the momentum optimizer only (default 0.9)\n"
    "  --clip X             clip gradients to this global norm (default 1; 0: off)\n"
    "  --seed N             initialisation and synthetic tokens (default 1; not\n"
    "                       with both --init and --text)\n"
    "  --init F, --save F   weights as safetensors with nanoGPT's names\n"
    "                       (transformer.wte.weight, ...); --save's folder must\n"
    "                       exist\n"
    "  --device D           cpu (default), cuda or cuda:N (the CUDA plug-in)\n"
    "  --precision P        GPU matrix precision: fp32 (default), tf32 or bf16\n"
    "                       (fp32 master weights)\n"
    "  --threads N          CPU threads for GEMMs and kernels (default: the\n"
    "                       physical cores)\n"
    "  --max-memory GB      on the CPU: refuse a model larger than this (default:\n"
    "                       the memory available)\n"
    "  --json               print losses, timings and memory as JSON\n"
    "                       (fwadvisor.train/1)\n";

/* The numeric options, one table: name, range, whole numbers only, default. */
enum { N_LAYER, N_HEAD, N_EMBD, N_CTX, N_VOCAB, N_BATCH, N_STEPS, N_LR, N_WD, N_MOMENTUM, N_CLIP, N_SEED, N_THREADS,
       N_MAX_MEMORY, N_COUNT };
static const struct {
    const char *name;
    double lo, hi;
    int integer;
} numbers[N_COUNT] = {
    [N_LAYER] = {"n-layer", 1, 1024, 1},      [N_HEAD] = {"n-head", 1, 1024, 1},
    [N_EMBD] = {"n-embd", 1, 65536, 1},       [N_CTX] = {"ctx", 1, 1 << 20, 1},
    [N_VOCAB] = {"vocab", 1, 1 << 24, 1},     [N_BATCH] = {"batch", 1, 1 << 20, 1},
    [N_STEPS] = {"steps", 1, 1e7, 1},         [N_LR] = {"lr", 0, 1e6, 0},
    [N_WD] = {"weight-decay", 0, 1e6, 0},     [N_MOMENTUM] = {"momentum", 0, 0.999999, 0},
    [N_CLIP] = {"clip", 0, 1e6, 0},           [N_SEED] = {"seed", 0, 9007199254740991.0, 1},
    [N_THREADS] = {"threads", 1, 1024, 1},     [N_MAX_MEMORY] = {"max-memory", 1e-3, 1e6, 0},
};

enum { OPT_NUMBER = OPT_FIRST_FREE, OPT_MODEL = OPT_NUMBER + N_COUNT, OPT_OPTIMIZER, OPT_TEXT, OPT_INIT, OPT_SAVE,
       OPT_DEVICE, OPT_PRECISION };

struct gpt_args {
    struct eng_gpt_config cfg;
    double steps, seed, max_memory_gb;
    const char *text, *init, *save, *device;
    int device_index, json;
    unsigned given; /* bit k: numbers[k] was on the command line */
    enum eng_precision precision;
};

/* Parses argv into a; returns -1 when parsing is done, else the exit status to return now. */
static int parse(struct globals *g, int argc, char **argv, struct gpt_args *a)
{
    struct option opts[N_COUNT + 16];
    int n = 0;
    for (int i = 0; i < N_COUNT; i++) opts[n++] = (struct option){numbers[i].name, required_argument, NULL, OPT_NUMBER + i};
    static const struct option rest[] = {
        {"model", required_argument, NULL, OPT_MODEL},   {"optimizer", required_argument, NULL, OPT_OPTIMIZER},
        {"text", required_argument, NULL, OPT_TEXT},     {"init", required_argument, NULL, OPT_INIT},
        {"save", required_argument, NULL, OPT_SAVE},     {"device", required_argument, NULL, OPT_DEVICE},
        {"precision", required_argument, NULL, OPT_PRECISION}, {"json", no_argument, NULL, OPT_JSON},
        CLI_GLOBAL_OPTIONS,                {NULL, 0, NULL, 0},
    };
    memcpy(opts + n, rest, sizeof rest);
    struct eng_gpt_config *c = &a->cfg;
    eng_gpt_config_defaults(c);
    double v[N_COUNT] = {[N_LAYER] = c->n_layer, [N_HEAD] = c->n_head, [N_EMBD] = c->n_embd, [N_CTX] = c->ctx,
                         [N_VOCAB] = c->vocab, [N_BATCH] = c->batch, [N_STEPS] = 100, [N_LR] = c->lr,
                         [N_WD] = -1, [N_MOMENTUM] = c->momentum, [N_CLIP] = c->clip, [N_SEED] = 1,
                         [N_THREADS] = 0, [N_MAX_MEMORY] = 0};
    a->device = "cpu";
    a->device_index = -1;
    a->precision = ENG_PREC_FP32;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (opt >= OPT_NUMBER && opt < OPT_NUMBER + N_COUNT) {
            int k = opt - OPT_NUMBER;
            if (cli_parse_number(numbers[k].name, optarg, numbers[k].lo, numbers[k].hi, numbers[k].integer, &v[k]))
                return EXIT_INPUT;
            a->given |= 1u << k;
            continue;
        }
        switch (opt) {
        case 'h': fputs(gpt_usage, stdout); return EXIT_OK;
        case OPT_MODEL: break; /* gpt: how we got here */
        case OPT_OPTIMIZER:
            if (eng_opt_parse(optarg, &c->opt)) {
                cli_error("--optimizer %s: expected sgd, momentum, adam or adamw", optarg);
                return EXIT_INPUT;
            }
            break;
        case OPT_TEXT: a->text = optarg; break;
        case OPT_INIT: a->init = optarg; break;
        case OPT_SAVE: a->save = optarg; break;
        case OPT_DEVICE: a->device = optarg; break;
        case OPT_PRECISION:
            if (eng_precision_parse(optarg, &a->precision) || a->precision == ENG_PREC_FP16) {
                cli_error("--precision %s: expected fp32, tf32 or bf16", optarg);
                return EXIT_INPUT;
            }
            break;
        case OPT_JSON: a->json = 1; break;
        case ':': return cli_usage_error("train", "option '%s' needs a value", argv[optind - 1]);
        case '?':
            if (optopt) return cli_usage_error("train", "unknown option '-%c'", optopt);
            return cli_usage_error("train", "unknown option '%s' for --model gpt", argv[optind - 1]);
        default: cli_global_option(g, opt, optarg);
        }
    }
    if (optind < argc) return cli_usage_error("train", "unexpected argument '%s'", argv[optind]);
    c->n_layer = (int)v[N_LAYER], c->n_head = (int)v[N_HEAD], c->n_embd = (int)v[N_EMBD], c->ctx = (int)v[N_CTX];
    c->vocab = (int)v[N_VOCAB], c->batch = (int)v[N_BATCH], c->lr = (float)v[N_LR], c->momentum = (float)v[N_MOMENTUM];
    c->clip = (float)v[N_CLIP];
    c->weight_decay = v[N_WD] >= 0 ? (float)v[N_WD] : c->opt == ENG_OPT_ADAMW ? 0.01f : 0.0f; /* torch's defaults */
    c->threads = v[N_THREADS] > 0 ? (int)v[N_THREADS] : probe_physical_cores();
    a->steps = v[N_STEPS];
    a->seed = v[N_SEED];
    a->max_memory_gb = v[N_MAX_MEMORY];
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
        cli_error("--precision %s needs a GPU (--device cuda): the CPU back-end computes in fp32",
                  eng_precision_name(a->precision));
        return EXIT_INPUT;
    }
    /* Every option is honoured or refused: none that would change nothing. */
    if ((a->given >> N_MOMENTUM & 1) && c->opt != ENG_OPT_MOMENTUM)
        return cli_not_applicable("train", "--momentum", "to --optimizer momentum only");
    if ((a->given >> N_SEED & 1) && a->init && a->text)
        return cli_not_applicable("train", "--seed", "to the initialisation and the synthetic tokens; --init and --text give both");
    if (a->device_index >= 0 && (a->given & (1u << N_THREADS | 1u << N_MAX_MEMORY)))
        return cli_not_applicable("train", a->given >> N_THREADS & 1 ? "--threads" : "--max-memory", "to --device cpu");
    int wrc = cli_check_output(a->save, EXIT_USAGE);
    if (wrc != EXIT_OK) return wrc;
    if (a->text && c->vocab < 256) {
        cli_error("--text trains on bytes: --vocab must be at least 256, not %d", c->vocab);
        return EXIT_INPUT;
    }
    if (a->init) {
        int rows, width, status = eng_gpt_file_positions(a->init, &rows, &width, err, sizeof err);
        if (status != ENG_OK) {
            cli_error("%s", err);
            return status == ENG_ERR_INPUT ? EXIT_INPUT : EXIT_RUNTIME;
        }
        if (c->ctx > rows) {
            cli_error("--ctx %d is larger than the position table of %s (transformer.wpe.weight has %d rows)", c->ctx,
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
            cli_error("this model needs %.3g GB (parameters, gradients, optimizer state, activations), more than the "
                      "%.3g GB %s", need / 1e9, limit / 1e9, what);
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
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", "fwadvisor.train/1");
    cJSON *cf = cJSON_AddObjectToObject(doc, "config");
    cJSON_AddStringToObject(cf, "model", "gpt");
    const struct { const char *key; double value; } nums[] = {
        {"n_layer", c->n_layer}, {"n_head", c->n_head},   {"n_embd", c->n_embd},   {"ctx", c->ctx},
        {"block_size", c->block_size}, {"vocab", c->vocab}, {"batch", c->batch},   {"steps", nsteps},
        {"lr", cli_float(c->lr)}, {"weight_decay", cli_float(c->weight_decay)}, {"momentum", cli_float(c->momentum)},
        {"clip", cli_float(c->clip)},
        {"seed", a->seed},       {"threads", c->threads}, {"params", (double)eng_gpt_param_count(m)},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) cJSON_AddNumberToObject(cf, nums[i].key, nums[i].value);
    cJSON_AddStringToObject(cf, "optimizer", eng_opt_name(c->opt));
    cJSON_AddStringToObject(cf, "device", a->device_index < 0 ? "cpu" : a->device);
    cJSON_AddStringToObject(cf, "precision", eng_precision_name(a->precision));
    if (gpu) cJSON_AddStringToObject(cf, "gpu", gpu);
    cJSON_AddStringToObject(cf, "data", a->text ? a->text : "synthetic");
    cJSON *ls = cJSON_AddArrayToObject(doc, "losses");
    for (int i = 0; i < nsteps; i++) cJSON_AddItemToArray(ls, cJSON_CreateNumber(cli_float(losses[i])));
    cJSON *st = cJSON_AddObjectToObject(doc, "step_ms");
    cJSON_AddNumberToObject(st, "median", s->step.median * 1e3);
    cJSON_AddNumberToObject(st, "min", s->step.min * 1e3);
    cJSON_AddNumberToObject(st, "max", s->step.max * 1e3);
    cJSON_AddNumberToObject(st, "timed_steps", s->step.n);
    cJSON_AddNumberToObject(doc, "tokens_per_s", s->tokens_per_s);
    cJSON_AddNumberToObject(doc, "flops_per_token", s->flops_per_token);
    cJSON_AddNumberToObject(doc, "flops_per_step", s->flops_per_token * c->batch * c->ctx);
    cJSON_AddNumberToObject(doc, "tflops", s->tflops);
    cJSON_AddNumberToObject(doc, "peak_rss_bytes", s->rss);
    cJSON_AddNumberToObject(doc, "buffer_bytes", s->buffers);
    cJSON_AddNumberToObject(doc, "planner_bytes", s->planned);
    char *text = cJSON_Print(doc);
    int rc = text ? EXIT_OK : EXIT_RUNTIME;
    if (text) puts(text);
    free(text);
    cJSON_Delete(doc);
    return rc;
}

static void print_text(const struct gpt_args *a, const struct summary *s)
{
    cli_print_step_times(s->step.median, s->step.min, s->step.max, s->step.n);
    printf("throughput: %.0f tokens/s, %.4f TFLOP/s of model FLOPs (%.4g per token)\n", s->tokens_per_s, s->tflops,
           s->flops_per_token);
    printf("memory: peak resident %.1f MB; model buffers %.1f MB; planner %.1f MB\n", s->rss / 1e6, s->buffers / 1e6,
           s->planned / 1e6);
    if (a->save) {
        text_printf(stdout, "weights saved to %s", a->save);
        putchar('\n');
    }
}

static void print_header(const struct gpt_args *a, const struct eng_gpt *m, const char *gpu)
{
    const struct eng_gpt_config *c = eng_gpt_config_of(m);
    char where[192], line[640];
    if (a->device_index < 0) snprintf(where, sizeof where, "%d thread%s", c->threads, c->threads == 1 ? "" : "s");
    else snprintf(where, sizeof where, "%s (%s), %s", a->device, gpu, eng_precision_name(a->precision));
    snprintf(line, sizeof line,
             "training a GPT: %d layers, %d heads, %d wide, ctx %d, vocab %d (%zu parameters), batch %d, %s lr %g, "
             "clip %g, %s, %s",
             c->n_layer, c->n_head, c->n_embd, c->ctx, c->vocab, eng_gpt_param_count(m), c->batch, eng_opt_name(c->opt),
             (double)c->lr, (double)c->clip, where, a->text ? a->text : "synthetic tokens");
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
        snprintf(err, sizeof err, "out of memory for %d steps of results", nsteps);
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
