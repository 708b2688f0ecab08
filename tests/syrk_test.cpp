// SYRK/HERK: differential tests against a wide-precision Netlib-loop reference
// with the other triangle poisoned and checked byte-for-byte, on every ISA
// path and thread count; edge semantics; HERK's real diagonal; validation.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "tessera/blas.h"
#include "test_util.h"

namespace {

using tt::real_t;
template <typename T> using V = std::vector<T>;

using tt::herk;
using tt::syrk;
using tt::Handle;
using tt::supported_paths;

struct Case {
  bool lower;
  tblasOperation_t t;
  int64_t n, k, pad_a, pad_c;
};

// Runs one case; the other triangle and ld padding start as NaN and must come
// back byte-identical. Returns the error report on the triangle.
// `check`: against the reference (false: the call, the untouched triangle and
// HERK's real diagonal only, for runs compared bitwise with a checked one).
template <typename T>
tt::ErrorReport run_case(tblasHandle_t h, const Case &c, bool is_herk, T alpha, T beta, std::mt19937_64 &rng,
                         V<T> *out = nullptr, bool check = true) {
  const bool tr = c.t != TBLAS_OP_N;
  const int64_t arows = tr ? c.k : c.n, acols = tr ? c.n : c.k;
  const int64_t lda = std::max<int64_t>(1, arows + c.pad_a), ldc = std::max<int64_t>(1, c.n + c.pad_c);
  V<T> A = tt::random_vector<T>(size_t(lda * std::max<int64_t>(acols, 1)), rng);
  V<T> C = tt::random_vector<T>(size_t(ldc * std::max<int64_t>(c.n, 1)), rng);
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < ldc; ++i)
      if (i >= c.n || !tt::in_triangle(c.lower, i, j)) C[i + j * ldc] = tt::nan_value<T>();
  const V<T> C0 = C;
  const auto u = c.lower ? TBLAS_FILL_MODE_LOWER : TBLAS_FILL_MODE_UPPER;
  tesseraStatus_t st;
  if constexpr (tt::is_cplx<T>::value) {
    if (is_herk) {
      const real_t<T> ar = alpha.real(), br = beta.real();
      alpha = T(ar);
      beta = T(br);
      st = herk<T>(h, u, c.t, c.n, c.k, &ar, A.data(), lda, &br, C.data(), ldc);
    } else {
      st = syrk(h, u, c.t, c.n, c.k, &alpha, A.data(), lda, &beta, C.data(), ldc);
    }
  } else {
    st = syrk(h, u, c.t, c.n, c.k, &alpha, A.data(), lda, &beta, C.data(), ldc);
  }
  EXPECT_EQ(st, TESSERA_STATUS_SUCCESS);
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < ldc; ++i)
      if (i >= c.n || !tt::in_triangle(c.lower, i, j))
        EXPECT_EQ(std::memcmp(&C[i + j * ldc], &C0[i + j * ldc], sizeof(T)), 0)
            << "touched (" << i << "," << j << ") outside the triangle";
  if constexpr (tt::is_cplx<T>::value)
    if (is_herk)
      for (int64_t j = 0; j < c.n; ++j) EXPECT_EQ(C[j + j * ldc].imag(), real_t<T>(0)) << "HERK diagonal " << j;
  if (out) *out = C;
  if (!check) return {};
  V<tt::wide_of<T>> ref;
  V<double> bound;
  tt::ref_syrk<T>(c.lower, is_herk, c.t, c.n, c.k, alpha, A.data(), lda, beta, C0, ldc, ref, bound);
  // Compare only the triangle: give the other entries the reference's value.
  V<T> Cm = C;
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < c.n; ++i)
      if (!tt::in_triangle(c.lower, i, j)) Cm[i + j * ldc] = T(0);
  return tt::compare<T>(Cm, ref, bound, c.n, c.n, ldc);
}


const std::vector<int64_t> kSizes = {0, 1, 2, 3, 5, 7, 8, 9, 12, 13, 16, 17, 23, 31, 33, 47, 48, 49, 64, 65, 97, 130};

