/* A probe run as a page (run_html.h), from the run and its baseline read once each into struct
 * measured_run. Every chart is drawn per device the run measured; rows are named as the command
 * line's table names them (run_table.c), and the change against a baseline is run_table's
 * verdict. */
#include "probes/run_html.h"
#include "common/units.h"
#include "knowledge/measured.h"
#include "knowledge/planner.h"
#include "probes/run_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A finished result on the device. */
static int on(const struct measured_result *r, const char *device) { return r->ok && !strcmp(r->device, device); }

/* --- arithmetic intensity -------------------------------------------------------------------- */

static double element_bytes(const struct probe_params *p)
{
    if (p->dtype == PROBE_DTYPE_BF16 || p->dtype == PROBE_DTYPE_FP16) return 2;
    if (p->dtype == PROBE_DTYPE_FP8) return 1;
    return 4;
}

/* A matrix product on m rows from `in` to `out` features, in its three passes (forward, the
 * input's gradient, the weight's gradient): each reads two operands and writes one. */
static double product_bytes(double m, double in, double out, double e) { return 3 * e * (m * in + m * out + in * out); }


double probe_intensity(const struct measured_result *r)
{
    const struct probe_params *p = &r->params;
    const char *w = r->workload;
    double e = element_bytes(p);
    if (!strcmp(w, PROBE_WL_GEMM)) {
        double n = p->n; /* 2 n^3 FLOP over three n x n matrices */
        return n > 0 ? 2 * n / (3 * e) : NAN;
    }
    if (!strcmp(w, PROBE_WL_TRAIN_MLP)) {
        double batch = p->batch, flops = 0, bytes = 0, params = 0;
        const char *layers = p->layers;
        if (!(batch > 0) || !*layers) return NAN;
        double in = atof(layers);
        for (const char *c = strchr(layers, ','); c; c = strchr(c + 1, ',')) {
            double out = atof(c + 1);
            flops += 6 * batch * in * out;
            bytes += product_bytes(batch, in, out, e);
            params += in * out + out;
            in = out;
        }
        bytes += PLAN_ADAMW_BYTES_PER_PARAM * params;
        return bytes > 0 ? flops / bytes : NAN;
    }
    if (!strcmp(w, PROBE_WL_TRAIN_GPT)) {
        double L = p->n_layer, H = p->n_head, C = p->n_embd, T = p->ctx, V = p->vocab, B = p->batch;
        if (!(L > 0 && H > 0 && C > 0 && T > 0 && V > 0 && B > 0)) return NAN;
        double M = B * T, hs = C / H;
        /* N as the workload counts it (without the position table): per layer the attention's
         * and the MLP's weights and biases and two layer norms, then the final norm and the tied
         * embedding; FLOPs per token 6 N + 12 L C T. */
        double N = L * (12 * C * C + 13 * C) + V * C + 2 * C, flops = (6 * N + 12 * L * C * T) * M;
        double layer = product_bytes(M, C, 3 * C, e) + product_bytes(M, C, C, e) + product_bytes(M, C, 4 * C, e) +
                       product_bytes(M, 4 * C, C, e);
        double attention = 3 * e * B * H * (4 * T * hs + 2 * T * T); /* Q K^T and the weights times V */
        double bytes = L * (layer + attention) + product_bytes(M, C, V, e) + PLAN_ADAMW_BYTES_PER_PARAM * (N + T * C);
        return flops / bytes;
    }
    return NAN;
}

/* --- the machine's peaks, per device --------------------------------------------------------- */

/* The accelerator with the catalog entry of a GPU device ("cuda:N"), or NULL. */
static const struct measured_accel *catalog_of(const struct measured_run *m, const char *device)
{
    if (measured_device_kind(device) != MEASURED_DEV_CUDA) return NULL;
    for (int i = 0; i < m->naccel; i++)
        if (!strcmp(m->accel[i].kind, "nvidia") && m->accel[i].has_catalog) return &m->accel[i];
    return NULL;
}

/* The catalog's (a GPU) or the theoretical (a CPU) peak in GFLOP/s: fp32 or bf16. */
static double table_peak(const struct measured_run *m, const char *device, int bf16)
{
    const struct measured_accel *cat = catalog_of(m, device);
    if (cat) return (bf16 ? cat->catalog_bf16_tflops : cat->catalog_fp32_tflops) * 1e3;
    if (measured_device_kind(device) == MEASURED_DEV_CUDA) return NAN;
    return bf16 ? m->cpu_peak_gflops_bf16 : m->cpu_peak_gflops_fp32;
}

