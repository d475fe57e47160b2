/* GPT weights as safetensors under nanoGPT's names (gpt.h). Reading goes through tensor_io's
 * checked parser; writing through the atomic file writer. */
#include "common/file.h"
#include "engine/gpt.h"
#include "engine/tensor_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WEIGHT_BYTES ((size_t)64 << 30)
#define LM_HEAD "lm_head.weight"

static int open_file(const char *path, struct file_mapped *map, struct eng_st_file **f, char *err, size_t errsz)
{
    int status = file_map(path, MAX_WEIGHT_BYTES, map, err, errsz);
    if (status != FILE_OK) return status == FILE_ERR ? ENG_ERR_RUNTIME : ENG_ERR_INPUT;
    *f = malloc(sizeof **f);
    if (!*f) {
        file_unmap(map);
        snprintf(err, errsz, "out of memory");
        return ENG_ERR_RUNTIME;
    }
    status = eng_st_parse(map->data, map->len, path, *f, err, errsz);
    if (status != ENG_OK) {
        free(*f);
        file_unmap(map);
    }
    return status;
}

static const struct eng_st_tensor *find(const struct eng_st_file *f, const char *name)
{
    for (int i = 0; i < f->count; i++)
        if (strcmp(f->tensors[i].name, name) == 0) return &f->tensors[i];
    return NULL;
}

int eng_gpt_file_positions(const char *path, int *rows, int *width, char *err, size_t errsz)
{
    struct file_mapped map;
    struct eng_st_file *f;
    int status = open_file(path, &map, &f, err, errsz);
    if (status != ENG_OK) return status;
    const struct eng_st_tensor *t = find(f, "transformer.wpe.weight");
    if (!t || t->ndim != 2 || t->shape[0] < 1 || t->shape[0] > 1 << 20 || t->shape[1] > 1 << 20) {
        snprintf(err, errsz, "%s: %s tensor 'transformer.wpe.weight' (the position table)", path,
                 t ? "a misshapen" : "missing");
        status = ENG_ERR_INPUT;
    } else {
        *rows = (int)t->shape[0];
        *width = (int)t->shape[1];
    }
    free(f);
    file_unmap(&map);
    return status;
}

/* nanoGPT keeps its causal mask as a buffer transformer.h.{i}.attn.bias where PyTorch lacks
 * flash attention; it is not a parameter and a file may carry it. */
static int is_mask_buffer(const struct eng_st_tensor *t, int layers)
{
    int layer, n = 0;
    return sscanf(t->name, "transformer.h.%d.attn.bias%n", &layer, &n) == 1 && t->name[n] == '\0' && layer >= 0 &&
           layer < layers && t->ndim == 4;
}

static void shape_text(char *buf, size_t n, int ndim, const int64_t *shape)
{
    size_t at = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < ndim && at < n; d++)
        at += (size_t)snprintf(buf + at, n - at, "%s%lld", d ? ", " : "", (long long)shape[d]);
    if (at < n) snprintf(buf + at, n - at, "]");
}

/* The file's tensor for model tensor i (wte may be stood for by lm_head.weight), checked. */
static int match(const struct eng_st_file *f, const char *path, const struct eng_gpt_tensor *want,
                 const struct eng_st_tensor **out, char *err, size_t errsz)
{
    const struct eng_st_tensor *t = find(f, want->name);
    if (!t && strcmp(want->name, "transformer.wte.weight") == 0) t = find(f, LM_HEAD);
    if (!t) {
        snprintf(err, errsz, "%s: missing tensor '%s'", path, want->name);
        return ENG_ERR_INPUT;
    }
    int same = t->ndim == want->ndim;
    for (int d = 0; same && d < want->ndim; d++) same = t->shape[d] == want->shape[d];
    if (!same) {
        char have[96], need[96];
        shape_text(have, sizeof have, t->ndim, t->shape);
        shape_text(need, sizeof need, want->ndim, want->shape);
        snprintf(err, errsz, "%s: tensor '%s' has shape %s, this model needs %s", path, t->name, have, need);
        return ENG_ERR_INPUT;
    }
    if (strcmp(t->dtype, "F32") != 0) {
        snprintf(err, errsz, "%s: tensor '%s' is %s; only F32 weights are supported", path, t->name, t->dtype);
        return ENG_ERR_INPUT;
    }
    *out = t;
    return ENG_OK;
}

