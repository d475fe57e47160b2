/* A probe run as a page (run_html.h). Every chart is drawn per device the run measured; rows are
 * named as the command line's table names them (run_table.c), and the change against a
 * baseline is run_table's verdict. */
#include "probes/run_html.h"
#include "common/json_doc.h"
#include "probes/run_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cJSON *get(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

static int ok(const cJSON *r) { return strcmp(json_str(r, "status"), "ok") == 0 && isfinite(json_num(r, "median")); }

/* --- arithmetic intensity -------------------------------------------------------------------- */

static double element_bytes(const struct probe_params *p)
{
    if (p->dtype == PROBE_DTYPE_BF16 || p->dtype == PROBE_DTYPE_FP16) return 2;
    if (p->dtype == PROBE_DTYPE_FP8) return 1;
    return 4;
}

static double element_bytes_of(const cJSON *r)
{
    struct probe_params p;
    measured_params_read(get(r, "params"), &p);
    return element_bytes(&p);
}

/* A matrix product on m rows from `in` to `out` features, in its three passes (forward, the
 * input's gradient, the weight's gradient): each reads two operands and writes one. */
static double product_bytes(double m, double in, double out, double e) { return 3 * e * (m * in + m * out + in * out); }

enum { ADAM_BYTES = 28 }; /* parameter, gradient, two moments read; parameter, moments written: FP32 */

double probe_intensity(const cJSON *r)
{
    struct probe_params p;
    measured_params_read(get(r, "params"), &p);
    const char *w = json_str(r, "workload");
    double e = element_bytes(&p);
    if (!strcmp(w, PROBE_WL_GEMM)) {
        double n = p.n; /* 2 n^3 FLOP over three n x n matrices */
        return n > 0 ? 2 * n / (3 * e) : NAN;
    }
    if (!strcmp(w, PROBE_WL_TRAIN_MLP)) {
        double batch = p.batch, flops = 0, bytes = 0, params = 0;
        const char *layers = p.layers;
        if (!(batch > 0) || !*layers) return NAN;
        double in = atof(layers);
        for (const char *c = strchr(layers, ','); c; c = strchr(c + 1, ',')) {
            double out = atof(c + 1);
            flops += 6 * batch * in * out;
            bytes += product_bytes(batch, in, out, e);
            params += in * out + out;
            in = out;
        }
        bytes += ADAM_BYTES * params;
        return bytes > 0 ? flops / bytes : NAN;
    }
    if (!strcmp(w, PROBE_WL_TRAIN_GPT)) {
        double L = p.n_layer, H = p.n_head, C = p.n_embd, T = p.ctx, V = p.vocab, B = p.batch;
        if (!(L > 0 && H > 0 && C > 0 && T > 0 && V > 0 && B > 0)) return NAN;
        double M = B * T, hs = C / H;
        /* N as the workload counts it (without the position table): per layer the attention's
         * and the MLP's weights and biases and two layer norms, then the final norm and the tied
         * embedding; FLOPs per token 6 N + 12 L C T. */
        double N = L * (12 * C * C + 13 * C) + V * C + 2 * C, flops = (6 * N + 12 * L * C * T) * M;
        double layer = product_bytes(M, C, 3 * C, e) + product_bytes(M, C, C, e) + product_bytes(M, C, 4 * C, e) +
                       product_bytes(M, 4 * C, C, e);
        double attention = 3 * e * B * H * (4 * T * hs + 2 * T * T); /* Q K^T and the weights times V */
        double bytes = L * (layer + attention) + product_bytes(M, C, V, e) + ADAM_BYTES * (N + T * C);
        return flops / bytes;
    }
    return NAN;
}

/* --- the machine's peaks, per device --------------------------------------------------------- */