/* The catalog's memory bandwidth of a device in GB/s, NAN without one. */
static double table_bandwidth(const struct measured_run *m, const char *device)
{
    const struct measured_accel *cat = catalog_of(m, device);
    return cat ? cat->catalog_bandwidth_gbs : NAN;
}

/* A result's rate in GFLOP/s (its scale from the document's unit), NAN when it is no rate. */
static double gflops_scale(const struct measured_result *r)
{
    const char *u = r->unit;
    return !strcmp(u, "GFLOP/s") ? 1 : !strcmp(u, "TFLOP/s") ? 1e3 : NAN;
}

/* The best median of a workload's results on a device in a unit family (GEMM GFLOP/s, STREAM
 * GB/s). */
static double best(const struct measured_run *m, const char *device, const char *workload)
{
    double v = NAN;
    for (int i = 0; i < m->nresults; i++) {
        const struct measured_result *r = &m->results[i];
        if (on(r, device) && !strcmp(r->workload, workload) && !(r->median <= v)) {
            double scale = !strcmp(workload, PROBE_WL_GEMM) ? gflops_scale(r) : 1;
            if (!isnan(scale)) v = r->median * scale;
        }
    }
    return v;
}

static void device_name(const struct measured_run *m, const char *device, char *out, size_t n)
{
    if (measured_device_kind(device) == MEASURED_DEV_CPU) {
        snprintf(out, n, "CPU (%s)", *m->cpu_model ? m->cpu_model : "model unknown");
        return;
    }
    for (int i = 0; i < m->naccel; i++) {
        if (strcmp(m->accel[i].kind, "cpu") != 0) {
            snprintf(out, n, "%s (%s)", device, m->accel[i].name);
            return;
        }
    }
    snprintf(out, n, "%s", device);
}

/* --- sections -------------------------------------------------------------------------------- */

struct page {
    struct html *h;
    const struct measured_run *run, *base; /* base NULL without a baseline */
    struct probe_table *t;
    int nresults;
    char (*labels)[160];  /* per result: "gemm gflops n=256" */
    char (*ptrs)[48];     /* per result: "/results/i/median" */
    char (*summary)[512]; /* the run's summary lines (run_table.h) */
    int nsummary;
};

/* One member of a shown object: its key in words, then its value. */
static void member(struct html *h, const char *key, const char *text, double number)
{
    char words[128], num[32];
    html_key_text(key, words, sizeof words);
    html_elem(h, "dt", words);
    html_raw(h, "<dd>");
    if (text) html_text(h, text);
    else units_number(number, num, sizeof num), html_raw(h, num);
    html_raw(h, "</dd>");
}

/* An accelerator's catalog entry as the page shows an object: its keys as the run writes them,
 * those not given left out. */
static void catalog_entry(struct html *h, const struct measured_accel *a)
{
    static const char *const keys[] = {"fp32_tflops", "bf16_tflops", "fp16_tflops", "bandwidth_gbs"};
    const double values[] = {a->catalog_fp32_tflops, a->catalog_bf16_tflops, a->catalog_fp16_tflops, a->catalog_bandwidth_gbs};
    html_raw(h, "<dl class=\"kv\">");
    if (*a->catalog_id) member(h, "id", a->catalog_id, NAN);
    for (int i = 0; i < 4; i++)
        if (isfinite(values[i])) member(h, keys[i], NULL, values[i]);
    html_raw(h, "</dl>");
}

static void machine(struct page *pg)
{
    struct html *h = pg->h;
    const struct measured_run *m = pg->run;
    html_raw(h, "<section id=\"machine\"><h2>Machine</h2>\n");
    for (int i = 1; i < pg->nsummary; i++) html_elem(h, "p", pg->summary[i]);
    html_raw(h, "<p class=\"note\">");
    html_textf(h, "%s, kernel %s, %s; fwadvisor %s.", m->host_os, m->host_kernel, m->host_arch, m->version);
    html_raw(h, "</p>\n");
    int cat = 0;
    for (int i = 0; i < m->naccel; i++) cat |= m->accel[i].has_catalog;
    if (cat) {
        html_raw(h, "<h3>Catalog peaks of the accelerators</h3>\n");
        for (int i = 0; i < m->naccel; i++) {
            if (!m->accel[i].has_catalog) continue;
            html_elem(h, "p", m->accel[i].name);
            catalog_entry(h, &m->accel[i]);
        }
    }
    html_raw(h, "</section>\n");
}

/* The devices the run has results for, in order of first appearance. */
static int devices(const struct measured_run *m, const char **out, int max)
{
    int n = 0;
    for (int r = 0; r < m->nresults; r++) {
        if (!m->results[r].ok) continue;
        const char *d = m->results[r].device;
        int seen = 0;
        for (int i = 0; i < n; i++) seen |= strcmp(out[i], d) == 0;
        if (!seen && n < max) out[n++] = d;
    }
    return n;
}

