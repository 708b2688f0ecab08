// AVX-512 double-precision tables (dgemm, zgemm, the f64 SYRK/HERK tiles):
// gemm_template.inc instantiated for VF64 (avx512_vectors.h). The f32 tables
// are gemm_f32_avx512.cpp, compiled beside this file.
#include "dense/kernels/avx512_vectors.h"

namespace tessera::dense::avx512 {

#include "dense/kernels/gemm_template.inc"

// Tiles and blocks: avx512_vectors.h.
const GemmKernels<double> kF64 =
    make_gemm_kernels<VF64, 2, 12, true>("f64_gemm_16x12__avx512", kF64Kc, kF64Mc, kF64Nc, kF64KcComplex);
// Narrow tiles (complex 4×4): 1 vector × 8 columns, for small-n complex SYRK,
// where the 16×6 complex tile is mostly outside the triangle (see
// syrk_driver.cpp).
const GemmKernels<double> kF64Narrow =
    make_gemm_kernels<VF64, 1, 8, true>("f64_gemm_8x8__avx512", kF64Kc, kF64Mc, kF64Nc, kF64KcComplex);
// One column, 8 row vectors: 8 FMA chains (the 4-cycle latency × 2 pipes),
// 8 A loads per broadcast of B — two zmm loads per cycle at full FMA rate.
const GemmKernels<double> kF64Column = make_column_kernels<VF64, 8>("f64_gemm_64x1__avx512", kF64Kc, kF64Mc, kF64Nc);
// Two columns: 16 accumulators + 8 A vectors + a broadcast.
const GemmKernels<double> kF64Column2 =
    make_column_kernels<VF64, 8, 2>("f64_gemm_64x2__avx512", kF64Kc, kF64Mc, kF64Nc);

}  // namespace tessera::dense::avx512
