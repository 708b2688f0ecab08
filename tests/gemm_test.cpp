// GEMM: differential tests against a wide-precision Netlib-loop reference over
// enumerated tile edges, every op combination, every ISA path the CPU has,
// Netlib special semantics, thread-count determinism and argument validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <set>
#include <string>

#include "tessera/blas.h"
#include "test_util.h"

namespace {

using tt::real_t;
template <typename T> using V = std::vector<T>;
template <typename T> using R = real_t<T>;

using tt::gemm;
using tt::Handle;
using tt::supported_paths;

struct Case {
  tblasOperation_t ta, tb;
  int64_t m, n, k;
  int64_t pad_a, pad_b, pad_c;  // ld = rows + pad
};

const char *op_name(tblasOperation_t o) { return o == TBLAS_OP_N ? "N" : o == TBLAS_OP_T ? "T" : "C"; }

// Runs one case on handle h and checks it against the reference. Returns the report.
// `check`: against the reference (false: the call and C's padding only, for
// runs compared bitwise with one that was checked).
template <typename T>
tt::ErrorReport run_case(tblasHandle_t h, const Case &c, T alpha, T beta, std::mt19937_64 &rng, V<T> *out = nullptr,
                         bool check = true) {
  const int64_t arows = c.ta == TBLAS_OP_N ? c.m : c.k, acols = c.ta == TBLAS_OP_N ? c.k : c.m;
  const int64_t brows = c.tb == TBLAS_OP_N ? c.k : c.n, bcols = c.tb == TBLAS_OP_N ? c.n : c.k;
  const int64_t lda = std::max<int64_t>(1, arows + c.pad_a), ldb = std::max<int64_t>(1, brows + c.pad_b);
  const int64_t ldc = std::max<int64_t>(1, c.m + c.pad_c);
  V<T> A = tt::random_vector<T>(size_t(lda * std::max<int64_t>(acols, 1)), rng);
  V<T> B = tt::random_vector<T>(size_t(ldb * std::max<int64_t>(bcols, 1)), rng);
  V<T> C = tt::random_vector<T>(size_t(ldc * std::max<int64_t>(c.n, 1)), rng);
  V<T> C0 = C;
  EXPECT_EQ(gemm(h, c.ta, c.tb, c.m, c.n, c.k, &alpha, A.data(), lda, B.data(), ldb, &beta, C.data(), ldc),
            TESSERA_STATUS_SUCCESS);
  // Padding rows of C (between m and ldc) must be untouched.
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = c.m; i < ldc; ++i) EXPECT_EQ(std::memcmp(&C[i + j * ldc], &C0[i + j * ldc], sizeof(T)), 0);
  if (out) *out = C;
  if (!check) return {};
  V<tt::wide_of<T>> ref;
  V<double> bound;
  tt::ref_gemm<T>(c.ta, c.tb, c.m, c.n, c.k, alpha, A.data(), lda, B.data(), ldb, beta, C0, ldc, ref, bound);
  return tt::compare<T>(C, ref, bound, c.m, c.n, ldc);
}

// beta = 0 over a NaN-filled C (m × n, ldc = m): C must not be read, so no
// NaN comes out (real types; op(A)·op(B) with alpha = 1).
template <typename T>
void expect_beta_zero_ignores_c(tblasHandle_t h, tblasOperation_t ta, tblasOperation_t tb, int64_t m, int64_t n,
                                int64_t k, const T *A, int64_t lda, const T *B, int64_t ldb, const std::string &what) {
  V<T> C(size_t(m * n), tt::nan_value<T>());
  const T one = T(1), zero = T(0);
  ASSERT_EQ(gemm(h, ta, tb, m, n, k, &one, A, lda, B, ldb, &zero, C.data(), m), TESSERA_STATUS_SUCCESS);
  for (const T &x : C) ASSERT_FALSE(std::isnan(x)) << "beta = 0 read C: " << what;
}

// C = alpha·op(A)·op(B) + beta·C0 (m × n, ldc = m): *count = the elements
// whose Inf / NaN pattern differs from the reference loop's.
template <typename T>
void special_mismatches(tblasHandle_t h, tblasOperation_t ta, tblasOperation_t tb, int64_t m, int64_t n, int64_t k,
                        T alpha, const V<T> &A, int64_t lda, const V<T> &B, int64_t ldb, T beta, const V<T> &C0,
                        int64_t *count) {
  V<T> C = C0;
  ASSERT_EQ(gemm(h, ta, tb, m, n, k, &alpha, A.data(), lda, B.data(), ldb, &beta, C.data(), m),
            TESSERA_STATUS_SUCCESS);
  V<tt::wide_of<T>> ref;
  V<double> bound;
  tt::ref_gemm<T>(ta, tb, m, n, k, alpha, A.data(), lda, B.data(), ldb, beta, C0, m, ref, bound);
  *count = tt::compare<T>(C, ref, bound, m, n, m).special_mismatch;
}

// Sizes around every register tile (MR ∈ {4,8,16,32} reals, halved for
// complex; NR ∈ {4,6,12}) and around the KC/MC cache blocks.
const std::vector<int64_t> kEdgeSizes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 19, 23, 24, 25,
                                         31, 32, 33, 37, 47, 48, 49, 61, 64, 65, 97, 100};
const std::vector<int64_t> kBlockSizes = {127, 128, 129, 191, 192, 193, 239, 240, 241, 255, 256, 257, 320, 336, 385};

template <typename T>
void edge_sweep(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const tblasOperation_t ops[] = {TBLAS_OP_N, TBLAS_OP_T, TBLAS_OP_C};
  std::uniform_int_distribution<size_t> pick(0, kEdgeSizes.size() - 1);
  std::uniform_int_distribution<int> pad(0, 3);
  for (tesseraArch_t arch : supported_paths()) {
    Handle H;
    ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
    double worst = 0;
    int cases = 0;
    for (auto ta : ops)
      for (auto tb : ops)
        for (int rep = 0; rep < 24; ++rep) {
          Case c{ta, tb, kEdgeSizes[pick(rng)], kEdgeSizes[pick(rng)], kEdgeSizes[pick(rng)], pad(rng), pad(rng), pad(rng)};
          T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
          // Complex: every other case has a real-valued alpha, which (with
          // op(A) = N) takes the native complex direct kernel on small shapes.
          if constexpr (tt::is_cplx<T>::value)
            if (rep % 2) alpha = T(alpha.real(), 0);
          auto r = run_case<T>(H.h, c, alpha, beta, rng);
          ++cases;
          worst = std::max(worst, r.worst_ratio);
          EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(c.k))
              << tesseraGetArchString(arch) << " " << op_name(ta) << op_name(tb) << " m=" << c.m << " n=" << c.n
              << " k=" << c.k;
          EXPECT_EQ(r.mismatches, 0);
          tesseraArch_t ran;
          tblasGetLastArch(H.h, &ran);
          EXPECT_EQ(ran, arch) << "the path that ran is not the one asked for";
        }
    std::printf("[ worst ratio ] %s %s: %.3f over %d cases\n", tesseraGetArchString(arch), tt::type_name<T>(), worst, cases);
  }
}

TEST(Gemm, EdgeSweepFloat) { edge_sweep<float>(1); }
TEST(Gemm, EdgeSweepDouble) { edge_sweep<double>(2); }
TEST(Gemm, EdgeSweepComplexFloat) { edge_sweep<std::complex<float>>(3); }
TEST(Gemm, EdgeSweepComplexDouble) { edge_sweep<std::complex<double>>(4); }

// Shapes with all rows in one MC block and k >= 64 (k-dominated ones here),
// then k < 64 over few row tiles:
// the blocked path reads real op(B) in place when its columns or rows are
// contiguous (op N or T), and f32 and complex op(A) when its columns are contiguous, short
// (at most 512 bytes apart) and not conjugated; it packs them otherwise (and
// complex B always). Every op, paddings, tile-edge row/column counts.
template <typename T>
void in_place_sweep(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const tblasOperation_t ops[] = {TBLAS_OP_N, TBLAS_OP_T, TBLAS_OP_C};
  const int64_t ms[] = {7, 17, 40, 64, 101, 9}, ns[] = {5, 13, 31, 6}, ks[] = {385, 700, 1100};
  std::uniform_int_distribution<int> pad(0, 40);
  for (tesseraArch_t arch : supported_paths()) {
    Handle H;
    ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
    double worst = 0;
    const auto check = [&](const Case &c) {
      auto r = run_case<T>(H.h, c, tt::random_value<T>(rng), tt::random_value<T>(rng), rng);
      worst = std::max(worst, r.worst_ratio);
      EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(c.k))
          << op_name(c.ta) << op_name(c.tb) << " m=" << c.m << " n=" << c.n << " k=" << c.k;
      EXPECT_EQ(r.mismatches, 0);
    };
    for (int rep = 0; rep < 18; ++rep) {
      // Padding 0..3 (in place) or up to 40 (packed again) in turn.
      const int pa = rep % 2 ? pad(rng) : rep % 4, pb = rep % 3 ? pad(rng) % 4 : pad(rng);
      // Enough multiply-adds (> 700k) that the blocked path runs, not the direct one.
      const int64_t m = ms[rep % 6], n = ns[(rep / 2) % 4], k = std::max<int64_t>(ks[rep % 3], 700000 / (m * n) + 1);
      check(Case{ops[rep % 3], ops[(rep / 3) % 3], m, n, k, pa, pb, rep % 2});
    }
    // k < 64 with few row tiles: real op(B) read in place when k >= twice
    // the row tiles (choose_in_place), packed otherwise; then tall and narrow
    // (n <= 2·NR, or 6·NR with k <= 32; k <= 256): real op(A) with contiguous columns in place.
    const Case few_rows[] = {{TBLAS_OP_N, TBLAS_OP_N, 7, 3301, 31, 0, 2, 1},  {TBLAS_OP_T, TBLAS_OP_N, 16, 4000, 16, 3, 0, 0},
                             {TBLAS_OP_N, TBLAS_OP_N, 33, 2500, 20, 1, 0, 5}, {TBLAS_OP_C, TBLAS_OP_N, 40, 1999, 40, 0, 1, 0},
                             {TBLAS_OP_N, TBLAS_OP_T, 17, 3000, 34, 2, 2, 2}, {TBLAS_OP_N, TBLAS_OP_N, 64, 1500, 9, 0, 0, 3},
                             {TBLAS_OP_N, TBLAS_OP_N, 3001, 16, 40, 3, 0, 1}, {TBLAS_OP_N, TBLAS_OP_T, 2500, 24, 9, 0, 1, 0},
                             {TBLAS_OP_N, TBLAS_OP_N, 1201, 7, 256, 5, 2, 2}, {TBLAS_OP_T, TBLAS_OP_N, 2000, 20, 30, 0, 0, 0},
                             // up to 6·NR columns with k <= 32: op(A) in place too
                             {TBLAS_OP_N, TBLAS_OP_N, 2999, 50, 20, 1, 0, 2}, {TBLAS_OP_N, TBLAS_OP_T, 1500, 70, 32, 0, 3, 0},
                             {TBLAS_OP_N, TBLAS_OP_N, 3001, 72, 8, 2, 1, 1}};
    for (const Case &c : few_rows) check(c);
    std::printf("[ worst ratio ] in place %s %s: %.3f\n", tesseraGetArchString(arch), tt::type_name<T>(), worst);
  }
}

