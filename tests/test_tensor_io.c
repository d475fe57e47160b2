/* .npy and safetensors readers against hostile files, and round trips. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/tensor_io.h"
#include "tests/support.h"

static char err[512];

/* A .npy v1 file: header text padded to 64 bytes, then `data_len` bytes of data. */
static size_t make_npy(unsigned char *buf, const char *header, size_t data_len)
{
    size_t hlen = strlen(header);
    size_t total = (10 + hlen + 1 + 63) & ~(size_t)63;
    size_t padded = total - 10;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(padded & 0xff);
    buf[9] = (unsigned char)(padded >> 8);
    memcpy(buf + 10, header, hlen);
    memset(buf + 10 + hlen, ' ', padded - hlen - 1);
    buf[10 + padded - 1] = '\n';
    for (size_t i = 0; i < data_len; i++) buf[total + i] = (unsigned char)i;
    return total + data_len;
}

Test(tensor_io, npy_reads_float_and_int_arrays)
{
    unsigned char buf[512];
    size_t n = make_npy(buf, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 48);
    struct eng_array a;
    cr_assert_eq(eng_npy_parse(buf, n, "x.npy", &a, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(a.dtype, ENG_F32);
    cr_expect_eq(a.ndim, 2);
    cr_expect_eq(a.shape[0], 3);
    cr_expect_eq(a.shape[1], 4);
    cr_expect_eq(a.count, 12);
    eng_array_free(&a);
    n = make_npy(buf, "{'descr': '<i8', 'fortran_order': False, 'shape': (5,), }", 40);
    cr_assert_eq(eng_npy_parse(buf, n, "y.npy", &a, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(a.dtype, ENG_I64);
    cr_expect_eq(a.ndim, 1);
    eng_array_free(&a);
}

struct bad_npy {
    char header[160];
    int data_len;
    int cut;          /* bytes to drop from the end of the file (-1: keep all) */
    char expect[80];
};

static struct bad_npy bad_npys[] = {
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 40, -1, "needs"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 56, -1, "needs"},
    {"{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", 24, -1, "dtype '<f8' is not supported"},
    {"{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }", 12, -1, "dtype '>f4' is not supported"},
    {"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16, -1, "Fortran-order"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 2), }", 32, -1, "more than 2 dimensions"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4, -1, "scalar arrays"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 16, -1, "overflows"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, 1), }", 16, -1, "overflows"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904,), }", 16, -1, "bytes of data"},
    {"{'descr': '<f4', 'fortran_order': False }", 16, -1, "no 'shape'"},
    {"{'fortran_order': False, 'shape': (4,), }", 16, -1, "no 'descr'"},
    {"{'descr': '<f4', 'shape': (4,), }", 16, -1, "no 'fortran_order'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (a, 4), }", 16, -1, "malformed"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", 16, 70, "runs past the end"},
    /* NumPy takes exactly these three keys; a fourth, or a key that is not a string, is refused */
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'extra': 1, }", 16, -1, "a key other than"},
    {"{descr: '<f4', 'fortran_order': False, 'shape': (4,), }", 16, -1, "a key that is not a string"},
    {"{'descr' '<f4', 'fortran_order': False, 'shape': (4,), }", 16, -1, "no ':' after a key"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,) 'x'}", 16, -1, "no ',' between entries"},
    {"['descr', '<f4']", 16, -1, "is not a dict"},
    /* 118 header bytes after a 10-byte preamble in a 120-byte file: shorter than the file, but
     * longer than what follows the preamble */
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", 16, 120, "runs past the end"},
};

ParameterizedTestParameters(tensor_io, npy_rejects_hostile_files)
{
    return cr_make_param_array(struct bad_npy, bad_npys, sizeof bad_npys / sizeof bad_npys[0]);
}

ParameterizedTest(struct bad_npy *b, tensor_io, npy_rejects_hostile_files)
{
    unsigned char buf[1024];
    size_t n = make_npy(buf, b->header, (size_t)b->data_len);
    if (b->cut >= 0) n = (size_t)b->cut;
    struct eng_array a;
    cr_expect_eq(eng_npy_parse(buf, n, "bad.npy", &a, err, sizeof err), ENG_ERR_INPUT, "%s accepted", b->header);
    cr_expect(strstr(err, b->expect) != NULL, "'%s' lacks '%s'", err, b->expect);
    cr_expect(strncmp(err, "bad.npy: ", 9) == 0, "names the file: %s", err);
    cr_expect_null(a.data);
}

/* A key given twice counts by its last value, as Python's dict literal and so NumPy take it; a key
 * named inside a string value is no key. */
