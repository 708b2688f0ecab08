// Tables on stdout, CSV files and gnuplot PNG plots.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <tuple>

#include "bench.h"

namespace bench {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

size_t best_peer_index(const Row &r) {
  size_t best = 0;
  for (size_t i = 1; i < r.gflops.size(); ++i)
    if (best == 0 || r.gflops[i].second > r.gflops[best].second) best = i;
  return best;
}

double best_peer(const Row &r, std::string *name) {
  const size_t i = best_peer_index(r);
  if (i == 0) return 0;
  if (name) *name = r.gflops[i].first;
  return r.gflops[i].second;
}

void print_header(const std::vector<std::string> &libs, const char *ref) {
  std::printf("%-6s %-26s %3s %8s %6s", "op", "shape", "thr", "peak", "");
  for (const auto &l : libs) std::printf(" %11.11s", l.c_str());
  if (ref) std::printf(" %7s %-16s %7s %7s\n", "vs.best", "best peer", ref, "T÷ref");
  else std::printf(" %7s %s\n", "vs.best", "best peer");
  std::fflush(stdout);
}

void print_row(const Row &r) {
  std::printf("%-6s %-26s %3d %8.1f %6s", (r.type + r.op).c_str(), r.shape.c_str(), r.threads, r.peak, "GF/s");
  for (const auto &[lib, g] : r.gflops) {
    if (&lib == &r.gflops.front().first)
      std::printf(" %5.1f(%3.0f%%)", g, r.peak > 0 ? 100 * g / r.peak : 0.0);
    else
      std::printf(" %11.1f", g);
  }
  std::string name;
  double best = best_peer(r, &name);
  if (best > 0) std::printf(r.ref_name.empty() ? " %6.2fx %s" : " %6.2fx %-16s", r.ratio, name.c_str());
  if (!r.ref_name.empty()) std::printf(" %7.1f %6.2fx", r.ref_gflops, r.ref_ratio);
  std::printf("\n");
  std::fflush(stdout);
}

void write_csv(const std::string &path, const std::vector<Row> &rows) {
  std::ofstream f(path);
  f << "op,type,shape,threads,size,square,library,gflops,peak_gflops,pct_peak,ratio_vs_best_peer,ratio_vs_own_gemm,ratio_vs_fastest_each_round\n";
  for (const Row &r : rows) {
    for (const auto &[lib, g] : r.gflops)
      f << r.op << ',' << r.type << ',' << r.shape << ',' << r.threads << ',' << r.size << ',' << (r.square ? 1 : 0)
        << ',' << lib << ',' << g << ',' << r.peak << ',' << (r.peak > 0 ? 100 * g / r.peak : 0) << ','
        << (lib == "Tessera" ? r.ratio : 0) << ',' << (lib == "Tessera" ? r.ref_ratio : 0) << ','
        << (lib == "Tessera" ? r.ratio_each_round : 0) << '\n';
  }
}

void write_samples_csv(const std::string &path, const std::vector<Row> &rows) {
  std::ofstream f(path);
  f << "op,type,shape,threads,library,round,position,start_s,seconds,gflops\n";
  for (const Row &r : rows) {
    const size_t L = r.seconds.size();
    for (size_t i = 0; i < L; ++i) {
      const bool ref = i == r.gflops.size() && !r.ref_name.empty();
      if (i >= r.gflops.size() && !ref) break;
      const std::string &name = ref ? r.ref_name : r.gflops[i].first;
      const double g = ref ? r.ref_gflops : r.gflops[i].second;
      // GFLOP/s of a sample from the row's median: gflops x median / sample.
      const double med = median(r.seconds[i]);
      for (size_t k = 0; k < r.seconds[i].size(); ++k)
        f << r.op << ',' << r.type << ',' << r.shape << ',' << r.threads << ',' << name << ',' << k << ','
          << (i + L - k % L) % L << ',' << std::fixed << std::setprecision(6)
          << (i < r.starts.size() && k < r.starts[i].size() ? r.starts[i][k] : 0.0) << std::defaultfloat
          << std::setprecision(6) << ',' << r.seconds[i][k] << ',' << g * med / r.seconds[i][k] << '\n';
    }
  }
}

bool write_plot(const std::string &png, const std::string &dir, const std::vector<Row> &rows, const std::string &title) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) {
    std::fprintf(stderr, "gnuplot not found: no plot (install gnuplot-nox)\n");
    return false;
  }
  // One data file per (type, threads) panel with one column per library.
  // Panels in BLAS order s, d, c, z (then anything else), thread counts ascending.
  auto order = [](const std::string &t) { return std::string("sdcz").find(t) == std::string::npos ? 9 : int(std::string("sdcz").find(t)); };
  std::map<std::tuple<std::string, int, std::string, int>, std::vector<const Row *>> panels;
  std::vector<std::string> libs;
  for (const Row &r : rows) {
    if (!r.square) continue;
    panels[{r.op, order(r.type), r.type, r.threads}].push_back(&r);
    for (const auto &[lib, g] : r.gflops)
      if (std::find(libs.begin(), libs.end(), lib) == libs.end()) libs.push_back(lib);
  }
  if (panels.empty()) return false;
  std::filesystem::create_directories(dir);
  std::string script = dir + "/plot.gp";
  std::ofstream gp(script);
  int cols = std::min<int>(4, int(panels.size()));
  int nrows = (int(panels.size()) + cols - 1) / cols;
  gp << "set terminal pngcairo size " << 520 * cols << "," << 400 * nrows + 40 << " font 'sans,10'\n";
  gp << "set output '" << png << "'\n";
  gp << "set multiplot layout " << nrows << "," << cols << " title '" << title << "'\n";
  gp << "set logscale x 2\nset grid\nset key bottom right font ',8'\nset xlabel 'n (= k" << (rows.front().op == "gemm" ? " = m" : "")
     << ")'\nset ylabel 'GFLOP/s'\n";
  gp << "set datafile separator ','\nset yrange [0:*]\n";
  // One size only (e.g. --sizes 2048): gnuplot cannot autoscale a zero-width
  // log axis and warns per panel, so give it an octave each side.
  double lo = 0, hi = 0;
  for (const Row &r : rows)
    if (r.square) {
      lo = lo == 0 ? r.size : std::min(lo, r.size);
      hi = std::max(hi, r.size);
    }
  if (lo == hi && lo > 0) gp << "set xrange [" << lo / 2 << ":" << hi * 2 << "]\n";
  int idx = 0;
  for (auto &[key, prs] : panels) {
    std::string dat = dir + "/panel" + std::to_string(idx++) + ".csv";
    std::ofstream d(dat);
    for (const Row *r : prs) {
      d << r->size << ',' << r->peak;
      for (const auto &lib : libs) {
        double g = 0;
        for (const auto &[l, v] : r->gflops)
          if (l == lib) g = v;
        d << ',' << g;
      }
      d << '\n';
    }
    const auto &[op, rank, type, threads] = key;
    (void)op;
    (void)rank;
    gp << "set title '" << type << prs.front()->op << ", " << threads << " thread" << (threads > 1 ? "s" : "") << "'\n";
    gp << "plot '" << dat << "' using 1:2 with lines dt 2 lw 2 lc rgb 'black' title 'FMA peak'";
    for (size_t i = 0; i < libs.size(); ++i)
      gp << ", '' using 1:" << i + 3 << " with linespoints lw " << (i == 0 ? 3 : 1) << " title '" << libs[i] << "'";
    gp << "\n";
  }
  gp << "unset multiplot\n";
  gp.close();
  std::string cmd = "gnuplot '" + script + "'";
  return std::system(cmd.c_str()) == 0;
}

void write_table(std::vector<Row> &rows, const std::vector<long> &threads, const std::string &out,
                 const std::string &stem, const std::string &plot_prefix, const std::string &title) {
  for (long t : threads) {
    const Peak again = measure_peak(int(t));
    for (Row &r : rows)
      if (r.threads == t) r.peak = std::max(r.peak, again.for_type(r.type[0]));
  }
  std::filesystem::create_directories(out);
  const std::string csv = out + "/" + stem + ".csv", png = out + "/" + stem + ".png";
  write_csv(csv, rows);
  write_samples_csv(out + "/samples.csv", rows);
  std::printf("\nCSV: %s (every round: samples.csv)\n", csv.c_str());
  const std::string dir = std::filesystem::absolute(out).string();
  if (write_plot(std::filesystem::absolute(png).string(), plot_prefix.empty() ? dir : dir + "/" + plot_prefix, rows,
                 title))
    std::printf("plot: %s\n", png.c_str());
}

}  // namespace bench
