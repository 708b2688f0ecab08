// The micro-kernel contract shared by every level-3 operation, and the
// per-ISA kernel table (tile shape, cache blocking, kernels, packers).
//
// Contract (BLIS-style). With MR×NR the register tile:
//   C[0:m, 0:n] = alpha * (Ã · B̃) + beta * C[0:m, 0:n]      (n <= NR, any m)
//   Ã: m × k, row tile t (rows t·MR ...) in packed micro-panel t at a + t·MR·k,
//      element (i, l) of a micro-panel at [l*MR + i]; rows >= m never read
//   B̃: k × NR, element (l, j) at b[l*NR + j]      — packed B micro-panel, cols >= n zero
//   C: column-major, leading dimension ldc. beta == 0 means C is not read.
//   tri, d: Triangle::all updates every element; lower (upper) only those
//   with i >= d + j (i <= d + j) — d is the diagonal's row in the first
//   column — and never reads or writes the others (SYRK's diagonal tiles).
// The kernel walks the column of MR×NR tiles itself (per-tile set-up stays in
// the ISA code); each tile's arithmetic is the same however tiles are
// grouped. Edge tiles (fewer rows or columns) run the same vector loop with
// masked loads and stores, so there is no scalar cliff.
//
// The "direct" variant reads unpacked operands (small problems, where packing
// would cost as much as the multiply):
//   Ã(i, l) of row tile t at a[t*a_ps + l*a_ks + i] (rows >= m never read),
//   B̃(l, j) at b[l*b_ks + j*b_js] for j < n (columns >= n are never read).
//   ukr_direct_all: the same over any n (Triangle::all), GEMM's whole row
//   of panels in one call, each panel computed as ukr_direct computes it alone.
//
// Complex types run native complex kernels (interleaved storage throughout):
// A packed as MRC × kc complex panels, B packed as Netlib's TEMP =
// alpha·op(B) in kc × NRC complex panels, and the complex tile MRC × NRC
// (MRC = MR/2, NRC = NR/2) uses the real tile's registers with the same
// FMA count per element. (The 1m method, which reached complex through the
// real kernels, was measured against this: its "1e" A panels hold each
// element twice, so packing cost 2× and wide shapes ran at half speed.)
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/cpu.h"

namespace tessera::dense {

// Tiles (or blocks) of b covering a: shared by the drivers and the kernels.
inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Which part of C an operation updates (SYRK/HERK: one triangle).
enum class Triangle { all, lower, upper };

template <typename T>
struct GemmKernels {
  const char *name;  // type_op_tile__isa, e.g. "f64_gemm_16x12__avx512"
  int mr, nr;        // register tile (real elements)
  int64_t kc, mc, nc;  // cache blocks in real elements (see the per-ISA tables)

  void (*ukr_packed)(int64_t k, T alpha, const T *a, const T *b, T beta, T *c, int64_t ldc, int64_t m,
                     int64_t n, Triangle tri, int64_t d);
  void (*ukr_direct)(int64_t k, T alpha, const T *a, int64_t a_ks, int64_t a_ps, const T *b, int64_t b_ks,
                     int64_t b_js, T beta, T *c, int64_t ldc, int64_t m, int64_t n, Triangle tri, int64_t d);

  // Complex micro-kernel (units of complex elements except the pointers):
  // C[0:m, 0:n] = A·B + beta·C on MRC × NRC complex tiles down the column,
  // A(i, l) of row tile t at a[2(t*a_ps + l*a_ks + i)] (rows >= m never read)
  // — packed panels (a_ks = MRC, a_ps = MRC·k) or op(A) in place; B one
  // pack_b_c panel (B(l, j) at b[2(l*NRC + j)], already scaled by alpha,
  // columns >= n padding, never stored). beta complex (Netlib's complex
  // product) or, with beta_real, a real scale of each part (HERK); 0 means C
  // is not read.
  // c_cached: all of the call's C fits the last-level cache (the drivers'
  // kCCachedBytes), which only changes how the k <= 4 loop streams C, never
  // a result.
  void (*ukr_complex)(int64_t k, const T *a, int64_t a_ks, int64_t a_ps, const T *b, const T *beta,
                      bool beta_real, T *c, int64_t ldc, int64_t m, int64_t n, Triangle tri, int64_t d,
                      bool c_cached);

