#include "core/alloc.h"

#include <atomic>

namespace tessera {

namespace {
std::atomic<int64_t> g_countdown{-1};  // -1: off; 0: failing; > 0: successes left
}  // namespace

void inject_alloc_failure_after(int64_t n) { g_countdown.store(n < 0 ? -1 : n, std::memory_order_relaxed); }

bool alloc_fault() {
  int64_t c = g_countdown.load(std::memory_order_relaxed);
  while (c > 0 && !g_countdown.compare_exchange_weak(c, c - 1, std::memory_order_relaxed)) {
  }
  return c == 0;
}

}  // namespace tessera
