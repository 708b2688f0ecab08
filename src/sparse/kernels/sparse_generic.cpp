// Portable sparse kernels: plain C++ for baseline x86-64, no FMA (so the
// generic path runs anywhere).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "sparse/kernels/sparse_kernels.h"

namespace tessera::sparse::generic {

constexpr bool kHasFma = false;
#include "sparse/kernels/sparse_template.inc"

TESSERA_SPARSE_TABLE("generic");

}  // namespace tessera::sparse::generic
