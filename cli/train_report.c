/* fwadvisor.train/1: the one JSON document both training commands print (cli/cli.h). */
#include "cli/cli.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

static void add_fields(cJSON *obj, const struct cli_train_field *f, int n)
{
    for (int i = 0; i < n; i++) {
        if (f[i].text) cJSON_AddStringToObject(obj, f[i].key, f[i].text);
        else cJSON_AddNumberToObject(obj, f[i].key, f[i].number);
    }
}

int cli_train_json(const struct cli_train_report *r)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", "fwadvisor.train/1");
    cJSON *c = cJSON_AddObjectToObject(doc, "config");
    if (r->layers) {
        cJSON *l = cJSON_AddArrayToObject(c, "layers");
        for (int i = 0; i < r->nlayers; i++) cJSON_AddItemToArray(l, cJSON_CreateNumber(r->layers[i]));
    }
    add_fields(c, r->config, r->nconfig);
    cJSON *ls = cJSON_AddArrayToObject(doc, "losses");
    for (int i = 0; i < r->nsteps; i++) cJSON_AddItemToArray(ls, cJSON_CreateNumber(cli_float(r->losses[i])));
    cJSON *st = cJSON_AddObjectToObject(doc, "step_ms");
    cJSON_AddNumberToObject(st, "median", r->median * 1e3);
    cJSON_AddNumberToObject(st, "min", r->min * 1e3);
    cJSON_AddNumberToObject(st, "max", r->max * 1e3);
    cJSON_AddNumberToObject(st, "timed_steps", r->timed);
    add_fields(doc, r->results, r->nresults);
    int rc = cli_write_json(doc, NULL);
    cJSON_Delete(doc);
    return rc;
}
