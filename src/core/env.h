// Numbers from the environment, header-only so that libtessera.so and the
// BLAS ABI library (which cannot call the core's hidden symbols) read a
// variable with one parser.
#pragma once
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tessera {

// A positive integer from `name`, or 0 when unset or invalid. With `list`,
// the first entry of a comma-separated list (OMP_NUM_THREADS="4,2" names
// nested levels; spaces may follow the number).
inline int64_t env_int64(const char *name, bool list = false) {
  const char *s = std::getenv(name);
  if (!s) return 0;
  char *end = nullptr;
  const long long v = std::strtoll(s, &end, 10);
  if (end == s || v < 1) return 0;
  if (list) {
    while (std::isspace(static_cast<unsigned char>(*end))) ++end;
    if (*end == ',') return static_cast<int64_t>(v);
  }
  return *end == '\0' ? static_cast<int64_t>(v) : 0;
}

// Whether `name` is set to exactly `value`.
inline bool env_equals(const char *name, const char *value) {
  const char *s = std::getenv(name);
  return s != nullptr && std::strcmp(s, value) == 0;
}

// The most threads a call may use (ThreadPool::kMaxThreads: the task count
// lives in 8 bits of the pool's dispatch word).
constexpr int kThreadLimit = 255;

// A thread count from `name` (as env_int64): 1..kThreadLimit, or 0.
inline int env_threads(const char *name, bool list = false) {
  const int64_t v = env_int64(name, list);
  return v >= 1 && v <= kThreadLimit ? static_cast<int>(v) : 0;
}

}  // namespace tessera
