/* The engine's half of the frameworks workload (fw_internal.h): the reference models, the files
 * every framework script reads (initial weights as safetensors, each step's batch as .npy,
 * spec.json), and the engine's own rows. */
#include "engine/cuda/plugin.h"
#include "engine/engine.h"
#include "common/file.h"
#include "engine/gpt.h"
#include "engine/tensor_io.h"
#include "probes/frameworks.h"
#include "probes/fw_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* --quick: train-mlp's MLP and a 4-layer GPT small enough that compiling it in every framework
 * stays within a minute on two cores; --full: train-gpt's CPU GPT (4 layers x 256, T 128) and
 * more steps. The same shapes on every device. */
void fw_shape(const struct probe_options *opt, struct probe_fw_models *m)
{
    memset(m, 0, sizeof *m);
    if (opt->smoke) {
        *m = (struct probe_fw_models){"64,32,10", 16, 1, 2, 32, 16, 64, 2, {1, 1}, {3, 3}};
        return;
    }
    snprintf(m->mlp_layers, sizeof m->mlp_layers, "784,1024,1024,10");
    m->mlp_batch = 256;
    m->gpt_layers = 4, m->gpt_heads = 4, m->gpt_vocab = 256, m->gpt_batch = 8;
    m->gpt_width = opt->full ? 256 : 128;
    m->gpt_ctx = opt->full ? 128 : 64;
    m->warmup[0] = opt->full ? 5 : 3, m->warmup[1] = opt->full ? 3 : 2;
    m->steps[0] = opt->full ? 30 : 10, m->steps[1] = opt->full ? 15 : 6;
}

/* Seconds each mode may spend on its timed steps once three are done. */
static double step_budget(const struct probe_options *opt) { return opt->smoke ? 2 : opt->full ? 20 : 3; }

void fw_row_params(const struct fw_state *s, struct probe_result *res, const char *framework, const char *version,
                   const char *mode, int model, const char *kind, int python, double first_loss, double first_step_s)
{
    const struct probe_fw_models *m = &s->run->frameworks.models;
    struct probe_params *p = &res->params;
    probe_params_init(p, PROBE_PP_FRAMEWORK);
    snprintf(p->framework, sizeof p->framework, "%s", framework);
    snprintf(p->mode, sizeof p->mode, "%s", mode);
    snprintf(p->kind, sizeof p->kind, "%s", kind ? kind : "");
    snprintf(p->version, sizeof p->version, "%s", version);
    p->model = model >= 0 ? (model ? 1 : 0) : -1;
    if (model >= 0) p->per_step = model ? (double)m->gpt_batch * m->gpt_ctx : m->mlp_batch;
    p->python = python >= 0 ? python : -1;
    p->loss = first_loss;
    if (model >= 0) p->engine_loss = s->engine_loss[model];
    p->first_step_s = first_step_s;
}

/* What one engine model did: timed steps (seconds) and the first step's loss. */
struct engine_steps {
    double secs[256];
    int n;
    float first;
    double first_s;
};

/* The engine's own timed loop (eng_train, eng_gpt_train) has run: the first step's loss and
 * time, and the steps after the warm-up. 0, or -1 with why (the loop's error, or "interrupted"
 * when the stop came before any timed step). */
static int collect_steps(int status, const char *err, int done, const float *losses, const double *secs, int warmup,
                         struct engine_steps *out, char *why, size_t whysz)
{
    out->n = 0;
    if (status != ENG_OK) {
        snprintf(why, whysz, "%s", err);
        return -1;
    }
    if (done > 0) out->first = losses[0], out->first_s = secs[0];
    for (int k = warmup; k < done && out->n < 256; k++) out->secs[out->n++] = secs[k];
    if (out->n > 0) return 0;
    snprintf(why, whysz, "interrupted");
    return -1;
}

static int write_npy(const char *dir, const char *name, enum eng_dtype dtype, int64_t rows, int64_t cols, void *data,
                     char *why, size_t whysz)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct eng_array a = {dtype, cols > 0 ? 2 : 1, {rows, cols > 0 ? cols : 0}, (size_t)rows * (size_t)(cols > 0 ? cols : 1), data};
    return eng_npy_save(path, &a, why, whysz) == ENG_OK ? 0 : -1;
}

/* The MLP on backend be: Adam, cross-entropy, seeded initialisation and data; step k trains on
 * rows kB..kB+B-1. With dir, its initial weights and every step's batch are written there
 * first. 0, or -1 with why. */
