/* The one reader of stored probe runs: a document into struct measured_run. */
#include "knowledge/measured.h"
#include "common/json_doc.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *const dtype_names[] = {"", "fp32", "tf32", "bf16", "fp16", "fp8"};
static const char *const peak_names[] = {"", "gemm", "estimate", "table", "catalog"};
static const char *const peak_labels[] = {"vs peak", "vs gemm", "vs estimate", "vs table", "vs catalog"};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *probe_dtype_name(enum probe_dtype d) { return (unsigned)d < (unsigned)COUNT(dtype_names) ? dtype_names[d] : ""; }

enum probe_dtype probe_dtype_parse(const char *name)
{
    for (int i = 1; name && i < COUNT(dtype_names); i++)
        if (strcmp(name, dtype_names[i]) == 0) return (enum probe_dtype)i;
    return PROBE_DTYPE_NONE;
}

const char *probe_peak_kind_name(enum probe_peak_kind k)
{
    return (unsigned)k < (unsigned)COUNT(peak_names) ? peak_names[k] : "";
}

enum probe_peak_kind probe_peak_kind_parse(const char *name)
{
    for (int i = 1; name && i < COUNT(peak_names); i++)
        if (strcmp(name, peak_names[i]) == 0) return (enum probe_peak_kind)i;
    return PROBE_PEAK_UNKNOWN;
}

const char *probe_peak_kind_label(enum probe_peak_kind k)
{
    return (unsigned)k < (unsigned)COUNT(peak_labels) ? peak_labels[k] : peak_labels[0];
}

void probe_params_init(struct probe_params *p, enum probe_params_shape shape)
{
    memset(p, 0, sizeof *p);
    p->shape = shape;
    p->bytes_per_element = p->time_us = p->algbw_gbs = p->peak_tflops = p->per_step = NAN;
    p->loss = p->engine_loss = p->first_step_s = NAN;
    p->planned_ms = p->gemm_ms = p->memory_ms = p->gemm_gflops = p->bandwidth_gbs = NAN;
    p->model = p->python = -1;
}

static void copy_str(char *dst, size_t n, const cJSON *o, const char *key) { snprintf(dst, n, "%s", json_str(o, key)); }

/* A count member: 0 when absent, not a number or out of range. */
static int count_of(const cJSON *o, const char *key)
{
    double v = json_num(o, key);
    return isfinite(v) && v >= -2147483648.0 && v <= 2147483647.0 ? (int)v : 0;
}

static uint64_t bytes_of(const cJSON *o, const char *key)
{
    double v = json_num(o, key);
    return isfinite(v) && v > 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

static int has(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key) != NULL; }

/* The shape from the keys, in the order the probe table has always told them apart. */
static enum probe_params_shape shape_of(const cJSON *p)
{
    if (!cJSON_IsObject(p)) return PROBE_PP_NONE;
    if (has(p, "n")) return PROBE_PP_GEMM;
    if (has(p, "array_bytes")) return PROBE_PP_STREAM;
    if (has(p, "bytes")) return has(p, "pinned") ? PROBE_PP_TRANSFER : has(p, "ranks") ? PROBE_PP_ALLREDUCE
                                                                                      : PROBE_PP_DEVICE_COPY;
    if (has(p, "ranks")) return PROBE_PP_DATA_PARALLEL;
    if (has(p, "planned_ms")) return PROBE_PP_PLAN;
    if (has(p, "n_layer")) return PROBE_PP_GPT;
    if (has(p, "framework")) return PROBE_PP_FRAMEWORK;
    if (has(p, "peak_source") || has(p, "peak_kind") || has(p, "peak_tflops")) return PROBE_PP_PEAK;
    if (has(p, "layers")) return PROBE_PP_MLP;
    return PROBE_PP_NONE;
}

