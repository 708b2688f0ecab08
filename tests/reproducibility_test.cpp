// Reproducibility as one table: every routine, on every ISA path this CPU
// has, gives bit-identical output for 1, 2, 3 and 4 threads and for repeated
// runs. Sizes are large enough that the work really is split.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "sparse_util.h"
#include "test_util.h"
#include "tessera/blas.h"
#include "tessera/sparse.h"

namespace {

using Bytes = std::vector<char>;
template <class V>
Bytes bytes_of(const V &v) {
  const char *p = reinterpret_cast<const char *>(v.data());
  return Bytes(p, p + v.size() * sizeof(v[0]));
}

struct Row {
  const char *routine;
  std::function<Bytes(tblasHandle_t, tsparseHandle_t)> run;
};

template <class T>
std::vector<T> rand_vec(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto &e : v) {
    if constexpr (tt::is_cplx<T>::value) e = T(tt::random_entry<double>(rng), tt::random_entry<double>(rng));
    else if constexpr (std::is_same_v<T, int32_t>) e = tt::random_entry<int32_t>(rng);
    else e = T(tt::random_entry<double>(rng));
  }
  return v;
}

// Default shape: crosses the blocks with a transposed B. The k-dominated
// NN shape (m, n small, k several KC) reads real A and B in place.
template <class T, class F>
Row gemm_row(const char *name, F f, tblasOperation_t tb = TBLAS_OP_T, int64_t m = 173, int64_t n = 211,
             int64_t k = 389) {
  return {name, [f, tb, m, n, k](tblasHandle_t h, tsparseHandle_t) {
            auto A = rand_vec<T>(size_t(m * k), 1), B = rand_vec<T>(size_t(k * n), 2), C = rand_vec<T>(size_t(m * n), 3);
            const T alpha = T(0.75), beta = T(-0.5);
            const int64_t ldb = tb == TBLAS_OP_N ? k : n;
            EXPECT_EQ(f(h, TBLAS_OP_N, tb, m, n, k, &alpha, A.data(), m, B.data(), ldb, &beta, C.data(), m), 0);
            return bytes_of(C);
          }};
}

// Default shape: several strips per thread; a small n (4..28) takes the
// narrow complex tile.
template <class T, class S, class F>
Row syrk_row(const char *name, F f, tblasOperation_t trans, int64_t n = 301, int64_t k = 157) {
  return {name, [f, trans, n, k](tblasHandle_t h, tsparseHandle_t) {
            auto A = rand_vec<T>(size_t(n * k), 4), C = rand_vec<T>(size_t(n * n), 5);
            const S alpha = S(1.25), beta = S(0.5);
            const int64_t lda = trans == TBLAS_OP_N ? n : k;
            EXPECT_EQ(f(h, TBLAS_FILL_MODE_LOWER, trans, n, k, &alpha, A.data(), lda, &beta, C.data(), n), 0);
            return bytes_of(C);
          }};
}

template <class T>
Row spmv_row(const char *name, tsparseOperation_t op) {
  return {name, [op](tblasHandle_t, tsparseHandle_t sh) {
            std::mt19937_64 rng(6);
            auto a = tt::random_csr<T>(150000, 120000, [&](int64_t i) { return int64_t(i % 13 == 0 ? 40 : i % 7); }, rng);
            tt::IndexArrays ia = tt::index_arrays(a, TSPARSE_INDEX_32I, TSPARSE_INDEX_32I, 0);
            const bool tr = op != TSPARSE_OPERATION_NON_TRANSPOSE;
            auto xt = rand_vec<T>(size_t(tr ? a.rows : a.cols), 7);
            auto yt = rand_vec<T>(size_t(tr ? a.cols : a.rows), 8);
            const tesseraDataType_t dt = tt::dtype<T>();
            tsparseSpMatDescr_t A;
            tsparseDnVecDescr_t X, Y;
            tsparseCreateCsr(&A, a.rows, a.cols, a.nnz(), ia.off(), ia.col(), a.val.data(), TSPARSE_INDEX_32I,
                             TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, dt);
            tsparseCreateDnVec(&X, int64_t(xt.size()), xt.data(), dt);
            tsparseCreateDnVec(&Y, int64_t(yt.size()), yt.data(), dt);
            const T alpha = T(1.5), beta = T(0.25);
            size_t bytes = 0;
            tsparseSpMV_bufferSize(sh, op, &alpha, A, X, &beta, Y, dt, TSPARSE_SPMV_ALG_DEFAULT, &bytes);
            std::vector<char> buf(bytes);
            EXPECT_EQ(tsparseSpMV(sh, op, &alpha, A, X, &beta, Y, dt, TSPARSE_SPMV_ALG_DEFAULT, buf.data()), 0);
            tsparseDestroyDnVec(X);
            tsparseDestroyDnVec(Y);
            tsparseDestroySpMat(A);
            return bytes_of(yt);
          }};
}

