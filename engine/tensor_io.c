/* .npy and safetensors readers and writers. Nothing read from a file is trusted: every length is
 * checked against what remains, every product against overflow. */
#include "engine/tensor_io.h"
#include "common/file.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE_BYTES ((size_t)16 << 30)

/* Maps a file for a parser: the header is checked against the file's size before any data is
 * read, so a huge file with a bad header costs no memory. */
static int map_input(const char *path, struct file_mapped *m, char *err, size_t errsz)
{
    int status = file_map(path, MAX_FILE_BYTES, m, err, errsz);
    if (status == FILE_OK) return ENG_OK;
    if (status == FILE_TOO_BIG || status == FILE_MISSING) return ENG_ERR_INPUT;
    return ENG_ERR_RUNTIME;
}

void eng_array_free(struct eng_array *a)
{
    free(a->data);
    memset(a, 0, sizeof *a);
}

/* --- .npy ---------------------------------------------------------------------------------- */

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    return p;
}

static const char *skip_blank(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* Past one value of the header dict: a quoted string, a tuple, or a bare word (True, a number);
 * NULL when it does not end inside the header. */
static const char *skip_value(const char *p, const char *end)
{
    p = skip_blank(p, end);
    if (p >= end) return NULL;
    if (*p == '\'' || *p == '"') {
        char q = *p++;
        for (; p < end && *p != q; p++)
            if (*p == '\\') p++;
        return p < end ? p + 1 : NULL;
    }
    if (*p == '(') {
        while (p < end && *p != ')') p++;
        return p < end ? p + 1 : NULL;
    }
    const char *start = p;
    while (p < end && *p != ',' && *p != '}' && *p != ' ' && *p != '\n') p++;
    return p > start ? p : NULL;
}

enum { NPY_DESCR, NPY_FORTRAN, NPY_SHAPE, NPY_NKEYS };
static const char *const npy_keys[NPY_NKEYS] = {"descr", "fortran_order", "shape"};

/* Walks the header dict once: val[k] points just past the colon of key k's last occurrence, as
 * Python's dict literal (and so NumPy) takes a repeated key. Returns NULL, or why the header is
 * not a dict of those keys (NumPy refuses any other key too). */
static const char *npy_header_keys(const char *h, const char *end, const char *val[NPY_NKEYS])
{
    for (int k = 0; k < NPY_NKEYS; k++) val[k] = NULL;
    const char *p = skip_blank(h, end);
    if (p >= end || *p++ != '{') return "is not a dict";
    for (;;) {
        p = skip_blank(p, end);
        if (p < end && *p == '}') return NULL;
        if (p >= end || (*p != '\'' && *p != '"')) return "is malformed (a key that is not a string)";
        const char *key = p + 1, *after = skip_value(p, end);
        if (!after) return "is malformed (an unterminated key)";
        size_t klen = (size_t)(after - 1 - key);
        p = skip_blank(after, end);
        if (p >= end || *p++ != ':') return "is malformed (no ':' after a key)";
        int which = -1;
        for (int k = 0; k < NPY_NKEYS; k++)
            if (strlen(npy_keys[k]) == klen && memcmp(key, npy_keys[k], klen) == 0) which = k;
        if (which < 0) return "has a key other than 'descr', 'fortran_order' and 'shape'";
        val[which] = p;
        if (!(p = skip_value(p, end))) return "is malformed (a value runs past its end)";
        p = skip_blank(p, end);
        if (p < end && *p == ',') p++;
        else if (p >= end || *p != '}') return "is malformed (no ',' between entries)";
    }
}

/* The header's place: its length and where it starts, by the format's version. */
static int npy_header_place(const unsigned char *buf, size_t len, const char *name, size_t *header_len,
                            size_t *header_at, char *err, size_t errsz)
{
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0) {
        snprintf(err, errsz, "%s: not a .npy file (no \\x93NUMPY magic)", name);
        return ENG_ERR_INPUT;
    }
    int major = buf[6];
    if (major == 1) {
        *header_len = (size_t)buf[8] | (size_t)buf[9] << 8;
        *header_at = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12) {
            snprintf(err, errsz, "%s: truncated .npy header", name);
            return ENG_ERR_INPUT;
        }
        *header_len = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        *header_at = 12;
    } else {
        snprintf(err, errsz, "%s: .npy version %d.%d is not supported (1.0, 2.0, 3.0)", name, major, buf[7]);
        return ENG_ERR_INPUT;
    }
    if (*header_len > len - *header_at) {
        snprintf(err, errsz, "%s: .npy header length %zu runs past the end of the file (%zu bytes)", name, *header_len,
                 len);
        return ENG_ERR_INPUT;
    }
    return ENG_OK;
}

