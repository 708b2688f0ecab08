// In-register shuffles shared by the AVX-512 kernel files (each compiled
// with the AVX-512 flags; include only from such files).
#pragma once
#include <immintrin.h>

namespace tessera::dense::avx512 {

// vshuff64x2 / vunpck[lh]p[ds] with every lane kept: the unmasked intrinsics pass
// _mm512_undefined_pd() as the merge source, which GCC 12 reports as
// possibly uninitialised when inlined (a false positive); the same
// instruction results.
template <int Imm>
inline __m512d shuffle_lanes(__m512d a, __m512d b) {
  return _mm512_mask_shuffle_f64x2(a, __mmask8(0xFF), a, b, Imm);
}
inline __m512d unpack_lo(__m512d a, __m512d b) { return _mm512_mask_unpacklo_pd(a, __mmask8(0xFF), a, b); }
inline __m512d unpack_hi(__m512d a, __m512d b) { return _mm512_mask_unpackhi_pd(a, __mmask8(0xFF), a, b); }
inline __m512 unpack_lo(__m512 a, __m512 b) { return _mm512_mask_unpacklo_ps(a, __mmask16(0xFFFF), a, b); }
inline __m512 unpack_hi(__m512 a, __m512 b) { return _mm512_mask_unpackhi_ps(a, __mmask16(0xFFFF), a, b); }

}  // namespace tessera::dense::avx512