TEST(Gemm, InPlaceSweepFloat) { in_place_sweep<float>(11); }
TEST(Gemm, InPlaceSweepDouble) { in_place_sweep<double>(12); }
TEST(Gemm, InPlaceSweepComplexFloat) { in_place_sweep<std::complex<float>>(13); }
TEST(Gemm, InPlaceSweepComplexDouble) { in_place_sweep<std::complex<double>>(14); }

// Shapes that cross the KC/MC/NC cache blocks and take the packed path.
template <typename T>
void block_sweep(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, kBlockSizes.size() - 1);
  const tblasOperation_t ops[] = {TBLAS_OP_N, TBLAS_OP_T, TBLAS_OP_C};
  for (tesseraArch_t arch : supported_paths()) {
    Handle H;
    ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
    double worst = 0;
    for (int rep = 0; rep < 6; ++rep) {
      Case c{ops[rep % 3], ops[(rep / 3 + rep) % 3], kBlockSizes[pick(rng)], 37 + rep * 11, kBlockSizes[pick(rng)], 1, 0, 2};
      auto r = run_case<T>(H.h, c, tt::random_value<T>(rng), tt::random_value<T>(rng), rng);
      worst = std::max(worst, r.worst_ratio);
      EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(c.k)) << "m=" << c.m << " n=" << c.n << " k=" << c.k;
      EXPECT_EQ(r.mismatches, 0);
    }
    // Wide in n: crosses NC (2040) with a short m.
    Case wide{TBLAS_OP_N, TBLAS_OP_T, 9, 2100, 40, 0, 1, 0};
    auto r = run_case<T>(H.h, wide, tt::random_value<T>(rng), tt::random_value<T>(rng), rng);
    worst = std::max(worst, r.worst_ratio);
    EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(wide.k));
    std::printf("[ worst ratio ] blocks %s %s: %.3f\n", tesseraGetArchString(arch), tt::type_name<T>(), worst);
  }
}

// On a core that runs 512-bit operations at half rate (Zen 4; forced here
// with TESSERA_ZMM_HALF_RATE on either kind of core) real blocked GEMMs take
// the narrow 1-vector × 8-column tile at any k (gemm_driver.cpp,
// narrow_tile), and at k = 16–96 other tiles: complex f32 the AVX2 table's
// main tile, or the 512-bit 8×8 where panels of 3 would pad n (900 × 64),
// complex f64 the 512-bit 4×4 (macro_kernel.h, half_rate_mid_k_complex;
// and within the direct size on one thread, 30 × 20 × 40: gemm_driver.cpp),
// real rows past the last whole vector, up to half a vector, on one thread
// within the direct size the AVX2 table's tiles (17³, 20 × 30 × 25),
// real the AVX2 main tile where C's columns are a multiple of 4 KiB apart
// (half_rate_mid_k). Same KC, same FMA order: the same bits as the main tile
// — each op pair, k within and across KC blocks and at the window's ends,
// edge rows and columns, 1 and 2 threads.
template <typename T>
void half_rate_tile_bitwise(uint64_t seed) {
  if (!tesseraArchSupported(TESSERA_ARCH_AVX512)) GTEST_SKIP() << "no AVX-512";
  tt::HalfRatePair H;
  std::mt19937_64 rng(seed);
  const tblasOperation_t ops[2] = {TBLAS_OP_N, TBLAS_OP_T};
  // 1024 rows: C's columns 4 / 8 KiB apart (real: the AVX2 tile at k <= 96).
  const int64_t shapes[][3] = {{700, 300, 100}, {333, 190, 600}, {1100, 77, 257}, {520, 650, 90},
                               {301, 299, 16},  {450, 200, 96},  {1024, 300, 64}, {900, 64, 48},
                               {30, 20, 40},    {17, 17, 17},   {20, 30, 25},    {41, 9, 40},
                               {24, 13, 22}};
  for (const auto &sh : shapes)
    for (tblasOperation_t ta : ops)
      for (tblasOperation_t tb : ops)
        for (int threads : {1, 2}) {
          const int64_t m = sh[0], n = sh[1], k = sh[2];
          const int64_t lda = ta == TBLAS_OP_N ? m : k, ldb = tb == TBLAS_OP_N ? k : n;
          const V<T> A = tt::random_vector<T>(size_t(lda * (ta == TBLAS_OP_N ? k : m)), rng);
          const V<T> B = tt::random_vector<T>(size_t(ldb * (tb == TBLAS_OP_N ? n : k)), rng);
          const V<T> C0 = tt::random_vector<T>(size_t(m * n), rng);
          const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
          V<T> Ch = C0, Cf = C0;
          H.set_threads(threads);
          ASSERT_EQ(gemm(H.half, ta, tb, m, n, k, &alpha, A.data(), lda, B.data(), ldb, &beta, Ch.data(), m),
                    TESSERA_STATUS_SUCCESS);
          ASSERT_EQ(gemm(H.full, ta, tb, m, n, k, &alpha, A.data(), lda, B.data(), ldb, &beta, Cf.data(), m),
                    TESSERA_STATUS_SUCCESS);
          ASSERT_EQ(std::memcmp(Ch.data(), Cf.data(), Ch.size() * sizeof(T)), 0)
              << op_name(ta) << op_name(tb) << " " << m << "x" << n << "x" << k << " threads=" << threads;
        }
}
TEST(Gemm, HalfRateTileBitwiseFloat) { half_rate_tile_bitwise<float>(31); }
TEST(Gemm, HalfRateTileBitwiseDouble) { half_rate_tile_bitwise<double>(32); }
TEST(Gemm, HalfRateTileBitwiseComplexFloat) { half_rate_tile_bitwise<std::complex<float>>(33); }
TEST(Gemm, HalfRateTileBitwiseComplexDouble) { half_rate_tile_bitwise<std::complex<double>>(34); }

TEST(Gemm, BlockSweepFloat) { block_sweep<float>(11); }
TEST(Gemm, BlockSweepDouble) { block_sweep<double>(12); }
TEST(Gemm, BlockSweepComplexFloat) { block_sweep<std::complex<float>>(13); }
TEST(Gemm, BlockSweepComplexDouble) { block_sweep<std::complex<double>>(14); }

// alpha/beta in {0, 1, -1, random, complex}, over direct and packed sizes.
template <typename T>
void scalar_sweep(uint64_t seed) {
  std::mt19937_64 rng(seed);
  V<T> vals = {T(0), T(1), T(-1), tt::random_value<T>(rng)};
  if constexpr (tt::is_cplx<T>::value) {
    vals.push_back(T(0, 1));
    vals.push_back(T(0.5, -2));
  }
  Handle H;
  for (T alpha : vals)
    for (T beta : vals)
      for (int64_t s : {int64_t(13), int64_t(130)}) {
        Case c{TBLAS_OP_N, TBLAS_OP_C, s, s + 3, s - 2, 1, 2, 3};
        auto r = run_case<T>(H.h, c, alpha, beta, rng);
        EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(c.k));
        EXPECT_EQ(r.mismatches, 0);
        EXPECT_EQ(r.special_mismatch, 0);
      }
}

TEST(Gemm, AlphaBetaFloat) { scalar_sweep<float>(21); }
TEST(Gemm, AlphaBetaDouble) { scalar_sweep<double>(22); }
TEST(Gemm, AlphaBetaComplexFloat) { scalar_sweep<std::complex<float>>(23); }
TEST(Gemm, AlphaBetaComplexDouble) { scalar_sweep<std::complex<double>>(24); }

// beta == 0 never reads C; alpha == 0 never reads A or B; quick return with
// beta == 1 leaves C bit-identical.
template <typename T>
void netlib_semantics() {
  std::mt19937_64 rng(31);
  for (tesseraArch_t arch : supported_paths()) {
    Handle H;
    ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
    for (int64_t s : {int64_t(5), int64_t(70), int64_t(150)}) {
      const int64_t m = s, n = s + 1, k = s + 2;
      V<T> A = tt::random_vector<T>(size_t(m * k), rng), B = tt::random_vector<T>(size_t(k * n), rng);
      V<T> C(size_t(m * n), tt::nan_value<T>());
      T one = T(1), zero = T(0);
      ASSERT_EQ(gemm(H.h, TBLAS_OP_N, TBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &zero, C.data(), m),
                TESSERA_STATUS_SUCCESS);
      for (auto &x : C) ASSERT_FALSE(std::isnan(std::abs(x))) << "beta=0 read C (size " << s << ")";
      // alpha = 0: A and B are NaN and must not be read; C = beta*C.
      V<T> An(A.size(), tt::nan_value<T>()), Bn(B.size(), tt::nan_value<T>());
      V<T> C2 = tt::random_vector<T>(size_t(m * n), rng), C2ref = C2;
      T beta = T(-0.5);
      ASSERT_EQ(gemm(H.h, TBLAS_OP_T, TBLAS_OP_N, m, n, k, &zero, An.data(), k, Bn.data(), k, &beta, C2.data(), m),
                TESSERA_STATUS_SUCCESS);
      for (size_t i = 0; i < C2.size(); ++i) ASSERT_EQ(C2[i], beta * C2ref[i]);
      // alpha = 0, beta = 0: zero without reading anything.
      V<T> C3(size_t(m * n), tt::nan_value<T>());
      ASSERT_EQ(gemm(H.h, TBLAS_OP_N, TBLAS_OP_N, m, n, k, &zero, An.data(), m, Bn.data(), k, &zero, C3.data(), m),
                TESSERA_STATUS_SUCCESS);
      for (auto &x : C3) ASSERT_EQ(x, T(0));
      // Quick return: k == 0 and beta == 1 leave C bit-identical (NaNs included).
      V<T> C4(size_t(m * n), tt::nan_value<T>());
      V<T> C4ref = C4;
      ASSERT_EQ(gemm(H.h, TBLAS_OP_N, TBLAS_OP_N, m, n, 0, &one, An.data(), m, Bn.data(), 1, &one, C4.data(), m),
                TESSERA_STATUS_SUCCESS);
      ASSERT_EQ(std::memcmp(C4.data(), C4ref.data(), C4.size() * sizeof(T)), 0);
    }
  }
}

TEST(Gemm, NetlibSemanticsFloat) { netlib_semantics<float>(); }
TEST(Gemm, NetlibSemanticsDouble) { netlib_semantics<double>(); }
TEST(Gemm, NetlibSemanticsComplexFloat) { netlib_semantics<std::complex<float>>(); }
TEST(Gemm, NetlibSemanticsComplexDouble) { netlib_semantics<std::complex<double>>(); }

