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

// BLIS reads BLIS_ARCH_TYPE (a numeric arch_t id) once, in bli_init. The id
// of a configuration name, from a loaded instance's own table; -1 if absent.
int64_t blis_arch_id(void *lib, const char *name) {
  const char *(*arch_str)(int64_t) = nullptr;
  sym(lib, "bli_arch_string", arch_str);
  for (int64_t i = 0; arch_str && i < 64; ++i) {
    const char *s = arch_str(i);
    if (!s) break;
    if (std::string(s) == name) return i;
    if (std::string(s) == "generic") break;  // the table's last entry
  }
  return -1;
}

// Loads `path` as a BLIS peer; with `arch`, a private copy initialised with
// BLIS_ARCH_TYPE forcing that configuration. BLIS 0.9.0 does not recognise
// Zen 5 (family 26) and falls back to its slow "generic" kernels there; the
// issue's peer is BLIS with its zen3 kernels, so the default peer is forced
// to zen3 when detection fails, and "BLIS-skx" adds its AVX-512 kernels on
// CPUs that have AVX-512.
bool load_blis(Peer &p, const char *path, const char *arch) {
  std::string file = path;
  const char *old = std::getenv("BLIS_ARCH_TYPE");
  const std::string saved = old ? old : "";
  if (arch) {
    void *probe = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const int64_t id = probe ? blis_arch_id(probe, arch) : -1;
    if (id < 0) return false;
    auto dir = std::filesystem::temp_directory_path() / ("tessera-bench-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    auto copy = dir / (p.name + ".so");
    std::error_code ec;
    std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) return false;
    file = copy.string();
    setenv("BLIS_ARCH_TYPE", std::to_string(id).c_str(), 1);
  }
  p.lib = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  void (*init)() = nullptr;
  if (p.lib) sym(p.lib, "bli_init", init);
  if (init) init();  // reads BLIS_ARCH_TYPE; bli_arch_query_id aborts before bli_init
  if (arch) {
    if (old) setenv("BLIS_ARCH_TYPE", saved.c_str(), 1);
    else unsetenv("BLIS_ARCH_TYPE");
    std::filesystem::remove(file);  // the mapping stays valid
  }
  if (!p.lib || !bind_cblas(p)) return false;
  void (*set)(int64_t) = nullptr;
  int64_t (*arch_id)() = nullptr;
  const char *(*arch_str)(int64_t) = nullptr;
  sym(p.lib, "bli_thread_set_num_threads", set);
  sym(p.lib, "bli_arch_query_id", arch_id);
  sym(p.lib, "bli_arch_string", arch_str);
  if (!set) return false;
  p.set_threads = [set](int n) { set(n); };
  if (arch_id && arch_str) p.detail = std::string("arch ") + arch_str(arch_id());
  return true;
}

// A CBLAS library from a file (--peer-lib), in a link-map namespace of its
// own (dlmopen), so that it brings its own dependencies: another Tessera
// build's libtessera_blas.so gets its own libtessera.so, not the first one
// the process loaded under the same soname. Threads are set through whichever
// control the library exports.
bool load_file(Peer &p, const std::string &path) {
  p.lib = dlmopen(LM_ID_NEWLM, path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!p.lib || !bind_cblas(p)) return false;
  void (*set)(int) = nullptr;
  for (const char *name : {"tessera_blas_set_num_threads", "openblas_set_num_threads"})
    if (!set) sym(p.lib, name, set);
  void (*set64)(int64_t) = nullptr;
  sym(p.lib, "bli_thread_set_num_threads", set64);
  if (set) p.set_threads = [set](int n) { set(n); };
  else if (set64) p.set_threads = [set64](int n) { set64(n); };
  else return false;
  p.detail = "file";
  return true;
}

}  // namespace

std::vector<Peer> load_peers(const std::string &filter, bool verbose, const std::vector<std::string> &libs) {
  std::vector<Peer> peers;
  struct Spec {
    const char *name, *path, *coretype;
    bool blis;
    const char *arch;  // BLIS: configuration forced (nullptr: BLIS's own detection)
  };
  // OpenBLAS pthread (Debian's default alternative) and OpenMP builds, each
  // with its default kernel choice and with OPENBLAS_CORETYPE=ZEN; BLIS
  // (OpenMP build, Debian's default): its own choice, or zen3 where it
  // detects nothing better than generic, and skx (AVX-512) where the CPU has it.
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const Spec specs[] = {{"OpenBLAS", kOpenBlasPthread, nullptr, false, nullptr},
                        {"OpenBLAS-ZEN", kOpenBlasPthread, "ZEN", false, nullptr},
                        {"OpenBLAS-omp", kOpenBlasOpenmp, nullptr, false, nullptr},
                        {"OpenBLAS-omp-ZEN", kOpenBlasOpenmp, "ZEN", false, nullptr},
                        {"BLIS", kBlisOpenmp, nullptr, true, nullptr},
                        {"BLIS-skx", kBlisOpenmp, nullptr, true, "skx"}};
  for (const Spec &s : specs) {
    if (!wanted(filter, s.name)) continue;
    if (!std::filesystem::exists(s.path)) {
      if (verbose) std::fprintf(stderr, "peer %-17s not installed (%s)\n", s.name, s.path);
      continue;
    }
    if (s.arch && std::string(s.arch) == "skx" && !avx512) continue;
    Peer p;
    p.name = s.name;
    bool ok = s.blis ? load_blis(p, s.path, s.arch) : load_openblas(p, s.path, s.coretype);
    if (ok && s.blis && !s.arch && p.detail == "arch generic") {
      p = Peer{};  // BLIS did not recognise this CPU: its zen3 kernels, as the peer
      p.name = s.name;
      ok = load_blis(p, s.path, "zen3");
    }
    if (!ok) {
      if (verbose) std::fprintf(stderr, "peer %-17s failed to load: %s\n", s.name, dlerror());
      continue;
    }
    if (verbose) std::fprintf(stderr, "peer %-17s %s (%s)\n", s.name, p.detail.c_str(), s.path);
    peers.push_back(std::move(p));
  }
  for (const std::string &spec : libs) {
    const size_t eq = spec.find('=');
    Peer p;
    p.name = eq == std::string::npos ? spec : spec.substr(0, eq);
    const std::string path = eq == std::string::npos ? spec : spec.substr(eq + 1);
    if (!load_file(p, path)) {
      const char *err = dlerror();
      std::fprintf(stderr, "peer %-17s failed to load %s: %s\n", p.name.c_str(), path.c_str(),
                   err ? err : "no CBLAS symbols or thread control");
      continue;
    }
    if (verbose) std::fprintf(stderr, "peer %-17s %s (%s)\n", p.name.c_str(), p.detail.c_str(), path.c_str());
    peers.push_back(std::move(p));
  }
  return peers;
}

}  // namespace bench