static int engine_mlp(struct fw_state *s, const struct eng_backend *be, const char *dir, struct engine_steps *out,
                      char *why, size_t whysz)
{
    const struct probe_fw_models *m = &s->run->frameworks.models;
    int warmup = m->warmup[0], steps = m->steps[0], B = m->mlp_batch, total = warmup + steps, status = -1;
    struct eng_config c;
    eng_config_defaults(&c);
    if (eng_parse_layers(&c, m->mlp_layers, why, whysz) != 0) return -1;
    c.batch = B;
    c.threads = s->threads;
    struct eng_model *model = NULL;
    struct eng_data d = {0};
    int in = c.sizes[0], classes = c.sizes[c.nsizes - 1];
    float *losses = malloc((size_t)total * sizeof *losses);
    double *secs = malloc((size_t)total * sizeof *secs);
    if (!losses || !secs) {
        snprintf(why, whysz, "out of memory");
        goto done;
    }
    if (eng_model_create(&c, be, &model, why, whysz) != ENG_OK) goto done;
    eng_model_init(model, 1);
    if (eng_data_synthetic(&d, total * B, in, classes, ENG_LOSS_CE, 1, why, whysz) != ENG_OK) goto done;
    if (dir) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/mlp.safetensors", dir);
        if (eng_st_save_model(path, model, why, whysz) != ENG_OK ||
            write_npy(dir, "mlp_x.npy", ENG_F32, (int64_t)total * B, in, d.x, why, whysz) ||
            write_npy(dir, "mlp_y.npy", ENG_I32, (int64_t)total * B, 0, d.labels, why, whysz))
            goto done;
    }
    struct eng_run run = {total, losses, secs, s->opt->stop};
    char err[256] = "";
    status = collect_steps(eng_train(model, &d, &run, NULL, NULL, err, sizeof err), err, run.steps, losses, secs, warmup,
                           out, why, whysz);
done:
    eng_data_free(&d);
    eng_model_free(model);
    free(losses);
    free(secs);
    return status;
}

/* The GPT on backend be: AdamW with clipping, nanoGPT's seeded initialisation, synthetic tokens;
 * step k's batch as eng_tokens_batch gathers it. With dir, its initial weights and every step's
 * inputs and targets are written there first. */
static int engine_gpt(struct fw_state *s, const struct eng_backend *be, const char *dir, struct engine_steps *out,
                      char *why, size_t whysz)
{
    const struct probe_fw_models *m = &s->run->frameworks.models;
    int warmup = m->warmup[1], steps = m->steps[1], B = m->gpt_batch, T = m->gpt_ctx, total = warmup + steps, status = -1;
    struct eng_gpt_config c;
    eng_gpt_config_defaults(&c);
    c.n_layer = m->gpt_layers, c.n_head = m->gpt_heads, c.n_embd = m->gpt_width, c.ctx = T, c.vocab = m->gpt_vocab;
    c.batch = B, c.threads = s->threads;
    struct eng_gpt *model = NULL;
    struct eng_tokens tokens = {0};
    size_t per = (size_t)B * T;
    /* every step's inputs and targets, written for the framework scripts (the engine's own loop
     * gathers the same batches from the tokens) */
    int32_t *xs = dir ? malloc(per * total * sizeof *xs) : NULL, *ys = dir ? malloc(per * total * sizeof *ys) : NULL;
    float *losses = malloc((size_t)total * sizeof *losses);
    double *secs = malloc((size_t)total * sizeof *secs);
    if ((dir && (!xs || !ys)) || !losses || !secs) {
        snprintf(why, whysz, "out of memory");
        goto done;
    }
    if (eng_tokens_synthetic(&tokens, per * 4 + 1, c.vocab, 1, why, whysz) != ENG_OK ||
        eng_gpt_create(&c, be, &model, why, whysz) != ENG_OK)
        goto done;
    eng_gpt_init(model, 1);
    if (dir) {
        for (int k = 0; k < total; k++) eng_tokens_batch(&tokens, k, B, T, xs + per * k, ys + per * k);
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/gpt.safetensors", dir);
        if (eng_gpt_save(path, model, why, whysz) != ENG_OK ||
            write_npy(dir, "gpt_x.npy", ENG_I32, (int64_t)total * B, T, xs, why, whysz) ||
            write_npy(dir, "gpt_y.npy", ENG_I32, (int64_t)total * B, T, ys, why, whysz))
            goto done;
    }
    struct eng_run run = {total, losses, secs, s->opt->stop};
    char err[256] = "";
    status = collect_steps(eng_gpt_train(model, &tokens, &run, NULL, NULL, err, sizeof err), err, run.steps, losses, secs,
                           warmup, out, why, whysz);
done:
    eng_gpt_free(model);
    eng_tokens_free(&tokens);
    free(xs);
    free(ys);
    free(losses);
    free(secs);
    return status;
}

static void engine_row(struct fw_state *s, int model, const char *device, const char *mode, const char *kind,
                       const struct engine_steps *st, int ok, const char *why)
{
    struct probe_result *res = probe_result_add(s->run, PROBE_WL_FRAMEWORKS, device, PROBE_M_STEP_MS, "ms");
    if (!res) return;
    fw_row_params(s, res, "engine", s->run->version, mode, model, kind, -1, ok ? st->first : NAN, ok ? st->first_s : NAN);
    if (!ok) {
        res->skipped = 1;
        snprintf(res->reason, sizeof res->reason, "%s", why);
        return;
    }
    double ms[256];
    for (int i = 0; i < st->n; i++) ms[i] = st->secs[i] * 1e3;
    probe_result_finish(res, ms, st->n);
}

