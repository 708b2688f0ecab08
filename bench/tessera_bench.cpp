// tessera-bench: Tessera side by side with the peer BLAS libraries on this
// machine. Subcommands: gemm, syrk, spmv, spvv, peak, pool.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench.h"
#include "core/cpu.h"
#include "core/thread_pool.h"

namespace bench {

int peak_main(int, char **) {
  for (int t = 1; t <= tessera::available_cores(); t *= 2) {
    Peak p = measure_peak(t);
    std::printf("FMA peak, %d thread(s): f64 %.1f GFLOP/s, f32 %.1f GFLOP/s\n", t, p.f64, p.f32);
  }
  return 0;
}

// Dispatch latency of the thread pool: the time for the caller to run an
// empty task on n threads and see all of them finish, with the workers hot
// (back-to-back calls) and cold (after they went to sleep).
int pool_main(int, char **) {
  auto &pool = tessera::ThreadPool::instance();
  const int n = std::max(2, tessera::available_cores());
  auto empty = [](void *, int, int) {};
  for (const char *mode : {"hot", "cold"}) {
    std::vector<double> us;
    for (int i = 0; i < (mode[0] == 'h' ? 20000 : 200); ++i) {
      auto lease = pool.acquire(n);
      if (mode[0] == 'c') {
        struct timespec ts = {0, 2000000};  // 2 ms: workers have gone to sleep
        nanosleep(&ts, nullptr);
      }
      double t0 = now_s();
      lease.run(n, empty, nullptr);
      us.push_back((now_s() - t0) * 1e6);
    }
    std::printf("pool dispatch, %d threads, %s workers: median %.2f us\n", n, mode, median(us));
  }
  return 0;
}

}  // namespace bench

int main(int argc, char **argv) {
  // libgomp (the OpenMP peers', and Eigen's here) keeps an idle worker
  // spinning for GOMP_SPINCOUNT = 300000 pauses after each parallel region:
  // 10-18 ms on this machine, so the next library timed ran with one of its 2
  // cores taken, past the 20 ms warm-up (perf sched: a Tessera batch at its
  // 1-thread rate beside the spinning libgomp thread). 10000 (~0.3 ms) keeps
  // the workers spinning across a library's own back-to-back calls, as
  // OPENBLAS_THREAD_TIMEOUT does for OpenBLAS's pthread build (peers.cpp).
  // libgomp reads it once, when it loads, before main: so set it and start
  // over. The user's own setting, or OMP_WAIT_POLICY, wins.
  if (!std::getenv("GOMP_SPINCOUNT") && !std::getenv("OMP_WAIT_POLICY")) {
    setenv("GOMP_SPINCOUNT", "10000", 1);
    execv("/proc/self/exe", argv);  // returns only on failure: run as we are
  }
  if (argc < 2 || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help")) {
    std::printf("usage: tessera-bench {gemm|syrk|spmv|spvv|peak|pool} [options]   (tessera-bench gemm --help)\n");
    return argc < 2 ? 2 : 0;
  }
  std::string cmd = argv[1];
  if (cmd == "gemm") return bench::gemm_main(argc - 2, argv + 2);
  if (cmd == "syrk") return bench::syrk_main(argc - 2, argv + 2);
  if (cmd == "peak") return bench::peak_main(argc - 2, argv + 2);
  if (cmd == "pool") return bench::pool_main(argc - 2, argv + 2);
  if (cmd == "spmv") return bench::spmv_main(argc - 2, argv + 2);
  if (cmd == "spvv") return bench::spvv_main(argc - 2, argv + 2);
  std::fprintf(stderr, "unknown command %s\n", cmd.c_str());
  return 2;
}