template <class T>
Row spvv_row(const char *name) {
  return {name, [](tblasHandle_t, tsparseHandle_t sh) {
            std::mt19937_64 rng(9);
            const int64_t ylen = 1000000, nnz = 200000;
            auto y = rand_vec<T>(size_t(ylen), 10), v = rand_vec<T>(size_t(nnz), 11);
            std::vector<int32_t> idx(static_cast<size_t>(nnz));
            for (auto &i : idx) i = int32_t(rng() % uint64_t(ylen));
            tsparseSpVecDescr_t X;
            tsparseDnVecDescr_t Y;
            const tesseraDataType_t dt = tt::dtype<T>();
            tsparseCreateSpVec(&X, ylen, nnz, idx.data(), v.data(), TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, dt);
            tsparseCreateDnVec(&Y, ylen, y.data(), dt);
            std::vector<T> r(1);
            EXPECT_EQ(tsparseSpVV(sh, TSPARSE_OPERATION_NON_TRANSPOSE, X, Y, r.data(), dt), 0);
            tsparseDestroySpVec(X);
            tsparseDestroyDnVec(Y);
            return bytes_of(r);
          }};
}

std::vector<Row> table() {
  using cf = std::complex<float>;
  using cd = std::complex<double>;
  return {
      gemm_row<float>("sgemm", tt::gemm<float>),
      gemm_row<double>("dgemm", tt::gemm<double>),
      gemm_row<cf>("cgemm", tt::gemm<cf>),
      gemm_row<cd>("zgemm", tt::gemm<cd>),
      gemm_row<float>("sgemm NN k-dominated", tt::gemm<float>, TBLAS_OP_N, 61, 70, 2000),
      gemm_row<cf>("cgemm NN k-dominated", tt::gemm<cf>, TBLAS_OP_N, 37, 45, 900),
      syrk_row<float, float>("ssyrk", tt::syrk<float>, TBLAS_OP_N),
      syrk_row<double, double>("dsyrk", tt::syrk<double>, TBLAS_OP_T),
      syrk_row<cf, cf>("csyrk", tt::syrk<cf>, TBLAS_OP_N),
      syrk_row<cf, cf>("csyrk narrow tile", tt::syrk<cf>, TBLAS_OP_N, 24, 3000),
      syrk_row<cd, cd>("zsyrk", tt::syrk<cd>, TBLAS_OP_T),
      syrk_row<cf, float>("cherk", tt::herk<cf>, TBLAS_OP_C),
      syrk_row<cd, double>("zherk", tt::herk<cd>, TBLAS_OP_N),
      spmv_row<float>("SpMV fp32 N", TSPARSE_OPERATION_NON_TRANSPOSE),
      spmv_row<double>("SpMV fp64 N", TSPARSE_OPERATION_NON_TRANSPOSE),
      spmv_row<double>("SpMV fp64 T", TSPARSE_OPERATION_TRANSPOSE),
      spmv_row<int32_t>("SpMV int32 N", TSPARSE_OPERATION_NON_TRANSPOSE),
      spmv_row<int32_t>("SpMV int32 T", TSPARSE_OPERATION_TRANSPOSE),
      spvv_row<float>("SpVV fp32"),
      spvv_row<double>("SpVV fp64"),
  };
}

// Each thread count runs twice (run to run), except under the sanitizers:
// there a second run adds little to what they look for (races, bad
// accesses: seen in any run that has them) and this test was the sanitizer
// stage's longest (TSan 140–165 s of the test command's 22 minutes, ASan
// 42 s in session 58's). The Release run repeats.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr int kRuns = 1;
#else
constexpr int kRuns = 2;
#endif

TEST(Reproducibility, EveryRoutineEveryPathAnyThreadCountRepeated) {
  tblasHandle_t h;
  tsparseHandle_t sh;
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tsparseCreate(&sh), TESSERA_STATUS_SUCCESS);
  for (const Row &row : table()) {
    for (tesseraArch_t arch : tt::supported_paths()) {
      ASSERT_EQ(tblasSetArch(h, arch), TESSERA_STATUS_SUCCESS);
      ASSERT_EQ(tsparseSetArch(sh, arch), TESSERA_STATUS_SUCCESS);
      Bytes first;
      for (int threads : {1, 2, 3, 4}) {
        tblasSetNumThreads(h, threads);
        tsparseSetNumThreads(sh, threads);
        for (int rep = 0; rep < kRuns; ++rep) {
          Bytes got = row.run(h, sh);
          if (first.empty()) first = got;
          else EXPECT_TRUE(got == first) << row.routine << " on " << tesseraGetArchString(arch) << ", " << threads
                                         << " threads, run " << rep << ": bits differ from 1 thread";
        }
      }
    }
  }
  tsparseDestroy(sh);
  tblasDestroy(h);
}

}  // namespace
