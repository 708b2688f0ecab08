// Netlib's argument checks for the routines the BLAS ABI exposes, in
// Netlib's order, returning its INFO (0 = valid): the number of the first
// bad argument in the Fortran argument list. The Fortran symbols report it
// through xerbla_, the CBLAS symbols as INFO + 1 through cblas_xerbla
// (CBLAS adds the layout argument in front), exactly as reference CBLAS.
#pragma once
#include <algorithm>

namespace tessera::abi {

// Fortran's LSAME: case-insensitive comparison of one character.
// ASCII case folding, as Netlib's LSAME: std::toupper is a locale-aware libc
// call through the PLT, 11 % of a 1×1×1 cblas_dgemm (perf).
inline bool lsame(char a, char b) { return (a >= 'a' && a <= 'z' ? char(a - ('a' - 'A')) : a) == b; }

template <class I>
int check_gemm(char ta, char tb, I m, I n, I k, I lda, I ldb, I ldc) {
  const bool nota = lsame(ta, 'N'), notb = lsame(tb, 'N');
  const I nrowa = nota ? m : k, nrowb = notb ? k : n;
  if (!nota && !lsame(ta, 'C') && !lsame(ta, 'T')) return 1;
  if (!notb && !lsame(tb, 'C') && !lsame(tb, 'T')) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  if (lda < std::max<I>(1, nrowa)) return 8;
  if (ldb < std::max<I>(1, nrowb)) return 10;
  if (ldc < std::max<I>(1, m)) return 13;
  return 0;
}

// The syrk family. `second` is the transpose Netlib accepts besides 'N':
// 'A' = both 'T' and 'C' (real syrk), 'T' (complex syrk), 'C' (herk).
template <class I>
int check_syrk(char uplo, char trans, I n, I k, I lda, I ldc, char second) {
  const bool notr = lsame(trans, 'N');
  const I nrowa = notr ? n : k;
  const bool trans_ok = notr || (second == 'A' ? lsame(trans, 'T') || lsame(trans, 'C') : lsame(trans, second));
  if (!lsame(uplo, 'U') && !lsame(uplo, 'L')) return 1;
  if (!trans_ok) return 2;
  if (n < 0) return 3;
  if (k < 0) return 4;
  if (lda < std::max<I>(1, nrowa)) return 7;
  if (ldc < std::max<I>(1, n)) return 10;
  return 0;
}

}  // namespace tessera::abi
