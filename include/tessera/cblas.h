/* The CBLAS routines libtessera_blas.so provides, with reference CBLAS's
 * names, enum values and signatures (LP64: int dimensions). Programs built
 * against another cblas.h link against libtessera_blas.so unchanged; if a
 * cblas.h was included first, its declarations are used instead. */
#ifndef CBLAS_H
#define CBLAS_H
#define TESSERA_CBLAS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 } CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 } CBLAS_UPLO;
typedef CBLAS_LAYOUT CBLAS_ORDER;

void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, int M, int N, int K,
                 float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);
void cblas_dgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, int M, int N, int K,
                 double alpha, const double *A, int lda, const double *B, int ldb, double beta, double *C, int ldc);
void cblas_cgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, int M, int N, int K,
                 const void *alpha, const void *A, int lda, const void *B, int ldb, const void *beta, void *C,
                 int ldc);
void cblas_zgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, int M, int N, int K,
                 const void *alpha, const void *A, int lda, const void *B, int ldb, const void *beta, void *C,
                 int ldc);
void cblas_ssyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, int N, int K, float alpha,
                 const float *A, int lda, float beta, float *C, int ldc);
void cblas_dsyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, int N, int K, double alpha,
                 const double *A, int lda, double beta, double *C, int ldc);
void cblas_csyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, int N, int K, const void *alpha,
                 const void *A, int lda, const void *beta, void *C, int ldc);
void cblas_zsyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, int N, int K, const void *alpha,
                 const void *A, int lda, const void *beta, void *C, int ldc);
void cblas_cherk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, int N, int K, float alpha,
                 const void *A, int lda, float beta, void *C, int ldc);
void cblas_zherk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, int N, int K, double alpha,
                 const void *A, int lda, double beta, void *C, int ldc);
/* Reports a bad argument; Tessera's default prints and returns (never exits).
 * A program's own definition replaces it. */
void cblas_xerbla(int info, const char *rout, const char *form, ...);

/* Tessera's own: how many threads the BLAS-ABI routines (CBLAS and Fortran)
 * use, process-wide, from their next call on any thread (as
 * openblas_set_num_threads does for OpenBLAS); threads <= 0 restores the
 * default: TESSERA_NUM_THREADS, else the first entry of OMP_NUM_THREADS,
 * else all cores the process may use. The getter
 * reports the count calls use now. */
void tessera_blas_set_num_threads(int threads);
int tessera_blas_get_num_threads(void);

#ifdef __cplusplus
}
#endif
#endif