/* Bars of the results on a device that pass `want`, in GFLOP/s or GB/s. */
static int collect(struct page *pg, const char *device, int (*want)(const struct measured_result *), struct html_bar *bars)
{
    int n = 0;
    for (int i = 0; i < pg->nresults; i++) {
        const struct measured_result *r = &pg->run->results[i];
        if (!on(r, device) || !want(r)) continue;
        double scale = !strcmp(r->unit, "TFLOP/s") ? 1e3 : 1;
        bars[n++] = (struct html_bar){pg->labels[i], r->median * scale, r->min * scale, r->max * scale, NAN,
                                      r->noisy ? "noisy" : NULL, pg->ptrs[i], scale, !strcmp(r->workload, PROBE_WL_GEMM) ? 0 : 1};
    }
    return n;
}

static int is_rate(const struct measured_result *r) { return !isnan(gflops_scale(r)); }
static int is_bandwidth(const struct measured_result *r)
{
    return !strcmp(r->unit, "GB/s") && strcmp(r->workload, PROBE_WL_ALLREDUCE) != 0;
}

static void against_peaks(struct page *pg, const char *device, const char *name)
{
    struct html *h = pg->h;
    struct html_bar *bars = calloc((size_t)pg->nresults + 1, sizeof *bars);
    if (!bars) {
        h->failed = 1;
        return;
    }
    char title[400];
    int n = collect(pg, device, is_rate, bars);
    int cat = catalog_of(pg->run, device) != NULL;
    struct html_ref refs[3] = {
        {best(pg->run, device, PROBE_WL_GEMM), "measured GEMM best", 1},
        {table_peak(pg->run, device, 0), cat ? "catalog FP32" : "theoretical FP32", 0},
        {table_peak(pg->run, device, 1), cat ? "catalog BF16 dense" : "theoretical BF16", 0},
    };
    if (n) {
        snprintf(title, sizeof title, "%s: compute rate, median with min-max, against the peaks", name);
        struct html_chart c = {title, "GFLOP/s", 0, 0, 0, 0, NULL};
        html_bar_chart(h, &c, bars, n, refs, isnan(refs[2].value) ? 2 : 3);
    }
    n = collect(pg, device, is_bandwidth, bars);
    struct html_ref bw = {table_bandwidth(pg->run, device), "catalog memory bandwidth", 0};
    if (n) {
        snprintf(title, sizeof title, "%s: memory and transfer bandwidth, median with min-max", name);
        struct html_chart c = {title, "GB/s", 0, 0, 0, 0, NULL};
        html_bar_chart(h, &c, bars, n, &bw, isnan(bw.value) ? 0 : 1);
    }
    free(bars);
}

/* A roof: bandwidth times intensity up to the compute peak, then flat. */
static int roof(struct html_point *pts, double peak, double bandwidth, double x0, double x1)
{
    if (isnan(peak) && isnan(bandwidth)) return 0;
    if (isnan(bandwidth)) {
        pts[0] = (struct html_point){x0, peak, NULL, NULL, 0};
        pts[1] = (struct html_point){x1, peak, NULL, NULL, 0};
        return 2;
    }
    if (isnan(peak)) {
        pts[0] = (struct html_point){x0, x0 * bandwidth, NULL, NULL, 0};
        pts[1] = (struct html_point){x1, x1 * bandwidth, NULL, NULL, 0};
        return 2;
    }
    double ridge = peak / bandwidth;
    pts[0] = (struct html_point){x0, fmin(peak, x0 * bandwidth), NULL, NULL, 0};
    int n = 1;
    if (ridge > x0 && ridge < x1) pts[n++] = (struct html_point){ridge, peak, NULL, NULL, 0};
    pts[n++] = (struct html_point){x1, fmin(peak, x1 * bandwidth), NULL, NULL, 0};
    return n;
}

