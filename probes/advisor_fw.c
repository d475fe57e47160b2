#include "probes/advisor_fw.h"
#include "common/json_doc.h"
#include "knowledge/probe_store.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

void probe_fw_speeds_from_run(const cJSON *doc, struct adv_fw_speeds *out)
{
    memset(out, 0, sizeof *out);
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params");
        const char *model = json_str(p, "model");
        double ms = json_num(r, "median");
        if (strcmp(json_str(r, "workload"), "frameworks") || strcmp(json_str(r, "status"), "ok") || !(ms > 0) ||
            (strcmp(model, "mlp") && strcmp(model, "gpt")) || out->count == ADV_MAX_FW_SPEEDS)
            continue;
        struct adv_fw_speed *s = &out->rows[out->count++];
        snprintf(s->framework, sizeof s->framework, "%s", json_str(p, "framework"));
        snprintf(s->mode, sizeof s->mode, "%s", json_str(p, "mode"));
        snprintf(s->kind, sizeof s->kind, "%s", json_str(p, "kind"));
        s->model = strcmp(model, "gpt") == 0;
        s->step_s = ms / 1e3;
    }
    if (!out->count) return;
    snprintf(out->run, sizeof out->run, "%s", json_str(doc, "id"));
    const cJSON *models = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "frameworks"), "models");
    const cJSON *mlp = cJSON_GetObjectItemCaseSensitive(models, "mlp");
    double layers = json_num(cJSON_GetObjectItemCaseSensitive(models, "gpt"), "n_layer");
    snprintf(out->models[0], sizeof out->models[0], "MLP %s", *json_str(mlp, "layers") ? json_str(mlp, "layers") : "");
    for (char *c = out->models[0]; *c; c++)
        if (*c == ',') *c = '-';
    if (isnan(layers)) snprintf(out->models[1], sizeof out->models[1], "GPT");
    else snprintf(out->models[1], sizeof out->models[1], "%.0f-layer GPT", layers);
}

void probe_fw_speeds_find(kb *k, const char *probe, struct adv_fw_speeds *out)
{
    memset(out, 0, sizeof *out);
    if (!k || !probe || strcasecmp(probe, "none") == 0) return;
    char err[256];
    cJSON *doc = NULL;
    if (strcasecmp(probe, "latest") != 0) {
        if (kb_probe_get(k, probe, &doc, err, sizeof err) == KB_OK && doc) probe_fw_speeds_from_run(doc, out);
        cJSON_Delete(doc);
        return;
    }
    /* newest first, reading only the runs that hold a frameworks result */
    cJSON *rows = NULL;
    const cJSON *row;
    if (kb_probe_ids_with(k, "frameworks", &rows, err, sizeof err) != KB_OK) return;
    cJSON_ArrayForEach(row, rows) {
        if (!cJSON_IsString(row) || kb_probe_get(k, row->valuestring, &doc, err, sizeof err) != KB_OK || !doc) continue;
        probe_fw_speeds_from_run(doc, out);
        cJSON_Delete(doc);
        doc = NULL;
        if (out->count) break;
    }
    cJSON_Delete(rows);
}