/* 'descr' (one of three dtypes) and 'fortran_order' (False only). */
static int npy_dtype_and_order(const char *const *val, const char *hend, const char *name, struct eng_array *out,
                               size_t *item, char *err, size_t errsz)
{
    const char *p = val[NPY_DESCR];
    if (!p) {
        snprintf(err, errsz, "%s: .npy header has no 'descr'", name);
        return ENG_ERR_INPUT;
    }
    p = skip_space(p, hend);
    char descr[16] = "";
    if (p < hend && (*p == '\'' || *p == '"')) {
        char q = *p++;
        size_t i = 0;
        while (p < hend && *p != q && i < sizeof descr - 1) descr[i++] = *p++;
        descr[i] = '\0';
        if (p >= hend || *p != q) descr[0] = '\0';
    }
    if (strcmp(descr, "<f4") == 0) out->dtype = ENG_F32, *item = 4;
    else if (strcmp(descr, "<i4") == 0) out->dtype = ENG_I32, *item = 4;
    else if (strcmp(descr, "<i8") == 0) out->dtype = ENG_I64, *item = 8;
    else {
        snprintf(err, errsz, "%s: dtype '%s' is not supported (little-endian float32 <f4, int32 <i4 or int64 <i8)", name,
                 descr[0] ? descr : "?");
        return ENG_ERR_INPUT;
    }
    p = val[NPY_FORTRAN];
    p = p ? skip_space(p, hend) : NULL;
    if (!p || (size_t)(hend - p) < 4) {
        snprintf(err, errsz, "%s: .npy header has no 'fortran_order'", name);
        return ENG_ERR_INPUT;
    }
    if ((size_t)(hend - p) >= 4 && memcmp(p, "True", 4) == 0) {
        snprintf(err, errsz, "%s: Fortran-order arrays are not supported (save with numpy.ascontiguousarray)", name);
        return ENG_ERR_INPUT;
    }
    if ((size_t)(hend - p) < 5 || memcmp(p, "False", 5) != 0) {
        snprintf(err, errsz, "%s: .npy 'fortran_order' is neither True nor False", name);
        return ENG_ERR_INPUT;
    }
    return ENG_OK;
}

/* 'shape': (a,) or (a, b), into out->shape; *ndim and the element count. */
static int npy_shape(const char *p, const char *hend, const char *name, struct eng_array *out, int *ndim,
                     uint64_t *count, char *err, size_t errsz)
{
    p = p ? skip_space(p, hend) : NULL;
    if (!p || p >= hend || *p != '(') {
        snprintf(err, errsz, "%s: .npy header has no 'shape' tuple", name);
        return ENG_ERR_INPUT;
    }
    p++;
    *ndim = 0;
    *count = 1;
    for (;;) {
        p = skip_space(p, hend);
        if (p < hend && *p == ')') break;
        if (p >= hend || !isdigit((unsigned char)*p)) {
            snprintf(err, errsz, "%s: .npy 'shape' is malformed", name);
            return ENG_ERR_INPUT;
        }
        uint64_t v = 0;
        while (p < hend && isdigit((unsigned char)*p)) {
            if (v > (UINT64_MAX - 9) / 10) {
                snprintf(err, errsz, "%s: .npy shape value overflows", name);
                return ENG_ERR_INPUT;
            }
            v = v * 10 + (uint64_t)(*p++ - '0');
        }
        if (*ndim == 2) {
            snprintf(err, errsz, "%s: arrays of more than 2 dimensions are not supported", name);
            return ENG_ERR_INPUT;
        }
        if (v > INT64_MAX || (v && *count > UINT64_MAX / v)) {
            snprintf(err, errsz, "%s: .npy shape product overflows", name);
            return ENG_ERR_INPUT;
        }
        out->shape[(*ndim)++] = (int64_t)v;
        *count *= v;
        p = skip_space(p, hend);
        if (p < hend && *p == ',') p++;
    }
    if (*ndim == 0) {
        snprintf(err, errsz, "%s: scalar arrays are not supported (need 1 or 2 dimensions)", name);
        return ENG_ERR_INPUT;
    }
    return ENG_OK;
}

