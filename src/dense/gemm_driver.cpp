// GEMM: plan (path, threads, work split, blocking) → drive (GotoBLAS/BLIS
// loops over NC/KC/MC blocks on packed panels) → micro-kernel.
//
// Determinism: threads split C's rows and columns only (never k), and every
// element is produced by the same sequence of KC-blocked FMAs whatever tile,
// unit or thread it lands in, so results are bitwise identical for any thread
// count and any claiming order.
// The choice between the direct (unpacked) and packed algorithm depends on the
// shape alone, never on the thread count.
#include "dense/gemm_driver.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <utility>

#include "dense/kernels/gemm_kernels.h"
#include "dense/macro_kernel.h"

namespace tessera::dense {

namespace {

// Columns of C per step of the unit grid: a tile's NR (the grouped tiles
// reading op(A) in place: their tile's columns), or where real op(B) is
// read in place (the direct path, and the blocked one when choose_in_place
// says so; panels narrower than NR run on the 4- and 8-column tiles) 4, so 2
// threads get equal halves: 64 columns of 12-column tiles were cut 36 + 28.
// The complex direct path packs each unit's own TEMP columns and has tiles
// for 3 and 4 of its 6: steps of 2 there.
template <typename T>
int64_t unit_cols(const Level3Plan<T> &p) {
  if (p.s == 2) return p.direct && p.nr >= 6 ? 2 : p.nr;
  if (p.kg_run_t) return p.nr;
  return (p.direct || p.b_in_place) && p.nr >= 8 ? 4 : p.nr;
}

// Shortest k the k-grouped tile takes (below, its pair of sums and the fold
// at write-back buy nothing).
constexpr int64_t kKGroupMinK = 2;

// op(B)'s rows contiguous (op T): the column-grouped tiles take it; its
// columns contiguous: the k-grouped ones.
template <typename T>
bool kgroup_by_columns(const GemmOperand<T> &B) {
  return rows_contiguous(B);
}
// Whether the k- or column-grouped tiles take op(B) as stored (k-grouped
// from kKGroupMinK steps).
template <typename T>
bool kgroup_takes_b(const GemmOperand<T> &B, int64_t k) {
  return kgroup_by_columns(B) || (B.rs == 1 && k >= kKGroupMinK);
}
// Workspace for op(A) packed in the grouped tiles' lane order.
template <typename T>
size_t kgroup_a_bytes(const KGroupKernels<T> &kg, int64_t k) {
  return size_t(std::max(2 * kg.rows, kg.rows_cols)) * size_t(k) * sizeof(T);
}
// The grouped tiles' entries for op(B) as stored: the column-grouped ones
// where its rows are contiguous, the k-grouped ones otherwise; rows: the most
// rows of C they take (more by columns only where the main tiles would not
// read A in place or n is wide enough; kernel table, wide_cols); ldb: the
// stride between B's groups of columns or k-steps.
template <typename T>
struct KGroupUse {
  typename KGroupKernels<T>::Run run;
  typename KGroupKernels<T>::Pack pack;
  int64_t ldb;
  int rows;
};
template <typename T>
KGroupUse<T> kgroup_use(const KGroupKernels<T> &kg, const GemmOperand<T> &A, const GemmOperand<T> &B, int64_t n) {
  if (!kgroup_by_columns(B)) return {kg.run, kg.pack_a, B.cs, kg.rows};
  return {kg.run_cols, kg.pack_a_cols, B.rs, n >= kg.wide_cols || !a_columns_in_place(A) ? kg.rows_cols : kg.rows};
}

// Elements [lo, hi) of part u of `parts` over `len` elements in `tiles`
// tiles of `tile` (the last one partial): contiguous ranges of whole tiles,
// part u holding tiles [u·tiles/parts, (u+1)·tiles/parts).
inline std::pair<int64_t, int64_t> unit_range(int64_t len, int64_t tiles, int parts, int u, int64_t tile) {
  return {tiles * u / parts * tile, std::min(len, tiles * (u + 1) / parts * tile)};
}

// Threads claim units (blocks of whole tiles of C) from a counter until none
// are left; the caller alone can finish them all if a worker starts late.
// The grouped tiles' op(A) is the caller's packed copy for slot 0 and a
// copy of the thread's own for the others, packed before its first unit:
// reading lines another core has just written cost more than packing them
// again (Zen 5 VM, dgemm NT 8×96×2000 on 2 threads: 53.5 GF/s sharing the
// caller's copy against 1 thread's 72; with the copy packed once for all
// calls, 146).
template <typename T>
void gemm_task(void *ctx, int slot, int nslots) {
  Level3Plan<T> &p = *static_cast<Level3Plan<T> *>(ctx);
  // This thread's packed copies of kg's and tail's op(A), packed before their first use.
  const T *kg_a = slot == 0 ? p.kg_a : nullptr, *tail_a = nullptr;
  const auto grouped = [&](const GroupedRows<T> &g, const T *&ga, int64_t n0, int64_t n1) {
    if (!ga) {
      T *ap = reinterpret_cast<T *>(static_cast<char *>(p.ws->a(slot)) + g.offset);
      g.pack(g.rows, p.k, g.A.p, g.A.rs, g.A.cs, ap);
      ga = ap;
    }
    g.run(p.k, p.alpha[0], ga, p.B.p + n0 * p.B.cs, g.ldb, p.beta[0], p.C + g.row0 + n0 * p.ldc, p.ldc, g.rows,
          n1 - n0, p.n);
  };
  for_each_unit(p, slot, nslots, p.tm * p.tn, [&](int u) {
    const auto [m0, m1] = unit_range(p.m, p.m_tiles, p.tm, u % p.tm, p.mr_e);
    const auto [n0, n1] = unit_range(p.n, p.n_tiles, p.tn, u / p.tm, unit_cols(p));
    if (m0 >= m1 || n0 >= n1) return;
    if (p.kg_run_t) {
      p.kg_run_t(p.k, p.alpha[0], p.A.p + m0 * p.A.rs, p.kg_lda, p.B.p + n0 * p.B.cs, p.kg_ldb, p.beta[0],
                 p.C + m0 + n0 * p.ldc, p.ldc, m1 - m0, n1 - n0, p.n);
    } else if (p.kg.run) {
      grouped(p.kg, kg_a, n0, n1);
    }
    // A unit with another's columns to its right walks leftward (direct_real);
    // with more than two columns of units every other one does, so of each
    // pair of neighbours at least one walks away from their boundary.
    else if (p.direct) run_direct(p, slot, m0, m1, n0, n1, n1 < p.n && (u / p.tm) % 2 == 0);
    else run_packed(p, slot, m0, m1, n0, n1);
    if (p.tail.run && m1 == p.m) grouped(p.tail, tail_a, n0, n1);  // the tail rows of this unit's columns
  });
}

// Units stacked in a column of the grid (tm > 1) write alternate runs of
// every column of C they share, and on this host that costs far more than
// the cache lines the runs share at their ends: cycles (the model's, below)
// per column for each pass over C (each KC block on the blocked path; one
// on the direct path). Zen 5, 2 threads, grids forced, separate steady runs:
// 2 × 1 took longer than 1 × 2 by ~2200 per column-pass at sgemm 256³
// (direct; 128 → 90 µs), ~1400 at 512³ (800 → 697 µs), ~2700 at dgemm 768³
// (5096 → 4617 µs), ~2450 at zgemm 256³ (784 → 690 µs); 2 × 2 and 4 × 1
// read likewise against 1 × 4. With 100 per column the model had taken 2 × 1
// at sgemm / dgemm 512³ and zgemm 256³. Tall shapes keep their row splits:
// at 20000×64×64 and 2000×48×512 they packed half of A where 1 × 2 packs all
// of it (2 × 1 took 0.70–0.82 of 1 × 2's time).
constexpr double kSharedColumnCycles = 2000.0;

// The largest of unit_range's parts, without a unit_range per part: on two
// threads choose_units weighs 9 grids a call (2, 4 and 8 units), and with a
// loop over the parts here it took ~240 ns of the ~0.9 µs a 2-thread dgemm
// 64³ call spent before its dispatch (~90 ns after; Zen 5 VM). unit_range
// gives part u ⌊tiles·(u+1)/parts⌋ − ⌊tiles·u/parts⌋ tiles: q or q + 1 (q =
// tiles / parts), q + 1 in r = tiles % parts parts, the last one among them
// when r > 0; only the last part can end in a partial tile, so it is the
// one part measured. (Checked against the loop for every len ≤ 600, tile ≤
// 48, parts ≤ 16.)
inline int64_t largest_part(int64_t len, int64_t tiles, int parts, int64_t tile) {
  const auto [last0, last1] = unit_range(len, tiles, parts, parts - 1, tile);
  if (parts == 1) return last1 - last0;
  const int64_t q = tiles / parts, r = tiles % parts;
  return std::max((r >= 2 ? q + 1 : q) * tile, last1 - last0);
}

// Picks the tm × tn grid of `units` work units minimising the largest unit's
// estimated cycles: its tiles (compute) plus the panels it must pack (each
// unit packs its own rows of A and columns of B over all of k, unless they
// are read in place; on the blocked path its rows of A once for each jc
// block of its columns). Returns that cost, or a negative value if no grid
// fits the tiles.
// (The jc blocks: with A priced once, 2 threads took 2 × 1 grids whose units
// span more than one jc block — repacking their half of A — where 1 × 2
// packs all of A once. Zen 5, 2 threads, grids forced, separate steady runs
// alternating, time 1 × 2 ÷ 2 × 1 for the shapes this moved: sgemm 2048³
// 0.979–0.988, 4000×2000×500 0.96–0.99; dgemm 1500³ 0.92–0.96; cgemm 1024³
// 0.983–0.985, zgemm 1024³ 0.98–1.00.)
template <typename T>
double choose_grid(Level3Plan<T> &p, int units) {
  double best = -1;
  for (int tm = 1; tm <= units; ++tm) {
    if (units % tm) continue;
    const int tn = units / tm;
    if (tm > p.m_tiles || tn > p.n_tiles) continue;
    // The largest unit's rows and columns as gemm_task cuts them, a last
    // partial tile at its width (as whole tiles, 4000×16×256 had split its
    // 12 + 4 columns rather than its rows, and 3000×30×30 its rows rather
    // than 12 + 18 columns).
    const double rows = double(largest_part(p.m, p.m_tiles, tm, p.mr_e));
    const double cols = double(largest_part(p.n, p.n_tiles, tn, unit_cols(p)));
    const double passes = p.direct ? 1.0 : std::ceil(double(p.k) / double(p.kc_e));
    const double a_packs = p.direct ? 1.0 : double(jc_blocks(p, int64_t(cols)));
    const double cost =
        unit_cycles(p, rows * cols, rows * a_packs, cols) + (tm > 1 ? cols * passes * kSharedColumnCycles : 0.0);
    if (best < 0 || cost < best) {
      best = cost;
      p.tm = tm;
      p.tn = tn;
    }
  }
  return best;
}

// Chooses how many units to cut C into for `threads` threads: 1, 2 or 4 per
// thread, whichever gives the least estimated time per thread. Every unit
// repacks full-k panels, which dominates when k is large against m and n
// (e.g. 64×64×20000), and pays costs the model leaves out (re-reading
// operands read in place, its own tile walk): more units must win by 10 %
// to be chosen. (Measured, 2 threads, alternating builds, against the old
// rule: sgemm 128³ 30.9 → 26.1 µs, zgemm 64³ 32.6 → 27.3 µs, sgemm
// 2048×2048×32 2.09 → 1.83 ms, 64×64×20000 1.21 → 1.14 ms; after 1 ms idle
// — workers asleep, the case several units per thread were for — within
// 5 % either way.)
template <typename T>
void choose_units(Level3Plan<T> &p, int threads, double flops) {
  p.tm = p.tn = 1;
  if (threads == 1) return;
  double best = -1;
  int best_tm = 1, best_tn = 1;
  for (int per = 1; per <= units_per_thread(flops); per *= 2) {
    int units = int(std::min<int64_t>(threads * per, p.m_tiles * p.n_tiles));
    double cost = -1;
    while (units > 1 && (cost = choose_grid(p, units)) < 0) --units;
    if (cost < 0) continue;
    const double per_thread = cost * double(ceil_div(units, threads));
    if (best < 0 || per_thread < best * 0.9) {
      best = per_thread;
      best_tm = p.tm;
      best_tn = p.tn;
    }
  }
  p.tm = best_tm;
  p.tn = best_tn;
}

// The grouped tiles reading op(A) in place for any number of rows, where
// its rows are contiguous (op T) and C has few columns: the main tiles would
// first pack op(A) transposed, at about the cost of the FMAs when n is a
// vector or two (Zen 5, dgemm TT 32×8×2000: the pack 52 % of the call), and
// the few-row tiles pack it too.
//  - op(B) = T: the row-vector tiles on blocks of rows_cols rows, at most
//    t_cols columns; past rows_cols rows only from t_min_k steps and
//    t_min_cols columns (the kernel table's measured floors: below them the
//    row-vector write-back's transposes cost more than the main tiles' pack;
//    f64 TT 200×32×32 0.96×, f32 200×8×200 0.82×). Where the columns fill
//    more than half of one vector the pack costs most per FMA (the main
//    tiles use 4–8 of their 12 columns), and the floor is t_min_k_vec: Zen
//    4, 1 thread, time before ÷ after, dgemm TT n = 6 / 8 at k = 32–48,
//    m 32–2000: 1.10–1.42 (k = 24: 0.97–1.00); sgemm n = 16 at k = 64–127:
//    1.09–1.25 (k = 48: 0.98–1.01). One block and at most 4 rows more
//    (rows_cols + 1 .. rows_cols + 4 rows, on the 8-row tile and the 1-,
//    2- or 4-row one) within one vector (f32 9–12 rows, which the main
//    tiles compute as a whole vector of 16): any number of columns from
//    t_min_cols and from t_more_min_k (16) steps — Zen 5, 1 thread, pinned,
//    alternating: sgemm TT 9 / 10 / 12 × 64×64 1.71 / 1.55 / 1.41, × 1000×64 1.38 /
//    1.29 / 1.32, × 200×200 1.41 / 1.35 / 1.37, × 16×16 1.02–1.06, 10 × 300
//    × 300 1.33, 12×64×20 1.19; lost: 13–15 rows (the second block on the
//    8-row tile, 0.58–0.93 at k ≤ 33), k = 4–8 (0.75–0.98), 8 columns
//    (0.93–0.96); f64 (two vectors for 9–12 rows) 0.99–1.05 from 8 columns,
//    0.71 at 11×4×32 (its t_more_min_k 0). f32 with 17–24 rows (two blocks
//    and a third; on the main tiles a whole vector and at most half of the
//    second): from t_cols columns and t_wide_min_k (48) steps —
//    same method, operands 64-byte aligned | 16 bytes off a line: sgemm TT
//    17 / 20 / 24 × 64×64 1.12 / 1.14 / 1.00 | 1.12 / 1.15 / 1.15, ×
//    200×200 1.15 / 1.14 / 1.18 | 1.14 / 1.13 / 1.04, × 1000×64 1.05 / 1.04
//    / 1.02 | 1.03 / 1.07 / 1.02, × 48×300 1.26 / 1.18 / 1.21 | 1.26 / 1.21
//    / 1.24, 21×100×100 1.05 | 1.04; 2 threads 20×1000×500 1.16, 24×2000×200
//    1.02; at k = 32–33 0.95–1.14 (18×33×33 0.95–0.97, 17×1000×32 0.99).
//  - op(B) = N: the row-stacked tiles on blocks of 8 or 4 rows (op(A)'s and
//    B's k-steps both plain loads), at most tn_cols (12) columns, from
//    tn_min_k steps (f32 128, f64 64; with at most 4 columns f32 48, f64
//    32: Zen 5, builds as peers, dgemm TN 100×1×32 / 100×4×48 / 200×1×48
//    1.85 / 1.46 / 1.98×, 1000×4×32 1.27×, sgemm 100×4×100 1.61×,
//    1000×2×64 1.37×, 100×3×80 1.58× — f32 n = 4 at k = 32–40 and 12
//    columns at k < 100 lost, 0.84–0.92 and 0.63–0.80×; with one column
//    f32 16, f64 8 — a whole group of W steps — on the 8 × 1 tile: Zen 5,
//    1 thread, against the build before, sgemm TN 100×1×16 / 100×1×40 /
//    1000×1×16 / 16×1×16 1.46 / 2.22 / 1.33 / 1.71×, dgemm 100×1×16 /
//    1000×1×16 / 8×1×24 1.64 / 2.19 / 2.17×; f32 k = 8 and f64 k < 8 lost
//    at m = 1000, 0.83–0.99×) and any number of rows
//    (f32 from 2 and f64 from 5 until session 53, when 1-, 2- and 4-row
//    blocks came — the measurements beside the AVX-512 table, with the
//    few-row floor tn_few_rows_min_k): dgemm TN
//    8×1×2000 3.6×, 200×4×128 1.7×, 32×8×2000 2.0×,
//    8×12×2000 1.33× the main tiles; sgemm 8×1×2000 6.2× (the few-row tiles
//    then packed op(A) element by element), 32×8×2000 1.43×; from 16
//    columns at k = 2000 0.7–0.98×. 3 to tn_pair_cols columns (f32 6, f64
//    5) on the tiles of pairs where the kernel table says (tn_pair_*; one
//    column past tn_few_cols from its own floor, f32 48, f64 40 steps: the
//    numbers beside the AVX-512 table, gemm_kgroup_avx512.cpp).
// And where op(A)'s columns are contiguous (op N), op(B)'s rows (op T) and
// the few-row tiles take the product (m within kgroup_use's rows) on a
// row-vector tile that reads no row past m (cols_n_rows: 1, 2 (f32), 4–8 rows): those
// tiles read op(A)'s columns in place instead of packing them (a masked load
// and store per k-step, 30 % of sgemm NT 4×16×2000); the same sums.
template <typename T>
struct InPlaceRows {
  typename KGroupKernels<T>::RunT run = nullptr;
  int rows = 0, cols = 0;  // the unit grid's row step (whole blocks) and column step
  int64_t ldb = 0;         // the stride between op(B)'s k-steps (op T) or columns (op N)
  int64_t lda = 0;         // the stride between op(A)'s rows (op T) or columns (op N)
};
template <typename T, bool Complex>
InPlaceRows<T> kgroup_in_place(Arch arch, int64_t m, int64_t n, int64_t k, const GemmOperand<T> &A,
                               const GemmOperand<T> &B) {
  const KGroupKernels<T> *kg = Complex ? nullptr : gemm_kernels_kgroup<T>(arch);
  if (!kg) return {};
  if (a_columns_in_place(A)) {  // the few-row tiles' product (kgroup_use) on a tile that reads no row past m
    if (!kgroup_by_columns(B) || m > kgroup_use(*kg, A, B, n).rows || !(kg->cols_n_rows >> m & 1u)) return {};
    return {kg->run_cols_n, kg->rows_cols, kg->nr, B.rs, A.cs};
  }
  if (!rows_contiguous(A)) return {};
  if (rows_contiguous(B)) {
    const int64_t r = kg->rows_cols;
    bool takes;
    if (kg->t_more_min_k > 0 && m > r && m <= r + 4)  // a block and at most the 4-row tile
      takes = k >= kg->t_more_min_k && n >= kg->t_min_cols;
    else if (m > 2 * r && m <= 3 * r && kg->t_wide_min_k > 0 && k >= kg->t_wide_min_k && n >= kg->t_cols)
      takes = true;  // two blocks and a third, any number of columns
    else {
      const int64_t min_k = 2 * n > kg->vec_cols && n <= kg->vec_cols ? kg->t_min_k_vec : kg->t_min_k;
      takes = n <= kg->t_cols && (m <= r || (k >= min_k && n >= kg->t_min_cols));
    }
    if (!takes) return {};
    return {kg->run_rows_t, kg->rows_cols, kg->nr, B.rs, A.rs};
  }
  // The tiles of pairs (3 to tn_pair_cols columns): by m (and k between
  // the row floors), with more than half a block of rows; their k floor
  // past tn_few_cols columns tn_pair_wide_min_k for one column more,
  // tn_min_k beyond. Otherwise up to tn_few_rows rows from their own floor.
  const bool wide = n > kg->tn_few_cols;
  const int64_t last_block = m % kg->tn_pair_rows;  // rows in a partial last block of pairs
  const bool pairs = kg->run_rows_tn_pairs && n >= 3 && n <= kg->tn_pair_cols &&
                     (m <= kg->tn_pair_rows || m >= kg->tn_pair_min_m ||
                      (k <= kg->tn_pair_mid_max_k && (last_block == 0 || 2 * last_block > kg->tn_pair_rows))) &&
                     2 * m > kg->tn_pair_rows;
  const int64_t tn_min_k = n == 1                              ? kg->tn_one_min_k
                           : !wide                             ? kg->tn_few_min_k
                           : pairs && n == kg->tn_few_cols + 1 ? kg->tn_pair_wide_min_k
                                                               : kg->tn_min_k;
  const bool few_rows = !pairs && m <= kg->tn_few_rows && k >= kg->tn_few_rows_min_k &&
                        (!wide || 4 * m <= kg->tn_few_rows || k >= 2 * kg->tn_few_rows_min_k);
  if (B.rs != 1 || n > kg->tn_cols || (k < tn_min_k && !few_rows)) return {};
  if (pairs) return {kg->run_rows_tn_pairs, kg->rows_cols, kg->tn_nr, B.cs, A.rs};
  return {kg->run_rows_tn, kg->rows_cols, kg->tn_nr, B.cs, A.rs};
}

// The rows of m past its last whole vector of w, where there is a whole one
// before them and they fill at most half of a vector; 0 otherwise. Such a
// tail runs apart: on the k-grouped tiles (kgroup_tail_rows) or, in
// direct_one_thread on a half-rate core, on 256-bit tiles (half_rate_tail).
inline int64_t half_vector_tail(int64_t m, int64_t w) { return m > w && m % w <= w / 2 ? m % w : 0; }
template <typename T>
constexpr int kZmm = 64 / int(sizeof(T));  // a 512-bit vector's elements

// Rows of C past the last whole row vector, when the k-grouped tiles should
// take them: real, op(B) as the k-grouped tiles read it, more than one vector
// of rows, and at most half a vector left over (f32 m % 16 = 1..8, f64 m % 8 =
// 1..4 on AVX-512). The main tiles run such a tail as a vector with most lanes
// idle (sgemm 100×96×100 took 1.56 µs more than 96×96×100 on a 4-row tail that
// the k-grouped tiles compute alone in 0.5 µs). 0 where the main tiles keep them.
template <typename T, bool Complex>
int64_t kgroup_tail_rows(Arch arch, int64_t m, int64_t n, int64_t k, const GemmOperand<T> &A,
                         const GemmOperand<T> &B) {
  // Not for n <= 2 (the column tiles, one pass over A), nor where B is small:
  // below 16 columns or 32×32 elements the second call's fixed cost (op(A)'s
  // tail packed, another plan) outweighs the lanes saved (sgemm 17³ 0.78×,
  // 20³ 0.86×, dgemm 28³ 0.87×, 20×8×200 0.91× split against unsplit).
  if (Complex || n < 16 || n * k < 1024 || kgroup_in_place<T, Complex>(arch, m, n, k, A, B).run) return 0;
  const KGroupKernels<T> *kg = gemm_kernels_kgroup<T>(arch);
  return kg && kgroup_takes_b(B, k) ? half_vector_tail(m, 2 * kg->rows) : 0;
}

// Whether a real product of m rows over k steps runs on the narrow tile
// (one vector × 8 columns, gemm_kernels_narrow) instead of the main one:
// at small k each tile's write-back of C is a large share, and the main
// tile's 12 columns — 24–36 lines of C, all in the same 2–3 sets of the
// 8-way L1 where ldc is a multiple of 4 KiB — evict each other and the
// next tile's prefetched lines. The same FMAs per element in the same
// order, so the same bits whichever tile runs. AVX-512 on a core that runs
// 512-bit operations at half rate (one FMA pipe: the narrow tile's 8 chains
// are twice what it needs), k from 5 (the k <= 4 loops are the main
// tile's), at least two main tiles of rows, and at most 32 steps on the
// direct path, 64 on the blocked one. On Zen 5's two FMA pipes the 8
// chains are just the latency × pipes, and the main tile won everywhere
// (1T, builds side by side, 7 rounds, main ÷ narrow: dgemm 32³ 1.26,
// 2048²×32 1.18, 1000²×8 1.32, 100×30×8 1.28, 20000×64×64 1.15; sgemm
// 2048²×16 / ×32 1.25 / 1.20, 1000²×8 1.31, 40³ 1.05). Zen 4, 1
// thread, builds side by side, speed ÷ the main tile's:
//  - blocked: sgemm / dgemm 1024² and 2048² × k = 16 / 32 / 64 1.18 /
//    1.09–1.10 / 1.04–1.07, 1024×4096×32 and 4096×1024×32 1.09–1.11; ldc
//    1000 / 2000 at k = 32 1.03–1.04; k = 96–192 1.00–1.04, left on the
//    main tile. 2 threads: 1.02–1.20.
//  - direct: NN / NT / TN / TT geomean over 10 shapes each 1.03 / 1.02 /
//    1.05 / 1.05 (dgemm 33×33×8 1.07–1.11, 100×30×8 1.07–1.14, 250×13×16
//    1.11–1.20, 64×64×8 1.06–1.11); between one and two main tiles of rows
//    0.92–1.00 (dgemm 17 / 20 / 24 × 64 × 8 0.95 / 0.92 / 0.97, sgemm
//    33 / 40 × 64 0.94 / 0.99), hence the row floor; and with a few
//    columns ending in a panel of 1–4 (its tile's 4 FMA chains only just
//    cover the latency) 0.92–0.93 (s / d 2000×12×32, where the main tile
//    has one whole panel), hence the column rule: 2000×6×24 1.07–1.17,
//    2000×8×k 0.98–1.05.
//  - planned (`units`: gemm_rows's units of work) only from 16 columns:
//    the direct path's units split C's columns in steps of 4, and 2
//    threads cut sgemm 2000×8×32 into two 4-column halves of the narrow
//    tile, 0.83–0.97× the main tile's rows.
//  - on a core that runs 512-bit operations at half rate (Zen 4, the
//    handle's zmm_half_rate) the blocked path takes it at any k from 256
//    rows and columns: one FMA pipe needs 4 chains, the narrow tile has 8,
//    and its 8-column B micro-panel and C tile crowd the 32 KiB L1 less.
//    Zen 4, speed ÷ the main tile's (tables switchable at run time,
//    alternated in one process, 5 rounds): dgemm 512³ / 1024³ / 2048³
//    1.02–1.03 (1T; 92.7–93.6 % of peak), 1.03–1.04 (2T); sgemm 1.01–1.02
//    (1T), 1.03–1.05 (2T: 2048³ 219.9 against 208.6 GF/s, 93 % of peak). A
//    2 × 8 tile (a trial table) read the same as the narrow one. With few
//    rows the main tile's taller panels win (builds as peers, 9 rounds:
//    sgemm / dgemm 64×2000×2000 0.96–0.98, 64×64×20000 0.97–0.99).
template <typename T>
bool narrow_tile(Arch arch, bool half_rate, int64_t m, int64_t n, int64_t k, bool direct, bool units) {
  const bool any_k = !direct && m >= 256 && n >= 256;
  return arch == Arch::avx512 && half_rate && k > 4 && (direct ? k <= 32 : any_k || k <= 64) &&
         m >= 2 * gemm_kernels<T>(arch).mr && (n > 32 || n % 8 == 0 || n % 8 > 4) && (!units || n >= 16);
}

// A real direct product's table on the main path: the narrow tile where
// narrow_tile takes it, the main one otherwise.
template <typename T>
const GemmKernels<T> &direct_kernels(const tblasContext *h, int64_t m, int64_t n, int64_t k) {
  return narrow_tile<T>(h->arch, h->zmm_half_rate, m, n, k, true, false) ? gemm_kernels_narrow<T>(h->arch)
                                                                          : gemm_kernels<T>(h->arch);
}

// On a half-rate core, rows past the last whole 512-bit vector, at most
// half of one (f64 1–4, f32 1–8), with op(A) in place: those rows on the
// AVX2 table's tiles after the rest. A 256-bit FMA costs half of a
// 512-bit one there, and the AVX-512 tile spent a whole vector on them
// (dgemm 17×n×k: 3 vectors per column and k-step for 17 rows). Direct
// tiles of either table run the same FMAs per element (no k blocking),
// so the same bits. The second pass costs a fixed ~40 ns, hence n·k ≥
// 256. Zen 4, 1 thread, builds alternating in one process (15 rounds),
// speed ÷ before: dgemm 17³ / 18³ / 20³ / 12×20×20 1.09–1.11 / 1.11 /
// 1.06 / 1.09, 17×12×25 1.21, 20×16×20 1.11; sgemm 17³ / 18³ / 20³
// 1.09 / 1.09–1.11 / 1.06–1.07, 33×17×17 1.12; below the n·k floor it
// read 0.73–0.92 (dgemm 9³ / 10×12×12, sgemm 17×8×8 / 18×5×18); dgemm
// 25×16×16 (three passes) 0.975.
template <typename T>
int64_t half_rate_tail(const tblasContext *h, int64_t m, int64_t n, int64_t k, const GemmOperand<T> &A) {
  return h->arch == Arch::avx512 && h->zmm_half_rate && n * k >= 256 && a_columns_in_place(A)
             ? half_vector_tail(m, kZmm<T>)
             : 0;
}

// Full-rate AVX-512, op(B)'s rows contiguous (op T): the rows of C past
// the main tile's last whole MR rows, where they fill at most half of one
// vector (f64 m % 16 = 1–4, f32 m % 32 = 1–8), taken by the row-vector
// tiles beside a one-thread direct product instead of a vector of their
// own on the main tiles (dgemm NT 17³: 3 vectors per column and k-step for
// 17 rows, the 17th row's two tiles ~45 ns of the call's ~190; OpenBLAS's
// whole call ~160). op(A) = N: read in place, so the counts whose tile
// reads no row past m (cols_n_rows: 1, 2 (f32), 4–8); op(A) = T: its rows in place
// (run_rows_t), any count, the top rows packed for the main tiles as
// before. No plan and no second call, where the planned k-grouped tail
// (kgroup_tail_rows) costs more than it saves below 32×32 elements of B.
// Up to row_vec_kc steps the row-vector tiles sum each element in one
// k block, as the direct tiles do, and write it back as they do
// (alpha·sum, then + beta·C in one rounding): the same bits as the main
// tiles, whichever path a call takes (Gemm.TailRowsBitwise*). Zen 5, 1
// thread, builds as peers (9–15 rounds), speed ÷ before: dgemm NT 17³ /
// 20³ / 33³ / 36³ 1.16 / 1.15 / 1.04 / 1.03, 17×8×64 1.24, 17×4×17 1.09,
// 33×8×33 1.14; sgemm NT 33³ / 36³ / 40³ / 72³ 1.06 / 1.06 / 1.01 / 1.02,
// 33×8×33 1.15; dgemm TT 17³ / 20³ / 33³ 1.20 / 1.10 / 1.02, 17×4×17
// 1.14; sgemm TT 33³–100³ 1.01–1.04, 33×8×33 1.34; 65³–100³ otherwise
// 1.00–1.01. Not below MR rows (f32 17–31, which the main tile's shifted
// second vector covers in one pass): there sgemm NT 17³ / 24³ read 0.95 /
// 0.93, 17×4×17 0.71.
// (Out of line: inlined, its checks were evaluated on every call through
// gemm_execute, tails or not: sgemm 16³ +2 ns.)
template <typename T>
__attribute__((noinline)) int64_t row_vec_tail(const tblasContext *h, int64_t m, int64_t k, const GemmOperand<T> &A,
                                                const GemmOperand<T> &B) {
  if (!rows_contiguous(B) || h->zmm_half_rate) return 0;
  const KGroupKernels<T> *kg = gemm_kernels_kgroup<T>(h->arch);
  const bool a_cols = a_columns_in_place(A);
  if (!kg || k > kg->row_vec_kc || !(a_cols || rows_contiguous(A))) return 0;
  // The AVX-512 main tiles are two vectors tall (f64 16, f32 32 rows), a
  // constant, so the remainder is a mask, not a division (~10 ns of a tiny
  // call), while the table says so.
  constexpr int64_t mr = 2 * kZmm<T>;
  if (gemm_kernels<T>(h->arch).mr != mr) return 0;
  const int64_t tail = half_vector_tail(m, mr);
  return tail <= kZmm<T> / 2 && (!a_cols || (kg->cols_n_rows >> tail & 1u)) ? tail : 0;
}

// op(A)'s workspace for the direct tiles of K over `rows` rows (whole MR
// panels, slot 0), or null where they read it in place; false when it
// cannot be had.
template <typename T>
bool direct_a_workspace(tblasContext *h, const GemmKernels<T> &K, const GemmOperand<T> &A, int64_t rows, int64_t k,
                        T *&Ap) {
  Ap = nullptr;
  if (a_columns_in_place(A)) return true;
  if (!h->workspace.reserve(1, size_t(ceil_div(rows, K.mr) * K.mr) * size_t(k) * sizeof(T), 0)) return false;
  Ap = static_cast<T *>(h->workspace.a(0));
  return true;
}

// direct_one_thread with its last `tail` rows apart: the rows above on the
// direct tiles, then the tail on a half-rate core on the AVX2 table's tiles
// (half_rate_tail), on a full-rate one on the row-vector tiles
// (row_vec_tail; op(A) = N read in place, op(A) = T its rows in place
// beside the packed top rows). Out of line: as a third copy of direct_real
// inside direct_one_thread it cost sgemm 16³, which never takes it, 1.5 %.
template <typename T>
__attribute__((noinline)) tesseraStatus_t direct_rows_then_tail(tblasContext *h, int64_t m, int64_t n, int64_t k,
                                                                const T *alpha, const GemmOperand<T> &A,
                                                                const GemmOperand<T> &B, const T *beta, T *C,
                                                                int64_t ldc, int64_t tail) {
  const int64_t top = m - tail;
  const GemmKernels<T> &K = direct_kernels<T>(h, top, n, k);
  T *Ap;
  if (!direct_a_workspace(h, K, A, top, k, Ap)) return TESSERA_STATUS_ALLOC_FAILED;
  direct_real(K, k, alpha[0], A, B, beta[0], C, ldc, Triangle::all, 0, top, 0, n, Ap);
  if (h->zmm_half_rate) {
    direct_real(gemm_kernels<T>(Arch::avx2), k, alpha[0], A, B, beta[0], C, ldc, Triangle::all, top, m, 0, n,
                static_cast<T *>(nullptr));
    return TESSERA_STATUS_SUCCESS;
  }
  const KGroupKernels<T> &kg = *gemm_kernels_kgroup<T>(h->arch);
  if (a_columns_in_place(A)) kg.run_cols_n(k, alpha[0], A.p + top, A.cs, B.p, B.rs, beta[0], C + top, ldc, tail, n, n);
  else kg.run_rows_t(k, alpha[0], A.p + top * A.rs, A.rs, B.p, B.rs, beta[0], C + top, ldc, tail, n, n);
  return TESSERA_STATUS_SUCCESS;
}

// A real product on one thread through the direct tiles' panel loop, with
// no plan, pool lease or work units (~40 ns of a 4×4×4 dgemm's 70 when it
// went through them; OpenBLAS's whole call: 30): op(A) read in place when
// its columns are contiguous and otherwise packed once into workspace slot
// 0, as run_direct packs it. The same kernel calls as the planned direct
// path, so the same results. kcol: the column table gemm_rows chose (n <= 2),
// or null.
template <typename T>
tesseraStatus_t direct_one_thread(tblasContext *h, const GemmKernels<T> *kcol, int64_t m, int64_t n, int64_t k,
                                  const T *alpha, const GemmOperand<T> &A, const GemmOperand<T> &B, const T *beta, T *C,
                                  int64_t ldc) {
  // One full row vector and n a multiple of 16 (f32, AVX-512): the row
  // vector × 16-column tile (16 FMA chains) instead of 12 + 4 columns,
  // whose 4-column tile waits on FMA latency. Zen 5, tables alternating
  // in one process, time ÷ the main table's: sgemm 16×16×k (k = 1..64)
  // 0.82–0.87, 16×32×32 0.94, 16×48 0.94, 16×64×64 0.92; where n leaves a
  // partial panel (13, 20, 24, 28, 36) or m < 16 it read 0.93–1.17, so the
  // main table stays there. Each element's FMAs are the same in either
  // tile, so results do not change.
  if (m > kZmm<T> && !kcol)  // rows past a whole vector: the two tail rules
    if (const int64_t tail = h->zmm_half_rate ? half_rate_tail(h, m, n, k, A) : row_vec_tail(h, m, k, A, B); tail > 0)
      return direct_rows_then_tail(h, m, n, k, alpha, A, B, beta, C, ldc, tail);
  const GemmKernels<T> *K16 = gemm_kernels_narrow_c8<T>(h->arch);
  const bool wide16 = K16 != nullptr && m == K16->mr && n % K16->nr == 0;
  const GemmKernels<T> &K = kcol ? *kcol : wide16 ? *K16 : direct_kernels<T>(h, m, n, k);
  T *Ap;
  if (!direct_a_workspace(h, K, A, m, k, Ap)) return TESSERA_STATUS_ALLOC_FAILED;
  direct_real(K, k, alpha[0], A, B, beta[0], C, ldc, Triangle::all, 0, m, 0, n, Ap);
  return TESSERA_STATUS_SUCCESS;
}

// The tile table of a planned GEMM: the column table where gemm_rows chose
// one; complex, the AVX2 main tile in the half-rate window of k; real, the
// narrow tile where narrow_tile takes it (not beside the grouped tiles) —
// unless its 8 columns of C, a multiple of 4 KiB apart, would share one L1
// set: 6 columns (the AVX2 main tile) there (macro_kernel.h,
// half_rate_mid_k); otherwise the main table.
template <typename T, bool Complex>
const GemmKernels<T> &planned_kernels(const tblasContext *h, const GemmKernels<T> *kcol, bool grouped, int64_t m,
                                      int64_t n, int64_t k, bool direct, int64_t ldc) {
  if (kcol) return *kcol;
  if constexpr (Complex) {
    if (half_rate_mid_k<T>(h, k, direct)) return half_rate_mid_k_complex<T>(n, ldc, true);
    // zgemm within the direct path's size on a half-rate core: the 512-bit
    // 4×4 (one row vector of 4 complex, folded broadcasts) instead of the
    // 8×6. Zen 4, 1 thread, tables alternated in one process (11 rounds),
    // speed ÷ the 8×6's: 8³ / 12³ / 16³ / 20³ / 24³ / 32³ 1.15 / 1.09 / 1.07
    // / 1.14 / 1.04–1.06 / 1.08, 40³ / 48³ / 64³ 1.02–1.04, 64×64×32 1.03,
    // 16×64×16 1.09, 64×16×64 1.02, 100×20×20 1.11, 20×100×20 0.98; builds
    // side by side (`--peer-lib Old=`) 1.02–1.26. On a one-thread handle,
    // or below the flop rule's cold floor for two threads (5e5 flops, 39³):
    // split over 2, 44³–56³ read 0.95–0.99 (48³ 0.92 between builds), and
    // zgemm 128³ (the direct path's one-KC extension) 0.90 in session 38.
    // (Frequent calls may still get two threads from 2e5 flops, 30³, by the
    // hot floor, macro_kernel.h: zgemm 32³ 2T then read 1.72× the best peer,
    // `gemm40b`.) cgemm's 8×8 was mixed here (16×64×16
    // 0.95, 12³ 0.92, 8³ 1.35): not taken.
    const double macs = double(m) * double(n) * double(k);
    if (sizeof(T) == 8 && direct && h->arch == Arch::avx512 && h->zmm_half_rate && macs <= kDirectMaxMacsComplex &&
        (h->num_threads == 1 || 8.0 * macs < 2.0 * kMinFlopsPerThread))
      return gemm_kernels_narrow<T>(Arch::avx512);
  } else {
    if (!grouped && narrow_tile<T>(h->arch, h->zmm_half_rate, m, n, k, direct, true))
      return narrow_columns_alias<T>(h, ldc, k, direct) ? gemm_kernels<T>(Arch::avx2)
                                                        : gemm_kernels_narrow<T>(h->arch);
  }
  return gemm_kernels<T>(h->arch);
}

// Rows of C below a gemm_rows call's m that gemm_execute leaves to the
// k-grouped tiles (kgroup_tail_rows): A from op(A)'s first such row. `done`:
// the call's units computed them (see gemm_rows).
template <typename T>
struct RowTail {
  int64_t rows;
  GemmOperand<T> A;
  bool done;
};

template <typename T, bool Complex>
tesseraStatus_t gemm_rows(tblasContext *h, int64_t m, int64_t n, int64_t k, const T *alpha, const GemmOperand<T> &A,
                          const GemmOperand<T> &B, const T *beta, T *C, int64_t ldc,
                          RowTail<T> *tail = nullptr) {
  // m, n > 0 and h->last_arch / last_threads (1) set: gemm_execute.
  constexpr int s = Complex ? 2 : 1;
  const bool beta_one = is_one<T, Complex>(beta);
  if (is_zero<T, Complex>(alpha) || k == 0) {
    if (!beta_one) scale_block<T>(s, m, n, beta, C, ldc);
    return TESSERA_STATUS_SUCCESS;
  }

  const double macs = double(m) * double(n) * double(k);
  const InPlaceRows<T> ipr = kgroup_in_place<T, Complex>(h->arch, m, n, k, A, B);
  const bool kgt = ipr.run != nullptr;
  if (kgt && under_two_threads<T>(h, macs)) {  // one thread by the flop rule: no plan
    ipr.run(k, alpha[0], A.p, ipr.lda, B.p, ipr.ldb, beta[0], C, ldc, m, n, n);
    return TESSERA_STATUS_SUCCESS;
  }
  // At most half a vector of rows (f32 8, f64 4): the k-grouped tiles
  // (gemm_kernels.h) where op(B)'s columns are contiguous, the column-grouped
  // ones where its rows are; op(A) packed by each thread (gemm_task).
  const KGroupKernels<T> *kg = Complex || kgt ? nullptr : gemm_kernels_kgroup<T>(h->arch);
  const KGroupUse<T> kgu = kg ? kgroup_use(*kg, A, B, n) : KGroupUse<T>{};
  if (kg && (m > kgu.rows || !kgroup_takes_b(B, k))) kg = nullptr;
  T *kg_a = nullptr;
  if (kg) {
    if (!h->workspace.reserve(1, kgroup_a_bytes(*kg, k), 0)) return TESSERA_STATUS_ALLOC_FAILED;
    kg_a = static_cast<T *>(h->workspace.a(0));
    kgu.pack(m, k, A.p, A.rs, A.cs, kg_a);
    if (under_two_threads<T>(h, macs)) {  // one thread by the flop rule: no plan
      kgu.run(k, alpha[0], kg_a, B.p, kgu.ldb, beta[0], C, ldc, m, n, n);
      return TESSERA_STATUS_SUCCESS;
    }
  }
  // One or two columns (matrix × vector shapes) with op(A)'s columns
  // contiguous: the column tables' tiles on the direct path at any size — A
  // read once, in place; the main tiles computed 4 columns for 1 or 2 there
  // (their narrowest), and above the direct size the blocked path packed all
  // of A first.
  const GemmKernels<T> *kcol =
      Complex || kg || n > 2 || !a_columns_in_place(A) ? nullptr : gemm_kernels_column<T>(h->arch, n);
  // Tiny real problems (one thread by the flop rule): direct_one_thread.
  // A one-thread handle takes the same path up to the direct limit: the
  // plan would split nothing.
  // Past the size limit, k within one KC block with short columns (direct_one_kc).
  const bool direct = kcol || (!kg && !kgt && (macs <= gemm_direct_max_macs<T, Complex>(h->arch, B, k) ||
                                       direct_one_kc<T, Complex>(h, m, n, k, A)));
  const bool one_thread = (h->num_threads == 1 && direct) ||
                          under_two_threads<T>(h, macs);  // 2·macs flops: under two threads' worth
  if (!Complex && !kg && !kgt && one_thread) return direct_one_thread(h, kcol, m, n, k, alpha, A, B, beta, C, ldc);

  Level3Plan<T> p;
  p.K = &planned_kernels<T, Complex>(h, kcol, kg || kgt, m, n, k, direct, ldc);
  p.s = s;
  p.m = m;
  p.n = n;
  p.k = k;
  p.A = A;
  p.B = B;
  p.alpha[0] = alpha[0];
  p.alpha[1] = Complex ? alpha[1] : T(0);
  p.beta[0] = beta[0];
  p.beta[1] = Complex ? beta[1] : T(0);
  p.C = C;
  p.ldc = ldc;
  p.tri = Triangle::all;
  p.c_cached = double(m) * double(n) * s * sizeof(T) <= kCCachedBytes;
  p.direct = direct;
  set_blocking(p, h);
  if (kgt) {  // units of whole row blocks and tiles of columns; both operands in place
    p.kg_run_t = ipr.run;
    p.kg_ldb = ipr.ldb;
    p.kg_lda = ipr.lda;
    p.mr_e = ipr.rows;
    p.nr = ipr.cols;
    p.b_in_place = p.a_in_place = true;
  } else if (kg) {  // one row tile; units in column steps (run takes any n); op(A) packed per thread
    p.kg = {kgu.run, kgu.pack, A, m, 0, kgu.ldb, 0};
    p.kg_a = kg_a;
    p.mr_e = kgu.rows;
    p.nr = kg->nr;
    p.b_in_place = p.a_in_place = true;
  } else {
    choose_in_place(p);
  }
  p.m_tiles = ceil_div(m, p.mr_e);
  p.n_tiles = ceil_div(n, unit_cols(p));

  const double flops = 2.0 * double(m) * double(n) * double(k) * s * s;
  int threads = 1;
  ThreadPool::Lease lease = lease_threads<T>(h, flops, p.m_tiles * p.n_tiles, &threads);
  choose_units(p, threads, flops);
  // After the grid: a work unit of fewer than 3 column panels (threads
  // splitting n) prefetches too densely (sgemm 4000×64×4000 2T 0.95).
  choose_pack_ahead(p, h, std::min(n, ceil_div(p.n_tiles, p.tn) * unit_cols(p)));

  // Workspace: per thread, the A block and the B panel of the unit it runs.
  const int64_t rows = ceil_div(p.m_tiles, p.tm) * p.mr_e;  // elements
  const int64_t cols = ceil_div(p.n_tiles, p.tn) * unit_cols(p);
  p.ws = &h->workspace;
  if (!reserve_workspace(p, *p.ws, threads, rows, cols)) return TESSERA_STATUS_ALLOC_FAILED;
  // The tail rows below, on more than one thread with units side by side:
  // each unit computes its own columns' tail after its tiles. As a product
  // of its own after this one, the tail ran on one thread (under two
  // threads' work) and the caller wrote the last lines of every column of
  // C, which the other thread's units then fetched back from its core on
  // the next call: a loop of sgemm 82³ on 2 threads took 6.9 µs where the
  // 80 rows alone took 4.7 and the tail 0.4. Each tail element is the same
  // k-grouped sum in any column range, so the same bits.
  if (!Complex && tail && tail->rows > 0 && threads > 1 && p.tm == 1 && !kg && !kgt) {
    const KGroupKernels<T> &tkg = *gemm_kernels_kgroup<T>(h->arch);
    const KGroupUse<T> use = kgroup_use(tkg, tail->A, B, n);
    const size_t offset = (workspace_bytes(p, rows, cols).first + 63) / 64 * 64;
    if (!p.ws->reserve(threads, offset + kgroup_a_bytes(tkg, k), 0)) return TESSERA_STATUS_ALLOC_FAILED;
    p.tail = {use.run, use.pack, tail->A, tail->rows, m, use.ldb, offset};
    tail->done = true;
  }
  // Each thread's copy of op(A) (slot 0's, kg_a, holds already: reserve only grows).
  if (kg && !p.ws->reserve(threads, kgroup_a_bytes(*kg, k), 0)) return TESSERA_STATUS_ALLOC_FAILED;

  h->last_threads = threads;
  lease.run(threads, &gemm_task<T>, &p);
  return TESSERA_STATUS_SUCCESS;
}

// Tiny real products: a few dozen to a few hundred multiply-adds, where
// the rules that choose among the grouped, row-vector and direct tiles
// (kgroup_tail_rows, kgroup_in_place, gemm_rows, direct_one_thread) cost
// more than the product does — perf of dgemm 2³ / 4³ put over half of a
// 36 ns call in the k-grouped tiles' packing, workspace and dispatch. They
// go straight to the tiles (gemm_tiny): at most 12 columns (one panel of
// the main tiles; wider, with 1–2 rows, the row-vector and k-grouped tiles
// were faster: NT 1×32×8 0.56×), k <= 16, up to 256 multiply-adds or 8
// rows. With op(A) packed (op T), k <= 8 and more than 2 rows beyond 32
// multiply-adds: there the row-stacked TN tiles (from k = 16 / 8 with one
// column) and the k-grouped ones, which pack op(A) more cheaply, stay
// faster. Each element is summed in order of k from +0, never in the
// grouped tiles' lane sums, so the shape alone decides, for any thread
// count; and op(A)'s form is asked only at <= 12 columns, where the TN
// tiles' own rule asks it (TransposedABitwise: n >= 13). One row of op(A)
// counts as in place whatever op(A) is (gemm_execute).
inline bool tiny_gemm(int64_t m, int64_t n, int64_t k, bool a_in_place) {
  if (k > 16 || m > 256 || n > 12 || (m * n * k > 256 && m > 8)) return false;
  return a_in_place || (k <= 8 && (m > 2 || m * n * k <= 32));
}

// Whether the split-chain tiles (RowSplit, ColSplit) take a call of their
// shape: under the lowest two-thread floor of any handle (2 ·
// kMinFlopsPerHotThread of thread_work: f64 2·10⁵, f32 4·10⁵ multiply-adds
// on a full-rate core, 10⁵ on a half-rate one), so no call they take would
// have run on two threads — they run on one. Past it (k in the hundreds of
// thousands) B streams from memory and the other tiles' two threads win:
// Zen 5, 2-thread handle, dgemm NT 4×8×500000 0.90 ms on them against 1.96
// on RowSplit, sgemm NN 16×4×10⁶ 2.6 against 4.0 on ColSplit. A property
// of the machine and the call's shape, not of the thread count: the same
// bits on any handle.
template <typename T>
inline bool split_one_thread(const tblasContext *h, int64_t m, int64_t n, int64_t k) {
  return thread_work<T>(h, 2.0 * double(m) * double(n) * double(k)) < 2 * kMinFlopsPerHotThread;
}

// A tiny product (tiny_gemm): the table's tiny kernel (ukr_tiny: no tile
// set-up, no packing) where op(A) is in place with at most one vector of
// rows and 8 columns (its vector loop: 3³ / 5³ / 6³ / 4×1×16 1.5–1.6× the
// direct tiles, 8³ 1.02–1.06) or the product has at most 32
// multiply-adds with 9 elements or op(A) = T, whose rows its scalar loop
// reads in place (1×1×1 16 against 26 ns, TN 3³ 30 against 43 on the
// tiles); otherwise the direct tiles with op(A) in place on the main
// table, or packed into a stack buffer (not the handle's workspace) for
// the table of the narrowest row vector that holds m — on AVX-512 the AVX2
// table's 256-bit one where m fits it: transposing op(A) in 16 × 16 f32
// blocks for a few rows cost sgemm TN 6³ a tenth of the call.
// Out of line: its stack buffer (4 KiB for f64) in gemm_execute's frame
// cost every other call the frame's set-up (TN 2×4×16, not tiny, 0.95×).
template <typename T>
__attribute__((noinline)) tesseraStatus_t gemm_tiny(tblasContext *h, int64_t m, int64_t n, int64_t k,
                                                    const T *alpha, const GemmOperand<T> &A, const GemmOperand<T> &B,
                                                    const T *beta, T *C, int64_t ldc) {
  const bool in_place = a_columns_in_place(A);
  const GemmKernels<T> &Km = gemm_kernels<T>(h->arch);
  if ((in_place && m <= Km.tiny_rows && n <= 8) || ((m * n <= 9 || !in_place) && m * n * k <= 32)) {
    Km.ukr_tiny(m, n, k, alpha[0], A.p, A.rs, A.cs, B.p, B.rs, B.cs, beta[0], C, ldc);
    return TESSERA_STATUS_SUCCESS;
  }
  const GemmKernels<T> &K2 = gemm_kernels_narrow<T>(Arch::avx2), &Kn = gemm_kernels_narrow<T>(h->arch);
  const GemmKernels<T> &K = in_place                                ? Km
                            : h->arch == Arch::avx512 && m <= K2.mr ? K2
                            : m <= Kn.mr                            ? Kn
                                                                    : Km;
  // Packed op(A), ceil(m / mr) panels of mr × k: tiny_gemm keeps k <= 8
  // there and m·k <= 256, so at most (m + 31)·k elements with mr <= 32.
  constexpr int64_t kCap = 256 + 31 * 8;
  alignas(64) T ap[kCap];
  assert(in_place || (m + K.mr - 1) / K.mr * K.mr * k <= kCap);
  if (!in_place && m <= Km.tiny_rows && n <= 8 && m >= 4 && m * k <= 36) {
    // op(A) = T with a few rows and steps: one micro-panel of the table
    // above (column by column, K.mr apart) for the vector loop instead of
    // the direct tiles (TN / TT 5³ / 6³ 1.15–1.36×, 4³ 0.97–1.05; 8³ and
    // 8×4×8 lost 0.79–0.88, 3 rows even).
    K.pack_a(m, k, A.p, A.rs, A.cs, ap);
    Km.ukr_tiny(m, n, k, alpha[0], ap, 1, K.mr, B.p, B.rs, B.cs, beta[0], C, ldc);
    return TESSERA_STATUS_SUCCESS;
  }
  direct_real(K, k, alpha[0], A, B, beta[0], C, ldc, Triangle::all, 0, m, 0, n, ap);
  return TESSERA_STATUS_SUCCESS;
}

}  // namespace

// A tail of at most half a row vector (kgroup_tail_rows) runs on the
// k-grouped tiles: inside the units of the rows above it where those split
// over threads by columns (gemm_rows), else as its own product after them,
// planned and split on its own. Its workspace (op(A) packed in lane order)
// is reserved first, so a failed allocation leaves C untouched. Results
// stay bitwise the same for any thread count.
template <typename T, bool Complex>
tesseraStatus_t gemm_execute(tblasContext *h, int64_t m, int64_t n, int64_t k, const T *alpha,
                             const GemmOperand<T> &A, const GemmOperand<T> &B, const T *beta, T *C, int64_t ldc) {
  // Tiny real products that gemm_rows would hand to direct_one_thread, sent
  // there first: no grouped tile reading op(A) in place (op(A)'s columns
  // contiguous, asked first as the cheaper test, or no kgroup_in_place
  // product: op(A) = T is packed there as gemm_rows would pack it), more
  // rows than the grouped tiles take, more than two columns (not the column
  // tables), under one thread's flops and no k-grouped tail (or one that
  // direct_one_thread's row-vector tiles take, row_vec_tail). gemm_rows's
  // checks before that branch were a fifth of sgemm 16³ (perf: 23 of 115
  // ns; OpenBLAS's whole call 100). Zen 4, 1 thread, builds side by side (9
  // rounds), speed ÷ before: sgemm 12³ / 16³ / 24³ / 32³ 1.08 / 1.10 / 1.05
  // / 1.02, dgemm 1.06 / 1.06 / 1.03 / 1.01, 48³–64³ 1.00–1.01; op(A) = T
  // (session 48): dgemm / sgemm TT 12³–24³ 1.01–1.04. The same kernel calls,
  // the same bits. (alpha = 0 only scales C: no split, no workspace. k = 0
  // never splits.)
  h->last_arch = h->arch;
  h->last_threads = 1;
  if (m == 0 || n == 0) return TESSERA_STATUS_SUCCESS;  // Netlib's quick return, before any rule is asked
  const bool alpha_zero = is_zero<T, Complex>(alpha);
  if constexpr (!Complex)
    if (!alpha_zero && k > 0) {
      // One row of op(A) is a column read in place whatever op(A) is: its
      // elements k apart at A.cs (op T: contiguous), the row stride unused.
      const GemmOperand<T> A1{A.p, m == 1 ? 1 : A.rs, A.cs, A.conj};
      if (tiny_gemm(m, n, k, a_columns_in_place(A1))) return gemm_tiny(h, m, n, k, alpha, A1, B, beta, C, ldc);
      // Rows × vectors of columns up to 4 with op(B) = T (one row and up to
      // 4 vectors, two and 2, 3–4 and one): the split-chain tiles
      // (RowSplit), on one thread — the call's whole shape picks them, as
      // their sums are not the other tiles' — where no handle would give
      // the call a second thread (split_one_thread).
      if (m <= 4)
        if (const KGroupKernels<T> *kg = gemm_kernels_kgroup<T>(h->arch);
            kg && n <= kg->vec_cols * (kg->split_row_vectors >> (m == 1 ? 0 : m == 2 ? 1 : 2)) &&
            k >= kg->split_min_k && rows_contiguous(B) && split_one_thread<T>(h, m, n, k)) {
          if (a_columns_in_place(A1)) {
            kg->run_split_cols(k, alpha[0], A.p, A1.cs, B.p, B.rs, beta[0], C, ldc, m, n, n);
            return TESSERA_STATUS_SUCCESS;
          }
          if (rows_contiguous(A)) {
            kg->run_split_rows(k, alpha[0], A.p, A.rs, B.p, B.rs, beta[0], C, ldc, m, n, n);
            return TESSERA_STATUS_SUCCESS;
          }
        }
      // More than half and at most one vector of rows with op(A) = N and up
      // to 4 columns: the split-chain column tiles (ColSplit), likewise.
      if (n <= 4 && m > 4)
        if (const KGroupKernels<T> *kg = gemm_kernels_kgroup<T>(h->arch);
            kg && 2 * m > kg->vec_cols && m <= kg->vec_cols && n <= kg->split_cols && k >= kg->split_min_k &&
            a_columns_in_place(A) && split_one_thread<T>(h, m, n, k)) {
          kg->run_col_split(k, alpha[0], A.p, A.cs, B.p, B.rs, B.cs, beta[0], C, ldc, m, n);
          return TESSERA_STATUS_SUCCESS;
        }
    }
  const int64_t tail = alpha_zero ? 0 : kgroup_tail_rows<T, Complex>(h->arch, m, n, k, A, B);
  if constexpr (!Complex) {
    const KGroupKernels<T> *kg = gemm_kernels_kgroup<T>(h->arch);
    const bool one = !alpha_zero && k > 0 && under_two_threads<T>(h, double(m) * double(n) * double(k));
    const InPlaceRows<T> ipr =
        tail == 0 && !a_columns_in_place(A) ? kgroup_in_place<T, Complex>(h->arch, m, n, k, A, B) : InPlaceRows<T>{};
    // A product the grouped tiles read in place, under one thread's flops:
    // gemm_rows's first branch, taken here without asking the rule again
    // (its two calls and gemm_rows's entry were ~10 % of dgemm TN 16×4×64).
    if (ipr.run && one) {
      ipr.run(k, alpha[0], A.p, ipr.lda, B.p, ipr.ldb, beta[0], C, ldc, m, n, n);
      return TESSERA_STATUS_SUCCESS;
    }
    // A k-grouped tail (none of the grouped tiles takes the whole product
    // then) that row_vec_tail takes: there too, op(A) = T included.
    if ((tail == 0 ? !ipr.run : tail == row_vec_tail(h, m, k, A, B)) && one && n > 2 &&
        (!kg || m > std::max(kg->rows, kg->rows_cols)))
      return direct_one_thread(h, static_cast<const GemmKernels<T> *>(nullptr), m, n, k, alpha, A, B, beta, C, ldc);
  }
  if (tail == 0) return gemm_rows<T, Complex>(h, m, n, k, alpha, A, B, beta, C, ldc);
  if (!h->workspace.reserve(1, kgroup_a_bytes(*gemm_kernels_kgroup<T>(h->arch), k), 0))
    return TESSERA_STATUS_ALLOC_FAILED;
  const int64_t top = m - tail;
  const GemmOperand<T> At{A.p + top * A.rs, A.rs, A.cs, A.conj};
  RowTail<T> rt{tail, At, false};
  const tesseraStatus_t st = gemm_rows<T, Complex>(h, top, n, k, alpha, A, B, beta, C, ldc, &rt);
  if (st != TESSERA_STATUS_SUCCESS || rt.done) return st;
  const int threads = h->last_threads;
  const tesseraStatus_t st2 = gemm_rows<T, Complex>(h, tail, n, k, alpha, At, B, beta, C + top, ldc);
  h->last_threads = std::max(threads, h->last_threads);
  return st2;
}

template tesseraStatus_t gemm_execute<float, false>(tblasContext *, int64_t, int64_t, int64_t, const float *,
                                                     const GemmOperand<float> &, const GemmOperand<float> &, const float *,
                                                     float *, int64_t);
template tesseraStatus_t gemm_execute<double, false>(tblasContext *, int64_t, int64_t, int64_t, const double *,
                                                      const GemmOperand<double> &, const GemmOperand<double> &, const double *,
                                                      double *, int64_t);
template tesseraStatus_t gemm_execute<float, true>(tblasContext *, int64_t, int64_t, int64_t, const float *,
                                                    const GemmOperand<float> &, const GemmOperand<float> &, const float *,
                                                    float *, int64_t);
template tesseraStatus_t gemm_execute<double, true>(tblasContext *, int64_t, int64_t, int64_t, const double *,
                                                     const GemmOperand<double> &, const GemmOperand<double> &, const double *,
                                                     double *, int64_t);

}  // namespace tessera::dense
