#include "probes/advisor_hw.h"
#include "knowledge/probe_store.h"
#include "probes/advisor_fw.h"
#include "probes/quick.h"

#include <stdio.h>
#include <string.h>

/* Hardware facts from a stored probe run: the first accelerator it found, else the CPU, with
 * the measured sgemm peak as the CPU's peak. */
/* The data-parallel efficiency of a run made under MPI, if it has one. */
static void dp_from_run(const cJSON *doc, struct adv_hw *hw)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(doc, "id"), *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(r, "workload"), *m = cJSON_GetObjectItemCaseSensitive(r, "metric");
        const cJSON *med = cJSON_GetObjectItemCaseSensitive(r, "median"), *st = cJSON_GetObjectItemCaseSensitive(r, "status");
        if (!cJSON_IsString(w) || strcmp(w->valuestring, "train-dp") || !cJSON_IsString(m) ||
            strcmp(m->valuestring, "scaling_efficiency") || !cJSON_IsNumber(med) || !cJSON_IsString(st) ||
            strcmp(st->valuestring, "ok"))
            continue;
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "params"), "ranks");
        hw->dp_efficiency = med->valuedouble;
        hw->dp_ranks = cJSON_IsNumber(n) ? (int)n->valuedouble : 0;
        snprintf(hw->dp_source, sizeof hw->dp_source, "probe run %s: train-dp over %d ranks",
                 cJSON_IsString(id) ? id->valuestring : "?", hw->dp_ranks);
    }
}

void probe_hw_from_run(const cJSON *doc, struct adv_hw *hw)
{
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(doc, "cpu");
    const cJSON *acc = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "accelerators"), 0);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(doc, "id");
    const char *run = cJSON_IsString(id) ? id->valuestring : "?";
    memset(hw, 0, sizeof *hw);
    snprintf(hw->source, sizeof hw->source, "probe");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cpu, "cores");
    hw->cpu_threads = cJSON_IsNumber(v) ? (int)v->valuedouble : 1;
    v = cJSON_GetObjectItemCaseSensitive(cpu, "memory_bytes");
    hw->host_memory_gb = cJSON_IsNumber(v) ? v->valuedouble / 1e9 : 0;
    if (acc) {
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(acc, "kind"), *name = cJSON_GetObjectItemCaseSensitive(acc, "name");
        snprintf(hw->kind, sizeof hw->kind, "%s", cJSON_IsString(kind) ? kind->valuestring : "cpu");
        snprintf(hw->name, sizeof hw->name, "%s", cJSON_IsString(name) ? name->valuestring : "");
        v = cJSON_GetObjectItemCaseSensitive(acc, "count");
        hw->count = cJSON_IsNumber(v) ? (int)v->valuedouble : 1;
        v = cJSON_GetObjectItemCaseSensitive(acc, "memory_bytes");
        hw->memory_gb = cJSON_IsNumber(v) ? v->valuedouble / 1e9 : 0;
        snprintf(hw->evidence, sizeof hw->evidence, "probe run %s", run);
        return;
    }
    snprintf(hw->kind, sizeof hw->kind, "cpu");
    v = cJSON_GetObjectItemCaseSensitive(cpu, "model");
    snprintf(hw->name, sizeof hw->name, "%s", cJSON_IsString(v) ? v->valuestring : "");
    snprintf(hw->evidence, sizeof hw->evidence, "probe run %s", run);
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(r, "workload"), *m = cJSON_GetObjectItemCaseSensitive(r, "metric");
        const cJSON *med = cJSON_GetObjectItemCaseSensitive(r, "median");
        if (!cJSON_IsString(w) || strcmp(w->valuestring, "gemm") || !cJSON_IsString(m) || strcmp(m->valuestring, "gflops_best") ||
            !cJSON_IsNumber(med))
            continue;
        hw->peak_tflops = med->valuedouble / 1e3;
        snprintf(hw->peak_source, sizeof hw->peak_source, "probe %s: sgemm best %.0f GFLOP/s", run, med->valuedouble);
    }
}

int probe_advisor_hardware(kb *k, const char *probe, int cpu_model, struct adv_hw *hw, char *err, size_t errsz)
{
    cJSON *doc = NULL;
    if (strcmp(probe, "none") != 0) {
        int status = kb_probe_get(k, probe, &doc, err, errsz);
        if (status != KB_OK) return status;
    }
    if (doc) {
        probe_hw_from_run(doc, hw);
        dp_from_run(doc, hw);
        cJSON_Delete(doc);
        /* "latest": the newest run made under MPI supplies the scaling, if the newest run was not */
        cJSON *rows = NULL, *row;
        if (!hw->dp_ranks && strcmp(probe, "latest") == 0 && kb_probe_list(k, &rows, err, errsz) == KB_OK) {
            cJSON_ArrayForEach(row, rows) {
                const cJSON *rid = cJSON_GetObjectItemCaseSensitive(row, "id");
                cJSON *older = NULL;
                if (!cJSON_IsString(rid) || kb_probe_get(k, rid->valuestring, &older, err, errsz) != KB_OK) continue;
                dp_from_run(older, hw);
                cJSON_Delete(older);
                if (hw->dp_ranks) break;
            }
        }
        cJSON_Delete(rows);
        probe_fw_speeds_find(k, probe, &hw->fw_speeds); /* the frameworks measured (advisor_fw.c) */
        return KB_OK;
    }
    struct quick_hw q;
    quick_detect(&q, cpu_model);
    memset(hw, 0, sizeof *hw);
    snprintf(hw->source, sizeof hw->source, "detected");
    snprintf(hw->kind, sizeof hw->kind, "%s", q.kind);
    snprintf(hw->name, sizeof hw->name, "%s", q.name);
    snprintf(hw->evidence, sizeof hw->evidence, "quick detection: %s", q.evidence);
    hw->count = q.count;
    hw->cpu_threads = q.cpu_threads;
    hw->host_memory_gb = q.host_memory_gb;
    return KB_OK;
}