int eng_npy_parse(const unsigned char *buf, size_t len, const char *name, struct eng_array *out, char *err,
                  size_t errsz)
{
    memset(out, 0, sizeof *out);
    size_t header_len, header_at, item;
    int status = npy_header_place(buf, len, name, &header_len, &header_at, err, errsz);
    if (status) return status;
    const char *h = (const char *)buf + header_at, *hend = h + header_len;
    const char *val[NPY_NKEYS];
    const char *bad = npy_header_keys(h, hend, val);
    if (bad) {
        snprintf(err, errsz, "%s: .npy header %s", name, bad);
        return ENG_ERR_INPUT;
    }
    int ndim;
    uint64_t count;
    if ((status = npy_dtype_and_order(val, hend, name, out, &item, err, errsz)) ||
        (status = npy_shape(val[NPY_SHAPE], hend, name, out, &ndim, &count, err, errsz)))
        return status;
    size_t data_at = header_at + header_len, have = len - data_at;
    if (count > SIZE_MAX / item || count * item != have) {
        snprintf(err, errsz, "%s: shape (%lld%s%lld) needs %llu bytes of data but the file holds %zu", name,
                 (long long)out->shape[0], ndim == 2 ? ", " : "", ndim == 2 ? (long long)out->shape[1] : 0LL,
                 (unsigned long long)(count <= SIZE_MAX / item ? count * item : 0), have);
        if (ndim == 1) {
            /* same message without the bogus second dimension */
            snprintf(err, errsz, "%s: shape (%lld,) needs %s bytes of data but the file holds %zu", name,
                     (long long)out->shape[0], count > SIZE_MAX / item ? "more" : "a different number of", have);
        }
        return ENG_ERR_INPUT;
    }
    out->ndim = ndim;
    out->count = (size_t)count;
    out->data = malloc(have ? have : 1);
    if (!out->data) {
        snprintf(err, errsz, "%s: out of memory for %zu bytes", name, have);
        return ENG_ERR_RUNTIME;
    }
    memcpy(out->data, buf + data_at, have);
    return ENG_OK;
}

int eng_npy_load(const char *path, struct eng_array *out, char *err, size_t errsz)
{
    struct file_mapped m;
    int status = map_input(path, &m, err, errsz);
    if (status) return status;
    status = eng_npy_parse(m.data, m.len, path, out, err, errsz);
    file_unmap(&m);
    return status;
}

static int write_file(const char *path, const struct file_chunk *chunks, int n, char *err, size_t errsz)
{
    int status = file_write(path, chunks, n, err, errsz);
    return status == FILE_OK ? ENG_OK : status == FILE_REFUSED ? ENG_ERR_INPUT : ENG_ERR_RUNTIME;
}

int eng_npy_save(const char *path, const struct eng_array *a, char *err, size_t errsz)
{
    const char *descr = a->dtype == ENG_F32 ? "<f4" : a->dtype == ENG_I32 ? "<i4" : "<i8";
    size_t item = a->dtype == ENG_I64 ? 8 : 4;
    char header[256];
    int n;
    if (a->ndim == 1)
        n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%lld,), }", descr,
                     (long long)a->shape[0]);
    else
        n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%lld, %lld), }", descr,
                     (long long)a->shape[0], (long long)a->shape[1]);
    /* Pad with spaces and a newline so the data starts 64-byte aligned, as numpy does. */
    size_t total = 10 + (size_t)n + 1;
    size_t padded = (total + 63) & ~(size_t)63;
    memset(header + n, ' ', padded - total);
    header[n + (int)(padded - total)] = '\n';
    size_t hlen = padded - 10;
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
    const struct file_chunk chunks[] = {{pre, 10}, {header, hlen}, {a->data, a->count * item}};
    return write_file(path, chunks, 3, err, errsz);
}

