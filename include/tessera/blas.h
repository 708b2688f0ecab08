/* Tessera dense BLAS: handle, enums and level-3 routines (column-major). */
#ifndef TESSERA_BLAS_H
#define TESSERA_BLAS_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tblasContext *tblasHandle_t;
typedef enum TESSERA_ENUM_INT { TBLAS_OP_N = 0, TBLAS_OP_T = 1, TBLAS_OP_C = 2 } tblasOperation_t;
typedef enum TESSERA_ENUM_INT { TBLAS_FILL_MODE_LOWER = 0, TBLAS_FILL_MODE_UPPER = 1 } tblasFillMode_t;

TESSERA_API tesseraStatus_t tblasCreate(tblasHandle_t *handle);
TESSERA_API tesseraStatus_t tblasDestroy(tblasHandle_t handle);
/* threads >= 1. Default: cores available to the process, or TESSERA_NUM_THREADS. */
TESSERA_API tesseraStatus_t tblasSetNumThreads(tblasHandle_t handle, int threads);
TESSERA_API tesseraStatus_t tblasGetNumThreads(tblasHandle_t handle, int *threads);

/* Extensions: instruction-set path. SetArch forces a path for this handle
 * (NOT_SUPPORTED if the CPU cannot run it; TESSERA_ARCH_AUTO restores the
 * default). GetLastArch reports the path the handle's last routine ran on
 * (the selected path before any routine ran). */
TESSERA_API tesseraStatus_t tblasSetArch(tblasHandle_t handle, tesseraArch_t arch);
TESSERA_API tesseraStatus_t tblasGetArch(tblasHandle_t handle, tesseraArch_t *arch);
TESSERA_API tesseraStatus_t tblasGetLastArch(tblasHandle_t handle, tesseraArch_t *arch);
/* Extension: the number of threads the handle's last routine actually used
 * (fewer than requested for small problems or inside a parallel region). */
TESSERA_API tesseraStatus_t tblasGetLastThreads(tblasHandle_t handle, int *threads);

/* C = alpha*op(A)*op(B) + beta*C */
TESSERA_API tesseraStatus_t tblasSgemm(tblasHandle_t h, tblasOperation_t transa, tblasOperation_t transb,
    int64_t m, int64_t n, int64_t k, const float *alpha, const float *A, int64_t lda,
    const float *B, int64_t ldb, const float *beta, float *C, int64_t ldc);
TESSERA_API tesseraStatus_t tblasDgemm(tblasHandle_t h, tblasOperation_t transa, tblasOperation_t transb,
    int64_t m, int64_t n, int64_t k, const double *alpha, const double *A, int64_t lda,
    const double *B, int64_t ldb, const double *beta, double *C, int64_t ldc);
TESSERA_API tesseraStatus_t tblasCgemm(tblasHandle_t h, tblasOperation_t transa, tblasOperation_t transb,
    int64_t m, int64_t n, int64_t k, const tesseraComplex *alpha, const tesseraComplex *A, int64_t lda,
    const tesseraComplex *B, int64_t ldb, const tesseraComplex *beta, tesseraComplex *C, int64_t ldc);
TESSERA_API tesseraStatus_t tblasZgemm(tblasHandle_t h, tblasOperation_t transa, tblasOperation_t transb,
    int64_t m, int64_t n, int64_t k, const tesseraDoubleComplex *alpha, const tesseraDoubleComplex *A,
    int64_t lda, const tesseraDoubleComplex *B, int64_t ldb, const tesseraDoubleComplex *beta,
    tesseraDoubleComplex *C, int64_t ldc);

/* Symmetric rank-k update on the `uplo` triangle of the n×n C (the other
 * triangle is never read or written):
 *   C = alpha*op(A)*op(A)^T + beta*C,  op(A) = A (n×k) for TBLAS_OP_N,
 *   A^T (A is k×n) for TBLAS_OP_T; TBLAS_OP_C is accepted as T without
 *   conjugation (symmetric, not Hermitian: the diagonal's imaginary part is
 *   computed). */
TESSERA_API tesseraStatus_t tblasSsyrk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n,
    int64_t k, const float *alpha, const float *A, int64_t lda, const float *beta, float *C, int64_t ldc);
TESSERA_API tesseraStatus_t tblasDsyrk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n,
    int64_t k, const double *alpha, const double *A, int64_t lda, const double *beta, double *C, int64_t ldc);
TESSERA_API tesseraStatus_t tblasCsyrk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n,
    int64_t k, const tesseraComplex *alpha, const tesseraComplex *A, int64_t lda, const tesseraComplex *beta,
    tesseraComplex *C, int64_t ldc);
TESSERA_API tesseraStatus_t tblasZsyrk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n,
    int64_t k, const tesseraDoubleComplex *alpha, const tesseraDoubleComplex *A, int64_t lda,
    const tesseraDoubleComplex *beta, tesseraDoubleComplex *C, int64_t ldc);

/* Hermitian rank-k update, real alpha and beta:
 *   C = alpha*op(A)*op(A)^H + beta*C,  trans TBLAS_OP_N (A n×k) or TBLAS_OP_C
 *   (A k×n); the diagonal's imaginary part is set to exactly zero. */
TESSERA_API tesseraStatus_t tblasCherk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n,
    int64_t k, const float *alpha, const tesseraComplex *A, int64_t lda, const float *beta, tesseraComplex *C,
    int64_t ldc);
TESSERA_API tesseraStatus_t tblasZherk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n,
    int64_t k, const double *alpha, const tesseraDoubleComplex *A, int64_t lda, const double *beta,
    tesseraDoubleComplex *C, int64_t ldc);

#ifdef __cplusplus
}
#endif
#endif
