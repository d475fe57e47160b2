/* The frameworks section read once: a run as the probe writes it read back into struct
 * measured_run, a section of the wrong shape read as absent, and the frameworks table and the
 * page's labels built from what was read. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/html.h"
#include "knowledge/measured.h"
#include "probes/run_html.h"
#include "probes/run_table.h"

static void add_python(struct probe_fw_info *fw, const char *path, const char *version, const char *error)
{
    struct probe_fw_python *py = &fw->python[fw->npythons++];
    snprintf(py->path, sizeof py->path, "%s", path);
    snprintf(py->version, sizeof py->version, "%s", version);
    snprintf(py->prefix, sizeof py->prefix, "/usr");
    snprintf(py->error, sizeof py->error, "%s", error);
}

static void add_found(struct probe_fw_python *py, const char *id, const char *version, const char *devices, const char *note)
{
    struct probe_fw_found *f = &py->found[py->nfound++];
    snprintf(f->id, sizeof f->id, "%s", id);
    snprintf(f->version, sizeof f->version, "%s", version);
    snprintf(f->devices, sizeof f->devices, "%s", devices);
    snprintf(f->note, sizeof f->note, "%s", note);
}

/* One frameworks row: median ms (0: it did not run, the reason says why). */
static void add_row(struct probe_run *run, const char *framework, const char *mode, int model, const char *device,
                    int python, const char *version, double ms, const char *reason)
{
    struct probe_result *res = probe_result_add(run, PROBE_WL_FRAMEWORKS, device, PROBE_M_STEP_MS, "ms");
    cr_assert_not_null(res);
    probe_params_init(&res->params, PROBE_PP_FRAMEWORK);
    struct probe_params *p = &res->params;
    snprintf(p->framework, sizeof p->framework, "%s", framework);
    snprintf(p->mode, sizeof p->mode, "%s", mode);
    snprintf(p->version, sizeof p->version, "%s", version);
    p->model = model;
    p->per_step = model == 1 ? 128 : model == 0 ? 64 : NAN;
    p->python = python;
    if (ms <= 0) {
        res->skipped = 1;
        snprintf(res->reason, sizeof res->reason, "%s", reason);
        return;
    }
    double samples[3] = {ms * 0.99, ms, ms * 1.01};
    probe_result_finish(res, samples, 3);
}

/* Two interpreters with PyTorch (2.1 and 1.13), one that could not be asked; the MLP on the CPU
 * (engine 20 ms, PyTorch 2.1 10 ms, PyTorch 1.13 16 ms), the GPT's engine 40 ms, and two rows
 * that did not run. */
static cJSON *written_run(void)
{
    struct probe_run *run = calloc(1, sizeof *run);
    cr_assert_not_null(run);
    snprintf(run->id, sizeof run->id, "fw-reader");
    struct probe_fw_info *fw = &run->frameworks;
    fw->ran = 1;
    snprintf(fw->models.mlp_layers, sizeof fw->models.mlp_layers, "784,256,10");
    fw->models.mlp_batch = 64;
    fw->models.gpt_layers = 2, fw->models.gpt_heads = 2, fw->models.gpt_width = 64;
    fw->models.gpt_ctx = 32, fw->models.gpt_vocab = 128, fw->models.gpt_batch = 4;
    add_python(fw, "/usr/bin/python3", "3.11.2", "");
    add_found(&fw->python[0], "pytorch", "2.1.0", "cpu, cuda:0 (NVIDIA H100)", "");
    add_found(&fw->python[0], "keras", "3.1.0", "", "backends: jax");
    add_python(fw, "/opt/old/bin/python", "3.9.18", "");
    add_found(&fw->python[1], "pytorch", "1.13.1", "cpu", "");
    add_python(fw, "/opt/broken/python", "", "timed out after 10 s");
    add_row(run, "engine", "openblas", 0, "cpu", -1, "0.1.0", 20, "");
    add_row(run, "pytorch", "eager", 0, "cpu", 1, "1.13.1", 16, "");
    add_row(run, "pytorch", "eager", 0, "cpu", 0, "2.1.0", 10, "");
    add_row(run, "engine", "openblas", 1, "cpu", -1, "0.1.0", 40, "");
    add_row(run, "pytorch", "compile", 1, "cpu", 0, "2.1.0", 0, "out of memory");
    add_row(run, "keras", "-", -1, "cpu", 0, "3.1.0", 0, "no backend importable");
    cJSON *doc = probe_run_to_json(run);
    free(run);
    cr_assert_not_null(doc);
    return doc;
}

