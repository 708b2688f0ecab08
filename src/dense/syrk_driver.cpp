// SYRK/HERK on the GEMM engine: C's triangle = alpha·op(A)·op(A)^T (^H) + beta·C.
//
// The GEMM operands are op(A) and op(A)^T — the same array with rows and
// columns swapped (HERK conjugates one side). The shared macro-kernel runs
// triangle-aware (macro_kernel.h): only tiles meeting the triangle are
// computed, n(n+1)/2·k multiply-adds instead of n²k. Threads claim column
// strips of equal triangle *area* (not equal width), so the strips holding
// long columns are narrow and no thread is left with the bulk of the work —
// the seed's load-balancing lesson (its diagonal tiles piled on one core).
// Results are bitwise identical for any thread count: tiles sit on one global
// grid, so whether an element is in an interior or a diagonal tile — and so
// its arithmetic — depends on its position alone.
#include "dense/syrk_driver.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include "dense/gemm_driver.h"
#include "dense/kernels/gemm_kernels.h"
#include "dense/macro_kernel.h"

namespace tessera::dense {

namespace {

// The triangle (and, for HERK, the real diagonal) scaled by beta; beta == 0
// writes zeros without reading. HERK's beta is real and scales each part
// (Netlib's REAL*COMPLEX); SYRK's complex beta uses the complex product.
template <typename T>
void scale_triangle(int s, bool lower, bool herk, int64_t n, const T *beta, T *C, int64_t ldc) {
  const T real_beta[2] = {beta[0], T(0)};
  for (int64_t j = 0; j < n; ++j) {
    const int64_t i0 = lower ? j : 0, i1 = lower ? n : j + 1;
    T *c = C + (i0 + j * ldc) * s;
    if (herk) {
      scale_block(1, (i1 - i0) * 2, 1, real_beta, c, 0);
      C[(j + j * ldc) * 2 + 1] = T(0);
    } else {
      scale_block(s, i1 - i0, 1, beta, c, 0);
    }
  }
}

// Elements of the stored triangle of an n×n C in columns [j0, j1) (exact:
// integers below 2^53).
double triangle_area(bool lower, int64_t n, int64_t j0, int64_t j1) {
  const double w = double(j1 - j0), half_sum = double(j0 + j1 - 1) * w / 2;  // Σ j over the columns
  return lower ? w * double(n) - half_sum : half_sum + w;
}

// Small complex SYRKs take the narrow table's tile (4×4 complex f32 instead
// of 8×3 on AVX2; 8×4 instead of 16×6 on AVX-512): less of each diagonal tile
// lies outside the triangle. With op(A) packed (trans T, or A's columns far
// apart), for 4 <= n <= 28. Measured (csyrk, 1 thread, AVX2, µs, main →
// narrow): n=4 k=2048 9.1 → 4.9, n=8 k=1000 9.7 → 7.2, n=16 k=2048 62 → 52,
// n=28 k=1000 71 → 62, n=13 k=5 0.55 → 0.48, n=20 within noise; n ≤ 3 is
// better on the main tile (its single row tile uses one vector, see ctile's
// MA) and n = 32 too (12 FMA chains against the narrow tile's 8); on
// AVX-512 (Zen 5, GF/s) T n=16 k=1000 66 → 80, n=24 87 → 97. With op(A)
// read in place (trans N, columns <= 512 bytes apart: see choose_in_place)
// the main tile's taller row tile reads each A line once per k-step and wins
// from n = 12 (GF/s, main vs narrow; AVX-512: csyrk 12×1000 78 vs 66, 16×1000
// 97 vs 87, 24×1000 111 vs 97, zsyrk 24×1000 65 vs 60, 12 even; AVX2: csyrk
// 24×1000 74 vs 66, zsyrk 12×1000 34 vs 30, csyrk 12 and 16 lose 20 % and
// 3 %), so there only n < 12 is narrow. Each element's arithmetic is the
// same in either tile, so the choice never changes a result.
template <typename T>
bool narrow_tiles_pay(int64_t n, const GemmOperand<T> &opA) {
  return n >= 4 && n <= (short_columns(opA, 2) ? 11 : 28);
}

// Complex f32 on AVX-512 also has the narrow tile's row vector × 8 complex
// columns (16 FMA chains; the 8×4 tile's 8 leave the two FMA pipes waiting
// on the 4-cycle latency). Zen 5, csyrk 1 thread, k = 1000 and 2048, the
// tables switchable at run time and alternated in one process (median of
// 31 paired rounds, time ÷ the rule above; bitwise the same results):
//   8×8 tile:  n = 5..8, 13..16, 21..24 (a last column panel of 5–8):
//              0.77–0.92 with op(A) packed (T) and, for n = 7, 8, 13..24,
//              read in place (N); 16 UT 2T 1.09;
//              n = 4, 9..12, 17, 20, 28 (a last panel of at most 4, padded
//              to 8 in TEMP): 1.02–1.21;
//   main tile: read in place, n = 5, 6, 9, 10, 11 0.72–0.78 (the 8×8 tile
//              0.78–0.94); packed, n = 11, 12, 17, 21, 28 0.90–0.94,
//              n = 9, 10, 20 0.98–1.03;
//   8×4 tile:  best at n = 4 only (8×8 1.05–1.21, main 1.23–1.52).
// Beyond 24, against the main tile (k = 16..1000, UT and LN): n = 32 and 40
// (whole 8-column panels) 0.83–0.94 at every k; 48 and 64 0.91–0.97 at
// k = 32, 1.00 from k = 256; 30, 36, 44 up to 1.09 at k >= 256.
// So where the 8×8 tile exists: it for those n and for n = 32, 40, the 8×4
// tile for n = 4, the main tile otherwise.
template <typename T>
const GemmKernels<T> &complex_syrk_kernels(Arch arch, int64_t n, const GemmOperand<T> &opA) {
  const GemmKernels<T> *c8 = gemm_kernels_narrow_c8<T>(arch);
  if (c8 == nullptr) return narrow_tiles_pay(n, opA) ? gemm_kernels_narrow<T>(arch) : gemm_kernels<T>(arch);
  const int64_t last = n % 8 == 0 ? 8 : n % 8;  // columns in the last 8-wide panel
  if (n >= 5 && last >= (short_columns(opA, 2) ? 7 : 5) && (n <= 24 || (n % 8 == 0 && n <= 40))) return *c8;
  return n == 4 ? gemm_kernels_narrow<T>(arch) : gemm_kernels<T>(arch);
}

// On a core that runs 512-bit operations at half rate (Zen 4), csyrk (and
// cherk) up to n = 80 takes the AVX2 tables' 256-bit tiles (8×3 and 4×4
// complex, twice the FMAs per cycle of a 512-bit one) wherever a 512-bit
// tile would be partly empty. Same KC (384) and FMA order, so the same bits (every table
// against every other, n = 2..90, k up to 485; the test suite checks this
// rule against the one below). Zen 4, 1 thread, the five tables switchable
// at run time and alternated in one process with OpenBLAS (ZEN kernels),
// medians of 11 rounds, n = 2..24, 28, 32, 40 × k = 33, 257, 2048 × L/U ×
// N/T (276 cases): this rule against the best table per case 1.00–1.15
// (geomean 1.01), against the rule below 0.94–2.7 (geomean 1.25; n = 2 and
// 4 1.7–2.7, 9–11 and 17–21 1.2–1.5); Tessera ÷ OpenBLAS from 1.01
// (0.36–1.82) to 1.26 (0.74–3.3; below 0.95 only n = 2 at k = 33, 4 cases).
// By n: the 4×4 tile where the last column panel of 4 is 3–4 wide, the 8×3
// otherwise; n ≤ 4 on one panel (n = 3: the 8×3); 16×16 real (8×8 complex,
// 512-bit) for n a multiple of 8 from 24 and for in-place op(A) (trans N,
// short columns) at 13–16; the 16×6 tile for in-place lower n = 5–6 (the
// 8×3 read 0.87 of it there at k = 2048; upper gains 1.05). n =
// 41–80 (LN and UT, k = 33–1000): 8×3 or 8×8 1.05–1.23 against OpenBLAS,
// the 16×6 tile 0.99–1.15. Past 8 columns with k < 12, where each tile's C
// update outweighs its few FMAs and the 512-bit tiles, fewer of them, win
// (n = 10–28, k = 5 / 8: the 256-bit rule 0.84–1.18 / 0.89–1.22 of the one
// below, geomean 0.96 / 1.01; k = 12 / 16 / 24: 1.09 / 1.09 / 1.13, min
// 0.96–0.98): with op(A) in place the 8×4 tile (against the rule below,
// LN k = 5 / 8 geomean 1.16 / 1.16, 1.00–1.32; UN 1.03 / 1.04, 0.96–1.13),
// or the 8×8 where its last 8-column panel is 5–8 wide (against the 8×4,
// LT — copied to in place, below — LN and UN, n 9–80 × k 5 / 8 / 11, 11–15
// rounds: last panel 5–8 wide 1.02–1.15, 1–4 wide 0.87–1.02, so those keep
// the 8×4), packed and beyond 80 the rule below — except k ≤ 4 with op(A)
// packed past 8 columns: the 8×8 (session 37; tables switched in one
// process, 11 alternating rounds, csyrk / cherk L / U × N / T: against the
// rule, n = 80–1000 k = 1 / 2 / 4 1.01–1.26 / 0.98–1.18 / 0.99–1.14, cherk
// op C k = 1 at n = 20–56 1.15–1.40; csyrk n = 1500–4096, k = 3 / 4
// 1.05–1.16 / 1.00–1.25, k = 2 0.99–1.12, k = 1 0.93–1.12 (so k = 1 to
// 1024 columns); k = 8 0.85–1.06, so to 4).
//   zsyrk / zherk (complex f64; the AVX2 tables run the AVX-512 ones' KC
// of 192 complex k-steps for this): the AVX2 4×3 tile, the 2×4 one at
// n = 2, the 512-bit 4×4 at n = 4 and for in-place op(A) at n ≤ 28 a
// multiple of 4 or 7; past 8 columns the 512-bit 4×4 for k ≤ 4 from 13
// columns (k = 1: to 500; past 80 too) and in place for k < 8 to 24
// columns, and otherwise with k < 8 and op(A) in place the rule below.
// Zen 4, as above, n = 2..24, 28, 32, 40 × k = 33, 257, 1000 × L/U × N/T
// (276 cases): against the best table 1.00–1.12 (geomean 1.003), against
// the rule below 0.89–2.5 (geomean 1.18); Tessera ÷ OpenBLAS 0.91
// (0.35–1.29) → 1.08 (0.74–1.76). k = 5–12 at n = 3–28 and n = 48–80 at
// k = 33 / 257 (120 cases): against the rule below 0.86–1.51 (geomean
// 1.09), ÷ OpenBLAS 0.97 → 1.06. Past 8
// columns with few k-steps (session 37; tables switched in one process, 11
// alternating rounds, zsyrk / zherk L / U × N / T, n = 9–80): the 512-bit
// 4×4 against the rule before, k = 1–4 at n ≥ 13 1.05–1.48 (a few
// 0.95–0.98 at 13); in place, k = 5–7, n = 13–24 0.98–1.19, n ≥ 28
// 0.77–1.08 (so to 24); the AVX2 4×3 lost at k ≤ 4 (0.81–1.02). Past 80
// columns, against the 512-bit main tile: k = 2 / 4 at n = 100–2048
// 0.95–1.12 / 0.96–1.11 (most 1.01–1.07); k = 1 to 500 0.96–1.27, at
// 1000–2048 0.94–1.03 (so k = 1 to 500).
//   csyrk / cherk past 80 columns with 5 ≤ k < 12 (session 38, after the
// complex tiles' broadcasts were folded into the FMAs, gemm_template.inc):
// the 8×8 where C's columns are not a multiple of 4 KiB apart (its 16
// columns of C then share two L1 sets, as real GEMM's narrow tile; ldc 2
// KiB multiples are fine). Tables switched in one process, 11 rounds,
// speed ÷ the main 16×6 tile's, L / U × N / T: n = 81–500 and 3000 at
// k = 5 / 6 / 8 / 10 / 11 1.00–1.30 (n = 81 at k = 10–11 0.98–1.01), 768 /
// 1152 / 1280 / 1792 0.99–1.05; n = 1024, 1536, 2048, 2560 0.83–0.99; k =
// 12 1.00–1.11 against the main tile but even with the AVX2 one (and k =
// 12–15 there had lost in builds side by side, session 37), k ≥ 16 the AVX2
// tile's window. Builds side by side, 1 thread, csyrk / cherk L / U × N / T,
// n = 127–1500 × k = 5–9: 0.99–1.20 (most 1.01–1.10). 2 threads: 1.02–1.31
// from 300 columns (lower) or 200 (upper), below that 0.78–0.94 in places
// (LT 128–200 in one process; UN / UT 127×9 0.83–0.94, cherk UT 150×8 0.87
// as builds side by side), so there on one thread only.
//   zsyrk / zherk at 81–300 columns with 5 ≤ k ≤ 64 (session 38, same
// method): the 512-bit 4×4 against the main 8×6 tile (k < 16) 1.02–1.13,
// against the AVX2 4×3 (16–64, GEMM's window) 1.00–1.04 — except k = 96–512
// (0.96–1.05) and 500–700 columns (k = 5 0.95–1.06). Two threads, against the
// main tile: k = 8–64 0.96–1.19 (most 1.03–1.10), k = 5 0.90–1.03, so k < 8
// on one thread only.
template <typename T>
const GemmKernels<T> *half_rate_complex_syrk_kernels(int64_t n, int64_t k, bool lower, const GemmOperand<T> &opA,
                                                     int64_t ldc, int threads) {
  // The AVX2 tables' complex tiles: f32 8×3 (main) and 4×4 (narrow), f64
  // 4×3 and 2×4.
  const GemmKernels<T> &avx2_main = gemm_kernels<T>(Arch::avx2), &avx2_narrow = gemm_kernels_narrow<T>(Arch::avx2);
  const bool in_place = short_columns(opA, 2);
  if constexpr (std::is_same_v<T, float>) {
    // k ≤ 4 with op(A) packed (see above): the 512-bit 8×8 (k = 1: to 1024
    // columns).
    if (k <= 4 && n > 8 && (k >= 2 || n <= 1024) && !in_place) return gemm_kernels_narrow_c8<T>(Arch::avx512);
    // 5 ≤ k < 12 past 80 columns (see above): the 8×8, unless C's columns
    // are a multiple of 4 KiB apart.
    if (n > 80 && k >= 5 && k < 12 && !columns_4k_apart(ldc, int64_t(2 * sizeof(T))) &&
        (threads == 1 || n >= (lower ? 300 : 200)))
      return gemm_kernels_narrow_c8<T>(Arch::avx512);
    if (n > 80) return nullptr;
    if (n > 8 && k < 12) {
      if (!in_place) return nullptr;
      const int64_t last = n % 8 == 0 ? 8 : n % 8;  // columns in the last 8-wide panel
      return last >= 5 ? gemm_kernels_narrow_c8<T>(Arch::avx512) : &gemm_kernels_narrow<T>(Arch::avx512);
    }
    if (n <= 4) return n == 3 ? &avx2_main : &avx2_narrow;
    if (in_place && lower && n <= 6) return &gemm_kernels<T>(Arch::avx512);
    if ((n % 8 == 0 && n >= 24) || (in_place && n >= 13 && n <= 16)) return gemm_kernels_narrow_c8<T>(Arch::avx512);
    return n <= 40 && n % 4 != 1 && n % 4 != 2 ? &avx2_narrow : &avx2_main;
  } else {
    // Few k-steps past 8 columns (see above): the 512-bit 4×4 (k = 1: to
    // 500 columns).
    if (k <= 4 && n >= 13 && (k >= 2 || n <= 500)) return &gemm_kernels_narrow<T>(Arch::avx512);
    // 81–300 columns with 5 ≤ k ≤ 64 (see above): the 4×4 too.
    if (n > 80 && n <= 300 && k >= 5 && k <= 64 && (k >= 8 || threads == 1))
      return &gemm_kernels_narrow<T>(Arch::avx512);
    if (n > 80) return nullptr;
    if (in_place && n > 8 && k < 8) return n <= 24 ? &gemm_kernels_narrow<T>(Arch::avx512) : nullptr;
    if (n == 2) return &avx2_narrow;
    if (n == 4 || (in_place && n <= 28 && (n % 4 == 0 || n == 7))) return &gemm_kernels_narrow<T>(Arch::avx512);
    return &avx2_main;
  }
}

// Real SYRK on a half-rate core (op(A) = T with fewer columns goes
// through GEMM, syrk_via_gemm): the main 32×12 / 16×12 tile puts up to a
// 12-column diagonal block and two row vectors on a triangle a few tiles
// wide. From 32 columns the 1-vector × 8-column table (same KC, same bits)
// is 1.07–1.20× faster (geomean over k = 33 / 257 / 1000, L/U, N/T; past
// 96 see below); below 32, the AVX2 tables' 256-bit tiles where a
// 512-bit one would be partly empty — 8×8 (f32) where the last panel of 8
// is full or 6–7 wide (past 8), 8×6 / 16×6 otherwise, 4×8 / 8×8 at n ≤ 4;
// f64 the 512-bit 8×8 for n ≥ 8 with n % 8 in {0, 6, 7}; f32 lower with
// op(A) in place and n = 9–12 the main tile (its one 12-column panel:
// 1.16–1.39× the 16×6 there, upper 0.85–0.89×). Zen 4, 1 thread, the tables
// switchable at run time and alternated with OpenBLAS-ZEN (7 rounds), 384
// cases (s / d × LN / UN / LT / UT × k = 33 / 257 / 1000 × n = 4–96):
// against the best table per case 1.00–1.25 (geomean 1.004), against the
// main tile 0.94–1.97 (geomean 1.19); Tessera ÷ OpenBLAS 1.24 (min 0.73) →
// 1.48 (min 1.04).
//   Past 96 the same table, as GEMM's blocked path takes it there
// (gemm_driver.cpp, narrow_tile): n = k = 2048, 1 / 2 threads, 1.015–1.035
// (ssyrk / dsyrk LN / UT), n = 100–384 at k = 257 / 1000 1.03–1.10 — except
// on the direct path with op(A) read in place (k within one KC block, op N),
// where the main tile's 12-column panels read 1.04–1.16× the narrow one's
// speed (ssyrk LN 384–512 × 257, dsyrk LN 256 × 257).
template <typename T>
const GemmKernels<T> *half_rate_real_syrk_kernels(int64_t n, bool lower, const GemmOperand<T> &opA, bool direct) {
  const bool in_place = a_columns_in_place(opA);  // op N (real: never conjugated)
  if (n > 96 && direct && in_place) return nullptr;
  if (n >= 32) return &gemm_kernels_narrow<T>(Arch::avx512);
  if (n <= 4) return &gemm_kernels_narrow<T>(Arch::avx2);
  const int64_t last = n % 8;
  if constexpr (sizeof(T) == 8) {
    if (n >= 8 && (last == 0 || last >= 6)) return &gemm_kernels_narrow<T>(Arch::avx512);
  } else {
    if (lower && in_place && n >= 9 && n <= 12) return &gemm_kernels<T>(Arch::avx512);
    if (last == 0 || (last >= 6 && n > 8)) return &gemm_kernels_narrow<T>(Arch::avx2);
  }
  return &gemm_kernels<T>(Arch::avx2);
}

// The tile table of a SYRK: the half-rate rules above where they decide,
// otherwise the small-n complex rule or the main table.
template <typename T, bool Complex>
const GemmKernels<T> &syrk_kernels(const tblasContext *h, int64_t n, int64_t k, bool lower, const GemmOperand<T> &opA,
                                   bool direct, int64_t ldc) {
  if (h->arch == Arch::avx512 && h->zmm_half_rate) {
    const GemmKernels<T> *t = Complex ? half_rate_complex_syrk_kernels(n, k, lower, opA, ldc, h->num_threads)
                                      : half_rate_real_syrk_kernels(n, lower, opA, direct);
    // As real GEMM's narrow tile (gemm_driver.cpp): 6 columns of C where
    // they are a multiple of 4 KiB apart, on one thread and to k = 64
    // (macro_kernel.h).
    if (!Complex && t == &gemm_kernels_narrow<T>(Arch::avx512) && h->num_threads == 1 && k <= 64 &&
        narrow_columns_alias<T>(h, ldc, k, direct))
      return gemm_kernels<T>(Arch::avx2);
    if (t) return *t;
    // Complex: in GEMM's window of k, f32 the AVX2 8×3 and f64 the 512-bit
    // 4×4, as GEMM there (macro_kernel.h, half_rate_mid_k_complex; zsyrk /
    // zherk LT and UN, n = 500–2048 × k = 16–96, builds side by side:
    // 0.98–1.07, k = 16 at 1000 columns 0.98). Not GEMM's 8×8 for f32 where
    // the 8×3 pads n: csyrk / cherk 88 × 96, 2 threads, 0.94–0.97 (the
    // 8×8's diagonal blocks leave more outside the triangle). Past it, the
    // AVX2 main tile up to 256 columns (op(A) = T) or 200 (op N) — its 8×3 /
    // 4×3 tiles leave less of the diagonal blocks outside the triangle. Zen
    // 4, the two tables alternated in one process (5 rounds), csyrk / zsyrk
    // LT and UT, n = 96–700 × k = 128 / 512 / 2048, speed ÷ the 512-bit
    // tile's: n ≤ 200 1.01–1.10, 300–400 0.99–1.05, 512–700 0.96–1.03; 2
    // threads, n = 128 / 300 / 512: csyrk 1.01–1.17, zsyrk 0.98–1.11.
    // Builds side by side, LT / UT 97–300 × 128–2048: 1T 1.01–1.06, 2T
    // 0.97–1.12 (300 × 128 0.97–1.00, 400 × 1000 0.98: hence 256). Op N
    // (A's columns read in place): LN / UN 96–300 0.89–1.05 — left out
    // then; session 37, blocked only (k > 96, not direct), csyrk / cherk /
    // zsyrk / zherk LN / UN, n = 81–300 × k = 512–2048: n ≤ 200 1.01–1.08,
    // 250–300 0.97–1.03, so op N to 200 columns (builds side by side: 1T
    // 0.99–1.09, 2T 1.01–1.10 where the rule applies but for one 0.92).
    // zsyrk / zherk upper on more than one thread keep the 512-bit main
    // tile in and past the window (0.97–0.99; the 4×4 at 500 × 32 0.96).
    const bool past_window = k > 96 && !direct && n <= (rows_contiguous(opA) ? 256 : 200);
    if (Complex && (sizeof(T) == 4 || lower || h->num_threads == 1)) {
      if (half_rate_mid_k<T>(h, k, direct)) return half_rate_mid_k_complex<T>(n, ldc, false);
      if (past_window) return gemm_kernels<T>(Arch::avx2);
    }
  }
  return Complex ? complex_syrk_kernels<T>(h->arch, n, opA) : gemm_kernels<T>(h->arch);
}

// Rows [m0, m1) meeting the triangle in columns [n0, n1), from a tile
// boundary: the rows a strip's unit computes and packs of op(A).
template <typename T>
std::pair<int64_t, int64_t> strip_rows(const Level3Plan<T> &p, int64_t n0, int64_t n1) {
  if (p.tri == Triangle::lower) return {tile_index(n0, p.mr_e) * p.mr_e, p.n};
  return {0, n1};
}

// Elements of C the tiles of column strip [n0, n1) compute: per column panel,
// the rows from its diagonal tile's first row vector (lower) or to its
// last one (upper) — the triangle plus what the diagonal tiles compute
// beyond it. A strip of short columns (lower: the last, upper: the first)
// is mostly diagonal tiles, so its elements cost more than its triangle area
// says.
template <typename T>
double computed_elements(const Level3Plan<T> &p, bool lower, int64_t n0, int64_t n1) {
  const int64_t g = std::max<int64_t>(1, p.mr_e / 2);  // a diagonal tile runs on one of two vectors (kernels)
  double e = 0;
  for (int64_t j0 = n0; j0 < n1; j0 += p.nr) {
    const int64_t w = std::min(p.nr, n1 - j0);
    e += double(w) * double(lower ? p.n - j0 / g * g : std::min(p.n, ceil_div(j0 + w, g) * g));
  }
  return e;
}

// Modelled cycles of the column strip [n0, n1), for choosing how many
// strips: its tiles' multiply-adds at about MR per cycle (two FMA pipes × a
// vector: the tile's two row vectors) plus the panels it packs (its rows of
// op(A), as syrk_task packs them, and its columns of op(A)^T, over all of
// k) at a cache line per cycle, op(A) coming from L2/L3 at the sizes that
// split (unit_cycles prices packing at its DRAM rate, 3 cycles per element
// against 4 multiply-adds per cycle: GEMM's large-k weights).
template <typename T>
double strip_cycles(const Level3Plan<T> &p, bool lower, int64_t n0, int64_t n1) {
  const double k = double(p.k), s = p.s;
  const auto [m0, m1] = strip_rows(p, n0, n1);
  const double packed = (p.a_in_place ? 0 : double(m1 - m0)) + (p.b_in_place ? 0 : double(n1 - n0));
  return computed_elements(p, lower, n0, n1) * k * s * s / double(p.K->mr) + packed * k * s * sizeof(T) / 64.0;
}

// `units` column strips of whole NR panels, each cut at the panel boundary
// where its computed elements come nearest an equal share of what is left.
// Packing is left out of the cuts: with it (at any rate from a cache line
// per cycle up) the first lower strip, which packs all rows, came out a
// panel narrower than the fastest cut measured (Zen 5, 2 threads, splits
// forced, µs: csyrk 128 L cut at 36 30.0–30.4, at 42 28.5–28.7; dsyrk 256
// L at 72 103–111, 84 98–102; with it left out they are cut at 42 and 72;
// dsyrk 512 L at 156 699–710 and 512 U at 360 710 either way).
template <typename T>
std::vector<int64_t> equal_work_strips(const Level3Plan<T> &p, bool lower, int units) {
  const int64_t n = p.n, nr = p.nr;
  std::vector<int64_t> strips{0};
  while (int(strips.size()) < units) {
    const int64_t n0 = strips.back();
    const auto work = [&](int64_t n1) { return computed_elements(p, lower, n0, n1); };
    const double share = work(n) / double(units - int(strips.size()) + 1);
    int64_t n1 = n0 + nr;
    while (n1 + nr < n && work(n1) < share) n1 += nr;
    if (n1 - nr > n0 && share - work(n1 - nr) < work(n1) - share) n1 -= nr;
    if (n1 >= n) break;
    strips.push_back(n1);
  }
  strips.push_back(n);
  return strips;
}

// Small k (below kFewStripsMinK): strips of about equal triangle area, each
// cut at the first panel boundary past its share, costed by GEMM's model
// (area_cycles) — the split before session 22, kept there (below).
std::vector<int64_t> equal_area_strips(bool lower, int64_t n, int64_t nr, int units) {
  if (units <= 1) return {0, n};
  const int64_t panels = ceil_div(n, nr);
  auto area = [&](int64_t q) { return triangle_area(lower, n, q * nr, std::min(n, (q + 1) * nr)); };
  const double total = triangle_area(lower, n, 0, n);
  std::vector<int64_t> strips{0};
  double acc = 0;
  for (int64_t q = 0; q < panels; ++q) {
    acc += area(q);
    const int64_t done = int64_t(strips.size());  // strips closed so far + 1
    if (acc >= total * double(done) / units && q + 1 < panels && done < units) strips.push_back((q + 1) * nr);
  }
  strips.push_back(n);
  return strips;
}

// A strip's cost by GEMM's model (unit_cycles): its triangle's multiply-adds
// plus the panels it packs.
template <typename T>
double area_cycles(const Level3Plan<T> &p, bool lower, int64_t n0, int64_t n1) {
  const auto [m0, m1] = strip_rows(p, n0, n1);
  return unit_cycles(p, triangle_area(lower, p.n, n0, n1), double(m1 - m0), double(n1 - n0));
}

// Estimated time of a split into column strips on `threads` threads, each
// strip costing cost(n0, n1): threads claim strips in order, so each goes to
// the thread that is free first.
template <typename Cost>
double strips_makespan(const std::vector<int64_t> &strips, int threads, Cost cost) {
  std::vector<double> load(size_t(threads), 0.0);
  for (size_t u = 0; u + 1 < strips.size(); ++u)
    *std::min_element(load.begin(), load.end()) += cost(strips[u], strips[u + 1]);
  return *std::max_element(load.begin(), load.end());
}

// Column strips for `threads` threads: 1, 2 or 4 per thread, whichever the
// model says finishes first. More strips balance better when a thread starts
// late; every strip repacks its rows of op(A) over all of k and runs its own
// diagonal tiles.
//   k >= kFewStripsMinK: equal_work_strips costed by strip_cycles, more must
//   win by 10 %. Zen 5, dsyrk 2 threads, splits forced, µs: 256 L (21
//   panels) two strips cut at 84 98–102, at 72 103–111, the four of the
//   area rule 112–116; 512 L two cut at 156 699–710, at 144 735–755, four
//   760; 512 U two cut at 360 710, four 745–765. The old build alternating
//   in one process, 2 threads: dsyrk 256 L/U 1.08–1.13×, 512 1.04–1.06×,
//   ssyrk 512 1.04–1.12×, zsyrk 128–512 1.03–1.09×.
//   Below it: the area rule, fewer strips must win by 10 %. With the rule
//   above, the csyrk suite's small-k 2-thread cases lost (n × k, ratio to
//   the best peer before → after: 1500×1 UT 1.28 → 0.82, 1000×2 UT 1.37 →
//   0.73, 2048×4 LT 1.10 → 0.88, 2048×16 LT 1.29 → 1.04, 2048×64 UT 1.17 →
//   1.09); from k = 127 on most cases held or gained (127×383 LT 1.17 →
//   1.68, 257×509 UT 1.19 → 1.34, 512² UT 1.10 → 1.19; the largest drops,
//   192² LT 1.64 → 1.43 and 320² UN 1.41 → 1.18, had duplicate cases in the
//   suite reading 1.47 → 1.39 and 1.16 → 1.18).
constexpr int64_t kFewStripsMinK = 128;

template <typename T>
std::vector<int64_t> choose_strips(const Level3Plan<T> &p, bool lower, int threads, double flops) {
  std::vector<int64_t> best_strips;
  double best = -1;
  const bool few = p.k >= kFewStripsMinK;
  std::vector<int> order;  // strips per thread, the preferred count first
  for (int per = 1; per <= units_per_thread(flops); per *= 2) order.push_back(per);
  if (!few) std::reverse(order.begin(), order.end());
  const auto cost = [&](int64_t n0, int64_t n1) {
    return few ? strip_cycles(p, lower, n0, n1) : area_cycles(p, lower, n0, n1);
  };
  for (const int per : order) {
    const int units = int(std::min<int64_t>(threads * per, p.n_tiles));
    std::vector<int64_t> s = few ? equal_work_strips(p, lower, units) : equal_area_strips(lower, p.n, p.nr, units);
    const double t = strips_makespan(s, threads, cost);
    if (best < 0 || t < best * 0.9) {
      best = t;
      best_strips = std::move(s);
    }
  }
  return best_strips;
}

// Real SYRK with op(A) = T (its rows contiguous) and few columns: GEMM's
// tiles for few rows (k-grouped, row-stacked; AVX-512) sum along k in
// vectors, where SYRK's tiles broadcast op(A)^T's elements to mostly empty
// row vectors. Computing the whole square there and keeping the triangle
// does up to twice the multiply-adds and still wins: Zen 4, 1 thread, the
// two ways alternated in one process (medians of 9 rounds, time ÷ via
// GEMM's), ssyrk UT n = 4 / 8 at k = 16 1.70 / 1.28, k = 128 3.63 / 2.00,
// k = 1000 8.3 / 3.2; n = 10–12 at k = 128–1000 1.26–1.99, 14–16 0.77–1.15;
// dsyrk n = 4 at k = 8–1000 1.22–1.86, n = 5–12 at k = 128–1000 1.18–1.97
// (k = 16–64 0.66–0.97), 14–16 0.75–1.05; LT as UT. Op N loses (its rows
// are read in place by SYRK's tiles: 0.41–1.14). Against OpenBLAS-ZEN,
// ssyrk UT 4×1000 0.78 → 6.5×, dsyrk UT 12×512 0.93 → 1.83×.
constexpr int64_t kSyrkViaGemmMaxN = 12;

// Complex elements of op(A) a small op-T csyrk copies to read as op N (below).
constexpr int64_t kSmallTransposeElems = 512;
template <typename T>
bool syrk_via_gemm(int64_t n, int64_t k, const GemmOperand<T> &opA) {
  if (!rows_contiguous(opA) || n > kSyrkViaGemmMaxN) return false;
  return n <= 4 || k >= 128 || (sizeof(T) == 4 && n <= 8 && k >= 16);
}

template <typename T>
void syrk_task(void *ctx, int slot, int nslots) {
  Level3Plan<T> &p = *static_cast<Level3Plan<T> *>(ctx);
  // No strips: one unit of all columns (one thread; no allocation for it).
  const bool whole = p.strips.empty();
  const int units = whole ? 1 : int(p.strips.size()) - 1;
  for_each_unit(p, slot, nslots, units, [&](int u) {
    const int64_t n0 = whole ? 0 : p.strips[u], n1 = whole ? p.n : p.strips[u + 1];
    const auto [m0, m1] = strip_rows(p, n0, n1);
    if (p.direct) run_direct(p, slot, m0, m1, n0, n1);
    else run_packed(p, slot, m0, m1, n0, n1);
  });
}

}  // namespace

template <typename T, bool Complex>
tesseraStatus_t syrk_execute(tblasContext *h, bool lower, bool herk, int64_t n, int64_t k, const T *alpha,
                             GemmOperand<T> opA, const T *beta, T *C, int64_t ldc) {
  constexpr int s = Complex ? 2 : 1;
  h->last_arch = h->arch;
  h->last_threads = 1;
  if (n == 0) return TESSERA_STATUS_SUCCESS;
  const bool beta_one = is_one<T, Complex>(beta);
  if (is_zero<T, Complex>(alpha) || k == 0) {
    if (!beta_one) scale_triangle(s, lower, herk, n, beta, C, ldc);
    return TESSERA_STATUS_SUCCESS;
  }

  if constexpr (!Complex) {
    if (h->arch == Arch::avx512 && syrk_via_gemm<T>(n, k, opA)) {
      // The whole n × n product W = alpha·op(A)·op(A)^T on GEMM's
      // few-row tiles (beta 0: W is not read), then each element of the
      // triangle as the tiles' write-back forms it, fma(C, beta, W); C is
      // not read for beta = 0 and the other triangle is never touched.
      T W[kSyrkViaGemmMaxN * kSyrkViaGemmMaxN];
      const T zero = T(0);
      const GemmOperand<T> opB{opA.p, opA.cs, opA.rs, false};
      const tesseraStatus_t st = gemm_execute<T, false>(h, n, n, k, alpha, opA, opB, &zero, W, n);
      if (st != TESSERA_STATUS_SUCCESS) return st;
      const bool read_c = beta[0] != T(0);
      for (int64_t j = 0; j < n; ++j) {
        const int64_t i0 = lower ? j : 0, i1 = lower ? n : j + 1;
        T *c = C + j * ldc;
        const T *w = W + j * n;
        for (int64_t i = i0; i < i1; ++i) c[i] = read_c ? std::fma(c[i], beta[0], w[i]) : w[i];
      }
      return TESSERA_STATUS_SUCCESS;
    }
  }

  if (Complex && n == 1) {  // one element: no plan, panels or threads
    const bool b_conj = herk ? !opA.conj : opA.conj;
    // The element lives in a vector's low two lanes: on AVX-512 the AVX2
    // table's 256-bit loop does the same operations (the same bits). Its
    // k-steps are bound by the 4-cycle FMA chain; the 512-bit loop's three
    // multiplies for TEMP and two FMAs per step took 5–6 cycles where 512-bit
    // operations run at half rate (Zen 4: csyrk 1×999 LT / LN 1640 → 1133
    // ns, one thread, 3 runs each).
    const Arch one_arch = h->arch == Arch::avx512 ? Arch::avx2 : h->arch;
    gemm_kernels<T>(one_arch).syrk_one_c(k, opA.p, opA.cs, opA.conj, b_conj, alpha, herk, beta, herk, C);
    if (herk) C[1] = T(0);
    return TESSERA_STATUS_SUCCESS;
  }

  // (Function scope: the call continues on the copy.)
  [[maybe_unused]] T At[Complex ? 2 * kSmallTransposeElems : 1];
  if constexpr (Complex) {
    if (rows_contiguous(opA) && n * k <= kSmallTransposeElems && (herk ? k >= 2 && k <= 5 : k <= 12)) {
      // csyrk / zsyrk op T and cherk / zherk op C with few columns and few
      // k-steps: op(A) copied into an n × k column-major block (a plain move
      // of each element; HERK's conjugate as the packers form it, the
      // imaginary part times -1) and the call goes on with it as op N, read
      // in place — where op T / C packs op(A) transposed for the tiles and
      // again for TEMP. The same values and FMAs, so the same results.
      // Zen 4, 1 thread, best table either way: LT ÷ LN time at k = 5
      // 1.18–1.35, k = 8 1.18–1.31, 12 1.09–1.22, 16–24 1.02–1.17 (n =
      // 2–28). The builds with and without the copy as CBLAS peers (15
      // rounds, L/U): k = 5–12 at n = 8–31 1.00–1.18, n = 13 × 5 0.99–1.01;
      // at k = 16 / 32 0.96–1.06 / 0.94–0.96, so k ≤ 12. HERK (session 37,
      // with and without the copy in alternate processes, best of 9 × 200k+
      // calls, L/U × n = 6–60): k = 2 / 3 / 4 / 5 1.05–1.59 / 1.01–1.50 /
      // 0.98–1.41 / 0.98–1.35 (geomean 1.18 / 1.14 / 1.12 / 1.07), k = 1
      // 0.89–1.02, k = 6–12 0.80–1.21 (cherk mostly 0.87–0.97), so 2–5.
      // Going on here rather than through a second syrk_execute (the checks
      // above again, the operand passed on the stack and re-read in wider
      // pieces than were stored): builds as CBLAS peers, 15 rounds, LT 8×5
      // / 16×12 / 31×9 / 13×5 1.09 / 1.04 / 1.02 / 1.01× the speed.
      for (int64_t l = 0; l < k; ++l)
        for (int64_t i = 0; i < n; ++i) {
          const T *e = opA.p + 2 * (i * opA.rs + l * opA.cs);
          At[2 * (i + l * n)] = e[0];
          At[2 * (i + l * n) + 1] = opA.conj ? e[1] * T(-1) : e[1];
        }
      opA.p = At;
      opA.rs = 1;
      opA.cs = n;
      opA.conj = false;
    }
  }

  Level3Plan<T> p;
  // Small SYRKs skip packing (real: A read in place, B = op(A)^T is the same
  // array; complex: see run_direct_complex), and so do those with k in one
  // KC block and short columns, as GEMM's (direct_one_kc; Zen 5, against
  // blocked, 1 | 2 threads: ssyrk LN 256 1.05 | 1.14, 384 1.08 | 1.16, UT
  // 384 1.05 | 1.04; dsyrk LN 256 1.18 | 1.25, UT 1.08 | 1.10; ssyrk UT
  // 500×64, 200×300 0.98–1.01; complex: see direct_one_kc).
  const double macs = double(n) * double(n + 1) / 2 * double(k);
  const bool direct = macs <= direct_max_macs<T, Complex>() || direct_one_kc<T, Complex>(h, n, n, k, opA);
  p.K = &syrk_kernels<T, Complex>(h, n, k, lower, opA, direct, ldc);
  p.s = s;
  p.m = p.n = n;
  p.k = k;
  // op(A), and op(A)^T: the same array, rows and columns swapped; HERK's ^H
  // conjugates it. (Field by field: copied as aggregates, GCC stored them in
  // parts and re-read them in 16-byte pieces, store-forwarding stalls that
  // were a fifth of the planning in csyrk 13×5.)
  p.A.p = opA.p;
  p.A.rs = opA.rs;
  p.A.cs = opA.cs;
  p.A.conj = opA.conj;
  p.B.p = opA.p;
  p.B.rs = opA.cs;
  p.B.cs = opA.rs;
  p.B.conj = herk ? !opA.conj : opA.conj;
  p.alpha[0] = alpha[0];
  p.alpha[1] = Complex && !herk ? alpha[1] : T(0);
  p.beta[0] = beta[0];
  p.beta[1] = Complex && !herk ? beta[1] : T(0);
  p.C = C;
  p.ldc = ldc;
  p.direct = direct;
  p.tri = lower ? Triangle::lower : Triangle::upper;
  p.herk = herk;
  p.c_cached = double(n) * double(n + 1) / 2 * s * sizeof(T) <= kCCachedBytes;
  set_blocking(p, h);
  choose_in_place(p);
  p.m_tiles = ceil_div(n, p.mr_e);
  p.n_tiles = ceil_div(n, p.nr);

  const double flops = double(n) * double(n + 1) * double(k) * s * s;
  int threads = 1;
  ThreadPool::Lease lease = lease_threads<T>(h, flops, p.n_tiles, &threads);
  int64_t widest = n;
  if (threads > 1) {
    p.strips = choose_strips(p, lower, threads, flops);
    widest = 0;
    for (size_t u = 0; u + 1 < p.strips.size(); ++u) widest = std::max(widest, p.strips[u + 1] - p.strips[u]);
  }

  p.ws = &h->workspace;
  // A unit's rows start at a tile boundary at most one tile above its strip.
  if (!reserve_workspace(p, *p.ws, threads, n + p.mr_e, widest)) return TESSERA_STATUS_ALLOC_FAILED;
  h->last_threads = threads;
  lease.run(threads, &syrk_task<T>, &p);
  return TESSERA_STATUS_SUCCESS;
}

template tesseraStatus_t syrk_execute<float, false>(tblasContext *, bool, bool, int64_t, int64_t, const float *,
                                                     GemmOperand<float>, const float *, float *, int64_t);
template tesseraStatus_t syrk_execute<double, false>(tblasContext *, bool, bool, int64_t, int64_t, const double *,
                                                      GemmOperand<double>, const double *, double *, int64_t);
template tesseraStatus_t syrk_execute<float, true>(tblasContext *, bool, bool, int64_t, int64_t, const float *,
                                                    GemmOperand<float>, const float *, float *, int64_t);
template tesseraStatus_t syrk_execute<double, true>(tblasContext *, bool, bool, int64_t, int64_t, const double *,
                                                     GemmOperand<double>, const double *, double *, int64_t);

}  // namespace tessera::dense
