// AVX-512 single-precision tables (sgemm, cgemm, the f32 SYRK/HERK tiles):
// gemm_template.inc instantiated for VF32 (avx512_vectors.h). The f64 tables
// are gemm_f64_avx512.cpp, compiled beside this file.
#include "dense/kernels/avx512_vectors.h"

namespace tessera::dense::avx512 {

#include "dense/kernels/gemm_template.inc"

// Tiles and blocks: avx512_vectors.h.
const GemmKernels<float> kF32 =
    make_gemm_kernels<VF32, 2, 12, true>("f32_gemm_32x12__avx512", kF32Kc, kF32Mc, kF32Nc);
// Narrow tiles (complex 8×4): 1 vector × 8 columns, for small-n complex SYRK,
// where the 16×6 complex tile is mostly outside the triangle (see
// syrk_driver.cpp).
const GemmKernels<float> kF32Narrow = make_gemm_kernels<VF32, 1, 8>("f32_gemm_16x8__avx512", kF32Kc, kF32Mc, kF32Nc);
// The same row vector × 16 columns (complex f32 8×8): 16 FMA chains where the
// 8×4 tile has 8, which run short of the 4-cycle FMA latency × 2 pipes (see
// syrk_driver.cpp for where it is chosen and what it measured).
const GemmKernels<float> kF32NarrowC8 =
    make_gemm_kernels<VF32, 1, 16>("f32_gemm_16x16__avx512", kF32Kc, kF32Mc, kF32Nc);
// One column, 8 row vectors: 8 FMA chains (the 4-cycle latency × 2 pipes),
// 8 A loads per broadcast of B — two zmm loads per cycle at full FMA rate.
const GemmKernels<float> kF32Column = make_column_kernels<VF32, 8>("f32_gemm_128x1__avx512", kF32Kc, kF32Mc, kF32Nc);
// Two columns: 16 accumulators + 8 A vectors + a broadcast.
const GemmKernels<float> kF32Column2 =
    make_column_kernels<VF32, 8, 2>("f32_gemm_128x2__avx512", kF32Kc, kF32Mc, kF32Nc);

}  // namespace tessera::dense::avx512
