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

// The descriptor's analysis, made on first use. ALLOC_FAILED leaves none.
tesseraStatus_t get_analysis(tsparseSpMatDescr &A, const CsrAnalysis **out) {
  if (CsrAnalysis *an = A.analysis.load(std::memory_order_acquire)) {
    *out = an;
    return TESSERA_STATUS_SUCCESS;
  }
  auto *an = alloc_fault() ? nullptr : new (std::nothrow) CsrAnalysis();
  if (!an) return TESSERA_STATUS_ALLOC_FAILED;
  try {
    const bool o64 = A.row_off_type == TSPARSE_INDEX_64I, c64 = A.col_ind_type == TSPARSE_INDEX_64I;
    if (o64 && c64) analyse<int64_t, int64_t>(A, *an);
    else if (o64) analyse<int64_t, int32_t>(A, *an);
    else if (c64) analyse<int32_t, int64_t>(A, *an);
    else analyse<int32_t, int32_t>(A, *an);
  } catch (const std::bad_alloc &) {
    delete an;
    return TESSERA_STATUS_ALLOC_FAILED;
  }
  CsrAnalysis *expected = nullptr;
  if (!A.analysis.compare_exchange_strong(expected, an, std::memory_order_acq_rel)) {
    delete an;  // another call installed one first
    an = expected;
  }
  *out = an;
  return TESSERA_STATUS_SUCCESS;
}

// Bytes of externalBuffer a call needs: op N, a head/tail carry per piece;
// op T, the partial vectors at their worst (every piece touching every
// column) — pages never touched cost nothing.
size_t buffer_bytes(const tsparseSpMatDescr &A, bool trans) {
  const int64_t total = A.rows + A.nnz;
  if (total == 0) return 0;
  if (!trans) return size_t(pieces_for(total, n_items_for(total))) * (2 * sizeof(int64_t) + 2 * 8) + 64;
  return size_t(pieces_for(total, t_items_for(total))) * size_t(A.cols) * type_size(A.type) + 64;
}

struct Checked {
  bool trans;
  int vt;
};

// Argument checks shared by bufferSize, preprocess and SpMV.
tesseraStatus_t check_args(tsparseHandle_t h, tsparseOperation_t op, const void *alpha, tsparseSpMatDescr_t A,
                           tsparseDnVecDescr_t x, const void *beta, tsparseDnVecDescr_t y,
                           tesseraDataType_t computeType, tsparseSpMVAlg_t alg, Checked *c) {
  if (!sparse_handle_is_live(h)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (op != TSPARSE_OPERATION_NON_TRANSPOSE && op != TSPARSE_OPERATION_TRANSPOSE &&
      op != TSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    return TESSERA_STATUS_INVALID_VALUE;
  if (alg != TSPARSE_SPMV_ALG_DEFAULT) return TESSERA_STATUS_INVALID_VALUE;
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

char *align64(void *p) { return reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t(63)); }

tesseraStatus_t spmv_run(tsparseHandle_t h, const Checked &c, const void *alpha, tsparseSpMatDescr &A,
                         tsparseDnVecDescr &x, const void *beta, tsparseDnVecDescr &y, void *buffer) {
  h->last_arch = h->arch;
  h->last_threads = 1;
  if (y.size == 0) return TESSERA_STATUS_SUCCESS;
  if (is_zero(alpha, A.type) || A.nnz == 0) {  // A and x are not read (Netlib's alpha == 0 rule)
    if (!is_one(beta, A.type)) scale_y(y, beta);
    return TESSERA_STATUS_SUCCESS;
  }
  if (!buffer && buffer_bytes(A, c.trans) > 0) return TESSERA_STATUS_INVALID_VALUE;
  const CsrAnalysis *an = nullptr;
  if (tesseraStatus_t st = get_analysis(A, &an); st != TESSERA_STATUS_SUCCESS) return st;
  if (an->status != TESSERA_STATUS_SUCCESS) return an->status;

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
  if (!c.trans) {
    a.items = an->n_items;
    a.piece_row = an->n_piece_row.data();
    a.pieces = int64_t(an->n_piece_row.size()) - 1;
    char *buf = align64(buffer);
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
  *bufferSize = buffer_bytes(*A, c.trans);
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
  return an->status;
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
