// AVX2 single-precision tables (sgemm, cgemm, the f32 SYRK/HERK tiles): gemm_template.inc
// instantiated for VF32 (avx2_vectors.h). The f64 tables are
// gemm_f64_avx2.cpp, compiled beside this file.
#include "dense/kernels/avx2_vectors.h"

namespace tessera::dense::avx2 {

#include "dense/kernels/gemm_template.inc"

// Tiles and blocks: avx2_vectors.h.
const GemmKernels<float> kF32 = make_gemm_kernels<VF32, 2, 6, true>("f32_gemm_16x6__avx2", kF32Kc, kF32Mc, kF32Nc);
// Narrow tiles (complex 4×4): 1 vector × 8 columns = 8 accumulators; same
// blocks as the main table.
const GemmKernels<float> kF32Narrow = make_gemm_kernels<VF32, 1, 8>("f32_gemm_8x8__avx2", kF32Kc, kF32Mc, kF32Nc);
// One column, 8 row vectors (8 FMA chains; 8 accumulators + a broadcast of 16 ymm).
const GemmKernels<float> kF32Column = make_column_kernels<VF32, 8>("f32_gemm_64x1__avx2", kF32Kc, kF32Mc, kF32Nc);
// Two columns: 4 row vectors (8 accumulators + 4 A + a broadcast of 16 ymm).
const GemmKernels<float> kF32Column2 = make_column_kernels<VF32, 4, 2>("f32_gemm_32x2__avx2", kF32Kc, kF32Mc, kF32Nc);

}  // namespace tessera::dense::avx2