static void roofline(struct page *pg, const char *device, const char *name)
{
    struct html *h = pg->h;
    struct html_point *gemm = calloc((size_t)pg->nresults + 1, sizeof *gemm), *train = calloc((size_t)pg->nresults + 1, sizeof *train);
    if (!gemm || !train) {
        free(gemm), free(train);
        h->failed = 1;
        return;
    }
    int ng = 0, nt = 0, half = 0;
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < pg->nresults; i++) {
        const struct measured_result *r = &pg->run->results[i];
        double ai = probe_intensity(r), scale = gflops_scale(r);
        half |= on(r, device) && element_bytes(&r->params) < 4;
        if (on(r, device) && isfinite(ai) && !isnan(scale) && strcmp(r->metric, PROBE_M_GFLOPS_BEST) != 0) {
            struct html_point p = {ai, r->median * scale, pg->labels[i], pg->ptrs[i], scale};
            if (!strcmp(r->workload, PROBE_WL_GEMM)) p.label = NULL, gemm[ng++] = p;
            else train[nt++] = p;
            lo = fmin(lo, ai), hi = fmax(hi, ai);
        }
    }
    double peak = best(pg->run, device, PROBE_WL_GEMM), bandwidth = best(pg->run, device, PROBE_WL_STREAM);
    /* the roof of the fastest precision the run used on this device: 16-bit where it used one */
    double cat_peak = half ? table_peak(pg->run, device, 1) : NAN, cat_bw = table_bandwidth(pg->run, device);
    if (isnan(cat_peak)) half = 0, cat_peak = table_peak(pg->run, device, 0);
    if (nt + ng > 0) {
        double x0 = pow(10, floor(log10(fmin(lo, isnan(bandwidth) ? lo : peak / bandwidth)) - 1));
        double x1 = pow(10, ceil(log10(hi * 2)));
        struct html_point measured[3], catalog[3];
        int nm = roof(measured, peak, bandwidth, x0, x1), nc = roof(catalog, cat_peak, cat_bw, x0, x1);
        struct html_series s[4];
        int ns = 0;
        if (nm) s[ns++] = (struct html_series){"measured roof: GEMM best and STREAM best", 0, 1, 0, measured, nm};
        const char *cat_name = catalog_of(pg->run, device) ? (half ? "catalog roof (BF16 dense, memory bandwidth)"
                                                                   : "catalog roof (FP32, memory bandwidth)")
                                                           : half ? "theoretical BF16 peak" : "theoretical FP32 peak";
        if (nc) s[ns++] = (struct html_series){cat_name, 7, 1, 0, catalog, nc};
        if (ng) s[ns++] = (struct html_series){"gemm sizes", 4, 0, 1, gemm, ng};
        if (nt) s[ns++] = (struct html_series){"training steps", 1, 0, 1, train, nt};
        char title[400];
        snprintf(title, sizeof title, "%s: roofline, the training workloads placed by arithmetic intensity", name);
        struct html_xy c = {title, "arithmetic intensity (FLOP per byte of memory traffic, log scale)",
                            "GFLOP/s (log scale)", 1, 1, x0, x1, 0, 0, NULL};
        html_xy_chart(h, &c, s, ns);
        html_raw(h, "<p class=\"note\">Intensity counts each matrix product's operands read once and its result "
                    "written once, plus Adam's 28 bytes per parameter: an upper bound, so a point sits at or left of its "
                    "true place. Below the sloped roof a workload waits on memory, below the flat one on arithmetic.</p>\n");
    }
    free(gemm), free(train);
}

/* Which parameter a chart's x is. */
enum point_x { X_BYTES, X_RANKS };

/* The x of a result: its bytes or ranks, NaN when it has none. */
static double x_of(const struct measured_result *r, enum point_x x)
{
    double v = x == X_BYTES ? (double)r->params.bytes : r->params.ranks;
    return v > 0 ? v : NAN;
}

/* The same workload's results of a run as points: x from its params, y the median. */
static int points_of(const struct measured_run *m, const char *workload, const char *metric, enum point_x x_key,
                     double yscale, struct html_point *pts, char (*ptrs)[48], int max, int pointers)
{
    int n = 0;
    for (int i = 0; i < m->nresults; i++) {
        const struct measured_result *r = &m->results[i];
        if (r->ok && !strcmp(r->workload, workload) && !strcmp(r->metric, metric) && n < max) {
            snprintf(ptrs[n], sizeof ptrs[n], "/results/%d/median", i);
            pts[n] = (struct html_point){x_of(r, x_key), r->median * yscale, NULL, pointers ? ptrs[n] : NULL, yscale};
            n++;
        }
    }
    return n;
}

