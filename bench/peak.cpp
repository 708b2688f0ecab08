// FMA-throughput probe: independent FMA chains on 256-bit registers (Zen 4
// runs 512-bit FMAs as two 256-bit halves, so ymm gives the same peak and runs
// on AVX2-only machines too). 12 chains cover 2 pipes × 4-cycle latency.
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "bench.h"

namespace bench {

namespace {
template <typename V, typename F>
double fma_loop(long iters, F fmadd, V seed) {
  V a0 = seed, a1 = seed, a2 = seed, a3 = seed, a4 = seed, a5 = seed, a6 = seed, a7 = seed, a8 = seed, a9 = seed,
    a10 = seed, a11 = seed;
  const V x = seed, y = seed;
  for (long i = 0; i < iters; ++i) {
    a0 = fmadd(a0, x, y); a1 = fmadd(a1, x, y); a2 = fmadd(a2, x, y); a3 = fmadd(a3, x, y);
    a4 = fmadd(a4, x, y); a5 = fmadd(a5, x, y); a6 = fmadd(a6, x, y); a7 = fmadd(a7, x, y);
    a8 = fmadd(a8, x, y); a9 = fmadd(a9, x, y); a10 = fmadd(a10, x, y); a11 = fmadd(a11, x, y);
    __asm__ volatile("" : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4), "+x"(a5));
    __asm__ volatile("" : "+x"(a6), "+x"(a7), "+x"(a8), "+x"(a9), "+x"(a10), "+x"(a11));
  }
  V s = fmadd(a0, a1, a2);
  s = fmadd(s, a3, a4); s = fmadd(s, a5, a6); s = fmadd(s, a7, a8); s = fmadd(s, a9, a10); s = fmadd(s, a11, a0);
  double out[8];
  std::memcpy(out, &s, sizeof(double) * 4);
  return out[0];
}

// GFLOP/s of one thread for fp64 (fp32 = 2×, same instruction rate).
double one_thread_f64(double seconds) {
  const long iters = 2000000;
  double best = 0, start = now_s();
  do {
    double t0 = now_s();
    volatile double sink = fma_loop<__m256d>(iters, [](__m256d a, __m256d b, __m256d c) { return _mm256_fmadd_pd(a, b, c); },
                                             _mm256_set1_pd(0.999999));
    (void)sink;
    double t = now_s() - t0;
    best = std::max(best, 12.0 * 4 * 2 * iters / t * 1e-9);
  } while (now_s() - start < seconds);
  return best;
}
}  // namespace

Peak measure_peak(int threads) {
  Peak p;
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return p;
  std::vector<double> per(threads);
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t) ts.emplace_back([&per, t] { per[t] = one_thread_f64(0.5); });
  for (auto &t : ts) t.join();
  double sum = 0;
  for (double x : per) sum += x;
  p.f64 = sum;
  p.f32 = 2 * sum;
  return p;
}

}  // namespace bench
