/* The fwadvisor.probe/1 document of a run (docs/probe.md, docs/probe.schema.json), and storing it. */
#include "probes/probe.h"
#include "common/file.h"
#include "knowledge/probe_store.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void add_nullable(cJSON *o, const char *key, double v, int present)
{
    if (present && isfinite(v)) cJSON_AddNumberToObject(o, key, v);
    else cJSON_AddNullToObject(o, key);
}

static double round_sig(double v)
{
    if (v == 0 || !isfinite(v)) return v;
    double scale = pow(10, 5 - (int)floor(log10(fabs(v))));
    return round(v * scale) / scale; /* six significant digits: measurements are not more precise */
}

/* The frameworks workload's findings: the models every framework trained, and per interpreter
 * what it has (the rows themselves are results of workload "frameworks"). */
static void add_frameworks(cJSON *doc, const struct probe_fw_info *fw)
{
    cJSON *o = cJSON_AddObjectToObject(doc, "frameworks");
    const struct probe_fw_models *m = &fw->models;
    cJSON *models = cJSON_AddObjectToObject(o, "models");
    cJSON *mlp = cJSON_AddObjectToObject(models, "mlp"), *gpt = cJSON_AddObjectToObject(models, "gpt");
    cJSON_AddStringToObject(mlp, "layers", m->mlp_layers);
    cJSON_AddNumberToObject(mlp, "batch", m->mlp_batch);
    cJSON_AddStringToObject(mlp, "optimizer", "adam");
    cJSON_AddNumberToObject(gpt, "n_layer", m->gpt_layers);
    cJSON_AddNumberToObject(gpt, "n_head", m->gpt_heads);
    cJSON_AddNumberToObject(gpt, "n_embd", m->gpt_width);
    cJSON_AddNumberToObject(gpt, "ctx", m->gpt_ctx);
    cJSON_AddNumberToObject(gpt, "vocab", m->gpt_vocab);
    cJSON_AddNumberToObject(gpt, "batch", m->gpt_batch);
    cJSON_AddStringToObject(gpt, "optimizer", "adamw");
    for (int k = 0; k < 2; k++) {
        cJSON_AddNumberToObject(k ? gpt : mlp, "warmup", m->warmup[k]);
        cJSON_AddNumberToObject(k ? gpt : mlp, "steps", m->steps[k]);
    }
    cJSON *pys = cJSON_AddArrayToObject(o, "interpreters");
    for (int i = 0; i < fw->npythons; i++) {
        const struct probe_fw_python *p = &fw->python[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "path", p->path);
        cJSON_AddStringToObject(e, "version", p->version);
        cJSON_AddStringToObject(e, "prefix", p->prefix);
        if (p->error[0]) cJSON_AddStringToObject(e, "error", p->error);
        cJSON *found = cJSON_AddArrayToObject(e, "frameworks");
        for (int j = 0; j < p->nfound; j++) {
            cJSON *f = cJSON_CreateObject();
            cJSON_AddStringToObject(f, "id", p->found[j].id);
            cJSON_AddStringToObject(f, "version", p->found[j].version);
            cJSON_AddStringToObject(f, "devices", p->found[j].devices);
            if (p->found[j].note[0]) cJSON_AddStringToObject(f, "note", p->found[j].note);
            cJSON_AddItemToArray(found, f);
        }
        cJSON_AddItemToArray(pys, e);
    }
}

/* A measure as it is stored: printed with fmt ("%.4g", "%.2f") and read back, so the document
 * keeps no more digits than the measurement has. */
static double as_printed(double v, const char *fmt)
{
    char text[64];
    snprintf(text, sizeof text, fmt, v);
    return strtod(text, NULL);
}

static void add_dtype(cJSON *o, const char *key, enum probe_dtype d)
{
    if (d != PROBE_DTYPE_NONE) cJSON_AddStringToObject(o, key, probe_dtype_name(d));
}

static void add_count(cJSON *o, const char *key, double v, int given)
{
    if (given) cJSON_AddNumberToObject(o, key, v);
}

