// Public GEMM entry points: handle check → argument validation → gemm_execute.
// Nothing is computed here and nothing is written before validation passes.
#include <cstdint>

#include "core/handle.h"
#include "dense/gemm_driver.h"
#include "dense/validate.h"
#include "tessera/blas.h"

namespace tessera::dense {
namespace {

template <typename T, bool Complex>
tesseraStatus_t gemm_entry(tblasHandle_t h, tblasOperation_t transa, tblasOperation_t transb, int64_t m,
                           int64_t n, int64_t k, const T *alpha, const T *A, int64_t lda, const T *B,
                           int64_t ldb, const T *beta, T *C, int64_t ldc) {
  if (!handle_is_live(h)) return TESSERA_STATUS_NOT_INITIALIZED;
  // Netlib's order: transa, transb, m, n, k, lda, ldb, ldc; then the pointers
  // the computation needs.
  if (!valid_op(transa) || !valid_op(transb)) return TESSERA_STATUS_INVALID_VALUE;
  if (m < 0 || n < 0 || k < 0) return TESSERA_STATUS_INVALID_VALUE;
  const bool ta = transa != TBLAS_OP_N, tb = transb != TBLAS_OP_N;
  if (!valid_ld(lda, ta ? k : m, ta ? m : k)) return TESSERA_STATUS_INVALID_VALUE;
  if (!valid_ld(ldb, tb ? n : k, tb ? k : n)) return TESSERA_STATUS_INVALID_VALUE;
  if (!valid_ld(ldc, m, n)) return TESSERA_STATUS_INVALID_VALUE;
  if (!alpha || !beta) return TESSERA_STATUS_INVALID_VALUE;
  if (m > 0 && n > 0) {
    if (!C) return TESSERA_STATUS_INVALID_VALUE;
    if (k > 0 && !is_zero<T, Complex>(alpha) && (!A || !B)) return TESSERA_STATUS_INVALID_VALUE;
  }
  GemmOperand<T> a{A, ta ? lda : 1, ta ? 1 : lda, Complex && transa == TBLAS_OP_C};
  GemmOperand<T> b{B, tb ? ldb : 1, tb ? 1 : ldb, Complex && transb == TBLAS_OP_C};
  h->calls_frequent = -1;  // not asked yet in this call
  return gemm_execute<T, Complex>(h, m, n, k, alpha, a, b, beta, C, ldc);
}

}  // namespace
}  // namespace tessera::dense

using tessera::dense::gemm_entry;

extern "C" {

tesseraStatus_t tblasSgemm(tblasHandle_t h, tblasOperation_t transa, tblasOperation_t transb, int64_t m,
                           int64_t n, int64_t k, const float *alpha, const float *A, int64_t lda, const float *B,
                           int64_t ldb, const float *beta, float *C, int64_t ldc) {
  return gemm_entry<float, false>(h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

tesseraStatus_t tblasDgemm(tblasHandle_t h, tblasOperation_t transa, tblasOperation_t transb, int64_t m,
                           int64_t n, int64_t k, const double *alpha, const double *A, int64_t lda,
                           const double *B, int64_t ldb, const double *beta, double *C, int64_t ldc) {
  return gemm_entry<double, false>(h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

tesseraStatus_t tblasCgemm(tblasHandle_t h, tblasOperation_t transa, tblasOperation_t transb, int64_t m,
                           int64_t n, int64_t k, const tesseraComplex *alpha, const tesseraComplex *A,
                           int64_t lda, const tesseraComplex *B, int64_t ldb, const tesseraComplex *beta,
                           tesseraComplex *C, int64_t ldc) {
  return gemm_entry<float, true>(h, transa, transb, m, n, k, reinterpret_cast<const float *>(alpha),
                                 reinterpret_cast<const float *>(A), lda, reinterpret_cast<const float *>(B), ldb,
                                 reinterpret_cast<const float *>(beta), reinterpret_cast<float *>(C), ldc);
}

tesseraStatus_t tblasZgemm(tblasHandle_t h, tblasOperation_t transa, tblasOperation_t transb, int64_t m,
                           int64_t n, int64_t k, const tesseraDoubleComplex *alpha, const tesseraDoubleComplex *A,
                           int64_t lda, const tesseraDoubleComplex *B, int64_t ldb,
                           const tesseraDoubleComplex *beta, tesseraDoubleComplex *C, int64_t ldc) {
  return gemm_entry<double, true>(h, transa, transb, m, n, k, reinterpret_cast<const double *>(alpha),
                                  reinterpret_cast<const double *>(A), lda, reinterpret_cast<const double *>(B),
                                  ldb, reinterpret_cast<const double *>(beta), reinterpret_cast<double *>(C), ldc);
}

}  // extern "C"
