// Public SYRK/HERK entry points: handle check → argument validation →
// syrk_execute. Nothing is computed here and nothing is written before
// validation passes.
#include <cstdint>

#include "core/handle.h"
#include "dense/syrk_driver.h"
#include "dense/validate.h"
#include "tessera/blas.h"

namespace tessera::dense {
namespace {

template <typename T, bool Complex>
tesseraStatus_t syrk_entry(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n, int64_t k,
                           const T *alpha, const T *A, int64_t lda, const T *beta, T *C, int64_t ldc, bool herk) {
  if (!handle_is_live(h)) return TESSERA_STATUS_NOT_INITIALIZED;
  // Netlib's order: uplo, trans, n, k, lda, ldc; then the pointers the
  // computation needs. HERK takes N or C; SYRK takes N, T and C (= T).
  if (uplo != TBLAS_FILL_MODE_LOWER && uplo != TBLAS_FILL_MODE_UPPER) return TESSERA_STATUS_INVALID_VALUE;
  if (herk ? trans != TBLAS_OP_N && trans != TBLAS_OP_C : !valid_op(trans)) return TESSERA_STATUS_INVALID_VALUE;
  if (n < 0 || k < 0) return TESSERA_STATUS_INVALID_VALUE;
  const bool t = trans != TBLAS_OP_N;
  if (!valid_ld(lda, t ? k : n, t ? n : k)) return TESSERA_STATUS_INVALID_VALUE;
  if (!valid_ld(ldc, n, n)) return TESSERA_STATUS_INVALID_VALUE;
  if (!alpha || !beta) return TESSERA_STATUS_INVALID_VALUE;
  if (n > 0) {
    if (!C) return TESSERA_STATUS_INVALID_VALUE;
    if (k > 0 && !is_zero<T, Complex>(alpha, herk) && !A) return TESSERA_STATUS_INVALID_VALUE;
  }
  // op(A) as an n×k operand; only HERK's TBLAS_OP_C conjugates.
  GemmOperand<T> opA{A, t ? lda : 1, t ? 1 : lda, herk && trans == TBLAS_OP_C};
  h->calls_frequent = -1;  // not asked yet in this call
  if (herk) {
    // Real alpha and beta, widened to the complex pair the driver takes.
    const T a2[2] = {alpha[0], T(0)}, b2[2] = {beta[0], T(0)};
    return syrk_execute<T, true>(h, uplo == TBLAS_FILL_MODE_LOWER, true, n, k, a2, opA, b2, C, ldc);
  }
  return syrk_execute<T, Complex>(h, uplo == TBLAS_FILL_MODE_LOWER, false, n, k, alpha, opA, beta, C, ldc);
}

}  // namespace
}  // namespace tessera::dense

using tessera::dense::syrk_entry;

extern "C" {

tesseraStatus_t tblasSsyrk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n, int64_t k,
                           const float *alpha, const float *A, int64_t lda, const float *beta, float *C,
                           int64_t ldc) {
  return syrk_entry<float, false>(h, uplo, trans, n, k, alpha, A, lda, beta, C, ldc, false);
}

tesseraStatus_t tblasDsyrk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n, int64_t k,
                           const double *alpha, const double *A, int64_t lda, const double *beta, double *C,
                           int64_t ldc) {
  return syrk_entry<double, false>(h, uplo, trans, n, k, alpha, A, lda, beta, C, ldc, false);
}

tesseraStatus_t tblasCsyrk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n, int64_t k,
                           const tesseraComplex *alpha, const tesseraComplex *A, int64_t lda,
                           const tesseraComplex *beta, tesseraComplex *C, int64_t ldc) {
  return syrk_entry<float, true>(h, uplo, trans, n, k, reinterpret_cast<const float *>(alpha),
                                 reinterpret_cast<const float *>(A), lda, reinterpret_cast<const float *>(beta),
                                 reinterpret_cast<float *>(C), ldc, false);
}

tesseraStatus_t tblasZsyrk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n, int64_t k,
                           const tesseraDoubleComplex *alpha, const tesseraDoubleComplex *A, int64_t lda,
                           const tesseraDoubleComplex *beta, tesseraDoubleComplex *C, int64_t ldc) {
  return syrk_entry<double, true>(h, uplo, trans, n, k, reinterpret_cast<const double *>(alpha),
                                  reinterpret_cast<const double *>(A), lda, reinterpret_cast<const double *>(beta),
                                  reinterpret_cast<double *>(C), ldc, false);
}

tesseraStatus_t tblasCherk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n, int64_t k,
                           const float *alpha, const tesseraComplex *A, int64_t lda, const float *beta,
                           tesseraComplex *C, int64_t ldc) {
  return syrk_entry<float, true>(h, uplo, trans, n, k, alpha, reinterpret_cast<const float *>(A), lda, beta,
                                 reinterpret_cast<float *>(C), ldc, true);
}

tesseraStatus_t tblasZherk(tblasHandle_t h, tblasFillMode_t uplo, tblasOperation_t trans, int64_t n, int64_t k,
                           const double *alpha, const tesseraDoubleComplex *A, int64_t lda, const double *beta,
                           tesseraDoubleComplex *C, int64_t ldc) {
  return syrk_entry<double, true>(h, uplo, trans, n, k, alpha, reinterpret_cast<const double *>(A), lda, beta,
                                  reinterpret_cast<double *>(C), ldc, true);
}

}  // extern "C"
