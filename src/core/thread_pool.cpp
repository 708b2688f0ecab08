#include "core/thread_pool.h"

#include "core/cpu.h"

#include <dlfcn.h>
#include <immintrin.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <new>

#include <chrono>

namespace tessera {

namespace {

thread_local bool t_is_pool_worker = false;

// Raw futex on the dispatch word. (libstdc++ 12's atomic::wait/notify_all keeps
// its own waiter count and lost wake-ups here; the kernel primitive does not.)
void futex_wait(std::atomic<uint32_t> *word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
}
void futex_wake_all(std::atomic<uint32_t> *word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

// How long "no OpenMP runtime loaded" stands before the lookup is made again,
// in TSC ticks: 1e8 is 25–100 ms at the 1–4 GHz of x86 TSCs. A failing
// dlsym(RTLD_DEFAULT) searches every loaded object and builds an error
// string (155 ns alone in a small program; more with hundreds of libraries,
// a Python process), and every multi-threaded call of a program without
// OpenMP paid it: sgemm 64³ on 2 threads 3.4–3.6 µs a call against 2.9 with
// the answer kept. The time is read from the TSC, not steady_clock: its
// vDSO read (kvm-clock) was 50–130 ns of every 2-thread call here (Zen 5
// VM, TSC stamps around it), rdtsc ~10. A runtime dlopen'ed later is seen
// within this time.
constexpr uint64_t kOpenMPLookupAgainTicks = 100000000;

// omp_in_parallel() of the OpenMP runtime the program uses, if it has one
// loaded: kept once found; while none is, looked up again at most every
// kOpenMPLookupAgainTicks (a runtime may be dlopen'ed late).
bool caller_in_openmp_parallel() {
  using Fn = int (*)();
  static std::atomic<Fn> cached{nullptr};
  static std::atomic<uint64_t> next_lookup{0};
  Fn fn = cached.load(std::memory_order_relaxed);
  if (!fn) {
    const uint64_t now = __rdtsc();
    if (now < next_lookup.load(std::memory_order_relaxed)) return false;
    fn = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, "omp_in_parallel"));
    if (!fn) {
      next_lookup.store(now + kOpenMPLookupAgainTicks, std::memory_order_relaxed);
      return false;
    }
    cached.store(fn, std::memory_order_relaxed);
  }
  return fn() != 0;
}

// How long an idle worker spins before sleeping. Long enough to cover the gap
// between back-to-back calls of a loop of small BLAS calls; short enough that
// an idle program gives its cores back quickly.
constexpr auto kSpinTime = std::chrono::microseconds(200);
// Pure pause-spins before a waiting thread may start yielding (Zen 5 VM: a
// pause 18.6 ns, so 4.8 µs; a sched_yield 1.2 µs there, a hypervisor exit).
constexpr int kSpinBeforeYield = 256;
// Cache lines of a task's context a joining worker prefetches (a GEMM or
// SYRK plan, Level3Plan, is about 300 bytes).
constexpr int kCtxPrefetchLines = 5;

// Where a worker runs. Linux's wake-affine placement puts a woken thread
// next to its waker (and a new thread next to its creator); the two then
// share one CPU while another idles, the caller drains every unit itself
// (the worker joins too late) and the scheduler's balancing took
// milliseconds to separate them: 2-thread sgemm 20000×64×32 after a 20 ms
// idle gap ran every call of a 12-call burst at the 1-thread time (380 µs
// against 250) in 3 of 6 bursts (Zen 5 VM, 2 vCPUs). So a worker going to
// sleep leaves the last caller's CPU out of its affinity mask (the wake then
// lands elsewhere, without preempting the caller) and puts its mask back
// once awake; a worker that still finds itself on the caller's CPU (a new
// one, or the caller moved) moves off it. Only where the mask has another
// CPU; the mask found is the mask restored.

// The thread's affinity mask, and the same without `cpu`, if the mask has
// `cpu` and another CPU.
bool mask_without(int cpu, cpu_set_t &mask, cpu_set_t &others) {
  if (cpu < 0 || sched_getaffinity(0, sizeof mask, &mask) != 0) return false;
  if (!CPU_ISSET(cpu, &mask) || CPU_COUNT(&mask) < 2) return false;
  others = mask;
  CPU_CLR(cpu, &others);
  return true;
}

// Moves the calling thread off `cpu` if it runs there (narrowing the mask
// migrates it at once; the full mask is put back).
void leave_cpu(int cpu) {
  cpu_set_t mask, others;
  if (cpu < 0 || sched_getcpu() != cpu || !mask_without(cpu, mask, others)) return;
  if (sched_setaffinity(0, sizeof others, &others) == 0) sched_setaffinity(0, sizeof mask, &mask);
}

// A sleep away from `caller_cpu`: the mask narrowed for the lifetime of the
// object (set before the futex wait), then restored.
class SleepAwayFrom {
 public:
  explicit SleepAwayFrom(int caller_cpu) {
    cpu_set_t others;
    narrowed_ = mask_without(caller_cpu, mask_, others) && sched_setaffinity(0, sizeof others, &others) == 0;
  }
  ~SleepAwayFrom() {
    if (narrowed_) sched_setaffinity(0, sizeof mask_, &mask_);
  }
  SleepAwayFrom(const SleepAwayFrom &) = delete;
  SleepAwayFrom &operator=(const SleepAwayFrom &) = delete;

