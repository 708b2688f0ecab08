// tessera-bench syrk: SYRK/HERK, Tessera beside the peers' cblas_?syrk/?herk.
//
// Flop model (SPEC §6): real syrk n(n+1)k, complex syrk and herk 4n(n+1)k.
// Data uniform in [-1, 1], alpha = beta = 1 (herk: C's diagonal made real
// first), warm caches; timing protocol as gemm (timing.cpp).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <filesystem>
#include <string>
#include <vector>

#include "bench.h"
#include "core/cpu.h"
#include "tessera/blas.h"

namespace bench {

namespace {

struct Options {
  std::vector<std::string> routines = {"ssyrk", "dsyrk", "csyrk", "zsyrk", "cherk", "zherk"};
  std::vector<long> threads;
  std::vector<std::pair<long, long>> shapes;  // (n, k)
  std::string peers;
  std::vector<std::string> peer_libs;  // --peer-lib NAME=PATH
  char uplo = 'L', trans = 'N';
  bool own_gemm = true;  // time Tessera's GEMM of the same shape as each row's reference
  int rounds = 7;
  bool rounds_given = false;  // --rounds: long calls are not capped to 3 rounds
  double batch_time = 0.01, warm = 0.02;
  std::string out = "bench-results";
};

template <typename T, typename R>
Row run_syrk_case(tblasHandle_t h, std::vector<Peer> &peers, const std::string &routine, long n, long k, int threads,
                  const Options &o, double peak, std::mt19937_64 &rng) {
  const bool herk = routine[1] == 'h';
  const bool tr = o.trans != 'N';
  const long lda = tr ? k : n;
  std::vector<T> A(size_t(lda) * size_t(tr ? n : k)), C(size_t(n) * size_t(n));
  fill(A, rng);
  fill(C, rng);
  if constexpr (!std::is_same_v<T, R>)
    for (long j = 0; j < n; ++j) C[j + j * n] = T(C[j + j * n].real());
  const T one = T(1);
  const R rone = R(1);
  const auto u = o.uplo == 'L' ? TBLAS_FILL_MODE_LOWER : TBLAS_FILL_MODE_UPPER;
  // HERK takes C for a transposed A; SYRK T (C is the same for complex SYRK).
  const auto t = !tr ? TBLAS_OP_N : herk ? TBLAS_OP_C : TBLAS_OP_T;
  const int cu = o.uplo == 'L' ? kLower : kUpper, ct = !tr ? kNoTrans : herk ? kConjTrans : kTrans;
  std::vector<Runner> rs;
  rs.push_back({"Tessera", [h, threads] { tblasSetNumThreads(h, threads); }, [&, h] {
                  if constexpr (std::is_same_v<T, float>)
                    tblasSsyrk(h, u, t, n, k, &one, A.data(), lda, &one, C.data(), n);
                  else if constexpr (std::is_same_v<T, double>)
                    tblasDsyrk(h, u, t, n, k, &one, A.data(), lda, &one, C.data(), n);
                  else if constexpr (std::is_same_v<T, std::complex<float>>) {
                    if (herk) tblasCherk(h, u, t, n, k, &rone, (const tesseraComplex *)A.data(), lda, &rone, (tesseraComplex *)C.data(), n);
                    else tblasCsyrk(h, u, t, n, k, (const tesseraComplex *)&one, (const tesseraComplex *)A.data(), lda,
                                    (const tesseraComplex *)&one, (tesseraComplex *)C.data(), n);
                  } else {
                    if (herk) tblasZherk(h, u, t, n, k, &rone, (const tesseraDoubleComplex *)A.data(), lda, &rone, (tesseraDoubleComplex *)C.data(), n);
                    else tblasZsyrk(h, u, t, n, k, (const tesseraDoubleComplex *)&one, (const tesseraDoubleComplex *)A.data(), lda,
                                    (const tesseraDoubleComplex *)&one, (tesseraDoubleComplex *)C.data(), n);
                  }
                }});
  for (Peer &p : peers) {
    Peer *pp = &p;
    rs.push_back({p.name, [pp, threads] { pp->set_threads(threads); }, [&, pp] {
                    if constexpr (std::is_same_v<T, float>)
                      pp->ssyrk(kColMajor, cu, ct, n, k, 1.0f, A.data(), lda, 1.0f, C.data(), n);
                    else if constexpr (std::is_same_v<T, double>)
                      pp->dsyrk(kColMajor, cu, ct, n, k, 1.0, A.data(), lda, 1.0, C.data(), n);
                    else if constexpr (std::is_same_v<T, std::complex<float>>) {
                      if (herk) pp->cherk(kColMajor, cu, ct, n, k, 1.0f, A.data(), lda, 1.0f, C.data(), n);
                      else pp->csyrk(kColMajor, cu, ct, n, k, &one, A.data(), lda, &one, C.data(), n);
                    } else {
                      if (herk) pp->zherk(kColMajor, cu, ct, n, k, 1.0, A.data(), lda, 1.0, C.data(), n);
                      else pp->zsyrk(kColMajor, cu, ct, n, k, &one, A.data(), lda, &one, C.data(), n);
                    }
                  }});
  }
  // Issue 3's "≥ 93 % of Tessera's own GEMM rate": the GEMM that computes
  // the same product over the whole square, C2 = op(A)·op(A)^T (^H for
  // herk) + C2 with C2 n × n, in the same rounds (Row::ref_ratio).
  std::vector<T> C2;
  double gemm_flops = 0;
  if (o.own_gemm) {
    C2 = C;
    gemm_flops = (std::is_same_v<T, R> ? 2.0 : 8.0) * double(n) * double(n) * double(k);
    const auto ot = herk ? TBLAS_OP_C : TBLAS_OP_T;
    const auto ta = tr ? ot : TBLAS_OP_N, tb = tr ? TBLAS_OP_N : ot;
    rs.push_back({"Tessera-GEMM", [h, threads] { tblasSetNumThreads(h, threads); }, [&, h, ta, tb] {
                    tessera_gemm(h, ta, tb, n, n, k, one, A.data(), lda, A.data(), lda, one, C2.data(), n);
                  }});
  }
  const double flops = (std::is_same_v<T, R> ? 1.0 : 4.0) * double(n) * double(n + 1) * double(k);
  const std::string shape = std::string(1, o.uplo) + o.trans + " " + std::to_string(n) + "x" + std::to_string(k);
  Row row{routine.substr(1), routine.substr(0, 1), shape, threads, double(n), n == k, peak};
  measure_row(row, rs, o.rounds, o.batch_time, o.warm, flops, gemm_flops, !o.rounds_given);
  return row;
}

// The seed's performance suite: every case of a CSV (id, category, uplo,
// trans, n, k, threads) as csyrk side by side with the peers; a per-case ratio
// report (CSV), a summary (geomean, min, share of cases >= 1.0, per category)
// and a plot of the ratios.
int run_suite(tblasHandle_t h, std::vector<Peer> &peers, const Options &base, const std::string &file) {
  std::ifstream f(file);
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", file.c_str());
    return 2;
  }
  struct Case {
    std::string id, category;
    char uplo, trans;
    long n, k;
    int threads;
  };
  std::vector<Case> cases;
  std::string line;
  std::getline(f, line);
  while (std::getline(f, line)) {
    std::stringstream ss(line);
    std::vector<std::string> c;
    std::string x;
    while (std::getline(ss, x, ',')) c.push_back(x);
    if (c.size() == 7) cases.push_back({c[0], c[1], c[2][0], c[3][0], std::atol(c[4].c_str()), std::atol(c[5].c_str()), std::atoi(c[6].c_str())});
  }
  const int cores = tessera::available_cores();
  Peak peaks[3] = {{}, measure_peak(1), measure_peak(std::min(2, cores))};
  std::filesystem::create_directories(base.out);
  const std::string report = base.out + "/csyrk_suite.csv";
  std::ofstream out(report);
  out << "id,category,uplo,trans,n,k,threads,tessera_gflops,best_peer,best_peer_gflops,ratio,ratio_fastest_each_round\n";
  std::mt19937_64 rng(2028);
  std::vector<double> ratios, strict;  // strict: against the fastest peer of each round (Row::ratio_each_round)
  std::map<std::string, std::vector<double>> by_cat;
  std::printf("%-10s %-7s %s%s %5s %5s %3s %9s %9s %-17s %6s\n", "id", "cat", "u", "t", "n", "k", "thr", "Tessera",
              "best peer", "", "ratio");
  const bool tty = isatty(2);
  for (size_t ci = 0; ci < cases.size(); ++ci) {
    const Case &c = cases[ci];
    if (tty) std::fprintf(stderr, "\r[%zu/%zu] %s...", ci + 1, cases.size(), c.id.c_str());
    Options o = base;
    o.own_gemm = false;  // the suite's bar is against the peers alone
    o.uplo = c.uplo;
    o.trans = c.trans;
    const int t = std::max(1, std::min(c.threads, std::max(1, cores)));
    const Row r = run_syrk_case<std::complex<float>, float>(h, peers, "csyrk", c.n, c.k, t, o, peaks[std::min(t, 2)].f32, rng);
    std::string best_name = "-";
    const double best = best_peer(r, &best_name);
    const double ratio = r.ratio;
    if (best > 0) {
      ratios.push_back(ratio);
      strict.push_back(r.ratio_each_round);
      by_cat[c.category].push_back(ratio);
    }
    if (tty) std::fprintf(stderr, "\r%40s\r", "");
    std::printf("%-10s %-7s %c%c %5ld %5ld %3d %9.1f %9.1f %-17s %6.2f\n", c.id.c_str(), c.category.c_str(), c.uplo,
                c.trans, c.n, c.k, t, r.gflops[0].second, best, best_name.c_str(), ratio);
    std::fflush(stdout);
    out << c.id << ',' << c.category << ',' << c.uplo << ',' << c.trans << ',' << c.n << ',' << c.k << ',' << t << ','
        << r.gflops[0].second << ',' << best_name << ',' << best << ',' << ratio << ','
        << r.ratio_each_round << '\n';
  }
  out.close();
  auto geomean = [](const std::vector<double> &v) {
    double s = 0;
    for (double x : v) s += std::log(x);
    return v.empty() ? 0.0 : std::exp(s / double(v.size()));
  };
  if (!ratios.empty()) {
    const double mn = *std::min_element(ratios.begin(), ratios.end());
    const size_t wins = size_t(std::count_if(ratios.begin(), ratios.end(), [](double x) { return x >= 1.0; }));
    std::printf("\ncsyrk suite: %zu cases vs the best peer per case: geomean %.3f, min %.3f, %zu/%zu (%.0f%%) >= 1.0\n",
                ratios.size(), geomean(ratios), mn, wins, ratios.size(), 100.0 * double(wins) / double(ratios.size()));
    const size_t strict_wins = size_t(std::count_if(strict.begin(), strict.end(), [](double x) { return x >= 1.0; }));
    std::printf("  (against the fastest peer of each round: geomean %.3f, min %.3f, %zu/%zu >= 1.0)\n", geomean(strict),
                *std::min_element(strict.begin(), strict.end()), strict_wins, strict.size());
    for (auto &[cat, v] : by_cat)
      std::printf("  %-8s %3zu cases: geomean %.3f, min %.3f\n", cat.c_str(), v.size(), geomean(v),
                  *std::min_element(v.begin(), v.end()));
  }
  std::printf("report: %s\n", report.c_str());
  // Plot: ratio per case, with the 1.0 line and the 1.15 bar.
  if (std::system("command -v gnuplot > /dev/null 2>&1") == 0) {
    const std::string gp = base.out + "/csyrk_suite.gp", png = base.out + "/csyrk_suite.png";
    std::ofstream g(gp);
    g << "set terminal pngcairo size 1400,500 font 'sans,10' noenhanced\nset output '" << png << "'\n"
      << "set datafile separator ','\nset key top left\nset grid\nset xlabel 'case (TC_PF_001...200)'\n"
      << "set ylabel 'Tessera / best peer (GFLOP/s)'\nset title 'csyrk performance suite: Tessera vs best peer per case'\n"
      << "plot '" << report << "' every ::1 using 0:11 with impulses lw 3 title 'ratio', 1.0 lw 2 lc rgb 'black' title '1.0', "
      << "1.15 dt 2 lw 2 lc rgb 'red' title '1.15 (bar)'\n";
    g.close();
    if (std::system(("gnuplot '" + gp + "'").c_str()) == 0) std::printf("plot: %s\n", png.c_str());
  }
  return 0;
}

void usage() {
  std::printf(
      "tessera-bench syrk [options]\n"
      "  --quick              n = k = 64, 256, 1024; 5 rounds\n"
      "  --routines a,b       ssyrk,dsyrk,csyrk,zsyrk,cherk,zherk (default all)\n"
      "  --threads 1,2        thread counts (default 1 and the cores available)\n"
      "  --sizes 64,...       n = k (default 16...2048)\n"
      "  --shape NxK          add a shape (repeatable)\n"
      "  --uplo L|U  --trans N|T   (T means C for herk)\n"
      "  --peers a,b  --peer-lib NAME=PATH   as for gemm\n"
      "  --no-own-gemm        skip the reference column: Tessera's GEMM of the same shape and\n"
      "                       precision (op(A)·op(A)^T over the whole square), timed in the same\n"
      "                       rounds; T÷ref = SYRK's GFLOP/s ÷ that GEMM's, paired per round\n"
      "  --rounds R  --warm-ms W  --out DIR\n"
      "  --suite [FILE]       the csyrk performance suite (default bench/cases/csyrk_perf.csv)\n");
}

}  // namespace

