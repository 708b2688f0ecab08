// Sparse kernels for AVX2 + FMA3 (+F16C), compiled with those flags and
// reached only when the CPU has them.
#include <immintrin.h>

// GCC 12 flags the gathers' deliberately undefined pass-through operand.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "sparse/kernels/sparse_kernels.h"

namespace tessera::sparse::avx2 {

constexpr bool kHasFma = true;
#include "sparse/kernels/sparse_template.inc"

// ---- gathers ------------------------------------------------------------------
// Gather<T, I>: W lanes of y[idx - base] for one index width and value type;
// the index vector is rebased first, so no pointer ever points before y.
// Lane masks: the first n lanes set.
inline __m256i lanes8(int n) { return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); }
inline __m128i lanes4x32(int n) { return _mm_cmpgt_epi32(_mm_set1_epi32(n), _mm_setr_epi32(0, 1, 2, 3)); }
inline __m256i lanes4x64(int n) { return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3)); }

template <class T, class I>
struct Gather;

template <>
struct Gather<float, int32_t> {
  using V = __m256;
  static constexpr int W = 8;
  static V zero() { return _mm256_setzero_ps(); }
  static V load(const float *p) { return _mm256_loadu_ps(p); }
  static V gather(const float *y, const int32_t *c, int64_t base) {
    const __m256i i = _mm256_sub_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(c)),
                                       _mm256_set1_epi32(int32_t(base)));
    return _mm256_i32gather_ps(y, i, 4);
  }
  static V madd(V acc, V a, V b) { return _mm256_fmadd_ps(a, b, acc); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  // v[j] * y[c[j] - base] in the first n < W lanes, 0 in the others; masked
  // loads and gathers touch nothing beyond the n entries.
  static V tail_product(const float *v, const int32_t *c, const float *y, int64_t base, int n) {
    const __m256i m = lanes8(n);
    const __m256i i = _mm256_sub_epi32(_mm256_maskload_epi32(c, m), _mm256_set1_epi32(int32_t(base)));
    const V g = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), y, i, _mm256_castsi256_ps(m), 4);
    return _mm256_mul_ps(_mm256_maskload_ps(v, m), g);
  }
  static float sum(V v) {  // fixed pairwise order
    __m128 h = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    h = _mm_add_ps(h, _mm_movehl_ps(h, h));
    h = _mm_add_ss(h, _mm_movehdup_ps(h));
    return _mm_cvtss_f32(h);
  }
};

template <>
struct Gather<float, int64_t> {
  using V = __m128;
  static constexpr int W = 4;
  static V zero() { return _mm_setzero_ps(); }
  static V load(const float *p) { return _mm_loadu_ps(p); }
  static V gather(const float *y, const int64_t *c, int64_t base) {
    const __m256i i = _mm256_sub_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(c)), _mm256_set1_epi64x(base));
    return _mm256_i64gather_ps(y, i, 4);
  }
  static V madd(V acc, V a, V b) { return _mm_fmadd_ps(a, b, acc); }
  static V add(V a, V b) { return _mm_add_ps(a, b); }
  static V tail_product(const float *v, const int64_t *c, const float *y, int64_t base, int n) {
    const __m128i m = lanes4x32(n);
    const __m256i i = _mm256_sub_epi64(_mm256_maskload_epi64(reinterpret_cast<const long long *>(c), lanes4x64(n)),
                                       _mm256_set1_epi64x(base));
    const V g = _mm256_mask_i64gather_ps(_mm_setzero_ps(), y, i, _mm_castsi128_ps(m), 4);
    return _mm_mul_ps(_mm_maskload_ps(v, m), g);
  }
  static float sum(V h) {
    h = _mm_add_ps(h, _mm_movehl_ps(h, h));
    h = _mm_add_ss(h, _mm_movehdup_ps(h));
    return _mm_cvtss_f32(h);
  }
};

