// tessera-bench spmv / spvv: Tessera's sparse routines beside Eigen (row-major
// SparseMatrix × vector, OpenMP) and librsb, with the same run's STREAM read
// bandwidth as the yardstick. Byte model (SPEC §6): every array once —
// values + column indices + row offsets + x + y; GFLOP/s = 2·nnz / t.
#include <Eigen/SparseCore>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <sys/mman.h>

#if __has_include(<rsb.h>) && !defined(TESSERA_NO_RSB)
#include <rsb.h>
#define TESSERA_HAVE_RSB 1
#endif

#include "bench.h"
#include "core/cpu.h"
#include "sparse_matrices.h"
#include "tessera/sparse.h"

namespace bench {

namespace {

// Read-only bandwidth (STREAM convention: bytes read / t) over a buffer far
// beyond L3, on OpenMP threads. XOR is associative, so the compiler
// vectorises the reduction without fast-math.
class StreamRead {
 public:
  explicit StreamRead(size_t bytes) : n_(bytes / sizeof(uint64_t)), a_(new uint64_t[n_]) {
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n_; ++i) a_[i] = i * 0x9e3779b97f4a7c15ull;
  }
  size_t bytes() const { return n_ * sizeof(uint64_t); }
  void pass(int threads) {
    uint64_t x = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(^ : x)
    for (size_t i = 0; i < n_; ++i) x ^= a_[i];
    sink_ = sink_ ^ x;
  }
  // Best of 7 passes, in GB/s.
  double best_gbs(int threads) {
    double best = 0;
    for (int rep = 0; rep < 7; ++rep) {
      const double t0 = now_s();
      pass(threads);
      best = std::max(best, double(bytes()) / (now_s() - t0) * 1e-9);
    }
    return best;
  }

