#include "probes/advisor_hw.h"
#include "common/json_doc.h"
#include "knowledge/probe_store.h"
#include "probes/advisor_fw.h"
#include "probes/quick.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* How many stored runs are looked at, newest first: enough for any real history, few enough to
 * keep `recommend` fast. */
#define MATCH_MAX_RUNS 24

/* --- what a stored run holds ----------------------------------------------------------------- */

/* A result the plan may use: measured, with a finite median (a run written by hand or by another
 * tool may lack one or hold 1e999). */
static int ok(const cJSON *r) { return strcmp(json_str(r, "status"), "ok") == 0 && isfinite(json_num(r, "median")); }

/* The device kind a result was measured on: "cpu" or the kind of the run's first accelerator. */
static const char *result_kind(const cJSON *doc, const cJSON *r)
{
    if (strncmp(json_str(r, "device"), "cuda", 4) != 0) return "cpu";
    const cJSON *acc = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "accelerators"), 0);
    return acc ? json_str(acc, "kind") : "nvidia";
}

static int device_results(const cJSON *doc, const char *kind)
{
    int n = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        const char *w = json_str(r, "workload");
        if (ok(r) && strcmp(w, "allreduce") != 0 && strcmp(w, "train-dp") != 0 && strcmp(w, "frameworks") != 0 &&
            strcmp(result_kind(doc, r), kind) == 0)
            n++;
    }
    return n;
}

/* The largest median of ok results of workload/metric on kind (params dtype when given). */
static double best(const cJSON *doc, const char *kind, const char *workload, const char *metric, const char *dtype,
                   const cJSON **row)
{
    double v = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        if (!ok(r) || strcmp(json_str(r, "workload"), workload) || strcmp(json_str(r, "metric"), metric) ||
            strcmp(result_kind(doc, r), kind))
            continue;
        if (dtype && strcmp(json_str(cJSON_GetObjectItemCaseSensitive(r, "params"), "dtype"), dtype) != 0) continue;
        double m = json_num(r, "median");
        if (m > v) {
            v = m;
            if (row) *row = r;
        }
    }
    return v;
}

/* --- filling the facts ----------------------------------------------------------------------- */

static void figure(struct adv_hw *hw, const char *name, double value, const char *unit, const char *run,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void figure(struct adv_hw *hw, const char *name, double value, const char *unit, const char *run, const char *fmt,
                   ...)
{
    if (hw->nmeasured == ADV_MAX_MEASURED) return;
    struct adv_measured *m = &hw->measured[hw->nmeasured++];
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->unit, sizeof m->unit, "%s", unit);
    snprintf(m->run, sizeof m->run, "%s", run);
    m->value = value;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->note, sizeof m->note, fmt, ap);
    va_end(ap);
}

static void skipped(struct adv_hw *hw, const char *run, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void skipped(struct adv_hw *hw, const char *run, const char *fmt, ...)
{
    if (hw->nskipped == ADV_MAX_SKIPPED) return;
    snprintf(hw->skipped[hw->nskipped].run, sizeof hw->skipped[0].run, "%s", run);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(hw->skipped[hw->nskipped].why, sizeof hw->skipped[0].why, fmt, ap);
    va_end(ap);
    hw->nskipped++;
}

/* The machine facts of a run: its first accelerator, else its CPU. */
static void machine_from_run(const cJSON *doc, struct adv_hw *hw)
{
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(doc, "cpu");
    const cJSON *acc = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "accelerators"), 0);
    const char *run = json_str(doc, "id");
    snprintf(hw->source, sizeof hw->source, "probe");
    hw->cpu_threads = json_num(cpu, "cores") > 0 ? (int)json_num(cpu, "cores") : 1;
    hw->host_memory_gb = json_num(cpu, "memory_bytes") > 0 ? json_num(cpu, "memory_bytes") / 1e9 : 0;
    snprintf(hw->evidence, sizeof hw->evidence, "probe run %s", run);
    if (acc) {
        snprintf(hw->kind, sizeof hw->kind, "%s", *json_str(acc, "kind") ? json_str(acc, "kind") : "cpu");
        snprintf(hw->name, sizeof hw->name, "%s", json_str(acc, "name"));
        snprintf(hw->catalog_id, sizeof hw->catalog_id, "%s", json_str(acc, "catalog_id"));
        hw->count = json_num(acc, "count") > 0 ? (int)json_num(acc, "count") : 1;
        hw->memory_gb = json_num(acc, "memory_bytes") > 0 ? json_num(acc, "memory_bytes") / 1e9 : 0;
    } else {
        snprintf(hw->kind, sizeof hw->kind, "cpu");
        snprintf(hw->name, sizeof hw->name, "%s", json_str(cpu, "model"));
    }
}

