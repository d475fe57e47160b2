#include "probes/run_table.h"

#include "common/text.h"

#include "common/json_doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const probe_table_headers[PT_NCOLS] = {"WORKLOAD", "METRIC", "PARAMS", "MEDIAN", "MIN..MAX",
                                                   "CV%", "PEAK%", "BASELINE", "CHANGE"};
const enum probe_col probe_table_plain[] = {PT_WORKLOAD, PT_METRIC, PT_PARAMS, PT_MEDIAN, PT_RANGE, PT_CV, PT_PEAK,
                                            PT_NCOLS};
const enum probe_col probe_table_compared[] = {PT_WORKLOAD, PT_METRIC, PT_PARAMS, PT_MEDIAN, PT_CV, PT_BASE, PT_CHANGE,
                                               PT_NCOLS};



static void human_bytes(double b, char *out, size_t n)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB"};
    int u = 0;
    while (b >= 1024 && u < 3) b /= 1024, u++;
    snprintf(out, n, "%.0f %s", b, units[u]);
}

/* A short text of a result's sizes ("n=2048 bf16", "134 MB", "64 MiB pin", "784..10 b256",
 * "4x256 T128", "vs gemm"). */
static void short_params(const struct probe_params *p, char *out, size_t n)
{
    char h[32];
    const char *dtype = probe_dtype_name(p->dtype);
    switch (p->shape) {
    case PROBE_PP_GEMM:
        snprintf(out, n, "n=%d%s%s", p->n, *dtype && p->dtype != PROBE_DTYPE_FP32 ? " " : "",
                 p->dtype != PROBE_DTYPE_FP32 ? dtype : "");
        break;
    case PROBE_PP_STREAM: snprintf(out, n, "%.0f MB", (double)p->array_bytes / 1e6); break;
    case PROBE_PP_DEVICE_COPY:
    case PROBE_PP_TRANSFER:
    case PROBE_PP_ALLREDUCE:
        human_bytes((double)p->bytes, h, sizeof h);
        snprintf(out, n, "%s%s", h, p->pinned == PROBE_TRI_YES ? " pin" : p->pinned == PROBE_TRI_NO ? " page" : "");
        break;
    case PROBE_PP_DATA_PARALLEL: snprintf(out, n, "%d ranks", p->ranks); break;
    case PROBE_PP_GPT: snprintf(out, n, "%dx%d T%d", p->n_layer, p->n_embd, p->ctx); break; /* "4x256 T128" */
    case PROBE_PP_FRAMEWORK: /* "jax jit gpt" */
        snprintf(out, n, "%.15s %.24s %s", p->framework, p->mode, p->model < 0 ? "" : p->model ? "gpt" : "mlp");
        break;
    case PROBE_PP_PEAK: snprintf(out, n, "%s", probe_peak_kind_label(p->peak_kind)); break; /* MFU: against which peak */
    case PROBE_PP_MLP:
        if (strcmp(p->layers, "784,1024,1024,10") == 0) snprintf(out, n, "784..10 b256");
        else if (strcmp(p->layers, "100,10") == 0) snprintf(out, n, "100,10 b32");
        else {
            /* equal widths: "4096x4 b4096" */
            int count = 1, width = atoi(p->layers), same = 1;
            for (const char *c = p->layers; *c; c++)
                if (*c == ',') count++, same &= atoi(c + 1) == width;
            if (same && count > 2) snprintf(out, n, "%dx%d b%d", width, count - 1, p->batch);
            else snprintf(out, n, "%.47s", p->layers);
        }
        break;
    default: out[0] = '\0'; break;
    }
}

/* Metric names as the table shows them (the JSON keeps the full names). */
static const char *short_metric(const char *m)
{
    if (!strcmp(m, PROBE_M_SCALING_EFFICIENCY)) return "efficiency";
    if (!strcmp(m, PROBE_M_SAMPLES_PER_S_SINGLE)) return "samples/s x1";
    if (!strcmp(m, PROBE_M_SAMPLES_PER_S)) return "samples/s";
    return m;
}

/* The matching result of a baseline run: same workload, metric and params. */
static const cJSON *find_result(const cJSON *base, const cJSON *r)
{
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(base, "results")) {
        if (strcmp(json_str(b, "workload"), json_str(r, "workload")) || strcmp(json_str(b, "metric"), json_str(r, "metric"))) continue;
        if (!cJSON_Compare(cJSON_GetObjectItemCaseSensitive(b, "params"), cJSON_GetObjectItemCaseSensitive(r, "params"), 1))
            continue;
        return b;
    }
    return NULL;
}