template <typename T>
void sweep(bool herk, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, kSizes.size() - 1);
  std::uniform_int_distribution<int> pad(0, 2);
  const std::vector<tblasOperation_t> ops =
      herk ? std::vector<tblasOperation_t>{TBLAS_OP_N, TBLAS_OP_C}
           : std::vector<tblasOperation_t>{TBLAS_OP_N, TBLAS_OP_T, TBLAS_OP_C};
  for (tesseraArch_t arch : supported_paths()) {
    Handle H;
    ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
    double worst = 0;
    int cases = 0;
    for (bool lower : {true, false})
      for (auto t : ops)
        for (int rep = 0; rep < 16; ++rep) {
          Case c{lower, t, kSizes[pick(rng)], kSizes[pick(rng)], pad(rng), pad(rng)};
          // AVX-512: k within KC and short columns go direct (direct_one_kc), longer k blocked.
          if (rep == 14) c = Case{lower, t, 250, 200, 1, 3};
          if (rep == 15) c = Case{lower, t, 300, 400, 1, 3};  // crosses KC/MC blocks
          auto r = run_case<T>(H.h, c, herk, tt::random_value<T>(rng), tt::random_value<T>(rng), rng);
          ++cases;
          worst = std::max(worst, r.worst_ratio);
          EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(c.k))
              << tesseraGetArchString(arch) << (lower ? " L" : " U") << " n=" << c.n << " k=" << c.k;
          EXPECT_EQ(r.mismatches, 0);
          tesseraArch_t ran;
          tblasGetLastArch(H.h, &ran);
          EXPECT_EQ(ran, arch);
        }
    std::printf("[ worst ratio ] %s %s%s: %.3f over %d cases\n", tesseraGetArchString(arch), tt::type_name<T>(),
                herk ? "herk" : "syrk", worst, cases);
  }
}

// k = 1..4 runs a dedicated interior-tile loop in the AVX kernels (complex:
// for beta 0 and 1; k = 5 and the other betas the general tile): every beta
// mode, both triangles, sizes whose columns of tiles hold diagonal, interior
// and partial tiles, 1 and 2 threads; real n = 1100 takes the packed path
// (the smaller ones the direct one; there only k = 1 and 4, 2 threads and
// one beta — for complex beta 1, the small-k loop's — to keep the test
// short). n = 1100 (real) and 600 (complex) have columns of 32 and more
// interior tiles, which the small-k loops walk in blocks of rows. Complex
// k = 1..4 streams C in one of two ways by its size (kCCachedBytes, 12 MiB;
// AVX-512's main tiles): n = 1800 (C's triangle 13 / 26 MB) takes the
// prefetching one, k = 1..4 alone, on that path.
template <typename T>
void small_k(bool herk, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<tblasOperation_t> ops =
      herk ? std::vector<tblasOperation_t>{TBLAS_OP_N, TBLAS_OP_C}
           : std::vector<tblasOperation_t>{TBLAS_OP_N, TBLAS_OP_T};
  const T betas[] = {T(0), T(1), T(real_t<T>(-0.5)), tt::random_value<T>(rng)};
  const std::vector<int64_t> sizes =
      tt::is_cplx<T>::value ? std::vector<int64_t>{24, 37, 70, 600, 1800} : std::vector<int64_t>{24, 37, 70, 1100};
  const T &big_beta = tt::is_cplx<T>::value ? betas[1] : betas[3];
  for (tesseraArch_t arch : supported_paths())
    for (int threads : {1, 2}) {
      Handle H;
      ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
      ASSERT_EQ(tblasSetNumThreads(H.h, threads), TESSERA_STATUS_SUCCESS);
      for (bool lower : {true, false})
        for (auto t : ops)
          for (int64_t k = 1; k <= 5; ++k)
            for (int64_t n : sizes)
              for (const T &beta : betas) {
                if (n == 1800 ? threads != 2 || k > 4 || beta != big_beta || arch != TESSERA_ARCH_AVX512 ||
                                    (t == ops[0]) != lower  // one op per triangle: L with N, U with T/C
                              : n > 100 && (threads != 2 || (k != 1 && k != 4) || beta != big_beta))
                  continue;
                Case c{lower, t, n, k, int64_t(n % 3), int64_t(k % 2)};
                auto r = run_case<T>(H.h, c, herk, tt::random_value<T>(rng), beta, rng);
                EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(c.k))
                    << tesseraGetArchString(arch) << (lower ? " L" : " U") << " n=" << n << " k=" << k;
                EXPECT_EQ(r.mismatches, 0);
              }
    }
}