Test(fw_reader, a_written_run_reads_into_the_typed_section)
{
    cJSON *doc = written_run();
    struct measured_run *m = malloc(sizeof *m);
    cr_assert_eq(measured_read(doc, m), 0);
    const struct measured_frameworks *fw = &m->fw;
    cr_expect(fw->present);
    cr_expect_str_eq(fw->models.mlp_layers, "784,256,10");
    cr_expect_eq(fw->models.mlp_batch, 64);
    cr_expect_eq(fw->models.gpt_layers, 2);
    cr_expect_eq(fw->models.gpt_width, 64);
    cr_expect_eq(fw->models.gpt_ctx, 32);
    cr_expect_eq(fw->models.gpt_vocab, 128);
    cr_expect_eq(fw->models.gpt_batch, 4);
    cr_assert_eq(fw->npythons, 3);
    cr_expect_str_eq(fw->python[0].path, "/usr/bin/python3");
    cr_expect_str_eq(fw->python[0].version, "3.11.2");
    cr_expect_str_eq(fw->python[0].prefix, "/usr");
    cr_expect_str_eq(fw->python[0].error, "");
    cr_assert_eq(fw->python[0].nfound, 2);
    cr_expect_str_eq(fw->python[0].found[0].id, "pytorch");
    cr_expect_str_eq(fw->python[0].found[0].version, "2.1.0");
    cr_expect_str_eq(fw->python[0].found[0].devices, "cpu, cuda:0 (NVIDIA H100)");
    cr_expect_str_eq(fw->python[0].found[1].id, "keras");
    cr_expect_str_eq(fw->python[0].found[1].devices, "");
    cr_expect_str_eq(fw->python[0].found[1].note, "backends: jax");
    cr_assert_eq(fw->python[1].nfound, 1);
    cr_expect_str_eq(fw->python[1].found[0].version, "1.13.1");
    cr_expect_str_eq(fw->python[2].error, "timed out after 10 s");
    cr_expect_eq(fw->python[2].nfound, 0);
    /* the rows' parameters as written, the unit of a step named from the model */
    cr_assert_eq(m->nresults, 6);
    cr_expect_eq(m->results[1].params.python, 1);
    cr_expect_str_eq(m->results[1].params.per_step_unit, "samples");
    cr_expect_str_eq(m->results[3].params.per_step_unit, "tokens");
    cr_expect_str_eq(m->results[5].params.per_step_unit, "");
    cr_expect_eq(m->results[0].params.python, -1);
    free(m);
    cJSON_Delete(doc);
}

static const char pinned_mlp[] =
    "FRAMEWORK     MODE      DEVICE  STEP MS  CV%  SAMPLES/S  x ENGINE  x BEST\n"
    "PyTorch 2.1   eager     cpu          10    1       6400     2.00x   1.00x\n"
    "PyTorch 1.13  eager     cpu          16    1       4000     1.25x   0.62x\n"
    "engine        openblas  cpu          20    1       3200     1.00x   0.50x\n";

static char *printed(const struct probe_fw_table *t, int model)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    probe_fw_table_print(f, t, model);
    fclose(f);
    return text;
}

Test(fw_reader, the_table_from_the_read_run_is_the_pinned_text)
{
    cJSON *doc = written_run();
    struct measured_run *m = malloc(sizeof *m);
    struct probe_fw_table *t = malloc(sizeof *t), *from_doc = malloc(sizeof *from_doc);
    measured_read(doc, m);
    probe_fw_table_from(m, t);
    cr_assert_eq(t->nrows, 6);
    cr_expect_eq(t->ntimed, 4);
    char *text = printed(t, 0);
    cr_expect_str_eq(text, pinned_mlp);
    free(text);
    cr_expect_str_eq(t->title[0], "MLP 784-256-10, batch 64, ReLU, cross-entropy, Adam");
    cr_expect_str_eq(t->title[1], "GPT 2 layers x 64 wide, 2 heads, T 32, vocabulary 128, batch 4 (128 tokens a step), AdamW");
    cr_expect_str_eq(t->rows[4].reason, "PyTorch 2.1 compile GPT cpu: out of memory");
    cr_expect_str_eq(t->rows[5].reason, "Keras: no backend importable");
    cr_assert_eq(t->nfound, 3);
    cr_expect_str_eq(t->found[0], "/usr/bin/python3 (Python 3.11.2): PyTorch 2.1.0 [cpu, cuda:0 (NVIDIA H100)], Keras 3.1.0");
    cr_expect_str_eq(t->found[1], "/opt/old/bin/python (Python 3.9.18): PyTorch 1.13.1 [cpu]");
    cr_expect_str_eq(t->found[2], "/opt/broken/python (Python ): timed out after 10 s");
    /* the document's way gives the same table */
    probe_fw_table_build(doc, from_doc);
    cr_expect_eq(memcmp(t, from_doc, sizeof *t), 0);
    free(t), free(from_doc), free(m);
    cJSON_Delete(doc);
}

