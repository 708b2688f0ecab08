// AVX-512 (F/DQ/VL/BW) vector traits for the micro-kernels and packers (32 zmm
// registers), and the blocks of the tables built on them. Included by the
// two kernel files, one per precision (gemm_f64_avx512.cpp, gemm_f32_avx512.cpp:
// each instantiates gemm_template.inc for its traits; two translation units
// so the two halves compile side by side — the one file was the longest
// compile of every build, CI's critical path). Compiled with -mavx512f
// -mavx512dq -mavx512vl -mavx512bw; only reached when the CPU and OS support
// them. Edge rows use k-masks for loads and stores.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "dense/kernels/avx512_shuffles.h"
#include "dense/kernels/gemm_kernels.h"

namespace tessera::dense::avx512 {

struct VF64 {
  using T = double;
  using vec = __m512d;
  static constexpr int W = 8;
  static constexpr bool kSmallK = true;  // k <= 4 interior loops (gemm_template.inc)
  static vec zero() { return _mm512_setzero_pd(); }
  static vec loadu(const T *p) { return _mm512_loadu_pd(p); }
  static __mmask8 mask(int r) { return r <= 0 ? __mmask8(0) : __mmask8((1u << r) - 1u); }
  static void storeu(T *p, vec v) { _mm512_storeu_pd(p, v); }
  static __mmask8 span(int lo, int hi) { return __mmask8(mask(hi) & ~mask(lo)); }  // lanes [lo, hi)
  static vec load_span(const T *p, int lo, int hi) { return _mm512_maskz_loadu_pd(span(lo, hi), p); }
  static void store_span(T *p, vec v, int lo, int hi) { _mm512_mask_storeu_pd(p, span(lo, hi), v); }
  // C's partial vectors (see VF32). The maskz forms with every lane kept:
  // the plain extract/insert/cast intrinsics draw the same GCC 12 false
  // positive as above.
  static constexpr bool kPartialMoves = true;
  static vec load_part(const T *p, int lo, int hi) {
    if (lo == 0 && hi == 4) return _mm512_maskz_insertf64x4(__mmask8(0xFF), _mm512_setzero_pd(), _mm256_loadu_pd(p), 0);
    if (lo == 4 && hi == 8)
      return _mm512_maskz_insertf64x4(__mmask8(0xFF), _mm512_setzero_pd(), _mm256_loadu_pd(p + 4), 1);
    if (lo == 0 && hi == 2) return _mm512_maskz_insertf64x2(__mmask8(0xFF), _mm512_setzero_pd(), _mm_loadu_pd(p), 0);
    if (lo == 0 && hi == 1) return _mm512_maskz_insertf64x2(__mmask8(0xFF), _mm512_setzero_pd(), _mm_load_sd(p), 0);
    return load_span(p, lo, hi);
  }
  static void store_part(T *p, vec v, int lo, int hi) {
    if (lo == 0 && hi == 4) return _mm256_storeu_pd(p, _mm512_maskz_extractf64x4_pd(__mmask8(0xF), v, 0));
    if (lo == 4 && hi == 8) return _mm256_storeu_pd(p + 4, _mm512_maskz_extractf64x4_pd(__mmask8(0xF), v, 1));
    if (lo == 0 && hi == 2) return _mm_storeu_pd(p, _mm512_maskz_extractf64x2_pd(__mmask8(0x3), v, 0));
    if (lo == 0 && hi == 1) return _mm_store_sd(p, _mm512_maskz_extractf64x2_pd(__mmask8(0x3), v, 0));
    store_span(p, v, lo, hi);
  }
  static vec set1(T x) { return _mm512_set1_pd(x); }
  static vec bcast(const T *p) { return _mm512_set1_pd(*p); }
  static vec fmadd(vec a, vec b, vec c) { return _mm512_fmadd_pd(a, b, c); }
  static T fma1(T a, T b, T c) { return std::fma(a, b, c); }  // one lane of fmadd (the tiny kernel)
  static vec mul(vec a, vec b) { return _mm512_mul_pd(a, b); }
  static vec add(vec a, vec b) { return _mm512_add_pd(a, b); }
  static vec swap_pairs(vec a) { return _mm512_shuffle_pd(a, a, 0x55); }
  // Complex tiles of one row vector (see ctile): each element's real or
  // imaginary part in both of its lanes, a complex pair of B in every pair
  // of lanes, odd (imaginary) lanes taken from b. Masked forms with every
  // lane kept: the GCC 12 false positive above.
  static constexpr bool kDupPairs = true;
  static vec dup_re(vec a) { return _mm512_mask_movedup_pd(a, __mmask8(0xFF), a); }
  static vec dup_im(vec a) { return _mm512_mask_permute_pd(a, __mmask8(0xFF), a, 0xFF); }
  static vec bcast_pair(const T *p) { return _mm512_maskz_broadcast_f64x2(__mmask8(0xFF), _mm_loadu_pd(p)); }
  static vec blend_im(vec a, vec b) { return _mm512_mask_blend_pd(__mmask8(0xAA), a, b); }
  // AVX-512 has no addsub: a*1 - b in even lanes, a*1 + b in odd (exact).
  static vec addsub(vec a, vec b) { return _mm512_fmaddsub_pd(a, _mm512_set1_pd(1.0), b); }
  // r[i] holds 4 complex (128-bit lanes) of row i → r[l] holds element l of
  // rows 0..3.
  static constexpr bool kTransposeC = true;
  static void transpose_c(vec (&r)[4]) {
    const vec t0 = shuffle_lanes<0x44>(r[0], r[1]), t1 = shuffle_lanes<0xEE>(r[0], r[1]);
    const vec t2 = shuffle_lanes<0x44>(r[2], r[3]), t3 = shuffle_lanes<0xEE>(r[2], r[3]);
    r[0] = shuffle_lanes<0x88>(t0, t2);
    r[1] = shuffle_lanes<0xDD>(t0, t2);
    r[2] = shuffle_lanes<0x88>(t1, t3);
    r[3] = shuffle_lanes<0xDD>(t1, t3);
  }
  // even = (a0, a2, .., a6, b0, b2, .., b6), odd = the odd lanes likewise.
  static void deinterleave(vec a, vec b, vec &even, vec &odd) {
    even = _mm512_permutex2var_pd(a, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), b);
    odd = _mm512_permutex2var_pd(a, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), b);
  }
};

