// Every invalid argument of every dense routine, enumerated from one table:
// the routine returns the status the table names and C is byte-for-byte
// untouched. (The sparse routines' invalid arguments are enumerated in
// sparse_test.cpp: SpMV.InvalidArgumentsAndTypes, SpMV.BadPatternIsInvalid...,
// SpVV.OpsTypesAndNulls, SpVV.IndexOutside..., SparseDescriptors.*.)
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "tessera/blas.h"
#include "tessera/sparse.h"

namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;

enum Kind { kGemm, kSyrk, kHerk };

// The arguments of one call; the mutations below change one of them.
struct Args {
  tblasHandle_t h;
  int op1, op2;  // gemm: transa, transb; syrk/herk: uplo, trans
  int64_t m, n, k, lda, ldb, ldc;
  bool null_alpha = false, null_beta = false, null_a = false, null_b = false, null_c = false;
};

struct Routine {
  const char *name;
  Kind kind;
  std::function<tesseraStatus_t(const Args &, void *C)> call;
  size_t elem;  // bytes per element of C
};

template <class T, class S = T>
struct Data {
  std::vector<T> A = std::vector<T>(64, T(1)), B = std::vector<T>(64, T(1));
  S alpha = S(1), beta = S(1);
};

template <class T>
const auto *cast(const T *p) {
  if constexpr (std::is_same_v<T, cf>) return reinterpret_cast<const tesseraComplex *>(p);
  else if constexpr (std::is_same_v<T, cd>) return reinterpret_cast<const tesseraDoubleComplex *>(p);
  else return p;
}
template <class T>
auto *cast_out(void *p) {
  if constexpr (std::is_same_v<T, cf>) return static_cast<tesseraComplex *>(p);
  else if constexpr (std::is_same_v<T, cd>) return static_cast<tesseraDoubleComplex *>(p);
  else return static_cast<T *>(p);
}

template <class T, class F>
Routine gemm(const char *name, F f) {
  static Data<T> d;
  return {name, kGemm,
          [f](const Args &a, void *C) {
            return f(a.h, tblasOperation_t(a.op1), tblasOperation_t(a.op2), a.m, a.n, a.k,
                     a.null_alpha ? nullptr : cast(&d.alpha), a.null_a ? nullptr : cast(d.A.data()), a.lda,
                     a.null_b ? nullptr : cast(d.B.data()), a.ldb, a.null_beta ? nullptr : cast(&d.beta),
                     a.null_c ? nullptr : cast_out<T>(C), a.ldc);
          },
          sizeof(T)};
}

template <class T, class S, class F>
Routine syrk(const char *name, Kind kind, F f) {
  static Data<T, S> d;
  return {name, kind,
          [f](const Args &a, void *C) {
            return f(a.h, tblasFillMode_t(a.op1), tblasOperation_t(a.op2), a.n, a.k,
                     a.null_alpha ? nullptr : cast(&d.alpha), a.null_a ? nullptr : cast(d.A.data()), a.lda,
                     a.null_beta ? nullptr : cast(&d.beta), a.null_c ? nullptr : cast_out<T>(C), a.ldc);
          },
          sizeof(T)};
}

struct Mutation {
  std::string what;
  std::function<void(Args &)> apply;
  tesseraStatus_t status;
};