 private:
  size_t n_;
  std::unique_ptr<uint64_t[]> a_;
  volatile uint64_t sink_ = 0;
};

template <class T>
constexpr tesseraDataType_t dtype() {
  return std::is_same_v<T, double> ? TESSERA_R_64F : std::is_same_v<T, float> ? TESSERA_R_32F : TESSERA_R_32I;
}
template <class T>
const char *type_name() {
  return std::is_same_v<T, double> ? "d" : std::is_same_v<T, float> ? "s" : "i";
}

// Bytes SpMV moves under the model above (int32 indices).
template <class T>
double spmv_bytes(const CsrMatrix &m) {
  return double(m.nnz()) * (sizeof(T) + 4) + double(m.rows + 1) * 4 + double(m.cols + m.rows) * sizeof(T);
}

struct SpmvResult {
  std::string matrix, type;
  int threads = 1;
  double stream = 0;         // best-of-7 STREAM read GB/s before the run
  double stream_inline = 0;  // median of the STREAM passes interleaved with this case's rounds
  double bytes = 0, flops = 0;
  std::vector<std::pair<std::string, double>> seconds;  // library → median s
};

// Tessera's SpMV set up once (descriptors, buffer, preprocess) and called.
template <class T>
struct TesseraSpmv {
  tsparseHandle_t h = nullptr;
  tsparseSpMatDescr_t A = nullptr;
  tsparseDnVecDescr_t X = nullptr, Y = nullptr;
  std::vector<char> buf;
  T one = T(1), zero = T(0);
  tsparseSpMVAlg_t alg;
  TesseraSpmv(const CsrMatrix &m, const std::vector<T> &val, std::vector<T> &x, std::vector<T> &y,
              tsparseSpMVAlg_t algorithm)
      : alg(algorithm) {
    tsparseCreate(&h);
    tsparseCreateCsr(&A, m.rows, m.cols, m.nnz(), const_cast<int32_t *>(m.off.data()),
                     const_cast<int32_t *>(m.col.data()), const_cast<T *>(val.data()), TSPARSE_INDEX_32I,
                     TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, dtype<T>());
    tsparseCreateDnVec(&X, m.cols, x.data(), dtype<T>());
    tsparseCreateDnVec(&Y, m.rows, y.data(), dtype<T>());
    size_t bytes = 0;
    tsparseSpMV_bufferSize(h, TSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, dtype<T>(), alg, &bytes);
    buf.resize(bytes);
    tsparseSpMV_preprocess(h, TSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, dtype<T>(), alg, buf.data());
  }
  ~TesseraSpmv() {
    tsparseDestroyDnVec(X);
    tsparseDestroyDnVec(Y);
    tsparseDestroySpMat(A);
    tsparseDestroy(h);
  }
  void set_threads(int t) { tsparseSetNumThreads(h, t); }
  void run() {
    tsparseSpMV(h, TSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, dtype<T>(), alg, buf.data());
  }
};

#ifdef TESSERA_HAVE_RSB
bool rsb_ready() {
  static const bool ok = rsb_lib_init(RSB_NULL_INIT_OPTIONS) == RSB_ERR_NO_ERROR;
  return ok;
}
#endif

template <class T>
SpmvResult bench_spmv(const CsrMatrix &m, int threads, double stream, StreamRead &sr, int rounds, bool verbose) {
  std::vector<T> val(m.val.size()), x(static_cast<size_t>(m.cols)), y_t(static_cast<size_t>(m.rows)), y_e(static_cast<size_t>(m.rows));
  std::mt19937_64 rng(7);
  for (size_t i = 0; i < val.size(); ++i)
    val[i] = std::is_same_v<T, int32_t> ? T(int(m.val[i] * 10) == 0 ? 1 : int(m.val[i] * 10)) : T(m.val[i]);
  for (auto &e : x)
    e = std::is_same_v<T, int32_t> ? T(int(rng() % 21) - 10) : T(std::uniform_real_distribution<double>(-1, 1)(rng));
  std::vector<T> y_b(static_cast<size_t>(m.rows));
  TesseraSpmv<T> tes(m, val, x, y_t, TSPARSE_SPMV_ALG_DEFAULT);
  // The column-blocked algorithm (its preprocess copies A into blocks).
  TesseraSpmv<T> blk(m, val, x, y_b, TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS);
  using EMat = Eigen::Map<const Eigen::SparseMatrix<T, Eigen::RowMajor, int>>;
  EMat ea(m.rows, m.cols, m.nnz(), m.off.data(), m.col.data(), val.data());
  Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>> ex(x.data(), m.cols);
  Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>> ey(y_e.data(), m.rows);

  std::vector<Runner> rs;
  rs.push_back({"Tessera", [&] { tes.set_threads(threads); }, [&] { tes.run(); }});
  rs.push_back({"Tessera-blk", [&] { blk.set_threads(threads); }, [&] { blk.run(); }});
  rs.push_back({"Eigen", [&] { Eigen::setNbThreads(threads); }, [&] { ey.noalias() = ea * ex; }});
  // A STREAM read pass takes its turn in every round: the host's DRAM rate
  // drifts by tens of percent within minutes, so the yardstick is measured
  // in the same rounds as the libraries, and its median is the one compared.
  rs.push_back({"STREAM", [] {}, [&] { sr.pass(threads); }});
#ifdef TESSERA_HAVE_RSB
  std::vector<T> y_r(static_cast<size_t>(m.rows));
  struct rsb_mtx_t *rsb = nullptr;
  if constexpr (!std::is_same_v<T, int32_t>) {
    if (rsb_ready()) {
      rsb_err_t err = RSB_ERR_NO_ERROR;
      const rsb_type_t tc = std::is_same_v<T, double> ? RSB_NUMERICAL_TYPE_DOUBLE : RSB_NUMERICAL_TYPE_FLOAT;
      rsb = rsb_mtx_alloc_from_csr_const(val.data(), m.off.data(), m.col.data(), rsb_nnz_idx_t(m.nnz()), tc,
                                         rsb_coo_idx_t(m.rows), rsb_coo_idx_t(m.cols), 1, 1,
                                         RSB_FLAG_DEFAULT_STORAGE_FLAGS, &err);
      if (!rsb && verbose) std::fprintf(stderr, "librsb: assembly failed (%d)\n", int(err));
    }
  }
  if (rsb) {
    rs.push_back({"librsb",
                  [&] {
                    rsb_int_t t = threads;
                    rsb_lib_set_opt(RSB_IO_WANT_EXECUTING_THREADS, &t);
                  },
                  [&] {
                    const T one = 1, zero = 0;
                    rsb_spmv(RSB_TRANSPOSITION_N, &one, rsb, x.data(), 1, &zero, y_r.data(), 1);
                  }});
  }
#endif
  SpmvResult r;
  r.matrix = m.name;
  r.type = type_name<T>();
  r.threads = threads;
  r.stream = stream;
  r.bytes = spmv_bytes<T>(m);
  r.flops = 2.0 * double(m.nnz());
  const std::vector<double> sec = time_case(rs, rounds, 0.05, 0.02);
  for (size_t i = 0; i < rs.size(); ++i) {
    if (rs[i].name == std::string("STREAM")) r.stream_inline = double(sr.bytes()) / sec[i] * 1e-9;
    else r.seconds.push_back({rs[i].name, sec[i]});
  }
  // Sanity: Tessera agrees with Eigen (a benchmark of a wrong answer is void).
  for (const std::vector<T> *yy : {&y_t, &y_b}) {
    double worst = 0;
    for (size_t i = 0; i < yy->size(); ++i) {
      const double d = std::fabs(double((*yy)[i]) - double(y_e[i]));
      worst = std::max(worst, std::is_same_v<T, int32_t> ? d : d / (1e-30 + std::fabs(double(y_e[i])) + 1e-3));
    }
    if (worst > (std::is_same_v<T, int32_t> ? 0.0 : 1e-3))
      std::fprintf(stderr, "WARNING: %s %s: Tessera%s and Eigen differ by %g\n", m.name.c_str(), r.type.c_str(),
                   yy == &y_b ? " (column blocks)" : "", worst);
  }
#ifdef TESSERA_HAVE_RSB
  if (rsb) rsb_mtx_free(rsb);
#endif
  return r;
}

double seconds_of(const SpmvResult &r, const std::string &lib) {
  for (const auto &[n, s] : r.seconds)
    if (n == lib) return s;
  return 0;
}

void print_spmv(const SpmvResult &r) {
  const double t = seconds_of(r, "Tessera"), e = seconds_of(r, "Eigen"), k = seconds_of(r, "librsb"),
               b = seconds_of(r, "Tessera-blk");
  auto gbs = [&](double s) { return s > 0 ? r.bytes / s * 1e-9 : 0.0; };
  auto ratio = [](double peer, double ours) { return ours > 0 && peer > 0 ? peer / ours : 0.0; };
  std::printf(
      "%-14s %-2s %2d | %8.3f %7.1f %5.1f %5.0f%% %5.0f%% | %8.3f %7.1f | %8.3f %7.1f | %5.2fx %5.2fx | %8.3f %5.2fx\n",
      r.matrix.c_str(), r.type.c_str(), r.threads, t * 1e3, gbs(t), r.stream_inline, 100 * gbs(t) / r.stream_inline,
      100 * gbs(t) / r.stream, e * 1e3, gbs(e), k * 1e3, gbs(k), ratio(e, t), ratio(k, t), b * 1e3, ratio(e, b));
  std::fflush(stdout);
}

int usage_spmv() {
  std::printf(
      "tessera-bench spmv [--matrices lap2d,st27,rmat,FILE.mtx,...] [--types d,s,i] [--threads 1,2]\n"
      "                   (lap2d:G, st27:G, rmat:SCALE pick other sizes)\n"
      "                   [--quick] [--rounds N] [--out DIR]\n"
      "  y = A*x (alpha 1, beta 0) with Tessera, Eigen (RowMajor, OpenMP) and librsb; effective GB/s under\n"
      "  the byte model values + int32 indices + row offsets + x + y (each once), against the STREAM read\n"
      "  bandwidth measured in the same rounds (a read pass alternating with the libraries). \"blk\":\n"
      "  Tessera's TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS (A copied into column blocks by preprocess),\n"
      "  beside the default algorithm. Default matrices: lap2d (2048^2 grid), st27 (100^3), rmat\n"
      "  (scale 21, 19M edges + 5 dense rows) and tests/data/matrices/*.mtx; --quick uses smaller grids.\n");
  return 0;
}

}  // namespace

