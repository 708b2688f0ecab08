// Allocation failure, injected at every allocation site in turn
// (core/alloc.h): each routine returns ALLOC_FAILED with its outputs byte for
// byte untouched, and the same handle then works normally.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "core/alloc.h"
#include "sparse_util.h"
#include "test_util.h"
#include "tessera/blas.h"
#include "tessera/sparse.h"

namespace {

struct NoInjection {
  ~NoInjection() { tessera::inject_alloc_failure_after(-1); }
};

// Runs `call` with the n-th allocation failing for n = 0, 1, … until a run
// needs no more allocations than that. Each attempt starts from fresh state
// (`fresh`), so the allocations really happen. Returns the number of
// injected failures seen.
int sweep(const std::function<void()> &fresh, const std::function<tesseraStatus_t()> &call,
          const std::function<bool()> &output_untouched, const std::function<bool()> &output_correct,
          const char *what) {
  NoInjection guard;
  int failures = 0;
  for (int64_t n = 0; n < 64; ++n) {
    fresh();
    tessera::inject_alloc_failure_after(n);
    const tesseraStatus_t st = call();
    tessera::inject_alloc_failure_after(-1);
    if (st == TESSERA_STATUS_ALLOC_FAILED) {
      ++failures;
      EXPECT_TRUE(output_untouched()) << what << ": failure at allocation " << n << " wrote the output";
      // The same handle and descriptors still work.
      EXPECT_EQ(call(), TESSERA_STATUS_SUCCESS) << what << " after a failure at allocation " << n;
      EXPECT_TRUE(output_correct()) << what << " after a failure at allocation " << n;
      continue;
    }
    EXPECT_EQ(st, TESSERA_STATUS_SUCCESS) << what;
    EXPECT_TRUE(output_correct()) << what;
    break;  // n successful allocations were enough
  }
  return failures;
}

// One dense routine on fixed random inputs: `call(h, C)` updates C.
template <class T>
void dense_case(const char *what, const std::function<tesseraStatus_t(tblasHandle_t, T *)> &call, int64_t csize) {
  std::mt19937_64 rng(1);
  std::vector<T> C0(static_cast<size_t>(csize));
  for (auto &e : C0) {
    if constexpr (tt::is_cplx<T>::value) e = T(tt::random_entry<double>(rng), tt::random_entry<double>(rng));
    else e = T(tt::random_entry<double>(rng));
  }
  tblasHandle_t h = nullptr;
  std::vector<T> want = C0, C;
  tblasCreate(&h);
  ASSERT_EQ(call(h, want.data()), TESSERA_STATUS_SUCCESS);
  tblasDestroy(h);
  h = nullptr;
  auto same = [](const std::vector<T> &a, const std::vector<T> &b) {
    return std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
  };
  const int f = sweep(
      [&] {  // a new handle: its workspace is empty
        if (h) tblasDestroy(h);
        ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
        C = C0;
      },
      [&] { return call(h, C.data()); }, [&] { return same(C, C0); }, [&] { return same(C, want); }, what);
  EXPECT_GE(f, 1) << what << " allocated nothing: the injection did not reach it";
  tblasDestroy(h);
}

TEST(AllocFailure, DenseRoutinesReportAndRecover) {
  using cf = std::complex<float>;
  using cd = std::complex<double>;
  const int64_t n = 257;  // large enough for the packed path (workspace)
  std::mt19937_64 rng(2);
  auto input = [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> v(static_cast<size_t>(n * n));
    for (auto &e : v) {
      if constexpr (tt::is_cplx<T>::value) e = T(tt::random_entry<double>(rng), tt::random_entry<double>(rng));
      else e = T(tt::random_entry<double>(rng));
    }
    return v;
  };
  const auto As = input(0.f), Bs = input(0.f);
  const auto Ad = input(0.0), Bd = input(0.0);
  const auto Ac = input(cf()), Bc = input(cf());
  const auto Az = input(cd()), Bz = input(cd());
  const float s1 = 1, sh = 0.5f;
  const double d1 = 1, dh = 0.5;
  const cf c1(1, 0.5f), ch(0.5f, -1);
  const cd z1(1, 0.5), zh(0.5, -1);
  const auto N = TBLAS_OP_N, T = TBLAS_OP_T, C = TBLAS_OP_C;
  const auto U = TBLAS_FILL_MODE_UPPER, L = TBLAS_FILL_MODE_LOWER;
  const int64_t cs = n * n;
  dense_case<float>("sgemm", [&](tblasHandle_t h, float *c) {
    return tt::gemm(h, N, T, n, n, n, &s1, As.data(), n, Bs.data(), n, &sh, c, n); }, cs);
  dense_case<double>("dgemm", [&](tblasHandle_t h, double *c) {
    return tt::gemm(h, N, T, n, n, n, &d1, Ad.data(), n, Bd.data(), n, &dh, c, n); }, cs);
  dense_case<cf>("cgemm", [&](tblasHandle_t h, cf *c) {
    return tt::gemm(h, C, N, n, n, n, &c1, Ac.data(), n, Bc.data(), n, &ch, c, n); }, cs);
  dense_case<cd>("zgemm", [&](tblasHandle_t h, cd *c) {
    return tt::gemm(h, N, N, n, n, n, &z1, Az.data(), n, Bz.data(), n, &zh, c, n); }, cs);
  dense_case<float>("ssyrk", [&](tblasHandle_t h, float *c) {
    return tt::syrk(h, U, N, n, n, &s1, As.data(), n, &sh, c, n); }, cs);
  dense_case<double>("dsyrk", [&](tblasHandle_t h, double *c) {
    return tt::syrk(h, L, T, n, n, &d1, Ad.data(), n, &dh, c, n); }, cs);
  dense_case<cf>("csyrk", [&](tblasHandle_t h, cf *c) {
    return tt::syrk(h, U, T, n, n, &c1, Ac.data(), n, &ch, c, n); }, cs);
  dense_case<cd>("zsyrk", [&](tblasHandle_t h, cd *c) {
    return tt::syrk(h, L, N, n, n, &z1, Az.data(), n, &zh, c, n); }, cs);
  dense_case<cf>("cherk", [&](tblasHandle_t h, cf *c) {
    return tt::herk(h, U, C, n, n, &s1, Ac.data(), n, &sh, c, n); }, cs);
  dense_case<cd>("zherk", [&](tblasHandle_t h, cd *c) {
    return tt::herk(h, L, N, n, n, &d1, Az.data(), n, &dh, c, n); }, cs);
}

TEST(AllocFailure, SparseRoutinesReportAndRecover) {
  std::mt19937_64 rng(2);
  auto a = tt::random_csr<double>(3000, 2000, [](int64_t i) { return int64_t(i % 9); }, rng);
  tt::IndexArrays ia = tt::index_arrays(a, TSPARSE_INDEX_32I, TSPARSE_INDEX_32I, 0);
  std::vector<double> x(2000, 0.5), y0(3000, 3.0), y, want;
  tsparseHandle_t h;
  ASSERT_EQ(tsparseCreate(&h), TESSERA_STATUS_SUCCESS);
  tsparseSpMatDescr_t A = nullptr;
  tsparseDnVecDescr_t X = nullptr, Y = nullptr;
  const double one = 1, two = 2;
  std::vector<char> buf(1 << 20);
  tsparseSpMVAlg_t alg = TSPARSE_SPMV_ALG_DEFAULT;
  auto run = [&] {
    return tsparseSpMV(h, TSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &two, Y, TESSERA_R_64F, alg, buf.data());
  };
  auto fresh = [&] {  // a new matrix descriptor: no analysis yet
    if (A) tsparseDestroySpMat(A);
    if (!X) tsparseCreateDnVec(&X, 2000, x.data(), TESSERA_R_64F);
    if (!Y) tsparseCreateDnVec(&Y, 3000, y.data(), TESSERA_R_64F);
    ASSERT_EQ(tsparseCreateCsr(&A, a.rows, a.cols, a.nnz(), ia.off(), ia.col(), a.val.data(), TSPARSE_INDEX_32I,
                               TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_64F),
              TESSERA_STATUS_SUCCESS);
    y = y0;
  };
  y = y0;
  fresh();
  ASSERT_EQ(run(), TESSERA_STATUS_SUCCESS);
  want = y;
  // Each attempt: y back to y0 and a fresh descriptor, then SpMV once.
  auto call = [&] {
    y.assign(y0.begin(), y0.end());
    return run();
  };
  int f = sweep(fresh, call, [&] { return y == y0; }, [&] { return y == want; }, "SpMV");
  EXPECT_GE(f, 1);
  // The column-blocked copy (blocks of 64 columns: 32 blocks) is one more
  // allocation site; its results differ from the default's only in rounding.
  tt::BlockColsEnv env("64");
  alg = TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS;
  fresh();
  ASSERT_EQ(run(), TESSERA_STATUS_SUCCESS);
  want = y;
  f = sweep(fresh, call, [&] { return y == y0; }, [&] { return y == want; }, "SpMV column blocks");
  EXPECT_GE(f, 2);
  tsparseDestroySpMat(A);
  tsparseDestroyDnVec(X);
  tsparseDestroyDnVec(Y);

  // SpVV over more than 128 chunks keeps its partial sums on the heap.
  const int64_t nnz = 2000000, ylen = 3000000;
  std::vector<int32_t> idx(static_cast<size_t>(nnz));
  std::vector<float> v(static_cast<size_t>(nnz), 0.25f), yv(static_cast<size_t>(ylen), 2.0f);
  for (auto &i : idx) i = int32_t(rng() % uint64_t(ylen));
  tsparseSpVecDescr_t V;
  tsparseDnVecDescr_t W;
  tsparseCreateSpVec(&V, ylen, nnz, idx.data(), v.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_32F);
  tsparseCreateDnVec(&W, ylen, yv.data(), TESSERA_R_32F);
  float r = -7, r_want = 0;
  ASSERT_EQ(tsparseSpVV(h, TSPARSE_OPERATION_NON_TRANSPOSE, V, W, &r_want, TESSERA_R_32F), TESSERA_STATUS_SUCCESS);
  f = sweep([&] { r = -7; }, [&] { return tsparseSpVV(h, TSPARSE_OPERATION_NON_TRANSPOSE, V, W, &r, TESSERA_R_32F); },
            [&] { return r == -7; }, [&] { return r == r_want; }, "SpVV");
  EXPECT_GE(f, 1);
  tsparseDestroySpVec(V);
  tsparseDestroyDnVec(W);
  tsparseDestroy(h);
}

TEST(AllocFailure, CreatorsLeaveTheirOutputAlone) {
  NoInjection guard;
  tessera::inject_alloc_failure_after(0);
  tblasHandle_t bh = reinterpret_cast<tblasHandle_t>(0x1);
  tsparseHandle_t sh = reinterpret_cast<tsparseHandle_t>(0x1);
  tsparseDnVecDescr_t d = reinterpret_cast<tsparseDnVecDescr_t>(0x1);
  float v[2] = {1, 2};
  EXPECT_EQ(tblasCreate(&bh), TESSERA_STATUS_ALLOC_FAILED);
  EXPECT_EQ(tsparseCreate(&sh), TESSERA_STATUS_ALLOC_FAILED);
  EXPECT_EQ(tsparseCreateDnVec(&d, 2, v, TESSERA_R_32F), TESSERA_STATUS_ALLOC_FAILED);
  EXPECT_EQ(bh, reinterpret_cast<tblasHandle_t>(0x1));
  EXPECT_EQ(sh, reinterpret_cast<tsparseHandle_t>(0x1));
  EXPECT_EQ(d, reinterpret_cast<tsparseDnVecDescr_t>(0x1));
  // One allocation allowed: the object, then its registration fails.
  tessera::inject_alloc_failure_after(1);
  EXPECT_EQ(tblasCreate(&bh), TESSERA_STATUS_ALLOC_FAILED);
  EXPECT_EQ(bh, reinterpret_cast<tblasHandle_t>(0x1));
  tessera::inject_alloc_failure_after(0);
  char err[256] = "x";
  tsparseMmMatrix_t m = nullptr;
  EXPECT_EQ(tsparseMmRead(TESSERA_MATRICES "/bcsstk13.mtx", TESSERA_R_64F, TSPARSE_INDEX_32I, &m, err, sizeof err),
            TESSERA_STATUS_ALLOC_FAILED);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(std::string(err).find("out of memory"), std::string::npos) << err;
}

}  // namespace
