// Shared test helpers: random data, the higher-precision references written
// as Netlib's loops (defined in reference.cpp), and the SPEC §3.3 error
// measures.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/blas.h"

namespace tt {

template <typename T> struct is_cplx : std::false_type {};
template <typename T> struct is_cplx<std::complex<T>> : std::true_type {};
template <typename T> struct real_of { using type = T; };
template <typename T> struct real_of<std::complex<T>> { using type = T; };
template <typename T> using real_t = typename real_of<T>::type;
// Reference precision: double for single, long double for double (x87 80-bit).
template <typename R> using wide_t = std::conditional_t<std::is_same_v<R, float>, double, long double>;
template <typename T> using wide_of = std::conditional_t<is_cplx<T>::value, std::complex<wide_t<real_t<T>>>, wide_t<real_t<T>>>;

template <typename T> const char *type_name() {
  if constexpr (std::is_same_v<T, float>) return "s";
  else if constexpr (std::is_same_v<T, double>) return "d";
  else if constexpr (std::is_same_v<T, std::complex<float>>) return "c";
  else return "z";
}

template <typename T>
T random_value(std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  if constexpr (is_cplx<T>::value) return T(real_t<T>(d(rng)), real_t<T>(d(rng)));
  else return T(d(rng));
}

template <typename T>
std::vector<T> random_vector(size_t n, std::mt19937_64 &rng) {
  std::vector<T> v(n);
  for (auto &x : v) x = random_value<T>(rng);
  return v;
}

template <typename T> T nan_value() {
  using R = real_t<T>;
  if constexpr (is_cplx<T>::value) return T(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
  else return std::numeric_limits<R>::quiet_NaN();
}

template <typename T> auto conj_if(T x, bool c) {
  if constexpr (is_cplx<T>::value) return c ? std::conj(x) : x;
  else { (void)c; return x; }
}

// op(X)(r, c) for X stored column-major with leading dimension ld.
template <typename T>
T op_elem(const T *X, int64_t ld, tblasOperation_t op, int64_t r, int64_t c) {
  return op == TBLAS_OP_N ? X[r + c * ld] : conj_if(X[c + r * ld], op == TBLAS_OP_C);
}

template <typename T> wide_of<T> widen(T x) {
  if constexpr (is_cplx<T>::value) return wide_of<T>(x.real(), x.imag());
  else return wide_of<T>(x);
}

template <typename W> auto wabs(W x) {
  if constexpr (is_cplx<W>::value) return std::abs(x.real()) + std::abs(x.imag());
  else return std::abs(x);
}

// Complex product as Fortran computes it (no C99 Annex G NaN recovery).
template <typename W> W mul(W a, W b) {
  if constexpr (is_cplx<W>::value)
    return W(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else return a * b;
}

// Netlib-loop reference GEMM in wide precision and the SPEC §3.3 error
// measures: declared here, defined in reference.cpp (see there).
template <typename T>
void ref_gemm(tblasOperation_t ta, tblasOperation_t tb, int64_t m, int64_t n, int64_t k, T alpha, const T *A,
              int64_t lda, const T *B, int64_t ldb, T beta, const std::vector<T> &C0, int64_t ldc,
              std::vector<wide_of<T>> &ref, std::vector<double> &bound);

struct ErrorReport {
  double worst_ratio = 0;  // Netlib-style, SPEC §3.3
  double max_abs = 0;
  int64_t mismatches = 0;  // elements failing the seed's atol/rtol criterion
  int64_t elements = 0;
  int64_t special_mismatch = 0;  // NaN/Inf pattern differs from the reference
};

template <typename T>
ErrorReport compare(const std::vector<T> &C, const std::vector<wide_of<T>> &ref, const std::vector<double> &bound,
                    int64_t m, int64_t n, int64_t ldc);

// SYRK/HERK reference in wide precision, in Netlib's order (alpha applied to
// the "B" side first), on the triangle; HERK conjugates the B side and zeroes
// the diagonal's imaginary part (reference.cpp).
template <typename T>
void ref_syrk(bool lower, bool herk, tblasOperation_t t, int64_t n, int64_t k, T alpha, const T *A, int64_t lda,
              T beta, const std::vector<T> &C0, int64_t ldc, std::vector<wide_of<T>> &ref,
              std::vector<double> &bound);

// csyrk's Netlib loop in single precision, in the order Tessera follows
// (which results are Inf/NaN), per element of the triangle (an ldc × n
// array; the others left 0); trans: A is k×n (no conjugation) instead of
// n×k. Its double-precision twin is ref_syrk (reference.cpp).
void ref_csyrk_single(bool lower, bool trans, int64_t n, int64_t k, std::complex<float> alpha,
                      const std::complex<float> *A, int64_t lda, std::complex<float> beta,
                      const std::vector<std::complex<float>> &C0, int64_t ldc,
                      std::vector<std::complex<float>> &sref);

// Limit for the Netlib-style ratio of a sum of k products: recursive
// summation gives |err| <= (k+2)·eps·bound (Higham, gamma_k), with a factor 2
// for complex products. Typical errors are far below it.
template <typename T>
double ratio_limit(int64_t k) {
  return std::max<double>(16.0, double(k + 2) * (is_cplx<T>::value ? 2.0 : 1.0));
}

// (i, j) lies in the stored triangle of a SYRK/HERK C.
inline bool in_triangle(bool lower, int64_t i, int64_t j) { return lower ? i >= j : i <= j; }

// ISA paths this CPU can run (tests cover each and assert it is the one that ran).
// The tblas routine for element type T (std::complex<float/double> for the
// complex ones), so one template test serves every precision.
template <typename T> auto api(const T *p) {
  if constexpr (std::is_same_v<T, std::complex<float>>) return reinterpret_cast<const tesseraComplex *>(p);
  else if constexpr (std::is_same_v<T, std::complex<double>>) return reinterpret_cast<const tesseraDoubleComplex *>(p);
  else return p;
}
template <typename T> auto api(T *p) { return const_cast<std::remove_const_t<std::remove_pointer_t<decltype(api(static_cast<const T *>(p)))>> *>(api(static_cast<const T *>(p))); }

// Inputs do not take part in deducing T (C does), so nullptr may be passed.
template <typename T> using In = std::type_identity_t<T>;

template <typename T>
tesseraStatus_t gemm(tblasHandle_t h, tblasOperation_t ta, tblasOperation_t tb, int64_t m, int64_t n, int64_t k,
                     const In<T> *al, const In<T> *A, int64_t lda, const In<T> *B, int64_t ldb, const In<T> *be,
                     T *C, int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) return tblasSgemm(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
  else if constexpr (std::is_same_v<T, double>) return tblasDgemm(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return tblasCgemm(h, ta, tb, m, n, k, api(al), api(A), lda, api(B), ldb, api(be), api(C), ldc);
  else return tblasZgemm(h, ta, tb, m, n, k, api(al), api(A), lda, api(B), ldb, api(be), api(C), ldc);
}
// SYRK for every type.
template <typename T>
tesseraStatus_t syrk(tblasHandle_t h, tblasFillMode_t u, tblasOperation_t t, int64_t n, int64_t k, const In<T> *al,
                     const In<T> *A, int64_t lda, const In<T> *be, T *C, int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) return tblasSsyrk(h, u, t, n, k, al, A, lda, be, C, ldc);
  else if constexpr (std::is_same_v<T, double>) return tblasDsyrk(h, u, t, n, k, al, A, lda, be, C, ldc);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return tblasCsyrk(h, u, t, n, k, api(al), api(A), lda, api(be), api(C), ldc);
  else return tblasZsyrk(h, u, t, n, k, api(al), api(A), lda, api(be), api(C), ldc);
}
// HERK for the complex types (alpha, beta real).
template <typename T>
tesseraStatus_t herk(tblasHandle_t h, tblasFillMode_t u, tblasOperation_t t, int64_t n, int64_t k,
                     const In<real_t<T>> *al, const In<T> *A, int64_t lda, const In<real_t<T>> *be, T *C,
                     int64_t ldc) {
  if constexpr (std::is_same_v<T, std::complex<float>>) return tblasCherk(h, u, t, n, k, al, api(A), lda, be, api(C), ldc);
  else return tblasZherk(h, u, t, n, k, al, api(A), lda, be, api(C), ldc);
}

inline std::vector<tesseraArch_t> supported_paths() {
  std::vector<tesseraArch_t> out;
  for (auto a : {TESSERA_ARCH_GENERIC, TESSERA_ARCH_AVX2, TESSERA_ARCH_AVX512})
    if (tesseraArchSupported(a)) out.push_back(a);
  return out;
}

// A dense handle for the scope of a test.
struct Handle {
  tblasHandle_t h = nullptr;
  Handle() { tblasCreate(&h); }
  ~Handle() { tblasDestroy(h); }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
};

// Sets an environment variable for the handles created in its scope (the
// library reads its variables at tblasCreate) and restores it after.
struct ScopedEnv {
  std::string name, saved;
  bool had = false;
  ScopedEnv(const char *n, const char *value) : name(n) {
    const char *old = std::getenv(n);
    had = old != nullptr;
    if (had) saved = old;
    set(value);
  }
  void set(const char *value) { setenv(name.c_str(), value, 1); }
  ~ScopedEnv() {
    if (had) setenv(name.c_str(), saved.c_str(), 1);
    else unsetenv(name.c_str());
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;
};

// Handles created in its scope count a call's work in full for the thread
// rule on every core (TESSERA_THREAD_WORK_SCALED=0), so that a shape chosen
// to split across threads does so on a full-rate 512-bit core too.
struct FullThreadWork : ScopedEnv {
  FullThreadWork() : ScopedEnv("TESSERA_THREAD_WORK_SCALED", "0") {}
};

// Two handles on the AVX-512 path (the caller checks it is supported), one
// created with TESSERA_ZMM_HALF_RATE=1 and one with 0 (the variable restored
// after): a half-rate core's tile rules against the others', on any AVX-512
// machine.
struct HalfRatePair {
  tblasHandle_t half = nullptr, full = nullptr;
  HalfRatePair() {
    ScopedEnv env("TESSERA_ZMM_HALF_RATE", "1");
    tblasCreate(&half);
    env.set("0");
    tblasCreate(&full);
    tblasSetArch(half, TESSERA_ARCH_AVX512);
    tblasSetArch(full, TESSERA_ARCH_AVX512);
  }
  void set_threads(int threads) {
    tblasSetNumThreads(half, threads);
    tblasSetNumThreads(full, threads);
  }
  ~HalfRatePair() {
    tblasDestroy(half);
    tblasDestroy(full);
  }
  HalfRatePair(const HalfRatePair &) = delete;
  HalfRatePair &operator=(const HalfRatePair &) = delete;
};

}  // namespace tt
