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
        cJSON *params = cJSON_Parse(r->params);
        cJSON_AddItemToObject(o, "params", params ? params : cJSON_CreateObject());
        add_nullable(o, "peak_fraction", round(r->peak_fraction * 1e4) / 1e4, ok && r->peak_fraction >= 0);
        cJSON_AddItemToArray(results, o);
    }
    return doc;
}

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
        if (strcmp(r->workload, "gemm") == 0) {
            if (strstr(r->params, "\"fp32\"")) peak = a->peak_fp32_tflops * 1e3;
            else if (strstr(r->params, "\"bf16\"")) peak = a->peak_bf16_tflops * 1e3;
            else if (strstr(r->params, "\"fp16\"")) peak = a->peak_fp16_tflops * 1e3;
        } else if (strcmp(r->metric, "copy_gbs") == 0) {
            peak = a->peak_bandwidth_gbs;
        } else if (strcmp(r->workload, "train-mlp") == 0 && strcmp(r->metric, "gflops") == 0) {
            peak = (strstr(r->params, "\"bf16\"") ? a->peak_bf16_tflops : a->peak_fp32_tflops) * 1e3;
        }
        if (peak > 0) r->peak_fraction = r->stats.median / peak;
    }
    /* samples/s of train-mlp share the fraction of its GFLOP/s */
    for (int i = 0; i < run->nresults; i++) {
        struct probe_result *r = &run->results[i];
        if (strcmp(r->workload, "train-mlp") || strcmp(r->metric, "samples_per_s") || strncmp(r->device, "cuda", 4)) continue;
        for (int j = 0; j < run->nresults; j++)
            if (!strcmp(run->results[j].workload, "train-mlp") && !strcmp(run->results[j].metric, "gflops") &&
                !strcmp(run->results[j].device, r->device))
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
