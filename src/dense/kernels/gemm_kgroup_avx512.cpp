// AVX-512 k-grouped tiles for real GEMMs with at most half a vector of rows
// (f32 m <= 8, f64 m <= 4, or 8 where op(B) = T; the contract is in
// gemm_kernels.h). The main
// tiles put C's rows along the vector, so a product with 8 rows of f32 fills
// 8 of each FMA's 16 lanes (8×200×200 sgemm ran at ~25 % of peak, half of
// what OpenBLAS's 8-row ymm kernel reaches), 4 rows a quarter, 1 row a
// sixteenth. Here a vector holds H rows × G consecutive k-steps (W = H·G
// lanes, G = 2, 4 or 8 — the largest that leaves H >= m): lane i·G + c of
// column j's accumulator sums A(i, l)·B(l, j) over the l with l % G == c.
// Every lane does useful work when m == H; B's G k-steps are adjacent in a
// column of op(B) and come in as one broadcast of G·size bytes; op(A) is
// packed once per call in the same lane order; the G partial sums are added
// pairwise at write-back. Where op(B)'s rows are contiguous instead (op T),
// the column-grouped tiles (CGroup) put G adjacent columns in a vector the
// same way, and with 1–8 rows (f64's 1 and 3–8) the row-vector tiles
// (RowVec) put C's rows along the accumulators, B's rows loaded whole. f64
// with 3–4 rows and f32 with one (k >= 4 groups) take the row-stacked tiles
// (RGroup): each row its own vectors of W k-steps, B's column a plain load.
// Two entries take any number of rows where op(A)'s rows are contiguous (op
// T) and C has few columns, reading op(A) in place: the row-vector tiles
// for op(B) = T (run_rows_t), the row-stacked ones for op(B) = N
// (run_rows_tn). Compiled with the AVX-512 flags; reached only when the CPU
// and OS support them.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "dense/kernels/avx512_shuffles.h"
#include "dense/kernels/gemm_kernels.h"

namespace tessera::dense::avx512 {
namespace {

// (Broadcasts, extracts and casts in their maskz forms with every lane kept:
// the plain intrinsics pass an undefined merge source that GCC 12 reports as
// possibly uninitialised when inlined — a false positive, as in
// avx512_vectors.h; the same instructions result.)

// f(integral_constant<int, q>) for q = 0 .. N-1 (lane-insert immediates and
// permute constants need q at compile time).
template <class F, int... Q>
inline __attribute__((always_inline)) void unroll_impl(F &&f, std::integer_sequence<int, Q...>) {
  (f(std::integral_constant<int, Q>{}), ...);
}
template <int N, class F>
inline __attribute__((always_inline)) void unroll(F &&f) {
  unroll_impl(f, std::make_integer_sequence<int, N>{});
}

// Arithmetic on T's vectors. (Data moves below are bit moves on __m512i.)
struct AF32 {
  using T = float;
  using vec = __m512;
  static constexpr int W = 16;
  static vec zero() { return _mm512_setzero_ps(); }
  static vec set1(T x) { return _mm512_set1_ps(x); }
  static vec add(vec a, vec b) { return _mm512_add_ps(a, b); }
  static vec mul(vec a, vec b) { return _mm512_mul_ps(a, b); }
  static vec fmadd(vec a, vec b, vec c) { return _mm512_fmadd_ps(a, b, c); }
  // a·b + c in the lanes set in `lanes`, c in the others.
  static vec fmadd_lanes(vec a, vec b, vec c, unsigned lanes) {
    return _mm512_mask3_fmadd_ps(a, b, c, __mmask16(lanes));
  }
  static vec cast(__m512i x) { return _mm512_castsi512_ps(x); }
  static __m512i bits(vec x) { return _mm512_castps_si512(x); }
  // Lanes 2p and 2p+1 of a (p < 8), then of b, added: [a-pairs | b-pairs].
  static vec pair_sums(vec a, vec b) {
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    return _mm512_add_ps(_mm512_permutex2var_ps(a, even, b), _mm512_permutex2var_ps(a, odd, b));
  }
  // Lane e of the result: all lanes of f[e] added. In-lane unpacks for the
  // first two levels (lanes 0+2, 1+3 of each 128-bit part, then the two
  // halves), 128-bit shuffles for the last two: the same 30 shuffles and 15
  // adds as four levels of pair_sums, but 24 of them one-cycle in-lane ones
  // instead of two-source permutes.
  static vec fold_lanes(const vec (&f)[W]) {
    vec s[8];
    __m512d u[4];
#pragma GCC unroll 8
    for (int p = 0; p < 8; ++p)
      s[p] = _mm512_add_ps(unpack_lo(f[2 * p], f[2 * p + 1]), unpack_hi(f[2 * p], f[2 * p + 1]));
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) {  // pairs of floats moved as doubles, added as floats
      const __m512d x = _mm512_castps_pd(s[2 * q]), y = _mm512_castps_pd(s[2 * q + 1]);
      u[q] = _mm512_castps_pd(_mm512_add_ps(_mm512_castpd_ps(unpack_lo(x, y)), _mm512_castpd_ps(unpack_hi(x, y))));
    }
    // 128-bit lanes moved as doubles' (the same bits), added as floats.
    const auto half = [](__m512d a, __m512d b) {
      return _mm512_castps_pd(_mm512_add_ps(_mm512_castpd_ps(shuffle_lanes<0x88>(a, b)),
                                            _mm512_castpd_ps(shuffle_lanes<0xDD>(a, b))));
    };
    return _mm512_castpd_ps(half(half(u[0], u[1]), half(u[2], u[3])));
  }
  // Lane c·8 + r of the result: the 8 lanes of half c of f[r] added (two
  // columns' sums per vector, RPair): in-lane unpacks for the first two
  // levels, then 128-bit shuffles; 15 shuffles and 7 adds for 16 sums.
  static vec fold_pairs(const vec (&f)[8]) {
    vec s[4];
#pragma GCC unroll 4
    for (int p = 0; p < 4; ++p)
      s[p] = _mm512_add_ps(unpack_lo(f[2 * p], f[2 * p + 1]), unpack_hi(f[2 * p], f[2 * p + 1]));
    __m512d u[2];  // u[h]: per 128-bit part, rows 4h .. 4h + 3 (pairs moved as doubles, added as floats)
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
      const __m512d x = _mm512_castps_pd(s[2 * h]), y = _mm512_castps_pd(s[2 * h + 1]);
      u[h] = _mm512_castps_pd(_mm512_add_ps(_mm512_castpd_ps(unpack_lo(x, y)), _mm512_castpd_ps(unpack_hi(x, y))));
    }
    // u[h]'s parts 0–1: column 0's two halves of k-steps, 2–3: column 1's.
    // [column 0, rows 0–3 | column 1, 0–3 | column 0, 4–7 | column 1, 4–7],
    // each the sum of its two parts, then the middle parts swapped.
    const __m512 lo = _mm512_castpd_ps(shuffle_lanes<0x88>(u[0], u[1]));
    const __m512 hi = _mm512_castpd_ps(shuffle_lanes<0xDD>(u[0], u[1]));
    const __m512d z = _mm512_castps_pd(_mm512_add_ps(lo, hi));
    return _mm512_castpd_ps(shuffle_lanes<0xD8>(z, z));
  }
  // Element-granular masked loads of the first m elements (a partial group
  // of B in Chunk::bcast).
  static __mmask8 rows(int m) { return __mmask8((1u << m) - 1u); }
  static __m128i load128(const T *p, int m) { return _mm_maskz_loadu_epi32(rows(m), p); }
  static __m256i load256(const T *p, int m) { return _mm256_maskz_loadu_epi32(rows(m), p); }
  static __m512i load512(const T *p, int m) { return _mm512_maskz_loadu_epi32(__mmask16((1u << m) - 1u), p); }
  static void store512(T *p, __m512i v, int m) { _mm512_mask_storeu_epi32(p, __mmask16((1u << m) - 1u), v); }
  // Lane permutation: element e of the result is element idx[e] of v.
  template <class Idx>
  static __m512i permute(__m512i v, Idx idx) {
    alignas(64) int32_t ix[16];
    for (int e = 0; e < 16; ++e) ix[e] = idx(e);
    return _mm512_maskz_permutexvar_epi32(__mmask16(0xFFFF), _mm512_load_si512(ix), v);
  }
  // Two-source: element e of the result is element idx[e] of x:y (y from W).
  template <class Idx>
  static __m512i permute2(__m512i x, __m512i y, Idx idx) {
    alignas(64) int32_t ix[16];
    for (int e = 0; e < 16; ++e) ix[e] = idx(e);
    return _mm512_permutex2var_epi32(x, _mm512_load_si512(ix), y);
  }
};

struct AF64 {
  using T = double;
  using vec = __m512d;
  static constexpr int W = 8;
  static vec zero() { return _mm512_setzero_pd(); }
  static vec set1(T x) { return _mm512_set1_pd(x); }
  static vec add(vec a, vec b) { return _mm512_add_pd(a, b); }
  static vec mul(vec a, vec b) { return _mm512_mul_pd(a, b); }
  static vec fmadd(vec a, vec b, vec c) { return _mm512_fmadd_pd(a, b, c); }
  static vec fmadd_lanes(vec a, vec b, vec c, unsigned lanes) {
    return _mm512_mask3_fmadd_pd(a, b, c, __mmask8(lanes));
  }
  static vec cast(__m512i x) { return _mm512_castsi512_pd(x); }
  static __m512i bits(vec x) { return _mm512_castpd_si512(x); }
  static vec pair_sums(vec a, vec b) {
    const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
    const __m512i odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
    return _mm512_add_pd(_mm512_permutex2var_pd(a, even, b), _mm512_permutex2var_pd(a, odd, b));
  }
  // As AF32::fold_lanes: lane e = all lanes of f[e] added (in-lane unpacks,
  // then 128-bit shuffles; 14 shuffles and 7 adds).
  static vec fold_lanes(const vec (&f)[W]) {
    vec s[4];
#pragma GCC unroll 4
    for (int p = 0; p < 4; ++p)
      s[p] = _mm512_add_pd(unpack_lo(f[2 * p], f[2 * p + 1]), unpack_hi(f[2 * p], f[2 * p + 1]));
    const auto half = [](vec a, vec b) { return _mm512_add_pd(shuffle_lanes<0x88>(a, b), shuffle_lanes<0xDD>(a, b)); };
    return half(half(s[0], s[1]), half(s[2], s[3]));
  }
  // As AF32::fold_pairs: lane c·4 + r = the 4 lanes of half c of f[r]
  // added; 7 shuffles and 3 adds for 8 sums.
  static vec fold_pairs(const vec (&f)[4]) {
    const vec s0 = _mm512_add_pd(unpack_lo(f[0], f[1]), unpack_hi(f[0], f[1]));
    const vec s1 = _mm512_add_pd(unpack_lo(f[2], f[3]), unpack_hi(f[2], f[3]));
    const vec z = _mm512_add_pd(shuffle_lanes<0x88>(s0, s1), shuffle_lanes<0xDD>(s0, s1));
    return shuffle_lanes<0xD8>(z, z);
  }
  static __mmask8 rows(int m) { return __mmask8((1u << m) - 1u); }
  static __m128i load128(const T *p, int m) { return _mm_maskz_loadu_epi64(rows(m), p); }
  static __m256i load256(const T *p, int m) { return _mm256_maskz_loadu_epi64(rows(m), p); }
  static __m512i load512(const T *p, int m) { return _mm512_maskz_loadu_epi64(rows(m), p); }
  static void store512(T *p, __m512i v, int m) { _mm512_mask_storeu_epi64(p, rows(m), v); }
  template <class Idx>
  static __m512i permute(__m512i v, Idx idx) {
    alignas(64) int64_t ix[8];
    for (int e = 0; e < 8; ++e) ix[e] = idx(e);
    return _mm512_maskz_permutexvar_epi64(__mmask8(0xFF), _mm512_load_si512(ix), v);
  }
  template <class Idx>
  static __m512i permute2(__m512i x, __m512i y, Idx idx) {
    alignas(64) int64_t ix[8];
    for (int e = 0; e < 8; ++e) ix[e] = idx(e);
    return _mm512_permutex2var_epi64(x, _mm512_load_si512(ix), y);
  }
};

