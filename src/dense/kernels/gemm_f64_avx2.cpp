// AVX2 double-precision tables (dgemm, zgemm, the f64 SYRK/HERK tiles): gemm_template.inc
// instantiated for VF64 (avx2_vectors.h). The f32 tables are
// gemm_f32_avx2.cpp, compiled beside this file.
#include "dense/kernels/avx2_vectors.h"

namespace tessera::dense::avx2 {

#include "dense/kernels/gemm_template.inc"

// Tiles and blocks: avx2_vectors.h.
const GemmKernels<double> kF64 =
    make_gemm_kernels<VF64, 2, 6, true>("f64_gemm_8x6__avx2", kF64Kc, kF64Mc, kF64Nc, kF64KcComplex);
// Narrow tiles (complex 2×4): 1 vector × 8 columns = 8 accumulators; same
// blocks as the main table.
const GemmKernels<double> kF64Narrow =
    make_gemm_kernels<VF64, 1, 8>("f64_gemm_4x8__avx2", kF64Kc, kF64Mc, kF64Nc, kF64KcComplex);
// One column, 8 row vectors (8 FMA chains; 8 accumulators + a broadcast of 16 ymm).
const GemmKernels<double> kF64Column = make_column_kernels<VF64, 8>("f64_gemm_32x1__avx2", kF64Kc, kF64Mc, kF64Nc);
// Two columns: 4 row vectors (8 accumulators + 4 A + a broadcast of 16 ymm).
const GemmKernels<double> kF64Column2 = make_column_kernels<VF64, 4, 2>("f64_gemm_16x2__avx2", kF64Kc, kF64Mc, kF64Nc);

}  // namespace tessera::dense::avx2
