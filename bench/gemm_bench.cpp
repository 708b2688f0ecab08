// tessera-bench gemm: Tessera beside the peers, alternating, medians.
//
// Flop model: 2·m·n·k for real, 8·m·n·k for complex (SPEC §6). Data uniform in
// [-1, 1], alpha = beta = 1 (C += A·B), caches warm (each library runs a
// warm-up call before it is timed). Each library's samples come from batches
// of calls long enough to time; libraries take turns, in rotating order, for
// `rounds` rounds, and the median of the batch means is reported.
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench.h"
#include "core/cpu.h"
#include "tessera/blas.h"

namespace bench {

namespace {

struct Shape {
  long m, n, k;
  bool square;
};

struct Options {
  std::string types = "s,d,c,z";
  std::vector<long> threads;
  std::vector<Shape> shapes;
  std::string peers;
  std::vector<std::string> peer_libs;  // --peer-lib NAME=PATH
  std::string trans = "NN";
  int rounds = 7;
  bool rounds_given = false;  // --rounds: long calls are not capped to 3 rounds
  double batch_time = 0.01;  // seconds per timed batch
  double warm = 0.02;        // untimed seconds each library runs before a timed batch
  std::string out = "bench-results";
};

tblasOperation_t top(char c) { return c == 'N' ? TBLAS_OP_N : c == 'T' ? TBLAS_OP_T : TBLAS_OP_C; }
int cop(char c) { return c == 'N' ? kNoTrans : c == 'T' ? kTrans : kConjTrans; }

template <typename T>
Row run_gemm_case(tblasHandle_t h, std::vector<Peer> &peers, const Shape &s, int threads, const Options &o,
                  char type, double peak, std::mt19937_64 &rng) {
  const char ta = o.trans[0], tb = o.trans[1];
  const long m = s.m, n = s.n, k = s.k;
  const long lda = ta == 'N' ? m : k, ldb = tb == 'N' ? k : n, ldc = m;
  std::vector<T> A(size_t(lda) * (ta == 'N' ? k : m)), B(size_t(ldb) * (tb == 'N' ? n : k)), C(size_t(m) * n);
  fill(A, rng);
  fill(B, rng);
  fill(C, rng);
  const T one = T(1);
  std::vector<Runner> rs;
  rs.push_back({"Tessera", [h, threads] { tblasSetNumThreads(h, threads); }, [&, h] {
                  tessera_gemm(h, top(ta), top(tb), m, n, k, one, A.data(), lda, B.data(), ldb, one, C.data(), ldc);
                }});
  for (Peer &p : peers) {
    Peer *pp = &p;
    rs.push_back({p.name, [pp, threads] { pp->set_threads(threads); }, [&, pp] {
                    if constexpr (std::is_same_v<T, float>)
                      pp->sgemm(kColMajor, cop(ta), cop(tb), m, n, k, 1.0f, A.data(), lda, B.data(), ldb, 1.0f, C.data(), ldc);
                    else if constexpr (std::is_same_v<T, double>)
                      pp->dgemm(kColMajor, cop(ta), cop(tb), m, n, k, 1.0, A.data(), lda, B.data(), ldb, 1.0, C.data(), ldc);
                    else if constexpr (std::is_same_v<T, std::complex<float>>)
                      pp->cgemm(kColMajor, cop(ta), cop(tb), m, n, k, &one, A.data(), lda, B.data(), ldb, &one, C.data(), ldc);
                    else
                      pp->zgemm(kColMajor, cop(ta), cop(tb), m, n, k, &one, A.data(), lda, B.data(), ldb, &one, C.data(), ldc);
                  }});
  }
  const bool cplx = type == 'c' || type == 'z';
  const double flops = (cplx ? 8.0 : 2.0) * double(m) * double(n) * double(k);
  const std::string shape = o.trans + " " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  Row row{"gemm", std::string(1, type), shape, threads, double(s.square ? n : m), s.square, peak};
  measure_row(row, rs, o.rounds, o.batch_time, o.warm, flops, 0, !o.rounds_given);
  return row;
}

void usage() {
  std::printf(
      "tessera-bench gemm [options]\n"
      "  --quick              short showcase run (n = 64, 256, 1024, one skinny shape; 5 rounds)\n"
      "  --types s,d,c,z      precisions (default all four)\n"
      "  --threads 1,2        thread counts (default 1 and the cores available)\n"
      "  --sizes 16,32,...    square sizes m=n=k (default 16...4096)\n"
      "  --shape MxNxK        add a non-square shape (repeatable)\n"
      "  --no-skinny          drop the default skinny shapes\n"
      "  --trans NN|NT|TN|... op(A) op(B) (default NN)\n"
      "  --peers a,b          peers by name: OpenBLAS, OpenBLAS-ZEN, OpenBLAS-omp, OpenBLAS-omp-ZEN, BLIS (default all)\n"
      "  --peer-lib NAME=PATH add a CBLAS library from a file as a peer (repeatable), e.g. another\n"
      "                       build's libtessera_blas.so for an A/B in one process\n"
      "  --rounds R           alternating rounds per case (default 7; --quick 5; calls of 0.25 s or\n"
      "                       more: at most 3 unless given)\n"
      "  --warm-ms W          untimed run of each library before each timed batch (default 20)\n"
      "  --out DIR            CSV and PNG go here (default bench-results)\n");
}

}  // namespace

int gemm_main(int argc, char **argv) {
  Options o;
  std::vector<long> sizes = {16, 32, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096};
  std::vector<Shape> extra;
  bool skinny = true, quick = false;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--quick") quick = true;
    else if (a == "--types") o.types = next();
    else if (a == "--threads") o.threads = parse_list(next());
    else if (a == "--sizes") sizes = parse_list(next());
    else if (a == "--shape") {
      long m = 0, n = 0, k = 0;
      if (std::sscanf(next().c_str(), "%ldx%ldx%ld", &m, &n, &k) == 3) extra.push_back({m, n, k, false});
    } else if (a == "--no-skinny") skinny = false;
    else if (a == "--trans") o.trans = next();
    else if (a == "--peers") o.peers = next();
    else if (a == "--peer-lib") o.peer_libs.push_back(next());
    else if (a == "--rounds") {
      o.rounds = std::atoi(next().c_str());
      o.rounds_given = true;
    }
    else if (a == "--warm-ms") o.warm = std::atof(next().c_str()) * 1e-3;
    else if (a == "--out") o.out = next();
    else if (a == "-h" || a == "--help") { usage(); return 0; }
    else { std::fprintf(stderr, "unknown option %s\n", a.c_str()); usage(); return 2; }
  }
  if (o.trans.size() != 2) { std::fprintf(stderr, "--trans takes two letters\n"); return 2; }
  if (quick) {
    sizes = {64, 256, 1024};
    o.rounds = 5;
  }
  const int cores = tessera::available_cores();
  if (o.threads.empty()) o.threads = cores > 1 ? std::vector<long>{1, cores} : std::vector<long>{1};
  for (long n : sizes) o.shapes.push_back({n, n, n, true});
  if (skinny) {
    if (quick) o.shapes.push_back({2048, 2048, 32, false});
    else for (Shape s : {Shape{2048, 2048, 32, false}, Shape{20000, 64, 64, false}, Shape{64, 64, 20000, false}}) o.shapes.push_back(s);
  }
  for (auto &s : extra) o.shapes.push_back(s);