// Complex SYRK/HERK picks its tile by n (syrk_driver.cpp: the main tile, the
// narrow 1-vector × 4-column one, and on AVX-512 f32 × 8 columns, by n and
// by whether op(A) is read in place): every n up to 41 on every path, both
// triangles, op N (in place when lda is short) and T/C (packed), k across the
// small-k loops and the general tile, 1 and 2 threads.
template <typename T>
void every_small_n(bool herk, uint64_t seed) {
  tt::FullThreadWork full_work;  // k below splits as the thread rule counts flops in full
  std::mt19937_64 rng(seed);
  const tblasOperation_t trans = herk ? TBLAS_OP_C : TBLAS_OP_T;
  for (tesseraArch_t arch : supported_paths())
    for (int threads : {1, 2}) {
      Handle H;
      ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
      ASSERT_EQ(tblasSetNumThreads(H.h, threads), TESSERA_STATUS_SUCCESS);
      int wide = 0;  // 2-thread calls that ran on 2 threads
      for (int64_t n = 1; n <= 41; ++n)
        for (int64_t k0 : {1, 3, 6, 41})
          for (bool lower : {true, false})
            for (auto t : {TBLAS_OP_N, trans}) {
              if (threads == 2 && k0 != 41) continue;
              // 2 threads: k long enough for the call to split (~6·10⁵ flops),
              // so the strips of small n run — a strip of one row read in place
              // at op T's stride was once mis-addressed (zsyrk LT n = 9).
              const int64_t k = threads == 2 ? std::max<int64_t>(k0, 600000 / (4 * n * (n + 1))) : k0;
              Case c{lower, t, n, k, int64_t(n % 2), int64_t(k % 3)};
              auto r = run_case<T>(H.h, c, herk, tt::random_value<T>(rng), tt::random_value<T>(rng), rng);
              EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(c.k))
                  << tesseraGetArchString(arch) << (lower ? " L" : " U") << " n=" << n << " k=" << k
                  << " threads=" << threads;
              EXPECT_EQ(r.mismatches, 0);
              int used = 0;
              tblasGetLastThreads(H.h, &used);
              wide += used > 1;
            }
      if (threads == 2) EXPECT_GT(wide, 40) << "the small-n 2-thread strips did not run";
    }
}

// Real types on 2 and 3 threads, n up to a few tiles of columns: the strips
// run on the direct kernel, every other one walking its column panels
// leftward (direct_real), triangle tiles included. Same bits as one thread,
// the other triangle untouched, both triangles, op N (A in place) and T.
template <typename T>
void real_strips(uint64_t seed) {
  tt::FullThreadWork full_work;  // k below splits as the thread rule counts flops in full
  for (tesseraArch_t arch : supported_paths()) {
    int wide = 0;  // multi-threaded calls that split
    for (int64_t n : {5, 13, 24, 37, 50, 64, 77, 97, 130})
      for (bool lower : {true, false})
        for (auto t : {TBLAS_OP_N, TBLAS_OP_T}) {
          // k long enough for the call to split (~6·10⁵ flops).
          const int64_t k = std::max<int64_t>(9, 1200000 / (n * (n + 1)));
          const Case c{lower, t, n, k, int64_t(n % 3), int64_t(n % 2)};
          V<T> first;
          for (int threads : {1, 2, 3}) {
            Handle H;
            ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
            ASSERT_EQ(tblasSetNumThreads(H.h, threads), TESSERA_STATUS_SUCCESS);
            std::mt19937_64 case_rng(seed + uint64_t(n));
            V<T> out;
            auto r = run_case<T>(H.h, c, false, tt::random_value<T>(case_rng), tt::random_value<T>(case_rng),
                                 case_rng, &out);
            EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(c.k));
            EXPECT_EQ(r.mismatches, 0);
            int used = 0;
            tblasGetLastThreads(H.h, &used);
            wide += threads > 1 && used > 1;
            if (threads == 1) first = out;
            else EXPECT_EQ(std::memcmp(out.data(), first.data(), out.size() * sizeof(T)), 0)
                << tesseraGetArchString(arch) << (lower ? " L" : " U") << " n=" << n << " threads=" << threads;
          }
        }
    EXPECT_GT(wide, 40) << tesseraGetArchString(arch) << ": the 2- and 3-thread strips did not run";
  }
}

TEST(Syrk, RealStripsFloat) { real_strips<float>(131); }
TEST(Syrk, RealStripsDouble) { real_strips<double>(132); }

TEST(Syrk, EverySmallNComplexFloat) { every_small_n<std::complex<float>>(false, 121); }
TEST(Syrk, EverySmallNComplexDouble) { every_small_n<std::complex<double>>(false, 122); }
TEST(Herk, EverySmallNComplexFloat) { every_small_n<std::complex<float>>(true, 123); }

TEST(Syrk, SmallKComplexFloat) { small_k<std::complex<float>>(false, 111); }
TEST(Syrk, SmallKComplexDouble) { small_k<std::complex<double>>(false, 112); }
TEST(Herk, SmallKComplexFloat) { small_k<std::complex<float>>(true, 113); }
TEST(Syrk, SmallKFloat) { small_k<float>(false, 114); }
TEST(Syrk, SmallKDouble) { small_k<double>(false, 115); }