// The first `bytes` (a multiple of 4, at most 16 / 32) at p, zero above, and
// the reverse: unmasked moves no wider than the data (16, 8 and 4 bytes).
// A column of C shorter than its chunk moves this way, not by a masked move:
// a masked store spans the whole chunk, into the next column when ldc is
// shorter, and a later load overlapping it waits for the store to commit
// (Zen 5, sgemm 5×64×64: 535 ns with ldc = 5, 336 ns with ldc = 8).
inline __attribute__((always_inline)) __m128i load_upto16(const char *p, int bytes) {
  switch (bytes) {
    case 16: return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    case 12: {
      int32_t w;
      std::memcpy(&w, p + 8, 4);
      return _mm_insert_epi32(_mm_loadu_si64(p), w, 2);
    }
    case 8: return _mm_loadu_si64(p);
    case 4: return _mm_loadu_si32(p);
    default: return _mm_setzero_si128();
  }
}
inline __attribute__((always_inline)) __m256i load_upto32(const char *p, int bytes) {
  if (bytes <= 16) return _mm256_zextsi128_si256(load_upto16(p, bytes));
  return _mm256_inserti128_si256(_mm256_zextsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p))),
                                 load_upto16(p + 16, bytes - 16), 1);
}
inline __attribute__((always_inline)) void store_upto16(char *p, __m128i v, int bytes) {
  switch (bytes) {
    case 16: return _mm_storeu_si128(reinterpret_cast<__m128i *>(p), v);
    case 12: {
      _mm_storeu_si64(p, v);
      const int32_t w = _mm_extract_epi32(v, 2);
      std::memcpy(p + 8, &w, 4);
      return;
    }
    case 8: return _mm_storeu_si64(p, v);
    case 4: return _mm_storeu_si32(p, v);
    default: return;
  }
}
inline __attribute__((always_inline)) void store_upto32(char *p, __m256i v, int bytes) {
  const __m128i lo = _mm256_castsi256_si128(v);
  if (bytes <= 16) return store_upto16(p, lo, bytes);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(p), lo);
  store_upto16(p + 16, _mm256_extracti128_si256(v, 1), bytes - 16);
}

// Moves of CB-byte chunks (CB = 4, 8, 16, 32: a column's H rows, or a group
// of G k-steps of B; 64: a column of a whole vector, put / get only) between
// memory and lane-aligned places of a vector.
// A full chunk moves unmasked (an unmasked store forwards to a later load of
// the same bytes and the reverse, masked ones do not on Zen 5); a partial
// column of C (put / get) in unmasked pieces of its own bytes (load_upto16
// and the rest above), a partial group of B (bcast) element-masked; neither
// reads or writes a neighbour's bytes.
template <class A, int CB>
struct Chunk {
  using T = typename A::T;
  static constexpr int N = CB / int(sizeof(T));  // elements per chunk
  static constexpr int L = CB / 8;               // 64-bit lanes per chunk
  // The first m (<= N) elements at p, zero above, into chunk Q of v.
  template <int Q>
  static inline __attribute__((always_inline)) __m512i put(__m512i v, const T *p, int m) {
    const auto lanes = __mmask8(((1u << L) - 1u) << (Q * L));
    if constexpr (CB == 4) {  // one f32 element (m == 1) into 32-bit lane Q
      return _mm512_mask_broadcastd_epi32(v, __mmask16(1u << Q), _mm_loadu_si32(p));
    } else if constexpr (CB == 64) {  // the whole vector (Q == 0), in two halves when partial
      if (m == N) return _mm512_loadu_si512(p);
      const char *q = reinterpret_cast<const char *>(p);
      const int bytes = m * int(sizeof(T));
      const __m512i x = _mm512_maskz_broadcast_i64x4(__mmask8(0x0F), load_upto32(q, std::min(bytes, 32)));
      return bytes > 32 ? _mm512_mask_broadcast_i64x4(x, __mmask8(0xF0), load_upto32(q + 32, bytes - 32)) : x;
    } else if constexpr (CB == 32) {
      const __m256i x = m == N ? _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p))
                               : load_upto32(reinterpret_cast<const char *>(p), m * int(sizeof(T)));
      return _mm512_mask_broadcast_i64x4(v, lanes, x);
    } else if constexpr (CB == 16) {
      const __m128i x = m == N ? _mm_loadu_si128(reinterpret_cast<const __m128i *>(p))
                               : load_upto16(reinterpret_cast<const char *>(p), m * int(sizeof(T)));
      return _mm512_mask_broadcast_i64x2(v, lanes, x);
    } else {
      static_assert(CB == 8, "chunks of 8, 16 or 32 bytes");
      const __m128i x = m == N ? _mm_loadu_si64(p) : _mm_loadu_si32(p);  // m < N: f32, one element
      return _mm512_mask_broadcastq_epi64(v, lanes, x);
    }
  }
  // As put, from memory no store of the product touches (op(A) packed): a
  // partial chunk of 16 or 32 bytes one element-masked load, not put's
  // pieces behind a switch on the byte count — no store to forward from
  // (perf: the packer 19 % of sgemm 5×64×64, its op(A) columns 20 bytes,
  // against 8.5 % at 8 rows; 6.7 % with this).
  template <int Q>
  static inline __attribute__((always_inline)) __m512i put_ro(__m512i v, const T *p, int m) {
    const auto lanes = __mmask8(((1u << L) - 1u) << (Q * L));
    if constexpr (CB == 32) return _mm512_mask_broadcast_i64x4(v, lanes, load(p, m));
    else if constexpr (CB == 16) return _mm512_mask_broadcast_i64x2(v, lanes, load(p, m));
    else return put<Q>(v, p, m);
  }
  // Chunk Q of v: its first m elements to p.
  template <int Q>
  static inline __attribute__((always_inline)) void get(T *p, __m512i v, int m) {
    if constexpr (CB == 4) {  // 32-bit lane Q to p
      const __m512i x = Q == 0 ? v : _mm512_maskz_alignr_epi32(__mmask16(0xFFFF), v, v, Q);
      _mm_storeu_si32(p, _mm512_maskz_extracti32x4_epi32(__mmask8(0xF), x, 0));
      return;
    }
    if constexpr (CB == 64) {  // the whole vector (Q == 0), in two halves when partial
      if (m == N) return _mm512_storeu_si512(p, v);
      char *q = reinterpret_cast<char *>(p);
      const int bytes = m * int(sizeof(T));
      store_upto32(q, _mm512_maskz_extracti64x4_epi64(__mmask8(0xF), v, 0), std::min(bytes, 32));
      if (bytes > 32) store_upto32(q + 32, _mm512_maskz_extracti64x4_epi64(__mmask8(0xF), v, 1), bytes - 32);
      return;
    }
    const __m512i x = Q == 0 ? v : _mm512_maskz_alignr_epi64(__mmask8(0xFF), v, v, Q * L);  // rotate chunk Q to lane 0
    if constexpr (CB == 32) {
      const __m256i y = _mm512_maskz_extracti64x4_epi64(__mmask8(0xF), x, 0);
      if (m == N) _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), y);
      else store_upto32(reinterpret_cast<char *>(p), y, m * int(sizeof(T)));
    } else if constexpr (CB == 16) {
      const __m128i y = _mm512_maskz_extracti32x4_epi32(__mmask8(0xF), x, 0);
      if (m == N) _mm_storeu_si128(reinterpret_cast<__m128i *>(p), y);
      else store_upto16(reinterpret_cast<char *>(p), y, m * int(sizeof(T)));
    } else {
      const __m128i y = _mm512_maskz_extracti32x4_epi32(__mmask8(0xF), x, 0);
      if (m == N) _mm_storeu_si64(p, y);
      else _mm_storeu_si32(p, y);
    }
  }
  // The first m (<= N) elements at p, zero above, as one 16- or 32-byte
  // chunk: unmasked when whole, element-masked otherwise (a partial group
  // of B or op(A), nothing read past it).
  static inline __attribute__((always_inline)) auto load(const T *p, int m = N) {
    static_assert(CB == 16 || CB == 32, "16- or 32-byte chunks");
    if constexpr (CB == 32) return m == N ? _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)) : A::load256(p, m);
    else return m == N ? _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)) : A::load128(p, m);
  }
  // All G = 64 / CB chunk copies of the N elements at p (the first m of them,
  // zero above: a last group shorter than G).
  static inline __attribute__((always_inline)) __m512i bcast(const T *p, int m = N) {
    if constexpr (CB == 32) {
      return _mm512_maskz_broadcast_i64x4(__mmask8(0xFF), load(p, m));
    } else if constexpr (CB == 16) {
      return _mm512_maskz_broadcast_i64x2(__mmask8(0xFF), load(p, m));
    } else {
      if (m < N) return _mm512_maskz_broadcastq_epi64(__mmask8(0xFF), _mm_loadu_si32(p));  // f32, one element
      int64_t x;
      std::memcpy(&x, p, sizeof x);
      return _mm512_set1_epi64(x);
    }
  }
};

// The full group of W elements (G = 8 for f64: a whole vector) as a "chunk".
template <class A>
struct Whole {
  using T = typename A::T;
  static inline __attribute__((always_inline)) __m512i bcast(const T *p, int m = A::W) {
    return m == A::W ? _mm512_loadu_si512(p) : A::load512(p, m);
  }
};

// Write-back of G columns held as chunks of one vector (column q's H rows in
// chunk q), as the main tiles write back: alpha·sum, plus beta·C unless beta
// is 0 (then C is not read); the first `cols` columns, m rows.
template <class A, int G>
struct ColumnsOut {
  using T = typename A::T;
  using vec = typename A::vec;
  using Col = Chunk<A, A::W / G * int(sizeof(T))>;
  static inline __attribute__((always_inline)) void write(vec sum, vec va, T beta, vec vb, T *c, int64_t ldc, int m,
                                                           int cols) {
    vec r = A::mul(sum, va);
    if (beta != T(0)) {
      __m512i cv = _mm512_setzero_si512();
      unroll<G>([&](auto q) __attribute__((always_inline)) {
        if (q < cols) cv = Col::template put<q>(cv, c + q * ldc, m);
      });
      r = A::fmadd(A::cast(cv), vb, r);
    }
    unroll<G>([&](auto q) __attribute__((always_inline)) {
      if (q < cols) Col::template get<q>(c + q * ldc, A::bits(r), m);
    });
  }
};

// Write-back of M rows of C held along vectors (acc[i][v]: row i, columns
// v·W .. v·W + W - 1), element by element as the main tiles write back:
// alpha·sum, then + beta·C in one rounding (C not read for beta 0); the
// first `cols` columns. A row's elements are ldc apart (ColumnsOut's
// per-column moves read 0.90–0.95× of this at 1×200×200–1×1000×1000).
template <class A, int M, int NA>
inline __attribute__((always_inline)) void rows_out(const typename A::vec (&acc)[M][NA], typename A::T alpha,
                                                     typename A::T beta, typename A::T *c, int64_t ldc, int cols) {
  using T = typename A::T;
  alignas(64) T out[M][NA * A::W];
#pragma GCC unroll 8
  for (int i = 0; i < M; ++i)
#pragma GCC unroll 8
    for (int v = 0; v < NA; ++v) std::memcpy(&out[i][v * A::W], &acc[i][v], sizeof(acc[i][v]));
  for (int j = 0; j < cols; ++j) {
    T *cj = c + j * ldc;
#pragma GCC unroll 4
    for (int i = 0; i < M; ++i) cj[i] = beta == T(0) ? out[i][j] * alpha : std::fma(cj[i], beta, out[i][j] * alpha);
  }
}

template <class A, int R>
struct RowVec;  // (below; its in-register transpose also packs KGroup's op(A) = T)
// Whether the row-vector tiles have a 2-row tile (f32; f64's two rows stay
// on the column-grouped tiles: row_vec below says why).
template <class A>
constexpr bool two_row_tile = A::W == 16;

// R rows of op(A) read in place, contiguous along k (op T; row i at a +
// i·lda): rows >= m point at row m - 1 (read, their sums never stored).
template <class T, int R>
struct RowPointers {
  const T *r[R];
  // Each pointer in a register of its own (the empty asm): GCC had
  // vectorized the R multiplies (vpmullq, the results through the stack),
  // a setup paid per block of rows and per tile of pairs — Zen 5, 1 thread,
  // pinned, builds alternating, speed ÷ before: TN s / d 4×4×32 1.14 / 1.03,
  // 8×8×32 s 1.13, 16×4×64 1.01 / 1.06, 64×5×64 1.05 / 1.10, 8×5×48 1.08 /
  // 1.11, 1000×4×64 1.11 / 1.10, 6×12×32 1.14 / 1.07; TT (row-vector tiles)
  // 0.96–1.04. (A running pointer, p += lda per row, read 0.81–0.93 on
  // f32's 8 × 1.) Same pointers.
  RowPointers(const T *a, int64_t lda, int m) {
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i) {
      const T *p = a + std::min(i, m - 1) * lda;
      asm("" : "+r"(p));
      r[i] = p;
    }
  }
};

template <class A, int G>
struct KGroup {
  using T = typename A::T;
  using vec = typename A::vec;
  static constexpr int W = A::W, H = W / G;
  using Col = Chunk<A, H * int(sizeof(T))>;  // a column's H rows of C
  using Grp = std::conditional_t<G * sizeof(T) == 64, Whole<A>, Chunk<A, G * int(sizeof(T))>>;  // G k-steps of B
  static_assert(H * int(sizeof(T)) >= 8, "columns of at least 8 bytes");
  static constexpr int kLevels = G == 8 ? 3 : G == 4 ? 2 : 1;  // log2 G: pairwise fold levels