static int check_file(const struct eng_st_file *f, const char *path, const struct eng_gpt *m, char *err, size_t errsz)
{
    int n = eng_gpt_tensor_count(m), layers = eng_gpt_config_of(m)->n_layer;
    for (int i = 0; i < f->count; i++) {
        const struct eng_st_tensor *t = &f->tensors[i];
        int known = strcmp(t->name, LM_HEAD) == 0 || is_mask_buffer(t, layers);
        for (int k = 0; !known && k < n; k++) known = strcmp(t->name, eng_gpt_tensor_at(m, k)->name) == 0;
        if (!known) {
            snprintf(err, errsz, "%s: tensor '%s' is not part of this model (%d layers)", path, t->name, layers);
            return ENG_ERR_INPUT;
        }
    }
    for (int k = 0; k < n; k++) {
        const struct eng_st_tensor *t;
        int status = match(f, path, eng_gpt_tensor_at(m, k), &t, err, errsz);
        if (status != ENG_OK) return status;
    }
    /* Tied: when the file has both, they must hold the same values. */
    const struct eng_st_tensor *wte = find(f, "transformer.wte.weight"), *head = find(f, LM_HEAD);
    if (wte && head &&
        (head->end - head->begin != wte->end - wte->begin ||
         memcmp(f->data + head->begin, f->data + wte->begin, wte->end - wte->begin) != 0)) {
        snprintf(err, errsz, "%s: '%s' differs from 'transformer.wte.weight'; this model ties them", path, LM_HEAD);
        return ENG_ERR_INPUT;
    }
    return ENG_OK;
}

int eng_gpt_load(const char *path, struct eng_gpt *m, char *err, size_t errsz)
{
    struct file_mapped map;
    struct eng_st_file *f;
    int status = open_file(path, &map, &f, err, errsz);
    if (status != ENG_OK) return status;
    status = check_file(f, path, m, err, errsz);
    float *host = NULL;
    if (status == ENG_OK) {
        size_t widest = 0;
        for (int k = 0; k < eng_gpt_tensor_count(m); k++)
            if (eng_gpt_tensor_at(m, k)->count > widest) widest = eng_gpt_tensor_at(m, k)->count;
        host = malloc(widest * sizeof *host);
        if (!host) {
            snprintf(err, errsz, "out of memory");
            status = ENG_ERR_RUNTIME;
        }
    }
    /* All checked: copy (memcpy, as the data section has no alignment guarantee). */
    for (int k = 0; status == ENG_OK && k < eng_gpt_tensor_count(m); k++) {
        const struct eng_st_tensor *t;
        match(f, path, eng_gpt_tensor_at(m, k), &t, err, errsz);
        memcpy(host, f->data + t->begin, t->end - t->begin);
        eng_gpt_write_tensor(m, k, host);
    }
    free(host);
    free(f);
    file_unmap(&map);
    return status;
}

int eng_gpt_save(const char *path, const struct eng_gpt *m, char *err, size_t errsz)
{
    int n = eng_gpt_tensor_count(m);
    size_t total = 0;
    for (int k = 0; k < n; k++) total += eng_gpt_tensor_at(m, k)->count;
    float *data = malloc((total ? total : 1) * sizeof *data);
    struct eng_st_out *t = malloc(((size_t)n + 1) * sizeof *t);
    if (!data || !t) {
        free(data);
        free(t);
        snprintf(err, errsz, "out of memory");
        return ENG_ERR_RUNTIME;
    }
    size_t at = 0;
    for (int k = 0; k <= n; k++) {
        /* Every tensor in order, then lm_head.weight: wte's values again (wte is the first). */
        const struct eng_gpt_tensor *g = eng_gpt_tensor_at(m, k < n ? k : 0);
        if (k < n) eng_gpt_read_tensor(m, k, data + at);
        t[k] = (struct eng_st_out){k < n ? g->name : LM_HEAD, g->ndim, {0}, k < n ? data + at : data, g->count};
        for (int d = 0; d < g->ndim && d < 4; d++) t[k].shape[d] = g->shape[d];
        if (k < n) at += g->count;
    }
    int status = eng_st_write(path, t, n + 1, err, errsz);
    free(data);
    free(t);
    return status;
}
