// The FMA-chain loop of the peak probe, shared by the AVX2 file (peak.cpp) and
// the AVX-512 one (peak_avx512.cpp). Internal linkage: each file keeps its own
// copy compiled with its own ISA flags (a shared instantiation could hand the
// AVX-512 build of it to an AVX2-only caller).
#pragma once
#include <cstring>

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

}  // namespace

// GFLOP/s of 12 zmm FMA chains (fp64); only called when the CPU has AVX-512.
double zmm_f64();
}  // namespace bench