void probe_table_build(const cJSON *doc, const cJSON *base, struct probe_table *t)
{
    memset(t, 0, sizeof *t);
    t->compared = base != NULL;
    const cJSON *r;
    struct measured_result *m = malloc(sizeof *m);
    if (!m) return;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        if (t->nrows == PROBE_MAX_RESULTS) break;
        measured_result_read(r, m);
        struct probe_table_row *row = &t->rows[t->nrows++];
        row->peak_fraction = -1;
        snprintf(row->cell[PT_WORKLOAD], sizeof row->cell[0], "%s", m->workload);
        snprintf(row->cell[PT_METRIC], sizeof row->cell[0], "%s", short_metric(m->metric));
        short_params(&m->params, row->cell[PT_PARAMS], sizeof row->cell[0]);
        row->frameworks = strcmp(m->workload, PROBE_WL_FRAMEWORKS) == 0; /* their own table (fw_table.c) */
        if (!m->stated_ok) {
            row->skipped = 1;
            snprintf(row->reason, sizeof row->reason, "%s", m->reason);
            continue;
        }
        double med = m->median, cv = m->cv, lo = m->min, hi = m->max;
        if (!isfinite(med)) { /* a stored run written by hand or by another tool */
            row->skipped = 1;
            snprintf(row->reason, sizeof row->reason, "malformed stored result: 'ok' without a finite median");
            continue;
        }
        snprintf(row->cell[PT_MEDIAN], sizeof row->cell[0], "%.4g", med);
        if (isfinite(lo) && isfinite(hi)) snprintf(row->cell[PT_RANGE], sizeof row->cell[0], "%.3g..%.3g", lo, hi);
        else snprintf(row->cell[PT_RANGE], sizeof row->cell[0], "-");
        row->noisy = m->noisy;
        t->any_noisy |= row->noisy;
        double cv_pct = isfinite(cv) ? cv * 100 : 0; /* a very noisy run: whole percent, so the column stays narrow */
        snprintf(row->cell[PT_CV], sizeof row->cell[0], cv_pct < 99.95 ? "%.1f%s" : "%.0f%s", cv_pct, row->noisy ? "!" : "");
        double peak = m->peak_fraction;
        if (isfinite(peak)) {
            row->peak_fraction = peak;
            snprintf(row->cell[PT_PEAK], sizeof row->cell[0], "%.0f", peak * 100);
        } else {
            snprintf(row->cell[PT_PEAK], sizeof row->cell[0], "-");
        }
        if (!base) continue;
        const cJSON *b = find_result(base, r);
        if (!b || strcmp(json_str(b, "status"), "ok") != 0 || !(json_num(b, "median") > 0)) {
            row->verdict = PV_NEW;
            snprintf(row->cell[PT_BASE], sizeof row->cell[0], "-");
            snprintf(row->cell[PT_CHANGE], sizeof row->cell[0], "new");
            continue;
        }
        double bm = json_num(b, "median"), change = (med - bm) / bm * 100;
        /* Beyond the noise: twice the larger coefficient of variation, at least 3%. */
        double noise = 200 * fmax(isnan(cv) ? 0 : cv, isnan(json_num(b, "cv")) ? 0 : json_num(b, "cv"));
        if (noise < 3) noise = 3;
        int lower_better = strcmp(m->unit, "us") == 0;
        row->change = change;
        row->verdict = fabs(change) <= noise ? PV_SAME : (change > 0) != lower_better ? PV_BETTER : PV_WORSE;
        snprintf(row->cell[PT_BASE], sizeof row->cell[0], "%.4g", bm);
        snprintf(row->cell[PT_CHANGE], sizeof row->cell[0], "%+.1f%%%s", change,
                 row->verdict == PV_BETTER ? " better" : row->verdict == PV_WORSE ? " WORSE" : "");
    }
    free(m);
}

const char *probe_table_noise_note(const struct probe_table *t)
{
    return t->any_noisy ? "! coefficient of variation above 5%: the machine was busy; run again for steadier figures"
                        : "";
}

const char *probe_table_compare_note(const struct probe_table *t)
{
    return t->compared ? "Changes beyond the noise (twice the larger CV, at least 3%) say better or WORSE." : "";
}

/* Stored numbers as text, a few at a time for one line: "?" where the run lacks one or holds no
 * finite number (a run written by hand or by another tool), never "nan". */
struct numtext {
    char s[8][32];
    int n;
};

static const char *num(struct numtext *t, double v, const char *fmt)
{
    char *out = t->s[t->n++ % 8];
    if (isfinite(v)) snprintf(out, sizeof t->s[0], fmt, v);
    else snprintf(out, sizeof t->s[0], "?");
    return out;
}