struct GatherF64 {
  using V = __m256d;
  static constexpr int W = 4;
  static V zero() { return _mm256_setzero_pd(); }
  static V load(const double *p) { return _mm256_loadu_pd(p); }
  static V madd(V acc, V a, V b) { return _mm256_fmadd_pd(a, b, acc); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
  static double sum(V v) {
    __m128d h = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    h = _mm_add_sd(h, _mm_unpackhi_pd(h, h));
    return _mm_cvtsd_f64(h);
  }
};
template <>
struct Gather<double, int32_t> : GatherF64 {
  static V gather(const double *y, const int32_t *c, int64_t base) {
    const __m128i i = _mm_sub_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(c)), _mm_set1_epi32(int32_t(base)));
    return _mm256_i32gather_pd(y, i, 8);
  }
  static V tail_product(const double *v, const int32_t *c, const double *y, int64_t base, int n) {
    const __m256i m = lanes4x64(n);
    const __m128i i = _mm_sub_epi32(_mm_maskload_epi32(c, lanes4x32(n)), _mm_set1_epi32(int32_t(base)));
    const V g = _mm256_mask_i32gather_pd(_mm256_setzero_pd(), y, i, _mm256_castsi256_pd(m), 8);
    return _mm256_mul_pd(_mm256_maskload_pd(v, m), g);
  }
};
template <>
struct Gather<double, int64_t> : GatherF64 {
  static V gather(const double *y, const int64_t *c, int64_t base) {
    const __m256i i = _mm256_sub_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(c)), _mm256_set1_epi64x(base));
    return _mm256_i64gather_pd(y, i, 8);
  }
  static V tail_product(const double *v, const int64_t *c, const double *y, int64_t base, int n) {
    const __m256i m = lanes4x64(n);
    const __m256i i = _mm256_sub_epi64(_mm256_maskload_epi64(reinterpret_cast<const long long *>(c), m),
                                       _mm256_set1_epi64x(base));
    const V g = _mm256_mask_i64gather_pd(_mm256_setzero_pd(), y, i, _mm256_castsi256_pd(m), 8);
    return _mm256_mul_pd(_mm256_maskload_pd(v, m), g);
  }
};

// int32 values: products and sums wrap, as uint32 arithmetic does.
template <>
struct Gather<int32_t, int32_t> {
  using V = __m256i;
  static constexpr int W = 8;
  static V zero() { return _mm256_setzero_si256(); }
  static V load(const int32_t *p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)); }
  static V gather(const int32_t *y, const int32_t *c, int64_t base) {
    return _mm256_i32gather_epi32(y, _mm256_sub_epi32(load(c), _mm256_set1_epi32(int32_t(base))), 4);
  }
  static V madd(V acc, V a, V b) { return _mm256_add_epi32(acc, _mm256_mullo_epi32(a, b)); }
  static V add(V a, V b) { return _mm256_add_epi32(a, b); }
  static V tail_product(const int32_t *v, const int32_t *c, const int32_t *y, int64_t base, int n) {
    const __m256i m = lanes8(n);
    const __m256i i = _mm256_sub_epi32(_mm256_maskload_epi32(c, m), _mm256_set1_epi32(int32_t(base)));
    const V g = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), y, i, m, 4);
    return _mm256_mullo_epi32(_mm256_maskload_epi32(v, m), g);
  }
  static uint32_t sum(V v) {  // wrapping adds are associative: any order is exact
    __m128i h = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    h = _mm_add_epi32(h, _mm_unpackhi_epi64(h, h));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x55));
    return uint32_t(_mm_cvtsi128_si32(h));
  }
};
template <>
struct Gather<int32_t, int64_t> {
  using V = __m128i;
  static constexpr int W = 4;
  static V zero() { return _mm_setzero_si128(); }
  static V load(const int32_t *p) { return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)); }
  static V gather(const int32_t *y, const int64_t *c, int64_t base) {
    const __m256i i = _mm256_sub_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(c)), _mm256_set1_epi64x(base));
    return _mm256_i64gather_epi32(y, i, 4);
  }
  static V madd(V acc, V a, V b) { return _mm_add_epi32(acc, _mm_mullo_epi32(a, b)); }
  static V add(V a, V b) { return _mm_add_epi32(a, b); }
  static V tail_product(const int32_t *v, const int64_t *c, const int32_t *y, int64_t base, int n) {
    const __m128i m = lanes4x32(n);
    const __m256i i = _mm256_sub_epi64(_mm256_maskload_epi64(reinterpret_cast<const long long *>(c), lanes4x64(n)),
                                       _mm256_set1_epi64x(base));
    const V g = _mm256_mask_i64gather_epi32(_mm_setzero_si128(), y, i, m, 4);
    return _mm_mullo_epi32(_mm_maskload_epi32(v, m), g);
  }
  static uint32_t sum(V h) {
    h = _mm_add_epi32(h, _mm_unpackhi_epi64(h, h));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x55));
    return uint32_t(_mm_cvtsi128_si32(h));
  }
};

