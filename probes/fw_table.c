/* The frameworks table (run_table.h): how the frameworks workload's rows read, the same on the
 * command line and in the interface. */
#include "probes/frameworks.h"
#include "probes/run_table.h"

#include "common/json_doc.h"

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
    const cJSON *r;
    int order, model, ok, dev_rank;
    double ms;
};

static int model_of(const cJSON *r)
{
    const char *m = json_str(cJSON_GetObjectItemCaseSensitive(r, "params"), "model");
    return !strcmp(m, "gpt") ? 1 : !strcmp(m, "mlp") ? 0 : -1;
}

/* Timed rows first, by model, the CPU before accelerators, then fastest first. */
static int compare_entries(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->ok != y->ok) return y->ok - x->ok;
    if (!x->ok) return x->order - y->order; /* as stored */
    if (x->model != y->model) return x->model - y->model;
    int d = strcmp(json_str(x->r, "device"), json_str(y->r, "device"));
    if (d) return x->dev_rank != y->dev_rank ? x->dev_rank - y->dev_rank : d;
    return (x->ms > y->ms) - (x->ms < y->ms);
}

/* The framework as the table names it, with its version when the run holds the same framework
 * from more than one interpreter ("PyTorch 1.13"). */
static void framework_cell(const cJSON *doc, const cJSON *r, char *out, size_t outsz)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params"), *o;
    const char *id = json_str(p, "framework");
    double py = json_num(p, "python");
    int other = 0;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        const cJSON *q = cJSON_GetObjectItemCaseSensitive(o, "params");
        double theirs = json_num(q, "python");
        other |= !strcmp(json_str(o, "workload"), "frameworks") && !strcmp(json_str(q, "framework"), id) &&
                 !(theirs == py || (isnan(theirs) && isnan(py)));
    }
    const char *version = json_str(p, "version");
    int major = 0, minor = 0;
    if (other && sscanf(version, "%d.%d", &major, &minor) == 2)
        snprintf(out, outsz, "%s %d.%d", probe_fw_name(id), major, minor);
    else
        snprintf(out, outsz, "%s", probe_fw_name(id));
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
        if (!e[i].ok || e[i].model != of->model || strcmp(json_str(e[i].r, "device"), json_str(of->r, "device"))) continue;
        if (isnan(*best) || e[i].ms < *best) *best = e[i].ms;
        if (!strcmp(json_str(cJSON_GetObjectItemCaseSensitive(e[i].r, "params"), "framework"), "engine")) *engine = e[i].ms;
    }
}

static void titles(const cJSON *doc, struct probe_fw_table *t)
{
    const cJSON *fw = cJSON_GetObjectItemCaseSensitive(doc, "frameworks"), *models = cJSON_GetObjectItemCaseSensitive(fw, "models");
    const cJSON *mlp = cJSON_GetObjectItemCaseSensitive(models, "mlp"), *gpt = cJSON_GetObjectItemCaseSensitive(models, "gpt");
    char layers[64];
    snprintf(layers, sizeof layers, "%s", json_str(mlp, "layers"));
    for (char *c = layers; *c; c++)
        if (*c == ',') *c = '-';
    snprintf(t->title[0], sizeof t->title[0], "MLP %s, batch %.0f, ReLU, cross-entropy, Adam", layers, json_num(mlp, "batch"));
    snprintf(t->title[1], sizeof t->title[1],
             "GPT %.0f layers x %.0f wide, %.0f heads, T %.0f, vocabulary %.0f, batch %.0f (%.0f tokens a step), AdamW",
             json_num(gpt, "n_layer"), json_num(gpt, "n_embd"), json_num(gpt, "n_head"), json_num(gpt, "ctx"),
             json_num(gpt, "vocab"), json_num(gpt, "batch"), json_num(gpt, "batch") * json_num(gpt, "ctx"));
    const cJSON *py;
    cJSON_ArrayForEach(py, cJSON_GetObjectItemCaseSensitive(fw, "interpreters")) {
        if (t->nfound == PROBE_FW_MAX_PYTHONS) break;
        char *line = t->found[t->nfound++];
        size_t cap = sizeof t->found[0];
        size_t used = (size_t)snprintf(line, cap, "%s (Python %s): ", json_str(py, "path"), json_str(py, "version"));
        const cJSON *f;
        int n = 0;
        cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(py, "frameworks")) {
            if (used >= cap) break;
            const char *devices = json_str(f, "devices");
            used += (size_t)snprintf(line + used, cap - used, "%s%s %s%s%s%s", n++ ? ", " : "", probe_fw_name(json_str(f, "id")),
                                     json_str(f, "version"), *devices ? " [" : "", devices, *devices ? "]" : "");
        }
        if (used < cap && *json_str(py, "error")) snprintf(line + used, cap - used, "%s", json_str(py, "error"));
        else if (used < cap && !n) snprintf(line + used, cap - used, "no framework");
    }
}

