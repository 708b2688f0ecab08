// Sparse kernels compiled for AVX-512 (reached only when the CPU has it).
// Same template; the compiler's code generation is the only difference, since
// on Zen 4 512-bit gathers are double-pumped and measure no faster.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "sparse/kernels/sparse_kernels.h"

namespace tessera::sparse::avx512 {

constexpr bool kHasFma = true;
#include "sparse/kernels/sparse_template.inc"

TESSERA_SPARSE_TABLE("avx512");

}  // namespace tessera::sparse::avx512