/* The keys of the workloads measured on the engine alone (gemm to train-gpt). */
static void add_engine_params(cJSON *o, const struct probe_params *p)
{
    switch (p->shape) {
    case PROBE_PP_GEMM:
        cJSON_AddNumberToObject(o, "n", p->n);
        add_count(o, "threads", p->threads, p->threads > 0);
        add_dtype(o, "dtype", p->dtype);
        break;
    case PROBE_PP_STREAM:
        cJSON_AddNumberToObject(o, "array_bytes", (double)p->array_bytes);
        cJSON_AddNumberToObject(o, "threads", p->threads);
        cJSON_AddNumberToObject(o, "ntimes", p->ntimes);
        cJSON_AddNumberToObject(o, "bytes_per_element", as_printed(p->bytes_per_element, "%g"));
        break;
    case PROBE_PP_DEVICE_COPY:
        cJSON_AddNumberToObject(o, "bytes", (double)p->bytes);
        cJSON_AddStringToObject(o, "counted", "read + written");
        break;
    case PROBE_PP_TRANSFER:
        cJSON_AddNumberToObject(o, "bytes", (double)p->bytes);
        if (p->pinned != PROBE_TRI_UNSET) cJSON_AddBoolToObject(o, "pinned", p->pinned == PROBE_TRI_YES);
        break;
    case PROBE_PP_MLP:
        cJSON_AddStringToObject(o, "layers", p->layers);
        cJSON_AddNumberToObject(o, "batch", p->batch);
        cJSON_AddStringToObject(o, "optimizer", p->optimizer);
        add_count(o, "threads", p->threads, p->threads > 0);
        add_dtype(o, "precision", p->dtype);
        break;
    case PROBE_PP_GPT:
    case PROBE_PP_PLAN: {
        static const char *const keys[] = {"n_layer", "n_head", "n_embd", "ctx", "vocab", "batch"};
        const int shape[] = {p->n_layer, p->n_head, p->n_embd, p->ctx, p->vocab, p->batch};
        for (int i = 0; i < 6; i++) cJSON_AddNumberToObject(o, keys[i], shape[i]);
        add_dtype(o, "precision", p->dtype);
        if (p->shape == PROBE_PP_GPT) break;
        static const char *const plan[] = {"planned_ms", "gemm_ms", "memory_ms", "gemm_gflops", "bandwidth_gbs"};
        const double v[] = {p->planned_ms, p->gemm_ms, p->memory_ms, p->gemm_gflops, p->bandwidth_gbs};
        for (int i = 0; i < 5; i++) cJSON_AddNumberToObject(o, plan[i], as_printed(v[i], "%.4g"));
        cJSON_AddStringToObject(o, "bandwidth_source", p->bandwidth_source);
        break;
    }
    case PROBE_PP_PEAK:
        cJSON_AddNumberToObject(o, "peak_tflops", as_printed(p->peak_tflops, "%.4g"));
        cJSON_AddStringToObject(o, "peak_source", p->peak_source);
        if (p->peak_kind != PROBE_PEAK_UNKNOWN) cJSON_AddStringToObject(o, "peak_kind", probe_peak_kind_name(p->peak_kind));
        break;
    default: break;
    }
}

/* The keys of the workloads over ranks and of the frameworks. */
static void add_other_params(cJSON *o, const struct probe_params *p)
{
    switch (p->shape) {
    case PROBE_PP_ALLREDUCE:
        cJSON_AddNumberToObject(o, "bytes", (double)p->bytes);
        cJSON_AddNumberToObject(o, "ranks", p->ranks);
        add_dtype(o, "dtype", p->dtype);
        cJSON_AddStringToObject(o, "op", "sum");
        cJSON_AddNumberToObject(o, "time_us", as_printed(p->time_us, "%.2f"));
        cJSON_AddNumberToObject(o, "algbw_gbs", as_printed(p->algbw_gbs, "%.4g"));
        cJSON_AddNumberToObject(o, "wrong", (double)p->wrong);
        cJSON_AddStringToObject(o, "via", p->via);
        break;
    case PROBE_PP_DATA_PARALLEL:
        cJSON_AddStringToObject(o, "layers", p->layers);
        cJSON_AddNumberToObject(o, "batch_per_rank", p->batch);
        cJSON_AddNumberToObject(o, "ranks", p->ranks);
        cJSON_AddNumberToObject(o, "threads_per_rank", p->threads);
        cJSON_AddStringToObject(o, "optimizer", p->optimizer);
        break;
    case PROBE_PP_FRAMEWORK:
        cJSON_AddStringToObject(o, "framework", p->framework);
        cJSON_AddStringToObject(o, "mode", p->mode);
        if (p->model >= 0) {
            cJSON_AddStringToObject(o, "model", p->model ? "gpt" : "mlp");
            cJSON_AddNumberToObject(o, "per_step", p->per_step);
            cJSON_AddStringToObject(o, "per_step_unit", p->model ? "tokens" : "samples");
        }
        if (p->kind[0]) cJSON_AddStringToObject(o, "kind", p->kind);
        add_count(o, "python", p->python, p->python >= 0);
        add_count(o, "loss", p->loss, isfinite(p->loss));
        add_count(o, "engine_loss", p->engine_loss, isfinite(p->engine_loss));
        add_count(o, "first_step_s", round(p->first_step_s * 1e4) / 1e4, isfinite(p->first_step_s));
        cJSON_AddStringToObject(o, "version", p->version);
        break;
    default: add_engine_params(o, p); break;
    }
}