void probe_fw_table_build(const cJSON *doc, struct probe_fw_table *t)
{
    memset(t, 0, sizeof *t);
    struct entry e[PROBE_MAX_RESULTS];
    int n = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        if (strcmp(json_str(r, "workload"), "frameworks") != 0 || n == PROBE_MAX_RESULTS) continue;
        const char *device = json_str(r, "device");
        e[n] = (struct entry){r, n, model_of(r), !strcmp(json_str(r, "status"), "ok") && json_num(r, "median") > 0,
                              !strcmp(device, "cpu") ? 0 : 1, json_num(r, "median")};
        n++;
    }
    if (!n) return;
    titles(doc, t);
    qsort(e, (size_t)n, sizeof e[0], compare_entries);
    for (int i = 0; i < n; i++) {
        struct probe_fw_row *row = &t->rows[t->nrows++];
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e[i].r, "params");
        row->model = e[i].model;
        char name[24];
        framework_cell(doc, e[i].r, name, sizeof name);
        snprintf(row->cell[FC_FRAMEWORK], sizeof row->cell[0], "%s", name);
        snprintf(row->cell[FC_MODE], sizeof row->cell[0], "%s", json_str(p, "mode"));
        snprintf(row->cell[FC_DEVICE], sizeof row->cell[0], "%s", json_str(e[i].r, "device"));
        if (!e[i].ok) {
            row->skipped = 1;
            /* "PyTorch compile GPT cpu: why"; a framework that never reached a mode: "PyTorch: why" */
            const char *mode = json_str(p, "mode"), *device = json_str(e[i].r, "device");
            int any_mode = strcmp(mode, "-") != 0, any_device = any_mode || strcmp(device, "cpu") != 0;
            if (!*json_str(p, "framework")) { /* a row about the workload as a whole */
                snprintf(row->reason, sizeof row->reason, "%s", json_str(e[i].r, "reason"));
                continue;
            }
            snprintf(row->reason, sizeof row->reason, "%s%s%s%s%s%s%s: %s", name, any_mode ? " " : "", any_mode ? mode : "",
                     row->model >= 0 ? " " : "", row->model == 1 ? "GPT" : row->model == 0 ? "MLP" : "",
                     any_device ? " " : "", any_device ? device : "", json_str(e[i].r, "reason"));
            continue;
        }
        t->ntimed++;
        double best, engine, cv = json_num(e[i].r, "cv"), per_step = json_num(p, "per_step");
        references(e, n, &e[i], &best, &engine);
        row->noisy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e[i].r, "noisy"));
        row->engine = !strcmp(json_str(p, "framework"), "engine");
        row->fastest = e[i].ms == best;
        snprintf(row->cell[FC_STEP], sizeof row->cell[0], e[i].ms >= 1000 ? "%.0f" : "%.3g", e[i].ms);
        snprintf(row->cell[FC_CV], sizeof row->cell[0], "%.0f%s", isnan(cv) ? 0 : cv * 100, row->noisy ? "!" : "");
        if (per_step > 0) rate_text(per_step / (e[i].ms / 1e3), row->cell[FC_RATE], sizeof row->cell[0]);
        else snprintf(row->cell[FC_RATE], sizeof row->cell[0], "-");
        if (isnan(engine)) snprintf(row->cell[FC_VS_ENGINE], sizeof row->cell[0], "-");
        else snprintf(row->cell[FC_VS_ENGINE], sizeof row->cell[0], "%.2fx", engine / e[i].ms);
        snprintf(row->cell[FC_VS_BEST], sizeof row->cell[0], "%.2fx", best / e[i].ms);
    }
}