static void allreduce(struct page *pg)
{
    struct html_point mine[64], theirs[64];
    char p1[64][48], p2[64][48];
    int n = points_of(pg->run, PROBE_WL_ALLREDUCE, PROBE_M_BUSBW_GBS, X_BYTES, 1, mine, p1, 64, 1);
    int nb = pg->base ? points_of(pg->base, PROBE_WL_ALLREDUCE, PROBE_M_BUSBW_GBS, X_BYTES, 1, theirs, p2, 64, 0) : 0;
    if (!n) return;
    struct html_series s[2] = {{"this run", 0, 1, 1, mine, n}, {"baseline run", 1, 1, 1, theirs, nb}};
    char title[200];
    snprintf(title, sizeof title, "All-reduce bus bandwidth by message size (%.0f ranks)", pg->run->rank_count_given);
    struct html_xy c = {title, "message size (bytes, log scale)", "bus bandwidth (GB/s, log scale)", 1, 1, 0, 0, 0, 0, "allreduce-chart"};
    html_xy_chart(pg->h, &c, s, nb ? 2 : 1);
}

/* A table cell as the page shows a stored value: a number (a dash when not given), or text. */
static void cell(struct html *h, const char *text, double number)
{
    char num[32];
    if (text) {
        html_raw(h, "<td>");
        html_text(h, text);
    } else if (isfinite(number)) {
        units_number(number, num, sizeof num);
        html_rawf(h, "<td class=\"n\">%s", num);
    } else {
        html_raw(h, "<td>&#8212;");
    }
    html_raw(h, "</td>");
}

/* Each rank's figures, a row a rank, the columns as the run names them. */
static void per_rank_table(struct html *h, const struct measured_run *m)
{
    static const char *const keys[] = {"rank", "host", "compute_ms", "comm_ms", "samples_per_s"};
    char words[128];
    html_raw(h, "<table><thead><tr>");
    for (int c = 0; c < 5; c++) html_key_text(keys[c], words, sizeof words), html_elem(h, "th", words);
    html_raw(h, "</tr></thead><tbody>");
    for (int i = 0; i < m->nper_rank; i++) {
        const struct measured_rank *r = &m->per_rank[i];
        html_raw(h, "<tr>");
        cell(h, NULL, r->rank);
        cell(h, r->host, NAN);
        cell(h, NULL, r->compute_ms);
        cell(h, NULL, r->comm_ms);
        cell(h, NULL, r->samples_per_s);
        html_raw(h, "</tr>");
    }
    html_raw(h, "</tbody></table>");
}

static void scaling(struct page *pg)
{
    struct html_point mine[9], theirs[9], ideal[2];
    char p1[8][48], p2[8][48];
    /* the single process is 100% by definition; the runs' rank counts follow */
    mine[0] = theirs[0] = (struct html_point){1, 100, "1 rank", NULL, 0};
    int n = 1 + points_of(pg->run, PROBE_WL_TRAIN_DP, PROBE_M_SCALING_EFFICIENCY, X_RANKS, 100, mine + 1, p1, 8, 1);
    int nb = pg->base ? 1 + points_of(pg->base, PROBE_WL_TRAIN_DP, PROBE_M_SCALING_EFFICIENCY, X_RANKS, 100, theirs + 1, p2, 8, 0) : 0;
    if (n < 2) return;
    double most = 1;
    for (int i = 0; i < n; i++) most = fmax(most, mine[i].x);
    for (int i = 0; i < nb; i++) most = fmax(most, theirs[i].x);
    char labels[9][32];
    for (int i = 1; i < n && i < 9; i++) {
        snprintf(labels[i], sizeof labels[i], "%.0f ranks: %.0f%%", mine[i].x, mine[i].y);
        mine[i].label = labels[i];
    }
    ideal[0] = (struct html_point){1, 100, NULL, NULL, 0};
    ideal[1] = (struct html_point){most, 100, NULL, NULL, 0};
    struct html_series s[3] = {{"ideal (linear)", 7, 1, 0, ideal, 2}, {"this run", 0, 1, 1, mine, n}, {"baseline run", 1, 1, 1, theirs, nb}};
    struct html_xy c = {"Data-parallel efficiency by rank count (throughput of N ranks / N x one process)", "ranks",
                        "efficiency (%)", 0, 0, 0, most + 1, 0, 110, "scaling-chart"};
    html_xy_chart(pg->h, &c, s, nb > 1 ? 3 : 2);
    if (pg->run->nper_rank) {
        html_raw(pg->h, "<h3>Each rank's step: compute and communication (medians)</h3>\n");
        per_rank_table(pg->h, pg->run);
    }
}

static void append_word(char *out, size_t n, size_t *used, const char *word)
{
    if (*word && *used < n) *used += (size_t)snprintf(out + *used, n - *used, "%s%s", *used ? " " : "", word);
}

/* A frameworks row's name, the words of its parameters the run stored: framework, mode, model,
 * what a step counts, kind, version ("" when none). */