 private:
  cpu_set_t mask_;
  bool narrowed_ = false;
};

}  // namespace

namespace {
// The pool once created, for the fork handler (which must not run
// instance()'s initialisation: another thread of the parent may have been
// inside it).
std::atomic<ThreadPool *> g_pool{nullptr};
// A fork child's record of its parents' workers (kept reachable, never freed).
std::vector<std::thread> *g_parent_workers = nullptr;
void pool_in_fork_child() {
  if (ThreadPool *pool = g_pool.load(std::memory_order_acquire)) pool->reset_in_fork_child();
}
}  // namespace

ThreadPool &ThreadPool::instance() {
  // Intentionally leaked: workers must outlive static destructors of programs
  // that call BLAS from their own static destructors.
  static ThreadPool *pool = [] {
    auto *p = new ThreadPool();
    g_pool.store(p, std::memory_order_release);
    pthread_atfork(nullptr, nullptr, &pool_in_fork_child);
    return p;
  }();
  return *pool;
}

// (A forked child — Python's multiprocessing, a shell-out from a worker
// process — had run every later call on its caller alone: the dispatch
// counted workers that did not exist, and a lease held by another parent
// thread at the fork stayed taken forever.)
void ThreadPool::reset_in_fork_child() {
  // The parent's std::thread objects are kept, never destroyed: joining,
  // detaching or destroying them (joinable) names threads not in this process.
  if (!g_parent_workers) g_parent_workers = new std::vector<std::thread>();
  for (std::thread &t : workers_) g_parent_workers->push_back(std::move(t));
  workers_.clear();
  new (&lease_mutex_) std::mutex();
  word_.store(0, std::memory_order_relaxed);
  gate_.store(0, std::memory_order_relaxed);
  sleepers_.store(0, std::memory_order_relaxed);
  started_.store(0, std::memory_order_relaxed);
  last_ask_.store(0, std::memory_order_relaxed);
  caller_cpu_.store(-1, std::memory_order_relaxed);
}

ThreadPool::~ThreadPool() {
  stop_.store(true);
  word_.fetch_add(1u << 8);
  futex_wake_all(&word_);
  for (auto &t : workers_) t.join();
}