  // Packs op(A)[0:mc, 0:kc] (element (i,l) at a[i*rs + l*cs]) into ceil(mc/MR)
  // micro-panels of MR × kc, zero-padded.
  void (*pack_a)(int64_t mc, int64_t kc, const T *a, int64_t rs, int64_t cs, T *ap);
  // Packs op(B)[0:kc, 0:nc] (element (l,j) at b[l*rs + j*cs]) into ceil(nc/NR)
  // micro-panels of kc × NR, zero-padded.
  void (*pack_b)(int64_t kc, int64_t nc, const T *b, int64_t rs, int64_t cs, T *bp);
  // Complex packers; a/b point at interleaved complex data; mc, kc, nc, rs, cs
  // in complex elements. pack_a_c: MRC × kc panels (conjugated when conj);
  // rows past mc in the last panel are left unset (ukr_complex never reads them).
  void (*pack_a_c)(int64_t mc, int64_t kc, const T *a, int64_t rs, int64_t cs, bool conj, T *ap);
  // pack_b_c: kc × NRC panels of alpha·op(B)(l, j) as Netlib forms it: the
  // complex product, or with alpha_real (HERK's real alpha) a plain scaling of
  // both parts.
  void (*pack_b_c)(int64_t kc, int64_t nc, const T *b, int64_t rs, int64_t cs, bool conj, const T *alpha,
                   bool alpha_real, T *bp);
  // C(0, 0) of a complex SYRK/HERK with n = 1 (op(A)(0, l) at a[2·l·inc];
  // a_conj / b_conj as pack_a_c's / pack_b_c's conj): the element pack_b_c
  // and ukr_complex would give, computed without the panels.
  void (*syrk_one_c)(int64_t k, const T *a, int64_t inc, bool a_conj, bool b_conj, const T *alpha, bool alpha_real,
                     const T *beta, bool beta_real, T *c);
  // KC of complex problems in complex k-steps, where it differs from kc
  // (0: kc; see set_blocking).
  int64_t kc_complex = 0;
  // ukr_direct over any n, Triangle::all (contract above); null in the
  // column tables.
  void (*ukr_direct_all)(int64_t k, T alpha, const T *a, int64_t a_ks, int64_t a_ps, const T *b, int64_t b_ks,
                         int64_t b_js, T beta, T *c, int64_t ldc, int64_t m, int64_t n) = nullptr;
  // ukr_direct for a GEMM (Triangle::all) with op(A) read in place (row tile
  // t at a + t·MR, a_ps = MR) from beyond the caches, over any n: NR-column
  // panels of B b_ps apart (panel p's B(l, j) at b[p·b_ps + l·b_ks +
  // j·b_js]), each row tile across all of them before the next, prefetching
  // the next tile's lines of A as it reads its own, so memory streams under
  // the FMAs. The same tiles and results as ukr_direct. Null in the column
  // tables.
  void (*ukr_direct_stream)(int64_t k, T alpha, const T *a, int64_t a_ks, const T *b, int64_t b_ks, int64_t b_js,
                            int64_t b_ps, T beta, T *c, int64_t ldc, int64_t m, int64_t n) = nullptr;
  // ukr_packed for a GEMM's whole panel (Triangle::all, n = NR, k > 4) whose
  // tiles also prefetch the next A block from memory (run_packed's a_ahead):
  // row tile t (t < pf_tiles) fetches its share at the k-steps l with
  // l % every == phase — op(A)'s MR rows of column l at pf + t·MR + l·pf_ks,
  // or with pf_rows (op(A)'s rows contiguous along k, pf_ks apart) MR/W of
  // its MR rows' lines, those of all MR rows within each W steps. The same
  // tiles and results as ukr_packed. Null in the column tables.
  void (*ukr_packed_ahead)(int64_t k, T alpha, const T *a, const T *b, T beta, T *c, int64_t ldc, int64_t m,
                           const T *pf, int64_t pf_ks, bool pf_rows, int64_t pf_tiles, int every,
                           int phase) = nullptr;
  // ukr_complex for a GEMM (Triangle::all, beta complex) with op(A) read in
  // place (row tile t at a + t·MRC) from beyond the L2, over any n:
  // pack_b_c panels b_ps complex elements apart, each row tile across all
  // of them before the next, prefetching the next tile's lines of A as it
  // reads its own (ukr_direct_stream's scheme; c_cached as ukr_complex's).
  // The same tiles and results as ukr_complex. Null in the column tables.
  void (*ukr_complex_stream)(int64_t k, const T *a, int64_t a_ks, const T *b, int64_t b_ps, const T *beta, T *c,
                             int64_t ldc, int64_t m, int64_t n, bool c_cached) = nullptr;
  // The complex kernel and TEMP packer for unconjugated op(B) with
  // contiguous columns (rs == 1), where the table has them (null elsewhere):
  // pack_b_c_cols stores each panel column by column (column j at 2·j·kc
  // reals, columns >= nc zero) and ukr_complex_cols reads B(l, j) at
  // b[2(j·b_js + l)], for k > 4; otherwise ukr_complex's contract, and the
  // same results.
  void (*ukr_complex_cols)(int64_t k, const T *a, int64_t a_ks, int64_t a_ps, const T *b, int64_t b_js,
                           const T *beta, bool beta_real, T *c, int64_t ldc, int64_t m, int64_t n, Triangle tri,
                           int64_t d) = nullptr;
  void (*pack_b_c_cols)(int64_t kc, int64_t nc, const T *b, int64_t cs, const T *alpha, bool alpha_real,
                        T *bp) = nullptr;
  // Tiny real products (the driver's tiny_gemm):
  // C[0:m, 0:n] = alpha·op(A)·op(B) + beta·C with op(A)(i, l) at
  // a[i·a_rs + l·a_cs], op(B)(l, j) at b[l·b_rs + j·b_cs], k >= 1; each
  // element summed as the tiles sum it (in order of k from +0; beta == 0:
  // C not read), so the same bits as ukr_direct. One vector of rows per
  // column where a_rs == 1, m <= tiny_rows (the vector's lanes), n <= 8 and
  // m·n > 1; scalar loops otherwise (for a few dozen multiply-adds). Null in
  // the column tables.
  void (*ukr_tiny)(int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t a_rs, int64_t a_cs, const T *b,
                   int64_t b_rs, int64_t b_cs, T beta, T *c, int64_t ldc) = nullptr;
  int64_t tiny_rows = 0;
};

// The k-grouped tiles (AVX-512; gemm_kgroup_avx512.cpp): real GEMMs with at
// most half a vector of rows (`rows`: f32 8, f64 4), where the main tiles
// would leave most of every FMA's lanes idle. A vector holds H rows × G
// consecutive k-steps, G the largest of 2, 4, 8 with H = W/G >= m (W the
// vector's lanes): lane i·G + c of column j's accumulator sums A(i, l)·B(l, j)
// over the l with l % G == c, in order of l; the G sums are added pairwise
// ((c0 + c1) + (c2 + c3) ...) at write-back, then C = alpha·sum + beta·C as
// the main tiles write back (beta == 0: C not read). Each element's sum runs
// in a different order than in the main tiles, so a shape takes these tiles
// or the others by its shape alone (gemm_execute), never by thread count.
// Where a broadcast per FMA would set the pace (f64 with 3–4 rows, f32 with
// one, k >= 4·W), the same entries run row-stacked tiles instead: each row
// in vectors of its own W k-steps, lane c of (i, j)'s accumulator summing
// over l % W == c, the W sums added pairwise the same way.
//   pack_a: op(A)[0:m, 0:k] (element (i, l) at a[i*rs + l*cs], m <= rows)
//     in the layout run reads (k-grouped: ceil(k/G) vectors of W, element
//     (i, l) at ap[(l/G)·W + i·G + l%G]; row-stacked: row i's steps
//     l = s·W .. s·W + W - 1 at ap[(s·R + i)·W]); rows >= m and l >= k
//     zero. At most 2·rows·k elements.
//   run: C[0:m, 0:n] for any n, walking tiles of nr columns; op(B) with
//     contiguous columns: B(l, j) at b[l + j*ldb], l < k and j < n only.
//     n_all >= n is the whole product's columns: a tile's k blocking may
//     depend on it but never on n, so units splitting the columns over
//     threads sum every element alike.
// The column-grouped variant, for op(B) with contiguous rows (op T), where
// B's G adjacent elements are columns: lane i·G + q of an accumulator sums
// A(i, l)·B(l, j + q) in order of l — the main tiles' sums, written back per
// block of 256 k-steps (the first block with beta, later ones adding). With
// 1–8 rows (rows_cols; f64 1 and 3–8) the row-vector tiles run instead:
// lane q of row i's accumulator v sums A(i, l)·B(l, j + v·W + q) in order of
// l (the same sums; with one tile of columns, at most 8·W, in one block),
// B's rows loaded as whole vectors.
//   pack_a_cols: column-grouped, element (i, l) at ap[l·W + i·G + q] for
//     every q < G (W·k elements, at most 2·rows·k); row-vector, at
//     ap[l·R + i] (R = 1, 2 (f32), 4 or 8: at most rows_cols·k); rows >= m zero.
//   run_cols: as run, B(l, j) at b[l*ldb + j].
//   run_rows_t: C[0:m, 0:n] for any m, op(A) read in place from contiguous
//     rows (A(i, l) at a[i*lda + l]) and B as run_cols: the row-vector tiles
//     on blocks of rows_cols rows, the same sums as run_cols's row-vector
//     tiles (its k blocking by n_all likewise).
//   run_rows_tn: as run_rows_t with op(B) as run reads it (contiguous
//     columns): the row-stacked tiles on blocks of 8 rows (n_all <= 2) or 4
//     (tiles of 4 columns) — 1 row, 2, or at most 4 with n_all <= 2, on
//     blocks of their height — op(A)'s rows read in place, lane sums folded
//     as run's row-stacked tiles fold them (each row's alike whatever the
//     block), k unblocked.
template <typename T>
struct KGroupKernels {
  using Pack = void (*)(int64_t m, int64_t k, const T *a, int64_t rs, int64_t cs, T *ap);
  using Run = void (*)(int64_t k, T alpha, const T *ap, const T *b, int64_t ldb, T beta, T *c, int64_t ldc,
                       int64_t m, int64_t n, int64_t n_all);
  using RunT = void (*)(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,
                        int64_t ldc, int64_t m, int64_t n, int64_t n_all);
  const char *name;  // type_op_tile__isa, e.g. "f32_gemm_{8,4,2}x16k{2,4,8}__avx512"
  int rows;          // at most `rows` rows of C (run)
  int rows_cols;     // at most `rows_cols` rows of C (run_cols), more than `rows` from
  int wide_cols;     //   `wide_cols` columns or where the main tiles would pack op(A)
  int nr;            // columns per full tile
  // run_rows_t (both operands' rows contiguous) takes at most t_cols columns,
  // and past rows_cols rows only from t_min_cols columns and t_min_k steps —
  // t_min_k_vec steps where the columns fill more than half of one vector of
  // vec_cols. Any number of columns: one block of rows_cols rows and at most
  // 4 more from t_min_cols columns and t_more_min_k steps; two blocks and a
  // third (at most rows_cols more) from t_cols columns and t_wide_min_k
  // steps (0: neither taken so).
  int t_cols, t_min_k, t_min_cols, t_min_k_vec, vec_cols, t_more_min_k, t_wide_min_k;
  Pack pack_a;
  Run run;
  Pack pack_a_cols;
  Run run_cols;
  RunT run_rows_t;
  // op(A)'s rows contiguous, op(B)'s columns (TN), at most tn_cols columns,
  // from tn_min_k steps (tn_few_min_k with at most tn_few_cols columns,
  // tn_one_min_k with one), any number of rows: run_rows_tn.
  RunT run_rows_tn;
  // tn_nr: columns per unit of work (12: all of them, so threads split rows
  // and each reads its own rows of op(A) once; 4-column units read all of
  // op(A) on each thread — dgemm TN 1000×8×2000 2T 1.66× faster by rows).
  int tn_cols, tn_min_k, tn_nr, tn_few_cols, tn_few_min_k, tn_one_min_k;
  // run_cols's row-vector tiles with op(A)'s columns (op N) read in place
  // (A(i, l) at a[i + l*lda]) instead of packed: m rows with bit m of
  // cols_n_rows set (those whose tile reads no row past m); the same sums.
  RunT run_cols_n = nullptr;
  unsigned cols_n_rows = 0;
  // The row-vector tiles' k block (run_cols, run_cols_n, run_rows_t): up to
  // this many steps each element's sum is one block, as the direct tiles'.
  int64_t row_vec_kc = 0;
  // run_rows_tn_pairs: as run_rows_tn (its rule) for 3 to tn_pair_cols
  // columns where m is at most one block of tn_pair_rows rows, at least
  // tn_pair_min_m, or between them with its last block more than half full
  // at up to tn_pair_mid_max_k steps: the row-stacked tiles with two columns
  // per vector, blocks of tn_pair_rows rows, other lane sums (chosen by the
  // call's shape, so a unit of rows takes the same tiles as the whole call).
  // Past tn_few_cols columns only with more than half a block of rows; one
  // column more from tn_pair_wide_min_k steps (not tn_min_k), more from
  // tn_min_k.
  RunT run_rows_tn_pairs = nullptr;
  int tn_pair_rows = 0, tn_pair_min_m = 0, tn_pair_cols = 0, tn_pair_wide_min_k = 0;
  int64_t tn_pair_mid_max_k = 0;
  // run_rows_tn below the k floors above for at most tn_few_rows rows
  // (not the tiles of pairs): from tn_few_rows_min_k steps, past
  // tn_few_cols columns with more than a quarter of tn_few_rows rows from
  // twice that.
  int tn_few_rows = 0;
  int64_t tn_few_rows_min_k = 0;
  // A whole call (never a tail or a unit of a taller or wider one) of at
  // most split_row_vectors rows × vectors of vec_cols columns (3 rows count
  // as 4) with op(B)'s rows contiguous (op T), from split_min_k
  // steps: its k-steps in interleaved partial sums, added in a fixed order
  // at the end (not the main tiles' bits) — op(A)'s columns (or one row)
  // in place, A(i, l) at a[i + l*lda] (run_split_cols), or its rows,
  // a[i*lda + l] (run_split_rows).
  RunT run_split_cols = nullptr;
  RunT run_split_rows = nullptr;
  int split_row_vectors = 0;
  int64_t split_min_k = 0;
  // The same for C's columns: a whole call of more than half and at most
  // one vector of rows (vec_cols), op(A)'s columns contiguous (op N), at
  // most split_cols columns, from split_min_k steps; op(B)(l, j) at
  // b[l*brs + j*bcs] (any op).
  using RunSplitCols = void (*)(int64_t k, T alpha, const T *a, int64_t lda, const T *b, int64_t brs, int64_t bcs,
                                T beta, T *c, int64_t ldc, int64_t m, int64_t n);
  RunSplitCols run_col_split = nullptr;
  int split_cols = 0;
};

// One table per ISA, defined in gemm_<isa>.cpp.
namespace generic { extern const GemmKernels<float> kF32; extern const GemmKernels<double> kF64; }
namespace avx2 {
extern const GemmKernels<float> kF32, kF32Narrow, kF32Column, kF32Column2;
extern const GemmKernels<double> kF64, kF64Narrow, kF64Column, kF64Column2;
}
namespace avx512 {
extern const GemmKernels<float> kF32, kF32Narrow, kF32NarrowC8, kF32Column, kF32Column2;
extern const GemmKernels<double> kF64, kF64Narrow, kF64Column, kF64Column2;
extern const KGroupKernels<float> kF32KGroup;
extern const KGroupKernels<double> kF64KGroup;
}

// The lookups, inline: tiny GEMMs make several per call (sgemm 16³ had
// spent ~2 ns in each call to the out-of-line ones). by_type<T>(f32, f64):
// the table of T's precision.
template <typename T, typename F, typename D>
constexpr const auto &by_type(const F &f32, const D &f64) {
  if constexpr (std::is_same_v<T, float>) return f32;
  else return f64;
}

template <typename T>
inline const GemmKernels<T> &gemm_kernels(Arch arch) {
  switch (arch) {
    case Arch::avx512: return by_type<T>(avx512::kF32, avx512::kF64);
    case Arch::avx2: return by_type<T>(avx2::kF32, avx2::kF64);
    case Arch::generic: break;
  }
  return by_type<T>(generic::kF32, generic::kF64);
}
// A table with a narrower tile, for complex problems only a few rows or
// columns wide (small-n SYRK: less of each diagonal tile is outside the
// triangle); the main table where the ISA has none.
template <typename T>
inline const GemmKernels<T> &gemm_kernels_narrow(Arch arch) {
  switch (arch) {
    case Arch::avx512: return by_type<T>(avx512::kF32Narrow, avx512::kF64Narrow);
    case Arch::avx2: return by_type<T>(avx2::kF32Narrow, avx2::kF64Narrow);
    case Arch::generic: break;
  }
  return gemm_kernels<T>(arch);
}
// The narrow tile's row vector × 8 complex columns (16 real), where the ISA
// has one (AVX-512, f32: complex SYRK, and tiny sgemm with one full row
// vector and n a multiple of 16); nullptr elsewhere (f64: zsyrk's 4×8 tile
// measured slower than its 4×4 one, n = 4, 8: 1.1–1.3× the time).
template <typename T>
inline const GemmKernels<T> *gemm_kernels_narrow_c8(Arch arch) {
  if constexpr (std::is_same_v<T, float>) return arch == Arch::avx512 ? &avx512::kF32NarrowC8 : nullptr;
  else return nullptr;
}
// The column table for n columns (direct entry only: an MV-vector × n-column
// tile) for real GEMMs with n <= 2 and op(A) read in place, where the ISA
// has one (AVX-512, AVX2); nullptr elsewhere.
template <typename T>
inline const GemmKernels<T> *gemm_kernels_column(Arch arch, int64_t n) {
  if (n != 1 && n != 2) return nullptr;
  switch (arch) {
    case Arch::avx512:
      return n == 1 ? &by_type<T>(avx512::kF32Column, avx512::kF64Column)
                    : &by_type<T>(avx512::kF32Column2, avx512::kF64Column2);
    case Arch::avx2:
      return n == 1 ? &by_type<T>(avx2::kF32Column, avx2::kF64Column)
                    : &by_type<T>(avx2::kF32Column2, avx2::kF64Column2);
    case Arch::generic: break;
  }
  return nullptr;
}
// The k-grouped tiles where the ISA has them (AVX-512), nullptr elsewhere.
template <typename T>
inline const KGroupKernels<T> *gemm_kernels_kgroup(Arch arch) {
  return arch == Arch::avx512 ? &by_type<T>(avx512::kF32KGroup, avx512::kF64KGroup) : nullptr;
}

}  // namespace tessera::dense
