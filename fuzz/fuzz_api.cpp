// libFuzzer target: the public C API driven with arbitrary dimensions,
// leading dimensions, enums, scalars, index arrays and descriptors over small
// heap buffers sized exactly for what the arguments would address if they
// were valid (so AddressSanitizer sees any access beyond). Properties checked:
// no crash or sanitizer report; a call that returns an error has written
// nothing (outputs compared byte for byte).
#include <fuzzer/FuzzedDataProvider.h>

#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tessera/blas.h"
#include "tessera/sparse.h"

namespace {

template <class T>
std::vector<T> buffer(FuzzedDataProvider &fdp, int64_t n) {
  std::vector<T> v(size_t(std::max<int64_t>(n, 1)));
  for (auto &e : v) {
    if constexpr (std::is_same_v<T, std::complex<double>>)
      e = T(fdp.ConsumeFloatingPoint<double>(), fdp.ConsumeFloatingPoint<double>());
    else
      e = T(fdp.ConsumeIntegralInRange<int>(-4, 4));
  }
  return v;
}

// Elements a column-major rows x cols operand with leading dimension ld spans.
int64_t span(int64_t rows, int64_t cols, int64_t ld) {
  if (rows <= 0 || cols <= 0 || ld < rows || ld > 64) return 1;
  return ld * (cols - 1) + rows;
}

int op_value(FuzzedDataProvider &fdp) {
  static const int kOps[] = {0, 1, 2, 3, -1, 7, 111, 112};
  return kOps[fdp.ConsumeIntegralInRange<int>(0, 7)];
}

void abort_if(bool bad) {
  if (bad) abort();
}

template <class T>
void dense(FuzzedDataProvider &fdp, tblasHandle_t h, int which) {
  const int ta = op_value(fdp), tb = op_value(fdp);
  const int64_t m = fdp.ConsumeIntegralInRange<int64_t>(-2, 20), n = fdp.ConsumeIntegralInRange<int64_t>(-2, 20),
                k = fdp.ConsumeIntegralInRange<int64_t>(-2, 20);
  const int64_t lda = fdp.ConsumeIntegralInRange<int64_t>(-1, 24), ldb = fdp.ConsumeIntegralInRange<int64_t>(-1, 24),
                ldc = fdp.ConsumeIntegralInRange<int64_t>(-1, 24);
  const bool nulls = fdp.ConsumeIntegralInRange<int>(0, 9) == 0;
  T alpha = T(fdp.ConsumeIntegralInRange<int>(-2, 2)), beta = T(fdp.ConsumeIntegralInRange<int>(-2, 2));
  const bool tA = ta != 0, tB = tb != 0;
  std::vector<T> A, B, C;
  tesseraStatus_t st;
  if (which == 0) {  // gemm
    A = buffer<T>(fdp, span(tA ? k : m, tA ? m : k, lda));
    B = buffer<T>(fdp, span(tB ? n : k, tB ? k : n, ldb));
    C = buffer<T>(fdp, span(m, n, ldc));
    const std::vector<T> C0 = C;
    if constexpr (std::is_same_v<T, double>)
      st = tblasDgemm(h, tblasOperation_t(ta), tblasOperation_t(tb), m, n, k, &alpha, nulls ? nullptr : A.data(), lda,
                      B.data(), ldb, &beta, C.data(), ldc);
    else
      st = tblasZgemm(h, tblasOperation_t(ta), tblasOperation_t(tb), m, n, k,
                      reinterpret_cast<tesseraDoubleComplex *>(&alpha),
                      reinterpret_cast<tesseraDoubleComplex *>(nulls ? nullptr : A.data()), lda,
                      reinterpret_cast<tesseraDoubleComplex *>(B.data()), ldb,
                      reinterpret_cast<tesseraDoubleComplex *>(&beta), reinterpret_cast<tesseraDoubleComplex *>(C.data()),
                      ldc);
    if (st != TESSERA_STATUS_SUCCESS) abort_if(std::memcmp(C.data(), C0.data(), C.size() * sizeof(T)) != 0);
  } else {  // syrk (real) / herk (complex); uplo from the first op value
    A = buffer<T>(fdp, span(tA ? k : n, tA ? n : k, lda));
    C = buffer<T>(fdp, span(n, n, ldc));
    const std::vector<T> C0 = C;
    const int uplo = tb;
    if constexpr (std::is_same_v<T, double>) {
      st = tblasDsyrk(h, tblasFillMode_t(uplo), tblasOperation_t(ta), n, k, &alpha, nulls ? nullptr : A.data(), lda,
                      &beta, C.data(), ldc);
    } else {
      const double ra = alpha.real(), rb = beta.real();
      st = tblasZherk(h, tblasFillMode_t(uplo), tblasOperation_t(ta), n, k, &ra,
                      reinterpret_cast<tesseraDoubleComplex *>(nulls ? nullptr : A.data()), lda, &rb,
                      reinterpret_cast<tesseraDoubleComplex *>(C.data()), ldc);
    }
    if (st != TESSERA_STATUS_SUCCESS) abort_if(std::memcmp(C.data(), C0.data(), C.size() * sizeof(T)) != 0);
  }
}

void sparse_spmv(FuzzedDataProvider &fdp, tsparseHandle_t h) {
  const int64_t rows = fdp.ConsumeIntegralInRange<int64_t>(-1, 30), cols = fdp.ConsumeIntegralInRange<int64_t>(-1, 30);
  const int64_t nnz = fdp.ConsumeIntegralInRange<int64_t>(-1, 120);
  const bool o64 = fdp.ConsumeBool(), c64 = fdp.ConsumeBool();
  const int base = fdp.ConsumeIntegralInRange<int>(0, 2);
  const int op = fdp.ConsumeIntegralInRange<int>(0, 3);
  const bool as_int = fdp.ConsumeBool();
  // Row offsets: mostly a valid monotone sequence, sometimes arbitrary.
  const bool junk = fdp.ConsumeIntegralInRange<int>(0, 3) == 0;
  const size_t nr = size_t(std::max<int64_t>(rows, 0)) + 1, nz = size_t(std::max<int64_t>(nnz, 0));
  std::vector<int64_t> off(nr), col(std::max<size_t>(nz, 1));
  int64_t acc = 0;
  for (size_t i = 0; i < nr; ++i) {
    if (junk) off[i] = fdp.ConsumeIntegralInRange<int64_t>(-3, std::max<int64_t>(nnz, 0) + 3);
    else off[i] = (acc = i == 0 ? 0 : i + 1 == nr ? std::max<int64_t>(nnz, 0) : std::min<int64_t>(std::max<int64_t>(nnz, 0), acc + fdp.ConsumeIntegralInRange<int64_t>(0, 9))) + base;
  }
  for (auto &c : col) c = fdp.ConsumeIntegralInRange<int64_t>(-2, std::max<int64_t>(cols, 0) + 2) + base;
  std::vector<int32_t> off32(off.begin(), off.end()), col32(col.begin(), col.end());
  std::vector<double> val(col.size(), 1.5);
  std::vector<int32_t> ival(col.size(), 3);
  const bool trans = op != 0;
  const int64_t xn = std::max<int64_t>(trans ? rows : cols, 0), yn = std::max<int64_t>(trans ? cols : rows, 0);
  std::vector<double> x(size_t(xn) + 1, 2.0), y(size_t(yn) + 1, 7.0);
  std::vector<int32_t> xi(size_t(xn) + 1, 2), yi(size_t(yn) + 1, 7);
  const tesseraDataType_t t = as_int ? TESSERA_R_32I : TESSERA_R_64F;
  tsparseSpMatDescr_t A = nullptr;
  tsparseDnVecDescr_t X = nullptr, Y = nullptr;
  tesseraStatus_t st = tsparseCreateCsr(
      &A, rows, cols, nnz, o64 ? static_cast<void *>(off.data()) : off32.data(),
      c64 ? static_cast<void *>(col.data()) : col32.data(), as_int ? static_cast<void *>(ival.data()) : val.data(),
      o64 ? TSPARSE_INDEX_64I : TSPARSE_INDEX_32I, c64 ? TSPARSE_INDEX_64I : TSPARSE_INDEX_32I,
      tsparseIndexBase_t(base), t);
  if (st != TESSERA_STATUS_SUCCESS) return;
  tsparseCreateDnVec(&X, xn, as_int ? static_cast<void *>(xi.data()) : x.data(), t);
  tsparseCreateDnVec(&Y, yn, as_int ? static_cast<void *>(yi.data()) : y.data(), t);
  const double one = 1, zero = 0;
  const int32_t ione = 1, izero = 0;
  const void *al = as_int ? static_cast<const void *>(&ione) : &one;
  const void *be = fdp.ConsumeBool() ? (as_int ? static_cast<const void *>(&izero) : &zero) : al;
  size_t bytes = 0;
  st = tsparseSpMV_bufferSize(h, tsparseOperation_t(op), al, A, X, be, Y, t, TSPARSE_SPMV_ALG_DEFAULT, &bytes);
  if (st == TESSERA_STATUS_SUCCESS) {
    std::vector<char> buf(bytes + 1);
    const auto y0 = y;
    const auto yi0 = yi;
    st = tsparseSpMV(h, tsparseOperation_t(op), al, A, X, be, Y, t, TSPARSE_SPMV_ALG_DEFAULT, buf.data());
    if (st != TESSERA_STATUS_SUCCESS) abort_if(y != y0 || yi != yi0);
  }
  tsparseDestroyDnVec(X);
  tsparseDestroyDnVec(Y);
  tsparseDestroySpMat(A);
}

void sparse_spvv(FuzzedDataProvider &fdp, tsparseHandle_t h) {
  const int64_t size = fdp.ConsumeIntegralInRange<int64_t>(-1, 40), nnz = fdp.ConsumeIntegralInRange<int64_t>(-1, 60);
  const bool i64 = fdp.ConsumeBool(), half = fdp.ConsumeBool();
  const int base = fdp.ConsumeIntegralInRange<int>(0, 1);
  std::vector<int64_t> idx(size_t(std::max<int64_t>(nnz, 1)));
  for (auto &i : idx) i = fdp.ConsumeIntegralInRange<int64_t>(-2, std::max<int64_t>(size, 0) + 2);
  std::vector<int32_t> idx32(idx.begin(), idx.end());
  std::vector<float> xv(idx.size(), 0.5f), yv(size_t(std::max<int64_t>(size, 1)), 2.0f);
  std::vector<uint16_t> xh(idx.size(), 0x3800), yh(yv.size(), 0x4000);
  const tesseraDataType_t t = half ? TESSERA_R_16F : TESSERA_R_32F;
  tsparseSpVecDescr_t X = nullptr;
  tsparseDnVecDescr_t Y = nullptr;
  if (tsparseCreateSpVec(&X, size, nnz, i64 ? static_cast<void *>(idx.data()) : idx32.data(),
                         half ? static_cast<void *>(xh.data()) : xv.data(), i64 ? TSPARSE_INDEX_64I : TSPARSE_INDEX_32I,
                         tsparseIndexBase_t(base), t) != TESSERA_STATUS_SUCCESS)
    return;
  if (tsparseCreateDnVec(&Y, size, half ? static_cast<void *>(yh.data()) : yv.data(), t) == TESSERA_STATUS_SUCCESS) {
    float r = 42.f;
    const int op = fdp.ConsumeIntegralInRange<int>(-1, 3);
    if (tsparseSpVV(h, tsparseOperation_t(op), X, Y, &r, TESSERA_R_32F) != TESSERA_STATUS_SUCCESS) abort_if(r != 42.f);
    tsparseDestroyDnVec(Y);
  }
  tsparseDestroySpVec(X);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static tblasHandle_t h = [] {
    tblasHandle_t x;
    tblasCreate(&x);
    return x;
  }();
  static tsparseHandle_t sh = [] {
    tsparseHandle_t x;
    tsparseCreate(&x);
    return x;
  }();
  FuzzedDataProvider fdp(data, size);
  tblasSetNumThreads(h, fdp.ConsumeIntegralInRange<int>(1, 3));
  tsparseSetNumThreads(sh, fdp.ConsumeIntegralInRange<int>(1, 3));
  for (int calls = 0; calls < 4 && fdp.remaining_bytes() > 0; ++calls) {
    switch (fdp.ConsumeIntegralInRange<int>(0, 5)) {
      case 0: dense<double>(fdp, h, 0); break;
      case 1: dense<std::complex<double>>(fdp, h, 0); break;
      case 2: dense<double>(fdp, h, 1); break;
      case 3: dense<std::complex<double>>(fdp, h, 1); break;
      case 4: sparse_spmv(fdp, sh); break;
      default: sparse_spvv(fdp, sh); break;
    }
  }
  return 0;
}
