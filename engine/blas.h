/* blas: OpenBLAS, opened on first use rather than linked. A program that links OpenBLAS starts
 * its thread pool before main, which is half of a `recommend --json` on two cores; commands that
 * never multiply a matrix (recommend, kb, the wizard) now start without it, and a machine without
 * OpenBLAS still runs them. FWADVISOR_OPENBLAS_LIB names another copy (checked as every library
 * the program loads from a path is: engine/libpath.h). Row-major single precision only, what the
 * engine uses. */
#ifndef FWADVISOR_ENGINE_BLAS_H
#define FWADVISOR_ENGINE_BLAS_H

#include <stddef.h>

/* 0 once OpenBLAS is open (the first call opens it, later calls return what it found), else -1
 * with one line in err naming the library and why. Safe from several threads. */
int eng_blas_open(char *err, size_t errsz);

/* C = alpha op(A) op(B) + beta C, row-major (cblas_sgemm). Only after eng_blas_open succeeded. */
void eng_blas_sgemm(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                    int ldb, float beta, float *c, int ldc);

/* OpenBLAS's thread count, opening it if need be; where it cannot be opened, set does nothing and
 * the count is 1. */
void eng_blas_set_threads(int threads);
int eng_blas_threads(void);

#endif