  // C[0:m, 0:n] of one tile of NR columns, n <= NR (Full: n == NR). Columns
  // >= n alias column n - 1 (valid memory, results discarded).
  template <int NR, bool Full>
  static inline __attribute__((always_inline)) void tile(int64_t k, T alpha, const T *__restrict ap,
                                                         const T *__restrict b, int64_t ldb, T beta, T *c,
                                                         int64_t ldc, int m, int n) {
    static_assert(NR % G == 0, "columns are written back G at a time");
    vec acc[NR];
#pragma GCC unroll 32
    for (int j = 0; j < NR; ++j) acc[j] = A::zero();
    // Column j's base at bq[j / 3] + (j % 3)·ldb: one register per three
    // columns and the stride (base + index·scale), as the direct tile.
    const T *bq[(NR + 2) / 3];
    int64_t boff[NR];
    if (Full) {
#pragma GCC unroll 16
      for (int g = 0; g < (NR + 2) / 3; ++g) bq[g] = b + 3 * g * ldb;
    } else {
#pragma GCC unroll 32
      for (int j = 0; j < NR; ++j) boff[j] = (j < n ? j : n - 1) * ldb;
    }
    const auto bcol = [&](int j) __attribute__((always_inline)) {
      return Full ? bq[j / 3] + (j % 3) * ldb : b + boff[j];
    };
    const int64_t steps = k / G;
    for (int64_t s = 0; s < steps; ++s) {
      const vec av = A::cast(_mm512_loadu_si512(ap + s * W));
#pragma GCC unroll 32
      for (int j = 0; j < NR; ++j) acc[j] = A::fmadd(av, A::cast(Grp::bcast(bcol(j) + G * s)), acc[j]);
    }
    if (const int rest = int(k - steps * G)) {
      // The last k % G steps: B's missing steps load as zeros, as A's are
      // packed (0·0: no NaN from Inf·0, and nothing read past column end).
      const vec av = A::cast(_mm512_loadu_si512(ap + steps * W));
#pragma GCC unroll 32
      for (int j = 0; j < NR; ++j) acc[j] = A::fmadd(av, A::cast(Grp::bcast(bcol(j) + G * steps, rest)), acc[j]);
    }
    // G columns per vector after the fold.
    const vec va = A::set1(alpha), vb = A::set1(beta);
#pragma GCC unroll 16
    for (int j = 0; j < NR; j += G) {
      if (!Full && j >= n) break;
      vec f[G];
#pragma GCC unroll 8
      for (int q = 0; q < G; ++q) f[q] = acc[j + q];
      // Pairwise: level by level, neighbouring sums of each lane group.
      unroll<kLevels>([&](auto level) __attribute__((always_inline)) {
        unroll<(G >> level) / 2>([&](auto q) __attribute__((always_inline)) {
          f[q] = A::pair_sums(f[2 * q], f[2 * q + 1]);
        });
      });
      ColumnsOut<A, G>::write(f[0], va, beta, vb, c + j * ldc, ldc, m, Full ? G : int(std::min<int64_t>(G, n - j)));
    }
  }

  static void pack_a(int64_t m, int64_t k, const T *a, int64_t rs, int64_t cs, T *ap) {
    const int64_t steps = (k + G - 1) / G;
    if (rs == 1) {
      // Columns of op(A) contiguous: G column chunks (chunk c = step s·G + c),
      // then one permutation from column-major chunks to lane i·G + c.
      for (int64_t s = 0; s < steps; ++s) {
        __m512i v = _mm512_setzero_si512();
        unroll<G>([&](auto q) __attribute__((always_inline)) {
          const int64_t l = s * G + q;
          if (l < k) v = Col::template put_ro<q>(v, a + l * cs, int(m));
        });
        v = A::permute(v, [](int e) { return (e % G) * H + e / G; });
        _mm512_storeu_si512(ap + s * W, v);
      }
      return;
    }
    if constexpr (H >= 4) {
      if (cs == 1) {
        // Rows of op(A) contiguous (op T): W steps of the H rows, transposed
        // in registers to H groups of G steps, then the permutation above
        // (element by element this packer was 61 % of sgemm TN 8×8×2000).
        for (int64_t l0 = 0; l0 < k; l0 += W) {
          const int cnt = int(std::min<int64_t>(W, k - l0));
          __m512i v[H];
          RowVec<A, H>::load_steps(a + l0, rs, int(m), cnt, v);  // v[h]: element q·H + i = row i, step l0 + h·G + q
#pragma GCC unroll 8
          for (int h = 0; h < H; ++h) {
            if (h * G >= cnt) break;
            _mm512_storeu_si512(ap + (l0 / G + h) * W, A::permute(v[h], [](int e) { return (e % G) * H + e / G; }));
          }
        }
        return;
      }
    }
    for (int64_t s = 0; s < steps; ++s)
      for (int i = 0; i < H; ++i)
        for (int q = 0; q < G; ++q) {
          const int64_t l = s * G + q;
          ap[s * W + i * G + q] = i < m && l < k ? a[i * rs + l * cs] : T(0);
        }
  }

  // Full NR-column tiles, then the rest on a narrower tile where one fits
  // (fewer padding columns computed) or the NR tile with aliases.
  template <int NR>
  static void run(int64_t k, T alpha, const T *ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc, int m,
                  int64_t n) {
    int64_t j = 0;
    for (; j + NR <= n; j += NR) tile<NR, true>(k, alpha, ap, b + j * ldb, ldb, beta, c + j * ldc, ldc, m, NR);
    const int rest = int(n - j);
    if (rest == 0) return;
    b += j * ldb;
    c += j * ldc;
    constexpr int N4 = G > 4 ? G : 4, N8 = G > 8 ? G : 8;
    if (rest == N4) return tile<N4, true>(k, alpha, ap, b, ldb, beta, c, ldc, m, N4);
    if (rest < N4) return tile<N4, false>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
    if constexpr (N8 < NR) {
      if (rest == N8) return tile<N8, true>(k, alpha, ap, b, ldb, beta, c, ldc, m, N8);
      if (rest < N8) return tile<N8, false>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
    }
    tile<NR, false>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
  }
};

// Column-grouped tiles for op(B) with contiguous rows (op T: B(l, j) at
// b[l*ldb + j]): lane i·G + q of accumulator g sums A(i, l)·B(l, j0 + g·G + q)
// — each A element repeated G times in its packed vector, B's G adjacent
// columns of row l one broadcast. Each element's FMAs run in order of l from
// zero and are written back as the main tiles', in blocks of kKc k-steps
// (the first with beta, the others adding to C): the main tiles' sums when
// the packed path's KC is the same.
template <class A, int G>
struct CGroup {
  using T = typename A::T;
  using vec = typename A::vec;
  static constexpr int W = A::W, H = W / G;
  using Col = Chunk<A, H * int(sizeof(T))>;
  using Grp = std::conditional_t<G * sizeof(T) == 64, Whole<A>, Chunk<A, G * int(sizeof(T))>>;
  static constexpr int64_t kKc = 256;  // A's block: 256 · 64 B = 16 KiB, L1-resident across the tiles

  // C[0:m, 0:n] of one tile of NG·G columns, n <= NG·G (Full: n == NG·G);
  // groups past n alias the last one, and its columns past n load as zeros.
  template <int NG, bool Full>
  static inline __attribute__((always_inline)) void tile(int64_t k, T alpha, const T *__restrict ap,
                                                         const T *__restrict b, int64_t ldb, T beta, T *c,
                                                         int64_t ldc, int m, int n) {
    vec acc[NG];
#pragma GCC unroll 32
    for (int g = 0; g < NG; ++g) acc[g] = A::zero();
    const int groups = Full ? NG : (n + G - 1) / G;
    int64_t off[NG];
    int cnt[NG];
    if (!Full)
#pragma GCC unroll 32
      for (int g = 0; g < NG; ++g) {
        const int h = g < groups ? g : groups - 1;
        off[g] = int64_t(h) * G;
        cnt[g] = std::min(G, n - h * G);
      }
    for (int64_t l = 0; l < k; ++l) {
      const vec av = A::cast(_mm512_loadu_si512(ap + l * W));
      const T *br = b + l * ldb;
#pragma GCC unroll 32
      for (int g = 0; g < NG; ++g)
        acc[g] = A::fmadd(av, A::cast(Full ? Grp::bcast(br + g * G) : Grp::bcast(br + off[g], cnt[g])), acc[g]);
    }
    const vec va = A::set1(alpha), vb = A::set1(beta);
#pragma GCC unroll 32
    for (int g = 0; g < NG; ++g) {
      if (!Full && g >= groups) break;
      // Lane i·G + q to chunk q, row i.
      const vec r = A::cast(A::permute(A::bits(acc[g]), [](int e) { return (e % H) * G + e / H; }));
      ColumnsOut<A, G>::write(r, va, beta, vb, c + g * G * ldc, ldc, m, Full ? G : std::min(G, n - g * G));
    }
  }

  static void pack_a(int64_t m, int64_t k, const T *a, int64_t rs, int64_t cs, T *ap) {
    for (int64_t l = 0; l < k; ++l) {
      if (rs == 1) {  // a column chunk, each element spread to its G lanes
        const __m512i v = Col::template put<0>(_mm512_setzero_si512(), a + l * cs, int(m));
        _mm512_storeu_si512(ap + l * W, A::permute(v, [](int e) { return e / G; }));
        continue;
      }
      for (int i = 0; i < H; ++i)
        for (int q = 0; q < G; ++q) ap[l * W + i * G + q] = i < m ? a[i * rs + l * cs] : T(0);
    }
  }

  template <int NG>
  static void run_block(int64_t k, T alpha, const T *ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc, int m,
                        int64_t n) {
    constexpr int64_t cols = NG * G;
    int64_t j = 0;
    for (; j + cols <= n; j += cols) tile<NG, true>(k, alpha, ap, b + j, ldb, beta, c + j * ldc, ldc, m, int(cols));
    const int rest = int(n - j);
    if (rest == 0) return;
    b += j;
    c += j * ldc;
    if (rest == 4 * G) return tile<4, true>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
    if (rest < 4 * G) return tile<4, false>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
    if (rest == 8 * G) return tile<8, true>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
    if (rest < 8 * G) return tile<8, false>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
    tile<NG, false>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
  }

  template <int NG>
  static void run(int64_t k, T alpha, const T *ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc, int m,
                  int64_t n) {
    for (int64_t kb = 0; kb < k; kb += kKc)
      run_block<NG>(std::min(kKc, k - kb), alpha, ap + kb * W, b + kb * ldb, ldb, kb == 0 ? beta : T(1), c, ldc, m,
                    n);
  }
};

// Row-vector tiles for op(B) with contiguous rows (op T: B(l, j) at
// b[l*ldb + j]): C's rows along the accumulators — acc[i][v] holds
// C(i, j0 + v·W .. j0 + v·W + W - 1) — so B's row l comes in as whole
// vectors and A(i, l) as one 4- or 8-byte broadcast per NV FMAs. (The
// column-grouped tiles above put H rows × G columns in a vector, and with 4
// rows of f32 waited on a 16-byte broadcast of B per FMA, half rate on Zen
// 5: sgemm NT 4×100×100 at 0.73–0.76× OpenBLAS.) R = 1, 2 (f32), 4 or 8 rows
// (row_vec; A packed R to a k-step, zeros past m); NV vectors of columns,
// R·NV + NV + 1 registers. Each element's FMAs run in order of l from zero
// and are written back as the main tiles', alpha·sum then + beta·C in one
// rounding, in blocks of kKc k-steps over more than one tile of columns
// (the first with beta, the others adding to C): the main tiles' sums where
// the packed path's KC is the same. At write-back each vector's R rows × W
// columns are transposed in registers to W / R columns of R rows
// (rows_to_columns) and leave as the column-grouped tiles' do (ColumnsOut).
template <class A, int R>
struct RowVec {
  using T = typename A::T;
  using vec = typename A::vec;
  static constexpr int W = A::W, G = W / R;  // G columns per vector after the transpose
  static_assert(R == 1 || (R == 2 && two_row_tile<A>) || R == 4 || R == 8, "the rows row_vec takes");
  static_assert(G >= 1, "at most a vector of rows");
  static constexpr int NV = R == 8 ? 3 : R == 4 ? 6 : 8;  // R·NV + NV + 1 <= 32 (R = 2: 25)
  static constexpr int64_t kKc = 256;                     // A's block: 256 · R elements, L1-resident

  // Two-source interleave of units of U elements: the first (Hi = false) or
  // second half of x's units alternating with y's.
  template <int U, bool Hi>
  static inline __attribute__((always_inline)) __m512i interleave(__m512i x, __m512i y) {
    return A::permute2(x, y, [](int e) {
      const int p = e / U, src = p / 2 + (Hi ? W / U / 2 : 0);
      return src * U + e % U + (p % 2) * W;
    });
  }
  // v[i] = row i's W columns → v[h] = columns h·G .. h·G + G - 1, column q's
  // R rows in chunk q (ColumnsOut's layout). Round u (units of U = 2^u
  // elements) joins row groups 2g and 2g + 1 of each column part h: before
  // it v[g·P + h] holds rows g·U .. g·U + U - 1 of part h of P = U parts.
  static inline __attribute__((always_inline)) void rows_to_columns(__m512i (&v)[R]) {
    if constexpr (R == 8 && W == 8) {
      transpose8x8_f64(v);
      return;
    }
    unroll<(R >= 2) + (R >= 4) + (R >= 8)>([&](auto u) __attribute__((always_inline)) {
      constexpr int U = 1 << u, P = U;
      __m512i t[R];
      unroll<R / U / 2>([&](auto g) __attribute__((always_inline)) {
        unroll<P>([&](auto h) __attribute__((always_inline)) {
          const __m512i x = v[(2 * g) * P + h], y = v[(2 * g + 1) * P + h];
          t[g * 2 * P + 2 * h] = interleave<U, false>(x, y);
          t[g * 2 * P + 2 * h + 1] = interleave<U, true>(x, y);
        });
      });
      unroll<R>([&](auto i) __attribute__((always_inline)) { v[i] = t[i]; });
    });
  }

