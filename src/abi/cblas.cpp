// CBLAS symbols over the Fortran-level calls, exactly as reference CBLAS
// maps them: column-major passes through; row-major computes the transpose
// problem (gemm: swap A/B and M/N; syrk/herk: swap uplo and the transpose).
// Bad arguments go to cblas_xerbla with reference CBLAS's numbers: the
// layout, uplo and transpose enums checked here, the rest as the Fortran
// routine's INFO + 1, with RowMajorStrg set as reference CBLAS sets it.
#include "abi/blas_abi.h"
#include "abi/blas_calls.h"

using tessera::abi::gemm_call;
using tessera::abi::syrk_call;

namespace {

enum { kRowMajor = 101, kColMajor = 102 };
enum { kNoTrans = 111, kTrans = 112, kConjTrans = 113 };
enum { kUpper = 121, kLower = 122 };

// Reference CBLAS sets its globals on entry to every call and clears them
// on exit; only an error handler reads them, so here they are set around
// the handler's call alone and a call that succeeds writes no memory shared
// between threads. (Set on every call, they kept one cache line moving
// between the cores of two threads calling CBLAS on their own data.)
// RowMajorStrg: 1 when a row-major call's arguments were swapped (the
// layout itself is reported with it 0, as reference CBLAS does).
template <class... Args>
void report(bool row, int info, const char *name, const char *form, Args... args) {
  RowMajorStrg = row;
  CBLAS_CallFromC = 1;
  cblas_xerbla(info, name, form, args...);
  CBLAS_CallFromC = 0;
  RowMajorStrg = 0;
}

char trans_char(int t) { return t == kNoTrans ? 'N' : t == kTrans ? 'T' : t == kConjTrans ? 'C' : 0; }

template <class T>
void cblas_gemm(const char *name, int layout, int transa, int transb, int m, int n, int k, const T *alpha,
                const T *A, int lda, const T *B, int ldb, const T *beta, T *C, int ldc) {
  if (layout != kColMajor && layout != kRowMajor) return report(false, 1, name, "Illegal layout setting, %d\n", layout);
  const bool row = layout == kRowMajor;
  const char ta = trans_char(transa), tb = trans_char(transb);
  if (!ta) return report(row, 2, name, "Illegal TransA setting, %d\n", transa);
  if (!tb) return report(row, 3, name, "Illegal TransB setting, %d\n", transb);
  const int info = row ? gemm_call(tb, ta, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc)
                       : gemm_call(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  if (info) report(row, info + 1, name, "");
}

// Row-major syrk/herk: C^T in column-major, so the triangle flips and A's
// transpose flips (herk: N <-> C; syrk: N <-> T, real syrk also reads C as T).
template <class T, class S>
void cblas_syrk(const char *name, int layout, int uplo, int trans, int n, int k, const S *alpha, const T *A, int lda,
                const S *beta, T *C, int ldc, char second) {
  if (layout != kColMajor && layout != kRowMajor) return report(false, 1, name, "Illegal layout setting, %d\n", layout);
  const bool row = layout == kRowMajor;
  if (uplo != kUpper && uplo != kLower) return report(row, row ? 3 : 2, name, "Illegal Uplo setting, %d\n", uplo);
  char ul = (uplo == kUpper) != row ? 'U' : 'L';
  char tr = trans_char(trans);
  if (row && tr) {
    const char other = second == 'C' ? 'C' : 'T';
    tr = tr == 'N' ? other : (second == 'T' && tr == 'C') ? 'C' : 'N';
  }
  if (!tr) return report(row, 3, name, "Illegal Trans setting, %d\n", trans);
  const int info = syrk_call(ul, tr, n, k, alpha, A, lda, beta, C, ldc, second);
  if (info) report(row, info + 1, name, "");
}

}  // namespace

extern "C" {

TESSERA_ABI void cblas_sgemm(int layout, int ta, int tb, int m, int n, int k, float alpha, const float *A, int lda,
                             const float *B, int ldb, float beta, float *C, int ldc) {
  cblas_gemm("cblas_sgemm", layout, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
}
TESSERA_ABI void cblas_dgemm(int layout, int ta, int tb, int m, int n, int k, double alpha, const double *A, int lda,
                             const double *B, int ldb, double beta, double *C, int ldc) {
  cblas_gemm("cblas_dgemm", layout, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
}
TESSERA_ABI void cblas_cgemm(int layout, int ta, int tb, int m, int n, int k, const void *alpha, const void *A,
                             int lda, const void *B, int ldb, const void *beta, void *C, int ldc) {
  using T = tesseraComplex;
  cblas_gemm("cblas_cgemm", layout, ta, tb, m, n, k, static_cast<const T *>(alpha), static_cast<const T *>(A), lda,
             static_cast<const T *>(B), ldb, static_cast<const T *>(beta), static_cast<T *>(C), ldc);
}
TESSERA_ABI void cblas_zgemm(int layout, int ta, int tb, int m, int n, int k, const void *alpha, const void *A,
                             int lda, const void *B, int ldb, const void *beta, void *C, int ldc) {
  using T = tesseraDoubleComplex;
  cblas_gemm("cblas_zgemm", layout, ta, tb, m, n, k, static_cast<const T *>(alpha), static_cast<const T *>(A), lda,
             static_cast<const T *>(B), ldb, static_cast<const T *>(beta), static_cast<T *>(C), ldc);
}

TESSERA_ABI void cblas_ssyrk(int layout, int uplo, int trans, int n, int k, float alpha, const float *A, int lda,
                             float beta, float *C, int ldc) {
  cblas_syrk("cblas_ssyrk", layout, uplo, trans, n, k, &alpha, A, lda, &beta, C, ldc, 'A');
}
TESSERA_ABI void cblas_dsyrk(int layout, int uplo, int trans, int n, int k, double alpha, const double *A, int lda,
                             double beta, double *C, int ldc) {
  cblas_syrk("cblas_dsyrk", layout, uplo, trans, n, k, &alpha, A, lda, &beta, C, ldc, 'A');
}
TESSERA_ABI void cblas_csyrk(int layout, int uplo, int trans, int n, int k, const void *alpha, const void *A, int lda,
                             const void *beta, void *C, int ldc) {
  using T = tesseraComplex;
  cblas_syrk("cblas_csyrk", layout, uplo, trans, n, k, static_cast<const T *>(alpha), static_cast<const T *>(A), lda,
             static_cast<const T *>(beta), static_cast<T *>(C), ldc, 'T');
}
TESSERA_ABI void cblas_zsyrk(int layout, int uplo, int trans, int n, int k, const void *alpha, const void *A, int lda,
                             const void *beta, void *C, int ldc) {
  using T = tesseraDoubleComplex;
  cblas_syrk("cblas_zsyrk", layout, uplo, trans, n, k, static_cast<const T *>(alpha), static_cast<const T *>(A), lda,
             static_cast<const T *>(beta), static_cast<T *>(C), ldc, 'T');
}
TESSERA_ABI void cblas_cherk(int layout, int uplo, int trans, int n, int k, float alpha, const void *A, int lda,
                             float beta, void *C, int ldc) {
  using T = tesseraComplex;
  cblas_syrk("cblas_cherk", layout, uplo, trans, n, k, &alpha, static_cast<const T *>(A), lda, &beta,
             static_cast<T *>(C), ldc, 'C');
}
TESSERA_ABI void cblas_zherk(int layout, int uplo, int trans, int n, int k, double alpha, const void *A, int lda,
                             double beta, void *C, int ldc) {
  using T = tesseraDoubleComplex;
  cblas_syrk("cblas_zherk", layout, uplo, trans, n, k, &alpha, static_cast<const T *>(A), lda, &beta,
             static_cast<T *>(C), ldc, 'C');
}

}  // extern "C"