// Inf and NaN in A, B and C propagate as in the reference loop.
template <typename T>
void special_values() {
  using R = real_t<T>;
  const R inf = std::numeric_limits<R>::infinity(), nan = std::numeric_limits<R>::quiet_NaN();
  std::mt19937_64 rng(41);
  for (tesseraArch_t arch : supported_paths()) {
    Handle H;
    ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
    for (int64_t s : {int64_t(7), int64_t(90)}) {
      const int64_t m = s, n = s, k = s;
      V<T> A = tt::random_vector<T>(size_t(m * k), rng), B = tt::random_vector<T>(size_t(k * n), rng);
      V<T> C = tt::random_vector<T>(size_t(m * n), rng);
      A[1] = T(inf);                  // row 1 of C gets Inf or NaN
      B[2 + 3 * k] = T(nan);          // column 3 gets NaN
      B[4 + 6 * k] = T(inf);          // column 6: Netlib's alpha·B(l,j) first; complex (1,0)·(Inf,0) = (Inf,NaN)
      C[4 + 5 * m] = T(-inf);         // one element -Inf (finite A·B)
      for (T alpha : {T(1.5), T(1)}) {
        int64_t bad = -1;
        special_mismatches<T>(H.h, TBLAS_OP_N, TBLAS_OP_N, m, n, k, alpha, A, m, B, k, T(2), C, &bad);
        EXPECT_EQ(bad, 0) << tesseraGetArchString(arch) << " size " << s << " alpha " << alpha;
      }
    }
  }
}

TEST(Gemm, SpecialValuesFloat) { special_values<float>(); }
TEST(Gemm, SpecialValuesDouble) { special_values<double>(); }
TEST(Gemm, SpecialValuesComplexFloat) { special_values<std::complex<float>>(); }
TEST(Gemm, SpecialValuesComplexDouble) { special_values<std::complex<double>>(); }

// Bitwise identical results for 1, 2 and 3 threads on every path.
template <typename T>
void thread_determinism() {
  tt::FullThreadWork full_work;  // the cases' sizes split as the thread rule counts flops in full
  const Case cases[] = {{TBLAS_OP_N, TBLAS_OP_N, 300, 280, 270, 1, 0, 3},
                        {TBLAS_OP_T, TBLAS_OP_C, 61, 700, 100, 0, 2, 0},
                        {TBLAS_OP_N, TBLAS_OP_T, 900, 20, 64, 0, 0, 0},
                        {TBLAS_OP_C, TBLAS_OP_N, 70, 75, 80, 3, 1, 1},
                        // direct path on 2-3 threads, units of 4-column steps
                        // (real) and 2-column steps (complex)
                        {TBLAS_OP_N, TBLAS_OP_N, 64, 76, 72, 0, 1, 0},
                        {TBLAS_OP_N, TBLAS_OP_T, 60, 62, 64, 1, 0, 2},
                        // one thread: the unplanned direct loop up to the
                        // direct limit (f64 here; op(A) packed), and its
                        // 16-row × 16-column tile (m = 16, n % 16 = 0)
                        {TBLAS_OP_T, TBLAS_OP_N, 130, 150, 140, 1, 2, 0},
                        {TBLAS_OP_N, TBLAS_OP_N, 16, 64, 300, 0, 0, 1},
                        // op(B) = T at ldb = 128: f64 on AVX2 packs it (its
                        // rows share 4 L1 sets), elsewhere read in place
                        {TBLAS_OP_N, TBLAS_OP_T, 128, 128, 128, 0, 0, 0},
                        // k- and column-grouped tiles (AVX-512, real m <= 8 / 4) on 2-3 threads
                        {TBLAS_OP_N, TBLAS_OP_N, 4, 900, 201, 1, 0, 1},
                        {TBLAS_OP_T, TBLAS_OP_N, 7, 700, 103, 0, 2, 0},
                        {TBLAS_OP_N, TBLAS_OP_T, 3, 1000, 300, 2, 1, 0},
                        // row-vector tiles: more columns than one tile (f32
                        // 48, f64 24) whose units hold no more than one,
                        // k past one block
                        {TBLAS_OP_N, TBLAS_OP_T, 8, 60, 700, 0, 1, 0},
                        {TBLAS_OP_T, TBLAS_OP_T, 8, 40, 1000, 1, 0, 0},
                        // the column tile (n = 1) split by rows
                        {TBLAS_OP_N, TBLAS_OP_N, 1000, 1, 700, 3, 0, 1},
                        // small k on the narrow tile (AVX-512): blocked, direct
                        {TBLAS_OP_N, TBLAS_OP_N, 1100, 300, 40, 0, 0, 0},
                        {TBLAS_OP_T, TBLAS_OP_N, 600, 500, 64, 1, 0, 2},
                        {TBLAS_OP_N, TBLAS_OP_T, 200, 900, 24, 2, 1, 0},
                        // f64: the narrow tile on one thread (direct, 13
                        // columns), the main one on the planned path (< 16)
                        {TBLAS_OP_N, TBLAS_OP_N, 2000, 13, 24, 0, 0, 0}};
  // Real only: rows past the last whole vector (AVX-512, at most half of
  // one) computed inside each unit of a grid of columns, k- and
  // column-grouped, direct and (f64, k past KC) blocked.
  const Case real_cases[] = {{TBLAS_OP_N, TBLAS_OP_N, 82, 82, 82, 0, 0, 0},
                             {TBLAS_OP_N, TBLAS_OP_T, 100, 90, 70, 1, 0, 0},
                             {TBLAS_OP_T, TBLAS_OP_N, 100, 140, 300, 0, 1, 0}};
  std::vector<Case> all(std::begin(cases), std::end(cases));
  if constexpr (!tt::is_cplx<T>::value) all.insert(all.end(), std::begin(real_cases), std::end(real_cases));
  for (tesseraArch_t arch : supported_paths()) {
    for (const Case &c : all) {
      V<T> first;
      for (int threads : {1, 2, 3}) {
        Handle H;
        ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
        ASSERT_EQ(tblasSetNumThreads(H.h, threads), TESSERA_STATUS_SUCCESS);
        std::mt19937_64 rng(51);  // same data every time
        V<T> out;
        T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
        // The reference once per path (1 thread); more threads must match it bit for bit.
        auto r = run_case<T>(H.h, c, alpha, beta, rng, &out, threads == 1);
        EXPECT_EQ(r.mismatches, 0);
        int used = 0;
        tblasGetLastThreads(H.h, &used);
        if (threads > 1 && c.m * c.n * c.k > 300000) EXPECT_GT(used, 1) << "the multi-thread path did not run";
        if (threads == 1) first = out;
        else EXPECT_EQ(std::memcmp(out.data(), first.data(), out.size() * sizeof(T)), 0)
            << tesseraGetArchString(arch) << " threads=" << threads << " m=" << c.m << " n=" << c.n;
      }
    }
  }
}

// B the same array as A (C = op(A)·A, e.g. Aᴴ·A): the operands alias, which
// a driver may not mistake for SYRK's B = op(A)^T — a GEMM unit's columns
// need not be among its rows. 1, 2 and 3 threads bitwise the same, and
// right against the reference.
template <typename T>
void aliased_operands() {
  for (tesseraArch_t arch : supported_paths())
    for (tblasOperation_t ta : {TBLAS_OP_T, TBLAS_OP_C})
      for (int64_t n : {int64_t(40), int64_t(64), int64_t(150)}) {
        std::mt19937_64 rng(61);
        const int64_t k = n + 3;  // A is k × n: op(A) n × k, B = A k × n
        V<T> A = tt::random_vector<T>(size_t(k * n), rng), C0 = tt::random_vector<T>(size_t(n * n), rng);
        const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
        V<T> first;
        for (int threads : {1, 2, 3}) {
          Handle H;
          ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
          ASSERT_EQ(tblasSetNumThreads(H.h, threads), TESSERA_STATUS_SUCCESS);
          V<T> C = C0;
          ASSERT_EQ(gemm(H.h, ta, TBLAS_OP_N, n, n, k, &alpha, A.data(), k, A.data(), k, &beta, C.data(), n),
                    TESSERA_STATUS_SUCCESS);
          if (threads == 1) {
            first = C;
            V<tt::wide_of<T>> ref;
            V<double> bound;
            tt::ref_gemm<T>(ta, TBLAS_OP_N, n, n, k, alpha, A.data(), k, A.data(), k, beta, C0, n, ref, bound);
            const auto r = tt::compare<T>(C, ref, bound, n, n, n);
            EXPECT_EQ(r.mismatches, 0) << tesseraGetArchString(arch) << " n=" << n;
          } else {
            EXPECT_EQ(std::memcmp(C.data(), first.data(), C.size() * sizeof(T)), 0)
                << tesseraGetArchString(arch) << " threads=" << threads << " n=" << n;
          }
        }
      }
}
TEST(Gemm, AliasedOperandsFloat) { aliased_operands<float>(); }
TEST(Gemm, AliasedOperandsComplexFloat) { aliased_operands<std::complex<float>>(); }
TEST(Gemm, AliasedOperandsComplexDouble) { aliased_operands<std::complex<double>>(); }

TEST(Gemm, ThreadDeterminismFloat) { thread_determinism<float>(); }
TEST(Gemm, ThreadDeterminismDouble) { thread_determinism<double>(); }
TEST(Gemm, ThreadDeterminismComplexFloat) { thread_determinism<std::complex<float>>(); }
TEST(Gemm, ThreadDeterminismComplexDouble) { thread_determinism<std::complex<double>>(); }

