// Sparse kernels compiled for AVX-512 (reached only when the CPU has it): the
// template with the same 256-bit vector specialisations as AVX2, compiled
// with AVX-512 flags.
#include <immintrin.h>

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

namespace tessera::sparse::avx512 {

constexpr bool kHasFma = true;
#include "sparse/kernels/sparse_template.inc"
#include "sparse/kernels/sparse_vec256.inc"

TESSERA_SPARSE_TABLE("avx512");

}  // namespace tessera::sparse::avx512