// Integer lanes of one index width in a 256-bit vector: AVX2 has no 64-bit
// min/max, hence the blends.
template <class I>
struct IdxLanes {
  static constexpr int L = 32 / int(sizeof(I));
  static __m256i splat(int64_t v) { return sizeof(I) == 4 ? _mm256_set1_epi32(int32_t(v)) : _mm256_set1_epi64x(v); }
  static __m256i gt(__m256i a, __m256i b) {
    if constexpr (sizeof(I) == 4) return _mm256_cmpgt_epi32(a, b);
    else return _mm256_cmpgt_epi64(a, b);
  }
  static __m256i min(__m256i a, __m256i b) {
    if constexpr (sizeof(I) == 4) return _mm256_min_epi32(a, b);
    else return _mm256_blendv_epi8(a, b, gt(a, b));
  }
  static __m256i max(__m256i a, __m256i b) {
    if constexpr (sizeof(I) == 4) return _mm256_max_epi32(a, b);
    else return _mm256_blendv_epi8(a, b, gt(b, a));
  }
  static __m256i load(const I *p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)); }
};

// Index range with AVX2 min/max, both index widths (this file is compiled
// without the loop vectorizer, which otherwise turns short scalar row loops
// into slow emulated gathers).
template <class I>
void index_range_avx2(const I *p, int64_t n, int64_t *mn, int64_t *mx) {
  using X = IdxLanes<I>;
  constexpr I kMax = std::numeric_limits<I>::max(), kMin = std::numeric_limits<I>::min();
  __m256i lo = X::splat(kMax), hi = X::splat(kMin);
  int64_t i = 0;
  for (; i + X::L <= n; i += X::L) {
    const __m256i v = X::load(p + i);
    lo = X::min(lo, v);
    hi = X::max(hi, v);
  }
  alignas(32) I l[X::L], h[X::L];
  _mm256_store_si256(reinterpret_cast<__m256i *>(l), lo);
  _mm256_store_si256(reinterpret_cast<__m256i *>(h), hi);
  I a = kMax, b = kMin;
  for (int k = 0; k < X::L; ++k) a = std::min(a, l[k]), b = std::max(b, h[k]);
  for (; i < n; ++i) a = std::min(a, p[i]), b = std::max(b, p[i]);
  *mn = a;
  *mx = b;
}
template <>
void index_range<int32_t>(const int32_t *p, int64_t n, int64_t *mn, int64_t *mx) {
  index_range_avx2(p, n, mn, mx);
}
template <>
void index_range<int64_t>(const int64_t *p, int64_t n, int64_t *mn, int64_t *mx) {
  index_range_avx2(p, n, mn, mx);
}

// sum_j v[j] * y[c[j] - base] with four independent W-lane accumulators
// (4W gathers in flight hide cache/DRAM latency), combined in a fixed order,
// then the < W tail in sequence.
template <class T, class I>
AccOf<T> gather_dot(const T *v, const I *c, const T *y, int64_t base, int64_t len) {
  using G = Gather<T, I>;
  constexpr int W = G::W;
  typename G::V a0 = G::zero(), a1 = G::zero(), a2 = G::zero(), a3 = G::zero();
  int64_t j = 0;
  for (; j + 4 * W <= len; j += 4 * W) {
    a0 = G::madd(a0, G::load(v + j), G::gather(y, c + j, base));
    a1 = G::madd(a1, G::load(v + j + W), G::gather(y, c + j + W, base));
    a2 = G::madd(a2, G::load(v + j + 2 * W), G::gather(y, c + j + 2 * W, base));
    a3 = G::madd(a3, G::load(v + j + 3 * W), G::gather(y, c + j + 3 * W, base));
  }
  for (; j + W <= len; j += W) a0 = G::madd(a0, G::load(v + j), G::gather(y, c + j, base));
  if constexpr (std::is_same_v<T, int32_t>) {
    // Wrapping integer sums are exact in any order: the < W tail as scalars
    // (a masked gather costs more than the few products it saves).
    uint32_t s = G::sum(G::add(G::add(a0, a1), G::add(a2, a3)));
    for (; j < len; ++j) s += uint32_t(v[j]) * uint32_t(y[int64_t(c[j]) - base]);
    return s;
  } else {
    if (j < len) a1 = G::add(a1, G::tail_product(v + j, c + j, y, base, int(len - j)));
    return G::sum(G::add(G::add(a0, a1), G::add(a2, a3)));
  }
}