void measured_params_read(const cJSON *o, struct probe_params *p)
{
    probe_params_init(p, shape_of(o));
    if (p->shape == PROBE_PP_NONE) return;
    p->n = count_of(o, "n");
    p->dtype = probe_dtype_parse(has(o, "dtype") ? json_str(o, "dtype") : json_str(o, "precision"));
    p->threads = count_of(o, has(o, "threads_per_rank") ? "threads_per_rank" : "threads");
    p->array_bytes = bytes_of(o, "array_bytes");
    p->ntimes = count_of(o, "ntimes");
    p->bytes_per_element = json_num(o, "bytes_per_element");
    p->bytes = bytes_of(o, "bytes");
    const cJSON *pin = cJSON_GetObjectItemCaseSensitive(o, "pinned");
    p->pinned = cJSON_IsBool(pin) ? (cJSON_IsTrue(pin) ? PROBE_TRI_YES : PROBE_TRI_NO) : PROBE_TRI_UNSET;
    p->ranks = count_of(o, "ranks");
    p->time_us = json_num(o, "time_us");
    p->algbw_gbs = json_num(o, "algbw_gbs");
    p->wrong = count_of(o, "wrong");
    copy_str(p->via, sizeof p->via, o, "via");
    copy_str(p->layers, sizeof p->layers, o, "layers");
    p->batch = count_of(o, has(o, "batch_per_rank") ? "batch_per_rank" : "batch");
    copy_str(p->optimizer, sizeof p->optimizer, o, "optimizer");
    p->n_layer = count_of(o, "n_layer"), p->n_head = count_of(o, "n_head"), p->n_embd = count_of(o, "n_embd");
    p->ctx = count_of(o, "ctx"), p->vocab = count_of(o, "vocab");
    p->peak_tflops = json_num(o, "peak_tflops");
    copy_str(p->peak_source, sizeof p->peak_source, o, "peak_source");
    p->peak_kind = probe_peak_kind_parse(json_str(o, "peak_kind"));
    copy_str(p->framework, sizeof p->framework, o, "framework");
    copy_str(p->mode, sizeof p->mode, o, "mode");
    copy_str(p->kind, sizeof p->kind, o, "kind");
    copy_str(p->version, sizeof p->version, o, "version");
    const char *model = json_str(o, "model");
    p->model = strcmp(model, "gpt") == 0 ? 1 : strcmp(model, "mlp") == 0 ? 0 : -1;
    p->per_step = json_num(o, "per_step");
    copy_str(p->per_step_unit, sizeof p->per_step_unit, o, "per_step_unit");
    p->python = has(o, "python") ? count_of(o, "python") : -1;
    p->loss = json_num(o, "loss");
    p->engine_loss = json_num(o, "engine_loss");
    p->first_step_s = json_num(o, "first_step_s");
    p->planned_ms = json_num(o, "planned_ms"), p->gemm_ms = json_num(o, "gemm_ms");
    p->memory_ms = json_num(o, "memory_ms"), p->gemm_gflops = json_num(o, "gemm_gflops");
    p->bandwidth_gbs = json_num(o, "bandwidth_gbs");
    copy_str(p->bandwidth_source, sizeof p->bandwidth_source, o, "bandwidth_source");
}

void measured_result_read(const cJSON *r, struct measured_result *out)
{
    memset(out, 0, sizeof *out);
    out->json = r;
    copy_str(out->workload, sizeof out->workload, r, "workload");
    copy_str(out->device, sizeof out->device, r, "device");
    copy_str(out->metric, sizeof out->metric, r, "metric");
    copy_str(out->unit, sizeof out->unit, r, "unit");
    copy_str(out->reason, sizeof out->reason, r, "reason");
    out->median = json_num(r, "median"), out->min = json_num(r, "min"), out->max = json_num(r, "max");
    out->cv = json_num(r, "cv"), out->peak_fraction = json_num(r, "peak_fraction");
    out->stated_ok = strcmp(json_str(r, "status"), "ok") == 0;
    out->ok = out->stated_ok && isfinite(out->median);
    out->noisy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "noisy"));
    measured_params_read(cJSON_GetObjectItemCaseSensitive(r, "params"), &out->params);
}

/* An array member, NULL when absent or of another type (an object's members are not its items). */
static const cJSON *array_of(const cJSON *o, const char *key)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsArray(a) ? a : NULL;
}

enum measured_device_kind measured_device_kind(const char *device)
{
    if (!device) return MEASURED_DEV_OTHER;
    if (strcmp(device, "cpu") == 0) return MEASURED_DEV_CPU;
    return strncmp(device, "cuda", 4) == 0 ? MEASURED_DEV_CUDA : MEASURED_DEV_OTHER;
}