// Every invalid argument: the status, and C byte-for-byte untouched.
template <typename T>
void invalid_arguments() {
  Handle H;
  std::mt19937_64 rng(61);
  const int64_t m = 4, n = 5, k = 6;
  V<T> A = tt::random_vector<T>(64, rng), B = tt::random_vector<T>(64, rng), C = tt::random_vector<T>(64, rng);
  const V<T> C0 = C;
  T one = T(1);
  struct Bad {
    const char *what;
    tblasOperation_t ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    bool null_alpha, null_beta, null_a, null_b, null_c;
  };
  const auto X = static_cast<tblasOperation_t>(3), Y = static_cast<tblasOperation_t>(-1);
  const Bad bad[] = {
      {"transa", X, TBLAS_OP_N, m, n, k, m, k, m, 0, 0, 0, 0, 0},
      {"transa<0", Y, TBLAS_OP_N, m, n, k, m, k, m, 0, 0, 0, 0, 0},
      {"transb", TBLAS_OP_N, X, m, n, k, m, k, m, 0, 0, 0, 0, 0},
      {"m<0", TBLAS_OP_N, TBLAS_OP_N, -1, n, k, m, k, m, 0, 0, 0, 0, 0},
      {"n<0", TBLAS_OP_N, TBLAS_OP_N, m, -1, k, m, k, m, 0, 0, 0, 0, 0},
      {"k<0", TBLAS_OP_N, TBLAS_OP_N, m, n, -1, m, k, m, 0, 0, 0, 0, 0},
      {"lda<m", TBLAS_OP_N, TBLAS_OP_N, m, n, k, m - 1, k, m, 0, 0, 0, 0, 0},
      {"lda<k (T)", TBLAS_OP_T, TBLAS_OP_N, m, n, k, k - 1, k, m, 0, 0, 0, 0, 0},
      {"lda=0", TBLAS_OP_N, TBLAS_OP_N, 0, n, k, 0, k, 1, 0, 0, 0, 0, 0},
      {"ldb<k", TBLAS_OP_N, TBLAS_OP_N, m, n, k, m, k - 1, m, 0, 0, 0, 0, 0},
      {"ldb<n (T)", TBLAS_OP_N, TBLAS_OP_T, m, n, k, m, n - 1, m, 0, 0, 0, 0, 0},
      {"ldc<m", TBLAS_OP_N, TBLAS_OP_N, m, n, k, m, k, m - 1, 0, 0, 0, 0, 0},
      {"ldc=0", TBLAS_OP_N, TBLAS_OP_N, 0, n, k, 1, k, 0, 0, 0, 0, 0, 0},
      {"huge ldc", TBLAS_OP_N, TBLAS_OP_N, m, n, k, m, k, INT64_MAX / 2, 0, 0, 0, 0, 0},
      {"alpha null", TBLAS_OP_N, TBLAS_OP_N, m, n, k, m, k, m, 1, 0, 0, 0, 0},
      {"beta null", TBLAS_OP_N, TBLAS_OP_N, m, n, k, m, k, m, 0, 1, 0, 0, 0},
      {"A null", TBLAS_OP_N, TBLAS_OP_N, m, n, k, m, k, m, 0, 0, 1, 0, 0},
      {"B null", TBLAS_OP_N, TBLAS_OP_N, m, n, k, m, k, m, 0, 0, 0, 1, 0},
      {"C null", TBLAS_OP_N, TBLAS_OP_N, m, n, k, m, k, m, 0, 0, 0, 0, 1},
  };
  for (const Bad &b : bad) {
    auto st = gemm(H.h, b.ta, b.tb, b.m, b.n, b.k, b.null_alpha ? nullptr : &one, b.null_a ? nullptr : A.data(), b.lda,
                   b.null_b ? nullptr : B.data(), b.ldb, b.null_beta ? nullptr : &one, b.null_c ? nullptr : C.data(), b.ldc);
    EXPECT_EQ(st, TESSERA_STATUS_INVALID_VALUE) << b.what;
    EXPECT_EQ(std::memcmp(C.data(), C0.data(), C.size() * sizeof(T)), 0) << b.what << " wrote C";
  }
  // Null handle and destroyed handle.
  EXPECT_EQ(gemm(nullptr, TBLAS_OP_N, TBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &one, C.data(), m),
            TESSERA_STATUS_NOT_INITIALIZED);
  tblasHandle_t dead;
  ASSERT_EQ(tblasCreate(&dead), TESSERA_STATUS_SUCCESS);
  // Used once first: the liveness answer cached by that call must not
  // outlive the handle.
  std::vector<T> Cw = C0;
  ASSERT_EQ(gemm(dead, TBLAS_OP_N, TBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &one, Cw.data(), m),
            TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tblasDestroy(dead), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(gemm(dead, TBLAS_OP_N, TBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &one, C.data(), m),
            TESSERA_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(std::memcmp(C.data(), C0.data(), C.size() * sizeof(T)), 0);
  // Null A/B are fine when they are not needed (alpha == 0 or k == 0).
  T zero = T(0);
  EXPECT_EQ(gemm(H.h, TBLAS_OP_N, TBLAS_OP_N, m, n, k, &zero, nullptr, m, nullptr, k, &one, C.data(), m),
            TESSERA_STATUS_SUCCESS);
}

// Real GEMMs with a few rows take the k-grouped tiles on AVX-512 (op(B) =
// N: H rows × G k-steps per vector, G = 2, 4, 8 by m) or the column-grouped
// ones (op(B) = T: H rows × G columns): every m up to past the largest H,
// every k around G (a last group shorter than G: B's missing steps must read
// nothing past its column and add nothing), every n around the tiles'
// widths (aliased padding columns and groups), op(A) N (packed by column
// chunks) and T (element by element), lda / ldb / ldc padded; beta = 0 over
// a NaN-poisoned C; Inf / NaN in the last k-step of B and A, where a short
// group's zero padding meets them; and op(B) = T with k <= 256 gives the
// main tiles' bits (the same rows of a 16-row-taller product, which the main
// tiles compute, in one k block as the column-grouped tiles do).
template <typename T>
void kgroup_sweep(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const R<T> inf = std::numeric_limits<R<T>>::infinity(), nan = std::numeric_limits<R<T>>::quiet_NaN();
  for (tesseraArch_t arch : supported_paths()) {
    Handle H;
    ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
    double worst = 0;
    int cases = 0;
    for (int64_t m = 1; m <= 9; ++m)
      for (int64_t k : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129, 300})
        for (int64_t n : {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 33, 70})
          for (tblasOperation_t ta : {TBLAS_OP_N, TBLAS_OP_T})
            for (tblasOperation_t tb : {TBLAS_OP_N, TBLAS_OP_T}) {
              if ((k == 300 || n == 70) && (m % 3 != 1 || ta != TBLAS_OP_N)) continue;  // a few long ones
              // Around the row-stacked tiles' thresholds (4 groups: f64 32, f32 64) and block (128
              // steps): their rows only.
              if ((k == 31 || k == 32 || k == 33 || k == 63 || k == 64 || k == 129) && m != 1 && m != 3 && m != 4)
                continue;
              const Case c{ta, tb, m, n, k, (m + k + n) % 3, (m + n) % 2, k % 3};
              const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
              const auto r = run_case<T>(H.h, c, alpha, beta, rng);
              ++cases;
              worst = std::max(worst, r.worst_ratio);
              const std::string what = std::string(tesseraGetArchString(arch)) + " " + op_name(ta) + op_name(tb) +
                                       " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                                       " k=" + std::to_string(k);
              EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(k)) << what;
              EXPECT_EQ(r.mismatches, 0) << what;
              if (n != 9 && n != 17 && n != 70) continue;
              const int64_t lda = ta == TBLAS_OP_N ? m : k, ldb = tb == TBLAS_OP_N ? k : n;
              const auto bi = [&](int64_t l, int64_t j) { return size_t(tb == TBLAS_OP_N ? l + j * k : j + l * n); };
              V<T> A = tt::random_vector<T>(size_t(m * k), rng), B = tt::random_vector<T>(size_t(k * n), rng);
              // The main tiles' bits with op(B) = T up to k = 256 — but for
              // the split-chain tiles' calls (AVX-512, rows × vectors of
              // columns up to 4, 3 rows as 4, from 17 steps: other sums by
              // design).
              const int64_t w = 64 / int64_t(sizeof(T));
              const bool split =
                  arch == TESSERA_ARCH_AVX512 && m <= 4 && (m == 3 ? 4 : m) * ((n + w - 1) / w) <= 4 && k >= 17;
              if (tb == TBLAS_OP_T && k <= 256 && !split) {
                const int64_t M = m + 16;
                V<T> Ab = tt::random_vector<T>(size_t(M * k), rng), Cb = tt::random_vector<T>(size_t(M * n), rng);
                V<T> Cm(size_t(m * n));
                for (int64_t l = 0; l < k; ++l)
                  for (int64_t i = 0; i < m; ++i)
                    Ab[size_t(ta == TBLAS_OP_N ? i + l * M : l + i * k)] = A[size_t(ta == TBLAS_OP_N ? i + l * m : l + i * k)];
                for (int64_t j = 0; j < n; ++j)
                  for (int64_t i = 0; i < m; ++i) Cm[size_t(i + j * m)] = Cb[size_t(i + j * M)];
                ASSERT_EQ(gemm(H.h, ta, tb, M, n, k, &alpha, Ab.data(), ta == TBLAS_OP_N ? M : k, B.data(), ldb, &beta,
                               Cb.data(), M),
                          TESSERA_STATUS_SUCCESS);
                ASSERT_EQ(gemm(H.h, ta, tb, m, n, k, &alpha, A.data(), lda, B.data(), ldb, &beta, Cm.data(), m),
                          TESSERA_STATUS_SUCCESS);
                for (int64_t j = 0; j < n; ++j)
                  ASSERT_EQ(std::memcmp(&Cm[size_t(j * m)], &Cb[size_t(j * M)], size_t(m) * sizeof(T)), 0)
                      << "not the main tiles' bits: " << what;
              }
              // beta = 0: C not read; special values in the last k-step.
              const V<T> C0 = tt::random_vector<T>(size_t(m * n), rng);
              expect_beta_zero_ignores_c<T>(H.h, ta, tb, m, n, k, A.data(), lda, B.data(), ldb, what);
              B[bi(k - 1, 0)] = T(inf);       // column 0, last k-step
              B[bi(k - 1, 1)] = T(nan);       // column 1
              if (tb == TBLAS_OP_N) B[bi(0, 1)] = T(nan);  // column 1's first step, just past column 0's last group
              B[bi(k - 1, n - 1)] = T(-inf);  // last column
              A[size_t(ta == TBLAS_OP_N ? (m - 1) + (k - 1) * m : (k - 1) + (m - 1) * k)] = T(inf);  // last row
              int64_t bad = -1;
              special_mismatches<T>(H.h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C0, &bad);
              EXPECT_EQ(bad, 0) << "special values: " << what;
            }
    std::printf("[ worst ratio ] %s %s: %.3f over %d cases\n", tesseraGetArchString(arch), tt::type_name<T>(), worst,
                cases);
  }
}
// One or two columns (matrix × vector shapes) with op(A) = N run the column
// tiles (AVX-512: 8 row vectors × 1 or 2 columns; AVX2 8 × 1, 4 × 2; a last
// tile of at most half its rows on the half-height instance, and so on):
// every m around those heights, k around the small-k loops, op(B) N and T
// with padded ld; beta = 0 over a NaN-poisoned C.
template <typename T>
void column_sweep(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> ms;
  for (int64_t m = 1; m <= 20; ++m) ms.push_back(m);
  for (int64_t m : {31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 191, 192, 193, 255, 256, 257, 300, 1000})
    ms.push_back(m);
  for (tesseraArch_t arch : supported_paths()) {
    Handle H;
    ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
    for (int64_t m : ms)
      for (int64_t k : {1, 2, 3, 4, 5, 8, 17, 100})
        for (tblasOperation_t tb : {TBLAS_OP_N, TBLAS_OP_T}) {
          const Case c2{TBLAS_OP_N, tb, m, 2, k, m % 3, 1 + k % 2, m % 2};
          const T a2 = tt::random_value<T>(rng), b2 = tt::random_value<T>(rng);
          const auto r2 = run_case<T>(H.h, c2, a2, b2, rng);
          EXPECT_LE(r2.worst_ratio, tt::ratio_limit<T>(k)) << "n=2 m=" << m << " k=" << k;
          EXPECT_EQ(r2.mismatches, 0) << "n=2 m=" << m << " k=" << k;
          const Case c{TBLAS_OP_N, tb, m, 1, k, m % 3, 1 + k % 2, m % 2};
          const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
          const auto r = run_case<T>(H.h, c, alpha, beta, rng);
          const std::string what = std::string(tesseraGetArchString(arch)) + " N" + op_name(tb) +
                                   " m=" + std::to_string(m) + " k=" + std::to_string(k);
          EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(k)) << what;
          EXPECT_EQ(r.mismatches, 0) << what;
          const V<T> A = tt::random_vector<T>(size_t(m * k), rng), B = tt::random_vector<T>(size_t(k), rng);
          expect_beta_zero_ignores_c<T>(H.h, TBLAS_OP_N, tb, m, 1, k, A.data(), m, B.data(), tb == TBLAS_OP_N ? k : 1,
                                        what);
        }
  }
}
// Handles of 1, 2 and 3 threads on one path.
struct ThreadHandles {
  Handle h[3];
  explicit ThreadHandles(tesseraArch_t arch) {
    for (int t = 0; t < 3; ++t) {
      EXPECT_EQ(tblasSetArch(h[t].h, arch), TESSERA_STATUS_SUCCESS);
      EXPECT_EQ(tblasSetNumThreads(h[t].h, t + 1), TESSERA_STATUS_SUCCESS);
    }
  }
};