/* The catalog entry of a GPU device ("cuda:N"), or NULL. */
static const cJSON *catalog_of(const cJSON *doc, const char *device)
{
    if (strncmp(device, "cuda", 4) != 0) return NULL;
    const cJSON *a;
    cJSON_ArrayForEach(a, get(doc, "accelerators"))
        if (!strcmp(json_str(a, "kind"), "nvidia") && cJSON_IsObject(get(a, "catalog"))) return get(a, "catalog");
    return NULL;
}

/* The catalog's (a GPU) or the theoretical (a CPU) peak in GFLOP/s: fp32 or bf16. */
static double table_peak(const cJSON *doc, const char *device, int bf16, const char **pointer)
{
    const cJSON *cat = catalog_of(doc, device);
    if (cat) {
        *pointer = NULL; /* per accelerator: the page says which */
        return json_num(cat, bf16 ? "bf16_tflops" : "fp32_tflops") * 1e3;
    }
    if (strncmp(device, "cuda", 4) == 0) return NAN;
    *pointer = bf16 ? "/cpu/peak_gflops_bf16" : "/cpu/peak_gflops_fp32";
    return json_num(get(doc, "cpu"), bf16 ? "peak_gflops_bf16" : "peak_gflops_fp32");
}

/* A result's rate in GFLOP/s (its scale from the document's unit), NAN when it is no rate. */
static double gflops_scale(const cJSON *r)
{
    const char *u = json_str(r, "unit");
    return !strcmp(u, "GFLOP/s") ? 1 : !strcmp(u, "TFLOP/s") ? 1e3 : NAN;
}

/* The best median of a workload's results on a device in a unit family (GEMM GFLOP/s, STREAM
 * GB/s), and the index of the result. */
static double best(const cJSON *doc, const char *device, const char *workload, int *at)
{
    const cJSON *r;
    double v = NAN;
    int i = 0;
    *at = -1;
    cJSON_ArrayForEach(r, get(doc, "results")) {
        if (ok(r) && !strcmp(json_str(r, "device"), device) && !strcmp(json_str(r, "workload"), workload) &&
            !(json_num(r, "median") <= v)) {
            double scale = !strcmp(workload, "gemm") ? gflops_scale(r) : 1;
            if (!isnan(scale)) v = json_num(r, "median") * scale, *at = i;
        }
        i++;
    }
    return v;
}

static void device_name(const cJSON *doc, const char *device, char *out, size_t n)
{
    if (!strcmp(device, "cpu")) {
        snprintf(out, n, "CPU (%s)", *json_str(get(doc, "cpu"), "model") ? json_str(get(doc, "cpu"), "model") : "model unknown");
        return;
    }
    const cJSON *a;
    cJSON_ArrayForEach(a, get(doc, "accelerators")) {
        if (strcmp(json_str(a, "kind"), "cpu") != 0) {
            snprintf(out, n, "%s (%s)", device, json_str(a, "name"));
            return;
        }
    }
    snprintf(out, n, "%s", device);
}

/* --- sections -------------------------------------------------------------------------------- */

struct page {
    struct html *h;
    const cJSON *doc, *base;
    struct probe_table *t;
    int nresults;
    char (*labels)[160];  /* per result: "gemm gflops n=256" */
    char (*ptrs)[48];     /* per result: "/results/i/median" */
};

static void machine(struct page *pg)
{
    struct html *h = pg->h;
    char lines[24][512];
    int n = probe_summary_lines(pg->doc, lines, 24);
    html_raw(h, "<section id=\"machine\"><h2>Machine</h2>\n");
    for (int i = 1; i < n; i++) html_elem(h, "p", lines[i]);
    const cJSON *host = get(pg->doc, "host");
    html_raw(h, "<p class=\"note\">");
    html_textf(h, "%s, kernel %s, %s; fwadvisor %s.", json_str(host, "os"), json_str(host, "kernel"), json_str(host, "arch"),
               json_str(pg->doc, "version"));
    html_raw(h, "</p>\n");
    const cJSON *a;
    int cat = 0;
    cJSON_ArrayForEach(a, get(pg->doc, "accelerators")) cat |= cJSON_IsObject(get(a, "catalog"));
    if (cat) {
        html_raw(h, "<h3>Catalog peaks of the accelerators</h3>\n");
        cJSON_ArrayForEach(a, get(pg->doc, "accelerators")) {
            if (!cJSON_IsObject(get(a, "catalog"))) continue;
            html_elem(h, "p", json_str(a, "name"));
            html_json(h, get(a, "catalog"));
        }
    }
    html_raw(h, "</section>\n");
}