  // f64, 8 rows: the same 8 × 8 transpose with immediate shuffles only —
  // pairs of rows interleaved in 128-bit lanes (unpack), then lanes gathered
  // twice (vshuff64x2). The two-source permutes above each hold an index
  // vector: beside a tile's 24 accumulators the write-back spilled
  // (dgemm TT 64³, perf: 14 % of the call outside the k loops).
  static inline __attribute__((always_inline)) void transpose8x8_f64(__m512i (&v)[8]) {
    __m512d t[8], u[8];
#pragma GCC unroll 4
    for (int i = 0; i < 8; i += 2) {
      t[i] = unpack_lo(_mm512_castsi512_pd(v[i]), _mm512_castsi512_pd(v[i + 1]));      // columns 0, 2, 4, 6
      t[i + 1] = unpack_hi(_mm512_castsi512_pd(v[i]), _mm512_castsi512_pd(v[i + 1]));  // 1, 3, 5, 7
    }
#pragma GCC unroll 2
    for (int h = 0; h < 8; h += 4) {  // rows h .. h + 3
      u[h] = shuffle_lanes<0x88>(t[h], t[h + 2]);          // columns 0, 4
      u[h + 1] = shuffle_lanes<0xDD>(t[h], t[h + 2]);      // 2, 6
      u[h + 2] = shuffle_lanes<0x88>(t[h + 1], t[h + 3]);  // 1, 5
      u[h + 3] = shuffle_lanes<0xDD>(t[h + 1], t[h + 3]);  // 3, 7
    }
    constexpr int kCol[4] = {0, 2, 1, 3};  // u[q]'s first column
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) {
      v[kCol[q]] = _mm512_castpd_si512(shuffle_lanes<0x88>(u[q], u[q + 4]));
      v[kCol[q] + 4] = _mm512_castpd_si512(shuffle_lanes<0xDD>(u[q], u[q + 4]));
    }
  }

  // Where the tiles read op(A)(i, l): packed (pack_a's layout), or in place
  // (RowPointers).
  struct Packed {
    const T *p;
    T at(int i, int64_t l) const { return p[l * R + i]; }
  };
  struct Cols {  // op(A)'s columns contiguous (op N), read in place: A(i, l) at p[l·ld + i]
    const T *p;
    int64_t ld;
    T at(int i, int64_t l) const { return p[l * ld + i]; }
  };
  struct Rows : RowPointers<T, R> {
    using RowPointers<T, R>::RowPointers;
    T at(int i, int64_t l) const { return this->r[i][l]; }
  };

  // C[0:m, 0:cols] from op(B)'s columns [0, cols), cols <= NA·W; a last
  // partial vector of B loads masked (zeros past cols). M >= m: the rows
  // the k loop computes (rows >= M stay zero and are never stored).
  template <int NA, int M, class Src>
  static inline __attribute__((always_inline)) void tile(int64_t k, T alpha, const Src &ap, const T *__restrict b,
                                                         int64_t ldb, T beta, T *c, int64_t ldc, int m, int cols) {
    static_assert(M >= 1 && M <= R, "rows of the tile");
    vec acc[R][NA];
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i)
#pragma GCC unroll 8
      for (int v = 0; v < NA; ++v) acc[i][v] = A::zero();
    const int last = cols - (NA - 1) * W;  // columns in the last vector, 1..W
    for (int64_t l = 0; l < k; ++l) {
      const T *br = b + l * ldb;
      vec bv[NA];
#pragma GCC unroll 8
      for (int v = 0; v < NA; ++v)
        bv[v] = A::cast(v < NA - 1 || last == W ? _mm512_loadu_si512(br + v * W) : A::load512(br + v * W, last));
#pragma GCC unroll 8
      for (int i = 0; i < M; ++i) {
        const vec av = A::set1(ap.at(i, l));
#pragma GCC unroll 8
        for (int v = 0; v < NA; ++v) acc[i][v] = A::fmadd(av, bv[v], acc[i][v]);
      }
    }
    if constexpr (R == 1) return rows_out<A>(acc, alpha, beta, c, ldc, cols);  // one row: element by element
    const vec va = A::set1(alpha), vb = A::set1(beta);
#pragma GCC unroll 8
    for (int v = 0; v < NA; ++v) {
      __m512i x[R];
#pragma GCC unroll 8
      for (int i = 0; i < R; ++i) x[i] = A::bits(acc[i][v]);
      rows_to_columns(x);
      if (m == R) write_vec(x, va, beta, vb, c + v * W * ldc, ldc, R, cols - v * W);
      else write_vec_rows(x, va, beta, vb, c + v * W * ldc, ldc, m, cols - v * W);
    }
  }

  // One transposed vector (x[h]: columns h·G .. h·G + G - 1) to C's first
  // m rows and `cols` columns from c.
  static inline __attribute__((always_inline)) void write_vec(const __m512i (&x)[R], vec va, T beta, vec vb, T *c,
                                                              int64_t ldc, int m, int cols) {
#pragma GCC unroll 8
    for (int h = 0; h < R; ++h) {
      const int j = h * G;
      if (j >= cols) break;
      // (G == 1, f64 with 8 rows: a whole vector per column, Chunk's 64-byte moves.)
      ColumnsOut<A, G>::write(A::cast(x[h]), va, beta, vb, c + j * ldc, ldc, m, std::min(G, cols - j));
    }
  }
  // Fewer rows than R: one out-of-line copy per (type, R) — inlined into
  // every tile and vector, its partial-column moves had tripled this file's
  // compile time (27 → 93 s).
  static __attribute__((noinline)) void write_vec_rows(const __m512i (&x)[R], vec va, T beta, vec vb, T *c,
                                                       int64_t ldc, int m, int cols) {
    write_vec(x, va, beta, vb, c, ldc, m, cols);
  }

  // cnt <= W steps of R rows contiguous along k (row i at a + i·rs; zeros
  // past cnt and in rows >= m), transposed: v[h] holds steps h·G .. h·G +
  // G - 1, step h·G + q's R rows in chunk q (element q·R + i). (Also packs
  // the k-grouped tiles' op(A) = T.)
  static inline __attribute__((always_inline)) void load_steps(const T *a, int64_t rs, int m, int cnt,
                                                               __m512i (&v)[R]) {
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i)
      v[i] = i >= m      ? _mm512_setzero_si512()
             : cnt == W ? _mm512_loadu_si512(a + i * rs)
                        : A::load512(a + i * rs, cnt);
    rows_to_columns(v);
  }

  static void pack_a(int64_t m, int64_t k, const T *a, int64_t rs, int64_t cs, T *ap) {
    if (R == 1) {  // one row: a copy (masked one-element moves cost ~1 ns a step)
      for (int64_t l = 0; l < k; ++l) ap[l] = a[l * cs];
      return;
    }
    if (rs == 1) {  // op(A)'s columns contiguous: m elements in, R out (zeros past m) a step
      for (int64_t l = 0; l < k; ++l) A::store512(ap + l * R, A::load512(a + l * cs, int(m)), R);
      return;
    }
    if (cs == 1) {  // op(A)'s rows contiguous (op T): W steps of the R rows, transposed in registers
      for (int64_t l = 0; l < k; l += W) {
        const int cnt = int(std::min<int64_t>(W, k - l));
        __m512i v[R];
        load_steps(a + l, rs, int(m), cnt, v);  // v[h]: steps l + h·G .. l + h·G + G - 1, R elements each
#pragma GCC unroll 8
        for (int h = 0; h < R; ++h) {
          const int s0 = h * G;
          if (s0 >= cnt) break;
          if (s0 + G <= cnt) _mm512_storeu_si512(ap + (l + s0) * R, v[h]);
          else A::store512(ap + (l + s0) * R, v[h], (cnt - s0) * R);
        }
      }
      return;
    }
    std::fill(ap, ap + k * R, T(0));  // neither stride 1: element by element, zeros past m
    for (int64_t i = 0; i < m; ++i)
      for (int64_t l = 0; l < k; ++l) ap[l * R + i] = a[i * rs + l * cs];
  }

  // The rows a block's k loop computes (f(integral_constant M)): on R = 8
  // (5–8 rows) m itself — computing all 8, a block of 5 rows spent 3 of 8
  // broadcasts and FMA rows on rows never stored (dgemm NT 5×32×500 at 0.77×
  // OpenBLAS); on R = 4 (2–4 rows) and R = 1, all R: 3 rows of R = 4
  // computed alone read 0.79–0.82× the speed of computing 4 (f32 / f64 NT
  // 3×100×100, builds side by side), not found why.
  template <class F>
  static constexpr inline __attribute__((always_inline)) void by_rows(int m, F f) {
    if constexpr (R == 8) {
      if (m == 5) return f(std::integral_constant<int, 5>{});
      if (m == 6) return f(std::integral_constant<int, 6>{});
      if (m == 7) return f(std::integral_constant<int, 7>{});
    }
    f(std::integral_constant<int, R>{});
  }

  template <class Src>
  static void run_block(int64_t k, T alpha, const Src &ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc, int m,
                        int64_t n) {
    by_rows(m, [&](auto rows) { run_block_rows<rows>(k, alpha, ap, b, ldb, beta, c, ldc, m, n); });
  }
  template <int M, class Src>
  static void run_block_rows(int64_t k, T alpha, const Src &ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc,
                             int m, int64_t n) {
    // As few tiles as hold the columns' vectors, the vectors shared out
    // evenly (the wider tiles first): a tile of one vector waits on its R
    // broadcasts per R FMAs (dgemm TT 32³ as 24 + 8 columns took 1.07× the
    // time of 16 + 16). Each element's sum is the same in any tile.
    const int64_t nvec = (n + W - 1) / W, tiles = (nvec + NV - 1) / NV;
    int64_t j = 0;
    for (int64_t t = 0; t < tiles; ++t) {
      const int nv = int(nvec / tiles + (t < nvec % tiles));
      const int cols = int(std::min<int64_t>(int64_t(nv) * W, n - j));
      unroll<NV>([&](auto q) __attribute__((always_inline)) {
        if (q + 1 == nv) tile<q + 1, M>(k, alpha, ap, b + j, ldb, beta, c + j * ldc, ldc, m, cols);
      });
      j += cols;
    }
  }

  // The k-steps per block: one tile of columns reads A's block once, so no
  // blocks and no write-back of C per 256 steps (f32 NT 8×32×2000 /
  // 4×64×2000 / 1×100×2000 1.03 / 1.05 / 1.06× blocked). Chosen by the
  // product's columns, not a call's: threads that split them must sum alike.
  static int64_t k_block(int64_t k, int64_t n_all) { return n_all <= NV * W ? k : kKc; }

  // The k blocks of k_block, op(A)'s block at kb from src(kb); beta on the
  // first block, then C accumulates.
  template <class SrcAt>
  static inline __attribute__((always_inline)) void run_k_blocks(int64_t k, T alpha, SrcAt src, const T *b,
                                                                 int64_t ldb, T beta, T *c, int64_t ldc, int m,
                                                                 int64_t n, int64_t n_all) {
    const int64_t kc = k_block(k, n_all);
    for (int64_t kb = 0; kb < k; kb += kc)
      run_block(std::min(kc, k - kb), alpha, src(kb), b + kb * ldb, ldb, kb == 0 ? beta : T(1), c, ldc, m, n);
  }
  static void run(int64_t k, T alpha, const T *ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc, int m,
                  int64_t n, int64_t n_all) {
    run_k_blocks(k, alpha, [&](int64_t kb) { return Packed{ap + kb * R}; }, b, ldb, beta, c, ldc, m, n, n_all);
  }
  // run with op(A)'s columns read in place (A(i, l) at a[l·lda + i]),
  // where the k loop reads no row past m (rows_in_place).
  static void run_in_place(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,
                           int64_t ldc, int m, int64_t n, int64_t n_all) {
    run_k_blocks(k, alpha, [&](int64_t kb) { return Cols{a + kb * lda, lda}; }, b, ldb, beta, c, ldc, m, n, n_all);
  }
  // Whether the k loop for m rows reads only rows < m: by_rows computes
  // exactly m of them.
  static constexpr bool rows_in_place(int m) {
    bool exact = false;
    by_rows(m, [&](auto rows) { exact = rows == m; });
    return exact;
  }

  // Rows [0, m) (m <= R) and k-steps [0, k) of a block whose op(A) is read
  // in place: row i, step l at a[i·lda + l].
  static void run_rows(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c, int64_t ldc,
                       int m, int64_t n) {
    run_block(k, alpha, Rows(a, lda, m), b, ldb, beta, c, ldc, m, n);
  }
};

