// The micro-kernel contract shared by every level-3 operation, and the
// per-ISA kernel table (tile shape, cache blocking, kernels, packers).
//
// Contract (BLIS-style). With MR×NR the register tile:
//   C[0:m, 0:n] = alpha * (Ã · B̃) + beta * C[0:m, 0:n]      (m <= MR, n <= NR)
//   Ã: MR × k, element (i, l) at a[l*MR + i]      — packed A micro-panel, rows >= m zero
//   B̃: k × NR, element (l, j) at b[l*NR + j]      — packed B micro-panel, cols >= n zero
//   C: column-major, leading dimension ldc. beta == 0 means C is not read.
// Edge tiles (m < MR or n < NR) run the same vector loop; only the stores are
// masked, so there is no scalar cliff.
//
// The "direct" variant reads unpacked operands (small problems, where packing
// would cost as much as the multiply):
//   Ã(i, l) at a[l*a_ks + i] for i < a_rows (rows >= a_rows are never read),
//   B̃(l, j) at b[l*b_ks + j*b_js] for j < n (columns >= n are never read).
//
// Complex types reach the same real kernels through the 1m method (Van Zee &
// Smith, "Implementing high-performance complex matrix multiplication via the
// 1m method", SIAM J. Sci. Comput. 2020): A packed in "1e" format (each a →
// [ar -ai; ai ar], 2 real rows × 2 real k), B in "1r" format (each b → [br; bi]),
// so C viewed as a real 2m × n matrix (re/im interleaved) is a real GEMM with
// k doubled. The real kernels thus run complex at their own efficiency.
#pragma once
#include <cstdint>

#include "core/cpu.h"

namespace tessera::dense {

template <typename T>
struct GemmKernels {
  const char *name;  // type_op_tile__isa, e.g. "f64_gemm_16x12__avx512"
  int mr, nr;        // register tile (real elements)
  int64_t kc, mc, nc;  // cache blocks in real elements (see the per-ISA tables)

  void (*ukr_packed)(int64_t k, T alpha, const T *a, const T *b, T beta, T *c, int64_t ldc, int64_t m,
                     int64_t n);
  void (*ukr_direct)(int64_t k, T alpha, const T *a, int64_t a_ks, int64_t a_rows, const T *b, int64_t b_ks,
                     int64_t b_js, T beta, T *c, int64_t ldc, int64_t m, int64_t n);

  // Complex direct kernel (interleaved complex, units of complex elements):
  // C[0:m, 0:n] = A·B + beta·C on an (MR/2) × (NR/2) complex tile, A(i, l) at
  // a[2(l*a_ks + i)] for i < a_rows, B(l, j) at b[2(l*b_ks + j*b_js)] — B
  // already scaled by alpha (form_temp) — and a complex beta.
  void (*ukr_cdirect)(int64_t k, const T *a, int64_t a_ks, int64_t a_rows, const T *b, int64_t b_ks, int64_t b_js,
                      const T *beta, T *c, int64_t ldc, int64_t m, int64_t n);

  // Netlib's TEMP for the complex direct path: out[2(l + j*kc)] (re, im) =
  // alpha·op(B)(l, j) for l < kc, j < nc, with Fortran's complex product
  // (b, rs, cs in complex elements; op(B) conjugated when conj).
  void (*form_temp)(int64_t kc, int64_t nc, const T *b, int64_t rs, int64_t cs, bool conj, const T *alpha, T *out);

  // Packs op(A)[0:mc, 0:kc] (element (i,l) at a[i*rs + l*cs]) into ceil(mc/MR)
  // micro-panels of MR × kc, zero-padded.
  void (*pack_a)(int64_t mc, int64_t kc, const T *a, int64_t rs, int64_t cs, T *ap);
  // Packs op(B)[0:kc, 0:nc] (element (l,j) at b[l*rs + j*cs]) into ceil(nc/NR)
  // micro-panels of kc × NR, zero-padded.
  void (*pack_b)(int64_t kc, int64_t nc, const T *b, int64_t rs, int64_t cs, T *bp);
  // 1m packers. a/b point at interleaved complex data; rs/cs in complex
  // elements; mc, kc, nc in complex elements. Panels are MR real rows × 2kc.
  void (*pack_a_1e)(int64_t mc, int64_t kc, const T *a, int64_t rs, int64_t cs, bool conj, T *ap);
  // Multiplies each element by alpha as Netlib forms alpha*B(l,j): the complex
  // product, or with alpha_real (HERK's real alpha) a plain scaling of both parts.
  void (*pack_b_1r)(int64_t kc, int64_t nc, const T *b, int64_t rs, int64_t cs, bool conj,
                    const T *alpha, bool alpha_real, T *bp);
};

// One table per ISA, defined in gemm_<isa>.cpp.
namespace generic { extern const GemmKernels<float> kF32; extern const GemmKernels<double> kF64; }
namespace avx2 { extern const GemmKernels<float> kF32; extern const GemmKernels<double> kF64; }
namespace avx512 { extern const GemmKernels<float> kF32; extern const GemmKernels<double> kF64; }

template <typename T>
const GemmKernels<T> &gemm_kernels(Arch arch);

}  // namespace tessera::dense
