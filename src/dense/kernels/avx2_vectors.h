// AVX2 + FMA3 vector traits for the micro-kernels and packers (16 ymm
// registers), and the blocks of the tables built on them. Included by the two
// kernel files, one per precision (gemm_f64_avx2.cpp, gemm_f32_avx2.cpp: two
// translation units that compile side by side). Compiled with -mavx2 -mfma;
// only reached when the CPU has both.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "dense/kernels/gemm_kernels.h"

namespace tessera::dense::avx2 {

// Partial-vector stores without vmaskmov: its store form costs ~18 cycles per
// instruction on this Zen 4 (measured alone, in a loop; a plain store ~1),
// and edge and diagonal tiles store one per column (csyrk n = 13, k = 5 had a
// third of its kernel time there). Lanes [lo, hi) of a 128-bit half go out
// as at most one 8-byte and one 4-byte store, or one 16-byte store: the
// bytes written are exactly the masked store's.
inline void store_half_ps(float *p, __m128 h, int lo, int hi) {
  if (lo >= hi) return;
  if (lo == 0 && hi == 4) return _mm_storeu_ps(p, h);
  if (lo & 1) {  // a single odd lane first
    _mm_store_ss(p + lo, lo == 1 ? _mm_shuffle_ps(h, h, 0x55) : _mm_shuffle_ps(h, h, 0xff));
    ++lo;
  }
  if (lo + 2 <= hi) {  // an aligned pair: lanes 0-1 or 2-3
    if (lo == 0) _mm_storel_pi(reinterpret_cast<__m64 *>(p), h);
    else _mm_storeh_pi(reinterpret_cast<__m64 *>(p + 2), h);
    lo += 2;
  }
  if (lo < hi) _mm_store_ss(p + lo, lo == 0 ? h : _mm_movehl_ps(h, h));  // lane 0 or 2
}
inline void store_half_pd(double *p, __m128d h, int lo, int hi) {
  if (lo >= hi) return;
  if (lo == 0 && hi == 2) return _mm_storeu_pd(p, h);
  if (lo == 0) _mm_storel_pd(p, h);
  else _mm_storeh_pd(p + 1, h);
}

struct VF64 {
  using T = double;
  using vec = __m256d;
  static constexpr int W = 4;
  static constexpr bool kSmallK = true;  // k <= 4 interior loops (gemm_template.inc)
  static constexpr bool kPartialMoves = false;  // store_span stores with unmasked 128/64-bit moves already
  static vec zero() { return _mm256_setzero_pd(); }
  static vec loadu(const T *p) { return _mm256_loadu_pd(p); }
  static __m256i mask(int r) { return _mm256_cmpgt_epi64(_mm256_set1_epi64x(r), _mm256_setr_epi64x(0, 1, 2, 3)); }
  static void storeu(T *p, vec v) { _mm256_storeu_pd(p, v); }
  static __m256i span(int lo, int hi) { return _mm256_andnot_si256(mask(lo), mask(hi)); }  // lanes [lo, hi)
  static vec load_span(const T *p, int lo, int hi) { return _mm256_maskload_pd(p, span(lo, hi)); }
  static void store_span(T *p, vec v, int lo, int hi) {
    store_half_pd(p, _mm256_castpd256_pd128(v), std::min(lo, 2), std::min(hi, 2));
    store_half_pd(p + 2, _mm256_extractf128_pd(v, 1), std::max(lo, 2) - 2, std::max(hi, 2) - 2);
  }
  static vec set1(T x) { return _mm256_set1_pd(x); }
  static vec bcast(const T *p) { return _mm256_broadcast_sd(p); }
  static vec fmadd(vec a, vec b, vec c) { return _mm256_fmadd_pd(a, b, c); }
  static T fma1(T a, T b, T c) { return std::fma(a, b, c); }  // one lane of fmadd (the tiny kernel)
  static vec mul(vec a, vec b) { return _mm256_mul_pd(a, b); }
  static vec add(vec a, vec b) { return _mm256_add_pd(a, b); }
  static vec swap_pairs(vec a) { return _mm256_permute_pd(a, 0x5); }
  static vec addsub(vec a, vec b) { return _mm256_addsub_pd(a, b); }
  // r[i] holds 2 complex of row i → r[l] holds element l of rows 0, 1.
  static constexpr bool kDupPairs = false;  // see avx512_vectors.h
  static constexpr bool kTransposeC = true;
  static void transpose_c(vec (&r)[2]) {
    const vec t0 = _mm256_permute2f128_pd(r[0], r[1], 0x20), t1 = _mm256_permute2f128_pd(r[0], r[1], 0x31);
    r[0] = t0;
    r[1] = t1;
  }
  // even = (a0, a2, b0, b2), odd = (a1, a3, b1, b3).
  static void deinterleave(vec a, vec b, vec &even, vec &odd) {
    even = _mm256_permute4x64_pd(_mm256_unpacklo_pd(a, b), 0xD8);
    odd = _mm256_permute4x64_pd(_mm256_unpackhi_pd(a, b), 0xD8);
  }
};

struct VF32 {
  using T = float;
  using vec = __m256;
  static constexpr int W = 8;
  static constexpr bool kSmallK = true;  // k <= 4 interior loops (gemm_template.inc)
  static constexpr bool kPartialMoves = false;  // store_span stores with unmasked 128/64-bit moves already
  static vec zero() { return _mm256_setzero_ps(); }
  static vec loadu(const T *p) { return _mm256_loadu_ps(p); }
  static __m256i mask(int r) { return _mm256_cmpgt_epi32(_mm256_set1_epi32(r), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); }
  static void storeu(T *p, vec v) { _mm256_storeu_ps(p, v); }
  static __m256i span(int lo, int hi) { return _mm256_andnot_si256(mask(lo), mask(hi)); }  // lanes [lo, hi)
  static vec load_span(const T *p, int lo, int hi) { return _mm256_maskload_ps(p, span(lo, hi)); }
  static void store_span(T *p, vec v, int lo, int hi) {
    store_half_ps(p, _mm256_castps256_ps128(v), std::min(lo, 4), std::min(hi, 4));
    store_half_ps(p + 4, _mm256_extractf128_ps(v, 1), std::max(lo, 4) - 4, std::max(hi, 4) - 4);
  }
  static vec set1(T x) { return _mm256_set1_ps(x); }
  static vec bcast(const T *p) { return _mm256_broadcast_ss(p); }
  static vec fmadd(vec a, vec b, vec c) { return _mm256_fmadd_ps(a, b, c); }
  static T fma1(T a, T b, T c) { return std::fma(a, b, c); }
  static vec mul(vec a, vec b) { return _mm256_mul_ps(a, b); }
  static vec add(vec a, vec b) { return _mm256_add_ps(a, b); }
  static vec swap_pairs(vec a) { return _mm256_permute_ps(a, 0xB1); }
  static vec addsub(vec a, vec b) { return _mm256_addsub_ps(a, b); }
  // r[i] holds 4 complex (64-bit units) of row i → r[l] holds element l of
  // rows 0..3.
  static constexpr bool kDupPairs = false;  // see avx512_vectors.h
  static constexpr bool kTransposeC = true;
  static void transpose_c(vec (&r)[4]) {
    const __m256d a0 = _mm256_castps_pd(r[0]), a1 = _mm256_castps_pd(r[1]), a2 = _mm256_castps_pd(r[2]),
                  a3 = _mm256_castps_pd(r[3]);
    const __m256d t0 = _mm256_unpacklo_pd(a0, a1), t1 = _mm256_unpackhi_pd(a0, a1);
    const __m256d t2 = _mm256_unpacklo_pd(a2, a3), t3 = _mm256_unpackhi_pd(a2, a3);
    r[0] = _mm256_castpd_ps(_mm256_permute2f128_pd(t0, t2, 0x20));
    r[1] = _mm256_castpd_ps(_mm256_permute2f128_pd(t1, t3, 0x20));
    r[2] = _mm256_castpd_ps(_mm256_permute2f128_pd(t0, t2, 0x31));
    r[3] = _mm256_castpd_ps(_mm256_permute2f128_pd(t1, t3, 0x31));
  }
  // even = (a0, a2, a4, a6, b0, b2, b4, b6), odd = the odd lanes likewise.
  static void deinterleave(vec a, vec b, vec &even, vec &odd) {
    const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);  // (a0 a2 b0 b2 | a4 a6 b4 b6) → halves joined
    even = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(a, b, 0x88), order);
    odd = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(a, b, 0xDD), order);
  }
};