// The k loop of the split-chain tiles below: step(s, l) for l = 0 .. k-1,
// s = l % S (whole rounds of S, then the rest), then each chain set's
// partial sums added w apart, w = S/2, .., 1 — fold(s, t) adds set t into
// set s: ((0+4)+(2+6))+((1+5)+(3+7)) for S = 8.
template <int S, class Step, class Fold>
inline __attribute__((always_inline)) void split_chains(int64_t k, Step step, Fold fold) {
  int64_t l = 0;
  for (; l + S <= k; l += S) unroll<S>([&](auto s) __attribute__((always_inline)) { step(s, l + s); });
  unroll<S>([&](auto s) __attribute__((always_inline)) {
    if (l + s < k) step(s, l + s);
  });
  unroll<3>([&](auto h) __attribute__((always_inline)) {
    constexpr int w = S >> (h + 1);
    unroll<w>([&](auto s) __attribute__((always_inline)) { fold(s, std::integral_constant<int, s + w>{}); });
  });
}

// Split-chain tiles: C's M rows × NA vectors of columns as the whole
// product with op(B) = T, M·NA <= 4 (3 rows as 4). RowVec's
// tiles keep one FMA chain per row and vector, so there their k loop waits
// on the FMA's latency (~4 cycles, 1.15 ns a step at 1–2 chains;
// OpenBLAS's kernel too: dgemm NT 1×8×1000 1.2 µs for both, f64's two rows
// on the column-grouped tile 1.7). Here step l goes to partial sum l % S,
// S = 8 / (M·NA) chains per element (3 rows: as 4; 2 FMAs a cycle × 4
// cycles in flight; 16 read no faster), added at the end in a
// fixed tree — other sums than the main tiles', so gemm_execute takes
// these only where the call itself has this shape (never a tail of a
// taller product, never a unit of a split one). op(A)(i, l) from Src::at,
// one broadcast per row and step (folded into the FMA: the same speed as
// a register broadcast); B's row l one vector load, masked past n.
// Write-back as RowVec's one row (rows_out). Zen 5, 1 thread, pinned, old / new
// alternating in one process, speed ÷ before over NT / TT × 1–2 rows ×
// 2–2W columns × k 17–1000 (180 shapes): geomean 2.23 (0.96–3.61; 1×8×256
// 3.5), against OpenBLAS 1.88 (0.93–3.36). Where two vectors of B's rows
// stream from L2 (f64 16 / f32 32 columns at k = 1000: 128 KiB) both
// are bound by it (0.93–1.14× OpenBLAS). 3–4 rows with one vector (RowVec's
// 4-row tile: 4 chains; 3 rows on it waited on more than latency, dgemm NT
// 3×8×1000 2.1 µs), same method, 112 shapes: 3 rows 2.03× (1.44–2.75),
// 4 rows 1.39× (1.14–1.80; a broadcast per row and step sets their pace
// now), against OpenBLAS 2.52× / 1.36× (all ≥ 1.08). One row with 3–4
// vectors (RowVec's 3–4 chains; here 6–8), 48 shapes: 1.36× (0.90–1.81;
// 0.94–1.05 where 192–256 KiB of B stream from L2 at k = 1000), against
// OpenBLAS 1.69× (0.97–2.70).
template <class A, int M, int NA>
struct RowSplit {
  using T = typename A::T;
  using vec = typename A::vec;
  static constexpr int W = A::W, S = 8 / ((M == 3 ? 4 : M) * NA);  // 3 rows or vectors: 6 chains
  static_assert((M == 3 ? 4 : M) * NA <= 4 && S >= 2, "at least two chains per element");

  struct Cols {  // op(A)'s columns contiguous (op N; or one row): A(i, l) at p[l·ld + i]
    const T *p;
    int64_t ld;
    T at(int i, int64_t l) const { return p[l * ld + i]; }
  };
  struct Rows : RowPointers<T, M> {  // op(A)'s rows contiguous (op T)
    using RowPointers<T, M>::RowPointers;
    T at(int i, int64_t l) const { return this->r[i][l]; }
  };

  template <class Src>
  static void run(int64_t k, T alpha, const Src a, const T *__restrict b, int64_t ldb, T beta, T *c, int64_t ldc,
                  int n) {
    vec acc[S][M][NA];
    unroll<S>([&](auto s) __attribute__((always_inline)) {
      unroll<M>([&](auto i) __attribute__((always_inline)) {
        unroll<NA>([&](auto v) __attribute__((always_inline)) { acc[s][i][v] = A::zero(); });
      });
    });
    const int last = n - (NA - 1) * W;  // columns in the last vector, 1..W
    const auto step = [&](auto s, int64_t l) __attribute__((always_inline)) {
      const T *br = b + l * ldb;
      vec bv[NA];
      unroll<NA>([&](auto v) __attribute__((always_inline)) {
        // (The last vector masked even when whole: unmasked, GCC folded its
        // load into each row's FMA and broadcast op(A) apart, 4 loads a step
        // for 3, 0.76–0.90×.)
        bv[v] = A::cast(v + 1 < NA ? _mm512_loadu_si512(br + v * W) : A::load512(br + v * W, last));
      });
      unroll<M>([&](auto i) __attribute__((always_inline)) {
        const vec av = A::set1(a.at(i, l));
        unroll<NA>([&](auto v) __attribute__((always_inline)) { acc[s][i][v] = A::fmadd(av, bv[v], acc[s][i][v]); });
      });
    };
    split_chains<S>(k, step, [&](auto s, auto t) __attribute__((always_inline)) {
      unroll<M>([&](auto i) __attribute__((always_inline)) {
        unroll<NA>([&](auto v) __attribute__((always_inline)) { acc[s][i][v] = A::add(acc[s][i][v], acc[t][i][v]); });
      });
    });
    rows_out<A>(acc[0], alpha, beta, c, ldc, n);
  }
};

// The same split for C's columns: more than half and at most one vector
// of rows, op(A)'s columns contiguous (op N), NC = 1–4 columns as the whole
// product, any op(B). The column tiles (NN, 1–2 columns) and the
// row-vector tiles (NT, 5–8 f64 rows: a broadcast of op(A) per row and
// step) ran one chain per column or row (dgemm NN 8×2×32 55 ns against
// OpenBLAS's 37, NT 8×2×32 55 against 34). Accumulator (s, j) holds
// column j's rows over the steps l % S == s, S = 8 / NC (3 columns as 4):
// op(A)'s column l one (masked) vector load, B(l, j) a broadcast per
// column; the partials added in the same tree, then C's column written
// back as the grouped tiles' columns (ColumnsOut: alpha·sum, then + beta·C
// in one rounding).
// Zen 5, 1 thread, pinned, builds alternating in one process, NN / NT ×
// s / d × m ∈ {W/2 + 1, 3W/4, W} × 1–4 columns × k 17–1000 (240 shapes):
// 1.78× (0.91–3.57; 1.15–3.57 from k = 32, below 1.0 only f32 4 columns
// at k = 17, ~3 ns), against OpenBLAS 1.86× (230 of 240 ≥ 1.0; below, 4
// columns at k = 17–32, 0.86–0.98).
template <class A, int NC>
struct ColSplit {
  using T = typename A::T;
  using vec = typename A::vec;
  static constexpr int W = A::W, S = 8 / (NC == 3 ? 4 : NC);
  static void run(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t brs, int64_t bcs, T beta, T *c,
                  int64_t ldc, int m) {
    vec acc[S][NC];
    unroll<S>([&](auto s) __attribute__((always_inline)) {
      unroll<NC>([&](auto j) __attribute__((always_inline)) { acc[s][j] = A::zero(); });
    });
    const T *bj[NC];
    unroll<NC>([&](auto j) __attribute__((always_inline)) { bj[j] = b + j * bcs; });
    const auto step = [&](auto s, int64_t l) __attribute__((always_inline)) {
      const vec av = A::cast(A::load512(a + l * lda, m));
      unroll<NC>([&](auto j) __attribute__((always_inline)) {
        acc[s][j] = A::fmadd(av, A::set1(bj[j][l * brs]), acc[s][j]);
      });
    };
    split_chains<S>(k, step, [&](auto s, auto t) __attribute__((always_inline)) {
      unroll<NC>([&](auto j) __attribute__((always_inline)) { acc[s][j] = A::add(acc[s][j], acc[t][j]); });
    });
    const vec va = A::set1(alpha), vb = A::set1(beta);
    unroll<NC>([&](auto j) __attribute__((always_inline)) {
      ColumnsOut<A, 1>::write(acc[0][j], va, beta, vb, c + j * ldc, ldc, m, 1);
    });
  }
};

constexpr int kRowVecRows = 8;  // the most rows the row-vector tiles take
// f64's 5–8 rows from 9 columns, or where the main tiles would pack op(A):
// with one vector of columns the tile's 8 FMAs wait on 8 broadcasts of the
// packed A, and the main tiles read A in place (dgemm NT 8×8×2000 0.59× of
// them; TT, A packed either way, 1.19×).
constexpr int kF64WideCols = 9;

// Whether op(B) = T with m rows takes the row-vector tiles: 1–8 rows
// (f64's 5–8: R = 8, one whole vector per column; the main tiles ran them
// on a one-vector 8 × 12 tile, 12 FMAs per 13 loads). Measured build
// against build (1 thread, docs/performance.md's change table): f32 NT
// 8×32×2000 1.26, 8×200×200 1.11, 7×100×100 1.13, 5×64×64 1.11, 3×64×64
// 1.31; f64 NT 8×200×200 1.19, 6×200×200 1.15, 5×1000×1000 1.29, TT
// 8×32×2000 1.17, 8×16×100 1.19 (f64 NT 8×32×2000 / 8×32×32 0.90 / 0.93).
// f32's two rows on a tile of their own (R = 2, 8 vectors of columns): on
// R = 4, half its FMAs on rows never stored, they read 0.84–0.88× of the
// column-grouped tiles (2×128×200, 2×1000×100), whose packed op(A) holds
// each element G times. Zen 5, 1 thread, against those (pinned, old / new
// alternating, operands 64-byte aligned | 16 bytes off, as malloc leaves
// them): sgemm TT / NT 2×64×64 1.88 / 1.50 | 1.23 / 1.17, NT 2×200×200
// 1.07 | 1.40, 2×8×2000 1.68 | 2.46, 2×16×16 1.37 | 1.52, 2×1000×100 1.02 |
// 0.95; as the tail of a direct product (row_vec_tail, m % 32 = 2) NT 34³
// 1.08 | 1.16. f64's two rows stay on the column-grouped tiles: the 2-row
// tile loads one vector of B per 2 FMAs, and with B's rows off a line
// those loads split (dgemm NT 2×64×64 240 → 403 ns; the others' tiles
// moved ≤ 1.05×) — 0.73–0.96× of them at 64–1000 columns, though 1.12–1.73×
// aligned.
template <class A>
constexpr bool row_vec(int64_t m) {
  return m >= 1 && m <= kRowVecRows && (m != 2 || two_row_tile<A>);
}
// The row-vector tile for m rows, row_vec(m): f(integral_constant R), R the
// smallest of 1, 2 (f32), 4, 8 that holds m. (constexpr: cols_n_rows asks
// it too.)
template <class A, class F>
constexpr inline __attribute__((always_inline)) void by_row_vec(int64_t m, F f) {
  if (m == 1) return f(std::integral_constant<int, 1>{});
  if constexpr (two_row_tile<A>)
    if (m == 2) return f(std::integral_constant<int, 2>{});
  if (m > 4) return f(std::integral_constant<int, 8>{});
  f(std::integral_constant<int, 4>{});
}
// The m (bits) whose row-vector tile reads op(A) in place without reading
// past row m: run_cols_n takes them.
template <class A>
constexpr unsigned cols_n_rows() {
  unsigned bits = 0;
  for (int m = 1; m <= kRowVecRows; ++m) {
    bool in_place = false;
    by_row_vec<A>(m, [&](auto r) { in_place = RowVec<A, r>::rows_in_place(m); });
    if (row_vec<A>(m) && in_place) bits |= 1u << m;
  }
  return bits;
}
static_assert(cols_n_rows<AF64>() >> 1 & 1u, "a compile-time mask; one row's tile reads only that row");

