// Fortran BLAS symbols (gfortran convention: every argument by reference,
// hidden CHARACTER lengths appended as size_t), reporting bad arguments
// through xerbla_ with Netlib's routine names and argument numbers.
#include <cstddef>

#include "abi/blas_calls.h"
#include "abi/blas_abi.h"

using tessera::abi::gemm_call;
using tessera::abi::syrk_call;

namespace {

void report(const char *name, int info) {
  if (info) xerbla_(name, &info, 6);
}

}  // namespace

#define TESSERA_F77_GEMM(fname, NAME, T)                                                                     \
  extern "C" TESSERA_ABI void fname(const char *ta, const char *tb, const int *m, const int *n, const int *k, \
                                    const T *alpha, const T *A, const int *lda, const T *B, const int *ldb,  \
                                    const T *beta, T *C, const int *ldc, size_t, size_t) {                   \
    report(NAME, gemm_call(*ta, *tb, *m, *n, *k, alpha, A, *lda, B, *ldb, beta, C, *ldc));                   \
  }

TESSERA_F77_GEMM(sgemm_, "SGEMM ", float)
TESSERA_F77_GEMM(dgemm_, "DGEMM ", double)
TESSERA_F77_GEMM(cgemm_, "CGEMM ", tesseraComplex)
TESSERA_F77_GEMM(zgemm_, "ZGEMM ", tesseraDoubleComplex)

#define TESSERA_F77_SYRK(fname, NAME, T, S, SECOND)                                                            \
  extern "C" TESSERA_ABI void fname(const char *uplo, const char *trans, const int *n, const int *k,          \
                                    const S *alpha, const T *A, const int *lda, const S *beta, T *C,          \
                                    const int *ldc, size_t, size_t) {                                         \
    report(NAME, syrk_call(*uplo, *trans, *n, *k, alpha, A, *lda, beta, C, *ldc, SECOND));                    \
  }

// Netlib: real syrk takes N/T/C, complex syrk N/T, herk N/C.
TESSERA_F77_SYRK(ssyrk_, "SSYRK ", float, float, 'A')
TESSERA_F77_SYRK(dsyrk_, "DSYRK ", double, double, 'A')
TESSERA_F77_SYRK(csyrk_, "CSYRK ", tesseraComplex, tesseraComplex, 'T')
TESSERA_F77_SYRK(zsyrk_, "ZSYRK ", tesseraDoubleComplex, tesseraDoubleComplex, 'T')
TESSERA_F77_SYRK(cherk_, "CHERK ", tesseraComplex, float, 'C')
TESSERA_F77_SYRK(zherk_, "ZHERK ", tesseraDoubleComplex, double, 'C')
