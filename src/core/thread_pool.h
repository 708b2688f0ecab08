// Process-wide persistent thread pool.
//
// One pool serves every handle so that concurrent handles cannot multiply the
// thread count: a call leases the pool; if it is already leased (another
// handle is running), if the caller is itself one of the pool's workers, or if
// the caller is inside an OpenMP parallel region, the lease grants 1 thread and
// the call runs on the caller alone. Results never depend on the grant, since
// every operator partitions output elements only.
//
// Dispatch: the caller publishes a (generation, task count) word; workers spin
// on it briefly, then sleep on it (Linux futex), and join the call through a
// generation-tagged gate. The caller runs the task as slot 0; when it returns
// the caller closes the gate and waits only for workers that joined. So a task
// must claim its work dynamically (e.g. an atomic counter over units) and the
// caller alone must be able to finish it: a worker the OS or hypervisor has
// not scheduled in time then costs nothing instead of stalling the call.
// Workers adopt the caller's MXCSR so FTZ/DAZ and rounding modes reach every
// thread.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "core/env.h"

namespace tessera {

class ThreadPool {
 public:
  // Called as fn(ctx, slot, nslots) by the caller (slot 0) and by each worker
  // that joins (its own slot < nslots); see the contract above.
  using TaskFn = void (*)(void *ctx, int slot, int nslots);

  static ThreadPool &instance();

  class Lease {
   public:
    Lease(Lease &&o) noexcept : pool_(o.pool_), granted_(o.granted_) { o.pool_ = nullptr; }
    Lease(const Lease &) = delete;
    Lease &operator=(const Lease &) = delete;
    ~Lease();
    int granted() const { return granted_; }
    // Runs fn on up to n <= granted() threads; returns when every thread that
    // ran it has returned (the caller always runs it).
    void run(int n, TaskFn fn, void *ctx);

   private:
    friend class ThreadPool;
    Lease(ThreadPool *pool, int granted) : pool_(pool), granted_(granted) {}
    ThreadPool *pool_;  // null when the lease is serial-only
    int granted_;
  };

  // Asks for `wanted` threads (including the caller).
  Lease acquire(int wanted);
  // Leases threads for `work` (any unit) of which each thread should get at
  // least `min_work`, split into at most `units` pieces, capped by the
  // handle's `max_threads`; *threads = what the call may use (>= 1).
  // hot_min_work (if smaller): the share that suffices when calls_frequent(),
  // where joining costs a fraction of a microsecond rather than a wake-up.
  // frequent (optional): the caller's answer of calls_frequent for this
  // call, -1 until asked; it is asked at most once per call through it.
  Lease acquire_for(int max_threads, double work, double min_work, int64_t units, int *threads,
                    double hot_min_work = 0, int8_t *frequent = nullptr);
  // Whether `work` is two threads' worth as acquire_for counts it: at the
  // cold share, or at the hot one while calls_frequent() (asked only then;
  // hot_min_work 0: the cold share only).
  bool two_threads_pay(double work, double min_work, double hot_min_work, int8_t *frequent = nullptr);

  // Whether a call made now may count on spinning workers: workers exist and
  // none sleeps, or another call asked within about the spin time (a loop of
  // calls: its first runs alone, its second wakes the workers, the rest find
  // them spinning; calls milliseconds apart keep running alone). Records
  // this call's time. A hint for choices that never change results.
  bool calls_frequent();

  // Number of worker threads started so far (not counting callers).
  int workers() const { return static_cast<int>(workers_.size()); }

  // In the child of fork() only the forking thread exists: the workers, and
  // any thread that held the lease, stayed in the parent. Registered with
  // pthread_atfork when the pool is created; forgets the parent's workers
  // (the next multi-threaded call starts new ones) and frees the lease.
  void reset_in_fork_child();

  ~ThreadPool();

  static constexpr int kMaxThreads = kThreadLimit;  // task count lives in 8 bits of the dispatch word

 private:
  ThreadPool() = default;
  void grow(int nworkers);
  void worker_main(int tid, uint32_t seen);
  void dispatch(int n, TaskFn fn, void *ctx);
  bool join(uint32_t gen);

  static constexpr uint64_t kGateClosed = uint64_t(1) << 31;
  static constexpr uint64_t kGateCount = kGateClosed - 1;

  std::mutex lease_mutex_;
  std::vector<std::thread> workers_;
  // The call's task, its MXCSR and the caller's CPU share the dispatch word's
  // cache line: a worker seeing a new word has them too. (Apart, they cost a
  // worker one more line from the caller's core before it could start; on
  // this VM a line crossing cores takes ~200 ns.)
  // The word: (generation << 8) | task count, one atomic snapshot, so a worker
  // never pairs one call's generation with another call's task count.
  alignas(64) std::atomic<uint32_t> word_{0};
  TaskFn fn_ = nullptr;
  // Atomic (relaxed): a worker reads it before joining, to prefetch.
  std::atomic<void *> ctx_{nullptr};
  uint32_t mxcsr_ = 0;
  // The CPU the dispatching caller ran on (-1: unknown), for workers waking
  // from sleep (see worker_main).
  std::atomic<int> caller_cpu_{-1};
  // Set once, at destruction. On this line because a worker reads it after
  // every call: beside last_ask_, which a caller writes on every call, that
  // line crossed cores twice a call (2-thread dgemm 64³, Zen 5 VM: the
  // caller's write to last_ask_ waited ~150 ns).
  std::atomic<bool> stop_{false};
  // (generation << 32) | closed bit | number of workers that joined.
  alignas(64) std::atomic<uint64_t> gate_{0};
  alignas(64) std::atomic<int> sleepers_{0};
  std::atomic<int> started_{0};  // workers_.size(), readable without the lease
  std::atomic<uint64_t> last_ask_{0};  // TSC of the last calls_frequent()
};

}  // namespace tessera
