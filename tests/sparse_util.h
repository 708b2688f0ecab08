// Sparse test helpers: a host CSR in any index width / base, random matrices
// with controllable row lengths, and plain reference SpMV / SpVV loops
// computed in wider precision (exact with wraparound for int32).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "tessera/sparse.h"

namespace tt {

template <class T> constexpr tesseraDataType_t dtype() {
  if constexpr (std::is_same_v<T, float>) return TESSERA_R_32F;
  else if constexpr (std::is_same_v<T, double>) return TESSERA_R_64F;
  else if constexpr (std::is_same_v<T, int32_t>) return TESSERA_R_32I;
  else return TESSERA_R_16F;
}

template <class T>
T random_entry(std::mt19937_64 &rng) {
  if constexpr (std::is_same_v<T, int32_t>) {
    // Full-range values so that products and sums wrap.
    return static_cast<int32_t>(static_cast<uint32_t>(rng()));
  } else {
    return T(std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
  }
}

// A CSR matrix as plain zero-based arrays (int64), converted on demand to
// the index width and base a test wants.
template <class T>
struct Csr {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> off{0};
  std::vector<int64_t> col;
  std::vector<T> val;
  int64_t nnz() const { return int64_t(col.size()); }
};

// Row i gets len(i) entries at random (unsorted, possibly repeated) columns.
template <class T, class LenFn>
Csr<T> random_csr(int64_t rows, int64_t cols, LenFn len, std::mt19937_64 &rng) {
  Csr<T> a;
  a.rows = rows;
  a.cols = cols;
  a.off.assign(size_t(rows + 1), 0);
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t n = cols > 0 ? len(i) : 0;
    a.off[size_t(i + 1)] = a.off[size_t(i)] + n;
    for (int64_t k = 0; k < n; ++k) {
      a.col.push_back(int64_t(rng() % uint64_t(cols)));
      a.val.push_back(random_entry<T>(rng));
    }
  }
  return a;
}

// Index arrays in a given width, shifted by the base.
struct IndexArrays {
  std::vector<int32_t> off32, col32;
  std::vector<int64_t> off64, col64;
  void *off() { return off32.empty() ? static_cast<void *>(off64.data()) : off32.data(); }
  void *col() { return col64.empty() ? static_cast<void *>(col32.data()) : col64.data(); }
};
template <class T>
IndexArrays index_arrays(const Csr<T> &a, tsparseIndexType_t ot, tsparseIndexType_t ct, int64_t base) {
  IndexArrays r;
  for (int64_t o : a.off) {
    if (ot == TSPARSE_INDEX_32I) r.off32.push_back(int32_t(o + base));
    else r.off64.push_back(o + base);
  }
  for (int64_t c : a.col) {
    if (ct == TSPARSE_INDEX_32I) r.col32.push_back(int32_t(c + base));
    else r.col64.push_back(c + base);
  }
  if (ct == TSPARSE_INDEX_32I && r.col32.empty()) r.col32.push_back(0);  // keep data() non-null
  if (ct == TSPARSE_INDEX_64I && r.col64.empty()) r.col64.push_back(0);
  return r;
}

// Reference y = alpha*op(A)*x + beta*y and a per-element error bound
// (|alpha| * sum |a||x| * (len+2) * eps + |beta y| * eps, the usual dot
// product bound with slack); int32 exact (bound 0).
template <class T>
struct RefResult {
  std::vector<T> y;
  std::vector<double> bound;
};
template <class T>
RefResult<T> ref_spmv(const Csr<T> &a, bool trans, T alpha, const std::vector<T> &x, T beta,
                      const std::vector<T> &y0) {
  const int64_t ny = trans ? a.cols : a.rows;
  RefResult<T> r;
  r.y.resize(size_t(ny));
  r.bound.assign(size_t(ny), 0.0);
  if constexpr (std::is_same_v<T, int32_t>) {
    std::vector<uint32_t> s(size_t(ny), 0);
    for (int64_t i = 0; i < a.rows; ++i)
      for (int64_t p = a.off[size_t(i)]; p < a.off[size_t(i + 1)]; ++p) {
        const int64_t c = a.col[size_t(p)];
        const uint32_t prod = uint32_t(a.val[size_t(p)]) * uint32_t(x[size_t(trans ? i : c)]);
        s[size_t(trans ? c : i)] += prod;
      }
    for (int64_t i = 0; i < ny; ++i) {
      uint32_t v = uint32_t(alpha) * s[size_t(i)];
      if (beta != 0) v += uint32_t(beta) * uint32_t(y0[size_t(i)]);
      r.y[size_t(i)] = int32_t(v);
    }
  } else {
    std::vector<long double> s(size_t(ny), 0), mag(size_t(ny), 0);
    std::vector<int64_t> len(size_t(ny), 0);
    for (int64_t i = 0; i < a.rows; ++i)
      for (int64_t p = a.off[size_t(i)]; p < a.off[size_t(i + 1)]; ++p) {
        const int64_t c = a.col[size_t(p)];
        const long double prod = (long double)a.val[size_t(p)] * x[size_t(trans ? i : c)];
        const size_t o = size_t(trans ? c : i);
        s[o] += prod;
        mag[o] += std::fabs(prod);
        ++len[o];
      }
    const double eps = std::numeric_limits<T>::epsilon();
    for (int64_t i = 0; i < ny; ++i) {
      long double v = (long double)alpha * s[size_t(i)];
      double b = std::fabs(double(alpha)) * double(mag[size_t(i)]) * double(len[size_t(i)] + 2) * eps;
      if (beta != 0) {
        v += (long double)beta * y0[size_t(i)];
        b += 2 * std::fabs(double(beta) * double(y0[size_t(i)])) * eps;
      }
      r.y[size_t(i)] = T(v);
      r.bound[size_t(i)] = b + 4 * std::numeric_limits<T>::denorm_min();
    }
  }
  return r;
}

// A sparse handle for the scope of a test.
struct SparseHandle {
  tsparseHandle_t h = nullptr;
  SparseHandle() { tsparseCreate(&h); }
  ~SparseHandle() { tsparseDestroy(h); }
  SparseHandle(const SparseHandle &) = delete;
  SparseHandle &operator=(const SparseHandle &) = delete;
  operator tsparseHandle_t() const { return h; }
};

// TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS with `cols` columns per block (the
// environment override, read when a blocked copy is made) for a scope.
struct BlockColsEnv {
  explicit BlockColsEnv(const char *cols) { set(cols); }
  ~BlockColsEnv() { unsetenv("TESSERA_SPMV_BLOCK_COLS"); }
  void set(const char *cols) { setenv("TESSERA_SPMV_BLOCK_COLS", cols, 1); }
};

// An fp64 CSR matrix (32-bit indices, base 0) with dense x and y over the
// caller's arrays, destroyed with the scope.
struct CsrXY {
  tsparseSpMatDescr_t A = nullptr;
  tsparseDnVecDescr_t X = nullptr, Y = nullptr;
  CsrXY(int64_t rows, int64_t cols, std::vector<int32_t> &off, std::vector<int32_t> &col, std::vector<double> &v,
        std::vector<double> &x, std::vector<double> &y) {
    tsparseCreateCsr(&A, rows, cols, int64_t(v.size()), off.data(), col.data(), v.data(), TSPARSE_INDEX_32I,
                     TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_64F);
    tsparseCreateDnVec(&X, cols, x.data(), TESSERA_R_64F);
    tsparseCreateDnVec(&Y, rows, y.data(), TESSERA_R_64F);
  }
  ~CsrXY() {
    tsparseDestroyDnVec(Y);
    tsparseDestroyDnVec(X);
    tsparseDestroySpMat(A);
  }
  CsrXY(const CsrXY &) = delete;
  CsrXY &operator=(const CsrXY &) = delete;
};

}  // namespace tt
