// Sparse kernels for AVX2 + FMA3 (+F16C), compiled with those flags and
// reached only when the CPU has them.
#include <immintrin.h>

// GCC 12 flags the gathers' deliberately undefined pass-through operand.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "sparse/kernels/sparse_kernels.h"

namespace tessera::sparse::avx2 {

constexpr bool kHasFma = true;
#include "sparse/kernels/sparse_template.inc"

#include "sparse/kernels/sparse_vec256.inc"

TESSERA_SPARSE_TABLE("avx2");

}  // namespace tessera::sparse::avx2
