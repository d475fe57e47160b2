#include "probes/run_table.h"

#include "common/i18n.h"
#include "common/text.h"
#include "common/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const probe_table_headers[PT_NCOLS] = {N_("WORKLOAD"), N_("METRIC"), N_("PARAMS"), N_("MEDIAN"),
                                                   N_("MIN..MAX"), N_("CV%"),   N_("PEAK%"),  N_("BASELINE"),
                                                   N_("CHANGE")};
const enum probe_col probe_table_plain[] = {PT_WORKLOAD, PT_METRIC, PT_PARAMS, PT_MEDIAN, PT_RANGE, PT_CV, PT_PEAK,
                                            PT_NCOLS};
const enum probe_col probe_table_compared[] = {PT_WORKLOAD, PT_METRIC, PT_PARAMS, PT_MEDIAN, PT_CV, PT_BASE, PT_CHANGE,
                                               PT_NCOLS};


/* A message in English (the page) or in the chosen language (the command line, the interface). */
#define SHOWN(local, s) ((local) ? i18n_text(s) : (s))

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
    case PROBE_PP_PLAN: snprintf(out, n, "planned %.4g", p->planned_ms); break; /* "planned 312" (ms) */
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

/* A figure of the table: four significant digits below 1,000 ("94.75", "0.0698"), whole with
 * separators above ("5,250", "483,000"), never in exponent form, which would widen MIN..MAX
 * past what PARAMS can give way to. A ratio (an MFU, a scaling efficiency) in percent, as the
 * PEAK% column beside it: "73.7%". */
static void cell_number(double v, int ratio, char *out, size_t n)
{
    if (ratio) snprintf(out, n, "%.3g%%", v * 100);
    else if (fabs(v) >= 999.95 || v == 0) units_number(v, out, n); /* 999.95 in four digits is 1,000 */
    else snprintf(out, n, "%.4g", v);
}

/* "4,410..6,060", or for a ratio "53.6..80.1%". */
static void cell_range(double lo, double hi, int ratio, char *out, size_t n)
{
    char a[32], b[32];
    if (ratio) snprintf(out, n, "%.3g..%.3g%%", lo * 100, hi * 100);
    else snprintf(out, n, "%s..%s", units_number(lo, a, sizeof a), units_number(hi, b, sizeof b));
}

static int is_ratio(const struct measured_result *m)
{
    return strcmp(m->unit, "ratio") == 0;
}