int syrk_main(int argc, char **argv) {
  Options o;
  std::vector<long> sizes = {16, 32, 64, 128, 256, 512, 1024, 2048};
  std::vector<std::pair<long, long>> extra;
  std::string suite;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--quick") { sizes = {64, 256, 1024}; o.rounds = 5; }
    else if (a == "--routines") {
      o.routines.clear();
      std::stringstream ss(next());
      std::string r;
      while (std::getline(ss, r, ',')) o.routines.push_back(r);
    } else if (a == "--threads") o.threads = parse_list(next());
    else if (a == "--sizes") sizes = parse_list(next());
    else if (a == "--shape") {
      long n = 0, k = 0;
      if (std::sscanf(next().c_str(), "%ldx%ld", &n, &k) == 2) extra.push_back({n, k});
    } else if (a == "--uplo") o.uplo = next()[0];
    else if (a == "--trans") o.trans = next()[0];
    else if (a == "--no-own-gemm") o.own_gemm = false;
    else if (a == "--peers") o.peers = next();
    else if (a == "--peer-lib") o.peer_libs.push_back(next());
    else if (a == "--rounds") {
      o.rounds = std::atoi(next().c_str());
      o.rounds_given = true;
    }
    else if (a == "--warm-ms") o.warm = std::atof(next().c_str()) * 1e-3;
    else if (a == "--out") o.out = next();
    else if (a == "--suite") suite = (i + 1 < argc && argv[i + 1][0] != '-') ? next() : std::string(TESSERA_SOURCE_DIR "/bench/cases/csyrk_perf.csv");
    else if (a == "-h" || a == "--help") { usage(); return 0; }
    else { std::fprintf(stderr, "unknown option %s\n", a.c_str()); usage(); return 2; }
  }
  const int cores = tessera::available_cores();
  if (o.threads.empty()) o.threads = cores > 1 ? std::vector<long>{1, cores} : std::vector<long>{1};
  for (long n : sizes) o.shapes.push_back({n, n});
  for (auto &s : extra) o.shapes.push_back(s);
  std::vector<Peer> peers = load_peers(o.peers, true, o.peer_libs);
  tblasHandle_t h;
  if (tblasCreate(&h) != TESSERA_STATUS_SUCCESS) return 1;
  if (!suite.empty()) {
    const int rc = run_suite(h, peers, o, suite);
    tblasDestroy(h);
    return rc;
  }
  std::vector<Peak> peaks;
  for (long t : o.threads) peaks.push_back(measure_peak(int(t)));
  std::vector<std::string> libs = {"Tessera"};
  for (auto &p : peers) libs.push_back(p.name);
  print_header(libs, o.own_gemm ? "own GEMM" : nullptr);
  std::vector<Row> rows;
  std::mt19937_64 rng(2027);
  for (const std::string &r : o.routines)
    for (size_t ti = 0; ti < o.threads.size(); ++ti)
      for (auto [n, k] : o.shapes) {
        const int t = int(o.threads[ti]);
        const double peak = peaks[ti].for_type(r[0]);
        Row row;
        if (r == "ssyrk") row = run_syrk_case<float, float>(h, peers, r, n, k, t, o, peak, rng);
        else if (r == "dsyrk") row = run_syrk_case<double, double>(h, peers, r, n, k, t, o, peak, rng);
        else if (r == "csyrk" || r == "cherk") row = run_syrk_case<std::complex<float>, float>(h, peers, r, n, k, t, o, peak, rng);
        else if (r == "zsyrk" || r == "zherk") row = run_syrk_case<std::complex<double>, double>(h, peers, r, n, k, t, o, peak, rng);
        else { std::fprintf(stderr, "unknown routine %s\n", r.c_str()); return 2; }
        print_row(row);
        rows.push_back(row);
      }
  tblasDestroy(h);
  write_table(rows, o.threads, o.out, "syrk", "syrk",
              std::string("SYRK/HERK ") + o.uplo + o.trans + ": Tessera vs peers (GFLOP/s, median)");
  return 0;
}

}  // namespace bench
