/* The frameworks table (run_table.h): how the frameworks workload's rows read, the same on the
 * command line and in the interface. */
#include "probes/frameworks.h"
#include "probes/run_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int probe_fw_widths[FC_NCOLS] = {12, 14, 7, 8, 5, 9, 8, 6};

const char *probe_fw_header(enum probe_fw_col col, int model)
{
    static const char *const headers[FC_NCOLS] = {"FRAMEWORK", "MODE", "DEVICE", "STEP MS", "CV%", "", "x ENGINE", "x BEST"};
    if (col == FC_RATE) return model == 1 ? "TOKENS/S" : "SAMPLES/S";
    return headers[col];
}

const char *probe_fw_table_note(void)
{
    return "x ENGINE, x BEST: speed against the engine and against the fastest on the same device (1.35x: that much "
           "faster). Every timed row's first-step loss is the engine's within 1e-4.";
}

struct entry {
    const struct measured_result *r;
    int order, ok, dev_rank;
    double ms;
};

static int model_of(const struct entry *e) { return e->r->params.model; }

static int is_framework_row(const struct measured_result *r) { return !strcmp(r->workload, PROBE_WL_FRAMEWORKS); }

/* Timed rows first, by model, the CPU before accelerators, then fastest first. */
static int compare_entries(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->ok != y->ok) return y->ok - x->ok;
    if (!x->ok) return x->order - y->order; /* as stored */
    if (model_of(x) != model_of(y)) return model_of(x) - model_of(y);
    int d = strcmp(x->r->device, y->r->device);
    if (d) return x->dev_rank != y->dev_rank ? x->dev_rank - y->dev_rank : d;
    return (x->ms > y->ms) - (x->ms < y->ms);
}

/* The framework as the table names it, with its version when the run holds the same framework
 * from more than one interpreter ("PyTorch 1.13"). */
static void framework_cell(const struct measured_run *m, const struct measured_result *r, char *out, size_t outsz)
{
    const struct probe_params *p = &r->params;
    int other = 0;
    for (int i = 0; i < m->nresults; i++) {
        const struct probe_params *q = &m->results[i].params;
        other |= is_framework_row(&m->results[i]) && !strcmp(q->framework, p->framework) && q->python != p->python;
    }
    int major = 0, minor = 0;
    if (other && sscanf(p->version, "%d.%d", &major, &minor) == 2)
        snprintf(out, outsz, "%s %d.%d", probe_fw_name(p->framework), major, minor);
    else
        snprintf(out, outsz, "%s", probe_fw_name(p->framework));
}

static void rate_text(double v, char *out, size_t outsz)
{
    if (v >= 1e7) snprintf(out, outsz, "%.0fM", v / 1e6);
    else if (v >= 1e5) snprintf(out, outsz, "%.0fk", v / 1e3);
    else snprintf(out, outsz, "%.0f", v);
}

/* The fastest and the engine's median among the timed rows of one model on one device. */
static void references(const struct entry *e, int n, const struct entry *of, double *best, double *engine)
{
    *best = *engine = NAN;
    for (int i = 0; i < n; i++) {
        if (!e[i].ok || model_of(&e[i]) != model_of(of) || strcmp(e[i].r->device, of->r->device)) continue;
        if (isnan(*best) || e[i].ms < *best) *best = e[i].ms;
        if (!strcmp(e[i].r->params.framework, "engine")) *engine = e[i].ms;
    }
}

/* One interpreter's line: "/usr/bin/python3 (Python 3.11.2): PyTorch 2.1 [cpu]". */
static void found_line(const struct measured_fw_python *py, char *line, size_t cap)
{
    size_t used = (size_t)snprintf(line, cap, "%s (Python %s): ", py->path, py->version);
    int n = 0;
    for (int j = 0; j < py->nfound && used < cap; j++) {
        const struct measured_fw_found *f = &py->found[j];
        used += (size_t)snprintf(line + used, cap - used, "%s%s %s%s%s%s", n++ ? ", " : "", probe_fw_name(f->id), f->version,
                                 *f->devices ? " [" : "", f->devices, *f->devices ? "]" : "");
    }
    if (used < cap && *py->error) snprintf(line + used, cap - used, "%s", py->error);
    else if (used < cap && !n) snprintf(line + used, cap - used, "no framework");
}

static void titles(const struct measured_frameworks *fw, struct probe_fw_table *t)
{
    const struct measured_fw_models *m = &fw->models;
    char layers[64];
    snprintf(layers, sizeof layers, "%s", m->mlp_layers);
    for (char *c = layers; *c; c++)
        if (*c == ',') *c = '-';
    snprintf(t->title[0], sizeof t->title[0], "MLP %s, batch %.0f, ReLU, cross-entropy, Adam", layers, m->mlp_batch);
    snprintf(t->title[1], sizeof t->title[1],
             "GPT %.0f layers x %.0f wide, %.0f heads, T %.0f, vocabulary %.0f, batch %.0f (%.0f tokens a step), AdamW",
             m->gpt_layers, m->gpt_width, m->gpt_heads, m->gpt_ctx, m->gpt_vocab, m->gpt_batch, m->gpt_batch * m->gpt_ctx);
    for (int i = 0; i < fw->npythons && t->nfound < PROBE_FW_MAX_PYTHONS; i++)
        found_line(&fw->python[i], t->found[t->nfound++], sizeof t->found[0]);
}