int spmv_main(int argc, char **argv) {
  std::string matrices = "lap2d,st27,rmat", types = "d", out_dir;
  std::string threads_list = tessera::available_cores() >= 2 ? "1,2" : "1";
  bool quick = false, add_shared = true;
  int rounds = 7;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--matrices") matrices = next(), add_shared = false;
    else if (a == "--types") types = next();
    else if (a == "--threads") threads_list = next();
    else if (a == "--quick") quick = true;
    else if (a == "--rounds") rounds = std::atoi(next().c_str());
    else if (a == "--out") out_dir = next();
    else return usage_spmv();
  }
  std::vector<std::string> names;
  {
    std::stringstream ss(matrices);
    for (std::string s; std::getline(ss, s, ',');)
      if (!s.empty()) names.push_back(s);
  }
  if (add_shared)
    for (const char *f : {"bcsstk13", "pushpull", "arrow", "bayer10"})
      names.push_back(std::string(TESSERA_SOURCE_DIR) + "/tests/data/matrices/" + f + ".mtx");
  const std::vector<long> threads = parse_list(threads_list);
  int max_threads = 1;
  for (long t : threads) max_threads = std::max(max_threads, int(t));

  // 256 MiB: 8x the 32 MiB L3 (STREAM's rule is 4x the caches), small
  // enough that a pass per round costs little.
  StreamRead sr(size_t(256) << 20);
  std::printf("STREAM read bandwidth (256 MiB, best of 7):");
  std::vector<double> stream(size_t(max_threads + 1), 0);
  for (long t : threads) {
    stream[size_t(t)] = sr.best_gbs(int(t));
    std::printf("  %ldT %.1f GB/s", t, stream[size_t(t)]);
  }
  std::printf("\n(STRM: median GB/s of STREAM passes alternating with the libraries in each case's rounds;\n"
              " %%STRM against it, %%best against the best-of-7 above)\n");
  std::printf("\n%-14s %-2s %2s | %8s %7s %5s %6s %6s | %8s %7s | %8s %7s | %6s %6s | %8s %6s\n", "matrix", "ty",
              "T", "Tess ms", "GB/s", "STRM", "%STRM", "%best", "Eigen ms", "GB/s", "rsb ms", "GB/s", "vEigen", "vRSB",
              "blk ms", "vEigen");
  std::vector<SpmvResult> results;
  for (const std::string &n : names) {
    CsrMatrix m;
    try {
      // "name:size" picks another grid (lap2d:512) or R-MAT scale (rmat:18).
      const size_t colon = n.find(':');
      const std::string kind = n.substr(0, colon);
      const long sz = colon == std::string::npos ? 0 : std::atol(n.c_str() + colon + 1);
      if (kind == "lap2d") m = make_laplacian_2d(sz ? sz : quick ? 1024 : 2048);
      else if (kind == "st27") m = make_stencil_27(sz ? sz : quick ? 60 : 100);
      else if (kind == "rmat") {
        // Edges and dense-row draws scale with 2^scale (the baseline's at 21).
        const int scale = sz ? int(sz) : quick ? 19 : 21;
        const double f = std::ldexp(1.0, scale - 21);
        std::vector<int64_t> draws;
        for (int64_t d : {120000, 150000, 200000, 300000, 500000}) draws.push_back(int64_t(d * f));
        m = make_rmat(scale, int64_t(19000000 * f), draws, 42);
      }
      else m = load_mtx(n, false);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "%s: %s\n", n.c_str(), e.what());
      continue;
    }
    std::printf("# %s: %lld rows, %lld cols, %lld nnz, longest row %lld\n", m.name.c_str(), (long long)m.rows,
                (long long)m.cols, (long long)m.nnz(), (long long)m.max_row());
    for (char ty : types) {
      if (ty == ',') continue;
      for (long t : threads) {
        SpmvResult r = ty == 's'   ? bench_spmv<float>(m, int(t), stream[size_t(t)], sr, rounds, true)
                       : ty == 'i' ? bench_spmv<int32_t>(m, int(t), stream[size_t(t)], sr, rounds, true)
                                   : bench_spmv<double>(m, int(t), stream[size_t(t)], sr, rounds, true);
        print_spmv(r);
        results.push_back(r);
      }
    }
  }
  if (!out_dir.empty()) {
    std::string cmd = "mkdir -p '" + out_dir + "'";
    if (std::system(cmd.c_str()) != 0) return 1;
    FILE *f = std::fopen((out_dir + "/spmv.csv").c_str(), "w");
    if (!f) return 1;
    std::fprintf(f, "matrix,type,threads,stream_gbs,stream_inline_gbs,bytes,library,seconds,gbs,gflops\n");
    for (const SpmvResult &r : results)
      for (const auto &[lib, s] : r.seconds)
        std::fprintf(f, "%s,%s,%d,%.2f,%.2f,%.0f,%s,%.6e,%.2f,%.3f\n", r.matrix.c_str(), r.type.c_str(), r.threads,
                     r.stream, r.stream_inline, r.bytes, lib.c_str(), s, r.bytes / s * 1e-9, r.flops / s * 1e-9);
    std::fclose(f);
    std::printf("\nwrote %s/spmv.csv\n", out_dir.c_str());
  }
  return 0;
}