  std::vector<Peer> peers = load_peers(o.peers, true, o.peer_libs);
  tblasHandle_t h;
  if (tblasCreate(&h) != TESSERA_STATUS_SUCCESS) return 1;
  tesseraArch_t arch;
  tblasGetArch(h, &arch);
  std::fprintf(stderr, "Tessera path: %s; cores available: %d\n", tesseraGetArchString(arch), cores);

  std::vector<Peak> peaks;
  for (long t : o.threads) {
    peaks.push_back(measure_peak(int(t)));
    std::fprintf(stderr, "measured FMA peak, %ld thread(s): f64 %.1f GFLOP/s, f32 %.1f GFLOP/s\n", t, peaks.back().f64,
                 peaks.back().f32);
  }

  std::vector<std::string> libs = {"Tessera"};
  for (auto &p : peers) libs.push_back(p.name);
  print_header(libs);
  std::vector<Row> rows;
  std::mt19937_64 rng(2026);
  std::vector<char> types;
  for (char c : o.types) if (c == 's' || c == 'd' || c == 'c' || c == 'z') types.push_back(c);
  const size_t total = types.size() * o.threads.size() * o.shapes.size();
  const bool tty = isatty(2);  // progress line only on a terminal
  size_t done = 0;
  for (char type : types)
    for (size_t ti = 0; ti < o.threads.size(); ++ti)
      for (const Shape &s : o.shapes) {
        const int t = int(o.threads[ti]);
        const double peak = peaks[ti].for_type(type);
        ++done;
        if (tty) std::fprintf(stderr, "\r[%zu/%zu] %cgemm %ldx%ldx%ld, %d thread(s)...", done, total, type, s.m, s.n, s.k, t);
        Row r;
        switch (type) {
          case 's': r = run_gemm_case<float>(h, peers, s, t, o, type, peak, rng); break;
          case 'd': r = run_gemm_case<double>(h, peers, s, t, o, type, peak, rng); break;
          case 'c': r = run_gemm_case<std::complex<float>>(h, peers, s, t, o, type, peak, rng); break;
          default: r = run_gemm_case<std::complex<double>>(h, peers, s, t, o, type, peak, rng); break;
        }
        if (tty) std::fprintf(stderr, "\r%70s\r", "");
        print_row(r);
        rows.push_back(r);
      }
  tblasDestroy(h);
  write_table(rows, o.threads, o.out, "gemm", "", "GEMM " + o.trans + ": Tessera vs peers (GFLOP/s, median)");
  return 0;
}

}  // namespace bench
