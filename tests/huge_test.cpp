// Index arithmetic beyond 2^31 elements, in memory that fits: operands whose
// leading dimension puts their last column past 2^31 elements (and past 2^32
// bytes), in virtual address space reserved with MAP_NORESERVE so only the
// touched pages cost memory; sparse vectors and matrices addressing elements
// beyond 2^31 through 64-bit indices; 32-bit index types refusing what they
// cannot hold (never a wrap).
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "tessera/blas.h"
#include "tessera/sparse.h"

namespace {

// Zero-filled virtual memory of `n` elements; pages materialise on touch.
template <class T>
struct Sparse {
  T *p = nullptr;
  size_t bytes = 0;
  explicit Sparse(int64_t n) : bytes(size_t(n) * sizeof(T)) {
    void *m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    p = m == MAP_FAILED ? nullptr : static_cast<T *>(m);
  }
  ~Sparse() {
    if (p) munmap(p, bytes);
  }
  T &operator[](int64_t i) { return p[i]; }
};

constexpr int64_t kHugeLd = (int64_t(1) << 31) + 17;  // > INT32_MAX elements between columns

TEST(Huge, GemmWithLeadingDimensionsBeyond2To31) {
  const int64_t m = 3, n = 2, k = 4;
  // A (m x k), B (k x n), C (m x n), each column kHugeLd elements apart:
  // the last columns start beyond 2^31 elements (> 8 GiB of float).
  Sparse<float> A(kHugeLd * (k - 1) + m), B(kHugeLd * (n - 1) + k), C(kHugeLd * (n - 1) + m);
  ASSERT_TRUE(A.p && B.p && C.p) << "cannot reserve address space";
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < m; ++i) A[i + j * kHugeLd] = float(1 + i + 10 * j);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < k; ++i) B[i + j * kHugeLd] = float(2 - i + 3 * j);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) C[i + j * kHugeLd] = 100.f;
  tblasHandle_t h;
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  const float one = 1, half = 0.5f;
  for (int threads : {1, 2}) {
    tblasSetNumThreads(h, threads);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) C[i + j * kHugeLd] = 100.f;
    ASSERT_EQ(tblasSgemm(h, TBLAS_OP_N, TBLAS_OP_N, m, n, k, &one, A.p, kHugeLd, B.p, kHugeLd, &half, C.p, kHugeLd),
              TESSERA_STATUS_SUCCESS);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) {
        float want = 50.f;
        for (int64_t l = 0; l < k; ++l) want += float(1 + i + 10 * l) * float(2 - l + 3 * j);
        EXPECT_EQ(C[i + j * kHugeLd], want) << i << "," << j;
      }
  }
  tblasDestroy(h);
}

TEST(Huge, SyrkWithLeadingDimensionsBeyond2To31) {
  const int64_t n = 3, k = 2;
  Sparse<double> A(kHugeLd * (k - 1) + n), C(kHugeLd * (n - 1) + n);
  ASSERT_TRUE(A.p && C.p);
  for (int64_t l = 0; l < k; ++l)
    for (int64_t i = 0; i < n; ++i) A[i + l * kHugeLd] = double(i + 1) * (l + 2);
  tblasHandle_t h;
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  const double one = 1, zero = 0;
  ASSERT_EQ(tblasDsyrk(h, TBLAS_FILL_MODE_LOWER, TBLAS_OP_N, n, k, &one, A.p, kHugeLd, &zero, C.p, kHugeLd),
            TESSERA_STATUS_SUCCESS);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) EXPECT_EQ(C[i + j * kHugeLd], double((i + 1) * (j + 1)) * (4 + 9));
  EXPECT_EQ(C[0 + 1 * kHugeLd], 0.0);  // upper triangle untouched
  tblasDestroy(h);
}