/* A row that did not run: "PyTorch compile GPT cpu: why"; a framework that never reached a mode:
 * "PyTorch: why"; a row about the workload as a whole: its reason. */
static void skipped_row(const struct measured_result *r, const char *name, struct probe_fw_row *row)
{
    const char *mode = r->params.mode, *device = r->device;
    int any_mode = strcmp(mode, "-") != 0, any_device = any_mode || strcmp(device, "cpu") != 0;
    row->skipped = 1;
    if (!*r->params.framework) {
        snprintf(row->reason, sizeof row->reason, "%s", r->reason);
        return;
    }
    snprintf(row->reason, sizeof row->reason, "%s%s%s%s%s%s%s: ", name, any_mode ? " " : "", any_mode ? mode : "",
             row->model >= 0 ? " " : "", row->model == 1 ? "GPT" : row->model == 0 ? "MLP" : "", any_device ? " " : "",
             any_device ? device : "");
    /* the reason after it, cut at the row's size */
    size_t used = strlen(row->reason), take = strlen(r->reason);
    if (take > sizeof row->reason - 1 - used) take = sizeof row->reason - 1 - used;
    memcpy(row->reason + used, r->reason, take);
    row->reason[used + take] = '\0';
}

/* A timed row's figures against the others of its model and device. */
static void timed_row(const struct entry *e, int n, int i, struct probe_fw_row *row)
{
    const struct measured_result *r = e[i].r;
    double best, engine, ms = e[i].ms, cv = r->cv, per_step = r->params.per_step;
    size_t cap = sizeof row->cell[0];
    references(e, n, &e[i], &best, &engine);
    row->noisy = r->noisy;
    row->engine = !strcmp(r->params.framework, "engine");
    row->fastest = ms == best;
    snprintf(row->cell[FC_STEP], cap, ms >= 1000 ? "%.0f" : "%.3g", ms);
    snprintf(row->cell[FC_CV], cap, "%.0f%s", isnan(cv) ? 0 : cv * 100, row->noisy ? "!" : "");
    if (per_step > 0) rate_text(per_step / (ms / 1e3), row->cell[FC_RATE], cap);
    else snprintf(row->cell[FC_RATE], cap, "-");
    if (isnan(engine)) snprintf(row->cell[FC_VS_ENGINE], cap, "-");
    else snprintf(row->cell[FC_VS_ENGINE], cap, "%.2fx", engine / ms);
    snprintf(row->cell[FC_VS_BEST], cap, "%.2fx", best / ms);
}

void probe_fw_table_from(const struct measured_run *m, struct probe_fw_table *t)
{
    memset(t, 0, sizeof *t);
    struct entry e[PROBE_MAX_RESULTS];
    int n = 0;
    for (int i = 0; i < m->nresults && n < PROBE_MAX_RESULTS; i++) {
        const struct measured_result *r = &m->results[i];
        if (!is_framework_row(r)) continue;
        e[n] = (struct entry){r, n, r->stated_ok && r->median > 0, !strcmp(r->device, "cpu") ? 0 : 1, r->median};
        n++;
    }
    if (!n) return;
    titles(&m->fw, t);
    qsort(e, (size_t)n, sizeof e[0], compare_entries);
    for (int i = 0; i < n; i++) {
        struct probe_fw_row *row = &t->rows[t->nrows++];
        const struct measured_result *r = e[i].r;
        row->model = model_of(&e[i]);
        char name[24];
        framework_cell(m, r, name, sizeof name);
        snprintf(row->cell[FC_FRAMEWORK], sizeof row->cell[0], "%s", name);
        snprintf(row->cell[FC_MODE], sizeof row->cell[0], "%.*s", (int)sizeof row->cell[0] - 1, r->params.mode);
        snprintf(row->cell[FC_DEVICE], sizeof row->cell[0], "%s", r->device);
        if (!e[i].ok) {
            skipped_row(r, name, row);
            continue;
        }
        t->ntimed++;
        timed_row(e, n, i, row);
    }
}

void probe_fw_table_build(const cJSON *doc, struct probe_fw_table *t)
{
    struct measured_run *m = malloc(sizeof *m);
    if (!m) {
        memset(t, 0, sizeof *t);
        return;
    }
    measured_read(doc, m);
    probe_fw_table_from(m, t);
    free(m);
}
