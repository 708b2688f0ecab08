#include "core/workspace.h"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

#include "core/alloc.h"

namespace tessera {

AlignedBuffer::~AlignedBuffer() { std::free(ptr_); }

void *AlignedBuffer::reserve(size_t bytes) {
  if (bytes <= size_ && ptr_) return ptr_;
  std::free(ptr_);
  ptr_ = nullptr;
  size_ = 0;
  // Round up to 64 KiB steps so slowly growing sizes do not reallocate each call.
  size_t rounded = (bytes + 65535) & ~size_t(65535);
  void *p = nullptr;
  // Buffers of a huge page or more are aligned to 2 MiB and offered to
  // transparent huge pages: packed panels are walked across many 4 KiB pages
  // per micro-kernel sweep, and Debian's default THP mode is "madvise".
  constexpr size_t kHugePage = size_t(2) << 20;
  const bool huge = rounded >= kHugePage;
  if (huge) rounded = (rounded + kHugePage - 1) & ~(kHugePage - 1);
  if (alloc_fault() || posix_memalign(&p, huge ? kHugePage : 64, rounded) != 0) return nullptr;
  if (huge) madvise(p, rounded, MADV_HUGEPAGE);
  ptr_ = p;
  size_ = rounded;
  return ptr_;
}

bool Workspace::reserve(int threads, size_t bytes_a, size_t bytes_b) {
  try {
    if (static_cast<int>(slots_.size()) < threads) {
      if (alloc_fault()) return false;
      slots_.resize(threads);
    }
  } catch (const std::bad_alloc &) {
    return false;
  }
  for (int t = 0; t < threads; ++t) {
    Slot &s = slots_[t];
    if (s.a.size() < bytes_a || !s.a_ptr) {
      if (!(s.a_ptr = s.a.reserve(bytes_a ? bytes_a : 64))) return false;
      ++allocations_;
    }
    if (s.b.size() < bytes_b || !s.b_ptr) {
      if (!(s.b_ptr = s.b.reserve(bytes_b ? bytes_b : 64))) return false;
      ++allocations_;
    }
  }
  return true;
}

size_t Workspace::bytes_held() const {
  size_t total = 0;
  for (const auto &s : slots_) total += s.a.size() + s.b.size();
  return total;
}

}  // namespace tessera
