// CPU feature detection and the choice of instruction-set path.
#pragma once
#include <cstdint>

#include "core/env.h"
#include "tessera/tessera.h"

namespace tessera {

enum class Arch : int { generic = TESSERA_ARCH_GENERIC, avx2 = TESSERA_ARCH_AVX2, avx512 = TESSERA_ARCH_AVX512 };

bool cpu_supports(Arch arch);
// Best path the CPU and OS can run.
Arch cpu_best_arch();
// The process default: TESSERA_ARCH if set (clamped to what the CPU supports,
// never a path that would fault), otherwise cpu_best_arch().
Arch default_arch();
// Whether the CPU runs 512-bit vector operations on 256-bit units, two
// passes each (AMD Zen 4: one 512-bit FMA per cycle against two 256-bit
// ones), so a 512-bit tile that is half empty does half the useful work of
// a full 256-bit tile in the same cycles. CPUID: AuthenticAMD, family 0x19
// (Zen 3 and Zen 4; only Zen 4 has AVX-512), with AVX-512F. Zen 5 (family
// 0x1A) has full-width units. The environment variable
// TESSERA_ZMM_HALF_RATE=0|1 overrides it for handles created afterwards.
bool default_zmm_half_rate();
// Cores this process may run on (sched_getaffinity), at least 1.
int available_cores();
// TESSERA_NUM_THREADS if set and valid, otherwise available_cores().
int default_num_threads();
// The path a handle's Set*Arch call asks for: AUTO → default_arch(); an
// unknown value → INVALID_VALUE; a path the CPU lacks → NOT_SUPPORTED.
tesseraStatus_t arch_from_api(tesseraArch_t arch, Arch *out);

}  // namespace tessera