cJSON *probe_params_to_json(const struct probe_params *p)
{
    cJSON *o = cJSON_CreateObject();
    if (o) add_other_params(o, p);
    return o;
}

cJSON *probe_run_to_json(const struct probe_run *run)
{
    const struct probe_hw *hw = &run->hw;
    const struct probe_cpu *c = &hw->cpu;
    cJSON *doc = cJSON_CreateObject();
    if (!doc) return NULL;
    cJSON_AddStringToObject(doc, "schema", PROBE_SCHEMA);
    cJSON_AddStringToObject(doc, "id", run->id);
    cJSON_AddStringToObject(doc, "started_at", run->started_at);
    cJSON_AddNumberToObject(doc, "duration_s", round(run->duration_s * 100) / 100);
    cJSON_AddStringToObject(doc, "version", run->version);
    cJSON_AddBoolToObject(doc, "interrupted", run->interrupted);
    if (run->ranks.count > 0) {
        /* a run under MPI: the rank count, the hosts, and each rank's train-dp figures */
        cJSON *rk = cJSON_AddObjectToObject(doc, "ranks");
        cJSON_AddNumberToObject(rk, "count", run->ranks.count);
        cJSON_AddStringToObject(rk, "mpi", run->ranks.mpi);
        cJSON *hosts = cJSON_AddArrayToObject(rk, "hosts");
        cJSON *per = cJSON_AddArrayToObject(rk, "per_rank");
        for (int i = 0; i < run->ranks.listed; i++) {
            const struct probe_rank *pr = &run->ranks.rank[i];
            int seen = 0;
            for (int j = 0; j < i; j++) seen |= strcmp(run->ranks.rank[j].host, pr->host) == 0;
            if (!seen) cJSON_AddItemToArray(hosts, cJSON_CreateString(pr->host));
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "rank", pr->rank);
            cJSON_AddStringToObject(o, "host", pr->host);
            add_nullable(o, "compute_ms", round(pr->compute_ms * 1e3) / 1e3, pr->compute_ms >= 0);
            add_nullable(o, "comm_ms", round(pr->comm_ms * 1e3) / 1e3, pr->comm_ms >= 0);
            add_nullable(o, "samples_per_s", round(pr->samples_per_s * 10) / 10, pr->samples_per_s >= 0);
            cJSON_AddItemToArray(per, o);
        }
    }
    cJSON *host = cJSON_AddObjectToObject(doc, "host");
    cJSON_AddStringToObject(host, "os", hw->os);
    cJSON_AddStringToObject(host, "kernel", hw->kernel);
    cJSON_AddStringToObject(host, "arch", hw->arch);
    cJSON *cpu = cJSON_AddObjectToObject(doc, "cpu");
    cJSON_AddStringToObject(cpu, "vendor", c->vendor);
    cJSON_AddStringToObject(cpu, "model", c->model);
    cJSON_AddStringToObject(cpu, "microarchitecture", c->microarch);
    add_nullable(cpu, "family", c->family, c->family >= 0);
    add_nullable(cpu, "model_number", c->model_number, c->model_number >= 0);
    cJSON_AddNumberToObject(cpu, "packages", c->packages);
    cJSON_AddNumberToObject(cpu, "cores", c->cores);
    cJSON_AddNumberToObject(cpu, "threads", c->threads);
    cJSON_AddNumberToObject(cpu, "numa_nodes", c->numa_nodes);
    add_nullable(cpu, "max_mhz", round(c->max_mhz), c->max_mhz > 0);
    cJSON_AddStringToObject(cpu, "max_mhz_source", c->mhz_source);
    cJSON *simd = cJSON_AddArrayToObject(cpu, "simd");
    for (int i = 0; i < c->nsimd; i++) cJSON_AddItemToArray(simd, cJSON_CreateString(c->simd[i]));
    cJSON *caches = cJSON_AddObjectToObject(cpu, "caches");
    cJSON_AddNumberToObject(caches, "l1d_bytes", (double)c->l1d_bytes);
    cJSON_AddNumberToObject(caches, "l2_bytes", (double)c->l2_bytes);
    cJSON_AddNumberToObject(caches, "l3_bytes", (double)c->l3_bytes);
    cJSON_AddNumberToObject(cpu, "memory_bytes", (double)c->memory_bytes);
    add_nullable(cpu, "flops_per_cycle", c->flops_per_cycle, c->flops_per_cycle > 0);
    add_nullable(cpu, "peak_gflops_fp32", round_sig(c->peak_gflops), c->peak_gflops > 0);
    add_nullable(cpu, "peak_gflops_bf16", round_sig(c->peak_gflops_bf16), c->peak_gflops_bf16 > 0);
    cJSON_AddBoolToObject(cpu, "peak_estimated", c->peak_estimated);
    cJSON_AddStringToObject(cpu, "peak_note", c->peak_note);
    cJSON *acc = cJSON_AddArrayToObject(doc, "accelerators");
    for (int i = 0; i < hw->naccel; i++) {
        const struct probe_accel *a = &hw->accel[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", a->kind);
        cJSON_AddStringToObject(o, "name", a->name);
        cJSON_AddNumberToObject(o, "count", a->count);
        add_nullable(o, "memory_bytes", (double)a->memory_bytes, a->memory_bytes > 0);
        cJSON_AddStringToObject(o, "compute_capability", a->compute_capability);
        cJSON_AddStringToObject(o, "driver", a->driver);
        add_nullable(o, "sm_count", a->sm_count, a->sm_count > 0);
        add_nullable(o, "max_clock_mhz", a->max_clock_mhz, a->max_clock_mhz > 0);
        cJSON_AddStringToObject(o, "note", a->note);
        if (a->catalog_id[0]) {
            cJSON *cat = cJSON_AddObjectToObject(o, "catalog");
            cJSON_AddStringToObject(cat, "id", a->catalog_id);
            cJSON_AddNumberToObject(cat, "fp32_tflops", a->peak_fp32_tflops);
            cJSON_AddNumberToObject(cat, "bf16_tflops", a->peak_bf16_tflops);
            cJSON_AddNumberToObject(cat, "fp16_tflops", a->peak_fp16_tflops);
            cJSON_AddNumberToObject(cat, "bandwidth_gbs", a->peak_bandwidth_gbs);
        } else {
            cJSON_AddNullToObject(o, "catalog");
        }
        cJSON_AddItemToArray(acc, o);
    }
    if (run->frameworks.ran) add_frameworks(doc, &run->frameworks);
    cJSON *results = cJSON_AddArrayToObject(doc, "results");
    for (int i = 0; i < run->nresults; i++) {
        const struct probe_result *r = &run->results[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "workload", r->workload);
        cJSON_AddStringToObject(o, "device", r->device);
        cJSON_AddStringToObject(o, "metric", r->metric);
        cJSON_AddStringToObject(o, "unit", r->unit);
        cJSON_AddStringToObject(o, "status", r->skipped ? "skipped" : "ok");
        if (r->skipped) cJSON_AddStringToObject(o, "reason", r->reason);
        int ok = !r->skipped && r->stats.n > 0;
        add_nullable(o, "median", round_sig(r->stats.median), ok);
        add_nullable(o, "min", round_sig(r->stats.min), ok);
        add_nullable(o, "max", round_sig(r->stats.max), ok);
        cJSON_AddNumberToObject(o, "repeats", ok ? r->stats.n : 0);
        add_nullable(o, "cv", round(r->stats.cv * 1e4) / 1e4, ok);
        cJSON_AddBoolToObject(o, "noisy", ok && r->noisy);
        cJSON *params = probe_params_to_json(&r->params);
        cJSON_AddItemToObject(o, "params", params ? params : cJSON_CreateObject());
        add_nullable(o, "peak_fraction", round(r->peak_fraction * 1e4) / 1e4, ok && r->peak_fraction >= 0);
        cJSON_AddItemToArray(results, o);
    }
    return doc;
}

