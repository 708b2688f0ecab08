// Allocation-failure injection, for tests: every allocation site of the
// library asks alloc_fault() first and treats "true" as the allocation
// failing (ALLOC_FAILED, outputs untouched). Not part of the public API.
#pragma once
#include <cstdint>

namespace tessera {

// After `n` more allocation sites succeed, every later one fails until the
// next call; n < 0 turns injection off (the default).
void inject_alloc_failure_after(int64_t n);
// True when the current allocation must fail.
bool alloc_fault();

}  // namespace tessera