struct VF32 {
  using T = float;
  using vec = __m512;
  static constexpr int W = 16;
  static constexpr bool kSmallK = true;  // k <= 4 interior loops (gemm_template.inc)
  static vec zero() { return _mm512_setzero_ps(); }
  static vec loadu(const T *p) { return _mm512_loadu_ps(p); }
  static __mmask16 mask(int r) { return r <= 0 ? __mmask16(0) : __mmask16((1u << r) - 1u); }
  static void storeu(T *p, vec v) { _mm512_storeu_ps(p, v); }
  static __mmask16 span(int lo, int hi) { return __mmask16(mask(hi) & ~mask(lo)); }  // lanes [lo, hi)
  static vec load_span(const T *p, int lo, int hi) { return _mm512_maskz_loadu_ps(span(lo, hi), p); }
  static void store_span(T *p, vec v, int lo, int hi) { _mm512_mask_storeu_ps(p, span(lo, hi), v); }
  // C's partial vectors — half, quarter and (f32) one complex element: GEMM
  // edge tiles of W/2 or W/4 rows, SYRK's n = 1 (the template decides where)
  // — through unmasked ymm/xmm moves. A masked store does not forward to a
  // later load of the same C, nor an unmasked store to a masked load (Zen
  // 5, measured: store then reload of one vector 13 cycles unmasked, 25-32
  // with either side masked), and repeated small calls on the same C reload
  // what the previous call stored. (Only the tiles' write-back: in a k loop
  // the branches would cost more than the masks, which are set once.)
  static constexpr bool kPartialMoves = true;
  static vec load_part(const T *p, int lo, int hi) {
    if (lo == 0 && hi == 8)
      return _mm512_maskz_insertf32x8(__mmask16(0xFFFF), _mm512_setzero_ps(), _mm256_loadu_ps(p), 0);
    if (lo == 8 && hi == 16)
      return _mm512_maskz_insertf32x8(__mmask16(0xFFFF), _mm512_setzero_ps(), _mm256_loadu_ps(p + 8), 1);
    if (lo == 0 && hi == 4) return _mm512_maskz_insertf32x4(__mmask16(0xFFFF), _mm512_setzero_ps(), _mm_loadu_ps(p), 0);
    if (lo == 0 && hi == 2)  // 64 bits at a float's alignment: the unaligned si64 forms
      return _mm512_maskz_insertf32x4(__mmask16(0xFFFF), _mm512_setzero_ps(), _mm_castsi128_ps(_mm_loadu_si64(p)), 0);
    if (lo == 0 && hi == 1) return _mm512_maskz_insertf32x4(__mmask16(0xFFFF), _mm512_setzero_ps(), _mm_load_ss(p), 0);
    return load_span(p, lo, hi);
  }
  static void store_part(T *p, vec v, int lo, int hi) {
    if (lo == 0 && hi == 8) return _mm256_storeu_ps(p, _mm512_maskz_extractf32x8_ps(__mmask8(0xFF), v, 0));
    if (lo == 8 && hi == 16) return _mm256_storeu_ps(p + 8, _mm512_maskz_extractf32x8_ps(__mmask8(0xFF), v, 1));
    if (lo == 0 && hi == 4) return _mm_storeu_ps(p, _mm512_maskz_extractf32x4_ps(__mmask8(0xF), v, 0));
    if (lo == 0 && hi == 2) return _mm_storeu_si64(p, _mm_castps_si128(_mm512_maskz_extractf32x4_ps(__mmask8(0xF), v, 0)));
    if (lo == 0 && hi == 1) return _mm_store_ss(p, _mm512_maskz_extractf32x4_ps(__mmask8(0xF), v, 0));
    store_span(p, v, lo, hi);
  }
  static vec set1(T x) { return _mm512_set1_ps(x); }
  static vec bcast(const T *p) { return _mm512_set1_ps(*p); }
  static vec fmadd(vec a, vec b, vec c) { return _mm512_fmadd_ps(a, b, c); }
  static T fma1(T a, T b, T c) { return std::fma(a, b, c); }
  static vec mul(vec a, vec b) { return _mm512_mul_ps(a, b); }
  static vec add(vec a, vec b) { return _mm512_add_ps(a, b); }
  static vec swap_pairs(vec a) { return _mm512_shuffle_ps(a, a, 0xB1); }
  static constexpr bool kDupPairs = true;  // as VF64
  static vec dup_re(vec a) { return _mm512_mask_moveldup_ps(a, __mmask16(0xFFFF), a); }
  static vec dup_im(vec a) { return _mm512_mask_movehdup_ps(a, __mmask16(0xFFFF), a); }
  static vec bcast_pair(const T *p) {
    double pair;  // (re, im) as one 64-bit lane: vbroadcastsd
    std::memcpy(&pair, p, sizeof pair);
    return _mm512_castpd_ps(_mm512_set1_pd(pair));
  }
  static vec blend_im(vec a, vec b) { return _mm512_mask_blend_ps(__mmask16(0xAAAA), a, b); }
  static vec addsub(vec a, vec b) { return _mm512_fmaddsub_ps(a, _mm512_set1_ps(1.0f), b); }
  // r[i] holds 8 complex (64-bit units) of row i → r[l] holds element l of
  // rows 0..7: pairs interleaved, then 128-bit lanes gathered in two rounds.
  static constexpr bool kTransposeC = true;
  static void transpose_c(vec (&r)[8]) {
    __m512d t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
      t[i] = unpack_lo(_mm512_castps_pd(r[i]), _mm512_castps_pd(r[i + 1]));
      t[i + 1] = unpack_hi(_mm512_castps_pd(r[i]), _mm512_castps_pd(r[i + 1]));
    }
    for (int h = 0; h < 8; h += 4) {  // rows h..h+3: lanes (0, 4) and (2, 6) of each pair
      u[h] = shuffle_lanes<0x88>(t[h], t[h + 2]);
      u[h + 1] = shuffle_lanes<0x88>(t[h + 1], t[h + 3]);
      u[h + 2] = shuffle_lanes<0xDD>(t[h], t[h + 2]);
      u[h + 3] = shuffle_lanes<0xDD>(t[h + 1], t[h + 3]);
    }
    for (int c = 0; c < 4; ++c) {
      r[c] = _mm512_castpd_ps(shuffle_lanes<0x88>(u[c], u[c + 4]));
      r[c + 4] = _mm512_castpd_ps(shuffle_lanes<0xDD>(u[c], u[c + 4]));
    }
  }
  static void deinterleave(vec a, vec b, vec &even, vec &odd) {  // as VF64
    even = _mm512_permutex2var_ps(a, _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30), b);
    odd = _mm512_permutex2var_ps(a, _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31), b);
  }
};