static void read_accel(const cJSON *a, struct measured_accel *out)
{
    memset(out, 0, sizeof *out);
    copy_str(out->kind, sizeof out->kind, a, "kind");
    copy_str(out->name, sizeof out->name, a, "name");
    /* the catalog entry the probe matched: {"id": ..., the peaks}, or null */
    const cJSON *cat = cJSON_GetObjectItemCaseSensitive(a, "catalog");
    copy_str(out->catalog_id, sizeof out->catalog_id, cat, "id");
    out->has_catalog = cJSON_IsObject(cat);
    out->catalog_fp32_tflops = json_num(cat, "fp32_tflops");
    out->catalog_bf16_tflops = json_num(cat, "bf16_tflops");
    out->catalog_fp16_tflops = json_num(cat, "fp16_tflops");
    out->catalog_bandwidth_gbs = json_num(cat, "bandwidth_gbs");
    out->count = count_of(a, "count");
    out->count_given = json_num(a, "count");
    out->memory_bytes = json_num(a, "memory_bytes");
    copy_str(out->compute_capability, sizeof out->compute_capability, a, "compute_capability");
    copy_str(out->note, sizeof out->note, a, "note");
}

/* The strings of an array member, the first max of them (other items skipped). */
static int strings_of(const cJSON *o, const char *key, char *out, size_t each, int max)
{
    int n = 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, array_of(o, key)) {
        if (n == max) break;
        if (cJSON_IsString(s)) snprintf(out + (size_t)n++ * each, each, "%s", s->valuestring);
    }
    return n;
}

static void read_rank(const cJSON *r, struct measured_rank *out)
{
    out->rank = json_num(r, "rank");
    copy_str(out->host, sizeof out->host, r, "host");
    out->compute_ms = json_num(r, "compute_ms");
    out->comm_ms = json_num(r, "comm_ms");
    out->samples_per_s = json_num(r, "samples_per_s");
}

/* "ranks": the count, the hosts and each rank's figures (a run under MPI; absent otherwise). */
static void read_ranks(const cJSON *ranks, struct measured_run *out)
{
    out->has_ranks = ranks != NULL;
    out->rank_count = count_of(ranks, "count");
    out->rank_count_given = json_num(ranks, "count");
    const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(ranks, "hosts"), *r;
    out->host_count = cJSON_IsArray(hosts) ? cJSON_GetArraySize(hosts) : 0;
    out->nhosts = strings_of(ranks, "hosts", out->hosts[0], sizeof out->hosts[0], MEASURED_MAX_HOSTS);
    copy_str(out->mpi, sizeof out->mpi, ranks, "mpi");
    cJSON_ArrayForEach(r, array_of(ranks, "per_rank")) {
        if (out->nper_rank == MEASURED_MAX_RANKS) break;
        read_rank(r, &out->per_rank[out->nper_rank++]);
    }
}

static void read_fw_models(const cJSON *models, struct measured_fw_models *m)
{
    const cJSON *mlp = cJSON_GetObjectItemCaseSensitive(models, "mlp"), *gpt = cJSON_GetObjectItemCaseSensitive(models, "gpt");
    copy_str(m->mlp_layers, sizeof m->mlp_layers, mlp, "layers");
    m->mlp_batch = json_num(mlp, "batch");
    m->gpt_layers = json_num(gpt, "n_layer"), m->gpt_heads = json_num(gpt, "n_head"), m->gpt_width = json_num(gpt, "n_embd");
    m->gpt_ctx = json_num(gpt, "ctx"), m->gpt_vocab = json_num(gpt, "vocab"), m->gpt_batch = json_num(gpt, "batch");
}

static void read_fw_python(const cJSON *py, struct measured_fw_python *out)
{
    copy_str(out->path, sizeof out->path, py, "path");
    copy_str(out->version, sizeof out->version, py, "version");
    copy_str(out->prefix, sizeof out->prefix, py, "prefix");
    copy_str(out->error, sizeof out->error, py, "error");
    const cJSON *f;
    cJSON_ArrayForEach(f, array_of(py, "frameworks")) {
        if (out->nfound == MEASURED_FW_MAX_FOUND) break;
        struct measured_fw_found *x = &out->found[out->nfound++];
        copy_str(x->id, sizeof x->id, f, "id");
        copy_str(x->version, sizeof x->version, f, "version");
        copy_str(x->devices, sizeof x->devices, f, "devices");
        copy_str(x->note, sizeof x->note, f, "note");
    }
}