/* The catalog's peak for a GEMM of dtype, in GFLOP/s; 0 where it has none (tf32). */
static double dtype_peak_gflops(const struct probe_accel *a, enum probe_dtype d)
{
    switch (d) {
    case PROBE_DTYPE_FP32: return a->peak_fp32_tflops * 1e3;
    case PROBE_DTYPE_BF16: return a->peak_bf16_tflops * 1e3;
    case PROBE_DTYPE_FP16: return a->peak_fp16_tflops * 1e3;
    default: return 0;
    }
}

static int is(const char *name, const char *want) { return strcmp(name, want) == 0; }

void probe_apply_catalog(struct probe_run *run)
{
    const struct probe_accel *a = NULL;
    for (int i = 0; i < run->hw.naccel; i++)
        if (strcmp(run->hw.accel[i].kind, "nvidia") == 0 && run->hw.accel[i].catalog_id[0]) a = &run->hw.accel[i];
    if (!a) return;
    for (int i = 0; i < run->nresults; i++) {
        struct probe_result *r = &run->results[i];
        if (r->skipped || strncmp(r->device, "cuda", 4) != 0) continue;
        double peak = 0; /* in the metric's unit */
        if (is(r->workload, PROBE_WL_GEMM)) peak = dtype_peak_gflops(a, r->params.dtype);
        else if (is(r->metric, PROBE_M_COPY_GBS)) peak = a->peak_bandwidth_gbs;
        else if (is(r->workload, PROBE_WL_TRAIN_MLP) && is(r->metric, PROBE_M_GFLOPS))
            peak = dtype_peak_gflops(a, r->params.dtype == PROBE_DTYPE_BF16 ? PROBE_DTYPE_BF16 : PROBE_DTYPE_FP32);
        if (peak > 0) r->peak_fraction = r->stats.median / peak;
    }
    /* samples/s of train-mlp share the fraction of its GFLOP/s */
    for (int i = 0; i < run->nresults; i++) {
        struct probe_result *r = &run->results[i];
        if (!is(r->workload, PROBE_WL_TRAIN_MLP) || !is(r->metric, PROBE_M_SAMPLES_PER_S) || strncmp(r->device, "cuda", 4))
            continue;
        for (int j = 0; j < run->nresults; j++)
            if (is(run->results[j].workload, PROBE_WL_TRAIN_MLP) && is(run->results[j].metric, PROBE_M_GFLOPS) &&
                is(run->results[j].device, r->device))
                r->peak_fraction = run->results[j].peak_fraction;
    }
}