static void framework_label(const struct measured_result *r, char *out, size_t n)
{
    const struct probe_params *p = &r->params;
    size_t used = 0;
    out[0] = '\0';
    if (p->shape != PROBE_PP_FRAMEWORK) return;
    append_word(out, n, &used, p->framework);
    append_word(out, n, &used, p->mode);
    if (p->model >= 0) append_word(out, n, &used, p->model ? "gpt" : "mlp");
    append_word(out, n, &used, p->per_step_unit);
    append_word(out, n, &used, p->kind);
    append_word(out, n, &used, p->version);
}

/* Frameworks side by side: the frameworks workload's results, one chart per metric. */
static void frameworks(struct page *pg)
{
    const struct measured_run *run = pg->run;
    const char *metrics[16];
    int nm = 0;
    for (int k = 0; k < run->nresults; k++) {
        const struct measured_result *r = &run->results[k];
        if (!r->ok || strcmp(r->workload, PROBE_WL_FRAMEWORKS) != 0) continue;
        int seen = 0;
        for (int i = 0; i < nm; i++) seen |= !strcmp(metrics[i], r->metric);
        if (!seen && nm < 16) metrics[nm++] = r->metric;
    }
    if (!nm) return;
    struct html_bar *bars = calloc((size_t)pg->nresults + 1, sizeof *bars);
    char (*labels)[160] = calloc((size_t)pg->nresults + 1, sizeof *labels);
    if (!bars || !labels) {
        free(bars), free(labels);
        pg->h->failed = 1;
        return;
    }
    html_raw(pg->h, "<section id=\"frameworks\"><h2>Frameworks side by side</h2>\n");
    for (int m = 0; m < nm; m++) {
        int n = 0;
        const char *unit = "";
        for (int i = 0; i < pg->nresults; i++) {
            const struct measured_result *r = &run->results[i];
            if (!r->ok || strcmp(r->workload, PROBE_WL_FRAMEWORKS) != 0 || strcmp(r->metric, metrics[m]) != 0) continue;
            framework_label(r, labels[n], sizeof labels[n]);
            bars[n] = (struct html_bar){labels[n][0] ? labels[n] : pg->labels[i], r->median, r->min, r->max, NAN,
                                        r->noisy ? "noisy" : NULL, pg->ptrs[i], 0, n % 6};
            unit = r->unit;
            n++;
        }
        char title[200], axis[96];
        snprintf(title, sizeof title, "%s by framework, median with min-max", metrics[m]);
        snprintf(axis, sizeof axis, "%s", unit);
        struct html_chart c = {title, axis, 0, 0, 0, 0, NULL};
        html_bar_chart(pg->h, &c, bars, n, NULL, 0);
    }
    html_raw(pg->h, "</section>\n");
    free(bars), free(labels);
}

static void change(struct page *pg)
{
    struct probe_table *t = pg->t;
    if (!t->compared) return;
    struct html_bar *bars = calloc((size_t)t->nrows + 1, sizeof *bars);
    if (!bars) {
        pg->h->failed = 1;
        return;
    }
    static const char *const words[] = {"", "same", "better", "WORSE", "new"};
    int n = 0, fresh = 0;
    for (int i = 0; i < t->nrows; i++) {
        const struct probe_table_row *row = &t->rows[i];
        if (row->skipped || row->verdict == PV_NONE) continue;
        if (row->verdict == PV_NEW) {
            fresh++;
            continue;
        }
        bars[n++] = (struct html_bar){pg->labels[i], row->change, NAN, NAN, NAN, words[row->verdict], NULL, 0,
                                      row->verdict == PV_BETTER ? 2 : row->verdict == PV_WORSE ? 5 : 4};
    }
    html_raw(pg->h, "<section id=\"change\"><h2>Change against the baseline</h2>\n<p>");
    html_textf(pg->h, "Baseline: probe run %s of %s.", pg->base ? pg->base->id : "", pg->base ? pg->base->started_at : "");
    html_raw(pg->h, "</p>\n");
    if (n) {
        struct html_chart c = {"Change of each median against the baseline run", "change (%; for us per step lower is better)", 0, 0, 1, 1, "change-chart"};
        html_bar_chart(pg->h, &c, bars, n, NULL, 0);
    }
    html_raw(pg->h, "<p class=\"note\">");
    html_text(pg->h, probe_table_compare_note(t));
    if (fresh) html_textf(pg->h, " %d result%s had no match in the baseline.", fresh, fresh == 1 ? "" : "s");
    html_raw(pg->h, "</p></section>\n");
    free(bars);
}

