// The blocked macro-kernel shared by every level-3 operation: GotoBLAS/BLIS
// loops over NC/KC/MC blocks, packing through the ISA table's packers, and the
// micro-kernel on each MR×NR tile. GEMM runs every tile; SYRK/HERK run it
// triangle-aware (BLIS's gemmt idea): tiles outside the stored triangle are
// skipped, interior tiles go straight to the micro-kernel, and tiles that
// touch the diagonal run the micro-kernel into a local tile whose triangle
// part is then merged into C, so the other triangle is never read or written.
// Which kind a tile is depends only on its position on the global tile grid,
// so results do not depend on the thread count.
// Internal header (templates): included by the level-3 drivers only.
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/handle.h"
#include "core/thread_pool.h"
#include "core/workspace.h"
#include "dense/gemm_driver.h"
#include "dense/kernels/gemm_kernels.h"

namespace tessera::dense {

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A thread must get at least this many flops to be worth waking: dispatch to a
// spinning worker costs ~1 µs, to a sleeping one tens of µs, and this much work
// takes ~5 µs at one core's f64 peak.
constexpr double kMinFlopsPerThread = 2.5e5;

// Real problems up to this many multiply-adds skip packing (the direct kernel
// reads A and B in place): below it, packing costs a large share of the work.
constexpr double kDirectMaxMacs = 80.0 * 80.0 * 80.0;
// Complex: a multiply-add is 4 real ones and the 1m packing writes A twice
// over, so the native direct kernel wins up to a similar size (measured).
constexpr double kDirectMaxMacsComplex = 64.0 * 64.0 * 64.0;

// Work units per thread: several, so that the split stays balanced when a
// thread starts late (shared or virtualised cores); fewer above kFewUnitsFlops
// (~10 ms on one core), where every extra unit repacks panels.
constexpr double kFewUnitsFlops = 4e8;
inline int units_per_thread(double flops) { return flops < kFewUnitsFlops ? 4 : 2; }

// Leases threads for a call of `flops` with at most `max_units` units of work.
inline ThreadPool::Lease lease_threads(const tblasContext *h, double flops, int64_t max_units, int *threads) {
  return ThreadPool::instance().acquire_for(h->num_threads, flops, kMinFlopsPerThread, max_units, threads);
}

// Which part of C an operation updates.
enum class Triangle { all, lower, upper };

template <typename T>
struct Level3Plan {
  const GemmKernels<T> *K;
  int s;  // 2 for complex (1m), 1 for real
  int64_t m, n, k;
  GemmOperand<T> A, B;
  T alpha[2], beta[2];
  T *C;
  int64_t ldc;
  int64_t mr_e, nr, kc_e, mc_e, nc;  // blocking in elements of the operation's type
  bool direct;
  Triangle tri = Triangle::all;
  bool alpha_real = false;    // complex op with a real alpha (HERK): scale B without cross terms
  bool real_diagonal = false; // HERK: the diagonal's imaginary part is set to zero
  int tm, tn;  // GEMM: grid of work units over C's tiles (claimed dynamically by threads)
  int64_t m_tiles, n_tiles;
  std::vector<int64_t> strips;  // SYRK: column boundaries of the work units
  Workspace *ws;
  std::atomic<int> next_unit{0};
};

// Register tile and cache blocks in elements of the operation's type: the ISA
// table's, or the handle's overrides rounded to whole micro-panels (MC to MR
// rows, NC to NR columns; KC even for 1m).
template <typename T>
void set_blocking(Level3Plan<T> &p, const tblasContext *h) {
  const int s = p.s;
  const int64_t kc = h->gemm_kc > 0 ? std::max<int64_t>(2, h->gemm_kc & ~int64_t(1)) : p.K->kc;
  const int64_t mc = h->gemm_mc > 0 ? ceil_div(h->gemm_mc, p.K->mr) * p.K->mr : p.K->mc;
  const int64_t nc = h->gemm_nc > 0 ? ceil_div(h->gemm_nc, p.K->nr) * p.K->nr : p.K->nc;
  p.mr_e = p.K->mr / s;
  p.nr = p.K->nr;
  p.kc_e = kc / s;
  p.mc_e = mc / s;
  p.nc = nc;
}

// Workspace per thread for work units of at most `rows` × `cols` elements of
// C: packed A block and B panel; for the direct paths, A rows that cannot be
// read in place (real: packed; complex: copied) and, complex, Netlib's TEMP.
template <typename T>
bool reserve_workspace(const Level3Plan<T> &p, Workspace &ws, int threads, int64_t rows, int64_t cols) {
  size_t bytes_a = 0, bytes_b = 0;
  if (p.direct && p.s == 2) {
    bytes_a = !(p.A.rs == 1 && !p.A.conj) ? size_t(rows) * size_t(p.k) * 2 * sizeof(T) : 0;
    bytes_b = size_t(cols) * size_t(p.k) * 2 * sizeof(T);
  } else if (p.direct) {
    bytes_a = p.A.rs != 1 ? size_t(ceil_div(rows, p.mr_e) * p.mr_e) * size_t(p.k) * sizeof(T) : 0;
  } else {
    const int64_t kr = std::min(p.kc_e, p.k) * p.s;
    bytes_a = size_t(ceil_div(std::min(p.mc_e, rows), p.mr_e) * p.K->mr) * size_t(kr) * sizeof(T);
    bytes_b = size_t(ceil_div(std::min(p.nc, cols), p.nr) * p.nr) * size_t(kr) * sizeof(T);
  }
  return ws.reserve(threads, bytes_a, bytes_b);
}

// Scales the m×n block at c by beta (complex when s == 2); beta == 0 writes
// zeros without reading c (Netlib semantics). With tri != all, only elements
// of that triangle are touched; (i0, j0) is the block's position in C.
template <typename T>
void scale_block(int s, int64_t m, int64_t n, const T *beta, T *c, int64_t ldc, Triangle tri = Triangle::all,
                 int64_t i0 = 0, int64_t j0 = 0) {
  const bool zero = beta[0] == T(0) && (s == 1 || beta[1] == T(0));
  for (int64_t j = 0; j < n; ++j) {
    int64_t lo = 0, hi = m;  // rows of column j inside the triangle
    if (tri == Triangle::lower) lo = std::clamp<int64_t>(j0 + j - i0, 0, m);
    if (tri == Triangle::upper) hi = std::clamp<int64_t>(j0 + j - i0 + 1, 0, m);
    T *cj = c + j * ldc * s;
    if (zero) {
      std::fill(cj + lo * s, cj + hi * s, T(0));
    } else if (s == 1) {
      for (int64_t i = lo; i < hi; ++i) cj[i] *= beta[0];
    } else {
      for (int64_t i = lo; i < hi; ++i) {
        const T cr = cj[2 * i], ci = cj[2 * i + 1];
        cj[2 * i] = beta[0] * cr - beta[1] * ci;
        cj[2 * i + 1] = beta[0] * ci + beta[1] * cr;
      }
    }
  }
}

// A complex beta the kernels cannot take as a real scale: anything but 0 and
// 1 must be applied with the complex product, as Netlib's BETA*C(I,J) does —
// even beta = (2, 0) turns C = (-Inf, 0) into (-Inf, NaN) there.
template <typename T>
bool beta_needs_complex_product(const Level3Plan<T> &p) {
  return p.s == 2 && !is_zero<T, true>(p.beta) && !is_one<T, true>(p.beta);
}

// Where an MR×NR tile at (i, j) with mr × nr elements lies against the
// triangle. A tile holding any diagonal element is a diagonal tile (HERK must
// zero those elements' imaginary parts), even if it lies inside the triangle.
enum class TileKind { skip, full, diagonal };
inline TileKind tile_kind(Triangle tri, int64_t i, int64_t j, int64_t mr, int64_t nr) {
  switch (tri) {
    case Triangle::all: return TileKind::full;
    case Triangle::lower:  // keep i >= j
      if (i + mr - 1 < j) return TileKind::skip;
      return i > j + nr - 1 ? TileKind::full : TileKind::diagonal;
    case Triangle::upper:  // keep i <= j
      if (i > j + nr - 1) return TileKind::skip;
      return i + mr - 1 < j ? TileKind::full : TileKind::diagonal;
  }
  return TileKind::full;
}

// Merges a tile that crosses the diagonal: `tile` (column-major, ldt real
// rows) holds alpha·A·B for the whole tile, computed by a micro-kernel with
// beta = 0 (so nothing of C was read); each column's run of triangle elements
// goes into C as c = t + beta·c (a complex beta other than 0/1 by the complex
// product, as Netlib's BETA*C(I,J)). Elements outside the triangle are never
// read or written; HERK zeroes the diagonal's imaginary parts. This file is
// compiled for baseline x86-64, so beta·c is rounded before the add (the
// kernels fuse it); beta = 1, every k block after the first, is exact either
// way, and an element is always in the same kind of tile, so results stay
// independent of the thread count.
template <typename T>
void merge_triangle(const Level3Plan<T> &p, const T *tile, int64_t ldt, T beta_k, bool prescale, int64_t gi,
                    int64_t gj, int64_t mr, int64_t nr) {
  const int s = p.s;
  for (int64_t j = 0; j < nr; ++j) {
    // Rows [lo, hi) of this tile column lie in the triangle.
    const int64_t d = gj + j - gi;  // the diagonal's row within the tile
    const int64_t lo = p.tri == Triangle::lower ? std::clamp<int64_t>(d, 0, mr) : 0;
    const int64_t hi = p.tri == Triangle::lower ? mr : std::clamp<int64_t>(d + 1, 0, mr);
    T *c = p.C + (gi + (gj + j) * p.ldc) * s;
    const T *t = tile + j * ldt;
    if (prescale) {  // complex beta on the first k block
      const T br = p.beta[0], bi = p.beta[1];
      for (int64_t i = lo; i < hi; ++i) {
        const T cr = c[2 * i], ci = c[2 * i + 1];
        c[2 * i] = (br * cr - bi * ci) + t[2 * i];
        c[2 * i + 1] = (br * ci + bi * cr) + t[2 * i + 1];
      }
    } else if (beta_k == T(0)) {
      for (int64_t x = lo * s; x < hi * s; ++x) c[x] = t[x];
    } else if (beta_k == T(1)) {
      for (int64_t x = lo * s; x < hi * s; ++x) c[x] += t[x];
    } else {
      for (int64_t x = lo * s; x < hi * s; ++x) c[x] = c[x] * beta_k + t[x];
    }
    if (p.real_diagonal && d >= 0 && d < mr) c[2 * d + 1] = T(0);
  }
}

// Local tile for the largest register tile of any table (AVX-512 f32: 32×12).
template <typename T>
struct alignas(64) LocalTile {
  T v[32 * 12];
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
  const T alpha_k = cplx ? T(1) : p.alpha[0];  // complex alpha is folded into packed B
  // The kernels take a real beta; a complex one is applied to the tile first.
  // (HERK's real beta scales each part, Netlib's REAL*COMPLEX: to the kernel.)
  const bool beta_complex = !p.alpha_real && beta_needs_complex_product(p);

