// Peer BLAS libraries from Debian's packages, loaded side by side in one
// process with dlopen so every case alternates between them under the same
// machine conditions. OpenBLAS reads OPENBLAS_CORETYPE once, when it is
// loaded; to run its default and its ZEN (AVX2) kernels in one process, a
// private copy of the library file is loaded with the variable set.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "bench.h"

namespace bench {

namespace {

const char *kOpenBlasPthread = "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0";
const char *kOpenBlasOpenmp = "/usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0";
const char *kBlisOpenmp = "/usr/lib/x86_64-linux-gnu/blis-openmp/libblis.so.4";

bool wanted(const std::string &filter, const std::string &name) {
  if (filter.empty() || filter == "all") return true;
  std::stringstream ss(filter);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty() && name == item) return true;
  return false;
}

template <typename F>
void sym(void *lib, const char *name, F &f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
}

bool bind_cblas(Peer &p) {
  sym(p.lib, "cblas_sgemm", p.sgemm);
  sym(p.lib, "cblas_dgemm", p.dgemm);
  sym(p.lib, "cblas_cgemm", p.cgemm);
  sym(p.lib, "cblas_zgemm", p.zgemm);
  sym(p.lib, "cblas_ssyrk", p.ssyrk);
  sym(p.lib, "cblas_dsyrk", p.dsyrk);
  sym(p.lib, "cblas_csyrk", p.csyrk);
  sym(p.lib, "cblas_zsyrk", p.zsyrk);
  sym(p.lib, "cblas_cherk", p.cherk);
  sym(p.lib, "cblas_zherk", p.zherk);
  return p.sgemm && p.dgemm && p.cgemm && p.zgemm && p.ssyrk && p.dsyrk && p.csyrk && p.zsyrk && p.cherk &&
         p.zherk;
}

// Loads `path` (a private copy when coretype is set) as an OpenBLAS peer.
bool load_openblas(Peer &p, const char *path, const char *coretype) {
  std::string file = path;
  const char *old = std::getenv("OPENBLAS_CORETYPE");
  std::string saved = old ? old : "";
  if (coretype) {
    auto dir = std::filesystem::temp_directory_path() / ("tessera-bench-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    auto copy = dir / (p.name + ".so");
    std::error_code ec;
    std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) return false;
    file = copy.string();
    setenv("OPENBLAS_CORETYPE", coretype, 1);
  } else {
    unsetenv("OPENBLAS_CORETYPE");
  }
  // Idle pthread workers spin (sched_yield) for 2^28 cycles, ~0.1 s, by
  // default: measured here, every library timed within that window after an
  // OpenBLAS batch ran up to 2x slower on the 2 cores (csyrk n=192, 2 threads:
  // 200 -> 250-400 us per call), which a warm-up cannot hide. 2^20 cycles
  // (~0.3 ms) keeps the workers spinning across OpenBLAS's own back-to-back
  // timed calls (its numbers are unchanged) but lets them sleep once the next
  // library starts. The user's own setting wins.
  const bool own_timeout = std::getenv("OPENBLAS_THREAD_TIMEOUT") == nullptr;
  if (own_timeout) setenv("OPENBLAS_THREAD_TIMEOUT", "20", 1);
  p.lib = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (own_timeout) unsetenv("OPENBLAS_THREAD_TIMEOUT");
  if (old) setenv("OPENBLAS_CORETYPE", saved.c_str(), 1);
  else unsetenv("OPENBLAS_CORETYPE");
  if (coretype) std::filesystem::remove(file);  // the mapping stays valid
  if (!p.lib || !bind_cblas(p)) return false;
  void (*set)(int) = nullptr;
  const char *(*core)() = nullptr;
  sym(p.lib, "openblas_set_num_threads", set);
  sym(p.lib, "openblas_get_corename", core);
  if (!set) return false;
  p.set_threads = [set](int n) { set(n); };
  p.detail = core ? std::string("core ") + core() : "";
  return true;
}

bool load_blis(Peer &p, const char *path) {
  p.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!p.lib || !bind_cblas(p)) return false;
  void (*set)(int64_t) = nullptr;
  void (*init)() = nullptr;
  int64_t (*arch_id)() = nullptr;
  const char *(*arch_str)(int64_t) = nullptr;
  sym(p.lib, "bli_thread_set_num_threads", set);
  sym(p.lib, "bli_init", init);
  sym(p.lib, "bli_arch_query_id", arch_id);
  sym(p.lib, "bli_arch_string", arch_str);
  if (!set) return false;
  if (init) init();  // bli_arch_query_id aborts before bli_init
  p.set_threads = [set](int n) { set(n); };
  if (arch_id && arch_str) p.detail = std::string("arch ") + arch_str(arch_id());
  return true;
}

}  // namespace

std::vector<Peer> load_peers(const std::string &filter, bool verbose) {
  std::vector<Peer> peers;
  struct Spec {
    const char *name, *path, *coretype;
    bool blis;
  };
  // OpenBLAS pthread (Debian's default alternative) and OpenMP builds, each
  // with its default kernel choice and with OPENBLAS_CORETYPE=ZEN; BLIS
  // (OpenMP build, Debian's default).
  const Spec specs[] = {{"OpenBLAS", kOpenBlasPthread, nullptr, false},
                        {"OpenBLAS-ZEN", kOpenBlasPthread, "ZEN", false},
                        {"OpenBLAS-omp", kOpenBlasOpenmp, nullptr, false},
                        {"OpenBLAS-omp-ZEN", kOpenBlasOpenmp, "ZEN", false},
                        {"BLIS", kBlisOpenmp, nullptr, true}};
  for (const Spec &s : specs) {
    if (!wanted(filter, s.name)) continue;
    if (!std::filesystem::exists(s.path)) {
      if (verbose) std::fprintf(stderr, "peer %-17s not installed (%s)\n", s.name, s.path);
      continue;
    }
    Peer p;
    p.name = s.name;
    bool ok = s.blis ? load_blis(p, s.path) : load_openblas(p, s.path, s.coretype);
    if (!ok) {
      if (verbose) std::fprintf(stderr, "peer %-17s failed to load: %s\n", s.name, dlerror());
      continue;
    }
    if (verbose) std::fprintf(stderr, "peer %-17s %s (%s)\n", s.name, p.detail.c_str(), s.path);
    peers.push_back(std::move(p));
  }
  return peers;
}

}  // namespace bench
