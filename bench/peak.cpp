// FMA-throughput probe: independent FMA chains on 256-bit registers, and on
// 512-bit ones where the CPU has AVX-512; the peak is the faster of the two.
// Zen 4 runs a 512-bit FMA as two 256-bit halves (same peak either way); Zen 5
// has full-width 512-bit FMA pipes, so there only zmm reaches the peak.
// 12 chains cover 2 pipes × 4-cycle latency (Zen 4/5 FMA latency 4).
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "bench.h"
#include "peak_loop.h"

namespace bench {

namespace {
// GFLOP/s of 2M iterations of 12 ymm FMA chains (fp64).
double ymm_f64() {
  const long iters = 2000000;
  const double t0 = now_s();
  volatile double sink = fma_loop<__m256d>(iters, [](__m256d a, __m256d b, __m256d c) { return _mm256_fmadd_pd(a, b, c); },
                                           _mm256_set1_pd(0.999999));
  (void)sink;
  return 12.0 * 4 * 2 * iters / (now_s() - t0) * 1e-9;
}

// GFLOP/s of one thread for fp64 (fp32 = 2×, same instruction rate): best of
// repeats over `seconds`, the widest vectors that run faster.
double one_thread_f64(double seconds) {
  const bool zmm = __builtin_cpu_supports("avx512f");
  double best = 0, start = now_s();
  do {
    best = std::max(best, ymm_f64());
    if (zmm) best = std::max(best, zmm_f64());
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
