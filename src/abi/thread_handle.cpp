#include <algorithm>
#include <atomic>
#include <cstdio>

#include "abi/blas_abi.h"
#include "abi/blas_calls.h"

namespace tessera::abi {

namespace {
// The thread count set with tessera_blas_set_num_threads (0: none set, each
// handle keeps its default: all cores the process may use, or
// TESSERA_NUM_THREADS). Process-wide, as openblas_set_num_threads is: the
// per-thread handles pick it up at their next call.
std::atomic<int> g_threads{0};

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
