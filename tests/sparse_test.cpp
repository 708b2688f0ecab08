// Sparse: handle, descriptors, SpVV and CSR SpMV — differential against plain
// reference loops over every value type, index width, base, op and
// alpha/beta class; pathological shapes; 1/2/3 threads bitwise identical on
// every ISA path; invalid descriptors and arguments leave outputs untouched.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "sparse_util.h"
#include "test_util.h"
#include "tessera/blas.h"
#include "tessera/sparse.h"

namespace {

using tt::Csr;
using tt::SparseHandle;

constexpr tsparseOperation_t kN = TSPARSE_OPERATION_NON_TRANSPOSE;
constexpr tsparseOperation_t kT = TSPARSE_OPERATION_TRANSPOSE;

struct SpmvCase {
  tsparseIndexType_t ot = TSPARSE_INDEX_32I, ct = TSPARSE_INDEX_32I;
  int64_t base = 0;
  tsparseOperation_t op = kN;
  bool preprocess = false;
  tsparseSpMVAlg_t alg = TSPARSE_SPMV_ALG_DEFAULT;
};

// Runs one SpMV through the public API (descriptors, bufferSize, optional
// preprocess, compute); y is updated in place.
template <class T>
tesseraStatus_t run_spmv(tsparseHandle_t h, const Csr<T> &a, const SpmvCase &c, T alpha, std::vector<T> &x, T beta,
                         std::vector<T> &y) {
  tt::IndexArrays ia = tt::index_arrays(a, c.ot, c.ct, c.base);
  std::vector<T> val = a.val;
  if (val.empty()) val.push_back(T(0));
  const tesseraDataType_t dt = tt::dtype<T>();
  tsparseSpMatDescr_t A = nullptr;
  tsparseDnVecDescr_t X = nullptr, Y = nullptr;
  tesseraStatus_t st = tsparseCreateCsr(&A, a.rows, a.cols, a.nnz(), ia.off(), ia.col(), val.data(), c.ot, c.ct,
                                        tsparseIndexBase_t(c.base), dt);
  if (st != TESSERA_STATUS_SUCCESS) return st;
  EXPECT_EQ(tsparseCreateDnVec(&X, int64_t(x.size()), x.data(), dt), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(tsparseCreateDnVec(&Y, int64_t(y.size()), y.data(), dt), TESSERA_STATUS_SUCCESS);
  size_t bytes = 0;
  st = tsparseSpMV_bufferSize(h, c.op, &alpha, A, X, &beta, Y, dt, c.alg, &bytes);
  std::vector<char> buf(bytes);
  if (st == TESSERA_STATUS_SUCCESS && c.preprocess)
    st = tsparseSpMV_preprocess(h, c.op, &alpha, A, X, &beta, Y, dt, c.alg, buf.data());
  if (st == TESSERA_STATUS_SUCCESS) st = tsparseSpMV(h, c.op, &alpha, A, X, &beta, Y, dt, c.alg, buf.data());
  tsparseDestroyDnVec(Y);
  tsparseDestroyDnVec(X);
  tsparseDestroySpMat(A);
  return st;
}

template <class T>
std::vector<T> random_vec(int64_t n, std::mt19937_64 &rng) {
  std::vector<T> v(static_cast<size_t>(n));
  for (auto &e : v) e = tt::random_entry<T>(rng);
  return v;
}

template <class T>
bool same_bits(const std::vector<T> &a, const std::vector<T> &b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Checks one configuration against the reference on `threads` threads and
// returns the result for the cross-thread comparison.
template <class T>
std::vector<T> check_spmv(tsparseHandle_t h, const Csr<T> &a, const SpmvCase &c, T alpha, T beta, uint64_t seed,
                          const std::string &what) {
  std::mt19937_64 rng(seed);
  const bool trans = c.op != kN;
  std::vector<T> x = random_vec<T>(trans ? a.rows : a.cols, rng);
  std::vector<T> y0 = random_vec<T>(trans ? a.cols : a.rows, rng);
  std::vector<T> y = y0;
  if (beta == T(0) && !std::is_same_v<T, int32_t>)
    for (auto &e : y) e = std::numeric_limits<T>::quiet_NaN();  // beta == 0 must not read y
  EXPECT_EQ(run_spmv(h, a, c, alpha, x, beta, y), TESSERA_STATUS_SUCCESS) << what;
  const tt::RefResult<T> ref = tt::ref_spmv(a, trans, alpha, x, beta, y0);
  int64_t bad = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    bool ok;
    if constexpr (std::is_same_v<T, int32_t>) ok = y[i] == ref.y[i];
    else ok = std::fabs(double(y[i]) - double(ref.y[i])) <= ref.bound[i];
    if (!ok && bad++ < 3)
      ADD_FAILURE() << what << " element " << i << ": got " << y[i] << " want " << ref.y[i] << " (bound "
                    << ref.bound[i] << ")";
  }
  EXPECT_EQ(bad, 0) << what;
  return y;
}

template <class T>
void sweep_types(const Csr<T> &a, const std::string &name, bool all_variants,
                 tsparseSpMVAlg_t alg = TSPARSE_SPMV_ALG_DEFAULT) {
  SparseHandle h;
  std::vector<SpmvCase> cases;
  for (auto op : {kN, kT})
    for (auto ot : {TSPARSE_INDEX_32I, TSPARSE_INDEX_64I})
      for (auto ct : {TSPARSE_INDEX_32I, TSPARSE_INDEX_64I})
        for (int64_t base : {0, 1}) {
          if (!all_variants && (ot != ct || base != (ot == TSPARSE_INDEX_64I))) continue;
          cases.push_back({ot, ct, base, op, base == 1, alg});
        }
  const T alphas[] = {T(1), T(-3), T(2)};
  const T betas[] = {T(0), T(1), T(3)};
  int k = 0;
  for (const SpmvCase &c : cases) {
    const T alpha = alphas[k % 3], beta = betas[(k / 3) % 3];
    ++k;
    std::string what = name + " op=" + std::to_string(c.op) + " off" + (c.ot ? "64" : "32") + " col" +
                       (c.ct ? "64" : "32") + " base=" + std::to_string(c.base);
    std::vector<T> first;
    for (int threads : {1, 2, 3}) {
      tsparseSetNumThreads(h, threads);
      std::vector<T> y = check_spmv(h.h, a, c, alpha, beta, 77 + k, what + " threads=" + std::to_string(threads));
      if (threads == 1) first = y;
      else EXPECT_TRUE(same_bits(first, y)) << what << ": " << threads << " threads differ from 1";
    }
  }
}

// Row-length patterns that stress the merge-path split.
template <class T>
void sweep_shapes(bool all_variants) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> len(0, 12);
  sweep_types(tt::random_csr<T>(1000, 700, [&](int64_t) { return len(rng); }, rng), "random 1000x700",
              all_variants);
  sweep_types(tt::random_csr<T>(300, 5000, [&](int64_t) { return 3 * len(rng); }, rng), "wide 300x5000",
              all_variants);
  // Every row length from 0 to 80: each kernel's vector steps and tails
  // (AVX2: scalar rows, four vectors at a time from 16/32 entries, single
  // vectors, scalar tails; int32: prefix blocks).
  sweep_types(tt::random_csr<T>(1620, 900, [&](int64_t i) { return i % 81; }, rng), "lengths 0..80", all_variants);
  // One very long row among short ones, crossing many pieces.
  sweep_types(tt::random_csr<T>(2000, 3000, [&](int64_t i) { return i == 777 ? 300000 : len(rng); }, rng),
              "long row", all_variants);
  // Many empty rows, a few nonempty ones.
  sweep_types(tt::random_csr<T>(400000, 50, [&](int64_t i) { return i % 9973 == 0 ? 40 : 0; }, rng),
              "mostly empty rows", all_variants);
  // Fewer rows than threads, all nnz in them.
  sweep_types(tt::random_csr<T>(2, 90000, [&](int64_t i) { return i == 0 ? 120000 : 60000; }, rng),
              "two huge rows", all_variants);
  sweep_types(tt::random_csr<T>(0, 10, [&](int64_t) { return 0; }, rng), "0 rows", all_variants);
  sweep_types(tt::random_csr<T>(10, 0, [&](int64_t) { return 0; }, rng), "0 cols", all_variants);
  sweep_types(tt::random_csr<T>(17, 13, [&](int64_t) { return 0; }, rng), "nnz 0", all_variants);
}

// TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS with blocks of 64 columns (the
// environment override; x of these matrices fits one real block): many
// blocks, rows split into several segments, unsorted columns and duplicates
// inside segments, more than one chunk of 16384 non-empty rows (the thread
// split's unit), a row across thousands of blocks, empty rows between
// chunks; every index width and base, with and without preprocess, 1/2/3
// threads bitwise identical. op T runs the default algorithm.
template <class T>
void sweep_column_blocks() {
  tt::BlockColsEnv env("64");
  const auto alg = TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS;
  std::mt19937_64 rng(13);
  std::uniform_int_distribution<int> len(0, 12);
  sweep_types(tt::random_csr<T>(1000, 700, [&](int64_t) { return len(rng); }, rng), "blocks random 1000x700", true,
              alg);
  sweep_types(tt::random_csr<T>(60000, 3000, [&](int64_t i) { return (i / 7000) % 2 ? len(rng) : 0; }, rng),
              "blocks 3 chunks, empty stretches", false, alg);
  sweep_types(tt::random_csr<T>(2000, 3000, [&](int64_t i) { return i == 777 ? 300000 : len(rng); }, rng),
              "blocks long row", false, alg);
  sweep_types(tt::random_csr<T>(2, 90000, [&](int64_t i) { return i == 0 ? 120000 : 60000; }, rng),
              "blocks two huge rows", false, alg);
  sweep_types(tt::random_csr<T>(17, 13, [&](int64_t) { return 0; }, rng), "blocks nnz 0", false, alg);
}
TEST(SpMV, ColumnBlocksDouble) { sweep_column_blocks<double>(); }
TEST(SpMV, ColumnBlocksFloat) { sweep_column_blocks<float>(); }
TEST(SpMV, ColumnBlocksInt32Exact) { sweep_column_blocks<int32_t>(); }

// The column-blocked copy holds the values it was made from: SpMV with that
// algorithm keeps using them until preprocess (or tsparseCsrSetPointers)
// makes a new copy; the default algorithm reads the current values.
TEST(SpMV, ColumnBlocksKeepTheirValuesUntilPreprocess) {
  tt::BlockColsEnv env("2");  // 3 blocks
  SparseHandle h;
  std::vector<double> v = {1, 2, 3, 4}, x = {1, 10, 100, 1000, 10000, 100000}, y(2);
  std::vector<int32_t> off = {0, 2, 4}, col = {0, 5, 2, 3};
  tt::CsrXY d(2, 6, off, col, v, x, y);
  tsparseSpMatDescr_t A = d.A;
  tsparseDnVecDescr_t X = d.X, Y = d.Y;
  const double one = 1, zero = 0;
  const auto blk = TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS;
  size_t bytes = 0;
  ASSERT_EQ(tsparseSpMV_bufferSize(h, kN, &one, A, X, &zero, Y, TESSERA_R_64F, blk, &bytes), TESSERA_STATUS_SUCCESS);
  std::vector<char> buf(bytes);
  auto run = [&](tsparseSpMVAlg_t alg) {
    EXPECT_EQ(tsparseSpMV(h, kN, &one, A, X, &zero, Y, TESSERA_R_64F, alg, buf.data()), TESSERA_STATUS_SUCCESS);
    return y;
  };
  EXPECT_EQ(run(blk), (std::vector<double>{200001, 4300}));  // first use makes the copy
  v[0] = 5;
  EXPECT_EQ(run(blk), (std::vector<double>{200001, 4300}));  // the copy's values
  EXPECT_EQ(run(TSPARSE_SPMV_ALG_DEFAULT), (std::vector<double>{200005, 4300}));
  ASSERT_EQ(tsparseSpMV_preprocess(h, kN, &one, A, X, &zero, Y, TESSERA_R_64F, blk, buf.data()),
            TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(run(blk), (std::vector<double>{200005, 4300}));
  v[3] = 6;
  EXPECT_EQ(tsparseCsrSetPointers(A, off.data(), col.data(), v.data()), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(run(blk), (std::vector<double>{200005, 6300}));
  // No buffer for the accumulators: refused before anything runs.
  EXPECT_EQ(tsparseSpMV(h, kN, &one, A, X, &zero, Y, TESSERA_R_64F, blk, nullptr), TESSERA_STATUS_INVALID_VALUE);
}

TEST(SpMV, DoubleAllIndexWidthsBasesOps) { sweep_shapes<double>(true); }
TEST(SpMV, FloatAllIndexWidthsBasesOps) { sweep_shapes<float>(true); }
TEST(SpMV, Int32ExactWraparound) { sweep_shapes<int32_t>(true); }

TEST(SpMV, EveryIsaPathAndReportsIt) {
  std::mt19937_64 rng(5);
  auto a = tt::random_csr<double>(5000, 4000, [&](int64_t i) { return int64_t(i % 29); }, rng);
  auto f = tt::random_csr<float>(3000, 3000, [&](int64_t i) { return int64_t(i % 41); }, rng);
  for (tesseraArch_t arch : tt::supported_paths()) {
    SparseHandle h;
    ASSERT_EQ(tsparseSetArch(h, arch), TESSERA_STATUS_SUCCESS);
    for (auto op : {kN, kT}) {
      std::vector<double> first;
      for (int threads : {1, 2, 3}) {
        tsparseSetNumThreads(h, threads);
        auto y = check_spmv<double>(h, a, {TSPARSE_INDEX_32I, TSPARSE_INDEX_32I, 0, op, false}, 1.5, 0.5, 9,
                                    std::string("path ") + tesseraGetArchString(arch));
        check_spmv<float>(h, f, {TSPARSE_INDEX_64I, TSPARSE_INDEX_32I, 1, op, false}, 1.f, 0.f, 9, "float path");
        tesseraArch_t ran;
        ASSERT_EQ(tsparseGetLastArch(h, &ran), TESSERA_STATUS_SUCCESS);
        EXPECT_EQ(ran, arch);
        if (threads == 1) first = y;
        else EXPECT_TRUE(same_bits(first, y));
      }
    }
  }
}

TEST(SpMV, UsesSeveralThreadsOnALargeMatrix) {
  std::mt19937_64 rng(2);
  auto a = tt::random_csr<double>(100000, 100000, [&](int64_t) { return int64_t(5); }, rng);
  SparseHandle h;
  tsparseSetNumThreads(h, 2);
  check_spmv<double>(h, a, {}, 1.0, 0.0, 3, "2 threads");
  int used = 0;
  tsparseGetLastThreads(h, &used);
  EXPECT_EQ(used, 2);
}

// Big enough that op N takes its streaming variant (matrix > 16 MiB with
// short rows: values and indices prefetched ahead, see kStreamAhead): the
// same results, bitwise, for 1/2/3 threads and both index bases, beta 0
// (y not read) and 2.
TEST(SpMV, StreamingPathOnAMatrixBeyondTheCaches) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int> len(0, 3);
  const int64_t rows = 1200000;  // ~1.8M entries: ~22 MB of values and indices
  auto a = tt::random_csr<double>(rows, 50000, [&](int64_t) { return len(rng); }, rng);
  SparseHandle h;
  for (int64_t base : {0, 1}) {
    const SpmvCase c{TSPARSE_INDEX_32I, TSPARSE_INDEX_32I, base, kN, false};
    std::vector<double> first;
    for (int threads : {1, 2, 3}) {
      tsparseSetNumThreads(h, threads);
      const std::string what = "base=" + std::to_string(base) + " threads=" + std::to_string(threads);
      std::vector<double> y = check_spmv<double>(h, a, c, 1.5, 0.0, 21, what);
      if (threads == 1) first = y;
      else EXPECT_TRUE(same_bits(first, y)) << what << " differs from 1 thread";
    }
    check_spmv<double>(h, a, c, 1.5, 2.0, 22, "beta=2 base=" + std::to_string(base));
  }
}

// Short rows (0..5 entries, lengths varying row to row) on every path and
// type: the AVX2 fp kernels read all 4 slots of a short row and neutralise
// the ones past its end, so x holds Inf and NaN (int32: the extremes) in
// columns no row references (column 0 is where the unused slots read) and
// the next rows' entries are never added.
template <class T>
void short_rows_case() {
  Csr<T> a;
  a.rows = 300;
  a.cols = 40;
  std::mt19937_64 rng(9);
  std::uniform_int_distribution<int64_t> colpick(2, a.cols - 1);
  std::uniform_real_distribution<double> val(-1, 1);
  // int32: values in [-50, 50] without 0, and columns 0 and 1 hold the
  // extremes (a stray product with them shows in any exact sum).
  auto entry = [&] {
    if constexpr (std::is_same_v<T, int32_t>) return T(int(rng() % 50) + 1) * (rng() % 2 ? 1 : -1);
    else return T(val(rng));
  };
  for (int64_t i = 0; i < a.rows; ++i) {
    const int64_t len = (i * 7 + i / 5) % 6;
    for (int64_t j = 0; j < len; ++j) {
      a.col.push_back(colpick(rng));
      a.val.push_back(entry());
    }
    a.off.push_back(a.nnz());
  }
  std::vector<T> x(size_t(a.cols));
  for (auto &e : x) e = std::is_same_v<T, int32_t> ? T(int(rng() % 2001) - 1000) : T(val(rng));
  if constexpr (std::is_same_v<T, int32_t>) {
    x[0] = std::numeric_limits<int32_t>::max();
    x[1] = std::numeric_limits<int32_t>::min();
  } else {
    x[0] = std::numeric_limits<T>::infinity();
    x[1] = std::numeric_limits<T>::quiet_NaN();
  }
  const std::vector<T> y0(size_t(a.rows), T(7));
  const std::vector<T> ref = tt::ref_spmv(a, false, T(2), x, T(0), y0).y;
  for (tesseraArch_t arch : {TESSERA_ARCH_GENERIC, TESSERA_ARCH_AVX2, TESSERA_ARCH_AVX512}) {
    SparseHandle h;
    if (tsparseSetArch(h, arch) != TESSERA_STATUS_SUCCESS) continue;
    for (int64_t base : {0, 1}) {
      std::vector<T> y = y0;
      ASSERT_EQ(run_spmv<T>(h, a, {TSPARSE_INDEX_32I, TSPARSE_INDEX_32I, base, kN, false}, T(2), x, T(0), y),
                TESSERA_STATUS_SUCCESS);
      for (int64_t i = 0; i < a.rows; ++i)
        ASSERT_NEAR(double(y[i]), double(ref[i]), 1e-4) << "arch " << arch << " base " << base << " row " << i;
    }
  }
}
TEST(SpMV, ShortRowsNeverTouchOtherEntries) {
  short_rows_case<double>();
  short_rows_case<float>();
  short_rows_case<int32_t>();
}

TEST(SpMV, DuplicatesAddAndUnsortedColumns) {
  // Row 0: columns 3, 1, 3 (duplicate) → 2*x3 + 5*x1 + 4*x3.
  Csr<double> a;
  a.rows = 2;
  a.cols = 4;
  a.off = {0, 3, 4};
  a.col = {3, 1, 3, 0};
  a.val = {2, 5, 4, 7};
  std::vector<double> x = {1, 10, 100, 1000}, y = {0, 0};
  SparseHandle h;
  ASSERT_EQ(run_spmv<double>(h, a, {}, 1.0, x, 0.0, y), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(y[0], 2 * 1000 + 5 * 10 + 4 * 1000);
  EXPECT_EQ(y[1], 7);
}

TEST(SpMV, AlphaZeroScalesYWithoutReadingAOrX) {
  Csr<double> a;
  a.rows = 3;
  a.cols = 3;
  a.off = {0, 1, 2, 3};
  a.col = {0, 1, 2};
  a.val = {std::nan(""), std::nan(""), std::nan("")};
  std::vector<double> x(3, std::nan("")), y = {1, 2, 3};
  SparseHandle h;
  ASSERT_EQ(run_spmv<double>(h, a, {}, 0.0, x, 2.0, y), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(y, (std::vector<double>{2, 4, 6}));
  std::vector<double> z(3, std::nan(""));
  ASSERT_EQ(run_spmv<double>(h, a, {}, 0.0, x, 0.0, z), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(z, (std::vector<double>{0, 0, 0}));
}

TEST(SpMV, BadPatternIsInvalidAndYUntouched) {
  SparseHandle h;
  auto expect_invalid = [&](Csr<double> a, int64_t base, const char *what) {
    for (auto op : {kN, kT}) {
      std::vector<double> xv(size_t(op == kN ? a.cols : a.rows), 1.0), yv(size_t(op == kN ? a.rows : a.cols), 42.0);
      const auto y0 = yv;
      EXPECT_EQ(run_spmv<double>(h, a, {TSPARSE_INDEX_32I, TSPARSE_INDEX_32I, base, op, false}, 1.0, xv, 0.0, yv),
                TESSERA_STATUS_INVALID_VALUE)
          << what;
      EXPECT_EQ(yv, y0) << what;
    }
  };
  Csr<double> a;
  a.rows = 3;
  a.cols = 4;
  a.off = {0, 2, 3, 5};
  a.col = {0, 3, 1, 2, 3};
  a.val = {1, 2, 3, 4, 5};
  auto b = a;
  b.col[4] = 4;  // == cols
  expect_invalid(b, 0, "column == cols");
  b = a;
  b.col[2] = -1;
  expect_invalid(b, 0, "negative column");
  b = a;
  b.off = {0, 3, 2, 5};  // decreasing
  expect_invalid(b, 0, "decreasing offsets");
  b = a;
  b.off = {1, 2, 3, 5};  // does not start at base
  expect_invalid(b, 0, "first offset != base");
  b = a;
  b.off = {0, 2, 3, 4};  // last offset != nnz
  expect_invalid(b, 0, "last offset != nnz");
  b = a;
  b.col[0] = -1;  // 0 - 1 with base 1: index 0 is below base
  expect_invalid(b, 1, "index below base 1");
}

TEST(SpMV, InvalidArgumentsAndTypes) {
  SparseHandle h;
  std::vector<double> v = {1, 2, 3}, x = {1, 1, 1}, y = {5, 5, 5};
  std::vector<float> xf = {1, 1, 1};
  std::vector<int32_t> off = {0, 1, 2, 3}, col = {0, 1, 2};
  tsparseSpMatDescr_t A;
  tsparseDnVecDescr_t X, Y, XF, Y2;
  ASSERT_EQ(tsparseCreateCsr(&A, 3, 3, 3, off.data(), col.data(), v.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_32I,
                             TSPARSE_INDEX_BASE_ZERO, TESSERA_R_64F),
            TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tsparseCreateDnVec(&X, 3, x.data(), TESSERA_R_64F), TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tsparseCreateDnVec(&Y, 3, y.data(), TESSERA_R_64F), TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tsparseCreateDnVec(&XF, 3, xf.data(), TESSERA_R_32F), TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tsparseCreateDnVec(&Y2, 2, y.data(), TESSERA_R_64F), TESSERA_STATUS_SUCCESS);
  const double one = 1, zero = 0;
  std::vector<char> buf(4096);
  auto call = [&](tsparseHandle_t hh, int op, const void *al, tsparseSpMatDescr_t a, tsparseDnVecDescr_t xx,
                  const void *be, tsparseDnVecDescr_t yy, tesseraDataType_t ct, int alg, void *b) {
    return tsparseSpMV(hh, tsparseOperation_t(op), al, a, xx, be, yy, ct, tsparseSpMVAlg_t(alg), b);
  };
  const auto D = TESSERA_R_64F;
  EXPECT_EQ(call(nullptr, 0, &one, A, X, &zero, Y, D, 0, buf.data()), TESSERA_STATUS_NOT_INITIALIZED);
  tblasHandle_t dense;
  tblasCreate(&dense);
  EXPECT_EQ(call(reinterpret_cast<tsparseHandle_t>(dense), 0, &one, A, X, &zero, Y, D, 0, buf.data()),
            TESSERA_STATUS_NOT_INITIALIZED);  // a handle of the other kind
  tblasDestroy(dense);
  EXPECT_EQ(call(h, 3, &one, A, X, &zero, Y, D, 0, buf.data()), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(call(h, 0, &one, A, X, &zero, Y, D, 2, buf.data()), TESSERA_STATUS_INVALID_VALUE);  // no such alg
  EXPECT_EQ(call(h, 0, &one, A, X, &zero, Y, D, -1, buf.data()), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(call(h, 0, nullptr, A, X, &zero, Y, D, 0, buf.data()), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(call(h, 0, &one, A, X, nullptr, Y, D, 0, buf.data()), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(call(h, 0, &one, nullptr, X, &zero, Y, D, 0, buf.data()), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(call(h, 0, &one, A, nullptr, &zero, Y, D, 0, buf.data()), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(call(h, 0, &one, A, X, &zero, Y2, D, 0, buf.data()), TESSERA_STATUS_INVALID_VALUE);  // y too short
  EXPECT_EQ(call(h, 0, &one, A, Y2, &zero, Y, D, 0, buf.data()), TESSERA_STATUS_INVALID_VALUE);  // x too short
  EXPECT_EQ(call(h, 1, &one, A, Y2, &zero, Y, D, 0, buf.data()), TESSERA_STATUS_INVALID_VALUE);  // op T: x too short
  EXPECT_EQ(call(h, 0, &one, A, X, &zero, nullptr, D, 0, buf.data()), TESSERA_STATUS_INVALID_VALUE);  // y null
  EXPECT_EQ(call(h, 0, &one, A, X, &zero, reinterpret_cast<tsparseDnVecDescr_t>(A), D, 0, buf.data()),
            TESSERA_STATUS_INVALID_VALUE);  // a descriptor of the wrong kind
  EXPECT_EQ(call(h, 0, &one, A, XF, &zero, Y, D, 0, buf.data()), TESSERA_STATUS_NOT_SUPPORTED);  // mixed types
  EXPECT_EQ(call(h, 0, &one, A, X, &zero, Y, TESSERA_R_32F, 0, buf.data()), TESSERA_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(call(h, 0, &one, A, X, &zero, Y, D, 0, nullptr), TESSERA_STATUS_INVALID_VALUE);  // buffer needed
  EXPECT_EQ(y, (std::vector<double>{5, 5, 5}));
  size_t bytes = 0;
  EXPECT_EQ(tsparseSpMV_bufferSize(h, kN, &one, A, X, &zero, Y, D, TSPARSE_SPMV_ALG_DEFAULT, nullptr),
            TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseSpMV_bufferSize(h, kN, &one, A, X, &zero, Y, D, TSPARSE_SPMV_ALG_DEFAULT, &bytes),
            TESSERA_STATUS_SUCCESS);
  EXPECT_LE(bytes, buf.size());
  EXPECT_EQ(call(h, 0, &one, A, X, &zero, Y, D, 0, buf.data()), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(y, (std::vector<double>{1, 2, 3}));
  // A destroyed descriptor is rejected, and destroying it twice is an error.
  EXPECT_EQ(tsparseDestroyDnVec(X), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(tsparseDestroyDnVec(X), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(call(h, 0, &one, A, X, &zero, Y, D, 0, buf.data()), TESSERA_STATUS_INVALID_VALUE);
  tsparseDestroyDnVec(Y);
  tsparseDestroyDnVec(XF);
  tsparseDestroyDnVec(Y2);
  tsparseDestroySpMat(A);
}

TEST(SpMV, SetPointersDropsTheAnalysis) {
  SparseHandle h;
  std::vector<double> v = {1, 2, 3}, x = {1, 10, 100}, y(3);
  std::vector<int32_t> off = {0, 1, 2, 3}, good = {0, 1, 2}, bad = {0, 1, 7};
  tt::CsrXY d(3, 3, off, good, v, x, y);
  tsparseSpMatDescr_t A = d.A;
  tsparseDnVecDescr_t X = d.X, Y = d.Y;
  const double one = 1, zero = 0;
  std::vector<char> buf(1024);
  EXPECT_EQ(tsparseSpMV(h, kN, &one, A, X, &zero, Y, TESSERA_R_64F, TSPARSE_SPMV_ALG_DEFAULT, buf.data()),
            TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(y, (std::vector<double>{1, 20, 300}));
  EXPECT_EQ(tsparseCsrSetPointers(A, off.data(), bad.data(), v.data()), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(tsparseSpMV(h, kN, &one, A, X, &zero, Y, TESSERA_R_64F, TSPARSE_SPMV_ALG_DEFAULT, buf.data()),
            TESSERA_STATUS_INVALID_VALUE);
}

TEST(SparseDescriptors, CreateValidatesAndGettersRoundTrip) {
  std::vector<int32_t> idx = {0, 2};
  std::vector<float> val = {1, 2};
  tsparseSpVecDescr_t x;
  EXPECT_EQ(tsparseCreateSpVec(nullptr, 4, 2, idx.data(), val.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO,
                               TESSERA_R_32F),
            TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseCreateSpVec(&x, -1, 2, idx.data(), val.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO,
                               TESSERA_R_32F),
            TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseCreateSpVec(&x, 4, 2, nullptr, val.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO,
                               TESSERA_R_32F),
            TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseCreateSpVec(&x, 4, 2, idx.data(), val.data(), tsparseIndexType_t(7), TSPARSE_INDEX_BASE_ZERO,
                               TESSERA_R_32F),
            TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseCreateSpVec(&x, 4, 2, idx.data(), val.data(), TSPARSE_INDEX_32I, tsparseIndexBase_t(2),
                               TESSERA_R_32F),
            TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseCreateSpVec(&x, 4, 2, idx.data(), val.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO,
                               TESSERA_C_32F),
            TESSERA_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(tsparseCreateSpVec(&x, 4, 2, idx.data(), val.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ONE,
                               TESSERA_R_32F),
            TESSERA_STATUS_SUCCESS);
  int64_t size, nnz;
  const void *pi, *pv;
  tsparseIndexType_t it;
  tsparseIndexBase_t ib;
  tesseraDataType_t dt;
  EXPECT_EQ(tsparseSpVecGet(x, &size, &nnz, &pi, &pv, &it, &ib, &dt), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(size, 4);
  EXPECT_EQ(nnz, 2);
  EXPECT_EQ(pi, idx.data());
  EXPECT_EQ(pv, val.data());
  EXPECT_EQ(ib, TSPARSE_INDEX_BASE_ONE);
  EXPECT_EQ(dt, TESSERA_R_32F);
  EXPECT_EQ(tsparseDestroySpVec(x), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(tsparseSpVecGet(x, &size, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
            TESSERA_STATUS_INVALID_VALUE);

  tsparseSpMatDescr_t A;
  std::vector<int32_t> off = {0, 1, 2};
  EXPECT_EQ(tsparseCreateCsr(&A, 2, 3, 2, off.data(), idx.data(), val.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_32I,
                             TSPARSE_INDEX_BASE_ZERO, TESSERA_R_32F),
            TESSERA_STATUS_SUCCESS);
  int64_t rows, cols;
  EXPECT_EQ(tsparseCsrGet(A, &rows, &cols, &nnz, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, &dt),
            TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(cols, 3);
  EXPECT_EQ(dt, TESSERA_R_32F);
  EXPECT_EQ(tsparseDestroySpMat(A), TESSERA_STATUS_SUCCESS);
  // 32-bit offsets cannot describe more than 2^31-1 entries: refused, not wrapped.
  EXPECT_EQ(tsparseCreateCsr(&A, 2, 3, int64_t(1) << 31, off.data(), idx.data(), val.data(), TSPARSE_INDEX_32I,
                             TSPARSE_INDEX_64I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_32F),
            TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseCreateCsr(&A, 2, int64_t(1) << 32, 2, off.data(), idx.data(), val.data(), TSPARSE_INDEX_64I,
                             TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_32F),
            TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseCreateCsr(&A, -1, 3, 2, off.data(), idx.data(), val.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_32I,
                             TSPARSE_INDEX_BASE_ZERO, TESSERA_R_32F),
            TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseCreateCsr(&A, 2, 3, 2, nullptr, idx.data(), val.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_32I,
                             TSPARSE_INDEX_BASE_ZERO, TESSERA_R_32F),
            TESSERA_STATUS_INVALID_VALUE);
  tsparseDnVecDescr_t y;
  EXPECT_EQ(tsparseCreateDnVec(&y, 3, nullptr, TESSERA_R_32F), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseCreateDnVec(&y, 0, nullptr, TESSERA_R_32F), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(tsparseDestroyDnVec(y), TESSERA_STATUS_SUCCESS);
}

TEST(SparseHandle, CreateDestroyThreads) {
  tsparseHandle_t h;
  EXPECT_EQ(tsparseCreate(nullptr), TESSERA_STATUS_INVALID_VALUE);
  ASSERT_EQ(tsparseCreate(&h), TESSERA_STATUS_SUCCESS);
  int t = 0;
  EXPECT_EQ(tsparseGetNumThreads(h, &t), TESSERA_STATUS_SUCCESS);
  EXPECT_GE(t, 1);
  EXPECT_EQ(tsparseSetNumThreads(h, 0), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseSetNumThreads(h, 3), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(tsparseGetNumThreads(h, &t), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(t, 3);
  EXPECT_EQ(tsparseDestroy(h), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(tsparseDestroy(h), TESSERA_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(tsparseSetNumThreads(h, 2), TESSERA_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(tsparseDestroy(nullptr), TESSERA_STATUS_NOT_INITIALIZED);
}

// ---- SpVV -------------------------------------------------------------------

uint16_t float_to_half(float f) {  // round to nearest even, for test inputs only
  uint32_t b;
  std::memcpy(&b, &f, 4);
  const uint32_t sign = (b >> 16) & 0x8000u;
  int32_t e = int32_t((b >> 23) & 0xff) - 127 + 15;
  uint32_t m = b & 0x7fffffu;
  if (e <= 0) return uint16_t(sign);  // test values stay in the normal range
  uint32_t h = sign | uint32_t(e) << 10 | m >> 13;
  const uint32_t rest = m & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h;
  return uint16_t(h);
}
float half_to_float_ref(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float v = e == 0 ? std::ldexp(float(m), -24) : std::ldexp(float(m | 0x400), e - 25);
  return (h & 0x8000) ? -v : v;
}

template <class T, class I>
void spvv_case(int64_t ylen, int64_t nnz, int64_t base, uint64_t seed) {
  std::mt19937_64 rng(seed);
  using Store = std::conditional_t<std::is_same_v<T, uint16_t>, uint16_t, T>;
  std::vector<Store> y(static_cast<size_t>(ylen)), v(static_cast<size_t>(nnz));
  std::vector<double> yd(static_cast<size_t>(ylen)), vd(static_cast<size_t>(nnz));
  for (int64_t i = 0; i < ylen; ++i) {
    if constexpr (std::is_same_v<T, uint16_t>) {
      y[size_t(i)] = float_to_half(float(tt::random_entry<float>(rng)));
      yd[size_t(i)] = half_to_float_ref(y[size_t(i)]);
    } else {
      y[size_t(i)] = tt::random_entry<T>(rng);
    }
  }
  std::vector<I> idx(static_cast<size_t>(nnz));
  for (int64_t i = 0; i < nnz; ++i) {
    idx[size_t(i)] = I(int64_t(rng() % uint64_t(ylen)) + base);  // unsorted, repeats allowed
    if constexpr (std::is_same_v<T, uint16_t>) {
      v[size_t(i)] = float_to_half(float(tt::random_entry<float>(rng)));
      vd[size_t(i)] = half_to_float_ref(v[size_t(i)]);
    } else {
      v[size_t(i)] = tt::random_entry<T>(rng);
    }
  }
  const tesseraDataType_t dt = tt::dtype<T>();
  const tesseraDataType_t ct = std::is_same_v<T, uint16_t> ? TESSERA_R_32F : dt;
  const auto it = sizeof(I) == 8 ? TSPARSE_INDEX_64I : TSPARSE_INDEX_32I;
  tsparseSpVecDescr_t X;
  tsparseDnVecDescr_t Y;
  ASSERT_EQ(tsparseCreateSpVec(&X, ylen, nnz, idx.data(), v.data(), it, tsparseIndexBase_t(base), dt),
            TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tsparseCreateDnVec(&Y, ylen, y.data(), dt), TESSERA_STATUS_SUCCESS);
  using Res = std::conditional_t<std::is_same_v<T, uint16_t>, float, T>;
  // Reference.
  Res want;
  double bound = 0;
  if constexpr (std::is_same_v<T, int32_t>) {
    uint32_t s = 0;
    for (int64_t i = 0; i < nnz; ++i) s += uint32_t(v[size_t(i)]) * uint32_t(y[size_t(idx[size_t(i)] - base)]);
    want = int32_t(s);
  } else {
    long double s = 0, mag = 0;
    for (int64_t i = 0; i < nnz; ++i) {
      long double p;
      if constexpr (std::is_same_v<T, uint16_t>) p = (long double)vd[size_t(i)] * yd[size_t(idx[size_t(i)] - base)];
      else p = (long double)v[size_t(i)] * y[size_t(idx[size_t(i)] - base)];
      s += p;
      mag += std::fabs(p);
    }
    want = Res(s);
    bound = double(mag) * double(nnz + 2) * std::numeric_limits<Res>::epsilon() + 1e-30;
  }
  SparseHandle h;
  for (tesseraArch_t arch : tt::supported_paths()) {
    tsparseSetArch(h, arch);
    Res first{};
    for (int threads : {1, 2, 3}) {
      tsparseSetNumThreads(h, threads);
      Res got{};
      ASSERT_EQ(tsparseSpVV(h, kN, X, Y, &got, ct), TESSERA_STATUS_SUCCESS);
      if constexpr (std::is_same_v<T, int32_t>) EXPECT_EQ(got, want);
      else EXPECT_LE(std::fabs(double(got) - double(want)), bound) << "nnz " << nnz << " arch " << arch;
      if (threads == 1) first = got;
      else EXPECT_EQ(std::memcmp(&first, &got, sizeof got), 0) << "threads " << threads << " differ";
    }
  }
  tsparseDestroySpVec(X);
  tsparseDestroyDnVec(Y);
}

TEST(SpVV, AllTypesIndexWidthsBasesAndSizes) {
  uint64_t seed = 1;
  for (int64_t nnz : {0, 1, 7, 8191, 8192, 8193, 50001}) {
    for (int64_t base : {0, 1}) {
      spvv_case<float, int32_t>(100000, nnz, base, seed++);
      spvv_case<float, int64_t>(100000, nnz, base, seed++);
      spvv_case<double, int32_t>(70000, nnz, base, seed++);
      spvv_case<double, int64_t>(70000, nnz, base, seed++);
      spvv_case<uint16_t, int32_t>(30000, nnz, base, seed++);
      spvv_case<uint16_t, int64_t>(30000, nnz, base, seed++);
      spvv_case<int32_t, int32_t>(9000, nnz, base, seed++);
      spvv_case<int32_t, int64_t>(9000, nnz, base, seed++);
    }
  }
}

// One bad index at `where` among nnz valid ones (every value type, both
// index widths, every path and 1/2 threads): INVALID_VALUE, result untouched.
// The positions cover the kernels' regions — the first entries, the entries
// checked ahead of the products (128 on), a chunk's end (8191, 8192) and the
// entries after the look-ahead loop — and y is exactly ylen long, so under
// ASan any read through an unchecked index fails the test.
template <class T, class I>
void spvv_bad_index_case(SparseHandle &h, int64_t nnz, int64_t base, int64_t bad, int64_t where) {
  constexpr int64_t ylen = 1000;
  std::vector<T> y(ylen, T(1)), v(size_t(nnz), T(1));
  std::vector<I> idx(static_cast<size_t>(nnz));
  for (int64_t i = 0; i < nnz; ++i) idx[size_t(i)] = I(i % ylen + base);
  idx[size_t(where)] = I(bad + base);
  const tesseraDataType_t dt = tt::dtype<T>();
  tsparseSpVecDescr_t X;
  tsparseDnVecDescr_t Y;
  const auto it = sizeof(I) == 8 ? TSPARSE_INDEX_64I : TSPARSE_INDEX_32I;
  ASSERT_EQ(tsparseCreateSpVec(&X, ylen, nnz, idx.data(), v.data(), it, tsparseIndexBase_t(base), dt),
            TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tsparseCreateDnVec(&Y, ylen, y.data(), dt), TESSERA_STATUS_SUCCESS);
  for (tesseraArch_t arch : tt::supported_paths()) {
    tsparseSetArch(h, arch);
    for (int threads : {1, 2}) {
      tsparseSetNumThreads(h, threads);
      double r = 123;  // room for any result type
      EXPECT_EQ(tsparseSpVV(h, kN, X, Y, &r, std::is_same_v<T, uint16_t> ? TESSERA_R_32F : dt),
                TESSERA_STATUS_INVALID_VALUE)
          << "bad " << bad << " at " << where << " of " << nnz << " base " << base << " arch " << arch;
      EXPECT_EQ(r, 123.0);
    }
  }
  tsparseDestroySpVec(X);
  tsparseDestroyDnVec(Y);
}

template <class T, class I>
void spvv_bad_index_cases(SparseHandle &h) {
  for (int64_t base : {0, 1}) {
    for (int64_t bad : {int64_t(-1), int64_t(1000), int64_t(INT32_MAX) - 1, int64_t(1) << 40}) {
      if (sizeof(I) == 4 && bad > INT32_MAX - 1) continue;
      // 20005 = 2 chunks of 8192 and one of 3621: its last 5 entries are past the
      // last whole step of the look-ahead loop (checked after it).
      for (int64_t where : {0, 1, 127, 128, 129, 143, 144, 8191, 8192, 8192 + 130, 19999, 20000, 20004})
        spvv_bad_index_case<T, I>(h, 20005, base, bad, where);
      for (int64_t where : {0, 50, 99}) spvv_bad_index_case<T, I>(h, 100, base, bad, where);
    }
  }
}

TEST(SpVV, IndexOutsideYIsInvalidAndResultUntouched) {
  SparseHandle h;
  spvv_bad_index_cases<float, int32_t>(h);
  spvv_bad_index_cases<float, int64_t>(h);
  spvv_bad_index_cases<double, int32_t>(h);
  spvv_bad_index_cases<double, int64_t>(h);
  spvv_bad_index_cases<int32_t, int32_t>(h);
  spvv_bad_index_cases<int32_t, int64_t>(h);
  spvv_bad_index_cases<uint16_t, int32_t>(h);
  spvv_bad_index_cases<uint16_t, int64_t>(h);
}

TEST(SpVV, OpsTypesAndNulls) {
  SparseHandle h;
  std::vector<int32_t> idx = {2, 0};
  std::vector<float> v = {2, 3}, y = {10, 20, 30};
  std::vector<double> yd = {10, 20, 30};
  tsparseSpVecDescr_t X;
  tsparseDnVecDescr_t Y, YD;
  tsparseCreateSpVec(&X, 3, 2, idx.data(), v.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_32F);
  tsparseCreateDnVec(&Y, 3, y.data(), TESSERA_R_32F);
  tsparseCreateDnVec(&YD, 3, yd.data(), TESSERA_R_64F);
  float r = -1;
  EXPECT_EQ(tsparseSpVV(h, kN, X, Y, &r, TESSERA_R_32F), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(r, 2 * 30 + 3 * 10);
  r = -1;
  EXPECT_EQ(tsparseSpVV(h, kT, X, Y, &r, TESSERA_R_32F), TESSERA_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(tsparseSpVV(h, TSPARSE_OPERATION_CONJUGATE_TRANSPOSE, X, Y, &r, TESSERA_R_32F),
            TESSERA_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(tsparseSpVV(h, tsparseOperation_t(9), X, Y, &r, TESSERA_R_32F), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseSpVV(h, kN, X, YD, &r, TESSERA_R_32F), TESSERA_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(tsparseSpVV(h, kN, X, Y, &r, TESSERA_R_64F), TESSERA_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(tsparseSpVV(h, kN, X, Y, nullptr, TESSERA_R_32F), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseSpVV(h, kN, nullptr, Y, &r, TESSERA_R_32F), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseSpVV(h, kN, X, nullptr, &r, TESSERA_R_32F), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tsparseSpVV(h, kN, reinterpret_cast<tsparseSpVecDescr_t>(Y), Y, &r, TESSERA_R_32F),
            TESSERA_STATUS_INVALID_VALUE);  // a dense vector passed as the sparse one
  tsparseHandle_t dead;
  tsparseCreate(&dead);
  tsparseDestroy(dead);
  EXPECT_EQ(tsparseSpVV(dead, kN, X, Y, &r, TESSERA_R_32F), TESSERA_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(tsparseSpVV(nullptr, kN, X, Y, &r, TESSERA_R_32F), TESSERA_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(r, -1);
  tsparseDestroySpVec(X);
  tsparseDestroyDnVec(Y);
  tsparseDestroyDnVec(YD);
}

TEST(SpVV, HalfConversionIsExactIncludingSubnormalsAndInf) {
  // y = 1.0 everywhere; x holds every finite positive half once → the sum in
  // float must match the sum of exact conversions (done here in double).
  SparseHandle h;
  tsparseSetNumThreads(h, 1);
  std::vector<uint16_t> vals;
  for (uint32_t b = 0; b < 0x7c00; b += 7) vals.push_back(uint16_t(b));
  std::vector<int32_t> idx(vals.size(), 0);
  std::vector<uint16_t> y = {0x3c00};  // 1.0
  tsparseSpVecDescr_t X;
  tsparseDnVecDescr_t Y;
  tsparseCreateSpVec(&X, 1, int64_t(vals.size()), idx.data(), vals.data(), TSPARSE_INDEX_32I,
                     TSPARSE_INDEX_BASE_ZERO, TESSERA_R_16F);
  tsparseCreateDnVec(&Y, 1, y.data(), TESSERA_R_16F);
  for (tesseraArch_t arch : tt::supported_paths()) {
    tsparseSetArch(h, arch);
    // One value at a time: each conversion must be exact.
    for (size_t i = 0; i < vals.size(); i += 97) {
      tsparseSpVecDescr_t one;
      tsparseCreateSpVec(&one, 1, 1, idx.data(), &vals[i], TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_16F);
      float r = 0;
      ASSERT_EQ(tsparseSpVV(h, kN, one, Y, &r, TESSERA_R_32F), TESSERA_STATUS_SUCCESS);
      EXPECT_EQ(r, half_to_float_ref(vals[i])) << std::hex << vals[i];
      tsparseDestroySpVec(one);
    }
    uint16_t inf = 0xfc00;  // -Inf
    tsparseSpVecDescr_t one;
    tsparseCreateSpVec(&one, 1, 1, idx.data(), &inf, TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_16F);
    float r = 0;
    ASSERT_EQ(tsparseSpVV(h, kN, one, Y, &r, TESSERA_R_32F), TESSERA_STATUS_SUCCESS);
    EXPECT_EQ(r, -std::numeric_limits<float>::infinity());
    tsparseDestroySpVec(one);
  }
  tsparseDestroySpVec(X);
  tsparseDestroyDnVec(Y);
}

}  // namespace