// Runs case c on 1, 2 and 3 threads with the same operands (from
// data_seed): each against the reference, and all three bitwise the same.
// Returns the worst ratio.
template <typename T>
double run_on_three(const ThreadHandles &hs, const Case &c, T alpha, T beta, uint64_t data_seed,
                    const std::string &what) {
  V<T> out[3];
  double worst = 0;
  for (int t = 0; t < 3; ++t) {
    std::mt19937_64 data(data_seed);  // the same operands for each thread count
    const auto r = run_case<T>(hs.h[t].h, c, alpha, beta, data, &out[t]);
    EXPECT_LE(r.worst_ratio, tt::ratio_limit<T>(c.k)) << what;
    EXPECT_EQ(r.mismatches, 0) << what;
    worst = std::max(worst, r.worst_ratio);
    if (t > 0)
      EXPECT_EQ(std::memcmp(out[t].data(), out[0].data(), out[0].size() * sizeof(T)), 0)
          << what << ": " << t + 1 << " threads differ from 1";
  }
  return worst;
}

// op(A)'s rows contiguous (op T), real, few columns (AVX-512), any m: the
// grouped tiles read op(A) in place. op(B) = T (f32 <= 32 columns, f64 <=
// 64; f32 with 9–12 rows any number from 16, from 16 steps, with 17–24 from
// 32, from 48 steps): the row-vector
// tiles in blocks of 8 rows, the last block on the 1-, 2- (f32), 4- or 8-row
// tile; op(B) = N (<= 12 columns; with at most 16 rows from 16 steps, past 4
// columns with 5–16 rows from 32; 1, 2 or 1–4 rows with 1–2 columns on
// blocks of their height):
// the row-stacked tiles in blocks of 8 rows × 1–2 columns or 4 × tiles of 4
// (3–4 columns with 5–8 rows, from 40, or between with 5–8 rows in
// the last block of 8 up to 128 steps: 8 × 4, two columns per vector,
// chosen by the call's m, so 2 and 3 threads' units of rows take it too;
// from 5 rows 5 columns from f32 48, f64 40 steps, f32 6 columns from 128,
// the last 1–2 columns on the 8 × 1 / 8 × 2). Every m
// around those blocks, every n around the vectors and tiles (f32 16 / 48
// columns, f64 8 / 24) and just past the limits, k around the step floors
// (f32 128, f64 64; with one vector of columns, op(B) = T, f32 64, f64 32;
// op(B) = N with at most 4 columns, f32 48, f64 32, with one f32 16, f64 8),
// the row-stacked tiles' 8-step groups and 128-step
// blocks and the row-vector tiles' 256-step ones, padded ld; beta = 0 over
// a NaN-poisoned C; Inf / NaN in the last row of A and the last step of B;
// 1, 2 and 3 threads bitwise the same.
template <typename T>
void rows_t_sweep(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const R<T> inf = std::numeric_limits<R<T>>::infinity(), nan = std::numeric_limits<R<T>>::quiet_NaN();
  const tblasOperation_t t = TBLAS_OP_T;
  for (tesseraArch_t arch : supported_paths()) {
    const ThreadHandles hs(arch);
    double worst = 0;
    int cases = 0;
    for (tblasOperation_t tb : {TBLAS_OP_T, TBLAS_OP_N})
      for (int64_t m : {1, 2, 3, 4, 5, 6, 8, 9, 12, 16, 17, 23, 39, 40, 41})
        for (int64_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 15, 16, 17, 24, 25, 31, 32, 33, 48, 49, 64, 65})
          for (int64_t k : {7, 8, 15, 16, 31, 32, 39, 40, 47, 48, 63, 64, 65, 127, 128, 300}) {
            if (k == 300 && (m + n) % 4 != 1) continue;  // a few long ones
            if ((k == 39 || k == 40) && !(tb == TBLAS_OP_N && n == 5)) continue;  // f64's floor for 5 columns
            // The one-column floors for op(B) = N (f32 16, f64 8), and 2
            // columns beside them; op(B) = T with 9–12 rows from 16 steps
            // (f32: the row-vector tiles at any n from 16).
            // op(B) = N with at most 16 rows from 16 steps.
            const bool few_rows_n = tb == TBLAS_OP_N && m <= 16 && k >= 15;
            if (k < 31 && !few_rows_n &&
                !(tb == TBLAS_OP_N ? n <= 2 : (m == 9 || m == 12) && k >= 15 && n == 16))
              continue;
            if (tb == TBLAS_OP_N ? n > 13 : k == 65) continue;
            // f64's one-vector floor (32) for op(B) = T; the few-column
            // floors (f64 32, f32 48) for op(B) = N, 4 columns and one past.
            const bool f32_rows_17_24 = (m == 17 || m == 23) && n == 33 && (k == 47 || k == 48);  // their floor
            if (k < 63 && !f32_rows_17_24 && !few_rows_n && (tb == TBLAS_OP_N ? n > 5 : n > 16 || k == 47 || k == 48))
              continue;
            const Case c{t, tb, m, n, k, (m + k) % 3, (n + k) % 2, m % 2};
            const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
            const std::string what = std::string(tesseraGetArchString(arch)) + " T" + op_name(tb) +
                                     " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                                     " k=" + std::to_string(k);
            worst = std::max(worst, run_on_three<T>(hs, c, alpha, beta, rng(), what));
            ++cases;
            if (n % 8 != 1 && m % 8 != 1 && n != 3 && n != 5 && n != 6) continue;
            const int64_t ldb = tb == t ? n : k;
            const auto bi = [&](int64_t l, int64_t j) { return size_t(tb == t ? j + l * n : l + j * k); };
            V<T> A = tt::random_vector<T>(size_t(m * k), rng), B = tt::random_vector<T>(size_t(k * n), rng);
            expect_beta_zero_ignores_c<T>(hs.h[0].h, t, tb, m, n, k, A.data(), k, B.data(), ldb, what);
            B[bi(k - 1, 0)] = T(inf);      // column 0, last step
            B[bi(k - 1, n - 1)] = T(nan);  // last column
            A[size_t((k - 1) + (m - 1) * k)] = T(-inf);  // last row, last step
            const V<T> C0 = tt::random_vector<T>(size_t(m * n), rng);
            int64_t bad = -1;
            special_mismatches<T>(hs.h[0].h, t, tb, m, n, k, alpha, A, k, B, ldb, beta, C0, &bad);
            EXPECT_EQ(bad, 0) << "special values: " << what;
          }
    // op(B) = N split over 2 and 3 threads in units of 8 rows whose last
    // holds 1–4 rows: that unit runs the tiles for its rows (1-row, 2-row
    // or 4-row blocks), one thread the tiles for the call's — the same bits.
    const int64_t split[][3] = {{9, 1, 240001}, {12, 2, 100001}, {10, 4, 60001}, {17, 2, 60003}, {11, 3, 60001}};
    for (const auto &d : split) {
      const Case c{t, TBLAS_OP_N, d[0], d[1], d[2], 1, 0, 1};
      const std::string what = std::string(tesseraGetArchString(arch)) + " TN m=" + std::to_string(d[0]) +
                               " n=" + std::to_string(d[1]) + " k=" + std::to_string(d[2]);
      worst = std::max(worst, run_on_three<T>(hs, c, tt::random_value<T>(rng), tt::random_value<T>(rng), rng(), what));
      ++cases;
      int used = 0;
      ASSERT_EQ(tblasGetLastThreads(hs.h[2].h, &used), TESSERA_STATUS_SUCCESS);
      if (arch == TESSERA_ARCH_AVX512) EXPECT_GT(used, 1) << what << ": not split";  // the grouped tiles' units
    }
    std::printf("[ worst ratio ] %s %s: %.3f over %d cases\n", tesseraGetArchString(arch), tt::type_name<T>(), worst,
                cases);
  }
}
TEST(Gemm, RowsTSweepFloat) { rows_t_sweep<float>(91); }
TEST(Gemm, RowsTSweepDouble) { rows_t_sweep<double>(92); }

TEST(Gemm, ColumnSweepFloat) { column_sweep<float>(81); }
TEST(Gemm, ColumnSweepDouble) { column_sweep<double>(82); }

