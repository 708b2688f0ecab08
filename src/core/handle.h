// The dense handle (tblasContext): thread count, instruction-set path,
// workspace. Modelled on ruy's Context: it owns resources and reports what ran.
#pragma once
#include "core/cpu.h"
#include "core/workspace.h"
#include "tessera/blas.h"

struct tblasContext {
  int num_threads = 1;
  tessera::Arch arch = tessera::Arch::generic;  // path routines will use
  tessera::Arch last_arch = tessera::Arch::generic;
  int last_threads = 0;
  // GEMM cache-block overrides in real elements (0 = the ISA table's value);
  // from TESSERA_GEMM_KC / _MC / _NC, for tuning on a new machine.
  int64_t gemm_kc = 0, gemm_mc = 0, gemm_nc = 0;
  tessera::Workspace workspace;
};

namespace tessera {

// Live-handle registry: lets every entry point tell a valid handle from a null,
// destroyed or foreign pointer (NOT_INITIALIZED) without touching freed memory.
bool handle_register(const void *h);
bool handle_unregister(const void *h);
bool handle_is_live(const void *h);

}  // namespace tessera