/* The devices the run has results for, in order of first appearance. */
static int devices(const cJSON *doc, const char **out, int max)
{
    int n = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, get(doc, "results")) {
        if (!ok(r)) continue;
        const char *d = json_str(r, "device");
        int seen = 0;
        for (int i = 0; i < n; i++) seen |= strcmp(out[i], d) == 0;
        if (!seen && n < max) out[n++] = d;
    }
    return n;
}

/* Bars of the results on a device that pass `want`, in GFLOP/s or GB/s. */
static int collect(struct page *pg, const char *device, int (*want)(const cJSON *), struct html_bar *bars)
{
    const cJSON *r;
    int i = 0, n = 0;
    cJSON_ArrayForEach(r, get(pg->doc, "results")) {
        if (i < pg->nresults && ok(r) && !strcmp(json_str(r, "device"), device) && want(r)) {
            double scale = !strcmp(json_str(r, "unit"), "TFLOP/s") ? 1e3 : 1;
            bars[n++] = (struct html_bar){pg->labels[i], json_num(r, "median") * scale, json_num(r, "min") * scale,
                                          json_num(r, "max") * scale, NAN,
                                          cJSON_IsTrue(get(r, "noisy")) ? "noisy" : NULL, pg->ptrs[i], scale,
                                          !strcmp(json_str(r, "workload"), "gemm") ? 0 : 1};
        }
        i++;
    }
    return n;
}

