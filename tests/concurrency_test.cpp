// Concurrency: many threads, each with its own handles, calling every routine
// at once; one handle shared by turns; calls from inside an OpenMP parallel
// region; handles created and destroyed while others compute. Every result
// must equal, bit for bit, the one computed alone beforehand (results do not
// depend on how many threads a call got). Also run under ThreadSanitizer
// (scripts/sanitize.sh).
#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <complex>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "sparse_util.h"
#include "test_util.h"
#include "tessera/blas.h"
#include "tessera/sparse.h"

namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;

// One workload touching every routine; run() fills `out` with all results.
struct Workload {
  int64_t n = 0;
  std::vector<float> sa, sc;
  std::vector<double> da, dc;
  std::vector<cf> ca, cc;
  std::vector<cd> za, zc;
  tt::Csr<double> csr;
  tt::IndexArrays idx;
  std::vector<double> x, y;
  std::vector<int32_t> vidx;
  std::vector<float> vval, vy;

  explicit Workload(uint64_t seed, int64_t size) : n(size) {
    std::mt19937_64 rng(seed);
    auto fill = [&](auto &v) {
      v.resize(size_t(n * n));
      for (auto &e : v) {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, cf> || std::is_same_v<E, cd>)
          e = E(tt::random_entry<double>(rng), tt::random_entry<double>(rng));
        else
          e = E(tt::random_entry<double>(rng));
      }
    };
    fill(sa), fill(sc), fill(da), fill(dc), fill(ca), fill(cc), fill(za), fill(zc);
    csr = tt::random_csr<double>(5000, 4000, [&](int64_t i) { return int64_t(i % 23); }, rng);
    idx = tt::index_arrays(csr, TSPARSE_INDEX_32I, TSPARSE_INDEX_32I, 0);
    x.resize(4000);
    for (auto &e : x) e = tt::random_entry<double>(rng);
    for (int i = 0; i < 30000; ++i) vidx.push_back(int32_t(rng() % 50000)), vval.push_back(float(i % 7) - 3);
    vy.resize(50000);
    for (auto &e : vy) e = tt::random_entry<float>(rng);
  }

  // Returns every output concatenated as bytes.
  std::vector<char> run(tblasHandle_t h, tsparseHandle_t sh) {
    std::vector<char> out;
    auto keep = [&](const auto &v) {
      const char *p = reinterpret_cast<const char *>(v.data());
      out.insert(out.end(), p, p + v.size() * sizeof(v[0]));
    };
    const float s1 = 1, sb = 0.5f;
    const double d1 = 1, db = 0.5;
    const cf c1(1, 0.5f), cb(0.25f, -1);
    const cd z1(1, 0.5), zb(0.25, -1);
    std::vector<float> S = sc;
    std::vector<double> D = dc;
    std::vector<cf> C = cc;
    std::vector<cd> Z = zc;
    const auto N = TBLAS_OP_N, T = TBLAS_OP_T, Cj = TBLAS_OP_C;
    const auto Lo = TBLAS_FILL_MODE_LOWER, Up = TBLAS_FILL_MODE_UPPER;
    EXPECT_EQ(tt::gemm(h, N, T, n, n, n, &s1, sa.data(), n, sa.data(), n, &sb, S.data(), n), 0);
    EXPECT_EQ(tt::gemm(h, T, N, n, n, n, &d1, da.data(), n, da.data(), n, &db, D.data(), n), 0);
    EXPECT_EQ(tt::gemm(h, Cj, N, n, n, n, &c1, ca.data(), n, ca.data(), n, &cb, C.data(), n), 0);
    EXPECT_EQ(tt::gemm(h, N, N, n, n, n, &z1, za.data(), n, za.data(), n, &zb, Z.data(), n), 0);
    keep(S), keep(D), keep(C), keep(Z);
    S = sc, D = dc, C = cc, Z = zc;
    EXPECT_EQ(tt::syrk(h, Lo, N, n, n, &s1, sa.data(), n, &sb, S.data(), n), 0);
    EXPECT_EQ(tt::syrk(h, Up, T, n, n, &d1, da.data(), n, &db, D.data(), n), 0);
    EXPECT_EQ(tt::syrk(h, Lo, T, n, n, &c1, ca.data(), n, &cb, C.data(), n), 0);
    EXPECT_EQ(tt::syrk(h, Up, N, n, n, &z1, za.data(), n, &zb, Z.data(), n), 0);
    keep(S), keep(D), keep(C), keep(Z);
    C = cc, Z = zc;
    EXPECT_EQ(tt::herk(h, Up, Cj, n, n, &s1, ca.data(), n, &sb, C.data(), n), 0);
    EXPECT_EQ(tt::herk(h, Lo, N, n, n, &d1, za.data(), n, &db, Z.data(), n), 0);
    keep(C), keep(Z);

    // SpMV (N and T) and SpVV.
    tsparseSpMatDescr_t A;
    tsparseDnVecDescr_t X, Y, XT, YT, VY;
    tsparseSpVecDescr_t V;
    std::vector<double> yn(5000, 1.0), xt(5000, 0.5), yt(4000, 2.0);
    EXPECT_EQ(tsparseCreateCsr(&A, csr.rows, csr.cols, csr.nnz(), idx.off(), idx.col(), csr.val.data(),
                               TSPARSE_INDEX_32I, TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_64F),
              0);
    tsparseCreateDnVec(&X, 4000, x.data(), TESSERA_R_64F);
    tsparseCreateDnVec(&Y, 5000, yn.data(), TESSERA_R_64F);
    tsparseCreateDnVec(&XT, 5000, xt.data(), TESSERA_R_64F);
    tsparseCreateDnVec(&YT, 4000, yt.data(), TESSERA_R_64F);
    for (auto [op, xx, yy] : {std::tuple{TSPARSE_OPERATION_NON_TRANSPOSE, X, Y},
                              std::tuple{TSPARSE_OPERATION_TRANSPOSE, XT, YT}}) {
      size_t bytes = 0;
      EXPECT_EQ(tsparseSpMV_bufferSize(sh, op, &d1, A, xx, &db, yy, TESSERA_R_64F, TSPARSE_SPMV_ALG_DEFAULT, &bytes), 0);
      std::vector<char> buf(bytes);
      EXPECT_EQ(tsparseSpMV(sh, op, &d1, A, xx, &db, yy, TESSERA_R_64F, TSPARSE_SPMV_ALG_DEFAULT, buf.data()), 0);
    }
    keep(yn), keep(yt);
    tsparseCreateSpVec(&V, 50000, int64_t(vidx.size()), vidx.data(), vval.data(), TSPARSE_INDEX_32I,
                       TSPARSE_INDEX_BASE_ZERO, TESSERA_R_32F);
    tsparseCreateDnVec(&VY, 50000, vy.data(), TESSERA_R_32F);
    std::vector<float> dot(1);
    EXPECT_EQ(tsparseSpVV(sh, TSPARSE_OPERATION_NON_TRANSPOSE, V, VY, dot.data(), TESSERA_R_32F), 0);
    keep(dot);
    tsparseDestroySpVec(V);
    for (auto d : {X, Y, XT, YT, VY}) tsparseDestroyDnVec(d);
    tsparseDestroySpMat(A);
    return out;
  }
};