// SpVV: y[c[j] - base] read by plain loads placed into vectors rather than
// by vpgather, and y + c[j + kSpvvAhead] prefetched for every fourth entry.
// Sorted sparse vectors (the common case) touch y's lines in ascending order:
// plain loads keep the hardware prefetcher streaming them, gathers do not,
// and when the entries lie lines apart (yLen = 10M) the software prefetch
// keeps more misses in flight than the out-of-order window reaches. Measured
// (fp32, nnz = 100k sorted, 2 threads, standalone harness, median of 31):
// yLen = 1M 53 -> 36–40 us, 10M 116–124 -> 83–86 us; unsorted indices and
// 1 thread within noise. Prefetching every entry, or 256–512 entries ahead,
// measured slower. Two W-lane accumulators, combined in a fixed order.
constexpr int64_t kSpvvAhead = 128;
// y[c[k]] for the W lanes of V (y already shifted by the index base).
inline __m256 lanes_of(const float *y, const int32_t *c, __m256) {
  return _mm256_setr_ps(y[c[0]], y[c[1]], y[c[2]], y[c[3]], y[c[4]], y[c[5]], y[c[6]], y[c[7]]);
}
inline __m128 lanes_of(const float *y, const int64_t *c, __m128) {
  return _mm_setr_ps(y[c[0]], y[c[1]], y[c[2]], y[c[3]]);
}
template <class I>
inline __m256d lanes_of(const double *y, const I *c, __m256d) {
  return _mm256_setr_pd(y[c[0]], y[c[1]], y[c[2]], y[c[3]]);
}
// Eight int32 lanes, either index width (int32 rows by prefix sums).
template <class I>
inline __m256i x8(const int32_t *y, const I *c) {
  return _mm256_setr_epi32(y[c[0]], y[c[1]], y[c[2]], y[c[3]], y[c[4]], y[c[5]], y[c[6]], y[c[7]]);
}
inline __m256i lanes_of(const int32_t *y, const int32_t *c, __m256i) { return x8(y, c); }
inline __m128i lanes_of(const int32_t *y, const int64_t *c, __m128i) {
  return _mm_setr_epi32(y[c[0]], y[c[1]], y[c[2]], y[c[3]]);
}

// Whether the n (a multiple of the vector width) indices at c lie in
// [lo, hi]: compares on whole vectors of indices, one branch for all.
template <class I>
inline bool lanes_in(const I *c, int n, int64_t lo, int64_t hi) {
  using X = IdxLanes<I>;
  const __m256i l = X::splat(lo), h = X::splat(sizeof(I) == 4 ? std::min<int64_t>(hi, INT32_MAX) : hi);
  __m256i bad = _mm256_setzero_si256();
  for (int k = 0; k < n; k += X::L) {
    const __m256i i = X::load(c + k);
    bad = _mm256_or_si256(bad, _mm256_or_si256(X::gt(l, i), X::gt(i, h)));
  }
  return _mm256_testz_si256(bad, bad);
}

