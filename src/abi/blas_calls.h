// The Fortran-level operations of the BLAS ABI: check the arguments as
// Netlib does, then call Tessera's native API on this thread's handle. Both
// the Fortran symbols and the CBLAS symbols (after their layout swap) end
// here; the caller reports a nonzero INFO its own way.
#pragma once
#include <type_traits>

#include "abi/netlib_checks.h"
#include "tessera/blas.h"

namespace tessera::abi {

// One handle per calling thread (a handle serves one thread at a time),
// created on first use and destroyed when the thread exits.
tblasHandle_t thread_handle();

inline tblasOperation_t op_of(char c) {
  return lsame(c, 'N') ? TBLAS_OP_N : lsame(c, 'T') ? TBLAS_OP_T : TBLAS_OP_C;
}
inline tblasFillMode_t uplo_of(char c) { return lsame(c, 'U') ? TBLAS_FILL_MODE_UPPER : TBLAS_FILL_MODE_LOWER; }

// Native routine per type, so that one template serves s/d/c/z.
inline tesseraStatus_t native_gemm(tblasHandle_t h, tblasOperation_t a, tblasOperation_t b, int64_t m, int64_t n,
                                   int64_t k, const float *al, const float *A, int64_t lda, const float *B,
                                   int64_t ldb, const float *be, float *C, int64_t ldc) {
  return tblasSgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
inline tesseraStatus_t native_gemm(tblasHandle_t h, tblasOperation_t a, tblasOperation_t b, int64_t m, int64_t n,
                                   int64_t k, const double *al, const double *A, int64_t lda, const double *B,
                                   int64_t ldb, const double *be, double *C, int64_t ldc) {
  return tblasDgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
inline tesseraStatus_t native_gemm(tblasHandle_t h, tblasOperation_t a, tblasOperation_t b, int64_t m, int64_t n,
                                   int64_t k, const tesseraComplex *al, const tesseraComplex *A, int64_t lda,
                                   const tesseraComplex *B, int64_t ldb, const tesseraComplex *be, tesseraComplex *C,
                                   int64_t ldc) {
  return tblasCgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
inline tesseraStatus_t native_gemm(tblasHandle_t h, tblasOperation_t a, tblasOperation_t b, int64_t m, int64_t n,
                                   int64_t k, const tesseraDoubleComplex *al, const tesseraDoubleComplex *A,
                                   int64_t lda, const tesseraDoubleComplex *B, int64_t ldb,
                                   const tesseraDoubleComplex *be, tesseraDoubleComplex *C, int64_t ldc) {
  return tblasZgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
inline tesseraStatus_t native_syrk(tblasHandle_t h, tblasFillMode_t u, tblasOperation_t t, int64_t n, int64_t k,
                                   const float *al, const float *A, int64_t lda, const float *be, float *C,
                                   int64_t ldc) {
  return tblasSsyrk(h, u, t, n, k, al, A, lda, be, C, ldc);
}
inline tesseraStatus_t native_syrk(tblasHandle_t h, tblasFillMode_t u, tblasOperation_t t, int64_t n, int64_t k,
                                   const double *al, const double *A, int64_t lda, const double *be, double *C,
                                   int64_t ldc) {
  return tblasDsyrk(h, u, t, n, k, al, A, lda, be, C, ldc);
}
inline tesseraStatus_t native_syrk(tblasHandle_t h, tblasFillMode_t u, tblasOperation_t t, int64_t n, int64_t k,
                                   const tesseraComplex *al, const tesseraComplex *A, int64_t lda,
                                   const tesseraComplex *be, tesseraComplex *C, int64_t ldc) {
  return tblasCsyrk(h, u, t, n, k, al, A, lda, be, C, ldc);
}
inline tesseraStatus_t native_syrk(tblasHandle_t h, tblasFillMode_t u, tblasOperation_t t, int64_t n, int64_t k,
                                   const tesseraDoubleComplex *al, const tesseraDoubleComplex *A, int64_t lda,
                                   const tesseraDoubleComplex *be, tesseraDoubleComplex *C, int64_t ldc) {
  return tblasZsyrk(h, u, t, n, k, al, A, lda, be, C, ldc);
}
inline tesseraStatus_t native_herk(tblasHandle_t h, tblasFillMode_t u, tblasOperation_t t, int64_t n, int64_t k,
                                   const float *al, const tesseraComplex *A, int64_t lda, const float *be,
                                   tesseraComplex *C, int64_t ldc) {
  return tblasCherk(h, u, t, n, k, al, A, lda, be, C, ldc);
}
inline tesseraStatus_t native_herk(tblasHandle_t h, tblasFillMode_t u, tblasOperation_t t, int64_t n, int64_t k,
                                   const double *al, const tesseraDoubleComplex *A, int64_t lda, const double *be,
                                   tesseraDoubleComplex *C, int64_t ldc) {
  return tblasZherk(h, u, t, n, k, al, A, lda, be, C, ldc);
}

template <class T>
int gemm_call(char ta, char tb, int m, int n, int k, const T *alpha, const T *A, int lda, const T *B, int ldb,
              const T *beta, T *C, int ldc) {
  if (int info = check_gemm(ta, tb, m, n, k, lda, ldb, ldc)) return info;
  native_gemm(thread_handle(), op_of(ta), op_of(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  return 0;
}

// syrk (S = T) and herk (S = the real type): `second` as in check_syrk.
template <class T, class S>
int syrk_call(char uplo, char trans, int n, int k, const S *alpha, const T *A, int lda, const S *beta, T *C,
              int ldc, char second) {
  if (int info = check_syrk(uplo, trans, n, k, lda, ldc, second)) return info;
  if constexpr (std::is_same_v<T, S>)
    native_syrk(thread_handle(), uplo_of(uplo), op_of(trans), n, k, alpha, A, lda, beta, C, ldc);
  else
    native_herk(thread_handle(), uplo_of(uplo), op_of(trans), n, k, alpha, A, lda, beta, C, ldc);
  return 0;
}

}  // namespace tessera::abi
