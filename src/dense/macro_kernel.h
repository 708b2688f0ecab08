// The blocked macro-kernel shared by every level-3 operation: GotoBLAS/BLIS
// loops over NC/KC/MC blocks, packing through the ISA table's packers, and the
// micro-kernel on each MR×NR tile. GEMM runs every tile; SYRK/HERK run it
// triangle-aware (BLIS's gemmt idea): tiles outside the stored triangle are
// skipped, and the kernel, told where the diagonal is, masks the loads and
// stores of the tiles that cross it, so the other triangle is never read or
// written. Each element's arithmetic is the same in every tile, so results do
// not depend on the thread count or on how tiles are grouped into calls.
// Internal header (templates): included by the level-3 drivers only.
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "core/handle.h"
#include "core/thread_pool.h"
#include "core/workspace.h"
#include "dense/gemm_driver.h"
#include "dense/kernels/gemm_kernels.h"

namespace tessera::dense {

// x / mr for x >= 0 and a register-tile height mr: every table's MR (and MRC)
// is a power of two, so a shift — the divisions by a run-time mr showed in
// tiny calls (two idivs per tile column of a 13×13 csyrk, ~15 cycles each).
inline int64_t tile_index(int64_t x, int64_t mr) { return x >> __builtin_ctzll(uint64_t(mr)); }

// A thread must get at least this many flops to be worth waking: dispatch to a
// spinning worker costs ~1 µs, to a sleeping one tens of µs, and this much work
// takes ~5 µs at one core's f64 peak.
constexpr double kMinFlopsPerThread = 2.5e5;
// While calls come often (ThreadPool::calls_frequent: within ~the spin time
// of each other, as in any loop of GEMMs) the workers spin, joining costs
// ~0.3 µs, and this much suffices. Zen 4, 2 threads, one build switching by an environment
// variable (2 runs each), Tessera's GF/s at 1.0e5 ÷ at 2.5e5: sgemm 48³ /
// 52³ / 56³ / 60³ 1.23 / 1.08 / 1.07 / 1.41, dgemm 1.46 / 1.28 / 1.52 /
// 1.36, cgemm / zgemm 32³ 1.36 / 1.57, 36³ 1.67 / 1.74; ssyrk / dsyrk 64
// 1.27–1.36 / 1.37–1.49, csyrk / zsyrk 48 1.56 / 1.55–1.66; 24³–44³ and
// complex 40³–64³ (two threads either way) 0.98–1.04. With the workers
// asleep (calls 5 ms apart) a 2-thread dgemm 48³ took 20–24 µs against
// 10–12 on one thread (the wake-up): hence only for frequent calls.
constexpr double kMinFlopsPerHotThread = 1.0e5;

// The work the two shares above are compared with: a call's flops on the
// core kind they were measured on (Zen 4: 512-bit operations at half rate),
// and a fraction of them on a core with full-rate 512-bit FMAs (Zen 5),
// which runs the same call in half the time (f64) or less, and whose second
// thread paid off only from ~4 µs of one-thread work. Zen 5, hot calls, 2
// threads' speed ÷ 1 thread's (one process, 15 rounds): sgemm 56³ / 64³ /
// 72³ / 80³ / 96³ 0.51 / 0.86 / 0.66 / 1.22 / 1.42, dgemm 48³ / 56³ / 64³
// 0.82 / 0.96 / 1.15, cgemm 32³ / 36³ / 40³ / 48³ 0.62 / 0.80 / 1.02 /
// 1.17, zgemm 32³ / 36³ / 40³ / 48³ 0.95 / 1.10 / 1.26 / 1.44 — hence f64
// at half its flops, f32 (real or complex) at a quarter (unless the handle
// counts work in full: thread_work_scaled).
template <typename T>
inline double thread_work(const tblasContext *h, double flops) {
  if (!h->thread_work_scaled || h->arch != Arch::avx512 || h->zmm_half_rate) return flops;
  return flops * (sizeof(T) == 4 ? 0.25 : 0.5);
}

// Whether a real call of `macs` multiply-adds stays on one thread without a
// plan: under two threads' worth of its 2·macs flops (thread_work) as
// lease_threads would count them — at the cold share on a one-thread handle
// (calls_frequent not asked), else ThreadPool::two_threads_pay's rule, with
// the call's one answer of calls_frequent (h->calls_frequent).
// Thread counts never change results.
template <typename T>
inline bool under_two_threads(tblasContext *h, double macs) {
  return !ThreadPool::instance().two_threads_pay(thread_work<T>(h, 2 * macs), kMinFlopsPerThread,
                                                 h->num_threads <= 1 ? 0 : kMinFlopsPerHotThread,
                                                 &h->calls_frequent);
}

// Real problems up to this many multiply-adds skip packing (the direct kernel
// reads A and B in place): below it, packing costs a large share of the work.
constexpr double kDirectMaxMacs = 80.0 * 80.0 * 80.0;
// f64 further: the blocked path packs f64 A (in place it lost where k
// dominates, see choose_in_place), which costs more per flop than in f32,
// while the direct kernel reads A's columns in place. Direct against blocked,
// 1 thread, alternating builds: dgemm NN / NT 96³ 1.08 / 1.10×, 128³ 1.07 /
// 0.99×, 160³ 1.05 / 1.05×, 200×100×100 1.07×, 64×64×1000 1.10 / 1.04×,
// 96×48×880 1.19 / 1.10×, 32×32×4000 1.11 / 0.95×; TN (A packed either
// way) 0.98–1.01×; dsyrk N (L / U) 128×128 1.09 / 1.10×, 200×100 1.07 /
// 1.09×, 64×500 1.21×, 100×300 1.17 / 1.17×, T 0.97–1.04×. Up to 256³ it
// read 1.04–1.07× at 200³–256³ but 0.82× at NT 128×128×1000, hence 160³.
constexpr double kDirectMaxMacsF64 = 160.0 * 160.0 * 160.0;
// Complex: a multiply-add is 4 real ones, and the direct path still forms
// alpha·op(B) (and copies op(A) unless it is N), so it wins up to a similar
// size (measured).
constexpr double kDirectMaxMacsComplex = 64.0 * 64.0 * 64.0;
// The direct path's limit for an operation on T (GEMM and SYRK alike).
template <typename T, bool Complex>
constexpr double direct_max_macs() {
  return Complex ? kDirectMaxMacsComplex : sizeof(T) == 8 ? kDirectMaxMacsF64 : kDirectMaxMacs;
}
// GEMM's: as above, except f64 on AVX2 where op(B)'s rows are contiguous
// (op T) at a stride whose k rows do not stay in L1. Each 8-row tile walks
// them again, one line per k-step, and rows `rs` apart share 4096 /
// gcd(rs bytes, 4096) of L1's 64 sets (4 KiB a way; 8 ways assumed). AVX2, 1
// thread, dgemm NT blocked against direct: 128³ (4 sets) 1.15–1.17×, 160³
// 1.05×, 64×64×1000 1.11–1.12×; where the rows fit it lost (96³ 0.98×,
// 120×500×60 0.99×), hence the test. Not on AVX-512 (16-row tiles walk B half
// as often: NT 128³ 0.98×, 160³ 0.96× blocked), nor in SYRK N, whose op(A)^T
// is such a B (AVX2 dsyrk N 128×128 1.08× but 64×500 0.95× blocked).
inline bool b_rows_leave_l1(int64_t rs_bytes, int64_t k) {
  const int64_t sets = 4096 / std::max<int64_t>(std::gcd<int64_t>(rs_bytes, 4096), 64);
  return sets * 8 < k;
}
template <typename T, bool Complex>
double gemm_direct_max_macs(Arch arch, const GemmOperand<T> &B, int64_t k) {
  if (!Complex && sizeof(T) == 8 && arch == Arch::avx2 && rows_contiguous(B) &&
      b_rows_leave_l1(B.rs * int64_t(sizeof(T)), k))
    return kDirectMaxMacs;
  return direct_max_macs<T, Complex>();
}
// KC on this handle for a table: the handle's override (TESSERA_GEMM_KC),
// else the table's (complex: its complex KC where it has one).
template <typename T>
int64_t block_kc(const tblasContext *h, const GemmKernels<T> &K, bool complex) {
  if (h->gemm_kc > 0) return h->gemm_kc;
  return complex && K.kc_complex > 0 ? K.kc_complex : K.kc;
}

// Work units per thread: several, so that the split stays balanced when a
// thread starts late (shared or virtualised cores); fewer above kFewUnitsFlops
// (~10 ms on one core), where every extra unit repacks panels.
constexpr double kFewUnitsFlops = 4e8;
inline int units_per_thread(double flops) { return flops < kFewUnitsFlops ? 4 : 2; }

// Packing cost per element in cycles: packing streams from memory at ~7 GB/s
// here (profiled: 64×64×20000 spends a third of its time packing), ~3 cycles
// per 8-byte element. The work-split models weigh it against the multiply.
constexpr double kPackCycles = 3.0;

// Bytes of C a call may update and still find in the last-level cache the
// next time (Zen 5: 32 MiB of L3, shared with the host's other tenants):
// the complex kernels' k <= 4 loop reads C differently on either side of it
// (gemm_template.inc, small_k_cols: csyrk 1750×2, 12.25 MB, read 0.93
// of the time of the prefetching passes; 1900×2, 14.4 MB, even; 2048×2,
// 16.8 MB, 1.07–1.15).
constexpr double kCCachedBytes = 12.0 * 1024 * 1024;
// Bytes of op(A) past which a GEMM reading it in place streams it from
// memory (choose_in_place: the kernels prefetch the next row tile's lines,
// ukr_direct_stream). The same share of the L3 as C's: Zen 5, 1 thread, op(A)
// in place with and without the prefetch, the same operands every call:
// dgemm 1500×16×1000 (12 MB) 0.97–1.04, 2000×16×1000 (16 MB) 1.23–1.64,
// sgemm 3000×16×1000 0.89, 4000×16×1000 1.23; within the cache the
// prefetches cost 7–12 % (dgemm 1000×8×1000, 1000×16×1000, sgemm
// 1000×16×2000), from memory they gain 1.5–3× (dgemm 40000×8×200 6.3 → 2.3
// ms).
constexpr double kAStreamBytes = kCCachedBytes;

// Leases threads for a call of `flops` with at most `max_units` units of work.
template <typename T>
inline ThreadPool::Lease lease_threads(tblasContext *h, double flops, int64_t max_units, int *threads) {
  return ThreadPool::instance().acquire_for(h->num_threads, thread_work<T>(h, flops), kMinFlopsPerThread, max_units,
                                            threads, kMinFlopsPerHotThread, &h->calls_frequent);
}

// Rows [row0, row0 + rows) of C on the grouped tiles' run entry (kernel
// table KGroupKernels), op(B) in place (B(l, j) at the tiles' ldb), op(A)'s
// rows (A: from row row0) packed by each thread before its first unit at
// `offset` bytes into its workspace slot's A buffer.
template <typename T>
struct GroupedRows {
  typename KGroupKernels<T>::Run run = nullptr;
  typename KGroupKernels<T>::Pack pack = nullptr;
  GemmOperand<T> A{};
  int64_t rows = 0, row0 = 0, ldb = 0;
  size_t offset = 0;
};

// Every member has an initializer, so a plan is always fully defined. (GCC
// still clears it with one 256-byte `rep stos` before the drivers fill it in,
// as it did for the value-initialised plan this replaced: ~2 % of a tiny
// SYRK call.)
template <typename T>
struct Level3Plan {
  const GemmKernels<T> *K = nullptr;
  int s = 1;  // 2 for complex (native complex kernels), 1 for real
  int64_t m = 0, n = 0, k = 0;
  GemmOperand<T> A{}, B{};
  T alpha[2] = {}, beta[2] = {};
  T *C = nullptr;
  int64_t ldc = 0;
  int64_t mr_e = 0, nr = 0, kc_e = 0, mc_e = 0, nc = 0;  // blocking in elements of the operation's type
  bool direct = false;
  // Blocked path: operands read in place instead of packed (see
  // choose_in_place; complex: op(A) only); a_stream: op(A), in place,
  // streams from memory (ukr_direct_stream / ukr_complex_stream over each
  // block's panels).
  bool a_in_place = false, b_in_place = false, a_stream = false;
  // a_ahead: op(A) packed from memory, each block's tiles prefetching the
  // next block (choose_pack_ahead, ukr_packed_ahead).
  bool a_ahead = false;
  // a_ahead_rows: op(A)'s rows contiguous (op T), so the tiles fetch rows
  // (ukr_packed_ahead's pf_rows); otherwise its columns.
  bool a_ahead_rows = false;
  Triangle tri = Triangle::all;
  // HERK: real alpha and beta scale each part (Netlib's REAL*COMPLEX, no
  // cross terms), and the diagonal's imaginary part is set to zero.
  bool herk = false;
  // Complex: all of the C this call updates fits the last-level cache
  // (kCCachedBytes; the kernels' k <= 4 loop streams it differently).
  bool c_cached = false;
  // GEMM with a few rows (kg: all of C's rows), and C's rows past p.m
  // (tail: gemm_execute's tail of at most half a vector, on a grid of one
  // row of units, each unit running it over its own columns after its
  // tiles): the k- or column-grouped tiles (GroupedRows). run = null: none.
  GroupedRows<T> kg{}, tail{};
  // The caller's packed copy of kg's op(A) (its workspace slot 0).
  const T *kg_a = nullptr;
  // Or the grouped tiles reading op(A) in place (kgroup_in_place: its rows
  // contiguous and few columns, any m; or its columns and few rows), op(A)'s
  // rows or columns kg_lda apart, B(l, j) at kg_ldb's stride.
  typename KGroupKernels<T>::RunT kg_run_t = nullptr;
  int64_t kg_ldb = 0, kg_lda = 0;
  int tm = 1, tn = 1;  // GEMM: grid of work units over C's tiles (claimed dynamically by threads)
  int64_t m_tiles = 0, n_tiles = 0;
  std::vector<int64_t> strips;  // SYRK: column boundaries of the work units (empty: one unit, all columns)
  Workspace *ws = nullptr;
  // The next unit to claim; unit 0 is the caller's (slot 0) unclaimed.
  std::atomic<int> next_unit{1};
};

// Runs f(u) for work units u = 0 .. units-1, each once: claimed from
// p.next_unit (the pool contract: a late worker finds nothing left), or on a
// one-thread call in order without the atomic read-modify-writes (two
// `lock xadd` were 20 % of a 4×4×4 dgemm call). The caller (slot 0, which
// always runs) starts on unit 0 without claiming it: the counter's line is
// where the worker's last claim left it, in the other core's cache, and on
// this VM a line crossing cores takes ~200 ns (ping-pong, 2 vCPUs).
template <typename T, typename F>
inline void for_each_unit(Level3Plan<T> &p, int slot, int nslots, int units, F f) {
  if (nslots == 1) {
    for (int u = 0; u < units; ++u) f(u);
    return;
  }
  if (slot == 0 && units > 0) f(0);
  for (int u = p.next_unit.fetch_add(1, std::memory_order_relaxed); u < units;
       u = p.next_unit.fetch_add(1, std::memory_order_relaxed)) {
    f(u);
    // The counter only grows: after the last unit every claim fails, and
    // asking would fetch its line back from the other core (~150 ns here)
    // at the end of the thread that finishes last.
    if (u == units - 1) break;
  }
}

// Estimated cycles of a work unit that computes `elements` of C over all of
// k from `rows` rows of op(A) and `cols` columns of op(B): multiply-adds at
// full rate (2 × 256-bit FMA pipes; complex: 4 real FMAs each) plus
// kPackCycles per real value packed; operands read in place cost nothing
// extra but a streamed op(A) (a_stream), whose bytes come from memory at
// about kStreamBytesPerCycle — so a grid that has every unit read all of it
// costs more than one that splits its rows: dgemm 4000×48×4000 on 2 threads,
// split by columns (each thread streaming all 128 MB), had taken 0.83 of
// the packed path's time. A complex GEMM's op(A) read in place is priced so
// at any size: split by columns, each thread read all of it from the L3
// (zgemm 700×24×700 2T 0.76 ms against 0.61 split by rows; cgemm
// 1000×12×1000 0.35 against 0.33). The GEMM grid and the SYRK strips are
// both chosen with it.
constexpr double kStreamBytesPerCycle = 8.0;  // ~28 GB/s at 3.5 GHz: one core's DRAM reads here
template <typename T>
double unit_cycles(const Level3Plan<T> &p, double elements, double rows, double cols) {
  const double k = double(p.k), s = p.s;
  const double packed = (p.a_in_place ? 0 : rows) + (p.b_in_place ? 0 : cols);
  const bool a_read = p.a_stream || (s == 2 && p.a_in_place && p.tri == Triangle::all);
  const double streamed = a_read ? rows * k * s * sizeof(T) / kStreamBytesPerCycle : 0.0;
  return elements * k * s * s / (32.0 / sizeof(T)) + kPackCycles * packed * k * s + streamed;
}

// Register tile and cache blocks in elements of the operation's type: the ISA
// table's, or the handle's overrides rounded to whole micro-panels (MC to MR
// rows, NC to NR columns). The table's blocks are in real elements; a complex
// element is two, so complex keeps the same bytes per block: the MRC × NRC
// tile, KC complex k-steps (NRC·KC complex = NR·KC real: the B micro-panel
// stays in L1), MC/2 rows and NC/2 columns.
template <typename T>
void set_blocking(Level3Plan<T> &p, const tblasContext *h) {
  const int s = p.s;
  const int64_t kc = block_kc(h, *p.K, s == 2);
  const int64_t mc = h->gemm_mc > 0 ? ceil_div(h->gemm_mc, p.K->mr) * p.K->mr : p.K->mc;
  const int64_t nc = h->gemm_nc > 0 ? ceil_div(h->gemm_nc, p.K->nr) * p.K->nr : p.K->nc;
  const int shift = s - 1;  // s is 1 or 2: halving by shifts (divisions showed in tiny calls)
  p.mr_e = p.K->mr >> shift;
  p.nr = std::max(1, p.K->nr >> shift);
  p.kc_e = kc;
  p.mc_e = std::max<int64_t>(p.mr_e, mc >> shift);
  p.nc = std::max<int64_t>(p.nr, nc >> shift);
  // A k shorter than KC leaves the A block's L2 budget (MC × KC) mostly
  // unused: taller blocks keep its bytes and walk each column of C in one
  // long run (small k is C-bandwidth-bound: csyrk n=1000, k=1 streams 8 MB
  // of C for 4 Mflop). Whole micro-panels; the table's MC when k >= KC.
  if (!p.direct && p.k < p.kc_e && h->gemm_mc <= 0)
    p.mc_e = std::max(p.mc_e, p.mc_e * p.kc_e / std::max<int64_t>(p.k, 1) / p.mr_e * p.mr_e);
}

// An operand whose columns are contiguous, unconjugated and at most 512 bytes
// apart (s reals per element): what the kernels read in place at a constant
// short stride (choose_in_place; SYRK's narrow-tile choice asks the same).
template <typename T>
bool short_columns(const GemmOperand<T> &x, int s) {
  return x.rs == 1 && !x.conj && x.cs * int64_t(s * sizeof(T)) <= 512;
}

// op(A) with contiguous, unconjugated columns: what the real direct path
// reads in place (and the complex one, which also reads a lone row at any
// stride, below).
template <typename T>
bool a_columns_in_place(const GemmOperand<T> &A) {
  return !A.conj && A.rs == 1;
}

// Past the direct size limit (direct_max_macs), a product on AVX-512 still
// goes direct when k fits one KC block and op(A)'s columns span at most 2 KiB
// (f64 m <= 256, f32 m <= 512, complex half that; with k <= KC, op(A) then
// fits 768 KiB of the 1 MiB L2): the blocked path's packing buys nothing
// there — one k block either way, so the same FMAs per element and bitwise
// the same results — and A read
// again from L2 for each column panel costs less than packing it. Zen 5,
// direct ÷ blocked speed, 1 | 2 threads, median of 5 alternating runs: dgemm
// 256³ 1.08 | 1.15, 192³ 1.04 | 1.03, 256×2000×256 2T 1.05, NT / TN / TT 256³
// 1T 1.04–1.06; sgemm 256³ 1.07 | 1.06, 384³ 1.04 | 1.08, 512×512×384 1.03 |
// 1.03, 500×64×300 1.21; m small (dgemm 32×2000×256, sgemm 64×4000×384)
// 0.98–1.01. Taller op(A) read even at 3 KiB columns (dgemm 384×384×128
// 0.98 | 1.01, sgemm 768×768×128 0.99 | 1.01) and lost from 4 KiB (dgemm
// 512×512×256 0.84, 1024×1024×256 0.73, 2048×2048×32 0.77, sgemm
// 1024×1024×128 0.95) — its rows, not the stride: dgemm 256³ with lda 512 /
// 1024 still read 1.02 / 1.04 (lda 264: 1.07). AVX2 read even (dgemm 256³
// 0.98, sgemm 256³ / 384×384×256 0.99–1.01), so it keeps the size limit. k
// past KC (one direct block against several) with op(A) up to 768 KiB read
// 1.06–1.08 for dgemm 128×128×512 / 256×256×384 but 0.99 for sgemm
// 256×256×768 and lost at 1 MiB (dgemm 128×128×1000 0.95, 256×256×512 2T
// 0.81), so k <= KC it is — where the choice also leaves the bits alone.
// Complex only with op(A) read in place (op(A) packed — csyrk T — read 0.97–
// 1.01), and alpha·op(B), which the complex direct path forms for all of k
// and every column of a unit, within 1 MiB (for SYRK, n = m, always within
// it at the table's KC). Against the blocked path, 1 | 2 threads: cgemm
// 96³–256³ 1.00–1.03 | 1.04–1.10, zgemm 96³ / 128³ 1.05 / 1.00 | 1.05 /
// 1.07; csyrk LN 96 / 192 1.08 / 1.07 | 1.09 / 1.08.
// For an m × n product over k with op(A) = A.
template <typename T, bool Complex>
bool direct_one_kc(const tblasContext *h, int64_t m, int64_t n, int64_t k, const GemmOperand<T> &A) {
  constexpr int s = Complex ? 2 : 1;
  if (h->arch != Arch::avx512 || m * s * int64_t(sizeof(T)) > 2048) return false;
  if (Complex && (!a_columns_in_place(A) || double(n) * double(k) * s * sizeof(T) > 1048576.0)) return false;
  return k <= block_kc(h, gemm_kernels<T>(h->arch), Complex);
}

// On a core that runs 512-bit operations at half rate (Zen 4), blocked
// products with 16 <= k <= 96 (one KC block) run on the AVX2 table's 256-bit
// main tile — same KC (f32 384, f64 256, complex 384 / 192 k-steps), same
// FMAs per element, so the same bits — where:
//  * complex (GEMM, SYRK / HERK): instead of the 512-bit 16×6 / 8×6 complex tile
//    (since session 39 f64 and some f32 GEMMs take the 512-bit one-vector tiles
//    instead: half_rate_mid_k_complex below). Zen 4, 1 thread, the two tables
//    switchable at run time and alternated in one process with OpenBLAS (ZEN
//    kernels), median of 5 rounds, speed ÷ the 512-bit tile's over csyrk / zsyrk
//    LT and UN and cgemm / zgemm (m = n, op(A) = N, op(B) = T), n = 128–2000: k
//    = 16–96 1.00–1.09 (most 1.02–1.06; zsyrk LT 1000×96 0.99), 2 threads
//    1.00–1.06 — except zsyrk upper (UN / UT 500 × 32–64: 0.97–0.98), which
//    keeps the 512-bit tile on more than one thread (syrk_driver.cpp). Outside
//    the window the 512-bit tile wins or ties: k = 8 0.82–1.03 (n = 2000:
//    0.82–0.95, C from memory), k = 12 0.95–1.09, k = 128–384 0.98–1.04. Not
//    found why the smaller tile wins in the window: a stand-alone loop of the
//    512-bit tile's k-steps and write-back (C in L1) ran csyrk's k = 8 tiles at
//    87–90 % of peak, the library's at 78 %; neither C prefetched a tile ahead,
//    nor a write-back off the FMA pipes (add of the sign-flipped swap), nor k =
//    8 unrolled, nor the interior tiles in a loop of their own moved it.
//  * real GEMM on the narrow 1-vector × 8-column tile (narrow_tile) with C's
//    columns a multiple of 4 KiB apart: its 8 columns' lines fall in one set
//    of the 8-way L1, the AVX2 tile's 6 leave two ways. Same method, sgemm /
//    dgemm m = n = 2048 (ldc 8 / 16 KiB): k = 8–96 1.01–1.07, 128 1.00–1.01,
//    192–512 0.98–0.99; 2 threads, 1024 and 2048 × 16–96: 1.02–1.12; ldc
//    2048 with m = 2000 (f64) 1.05, ldc 1536 / 3072 (f64 12 / 24 KiB) 1.06 /
//    1.08, 4096 1.08; but ldc not a multiple of 4 KiB 0.77–0.98 (m = n =
//    1000: k = 8 0.77–0.79, 16–96 0.91–1.00; ldc 2056 0.96; sgemm ldc 1536,
//    6 KiB, 0.99). Real SYRK on the narrow table likewise, but only on one
//    thread and to k = 64 (syrk_driver.cpp): ssyrk / dsyrk LT and UT, n =
//    1024 / 2048 × k = 16–64, builds side by side, 1.02–1.13; k = 96
//    0.98–1.00; dsyrk 1024 × 16–96 on 2 threads 0.94–0.97.
// Not on the direct path (op(A) read in place, m of 2 KiB or less:
// direct_one_kc): there csyrk UN / cgemm 256 × 32–128 read 0.86–0.96, zgemm
// 128 × 32–192 0.82–0.94.
template <typename T>
bool half_rate_mid_k(const tblasContext *h, int64_t k, bool direct) {
  return h->arch == Arch::avx512 && h->zmm_half_rate && !direct && k >= 16 && k <= 96;
}
// Whether C's columns, ldc elements of `bytes` bytes apart, are a multiple
// of 4 KiB apart: every column's lines then fall in the same sets of the
// 8-way L1, and a tile of many columns evicts its own C (see above and the
// complex 8×8 rule in syrk_driver.cpp).
inline bool columns_4k_apart(int64_t ldc, int64_t bytes) { return ldc * bytes % 4096 == 0; }
// The complex tile in that window (session 39). f64: the 512-bit 4×4, not
// the AVX2 4×3 — Zen 4, 1 thread, tables alternated in one process (11
// rounds), speed ÷ the 4×3's: zgemm 20000 × 64 × 16–96 1.01–1.03 (64
// columns are 22 panels of 3, 16 of 4), 2000 × 64 1.01–1.03, 2048² ×
// 16–96 1.00–1.02, 300² / 500² / 1000² × 16–32 0.985–0.995 and × 64–96
// 1.00; zsyrk LT / UT / LN / UN 500–2048 × 16–96 0.98–1.06. f32: the
// 512-bit 8×8 where the 8×3's last panel of 3 would pad n by 1.5 % more
// than the 8×8's panels of 8 and C's columns are not a multiple of 4 KiB
// apart (see above): cgemm 20000 × 64 × 32–96 1.03, 2000 × 64 1.00–1.02;
// where the padding is even, the 8×3 wins: cgemm 300²–1000² × 16 1.02–1.03
// (× 64–96 1.00–1.01), csyrk 100 × 16–96 (pads 2 % and 4 %) 1.02–1.06;
// 2048² (ldc 16 KiB) 1.01–1.06. The 256-bit tile also slows more when this
// host's neighbours are busy (performance.md, session 38: 25–45 % against
// 5–10 %): the 512-bit tiles where they tie. `pad_rule`: GEMM's f32 8×8
// rule (SYRK keeps the 8×3: syrk_driver.cpp).
template <typename T>
const GemmKernels<T> &half_rate_mid_k_complex(int64_t n, int64_t ldc, bool pad_rule) {
  if constexpr (sizeof(T) == 8) {
    return gemm_kernels_narrow<T>(Arch::avx512);
  } else {
    const int64_t pad3 = ceil_div(n, 3) * 3 - n, pad8 = ceil_div(n, 8) * 8 - n;
    const bool c8 = pad_rule && 1000 * (pad3 - pad8) >= 15 * n && !columns_4k_apart(ldc, int64_t(2 * sizeof(T)));
    return c8 ? *gemm_kernels_narrow_c8<T>(Arch::avx512) : gemm_kernels<T>(Arch::avx2);
  }
}
// The real case above, for a product on the narrow tile: C's columns
// a multiple of 4 KiB apart, in the window.
template <typename T>
bool narrow_columns_alias(const tblasContext *h, int64_t ldc, int64_t k, bool direct) {
  return columns_4k_apart(ldc, int64_t(sizeof(T))) && half_rate_mid_k<T>(h, k, direct);
}

// Whether a GEMM's (Triangle::all) `cols` columns of direct tiles run in one
// ukr_direct_all call: more than one panel (one panel keeps ukr_direct; see
// direct_all in gemm_template.inc).
template <typename T>
bool direct_all_takes(const GemmKernels<T> &K, Triangle tri, int64_t cols) {
  return tri == Triangle::all && K.ukr_direct_all && cols > K.nr;
}

// Operands the blocked path reads in place instead of packing, where packing
// does not pay for itself: when all of C's rows fit one MC block, each packed
// B panel feeds only that block's few row tiles, and in k-dominated shapes
// (64×64×20000) the packing is a whole extra pass over A and B (a third of
// the time):
//   real op(B) with contiguous columns (op N) or rows (op T; complex B must
//   be formed as Netlib's TEMP = alpha·op(B) anyway): the kernel broadcasts
//   from NR columns, or from one run of NR elements per k-step; the kc × NR
//   micro-panel stays L1-resident between tiles (op T too, from session 20:
//   sgemm / dgemm NT 100³ 1.25 / 1.16×, 128³ 1.16 / 1.11×, 64×64×2000
//   1.49 / 1.31×, 120×500×300 1.16 / 1.13×; ssyrk / dsyrk N, whose B is op T,
//   64×300 1.69 / 1.48×, 100×300 1.40 / 1.25×, 200×300 1.15 / 1.10×);
//   op(A) f32 with contiguous columns at most 512 bytes apart (m ≤ 128): the
//   kernel reads each micro-panel at a constant short stride. Packing A costs
//   the most per flop in f32 (8 lanes per FMA); for f64, and f32 with longer
//   strides, in-place A measured slower than packing (dgemm 96×48×8192
//   28 → 20 GF/s, sgemm 200×100×4096 70 → 66), so those A blocks stay packed;
//   complex A (unconjugated, columns ≤ 512 bytes apart: lda ≤ 64 complex
//   float, 32 complex double) in place: on Zen 5 with AVX-512, 1 thread,
//   median of 5, GF/s: csyrk N 16×2048 83 → 89, 24×1000 104 → 108,
//   48×1000 147 → 162; cgemm 64×64×20000 152 → 157,
//   others within noise (on the AVX2 Zen 4 machine zgemm 96×48×8192 had
//   lost 35 → 28 with in-place A at any stride).
// Measured (1 thread, side by side, median of 7, GF/s): sgemm 64×64×20000
// 45 → 70, 96×48×8192 57 → 78, 128×64×8192 67 → 77, 128³ 71 → 82 (2 threads
// 108–127 → 137); dgemm 128³ 37 → 39, 64×64×20000 (B only) 26 → 29. With m
// above MC (B feeding many blocks) in-place B lost 2–5 % (sgemm/dgemm 1024³,
// dgemm 512³); with k = 32 (2048×2048×32) the per-tile set-up over so few
// k-steps lost 2–25 %, hence k >= 64 — for B, or k >= twice the row tiles
// it feeds (session 16, both builds in one process, 1T / 2T: sgemm
// 16×4000×16 2.00 / 1.89×, 8×4000×32 1.73 / 1.73×, 32×4000×32 1.27 / 1.29×,
// 128×128×32 1.14 / 1.13×; dgemm 8×4000×32 2.26 / 2.20×, 128×128×32 1.10 /
// 1.14×, 160×160×32 1.09 / 1.06×; with k under twice the row tiles
// (200×4000×1..8, 480×480×8) it read 0.93–1.04, so those stay packed).
// Each element's FMA sequence is the same either way, so the choice never
// changes a result.
// Complex GEMM (session 57): op(A) with contiguous, unconjugated columns is
// read in place by the complex tiles up to kComplexInPlacePanels column
// panels (48 columns on AVX-512) at any m: a complex multiply-add is four
// real FMAs, so a TEMP panel of NRC = 6 columns does the work of a real
// one of 24, and packing op(A) was a pass of its own before any FMA. Past
// kComplexStreamBytes of op(A) (the L2) and from kComplexStreamMinK steps
// the blocks run ukr_complex_stream (row tile by row tile across all
// panels, the next tile's lines prefetched; past two panels with k <= 128
// the tile below's C too): reading L3-resident columns k apart stalled the
// tiles as memory did (Zen 5, 1 thread, in place ÷ streamed time: cgemm
// 1000×24×1000 1.19–1.22, 1000×12×1000 1.12–1.26, zgemm 700×24×700
// 1.10–1.18); with op(A) in the L2 the prefetches only cost (zgemm
// 2000×12×16 0.92–0.97). With C beyond the cache (c_cached false) and few
// k-steps C's traffic decides, and the packed path's panel-by-panel walk
// kept ahead: there more than two panels stay packed below
// kComplexWideMinK steps (streamed ÷ packed time, 1T / 2T: zgemm
// 100000×24×16 1.11 / 1.06, 100000×24×32 1.01 / 0.96, cgemm 100000×48×16
// 1.04 / 1.15; from 64 steps zgemm 50000×24×64 0.90 / 0.88, cgemm
// 100000×48×64 0.89 / 0.93), one or two below kComplexStreamMinK (zgemm
// 100000×12×8 streamed 1.15–1.28). Zen 5, one process against the packed
// build (both load orders, median of 7, time before ÷ after), 1T / 2T:
// cgemm 4000×n×4000 n = 8 / 24 / 48 1.42 / 1.27 / 1.11, 2T 1.39 / 1.26 /
// 1.14; zgemm 1.37 / 1.23 / 1.07, 2T 1.53 / 1.33 / 1.10; cached, cgemm
// 1000×24×1000 1.20 / 1.22, 1000×48×1000 1.11 / 1.08, zgemm 700×24×700 1.13
// / 1.21, 500×48×500 1.05 / 1.07; cgemm 500×6×200 1.69 / 1.55, 100000×6×32
// 1.17–1.67, 64×48×20000 1.07 / 1.00, zgemm 128×24×20000 1.22 / 1.26,
// 2000×12×16 1.29 / 1.23; AVX2 tiles (NRC 3: 24 columns) 1.11–1.49. The
// same tiles and FMAs: the same results (ComplexInPlaceBitwise).
constexpr int64_t kComplexInPlacePanels = 8;
constexpr int64_t kComplexStreamMinK = 16, kComplexWideMinK = 64;
constexpr double kComplexStreamBytes = 1024.0 * 1024.0;

template <typename T>
void choose_in_place(Level3Plan<T> &p) {
  if (p.direct) return;
  // Real op(A) with contiguous columns feeding at most two column panels
  // (n <= 2·NR), up to 256 k-steps: packing an element (~3 cycles) costs
  // more than its 2·NR FMAs. Both builds in one process, 1T / 2T: sgemm
  // 4000×16×16 1.68 / 1.44×, 10000×8×16 2.37 / 2.26×, 2000×12×32 1.57 /
  // 1.42×, 4000×16×256 1.54 / 1.57×; dgemm 4000×16×16 1.71 / 1.30×,
  // 4000×16×256 1.67 / 1.44×. Beyond: n up to 6·NR 0.82–1.19 (mixed), k of
  // 512–2000 0.59–1.06 (k lines of A per tile, too many streams). Up to
  // 6·NR columns where k <= 32 (session 20, alternating builds, 1T: sgemm
  // 1000×50×20 1.07×, 1000×36×16 1.13×, 500×60×24 1.14×, 3000×30×30
  // 1.16×, 4000×64×32 1.04×, 20000×64×32 1.07×, 300×72×32 1.09×, 10000×40×8
  // 1.01×; dgemm 20000×64×32 1.07×, 8000×72×24 1.05×, 2T 1.02–1.10×).
  // GEMM (session 55): up to 4·NR columns at any k. Past 256 k-steps the
  // tiles stalled on A's lines, k columns apart (the "too many streams"
  // above): within the last-level cache they read them at its pace; from
  // memory (op(A) past kAStreamBytes) each block runs ukr_direct_stream,
  // whose row tiles prefetch the next one's lines. Packing read A from
  // memory at ~18 GB/s in a pass of its own before any FMA. Zen 5, 1
  // thread, in place ÷ packed speed, the same operands every call: dgemm
  // 4000×n×4000 (128 MB, streamed) n = 4 / 8 / 16 / 24 / 32 / 48 1.6 / 1.7
  // / 1.5 / 1.5 / 1.3 / 1.2, sgemm 2.0 / 2.3 / 1.5 / 1.4 / 1.3 / 1.2;
  // dgemm 1000×16×1000 (cached) 1.39, 800×32×800 1.24, 2000×48×256 1.14,
  // sgemm 1000×16×1000 1.38, 2000×36×128 1.21; m·k of 20000 with few rows
  // 0.96–1.44 (dgemm 100×24×20000 0.96–0.97, sgemm 64×48×20000 0.98). 2
  // threads: dgemm 4000×8×4000 1.5, sgemm 4000×4×4000 2.7. n = 64 read
  // 0.99–1.12 (sgemm 300×64×3000 0.99): 4·NR it is. SYRK keeps the rule
  // above (its diagonal tiles have no streaming kernel).
  if (p.s == 1 && a_columns_in_place(p.A)) {
    // Column panels read in place over: SYRK past 256 k-steps none (packed).
    const int panels = p.k <= 32 ? 6 : p.tri == Triangle::all ? 4 : p.k <= 256 ? 2 : 0;
    if (p.n <= panels * p.nr) {
      p.a_in_place = true;
      p.a_stream = p.tri == Triangle::all && double(p.m) * double(p.k) * sizeof(T) > kAStreamBytes;
    }
  }
  if (p.s == 2) {  // complex: op(A) only (B is always formed as TEMP)
    if (p.tri == Triangle::all && a_columns_in_place(p.A) && p.n <= kComplexInPlacePanels * p.nr &&
        (p.c_cached || p.k >= (p.n <= 2 * p.nr ? kComplexStreamMinK : kComplexWideMinK))) {
      p.a_in_place = true;
      p.a_stream = p.k >= kComplexStreamMinK && double(p.m) * double(p.k) * 2 * sizeof(T) > kComplexStreamBytes;
    } else {
      p.a_in_place = p.m <= p.mc_e && p.k >= 64 && short_columns(p.A, 2);
    }
    return;
  }
  if (p.m > p.mc_e) return;
  // Below 64 k-steps B is still read in place when it feeds few row tiles:
  // packing costs ~3 cycles per element of a B panel, shared by the column's
  // ceil(m/MR) tiles, against the direct tile's set-up over few k-steps.
  p.b_in_place = (p.B.rs == 1 || p.B.cs == 1) && (p.k >= 64 || p.k >= 2 * ceil_div(p.m, p.mr_e));
  if (p.k < 64) return;
  p.a_in_place = p.a_in_place || (sizeof(T) == 4 && short_columns(p.A, 1));
}

// Pack-ahead (run_packed, ukr_packed_ahead): a real GEMM whose op(A) (op N)
// is packed from memory — past kAStreamBytes, too many columns to stream
// in place (n > 4·NR) and too few to hide the packing pass: up to
// kAheadPanels column panels, at least 3 per work unit (`unit_n`, after the
// grid: with 1–2 panels the tiles prefetch every k-step or every other, and
// sgemm 4000×64×4000 on 2 threads, split by columns, read 0.95). While a
// block's whole panels compute, their tiles prefetch the next A block
// (panel j the columns l % panels == j, tile t its row tile t), so pack_a
// finds it in L2 instead of reading
// memory at ~13 GB/s (miss-bound: its short column runs, lda apart, keep
// the hardware prefetchers from running ahead) in a pass nothing overlaps.
// MC is halved (dgemm 120, sgemm 160 rows) so the block and the next one
// fit the 1 MiB L2 together. Zen 5, 1 thread, in one process against the
// build before (median of 7 rounds, time before ÷ after), dgemm / sgemm
// 4000×n×4000: n = 64 1.10–1.15 / 1.11–1.13, 96 1.07–1.09 / 1.06–1.07, 128
// 1.04–1.07 / 1.05–1.08, 192 0.97–1.03 / 0.97–1.02 (hence the cap of 144),
// 256 1.00 / 1.02; 2 threads n = 64 / 128 dgemm 1.10–1.13 / 1.04–1.07,
// sgemm 1.02 / 1.05–1.06; 20000×64×1000 1.10 / 1.10 (2T 1.10 / 1.04). The
// prefetches cost the tiles ~7 % (they share the L1 miss buffers with the
// A micro-panel's stream from L2) and packing from L2 still costs ~1/7 of
// the tiles' time at n = 64. The same panels and tiles: the same results.
// An op(A) = T (rows contiguous along k) has no in-place stream to fall
// back on with fewer panels: its packer transposes W × W blocks from rows
// lda apart and read memory at ~10–17 GB/s. From one whole panel its tiles
// prefetch the next block's rows (ukr_packed_ahead's pf_rows), a panel
// sharing the k-steps with the others as above.
constexpr int64_t kAheadPanels = 12;
template <typename T>
void choose_pack_ahead(Level3Plan<T> &p, const tblasContext *h, int64_t unit_n) {
  const bool columns = p.A.rs == 1, rows = rows_contiguous(p.A);
  p.a_ahead = p.s == 1 && !p.direct && p.tri == Triangle::all && !p.a_in_place && !p.b_in_place &&
              ((columns && unit_n >= 3 * p.nr) || (rows && unit_n >= p.nr)) && p.K->ukr_packed_ahead &&
              p.n <= kAheadPanels * p.nr && double(p.m) * double(p.k) * sizeof(T) > kAStreamBytes;
  p.a_ahead_rows = p.a_ahead && rows;
  if (p.a_ahead && h->gemm_mc <= 0) p.mc_e = std::max<int64_t>(p.mr_e, p.mc_e / 2 / p.mr_e * p.mr_e);
}

// Whether the direct paths read rows of op(A) in place (`rows` of them in a
// unit) rather than packing them: contiguous, unconjugated columns, or
// (complex) a single row at any stride — the kernel reads no other row of
// its tile, and padding one row to an MRC-row panel wrote a cache line per
// k-step (csyrk n = 1: a quarter of the call).
template <typename T>
bool direct_reads_a_in_place(const Level3Plan<T> &p, int64_t rows) {
  return a_columns_in_place(p.A) || (p.s == 2 && !p.A.conj && rows == 1);
}

// Columns of C per jc block of a work unit `cols` wide: as equal as whole
// micro-panels allow and at most NC + NC/4 (rounded to micro-panels). Blocks
// of NC and a remainder left slivers — cgemm 2048³ (NC 1020 complex) ran
// 1020 + 1020 + 8 columns, sgemm 2048³ (NC 2040) 2040 + 8 — and every A
// block is packed again for each jc block, a sliver's included.
template <typename T>
int64_t jc_cap(const Level3Plan<T> &p) {
  return std::max<int64_t>(p.nr, (p.nc + p.nc / 4) / p.nr * p.nr);
}
// The number of jc blocks of a unit `cols` wide (an empty unit: 1, nothing runs).
template <typename T>
int64_t jc_blocks(const Level3Plan<T> &p, int64_t cols) {
  return std::max<int64_t>(1, ceil_div(cols, jc_cap(p)));
}
template <typename T>
int64_t jc_block(const Level3Plan<T> &p, int64_t cols) {
  return ceil_div(ceil_div(cols, jc_blocks(p, cols)), p.nr) * p.nr;
}

// Workspace per thread for work units of at most `rows` × `cols` elements of
// C: packed A block and B panel; for the direct paths, A rows that cannot be
// read in place and, complex, Netlib's TEMP = alpha·op(B) over all of k.
// workspace_bytes: the A and B buffers' bytes; reserve_workspace reserves them.
template <typename T>
std::pair<size_t, size_t> workspace_bytes(const Level3Plan<T> &p, int64_t rows, int64_t cols) {
  const size_t es = size_t(p.s) * sizeof(T);  // bytes per element
  const auto a_panels = [&](int64_t r) { return size_t(ceil_div(r, p.mr_e) * p.mr_e); };
  const auto b_panels = [&](int64_t c) { return size_t(ceil_div(c, p.nr) * p.nr); };
  size_t bytes_a = 0, bytes_b = 0;
  if (p.direct) {
    bytes_a = direct_reads_a_in_place(p, std::min(rows, p.m)) ? 0 : a_panels(rows) * size_t(p.k) * es;
    bytes_b = p.s == 2 ? b_panels(cols) * size_t(p.k) * es : 0;
  } else {
    const size_t kc = size_t(std::min(p.kc_e, p.k));
    bytes_a = p.a_in_place ? 0 : a_panels(std::min(p.mc_e, rows)) * kc * es;
    bytes_b = p.b_in_place ? 0 : b_panels(std::min(jc_cap(p), cols)) * kc * es;
  }
  return {bytes_a, bytes_b};
}
template <typename T>
bool reserve_workspace(const Level3Plan<T> &p, Workspace &ws, int threads, int64_t rows, int64_t cols) {
  const auto [bytes_a, bytes_b] = workspace_bytes(p, rows, cols);
  return ws.reserve(threads, bytes_a, bytes_b);
}

// Scales the m×n block at c by beta (complex when s == 2); beta == 0 writes
// zeros without reading c (Netlib semantics).
template <typename T>
void scale_block(int s, int64_t m, int64_t n, const T *beta, T *c, int64_t ldc) {
  const bool zero = beta[0] == T(0) && (s == 1 || beta[1] == T(0));
  for (int64_t j = 0; j < n; ++j) {
    T *cj = c + j * ldc * s;
    if (zero) {
      std::fill(cj, cj + m * s, T(0));
    } else if (s == 1) {
      for (int64_t i = 0; i < m; ++i) cj[i] *= beta[0];
    } else {
      for (int64_t i = 0; i < m; ++i) {
        const T cr = cj[2 * i], ci = cj[2 * i + 1];
        cj[2 * i] = beta[0] * cr - beta[1] * ci;
        cj[2 * i + 1] = beta[0] * ci + beta[1] * cr;
      }
    }
  }
}

// Rows [r0, r1) of a block of C — rows [0, mc) from global row gi0, whole
// tiles of mr_e rows — whose tiles meet the triangle in the tile column at
// global column gj, nr wide. Down a tile column the tiles outside the triangle
// come first (lower) or last (upper), so the range is found by arithmetic;
// the kernel masks the tiles that cross the diagonal itself.
inline void triangle_rows(Triangle tri, int64_t gi0, int64_t mc, int64_t mr_e, int64_t gj, int64_t nr, int64_t *r0,
                          int64_t *r1) {
  const int64_t d = gj - gi0;  // the tile column's first diagonal row, relative to the block
  *r0 = 0;
  *r1 = mc;
  if (tri == Triangle::lower && d > 0) *r0 = std::min(mc, tile_index(d, mr_e) * mr_e);  // tiles ending above row d
  if (tri == Triangle::upper) {
    const int64_t last = d + nr - 1;  // rows below the column's last diagonal row are outside
    *r1 = last < 0 ? 0 : std::min(mc, (tile_index(last, mr_e) + 1) * mr_e);
  }
}

// Upper triangle: a block of nc columns puts its partial panel (nc % nr
// columns) first, where the columns are shortest (rows down to the
// diagonal); last, it spans every row of the block with most of its columns
// padding (csyrk UN n = 64: 8 of the 104 tiles). Returns that width (0 when
// the panels are whole or the triangle is not upper); panel q then starts at
// column 0 (q = 0) or w0 + (q - 1)·nr.
inline int64_t first_panel(Triangle tri, int64_t nc, int64_t nr) { return tri == Triangle::upper ? nc % nr : 0; }
// The panel holding column jr of the block (jr a panel start), and its width.
inline int64_t panel_of(int64_t jr, int64_t w0, int64_t nr) {
  return w0 == 0 ? jr / nr : jr == 0 ? 0 : 1 + (jr - w0) / nr;
}
inline int64_t panel_width(int64_t jr, int64_t w0, int64_t nr, int64_t nc) {
  return jr == 0 && w0 != 0 ? w0 : std::min(nr, nc - jr);
}
// Packs the block's nc columns in that order: pack(first column, columns,
// destination offset in elements) for the partial panel, then the rest
// (`panel`: elements per packed panel).
template <class Pack>
void pack_panels(int64_t nc, int64_t w0, int64_t panel, Pack pack) {
  if (w0) pack(0, w0, 0);
  if (nc > w0) pack(w0, nc - w0, w0 ? panel : 0);
}

// Lower triangle, the same for rows: a block of mc rows puts its partial row
// tile (mc % mr rows) first, where the rows are shortest (row i holds
// columns 0..i); last, it met every column panel of the block (csyrk LN
// 17×65 ran three 1-row tiles over all of k, LN 1.42 µs against UN 1.13).
// Returns that height (0 when the tiles are whole or the triangle is not
// lower); row tile t then starts at row 0 (t = 0) or h0 + (t - 1)·mr, and A's
// rows are packed in that order (pack_panels).
inline int64_t first_row_tile(Triangle tri, int64_t mc, int64_t mr) { return tri == Triangle::lower ? mc % mr : 0; }

// Calls run(r0, r1, t) for the rows [r0, r1) of a block (rows [0, mc) from
// global row gi0, first tile h0 rows) whose tiles meet the triangle in the
// tile column at global column gj, nr wide; t is the row tile of r0. A
// kernel call walks whole tiles and takes a partial one last, so a partial
// first tile is a call of its own.
template <class Run>
inline __attribute__((always_inline)) void for_row_runs(Triangle tri, int64_t gi0, int64_t mc, int64_t mr,
                                                        int64_t h0, int64_t gj, int64_t nr, Run run) {
  if (h0 == 0) {
    int64_t r0, r1;
    triangle_rows(tri, gi0, mc, mr, gj, nr, &r0, &r1);
    if (r0 < r1) run(r0, r1, tile_index(r0, mr));
    return;
  }
  const int64_t d = gj - gi0;  // lower: rows >= d of the block meet the column panel
  if (d < h0) run(0, h0, 0);
  const int64_t r0 = d > h0 ? std::min(mc, h0 + tile_index(d - h0, mr) * mr) : h0;
  if (r0 < mc) run(r0, mc, 1 + tile_index(r0 - h0, mr));
}

// HERK: Netlib's C(J,J) = BETA*REAL(C(J,J)) + REAL(TEMP*A(J,L)) leaves the
// diagonal exactly real; the kernels compute both parts, so the imaginary
// parts of the diagonal elements in rows [i0, i1) × columns [j0, j1) are set
// to zero after each update.
template <typename T>
void zero_diagonal_imag(const Level3Plan<T> &p, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  for (int64_t j = std::max(i0, j0); j < std::min(i1, j1); ++j) p.C[2 * (j + j * p.ldc) + 1] = T(0);
}

// The A block run_packed packs after the one it computes (any = false:
// none), which a_ahead's tiles prefetch.
template <typename T>
struct NextABlock {
  int64_t ic = 0, pc = 0, mc = 0, kc = 0;
  bool any = false;
};

// One thread's block of C, rows [m0, m1) × columns [n0, n1), through the
// packed panels in workspace slot `slot`.
template <typename T>
void run_packed(const Level3Plan<T> &p, int slot, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  const GemmKernels<T> &K = *p.K;
  const int s = p.s;
  T *Ap = static_cast<T *>(p.ws->a(slot));
  T *Bp = static_cast<T *>(p.ws->b(slot));
  const bool cplx = s == 2;
  const T one[2] = {T(1), T(0)};

  const int64_t jc_cols = jc_block(p, n1 - n0);
  // The block after (ic, pc) of column block jc, in the loops' order.
  const auto next_block = [&](int64_t jc, int64_t pc, int64_t ic) {
    NextABlock<T> nb;
    if (ic + p.mc_e < m1) {
      ic += p.mc_e;
    } else {
      ic = m0;
      if (pc + p.kc_e < p.k) pc += p.kc_e;
      else if (jc + jc_cols < n1) pc = 0;
      else return nb;
    }
    nb.any = true;
    nb.ic = ic;
    nb.pc = pc;
    nb.mc = std::min(p.mc_e, m1 - ic);
    nb.kc = std::min(p.kc_e, p.k - pc);
    return nb;
  };
  for (int64_t jc = n0; jc < n1; jc += jc_cols) {
    const int64_t nc = std::min(jc_cols, n1 - jc);
    for (int64_t pc = 0; pc < p.k; pc += p.kc_e) {
      const int64_t kc = std::min(p.kc_e, p.k - pc);
      const T *b = p.B.p + (pc * p.B.rs + jc * p.B.cs) * s;
      const int64_t w0 = first_panel(p.tri, nc, p.nr);
      if (cplx || !p.b_in_place)
        pack_panels(nc, w0, p.nr * kc * s, [&](int64_t j0, int64_t cols, int64_t at) {
          if (cplx) K.pack_b_c(kc, cols, b + j0 * p.B.cs * s, p.B.rs, p.B.cs, p.B.conj, p.alpha, p.herk, Bp + at);
          else K.pack_b(kc, cols, b + j0 * p.B.cs, p.B.rs, p.B.cs, Bp + at);
        });
      // beta on the first k block; later blocks add to C.
      const bool first = pc == 0;
      const T beta_r = first ? p.beta[0] : T(1);
      const T *beta_c = first ? p.beta : one;

      for (int64_t ic = m0; ic < m1; ic += p.mc_e) {
        const int64_t mc = std::min(p.mc_e, m1 - ic);
        // Rows of this block that meet the triangle within these columns.
        if (p.tri == Triangle::lower && ic + mc - 1 < jc) continue;
        if (p.tri == Triangle::upper && ic > jc + nc - 1) continue;
        const T *a = p.A.p + (ic * p.A.rs + pc * p.A.cs) * s;
        const int64_t h0 = first_row_tile(p.tri, mc, p.mr_e);
        if (!p.a_in_place)
          pack_panels(mc, h0, p.mr_e * kc * s, [&](int64_t i0, int64_t rows, int64_t at) {
            const T *ai = a + i0 * p.A.rs * s;
            if (cplx) K.pack_a_c(rows, kc, ai, p.A.rs, p.A.cs, p.A.conj, Ap + at);
            else K.pack_a(rows, kc, ai, p.A.rs, p.A.cs, Ap + at);
          });
        // Row tile t of the block: packed micro-panel t (a_ks = MR, panels MR·kc
        // apart), or in place from its first row (a_ks = lda, tiles MR rows apart).
        const int64_t a_ks = p.a_in_place ? p.A.cs : p.mr_e, a_ps = p.a_in_place ? p.mr_e : p.mr_e * kc;

        int64_t jr0 = 0;
        if (p.a_stream && cplx) {  // op(A)'s block from memory, under all the panels' FMAs
          jr0 = nc;
          K.ukr_complex_stream(kc, a, a_ks, Bp, p.nr * kc, beta_c, p.C + (ic + jc * p.ldc) * s, p.ldc, mc, nc,
                               p.c_cached);
        } else if (p.a_stream) {
          jr0 = nc;
          // B in place (B(l, j) at b + l·rs + j·cs) or packed (panels of nr × kc, B(l, j) at l·nr + j).
          const int64_t b_ks = p.b_in_place ? p.B.rs : p.nr, b_js = p.b_in_place ? p.B.cs : 1;
          K.ukr_direct_stream(kc, p.alpha[0], a, a_ks, p.b_in_place ? b : Bp, b_ks, b_js,
                              p.nr * (p.b_in_place ? p.B.cs : kc), beta_r, p.C + ic + jc * p.ldc, p.ldc, mc, nc);
        } else if (!cplx && p.b_in_place && direct_all_takes(K, p.tri, nc)) {
          // GEMM with B read in place: one kernel call (see direct_panels).
          jr0 = nc;
          K.ukr_direct_all(kc, p.alpha[0], p.a_in_place ? a : Ap, a_ks, a_ps, b, p.B.rs, p.B.cs, beta_r,
                           p.C + ic + jc * p.ldc, p.ldc, mc, nc);
        }
        // Pack-ahead: the whole column panels prefetch the next block's
        // columns l with l % panels == j (panel j), tile t its row tile t
        // (choose_pack_ahead); the rest, and a block followed by a shorter
        // last k block (the tiles' k-steps would run past its columns), as
        // below.
        const NextABlock<T> nb = p.a_ahead ? next_block(jc, pc, ic) : NextABlock<T>{};
        if (nb.any && nb.kc >= kc && kc > 4) {
          const int64_t whole = nc / p.nr;
          const T *pf = p.A.p + nb.ic * p.A.rs + nb.pc * p.A.cs;
          for (int64_t j = 0; j < whole; ++j)
            K.ukr_packed_ahead(kc, p.alpha[0], Ap, Bp + j * p.nr * kc, beta_r, p.C + ic + (jc + j * p.nr) * p.ldc,
                               p.ldc, mc, pf, p.a_ahead_rows ? p.A.rs : p.A.cs, p.a_ahead_rows,
                               ceil_div(nb.mc, p.mr_e), int(whole), int(j));
          jr0 = whole * p.nr;
        }
        for (int64_t jr = jr0, nr; jr < nc; jr += nr) {
          nr = panel_width(jr, w0, p.nr, nc);
          const int64_t gj = jc + jr;
          const T *bp = Bp + panel_of(jr, w0, p.nr) * p.nr * kc * s;  // micro-panels of p.nr × kc elements
          for_row_runs(p.tri, ic, mc, p.mr_e, h0, gj, nr, [&](int64_t r0, int64_t r1, int64_t t) {
            T *c = p.C + (ic + r0 + gj * p.ldc) * s;
            const int64_t d = gj - (ic + r0);
            const T *ar = p.a_in_place ? a + r0 * s : Ap + t * a_ps * s;
            if (cplx)
              K.ukr_complex(kc, ar, a_ks, a_ps, bp, beta_c, p.herk, c, p.ldc, r1 - r0, nr, p.tri, d, p.c_cached);
            else if (p.b_in_place)
              K.ukr_direct(kc, p.alpha[0], ar, a_ks, a_ps, b + jr * p.B.cs, p.B.rs, p.B.cs, beta_r, c, p.ldc,
                           r1 - r0, nr, p.tri, d);
            else if (p.a_in_place)
              K.ukr_direct(kc, p.alpha[0], ar, a_ks, a_ps, bp, p.nr, 1, beta_r, c, p.ldc, r1 - r0, nr, p.tri, d);
            else K.ukr_packed(kc, p.alpha[0], ar, bp, beta_r, c, p.ldc, r1 - r0, nr, p.tri, d);
            if (p.herk) zero_diagonal_imag(p, ic + r0, ic + r1, gj, gj + nr);
          });
        }
      }
    }
  }
}

// Small complex problems: the whole k at once; op(A) read in place when its
// columns are contiguous and not conjugated (packed otherwise), and
// TEMP(l, j) = alpha·op(B)(l, j) formed first (pack_b_c), with Fortran's
// complex product, exactly as Netlib's loops do, so Inf/NaN propagate like
// the reference. Triangle-aware.
template <typename T>
void run_direct_complex(const Level3Plan<T> &p, int slot, int64_t m0, int64_t m1, int64_t n0, int64_t n1,
                        bool leftward = false) {
  const GemmKernels<T> &K = *p.K;
  const int64_t k = p.k;
  T *Aw = static_cast<T *>(p.ws->a(slot));
  T *Bw = static_cast<T *>(p.ws->b(slot));
  const bool a_in_place = direct_reads_a_in_place(p, m1 - m0);
  const int64_t h0 = first_row_tile(p.tri, m1 - m0, p.mr_e);
  if (!a_in_place)
    pack_panels(m1 - m0, h0, 2 * p.mr_e * k, [&](int64_t i0, int64_t rows, int64_t at) {
      K.pack_a_c(rows, k, p.A.p + 2 * (m0 + i0) * p.A.rs, p.A.rs, p.A.cs, p.A.conj, Aw + at);
    });
  const int64_t w0 = first_panel(p.tri, n1 - n0, p.nr);
  // op(B)'s columns contiguous (GEMM op N, SYRK op T): TEMP packed column by
  // column where the table reads it so (ukr_complex_cols; not for k <= 4,
  // whose small-k loops read pack_b_c's rows). The same TEMP values and
  // FMAs, so the same results. Zen 5, 1 thread, against pack_b_c's
  // transposing panels in one process (21 rounds, time ratio): cgemm 16³ /
  // 32³ / 64³ / 128³ 0.88 / 0.92 / 0.97 / 0.99, zgemm 32³ / 64³ 0.98 / 0.96;
  // AVX2 cgemm 16³ / 32³ / 64³ 0.91 / 0.98 / 0.98; zsyrk LT n = 8–24 on the
  // narrow f64 table 0.95–0.97. (The complex f32 row-vector × 8 table keeps
  // pack_b_c, whose transposes fill every lane there: csyrk LT 32 1.07×.)
  // (run_packed keeps pack_b_c's panels: its KC × NC panels in this layout
  // read cgemm 2048³ 1T 1.02–1.03× the time.)
  const bool b_cols = K.ukr_complex_cols && p.B.rs == 1 && !p.B.conj && k > 4;
  pack_panels(n1 - n0, w0, 2 * p.nr * k, [&](int64_t j0, int64_t cols, int64_t at) {
    const T *b = p.B.p + 2 * (n0 + j0) * p.B.cs;
    if (b_cols) K.pack_b_c_cols(k, cols, b, p.B.cs, p.alpha, p.herk, Bw + at);
    else K.pack_b_c(k, cols, b, p.B.rs, p.B.cs, p.B.conj, p.alpha, p.herk, Bw + at);
  });
  // Row r (from m0) of op(A): in place, or in packed panel t (its row tile).
  const int64_t a_ks = a_in_place ? p.A.cs : p.mr_e, a_ps = a_in_place ? p.mr_e : p.mr_e * k;
  const auto panel = [&](int64_t jr, int64_t nr) {
    const T *bp = Bw + 2 * panel_of(jr - n0, w0, p.nr) * p.nr * k;
    for_row_runs(p.tri, m0, m1 - m0, p.mr_e, h0, jr, nr, [&](int64_t r0, int64_t r1, int64_t t) {
      const T *ar = a_in_place ? p.A.p + 2 * (m0 + r0) * p.A.rs : Aw + 2 * t * a_ps;  // rs: a lone row at any stride
      T *c = p.C + 2 * (m0 + r0 + jr * p.ldc);
      const int64_t d = jr - (m0 + r0);
      if (b_cols) K.ukr_complex_cols(k, ar, a_ks, a_ps, bp, k, p.beta, p.herk, c, p.ldc, r1 - r0, nr, p.tri, d);
      else K.ukr_complex(k, ar, a_ks, a_ps, bp, p.beta, p.herk, c, p.ldc, r1 - r0, nr, p.tri, d, p.c_cached);
      if (p.herk) zero_diagonal_imag(p, m0 + r0, m0 + r1, jr, jr + nr);
    });
  };
  if (leftward && p.tri == Triangle::all) {  // the same panels, last first (see direct_real)
    for (int64_t jr = n0 + (n1 - n0 - 1) / p.nr * p.nr; jr >= n0; jr -= p.nr) panel(jr, std::min(p.nr, n1 - jr));
    return;
  }
  for (int64_t jr = n0, nr; jr < n1; jr += nr) {
    nr = panel_width(jr - n0, w0, p.nr, n1 - n0);
    panel(jr, nr);
  }
}

// The real direct kernel over C's rows [m0, m1) × columns [n0, n1): GEMM's
// in one call (ukr_direct_all), SYRK's (and the column tables') one call per
// NR-column panel on the rows whose tiles meet the triangle: op(A)'s row r
// (from m0) in place at a0 + r (a_packed false), or in packed micro-panel t
// (its row tile, first_row_tile's order) at a0 + t·a_ps; k stride a_ks; op(B)
// and C in place.
template <typename T>
inline __attribute__((always_inline)) void direct_panels(const GemmKernels<T> &K, int64_t k, T alpha, const T *a0,
                                                         bool a_packed, int64_t a_ks, int64_t a_ps,
                                                         const GemmOperand<T> &B, T beta, T *C, int64_t ldc,
                                                         Triangle tri, int64_t m0, int64_t m1, int64_t n0,
                                                         int64_t n1) {
  if (direct_all_takes(K, tri, n1 - n0)) {
    K.ukr_direct_all(k, alpha, a0, a_ks, a_ps, B.p + n0 * B.cs, B.rs, B.cs, beta, C + m0 + n0 * ldc, ldc, m1 - m0,
                     n1 - n0);
    return;
  }
  const int64_t w0 = first_panel(tri, n1 - n0, K.nr);
  const int64_t h0 = first_row_tile(tri, m1 - m0, K.mr);
  for (int64_t jr = n0, nr; jr < n1; jr += nr) {
    nr = panel_width(jr - n0, w0, K.nr, n1 - n0);
    for_row_runs(tri, m0, m1 - m0, K.mr, h0, jr, nr, [&](int64_t r0, int64_t r1, int64_t t) {
      K.ukr_direct(k, alpha, a_packed ? a0 + t * a_ps : a0 + r0, a_ks, a_ps, B.p + jr * B.cs, B.rs, B.cs, beta,
                   C + m0 + r0 + jr * ldc, ldc, r1 - r0, nr, tri, jr - (m0 + r0));
    });
  }
}

// The real direct path over C's rows [m0, m1) × columns [n0, n1): op(A) read
// in place (a_columns_in_place) or packed once into Ap, then direct_panels.
// run_direct's body, and the whole of a tiny GEMM (gemm_execute; inlined
// there, where tri = all folds the triangle arithmetic away).
// Leftward (GEMM units with another thread's columns to their right): the
// column panels from the last to the first, one NR panel per call (the
// leftmost call up to 2 NR - 1 columns, one call fewer). Each
// element's FMAs are the same in any panel, so the order never changes a
// result. Walking right, a unit's column stride led the hardware prefetcher
// into the next unit's columns of C, up to ~20 KiB ahead, taking lines the
// other core was writing: two threads on disjoint column halves of one C
// (96×48×96 each, f32), the right one 5.7 µs a call against 3.9 alone;
// with the left one walking leftward 4.2 (Zen 5 VM, 2 vCPUs).
template <typename T>
inline __attribute__((always_inline)) void direct_real(const GemmKernels<T> &K, int64_t k, T alpha,
                                                       const GemmOperand<T> &A, const GemmOperand<T> &B, T beta, T *C,
                                                       int64_t ldc, Triangle tri, int64_t m0, int64_t m1, int64_t n0,
                                                       int64_t n1, T *Ap, bool leftward = false) {
  const bool pack_a = !a_columns_in_place(A);
  if (pack_a)
    pack_panels(m1 - m0, first_row_tile(tri, m1 - m0, K.mr), K.mr * k, [&](int64_t i0, int64_t rows, int64_t at) {
      K.pack_a(rows, k, A.p + (m0 + i0) * A.rs, A.rs, A.cs, Ap + at);
    });
  const T *a0 = pack_a ? Ap : A.p + m0;
  const int64_t a_ks = pack_a ? K.mr : A.cs, a_ps = pack_a ? K.mr * k : K.mr;
  if (leftward && tri == Triangle::all) {
    for (int64_t j1 = n1; j1 > n0;) {
      const int64_t j0 = j1 - n0 > 2 * K.nr ? j1 - K.nr : n0;  // the last call takes up to 2 NR - 1
      direct_panels(K, k, alpha, a0, pack_a, a_ks, a_ps, B, beta, C, ldc, tri, m0, m1, j0, j1);
      j1 = j0;
    }
    return;
  }
  direct_panels(K, k, alpha, a0, pack_a, a_ks, a_ps, B, beta, C, ldc, tri, m0, m1, n0, n1);
}

// Small problems: no K blocking, B read in place, A read in place when its
// columns are contiguous (op N) and packed once otherwise; triangle-aware like
// run_packed. Complex: run_direct_complex.
template <typename T>
void run_direct(const Level3Plan<T> &p, int slot, int64_t m0, int64_t m1, int64_t n0, int64_t n1,
                bool leftward = false) {
  const GemmKernels<T> &K = *p.K;
  if (p.s == 2) {
    run_direct_complex(p, slot, m0, m1, n0, n1, leftward);
    return;
  }
  direct_real(K, p.k, p.alpha[0], p.A, p.B, p.beta[0], p.C, p.ldc, p.tri, m0, m1, n0, n1,
              static_cast<T *>(p.ws->a(slot)), leftward);
}

}  // namespace tessera::dense