// ---- SpVV ---------------------------------------------------------------------

namespace {

// The seed's reference: one accumulator, in index order.
float plain_spvv(const int32_t *idx, const float *v, const float *y, int64_t nnz) {
  float s = 0;
  for (int64_t i = 0; i < nnz; ++i) s += v[i] * y[idx[i]];
  return s;
}

// Evicts caches: sweeps a 256 MiB buffer (8× the L3).
void flush_caches() {
  static std::vector<char> big(size_t(256) << 20, 1);
  volatile char sink = 0;
  for (size_t i = 0; i < big.size(); i += 64) big[i] = char(big[i] + 1);
  sink = sink + big[12345];
}

// y's storage: 2 MiB-aligned, and on 2 MiB pages when asked (transparent
// huge pages, madvise). yLen = 10M spans 40 MB, beyond the reach of the L2
// TLB with 4 KiB pages (Zen 4: 3072 entries, 12 MiB): a page walk for about
// every tenth sorted index. How y is allocated is the caller's choice, so
// the default is plain pages and --huge-pages shows the difference.
struct YBuffer {
  std::unique_ptr<float[], void (*)(float *)> p{nullptr, [](float *q) { std::free(q); }};
  YBuffer(size_t n, bool huge) {
    constexpr size_t kPage = size_t(2) << 20;
    const size_t bytes = (n * sizeof(float) + kPage - 1) / kPage * kPage;
    p.reset(static_cast<float *>(std::aligned_alloc(kPage, bytes)));
    if (!p) throw std::bad_alloc();
    if (huge) madvise(p.get(), bytes, MADV_HUGEPAGE);
  }
};

}  // namespace