// The range check runs kSpvvAhead entries ahead of the products, on the
// vectors of indices the prefetches then use, so every read of y (and every
// prefetch) goes through an index already checked, and the check costs a
// few compares per 2W entries. (A separate range pass over each 8192-entry
// chunk first was 11 % of a call: the indices streamed from L3 with nothing
// to hide behind. Checking blocks of 1024 one block ahead measured no better.)
template <class T, class I>
bool spvv_dot(const T *v, const I *c, const T *y, int64_t base, int64_t len, int64_t hi, AccOf<T> *sum) {
  using G = Gather<T, I>;
  using V = typename G::V;
  constexpr int W = G::W;
  V a0 = G::zero(), a1 = G::zero();
  // y shifted by the base once (its element c[j] is y[c[j] - base]; only
  // indices checked to be >= base reach it), not a subtraction per entry.
  const T *yb = reinterpret_cast<const T *>(reinterpret_cast<uintptr_t>(y) - uintptr_t(base) * sizeof(T));
  auto step2 = [&](int64_t j) {
    a0 = G::madd(a0, G::load(v + j), lanes_of(yb, c + j, V{}));
    a1 = G::madd(a1, G::load(v + j + W), lanes_of(yb, c + j + W, V{}));
  };
  if (!indices_in(c, std::min(len, kSpvvAhead), base, hi)) return false;
  int64_t j = 0;
  for (; j + 2 * W + kSpvvAhead <= len; j += 2 * W) {
    const I *ahead = c + j + kSpvvAhead;
    if (!lanes_in(ahead, 2 * W, base, hi - 1)) return false;
    for (int p = 0; p < 2 * W; p += 4)
      _mm_prefetch(reinterpret_cast<const char *>(yb + ahead[p]), _MM_HINT_T0);
    step2(j);
  }
  const int64_t checked = std::min(len, j + kSpvvAhead);  // [0, checked) passed
  if (!indices_in(c + checked, len - checked, base, hi)) return false;
  for (; j + 2 * W <= len; j += 2 * W) step2(j);
  for (; j + W <= len; j += W) a0 = G::madd(a0, G::load(v + j), lanes_of(yb, c + j, V{}));
  if constexpr (std::is_same_v<T, int32_t>) {
    uint32_t s = G::sum(G::add(a0, a1));
    for (; j < len; ++j) s += uint32_t(v[j]) * uint32_t(yb[c[j]]);
    *sum = s;
  } else {
    if (j < len) a1 = G::add(a1, G::tail_product(v + j, c + j, y, base, int(len - j)));
    *sum = G::sum(G::add(a0, a1));
  }
  return true;
}

template <class T, class I>
struct SpvvDot<T, I, std::enable_if_t<!std::is_same_v<T, uint16_t>>> {
  static bool run(const T *v, const I *c, const T *y, int64_t base, int64_t len, int64_t hi, AccOf<T> *sum) {
    return spvv_dot(v, c, y, base, len, hi, sum);
  }
};

// sum_j v[j] * x[c[j] - base] as gather_dot, but x read by plain loads
// placed into vectors (lanes_of), the < W tail as scalar FMAs after the
// vector sum; W-lane steps past the last 4W alternate between two
// accumulators. Out of line: the row loop around it stays small, and a call
// per row of 16 or more entries is noise.
template <class T, class I>
__attribute__((noinline)) AccOf<T> lanes_dot(const T *v, const I *c, const T *y, int64_t base, int64_t len) {
  using G = Gather<T, I>;
  using V = typename G::V;
  constexpr int W = G::W;
  const T *yb = reinterpret_cast<const T *>(reinterpret_cast<uintptr_t>(y) - uintptr_t(base) * sizeof(T));
  V a0 = G::zero(), a1 = G::zero(), a2 = G::zero(), a3 = G::zero();
  int64_t j = 0;
  for (; j + 4 * W <= len; j += 4 * W) {
    a0 = G::madd(a0, G::load(v + j), lanes_of(yb, c + j, V{}));
    a1 = G::madd(a1, G::load(v + j + W), lanes_of(yb, c + j + W, V{}));
    a2 = G::madd(a2, G::load(v + j + 2 * W), lanes_of(yb, c + j + 2 * W, V{}));
    a3 = G::madd(a3, G::load(v + j + 3 * W), lanes_of(yb, c + j + 3 * W, V{}));
  }
  for (; j + W <= len; j += W) {
    a0 = G::madd(a0, G::load(v + j), lanes_of(yb, c + j, V{}));
    std::swap(a0, a1);
  }
  if constexpr (std::is_same_v<T, int32_t>) {
    uint32_t s = G::sum(G::add(G::add(a0, a1), G::add(a2, a3)));
    for (; j < len; ++j) s += uint32_t(v[j]) * uint32_t(yb[c[j]]);
    return s;
  } else {
    T s = G::sum(G::add(G::add(a0, a1), G::add(a2, a3)));
    for (; j < len; ++j) s = std::fma(v[j], yb[c[j]], s);
    return s;
  }
}

// The 2-accumulator scalar loop of short rows (inlined into the row loop:
// as a call, int32 arrow / bayer10 ran 1.15–1.2x slower).
template <class T, class I>
__attribute__((always_inline)) inline AccOf<T> scalar_dot(const T *v, const I *c, const T *x, int64_t base,
                                                          int64_t len) {
  AccOf<T> s0 = 0, s1 = 0;
  int64_t j = 0;
  for (; j + 2 <= len; j += 2) {
    s0 = Num<T>::madd(s0, Num<T>::load(v + j), Num<T>::load(x + (int64_t(c[j]) - base)));
    s1 = Num<T>::madd(s1, Num<T>::load(v + j + 1), Num<T>::load(x + (int64_t(c[j + 1]) - base)));
  }
  for (; j < len; ++j) s0 = Num<T>::madd(s0, Num<T>::load(v + j), Num<T>::load(x + (int64_t(c[j]) - base)));
  return Num<T>::add(s0, s1);
}

