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

// T is the real base type; complex operands are interleaved (re, im) pairs and
// alpha/beta point at two values. Returns SUCCESS or ALLOC_FAILED (C untouched).
template <typename T, bool Complex>
tesseraStatus_t gemm_execute(tblasContext *h, int64_t m, int64_t n, int64_t k, const T *alpha,
                             GemmOperand<T> A, GemmOperand<T> B, const T *beta, T *C, int64_t ldc);

}  // namespace tessera::dense