TEST(Syrk, SweepFloat) { sweep<float>(false, 101); }
TEST(Syrk, SweepDouble) { sweep<double>(false, 102); }
TEST(Syrk, SweepComplexFloat) { sweep<std::complex<float>>(false, 103); }
TEST(Syrk, SweepComplexDouble) { sweep<std::complex<double>>(false, 104); }
TEST(Herk, SweepComplexFloat) { sweep<std::complex<float>>(true, 105); }
TEST(Herk, SweepComplexDouble) { sweep<std::complex<double>>(true, 106); }

// CSYRK is symmetric, not Hermitian: trans C equals trans T bit for bit, and
// the diagonal keeps its computed imaginary part.
TEST(Syrk, ComplexTransCIsTAndDiagonalIsComputed) {
  using T = std::complex<float>;
  std::mt19937_64 rng(7);
  const int64_t n = 40, k = 30;
  V<T> A = tt::random_vector<T>(size_t(k * n), rng), C1 = tt::random_vector<T>(size_t(n * n), rng), C2 = C1;
  T alpha(0.5, 0.25), beta(1, 0);
  Handle H;
  ASSERT_EQ(syrk(H.h, TBLAS_FILL_MODE_LOWER, TBLAS_OP_T, n, k, &alpha, A.data(), k, &beta, C1.data(), n), 0);
  ASSERT_EQ(syrk(H.h, TBLAS_FILL_MODE_LOWER, TBLAS_OP_C, n, k, &alpha, A.data(), k, &beta, C2.data(), n), 0);
  EXPECT_EQ(std::memcmp(C1.data(), C2.data(), C1.size() * sizeof(T)), 0);
  int nonzero_imag = 0;
  for (int64_t j = 0; j < n; ++j) nonzero_imag += C1[j + j * n].imag() != 0.0f;
  EXPECT_GT(nonzero_imag, n / 2);
}

tblasHandle_t handle() {
  static Handle H;
  return H.h;
}

// Edge semantics: n == 0; (alpha == 0 or k == 0) with beta == 1 is a no-op
// (bit-identical, NaNs included); otherwise triangle = beta*C, zero without
// reading when beta == 0; beta == 0 in the main path never reads C.
template <typename T>
void edges(bool is_herk) {
  std::mt19937_64 rng(11);
  const int64_t n = 37, k = 20;
  const V<T> A = tt::random_vector<T>(size_t(n * k), rng);
  auto call = [&](int64_t nn, int64_t kk, real_t<T> a, real_t<T> b, T *C) {
    if constexpr (tt::is_cplx<T>::value)
      if (is_herk) return herk<T>(handle(), TBLAS_FILL_MODE_UPPER, TBLAS_OP_N, nn, kk, &a, A.data(), n, &b, C, n);
    T ta = T(a), tb = T(b);
    return syrk<T>(handle(), TBLAS_FILL_MODE_UPPER, TBLAS_OP_N, nn, kk, &ta, A.data(), n, &tb, C, n);
  };
  V<T> nanC(size_t(n * n), tt::nan_value<T>());
  V<T> C = nanC;
  EXPECT_EQ(call(0, k, 1, 0, C.data()), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(C.data(), nanC.data(), C.size() * sizeof(T)), 0);
  EXPECT_EQ(call(n, 0, 1, 1, C.data()), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(C.data(), nanC.data(), C.size() * sizeof(T)), 0) << "k=0, beta=1 must not touch C";
  EXPECT_EQ(call(n, k, 0, 1, C.data()), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(C.data(), nanC.data(), C.size() * sizeof(T)), 0) << "alpha=0, beta=1 must not touch C";
  // alpha == 0, beta == 0: upper triangle zero without reading; lower untouched.
  EXPECT_EQ(call(n, k, 0, 0, C.data()), TESSERA_STATUS_SUCCESS);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (i <= j) EXPECT_EQ(C[i + j * n], T(0));
      else EXPECT_TRUE(std::isnan(std::abs(C[i + j * n])));
  // Main path, beta == 0 over NaN: every triangle element finite.
  C = nanC;
  EXPECT_EQ(call(n, k, 1, 0, C.data()), TESSERA_STATUS_SUCCESS);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i <= j; ++i) ASSERT_FALSE(std::isnan(std::abs(C[i + j * n]))) << i << "," << j;
  // k == 0, beta = 2: triangle doubled (HERK: diagonal imaginary part zeroed).
  V<T> R = tt::random_vector<T>(size_t(n * n), rng), R0 = R;
  EXPECT_EQ(call(n, 0, 1, 2, R.data()), TESSERA_STATUS_SUCCESS);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      T want = i <= j ? R0[i + j * n] * real_t<T>(2) : R0[i + j * n];
      if constexpr (tt::is_cplx<T>::value)
        if (is_herk && i == j) want = T(want.real(), 0);
      EXPECT_EQ(R[i + j * n], want);
    }
}