/* Every result as the command line's table shows it, then the skipped ones with their reasons. */
static void table(struct page *pg)
{
    struct html *h = pg->h;
    struct probe_table *t = pg->t;
    const enum probe_col *cols = t->compared ? probe_table_compared : probe_table_plain;
    html_raw(h, "<section id=\"results\"><h2>All results</h2>\n<table><thead><tr>");
    for (int c = 0; cols[c] != PT_NCOLS; c++) {
        html_raw(h, cols[c] >= PT_MEDIAN && cols[c] != PT_RANGE ? "<th class=\"n\">" : "<th>");
        html_text(h, probe_table_headers[cols[c]]);
        html_raw(h, "</th>");
    }
    html_raw(h, "<th>unit</th></tr></thead><tbody>\n");
    for (int i = 0; i < t->nrows; i++) {
        const struct probe_table_row *row = &t->rows[i];
        if (row->skipped) continue;
        html_raw(h, "<tr>");
        for (int c = 0; cols[c] != PT_NCOLS; c++) {
            int bold = cols[c] == PT_CHANGE && (row->verdict == PV_WORSE || row->verdict == PV_BETTER);
            html_raw(h, cols[c] >= PT_MEDIAN && cols[c] != PT_RANGE ? (bold ? "<td class=\"n good\">" : "<td class=\"n\">") : "<td>");
            html_text(h, row->cell[cols[c]]);
            html_raw(h, "</td>");
        }
        html_elem(h, "td", i < pg->run->nresults ? pg->run->results[i].unit : "");
        html_raw(h, "</tr>\n");
    }
    html_raw(h, "</tbody></table>\n");
    const char *note = probe_table_noise_note(t);
    if (*note) html_elem(h, "p class=\"note\"", note);
    int skipped = 0;
    for (int i = 0; i < t->nrows; i++) skipped += t->rows[i].skipped;
    if (skipped) {
        html_raw(h, "<h3>Not measured</h3>\n<ul>");
        for (int i = 0; i < t->nrows; i++) {
            if (!t->rows[i].skipped) continue;
            html_raw(h, "<li>");
            html_textf(h, "%s %s: %s", t->rows[i].cell[PT_WORKLOAD], t->rows[i].cell[PT_METRIC], t->rows[i].reason);
            html_raw(h, "</li>");
        }
        html_raw(h, "</ul>\n");
    }
    html_raw(h, "</section>\n");
}

/* The peaks section: per device the run charted, its rates and bandwidths against the peaks and
 * its roofline. */
static void peaks(struct page *pg)
{
    struct html *h = pg->h;
    const struct measured_run *m = pg->run;
    const char *devs[8];
    int nd = devices(m, devs, 8);
    html_raw(h, "<section id=\"peaks\"><h2>Results against the peaks</h2>\n<p class=\"note\">Bars are medians, whiskers "
                "the fastest and slowest repeat; the dashed line is the best GEMM this run measured, the solid ones the "
                "catalog's or the CPU's theoretical peak.</p>\n");
    for (int d = 0; d < nd; d++) {
        char name[256];
        int charted = 0;
        for (int i = 0; i < m->nresults; i++) {
            const struct measured_result *r = &m->results[i];
            charted |= on(r, devs[d]) && (is_rate(r) || is_bandwidth(r)) && strcmp(r->workload, PROBE_WL_FRAMEWORKS) != 0;
        }
        if (!charted) continue;
        device_name(m, devs[d], name, sizeof name);
        html_raw(h, "<h3>");
        html_text(h, name);
        html_raw(h, "</h3>\n");
        against_peaks(pg, devs[d], name);
        roofline(pg, devs[d], name);
    }
    html_raw(h, "</section>\n");
}

static void across_ranks(struct page *pg)
{
    int across = 0;
    for (int i = 0; i < pg->run->nresults; i++) {
        const struct measured_result *r = &pg->run->results[i];
        across |= r->ok && (!strcmp(r->workload, PROBE_WL_ALLREDUCE) || !strcmp(r->workload, PROBE_WL_TRAIN_DP));
    }
    if (!across) return;
    html_raw(pg->h, "<section id=\"ranks\"><h2>Across ranks</h2>\n");
    allreduce(pg);
    scaling(pg);
    html_raw(pg->h, "</section>\n");
}

static void page_free(struct page *pg)
{
    free(pg->t), free(pg->labels), free(pg->ptrs), free(pg->summary);
    free((struct measured_run *)pg->run), free((struct measured_run *)pg->base);
}