// Row-stacked k-grouped tiles: R rows of op(A), each in vectors of its own
// — lane c of accumulator (j, r) sums A(r, l)·B(l, j) over l % W == c, all
// W lanes of a vector one element's k-steps. Where KGroup's H = 4 rows × G
// = 2 steps take f64's 4 rows, each FMA waits on a 16-byte broadcast of B,
// which Zen 5 issues at half the rate of the 8-byte one (dgemm 4×200×200
// at 55 % of peak); here B's column comes in as a plain 64-byte load, shared
// by the R rows' FMAs. The W partial sums are folded at write-back
// (fold_lanes, W / R columns' R rows to a vector), so a tile's sums differ
// from KGroup's in order: the shape alone picks the tile. R = 4 (f64's 3–4
// rows, packed; TN's blocks of rows in place) and 1 (f32's one row), 8
// (TN's blocks of rows with 1–2 columns, in place); in place also 1 and 2
// (TN with one or two rows).
template <class A, int R>
struct RGroup {
  using T = typename A::T;
  using vec = typename A::vec;
  static constexpr int W = A::W, CPV = W / R;  // columns per folded vector
  static constexpr unsigned kAll = (1u << W) - 1u;
  // A multiple of W (blocks start on a group); R·128 elements of A, 4 KiB in
  // f64 (dgemm 4×200×512: 91 GF/s, KC 256 82; 4×200×2000 unblocked 0.84×
  // KGroup's speed, blocked 0.95–1.02×). One row is not blocked (one_row).
  static constexpr int64_t kKc = R == 1 ? int64_t(1) << 40 : 128;

  // Where the tiles read row r's group s of W k-steps, starting at step l
  // (`rest` of them in the last, partial group): packed (pack_a's layout,
  // zeros past k; l = s·W), or in place (RowPointers) from step l, masked
  // past k.
  struct Packed {
    static constexpr bool kInPlace = false;
    const T *p;
    __m512i group(int r, int64_t s, int64_t, int) const { return _mm512_loadu_si512(p + (s * R + r) * W); }
  };
  struct Rows : RowPointers<T, R> {
    static constexpr bool kInPlace = true;
    using RowPointers<T, R>::RowPointers;
    __m512i group(int r, int64_t, int64_t l, int rest) const { return Whole<A>::bcast(this->r[r] + l, rest); }
  };

  // C[0:m, 0:n] of one tile of NC columns, n <= NC (Full: n == NC); columns
  // >= n alias column n - 1 (valid memory, results discarded). NC < CPV
  // (one column where a folded vector holds two): the fold's other
  // columns are zero vectors, never added to a stored lane.
  template <int NC, bool Full, class Src>
  static inline __attribute__((always_inline)) void tile(int64_t k, T alpha, const Src &ap, const T *__restrict b,
                                                         int64_t ldb, T beta, T *c, int64_t ldc, int m, int n) {
    static_assert(NC % CPV == 0 || NC < CPV, "columns are written back CPV at a time");
    vec acc[NC][R];
#pragma GCC unroll 32
    for (int j = 0; j < NC; ++j)
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) acc[j][r] = A::zero();
    int64_t boff[NC];
#pragma GCC unroll 32
    for (int j = 0; j < NC; ++j) boff[j] = (Full || j < n ? j : n - 1) * ldb;
    // The 8 × 2 tile on op(A) in place keeps each row's vector in a register
    // for both columns' FMAs (the empty asm on a scalar: on the array
    // element GCC stored the vectors to the stack every step). Without it
    // GCC folded the load into each FMA: 16 loads of op(A) per 16 FMAs, each
    // split across two lines where rows are not 64 bytes apart. Not on the
    // other tiles: on the 4 × 4 GCC then folded B's loads instead, and with
    // both kept in registers it read 0.93–0.94× (Zen 5, sgemm / dgemm TN
    // 100×4×100, 200×4×200); the 8 × 1 has one FMA per load either way
    // (0.78–0.90× with it).
    constexpr bool kKeep = Src::kInPlace && NC == 2;
    // The last group shifted to end at k (below): the same tile, as measured.
    constexpr bool kShiftLast = Src::kInPlace && NC == 2;
    // lanes: where the FMAs add (the others' sums kept as they are).
    const auto step = [&](int64_t s, int64_t l, int rest, unsigned lanes) __attribute__((always_inline)) {
      vec av[R];
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
        vec x = A::cast(ap.group(r, s, l, rest));
        if constexpr (kKeep) asm("" : "+v"(x));
        av[r] = x;
      }
#pragma GCC unroll 32
      for (int j = 0; j < NC; ++j) {
        const vec bj = A::cast(Whole<A>::bcast(b + boff[j] + l, rest));
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r)
          acc[j][r] = lanes == kAll ? A::fmadd(av[r], bj, acc[j][r]) : A::fmadd_lanes(av[r], bj, acc[j][r], lanes);
      }
    };
    const int64_t steps = k / W;
    for (int64_t s = 0; s < steps; ++s) step(s, s * W, W, kAll);
    if (const int rest = int(k - steps * W)) {
      // The last k % W steps. On the 8 × 2 tile past the first group: the
      // top lanes of the group ending at k (steps k - W .. k - 1), plain
      // loads inside the rows and B's column, the lanes below (steps already
      // summed) left as they are — 1.04–1.07× the masked loads of a partial
      // group with the loads kept in registers (sgemm TN 40×2×50 to
      // 200×2×200); on the 4 × 4 tile 0.88–0.92× (sgemm TN 100×3×100).
      // Otherwise B's missing steps load as zeros, as A's are packed or
      // loaded (nothing read past a column's end).
      if (kShiftLast && steps > 0) step(steps, k - W, W, kAll & ~((1u << (W - rest)) - 1u));
      else step(steps, steps * W, rest, kAll);
    }
    const vec va = A::set1(alpha), vb = A::set1(beta);
#pragma GCC unroll 16
    for (int j = 0; j < NC; j += CPV) {
      if (!Full && j >= n) break;
      vec f[W];
#pragma GCC unroll 16
      for (int q = 0; q < W; ++q) f[q] = j + q / R < NC ? acc[j + q / R][q % R] : A::zero();
      ColumnsOut<A, CPV>::write(A::fold_lanes(f), va, beta, vb, c + j * ldc, ldc, m,
                                Full ? std::min(CPV, NC - j) : int(std::min<int64_t>(CPV, n - j)));
    }
  }

  // Group s holds R vectors: row r's k-steps s·W .. s·W + W - 1 (zeros
  // past k and in rows >= m).
  static void pack_a(int64_t m, int64_t k, const T *a, int64_t rs, int64_t cs, T *ap) {
    if constexpr (W == 8 && R == 4)
      if (rs == 1 && cs != 1) return pack_columns(m, k, a, cs, ap);
    const int64_t steps = (k + W - 1) / W;
    for (int64_t s = 0; s < steps; ++s)
      for (int r = 0; r < R; ++r) {
        T *v = ap + (s * R + r) * W;
        const int64_t l0 = s * W, cnt = std::min<int64_t>(W, k - l0);
        if (r >= m) {
          std::fill(v, v + W, T(0));
        } else if (cs == 1) {  // a row of op(A) contiguous along k
          _mm512_storeu_si512(v, Whole<A>::bcast(a + r * rs + l0, int(cnt)));
        } else {
          for (int q = 0; q < W; ++q) v[q] = q < cnt ? a[r * rs + (l0 + q) * cs] : T(0);
        }
      }
  }

  // f64's 4 rows from contiguous columns (op N): each group's 8 columns of
  // 4 rows (one 32-byte load apiece, element-masked to m rows) transposed
  // in registers to the 4 rows' vectors of 8 steps, where pack_a's element
  // loop moved one element at a time (62 % of dgemm NN 4×4×256). The same
  // packed values. With the 4-column tail (walk_block), Zen 5, 1 thread,
  // pinned, builds alternating, dgemm NN 3–4 rows × n 2–64 × k 32–1000 (48
  // shapes): 1.43× geomean (1.07–2.23: 4×4×256 2.29, 4×8×256 1.72, 3×4×64
  // 1.63), 1.15× OpenBLAS in the same runs (0.95–1.68; was 0.51–0.83 at
  // 4 × 4–16 × 256).
  static void pack_columns(int64_t m, int64_t k, const T *a, int64_t cs, T *ap) {
    const __mmask8 rows = __mmask8((1u << std::min<int64_t>(m, R)) - 1u);
    // Row r of steps q0 .. q0 + 3 of the group at a, from 4 columns (lanes
    // of each step's rows) by two unpacks and a 128-bit permute per pair.
    const auto quarter = [&](const T *p, int cnt, __m256d (&row)[4]) __attribute__((always_inline)) {
      __m256d col[4];
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) col[q] = q < cnt ? _mm256_maskz_loadu_pd(rows, p + q * cs) : _mm256_setzero_pd();
      const __m256d t0 = _mm256_unpacklo_pd(col[0], col[1]), t1 = _mm256_unpackhi_pd(col[0], col[1]);
      const __m256d t2 = _mm256_unpacklo_pd(col[2], col[3]), t3 = _mm256_unpackhi_pd(col[2], col[3]);
      row[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
      row[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
      row[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
      row[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
    };
    for (int64_t l0 = 0; l0 < k; l0 += W) {
      const int cnt = int(std::min<int64_t>(W, k - l0));
      __m256d lo[4], hi[4];
      quarter(a + l0 * cs, cnt, lo);
      quarter(a + (l0 + 4) * cs, cnt - 4, hi);
      T *v = ap + l0 * R;  // group l0 / W: R vectors of W
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r)
        _mm512_storeu_si512(v + r * W, _mm512_maskz_inserti64x4(__mmask8(0xFF),
                                                                 _mm512_castsi256_si512(_mm256_castpd_si256(lo[r])),
                                                                 _mm256_castpd_si256(hi[r]), 1));
    }
  }

  // Whole tiles, then the rest on the narrowest tile that fits, the walk of
  // KGroup::run and CGroup::run_block written out again: one shared walk
  // taking the tiles as lambdas measured 4–7 % slower here (dgemm 3–4×200×200,
  // alternating builds) — GCC allocated the inlined tile's registers worse.
  // (walk_block: the same walk inlined into a caller's loop over blocks of
  // rows, rows_tn.)
  template <int NC, class Src>
  static inline __attribute__((always_inline)) void walk_block(int64_t k, T alpha, const Src &ap, const T *b,
                                                               int64_t ldb, T beta, T *c, int64_t ldc, int m,
                                                               int64_t n) {
    int64_t j = 0;
    for (; j + NC <= n; j += NC) tile<NC, true>(k, alpha, ap, b + j * ldb, ldb, beta, c + j * ldc, ldc, m, NC);
    const int rest = int(n - j);
    if (rest == 0) return;
    b += j * ldb;
    c += j * ldc;
    if constexpr (NC > CPV)
      if (rest <= CPV) return tile<CPV, false>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
    // f64's packed 4 × 6 with 3–4 columns left: a tile of 4, not 6 with two
    // aliased (dgemm NN 4×4×256 computed 6 columns for 4).
    if constexpr (NC > 4 && CPV < 4)
      if (rest <= 4) return tile<4, false>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
    tile<NC, false>(k, alpha, ap, b, ldb, beta, c, ldc, m, rest);
  }
  template <int NC, class Src>
  static void run_block(int64_t k, T alpha, const Src &ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc, int m,
                        int64_t n) {
    walk_block<NC>(k, alpha, ap, b, ldb, beta, c, ldc, m, n);
  }

  // Blocks of kKc k-steps over all columns (the first with beta, the others
  // adding to C), so the block's packed A stays in L1 across the tiles:
  // each tile reads R A vectors per group of W steps.
  template <int NC>
  static void run(int64_t k, T alpha, const T *ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc, int m,
                  int64_t n) {
    for (int64_t kb = 0; kb < k; kb += kKc)
      run_block<NC>(std::min(kKc, k - kb), alpha, Packed{ap + kb * R}, b + kb, ldb, kb == 0 ? beta : T(1), c, ldc, m,
                    n);
  }
};

// Row-stacked tiles with two columns per vector (TN with 3–6 columns, op(A)
// in place; run_rows_tn_pairs): 8 rows × 4 columns, each accumulator one
// row × two columns — its lower half column j's k-steps l .. l + H - 1, its
// upper half column j + 1's (H = W / 2) — op(A)'s H steps of a row
// broadcast to both halves, B's two columns' H steps side by side. Per
// group of H steps 8 loads of op(A), 4 of B and 16 FMAs, as the 4 × 4
// RGroup tile per W steps, but each fold sums half as many lanes per
// element of C (fold_pairs: f32 22 operations for 16 elements against
// fold_lanes's 45) and a block is 8 rows instead of 4. Columns >= n alias
// column n - 1 and rows >= m row m - 1 (read, never stored).
template <class A>
struct RPair {
  using T = typename A::T;
  using vec = typename A::vec;
  static constexpr int W = A::W, H = W / 2, R = 8, NP = 2, NC = 2 * NP;
  using Half = Chunk<A, H * int(sizeof(T))>;  // H elements, 32 bytes

  template <bool Full>
  static inline __attribute__((always_inline)) void tile(int64_t k, T alpha, const RowPointers<T, R> &ap,
                                                         const T *b, int64_t ldb, T beta, T *c, int64_t ldc, int m,
                                                         int n) {
    vec acc[NP][R];
#pragma GCC unroll 4
    for (int p = 0; p < NP; ++p)
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) acc[p][r] = A::zero();
    const T *bc[NC];
#pragma GCC unroll 4
    for (int j = 0; j < NC; ++j) bc[j] = b + (Full || j < n ? j : n - 1) * ldb;
    // `rest` (< H in the last group) steps; zeros above in op(A) and B.
    const auto step = [&](int64_t l, int rest) __attribute__((always_inline)) {
      vec bp[NP];
#pragma GCC unroll 4
      for (int p = 0; p < NP; ++p) {
        const __m256i lo = Half::load(bc[2 * p] + l, rest), hi = Half::load(bc[2 * p + 1] + l, rest);
        bp[p] = A::cast(_mm512_maskz_inserti64x4(__mmask8(0xFF), _mm512_castsi256_si512(lo), hi, 1));
      }
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
        const vec a = A::cast(Half::bcast(ap.r[r] + l, rest));
#pragma GCC unroll 4
        for (int p = 0; p < NP; ++p) acc[p][r] = A::fmadd(a, bp[p], acc[p][r]);
      }
    };
    const int64_t groups = k / H;
    for (int64_t g = 0; g < groups; ++g) step(g * H, H);
    if (const int rest = int(k - groups * H)) step(groups * H, rest);
    const vec va = A::set1(alpha), vb = A::set1(beta);
#pragma GCC unroll 4
    for (int p = 0; p < NP; ++p) {
      const int cols = Full ? 2 : std::min(2, n - 2 * p);
      if (!Full && cols <= 0) break;
#pragma GCC unroll 2
      for (int h = 0; h < R / H; ++h) {  // f64: rows 0–3, then 4–7 (H = 4 per vector)
        const int rows = std::min(H, m - h * H);
        if (rows <= 0) break;
        vec f[H];
#pragma GCC unroll 8
        for (int q = 0; q < H; ++q) f[q] = acc[p][h * H + q];
        ColumnsOut<A, 2>::write(A::fold_pairs(f), va, beta, vb, c + 2 * p * ldc + h * H, ldc, rows, cols);
      }
    }
  }

  // The last 1–2 columns (NC2) on the 8 × 1 / 8 × 2 RGroup tile rather than
  // a tile computing 4. Apart: with the RGroup tiles inlined into run GCC
  // compiled its loop of whole tiles worse (sgemm TN 200×4×200 0.87×).
  template <int NC2>
  static __attribute__((noinline)) void few_columns(int64_t k, T alpha, const T *a, int64_t lda, const T *b,
                                                    int64_t ldb, T beta, T *c, int64_t ldc, int rows) {
    using RG = RGroup<A, R>;
    RG::template tile<NC2, true>(k, alpha, typename RG::Rows(a, lda, rows), b, ldb, beta, c, ldc, rows, NC2);
  }

  // Blocks of 8 rows of op(A) (row i at a + i·lda), each over C's columns
  // in tiles of 4, the last tile partial (1–2 columns: few_columns).
  static void run(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c, int64_t ldc,
                  int64_t m, int64_t n) {
    for (int64_t i = 0; i < m; i += R) {
      const int rows = int(std::min<int64_t>(R, m - i));
      const RowPointers<T, R> ap(a + i * lda, lda, rows);
      int64_t j = 0;
      for (; j + NC <= n; j += NC) tile<true>(k, alpha, ap, b + j * ldb, ldb, beta, c + i + j * ldc, ldc, rows, NC);
      const T *bj = b + j * ldb;
      T *cj = c + i + j * ldc;
      if (n - j == 1) few_columns<1>(k, alpha, a + i * lda, lda, bj, ldb, beta, cj, ldc, rows);
      else if (n - j == 2) few_columns<2>(k, alpha, a + i * lda, lda, bj, ldb, beta, cj, ldc, rows);
      else if (j < n) tile<false>(k, alpha, ap, bj, ldb, beta, cj, ldc, rows, int(n - j));
    }
  }
};