TEST(Syrk, EdgesFloat) { edges<float>(false); }
TEST(Syrk, EdgesComplexDouble) { edges<std::complex<double>>(false); }
TEST(Herk, EdgesComplexFloat) { edges<std::complex<float>>(true); }

// Bitwise identical for 1, 2 and 3 threads, every path, both triangles.
template <typename T>
void determinism(bool herk) {
  // k = 150 and 40: either side of the strip rules' k = 128 (syrk_driver.cpp).
  for (tesseraArch_t arch : supported_paths())
    for (bool lower : {true, false})
      for (int64_t k : {150, 40}) {
        const Case c{lower, TBLAS_OP_N, 400, k, 1, 2};
        V<T> first;
        for (int threads : {1, 2, 3}) {
          Handle H;
          ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
          ASSERT_EQ(tblasSetNumThreads(H.h, threads), TESSERA_STATUS_SUCCESS);
          std::mt19937_64 rng(5);
          V<T> out;
          T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
          // The reference once per path (1 thread); more threads must match it bit for bit.
          auto r = run_case<T>(H.h, c, herk, alpha, beta, rng, &out, threads == 1);
          EXPECT_EQ(r.mismatches, 0);
          int used = 0;
          tblasGetLastThreads(H.h, &used);
          if (threads > 1) EXPECT_GT(used, 1);
          if (threads == 1) first = out;
          else EXPECT_EQ(std::memcmp(out.data(), first.data(), out.size() * sizeof(T)), 0)
              << tesseraGetArchString(arch) << " threads=" << threads << (lower ? " L" : " U") << " k=" << k;
        }
      }
}

TEST(Syrk, ThreadDeterminismDouble) { determinism<double>(false); }