/* The run and the baseline read once, the table built, each result's label and pointer. */
static int page_open(struct page *pg, const cJSON *doc, const cJSON *base)
{
    struct measured_run *run = calloc(1, sizeof *run), *then = base ? calloc(1, sizeof *then) : NULL;
    pg->run = run, pg->base = then;
    pg->t = malloc(sizeof *pg->t);
    pg->summary = calloc(24, sizeof *pg->summary);
    if (!run || (base && !then) || !pg->t || !pg->summary) return -1;
    measured_read(doc, run); /* a document that is no object reads as a run without results */
    if (then) measured_read(base, then);
    pg->nresults = run->nresults;
    pg->labels = calloc((size_t)pg->nresults + 1, sizeof *pg->labels);
    pg->ptrs = calloc((size_t)pg->nresults + 1, sizeof *pg->ptrs);
    if (!pg->labels || !pg->ptrs) return -1;
    probe_table_from(run, then, pg->t);
    for (int i = 0; i < pg->nresults; i++) {
        const struct probe_table_row *row = &pg->t->rows[i];
        snprintf(pg->labels[i], sizeof pg->labels[i], "%s %s %s", row->cell[PT_WORKLOAD], row->cell[PT_METRIC], row->cell[PT_PARAMS]);
        snprintf(pg->ptrs[i], sizeof pg->ptrs[i], "/results/%d/median", i);
    }
    pg->nsummary = probe_summary_from(run, pg->summary, 24);
    return 0;
}

/* The planner's GPT step against the measured one: this run's, then run by run. */
static void plan_check(struct page *pg, const struct probe_plan_point *history, int n)
{
    const char *note = probe_table_plan_note(pg->t);
    if (!*note && n == 0) return;
    html_raw(pg->h, "<section id=\"plan-check\"><h2>The plan against this machine</h2>\n<p>");
    html_text(pg->h, *note ? note : "This run has no train-gpt step.");
    html_raw(pg->h, "</p>\n");
    if (n > 0) {
        struct html_bar *bars = calloc((size_t)n, sizeof *bars);
        char (*labels)[128] = calloc((size_t)n, sizeof *labels), (*notes)[96] = calloc((size_t)n, sizeof *notes);
        for (int i = 0; bars && labels && notes && i < n; i++) {
            const struct probe_plan_point *p = &history[i];
            snprintf(labels[i], sizeof labels[i], "%s (%s, %.10s)", p->id, p->device, p->started_at);
            snprintf(notes[i], sizeof notes[i], "planned %.4g ms, measured %.4g ms", p->planned_ms, p->measured_ms);
            bars[i] = (struct html_bar){labels[i], p->planned_ms / p->measured_ms, NAN, NAN, NAN, notes[i], NULL, 0, 1};
        }
        const struct html_ref refs[] = {{1, "planned = measured", 0}, {0.67, "0.67", 1}, {1.5, "1.5", 1}};
        struct html_chart c = {"Planned over measured GPT step, run by run (oldest first)",
                               "planned / measured step time", 0, 0, 0, 0, "plan-check-chart"};
        if (bars && labels && notes) html_bar_chart(pg->h, &c, bars, n, refs, 3);
        else pg->h->failed = 1;
        free(bars), free(labels), free(notes);
    }
    html_raw(pg->h, "<p class=\"note\">");
    html_text(pg->h, "The plan: the step's matrix products at the run's best GEMM rate plus its other passes over "
                     "memory (stored activations written and read back, AdamW's states) at the run's bandwidth; "
                     "the dashed lines at 0.67 and 1.5 mark the band the planner is held to.");
    html_raw(pg->h, "</p></section>\n");
}

int probe_run_html(const cJSON *doc, const cJSON *base, const struct probe_plan_point *history, int n,
                   struct html *h)
{
    struct page pg = {h, NULL, NULL, NULL, 0, NULL, NULL, NULL, 0};
    if (page_open(&pg, doc, base) != 0) {
        page_free(&pg);
        h->failed = 1;
        return -1;
    }
    char title[256];
    snprintf(title, sizeof title, "fwadvisor probe run %s", pg.run->id);
    html_begin(h, title, "en"); /* the probe page is English in every language */
    html_raw(h, "<header><h1>");
    html_text(h, title);
    html_raw(h, "</h1><p class=\"meta\">");
    html_textf(h, "%s. Drawn from the fwadvisor.probe/1 document.", pg.nsummary ? pg.summary[0] : "");
    html_raw(h, "</p></header>\n<main>\n");
    machine(&pg);
    peaks(&pg);
    across_ranks(&pg);
    frameworks(&pg);
    change(&pg);
    plan_check(&pg, history, n);
    table(&pg);
    html_raw(h, "</main>\n");
    html_end(h, "Made by fwadvisor " FWADVISOR_VERSION ". Every figure on this page is the probe run's own "
                "(fwadvisor probe show ID --json gives the same document).");
    page_free(&pg);
    return h->failed ? -1 : 0;
}
