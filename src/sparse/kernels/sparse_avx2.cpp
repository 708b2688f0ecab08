// Sparse kernels for AVX2 + FMA3 (+F16C), compiled with those flags and
// reached only when the CPU has them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "sparse/kernels/sparse_kernels.h"

namespace tessera::sparse::avx2 {

constexpr bool kHasFma = true;
#include "sparse/kernels/sparse_template.inc"

TESSERA_SPARSE_TABLE("avx2");

}  // namespace tessera::sparse::avx2