int eng_data_from_arrays(struct eng_data *d, const struct eng_array *x, const struct eng_array *y, int in, int out,
                         enum eng_loss loss, const char *xname, const char *yname, char *err, size_t errsz)
{
    memset(d, 0, sizeof *d);
    if (x->dtype != ENG_F32 || x->ndim != 2 || x->shape[1] != in || x->shape[0] < 1 || x->shape[0] > INT_MAX) {
        snprintf(err, errsz, "%s: expected float32 inputs of shape (N, %d), got %s of %d dimension(s)%s", xname, in,
                 x->dtype == ENG_F32 ? "float32" : "integers", x->ndim,
                 x->ndim == 2 && x->shape[1] != in ? " with another width" : "");
        return ENG_ERR_INPUT;
    }
    int rows = (int)x->shape[0];
    if (loss == ENG_LOSS_CE) {
        if ((y->dtype != ENG_I32 && y->dtype != ENG_I64) || y->ndim != 1 || y->shape[0] != rows) {
            snprintf(err, errsz, "%s: expected int32 or int64 class ids of shape (%d,) for the ce loss", yname, rows);
            return ENG_ERR_INPUT;
        }
    } else if (y->dtype != ENG_F32 || y->ndim != 2 || y->shape[0] != rows || y->shape[1] != out) {
        snprintf(err, errsz, "%s: expected float32 targets of shape (%d, %d) for the mse loss", yname, rows, out);
        return ENG_ERR_INPUT;
    }
    d->rows = rows;
    d->in = in;
    d->out = out;
    d->loss = loss;
    d->x = malloc(x->count * sizeof(float));
    if (loss == ENG_LOSS_CE) d->labels = malloc((size_t)rows * sizeof(int32_t));
    else d->targets = malloc(y->count * sizeof(float));
    if (!d->x || (!d->labels && !d->targets)) {
        eng_data_free(d);
        snprintf(err, errsz, "out of memory for the data");
        return ENG_ERR_RUNTIME;
    }
    memcpy(d->x, x->data, x->count * sizeof(float));
    if (loss == ENG_LOSS_CE) {
        for (int r = 0; r < rows; r++) {
            int64_t v = y->dtype == ENG_I64 ? ((const int64_t *)y->data)[r] : ((const int32_t *)y->data)[r];
            if (v < 0 || v >= out) {
                snprintf(err, errsz, "%s: row %d has class %lld, outside 0..%d", yname, r, (long long)v, out - 1);
                eng_data_free(d);
                return ENG_ERR_INPUT;
            }
            d->labels[r] = (int32_t)v;
        }
    } else {
        memcpy(d->targets, y->data, y->count * sizeof(float));
    }
    return ENG_OK;
}

/* --- safetensors --------------------------------------------------------------------------- */

#define ST_MAX_HEADER ((uint64_t)100 << 20) /* the format's own limit */