/* Two numbers the same, NaN (not given) equal to NaN. */
static int same_num(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

/* Whether two results' parameters name the same measurement: the sizes, types and settings it was
 * taken at, never what it measured (an all-reduce's time and algorithm bandwidth, a framework's
 * loss, first step and version, the measured GEMM peak an MFU is a fraction of). */
static int same_params(const struct probe_params *a, const struct probe_params *b)
{
    if (a->shape != b->shape) return 0;
    switch (a->shape) {
    case PROBE_PP_GEMM: return a->n == b->n && a->dtype == b->dtype && a->threads == b->threads;
    case PROBE_PP_STREAM:
        return a->array_bytes == b->array_bytes && a->threads == b->threads && a->ntimes == b->ntimes &&
               same_num(a->bytes_per_element, b->bytes_per_element);
    case PROBE_PP_DEVICE_COPY: return a->bytes == b->bytes;
    case PROBE_PP_TRANSFER: return a->bytes == b->bytes && a->pinned == b->pinned;
    case PROBE_PP_ALLREDUCE:
        return a->bytes == b->bytes && a->ranks == b->ranks && a->dtype == b->dtype && !strcmp(a->via, b->via);
    case PROBE_PP_MLP:
        return !strcmp(a->layers, b->layers) && a->batch == b->batch && !strcmp(a->optimizer, b->optimizer) &&
               a->threads == b->threads && a->dtype == b->dtype;
    case PROBE_PP_DATA_PARALLEL:
        return !strcmp(a->layers, b->layers) && a->batch == b->batch && a->ranks == b->ranks &&
               a->threads == b->threads && !strcmp(a->optimizer, b->optimizer);
    case PROBE_PP_GPT:
    case PROBE_PP_PLAN: /* the shape the step was planned and measured at, not the plan's figures */
        return a->n_layer == b->n_layer && a->n_head == b->n_head && a->n_embd == b->n_embd && a->ctx == b->ctx &&
               a->vocab == b->vocab && a->batch == b->batch && a->dtype == b->dtype;
    case PROBE_PP_PEAK: return a->peak_kind == b->peak_kind && !strcmp(a->peak_source, b->peak_source);
    case PROBE_PP_FRAMEWORK:
        return !strcmp(a->framework, b->framework) && !strcmp(a->mode, b->mode) && a->model == b->model &&
               !strcmp(a->kind, b->kind) && a->python == b->python;
    default: return 1;
    }
}

/* The matching result of a baseline run: same workload, device, metric and parameters. */
static const struct measured_result *find_result(const struct measured_run *base, const struct measured_result *r)
{
    for (int i = 0; i < base->nresults; i++) {
        const struct measured_result *b = &base->results[i];
        if (!strcmp(b->workload, r->workload) && !strcmp(b->device, r->device) && !strcmp(b->metric, r->metric) &&
            same_params(&b->params, &r->params))
            return b;
    }
    return NULL;
}

/* A finished row against the baseline: its median then and the change, or "new". */
static void compare_row(const struct measured_run *base, const struct measured_result *m, struct probe_table_row *row)
{
    const struct measured_result *b = find_result(base, m);
    if (!b || !b->stated_ok || !(b->median > 0)) {
        row->verdict = PV_NEW;
        snprintf(row->cell[PT_BASE], sizeof row->cell[0], "-");
        snprintf(row->cell[PT_CHANGE], sizeof row->cell[0], "new");
        return;
    }
    double bm = b->median, change = (m->median - bm) / bm * 100;
    /* Beyond the noise: twice the larger coefficient of variation, at least 3%. */
    double noise = 200 * fmax(isnan(m->cv) ? 0 : m->cv, isnan(b->cv) ? 0 : b->cv);
    if (noise < 3) noise = 3;
    int lower_better = strcmp(m->unit, "us") == 0 || strcmp(m->unit, "ms") == 0; /* a time: less is faster */
    row->change = change;
    row->verdict = fabs(change) <= noise ? PV_SAME : (change > 0) != lower_better ? PV_BETTER : PV_WORSE;
    cell_number(bm, is_ratio(m), row->cell[PT_BASE], sizeof row->cell[0]);
    snprintf(row->cell[PT_CHANGE], sizeof row->cell[0], "%+.1f%%%s", change,
             row->verdict == PV_BETTER ? " better" : row->verdict == PV_WORSE ? " WORSE" : "");
}

/* One result's row: its names and sizes, then its figures when it finished. Returns 1 when it
 * has figures to compare. */
static int result_row(const struct measured_result *m, struct probe_table_row *row, struct probe_table *t)
{
    row->peak_fraction = -1;
    snprintf(row->cell[PT_WORKLOAD], sizeof row->cell[0], "%s", m->workload);
    snprintf(row->cell[PT_METRIC], sizeof row->cell[0], "%s", short_metric(m->metric));
    short_params(&m->params, row->cell[PT_PARAMS], sizeof row->cell[0]);
    row->frameworks = strcmp(m->workload, PROBE_WL_FRAMEWORKS) == 0; /* their own table (fw_table.c) */
    if (!m->stated_ok) {
        row->skipped = 1;
        snprintf(row->reason, sizeof row->reason, "%s", m->reason);
        return 0;
    }
    if (!m->ok) { /* a stored run written by hand or by another tool */
        row->skipped = 1;
        snprintf(row->reason, sizeof row->reason, "malformed stored result: 'ok' without a finite median");
        return 0;
    }
    double cv = m->cv;
    cell_number(m->median, is_ratio(m), row->cell[PT_MEDIAN], sizeof row->cell[0]);
    if (isfinite(m->min) && isfinite(m->max)) cell_range(m->min, m->max, is_ratio(m), row->cell[PT_RANGE], sizeof row->cell[0]);
    else snprintf(row->cell[PT_RANGE], sizeof row->cell[0], "-");
    row->noisy = m->noisy;
    t->any_noisy |= row->noisy;
    double cv_pct = isfinite(cv) ? cv * 100 : 0; /* a very noisy run: whole percent, so the column stays narrow */
    snprintf(row->cell[PT_CV], sizeof row->cell[0], cv_pct < 99.95 ? "%.1f%s" : "%.0f%s", cv_pct, row->noisy ? "!" : "");
    if (isfinite(m->peak_fraction) && !is_ratio(m)) { /* a ratio's median is its fraction of a peak already */
        row->peak_fraction = m->peak_fraction;
        snprintf(row->cell[PT_PEAK], sizeof row->cell[0], "%.0f", m->peak_fraction * 100);
    } else {
        snprintf(row->cell[PT_PEAK], sizeof row->cell[0], "-");
    }
    return 1;
}

static int is_plan_row(const struct measured_result *m)
{
    return m->params.shape == PROBE_PP_PLAN && m->ok && !strcmp(m->workload, PROBE_WL_TRAIN_GPT);
}

int probe_plan_point_from(const struct measured_run *m, struct probe_plan_point *pt)
{
    memset(pt, 0, sizeof *pt);
    for (int i = 0; i < m->nresults; i++) {
        const struct measured_result *r = &m->results[i];
        if (!is_plan_row(r) || !(r->params.planned_ms > 0) || !(r->median > 0)) continue;
        snprintf(pt->id, sizeof pt->id, "%s", m->id);
        snprintf(pt->started_at, sizeof pt->started_at, "%s", m->started_at);
        snprintf(pt->device, sizeof pt->device, "%s", r->device);
        pt->planned_ms = r->params.planned_ms, pt->measured_ms = r->median;
        return 1;
    }
    return 0;
}

/* The plan check of a train-gpt step_ms row: planned against measured, or why there is no plan. */
static void plan_row(const struct measured_result *m, struct probe_table *t)
{
    const struct probe_params *p = &m->params;
    if (!is_plan_row(m) || t->plan_note[0]) return;
    int cpu = strcmp(m->device, "cpu") == 0;
    if (!(p->planned_ms > 0)) {
        for (int local = 0; local < 2; local++)
            snprintf(local ? t->plan_shown : t->plan_note, local ? sizeof t->plan_shown : sizeof t->plan_note,
                     SHOWN(local, N_("No planned GPT step for %s: the run measured %s to plan it from (the gemm and "
                                     "stream workloads).")),
                     cpu ? SHOWN(local, N_("this CPU")) : SHOWN(local, N_("this GPU")),
                     p->gemm_gflops > 0 ? SHOWN(local, N_("no memory bandwidth"))
                                        : SHOWN(local, N_("no GEMM rate or bandwidth")));
        return;
    }
    t->planned_ms = p->planned_ms, t->measured_ms = m->median, t->plan_ratio = p->planned_ms / m->median;
    for (int local = 0; local < 2; local++)
        snprintf(local ? t->plan_shown : t->plan_note, local ? sizeof t->plan_shown : sizeof t->plan_note,
                 SHOWN(local, N_("The planner's GPT step on %s: %.4g ms (products %.4g ms at %.4g GFLOP/s, the other "
                                 "passes %.4g ms at %.4g GB/s, %s) against %.4g ms measured: planned/measured %.2f.")),
                 cpu ? SHOWN(local, N_("this CPU")) : SHOWN(local, N_("this GPU")), p->planned_ms, p->gemm_ms,
                 p->gemm_gflops, p->memory_ms, p->bandwidth_gbs, p->bandwidth_source, m->median, t->plan_ratio);
}

void probe_table_from(const struct measured_run *run, const struct measured_run *base, struct probe_table *t)
{
    memset(t, 0, sizeof *t);
    t->compared = base != NULL;
    t->planned_ms = t->measured_ms = t->plan_ratio = NAN;
    for (int i = 0; i < run->nresults && t->nrows < PROBE_MAX_RESULTS; i++) {
        struct probe_table_row *row = &t->rows[t->nrows++];
        if (result_row(&run->results[i], row, t) && base) compare_row(base, &run->results[i], row);
        plan_row(&run->results[i], t);
    }
}

void probe_table_build(const cJSON *doc, const cJSON *base, struct probe_table *t)
{
    struct measured_run *run = measured_read_new(doc), *then = measured_read_new(base);
    memset(t, 0, sizeof *t);
    if (run && (then || !base)) probe_table_from(run, then, t);
    free(run);
    free(then);
}

const char *probe_table_noise_note(const struct probe_table *t)
{
    return t->any_noisy ? N_("! coefficient of variation above 5%: the machine was busy; run again for steadier figures")
                        : "";
}

const char *probe_table_plan_note(const struct probe_table *t) { return t->plan_note; }

const char *probe_table_plan_note_shown(const struct probe_table *t) { return t->plan_shown; }

const char *probe_table_compare_note(const struct probe_table *t)
{
    return t->compared ? N_("Changes beyond the noise (twice the larger CV, at least 3%) say better or WORSE.") : "";
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

/* The CPU's line: model, shape, caches, memory, vector extensions and peak; cut at the line's
 * 512 bytes as every line is (the peak's note, the longest part, written last). */
static void cpu_line(const struct measured_run *m, struct numtext *nt, char *line, int local)
{
    char peak_text[48], simd[160] = "";
    snprintf(peak_text, sizeof peak_text, "%s", SHOWN(local, N_("unknown")));
    if (isfinite(m->cpu_peak_gflops_fp32)) snprintf(peak_text, sizeof peak_text, "%.0f GFLOP/s", m->cpu_peak_gflops_fp32);
    for (int i = 0; i < m->nsimd; i++) {
        size_t used = strlen(simd);
        snprintf(simd + used, sizeof simd - used, "%s%s", used ? " " : "", m->cpu_simd[i]);
    }
    snprintf(line, 512,
             SHOWN(local, N_("CPU: %s (%s), %s package(s), %s cores, %s threads, %s NUMA node(s), L3 %s MB, memory %s "
                             "GB; SIMD: %s; FP32 peak %s (")),
             m->cpu_model[0] ? m->cpu_model : SHOWN(local, N_("model unknown")), m->cpu_microarchitecture,
             num(nt, m->cpu_packages, "%.0f"), num(nt, m->cpu_cores, "%.0f"), num(nt, m->cpu_threads, "%.0f"),
             num(nt, m->cpu_numa_nodes, "%.0f"), num(nt, m->cpu_l3_bytes / 1e6, "%.0f"),
             num(nt, m->cpu_memory_bytes / 1e9, "%.1f"), simd[0] ? simd : "-", peak_text);
    size_t used = strlen(line);
    snprintf(line + used, 512 - used, SHOWN(local, N_("%s)")), m->cpu_peak_note);
    if (local) line[text_utf8_prefix(line)] = '\0'; /* a cut never leaves half a character */
}

static void accel_line(const struct measured_accel *a, struct numtext *nt, char *line, int local)
{
    if (isfinite(a->memory_bytes) && a->compute_capability[0])
        snprintf(line, 512, SHOWN(local, N_("%s: %s x %s, %.1f GB each, compute capability %s. %s")), a->kind,
                 num(nt, a->count_given, "%.0f"), a->name, a->memory_bytes / 1e9, a->compute_capability, a->note);
    else if (isfinite(a->memory_bytes))
        snprintf(line, 512, SHOWN(local, N_("%s: %s x %s, %.1f GB each. %s")), a->kind, num(nt, a->count_given, "%.0f"),
                 a->name, a->memory_bytes / 1e9, a->note);
    else
        snprintf(line, 512, "%s: %s x %s. %s", a->kind, num(nt, a->count_given, "%.0f"), a->name, a->note);
    if (local) line[text_utf8_prefix(line)] = '\0';
}

static int summary_from(const struct measured_run *m, char (*lines)[512], int max, int local)
{
    int n = 0;
    struct numtext nt = {.n = 0};
    if (n < max)
        snprintf(lines[n++], 512,
                 m->interrupted ? SHOWN(local, N_("probe run %s, %s, %s s, INTERRUPTED"))
                                : SHOWN(local, N_("probe run %s, %s, %s s")),
                 m->id, m->started_at, num(&nt, m->duration_s, "%.1f"));
    if (n < max) cpu_line(m, &nt, lines[n++], local);
    for (int i = 0; i < m->naccel && n < max; i++) accel_line(&m->accel[i], &nt, lines[n++], local);
    if (!m->naccel && n < max) snprintf(lines[n++], 512, "%s", SHOWN(local, N_("accelerators: none found")));
    if (m->has_ranks && n < max) {
        char hosts[256] = "";
        size_t at = 0;
        for (int i = 0; i < m->nhosts && at < sizeof hosts; i++)
            at += (size_t)snprintf(hosts + at, sizeof hosts - at, "%s%s", at ? ", " : "", m->hosts[i]);
        snprintf(lines[n++], 512, SHOWN(local, N_("ranks: %s on %s (%s)")), num(&nt, m->rank_count_given, "%.0f"), hosts,
                 m->mpi);
    }
    return n;
}

int probe_summary_from(const struct measured_run *m, char (*lines)[512], int max) { return summary_from(m, lines, max, 0); }

int probe_summary_shown_from(const struct measured_run *m, char (*lines)[512], int max)
{
    return summary_from(m, lines, max, 1);
}

int probe_summary_lines(const cJSON *doc, char (*lines)[512], int max)
{
    struct measured_run *m = measured_read_new(doc);
    int n = m ? probe_summary_from(m, lines, max) : 0;
    free(m);
    return n;
}

/* --- printed ------------------------------------------------------------------------------ */

int probe_table_print(FILE *f, const struct probe_table *t, int bold)
{
    const enum probe_col *cols = t->compared ? probe_table_compared : probe_table_plain;
    struct text_column tc[PT_NCOLS];
    int nc = 0;
    for (; cols[nc] != PT_NCOLS; nc++)
        tc[nc] = (struct text_column){_(probe_table_headers[cols[nc]]), cols[nc] == PT_PARAMS, /* gives way when narrow */
                                      cols[nc] >= PT_MEDIAN && cols[nc] != PT_RANGE};
    const char **cells = calloc((size_t)t->nrows * (size_t)nc + 1, sizeof *cells);
    char(*change)[48] = calloc((size_t)t->nrows + 1, sizeof *change);
    if (!cells || !change) {
        free(cells);
        free(change);
        return 0;
    }
    int nrows = 0;
    for (int r = 0; r < t->nrows; r++) {
        const struct probe_table_row *row = &t->rows[r];
        if (row->skipped || row->frameworks) continue; /* those have their own table */
        /* The change's words in the chosen language (the row's cell, for the page, stays English). */
        if (row->verdict == PV_NEW) snprintf(change[r], sizeof change[r], "%s", _("new"));
        else snprintf(change[r], sizeof change[r], "%+.1f%%%s", row->change,
                      row->verdict == PV_BETTER ? _(" better") : row->verdict == PV_WORSE ? _(" WORSE") : "");
        for (int c = 0; c < nc; c++)
            cells[nrows * nc + c] = cols[c] == PT_CHANGE && row->verdict != PV_NONE ? change[r] : row->cell[cols[c]];
        nrows++;
    }
    if (nrows) text_table(f, tc, nc, cells, nrows, bold);
    free(cells);
    free(change);
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