// A last row vector at most half full (f32 m % 16 = 1..8, f64 m % 8 = 1..4,
// m above one vector, n >= 16, n·k >= 1024): on AVX-512 those rows run as a
// second product on the k- or column-grouped tiles after the rows above. Each
// such tail (and tails just past the rule: m % 16 = 9, n = 15), every op
// pair, padded ld, against the reference; beta = 0 over a NaN-poisoned C;
// Inf / NaN in the tail's last row of A and in B; 1, 2 and 3 threads bitwise
// the same.
template <typename T>
void tail_rows_sweep(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const R<T> inf = std::numeric_limits<R<T>>::infinity(), nan = std::numeric_limits<R<T>>::quiet_NaN();
  const tblasOperation_t ops[] = {TBLAS_OP_N, TBLAS_OP_T};
  const int64_t ms[] = {9, 12, 17, 20, 24, 25, 28, 33, 40, 100, 104, 131, 257};
  const int64_t nk[][2] = {{16, 64}, {37, 65}, {100, 130}, {15, 100}, {64, 2}};
  for (tesseraArch_t arch : supported_paths()) {
    const ThreadHandles hs(arch);
    double worst = 0;
    int cases = 0;
    for (int64_t m : ms)
      for (const auto &d : nk)
        for (tblasOperation_t ta : ops)
          for (tblasOperation_t tb : ops) {
            const int64_t n = d[0], k = d[1];
            const Case c{ta, tb, m, n, k, m % 3, (n + k) % 2, m % 2};
            const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
            const std::string what = std::string(tesseraGetArchString(arch)) + " " + op_name(ta) + op_name(tb) +
                                     " m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k);
            worst = std::max(worst, run_on_three<T>(hs, c, alpha, beta, rng(), what));
            ++cases;
            if (ta != tb) continue;  // beta = 0 and special values: NN and TT
            const int64_t lda = ta == TBLAS_OP_N ? m : k, ldb = tb == TBLAS_OP_N ? k : n;
            V<T> A = tt::random_vector<T>(size_t(m * k), rng), B = tt::random_vector<T>(size_t(k * n), rng);
            expect_beta_zero_ignores_c<T>(hs.h[0].h, ta, tb, m, n, k, A.data(), lda, B.data(), ldb, what);
            const auto bi = [&](int64_t l, int64_t j) { return size_t(tb == TBLAS_OP_N ? l + j * k : j + l * n); };
            A[size_t(ta == TBLAS_OP_N ? (m - 1) + (k - 1) * m : (k - 1) + (m - 1) * k)] = T(inf);  // tail row
            A[size_t(ta == TBLAS_OP_N ? (m - 2) : (m - 2) * k)] = T(nan);
            B[bi(k - 1, 0)] = T(-inf);
            B[bi(0, n - 1)] = T(nan);
            int64_t bad = -1;
            special_mismatches<T>(hs.h[1].h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta,
                                  tt::random_vector<T>(size_t(m * n), rng), &bad);
            EXPECT_EQ(bad, 0) << "special values: " << what;
          }
    std::printf("[ worst ratio ] tail rows %s %s: %.3f over %d cases\n", tesseraGetArchString(arch),
                tt::type_name<T>(), worst, cases);
  }
}
// Few rows (1–8), op(A) = N, op(B) = T: the row-vector tiles read op(A)'s
// columns in place where their tile reads no row past m (1, 2 (f32), 4–8 rows; one
// thread or units of columns on several) and pack it otherwise (3 rows) —
// 1, 2 and 3 threads bitwise the same; padded lda.
template <typename T>
void cols_n_sweep(uint64_t seed) {
  std::mt19937_64 rng(seed);
  tt::FullThreadWork full_work;  // these sizes split as the thread rule counts flops in full
  for (tesseraArch_t arch : supported_paths()) {
    const ThreadHandles hs(arch);
    double worst = 0;
    int cases = 0, split = 0;
    for (int64_t m : {1, 2, 3, 4, 5, 6, 7, 8})
      for (const auto &d : {std::pair<int64_t, int64_t>{100, 600}, {33, 2000}, {300, 900}, {17, 70}}) {
        const Case c{TBLAS_OP_N, TBLAS_OP_T, m, d.first, d.second, 1 + m % 3, d.first % 2, m % 2};
        const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
        const std::string what = std::string(tesseraGetArchString(arch)) + " NT m=" + std::to_string(m) +
                                 " n=" + std::to_string(d.first) + " k=" + std::to_string(d.second);
        worst = std::max(worst, run_on_three<T>(hs, c, alpha, beta, rng(), what));
        ++cases;
        int used = 0;
        tblasGetLastThreads(hs.h[1].h, &used);
        split += used > 1;
      }
    EXPECT_GT(split, 0) << tesseraGetArchString(arch) << ": no case split over two threads";
    std::printf("[ worst ratio ] few rows NT %s %s: %.3f over %d cases\n", tesseraGetArchString(arch),
                tt::type_name<T>(), worst, cases);
  }
}
TEST(Gemm, FewRowsNTFloat) { cols_n_sweep<float>(95); }
TEST(Gemm, FewRowsNTDouble) { cols_n_sweep<double>(96); }

// The split-chain tiles (AVX-512; step l into partial sum l % S, added in
// a fixed tree at the end), each on the whole call: RowSplit for rows ×
// vectors of columns (f32 16, f64 8; 3 rows count as 4) up to 4 with
// op(B) = T — op(A) = N read by columns, op(A) = T by rows, one row either
// way by its stride — and ColSplit for more than half and at most one
// vector of rows with 1–4 columns, op(A) = N, op(B) N or T. k past 16
// (the tiny kernel's) with every remainder of the 2-, 4- and 8-way split,
// shapes on either side of each limit; against the reference, 1, 2 and 3
// threads bitwise the same (the shape alone picks the tile), padded
// leading dimensions; beta = 0 over a NaN C reads none of it, and a NaN or
// Inf in A or B comes out where the reference's does.
template <typename T>
void split_rows_sweep(uint64_t seed) {
  std::mt19937_64 rng(seed);
  constexpr int64_t w = 64 / sizeof(T);
  for (tesseraArch_t arch : supported_paths()) {
    const ThreadHandles hs(arch);
    double worst = 0;
    int cases = 0;
    const auto one = [&](tblasOperation_t ta, tblasOperation_t tb, int64_t m, int64_t n, int64_t k) {
      const Case c{ta, tb, m, n, k, (m + k) % 3, n % 2, 1 - m % 2};
      const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
      const std::string what = std::string(tesseraGetArchString(arch)) + " " + op_name(ta) + op_name(tb) +
                               " m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k);
      worst = std::max(worst, run_on_three<T>(hs, c, alpha, beta, rng(), what));
      ++cases;
      if (k > 24) return;
      const int64_t lda = ta == TBLAS_OP_N ? m : k, ldb = tb == TBLAS_OP_N ? k : n;
      V<T> A = tt::random_vector<T>(size_t(m * k), rng), B = tt::random_vector<T>(size_t(n * k), rng);
      expect_beta_zero_ignores_c<T>(hs.h[0].h, ta, tb, m, n, k, A.data(), lda, B.data(), ldb, what);
      // One special value in A (row m - 1, step k - 2: a later partial
      // sum than the first) and one in B (step 1, column n - 1).
      A[size_t(ta == TBLAS_OP_N ? (m - 1) + (k - 2) * lda : (k - 2) + (m - 1) * lda)] =
          std::numeric_limits<T>::infinity();
      B[size_t(tb == TBLAS_OP_N ? 1 + (n - 1) * ldb : (n - 1) + 1 * ldb)] = tt::nan_value<T>();
      const V<T> C0 = tt::random_vector<T>(size_t(m * n), rng);
      int64_t bad = 0;
      special_mismatches<T>(hs.h[0].h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C0, &bad);
      EXPECT_EQ(bad, 0) << what << ": Inf / NaN";
    };
    const int64_t ks[] = {17, 18, 19, 20, 21, 22, 23, 24, 63, 257, 1001, 4099};
    for (tblasOperation_t ta : {TBLAS_OP_N, TBLAS_OP_T})
      for (int64_t m : {1, 2, 3, 4})
        for (int64_t n : {int64_t(1), int64_t(3), w - 1, w, w + 1, 2 * w - 1, 2 * w, 2 * w + 1, 3 * w - 1, 3 * w + 1,
                          4 * w, 4 * w + 1})
          for (int64_t k : ks) {
            if (k > 64 && k < 4000 && n % 2 == 0 && n != w) continue;  // fewer cases, each remainder kept
            if (n > (m == 1 ? 4 : m == 2 ? 2 : 1) * w + 1) continue;   // up to 4 rows × vectors (and one past)
            one(ta, TBLAS_OP_T, m, n, k);
          }
    // The column tiles (ColSplit): op(A) = N, more than half and at most
    // one vector of rows, 1–4 columns (and 5, past them), op(B) N and T.
    for (tblasOperation_t tb : {TBLAS_OP_N, TBLAS_OP_T})
      for (int64_t m : {w / 2 + 1, w - 1, w})
        for (int64_t n : {1, 2, 3, 4, 5})
          for (int64_t k : ks) {
            if (k > 64 && k < 4000 && (m + n) % 2 == 0) continue;
            one(TBLAS_OP_N, tb, m, n, k);
          }
    std::printf("[ worst ratio ] split chains %s %s: %.3f over %d cases\n", tesseraGetArchString(arch),
                tt::type_name<T>(), worst, cases);
  }
}
TEST(Gemm, SplitRowsFloat) { split_rows_sweep<float>(97); }
TEST(Gemm, SplitRowsDouble) { split_rows_sweep<double>(98); }

// op(B) = T, k <= 256: each element is one FMA chain over l written back
// once whatever tile computes it, so a row's bits do not depend on m (but
// for whole calls on the split-chain tiles, at most 4 rows: SplitRows). The
// rows past the last whole tile (f64 m % 16 = 1–4, f32 m % 32 = 1–8; with
// op(A) = N those the row-vector tiles read in place: 1, 2 (f32), 4–8) take the
// row-vector tiles beside a one-thread direct product (row_vec_tail);
// computed again as rows of a taller product whose tiles are all whole (m
// rounded up to 32, the same leading dimensions), on 1 and 2 threads, they
// must come out bitwise the same — with alpha and beta random, 1 (C added)
// and 0 (C not read); op(A) = N and T.
template <typename T>
void tail_rows_bitwise(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const T one(1), zero(0);
  for (tesseraArch_t arch : supported_paths()) {
    const ThreadHandles hs(arch);
    int cases = 0;
    for (tblasOperation_t ta : {TBLAS_OP_N, TBLAS_OP_T})
      for (int64_t m : {17, 18, 20, 33, 35, 36, 40, 65, 68, 72, 100, 257})
        for (int64_t n : {3, 4, 17, 40})
          for (int64_t k : {1, 7, 64, 256}) {
            const int64_t mm = (m + 31) / 32 * 32;  // the taller product
            const int64_t lda = ta == TBLAS_OP_N ? mm + 3 : k + 3, ldc = mm + 3;
            const V<T> A = tt::random_vector<T>(size_t(lda * (ta == TBLAS_OP_N ? k : mm)), rng);
            const V<T> B = tt::random_vector<T>(size_t(n * k), rng), C0 = tt::random_vector<T>(size_t(ldc * n), rng);
            const T ar = tt::random_value<T>(rng), br = tt::random_value<T>(rng);
            const std::pair<T, T> scalars[] = {{ar, br}, {one, one}, {ar, zero}, {one, zero}};
            for (const auto &[alpha, beta] : scalars)
              for (int t = 0; t < 2; ++t) {
                V<T> C = C0, Ctall = C0;
                ASSERT_EQ(gemm<T>(hs.h[t].h, ta, TBLAS_OP_T, m, n, k, &alpha, A.data(), lda, B.data(), n, &beta,
                                  C.data(), ldc),
                          TESSERA_STATUS_SUCCESS);
                ASSERT_EQ(gemm<T>(hs.h[t].h, ta, TBLAS_OP_T, mm, n, k, &alpha, A.data(), lda, B.data(), n, &beta,
                                  Ctall.data(), ldc),
                          TESSERA_STATUS_SUCCESS);
                int64_t bad = 0;
                for (int64_t j = 0; j < n; ++j)
                  bad += std::memcmp(&C[size_t(j * ldc)], &Ctall[size_t(j * ldc)], size_t(m) * sizeof(T)) != 0;
                EXPECT_EQ(bad, 0) << tesseraGetArchString(arch) << " " << op_name(ta) << "T m=" << m << " (against "
                                  << mm << ") n=" << n << " k=" << k << " threads=" << t + 1;
                ++cases;
              }
          }
    std::printf("[ bitwise ] tail rows NT/TT %s %s: %d cases\n", tesseraGetArchString(arch), tt::type_name<T>(),
                cases);
  }
}
TEST(Gemm, TailRowsBitwiseFloat) { tail_rows_bitwise<float>(93); }
TEST(Gemm, TailRowsBitwiseDouble) { tail_rows_bitwise<double>(94); }

