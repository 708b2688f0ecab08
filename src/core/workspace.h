// Packing buffers owned by a handle and reused across calls: after the first
// call of a given size no allocation happens in steady state.
#pragma once
#include <cstddef>
#include <vector>

namespace tessera {

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  AlignedBuffer(const AlignedBuffer &) = delete;
  AlignedBuffer &operator=(const AlignedBuffer &) = delete;
  AlignedBuffer(AlignedBuffer &&o) noexcept : ptr_(o.ptr_), size_(o.size_) { o.ptr_ = nullptr; o.size_ = 0; }
  ~AlignedBuffer();
  // Returns a buffer of at least `bytes`, 64-byte aligned (a cache line and a
  // zmm register), or nullptr if the allocation failed (old contents dropped).
  void *reserve(size_t bytes);
  size_t size() const { return size_; }

 private:
  void *ptr_ = nullptr;
  size_t size_ = 0;
};

// Per-thread slots: slot t is used only by task t of a pool dispatch.
class Workspace {
 public:
  // Makes sure `threads` slots exist, each with `bytes_a` and `bytes_b` bytes.
  // Returns false on allocation failure.
  bool reserve(int threads, size_t bytes_a, size_t bytes_b);
  void *a(int t) { return slots_[t].a_ptr; }
  void *b(int t) { return slots_[t].b_ptr; }
  // Total bytes held (for tests that check reuse).
  size_t bytes_held() const;
  // Number of allocations performed so far (for tests that check reuse).
  size_t allocations() const { return allocations_; }

 private:
  struct Slot {
    AlignedBuffer a, b;
    void *a_ptr = nullptr, *b_ptr = nullptr;
  };
  std::vector<Slot> slots_;
  size_t allocations_ = 0;
};

}  // namespace tessera