// The n × n update with op(A)'s first n columns (rows for op N) against the
// tall × tall one on the same A, C's top-left n × n the same before: the
// small triangle must equal the tall one's top-left triangle bit for bit. C
// and the scalars are drawn from rng (the tall C, then alpha, beta).
template <typename T>
void expect_top_left_bitwise(tblasHandle_t h, bool herk, bool lower, tblasOperation_t t, int64_t n, int64_t tall,
                             int64_t k, const V<T> &A, int64_t lda, std::mt19937_64 &rng, const std::string &what) {
  V<T> Ct = tt::random_vector<T>(size_t(tall * tall), rng), Cs(size_t(n * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) Cs[size_t(i + j * n)] = Ct[size_t(i + j * tall)];
  const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
  const auto u = lower ? TBLAS_FILL_MODE_LOWER : TBLAS_FILL_MODE_UPPER;
  const auto update = [&](int64_t nn, V<T> &C) {  // the nn × nn update of C (ldc nn)
    if constexpr (tt::is_cplx<T>::value)
      if (herk) {
        const real_t<T> ar = alpha.real(), br = beta.real();
        return tt::herk<T>(h, u, t, nn, k, &ar, A.data(), lda, &br, C.data(), nn);
      }
    return syrk(h, u, t, nn, k, &alpha, A.data(), lda, &beta, C.data(), nn);
  };
  ASSERT_EQ(update(tall, Ct), TESSERA_STATUS_SUCCESS) << what;
  ASSERT_EQ(update(n, Cs), TESSERA_STATUS_SUCCESS) << what;
  for (int64_t j = 0; j < n; ++j) {
    const int64_t i0 = lower ? j : 0, i1 = lower ? n : j + 1;
    const size_t bytes = size_t(i1 - i0) * sizeof(T);
    ASSERT_EQ(std::memcmp(&Cs[size_t(i0 + j * n)], &Ct[size_t(i0 + j * tall)], bytes), 0)
        << what << (lower ? " L" : " U") << " k=" << k << " column " << j;
  }
}

// With k inside one KC block and op(A)'s columns up to 2 KiB, AVX-512 runs
// SYRK direct (syrk_driver.cpp, direct_one_kc); a taller SYRK on the same
// rows of op(A) runs blocked. Every element's FMAs are the same either way,
// so the smaller triangle must equal the taller one's top-left triangle bit
// for bit — on every path, both triangles, 1 and 2 threads, k within KC and
// across it.
template <typename T>
void direct_blocked_bitwise(bool herk, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int64_t n = 2048 / int64_t(sizeof(T)), tall = n + 64;
  std::vector<tblasOperation_t> ops{TBLAS_OP_N};
  if (!tt::is_cplx<T>::value) ops.push_back(TBLAS_OP_T);
  for (tesseraArch_t arch : supported_paths())
    for (int threads : {1, 2})
      for (bool lower : {true, false})
        for (tblasOperation_t t : ops)
          for (int64_t k : {int64_t(150), int64_t(400)}) {
            Handle H;
            ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
            ASSERT_EQ(tblasSetNumThreads(H.h, threads), TESSERA_STATUS_SUCCESS);
            const int64_t lda = t == TBLAS_OP_N ? tall : k;
            const V<T> A = tt::random_vector<T>(size_t(lda * (t == TBLAS_OP_N ? k : tall)), rng);
            ASSERT_NO_FATAL_FAILURE(expect_top_left_bitwise(H.h, herk, lower, t, n, tall, k, A, lda, rng,
                                                            std::string(tesseraGetArchString(arch)) +
                                                                " threads=" + std::to_string(threads) +
                                                                " op=" + std::to_string(int(t))));
          }
}
TEST(Syrk, DirectBlockedBitwiseFloat) { direct_blocked_bitwise<float>(false, 131); }
TEST(Syrk, DirectBlockedBitwiseDouble) { direct_blocked_bitwise<double>(false, 132); }
TEST(Syrk, DirectBlockedBitwiseComplexFloat) { direct_blocked_bitwise<std::complex<float>>(false, 133); }
TEST(Herk, DirectBlockedBitwiseComplexDouble) { direct_blocked_bitwise<std::complex<double>>(true, 134); }
TEST(Syrk, ThreadDeterminismComplexFloat) { determinism<std::complex<float>>(false); }
TEST(Herk, ThreadDeterminismComplexDouble) { determinism<std::complex<double>>(true); }

// Small complex SYRKs with op(A) = T and HERKs with op(A) = C (n·k ≤ 512,
// k within syrk_driver.cpp's window) copy op(A) into an n × k block and run
// as op N on the copy; a taller call on the same columns of A (n·k > 512)
// does not. Every element's values and FMAs are the same either way, so the
// small triangle must equal the taller one's top-left triangle bit for bit.
template <typename T>
void small_copy_bitwise(bool herk, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const tblasOperation_t t = herk ? TBLAS_OP_C : TBLAS_OP_T;
  for (tesseraArch_t arch : supported_paths())
    for (bool lower : {true, false})
      for (int64_t k : {2, 3, 5, 8, 12})
        for (int64_t n : {3, 13, 31}) {
          Handle H;
          ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
          const int64_t tall = 512 / k + 9, lda = k + 1;
          const V<T> A = tt::random_vector<T>(size_t(lda * tall), rng);
          ASSERT_NO_FATAL_FAILURE(expect_top_left_bitwise(H.h, herk, lower, t, n, tall, k, A, lda, rng,
                                                          std::string(tesseraGetArchString(arch)) +
                                                              " n=" + std::to_string(n)));
        }
}
TEST(Syrk, SmallCopyBitwiseComplexFloat) { small_copy_bitwise<std::complex<float>>(false, 161); }
TEST(Syrk, SmallCopyBitwiseComplexDouble) { small_copy_bitwise<std::complex<double>>(false, 162); }
TEST(Herk, SmallCopyBitwiseComplexFloat) { small_copy_bitwise<std::complex<float>>(true, 163); }
TEST(Herk, SmallCopyBitwiseComplexDouble) { small_copy_bitwise<std::complex<double>>(true, 164); }

// Real SYRK with op(A) = T and few columns computes the whole square on
// GEMM's few-row tiles and keeps the triangle (syrk_driver.cpp,
// syrk_via_gemm): the reference on the triangle, the other triangle and the
// padding untouched (run_case), beta = 0 not reading a NaN-filled C, and
// the same bits on 1 and 2 threads — every path, around the rule's limits.
template <typename T>
void real_via_gemm(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (tesseraArch_t arch : supported_paths())
    for (bool lower : {true, false})
      for (tblasOperation_t t : {TBLAS_OP_T, TBLAS_OP_C})
        for (int64_t n : {1, 2, 3, 4, 5, 8, 9, 12, 13})
          for (int64_t k : {8, 16, 130, 600}) {
            const Case c{lower, t, n, k, 1, 2};
            V<T> first;
            for (int threads : {1, 2}) {
              Handle H;
              ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
              ASSERT_EQ(tblasSetNumThreads(H.h, threads), TESSERA_STATUS_SUCCESS);
              std::mt19937_64 case_rng(seed + uint64_t(n * 1000 + k));
              V<T> out;
              const T alpha = tt::random_value<T>(case_rng), beta = tt::random_value<T>(case_rng);
              const auto r = run_case<T>(H.h, c, false, alpha, beta, case_rng, &out);
              EXPECT_EQ(r.mismatches, 0) << tesseraGetArchString(arch) << " n=" << n << " k=" << k;
              EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(k)) << tesseraGetArchString(arch) << " n=" << n << " k=" << k;
              if (threads == 1) first = out;
              else EXPECT_EQ(std::memcmp(out.data(), first.data(), out.size() * sizeof(T)), 0)
                  << tesseraGetArchString(arch) << " n=" << n << " k=" << k << " threads=" << threads;
            }
            // beta = 0: a NaN-filled C is not read.
            Handle H;
            ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
            const V<T> A = tt::random_vector<T>(size_t(k * n), rng);
            V<T> Cn(size_t(n * n), tt::nan_value<T>()), Cz(size_t(n * n), T(0));
            const T alpha = tt::random_value<T>(rng), zero = T(0);
            const auto u = lower ? TBLAS_FILL_MODE_LOWER : TBLAS_FILL_MODE_UPPER;
            ASSERT_EQ(syrk(H.h, u, t, n, k, &alpha, A.data(), k, &zero, Cn.data(), n), TESSERA_STATUS_SUCCESS);
            ASSERT_EQ(syrk(H.h, u, t, n, k, &alpha, A.data(), k, &zero, Cz.data(), n), TESSERA_STATUS_SUCCESS);
            for (int64_t j = 0; j < n; ++j)
              for (int64_t i = 0; i < n; ++i)
                if (tt::in_triangle(lower, i, j))
                  EXPECT_EQ(std::memcmp(&Cn[size_t(i + j * n)], &Cz[size_t(i + j * n)], sizeof(T)), 0)
                      << tesseraGetArchString(arch) << " beta 0, n=" << n << " k=" << k << " (" << i << "," << j << ")";
          }
}
TEST(Syrk, RealViaGemmFloat) { real_via_gemm<float>(151); }
TEST(Syrk, RealViaGemmDouble) { real_via_gemm<double>(152); }