int spvv_main(int argc, char **argv) {
  std::vector<long> ylens = {1000000, 10000000}, threads_l = {1, 2};
  int64_t nnz = 100000;
  int reps = 31;
  bool huge = false;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--ylen") ylens = parse_list(next());
    else if (a == "--huge-pages") huge = true;
    else if (a == "--nnz") nnz = std::atoll(next().c_str());
    else if (a == "--threads") threads_l = parse_list(next());
    else if (a == "--reps") reps = std::atoi(next().c_str());
    else {
      std::printf(
          "tessera-bench spvv [--nnz N] [--ylen 1000000,10000000] [--threads 1,2] [--reps N] [--huge-pages]\n"
          "  result = sum x.val[i]*y[x.idx[i]], fp32, nnz unique sorted random indices (the seed's cases).\n"
          "  hot: repeated calls (median); cold: a 256 MiB sweep before each call (median of reps).\n"
          "  --huge-pages: y on 2 MiB pages (madvise; default: 4 KiB pages, as a plain allocation gets).\n");
      return 0;
    }
  }
  std::printf("y on %s pages\n", huge ? "2 MiB (madvise)" : "4 KiB");
  std::printf("%-9s %7s %2s | %10s %10s %7s | %10s %10s %7s | seed NPU\n", "ylen", "nnz", "T", "hot Tess", "plain",
              "ratio", "cold Tess", "plain", "ratio");
  for (long ylen : ylens) {
    std::mt19937_64 rng(5);
    YBuffer ybuf(size_t(ylen), huge);
    float *y = ybuf.p.get();
    std::vector<float> v(static_cast<size_t>(nnz));
    std::uniform_real_distribution<double> uni(-1, 1);  // as fill()
    for (long i = 0; i < ylen; ++i) y[i] = float(uni(rng));
    fill(v, rng);
    // nnz unique sorted indices (as the seed: strictly increasing).
    std::vector<int32_t> idx;
    idx.reserve(size_t(nnz));
    for (int64_t k = 0, left = nnz; k < ylen && left > 0; ++k)
      if (int64_t(rng() % uint64_t(ylen - k)) < left) idx.push_back(int32_t(k)), --left;
    tsparseHandle_t h;
    tsparseCreate(&h);
    tsparseSpVecDescr_t X;
    tsparseDnVecDescr_t Y;
    tsparseCreateSpVec(&X, ylen, int64_t(idx.size()), idx.data(), v.data(), TSPARSE_INDEX_32I,
                       TSPARSE_INDEX_BASE_ZERO, TESSERA_R_32F);
    tsparseCreateDnVec(&Y, ylen, y, TESSERA_R_32F);
    volatile float sink = 0;
    for (long t : threads_l) {
      float res = 0;
      std::vector<Runner> rs = {
          {"Tessera", [&] { tsparseSetNumThreads(h, int(t)); },
           [&] { tsparseSpVV(h, TSPARSE_OPERATION_NON_TRANSPOSE, X, Y, &res, TESSERA_R_32F); }},
          {"plain", [] {}, [&] { sink = sink + plain_spvv(idx.data(), v.data(), y, int64_t(idx.size())); }},
      };
      const std::vector<double> hot = time_case(rs, 9, 0.02, 0.01);
      std::vector<double> cold_t, cold_p;
      for (int r = 0; r < reps; ++r) {
        for (int which = 0; which < 2; ++which) {
          flush_caches();
          const double t0 = now_s();
          rs[size_t((which + r) % 2)].call();
          ((which + r) % 2 == 0 ? cold_t : cold_p).push_back(now_s() - t0);
        }
      }
      const double ct = median(cold_t), cp = median(cold_p);
      std::printf("%-9ld %7lld %2ld | %8.1fus %8.1fus %6.2fx | %8.1fus %8.1fus %6.2fx | %s\n", ylen,
                  (long long)idx.size(), t, hot[0] * 1e6, hot[1] * 1e6, hot[1] / hot[0], ct * 1e6, cp * 1e6, cp / ct,
                  ylen == 1000000 ? "38us" : ylen == 10000000 ? "70us" : "-");
      std::fflush(stdout);
    }
    tsparseDestroySpVec(X);
    tsparseDestroyDnVec(Y);
    tsparseDestroy(h);
  }
  return 0;
}

}  // namespace bench
