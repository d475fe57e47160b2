/* The advisor's hardware facts from stored probe runs, each read once (knowledge/measured.h). */
#include "knowledge/advisor.h"
#include "common/json_doc.h"
#include "knowledge/measured.h"
#include "knowledge/probe_store.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How many stored runs are looked at, newest first: enough for any real history, few enough to
 * keep `recommend` fast. */
#define MATCH_MAX_RUNS 24

/* --- what a stored run holds ----------------------------------------------------------------- */

static int is(const char *name, const char *want) { return strcmp(name, want) == 0; }

/* The device kind a result was measured on: "cpu" or the kind of the run's first accelerator. */
static const char *result_kind(const struct measured_run *m, const struct measured_result *r)
{
    if (strncmp(r->device, "cuda", 4) != 0) return "cpu";
    return m->naccel ? m->accel[0].kind : "nvidia";
}

static int device_results(const struct measured_run *m, const char *kind)
{
    int n = 0;
    for (int i = 0; i < m->nresults; i++) {
        const struct measured_result *r = &m->results[i];
        if (r->ok && !is(r->workload, PROBE_WL_ALLREDUCE) && !is(r->workload, PROBE_WL_TRAIN_DP) &&
            !is(r->workload, PROBE_WL_FRAMEWORKS) && is(result_kind(m, r), kind))
            n++;
    }
    return n;
}

/* The largest median of ok results of workload/metric on kind (of dtype when given). */
static double best(const struct measured_run *m, const char *kind, const char *workload, const char *metric,
                   enum probe_dtype dtype, const struct measured_result **row)
{
    double v = 0;
    for (int i = 0; i < m->nresults; i++) {
        const struct measured_result *r = &m->results[i];
        if (!r->ok || !is(r->workload, workload) || !is(r->metric, metric) || !is(result_kind(m, r), kind)) continue;
        if (dtype != PROBE_DTYPE_NONE && r->params.dtype != dtype) continue;
        if (r->median > v) {
            v = r->median;
            if (row) *row = r;
        }
    }
    return v;
}