struct Handles {
  tblasHandle_t h = nullptr;
  tsparseHandle_t sh = nullptr;
  Handles() {
    tblasCreate(&h);
    tsparseCreate(&sh);
  }
  ~Handles() {
    tblasDestroy(h);
    tsparseDestroy(sh);
  }
};

constexpr int kThreads = 4;

std::vector<std::vector<char>> expected(std::vector<Workload> &w) {
  std::vector<std::vector<char>> e;
  Handles hs;
  for (auto &x : w) e.push_back(x.run(hs.h, hs.sh));
  return e;
}

// kThreads workloads: seeds seed + t, sizes size0 + step·t.
std::vector<Workload> workloads(uint64_t seed, int64_t size0, int64_t step) {
  std::vector<Workload> w;
  for (int t = 0; t < kThreads; ++t) w.emplace_back(seed + uint64_t(t), size0 + step * t);
  return w;
}

// Runs body(t) on kThreads threads at once; body returns how many of its
// results differed from the ones computed alone; returns the total.
template <class Body>
int mismatches_on_threads(Body body) {
  std::atomic<int> mismatches{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t) ts.emplace_back([&, t] { mismatches += body(size_t(t)); });
  for (auto &t : ts) t.join();
  return mismatches.load();
}

TEST(Concurrency, ThreadsWithOwnHandlesCallEverythingAtOnce) {
  std::vector<Workload> w = workloads(100, 96, 17);
  const auto want = expected(w);
  EXPECT_EQ(mismatches_on_threads([&](size_t t) {
              Handles hs;
              int bad = 0;
              for (int rep = 0; rep < 3; ++rep) bad += w[t].run(hs.h, hs.sh) != want[t];
              return bad;
            }),
            0);
}

TEST(Concurrency, OneHandleSharedByTurns) {
  std::vector<Workload> w = workloads(200, 80, 9);
  const auto want = expected(w);
  Handles shared;
  std::mutex turn;
  EXPECT_EQ(mismatches_on_threads([&](size_t t) {
              int bad = 0;
              for (int rep = 0; rep < 2; ++rep) {
                std::lock_guard<std::mutex> lock(turn);  // one thread at a time, as the contract says
                bad += w[t].run(shared.h, shared.sh) != want[t];
              }
              return bad;
            }),
            0);
}

TEST(Concurrency, InsideAnOpenMPParallelRegion) {
  std::vector<Workload> w = workloads(300, 64, 31);
  const auto want = expected(w);
  std::atomic<int> mismatches{0}, wide{0};
#pragma omp parallel for num_threads(kThreads) schedule(static, 1)
  for (int t = 0; t < kThreads; ++t) {
    Handles hs;
    if (w[size_t(t)].run(hs.h, hs.sh) != want[size_t(t)]) ++mismatches;
    int used = 0;
    tblasGetLastThreads(hs.h, &used);
    if (used != 1) ++wide;  // no oversubscription: one thread per call inside the region
  }
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(wide.load(), 0);
}

TEST(Concurrency, HandlesCreatedAndDestroyedWhileOthersWork) {
  std::vector<Workload> w;
  w.emplace_back(400, 160);
  w.emplace_back(401, 48);
  const auto want = expected(w);
  std::atomic<bool> stop{false};
  std::atomic<int> mismatches{0}, cycles{0};
  std::thread worker([&] {
    Handles hs;
    for (int rep = 0; rep < 4; ++rep)
      if (w[0].run(hs.h, hs.sh) != want[0]) ++mismatches;
    stop = true;
  });
  std::thread churn([&] {
    while (!stop) {
      Handles hs;  // created, used once, destroyed
      if (w[1].run(hs.h, hs.sh) != want[1]) ++mismatches;
      ++cycles;
    }
  });
  worker.join();
  churn.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_GT(cycles.load(), 0);
}

}  // namespace