int probe_summary_lines(const cJSON *doc, char (*lines)[512], int max)
{
    int n = 0;
    struct numtext nt = {.n = 0};
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(doc, "cpu");
    if (n < max)
        snprintf(lines[n++], 512, "probe run %s, %s, %s s%s", json_str(doc, "id"), json_str(doc, "started_at"),
                 num(&nt, json_num(doc, "duration_s"), "%.1f"), cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted")) ? ", INTERRUPTED" : "");
    const cJSON *caches = cJSON_GetObjectItemCaseSensitive(cpu, "caches");
    char peak_text[48] = "unknown", simd[160] = "";
    if (isfinite(json_num(cpu, "peak_gflops_fp32"))) snprintf(peak_text, sizeof peak_text, "%.0f GFLOP/s", json_num(cpu, "peak_gflops_fp32"));
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(cpu, "simd")) {
        size_t used = strlen(simd);
        if (cJSON_IsString(f)) snprintf(simd + used, sizeof simd - used, "%s%s", used ? " " : "", f->valuestring);
    }
    if (n < max)
        snprintf(lines[n++], 512,
                 "CPU: %s (%s), %s package(s), %s cores, %s threads, %s NUMA node(s), L3 %s MB, memory %s GB; "
                 "SIMD: %s; FP32 peak %s (%s)",
                 *json_str(cpu, "model") ? json_str(cpu, "model") : "model unknown", json_str(cpu, "microarchitecture"),
                 num(&nt, json_num(cpu, "packages"), "%.0f"), num(&nt, json_num(cpu, "cores"), "%.0f"),
                 num(&nt, json_num(cpu, "threads"), "%.0f"), num(&nt, json_num(cpu, "numa_nodes"), "%.0f"),
                 num(&nt, json_num(caches, "l3_bytes") / 1e6, "%.0f"), num(&nt, json_num(cpu, "memory_bytes") / 1e9, "%.1f"),
                 simd[0] ? simd : "-", peak_text,
                 json_str(cpu, "peak_note"));
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(doc, "accelerators")) {
        if (n >= max) break;
        if (isfinite(json_num(a, "memory_bytes")))
            snprintf(lines[n++], 512, "%s: %s x %s, %.1f GB each%s%s. %s", json_str(a, "kind"),
                     num(&nt, json_num(a, "count"), "%.0f"), json_str(a, "name"), json_num(a, "memory_bytes") / 1e9, *json_str(a, "compute_capability") ? ", compute capability " : "",
                     json_str(a, "compute_capability"), json_str(a, "note"));
        else
            snprintf(lines[n++], 512, "%s: %s x %s. %s", json_str(a, "kind"), num(&nt, json_num(a, "count"), "%.0f"),
                     json_str(a, "name"), json_str(a, "note"));
    }
    if (!cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "accelerators")) && n < max)
        snprintf(lines[n++], 512, "accelerators: none found");
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(doc, "ranks");
    if (ranks && n < max) {
        char hosts[256] = "";
        const cJSON *h;
        size_t at = 0;
        cJSON_ArrayForEach(h, cJSON_GetObjectItemCaseSensitive(ranks, "hosts"))
            if (cJSON_IsString(h) && at < sizeof hosts)
                at += (size_t)snprintf(hosts + at, sizeof hosts - at, "%s%s", at ? ", " : "", h->valuestring);
        snprintf(lines[n++], 512, "ranks: %s on %s (%s)", num(&nt, json_num(ranks, "count"), "%.0f"), hosts,
                 json_str(ranks, "mpi"));
    }
    return n;
}

/* --- printed ------------------------------------------------------------------------------ */

int probe_table_print(FILE *f, const struct probe_table *t, int bold)
{
    const enum probe_col *cols = t->compared ? probe_table_compared : probe_table_plain;
    struct text_column tc[PT_NCOLS];
    int nc = 0;
    for (; cols[nc] != PT_NCOLS; nc++)
        tc[nc] = (struct text_column){probe_table_headers[cols[nc]], cols[nc] == PT_PARAMS, /* gives way when narrow */
                                      cols[nc] >= PT_MEDIAN && cols[nc] != PT_RANGE};
    const char **cells = calloc((size_t)t->nrows * (size_t)nc + 1, sizeof *cells);
    if (!cells) return 0;
    int nrows = 0;
    for (int r = 0; r < t->nrows; r++) {
        if (t->rows[r].skipped || t->rows[r].frameworks) continue; /* those have their own table */
        for (int c = 0; c < nc; c++) cells[nrows * nc + c] = t->rows[r].cell[cols[c]];
        nrows++;
    }
    if (nrows) text_table(f, tc, nc, cells, nrows, bold);
    free(cells);
    return nrows;
}

int probe_fw_table_print(FILE *f, const struct probe_fw_table *t, int model)
{
    const char *cells[PROBE_MAX_RESULTS * FC_NCOLS];
    int nrows = 0;
    for (int r = 0; r < t->nrows; r++) {
        if (t->rows[r].skipped || t->rows[r].model != model) continue;
        for (int c = 0; c < FC_NCOLS; c++) cells[nrows * FC_NCOLS + c] = t->rows[r].cell[c];
        nrows++;
    }
    struct text_column tc[FC_NCOLS];
    for (int c = 0; c < FC_NCOLS; c++) tc[c] = (struct text_column){probe_fw_header(c, model), c == FC_MODE, c >= FC_STEP};
    if (nrows) text_table(f, tc, FC_NCOLS, cells, nrows, 0);
    return nrows;
}