int probe_run_store(kb *k, cJSON *doc, char *where, size_t wheresz, char *err, size_t errsz)
{
    where[0] = '\0';
    if (k && kb_probe_save(k, doc, err, errsz) == KB_OK) return 0;
    if (!k) snprintf(err, errsz, "no knowledge base to store the run in");
    char *text = cJSON_Print(doc);
    if (!text) return -1;
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(doc, "id");
    char dirs[3][PATH_MAX];
    int ndirs = 0;
    if (k) { /* beside the database first */
        snprintf(dirs[ndirs], sizeof dirs[0], "%s", kb_path(k));
        char *slash = strrchr(dirs[ndirs], '/');
        if (slash) *slash = '\0', ndirs++;
    }
    if (getcwd(dirs[ndirs], sizeof dirs[0])) ndirs++; /* printed in full, so it can be found */
    const char *tmp = getenv("TMPDIR");
    snprintf(dirs[ndirs++], sizeof dirs[0], "%s", tmp && *tmp ? tmp : "/tmp");
    /* An unpredictable name made with O_EXCL: nothing planted in a shared folder is followed. */
    char prefix[96];
    snprintf(prefix, sizeof prefix, "probe-run-%.60s-", cJSON_IsString(id) ? id->valuestring : "unnamed");
    for (char *p = prefix; *p; p++)
        if (*p == '/') *p = '_';
    int status = -1;
    for (int i = 0; i < ndirs && status != 0; i++) {
        char why[PATH_MAX + 128];
        struct file_chunk chunk = {text, strlen(text)};
        status = file_write_unique(dirs[i], prefix, ".json", &chunk, 1, where, wheresz, why, sizeof why) == FILE_OK
                     ? 0
                     : -1;
    }
    if (status) where[0] = '\0';
    free(text);
    return status ? -1 : 1;
}
