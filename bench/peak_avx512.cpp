// The peak probe on 512-bit registers (compiled with -mavx512f; see peak.cpp).
#include <immintrin.h>

#include "bench.h"
#include "peak_loop.h"

namespace bench {

double zmm_f64() {
  const long iters = 2000000;
  const double t0 = now_s();
  volatile double sink = fma_loop<__m512d>(iters, [](__m512d a, __m512d b, __m512d c) { return _mm512_fmadd_pd(a, b, c); },
                                           _mm512_set1_pd(0.999999));
  (void)sink;
  return 12.0 * 8 * 2 * iters / (now_s() - t0) * 1e-9;
}

}  // namespace bench
