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
// Cores this process may run on (sched_getaffinity), at least 1.
int available_cores();
// TESSERA_NUM_THREADS if set and valid, otherwise available_cores().
int default_num_threads();
// The path a handle's Set*Arch call asks for: AUTO → default_arch(); an
// unknown value → INVALID_VALUE; a path the CPU lacks → NOT_SUPPORTED.
tesseraStatus_t arch_from_api(tesseraArch_t arch, Arch *out);

}  // namespace tessera
