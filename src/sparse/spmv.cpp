// CSR SpMV: y = alpha*op(A)*x + beta*y.
// validate (arguments; the pattern once per descriptor) → plan (merge-path
// pieces, fixed by the matrix alone) → drive (threads claim pieces; op N
// finishes rows cut by piece boundaries in piece order; op T scatters into
// per-piece partial vectors, then reduces them in piece order). Nothing about
// the split depends on the thread count, so results are bitwise identical for
// any number of threads.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/alloc.h"
#include "sparse/kernels/sparse_kernels.h"
#include "sparse/sparse_context.h"

namespace tessera::sparse {
namespace {

// op N piece size: rows+nnz items / 64, clamped to [4096, 65536]. 64 pieces
// keep 2–8 threads balanced when a thread starts late; 64k items (~0.5–1 MiB
// of matrix) make claiming a piece negligible; 4k items (~1 µs) bound the
// overhead on small matrices.
constexpr int64_t kMinItems = 4096, kMaxItems = 65536, kTargetPieces = 64;
// op T: at most 8 pieces (each a partial vector over the columns it touches;
// more pieces, more partial traffic), at least 256k items each.
constexpr int64_t kMaxTPieces = 8, kMinTItems = int64_t(1) << 18;
// Below this many items per thread, waking a thread costs more than it saves.
constexpr int64_t kMinItemsPerThread = 32768;
// op N prefetches values and column indices when they exceed this many bytes
// and rows are short on average: measured 1 thread, fp64, from DRAM: lap2d
// (5 per row) 0.96-1.12x Eigen without, 1.25-1.28x with; st27 (27 per row)
// 1.02-1.35x without, 0.78-0.81x with (the extra streams hold back the
// hardware prefetcher's nine x streams).
constexpr double kStreamBytes = 16.0 * (1 << 20);
constexpr int64_t kPrefetchRowLen = 16;
// Columns per reduction unit of op T.
constexpr int64_t kReduceCols = 16384;
// TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS: bytes of x per column block. Measured on
// the bench's R-MAT (x = 16 MiB fp64, 2.1M rows, 19.7M nnz), 2 threads: 2 MiB
// blocks 33.4 ms, 4 MiB 30.2, 8 MiB 31.6 (the row loop: 40-46). A block's x
// must stay in the L3 (32 MiB, shared with the streaming matrix and other
// tenants) while both threads sweep their rows through it; halving it
// doubles the segments (a gather from L3 costs ~1.5 ns, from DRAM ~4.4).
constexpr int64_t kBlockXBytes = int64_t(4) << 20;
// Column blocks: non-empty rows per chunk — the unit of the thread split and
// of the length ordering; its accumulators (128 KiB in fp64) stay in L2 while
// a block's segments update them out of row order.
constexpr int64_t kChunkRanks = 16384;

int64_t n_items_for(int64_t total) { return std::clamp(total / kTargetPieces, kMinItems, kMaxItems); }
int64_t t_items_for(int64_t total) {
  const int64_t pieces = std::clamp((total + kMinTItems - 1) / kMinTItems, int64_t(1), kMaxTPieces);
  return std::max<int64_t>(1, (total + pieces - 1) / pieces);
}
int64_t pieces_for(int64_t total, int64_t items) { return std::max<int64_t>(1, (total + items - 1) / items); }

size_t type_size(tesseraDataType_t t) { return t == TESSERA_R_64F ? 8 : 4; }

template <class O>
int64_t off_at(const void *ro, int64_t i, int64_t base) {
  return int64_t(static_cast<const O *>(ro)[i]) - base;
}

// Merge path: the smallest row i in [0, rows] with off(i+1) + i >= d (row i's
// end lies at or beyond diagonal d); off(rows+1) counts as infinite.
template <class O>
int64_t merge_row(const void *ro, int64_t base, int64_t rows, int64_t nnz, int64_t d) {
  int64_t lo = std::max<int64_t>(0, d - nnz), hi = std::min(d, rows);
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (off_at<O>(ro, mid + 1, base) + mid >= d) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

template <class O>
void piece_rows(const void *ro, int64_t base, int64_t rows, int64_t nnz, int64_t items, std::vector<int64_t> &out) {
  const int64_t total = rows + nnz, pieces = pieces_for(total, items);
  out.resize(size_t(pieces + 1));
  for (int64_t p = 0; p <= pieces; ++p) out[size_t(p)] = merge_row<O>(ro, base, rows, nnz, std::min(p * items, total));
}

// Checks the pattern and builds the analysis. Offsets first (the merge-path
// search relies on them being monotone), then the column indices piece by
// piece, which also gives op T's column range per piece.
template <class O, class I>
void analyse(const tsparseSpMatDescr &A, CsrAnalysis &an) {
  const int64_t rows = A.rows, nnz = A.nnz, base = A.base;
  const O *ro = static_cast<const O *>(A.row_off);
  an.status = TESSERA_STATUS_INVALID_VALUE;
  if (int64_t(ro[0]) - base != 0 || int64_t(ro[rows]) - base != nnz) return;
  for (int64_t i = 0; i < rows; ++i)
    if (ro[i + 1] < ro[i]) return;
  const int64_t total = rows + nnz;
  an.n_items = n_items_for(total);
  piece_rows<O>(ro, base, rows, nnz, an.n_items, an.n_piece_row);
  an.t_items = t_items_for(total);
  piece_rows<O>(ro, base, rows, nnz, an.t_items, an.t_piece_row);
  const int64_t tp = int64_t(an.t_piece_row.size()) - 1;
  an.t_col_lo.assign(size_t(tp), 0);
  an.t_col_hi.assign(size_t(tp), 0);
  an.t_part_off.assign(size_t(tp), 0);
  const I *ci = static_cast<const I *>(A.col_ind);
  int64_t part = 0;
  for (int64_t p = 0; p < tp; ++p) {
    const int64_t j0 = std::min(p * an.t_items, total) - an.t_piece_row[size_t(p)];
    const int64_t j1 = std::min((p + 1) * an.t_items, total) - an.t_piece_row[size_t(p + 1)];
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    for (int64_t j = j0; j < j1; ++j) {
      mn = std::min<int64_t>(mn, ci[j]);
      mx = std::max<int64_t>(mx, ci[j]);
    }
    if (j1 > j0) {
      if (mn - base < 0 || mx - base >= A.cols) return;
      an.t_col_lo[size_t(p)] = mn - base;
      an.t_col_hi[size_t(p)] = mx - base + 1;
    }
    an.t_part_off[size_t(p)] = part;
    part += an.t_col_hi[size_t(p)] - an.t_col_lo[size_t(p)];
  }
  an.t_part_elems = part;
  an.status = TESSERA_STATUS_SUCCESS;
}

template <class P>
P *align64(P *p) {
  return reinterpret_cast<P *>((reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t(63));
}

// log2 of the columns per block: kBlockXBytes of x, or TESSERA_SPMV_BLOCK_COLS
// (rounded down to a power of two; tests use it to get many blocks on small
// matrices). Read when a copy is made.
int block_shift(size_t elem) {
  int64_t cols = kBlockXBytes / int64_t(elem);
  if (const char *e = std::getenv("TESSERA_SPMV_BLOCK_COLS")) cols = std::max<int64_t>(1, std::atoll(e));
  int sh = 0;
  while ((int64_t(2) << sh) <= cols && sh < 62) ++sh;
  return sh;
}

// Copies A into column blocks. Pass 1 counts entries and segments per block
// and numbers the non-empty rows; pass 2 goes chunk by chunk: the chunk's
// entries are grouped by block into a scratch copy (a row's entries in one
// block form one segment, in the row's order, sorted columns or not), then
// each block's segments of the chunk are placed ordered by length (ties by
// row). Needs a valid pattern (the analysis checked it).
template <class O, class I, int64_t ts>  // ts: bytes per value (a constant: the copies inline)
void build_blocks(const tsparseSpMatDescr &A, CsrBlocks &bk) {
  const int64_t rows = A.rows, base = A.base;
  const O *ro = static_cast<const O *>(A.row_off);
  const I *ci = static_cast<const I *>(A.col_ind);
  const unsigned char *va = static_cast<const unsigned char *>(A.values);
  bk.shift = block_shift(size_t(ts));
  const int64_t nb = ((A.cols - 1) >> bk.shift) + 1;
  bk.blocks = nb;
  // The copy indexes rows, entries of a block and columns of a block in 32 bits.
  if (nb <= 1 || rows > INT32_MAX || (int64_t(1) << bk.shift) > INT32_MAX) {
    bk.blocks = 1;
    return;
  }
  auto begin_of = [&](int64_t i) { return int64_t(ro[i]) - base; };
  auto block_of = [&](int64_t j) { return (int64_t(ci[j]) - base) >> bk.shift; };
  std::vector<int64_t> ents(size_t(nb), 0), segs(size_t(nb), 0), last(size_t(nb), -1);
  int64_t nonempty = 0;
  for (int64_t i = 0; i < rows; ++i) {
    nonempty += ro[i + 1] != ro[i];
    for (int64_t j = begin_of(i), e = begin_of(i + 1); j < e; ++j) {
      const size_t b = size_t(block_of(j));
      ++ents[b];
      if (last[b] != i) {
        last[b] = i;
        ++segs[b];
      }
    }
  }
  for (int64_t b = 0; b < nb; ++b)
    if (ents[size_t(b)] > INT32_MAX) {
      bk.blocks = 1;
      return;
    }
  const int64_t nc = (nonempty + kChunkRanks - 1) / kChunkRanks, nc1 = nc + 1;
  bk.chunks = nc;
  bk.seg_begin.assign(size_t(nb * nc1), 0);
  bk.ent_begin.assign(size_t(nb + 1), 0);
  int64_t nseg = 0;
  for (int64_t b = 0; b < nb; ++b) {
    bk.seg_begin[size_t(b * nc1)] = nseg;  // chunk 0 of each block; the rest in pass 2
    bk.seg_begin[size_t(b * nc1 + nc)] = nseg += segs[size_t(b)];
    bk.ent_begin[size_t(b + 1)] = bk.ent_begin[size_t(b)] + ents[size_t(b)];
  }
  // One buffer for the big arrays, not zero-filled first (every element is
  // written below). Not offered to huge pages: faulting 2 MiB pages in took
  // 0.7 s more on R-MAT here (direct compaction) and the calls ran no faster.
  auto up64 = [](size_t b) { return (b + 63) & ~size_t(63); };
  const size_t b_row = up64(size_t(nseg) * 4), b_off = up64(size_t(nseg + nb) * 4), b_col = up64(size_t(A.nnz) * 4);
  bk.store.reset(new unsigned char[b_row + b_off + b_col + size_t(A.nnz * ts) + 64]);
  unsigned char *mem = align64(bk.store.get());
  bk.seg_row = reinterpret_cast<int32_t *>(mem);
  bk.seg_off = reinterpret_cast<int32_t *>(mem + b_row);
  bk.col = reinterpret_cast<int32_t *>(mem + b_row + b_off);
  bk.val = mem + b_row + b_off + b_col;
  bk.rank_row.resize(size_t(nonempty));
  bk.nonempty.assign(size_t((rows + 63) / 64), 0);
  bk.chunk_work.assign(size_t(nc1), 0);
  for (int64_t i = 0, k = 0; i < rows; ++i)
    if (ro[i + 1] != ro[i]) {
      bk.rank_row[size_t(k++)] = int32_t(i);
      bk.nonempty[size_t(i >> 6)] |= uint64_t(1) << (i & 63);
    }

  struct Seg {
    int32_t rank, len;
    int64_t at;  // first entry in the scratch copy
  };
  std::vector<int64_t> placed_e(size_t(nb), 0), placed_s(size_t(nb), 0);  // per block, so far
  std::vector<int64_t> c_ent(size_t(nb + 1), 0), c_seg(size_t(nb + 1), 0), fill_e(size_t(nb), 0), fill_s(size_t(nb), 0);
  std::vector<int32_t> t_col;
  std::vector<unsigned char> t_val;
  std::vector<Seg> t_seg;
  for (int64_t c = 0; c < nc; ++c) {
    const int64_t k0 = c * kChunkRanks, k1 = std::min(nonempty, k0 + kChunkRanks);
    const int64_t i0 = bk.rank_row[size_t(k0)], i1 = int64_t(bk.rank_row[size_t(k1 - 1)]) + 1;
    // Group the chunk's entries by block.
    std::fill(c_ent.begin(), c_ent.end(), 0);
    std::fill(c_seg.begin(), c_seg.end(), 0);
    std::fill(last.begin(), last.end(), -1);
    for (int64_t i = i0; i < i1; ++i)
      for (int64_t j = begin_of(i), e = begin_of(i + 1); j < e; ++j) {
        const size_t b = size_t(block_of(j));
        ++c_ent[b + 1];
        if (last[b] != i) {
          last[b] = i;
          ++c_seg[b + 1];
        }
      }
    for (int64_t b = 0; b < nb; ++b) {
      c_ent[size_t(b + 1)] += c_ent[size_t(b)];
      c_seg[size_t(b + 1)] += c_seg[size_t(b)];
    }
    bk.chunk_work[size_t(c + 1)] = bk.chunk_work[size_t(c)] + c_ent[size_t(nb)] + c_seg[size_t(nb)];
    t_col.resize(size_t(c_ent[size_t(nb)]));
    t_val.resize(size_t(c_ent[size_t(nb)] * ts));
    t_seg.resize(size_t(c_seg[size_t(nb)]));
    std::copy(c_ent.begin(), c_ent.end() - 1, fill_e.begin());
    std::copy(c_seg.begin(), c_seg.end() - 1, fill_s.begin());
    std::fill(last.begin(), last.end(), -1);
    for (int64_t i = i0, k = k0 - 1; i < i1; ++i) {
      k += ro[i + 1] != ro[i];
      for (int64_t j = begin_of(i), e = begin_of(i + 1); j < e; ++j) {
        const int64_t b = block_of(j);
        const size_t ub = size_t(b);
        if (last[ub] != i) {
          last[ub] = i;
          t_seg[size_t(fill_s[ub]++)] = {int32_t(k), 0, fill_e[ub]};
        }
        ++t_seg[size_t(fill_s[ub] - 1)].len;
        t_col[size_t(fill_e[ub])] = int32_t(int64_t(ci[j]) - base - (b << bk.shift));
        std::memcpy(&t_val[size_t(fill_e[ub] * ts)], va + j * ts, size_t(ts));
        ++fill_e[ub];
      }
    }
    // Place each block's segments of the chunk, shortest first.
    for (int64_t b = 0; b < nb; ++b) {
      const size_t ub = size_t(b);
      Seg *s0 = t_seg.data() + c_seg[ub], *s1 = t_seg.data() + c_seg[ub + 1];
      std::stable_sort(s0, s1, [](const Seg &x, const Seg &y) { return x.len < y.len; });
      bk.seg_begin[size_t(b * nc1 + c)] = bk.seg_begin[size_t(b * nc1)] + placed_s[ub];
      for (const Seg *sg = s0; sg < s1; ++sg) {
        const int64_t gs = bk.seg_begin[size_t(b * nc1)] + placed_s[ub]++;
        bk.seg_row[size_t(gs)] = sg->rank;
        bk.seg_off[size_t(gs + b)] = int32_t(placed_e[ub]);
        const int64_t q = bk.ent_begin[ub] + placed_e[ub];
        std::copy(t_col.begin() + sg->at, t_col.begin() + sg->at + sg->len, bk.col + q);
        std::memcpy(&bk.val[size_t(q * ts)], &t_val[size_t(sg->at * ts)], size_t(sg->len * ts));
        placed_e[ub] += sg->len;
      }
    }
  }
  for (int64_t b = 0; b < nb; ++b) bk.seg_off[size_t(bk.seg_begin[size_t(b * nc1 + nc)] + b)] = int32_t(ents[size_t(b)]);
}

// Builds an object the descriptor keeps (its analysis, its blocked copy) and
// installs it: replacing the one held when `fresh`, else only if none is
// held yet (compare-and-swap: of two concurrent first calls, one object
// wins and both use it). ALLOC_FAILED installs nothing.
template <class Obj, class Build>
tesseraStatus_t build_and_install(std::atomic<Obj *> &slot, bool fresh, Build build, const Obj **out) {
  if (!fresh)
    if (Obj *o = slot.load(std::memory_order_acquire)) {
      *out = o;
      return TESSERA_STATUS_SUCCESS;
    }
  auto *o = alloc_fault() ? nullptr : new (std::nothrow) Obj();
  if (!o) return TESSERA_STATUS_ALLOC_FAILED;
  try {
    build(*o);
  } catch (const std::bad_alloc &) {
    delete o;
    return TESSERA_STATUS_ALLOC_FAILED;
  }
  if (fresh) {
    // Replacing a copy another call may be reading is the caller's race, as
    // changing the values during a call would be (documented in sparse.h).
    delete slot.exchange(o, std::memory_order_acq_rel);
  } else {
    Obj *expected = nullptr;
    if (!slot.compare_exchange_strong(expected, o, std::memory_order_acq_rel)) {
      delete o;  // another call installed one first
      o = expected;
    }
  }
  *out = o;
  return TESSERA_STATUS_SUCCESS;
}

// Calls f(O{}, I{}) with the descriptor's row-offset and column-index types.
template <class F>
void with_index_types(const tsparseSpMatDescr &A, F f) {
  const bool o64 = A.row_off_type == TSPARSE_INDEX_64I, c64 = A.col_ind_type == TSPARSE_INDEX_64I;
  if (o64 && c64) f(int64_t(), int64_t());
  else if (o64) f(int64_t(), int32_t());
  else if (c64) f(int32_t(), int64_t());
  else f(int32_t(), int32_t());
}

// The descriptor's analysis, made on first use.
tesseraStatus_t get_analysis(tsparseSpMatDescr &A, const CsrAnalysis **out) {
  return build_and_install(
      A.analysis, false,
      [&](CsrAnalysis &an) {
        with_index_types(A, [&](auto o, auto i) { analyse<decltype(o), decltype(i)>(A, an); });
      },
      out);
}

// The column-blocked copy: a new one when `fresh` (preprocess: takes the
// current values), else the one kept, made now if there is none.
tesseraStatus_t get_blocks(tsparseSpMatDescr &A, bool fresh, const CsrBlocks **out) {
  return build_and_install(
      A.blocks, fresh,
      [&](CsrBlocks &bk) {
        with_index_types(A, [&](auto o, auto i) {
          using O = decltype(o);
          using I = decltype(i);
          if (type_size(A.type) == 8) build_blocks<O, I, 8>(A, bk);
          else build_blocks<O, I, 4>(A, bk);
        });
      },
      out);
}

// Bytes of externalBuffer a call needs: op N, a head/tail carry per piece,
// and with column blocks one accumulator (at most 8 bytes) per row and one
// more (the finish loop reads one past the last);
// op T, the partial vectors at their worst (every piece touching every
// column) — pages never touched cost nothing.
size_t buffer_bytes(const tsparseSpMatDescr &A, bool trans, tsparseSpMVAlg_t alg) {
  const int64_t total = A.rows + A.nnz;
  if (total == 0) return 0;
  if (!trans) {
    const size_t carry = size_t(pieces_for(total, n_items_for(total))) * (2 * sizeof(int64_t) + 2 * 8) + 64;
    if (alg == TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS) return std::max(carry, size_t(A.rows + 1) * 8 + 64);
    return carry;
  }
  return size_t(pieces_for(total, t_items_for(total))) * size_t(A.cols) * type_size(A.type) + 64;
}

struct Checked {
  bool trans;
  int vt;
  tsparseSpMVAlg_t alg;
};

// Argument checks shared by bufferSize, preprocess and SpMV.
tesseraStatus_t check_args(tsparseHandle_t h, tsparseOperation_t op, const void *alpha, tsparseSpMatDescr_t A,
                           tsparseDnVecDescr_t x, const void *beta, tsparseDnVecDescr_t y,
                           tesseraDataType_t computeType, tsparseSpMVAlg_t alg, Checked *c) {
  if (!sparse_handle_is_live(h)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (op != TSPARSE_OPERATION_NON_TRANSPOSE && op != TSPARSE_OPERATION_TRANSPOSE &&
      op != TSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    return TESSERA_STATUS_INVALID_VALUE;
  if (alg != TSPARSE_SPMV_ALG_DEFAULT && alg != TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS) return TESSERA_STATUS_INVALID_VALUE;
  c->alg = alg;
  if (!alpha || !beta) return TESSERA_STATUS_INVALID_VALUE;
  if (!tessera::object_is_live(A, tessera::ObjectKind::spmat) ||
      !tessera::object_is_live(x, tessera::ObjectKind::dnvec) || !tessera::object_is_live(y, tessera::ObjectKind::dnvec))
    return TESSERA_STATUS_INVALID_VALUE;
  c->trans = op != TSPARSE_OPERATION_NON_TRANSPOSE;  // C is T for real types
  if (x->size != (c->trans ? A->rows : A->cols) || y->size != (c->trans ? A->cols : A->rows))
    return TESSERA_STATUS_INVALID_VALUE;
  c->vt = vtype_of(A->type);  // SpMV has no fp16 kernels
  if (c->vt < 0 || c->vt == kF16 || x->type != A->type || y->type != A->type || computeType != A->type)
    return TESSERA_STATUS_NOT_SUPPORTED;
  return TESSERA_STATUS_SUCCESS;
}

template <class T>
bool is_zero_of(const void *p) {
  return *static_cast<const T *>(p) == T(0);
}
bool is_zero(const void *p, tesseraDataType_t t) {
  return t == TESSERA_R_64F ? is_zero_of<double>(p) : t == TESSERA_R_32F ? is_zero_of<float>(p) : is_zero_of<int32_t>(p);
}
bool is_one(const void *p, tesseraDataType_t t) {
  return t == TESSERA_R_64F   ? *static_cast<const double *>(p) == 1.0
         : t == TESSERA_R_32F ? *static_cast<const float *>(p) == 1.0f
                              : *static_cast<const int32_t *>(p) == 1;
}

// y = beta*y (0 without reading y when beta == 0): alpha == 0 or an empty A.
template <class T>
void scale_y(T *y, int64_t n, const void *beta) {
  const T b = *static_cast<const T *>(beta);
  if (b == T(0)) {
    std::fill(y, y + n, T(0));
  } else if constexpr (std::is_same_v<T, int32_t>) {
    for (int64_t i = 0; i < n; ++i) y[i] = int32_t(uint32_t(b) * uint32_t(y[i]));
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = b * y[i];
  }
}
void scale_y(tsparseDnVecDescr &y, const void *beta) {
  if (y.type == TESSERA_R_64F) scale_y(static_cast<double *>(y.values), y.size, beta);
  else if (y.type == TESSERA_R_32F) scale_y(static_cast<float *>(y.values), y.size, beta);
  else scale_y(static_cast<int32_t *>(y.values), y.size, beta);
}

struct PieceTask {
  const CsrArgs *args;
  CsrPieceFn piece;
  CsrReduceFn reduce;
  int64_t units, unit_cols;
  std::atomic<int64_t> next{0};
};

void piece_task(void *ctx, int, int) {
  auto &t = *static_cast<PieceTask *>(ctx);
  for (int64_t p; (p = t.next.fetch_add(1, std::memory_order_relaxed)) < t.units;) t.piece(*t.args, p);
}

void reduce_task(void *ctx, int, int) {
  auto &t = *static_cast<PieceTask *>(ctx);
  const int64_t cols = t.args->cols;
  for (int64_t u; (u = t.next.fetch_add(1, std::memory_order_relaxed)) < t.units;)
    t.reduce(*t.args, u * t.unit_cols, std::min(cols, (u + 1) * t.unit_cols));
}

// Column blocks: part p of n (n = the threads leased; claimed from a counter,
// so the caller alone finishes every part when a worker is late — the pool's
// contract) takes the chunks around the p-th n-th of the work (entries +
// segments) and the rows from its first chunk's first row to the next part's,
// zeroes its accumulators, adds its segments of every block in block order,
// then writes y. Which part holds a chunk changes only who computes its rows,
// never their sums.
struct BlockTask {
  const CsrBlocks *bk;
  const CsrArgs *args;
  CsrBlockFn block;
  CsrBlockFinishFn finish;
  size_t elem;  // bytes per value and per accumulator (float/double/int32: the same)
  int64_t parts;
  std::atomic<int64_t> next{0};
};

void block_part(const BlockTask &t, int64_t slot, int64_t nslots) {
  const CsrArgs &a = *t.args;
  const CsrBlocks &bk = *t.bk;
  const int64_t nc = bk.chunks, nc1 = nc + 1, work = bk.chunk_work[size_t(nc)];
  auto cut = [&](int64_t k) -> int64_t {  // first chunk of slot k
    if (k >= nslots) return nc;
    const int64_t w = work / nslots * k + work % nslots * k / nslots;
    return std::lower_bound(bk.chunk_work.begin(), bk.chunk_work.end(), w) - bk.chunk_work.begin();
  };
  auto first_row = [&](int64_t c) -> int64_t { return c >= nc ? a.rows : bk.rank_row[size_t(c * kChunkRanks)]; };
  const int64_t c0 = cut(slot), c1 = cut(slot + 1);  // cut(0) = 0; cut is monotone
  const int64_t r0 = slot == 0 ? 0 : first_row(c0), r1 = slot + 1 == nslots ? a.rows : first_row(c1);
  const int64_t k0 = c0 * kChunkRanks, k1 = std::min<int64_t>(c1 * kChunkRanks, int64_t(bk.rank_row.size()));
  unsigned char *acc = static_cast<unsigned char *>(a.partial);
  if (k1 > k0) std::memset(acc + size_t(k0) * t.elem, 0, size_t(k1 - k0) * t.elem);
  CsrBlockArgs ba;
  ba.acc = acc;
  for (int64_t b = 0; b < bk.blocks && c0 < c1; ++b) {
    const int64_t *sb = bk.seg_begin.data() + b * nc1;  // the block's chunk starts
    ba.s0 = sb[c0] - sb[0];
    ba.s1 = sb[c1] - sb[0];
    if (ba.s0 == ba.s1) continue;
    ba.seg_row = bk.seg_row + sb[0];
    ba.seg_off = bk.seg_off + sb[0] + b;
    ba.col = bk.col + bk.ent_begin[size_t(b)];
    ba.val = bk.val + size_t(bk.ent_begin[size_t(b)]) * t.elem;
    ba.nnz = bk.ent_begin[size_t(b + 1)] - bk.ent_begin[size_t(b)];
    ba.x = static_cast<const unsigned char *>(a.x) + size_t(b << bk.shift) * t.elem;
    t.block(ba);
  }
  if (r0 < r1) t.finish(acc, bk.nonempty.data(), k0, a.y, a.alpha, a.beta, a.beta_zero, r0, r1);
}

void block_task(void *ctx, int, int) {
  auto &t = *static_cast<BlockTask *>(ctx);
  for (int64_t p; (p = t.next.fetch_add(1, std::memory_order_relaxed)) < t.parts;) block_part(t, p, t.parts);
}

tesseraStatus_t spmv_run(tsparseHandle_t h, const Checked &c, const void *alpha, tsparseSpMatDescr &A,
                         tsparseDnVecDescr &x, const void *beta, tsparseDnVecDescr &y, void *buffer) {
  h->last_arch = h->arch;
  h->last_threads = 1;
  if (y.size == 0) return TESSERA_STATUS_SUCCESS;
  if (is_zero(alpha, A.type) || A.nnz == 0) {  // A and x are not read (Netlib's alpha == 0 rule)
    if (!is_one(beta, A.type)) scale_y(y, beta);
    return TESSERA_STATUS_SUCCESS;
  }
  if (!buffer && buffer_bytes(A, c.trans, c.alg) > 0) return TESSERA_STATUS_INVALID_VALUE;
  const CsrAnalysis *an = nullptr;
  if (tesseraStatus_t st = get_analysis(A, &an); st != TESSERA_STATUS_SUCCESS) return st;
  if (an->status != TESSERA_STATUS_SUCCESS) return an->status;
  const CsrBlocks *bk = nullptr;
  if (c.alg == TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS && !c.trans)
    if (tesseraStatus_t st = get_blocks(A, false, &bk); st != TESSERA_STATUS_SUCCESS) return st;

  const SparseKernels &K = sparse_kernels(h->arch);
  const int o = A.row_off_type == TSPARSE_INDEX_64I, ix = A.col_ind_type == TSPARSE_INDEX_64I;
  CsrArgs a;
  a.rows = A.rows;
  a.cols = A.cols;
  a.nnz = A.nnz;
  a.base = A.base;
  a.row_off = A.row_off;
  a.col_ind = A.col_ind;
  a.values = A.values;
  a.x = x.values;
  a.y = y.values;
  a.alpha = alpha;
  a.beta = beta;
  a.beta_zero = is_zero(beta, A.type);
  // Values and indices beyond what the caches keep (Zen 4: 1 MiB L2 per
  // core, 32 MiB L3 shared) stream from DRAM.
  const double matrix_bytes = double(A.nnz) * double(type_size(A.type) + (ix ? 8 : 4));
  a.stream_prefetch = matrix_bytes > kStreamBytes && A.nnz < kPrefetchRowLen * A.rows;
  const int64_t total = A.rows + A.nnz;
  PieceTask t;
  t.args = &a;
  int threads = 1;
  if (bk && bk->blocks > 1) {
    a.partial = align64(buffer);
    BlockTask bt;
    bt.bk = bk;
    bt.args = &a;
    bt.block = K.spmv_block[c.vt];
    bt.finish = K.spmv_block_finish[c.vt];
    bt.elem = type_size(A.type);
    // One part per thread: a part sweeps x block by block, so more parts
    // would read x from memory more often.
    tessera::ThreadPool::Lease lease = lease_threads(h, total, kMinItemsPerThread, h->num_threads, &threads);
    bt.parts = threads;
    lease.run(threads, &block_task, &bt);
  } else if (!c.trans) {
    a.items = an->n_items;
    a.piece_row = an->n_piece_row.data();
    a.pieces = int64_t(an->n_piece_row.size()) - 1;
    char *buf = align64(static_cast<char *>(buffer));
    a.head_row = reinterpret_cast<int64_t *>(buf);
    a.tail_row = a.head_row + a.pieces;
    a.head_val = a.tail_row + a.pieces;
    a.tail_val = static_cast<char *>(a.head_val) + 8 * a.pieces;
    t.piece = K.spmv_n[c.vt][o][ix];
    t.units = a.pieces;
    tessera::ThreadPool::Lease lease = lease_threads(h, total, kMinItemsPerThread, a.pieces, &threads);
    lease.run(threads, &piece_task, &t);
    K.spmv_n_fixup[c.vt](a);
  } else {
    a.items = an->t_items;
    a.piece_row = an->t_piece_row.data();
    a.pieces = int64_t(an->t_piece_row.size()) - 1;
    a.col_lo = an->t_col_lo.data();
    a.col_hi = an->t_col_hi.data();
    a.part_off = an->t_part_off.data();
    a.partial = align64(buffer);
    t.piece = K.spmv_t[c.vt][o][ix];
    t.units = a.pieces;
    tessera::ThreadPool::Lease lease = lease_threads(h, total, kMinItemsPerThread, a.pieces, &threads);
    lease.run(threads, &piece_task, &t);
    // Reduction: y streams once plus the partials; split into column units.
    PieceTask r;
    r.args = &a;
    r.reduce = K.spmv_t_reduce[c.vt];
    r.unit_cols = kReduceCols;
    r.units = (A.cols + kReduceCols - 1) / kReduceCols;
    lease.run(std::max(1, int(std::min<int64_t>(threads, r.units))), &reduce_task, &r);
  }
  h->last_threads = threads;
  return TESSERA_STATUS_SUCCESS;
}

}  // namespace
}  // namespace tessera::sparse

using namespace tessera::sparse;

extern "C" {

tesseraStatus_t tsparseSpMV_bufferSize(tsparseHandle_t h, tsparseOperation_t op, const void *alpha,
                                       tsparseSpMatDescr_t A, tsparseDnVecDescr_t x, const void *beta,
                                       tsparseDnVecDescr_t y, tesseraDataType_t computeType, tsparseSpMVAlg_t alg,
                                       size_t *bufferSize) {
  Checked c{};
  if (tesseraStatus_t st = check_args(h, op, alpha, A, x, beta, y, computeType, alg, &c);
      st != TESSERA_STATUS_SUCCESS)
    return st;
  if (!bufferSize) return TESSERA_STATUS_INVALID_VALUE;
  *bufferSize = buffer_bytes(*A, c.trans, c.alg);
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseSpMV_preprocess(tsparseHandle_t h, tsparseOperation_t op, const void *alpha,
                                       tsparseSpMatDescr_t A, tsparseDnVecDescr_t x, const void *beta,
                                       tsparseDnVecDescr_t y, tesseraDataType_t computeType, tsparseSpMVAlg_t alg,
                                       void *) {
  Checked c{};
  if (tesseraStatus_t st = check_args(h, op, alpha, A, x, beta, y, computeType, alg, &c);
      st != TESSERA_STATUS_SUCCESS)
    return st;
  const CsrAnalysis *an = nullptr;
  if (tesseraStatus_t st = get_analysis(*A, &an); st != TESSERA_STATUS_SUCCESS) return st;
  if (an->status != TESSERA_STATUS_SUCCESS || c.alg != TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS || c.trans)
    return an->status;
  const CsrBlocks *bk = nullptr;
  return get_blocks(*A, true, &bk);
}

tesseraStatus_t tsparseSpMV(tsparseHandle_t h, tsparseOperation_t op, const void *alpha, tsparseSpMatDescr_t A,
                            tsparseDnVecDescr_t x, const void *beta, tsparseDnVecDescr_t y,
                            tesseraDataType_t computeType, tsparseSpMVAlg_t alg, void *externalBuffer) {
  Checked c{};
  if (tesseraStatus_t st = check_args(h, op, alpha, A, x, beta, y, computeType, alg, &c);
      st != TESSERA_STATUS_SUCCESS)
    return st;
  return spmv_run(h, c, alpha, *A, *x, beta, *y, externalBuffer);
}

}  // extern "C"

