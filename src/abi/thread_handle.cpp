#include <algorithm>
#include <atomic>
#include <cstdio>

#include "abi/blas_abi.h"
#include "abi/blas_calls.h"
#include "core/env.h"

namespace tessera::abi {

namespace {
// The thread count set with tessera_blas_set_num_threads (0: none set, each
// handle keeps its default, abi_default_threads). Process-wide, as
// openblas_set_num_threads is: the per-thread handles pick it up at their
// next call.
std::atomic<int> g_threads{0};

// The default of the ABI's handles: the native default (TESSERA_NUM_THREADS,
// or all cores the process may use) unless TESSERA_NUM_THREADS is not set
// and OMP_NUM_THREADS is (both read as the core reads them, core/env.h). As
// a drop-in libblas.so.3 Tessera runs under MPI ranks and job scripts that
// set OMP_NUM_THREADS=1 to keep each rank's BLAS on one core; OpenBLAS, BLIS
// and MKL honour it. The native API's handles keep their own default.
int abi_default_threads(int native_default) {
  if (env_threads("TESSERA_NUM_THREADS") > 0) return native_default;
  const int omp = env_threads("OMP_NUM_THREADS", /*list=*/true);
  return omp > 0 ? omp : native_default;
}

struct ThreadHandle {
  tblasHandle_t h = nullptr;
  int deflt = 1;    // the handle's own default thread count
  int applied = 0;  // the g_threads value the handle was last set to
  ~ThreadHandle() { tblasDestroy(h); }
};
}  // namespace

tblasHandle_t thread_handle() {
  thread_local ThreadHandle t;
  // Creation fails only when out of memory; then the call computes nothing
  // (the native API refuses a null handle) and says so — BLAS has no status.
  if (!t.h) {
    if (tblasCreate(&t.h) != TESSERA_STATUS_SUCCESS) {
      t.h = nullptr;
      std::fputs("tessera_blas: out of memory creating a handle; call skipped\n", stderr);
      return nullptr;
    }
    tblasGetNumThreads(t.h, &t.deflt);
    t.deflt = abi_default_threads(t.deflt);
    tblasSetNumThreads(t.h, t.deflt);
  }
  const int want = g_threads.load(std::memory_order_relaxed);
  if (want != t.applied) {
    tblasSetNumThreads(t.h, want > 0 ? want : t.deflt);
    t.applied = want;
  }
  return t.h;
}

namespace {
// The count this thread's handle uses once the setting is applied (what the
// next call on this thread runs with).
int threads_for_abi() {
  int n = std::max(1, g_threads.load(std::memory_order_relaxed));
  if (tblasHandle_t h = thread_handle()) tblasGetNumThreads(h, &n);
  return n;
}
}  // namespace

}  // namespace tessera::abi

extern "C" {

TESSERA_ABI void tessera_blas_set_num_threads(int threads) {
  tessera::abi::g_threads.store(threads > 0 ? threads : 0, std::memory_order_relaxed);
}

TESSERA_ABI int tessera_blas_get_num_threads(void) { return tessera::abi::threads_for_abi(); }

}  // extern "C"