// Rows stacked (RGroup, 4 rows) instead of KGroup's lanes: f64 with 3 or 4
// rows and at least 4 groups of W k-steps, below which the fold's shuffles
// outweigh the full-rate loads (Zen 5, 1 thread, dgemm 4×200×k against
// KGroup: k = 16 0.92×, 24 0.99×, 32 1.07×, 48 1.11×, 200 1.32×, 2000
// 0.95–1.02×). f32's 4 rows keep KGroup's G = 4: a 4-row × 4-column
// RGroup tile (16 FMAs per 8 loads, a 4-level fold per 16 elements) read
// 0.83–0.96× of it at k >= 200 (1.10× at 4×200×96, 3×200×200).
template <class A>
constexpr bool rows_stacked(int64_t m, int64_t k) {
  return A::W == 8 && (m == 3 || m == 4) && k >= 4 * A::W;
}
// f32 with one row: RGroup's 1 × 16 tile (16 k-steps per FMA; KGroup's
// 2 rows × 8 steps leave the second row's 8 lanes padding), unblocked in k
// (one row of A stays in L1; 128-step blocks cut the 16 B column streams
// short: 1×200×2000 0.82×). 1 thread against KGroup: 1×64×64 1.40×,
// 1×64×256 1.25×, 1×200×200 1.08×, 1×200×1500 1.09×, 1×1000×1000 1.04×,
// 1×64×4000 1.13×; from k = 2000 at n = 200 (B's 16 columns, 8–16 KB apart,
// streaming from L3) 0.88–0.94×, hence k <= 1536.
template <class A>
constexpr bool one_row(int64_t m, int64_t k) {
  return A::W == 16 && m == 1 && k >= 4 * A::W && k <= 1536;
}
// f64: 4 rows × 6 columns, 24 accumulators; per group of 8 k-steps 4 A
// loads, 6 B loads, 24 FMAs. (f32's one row: 16 columns.)
constexpr int kRgNc = 6;

// The group size for m rows: the largest G (at most 8) with W / G >= m.
template <class A>
constexpr int group_of(int64_t m) {
  return m <= A::W / 8 ? 8 : m <= A::W / 4 ? 4 : 2;
}

// 16 columns: 16 accumulators, twice the FMA latency × pipes (4 cycles × 2)
// in flight; per group of k-steps one A vector and 16 broadcasts.
constexpr int kNr = 16;

// The table's entries: the tile for m's group size (f(integral_constant G)).
template <class A, class F>
inline __attribute__((always_inline)) void by_group(int64_t m, F f) {
  switch (group_of<A>(m)) {
    case 8: return f(std::integral_constant<int, 8>{});
    case 4: return f(std::integral_constant<int, 4>{});
    default: return f(std::integral_constant<int, 2>{});
  }
}