/* spec.json: what fwharness.py reads (its docstring describes it). */
static int write_spec(struct fw_state *s, const int *have, char *why, size_t whysz)
{
    const struct probe_fw_models *m = &s->run->frameworks.models;
    const struct probe_options *o = s->opt;
    cJSON *spec = cJSON_CreateObject(), *models = cJSON_AddArrayToObject(spec, "models");
    cJSON_AddNumberToObject(spec, "threads", s->threads);
    cJSON_AddStringToObject(spec, "devices", o->cpu_only ? "cpu" : (o->gpu && !o->cpu) ? "accel" : "all");
    cJSON_AddNumberToObject(spec, "accelerator", o->gpu ? atoi(o->gpu_device + 5) : 0);
    cJSON *kinds = cJSON_AddArrayToObject(spec, "accelerators");
    for (int i = 0; i < s->run->hw.naccel && !o->cpu_only; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= strcmp(s->run->hw.accel[i].kind, s->run->hw.accel[j].kind) == 0;
        if (!seen) cJSON_AddItemToArray(kinds, cJSON_CreateString(s->run->hw.accel[i].kind));
    }
    for (int k = 0; k < 2; k++) {
        if (!have[k]) continue;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", k ? "gpt" : "mlp");
        cJSON_AddNumberToObject(e, "batch", k ? m->gpt_batch : m->mlp_batch);
        cJSON_AddNumberToObject(e, "warmup", m->warmup[k]);
        cJSON_AddNumberToObject(e, "steps", m->steps[k]);
        cJSON_AddNumberToObject(e, "budget_s", step_budget(o));
        cJSON_AddNumberToObject(e, "lr", 1e-3);
        cJSON_AddStringToObject(e, "optimizer", k ? "adamw" : "adam");
        cJSON_AddStringToObject(e, "weights", k ? "gpt.safetensors" : "mlp.safetensors");
        cJSON_AddStringToObject(e, "x", k ? "gpt_x.npy" : "mlp_x.npy");
        cJSON_AddStringToObject(e, "y", k ? "gpt_y.npy" : "mlp_y.npy");
        if (k) {
            cJSON_AddNumberToObject(e, "weight_decay", 0.01);
            cJSON_AddNumberToObject(e, "clip", 1.0);
            cJSON_AddNumberToObject(e, "n_layer", m->gpt_layers);
            cJSON_AddNumberToObject(e, "n_head", m->gpt_heads);
            cJSON_AddNumberToObject(e, "n_embd", m->gpt_width);
            cJSON_AddNumberToObject(e, "ctx", m->gpt_ctx);
            cJSON_AddNumberToObject(e, "vocab", m->gpt_vocab);
        }
        cJSON_AddItemToArray(models, e);
    }
    char *text = cJSON_Print(spec), path[PATH_MAX + 32];
    cJSON_Delete(spec);
    snprintf(path, sizeof path, "%s/spec.json", s->dir);
    struct file_chunk chunk = {text, text ? strlen(text) : 0};
    int status = text && file_write(path, &chunk, 1, why, whysz) == FILE_OK ? 0 : -1;
    if (!text) snprintf(why, whysz, "out of memory");
    free(text);
    return status;
}

int fw_engine(struct fw_state *s, char *why, size_t whysz)
{
    static const char *const models[2] = {"MLP", "GPT"};
    struct engine_steps *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(why, whysz, "out of memory");
        return -1;
    }
    int have[2] = {0, 0};
    const struct probe_options *o = s->opt;
    for (int k = 0; k < 2 && !fw_stopped(s); k++) {
        char err[256] = "";
        int ok = (k ? engine_gpt : engine_mlp)(s, eng_cpu_backend(), s->dir, st, err, sizeof err) == 0;
        if (ok) s->engine_loss[k] = st->first, have[k] = 1;
        else snprintf(s->engine_why, sizeof s->engine_why, "the engine's %s: %.200s", models[k], err);
        /* on the CPU unless the run is for the GPU alone (--device cuda) */
        if (o->cpu || !o->gpu) engine_row(s, k, o->device, "openblas", "cpu", st, ok, err);
    }
    if (o->gpu && !fw_stopped(s)) {
        struct eng_cuda_device info;
        char open_err[256] = "";
        int opened = o->gpu->open(atoi(o->gpu_device + 5), ENG_PREC_FP32, &info, open_err, sizeof open_err) == 0;
        for (int k = 0; k < 2 && !fw_stopped(s); k++) {
            char err[256];
            snprintf(err, sizeof err, "%s", opened ? "" : open_err);
            int ok = opened && have[k] && (k ? engine_gpt : engine_mlp)(s, o->gpu->backend, NULL, st, err, sizeof err) == 0;
            if (ok && o->gpu->last_error()) ok = 0, snprintf(err, sizeof err, "%s", o->gpu->last_error());
            if (!have[k] && !err[0]) snprintf(err, sizeof err, "%s", s->engine_why);
            engine_row(s, k, o->gpu_device, "cuda", "nvidia", st, ok, err);
        }
    }
    free(st);
    if (!have[0] && !have[1]) {
        snprintf(why, whysz, "%s", s->engine_why[0] ? s->engine_why : "interrupted");
        return -1;
    }
    return write_spec(s, have, why, whysz);
}