ThreadPool::Lease ThreadPool::acquire_for(int max_threads, double work, double min_work, int64_t units,
                                            int *threads, double hot_min_work, int8_t *frequent) {
  // Work for one thread only: no pool, no locking (tiny calls felt ~10 ns of
  // this function's arithmetic).
  if (max_threads <= 1 || units <= 1 || !two_threads_pay(work, min_work, hot_min_work, frequent)) {
    *threads = 1;
    return Lease(nullptr, 1);
  }
  if (!(work >= 2 * min_work)) min_work = hot_min_work;
  double want = std::min<double>(max_threads, std::max(1.0, std::floor(work / min_work)));
  want = std::max(1.0, std::min<double>(want, double(units)));
  Lease lease = acquire(int(want));
  *threads = std::max(1, std::min(int(want), lease.granted()));
  return lease;
}

bool ThreadPool::two_threads_pay(double work, double min_work, double hot_min_work, int8_t *frequent) {
  if (work >= 2 * min_work) return true;
  if (!(hot_min_work > 0 && work >= 2 * hot_min_work)) return false;
  if (!frequent) return calls_frequent();
  if (*frequent < 0) *frequent = calls_frequent() ? 1 : 0;
  return *frequent > 0;
}

// "Within about the spin time": 6e5 TSC ticks, 150–300 µs at the 2–4 GHz
// of x86 TSCs (kSpinTime: 200 µs).
bool ThreadPool::calls_frequent() {
  constexpr uint64_t kRecentTicks = 600000;
  const uint64_t now = __rdtsc();
  // A load and a store, not an exchange: a hint needs no atomic update, and
  // a locked instruction would wait here for every store before it.
  const uint64_t last = last_ask_.load(std::memory_order_relaxed);
  last_ask_.store(now, std::memory_order_relaxed);
  if (now - last < kRecentTicks) return true;
  return started_.load(std::memory_order_relaxed) > 0 && sleepers_.load(std::memory_order_relaxed) == 0;
}

ThreadPool::Lease ThreadPool::acquire(int wanted) {
  if (wanted <= 1 || t_is_pool_worker || caller_in_openmp_parallel()) return Lease(nullptr, 1);
  if (!lease_mutex_.try_lock()) return Lease(nullptr, 1);
  if (wanted > kMaxThreads) wanted = kMaxThreads;
  try {
    grow(wanted - 1);
  } catch (...) {
    // Could not start threads: run with what exists.
  }
  int granted = std::min(wanted, workers() + 1);
  return Lease(this, granted);
}

ThreadPool::Lease::~Lease() {
  if (pool_) pool_->lease_mutex_.unlock();
}

void ThreadPool::Lease::run(int n, TaskFn fn, void *ctx) {
  if (n > granted_) n = granted_;
  if (n <= 1 || !pool_) {
    for (int t = 0; t < n; ++t) fn(ctx, t, n);  // n==1: just the caller
    return;
  }
  pool_->dispatch(n, fn, ctx);
}

void ThreadPool::grow(int nworkers) {
  caller_cpu_.store(sched_getcpu(), std::memory_order_relaxed);
  while (static_cast<int>(workers_.size()) < nworkers) {
    int tid = static_cast<int>(workers_.size()) + 1;
    // The generation is read here, under the lease and before any dispatch
    // this lease makes, so the new worker cannot miss that dispatch.
    uint32_t seen = word_.load(std::memory_order_relaxed) & ~0xffu;
    workers_.emplace_back([this, tid, seen] { worker_main(tid, seen); });
    started_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  }
}

void ThreadPool::dispatch(int n, TaskFn fn, void *ctx) {
  fn_ = fn;
  ctx_.store(ctx, std::memory_order_relaxed);
  mxcsr_ = _mm_getcsr();
  caller_cpu_.store(sched_getcpu(), std::memory_order_relaxed);
  uint32_t gen = ((word_.load(std::memory_order_relaxed) >> 8) + 1) & 0xffffffu;
  gate_.store(uint64_t(gen) << 32, std::memory_order_relaxed);  // open, nobody joined
  word_.store((gen << 8) | static_cast<uint32_t>(n), std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) > 0) futex_wake_all(&word_);
  fn(ctx, 0, n);
  // The caller has drained the work; close the gate so no worker joins late,
  // then wait only for the workers that joined (they are mid-unit). A worker
  // that was not scheduled in time is not waited for.
  uint64_t g = gate_.fetch_or(kGateClosed, std::memory_order_acq_rel) | kGateClosed;
  // Spin briefly, then yield: if the scheduler put a worker on this very CPU
  // (Linux wake-affine placement does after the workers slept), a pure spin
  // would burn our timeslice before the worker could finish.
  for (int spins = 0; (g & kGateCount) != 0; ++spins) {
    if (spins < kSpinBeforeYield) _mm_pause();
    else sched_yield();
    g = gate_.load(std::memory_order_acquire);
  }
}