Test(tensor_io, npy_takes_a_repeated_key_by_its_last_value)
{
    unsigned char buf[512];
    struct eng_array a;
    size_t n = make_npy(buf, "{'descr': '<i4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 8);
    cr_assert_eq(eng_npy_parse(buf, n, "d.npy", &a, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(a.dtype, ENG_F32, "the first descr was taken");
    eng_array_free(&a);
    n = make_npy(buf, "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), 'shape': (1, 2), }", 8);
    cr_assert_eq(eng_npy_parse(buf, n, "s.npy", &a, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(a.ndim, 2);
    cr_expect_eq(a.shape[1], 2);
    eng_array_free(&a);
    n = make_npy(buf, "{'descr': '<f4', 'fortran_order': True, 'fortran_order': False, 'shape': (2,), }", 8);
    cr_expect_eq(eng_npy_parse(buf, n, "f.npy", &a, err, sizeof err), ENG_OK, "%s", err);
    eng_array_free(&a);
    n = make_npy(buf, "{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }", 8);
    cr_assert_eq(eng_npy_parse(buf, n, "q.npy", &a, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(a.dtype, ENG_I64);
    eng_array_free(&a);
    /* 'shape': inside descr's string is not the shape */
    n = make_npy(buf, "{'descr': \"'shape': (9,)\", 'fortran_order': False, 'shape': (2,), }", 8);
    cr_expect_eq(eng_npy_parse(buf, n, "t.npy", &a, err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "dtype ''shape': (9,)' is not supported"), "%s", err);
}

Test(tensor_io, npy_rejects_short_and_foreign_files)
{
    struct eng_array a;
    cr_expect_eq(eng_npy_parse((const unsigned char *)"", 0, "e.npy", &a, err, sizeof err), ENG_ERR_INPUT);
    cr_expect_eq(eng_npy_parse((const unsigned char *)"PK\x03\x04 zip file", 16, "z.npy", &a, err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "not a .npy file") != NULL);
    unsigned char v9[16] = "\x93NUMPY\x09\x00";
    cr_expect_eq(eng_npy_parse(v9, 16, "v.npy", &a, err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "version 9.0") != NULL, "%s", err);
    /* version 2.0: a 4-byte header length far beyond the file */
    unsigned char v2[16] = "\x93NUMPY\x02\x00\xff\xff\xff\x7f";
    cr_expect_eq(eng_npy_parse(v2, 16, "v2.npy", &a, err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "runs past the end") != NULL, "%s", err);
}

Test(tensor_io, npy_round_trip_and_data_checks)
{
    char *dir = ts_tmpdir();
    char *xp = ts_path(dir, "x.npy"), *yp = ts_path(dir, "y.npy");
    float xv[6] = {1, 2, 3, 4, 5, 6};
    int64_t yv[3] = {0, 1, 7};
    struct eng_array x = {ENG_F32, 2, {3, 2}, 6, xv}, y = {ENG_I64, 1, {3, 0}, 3, yv};
    cr_assert_eq(eng_npy_save(xp, &x, err, sizeof err), ENG_OK, "%s", err);
    cr_assert_eq(eng_npy_save(yp, &y, err, sizeof err), ENG_OK, "%s", err);
    struct eng_array x2, y2;
    cr_assert_eq(eng_npy_load(xp, &x2, err, sizeof err), ENG_OK, "%s", err);
    cr_assert_eq(eng_npy_load(yp, &y2, err, sizeof err), ENG_OK, "%s", err);
    cr_expect(memcmp(x2.data, xv, sizeof xv) == 0);
    struct eng_data d;
    /* class 7 is outside 0..3 */
    cr_expect_eq(eng_data_from_arrays(&d, &x2, &y2, 2, 4, ENG_LOSS_CE, "x.npy", "y.npy", err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "row 2 has class 7") != NULL, "%s", err);
    cr_expect_eq(eng_data_from_arrays(&d, &x2, &y2, 2, 8, ENG_LOSS_CE, "x.npy", "y.npy", err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(d.labels[2], 7);
    eng_data_free(&d);
    cr_expect_eq(eng_data_from_arrays(&d, &x2, &y2, 3, 8, ENG_LOSS_CE, "x.npy", "y.npy", err, sizeof err), ENG_ERR_INPUT,
                 "width 2 data for a 3-input model");
    cr_expect_eq(eng_data_from_arrays(&d, &x2, &y2, 2, 8, ENG_LOSS_MSE, "x.npy", "y.npy", err, sizeof err), ENG_ERR_INPUT,
                 "class ids are not mse targets");
    eng_array_free(&x2);
    eng_array_free(&y2);
    cr_expect_eq(eng_npy_load("/nonexistent/x.npy", &x2, err, sizeof err), ENG_ERR_INPUT);
    ts_rmtree(dir);
    free(dir);
    free(xp);
    free(yp);
}

static struct eng_model *model_3_2(void)
{
    struct eng_config c;
    eng_config_defaults(&c);
    eng_parse_layers(&c, "3,2", err, sizeof err);
    c.batch = 1;
    struct eng_model *m;
    cr_assert_eq(eng_model_create(&c, eng_cpu_backend(), &m, err, sizeof err), ENG_OK);
    return m;
}

/* A safetensors file from a header text and `data_len` bytes of data. */
static size_t make_st(unsigned char *buf, const char *header, size_t data_len)
{
    size_t h = strlen(header);
    for (int i = 0; i < 8; i++) buf[i] = (unsigned char)((uint64_t)h >> (8 * i));
    memcpy(buf + 8, header, h);
    memset(buf + 8 + h, 0, data_len);
    return 8 + h + data_len;
}

#define W "\"layers.0.weight\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]}"
#define B "\"layers.0.bias\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[24,32]}"

struct bad_st {
    char header[400];
    int data_len;
    char expect[80];
};

static struct bad_st bad_sts[] = {
    {"{" W "}", 32, "missing tensor 'layers.0.bias'"},
    {"{" W "," B "," B "}", 32, "appears twice"},
    {"{" W "," B ",\"layers.1.weight\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[32,36]}}", 36,
     "not part of a 1-layer model"},
    {"{\"layers.0.weight\":{\"dtype\":\"F32\",\"shape\":[3,2],\"data_offsets\":[0,24]}," B "}", 32, "should have shape [2, 3]"},
    {"{\"layers.0.weight\":{\"dtype\":\"F16\",\"shape\":[2,3],\"data_offsets\":[0,12]},"
     "\"layers.0.bias\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[12,20]}}", 20, "only F32"},
    {"{" W "," B "}", 28, "outside the 28 data bytes"},
    {"{\"layers.0.weight\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,20]},"
     "\"layers.0.bias\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[20,28]}}", 28, "its shape needs"},
    /* a slice longer than its shape (28 bytes for 6 floats) */
    {"{\"layers.0.weight\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,28]},"
     "\"layers.0.bias\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[28,36]}}", 36, "its shape needs"},
    {"{\"layers.0.weight\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]},"
     "\"layers.0.bias\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[16,24]}}", 32, "overlap"},
    {"{\"layers.0.weight\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,4294967296],\"data_offsets\":[0,24]}," B "}",
     32, "overflows"},
    {"{\"layers.0.weight\":{\"dtype\":\"F32\",\"shape\":[-2,3],\"data_offsets\":[0,24]}," B "}", 32, "bad shape"},
    {"{\"layers.0.weight\":{\"dtype\":\"F32\",\"shape\":[2,3]}," B "}", 32, "lacks dtype, shape or data_offsets"},
    {"[1,2,3]", 0, "not a JSON object"},
    {"{\"layers.0.weight\": ", 0, "not a JSON object"},
    {"{\"__metadata__\": 5}", 0, "__metadata__ is not an object"},
};

ParameterizedTestParameters(tensor_io, safetensors_rejects_hostile_files)
{
    return cr_make_param_array(struct bad_st, bad_sts, sizeof bad_sts / sizeof bad_sts[0]);
}

ParameterizedTest(struct bad_st *b, tensor_io, safetensors_rejects_hostile_files)
{
    unsigned char buf[1024];
    size_t n = make_st(buf, b->header, (size_t)b->data_len);
    struct eng_st_file *f = malloc(sizeof *f);
    struct eng_model *m = model_3_2();
    int status = eng_st_parse(buf, n, "bad.safetensors", f, err, sizeof err);
    if (status == ENG_OK) status = eng_st_apply(f, "bad.safetensors", m, err, sizeof err);
    cr_expect_eq(status, ENG_ERR_INPUT, "%s accepted", b->header);
    cr_expect(strstr(err, b->expect) != NULL, "'%s' lacks '%s'", err, b->expect);
    free(f);
    eng_model_free(m);
}

Test(tensor_io, safetensors_header_length_beyond_the_file)
{
    unsigned char buf[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, '{', '}'};
    struct eng_st_file *f = malloc(sizeof *f);
    cr_expect_eq(eng_st_parse(buf, sizeof buf, "big.safetensors", f, err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "runs past the end") != NULL, "%s", err);
    cr_expect_eq(eng_st_parse(buf, 5, "tiny.safetensors", f, err, sizeof err), ENG_ERR_INPUT);
    free(f);
}

Test(tensor_io, safetensors_round_trip)
{
    char *dir = ts_tmpdir();
    char *path = ts_path(dir, "w.safetensors");
    struct eng_model *m = model_3_2(), *m2 = model_3_2();
    eng_model_init(m, 3);
    cr_assert_eq(eng_st_save_model(path, m, err, sizeof err), ENG_OK, "%s", err);
    cr_assert_eq(eng_st_load_model(path, m2, err, sizeof err), ENG_OK, "%s", err);
    float a[8], b[8];
    eng_model_get_params(m, a);
    eng_model_get_params(m2, b);
    cr_expect(memcmp(a, b, sizeof a) == 0);
    size_t len;
    char *raw = ts_read(path, &len);
    cr_expect_eq((8 + ((unsigned char)raw[0] | (unsigned char)raw[1] << 8)) % 8, 0, "data section 8-byte aligned");
    free(raw);
    ts_rmtree(dir);
    free(dir);
    free(path);
    eng_model_free(m);
    eng_model_free(m2);
}
