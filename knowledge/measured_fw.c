/* The frameworks' training speed measured by a probe run (the frameworks workload), as the
 * advisor is handed it (struct adv_fw_speeds), from the run read once (knowledge/measured.h). */
#include "knowledge/advisor.h"
#include "knowledge/measured.h"
#include "knowledge/probe_store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void probe_fw_speeds_of(const struct measured_run *m, struct adv_fw_speeds *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < m->nresults; i++) {
        const struct measured_result *r = &m->results[i];
        const struct probe_params *p = &r->params;
        if (strcmp(r->workload, PROBE_WL_FRAMEWORKS) || !r->stated_ok || !(r->median > 0) || p->model < 0 ||
            out->count == ADV_MAX_FW_SPEEDS)
            continue;
        struct adv_fw_speed *s = &out->rows[out->count++];
        snprintf(s->framework, sizeof s->framework, "%s", p->framework);
        snprintf(s->mode, sizeof s->mode, "%.23s", p->mode);
        snprintf(s->kind, sizeof s->kind, "%s", p->kind);
        s->model = p->model;
        s->step_s = r->median / 1e3;
    }
    if (!out->count) return;
    snprintf(out->run, sizeof out->run, "%.39s", m->id);
    snprintf(out->models[0], sizeof out->models[0], "MLP %.59s", m->fw.models.mlp_layers);
    for (char *c = out->models[0]; *c; c++)
        if (*c == ',') *c = '-';
    if (isnan(m->fw.models.gpt_layers)) snprintf(out->models[1], sizeof out->models[1], "GPT");
    else snprintf(out->models[1], sizeof out->models[1], "%.0f-layer GPT", m->fw.models.gpt_layers);
}

void probe_fw_speeds_from_run(const cJSON *doc, struct adv_fw_speeds *out)
{
    struct measured_run *m = measured_read_new(doc);
    memset(out, 0, sizeof *out);
    if (m) probe_fw_speeds_of(m, out);
    free(m);
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
    if (kb_probe_ids_with(k, PROBE_WL_FRAMEWORKS, &rows, err, sizeof err) != KB_OK) return;
    cJSON_ArrayForEach(row, rows) {
        if (!cJSON_IsString(row) || kb_probe_get(k, row->valuestring, &doc, err, sizeof err) != KB_OK || !doc) continue;
        probe_fw_speeds_from_run(doc, out);
        cJSON_Delete(doc);
        doc = NULL;
        if (out->count) break;
    }
    cJSON_Delete(rows);
}
