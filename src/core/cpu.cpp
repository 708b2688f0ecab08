#include "core/cpu.h"

#include <cpuid.h>
#include <sched.h>

#include <cstdlib>
#include <cstring>

namespace tessera {

// F16C (half <-> float conversion, used by the AVX2 sparse kernels) straight
// from CPUID leaf 1, ECX bit 29: not every compiler's __builtin_cpu_supports
// knows it. Every AVX2 CPU has it, but the check keeps the path honest.
static bool has_f16c() {
  unsigned a, b, c, d;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
}

bool cpu_supports(Arch arch) {
  // GCC's __builtin_cpu_supports checks CPUID and, for AVX/AVX-512, that the OS
  // saves the wider registers (XCR0), so a "yes" here means the path can run.
  __builtin_cpu_init();
  switch (arch) {
    case Arch::generic: return true;
    case Arch::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && has_f16c();
    case Arch::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("fma");
  }
  return false;
}

Arch cpu_best_arch() {
  static const Arch best = cpu_supports(Arch::avx512) ? Arch::avx512
                           : cpu_supports(Arch::avx2) ? Arch::avx2
                                                      : Arch::generic;
  return best;
}

static Arch parse_arch_env() {
  const char *s = std::getenv("TESSERA_ARCH");
  Arch best = cpu_best_arch();
  if (!s || !*s) return best;
  Arch want = best;
  if (!strcasecmp(s, "generic")) want = Arch::generic;
  else if (!strcasecmp(s, "avx2")) want = Arch::avx2;
  else if (!strcasecmp(s, "avx512")) want = Arch::avx512;
  // Asking for a path the CPU lacks gives the best one it has below it.
  return static_cast<int>(want) <= static_cast<int>(best) ? want : best;
}

Arch default_arch() {
  static const Arch arch = parse_arch_env();
  return arch;
}

static bool cpu_zmm_half_rate() {
  unsigned a, b, c, d;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return false;
  // Vendor string in EBX, EDX, ECX: "Auth" "enti" "cAMD".
  if (b != 0x68747541u || d != 0x69746e65u || c != 0x444d4163u) return false;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  const unsigned family = ((a >> 8) & 0xf) + ((a >> 20) & 0xff);  // base + extended (AMD: base 0xf)
  return family == 0x19 && cpu_supports(Arch::avx512);
}

bool default_zmm_half_rate() {
  if (env_equals("TESSERA_ZMM_HALF_RATE", "0")) return false;
  if (env_equals("TESSERA_ZMM_HALF_RATE", "1")) return true;
  static const bool detected = cpu_zmm_half_rate();
  return detected;
}

int available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return 1;
}

tesseraStatus_t arch_from_api(tesseraArch_t arch, Arch *out) {
  if (arch == TESSERA_ARCH_AUTO) {
    *out = default_arch();
    return TESSERA_STATUS_SUCCESS;
  }
  if (arch != TESSERA_ARCH_GENERIC && arch != TESSERA_ARCH_AVX2 && arch != TESSERA_ARCH_AVX512)
    return TESSERA_STATUS_INVALID_VALUE;
  if (!cpu_supports(static_cast<Arch>(arch))) return TESSERA_STATUS_NOT_SUPPORTED;
  *out = static_cast<Arch>(arch);
  return TESSERA_STATUS_SUCCESS;
}

int default_num_threads() {
  const int v = env_threads("TESSERA_NUM_THREADS");
  return v > 0 ? v : available_cores();
}

}  // namespace tessera

extern "C" {
const char *tesseraGetArchString(tesseraArch_t arch) {
  switch (arch) {
    case TESSERA_ARCH_GENERIC: return "generic";
    case TESSERA_ARCH_AVX2: return "avx2";
    case TESSERA_ARCH_AVX512: return "avx512";
    case TESSERA_ARCH_AUTO: return "auto";
  }
  return "unknown";
}
tesseraArch_t tesseraGetCpuArch(void) { return static_cast<tesseraArch_t>(tessera::cpu_best_arch()); }
int tesseraArchSupported(tesseraArch_t arch) {
  if (arch != TESSERA_ARCH_GENERIC && arch != TESSERA_ARCH_AVX2 && arch != TESSERA_ARCH_AVX512) return 0;
  return tessera::cpu_supports(static_cast<tessera::Arch>(arch)) ? 1 : 0;
}
}