// On a core that runs 512-bit operations at half rate (Zen 4; forced here
// with TESSERA_ZMM_HALF_RATE on either kind of core) small SYRKs take other
// tiles, some from the AVX2 tables (syrk_driver.cpp,
// half_rate_complex_syrk_kernels, half_rate_real_syrk_kernels). Same KC, same FMA order per element: the
// results must equal the other rule's bit for bit — every n that rule
// treats apart and some past it, k below and past the small-k limits,
// within and across a KC block (f32 384; f64 256, complex 192), op(A) in
// place (N, lda = n) and packed (N with long columns; T), both triangles,
// 1 and 2 threads.
template <typename T>
void half_rate_tiles_bitwise(uint64_t seed) {
  if (!tesseraArchSupported(TESSERA_ARCH_AVX512)) GTEST_SKIP() << "no AVX-512";
  tt::HalfRatePair H;
  std::mt19937_64 rng(seed);
  // n = 300 at k = 16 / 96: the complex blocked path's AVX2 tile
  // (macro_kernel.h, half_rate_mid_k), k = 12 / 100 just outside it (n = 81–97
  // at k = 400, op T: inside SYRK's extension to 256 columns); n = 1024 (C's
  // columns 4–16 KiB apart): the real one's (one thread, k <= 64), and at
  // k = 4 the complex f32 8×8 for op(A) packed; at k = 5–11 past 80
  // columns (n = 81–97 at k = 7, 300 at k = 8 on two threads too) the 8×8,
  // but not at 1024 (k = 8); complex f64 at 81–300 columns with k = 5–64
  // (81–97 × 7 / 37, 300 × 8 / 12 / 16) and in the window at any n (1024 ×
  // 16 / 64; upper on two threads the main tile) the 512-bit 4×4.
  const auto ks = [](int64_t n) {
    return n == 300    ? std::vector<int64_t>{8, 12, 16, 96, 100}
           : n == 1024 ? std::vector<int64_t>{4, 8, 16, 64}
                       : std::vector<int64_t>{1, 4, 7, 37, 400};
  };
  for (int64_t n : {2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 20, 24, 28, 33, 40, 41, 48, 64, 80, 81, 96, 97,
                    300, 1024})
    for (int64_t k : ks(n))
      for (int layout = 0; layout < 3; ++layout)  // N in place, N with long columns, T
        for (bool lower : {true, false})
          for (int threads : {1, 2}) {
            const tblasOperation_t t = layout == 2 ? TBLAS_OP_T : TBLAS_OP_N;
            const int64_t lda = layout == 0 ? n : layout == 1 ? n + 70 : k;
            const V<T> A = tt::random_vector<T>(size_t(lda * (t == TBLAS_OP_N ? k : n)), rng);
            const V<T> C0 = tt::random_vector<T>(size_t(n * n), rng);
            const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
            const auto u = lower ? TBLAS_FILL_MODE_LOWER : TBLAS_FILL_MODE_UPPER;
            V<T> Ch = C0, Cf = C0;
            H.set_threads(threads);
            ASSERT_EQ(syrk(H.half, u, t, n, k, &alpha, A.data(), lda, &beta, Ch.data(), n), TESSERA_STATUS_SUCCESS);
            ASSERT_EQ(syrk(H.full, u, t, n, k, &alpha, A.data(), lda, &beta, Cf.data(), n), TESSERA_STATUS_SUCCESS);
            ASSERT_EQ(std::memcmp(Ch.data(), Cf.data(), Ch.size() * sizeof(T)), 0)
                << "n=" << n << " k=" << k << " layout=" << layout << (lower ? " L" : " U") << " threads=" << threads;
          }
}
TEST(Syrk, HalfRateTilesBitwiseComplexFloat) { half_rate_tiles_bitwise<std::complex<float>>(141); }
TEST(Syrk, HalfRateTilesBitwiseComplexDouble) { half_rate_tiles_bitwise<std::complex<double>>(142); }
TEST(Syrk, HalfRateTilesBitwiseFloat) { half_rate_tiles_bitwise<float>(143); }
TEST(Syrk, HalfRateTilesBitwiseDouble) { half_rate_tiles_bitwise<double>(144); }