int eng_st_parse(const unsigned char *buf, size_t len, const char *name, struct eng_st_file *out, char *err,
                 size_t errsz)
{
    memset(out, 0, sizeof *out);
    if (len < 8) {
        snprintf(err, errsz, "%s: too short for a safetensors file", name);
        return ENG_ERR_INPUT;
    }
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--) hlen = hlen << 8 | buf[i];
    if (hlen > ST_MAX_HEADER || hlen > len - 8) {
        snprintf(err, errsz, "%s: header length %llu runs past the end of the file (%zu bytes)", name,
                 (unsigned long long)hlen, len);
        return ENG_ERR_INPUT;
    }
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts((const char *)buf + 8, (size_t)hlen, &end, 0);
    if (!doc || !cJSON_IsObject(doc)) {
        snprintf(err, errsz, "%s: the header is not a JSON object", name);
        cJSON_Delete(doc);
        return ENG_ERR_INPUT;
    }
    for (const char *p = end; p < (const char *)buf + 8 + hlen; p++)
        if (*p != ' ' && *p != '\0') {
            snprintf(err, errsz, "%s: junk after the header's JSON", name);
            cJSON_Delete(doc);
            return ENG_ERR_INPUT;
        }
    out->data = buf + 8 + hlen;
    out->data_len = len - 8 - (size_t)hlen;
    int status = ENG_ERR_INPUT;
    for (const cJSON *e = doc->child; e; e = e->next) {
        for (const cJSON *prev = doc->child; prev != e; prev = prev->next)
            if (strcmp(prev->string, e->string) == 0) {
                snprintf(err, errsz, "%s: tensor '%.60s' appears twice", name, e->string);
                goto done;
            }
        if (strcmp(e->string, "__metadata__") == 0) {
            if (!cJSON_IsObject(e)) {
                snprintf(err, errsz, "%s: __metadata__ is not an object", name);
                goto done;
            }
            continue;
        }
        if (out->count == (int)(sizeof out->tensors / sizeof out->tensors[0])) {
            snprintf(err, errsz, "%s: more than %zu tensors", name, sizeof out->tensors / sizeof out->tensors[0]);
            goto done;
        }
        struct eng_st_tensor *t = &out->tensors[out->count];
        if (strlen(e->string) >= sizeof t->name) {
            snprintf(err, errsz, "%s: tensor name '%.40s...' is too long", name, e->string);
            goto done;
        }
        snprintf(t->name, sizeof t->name, "%s", e->string);
        const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(e, "dtype");
        const cJSON *shape = cJSON_GetObjectItemCaseSensitive(e, "shape");
        const cJSON *offs = cJSON_GetObjectItemCaseSensitive(e, "data_offsets");
        if (!cJSON_IsObject(e) || !cJSON_IsString(dtype) || !cJSON_IsArray(shape) || !cJSON_IsArray(offs) ||
            cJSON_GetArraySize(offs) != 2) {
            snprintf(err, errsz, "%s: tensor '%s' lacks dtype, shape or data_offsets", name, t->name);
            goto done;
        }
        snprintf(t->dtype, sizeof t->dtype, "%.7s", dtype->valuestring);
        int nd = cJSON_GetArraySize(shape);
        if (nd > 4) {
            snprintf(err, errsz, "%s: tensor '%s' has %d dimensions (at most 4)", name, t->name, nd);
            goto done;
        }
        uint64_t count = 1;
        t->ndim = 0;
        const cJSON *dim;
        cJSON_ArrayForEach(dim, shape) {
            if (!cJSON_IsNumber(dim) || dim->valuedouble < 0 || dim->valuedouble > 9.0e15 ||
                dim->valuedouble != (double)(int64_t)dim->valuedouble) {
                snprintf(err, errsz, "%s: tensor '%s' has a bad shape", name, t->name);
                goto done;
            }
            uint64_t v = (uint64_t)dim->valuedouble;
            if (v && count > UINT64_MAX / v) {
                snprintf(err, errsz, "%s: tensor '%s' shape product overflows", name, t->name);
                goto done;
            }
            count *= v;
            t->shape[t->ndim++] = (int64_t)v;
        }
        double b = cJSON_GetArrayItem(offs, 0)->valuedouble, en = cJSON_GetArrayItem(offs, 1)->valuedouble;
        if (!cJSON_IsNumber(cJSON_GetArrayItem(offs, 0)) || !cJSON_IsNumber(cJSON_GetArrayItem(offs, 1)) || b < 0 ||
            en < b || en > (double)out->data_len || b != (double)(uint64_t)b || en != (double)(uint64_t)en) {
            snprintf(err, errsz, "%s: tensor '%s' data_offsets lie outside the %zu data bytes", name, t->name,
                     out->data_len);
            goto done;
        }
        t->begin = (uint64_t)b;
        t->end = (uint64_t)en;
        size_t item = !strcmp(t->dtype, "F32") || !strcmp(t->dtype, "I32") ? 4
                      : !strcmp(t->dtype, "F64") || !strcmp(t->dtype, "I64") ? 8
                      : !strcmp(t->dtype, "F16") || !strcmp(t->dtype, "BF16") ? 2 : 0;
        if (item && (count > UINT64_MAX / item || count * item != t->end - t->begin)) {
            snprintf(err, errsz, "%s: tensor '%s' holds %llu bytes, its shape needs %s", name, t->name,
                     (unsigned long long)(t->end - t->begin), count > UINT64_MAX / item ? "more" : "another size");
            goto done;
        }
        out->count++;
    }
    /* Tensors may not overlap. */
    for (int i = 0; i < out->count; i++)
        for (int j = i + 1; j < out->count; j++) {
            const struct eng_st_tensor *a = &out->tensors[i], *c = &out->tensors[j];
            if (a->begin < c->end && c->begin < a->end) {
                snprintf(err, errsz, "%s: tensors '%s' and '%s' overlap", name, a->name, c->name);
                goto done;
            }
        }
    status = ENG_OK;
