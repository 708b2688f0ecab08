// Portable micro-kernels and packers: plain C++ over small fixed-size arrays,
// which the compiler maps onto whatever baseline SIMD the target has (SSE2 on
// x86-64). Correct everywhere; the reference for the vectorised paths.
#include <algorithm>
#include <utility>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "dense/kernels/gemm_kernels.h"

namespace tessera::dense::generic {

template <typename TT, int N>
struct VGeneric {
  using T = TT;
  struct vec {
    T v[N];
  };
  static constexpr int W = N;
  // The portable path keeps to the general tile for small k: the small-k
  // loops would double this file's compile time for a path that exists for
  // portability, not speed.
  static constexpr bool kSmallK = false;
  static constexpr bool kPartialMoves = false;
  static constexpr bool kDupPairs = false;  // see avx512_vectors.h
  static constexpr bool kTransposeC = false;  // no transpose_c (packers move elements one by one)
  static vec zero() {
    vec r;
    for (int i = 0; i < N; ++i) r.v[i] = T(0);
    return r;
  }
  static vec loadu(const T *p) {
    vec r;
    for (int i = 0; i < N; ++i) r.v[i] = p[i];
    return r;
  }
  static void storeu(T *p, vec a) {
    for (int i = 0; i < N; ++i) p[i] = a.v[i];
  }
  static vec load_span(const T *p, int lo, int hi) {  // lanes [lo, hi), others zero
    vec r;
    for (int i = 0; i < N; ++i) r.v[i] = i >= lo && i < hi ? p[i] : T(0);
    return r;
  }
  static void store_span(T *p, vec a, int lo, int hi) {
    for (int i = lo; i < hi && i < N; ++i) p[i] = a.v[i];
  }
  static vec set1(T x) {
    vec r;
    for (int i = 0; i < N; ++i) r.v[i] = x;
    return r;
  }
  static vec bcast(const T *p) { return set1(*p); }
  static vec fmadd(vec a, vec b, vec c) {
    for (int i = 0; i < N; ++i) c.v[i] = a.v[i] * b.v[i] + c.v[i];
    return c;
  }
  static T fma1(T a, T b, T c) { return a * b + c; }  // one lane of fmadd (the tiny kernel)
  static vec mul(vec a, vec b) {
    for (int i = 0; i < N; ++i) a.v[i] *= b.v[i];
    return a;
  }
  static vec add(vec a, vec b) {
    for (int i = 0; i < N; ++i) a.v[i] += b.v[i];
    return a;
  }
  static vec swap_pairs(vec a) {
    for (int i = 0; i + 1 < N; i += 2) std::swap(a.v[i], a.v[i + 1]);
    return a;
  }
  static vec addsub(vec a, vec b) {
    for (int i = 0; i < N; ++i) a.v[i] = i % 2 ? a.v[i] + b.v[i] : a.v[i] - b.v[i];
    return a;
  }
};

#include "dense/kernels/gemm_template.inc"

// Tiles sized for 16 SSE registers: f64 4×4 = 8 xmm of accumulators, f32 8×4 = 8 xmm.
const GemmKernels<double> kF64 = make_gemm_kernels<VGeneric<double, 4>, 1, 4>("f64_gemm_4x4__generic", 256, 128, 1024);
const GemmKernels<float> kF32 = make_gemm_kernels<VGeneric<float, 8>, 1, 4>("f32_gemm_8x4__generic", 256, 128, 1024);

}  // namespace tessera::dense::generic
