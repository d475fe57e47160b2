/* The fwadvisor.probe/1 document of a run (DESIGN.md, docs/probe.schema.json). */
#include "probes/probe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
        cJSON_AddItemToArray(acc, o);
    }
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
