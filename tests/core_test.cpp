// Core: handle lifecycle, thread-count defaults, path selection and reporting,
// workspace reuse, FTZ/DAZ reaching workers, and no oversubscription inside a
// caller's parallel region.
#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xmmintrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "core/handle.h"
#include "core/thread_pool.h"
#include "tessera/blas.h"
#include "test_util.h"

namespace {

TEST(Core, StatusStrings) {
  EXPECT_STREQ(tesseraGetStatusString(TESSERA_STATUS_SUCCESS), "TESSERA_STATUS_SUCCESS");
  EXPECT_STREQ(tesseraGetStatusString(TESSERA_STATUS_INVALID_VALUE), "TESSERA_STATUS_INVALID_VALUE");
  EXPECT_STREQ(tesseraGetStatusString(TESSERA_STATUS_NOT_SUPPORTED), "TESSERA_STATUS_NOT_SUPPORTED");
  EXPECT_STREQ(tesseraGetStatusString(static_cast<tesseraStatus_t>(99)), "TESSERA_STATUS_<unknown>");
}

TEST(Core, EnumValuesMatchTheContract) {
  EXPECT_EQ(TESSERA_STATUS_NOT_INITIALIZED, 1);
  EXPECT_EQ(TESSERA_STATUS_ALLOC_FAILED, 3);
  EXPECT_EQ(TESSERA_STATUS_INVALID_VALUE, 7);
  EXPECT_EQ(TESSERA_STATUS_INTERNAL_ERROR, 14);
  EXPECT_EQ(TESSERA_STATUS_NOT_SUPPORTED, 15);
  EXPECT_EQ(TBLAS_OP_C, 2);
  EXPECT_EQ(TBLAS_FILL_MODE_UPPER, 1);
  EXPECT_EQ(sizeof(tesseraComplex), 2 * sizeof(float));
  EXPECT_EQ(sizeof(tesseraDoubleComplex), 2 * sizeof(double));
}

TEST(Core, HandleLifecycle) {
  tblasHandle_t h;
  EXPECT_EQ(tblasCreate(nullptr), TESSERA_STATUS_INVALID_VALUE);
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  int t = 0;
  ASSERT_EQ(tblasGetNumThreads(h, &t), TESSERA_STATUS_SUCCESS);
  EXPECT_GE(t, 1);
  EXPECT_EQ(tblasSetNumThreads(h, 0), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tblasSetNumThreads(h, 3), TESSERA_STATUS_SUCCESS);
  tblasGetNumThreads(h, &t);
  EXPECT_EQ(t, 3);
  EXPECT_EQ(tblasGetNumThreads(h, nullptr), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tblasDestroy(h), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(tblasDestroy(h), TESSERA_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(tblasDestroy(nullptr), TESSERA_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(tblasSetNumThreads(h, 2), TESSERA_STATUS_NOT_INITIALIZED);
}

TEST(Core, DefaultThreadsFollowAffinityAndEnvironment) {
  tblasHandle_t h;
  int t = 0;
  unsetenv("TESSERA_NUM_THREADS");
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  tblasGetNumThreads(h, &t);
  EXPECT_EQ(t, static_cast<int>(std::thread::hardware_concurrency()) > 0 ? tessera::available_cores() : 1);
  tblasDestroy(h);
  setenv("TESSERA_NUM_THREADS", "3", 1);
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  tblasGetNumThreads(h, &t);
  EXPECT_EQ(t, 3);
  tblasDestroy(h);
  unsetenv("TESSERA_NUM_THREADS");
}

TEST(Core, PathSelectionAndReporting) {
  tblasHandle_t h;
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  tesseraArch_t a;
  ASSERT_EQ(tblasGetArch(h, &a), TESSERA_STATUS_SUCCESS);
  // Without TESSERA_ARCH in the environment the default is the best path.
  if (!std::getenv("TESSERA_ARCH")) EXPECT_EQ(a, tesseraGetCpuArch());
  EXPECT_EQ(tesseraArchSupported(TESSERA_ARCH_GENERIC), 1);
  for (auto arch : {TESSERA_ARCH_GENERIC, TESSERA_ARCH_AVX2, TESSERA_ARCH_AVX512}) {
    if (tesseraArchSupported(arch)) {
      EXPECT_EQ(tblasSetArch(h, arch), TESSERA_STATUS_SUCCESS);
      double A[4] = {1, 2, 3, 4}, B[4] = {1, 0, 0, 1}, C[4] = {0, 0, 0, 0}, one = 1, zero = 0;
      ASSERT_EQ(tblasDgemm(h, TBLAS_OP_N, TBLAS_OP_N, 2, 2, 2, &one, A, 2, B, 2, &zero, C, 2), TESSERA_STATUS_SUCCESS);
      tesseraArch_t ran;
      tblasGetLastArch(h, &ran);
      EXPECT_EQ(ran, arch);
      EXPECT_EQ(C[3], 4.0);
    } else {
      EXPECT_EQ(tblasSetArch(h, arch), TESSERA_STATUS_NOT_SUPPORTED);
    }
  }
  EXPECT_EQ(tblasSetArch(h, static_cast<tesseraArch_t>(7)), TESSERA_STATUS_INVALID_VALUE);
  EXPECT_EQ(tblasSetArch(h, TESSERA_ARCH_AUTO), TESSERA_STATUS_SUCCESS);
  tblasDestroy(h);
  std::printf("[ path ] this CPU's best path: %s\n", tesseraGetArchString(tesseraGetCpuArch()));
}

// The AVX2/AVX-512 paths must be the default where the CPU has them: a build
// that silently fell back to generic would be a huge regression (ruy's lesson).
TEST(Core, SimdPathIsDefaultWhereAvailable) {
  if (std::getenv("TESSERA_ARCH")) GTEST_SKIP() << "TESSERA_ARCH forces a path";
  tblasHandle_t h;
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  tesseraArch_t a;
  tblasGetArch(h, &a);
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) EXPECT_NE(a, TESSERA_ARCH_GENERIC);
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) EXPECT_EQ(a, TESSERA_ARCH_AVX512);
  tblasDestroy(h);
}

TEST(Core, WorkspaceIsReusedAcrossCalls) {
  tblasHandle_t h;
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  tblasSetNumThreads(h, 2);
  const int64_t n = 300;
  std::vector<double> A(n * n, 0.5), B(n * n, 0.25), C(n * n, 0.0);
  double one = 1, zero = 0;
  ASSERT_EQ(tblasDgemm(h, TBLAS_OP_N, TBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero, C.data(), n),
            TESSERA_STATUS_SUCCESS);
  const size_t allocs = h->workspace.allocations();
  EXPECT_GT(allocs, 0u);
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(tblasDgemm(h, TBLAS_OP_T, TBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &one, C.data(), n),
              TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(h->workspace.allocations(), allocs) << "steady-state calls allocated";
  tblasDestroy(h);
}

// Work claimed dynamically through the pool is done exactly once, and run()
// returns only after every thread that joined has finished.
TEST(Core, PoolCompletesDynamicWorkExactlyOnce) {
  auto &pool = tessera::ThreadPool::instance();
  struct Work {
    std::atomic<int> next{0};
    std::vector<std::atomic<int>> done = std::vector<std::atomic<int>>(4096);
    std::atomic<int> in_flight{0};
  };
  for (int n : {1, 2, 3, 4}) {
    auto lease = pool.acquire(n);
    ASSERT_EQ(lease.granted(), n);
    for (int rep = 0; rep < 100; ++rep) {
      Work w;
      lease.run(n, [](void *ctx, int, int) {
        auto &w = *static_cast<Work *>(ctx);
        w.in_flight++;
        for (int u = w.next++; u < 4096; u = w.next++) w.done[u]++;
        w.in_flight--;
      }, &w);
      EXPECT_EQ(w.in_flight.load(), 0) << "run() returned while a thread was still working";
      for (int u = 0; u < 4096; ++u) ASSERT_EQ(w.done[u].load(), 1) << "unit " << u;
    }
  }
}

// A worker sleeps with the last caller's CPU left out of its affinity mask,
// so that the wake-up does not land next to the caller, and puts the mask
// back on waking (thread_pool.cpp): every task, on a worker that slept
// before the call or not, runs under the mask the process had.
TEST(Core, WorkersRunUnderTheProcessMaskAfterSleeping) {
  struct Seen {
    cpu_set_t want;
    std::atomic<int> worker_tasks{0}, wrong{0};
    int before = 0;  // worker_tasks when this call started
  } seen;
  ASSERT_EQ(sched_getaffinity(0, sizeof seen.want, &seen.want), 0);
  auto &pool = tessera::ThreadPool::instance();
  for (int rep = 0; rep < 20; ++rep) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // past the workers' spin: asleep
    auto lease = pool.acquire(3);
    seen.before = seen.worker_tasks.load();
    lease.run(lease.granted(), [](void *ctx, int tid, int) {
      auto &s = *static_cast<Seen *>(ctx);
      cpu_set_t mask;
      ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
      if (!CPU_EQUAL(&mask, &s.want)) s.wrong++;
      if (tid > 0) {
        s.worker_tasks++;
        return;
      }
      // The caller's task lasts until a woken worker has joined, or 50 ms
      // (a fixed 2 ms was too short for a wake-up under ThreadSanitizer on a
      // busy host: no worker joined in 20 calls once, session 51).
      const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
      while (s.worker_tasks.load() == s.before && std::chrono::steady_clock::now() < end) {
      }
    }, &seen);
  }
  EXPECT_EQ(seen.wrong.load(), 0) << "a task ran under a narrowed affinity mask";
  if (std::thread::hardware_concurrency() > 1) EXPECT_GT(seen.worker_tasks.load(), 0) << "no worker ever joined";
}

TEST(Core, NestedAndConcurrentLeasesRunSerially) {
  auto &pool = tessera::ThreadPool::instance();
  auto outer = pool.acquire(2);
  ASSERT_EQ(outer.granted(), 2);
  // While the pool is leased, another caller gets 1 thread instead of waiting
  // or oversubscribing.
  int granted_elsewhere = 0;
  std::thread other([&] { granted_elsewhere = pool.acquire(2).granted(); });
  other.join();
  EXPECT_EQ(granted_elsewhere, 1);
  // Inside the pool (caller or worker), nested calls get 1 thread each.
  struct Count {
    std::atomic<int> participants{0}, granted{0};
  } count;
  outer.run(2, [](void *ctx, int, int) {
    auto &c = *static_cast<Count *>(ctx);
    c.participants++;
    c.granted += tessera::ThreadPool::instance().acquire(2).granted();
  }, &count);
  EXPECT_GE(count.participants.load(), 1);
  EXPECT_EQ(count.granted.load(), count.participants.load());
}

// A child of fork() gets workers of its own (ThreadPool::reset_in_fork_child):
// the parent's workers do not exist in it, and a lease another parent thread
// held at the fork is free there. Before, the child ran every call on its
// caller alone, or took a lease that no thread would ever release.
TEST(Core, ForkedChildGetsWorkersOfItsOwn) {
  auto &pool = tessera::ThreadPool::instance();
  tblasHandle_t h;
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  ASSERT_EQ(tblasSetNumThreads(h, 2), TESSERA_STATUS_SUCCESS);
  const int64_t n = 300;
  std::vector<double> A(n * n), B(n * n), C(n * n), Cchild(n * n);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (auto *v : {&A, &B}) for (double &x : *v) x = dist(rng);
  const double one = 1, zero = 0;
  ASSERT_EQ(tblasDgemm(h, TBLAS_OP_N, TBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero, C.data(), n),
            TESSERA_STATUS_SUCCESS);  // the parent's workers exist now

  // Another thread holds the lease across the fork.
  std::atomic<int> state{0};  // 1: lease held, 2: may release it
  std::thread holder([&] {
    auto lease = pool.acquire(2);
    state = 1;
    while (state.load() != 2) std::this_thread::yield();
  });
  while (state.load() != 1) std::this_thread::yield();

  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {  // the child: report through the exit code, never return into the test runner
    int code = 0;
    {
      auto lease = pool.acquire(2);
      if (lease.granted() != 2) code |= 1;
      std::atomic<bool> worker_ran{false};
      if (lease.granted() == 2)
        lease.run(2, [](void *ctx, int slot, int) {
          auto &ran = *static_cast<std::atomic<bool> *>(ctx);
          if (slot > 0) {
            ran = true;
            return;
          }
          // The caller may finish a task alone; here it waits for a worker.
          const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
          while (!ran.load() && std::chrono::steady_clock::now() < end) std::this_thread::yield();
        }, &worker_ran);
      if (!worker_ran.load()) code |= 2;
    }
    tblasHandle_t hc;
    if (tblasCreate(&hc) != TESSERA_STATUS_SUCCESS || tblasSetNumThreads(hc, 2) != TESSERA_STATUS_SUCCESS) _exit(code | 4);
    int used = 0;
    if (tblasDgemm(hc, TBLAS_OP_N, TBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero, Cchild.data(), n) !=
            TESSERA_STATUS_SUCCESS ||
        tblasGetLastThreads(hc, &used) != TESSERA_STATUS_SUCCESS || used != 2)
      code |= 8;
    if (std::memcmp(Cchild.data(), C.data(), C.size() * sizeof(double)) != 0) code |= 16;
    if (tblasDestroy(hc) != TESSERA_STATUS_SUCCESS || tblasDestroy(h) != TESSERA_STATUS_SUCCESS) code |= 32;
    _exit(code);
  }
  state = 2;
  holder.join();
  int status = 0;
  pid_t done = 0;
  for (int i = 0; i < 600 && (done = waitpid(pid, &status, WNOHANG)) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (done == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL() << "the forked child hung";
  }
  ASSERT_TRUE(WIFEXITED(status)) << "the forked child crashed";
  const int code = WEXITSTATUS(status);
  EXPECT_EQ(code & 1, 0) << "the child's lease was still held by a parent thread";
  EXPECT_EQ(code & 2, 0) << "no worker joined a task in the child";
  EXPECT_EQ(code & 4, 0) << "the child could not create a handle";
  EXPECT_EQ(code & 8, 0) << "the child's 2-thread GEMM failed or ran on fewer threads";
  EXPECT_EQ(code & 16, 0) << "the child's GEMM differs from the parent's";
  EXPECT_EQ(code & 32, 0) << "the child could not destroy its handles";
  EXPECT_EQ(tblasDestroy(h), TESSERA_STATUS_SUCCESS);
}

TEST(Core, OpenMPParallelRegionGetsOneThread) {
  std::atomic<int> max_granted{0};
  std::atomic<int> ok{0};
#pragma omp parallel num_threads(2)
  {
    tblasHandle_t h;
    if (tblasCreate(&h) == TESSERA_STATUS_SUCCESS) {
      tblasSetNumThreads(h, 2);
      const int64_t n = 200;
      std::vector<double> A(n * n, 1.0), B(n * n, 1.0), C(n * n, 0.0);
      double one = 1, zero = 0;
      if (tblasDgemm(h, TBLAS_OP_N, TBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero, C.data(), n) ==
              TESSERA_STATUS_SUCCESS && C[n * n - 1] == double(n))
        ok++;
      int used = 0;
      tblasGetLastThreads(h, &used);
      int prev = max_granted.load();
      while (used > prev && !max_granted.compare_exchange_weak(prev, used)) {}
      tblasDestroy(h);
    }
  }
  EXPECT_EQ(ok.load(), omp_get_max_threads() >= 2 ? 2 : ok.load());
  EXPECT_EQ(max_granted.load(), 1) << "a call inside an OpenMP region used more than its own thread";
}

// The caller's FTZ mode must reach the workers: with FTZ on, a product that
// underflows to a denormal is flushed to zero on every thread.
TEST(Core, FlushToZeroReachesWorkers) {
  tblasHandle_t h;
  ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  tblasSetNumThreads(h, 2);
  const int64_t n = 256;
  std::vector<float> A(n * n, 1e-20f), B(n * n, 1e-20f), C(n * n, 1.0f);
  float one = 1, zero = 0;
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved | 0x8040);  // FTZ | DAZ
  ASSERT_EQ(tblasSgemm(h, TBLAS_OP_N, TBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero, C.data(), n),
            TESSERA_STATUS_SUCCESS);
  _mm_setcsr(saved);
  int used = 0;
  tblasGetLastThreads(h, &used);
  EXPECT_EQ(used, 2);
  for (float x : C) ASSERT_EQ(x, 0.0f) << "a denormal survived: FTZ did not reach a thread";
  // Without FTZ the same product is a nonzero denormal (256 · 1e-40).
  ASSERT_EQ(tblasSgemm(h, TBLAS_OP_N, TBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero, C.data(), n),
            TESSERA_STATUS_SUCCESS);
  EXPECT_GT(C[0], 0.0f);
  tblasDestroy(h);
}

// Products between two threads' worth at the hot share (macro_kernel.h,
// kMinFlopsPerHotThread, thread_work) and at the cold one: on two threads
// in a loop of calls (ThreadPool::calls_frequent), bitwise the same as on
// one; a one-thread handle stays on one. `h2` a 2-thread handle, n the
// dgemm's size; returns the most threads a loop of 50 calls used.
int frequent_dgemm_threads(tblasHandle_t h2, int64_t n) {
  tblasHandle_t h1;
  EXPECT_EQ(tblasCreate(&h1), TESSERA_STATUS_SUCCESS);
  tblasSetNumThreads(h1, 1);
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> A(n * n), B(n * n), C0(n * n);
  for (auto *v : {&A, &B, &C0})
    for (double &x : *v) x = u(rng);
  const double alpha = 0.75, beta = -0.5;
  std::vector<double> C1 = C0;
  EXPECT_EQ(tblasDgemm(h1, TBLAS_OP_N, TBLAS_OP_N, n, n, n, &alpha, A.data(), n, B.data(), n, &beta, C1.data(), n),
            TESSERA_STATUS_SUCCESS);
  int most = 0, used = 0;
  for (int i = 0; i < 50; ++i) {
    std::vector<double> C2 = C0;
    EXPECT_EQ(tblasDgemm(h2, TBLAS_OP_N, TBLAS_OP_N, n, n, n, &alpha, A.data(), n, B.data(), n, &beta, C2.data(), n),
              TESSERA_STATUS_SUCCESS);
    EXPECT_EQ(std::memcmp(C1.data(), C2.data(), C1.size() * sizeof(double)), 0) << "n " << n << ", call " << i;
    tblasGetLastThreads(h2, &used);
    most = std::max(most, used);
  }
  for (int i = 0; i < 5; ++i) {
    std::vector<double> C3 = C0;
    EXPECT_EQ(tblasDgemm(h1, TBLAS_OP_N, TBLAS_OP_N, n, n, n, &alpha, A.data(), n, B.data(), n, &beta, C3.data(), n),
              TESSERA_STATUS_SUCCESS);
    tblasGetLastThreads(h1, &used);
    EXPECT_EQ(used, 1);
  }
  tblasDestroy(h1);
  return most;
}

// Whether calls run at their own speed: "frequent" is a matter of time
// (calls within ~the pool's spin time), and sanitizer-instrumented calls run
// tens of times slower — a loop of 64³ dgemm under TSan, its two shards
// sharing the two cores, came too far apart to count as frequent.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr bool kCallsAtFullSpeed = false;
#else
constexpr bool kCallsAtFullSpeed = true;
#endif

// 52³ (140608 multiply-adds) reaches two threads where the work counts in
// full (a half-rate 512-bit core, or AVX2), 64³ (262144) where f64 counts at
// half (a full-rate 512-bit core), which keeps 52³ on one. Under sanitizers
// only the bitwise checks and the one-thread case.
TEST(Core, FrequentMidSizeCallsUseTwoThreads) {
  const auto check = [](int used, const char *what) {
    if (kCallsAtFullSpeed) EXPECT_EQ(used, 2) << what;
  };
  if (tesseraArchSupported(TESSERA_ARCH_AVX512)) {
    tt::HalfRatePair H;
    H.set_threads(2);
    check(frequent_dgemm_threads(H.half, 52), "half rate: 52³ in a loop never used the second thread");
    check(frequent_dgemm_threads(H.full, 64), "full rate: 64³ in a loop never used the second thread");
    EXPECT_EQ(frequent_dgemm_threads(H.full, 52), 1) << "full rate: 52³ is under two threads' worth";
  } else {
    tblasHandle_t h2;
    ASSERT_EQ(tblasCreate(&h2), TESSERA_STATUS_SUCCESS);
    tblasSetNumThreads(h2, 2);
    check(frequent_dgemm_threads(h2, 52), "52³ in a loop never used the second thread");
    tblasDestroy(h2);
  }
}

// The pool records every calls_frequent ask, so a second ask in the same
// call would read "frequent" off the first: a call asks once, through the
// handle's answer (ThreadPool::two_threads_pay's `frequent`). After an idle
// spell past the workers' spin time, a product between the hot and the cold
// two-thread shares (zgemm 32³: 262144 flops counted in full) runs on one
// thread; in a loop of calls on two (kCallsAtFullSpeed only: "frequent" is
// a matter of time).
// two_threads_pay asks calls_frequent at most once through `frequent` and
// keeps the answer; without it every ask counts (and is recorded).
TEST(Core, TwoThreadsPayAsksOncePerCall) {
  auto &pool = tessera::ThreadPool::instance();
  { auto lease = pool.acquire(2); }  // the workers exist (none if one core)
  std::this_thread::sleep_for(std::chrono::milliseconds(30));  // idle: workers asleep
  const double cold = 10, hot = 1, work = 5;  // between two hot and two cold shares
  int8_t frequent = -1;
  EXPECT_FALSE(pool.two_threads_pay(work, cold, hot, &frequent)) << "an idle spell read as frequent";
  EXPECT_EQ(frequent, 0);
  EXPECT_FALSE(pool.two_threads_pay(work, cold, hot, &frequent)) << "the call's second ask changed its answer";
  EXPECT_TRUE(pool.two_threads_pay(work, cold, hot)) << "a new call right after did not read as frequent";
  EXPECT_TRUE(pool.two_threads_pay(2 * cold, cold, hot, &frequent)) << "two cold shares must pay";
  EXPECT_FALSE(pool.two_threads_pay(1.5, cold, hot, &frequent)) << "under two hot shares must not";
}

TEST(Core, IsolatedHotShareCallsStayOnOneThread) {
  tblasHandle_t h;
  {
    tt::FullThreadWork full;  // count the flops in full on any core
    ASSERT_EQ(tblasCreate(&h), TESSERA_STATUS_SUCCESS);
  }
  tblasSetNumThreads(h, 2);
  const int64_t n = 32;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<tesseraDoubleComplex> A(n * n), B(n * n), C(n * n);
  for (auto *v : {&A, &B, &C})
    for (auto &x : *v) x = {u(rng), u(rng)};
  const tesseraDoubleComplex alpha{0.5, -0.25}, beta{1, 0.5};
  const auto call = [&] {
    EXPECT_EQ(tblasZgemm(h, TBLAS_OP_N, TBLAS_OP_N, n, n, n, &alpha, A.data(), n, B.data(), n, &beta, C.data(), n),
              TESSERA_STATUS_SUCCESS);
    int used = 0;
    tblasGetLastThreads(h, &used);
    return used;
  };
  call();  // starts the workers if this process has none yet
  for (int rep = 0; rep < 5; ++rep) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // past the spin: workers asleep
    EXPECT_EQ(call(), 1) << "an isolated zgemm 32³ took the second thread (rep " << rep << ")";
  }
  if (kCallsAtFullSpeed && std::thread::hardware_concurrency() > 1) {
    int most = 0;
    for (int i = 0; i < 50; ++i) most = std::max(most, call());
    EXPECT_EQ(most, 2) << "zgemm 32³ in a loop never used the second thread";
  }
  tblasDestroy(h);
}

}  // namespace
