#include <cstdio>

#include "abi/blas_calls.h"

namespace tessera::abi {

namespace {
struct ThreadHandle {
  tblasHandle_t h = nullptr;
  ~ThreadHandle() { tblasDestroy(h); }
};
}  // namespace

tblasHandle_t thread_handle() {
  thread_local ThreadHandle t;
  // Creation fails only when out of memory; then the call computes nothing
  // (the native API refuses a null handle) and says so — BLAS has no status.
  if (!t.h && tblasCreate(&t.h) != TESSERA_STATUS_SUCCESS) {
    t.h = nullptr;
    std::fputs("tessera_blas: out of memory creating a handle; call skipped\n", stderr);
  }
  return t.h;
}

}  // namespace tessera::abi
