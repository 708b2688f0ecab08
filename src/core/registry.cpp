#include "core/registry.h"

#include "core/alloc.h"

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace tessera {

namespace {
// Leaked on purpose: entry points may run during static destruction.
// Held across fork() (taken before, released after in parent and child), so
// a child never inherits it locked by a parent thread that is not there to
// release it, nor the map half-updated.
std::mutex &registry_mutex() {
  static std::mutex *m = [] {
    auto *mu = new std::mutex();
    pthread_atfork([] { registry_mutex().lock(); }, [] { registry_mutex().unlock(); },
                   [] { registry_mutex().unlock(); });
    return mu;
  }();
  return *m;
}
std::unordered_map<const void *, ObjectKind> &registry() {
  static auto *s = new std::unordered_map<const void *, ObjectKind>();
  return *s;
}

// Liveness answers cached per thread: every BLAS call checks its handle, and
// the locked hash lookup was ~8 % of a tiny call (csyrk n = 1, k = 9: 150 ns).
// A cached "live" stays valid while the epoch is unchanged; every unregister
// bumps it (under the mutex, before the caller frees the object), so no
// destroyed object is ever answered from the cache. Four entries: SpVV checks
// a handle and two descriptors per call.
std::atomic<uint64_t> g_epoch{1};
struct LiveEntry {
  const void *p;
  ObjectKind kind;
  uint64_t epoch;
};
constexpr unsigned kCacheEntries = 4;
thread_local LiveEntry t_live[kCacheEntries];
thread_local unsigned t_next_entry;
}  // namespace

bool object_register(const void *p, ObjectKind kind) {
  if (alloc_fault()) return false;
  std::lock_guard<std::mutex> lock(registry_mutex());
  try {
    return registry().emplace(p, kind).second;
  } catch (...) {
    return false;
  }
}

bool object_unregister(const void *p, ObjectKind kind) {
  if (!p) return false;
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto it = registry().find(p);
  if (it == registry().end() || it->second != kind) return false;
  registry().erase(it);
  g_epoch.fetch_add(1, std::memory_order_release);
  return true;
}

namespace {
// The cache missed: the locked lookup, and the answer cached. Out of line, so
// the hit path (object_is_live, below) keeps a short prologue.
__attribute__((noinline)) bool object_is_live_locked(const void *p, ObjectKind kind) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto it = registry().find(p);
  if (it == registry().end() || it->second != kind) return false;
  // The epoch as of this lookup (it only changes under the mutex).
  t_live[t_next_entry++ % kCacheEntries] = LiveEntry{p, kind, g_epoch.load(std::memory_order_relaxed)};
  return true;
}
}  // namespace

bool object_is_live(const void *p, ObjectKind kind) {
  if (!p) return false;
  const uint64_t epoch = g_epoch.load(std::memory_order_acquire);
  // The cache's address once: GCC recomputes a TLS address (a descriptor
  // call in this library) at every use, one per entry here.
  const LiveEntry *live = t_live;
  asm("" : "+r"(live));
  for (unsigned i = 0; i < kCacheEntries; ++i)
    if (live[i].p == p && live[i].kind == kind && live[i].epoch == epoch) return true;
  return object_is_live_locked(p, kind);
}

}  // namespace tessera