done:
    cJSON_Delete(doc);
    return status;
}

int eng_st_apply(const struct eng_st_file *f, const char *name, struct eng_model *m, char *err, size_t errsz)
{
    const struct eng_config *c = eng_model_config(m);
    int layers = c->nsizes - 1;
    /* Every tensor must belong to the model. */
    for (int i = 0; i < f->count; i++) {
        const struct eng_st_tensor *t = &f->tensors[i];
        int layer = -1, n = 0;
        char kind[16] = "";
        if (sscanf(t->name, "layers.%d.%15[a-z]%n", &layer, kind, &n) != 2 || t->name[n] != '\0' || layer < 0 ||
            layer >= layers || (strcmp(kind, "weight") != 0 && strcmp(kind, "bias") != 0)) {
            snprintf(err, errsz, "%s: tensor '%s' is not part of a %d-layer model (layers.{i}.weight, layers.{i}.bias)",
                     name, t->name, layers);
            return ENG_ERR_INPUT;
        }
    }
    for (int l = 0; l < layers; l++) {
        const struct eng_st_tensor *w = NULL, *b = NULL;
        char wname[40], bname[40];
        snprintf(wname, sizeof wname, "layers.%d.weight", l);
        snprintf(bname, sizeof bname, "layers.%d.bias", l);
        for (int i = 0; i < f->count; i++) {
            if (!strcmp(f->tensors[i].name, wname)) w = &f->tensors[i];
            if (!strcmp(f->tensors[i].name, bname)) b = &f->tensors[i];
        }
        if (!w || !b) {
            snprintf(err, errsz, "%s: missing tensor '%s'", name, !w ? wname : bname);
            return ENG_ERR_INPUT;
        }
        int in = c->sizes[l], o = c->sizes[l + 1];
        if (strcmp(w->dtype, "F32") || strcmp(b->dtype, "F32")) {
            snprintf(err, errsz, "%s: '%s' is %s; only F32 weights are supported", name, strcmp(w->dtype, "F32") ? wname : bname,
                     strcmp(w->dtype, "F32") ? w->dtype : b->dtype);
            return ENG_ERR_INPUT;
        }
        if (w->ndim != 2 || w->shape[0] != o || w->shape[1] != in) {
            snprintf(err, errsz, "%s: '%s' should have shape [%d, %d] for this model", name, wname, o, in);
            return ENG_ERR_INPUT;
        }
        if (b->ndim != 1 || b->shape[0] != o) {
            snprintf(err, errsz, "%s: '%s' should have shape [%d] for this model", name, bname, o);
            return ENG_ERR_INPUT;
        }
    }
    /* All checked: copy (memcpy from the buffer: its data section has no alignment guarantee). */
    for (int l = 0; l < layers; l++) {
        char wname[40], bname[40];
        snprintf(wname, sizeof wname, "layers.%d.weight", l);
        snprintf(bname, sizeof bname, "layers.%d.bias", l);
        const struct eng_st_tensor *w = NULL, *b = NULL;
        for (int i = 0; i < f->count; i++) {
            if (!strcmp(f->tensors[i].name, wname)) w = &f->tensors[i];
            if (!strcmp(f->tensors[i].name, bname)) b = &f->tensors[i];
        }
        float *wbuf = malloc(w->end - w->begin + 4), *bbuf = malloc(b->end - b->begin + 4);
        if (!wbuf || !bbuf) {
            free(wbuf);
            free(bbuf);
            snprintf(err, errsz, "%s: out of memory", name);
            return ENG_ERR_RUNTIME;
        }
        memcpy(wbuf, f->data + w->begin, w->end - w->begin);
        memcpy(bbuf, f->data + b->begin, b->end - b->begin);
        eng_model_set_layer(m, l, wbuf, bbuf);
        free(wbuf);
        free(bbuf);
    }
    return ENG_OK;
}