// Base call: m = n = 4, k = 3, all op N / uplo lower, tight leading dimensions.
std::vector<Mutation> mutations(Kind kind, tblasHandle_t dead, tblasHandle_t other_kind) {
  const auto I = TESSERA_STATUS_INVALID_VALUE, NI = TESSERA_STATUS_NOT_INITIALIZED;
  std::vector<Mutation> v = {
      {"null handle", [](Args &a) { a.h = nullptr; }, NI},
      {"destroyed handle", [dead](Args &a) { a.h = dead; }, NI},
      {"sparse handle as dense", [other_kind](Args &a) { a.h = other_kind; }, NI},
      {"n < 0", [](Args &a) { a.n = -1; }, I},
      {"k < 0", [](Args &a) { a.k = -1; }, I},
      {"ldc < rows", [](Args &a) { a.ldc = a.m - 1; }, I},
      {"ldc = 0", [](Args &a) { a.ldc = 0; }, I},
      {"ldc overflows", [](Args &a) { a.ldc = INT64_MAX / 2; }, I},
      {"alpha null", [](Args &a) { a.null_alpha = true; }, I},
      {"beta null", [](Args &a) { a.null_beta = true; }, I},
      {"A null", [](Args &a) { a.null_a = true; }, I},
      {"C null", [](Args &a) { a.null_c = true; }, I},
  };
  for (int bad : {-1, 3, 7, 112}) {
    const std::string b = std::to_string(bad);
    if (kind == kGemm) {
      v.push_back({"transa " + b, [bad](Args &a) { a.op1 = bad; }, I});
      v.push_back({"transb " + b, [bad](Args &a) { a.op2 = bad; }, I});
    } else {
      v.push_back({"uplo " + b, [bad](Args &a) { a.op1 = bad; }, I});
      v.push_back({"trans " + b, [bad](Args &a) { a.op2 = bad; }, I});
    }
  }
  if (kind == kGemm) {
    v.push_back({"m < 0", [](Args &a) { a.m = -1; }, I});
    v.push_back({"lda < m (A not transposed)", [](Args &a) { a.lda = a.m - 1; }, I});
    v.push_back({"lda < k (A transposed)", [](Args &a) { a.op1 = TBLAS_OP_T, a.lda = a.k - 1; }, I});
    v.push_back({"lda = 0", [](Args &a) { a.lda = 0; }, I});
    v.push_back({"ldb < k (B not transposed)", [](Args &a) { a.ldb = a.k - 1; }, I});
    v.push_back({"ldb < n (B transposed)", [](Args &a) { a.op2 = TBLAS_OP_C, a.ldb = a.n - 1; }, I});
    v.push_back({"B null", [](Args &a) { a.null_b = true; }, I});
  } else {
    v.push_back({"lda < n (trans N)", [](Args &a) { a.lda = a.n - 1; }, I});
    v.push_back({"lda < k (trans T/C)", [kind](Args &a) { a.op2 = kind == kHerk ? TBLAS_OP_C : TBLAS_OP_T, a.lda = a.k - 1; }, I});
    v.push_back({"lda = 0", [](Args &a) { a.lda = 0; }, I});
  }
  if (kind == kHerk) v.push_back({"herk trans T", [](Args &a) { a.op2 = TBLAS_OP_T; }, I});
  return v;
}

TEST(InvalidArguments, EveryDenseRoutineEveryArgumentOutputsUntouched) {
  const std::vector<Routine> routines = {
      gemm<float>("sgemm", tblasSgemm),
      gemm<double>("dgemm", tblasDgemm),
      gemm<cf>("cgemm", tblasCgemm),
      gemm<cd>("zgemm", tblasZgemm),
      syrk<float, float>("ssyrk", kSyrk, tblasSsyrk),
      syrk<double, double>("dsyrk", kSyrk, tblasDsyrk),
      syrk<cf, cf>("csyrk", kSyrk, tblasCsyrk),
      syrk<cd, cd>("zsyrk", kSyrk, tblasZsyrk),
      syrk<cf, float>("cherk", kHerk, tblasCherk),
      syrk<cd, double>("zherk", kHerk, tblasZherk),
  };
  tblasHandle_t h, dead;
  tsparseHandle_t sparse;
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tblasCreate(&dead), TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tblasDestroy(dead), TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tsparseCreate(&sparse), TESSERA_STATUS_SUCCESS);
  int checked = 0;
  for (const Routine &r : routines) {
    const Args base{h, r.kind == kGemm ? int(TBLAS_OP_N) : int(TBLAS_FILL_MODE_LOWER), TBLAS_OP_N, 4, 4, 3, 4, 3, 4};
    // The base call is valid.
    std::vector<unsigned char> C(16 * 16 * r.elem, 0x5a);
    ASSERT_EQ(r.call(base, C.data()), TESSERA_STATUS_SUCCESS) << r.name;
    for (const Mutation &mu : mutations(r.kind, dead, reinterpret_cast<tblasHandle_t>(sparse))) {
      Args a = base;
      mu.apply(a);
      std::vector<unsigned char> out(16 * 16 * r.elem, 0xa5);
      const auto before = out;
      EXPECT_EQ(r.call(a, out.data()), mu.status) << r.name << ": " << mu.what;
      EXPECT_EQ(out, before) << r.name << ": " << mu.what << " wrote C";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 248);  // 10 routines x their argument list (guards against a silently empty table)
  tsparseDestroy(sparse);
  tblasDestroy(h);
}

}  // namespace
