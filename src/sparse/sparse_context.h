// The sparse handle and the descriptors behind the public opaque types.
// Descriptors never own the arrays they describe; a CSR descriptor owns only
// the analysis of its pattern (checked once, reused by every later SpMV).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "core/cpu.h"
#include "core/registry.h"
#include "core/thread_pool.h"
#include "tessera/sparse.h"

struct tsparseContext {
  int num_threads = 1;
  tessera::Arch arch = tessera::Arch::generic;
  tessera::Arch last_arch = tessera::Arch::generic;
  int last_threads = 0;
};

struct tsparseSpVecDescr {
  int64_t size = 0, nnz = 0;
  const void *indices = nullptr;
  const void *values = nullptr;
  tsparseIndexType_t idx_type = TSPARSE_INDEX_32I;
  tsparseIndexBase_t base = TSPARSE_INDEX_BASE_ZERO;
  tesseraDataType_t type = TESSERA_R_32F;
};

struct tsparseDnVecDescr {
  int64_t size = 0;
  void *values = nullptr;
  tesseraDataType_t type = TESSERA_R_32F;
};

namespace tessera::sparse {

// What SpMV needs to know about a CSR pattern, made once per descriptor.
struct CsrAnalysis {
  tesseraStatus_t status = TESSERA_STATUS_SUCCESS;  // INVALID_VALUE: bad offsets or indices
  // op N: merge-path pieces of `n_items` items (rows + entries).
  int64_t n_items = 0;
  std::vector<int64_t> n_piece_row;
  // op T: pieces, and the column range each touches (its partial vector).
  int64_t t_items = 0;
  std::vector<int64_t> t_piece_row, t_col_lo, t_col_hi, t_part_off;
  int64_t t_part_elems = 0;
};

}  // namespace tessera::sparse

struct tsparseSpMatDescr {
  int64_t rows = 0, cols = 0, nnz = 0;
  const void *row_off = nullptr, *col_ind = nullptr, *values = nullptr;
  tsparseIndexType_t row_off_type = TSPARSE_INDEX_32I, col_ind_type = TSPARSE_INDEX_32I;
  tsparseIndexBase_t base = TSPARSE_INDEX_BASE_ZERO;
  tesseraDataType_t type = TESSERA_R_32F;
  // Installed by the first SpMV/preprocess (compare-and-swap, so concurrent
  // first calls on one descriptor are safe); dropped by tsparseCsrSetPointers.
  std::atomic<tessera::sparse::CsrAnalysis *> analysis{nullptr};
  ~tsparseSpMatDescr() { delete analysis.load(); }
};

namespace tessera::sparse {

inline bool sparse_handle_is_live(const tsparseContext *h) { return object_is_live(h, ObjectKind::sparse_handle); }

inline bool valid_index_type(int t) { return t == TSPARSE_INDEX_32I || t == TSPARSE_INDEX_64I; }
inline bool valid_base(int b) { return b == TSPARSE_INDEX_BASE_ZERO || b == TSPARSE_INDEX_BASE_ONE; }

// Leases threads for a call: the handle's count, at most one per `min_work`
// of work and one per piece, and no more than the pool grants.
inline ThreadPool::Lease lease_threads(const tsparseContext *h, int64_t work, int64_t min_work, int64_t pieces,
                                       int *threads) {
  return ThreadPool::instance().acquire_for(h->num_threads, double(work), double(min_work), pieces, threads);
}

}  // namespace tessera::sparse