// Tiny products (the driver's tiny_gemm, mirrored by takes_tiny: at most
// 12 columns, k <= 16, up to 256 multiply-adds or 8 rows; op(A) = T with
// more than one row only with k <= 8, and more than 2 rows past 32
// multiply-adds) go from the entry
// point straight to the tiny kernel (vector or scalar loops) or the direct
// tiles. Every element
// must be the in-order sum the tiles form, bit for bit: from +0 one FMA
// per k-step (the portable path: a multiply, then an add), then
// alpha·sum, then beta·C fused in (C not read with beta = 0) — for every
// op pair, padded leading dimensions, alpha and beta random, 1 and 0, on 1
// and 2 threads and every ISA path.
bool takes_tiny(tblasOperation_t ta, int64_t m, int64_t n, int64_t k) {
  if (k > 16 || n > 12 || (m * n * k > 256 && m > 8)) return false;
  return ta == TBLAS_OP_N || m == 1 || (k <= 8 && (m > 2 || m * n * k <= 32));
}
template <typename T>
void tiny_in_order(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const T one(1), zero(0);
  std::vector<std::array<int64_t, 3>> shapes;
  for (int64_t m : {1, 2, 3, 5, 8})
    for (int64_t n : {1, 2, 4, 7, 8})
      for (int64_t k : {1, 2, 3, 8, 9, 16}) shapes.push_back({m, n, k});
  for (const std::array<int64_t, 3> &s : std::vector<std::array<int64_t, 3>>{
           {16, 12, 1}, {256, 1, 1}, {16, 1, 16}, {9, 9, 3}, {21, 12, 1}, {3, 12, 7}, {32, 8, 1}})
    shapes.push_back(s);
  for (tesseraArch_t arch : supported_paths()) {
    const bool fused = arch != TESSERA_ARCH_GENERIC;
    const auto fma1 = [fused](T a, T b, T c) {
      if (fused) return T(std::fma(a, b, c));
      volatile T p = a * b;  // no contraction into an FMA: the portable tiles multiply, then add
      return T(p + c);
    };
    const ThreadHandles hs(arch);
    int cases = 0;
    for (tblasOperation_t ta : {TBLAS_OP_N, TBLAS_OP_T})
      for (tblasOperation_t tb : {TBLAS_OP_N, TBLAS_OP_T})
        for (const auto &[m, n, k] : shapes) {
          if (!takes_tiny(ta, m, n, k)) continue;
          const int64_t lda = (ta == TBLAS_OP_N ? m : k) + 1, ldb = (tb == TBLAS_OP_N ? k : n) + 2, ldc = m + 3;
          const V<T> A = tt::random_vector<T>(size_t(lda * (ta == TBLAS_OP_N ? k : m)), rng);
          const V<T> B = tt::random_vector<T>(size_t(ldb * (tb == TBLAS_OP_N ? n : k)), rng);
          const V<T> C0 = tt::random_vector<T>(size_t(ldc * n), rng);
          const T ar = tt::random_value<T>(rng), br = tt::random_value<T>(rng);
          const std::pair<T, T> scalars[] = {{ar, br}, {one, one}, {ar, zero}, {one, zero}};
          for (const auto &[alpha, beta] : scalars) {
            V<T> want = C0;
            for (int64_t j = 0; j < n; ++j)
              for (int64_t i = 0; i < m; ++i) {
                T sum = zero;
                for (int64_t l = 0; l < k; ++l)
                  sum = fma1(ta == TBLAS_OP_N ? A[size_t(i + l * lda)] : A[size_t(l + i * lda)],
                             tb == TBLAS_OP_N ? B[size_t(l + j * ldb)] : B[size_t(j + l * ldb)], sum);
                T &c = want[size_t(i + j * ldc)];
                c = beta == zero ? T(alpha * sum) : fma1(c, beta, T(alpha * sum));
              }
            for (int t = 0; t < 2; ++t) {
              V<T> C = C0;
              if (beta == zero)  // C not read: NaN in it must not come out
                for (int64_t j = 0; j < n; ++j)
                  for (int64_t i = 0; i < m; ++i) C[size_t(i + j * ldc)] = std::numeric_limits<T>::quiet_NaN();
              ASSERT_EQ(gemm<T>(hs.h[t].h, ta, tb, m, n, k, &alpha, A.data(), lda, B.data(), ldb, &beta, C.data(),
                                ldc),
                        TESSERA_STATUS_SUCCESS);
              EXPECT_EQ(std::memcmp(C.data(), want.data(), C.size() * sizeof(T)), 0)
                  << tesseraGetArchString(arch) << " " << op_name(ta) << op_name(tb) << " m=" << m << " n=" << n
                  << " k=" << k << " threads=" << t + 1;
              ++cases;
            }
          }
        }
    std::printf("[ bitwise ] tiny products in order %s %s: %d cases\n", tesseraGetArchString(arch),
                tt::type_name<T>(), cases);
  }
}
TEST(Gemm, TinyInOrderFloat) { tiny_in_order<float>(97); }
TEST(Gemm, TinyInOrderDouble) { tiny_in_order<double>(98); }

TEST(Gemm, TailRowsFloat) { tail_rows_sweep<float>(91); }
TEST(Gemm, TailRowsDouble) { tail_rows_sweep<double>(92); }

TEST(Gemm, KGroupSweepFloat) { kgroup_sweep<float>(71); }
TEST(Gemm, KGroupSweepDouble) { kgroup_sweep<double>(72); }

// The transpose (cols × rows, leading dimension ldt) of the rows × cols
// matrix X (leading dimension ldx).
template <typename T>
V<T> transposed(const V<T> &X, int64_t rows, int64_t cols, int64_t ldx, int64_t ldt) {
  V<T> out(size_t(ldt * rows));
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) out[size_t(j + i * ldt)] = X[size_t(i + j * ldx)];
  return out;
}

// One GEMM's operands as the API takes them.
template <typename T>
struct GemmArgs {
  tblasOperation_t ta, tb;
  const T *A;
  int64_t lda;
  const T *B;
  int64_t ldb;
};

