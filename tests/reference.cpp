// The tests' reference loops (declared in test_util.h), in a file of their
// own so the sanitized builds compile it without instrumentation
// (tests/CMakeLists.txt): the sanitizers watch the library; instrumented,
// these loops in long double were most of the largest sanitized tests' time
// (ASan + UBSan, perf, session 43: ref_syrk 76-80 % of
// Syrk/Herk.SweepComplexDouble's 42 / 30 s, ref_gemm half of
// Gemm.ThreadDeterminismComplexDouble's 37 s, the csyrk references most of
// the accuracy suite's 31 s; after: 17 / 9, 18 and 19 s).
#include <complex>
#include <vector>

#include "test_util.h"

namespace tt {

// GEMM in wide precision, in Netlib's order of operations:
// C(:,j) = beta*C(:,j) (zero without reading when beta == 0, untouched when
// beta == 1), then C(i,j) += (alpha*op(B)(l,j)) * op(A)(i,l); alpha == 0 reads
// neither A nor B. Also returns, per element, the magnitude bound
// |alpha|·(|op(A)|·|op(B)|) + |beta|·|C| used by the Netlib-style ratio.
template <typename T>
void ref_gemm(tblasOperation_t ta, tblasOperation_t tb, int64_t m, int64_t n, int64_t k, T alpha, const T *A,
              int64_t lda, const T *B, int64_t ldb, T beta, const std::vector<T> &C0, int64_t ldc,
              std::vector<wide_of<T>> &ref, std::vector<double> &bound) {
  using W = wide_of<T>;
  ref.assign(size_t(ldc) * size_t(n), W(0));
  bound.assign(size_t(ldc) * size_t(n), 0.0);
  const W wa = widen(alpha), wb = widen(beta);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      W acc = beta == T(0) ? W(0) : beta == T(1) ? widen(C0[i + j * ldc]) : mul(wb, widen(C0[i + j * ldc]));
      double mag = beta == T(0) ? 0.0 : double(wabs(wb) * wabs(widen(C0[i + j * ldc])));
      if (alpha != T(0))
        for (int64_t l = 0; l < k; ++l) {
          const W a = widen(op_elem(A, lda, ta, i, l)), b = widen(op_elem(B, ldb, tb, l, j));
          acc += mul(mul(wa, b), a);
          mag += double(wabs(wa) * wabs(a) * wabs(b));
        }
      ref[i + j * ldc] = acc;
      bound[i + j * ldc] = mag;
    }
}

template <typename T>
ErrorReport compare(const std::vector<T> &C, const std::vector<wide_of<T>> &ref, const std::vector<double> &bound,
                    int64_t m, int64_t n, int64_t ldc) {
  using R = real_t<T>;
  const double eps = std::numeric_limits<R>::epsilon();
  ErrorReport r;
  auto parts = [](auto x) {
    if constexpr (is_cplx<decltype(x)>::value) return std::pair<long double, long double>(x.real(), x.imag());
    else return std::pair<long double, long double>(x, 0);
  };
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      ++r.elements;
      auto [xr, xi] = parts(C[i + j * ldc]);
      auto [rr, ri] = parts(ref[i + j * ldc]);
      bool bad = false;
      for (auto [x, y] : {std::pair{xr, rr}, std::pair{xi, ri}}) {
        if (std::isnan(y) || std::isinf(y) || std::isnan(x) || std::isinf(x)) {
          bool same = (std::isnan(x) && std::isnan(y)) || (std::isinf(x) && std::isinf(y) && (x > 0) == (y > 0));
          if (!same) ++r.special_mismatch;
          continue;
        }
        const double e = double(std::fabs(x - y));
        r.max_abs = std::max(r.max_abs, e);
        const double b = bound[i + j * ldc];
        if (b > 0) r.worst_ratio = std::max(r.worst_ratio, e / (eps * b));
        else if (e > 0) r.worst_ratio = std::numeric_limits<double>::infinity();
        // Seed criterion (single precision constants; applied to every type),
        // where it is attainable: when the terms' magnitudes put a single
        // float rounding of the sum (eps_f32 · bound) above its absolute
        // tolerance, a result that cancels to near zero cannot meet it in any
        // summation order (e.g. k = 270, |terms| summing to 290, result 7e-4);
        // the Netlib ratio above judges those elements.
        const double atol = std::ldexp(1.0, -16);
        const bool attainable = double(std::numeric_limits<float>::epsilon()) * b <= atol;
        if (attainable && e > atol + std::ldexp(1.0, -10) * double(std::fabs(y))) bad = true;
      }
      if (bad) ++r.mismatches;
    }
  return r;
}