  for (int64_t jc = n0; jc < n1; jc += p.nc) {
    const int64_t nc = std::min(p.nc, n1 - jc);
    for (int64_t pc = 0; pc < p.k; pc += p.kc_e) {
      const int64_t kc = std::min(p.kc_e, p.k - pc);
      const int64_t kr = kc * s;  // k of the real problem the kernel sees
      const T *b = p.B.p + (pc * p.B.rs + jc * p.B.cs) * s;
      if (cplx) K.pack_b_1r(kc, nc, b, p.B.rs, p.B.cs, p.B.conj, p.alpha, p.alpha_real, Bp);
      else K.pack_b(kc, nc, b, p.B.rs, p.B.cs, Bp);

      const bool first = pc == 0;
      const bool prescale = first && beta_complex;  // kernels take a real beta
      const T beta_k = !first || beta_complex ? T(1) : p.beta[0];

      for (int64_t ic = m0; ic < m1; ic += p.mc_e) {
        const int64_t mc = std::min(p.mc_e, m1 - ic);
        // Rows of this block that meet the triangle within these columns.
        if (p.tri == Triangle::lower && ic + mc - 1 < jc) continue;
        if (p.tri == Triangle::upper && ic > jc + nc - 1) continue;
        const T *a = p.A.p + (ic * p.A.rs + pc * p.A.cs) * s;
        if (cplx) K.pack_a_1e(mc, kc, a, p.A.rs, p.A.cs, p.A.conj, Ap);
        else K.pack_a(mc, kc, a, p.A.rs, p.A.cs, Ap);

        for (int64_t jr = 0; jr < nc; jr += p.nr) {
          const int64_t nr = std::min(p.nr, nc - jr);
          const T *bp = Bp + (jr / p.nr) * p.nr * kr;
          for (int64_t ir = 0; ir < mc; ir += p.mr_e) {
            const int64_t mr = std::min(p.mr_e, mc - ir);
            const T *ap = Ap + (ir / p.mr_e) * K.mr * kr;
            const int64_t gi = ic + ir, gj = jc + jr;
            const TileKind kind = tile_kind(p.tri, gi, gj, mr, nr);
            if (kind == TileKind::skip) continue;
            if (kind == TileKind::diagonal) {
              LocalTile<T> t;
              K.ukr_packed(kr, alpha_k, ap, bp, T(0), t.v, K.mr, mr * s, nr);
              merge_triangle(p, t.v, K.mr, beta_k, prescale, gi, gj, mr, nr);
              continue;
            }
            T *c = p.C + (gi + gj * p.ldc) * s;
            if (prescale) scale_block(s, mr, nr, p.beta, c, p.ldc);
            K.ukr_packed(kr, alpha_k, ap, bp, beta_k, c, p.ldc * s, mr * s, nr);
          }
        }
      }
    }
  }
}

// Small complex problems without 1m packing: op(A) read in place when its
// columns are contiguous and not conjugated (copied otherwise), and
// TEMP(l, j) = alpha·op(B)(l, j) formed first, with Fortran's complex product,
// exactly as Netlib's loops do, so the native complex kernel runs with
// alpha = 1 and Inf/NaN propagate like the reference. Triangle-aware.
template <typename T>
void run_direct_complex(const Level3Plan<T> &p, int slot, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  const GemmKernels<T> &K = *p.K;
  const int64_t rows = m1 - m0, cols = n1 - n0, k = p.k;
  T *Aw = static_cast<T *>(p.ws->a(slot));
  T *Bw = static_cast<T *>(p.ws->b(slot));
  const T *a = p.A.p + 2 * m0;
  int64_t a_ld = p.A.cs;
  if (!(p.A.rs == 1 && !p.A.conj)) {
    const T sg = p.A.conj ? T(-1) : T(1);
    for (int64_t l = 0; l < k; ++l)
      for (int64_t i = 0; i < rows; ++i) {
        const T *e = p.A.p + 2 * ((m0 + i) * p.A.rs + l * p.A.cs);
        Aw[2 * (i + l * rows)] = e[0];
        Aw[2 * (i + l * rows) + 1] = sg * e[1];
      }
    a = Aw;
    a_ld = rows;
  }
  K.form_temp(k, cols, p.B.p + 2 * n0 * p.B.cs, p.B.rs, p.B.cs, p.B.conj, p.alpha, Bw);
  const T zero[2] = {T(0), T(0)};
  // The complex kernel applies such a beta with the complex product; the
  // diagonal merge must do the same.
  const bool beta_complex = beta_needs_complex_product(p);
  for (int64_t jr = n0; jr < n1; jr += p.nr) {
    const int64_t nr = std::min(p.nr, n1 - jr);
    const T *b = Bw + 2 * (jr - n0) * k;
    for (int64_t ir = m0; ir < m1; ir += p.mr_e) {
      const int64_t mr = std::min(p.mr_e, m1 - ir);
      const TileKind kind = tile_kind(p.tri, ir, jr, mr, nr);
      if (kind == TileKind::skip) continue;
      const T *at = a + 2 * (ir - m0);
      if (kind == TileKind::diagonal) {
        LocalTile<T> t;
        K.ukr_cdirect(k, at, a_ld, mr, b, 1, k, zero, t.v, K.mr / 2, mr, nr);
        merge_triangle(p, t.v, K.mr, beta_complex ? T(1) : p.beta[0], beta_complex, ir, jr, mr, nr);
      } else {
        K.ukr_cdirect(k, at, a_ld, mr, b, 1, k, p.beta, p.C + 2 * (ir + jr * p.ldc), p.ldc, mr, nr);
      }
    }
  }
}

// Small problems: no K blocking, B read in place, A read in place when its
// columns are contiguous (op N) and packed once otherwise; triangle-aware like
// run_packed. Complex: run_direct_complex.
template <typename T>
void run_direct(const Level3Plan<T> &p, int slot, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  const GemmKernels<T> &K = *p.K;
  if (p.s == 2) {
    run_direct_complex(p, slot, m0, m1, n0, n1);
    return;
  }
  const bool pack_a = p.A.rs != 1;
  T *Ap = static_cast<T *>(p.ws->a(slot));
  if (pack_a) K.pack_a(m1 - m0, p.k, p.A.p + m0 * p.A.rs, p.A.rs, p.A.cs, Ap);
  for (int64_t jr = n0; jr < n1; jr += p.nr) {
    const int64_t nr = std::min(p.nr, n1 - jr);
    const T *b = p.B.p + jr * p.B.cs;
    for (int64_t ir = m0; ir < m1; ir += p.mr_e) {
      const int64_t mr = std::min(p.mr_e, m1 - ir);
      const TileKind kind = tile_kind(p.tri, ir, jr, mr, nr);
      if (kind == TileKind::skip) continue;
      const T *a = pack_a ? Ap + ((ir - m0) / p.mr_e) * K.mr * p.k : p.A.p + ir;
      const int64_t a_ks = pack_a ? K.mr : p.A.cs, a_rows = pack_a ? K.mr : mr;
      if (kind == TileKind::diagonal) {
        LocalTile<T> t;
        K.ukr_direct(p.k, p.alpha[0], a, a_ks, a_rows, b, p.B.rs, p.B.cs, T(0), t.v, K.mr, mr, nr);
        merge_triangle(p, t.v, K.mr, p.beta[0], false, ir, jr, mr, nr);
      } else {
        K.ukr_direct(p.k, p.alpha[0], a, a_ks, a_rows, b, p.B.rs, p.B.cs, p.beta[0], p.C + ir + jr * p.ldc, p.ldc,
                     mr, nr);
      }
    }
  }
}

}  // namespace tessera::dense
