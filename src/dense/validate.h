// Argument checks shared by the dense entry points.
#pragma once
#include <cstdint>
#include <limits>

#include "tessera/blas.h"

namespace tessera::dense {

inline bool valid_op(tblasOperation_t op) { return op == TBLAS_OP_N || op == TBLAS_OP_T || op == TBLAS_OP_C; }

// ld >= max(1, rows), and the last element's offset fits in 64 bits.
inline bool valid_ld(int64_t ld, int64_t rows, int64_t cols) {
  if (ld < 1 || ld < rows) return false;
  int64_t last;  // ld·cols <= max/2, without a division (it showed in tiny calls)
  return cols <= 1 || (!__builtin_mul_overflow(ld, cols, &last) && last <= std::numeric_limits<int64_t>::max() / 2);
}

}  // namespace tessera::dense