/* Interpreters as an object, twelve of them where there is room for eight, members of the wrong
 * type: the run still reads, and what is not of its type is absent. */
Test(fw_reader, a_malformed_section_reads_as_absent)
{
    cJSON *doc = written_run();
    cJSON *fw = cJSON_GetObjectItem(doc, "frameworks");
    cJSON *many = cJSON_CreateArray();
    for (int i = 0; i < 12; i++) {
        cJSON *py = cJSON_CreateObject();
        cJSON_AddNumberToObject(py, "path", 5);
        cJSON_AddItemToObject(py, "version", cJSON_CreateArray());
        cJSON *found = cJSON_AddObjectToObject(py, "frameworks");
        cJSON_AddStringToObject(found, "id", "pytorch");
        cJSON_AddItemToArray(many, py);
    }
    cJSON_ReplaceItemInObject(fw, "interpreters", many);
    cJSON *models = cJSON_GetObjectItem(fw, "models");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(models, "mlp"), "batch", cJSON_CreateString("big"));
    cJSON_ReplaceItemInObject(models, "gpt", cJSON_CreateArray());
    struct measured_run *m = malloc(sizeof *m);
    cr_assert_eq(measured_read(doc, m), 0);
    cr_expect(m->fw.present);
    cr_expect_eq(m->fw.npythons, MEASURED_FW_MAX_PYTHONS);
    cr_expect_str_eq(m->fw.python[0].path, "");
    cr_expect_str_eq(m->fw.python[0].version, "");
    cr_expect_eq(m->fw.python[7].nfound, 0, "frameworks as an object is no list");
    cr_expect(isnan(m->fw.models.mlp_batch));
    cr_expect(isnan(m->fw.models.gpt_layers));
    cr_expect_str_eq(m->fw.models.mlp_layers, "784,256,10");
    cr_expect_eq(m->nresults, 6, "the rows read as ever");
    struct probe_fw_table *t = malloc(sizeof *t);
    probe_fw_table_from(m, t);
    cr_expect_eq(t->nfound, 8);
    cr_expect_str_eq(t->found[7], " (Python ): no framework");
    cr_expect_str_eq(t->title[0], "MLP 784-256-10, batch nan, ReLU, cross-entropy, Adam");
    /* a section of another type, and interpreters as an object: nothing found */
    cJSON_ReplaceItemInObject(fw, "interpreters", cJSON_CreateObject());
    cJSON_AddItemToObject(cJSON_GetObjectItem(fw, "interpreters"), "a", cJSON_CreateObject());
    measured_read(doc, m);
    cr_expect_eq(m->fw.npythons, 0);
    cJSON_ReplaceItemInObject(doc, "frameworks", cJSON_CreateNumber(3));
    measured_read(doc, m);
    cr_expect_not(m->fw.present);
    cr_expect_eq(m->fw.npythons, 0);
    cr_expect(isnan(m->fw.models.gpt_batch));
    probe_fw_table_from(m, t);
    cr_expect_eq(t->nrows, 6);
    cr_expect_eq(t->nfound, 0);
    free(t), free(m);
    cJSON_Delete(doc);
}

/* The page's bars are named by the words the row stored: with the unit and version written,
 * and without those a stored row never had (no trailing space). */
Test(fw_reader, the_page_labels_frameworks_rows_from_their_parameters)
{
    cJSON *doc = written_run();
    struct html h = {0};
    cr_assert_eq(probe_run_html(doc, NULL, NULL, 0, &h), 0);
    char *page = strndup(h.data, h.len);
    html_free(&h);
    cr_expect(strstr(page, ">pytorch eager mlp samples 2.1.0<"), "the PyTorch 2.1 row's label");
    cr_expect(strstr(page, ">engine openblas gpt tokens 0.1.0<"), "the GPT engine row's label");
    free(page);
    cJSON *params = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0), "params");
    cJSON_DeleteItemFromObject(params, "per_step_unit");
    cJSON_DeleteItemFromObject(params, "version");
    cr_assert_eq(probe_run_html(doc, NULL, NULL, 0, &h), 0);
    page = strndup(h.data, h.len);
    html_free(&h);
    cr_expect(strstr(page, ">engine openblas mlp<"), "a row without unit or version");
    free(page);
    cJSON_Delete(doc);
}