/* The per-device figures of a run measured on `kind`: the GEMM peak (bf16 on an accelerator,
 * fp32 on a CPU), the memory bandwidth, the host-device bandwidth and a training step's MFU. */
static void device_figures(const cJSON *doc, const char *kind, struct adv_hw *hw)
{
    const char *run = json_str(doc, "id");
    int cpu = strcmp(kind, "cpu") == 0;
    const cJSON *row = NULL;
    double peak = cpu ? best(doc, kind, "gemm", "gflops_best", NULL, &row) : best(doc, kind, "gemm", "gflops", "bf16", &row);
    if (peak <= 0 && !cpu) peak = best(doc, kind, "gemm", "gflops", "fp16", &row);
    if (peak > 0) {
        hw->peak_tflops = peak / 1e3;
        snprintf(hw->peak_source, sizeof hw->peak_source, "probe %s: %s GEMM best %.0f GFLOP/s", run, cpu ? "sgemm" : "bf16",
                 peak);
        figure(hw, "gemm_peak", peak / 1e3, "TFLOP/s", run, "%s GEMM, best size (n=%.0f)", cpu ? "fp32" : "bf16",
               json_num(cJSON_GetObjectItemCaseSensitive(row, "params"), "n"));
    }
    double bw = cpu ? best(doc, kind, "stream", "triad_gbs", NULL, NULL) : best(doc, kind, "stream", "copy_gbs", NULL, NULL);
    if (bw > 0) {
        hw->memory_bandwidth_gbs = bw;
        snprintf(hw->bandwidth_source, sizeof hw->bandwidth_source, "probe %s: %s %.0f GB/s", run,
                 cpu ? "STREAM triad" : "device copy", bw);
        figure(hw, "memory_bandwidth", bw, "GB/s", run, "%s", cpu ? "STREAM triad" : "device copy (read + written)");
    }
    double h2d = best(doc, kind, "transfer", "h2d_gbs", NULL, NULL);
    if (h2d > 0) figure(hw, "host_to_device", h2d, "GB/s", run, "host to device, best of pinned and pageable");
    /* A training step's MFU: the GPT decoder when the run has it, else the MLP (labelled). */
    double mfu = best(doc, kind, "train-gpt", "mfu", NULL, &row);
    const char *what = "train-gpt (a small GPT decoder)";
    if (mfu <= 0) {
        double gf = best(doc, kind, "train-mlp", "gflops", NULL, &row);
        double frac = json_num(row, "peak_fraction");
        if (gf > 0 && frac > 0) mfu = frac;
        else if (gf > 0 && peak > 0) mfu = gf / peak;
        what = "train-mlp (an MLP, not a transformer: a rough stand-in)";
    }
    if (mfu > 0) {
        hw->train_mfu = mfu;
        snprintf(hw->train_mfu_source, sizeof hw->train_mfu_source, "probe %s: %s, %.0f%% of the measured peak", run,
                 what, mfu * 100);
        figure(hw, "training_mfu", mfu, "fraction", run, "%s", what);
    }
}

/* The scaling figures of a run made under MPI: the all-reduce bus bandwidth at its largest
 * message and the data-parallel efficiency. */
