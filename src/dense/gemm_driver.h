// GEMM planning and execution (validated arguments only; no checks here).
#pragma once
#include <cstdint>

#include "core/handle.h"
#include "tessera/tessera.h"

namespace tessera::dense {

// One operand of C = alpha*op(A)*op(B) + beta*C, described by strides of op(X):
// element (r, c) of op(X) at p[(r*rs + c*cs) * (complex ? 2 : 1)].
template <typename T>
struct GemmOperand {
  const T *p;
  int64_t rs, cs;
  bool conj;
};
// op(X)'s rows contiguous (X stored transposed: op T or C).
template <typename T>
bool rows_contiguous(const GemmOperand<T> &x) {
  return x.cs == 1 && x.rs != 1;
}

// A scalar (complex: both parts; `real_only`: a real scalar passed to a
// complex routine, e.g. HERK's alpha) equal to 0 or to 1, as Netlib's quick
// returns and special cases test them.
template <typename T, bool Complex>
bool is_zero(const T *x, bool real_only = false) {
  return x[0] == T(0) && (!Complex || real_only || x[1] == T(0));
}
template <typename T, bool Complex>
bool is_one(const T *x) {
  return x[0] == T(1) && (!Complex || x[1] == T(0));
}

// T is the real base type; complex operands are interleaved (re, im) pairs and
// alpha/beta point at two values. Returns SUCCESS or ALLOC_FAILED (C untouched).
template <typename T, bool Complex>
tesseraStatus_t gemm_execute(tblasContext *h, int64_t m, int64_t n, int64_t k, const T *alpha,
                             const GemmOperand<T> &A, const GemmOperand<T> &B, const T *beta, T *C, int64_t ldc);

}  // namespace tessera::dense