// Tiles: 2 vectors × 6 columns = 12 accumulators + 2 A vectors + 1 broadcast
// fill the 16 ymm registers (rm + rn + rm*rn <= 16 in the seed's terms), and
// 12 independent FMA chains cover 2 FMA pipes × 4-cycle latency on Zen 4.
// Blocking (Zen 4: 32 KiB L1d, 1 MiB L2 per core, 32 MiB shared L3):
//   KC: the kc × NR B micro-panel stays in L1 (f64: 256·6·8 = 12 KiB; f32: 384·6·4 = 9 KiB);
//   MC: the MC × KC A block fills about half of L2 (f64: 240·256·8 = 480 KiB; f32: 336·384·4 = 504 KiB);
//   NC: the KC × NC B panel stays in L3 (f64: 256·2040·8 = 4 MiB; f32: 384·2040·4 = 3 MiB).
// Complex f64 runs KC = 192 complex k-steps, as the AVX-512 tables do: SYRK
// on a half-rate 512-bit core takes these tiles for small n
// (syrk_driver.cpp), and one KC gives the same bits either way.
constexpr int64_t kF64Kc = 256, kF64Mc = 240, kF64Nc = 2040, kF64KcComplex = 192;
constexpr int64_t kF32Kc = 384, kF32Mc = 336, kF32Nc = 2040;

}  // namespace tessera::dense::avx2
