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
  return cols <= 1 || ld <= std::numeric_limits<int64_t>::max() / 2 / cols;
}

}  // namespace tessera::dense