// CSR rows: short rows (the 5–27 entries of stencils) stay scalar: rows
// overlap in the out-of-order window, while masked gathers per row measured
// 1.3–1.8x slower (lap2d, bayer10) and four gather accumulators 1.3x slower
// on 27-entry rows (st27 in cache, fp64). Longer rows are latency-bound on
// their own and go four vectors at a time, x by plain loads (lanes_dot),
// which measured faster than gathers (alternating library builds, 1 thread,
// min of 5): bcsstk13 fp64 50 -> 36 us, fp32 45 -> 36, int32 46 -> 38;
// pushpull 112 -> 81 / 102 -> 79 / 100 -> 81; bayer10 fp64 65 -> 55; st27
// int32 15.9 -> 13.8 ms. fp32 starts at 32: its 27-entry rows (st27) ran
// 12.8 -> 13.8 ms from 16 on; fp64 and int32 gain from 16 (bayer10,
// st27). From 8 on, arrow and bayer10 lost 10–30 %.
template <class T>
constexpr int64_t kLanesRow = std::is_same_v<T, float> ? 32 : 16;
template <class T, class I>
struct RowDot<T, I, std::enable_if_t<!std::is_same_v<T, uint16_t>>> {
  static AccOf<T> run(const T *v, const I *c, const T *x, int64_t base, int64_t len) {
    if (len >= kLanesRow<T>) return lanes_dot(v, c, x, base, len);
    return scalar_dot(v, c, x, base, len);
  }
};

// int32 rows by prefix sums: wrapping integer sums are exact in any order,
// so a row's sum is P(end) - P(begin), P the running sum of the products
// over the piece (mod 2^32). The products go 8 at a time (x by plain
// loads), the prefix within the vector by shifts, into a block of kPrefix
// entries; then every row ending in the block takes its difference — no
// loop per row, so no loop exit to mispredict on rows of varying length.
// Standalone, 1 thread, the same results: bayer10 88 -> 49 us, arrow 189 ->
// 101, bcsstk13 50 -> 33, st27 17.4 -> 11.8 ms against the row loop.
template <class I, class O>
struct PieceRows<int32_t, I, O> {
  static constexpr bool kSpecialised = true;
  static constexpr int64_t kPrefix = 1024;  // 4 KiB of prefix sums, in L1
  static void run(const O *ro, int64_t rb, const I *ci, const int32_t *va, const int32_t *x, int32_t *y, int64_t i,
                  int64_t i1, int32_t alpha, int32_t beta, bool beta_zero) {
    if (i >= i1) return;
    x = reinterpret_cast<const int32_t *>(reinterpret_cast<uintptr_t>(x) - uintptr_t(rb) * sizeof(int32_t));
    alignas(32) uint32_t P[kPrefix + 1];  // P[k]: sum of the products before entry jb + k
    const int64_t j0 = int64_t(ro[i]) - rb, jend = int64_t(ro[i1]) - rb;
    const __m256i last = _mm256_set1_epi32(7), fourth = _mm256_set1_epi32(3);
    uint32_t carry = 0, start = 0;  // start: P at the current row's first entry
    for (int64_t jb = j0; jb < jend; jb += kPrefix) {
      const int64_t n = std::min(kPrefix, jend - jb);
      const int32_t *v = va + jb;
      const I *c = ci + jb;
      P[0] = carry;
      __m256i cv = _mm256_set1_epi32(int32_t(carry));
      int64_t k = 0;
      for (; k + 8 <= n; k += 8) {
        __m256i p = _mm256_mullo_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(v + k)), x8(x, c + k));
        p = _mm256_add_epi32(p, _mm256_slli_si256(p, 4));  // prefix within each 128-bit half
        p = _mm256_add_epi32(p, _mm256_slli_si256(p, 8));
        const __m256i low_total = _mm256_permutevar8x32_epi32(p, fourth);  // lane 3 everywhere
        p = _mm256_add_epi32(p, _mm256_blend_epi32(_mm256_setzero_si256(), low_total, 0xF0));  // to the high half
        p = _mm256_add_epi32(p, cv);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(P + k + 1), p);
        cv = _mm256_permutevar8x32_epi32(p, last);
      }
      uint32_t run = uint32_t(_mm256_cvtsi256_si32(cv));
      for (; k < n; ++k) P[k + 1] = run += uint32_t(v[k]) * uint32_t(x[c[k]]);
      carry = run;
      for (const int64_t jlim = jb + n; i < i1 && int64_t(ro[i + 1]) - rb <= jlim; ++i) {
        const uint32_t end = P[int64_t(ro[i + 1]) - rb - jb];
        y[i] = Num<int32_t>::axpby(alpha, end - start, beta, y + i, beta_zero);
        start = end;
      }
    }
    for (; i < i1; ++i) y[i] = Num<int32_t>::axpby(alpha, 0u, beta, y + i, beta_zero);  // no entries left
  }
};