static void scaling_figures(const cJSON *doc, struct adv_hw *hw)
{
    const char *run = json_str(doc, "id");
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(doc, "ranks");
    int hosts = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ranks, "hosts"));
    const cJSON *r, *largest = NULL;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params");
        if (!ok(r) || strcmp(json_str(r, "workload"), "allreduce") != 0) continue;
        if (!largest || json_num(p, "bytes") > json_num(cJSON_GetObjectItemCaseSensitive(largest, "params"), "bytes")) largest = r;
    }
    if (largest && !hw->bus_bandwidth_gbs) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(largest, "params");
        hw->bus_bandwidth_gbs = json_num(largest, "median");
        hw->bus_ranks = (int)json_num(p, "ranks");
        hw->bus_inter_node = hosts > 1;
        snprintf(hw->bus_source, sizeof hw->bus_source, "probe %s: allreduce of %.0f MiB over %d ranks", run,
                 json_num(p, "bytes") / 1048576.0, hw->bus_ranks);
        figure(hw, "allreduce_busbw", hw->bus_bandwidth_gbs, "GB/s", run, "over %d ranks on %d host%s", hw->bus_ranks,
               hosts, hosts == 1 ? "" : "s");
    }
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        if (!ok(r) || strcmp(json_str(r, "workload"), "train-dp") || strcmp(json_str(r, "metric"), "scaling_efficiency"))
            continue;
        if (hw->dp_efficiency > 0) break;
        hw->dp_efficiency = json_num(r, "median");
        hw->dp_ranks = (int)json_num(cJSON_GetObjectItemCaseSensitive(r, "params"), "ranks");
        snprintf(hw->dp_source, sizeof hw->dp_source, "probe run %s: train-dp over %d ranks", run, hw->dp_ranks);
        figure(hw, "data_parallel_efficiency", hw->dp_efficiency, "fraction", run, "train-dp over %d ranks", hw->dp_ranks);
    }
}

/* --- the match ---------------------------------------------------------------------------------- */

/* What the answers ask for: the kind of device, its catalog id when named, and whether the plan
 * is for this very machine (a CPU plan of one device on one node, or hardware auto). */
struct wanted {
    char kind[16];
    const char *accelerator;
    int this_machine_cpu;
};

/* Why run `doc` does not fit what is wanted, or NULL when it does (`why` holds the text). */
static const char *mismatch(const cJSON *doc, const struct wanted *w, char *why, size_t n)
{
    const cJSON *acc = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "accelerators"), 0);
    int measured_accel = acc && device_results(doc, json_str(acc, "kind")) > 0;
    int measured_cpu = device_results(doc, "cpu") > 0;
    if (strcmp(w->kind, "cpu") == 0) {
        if (!measured_cpu) {
            snprintf(why, n, "it measured no CPU workload");
            return why;
        }
        if (!w->this_machine_cpu) {
            snprintf(why, n, "it measured this machine's CPU (%s); the plan is for other CPU servers: probe one of them",
                     json_str(cJSON_GetObjectItemCaseSensitive(doc, "cpu"), "model"));
            return why;
        }
        return NULL;
    }
    if (!measured_accel || strcmp(json_str(acc, "kind"), w->kind) != 0) {
        snprintf(why, n, "it measured %s%s%s; your answers name %s hardware", measured_accel ? json_str(acc, "kind") : "a CPU",
                 measured_accel ? " " : "", measured_accel ? json_str(acc, "name") : "", w->kind);
        return why;
    }
    if (w->accelerator && *w->accelerator && strcmp(json_str(acc, "catalog_id"), w->accelerator) != 0) {
        snprintf(why, n, "it measured %s (%s); your answers name %s", json_str(acc, "name"),
                 *json_str(acc, "catalog_id") ? json_str(acc, "catalog_id") : "not in the catalog", w->accelerator);
        return why;
    }
    return NULL;
}

