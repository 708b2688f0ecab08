// SpVV: result = sum_i x.values[i] * y[x.indices[i]].
// validate → plan (fixed chunks of kChunk entries) → drive: threads claim
// chunks; the chunk kernel range-checks indices before any y element is read
// through them (AVX2: in its loop, ahead of the products; see spvv_dot) and
// computes the chunk's partial sum; partials are added in chunk order. The
// chunking depends on nnz only, so the result is bitwise identical for any
// thread count.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

#include "core/alloc.h"
#include "sparse/kernels/sparse_kernels.h"
#include "sparse/sparse_context.h"

namespace tessera::sparse {
namespace {

// 8192 entries: 32–64 KiB of indices and values, a few µs of gathers — small
// enough to balance 2–8 threads at the seed's nnz = 100k, large enough that
// claiming a chunk costs nothing.
constexpr int64_t kChunk = 8192;
// Below ~16k entries a second thread costs more to wake than it saves.
constexpr int64_t kMinNnzPerThread = 16384;

// The compute type each value type computes in (fp16 accumulates in fp32).
tesseraDataType_t compute_type_for(tesseraDataType_t t) { return t == TESSERA_R_16F ? TESSERA_R_32F : t; }

struct SpvvTask {
  SpvvArgs args;
  SpvvChunkFn kernel;
  int64_t chunks;
  std::atomic<int64_t> next{0};
  std::atomic<bool> bad{false};
};

void spvv_task(void *ctx, int, int) {
  auto &t = *static_cast<SpvvTask *>(ctx);
  for (int64_t c; (c = t.next.fetch_add(1, std::memory_order_relaxed)) < t.chunks;)
    if (!t.kernel(t.args, c)) t.bad.store(true, std::memory_order_relaxed);
}

}  // namespace
}  // namespace tessera::sparse

using namespace tessera::sparse;

extern "C" tesseraStatus_t tsparseSpVV(tsparseHandle_t h, tsparseOperation_t op, tsparseSpVecDescr_t x,
                                       tsparseDnVecDescr_t y, void *result, tesseraDataType_t computeType) {
  if (!sparse_handle_is_live(h)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (!tessera::object_is_live(x, tessera::ObjectKind::spvec) ||
      !tessera::object_is_live(y, tessera::ObjectKind::dnvec) || !result)
    return TESSERA_STATUS_INVALID_VALUE;
  if (op != TSPARSE_OPERATION_NON_TRANSPOSE) {
    const bool known = op == TSPARSE_OPERATION_TRANSPOSE || op == TSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
    return known ? TESSERA_STATUS_NOT_SUPPORTED : TESSERA_STATUS_INVALID_VALUE;
  }
  const int vt = vtype_of(x->type);
  if (vt < 0 || x->type != y->type || computeType != compute_type_for(x->type)) return TESSERA_STATUS_NOT_SUPPORTED;

  const SparseKernels &K = sparse_kernels(h->arch);
  h->last_arch = h->arch;
  h->last_threads = 1;
  const size_t acc_bytes = x->type == TESSERA_R_64F ? 8 : 4;
  if (x->nnz == 0) {  // empty sum: +0 of the compute type
    std::memset(result, 0, acc_bytes);
    return TESSERA_STATUS_SUCCESS;
  }

  SpvvTask t;
  t.chunks = (x->nnz + kChunk - 1) / kChunk;
  // Partials live on the stack up to 1M entries (128 chunks), else the heap.
  constexpr int64_t kStackChunks = 128;
  alignas(64) double stack_partials[kStackChunks];
  std::vector<double> heap_partials;
  void *partials = stack_partials;
  if (t.chunks > kStackChunks) {
    try {
      if (tessera::alloc_fault()) throw std::bad_alloc();
      heap_partials.resize(size_t(t.chunks));
    } catch (...) {
      return TESSERA_STATUS_ALLOC_FAILED;
    }
    partials = heap_partials.data();
  }
  t.args = SpvvArgs{x->nnz, int64_t(x->base), kChunk, y->size + x->base, x->indices, x->values, y->values, partials};
  t.kernel = K.spvv[vt][x->idx_type == TSPARSE_INDEX_64I];

  int threads = 1;
  tessera::ThreadPool::Lease lease = lease_threads(h, x->nnz, kMinNnzPerThread, t.chunks, &threads);
  lease.run(threads, &spvv_task, &t);
  h->last_threads = threads;
  if (t.bad.load()) return TESSERA_STATUS_INVALID_VALUE;
  K.spvv_combine[vt](partials, t.chunks, result);
  return TESSERA_STATUS_SUCCESS;
}
