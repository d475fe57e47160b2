/* tensor_io: NumPy .npy arrays and safetensors weight files, read from hostile bytes without
 * trusting any length, shape or offset in them. Parsers work on memory (the fuzz targets call
 * them directly); the file functions map the file, so a header is checked against the file's size before any data
 * is read. Every failure is one line in err naming
 * the file, and status ENG_ERR_INPUT (ENG_ERR_RUNTIME for I/O and memory). */
#ifndef FWADVISOR_ENGINE_TENSOR_IO_H
#define FWADVISOR_ENGINE_TENSOR_IO_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

enum eng_dtype { ENG_F32, ENG_I32, ENG_I64 };

struct eng_array {
    enum eng_dtype dtype;
    int ndim;              /* 1 or 2 */
    int64_t shape[2];
    size_t count;          /* product of the shape */
    void *data;            /* count elements, native byte order; owned, free with eng_array_free */
};

/* .npy version 1.0, 2.0 or 3.0, C order, little-endian float32, int32 or int64, 1 or 2 dims. */
int eng_npy_parse(const unsigned char *buf, size_t len, const char *name, struct eng_array *out, char *err,
                  size_t errsz);
int eng_npy_load(const char *path, struct eng_array *out, char *err, size_t errsz);
/* Writes a version 1.0 file atomically (used by tests and tools). */
int eng_npy_save(const char *path, const struct eng_array *a, char *err, size_t errsz);
void eng_array_free(struct eng_array *a);

/* Builds training data from X (float32 [N, in]) and Y (ce: int32/int64 [N] class ids in
 * [0, out); mse: float32 [N, out]); checks them against the model's widths. Takes ownership of
 * nothing: copies. */
int eng_data_from_arrays(struct eng_data *d, const struct eng_array *x, const struct eng_array *y, int in, int out,
                         enum eng_loss loss, const char *xname, const char *yname, char *err, size_t errsz);

/* safetensors: 8-byte little-endian header length, JSON header, raw data. Layer i of the model is
 * `layers.{i}.weight` [out, in] and `layers.{i}.bias` [out], F32. */
struct eng_st_tensor {
    char name[96];
    char dtype[8];
    int ndim;
    int64_t shape[4];
    uint64_t begin, end; /* byte offsets into the data section */
};

#define ENG_ST_MAX_TENSORS 1024 /* a 84-layer GPT has 1014 */

struct eng_st_file {
    int count;
    struct eng_st_tensor tensors[ENG_ST_MAX_TENSORS];
    const unsigned char *data; /* points into the parsed buffer */
    size_t data_len;
};

int eng_st_parse(const unsigned char *buf, size_t len, const char *name, struct eng_st_file *out, char *err,
                 size_t errsz);
/* Loads weights into m; every tensor of the model must be present with the right shape and
 * nothing else may be (except __metadata__). */
int eng_st_load_model(const char *path, struct eng_model *m, char *err, size_t errsz);
/* Checks a parsed file against m and copies the weights in (shared by the loader and fuzzing). */
int eng_st_apply(const struct eng_st_file *f, const char *name, struct eng_model *m, char *err, size_t errsz);
/* One F32 tensor to write: its name, shape and values. */
struct eng_st_out {
    const char *name;
    int ndim;
    int64_t shape[4];
    const float *data;
    size_t count;
};
/* Writes the tensors in order as one safetensors file, atomically (format "pt" in __metadata__,
 * compact JSON, the data section 8-byte aligned): the one writer of the MLP's and the GPT's
 * weights, loadable by safetensors.torch.load_file / PyTorch. */
int eng_st_write(const char *path, const struct eng_st_out *t, int n, char *err, size_t errsz);
/* Writes m's weights atomically, loadable by safetensors.torch.load_file / PyTorch. */
int eng_st_save_model(const char *path, const struct eng_model *m, char *err, size_t errsz);

#endif
