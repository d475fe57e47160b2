/* OpenBLAS through dlopen (blas.h). The CBLAS enums are the reference values every CBLAS uses. */
#include "engine/blas.h"
#include "engine/libpath.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112 };

typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *,
                         int);

static struct {
    pthread_once_t once;
    sgemm_fn sgemm;
    void (*set_threads)(int);
    int (*get_threads)(void);
    char error[512];
} blas = {PTHREAD_ONCE_INIT, NULL, NULL, NULL, ""};

static void open_once(void)
{
    char path[4096], why[512];
    if (eng_env_library("FWADVISOR_OPENBLAS_LIB", "libopenblas.so.0", path, sizeof path, why, sizeof why)) {
        snprintf(blas.error, sizeof blas.error, "%s", why);
        return;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(blas.error, sizeof blas.error, "OpenBLAS not loaded (%.200s): %.200s; install libopenblas0 or set FWADVISOR_OPENBLAS_LIB",
                 path, e ? e : "not found");
        return;
    }
    sgemm_fn sgemm = (sgemm_fn)dlsym(h, "cblas_sgemm");
    void (*set)(int) = (void (*)(int))dlsym(h, "openblas_set_num_threads");
    int (*get)(void) = (int (*)(void))dlsym(h, "openblas_get_num_threads");
    if (!sgemm || !set || !get) {
        snprintf(blas.error, sizeof blas.error, "%.300s has no cblas_sgemm or openblas_set_num_threads: not OpenBLAS", path);
        dlclose(h);
        return;
    }
    blas.set_threads = set;
    blas.get_threads = get;
    blas.sgemm = sgemm; /* last: the mark that the library is open */
}

int eng_blas_open(char *err, size_t errsz)
{
    pthread_once(&blas.once, open_once);
    if (blas.sgemm) return 0;
    if (err && errsz) snprintf(err, errsz, "%s", blas.error);
    return -1;
}

void eng_blas_sgemm(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                    int ldb, float beta, float *c, int ldc)
{
    if (eng_blas_open(NULL, 0)) {
        /* Every path to a product checks eng_blas_open first (the model, the transformer, the
         * probes): reaching here without it is a bug, not an input. */
        fprintf(stderr, "fwadvisor: internal error: a matrix product without OpenBLAS: %s\n", blas.error);
        abort();
    }
    blas.sgemm(ROW_MAJOR, trans_a ? TRANS : NO_TRANS, trans_b ? TRANS : NO_TRANS, m, n, k, alpha, a, lda, b, ldb, beta, c,
               ldc);
}

void eng_blas_set_threads(int threads)
{
    if (!eng_blas_open(NULL, 0)) blas.set_threads(threads > 0 ? threads : 1);
}

int eng_blas_threads(void) { return !eng_blas_open(NULL, 0) ? blas.get_threads() : 1; }