/* Text into a fixed field, cut where it must be (a run's id and names are as long as they came). */
static void put(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(char *out, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, n, fmt, ap);
    va_end(ap);
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
static void machine_from_run(const struct measured_run *m, struct adv_hw *hw)
{
    snprintf(hw->source, sizeof hw->source, "probe");
    hw->cpu_threads = m->cpu_cores > 0 ? (int)m->cpu_cores : 1;
    hw->host_memory_gb = m->cpu_memory_bytes > 0 ? m->cpu_memory_bytes / 1e9 : 0;
    snprintf(hw->evidence, sizeof hw->evidence, "probe run %s", m->id);
    if (m->naccel) {
        const struct measured_accel *acc = &m->accel[0];
        snprintf(hw->kind, sizeof hw->kind, "%s", acc->kind[0] ? acc->kind : "cpu");
        snprintf(hw->name, sizeof hw->name, "%s", acc->name);
        snprintf(hw->catalog_id, sizeof hw->catalog_id, "%s", acc->catalog_id);
        hw->count = acc->count > 0 ? acc->count : 1;
        hw->memory_gb = acc->memory_bytes > 0 ? acc->memory_bytes / 1e9 : 0;
    } else {
        snprintf(hw->kind, sizeof hw->kind, "cpu");
        snprintf(hw->name, sizeof hw->name, "%s", m->cpu_model);
    }
}

/* A training step's MFU: the GPT decoder when the run has it, else the MLP (labelled). */
static void mfu_figure(const struct measured_run *m, const char *kind, double peak, struct adv_hw *hw)
{
    const struct measured_result *row = NULL;
    double mfu = best(m, kind, PROBE_WL_TRAIN_GPT, PROBE_M_MFU, PROBE_DTYPE_NONE, &row);
    const char *what = "train-gpt (a small GPT decoder)";
    if (mfu <= 0) {
        double gf = best(m, kind, PROBE_WL_TRAIN_MLP, PROBE_M_GFLOPS, PROBE_DTYPE_NONE, &row);
        double frac = row ? row->peak_fraction : NAN;
        if (gf > 0 && frac > 0) mfu = frac;
        else if (gf > 0 && peak > 0) mfu = gf / peak;
        what = "train-mlp (an MLP, not a transformer: a rough stand-in)";
    }
    if (mfu > 0) {
        hw->train_mfu = mfu;
        put(hw->train_mfu_source, sizeof hw->train_mfu_source, "probe %s: %s, %.0f%% of the measured peak", m->id,
                 what, mfu * 100);
        figure(hw, "training_mfu", mfu, "fraction", m->id, "%s", what);
    }
}

/* The per-device figures of a run measured on `kind`: the GEMM peak (bf16 on an accelerator,
 * fp32 on a CPU), the memory bandwidth, the host-device bandwidth and a training step's MFU. */
static void device_figures(const struct measured_run *m, const char *kind, struct adv_hw *hw)
{
    const char *run = m->id;
    int cpu = strcmp(kind, "cpu") == 0;
    const struct measured_result *row = NULL;
    double peak = cpu ? best(m, kind, PROBE_WL_GEMM, PROBE_M_GFLOPS_BEST, PROBE_DTYPE_NONE, &row)
                      : best(m, kind, PROBE_WL_GEMM, PROBE_M_GFLOPS, PROBE_DTYPE_BF16, &row);
    if (peak <= 0 && !cpu) peak = best(m, kind, PROBE_WL_GEMM, PROBE_M_GFLOPS, PROBE_DTYPE_FP16, &row);
    if (peak > 0) {
        hw->peak_tflops = peak / 1e3;
        put(hw->peak_source, sizeof hw->peak_source, "probe %s: %s GEMM best %.0f GFLOP/s", run, cpu ? "sgemm" : "bf16",
                 peak);
        figure(hw, "gemm_peak", peak / 1e3, "TFLOP/s", run, "%s GEMM, best size (n=%d)", cpu ? "fp32" : "bf16",
               row->params.n);
    }
    double bw = cpu ? best(m, kind, PROBE_WL_STREAM, PROBE_M_TRIAD_GBS, PROBE_DTYPE_NONE, NULL)
                    : best(m, kind, PROBE_WL_STREAM, PROBE_M_COPY_GBS, PROBE_DTYPE_NONE, NULL);
    if (bw > 0) {
        hw->memory_bandwidth_gbs = bw;
        put(hw->bandwidth_source, sizeof hw->bandwidth_source, "probe %s: %s %.0f GB/s", run,
                 cpu ? "STREAM triad" : "device copy", bw);
        figure(hw, "memory_bandwidth", bw, "GB/s", run, "%s", cpu ? "STREAM triad" : "device copy (read + written)");
    }
    double h2d = best(m, kind, PROBE_WL_TRANSFER, PROBE_M_H2D_GBS, PROBE_DTYPE_NONE, NULL);
    if (h2d > 0) figure(hw, "host_to_device", h2d, "GB/s", run, "host to device, best of pinned and pageable");
    mfu_figure(m, kind, peak, hw);
}

/* The scaling figures of a run made under MPI: the all-reduce bus bandwidth at its largest
 * message and the data-parallel efficiency. */
static void scaling_figures(const struct measured_run *m, struct adv_hw *hw)
{
    const char *run = m->id;
    int hosts = m->host_count;
    const struct measured_result *largest = NULL;
    for (int i = 0; i < m->nresults; i++) {
        const struct measured_result *r = &m->results[i];
        if (!r->ok || !is(r->workload, PROBE_WL_ALLREDUCE)) continue;
        if (!largest || r->params.bytes > largest->params.bytes) largest = r;
    }
    if (largest && !hw->bus_bandwidth_gbs) {
        hw->bus_bandwidth_gbs = largest->median;
        hw->bus_ranks = largest->params.ranks;
        hw->bus_inter_node = hosts > 1;
        put(hw->bus_source, sizeof hw->bus_source, "probe %s: allreduce of %.0f MiB over %d ranks", run,
                 (double)largest->params.bytes / 1048576.0, hw->bus_ranks);
        figure(hw, "allreduce_busbw", hw->bus_bandwidth_gbs, "GB/s", run, "over %d ranks on %d host%s", hw->bus_ranks,
               hosts, hosts == 1 ? "" : "s");
    }
    for (int i = 0; i < m->nresults; i++) {
        const struct measured_result *r = &m->results[i];
        if (!r->ok || !is(r->workload, PROBE_WL_TRAIN_DP) || !is(r->metric, PROBE_M_SCALING_EFFICIENCY)) continue;
        if (hw->dp_efficiency > 0) break;
        hw->dp_efficiency = r->median;
        hw->dp_ranks = r->params.ranks;
        put(hw->dp_source, sizeof hw->dp_source, "probe run %s: train-dp over %d ranks", run, hw->dp_ranks);
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

/* Why run `m` does not fit what is wanted, or NULL when it does (`why` holds the text). */
static const char *mismatch(const struct measured_run *m, const struct wanted *w, char *why, size_t n)
{
    const struct measured_accel *acc = m->naccel ? &m->accel[0] : NULL;
    int measured_accel = acc && device_results(m, acc->kind) > 0;
    int measured_cpu = device_results(m, "cpu") > 0;
    if (strcmp(w->kind, "cpu") == 0) {
        if (!measured_cpu) {
            snprintf(why, n, "it measured no CPU workload");
            return why;
        }
        if (!w->this_machine_cpu) {
            put(why, n, "it measured this machine's CPU (%s); the plan is for other CPU servers: probe one of them",
                     m->cpu_model);
            return why;
        }
        return NULL;
    }
    if (!measured_accel || strcmp(acc->kind, w->kind) != 0) {
        snprintf(why, n, "it measured %s%s%s; your answers name %s hardware", measured_accel ? acc->kind : "a CPU",
                 measured_accel ? " " : "", measured_accel ? acc->name : "", w->kind);
        return why;
    }
    if (w->accelerator && *w->accelerator && strcmp(acc->catalog_id, w->accelerator) != 0) {
        snprintf(why, n, "it measured %s (%s); your answers name %s", acc->name,
                 acc->catalog_id[0] ? acc->catalog_id : "not in the catalog", w->accelerator);
        return why;
    }
    return NULL;
}

static struct wanted wanted_of(const struct answers *answers)
{
    struct wanted w = {"", NULL, 0};
    const char *hardware = answers && answers_has(answers, ANS_HARDWARE) ? answers_str(answers, ANS_HARDWARE) : "auto";
    if (strcmp(hardware, "auto") != 0) {
        snprintf(w.kind, sizeof w.kind, "%s", hardware);
        w.accelerator = answers_has(answers, ANS_ACCELERATOR) ? answers_str(answers, ANS_ACCELERATOR) : NULL;
        w.this_machine_cpu = answers_num(answers, ANS_DEVICES) <= 1 && answers_num(answers, ANS_NODES) <= 1;
    } else if (answers && answers_has(answers, ANS_ACCELERATOR)) {
        w.accelerator = answers_str(answers, ANS_ACCELERATOR);
    }
    return w;
}

/* Where the newest runs stand: the device figures taken, the scaling figures taken. */
struct match {
    struct wanted w;
    int device_done, scaling_done;
};

/* Measured over ranks: bus bandwidth and efficiency belong to the devices the ranks used (the
 * CPUs in this build's train-dp, the GPUs for NCCL's allreduce). */
static void match_scaling(const struct measured_run *m, struct match *mt, struct adv_hw *hw)
{
    int gpu_ranks = 0;
    for (int i = 0; i < m->nresults; i++)
        if (m->results[i].ok && is(m->results[i].workload, PROBE_WL_ALLREDUCE) && is(m->results[i].params.via, "nccl"))
            gpu_ranks = 1;
    const char *ranks_kind = gpu_ranks ? (m->naccel ? m->accel[0].kind : "nvidia") : "cpu";
    if (!mt->scaling_done && mt->w.kind[0] && strcmp(ranks_kind, mt->w.kind) != 0) {
        skipped(hw, m->id, "its %d ranks measured %s communication; your answers name %s hardware", m->rank_count,
                gpu_ranks ? "GPU" : "CPU", mt->w.kind);
    } else if (!mt->scaling_done) {
        scaling_figures(m, hw);
        mt->scaling_done = 1;
    }
}

/* One stored run, newest first, against what is wanted. */
static void match_run(const struct measured_run *m, const char *id, struct match *mt, struct adv_hw *hw)
{
    int has_accel = m->naccel && device_results(m, m->accel[0].kind) > 0, has_cpu = device_results(m, "cpu") > 0;
    if (!has_accel && !has_cpu && !m->has_ranks) {
        skipped(hw, id, "nothing in it finished (no workload could run)");
        return;
    }
    /* Hardware auto: the newest run with device figures decides what this machine is. */
    if (!mt->w.kind[0] && (has_accel || has_cpu)) {
        snprintf(mt->w.kind, sizeof mt->w.kind, "%s", has_accel ? m->accel[0].kind : "cpu");
        mt->w.this_machine_cpu = 1;
    }
    if (m->has_ranks) match_scaling(m, mt, hw);
    if ((!has_accel && !has_cpu) || mt->device_done) return;
    char why[200];
    if (!mt->w.kind[0] || mismatch(m, &mt->w, why, sizeof why) == NULL) {
        machine_from_run(m, hw);
        device_figures(m, mt->w.kind[0] ? mt->w.kind : hw->kind, hw);
        snprintf(hw->measured_run, sizeof hw->measured_run, "%s", id);
        mt->device_done = 1;
    } else {
        skipped(hw, id, "%s", why);
    }
}

/* A named run: its figures, as asked. */
static int named_run(kb *k, const char *probe, struct measured_run *m, struct adv_hw *hw, char *err, size_t errsz)
{
    cJSON *doc = NULL;
    int status = kb_probe_get(k, probe, &doc, err, errsz);
    if (status != KB_OK) return status;
    measured_read(doc, m);
    cJSON_Delete(doc);
    probe_fw_speeds_of(m, &hw->fw_speeds); /* the frameworks measured (measured_fw.c) */
    machine_from_run(m, hw);
    device_figures(m, hw->kind, hw);
    scaling_figures(m, hw);
    put(hw->measured_run, sizeof hw->measured_run, "%s", m->id);
    return KB_OK;
}

int adv_hw_from_probe_runs(kb *k, const char *probe, const struct answers *answers, struct adv_hw *hw, int *matched,
                           char *err, size_t errsz)
{
    memset(hw, 0, sizeof *hw);
    *matched = 0;
    struct measured_run *m = malloc(sizeof *m);
    if (!m) {
        snprintf(err, errsz, "out of memory");
        return KB_ERR_RUNTIME;
    }
    if (strcasecmp(probe, "none") != 0 && strcasecmp(probe, "latest") != 0) {
        int status = named_run(k, probe, m, hw, err, errsz);
        free(m);
        *matched = status == KB_OK;
        return status;
    }
    probe_fw_speeds_find(k, probe, &hw->fw_speeds); /* the newest frameworks measured (measured_fw.c) */
    cJSON *rows = NULL;
    if (strcasecmp(probe, "latest") == 0 && kb_probe_list(k, &rows, err, errsz) != KB_OK) rows = NULL;
    struct match mt = {wanted_of(answers), 0, 0};
    int looked = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        if (looked++ == MATCH_MAX_RUNS || (mt.device_done && mt.scaling_done)) break;
        const char *id = json_str(row, "id");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "interrupted"))) {
            skipped(hw, id, "cancelled before it finished: never chosen over a complete run");
            continue;
        }
        cJSON *doc = NULL;
        if (kb_probe_get(k, id, &doc, err, errsz) != KB_OK || !doc) continue;
        measured_read(doc, m);
        match_run(m, id, &mt, hw);
        cJSON_Delete(doc);
    }
    cJSON_Delete(rows);
    free(m);
    *matched = mt.device_done;
    return KB_OK;
}