static int is_rate(const cJSON *r) { return !isnan(gflops_scale(r)); }
static int is_bandwidth(const cJSON *r)
{
    return !strcmp(json_str(r, "unit"), "GB/s") && strcmp(json_str(r, "workload"), "allreduce") != 0;
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
    int at, n = collect(pg, device, is_rate, bars);
    const char *p32 = NULL, *p16 = NULL;
    struct html_ref refs[3] = {
        {best(pg->doc, device, "gemm", &at), "measured GEMM best", 1},
        {table_peak(pg->doc, device, 0, &p32), catalog_of(pg->doc, device) ? "catalog FP32" : "theoretical FP32", 0},
        {table_peak(pg->doc, device, 1, &p16), catalog_of(pg->doc, device) ? "catalog BF16 dense" : "theoretical BF16", 0},
    };
    if (n) {
        snprintf(title, sizeof title, "%s: compute rate, median with min-max, against the peaks", name);
        struct html_chart c = {title, "GFLOP/s", 0, 0, 0, 0, NULL};
        html_bar_chart(h, &c, bars, n, refs, isnan(refs[2].value) ? 2 : 3);
    }
    n = collect(pg, device, is_bandwidth, bars);
    struct html_ref bw = {NAN, "catalog memory bandwidth", 0};
    if (catalog_of(pg->doc, device)) bw.value = json_num(catalog_of(pg->doc, device), "bandwidth_gbs");
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
    int ng = 0, nt = 0, i = 0, at, half = 0;
    double lo = INFINITY, hi = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, get(pg->doc, "results")) {
        double ai = probe_intensity(r), scale = gflops_scale(r);
        half |= ok(r) && !strcmp(json_str(r, "device"), device) && element_bytes_of(r) < 4;
        if (i < pg->nresults && ok(r) && !strcmp(json_str(r, "device"), device) && isfinite(ai) && !isnan(scale) &&
            strcmp(json_str(r, "metric"), "gflops_best") != 0) {
            struct html_point p = {ai, json_num(r, "median") * scale, pg->labels[i], pg->ptrs[i], scale};
            if (!strcmp(json_str(r, "workload"), "gemm")) p.label = NULL, gemm[ng++] = p;
            else train[nt++] = p;
            lo = fmin(lo, ai), hi = fmax(hi, ai);
        }
        i++;
    }
    double peak = best(pg->doc, device, "gemm", &at), bandwidth = best(pg->doc, device, "stream", &at);
    const char *ptr = NULL;
    /* the roof of the fastest precision the run used on this device: 16-bit where it used one */
    double cat_peak = half ? table_peak(pg->doc, device, 1, &ptr) : NAN, cat_bw = NAN;
    if (isnan(cat_peak)) half = 0, cat_peak = table_peak(pg->doc, device, 0, &ptr);
    if (catalog_of(pg->doc, device)) cat_bw = json_num(catalog_of(pg->doc, device), "bandwidth_gbs");
    if (nt + ng > 0) {
        double x0 = pow(10, floor(log10(fmin(lo, isnan(bandwidth) ? lo : peak / bandwidth)) - 1));
        double x1 = pow(10, ceil(log10(hi * 2)));
        struct html_point measured[3], catalog[3];
        int nm = roof(measured, peak, bandwidth, x0, x1), nc = roof(catalog, cat_peak, cat_bw, x0, x1);
        struct html_series s[4];
        int ns = 0;
        if (nm) s[ns++] = (struct html_series){"measured roof: GEMM best and STREAM best", 0, 1, 0, measured, nm};
        const char *cat_name = catalog_of(pg->doc, device) ? (half ? "catalog roof (BF16 dense, memory bandwidth)"
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
static double x_of(const cJSON *r, enum point_x x)
{
    struct probe_params p;
    measured_params_read(get(r, "params"), &p);
    double v = x == X_BYTES ? (double)p.bytes : p.ranks;
    return v > 0 ? v : NAN;
}

/* The same workload's results of a run as points: x from its params, y the median. */
static int points_of(const cJSON *doc, const char *workload, const char *metric, enum point_x x_key, double yscale,
                     struct html_point *pts, char (*ptrs)[48], int max, int pointers)
{
    const cJSON *r;
    int n = 0, i = 0;
    cJSON_ArrayForEach(r, get(doc, "results")) {
        if (ok(r) && !strcmp(json_str(r, "workload"), workload) && !strcmp(json_str(r, "metric"), metric) && n < max) {
            snprintf(ptrs[n], sizeof ptrs[n], "/results/%d/median", i);
            pts[n] = (struct html_point){x_of(r, x_key), json_num(r, "median") * yscale, NULL,
                                         pointers ? ptrs[n] : NULL, yscale};
            n++;
        }
        i++;
    }
    return n;
}

static void allreduce(struct page *pg)
{
    struct html_point mine[64], theirs[64];
    char p1[64][48], p2[64][48];
    int n = points_of(pg->doc, PROBE_WL_ALLREDUCE, PROBE_M_BUSBW_GBS, X_BYTES, 1, mine, p1, 64, 1);
    int nb = pg->base ? points_of(pg->base, PROBE_WL_ALLREDUCE, PROBE_M_BUSBW_GBS, X_BYTES, 1, theirs, p2, 64, 0) : 0;
    if (!n) return;
    struct html_series s[2] = {{"this run", 0, 1, 1, mine, n}, {"baseline run", 1, 1, 1, theirs, nb}};
    char title[200];
    snprintf(title, sizeof title, "All-reduce bus bandwidth by message size (%.0f ranks)", json_num(get(pg->doc, "ranks"), "count"));
    struct html_xy c = {title, "message size (bytes, log scale)", "bus bandwidth (GB/s, log scale)", 1, 1, 0, 0, 0, 0, "allreduce-chart"};
    html_xy_chart(pg->h, &c, s, nb ? 2 : 1);
}

static void scaling(struct page *pg)
{
    struct html_point mine[9], theirs[9], ideal[2];
    char p1[8][48], p2[8][48];
    /* the single process is 100% by definition; the runs' rank counts follow */
    mine[0] = theirs[0] = (struct html_point){1, 100, "1 rank", NULL, 0};
    int n = 1 + points_of(pg->doc, PROBE_WL_TRAIN_DP, PROBE_M_SCALING_EFFICIENCY, X_RANKS, 100, mine + 1, p1, 8, 1);
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
    const cJSON *per = get(get(pg->doc, "ranks"), "per_rank");
    if (cJSON_GetArraySize(per)) {
        html_raw(pg->h, "<h3>Each rank's step: compute and communication (medians)</h3>\n");
        html_json(pg->h, per);
    }
}

static void append_word(char *out, size_t n, size_t *used, const char *word)
{
    if (*word && *used < n) *used += (size_t)snprintf(out + *used, n - *used, "%s%s", *used ? " " : "", word);
}

/* A frameworks row's name, the words of its parameters the run stored: framework, mode, model,
 * what a step counts, kind, version ("" when none). */
static void framework_label(const cJSON *r, char *out, size_t n)
{
    struct probe_params p;
    size_t used = 0;
    measured_params_read(get(r, "params"), &p);
    out[0] = '\0';
    if (p.shape != PROBE_PP_FRAMEWORK) return;
    append_word(out, n, &used, p.framework);
    append_word(out, n, &used, p.mode);
    if (p.model >= 0) append_word(out, n, &used, p.model ? "gpt" : "mlp");
    append_word(out, n, &used, p.per_step_unit);
    append_word(out, n, &used, p.kind);
    append_word(out, n, &used, p.version);
}

/* Frameworks side by side: the frameworks workload's results, one chart per metric. */
static void frameworks(struct page *pg)
{
    const cJSON *r;
    const char *metrics[16];
    int nm = 0;
    cJSON_ArrayForEach(r, get(pg->doc, "results")) {
        if (!ok(r) || strcmp(json_str(r, "workload"), "frameworks") != 0) continue;
        int seen = 0;
        for (int i = 0; i < nm; i++) seen |= !strcmp(metrics[i], json_str(r, "metric"));
        if (!seen && nm < 16) metrics[nm++] = json_str(r, "metric");
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
        int n = 0, i = 0;
        const char *unit = "";
        cJSON_ArrayForEach(r, get(pg->doc, "results")) {
            if (i < pg->nresults && ok(r) && !strcmp(json_str(r, "workload"), "frameworks") && !strcmp(json_str(r, "metric"), metrics[m])) {
                framework_label(r, labels[n], sizeof labels[n]);
                bars[n] = (struct html_bar){labels[n][0] ? labels[n] : pg->labels[i], json_num(r, "median"), json_num(r, "min"),
                                            json_num(r, "max"), NAN, cJSON_IsTrue(get(r, "noisy")) ? "noisy" : NULL,
                                            pg->ptrs[i], 0, n % 6};
                unit = json_str(r, "unit");
                n++;
            }
            i++;
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
    html_textf(pg->h, "Baseline: probe run %s of %s.", json_str(pg->base, "id"), json_str(pg->base, "started_at"));
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
    const cJSON *r = get(pg->doc, "results") ? get(pg->doc, "results")->child : NULL;
    for (int i = 0; i < t->nrows; i++, r = r ? r->next : NULL) {
        const struct probe_table_row *row = &t->rows[i];
        if (row->skipped) continue;
        html_raw(h, "<tr>");
        for (int c = 0; cols[c] != PT_NCOLS; c++) {
            int bold = cols[c] == PT_CHANGE && (row->verdict == PV_WORSE || row->verdict == PV_BETTER);
            html_raw(h, cols[c] >= PT_MEDIAN && cols[c] != PT_RANGE ? (bold ? "<td class=\"n good\">" : "<td class=\"n\">") : "<td>");
            html_text(h, row->cell[cols[c]]);
            html_raw(h, "</td>");
        }
        html_elem(h, "td", json_str(r, "unit"));
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

int probe_run_html(const cJSON *doc, const cJSON *base, struct html *h)
{
    struct page pg = {h, doc, base, NULL, 0, NULL, NULL};
    pg.t = malloc(sizeof *pg.t);
    pg.nresults = cJSON_GetArraySize(get(doc, "results"));
    if (pg.nresults > PROBE_MAX_RESULTS) pg.nresults = PROBE_MAX_RESULTS;
    pg.labels = calloc((size_t)pg.nresults + 1, sizeof *pg.labels);
    pg.ptrs = calloc((size_t)pg.nresults + 1, sizeof *pg.ptrs);
    if (!pg.t || !pg.labels || !pg.ptrs) {
        free(pg.t), free(pg.labels), free(pg.ptrs);
        h->failed = 1;
        return -1;
    }
    probe_table_build(doc, base, pg.t);
    for (int i = 0; i < pg.nresults; i++) {
        const struct probe_table_row *row = &pg.t->rows[i];
        snprintf(pg.labels[i], sizeof pg.labels[i], "%s %s %s", row->cell[PT_WORKLOAD], row->cell[PT_METRIC], row->cell[PT_PARAMS]);
        snprintf(pg.ptrs[i], sizeof pg.ptrs[i], "/results/%d/median", i);
    }
    char title[256], lines[1][512];
    snprintf(title, sizeof title, "fwadvisor probe run %s", json_str(doc, "id"));
    html_begin(h, title);
    html_raw(h, "<header><h1>");
    html_text(h, title);
    html_raw(h, "</h1><p class=\"meta\">");
    probe_summary_lines(doc, lines, 1);
    html_textf(h, "%s. Drawn from the fwadvisor.probe/1 document.", lines[0]);
    html_raw(h, "</p></header>\n<main>\n");
    machine(&pg);
    const char *devs[8];
    const cJSON *r;
    int nd = devices(doc, devs, 8);
    html_raw(h, "<section id=\"peaks\"><h2>Results against the peaks</h2>\n<p class=\"note\">Bars are medians, whiskers "
                "the fastest and slowest repeat; the dashed line is the best GEMM this run measured, the solid ones the "
                "catalog's or the CPU's theoretical peak.</p>\n");
    for (int d = 0; d < nd; d++) {
        char name[256];
        int charted = 0;
        cJSON_ArrayForEach(r, get(doc, "results"))
            charted |= ok(r) && !strcmp(json_str(r, "device"), devs[d]) && (is_rate(r) || is_bandwidth(r)) &&
                       strcmp(json_str(r, "workload"), "frameworks") != 0;
        if (!charted) continue;
        device_name(doc, devs[d], name, sizeof name);
        html_raw(h, "<h3>");
        html_text(h, name);
        html_raw(h, "</h3>\n");
        against_peaks(&pg, devs[d], name);
        roofline(&pg, devs[d], name);
    }
    html_raw(h, "</section>\n");
    int across = 0;
    cJSON_ArrayForEach(r, get(doc, "results"))
        across |= ok(r) && (!strcmp(json_str(r, "workload"), "allreduce") || !strcmp(json_str(r, "workload"), "train-dp"));
    if (across) {
        html_raw(h, "<section id=\"ranks\"><h2>Across ranks</h2>\n");
        allreduce(&pg);
        scaling(&pg);
        html_raw(h, "</section>\n");
    }
    frameworks(&pg);
    change(&pg);
    table(&pg);
    html_raw(h, "</main>\n");
    html_end(h, "Made by fwadvisor " FWADVISOR_VERSION ". Every figure on this page is the probe run's own "
                "(fwadvisor probe show ID --json gives the same document).");
    free(pg.t), free(pg.labels), free(pg.ptrs);
    return h->failed ? -1 : 0;
}
