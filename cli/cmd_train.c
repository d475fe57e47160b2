/* fwadvisor train: the built-in engine on this machine's CPU or, through the CUDA plug-in, a GPU. */
#include "cli/cli.h"
#include "engine/cuda/plugin.h"
#include "engine/engine.h"
#include "engine/tensor_io.h"
#include "knowledge/units.h"
#include "probes/cpu_cores.h"
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cli_train_on_step(void *ctx, int step, float loss, double seconds)
{
    struct cli_train_progress *p = ctx;
    if (p->json) return;
    if (step == 0 || (step + 1) % p->every == 0 || step + 1 == p->steps)
        printf("step %6d/%d  loss %.6f  %8.3f ms\n", step + 1, p->steps, loss, seconds * 1e3);
}

/* Rows of synthetic data: four batches, at least 1024. */
static int synthetic_rows(int batch) { return batch * 4 > 1024 ? batch * 4 : 1024; }

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
    struct eng_config cfg;
    eng_config_defaults(&cfg);
    const char *layers = NULL, *data = NULL, *targets = NULL, *init = NULL, *save = NULL, *device = "cpu";
    double steps = 100, seed = 1, v, max_memory_gb = 0;
    int json = 0, wd_given = 0, opt, device_index = -1, momentum_given = 0, seed_given = 0, threads_given = 0;
    enum eng_precision precision = ENG_PREC_FP32;
    char err[1024];
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(train_usage, stdout); return EXIT_OK;
        case OPT_MODEL: break; /* mlp: checked above */
        case OPT_LAYERS: layers = optarg; break;
        case OPT_ACTIVATION:
            if (eng_act_parse(optarg, &cfg.act)) {
                cli_error("--activation %s: expected relu, gelu or tanh", optarg);
                return EXIT_INPUT;
            }
            break;
        case OPT_LOSS:
            if (eng_loss_parse(optarg, &cfg.loss)) {
                cli_error("--loss %s: expected ce or mse", optarg);
                return EXIT_INPUT;
            }
            break;
        case OPT_OPTIMIZER:
            if (eng_opt_parse(optarg, &cfg.opt)) {
                cli_error("--optimizer %s: expected sgd, momentum, adam or adamw", optarg);
                return EXIT_INPUT;
            }
            break;
        case OPT_BATCH:
            if (cli_parse_number("batch", optarg, 1, 1 << 20, 1, &v)) return EXIT_INPUT;
            cfg.batch = (int)v;
            break;
        case OPT_STEPS:
            if (cli_parse_number("steps", optarg, 1, 1e7, 1, &steps)) return EXIT_INPUT;
            break;
        case OPT_LR:
            if (cli_parse_number("lr", optarg, 0, 1e6, 0, &v)) return EXIT_INPUT;
            cfg.lr = (float)v;
            break;
        case OPT_WD:
            if (cli_parse_number("weight-decay", optarg, 0, 1e6, 0, &v)) return EXIT_INPUT;
            cfg.weight_decay = (float)v;
            wd_given = 1;
            break;
        case OPT_MOMENTUM:
            if (cli_parse_number("momentum", optarg, 0, 0.999999, 0, &v)) return EXIT_INPUT;
            cfg.momentum = (float)v;
            momentum_given = 1;
            break;
        case OPT_SEED:
            if (cli_parse_number("seed", optarg, 0, 9007199254740991.0, 1, &seed)) return EXIT_INPUT;
            seed_given = 1;
            break;
        case OPT_THREADS:
            if (cli_parse_number("threads", optarg, 1, 1024, 1, &v)) return EXIT_INPUT;
            cfg.threads = (int)v;
            threads_given = 1;
            break;
        case OPT_MAX_MEMORY:
            if (cli_parse_number("max-memory", optarg, 1e-3, 1e6, 0, &max_memory_gb)) return EXIT_INPUT;
            break;
        case OPT_DATA: data = optarg; break;
        case OPT_TARGETS: targets = optarg; break;
        case OPT_INIT: init = optarg; break;
        case OPT_SAVE: save = optarg; break;
        case OPT_DEVICE: device = optarg; break;
        case OPT_PRECISION:
            if (eng_precision_parse(optarg, &precision) || precision == ENG_PREC_FP16) { /* fp16: no loss scaling */
                cli_error("--precision %s: expected fp32, tf32 or bf16", optarg);
                return EXIT_INPUT;
            }
            break;
        case OPT_JSON: json = 1; break;
        case ':': return cli_usage_error("train", "option '%s' needs a value", argv[optind - 1]);
        case '?':
            if (optopt) return cli_usage_error("train", "unknown option '-%c'", optopt);
            return cli_usage_error("train", "unknown option '%s'", argv[optind - 1]);
        default: cli_global_option(g, opt, optarg);
        }
    }
    if (optind < argc) return cli_usage_error("train", "unexpected argument '%s'", argv[optind]);
    if (!layers) return cli_usage_error("train", "--layers is required (e.g. --layers 784,1024,1024,10)");
    if (!data != !targets) return cli_usage_error("train", "--data and --targets go together");
    if (eng_device_parse(device, &device_index, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    if (device_index < 0 && precision != ENG_PREC_FP32) {
        cli_error("--precision %s needs a GPU (--device cuda): the CPU back-end computes in fp32",
                  eng_precision_name(precision));
        return EXIT_INPUT;
    }
    /* Every option is honoured or refused: none that would change nothing. */
    if (momentum_given && cfg.opt != ENG_OPT_MOMENTUM)
        return cli_not_applicable("train", "--momentum", "to --optimizer momentum only");
    if (seed_given && init && data)
        return cli_not_applicable("train", "--seed", "to the initialisation and the synthetic data; --init and --data give both");
    if (device_index >= 0 && (threads_given || max_memory_gb > 0))
        return cli_not_applicable("train", threads_given ? "--threads" : "--max-memory", "to --device cpu");
    int wrc = cli_check_output(save, EXIT_USAGE); /* before minutes of training, not after */
    if (wrc != EXIT_OK) return wrc;
    if (eng_parse_layers(&cfg, layers, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    if (cfg.opt == ENG_OPT_ADAMW && !wd_given) cfg.weight_decay = 0.01f; /* torch.optim.AdamW's default */
    if (cfg.threads == 0) cfg.threads = probe_physical_cores();
    int in = cfg.sizes[0], out = cfg.sizes[cfg.nsizes - 1];

    /* What the model and the synthetic data will take, before anything is allocated: a
     * configuration the machine cannot hold is refused at once, not after minutes of paging. */
    if (device_index < 0) {
        double need = eng_config_buffer_bytes(&cfg), limit = max_memory_gb * 1e9;
        if (!data) need += (double)synthetic_rows(cfg.batch) * ((double)in + (cfg.loss == ENG_LOSS_CE ? 1 : out)) * 4;
        const char *what = "--max-memory";
        if (limit <= 0) {
            limit = quick_memory_available_bytes();
            what = "available on this machine";
        }
        if (limit > 0 && need > limit) {
            cli_error("--layers %s needs %.3g GB (parameters, gradients, optimizer state, activations and data), more "
                      "than the %.3g GB %s",
                      layers, need / 1e9, limit / 1e9, what);
            return EXIT_INPUT;
        }
    }

    /* Data first: a bad file must fail before any work. */
    struct eng_data d;
    int status;
    if (data) {
        struct eng_array x, y;
        status = eng_npy_load(data, &x, err, sizeof err);
        if (status == ENG_OK) {
            status = eng_npy_load(targets, &y, err, sizeof err);
            if (status == ENG_OK) {
                status = eng_data_from_arrays(&d, &x, &y, in, out, cfg.loss, data, targets, err, sizeof err);
                eng_array_free(&y);
            }
            eng_array_free(&x);
        }
    } else {
        status = eng_data_synthetic(&d, synthetic_rows(cfg.batch), in, out, cfg.loss, (uint64_t)seed, err, sizeof err);
    }
    if (status != ENG_OK) {
        cli_error("%s", err);
        return status == ENG_ERR_INPUT ? EXIT_INPUT : EXIT_RUNTIME;
    }
    struct eng_model *m = NULL;
    struct eng_cuda_device gpu = {0};
    const struct eng_backend *be = eng_device_open(device_index, precision, &gpu, err, sizeof err);
    if (!be) {
        cli_error("%s", err);
        eng_data_free(&d);
        return EXIT_RUNTIME;
    }
    status = eng_model_create(&cfg, be, &m, err, sizeof err);
    if (status == ENG_OK) {
        if (init) status = eng_st_load_model(init, m, err, sizeof err);
        else eng_model_init(m, (uint64_t)seed);
    }
    int nsteps = (int)steps;
    float *losses = malloc((size_t)nsteps * sizeof *losses);
    double *secs = malloc((size_t)nsteps * sizeof *secs);
    if (status == ENG_OK && (!losses || !secs)) {
        snprintf(err, sizeof err, "out of memory for %d steps of results", nsteps);
        status = ENG_ERR_RUNTIME;
    }
    struct cli_train_progress prog = {nsteps / 10 > 0 ? nsteps / 10 : 1, nsteps, json};
    if (status == ENG_OK && !json) {
        char line[512];
        char where[192];
        if (device_index < 0) snprintf(where, sizeof where, "%d thread%s", cfg.threads, cfg.threads == 1 ? "" : "s");
        else snprintf(where, sizeof where, "%s (%s), %s", device, gpu.name, eng_precision_name(precision));
        snprintf(line, sizeof line, "training %s (%zu parameters), batch %d, %s lr %g, %s loss, %s, %s, %s data",
                 layers, eng_model_param_count(m), cfg.batch, eng_opt_name(cfg.opt), (double)cfg.lr,
                 eng_loss_name(cfg.loss), eng_act_name(cfg.act), where, data ? "file" : "synthetic");
        text_wrap(stdout, line, 0, 2);
    }
    struct eng_run run = {nsteps, losses, secs, NULL};
    if (status == ENG_OK) status = eng_train(m, &d, &run, cli_train_on_step, &prog, err, sizeof err);
    const char *gpu_error = status == ENG_OK ? eng_device_error() : NULL;
    if (gpu_error) {
        snprintf(err, sizeof err, "%s", gpu_error);
        status = ENG_ERR_RUNTIME;
    }
    if (status == ENG_OK && save) status = eng_st_save_model(save, m, err, sizeof err);
    if (status != ENG_OK) {
        cli_error("%s", err);
        eng_model_free(m);
        eng_device_close();
        eng_data_free(&d);
        free(losses);
        free(secs);
        return status == ENG_ERR_INPUT ? EXIT_INPUT : EXIT_RUNTIME;
    }

    /* Timing: the first step (cold caches, first GEMM) is left out when there are others. */
    int skip = nsteps > 1 ? 1 : 0, n = nsteps - skip;
    double *sorted = malloc((size_t)n * sizeof *sorted);
    for (int i = 0; sorted && i < n; i++) sorted[i] = secs[i + skip];
    if (sorted) qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
    double median = sorted ? (n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2) : 0;
    double min = sorted ? sorted[0] : 0, max = sorted ? sorted[n - 1] : 0;
    double flops = eng_model_step_flops(m);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double rss = (double)ru.ru_maxrss * 1024.0;
    int rc = EXIT_OK;
    if (json) {
        cJSON *doc = cJSON_CreateObject();
        cJSON_AddStringToObject(doc, "schema", "fwadvisor.train/1");
        cJSON *c = cJSON_AddObjectToObject(doc, "config");
        cJSON *l = cJSON_AddArrayToObject(c, "layers");
        for (int i = 0; i < cfg.nsizes; i++) cJSON_AddItemToArray(l, cJSON_CreateNumber(cfg.sizes[i]));
        cJSON_AddStringToObject(c, "activation", eng_act_name(cfg.act));
        cJSON_AddStringToObject(c, "loss", eng_loss_name(cfg.loss));
        cJSON_AddNumberToObject(c, "batch", cfg.batch);
        cJSON_AddNumberToObject(c, "steps", nsteps);
        cJSON_AddStringToObject(c, "optimizer", eng_opt_name(cfg.opt));
        cJSON_AddNumberToObject(c, "lr", cli_float(cfg.lr));
        cJSON_AddNumberToObject(c, "weight_decay", cli_float(cfg.weight_decay));
        cJSON_AddNumberToObject(c, "momentum", cli_float(cfg.momentum));
        cJSON_AddNumberToObject(c, "seed", seed);
        cJSON_AddNumberToObject(c, "threads", cfg.threads);
        cJSON_AddStringToObject(c, "device", device_index < 0 ? "cpu" : device);
        cJSON_AddStringToObject(c, "precision", eng_precision_name(precision));
        if (device_index >= 0) cJSON_AddStringToObject(c, "gpu", gpu.name);
        cJSON_AddStringToObject(c, "data", data ? data : "synthetic");
        cJSON_AddNumberToObject(c, "params", (double)eng_model_param_count(m));
        cJSON *ls = cJSON_AddArrayToObject(doc, "losses");
        for (int i = 0; i < nsteps; i++) cJSON_AddItemToArray(ls, cJSON_CreateNumber(cli_float(losses[i])));
        cJSON *st = cJSON_AddObjectToObject(doc, "step_ms");
        cJSON_AddNumberToObject(st, "median", median * 1e3);
        cJSON_AddNumberToObject(st, "min", min * 1e3);
        cJSON_AddNumberToObject(st, "max", max * 1e3);
        cJSON_AddNumberToObject(st, "timed_steps", n);
        cJSON_AddNumberToObject(doc, "samples_per_s", median > 0 ? cfg.batch / median : 0);
        cJSON_AddNumberToObject(doc, "flops_per_step", flops);
        cJSON_AddNumberToObject(doc, "gflops", median > 0 ? flops / median / 1e9 : 0);
        cJSON_AddNumberToObject(doc, "peak_rss_bytes", rss);
        cJSON_AddNumberToObject(doc, "buffer_bytes", (double)eng_model_buffer_bytes(m));
        char *text = cJSON_Print(doc);
        if (text) puts(text);
        else rc = EXIT_RUNTIME;
        free(text);
        cJSON_Delete(doc);
    } else {
        cli_print_step_times(median, min, max, n);
        printf("throughput: %.0f samples/s, %.2f GFLOP/s (%.4g FLOP per step)\n", median > 0 ? cfg.batch / median : 0,
               median > 0 ? flops / median / 1e9 : 0, flops);
        printf("memory: peak resident %.1f MB; model buffers %.1f MB\n", rss / 1e6, eng_model_buffer_bytes(m) / 1e6);
        if (save) {
            text_printf(stdout, "weights saved to %s", save);
            putchar('\n');
        }
    }
    free(sorted);
    free(losses);
    free(secs);
    eng_model_free(m);
    eng_device_close();
    eng_data_free(&d);
    return rc;
}