template <class A>
struct KGroupEntry {
  using T = typename A::T;
  static void pack_a(int64_t m, int64_t k, const T *a, int64_t rs, int64_t cs, T *ap) {
    if constexpr (A::W == 8)
      if (rows_stacked<A>(m, k)) return RGroup<A, 4>::pack_a(m, k, a, rs, cs, ap);
    if constexpr (A::W == 16)
      if (one_row<A>(m, k)) return RGroup<A, 1>::pack_a(m, k, a, rs, cs, ap);
    by_group<A>(m, [&](auto g) { KGroup<A, g>::pack_a(m, k, a, rs, cs, ap); });
  }
  static void run(int64_t k, T alpha, const T *ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc, int64_t m,
                  int64_t n, int64_t) {
    if constexpr (A::W == 8)
      if (rows_stacked<A>(m, k)) return RGroup<A, 4>::template run<kRgNc>(k, alpha, ap, b, ldb, beta, c, ldc, int(m), n);
    if constexpr (A::W == 16)
      if (one_row<A>(m, k)) return RGroup<A, 1>::template run<16>(k, alpha, ap, b, ldb, beta, c, ldc, int(m), n);
    by_group<A>(m, [&](auto g) { KGroup<A, g>::template run<kNr>(k, alpha, ap, b, ldb, beta, c, ldc, int(m), n); });
  }
  static void pack_a_cols(int64_t m, int64_t k, const T *a, int64_t rs, int64_t cs, T *ap) {
    if (row_vec<A>(m)) return by_row_vec<A>(m, [&](auto r) { RowVec<A, r>::pack_a(m, k, a, rs, cs, ap); });
    by_group<A>(m, [&](auto g) { CGroup<A, g>::pack_a(m, k, a, rs, cs, ap); });
  }
  static void run_cols(int64_t k, T alpha, const T *ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc, int64_t m,
                       int64_t n, int64_t n_all) {
    if (row_vec<A>(m))
      return by_row_vec<A>(m, [&](auto r) { RowVec<A, r>::run(k, alpha, ap, b, ldb, beta, c, ldc, int(m), n, n_all); });
    by_group<A>(m, [&](auto g) { CGroup<A, g>::template run<kNr>(k, alpha, ap, b, ldb, beta, c, ldc, int(m), n); });
  }
  // run_cols's row-vector tiles with op(A)'s columns read in place, where
  // they read no row past m (cols_n_rows); no pack. Packing 4 × 2000 f32
  // (a masked load and store per k-step) was 30 % of sgemm NT 4×16×2000.
  static void run_cols_n(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,
                         int64_t ldc, int64_t m, int64_t n, int64_t n_all) {
    by_row_vec<A>(m, [&](auto r) { RowVec<A, r>::run_in_place(k, alpha, a, lda, b, ldb, beta, c, ldc, int(m), n, n_all); });
  }
  // op(A)'s rows contiguous (op T), any m: the row-vector tiles on blocks of
  // kRowVecRows rows read in place, the last block on the tile for its rows.
  // Blocks of k outermost: B's block stays in L2 across the row blocks.
  static void run_rows_t(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,
                         int64_t ldc, int64_t m, int64_t n, int64_t n_all) {
    int64_t kc = k;  // as RowVec::run, by the first block's tile
    by_row_vec<A>(std::min<int64_t>(m, kRowVecRows), [&](auto r) { kc = RowVec<A, r>::k_block(k, n_all); });
    for (int64_t kb = 0; kb < k; kb += kc) {
      const int64_t kn = std::min(kc, k - kb);
      const T be = kb == 0 ? beta : T(1);
      for (int64_t i = 0; i < m; i += kRowVecRows) {
        const int rows = int(std::min<int64_t>(kRowVecRows, m - i));
        by_row_vec<A>(rows, [&](auto r) {
          RowVec<A, r>::run_rows(kn, alpha, a + i * lda + kb, lda, b + kb * ldb, ldb, be, c + i, ldc, rows, n);
        });
      }
    }
  }
  // op(A)'s rows contiguous (op T) and op(B)'s columns (op N), any m, few
  // columns: the row-stacked tiles read in place (each row's W k-steps one
  // plain load, as B's column) on blocks of 8 rows × 1–2 columns or 4 rows
  // × tiles of 4, the last block clamped to its rows; k unblocked (at most
  // 3 tiles re-read a block's rows, from L2: 128-step blocks folded and
  // wrote back C 16 times at k = 2000; from 16 columns the re-reads lose,
  // dgemm TN 200×32×2000 0.71× the main tiles).
  template <int R, int NC>
  static void rows_tn(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,
                      int64_t ldc, int64_t m, int64_t n) {
    using RG = RGroup<A, R>;
    for (int64_t i = 0; i < m; i += R) {
      const int rows = int(std::min<int64_t>(R, m - i));
      const typename RG::Rows ap(a + i * lda, lda, rows);
      // The walk inlined into this loop (its set-up once per call, not per
      // block of rows; Zen 5, 1 thread, builds alternating: sgemm TN 64×4×64
      // 1.18×, 100×4×100 1.11, 2 columns 1.03–1.11) but for f64's 4 × 4 and
      // 8 × 1 tiles: GCC then kept the 4 × 4's accumulators on the stack
      // (dgemm TN 100×4×100 / 200×4×200 0.93 / 0.85×).
      // (f64's 4 × 2 out of line too: inlined, GCC kept an accumulator on
      // the stack, dgemm TN 2×2×1000 555 ns against 190.)
      if constexpr (A::W == 16 || (NC == 2 && R == 8))
        RG::template walk_block<NC>(k, alpha, ap, b, ldb, beta, c + i, ldc, rows, n);
      else
        RG::template run_block<NC>(k, alpha, ap, b, ldb, beta, c + i, ldc, rows, n);
    }
  }
  static void run_rows_tn(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,
                          int64_t ldc, int64_t m, int64_t n, int64_t n_all) {
    // At most 4 rows (the whole call, or the last unit of rows of one) on
    // blocks no taller than they need: the 8- and 4-row blocks computed
    // their aliased rows too (sgemm TN 1×2×1000 16 columns' FMAs for 2).
    // Each row's sums are its own vectors, folded alike whatever R, so a
    // row gets the same bits on any of these tiles — given the same column
    // count for one and two columns (the 2-column tile shifts its last
    // partial group of steps, the others pad it: n_all alone chooses).
    if (m == 1) {
      if (n_all == 1) return rows_tn<1, 1>(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
      if (n_all == 2) return rows_tn<1, 2>(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
      if (n_all <= 4) return rows_tn<1, 4>(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
      return rows_tn<1, 8>(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
    }
    if (m <= 4 && n_all <= 2) {
      if (n_all == 1) return rows_tn<4, 1>(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
      return rows_tn<4, 2>(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
    }
    if (m == 2) return rows_tn<2, 4>(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
    // One column: 8 FMA chains (the 4-cycle latency × 2 pipes), 8 loads of
    // op(A) and one of B per group of W steps, where the 2-column tile
    // computed the column twice (its second aliasing the first).
    if (n_all == 1) return rows_tn<8, 1>(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
    if (n_all <= 2) return rows_tn<8, 2>(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
    rows_tn<4, 4>(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
  }
  static void run_rows_tn_pairs(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,
                                int64_t ldc, int64_t m, int64_t n, int64_t) {
    RPair<A>::run(k, alpha, a, lda, b, ldb, beta, c, ldc, m, n);
  }
  // The whole call's rows × vectors of columns up to 4 (one row and 1–4
  // vectors, two and 1–2, 3–4 and one), op(B) = T: the split-chain tiles (RowSplit), op(A)'s columns (or
  // its one row) read in place at lda per step (run_split_cols) or its
  // rows at lda per row (run_split_rows).
  template <class F>
  static void by_split(int64_t m, int64_t n, F f) {
    using one = std::integral_constant<int, 1>;
    using two = std::integral_constant<int, 2>;
    if (m == 3) return f(std::integral_constant<int, 3>{}, one{});  // one vector of columns
    if (m == 4) return f(std::integral_constant<int, 4>{}, one{});
    if (m == 2) return n > A::W ? f(two{}, two{}) : f(two{}, one{});
    if (n <= A::W) return f(one{}, one{});  // one row: up to 4 vectors
    if (n <= 2 * A::W) return f(one{}, two{});
    if (n <= 3 * A::W) return f(one{}, std::integral_constant<int, 3>{});
    f(one{}, std::integral_constant<int, 4>{});
  }
  static void run_split_cols(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,
                             int64_t ldc, int64_t m, int64_t n, int64_t) {
    by_split(m, n, [&](auto rows, auto nv) {
      using RS = RowSplit<A, rows, nv>;
      RS::run(k, alpha, typename RS::Cols{a, lda}, b, ldb, beta, c, ldc, int(n));
    });
  }
  // The whole call's W/2 < m <= W rows and 1–4 columns, op(A) = N: the
  // split-chain column tiles (ColSplit), op(B)(l, j) at b[l·brs + j·bcs].
  static void run_col_split(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t brs, int64_t bcs,
                            T beta, T *c, int64_t ldc, int64_t m, int64_t n) {
    switch (n) {
      case 1: return ColSplit<A, 1>::run(k, alpha, a, lda, b, brs, bcs, beta, c, ldc, int(m));
      case 2: return ColSplit<A, 2>::run(k, alpha, a, lda, b, brs, bcs, beta, c, ldc, int(m));
      case 3: return ColSplit<A, 3>::run(k, alpha, a, lda, b, brs, bcs, beta, c, ldc, int(m));
      default: return ColSplit<A, 4>::run(k, alpha, a, lda, b, brs, bcs, beta, c, ldc, int(m));
    }
  }
  static void run_split_rows(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,
                             int64_t ldc, int64_t m, int64_t n, int64_t) {
    by_split(m, n, [&](auto rows, auto nv) {
      using RS = RowSplit<A, rows, nv>;
      RS::run(k, alpha, typename RS::Rows(a, lda, int(m)), b, ldb, beta, c, ldc, int(n));
    });
  }
};

}  // namespace

// RPair (3–4 columns) from 40 rows, or one block of 5–8: with 9–32 rows
// (but for the rule below) the 4 × 4 RGroup tile's 4-row blocks waste
// fewer rows and its loop does fewer operations per FMA (Zen 5, 1 thread, builds alternating, RPair's
// time ÷ the 4 × 4's: sgemm / dgemm TN 9×4×64 1.15 / 1.10, 12×4×64 1.12 /
// 1.09, 16×4×500 1.07 / 1.08, 32×4×500 1.03 / 0.99; from 40 rows 0.70–0.99,
// 8×4×2000 0.86 / 0.95).
constexpr int kTnPairMinM = 40;
// Between them, where the last block of 8 holds 5–8 rows, up to 128 steps:
// the 4 × 4's fold is the larger share at small k (same method, speed ÷
// the 4 × 4's, sgemm / dgemm TN 16×4×48 1.11 / 1.20, 24×4×48 1.12 / 1.20,
// 32×4×64 1.10–1.15 / 1.16–1.17, 13×4×128 1.22 / 1.02, 16×3×64 1.15 /
// 1.09, 21×3×100 1.10 / 1.06, 16×5×64 1.37 / 1.15; at 200 steps 0.93–1.13,
// 16×4×300 0.99 / 0.88, 13×4×500 0.92 / 0.93; a last block of 1–4 rows:
// 20×4×128 0.87 / 0.85, 12×4×64 0.92).
constexpr int64_t kTnPairMidMaxK = 128;
// And more columns (tn_pair_cols: f32 6, f64 5) with the rows as for 3–4
// but at least 5: tiles of 4, the last 1–2 columns on the 8 × 1 / 8 × 2
// RGroup tile (few_columns) — the 4 × 4's blocks computed a whole second
// tile for them. 5 columns from 48 (f32) / 40 (f64) steps (the 4 × 4 took
// them from 128 / 64, the main tiles below), 6 from 128. Zen 5, 1 thread,
// builds alternating, speed ÷ before, operands 64-byte aligned | 16 bytes
// off a line (malloc's): sgemm TN 64×5×64 0.95–0.97 | 1.04–1.14, 100×5×64
// 1.38 | 1.39, 200×5×200 1.24 | 1.26–1.43, 1000×5×64 1.21 | 1.15–1.30,
// 8×5×48 1.31 | 1.12–1.20, 5×5×64 1.43 | 1.36, 64×6×128 1.26 | 1.08–1.23,
// 200×6×200 1.33 | 1.28–1.34; dgemm 64×5×64 1.01–1.04 | 1.12–1.14,
// 200×5×200 1.02 | 1.10–1.15, 1000×5×64 1.07 | 1.14–1.28, 200×5×48 1.37,
// 8×5×48 1.47 | 1.30–1.34. Lost: f32 3–4 rows (one 4-row block against
// 8: 3×5×128 0.73, 4×5×1000 0.62), f64 5 columns at k = 32 (48 / 64 rows
// 0.87–0.91), f32 6 columns below 128 steps (64×6×64 0.96), f32 7–8 at
// 128 steps (64×8×128 0.94, 100×7×128 0.97). f64 6–10 columns gained off
// a line (1.02–1.15) but lost aligned (64×6×128 0.95–0.97, 200×6×200 0.98,
// 64×8×64 0.88–0.92, 200×8×200 0.84, 64×10×64 0.89): the 4 × 4's 64-byte
// loads split across lines there, the tiles of pairs' 32-byte ones half
// as often. With the last columns' tiles inlined into RPair::run its loop
// of whole tiles ran slower (sgemm TN 200×4×200 0.87×, 200×8×200 0.77–0.90×).

// Few rows (at most 16; 8 until session 54) below the k floors: the row-stacked tiles in
// place from 16 steps (past 4 columns with 5–16 rows from 32), where the
// few-row tiles packed op(A) first (a quarter of dgemm TN 4×4×64) —
// OpenBLAS's small TN kernel is this 4 × 4 of k-grouped sums. And f64's
// 2–4 rows on them at the floors above instead of packed (the table's row
// floor was f32 2, f64 5); 1–4 rows off the tiles of pairs (whose 8-row blocks computed
// twice the rows: dgemm TN 4×4×256 275 → 107 ns). Zen 5, 1 thread, pinned,
// builds alternating in one process, speed ÷ before over m 2–8 × n 2–12 ×
// k 16–1000: f64 2–4 rows geomean 1.51 (1.07–3.06: 4×4×64 1.95, 4×4×1000
// 3.06, 2×4×64 1.53, 4×12×32 1.40), 6–8 rows 1.03 (6×8×32 1.24, 8×2×16
// 1.74); f32 2–4 rows 1.27 (0.95–2.15: 4×4×64 1.45, 2×12×64 1.79), 6–8
// rows 1.08 (0.94–1.61). One row (no row floor since) and 2–4 rows with 1–2
// columns then on blocks of their own height (run_rows_tn), where 4- and
// 8-row blocks (f32's one row: the packed 1 × 16) computed rows or columns
// for nothing (f64 1×8×256 0.82 on the 4 × 4). Both changes, same method
// over m 1–8 × n 1–12 × k 16–1000 (300 shapes): geomean 1.48 (0.93–6.35);
// f64 one row 1.92 (1×2×1000 3.3), 2–4 rows 2.07 (2×2×1000 1.7, 4×4×1000
// 3.1), 6–8 rows 1.03; f32 one row 1.94 (1×2×1000 4.1), 2–4 rows 1.40, 6–8
// rows 1.07 (unchanged tiles: 0.93–1.07 run to run). Against OpenBLAS in
// the same runs geomean 1.04 (0.55–3.43; at k = 16 2.1–2.3, at 32–256
// 0.80–0.88: ~20 ns more fixed cost per call).
// 9–16 rows as well (session 54): below the floors they had packed op(A)
// transposed for the main tiles' 32-row panel (a third of sgemm TN
// 12×2×32, 112 ns against OpenBLAS's 33). Same method, speed ÷ before
// over m ∈ {9, 12, 16} × n ∈ {1, 2, 4, 8} × k ∈ {16, 32, 64}: 1.16
// (0.93–2.43; f32 9–12 × 2–4 × 32 1.84–2.43, k = 16 with 2 columns
// 1.60–1.84; unchanged shapes 0.97–1.03, dgemm 16×8×32 0.93).
constexpr int kTnFewRows = 16;
constexpr int64_t kTnFewRowsMinK = 16;

// The split-chain tiles (RowSplit) for calls of at most 4 rows × vectors
// of columns (3 rows count as 4) with op(B) = T, from 17 steps
// (below: the tiny kernel up to 12 columns, the other tiles past it, so
// every product of at most 16 steps keeps the main tiles' bits).
constexpr int kSplitRowVectors = 4;
// ColSplit: at most 4 columns (each its chains; 8 in flight at 1–4).
constexpr int kSplitCols = 4;
constexpr int64_t kSplitMinK = 17;

const KGroupKernels<float> kF32KGroup = {"f32_gemm_{8,4,2}x16k{2,4,8}+{1x16,8x2,4x4}k16+8x4k8p+{1,2,4,8}x16r"
                                         "+{1,2,3,4}x16,{1,2}x32,1x{48,64}s__avx512",
                                         8, kRowVecRows, 0, kNr, 32, 128, 16, 64, 16, 16, 48,
                                         &KGroupEntry<AF32>::pack_a, &KGroupEntry<AF32>::run,
                                         &KGroupEntry<AF32>::pack_a_cols, &KGroupEntry<AF32>::run_cols,
                                         &KGroupEntry<AF32>::run_rows_t,
                                         &KGroupEntry<AF32>::run_rows_tn, 12, 128, 12, 4, 48, 16,
                                         &KGroupEntry<AF32>::run_cols_n, cols_n_rows<AF32>(),
                                         RowVec<AF32, 1>::kKc,
                                         &KGroupEntry<AF32>::run_rows_tn_pairs, RPair<AF32>::R, kTnPairMinM,
                                         6, 48, kTnPairMidMaxK, kTnFewRows, kTnFewRowsMinK,
                                         &KGroupEntry<AF32>::run_split_cols, &KGroupEntry<AF32>::run_split_rows,
                                         kSplitRowVectors, kSplitMinK, &KGroupEntry<AF32>::run_col_split, kSplitCols};
const KGroupKernels<double> kF64KGroup = {"f64_gemm_{4,2,1}x16k{2,4,8}+{4x6,8x2,4x4}k8+8x4k4p+{1,4,8}x8r"
                                          "+{1,2,3,4}x8,{1,2}x16,1x{24,32}s__avx512",
                                          4, kRowVecRows, kF64WideCols, kNr, 64, 64, 1, 32, 8, 0, 0,
                                          &KGroupEntry<AF64>::pack_a, &KGroupEntry<AF64>::run,
                                          &KGroupEntry<AF64>::pack_a_cols, &KGroupEntry<AF64>::run_cols,
                                          &KGroupEntry<AF64>::run_rows_t,
                                          &KGroupEntry<AF64>::run_rows_tn, 12, 64, 12, 4, 32, 8,
                                          &KGroupEntry<AF64>::run_cols_n, cols_n_rows<AF64>(),
                                          RowVec<AF64, 1>::kKc,
                                          &KGroupEntry<AF64>::run_rows_tn_pairs, RPair<AF64>::R, kTnPairMinM,
                                          5, 40, kTnPairMidMaxK, kTnFewRows, kTnFewRowsMinK,
                                          &KGroupEntry<AF64>::run_split_cols, &KGroupEntry<AF64>::run_split_rows,
                                          kSplitRowVectors, kSplitMinK, &KGroupEntry<AF64>::run_col_split, kSplitCols};

}  // namespace tessera::dense::avx512