static void read_frameworks(const cJSON *fw, struct measured_frameworks *out)
{
    out->present = cJSON_IsObject(fw);
    read_fw_models(cJSON_GetObjectItemCaseSensitive(fw, "models"), &out->models);
    const cJSON *py;
    cJSON_ArrayForEach(py, array_of(fw, "interpreters")) {
        if (out->npythons == MEASURED_FW_MAX_PYTHONS) break;
        read_fw_python(py, &out->python[out->npythons++]);
    }
}

/* The CPU's numbers: each key and where it goes. */
static const struct {
    const char *key;
    size_t at;
} cpu_numbers[] = {
    {"cores", offsetof(struct measured_run, cpu_cores)},
    {"memory_bytes", offsetof(struct measured_run, cpu_memory_bytes)},
    {"peak_gflops_fp32", offsetof(struct measured_run, cpu_peak_gflops_fp32)},
    {"peak_gflops_bf16", offsetof(struct measured_run, cpu_peak_gflops_bf16)},
    {"packages", offsetof(struct measured_run, cpu_packages)},
    {"threads", offsetof(struct measured_run, cpu_threads)},
    {"numa_nodes", offsetof(struct measured_run, cpu_numa_nodes)},
};

static void read_cpu(const cJSON *cpu, struct measured_run *out)
{
    for (int i = 0; i < COUNT(cpu_numbers); i++)
        *(double *)((char *)out + cpu_numbers[i].at) = json_num(cpu, cpu_numbers[i].key);
    out->cpu_l3_bytes = json_num(cJSON_GetObjectItemCaseSensitive(cpu, "caches"), "l3_bytes");
    copy_str(out->cpu_model, sizeof out->cpu_model, cpu, "model");
    copy_str(out->cpu_microarchitecture, sizeof out->cpu_microarchitecture, cpu, "microarchitecture");
    copy_str(out->cpu_peak_note, sizeof out->cpu_peak_note, cpu, "peak_note");
    out->nsimd = strings_of(cpu, "simd", out->cpu_simd[0], sizeof out->cpu_simd[0], MEASURED_MAX_SIMD);
}

struct measured_run *measured_read_new(const cJSON *doc)
{
    struct measured_run *m = doc ? malloc(sizeof *m) : NULL;
    if (m) measured_read(doc, m);
    return m;
}

int measured_read(const cJSON *doc, struct measured_run *out)
{
    memset(out, 0, sizeof *out);
    out->cpu_cores = out->cpu_memory_bytes = out->cpu_peak_gflops_fp32 = out->cpu_peak_gflops_bf16 = NAN;
    out->cpu_packages = out->cpu_threads = out->cpu_numa_nodes = out->cpu_l3_bytes = NAN;
    out->rank_count_given = out->duration_s = NAN;
    read_frameworks(NULL, &out->fw);
    if (!cJSON_IsObject(doc)) return -1;
    copy_str(out->id, sizeof out->id, doc, "id");
    copy_str(out->started_at, sizeof out->started_at, doc, "started_at");
    out->duration_s = json_num(doc, "duration_s");
    copy_str(out->version, sizeof out->version, doc, "version");
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
    copy_str(out->host_os, sizeof out->host_os, host, "os");
    copy_str(out->host_kernel, sizeof out->host_kernel, host, "kernel");
    copy_str(out->host_arch, sizeof out->host_arch, host, "arch");
    out->interrupted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted"));
    read_ranks(cJSON_GetObjectItemCaseSensitive(doc, "ranks"), out);
    read_cpu(cJSON_GetObjectItemCaseSensitive(doc, "cpu"), out);
    read_frameworks(cJSON_GetObjectItemCaseSensitive(doc, "frameworks"), &out->fw);
    const cJSON *x;
    const cJSON *accel = cJSON_GetObjectItemCaseSensitive(doc, "accelerators"), *results = cJSON_GetObjectItemCaseSensitive(doc, "results");
    if (!cJSON_IsArray(accel)) accel = NULL;
    if (!cJSON_IsArray(results)) results = NULL;
    cJSON_ArrayForEach(x, accel) {
        if (out->naccel == MEASURED_MAX_ACCEL) break;
        read_accel(x, &out->accel[out->naccel++]);
    }
    cJSON_ArrayForEach(x, results) {
        if (out->nresults == MEASURED_MAX_RESULTS) break;
        measured_result_read(x, &out->results[out->nresults++]);
    }
    return 0;
}