// Tiles: 2 zmm × 12 columns = 24 accumulators + 2 A vectors + broadcasts
// (folded into the FMA as {1toN} memory operands) within 32 zmm registers.
// Zen 4 executes a zmm FMA as two 256-bit halves (peak = AVX2's; the larger
// tile halves the loads per flop); Zen 5 has full-width 512-bit FMA units
// (measured 113–127 GF/s f64 per core on zmm, half on ymm). Blocking as for
// AVX2, with KC sized so the kc × 12 B micro-panel stays in the 32 KiB L1 of
// Zen 4 (f64: 256·12·8 = 24 KiB; f32: 384·12·4 = 18 KiB) and MC a multiple of
// MR; on Zen 5 (48 KiB L1) KC 256–512 × MC 240–480 measured within noise of
// these (dgemm 2048³, docs/performance.md).
// Complex f64 (zgemm, zsyrk, zherk) takes KC = 192 complex k-steps: Zen 5,
// zgemm 1T, blockings alternating in one process (handles with
// TESSERA_GEMM_KC, median of 9–21 paired rounds, speed ÷ KC 256's): 2048³
// KC 192 1.07–1.08, 128 1.08, 192 × MC 320 1.07–1.09, 384 × MC 160 1.02;
// 1024³ KC 160 / 192 / 128 1.07 / 1.06 / 1.06; 512³ 1.06; 2048³ 2T 1.04.
// (Its A and B micro-panels, 24 + 18 KiB, then fit the 48 KiB L1
// together.) The same bytes did nothing for dgemm (KC 192 / 128 0.97–0.99)
// or cgemm/sgemm (0.95–1.01), which keep 256 / 384.
// NC = 1020 (85 micro-panels; complex 510 columns): the KC × NC B panel
// 2 MiB (f64) / 1.5 MiB (f32) instead of 4 / 3 MiB — in this VM's L3, shared
// with other tenants, the larger panel lost lines between its reuses. Same
// method, speed ÷ NC 2040's: dgemm 2048³ 1T 1.05–1.08, 2T 1.06; sgemm 2048³
// 1.04–1.06, 2T 1.07; 1536³ 1.06–1.07; 4096³ / 3000³ 1.05–1.06; zgemm /
// cgemm 2048³ 1T 1.00 / 1.02, 2T 1.05 / 1.08; ssyrk / dsyrk / csyrk / zherk
// 2048 1T 1.03 / 1.03 / 1.05 / 1.03; n = 1024 (one jc block either way)
// 0.99–1.00. NC 768 read the same as 1020, 1536 0.99.
// One set of blocks per precision for all its tables (below, in the two kernel
// files): KC fixes how each
// element's k sum is split (the tile writes C back after every KC block), so
// tables that share it give the same bits and SYRK's choice of tile never
// changes a result.
constexpr int64_t kF64Kc = 256, kF64Mc = 240, kF64Nc = 1020, kF64KcComplex = 192;
constexpr int64_t kF32Kc = 384, kF32Mc = 320, kF32Nc = 1020;

}  // namespace tessera::dense::avx512