// C = alpha·op(A)·op(B) + beta·C (m × n, random C, alpha, beta) from two
// stored forms of the same operands: the same bits.
template <typename T>
void expect_same_bits(tblasHandle_t h, int64_t m, int64_t n, int64_t k, std::mt19937_64 &rng, const GemmArgs<T> &x,
                      const GemmArgs<T> &y, const std::string &what) {
  V<T> C1 = tt::random_vector<T>(size_t(m * n), rng), C2 = C1;
  const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
  ASSERT_EQ(gemm(h, x.ta, x.tb, m, n, k, &alpha, x.A, x.lda, x.B, x.ldb, &beta, C1.data(), m), TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(gemm(h, y.ta, y.tb, m, n, k, &alpha, y.A, y.lda, y.B, y.ldb, &beta, C2.data(), m), TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(std::memcmp(C1.data(), C2.data(), C1.size() * sizeof(T)), 0) << what;
}

// op(A) = T is packed by a W × W in-register transpose (real types): a copy,
// so the result must be bit for bit that of op(A) = N on an explicitly
// transposed copy of A — for every row count around the panels (padding
// rows), every k around the transpose width (masked last steps), the tiny
// path and the planned one, every ISA path.
template <typename T>
void transposed_a_bitwise(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> ms, ks = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100, 300};
  for (int64_t m = 1; m <= 40; ++m) ms.push_back(m);
  for (int64_t m : {63, 64, 65, 97, 129}) ms.push_back(m);
  for (tesseraArch_t arch : supported_paths()) {
    Handle H;
    ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
    for (int64_t m : ms)
      for (int64_t k : ks)
        // (n >= 13: TN with at most 12 columns runs the row-stacked tiles on
        // op(A) in place, lane sums that differ from the main tiles' bits by
        // the shape's rule.)
        for (int64_t n : {int64_t(13), int64_t(17), int64_t(70)}) {
          if (m * n * k > 2000000) continue;
          const int64_t lda = k + 2, ldt = m + 1;
          V<T> A = tt::random_vector<T>(size_t(lda * m), rng), B = tt::random_vector<T>(size_t(k * n), rng);
          const V<T> At = transposed(A, k, m, lda, ldt);
          expect_same_bits<T>(H.h, m, n, k, rng, {TBLAS_OP_T, TBLAS_OP_N, A.data(), lda, B.data(), k},
                              {TBLAS_OP_N, TBLAS_OP_N, At.data(), ldt, B.data(), k},
                              std::string(tesseraGetArchString(arch)) + " m=" + std::to_string(m) +
                                  " n=" + std::to_string(n) + " k=" + std::to_string(k));
        }
  }
}
// Likewise op(B) = N packed by transposing W × W blocks into rows of NR
// (where B is not read in place: k < 64, or m above one MC block): the bits of op(B) =
// T on a transposed copy, whose rows the packer copies straight.
template <typename T>
void packed_b_bitwise(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (tesseraArch_t arch : supported_paths()) {
    Handle H;
    ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
    for (int64_t n : {1, 5, 12, 13, 25, 70})
      for (int64_t k : {1, 3, 7, 8, 9, 16, 17, 33, 65, 130}) {
        // m above one MC block; its last row vector more than half full (f32
        // 13 of 16 rows, f64 5 of 8), as a shorter tail runs on the k- or
        // column-grouped tiles, whose sums differ between op(B) = N and T.
        const int64_t m = 3005, ldb = k + 3, ldt = n + 1;
        V<T> A = tt::random_vector<T>(size_t(m * k), rng), B = tt::random_vector<T>(size_t(ldb * n), rng);
        const V<T> Bt = transposed(B, k, n, ldb, ldt);
        expect_same_bits<T>(H.h, m, n, k, rng, {TBLAS_OP_N, TBLAS_OP_N, A.data(), m, B.data(), ldb},
                            {TBLAS_OP_N, TBLAS_OP_T, A.data(), m, Bt.data(), ldt},
                            std::string(tesseraGetArchString(arch)) + " n=" + std::to_string(n) +
                                " k=" + std::to_string(k));
      }
  }
}
// A product with k inside one KC block goes direct or blocked by the row
// count (macro_kernel.h, direct_one_kc: op(A)'s columns up to 2 KiB on
// AVX-512). Both sum each element's k products in one block, so the rows a
// direct call computes must come out bit for bit as the same rows of a
// taller, blocked call — on every path, op(A) N and T, 1 and 2 threads.
template <typename T>
void direct_blocked_bitwise(uint64_t seed) {
  std::mt19937_64 rng(seed);
  // tall: whole row vectors, no tail; n: m·n·k past the size limit.
  const int64_t m = 2048 / int64_t(sizeof(T)), tall = m + 64, n = 130;
  for (tesseraArch_t arch : supported_paths())
    for (int threads : {1, 2})
      for (tblasOperation_t ta : {TBLAS_OP_N, TBLAS_OP_T})
        for (int64_t k : {int64_t(3), int64_t(150), int64_t(256), int64_t(400)}) {
          Handle H;
          ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
          ASSERT_EQ(tblasSetNumThreads(H.h, threads), TESSERA_STATUS_SUCCESS);
          const int64_t lda = ta == TBLAS_OP_N ? tall : k;
          const V<T> A = tt::random_vector<T>(size_t(lda * (ta == TBLAS_OP_N ? k : tall)), rng);
          const V<T> B = tt::random_vector<T>(size_t(k * n), rng);
          V<T> Ct = tt::random_vector<T>(size_t(tall * n), rng), Cs(size_t(m * n));
          for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) Cs[size_t(i + j * m)] = Ct[size_t(i + j * tall)];
          const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
          ASSERT_EQ(gemm(H.h, ta, TBLAS_OP_N, tall, n, k, &alpha, A.data(), lda, B.data(), k, &beta, Ct.data(), tall),
                    TESSERA_STATUS_SUCCESS);
          ASSERT_EQ(gemm(H.h, ta, TBLAS_OP_N, m, n, k, &alpha, A.data(), lda, B.data(), k, &beta, Cs.data(), m),
                    TESSERA_STATUS_SUCCESS);
          for (int64_t j = 0; j < n; ++j)
            ASSERT_EQ(std::memcmp(&Cs[size_t(j * m)], &Ct[size_t(j * tall)], size_t(m) * sizeof(T)), 0)
                << tesseraGetArchString(arch) << " threads=" << threads << " op(A)=" << int(ta) << " k=" << k
                << " column " << j;
        }
}
// Products with n columns (each of `ns`) of op(A) = A (m × k, random) and
// op(B) N (k × wide) or T (wide × k): their columns must equal the same
// columns of the wide product bit for bit, on every path and thread count
// (the narrow products' paths differ from the wide one's, the sums must not).
template <typename T>
void narrow_equals_wide(std::mt19937_64 &rng, int64_t m, int64_t k, int64_t wide, std::initializer_list<int64_t> ns,
                        std::initializer_list<int> thread_counts, tblasOperation_t ta = TBLAS_OP_N,
                        std::initializer_list<tblasOperation_t> op_b = {TBLAS_OP_N, TBLAS_OP_T}) {
  const V<T> A = tt::random_vector<T>(size_t(m * k), rng), B = tt::random_vector<T>(size_t(k * wide), rng);
  const int64_t lda = ta == TBLAS_OP_N ? m : k;  // op(A) T: A is k × m
  for (tblasOperation_t tb : op_b) {
    const int64_t ldb = tb == TBLAS_OP_N ? k : wide;  // op(B) T: B is wide × k, the narrow call its first n rows
    const V<T> C0 = tt::random_vector<T>(size_t(m * wide), rng);
    const T alpha = tt::random_value<T>(rng), beta = tt::random_value<T>(rng);
    for (tesseraArch_t arch : supported_paths()) {
      Handle H;
      ASSERT_EQ(tblasSetArch(H.h, arch), TESSERA_STATUS_SUCCESS);
      ASSERT_EQ(tblasSetNumThreads(H.h, 1), TESSERA_STATUS_SUCCESS);
      V<T> Cw = C0;
      ASSERT_EQ(gemm(H.h, ta, tb, m, wide, k, &alpha, A.data(), lda, B.data(), ldb, &beta, Cw.data(), m),
                TESSERA_STATUS_SUCCESS);
      for (int64_t n : ns)
        for (int threads : thread_counts) {
          ASSERT_EQ(tblasSetNumThreads(H.h, threads), TESSERA_STATUS_SUCCESS);
          V<T> Cn(C0.begin(), C0.begin() + m * n);
          ASSERT_EQ(gemm(H.h, ta, tb, m, n, k, &alpha, A.data(), lda, B.data(), ldb, &beta, Cn.data(), m),
                    TESSERA_STATUS_SUCCESS);
          ASSERT_EQ(std::memcmp(Cn.data(), Cw.data(), size_t(m * n) * sizeof(T)), 0)
              << tesseraGetArchString(arch) << " threads=" << threads << " op(A)=" << op_name(ta)
              << " op(B)=" << op_name(tb) << " m=" << m
              << " n=" << n << " k=" << k;
        }
    }
  }
}
// A GEMM reading op(A) in place from beyond the caches (macro_kernel.h,
// choose_in_place: real op(A) with contiguous columns, at most 4·NR columns,
// op(A) past kAStreamBytes) runs on the streaming tiles (ukr_direct_stream:
// row tile by row tile across all column panels, each prefetching the next
// one's lines); a wider product packs op(A). Both sum each element's products in the same
// order, so a narrow product's columns must come out bit for bit as the same
// columns of a wide one — on every path, op(B) N and T (packed; read in place
// where all rows fit one MC block: m = 237), 1, 2 and 3 threads. Row counts
// with a last vector more than half full (no k-grouped tail).
template <typename T>
void streamed_a_bitwise(uint64_t seed) {
  std::mt19937_64 rng(seed);
  constexpr int64_t kWide = 60;  // past 4·NR on every path: op(A) packed
  for (const auto &[m, n] : {std::pair<int64_t, int64_t>{1709, 13}, {1709, 48}, {1709, 3}, {237, 8}}) {
    const int64_t k = int64_t(14e6 / (double(m) * sizeof(T))) + 3;  // op(A) ~14 MB, a last partial KC block
    narrow_equals_wide<T>(rng, m, k, kWide, {n}, {1, 2, 3});
  }
}
// A GEMM packing op(A) from beyond the caches with few column panels
// (macro_kernel.h, choose_pack_ahead: op(A) N past kAStreamBytes, 3 to 12
// column panels) has its tiles prefetch the next A block while they compute
// (ukr_packed_ahead, MC halved); a product past 12 panels packs each block
// as it comes. The same panels and tiles, so a narrow product's columns
// must equal the same columns of a wide one bit for bit — on every path
// (n = 64: pack-ahead on the AVX-512 and AVX2 tiles; 30: on AVX2's and the
// generic ones; 130: on AVX-512's; partial last panels and tiles, a last k
// block of 3 steps), op(B) N and T, 1 and 2 threads (2: units of whole
// panels or, split by columns, too few for pack-ahead).
// op(A) = T (its rows contiguous, packed through the transposing packer)
// takes pack-ahead from one whole panel, the tiles fetching the next
// block's rows: n = 16 (one AVX-512 panel and 4 columns, AVX2's 2 panels
// and 4, the generic tiles' 4 panels) and 48 (4 / 8 / 12 panels); op(B) N only
// (with both T, few columns run the k-grouped row-vector tiles, whose lane
// sums differ from the wide product's by design).
template <typename T>
void pack_ahead_bitwise(uint64_t seed) {
  std::mt19937_64 rng(seed);
  constexpr int64_t kWide = 150, m = 1709;  // past 12 panels on every path (NR <= 12)
  const int64_t k = int64_t(14.5e6 / (double(m) * sizeof(T))) / 128 * 128 + 3;  // op(A) ~14.0 MB
  narrow_equals_wide<T>(rng, m, k, kWide, {64, 30, 130}, {1, 2});
  narrow_equals_wide<T>(rng, m, k, kWide, {16, 48}, {1, 2}, TBLAS_OP_T, {TBLAS_OP_N});
}
// A complex GEMM reads op(A) in place where its columns are contiguous and
// unconjugated and C has at most 8 column panels (macro_kernel.h,
// choose_in_place), past 1 MiB of op(A) and from 16 k-steps on the
// streaming tiles (ukr_complex_stream: row tile by row tile across all
// panels; C of the tile below prefetched past 2 panels); a wider product
// packs op(A). The same tiles and sums, so a narrow product's columns must
// equal the same columns of a wide one bit for bit — on every path, op(B)
// N and T, 1, 2 and 3 threads: streamed (op(A) ~1.8 MB; on AVX-512 a
// last KC block of 3 steps; last row tiles of one vector or a part of
// two, m = 300 / 293), in place within the L2 (k = 200) and with
// k = 3 (the small-k loop; past the direct path's size).
template <typename T>
void complex_in_place_bitwise(uint64_t seed) {
  std::mt19937_64 rng(seed);
  constexpr int64_t kWide = 60;  // past 8 panels on every path (NRC <= 6): op(A) packed
  const int64_t ks = sizeof(T) == 8 ? 771 : 387;  // two AVX-512 KC blocks (complex f32 384, f64 192) and 3 steps
  for (const auto &[m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{300, 13, ks}, {293, 48, ks}, {300, 3, ks},
                                {300, 8, 200}, {6000, 16, 3}})
    narrow_equals_wide<T>(rng, m, k, kWide, {n}, {1, 2, 3});
}
TEST(Gemm, ComplexInPlaceBitwiseFloat) { complex_in_place_bitwise<std::complex<float>>(43); }
TEST(Gemm, ComplexInPlaceBitwiseDouble) { complex_in_place_bitwise<std::complex<double>>(44); }
TEST(Gemm, PackAheadBitwiseFloat) { pack_ahead_bitwise<float>(41); }
TEST(Gemm, PackAheadBitwiseDouble) { pack_ahead_bitwise<double>(42); }
TEST(Gemm, StreamedABitwiseFloat) { streamed_a_bitwise<float>(39); }
TEST(Gemm, StreamedABitwiseDouble) { streamed_a_bitwise<double>(40); }
TEST(Gemm, DirectBlockedBitwiseFloat) { direct_blocked_bitwise<float>(35); }
TEST(Gemm, DirectBlockedBitwiseDouble) { direct_blocked_bitwise<double>(36); }
TEST(Gemm, DirectBlockedBitwiseComplexFloat) { direct_blocked_bitwise<std::complex<float>>(37); }
TEST(Gemm, DirectBlockedBitwiseComplexDouble) { direct_blocked_bitwise<std::complex<double>>(38); }
TEST(Gemm, PackedBBitwiseFloat) { packed_b_bitwise<float>(33); }
TEST(Gemm, PackedBBitwiseDouble) { packed_b_bitwise<double>(34); }
TEST(Gemm, TransposedABitwiseFloat) { transposed_a_bitwise<float>(31); }
TEST(Gemm, TransposedABitwiseDouble) { transposed_a_bitwise<double>(32); }

TEST(Gemm, InvalidArgumentsFloat) { invalid_arguments<float>(); }
TEST(Gemm, InvalidArgumentsDouble) { invalid_arguments<double>(); }
TEST(Gemm, InvalidArgumentsComplexFloat) { invalid_arguments<std::complex<float>>(); }
TEST(Gemm, InvalidArgumentsComplexDouble) { invalid_arguments<std::complex<double>>(); }

}  // namespace
