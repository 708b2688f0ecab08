// The sparse handle and the descriptors behind the public opaque types.
// Descriptors never own the arrays they describe; a CSR descriptor owns only
// the analysis of its pattern (checked once, reused by every later SpMV).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
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

// TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS: a copy of A (pattern and values) split
// into column blocks of 2^shift columns (see CsrBlockArgs for one block's
// layout). Segments name their row by its rank among the non-empty rows
// (rank_row: rank → row; bit i of `nonempty`: row i has entries), so that
// the accumulators are dense: power-law matrices have most rows empty
// (R-MAT scale 21: 58 %). Ranks are cut into chunks of kChunkRanks; within
// a block and chunk the segments are ordered by length, so that the loop
// over a segment's entries exits where the branch predictor expects (row
// order mispredicted about once per segment). Block b's segments of chunk c
// start at seg_begin[b * (chunks + 1) + c] (the entry for c = chunks ends the
// block); its entry offsets at seg_off[seg + b] (one end entry per block);
// its entries at ent_begin[b] of col and val. chunk_work: prefix sums of
// entries + segments per chunk (the thread split). blocks <= 1: not blocked
// (x fits one block, or a dimension beyond what the 32-bit copy holds) — the
// default algorithm runs.
struct CsrBlocks {
  int64_t blocks = 0, chunks = 0;
  int shift = 0;
  std::vector<int64_t> seg_begin, ent_begin, chunk_work;
  std::vector<int32_t> rank_row;
  std::vector<uint64_t> nonempty;
  std::unique_ptr<unsigned char[]> store;  // seg_row, seg_off, col and val live here
  int32_t *seg_row = nullptr, *seg_off = nullptr, *col = nullptr;
  unsigned char *val = nullptr;
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
  // The column-blocked copy: made by preprocess (again on every preprocess,
  // which is how new values reach it) or the first SpMV that asks for it;
  // dropped by tsparseCsrSetPointers.
  std::atomic<tessera::sparse::CsrBlocks *> blocks{nullptr};
  ~tsparseSpMatDescr() {
    delete analysis.load();
    delete blocks.load();
  }
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
