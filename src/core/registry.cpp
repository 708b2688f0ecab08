#include "core/registry.h"

#include "core/alloc.h"

#include <mutex>
#include <unordered_map>

namespace tessera {

namespace {
// Leaked on purpose: entry points may run during static destruction.
std::mutex &registry_mutex() {
  static std::mutex *m = new std::mutex();
  return *m;
}
std::unordered_map<const void *, ObjectKind> &registry() {
  static auto *s = new std::unordered_map<const void *, ObjectKind>();
  return *s;
}
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
  return true;
}

bool object_is_live(const void *p, ObjectKind kind) {
  if (!p) return false;
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto it = registry().find(p);
  return it != registry().end() && it->second == kind;
}

}  // namespace tessera