int eng_st_load_model(const char *path, struct eng_model *m, char *err, size_t errsz)
{
    struct file_mapped map;
    int status = map_input(path, &map, err, errsz);
    if (status) return status;
    struct eng_st_file *f = malloc(sizeof *f);
    if (!f) {
        file_unmap(&map);
        snprintf(err, errsz, "out of memory");
        return ENG_ERR_RUNTIME;
    }
    status = eng_st_parse(map.data, map.len, path, f, err, errsz);
    if (status == ENG_OK) status = eng_st_apply(f, path, m, err, errsz);
    free(f);
    file_unmap(&map);
    return status;
}

int eng_st_write(const char *path, const struct eng_st_out *t, int n, char *err, size_t errsz)
{
    char *header = NULL;
    size_t used = 0;
    FILE *h = open_memstream(&header, &used);
    struct file_chunk *chunks = malloc(((size_t)n + 2) * sizeof *chunks);
    if (!h || !chunks) {
        if (h) fclose(h);
        free(header);
        free(chunks);
        snprintf(err, errsz, "out of memory");
        return ENG_ERR_RUNTIME;
    }
    fputs("{\"__metadata__\":{\"format\":\"pt\"}", h);
    size_t at = 0;
    for (int k = 0; k < n; k++) {
        size_t bytes = t[k].count * sizeof(float);
        fprintf(h, ",\"%s\":{\"dtype\":\"F32\",\"shape\":[", t[k].name);
        for (int d = 0; d < t[k].ndim; d++) fprintf(h, "%s%lld", d ? "," : "", (long long)t[k].shape[d]);
        fprintf(h, "],\"data_offsets\":[%zu,%zu]}", at, at + bytes);
        chunks[k + 2] = (struct file_chunk){t[k].data, bytes};
        at += bytes;
    }
    fputc('}', h);
    for (long pos = ftell(h); (8 + pos) % 8; pos++) fputc(' ', h); /* the data section 8-byte aligned */
    int failed = ferror(h);
    if (fclose(h) != 0 || failed || !header) {
        free(header);
        free(chunks);
        snprintf(err, errsz, "out of memory");
        return ENG_ERR_RUNTIME;
    }
    unsigned char len8[8];
    for (int i = 0; i < 8; i++) len8[i] = (unsigned char)((uint64_t)used >> (8 * i));
    chunks[0] = (struct file_chunk){len8, 8};
    chunks[1] = (struct file_chunk){header, used};
    int status = write_file(path, chunks, n + 2, err, errsz);
    free(header);
    free(chunks);
    return status;
}

int eng_st_save_model(const char *path, const struct eng_model *m, char *err, size_t errsz)
{
    const struct eng_config *c = eng_model_config(m);
    int layers = c->nsizes - 1;
    size_t total = 0;
    for (int l = 0; l < layers; l++) total += (size_t)c->sizes[l] * c->sizes[l + 1] + (size_t)c->sizes[l + 1];
    float *data = malloc((total ? total : 1) * sizeof *data);
    struct eng_st_out *t = malloc(2 * (size_t)layers * sizeof *t);
    char (*names)[32] = malloc(2 * (size_t)layers * sizeof *names);
    int status = ENG_ERR_RUNTIME;
    if (data && t && names) {
        size_t at = 0;
        for (int l = 0; l < layers; l++) {
            int in = c->sizes[l], o = c->sizes[l + 1];
            float *w = data + at, *b = w + (size_t)in * o;
            eng_model_get_layer(m, l, w, b);
            snprintf(names[2 * l], sizeof names[0], "layers.%d.weight", l);
            snprintf(names[2 * l + 1], sizeof names[0], "layers.%d.bias", l);
            t[2 * l] = (struct eng_st_out){names[2 * l], 2, {o, in}, w, (size_t)in * o};
            t[2 * l + 1] = (struct eng_st_out){names[2 * l + 1], 1, {o}, b, (size_t)o};
            at += (size_t)in * o + (size_t)o;
        }
        status = eng_st_write(path, t, 2 * layers, err, errsz);
    } else {
        snprintf(err, errsz, "out of memory");
    }
    free(data);
    free(t);
    free(names);
    return status;
}
