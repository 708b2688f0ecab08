#include <algorithm>
#include <atomic>
#include <cstdio>

#include <pthread.h>

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

// Plain data, so a thread_local of it needs no guard or registered destructor:
// each access is one TLS descriptor call (the C++ destructor's guard and
// wrapper made four per call, ~2.5 ns of every BLAS call). The handle goes at
// thread exit through a pthread key's destructor instead (as the thread_local
// destructor did; the main thread's stays to process exit, reachable from the
// registry).
struct ThreadHandle {
  tblasHandle_t h;
  int deflt;    // the handle's own default thread count
  int applied;  // the g_threads value the handle was last set to
};
thread_local ThreadHandle t_handle;  // zero: no handle yet

pthread_key_t g_exit_key;
pthread_once_t g_exit_key_once = PTHREAD_ONCE_INIT;
void destroy_thread_handle(void *h) {
  tblasDestroy(static_cast<tblasHandle_t>(h));
  t_handle = ThreadHandle{};  // a later call on this thread (another key's destructor) makes a new one
}
bool exit_key_ready = false;
void make_exit_key() { exit_key_ready = pthread_key_create(&g_exit_key, destroy_thread_handle) == 0; }

__attribute__((noinline, cold)) tblasHandle_t create_thread_handle(ThreadHandle &t) {
  // Creation fails only when out of memory; then the call computes nothing
  // (the native API refuses a null handle) and says so — BLAS has no status.
  if (tblasCreate(&t.h) != TESSERA_STATUS_SUCCESS) {
    t.h = nullptr;
    std::fputs("tessera_blas: out of memory creating a handle; call skipped\n", stderr);
    return nullptr;
  }
  pthread_once(&g_exit_key_once, make_exit_key);
  if (exit_key_ready) pthread_setspecific(g_exit_key, t.h);
  tblasGetNumThreads(t.h, &t.deflt);
  t.deflt = abi_default_threads(t.deflt);
  tblasSetNumThreads(t.h, t.deflt);  // t.applied: 0 (zero-initialised, or reset at exit)
  return t.h;
}
}  // namespace

tblasHandle_t thread_handle() {
  ThreadHandle *tp = &t_handle;
  asm("" : "+r"(tp));  // one descriptor call: GCC would recompute the address at each use
  ThreadHandle &t = *tp;
  if (!t.h && !create_thread_handle(t)) return nullptr;
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