int probe_advisor_hardware(kb *k, const char *probe, const struct answers *answers, int cpu_model, struct adv_hw *hw,
                           char *err, size_t errsz)
{
    memset(hw, 0, sizeof *hw);
    if (strcasecmp(probe, "none") != 0 && strcasecmp(probe, "latest") != 0) { /* a named run: its figures, as asked */
        cJSON *doc = NULL;
        int status = kb_probe_get(k, probe, &doc, err, errsz);
        if (status != KB_OK) return status;
        probe_fw_speeds_from_run(doc, &hw->fw_speeds); /* the frameworks measured (advisor_fw.c) */
        machine_from_run(doc, hw);
        device_figures(doc, hw->kind, hw);
        scaling_figures(doc, hw);
        snprintf(hw->measured_run, sizeof hw->measured_run, "%s", json_str(doc, "id"));
        cJSON_Delete(doc);
        return KB_OK;
    }
    probe_fw_speeds_find(k, probe, &hw->fw_speeds); /* the newest frameworks measured (advisor_fw.c) */
    cJSON *rows = NULL;
    if (strcasecmp(probe, "latest") == 0 && kb_probe_list(k, &rows, err, errsz) != KB_OK) rows = NULL;
    struct wanted w = {"", NULL, 0};
    const char *hardware = answers && answers_has(answers, ANS_HARDWARE) ? answers_str(answers, ANS_HARDWARE) : "auto";
    if (strcmp(hardware, "auto") != 0) {
        snprintf(w.kind, sizeof w.kind, "%s", hardware);
        w.accelerator = answers_has(answers, ANS_ACCELERATOR) ? answers_str(answers, ANS_ACCELERATOR) : NULL;
        w.this_machine_cpu = answers_num(answers, ANS_DEVICES) <= 1 && answers_num(answers, ANS_NODES) <= 1;
    } else if (answers && answers_has(answers, ANS_ACCELERATOR)) {
        w.accelerator = answers_str(answers, ANS_ACCELERATOR);
    }
    int looked = 0, device_done = 0, scaling_done = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        if (looked++ == MATCH_MAX_RUNS || (device_done && scaling_done)) break;
        const char *id = json_str(row, "id");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "interrupted"))) {
            skipped(hw, id, "cancelled before it finished: never chosen over a complete run");
            continue;
        }
        cJSON *doc = NULL;
        if (kb_probe_get(k, id, &doc, err, errsz) != KB_OK || !doc) continue;
        const cJSON *acc = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "accelerators"), 0);
        int has_accel = acc && device_results(doc, json_str(acc, "kind")) > 0, has_cpu = device_results(doc, "cpu") > 0;
        int is_scaling = cJSON_GetObjectItemCaseSensitive(doc, "ranks") != NULL;
        if (!has_accel && !has_cpu && !is_scaling) {
            skipped(hw, id, "nothing in it finished (no workload could run)");
            cJSON_Delete(doc);
            continue;
        }
        /* Hardware auto: the newest run with device figures decides what this machine is. */
        if (!w.kind[0] && (has_accel || has_cpu)) {
            snprintf(w.kind, sizeof w.kind, "%s", has_accel ? json_str(acc, "kind") : "cpu");
            w.this_machine_cpu = 1;
        }
        char why[200];
        if (is_scaling) {
            /* Measured over ranks: bus bandwidth and efficiency belong to the devices the ranks
             * used (the CPUs in this build's train-dp, the GPUs for NCCL's allreduce). */
            int gpu_ranks = 0;
            const cJSON *r;
            cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results"))
                if (ok(r) && strcmp(json_str(r, "workload"), "allreduce") == 0 &&
                    strcmp(json_str(cJSON_GetObjectItemCaseSensitive(r, "params"), "via"), "nccl") == 0)
                    gpu_ranks = 1;
            const char *ranks_kind = gpu_ranks ? (acc ? json_str(acc, "kind") : "nvidia") : "cpu";
            if (!scaling_done && w.kind[0] && strcmp(ranks_kind, w.kind) != 0) {
                skipped(hw, id, "its %d ranks measured %s communication; your answers name %s hardware",
                        (int)json_num(cJSON_GetObjectItemCaseSensitive(doc, "ranks"), "count"),
                        gpu_ranks ? "GPU" : "CPU", w.kind);
            } else if (!scaling_done) {
                scaling_figures(doc, hw);
                scaling_done = 1;
            }
            if (!has_accel && !has_cpu) {
                cJSON_Delete(doc);
                continue;
            }
        }
        if (!device_done) {
            if (!w.kind[0] || mismatch(doc, &w, why, sizeof why) == NULL) {
                machine_from_run(doc, hw);
                device_figures(doc, w.kind[0] ? w.kind : hw->kind, hw);
                snprintf(hw->measured_run, sizeof hw->measured_run, "%s", id);
                device_done = 1;
            } else {
                skipped(hw, id, "%s", why);
            }
        }
        cJSON_Delete(doc);
    }
    cJSON_Delete(rows);
    if (device_done) return KB_OK;
    /* No matching run: what a quick look at the device nodes finds, and the skipped runs said. */
    struct quick_hw q;
    quick_detect(&q, cpu_model);
    snprintf(hw->source, sizeof hw->source, "detected");
    snprintf(hw->kind, sizeof hw->kind, "%s", q.kind);
    snprintf(hw->name, sizeof hw->name, "%s", q.name);
    snprintf(hw->evidence, sizeof hw->evidence, "quick detection: %s", q.evidence);
    hw->count = q.count;
    hw->cpu_threads = q.cpu_threads;
    hw->host_memory_gb = q.host_memory_gb;
    return KB_OK;
}