// Invalid arguments: status, C untouched; HERK rejects trans T.
TEST(Syrk, InvalidArguments) {
  using T = std::complex<float>;
  Handle H;
  std::mt19937_64 rng(3);
  V<T> A = tt::random_vector<T>(64, rng), C = tt::random_vector<T>(64, rng);
  const V<T> C0 = C;
  T one(1);
  float rone = 1;
  const auto L = TBLAS_FILL_MODE_LOWER;
  const auto N = TBLAS_OP_N;
  const auto badu = static_cast<tblasFillMode_t>(2);
  const auto badt = static_cast<tblasOperation_t>(3);
  auto expect_invalid = [&](tesseraStatus_t st, const char *what) {
    EXPECT_EQ(st, TESSERA_STATUS_INVALID_VALUE) << what;
    EXPECT_EQ(std::memcmp(C.data(), C0.data(), C.size() * sizeof(T)), 0) << what;
  };
  expect_invalid(syrk(H.h, badu, N, 4, 3, &one, A.data(), 4, &one, C.data(), 4), "uplo");
  expect_invalid(syrk(H.h, L, badt, 4, 3, &one, A.data(), 4, &one, C.data(), 4), "trans");
  expect_invalid(syrk(H.h, L, N, -1, 3, &one, A.data(), 4, &one, C.data(), 4), "n<0");
  expect_invalid(syrk(H.h, L, N, 4, -1, &one, A.data(), 4, &one, C.data(), 4), "k<0");
  expect_invalid(syrk(H.h, L, N, 4, 3, &one, A.data(), 3, &one, C.data(), 4), "lda<n");
  expect_invalid(syrk(H.h, L, TBLAS_OP_T, 4, 3, &one, A.data(), 2, &one, C.data(), 4), "lda<k (T)");
  expect_invalid(syrk(H.h, L, N, 4, 3, &one, A.data(), 4, &one, C.data(), 3), "ldc<n");
  expect_invalid(syrk<T>(H.h, L, N, 4, 3, nullptr, A.data(), 4, &one, C.data(), 4), "alpha null");
  expect_invalid(syrk<T>(H.h, L, N, 4, 3, &one, A.data(), 4, nullptr, C.data(), 4), "beta null");
  expect_invalid(syrk<T>(H.h, L, N, 4, 3, &one, nullptr, 4, &one, C.data(), 4), "A null");
  expect_invalid(syrk<T>(H.h, L, N, 4, 3, &one, A.data(), 4, &one, nullptr, 4), "C null");
  expect_invalid(herk<T>(H.h, L, TBLAS_OP_T, 4, 3, &rone, A.data(), 4, &rone, C.data(), 4), "herk trans T");
  expect_invalid(herk<T>(H.h, badu, N, 4, 3, &rone, A.data(), 4, &rone, C.data(), 4), "herk uplo");
  EXPECT_EQ(syrk(nullptr, L, N, 4, 3, &one, A.data(), 4, &one, C.data(), 4), TESSERA_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(herk<T>(nullptr, L, N, 4, 3, &rone, A.data(), 4, &rone, C.data(), 4), TESSERA_STATUS_NOT_INITIALIZED);
  // Real SYRK accepts C as T.
  double dA[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, dC[16] = {}, d1 = 1, d0 = 0;
  EXPECT_EQ(tblasDsyrk(H.h, L, TBLAS_OP_C, 4, 3, &d1, dA, 3, &d0, dC, 4), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(dC[0], 1 * 1 + 2 * 2 + 3 * 3);
}

}  // namespace