// Column-block segments keep gathers from 32 entries on: with lanes_dot
// there, R-MAT's blocked SpMV (fp64, 2 threads) ran 22 -> 25.6 ms.
constexpr int64_t kGatherRow = 32;
template <class T, class I>
struct SegmentDot<T, I, std::enable_if_t<!std::is_same_v<T, uint16_t>>> {
  static AccOf<T> run(const T *v, const I *c, const T *x, int64_t base, int64_t len) {
    if (len >= kGatherRow) return gather_dot(v, c, x, base, len);
    return scalar_dot(v, c, x, base, len);
  }
};

// Short rows (fp32/fp64) without a branch on the length: all kShortRow
// entries are read, those past len turned into terms that leave the sum
// unchanged — v = -0 and x = +0, so fma(-0, +0, s) = -0 + s = s for every s,
// signed zeros and NaN included — and x is read at column 0 for them. The
// FMA sequence is RowDot's (s0: entries 0, 2; s1: 1, 3), so results are
// identical. Rows of 2–3 entries whose length varies row to row (arrow)
// mispredicted the loop exits of RowDot about every other row.
template <class T, class I>
struct ShortDot<T, I, std::enable_if_t<std::is_floating_point_v<T>>> {
  static constexpr bool kSpecialised = true;
  static T run(const T *v, const I *c, const T *x, int64_t base, int64_t len) {
    T s[2] = {T(0), T(0)};
#pragma GCC unroll 4
    for (int j = 0; j < int(kShortRow); ++j) {
      const bool in = j < len;
      const T vj = in ? v[j] : T(-0.0);
      const T xj = x[in ? int64_t(c[j]) - base : 0];
      s[j & 1] = std::fma(vj, in ? xj : T(0), s[j & 1]);
    }
    return s[0] + s[1];
  }
};

// fp16: 8 halves of x converted at once (F16C); y's halves gathered as
// scalars (no 16-bit gather), converted likewise; fp32 FMA accumulation.
template <class I>
struct SpvvDot<uint16_t, I> {
  static bool run(const uint16_t *v, const I *c, const uint16_t *y, int64_t base, int64_t len, int64_t hi,
                  float *sum) {
    if (!indices_in(c, len, base, hi)) return false;
    *sum = dot(v, c, y, base, len);
    return true;
  }
  static float dot(const uint16_t *v, const I *c, const uint16_t *y, int64_t base, int64_t len) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    int64_t j = 0;
    auto yh = [&](int64_t k) { return short(y[int64_t(c[k]) - base]); };
    auto step = [&](int64_t k) {
      const __m256 xv = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(v + k)));
      const __m128i yv = _mm_setr_epi16(yh(k), yh(k + 1), yh(k + 2), yh(k + 3), yh(k + 4), yh(k + 5), yh(k + 6), yh(k + 7));
      return _mm256_mul_ps(xv, _mm256_cvtph_ps(yv));
    };
    for (; j + 16 <= len; j += 16) {
      a0 = _mm256_add_ps(a0, step(j));
      a1 = _mm256_add_ps(a1, step(j + 8));
    }
    for (; j + 8 <= len; j += 8) a0 = _mm256_add_ps(a0, step(j));
    float s = Gather<float, int32_t>::sum(_mm256_add_ps(a0, a1));
    for (; j < len; ++j) {
      const float xv = _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(v[j])));
      const float yv = _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(y[int64_t(c[j]) - base])));
      s = std::fma(xv, yv, s);
    }
    return s;
  }
};

TESSERA_SPARSE_TABLE("avx2");

}  // namespace tessera::sparse::avx2