bool ThreadPool::join(uint32_t gen) {
  uint64_t g = gate_.load(std::memory_order_acquire);
  for (;;) {
    if (uint32_t(g >> 32) != gen || (g & kGateClosed)) return false;
    if (gate_.compare_exchange_weak(g, g + 1, std::memory_order_acq_rel, std::memory_order_acquire)) return true;
  }
}

void ThreadPool::worker_main(int tid, uint32_t seen) {
  t_is_pool_worker = true;
  const int cpus = available_cores();
  leave_cpu(caller_cpu_.load(std::memory_order_relaxed));  // started next to its creator
  for (;;) {
    uint32_t w = word_.load(std::memory_order_acquire);
    if ((w & ~0xffu) == seen) {
      auto start = std::chrono::steady_clock::now();
      // The last call ran more threads than the process has CPUs: some share one.
      const bool crowded = static_cast<int>(w & 0xffu) > cpus;
      for (int spins = 0;; ++spins) {
        // Spin; after a while, yield if a thread of the call may share this
        // CPU (the caller's CPU, or more threads than CPUs), so that it can
        // run. On a CPU of its own a worker does not yield: each yield was a
        // syscall the next dispatch waited behind (2-thread sgemm 96³ calls
        // 10–100 µs apart: 8.3–8.4 → 7.5–7.7 µs a call). Crowded, pure spins
        // took the CPU from a computing thread (3- and 4-thread dgemm 200³
        // on 2 CPUs: 1.25–1.75× the time).
        if (spins < kSpinBeforeYield ||
            (!crowded && sched_getcpu() != caller_cpu_.load(std::memory_order_relaxed)))
          _mm_pause();
        else sched_yield();
        w = word_.load(std::memory_order_acquire);
        if ((w & ~0xffu) != seen) break;
        if ((spins & 255) == 255 && std::chrono::steady_clock::now() - start > kSpinTime) {
          {
            SleepAwayFrom away(caller_cpu_.load(std::memory_order_relaxed));
            sleepers_.fetch_add(1, std::memory_order_seq_cst);
            while (((w = word_.load(std::memory_order_seq_cst)) & ~0xffu) == seen) futex_wait(&word_, w);
            sleepers_.fetch_sub(1, std::memory_order_relaxed);
          }
          leave_cpu(caller_cpu_.load(std::memory_order_relaxed));
          break;
        }
      }
    }
    if (stop_.load(std::memory_order_relaxed)) return;
    seen = w & ~0xffu;
    int n = static_cast<int>(w & 0xffu);
    // fn_, ctx_ and mxcsr_ belong to this generation only once joined; the
    // task's first lines (a GEMM plan) are fetched while the join's
    // read-modify-write crosses to the caller's core (a stale ctx_ costs
    // a useless prefetch, nothing else).
    if (tid < n) {
      const char *ctx = static_cast<const char *>(ctx_.load(std::memory_order_relaxed));
      for (int line = 0; line < kCtxPrefetchLines; ++line) __builtin_prefetch(ctx + 64 * line);
    }
    if (tid < n && join(seen >> 8)) {
      uint32_t saved = _mm_getcsr();
      _mm_setcsr(mxcsr_);
      fn_(ctx_.load(std::memory_order_relaxed), tid, n);
      _mm_setcsr(saved);
      gate_.fetch_sub(1, std::memory_order_release);
    }
  }
}

}  // namespace tessera
