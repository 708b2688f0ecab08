// tessera-bench internals: timing, machine peak, peer libraries, reports.
#pragma once
#include <chrono>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/blas.h"

namespace bench {

inline double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double median(std::vector<double> v);

inline std::vector<long> parse_list(const std::string &s) {
  std::vector<long> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(std::atol(item.c_str()));
  return v;
}

// Uniform random data in [-1, 1] (real and imaginary parts), never zeros.
template <typename T>
void fill(std::vector<T> &v, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> d(-1, 1);
  for (auto &x : v) {
    if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
      x = T(d(rng), d(rng));
    else
      x = T(d(rng));
  }
}

// Tessera's GEMM for T (float, double, std::complex<float/double>), C = alpha·op(A)·op(B) + beta·C.
template <typename T>
void tessera_gemm(tblasHandle_t h, tblasOperation_t ta, tblasOperation_t tb, long m, long n, long k, const T &alpha,
                  const T *A, long lda, const T *B, long ldb, const T &beta, T *C, long ldc) {
  if constexpr (std::is_same_v<T, float>)
    tblasSgemm(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
  else if constexpr (std::is_same_v<T, double>)
    tblasDgemm(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    tblasCgemm(h, ta, tb, m, n, k, (const tesseraComplex *)&alpha, (const tesseraComplex *)A, lda,
               (const tesseraComplex *)B, ldb, (const tesseraComplex *)&beta, (tesseraComplex *)C, ldc);
  else
    tblasZgemm(h, ta, tb, m, n, k, (const tesseraDoubleComplex *)&alpha, (const tesseraDoubleComplex *)A, lda,
               (const tesseraDoubleComplex *)B, ldb, (const tesseraDoubleComplex *)&beta, (tesseraDoubleComplex *)C,
               ldc);
}

// Measured FMA peak in GFLOP/s for `threads` threads (fp64 and fp32).
struct Peak {
  double f64 = 0, f32 = 0;
  // The peak for a BLAS type letter: single precision (s, c) or double (d, z).
  double for_type(char type) const { return type == 's' || type == 'c' ? f32 : f64; }
};
Peak measure_peak(int threads);

// CBLAS enum values (cblas.h) for calling the peers without their headers.
enum { kColMajor = 102, kNoTrans = 111, kTrans = 112, kConjTrans = 113, kUpper = 121, kLower = 122 };

// A BLAS loaded with dlopen, called through its CBLAS entry points.
struct Peer {
  std::string name;    // e.g. "OpenBLAS-omp-ZEN"
  std::string detail;  // e.g. core name / arch reported by the library
  void *lib = nullptr;
  void (*sgemm)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int) = nullptr;
  void (*dgemm)(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *, int) = nullptr;
  void (*cgemm)(int, int, int, int, int, int, const void *, const void *, int, const void *, int, const void *, void *, int) = nullptr;
  void (*zgemm)(int, int, int, int, int, int, const void *, const void *, int, const void *, int, const void *, void *, int) = nullptr;
  void (*ssyrk)(int, int, int, int, int, float, const float *, int, float, float *, int) = nullptr;
  void (*dsyrk)(int, int, int, int, int, double, const double *, int, double, double *, int) = nullptr;
  void (*csyrk)(int, int, int, int, int, const void *, const void *, int, const void *, void *, int) = nullptr;
  void (*zsyrk)(int, int, int, int, int, const void *, const void *, int, const void *, void *, int) = nullptr;
  void (*cherk)(int, int, int, int, int, float, const void *, int, float, void *, int) = nullptr;
  void (*zherk)(int, int, int, int, int, double, const void *, int, double, void *, int) = nullptr;
  std::function<void(int)> set_threads;
};
// Loads the peers present on this machine; `filter` is a comma list of name
// prefixes ("" = all). `libs` adds peers from files, each "NAME=PATH" (any
// library with the CBLAS symbols and a way to set its thread count, e.g.
// another Tessera build's libtessera_blas.so, for A/B runs in one process).
std::vector<Peer> load_peers(const std::string &filter, bool verbose, const std::vector<std::string> &libs = {});

// One library's way to run a case once.
struct Runner {
  std::string name;
  std::function<void()> set_threads;
  std::function<void()> call;
};
// Times one case over all runners, alternating in rotating order; returns
// each runner's seconds per call, one sample per round (see timing.cpp for
// the protocol).
// `starts`, if given, receives each sample's start time (now_s()).
// cap_long_calls: calls of 0.25 s or more run at most 3 rounds (the default
// run's time budget); off when the user asked for a number of rounds.
std::vector<std::vector<double>> time_case_rounds(std::vector<Runner> &rs, int rounds, double batch_time,
                                                  double warm, std::vector<std::vector<double>> *starts = nullptr,
                                                  bool cap_long_calls = true);
// The median of each runner's samples.
std::vector<double> time_case(std::vector<Runner> &rs, int rounds, double batch_time, double warm);

// One measured row of a report.
struct Row {
  std::string op, type, shape;  // e.g. "gemm", "d", "NN 1024x1024x1024"
  int threads = 1;
  double size = 0;              // x axis for plots (n for squares)
  bool square = true;
  double peak = 0;              // GFLOP/s
  std::vector<std::pair<std::string, double>> gflops;  // library → median GFLOP/s ("Tessera" first)
  // Tessera vs the best peer — the peer configuration with the fastest
  // median, the one best_peer() names — paired by round: the median over
  // rounds of Tessera's speed ÷ that peer's in the same round (0 without
  // peers). Each round's calls run back to back, so a slow spell of the
  // shared host lowers both sides of a round's ratio; medians taken per
  // library apart can pick samples from different spells.
  double ratio = 0;
  // The stricter ratio against whichever peer was fastest in each round (the
  // bench's "vs best" until session 26): the minimum of several noisy peer
  // samples — two of them the same OpenBLAS kernels at 1 thread — lies
  // below any one configuration's typical time, so it reads ~1.5 % lower on
  // average (session 25's GEMM table, recomputed from its samples.csv:
  // geomean 1.144 against 1.160, 73 against 79 of 88 rows ≥ 1.0).
  double ratio_each_round = 0;
  // Each library's seconds per call, one per round, in `gflops` order; the
  // library at index i ran at position (i - round) mod L of that round
  // (time_case_rounds rotates who goes first), and the reference (below),
  // if any, last. Written to samples.csv.
  std::vector<std::vector<double>> seconds, starts;  // starts: now_s() at each sample's start
  // A Tessera reference call timed in the same rounds but not a peer (the
  // SYRK rows' GEMM of the same precision and shape, issue 3's "≥ 93 % of
  // Tessera's own GEMM"): its median GFLOP/s, and the median over rounds of
  // Tessera's rate ÷ the reference's rate in that round (0 without one).
  std::string ref_name;
  double ref_gflops = 0, ref_ratio = 0;
};
// The fastest peer's GFLOP/s in a row (0 if none), and its name; its index
// in `gflops` (0 if none: Tessera's).
double best_peer(const Row &r, std::string *name = nullptr);
size_t best_peer_index(const Row &r);
// Times a case whose runner 0 is Tessera (time_case_rounds) into `row`:
// each library's median GFLOP/s for a call of `flops`, and the paired ratio.
// With ref_flops > 0 the last runner is the row's reference (see Row), a call
// of ref_flops, timed in the same rotation; the runners between are peers.
void measure_row(Row &row, std::vector<Runner> &rs, int rounds, double batch_time, double warm, double flops,
                 double ref_flops = 0, bool cap_long_calls = true);
// `ref`: the title of the rows' reference column (Row::ref_name), if any.
void print_header(const std::vector<std::string> &libs, const char *ref = nullptr);
void print_row(const Row &r);
void write_csv(const std::string &path, const std::vector<Row> &rows);
// Every round's sample of every library (Row::seconds), one line each: for
// telling a slow spell of the host from a slow library after the fact.
void write_samples_csv(const std::string &path, const std::vector<Row> &rows);
// Draws GFLOP/s vs size, one panel per (type, threads); needs gnuplot.
bool write_plot(const std::string &png, const std::string &csv_dir, const std::vector<Row> &rows, const std::string &title);
// The end of a table run: the FMA peak measured again for each thread count,
// each row keeping the better figure (the host may lend our cores to others
// for a while, and a first probe in such a spell reads low: rows past 100 %;
// the rows printed during the run used it), then out/<stem>.csv,
// out/samples.csv and the plot out/<stem>.png (its data files under
// out/<plot_prefix>), each path printed.
void write_table(std::vector<Row> &rows, const std::vector<long> &threads, const std::string &out,
                 const std::string &stem, const std::string &plot_prefix, const std::string &title);

int gemm_main(int argc, char **argv);
int syrk_main(int argc, char **argv);
int pool_main(int argc, char **argv);
int peak_main(int argc, char **argv);
int spmv_main(int argc, char **argv);
int spvv_main(int argc, char **argv);

}  // namespace bench