template <typename T>
void ref_syrk(bool lower, bool herk, tblasOperation_t t, int64_t n, int64_t k, T alpha, const T *A, int64_t lda,
              T beta, const std::vector<T> &C0, int64_t ldc, std::vector<wide_of<T>> &ref,
              std::vector<double> &bound) {
  using W = wide_of<T>;
  ref.assign(size_t(ldc) * size_t(n), W(0));
  bound.assign(size_t(ldc) * size_t(n), 0.0);
  const tblasOperation_t ta = (t == TBLAS_OP_N) ? TBLAS_OP_N : (herk ? TBLAS_OP_C : TBLAS_OP_T);
  const W wa = widen(alpha), wb = widen(beta);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      if (!in_triangle(lower, i, j)) continue;
      const W c0 = widen(C0[i + j * ldc]);
      W acc = beta == T(0) ? W(0) : beta == T(1) ? c0 : mul(wb, c0);
      double mag = beta == T(0) ? 0.0 : double(wabs(wb) * wabs(c0));
      if (alpha != T(0))
        for (int64_t l = 0; l < k; ++l) {
          const W a = widen(op_elem(A, lda, ta, i, l));
          W b = widen(op_elem(A, lda, ta, j, l));  // op(A)(j,l) = op(A)^T(l,j)
          if constexpr (is_cplx<T>::value)
            if (herk) b = std::conj(b);
          acc += mul(mul(wa, b), a);
          mag += double(wabs(wa) * wabs(a) * wabs(b));
        }
      if constexpr (is_cplx<T>::value)
        if (herk && i == j) acc = W(acc.real(), 0);
      ref[i + j * ldc] = acc;
      bound[i + j * ldc] = mag;
    }
}

void ref_csyrk_single(bool lower, bool trans, int64_t n, int64_t k, std::complex<float> alpha,
                      const std::complex<float> *A, int64_t lda, std::complex<float> beta,
                      const std::vector<std::complex<float>> &C0, int64_t ldc,
                      std::vector<std::complex<float>> &sref) {
  using cf = std::complex<float>;
  sref.assign(size_t(ldc) * size_t(n), cf(0));
  // op(A)(i, l): A is n×k (N) or k×n (T, C: no conjugation for csyrk).
  const auto opa = [&](int64_t i, int64_t l) { return trans ? A[l + i * lda] : A[i + l * lda]; };
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      if (!in_triangle(lower, i, j)) continue;
      const cf c0 = C0[size_t(i + j * ldc)];
      cf s = beta == cf(0) ? cf(0) : beta == cf(1) ? c0 : mul(beta, c0);
      if (alpha != cf(0))
        for (int64_t l = 0; l < k; ++l) s += mul(mul(alpha, opa(j, l)), opa(i, l));
      sref[size_t(i + j * ldc)] = s;
    }
}

#define TT_REFERENCES(T)                                                                                             \
  template void ref_gemm<T>(tblasOperation_t, tblasOperation_t, int64_t, int64_t, int64_t, T, const T *, int64_t, \
                            const T *, int64_t, T, const std::vector<T> &, int64_t, std::vector<wide_of<T>> &,      \
                            std::vector<double> &);                                                                 \
  template ErrorReport compare<T>(const std::vector<T> &, const std::vector<wide_of<T>> &,                          \
                                  const std::vector<double> &, int64_t, int64_t, int64_t);                          \
  template void ref_syrk<T>(bool, bool, tblasOperation_t, int64_t, int64_t, T, const T *, int64_t, T,               \
                            const std::vector<T> &, int64_t, std::vector<wide_of<T>> &, std::vector<double> &);
TT_REFERENCES(float)
TT_REFERENCES(double)
TT_REFERENCES(std::complex<float>)
TT_REFERENCES(std::complex<double>)
#undef TT_REFERENCES

}  // namespace tt
