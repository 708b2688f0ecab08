// The sparse kernel contract: per-ISA tables of chunk kernels for SpVV and
// CSR SpMV. A kernel never validates (the driver has checked every index
// before a kernel reads through it) and knows nothing of handles or threads:
// it computes one fixed piece of work (a chunk or slab whose bounds depend
// only on the operands), so the result never depends on who ran it.
#pragma once
#include <cstdint>

#include "core/cpu.h"

namespace tessera::sparse {

// Value types a kernel table is indexed by.
enum VType : int { kF32 = 0, kF64 = 1, kI32 = 2, kF16 = 3 };
// The kernel tables' index for a descriptor value type, -1 if none.
inline int vtype_of(tesseraDataType_t t) {
  switch (t) {
    case TESSERA_R_32F: return kF32;
    case TESSERA_R_64F: return kF64;
    case TESSERA_R_32I: return kI32;
    case TESSERA_R_16F: return kF16;
    default: return -1;
  }
}
// Index widths (row offsets, column indices, SpVV indices).
enum IType : int { kI32Idx = 0, kI64Idx = 1 };

// SpVV: nnz split into chunks of `chunk` entries; chunk c writes its partial
// sum (in the compute type) to partial[c] and returns true, or returns false
// when one of its indices lies outside [base, hi) — no y element (and no
// prefetch) is reached through an index before it has been checked.
// combine() adds partials 0..n-1 in order into *result.
struct SpvvArgs {
  int64_t nnz = 0;
  int64_t base = 0;
  int64_t chunk = 0;
  int64_t hi = 0;  // valid raw indices: [base, hi), hi = y's size + base
  const void *indices = nullptr;
  const void *values = nullptr;
  const void *y = nullptr;
  void *partial = nullptr;
};
using SpvvChunkFn = bool (*)(const SpvvArgs &a, int64_t c);
using SpvvCombineFn = void (*)(const void *partial, int64_t n, void *result);

// CSR SpMV. Merge-path coordinates: the path through (rows row-ends, nnz
// entries) is cut at fixed diagonals; piece p starts at row piece_row[p] and
// entry (diag(p) - piece_row[p]), diag(p) = min(p*items, rows+nnz).
struct CsrArgs {
  int64_t rows = 0, cols = 0, nnz = 0, base = 0;
  const void *row_off = nullptr, *col_ind = nullptr, *values = nullptr;
  const void *x = nullptr;
  void *y = nullptr;
  const void *alpha = nullptr, *beta = nullptr;  // in the value type
  bool beta_zero = false;
  bool stream_prefetch = false;  // op N: the matrix streams from DRAM (see kStreamAhead)
  int64_t items = 0;                   // merge-path items per piece
  const int64_t *piece_row = nullptr;  // pieces + 1 entries
  // op N: a row cut by a piece boundary is finished by the piece holding its
  // end; the parts before it are carried (per piece: the part of the row that
  // continues from earlier pieces = head, the part continued later = tail).
  int64_t *head_row = nullptr, *tail_row = nullptr;
  void *head_val = nullptr, *tail_val = nullptr;
  // op T: piece s scatters into its own partial vector over the columns
  // [col_lo[s], col_hi[s]) it touches, stored at partial + part_off[s].
  const int64_t *col_lo = nullptr, *col_hi = nullptr, *part_off = nullptr;
  void *partial = nullptr;
  int64_t pieces = 0;
};
using CsrPieceFn = void (*)(const CsrArgs &a, int64_t p);
// op N: after every piece ran, finishes the cut rows in piece order.
using CsrFixupFn = void (*)(const CsrArgs &a);
// op T: y[c0:c1) = alpha * (sum over pieces in order of partial[c]) + beta * y.
using CsrReduceFn = void (*)(const CsrArgs &a, int64_t c0, int64_t c1);

// CSR SpMV over column blocks (TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS). A block
// holds the entries of columns [c0, c0 + width) as segments — the part of one
// row that falls in the block — in a CSR of its own: segment s belongs to row
// seg_row[s] and has entries [seg_off[s], seg_off[s+1]) of col (relative to
// c0) and val. A block call adds each segment's sum of segments [s0, s1) to
// acc[seg_row[s]] (the row's partial over earlier blocks; rows are named by
// their rank among the non-empty rows); the sum within a segment is RowDot's.
// finish: y[i] = alpha*s + beta*y[i] over rows [r0, r1) — s = acc[k] for the
// k-th non-empty row (bit i of `nonempty`; r0's rank is k0), 0 for an empty
// row. acc is readable one entry past the last rank.
struct CsrBlockArgs {
  const int32_t *seg_row = nullptr, *seg_off = nullptr, *col = nullptr;
  const void *val = nullptr;
  int64_t nnz = 0;           // entries in the block (all readable)
  const void *x = nullptr;   // x + c0
  void *acc = nullptr;       // one accumulator (AccOf) per row of A
  int64_t s0 = 0, s1 = 0;
};
using CsrBlockFn = void (*)(const CsrBlockArgs &a);
using CsrBlockFinishFn = void (*)(const void *acc, const uint64_t *nonempty, int64_t k0, void *y, const void *alpha,
                                  const void *beta, bool beta_zero, int64_t r0, int64_t r1);

struct SparseKernels {
  const char *name;
  SpvvChunkFn spvv[4][2];  // [VType][index width]
  SpvvCombineFn spvv_combine[4];
  CsrPieceFn spmv_n[3][2][2];  // [VType][row offset width][column index width]
  CsrFixupFn spmv_n_fixup[3];
  CsrPieceFn spmv_t[3][2][2];
  CsrReduceFn spmv_t_reduce[3];
  CsrBlockFn spmv_block[3];  // [VType]
  CsrBlockFinishFn spmv_block_finish[3];
};

const SparseKernels &sparse_kernels(Arch arch);

namespace generic { extern const SparseKernels kKernels; }
namespace avx2 { extern const SparseKernels kKernels; }
namespace avx512 { extern const SparseKernels kKernels; }

}  // namespace tessera::sparse