TEST(Huge, SpVVIndicesBeyond2To31With64BitIndices) {
  const int64_t ylen = (int64_t(1) << 32) + 5;  // 16 GiB of float, virtual
  Sparse<float> y(ylen);
  ASSERT_TRUE(y.p);
  std::vector<int64_t> idx = {3, (int64_t(1) << 31) + 1, (int64_t(1) << 32) + 4, int64_t(1) << 32};
  std::vector<float> val = {1, 2, 3, 4};
  for (size_t i = 0; i < idx.size(); ++i) y[idx[i]] = float(10 * (i + 1));
  tsparseHandle_t h;
  tsparseCreate(&h);
  tsparseSpVecDescr_t X;
  tsparseDnVecDescr_t Y;
  ASSERT_EQ(tsparseCreateSpVec(&X, ylen, 4, idx.data(), val.data(), TSPARSE_INDEX_64I, TSPARSE_INDEX_BASE_ZERO,
                               TESSERA_R_32F),
            TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tsparseCreateDnVec(&Y, ylen, y.p, TESSERA_R_32F), TESSERA_STATUS_SUCCESS);
  float r = 0;
  ASSERT_EQ(tsparseSpVV(h, TSPARSE_OPERATION_NON_TRANSPOSE, X, Y, &r, TESSERA_R_32F), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(r, 1 * 10 + 2 * 20 + 3 * 30 + 4 * 40);
  // One past the end is refused, not wrapped.
  idx[2] = ylen;
  r = -1;
  EXPECT_EQ(tsparseSpVV(h, TSPARSE_OPERATION_NON_TRANSPOSE, X, Y, &r, TESSERA_R_32F), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(r, -1);
  tsparseDestroySpVec(X);
  tsparseDestroyDnVec(Y);
  tsparseDestroy(h);
}

TEST(Huge, SpMVColumnsBeyond2To31With64BitIndices) {
  const int64_t cols = (int64_t(1) << 31) + 9;  // x of 16 GiB of double, virtual
  Sparse<double> x(cols);
  ASSERT_TRUE(x.p);
  std::vector<int64_t> off = {0, 2, 3}, col = {cols - 1, 5, int64_t(1) << 31};
  std::vector<double> val = {2, 3, 4};
  x[cols - 1] = 1.5;
  x[5] = -1;
  x[int64_t(1) << 31] = 8;
  std::vector<double> y(2, 0.0);
  tsparseHandle_t h;
  tsparseCreate(&h);
  tsparseSpMatDescr_t A;
  tsparseDnVecDescr_t X, Y;
  ASSERT_EQ(tsparseCreateCsr(&A, 2, cols, 3, off.data(), col.data(), val.data(), TSPARSE_INDEX_64I, TSPARSE_INDEX_64I,
                             TSPARSE_INDEX_BASE_ZERO, TESSERA_R_64F),
            TESSERA_STATUS_SUCCESS);
  tsparseCreateDnVec(&X, cols, x.p, TESSERA_R_64F);
  tsparseCreateDnVec(&Y, 2, y.data(), TESSERA_R_64F);
  const double one = 1, zero = 0;
  size_t bytes = 0;
  ASSERT_EQ(tsparseSpMV_bufferSize(h, TSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, TESSERA_R_64F,
                                   TSPARSE_SPMV_ALG_DEFAULT, &bytes),
            TESSERA_STATUS_SUCCESS);
  std::vector<char> buf(bytes);
  ASSERT_EQ(tsparseSpMV(h, TSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, TESSERA_R_64F,
                        TSPARSE_SPMV_ALG_DEFAULT, buf.data()),
            TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(y[0], 2 * 1.5 + 3 * -1.0);
  EXPECT_EQ(y[1], 4 * 8.0);
  // The same columns through 32-bit indices cannot be described: refused.
  std::vector<int32_t> off32 = {0, 2, 3}, col32 = {0, 5, 7};
  tsparseSpMatDescr_t B;
  EXPECT_EQ(tsparseCreateCsr(&B, 2, cols, 3, off32.data(), col32.data(), val.data(), TSPARSE_INDEX_32I,
                             TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_64F),
            TESSERA_STATUS_INVALID_VALUE);
  tsparseDestroyDnVec(X);
  tsparseDestroyDnVec(Y);
  tsparseDestroySpMat(A);
  tsparseDestroy(h);
}

}  // namespace
