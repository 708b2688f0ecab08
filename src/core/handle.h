// The dense handle (tblasContext): thread count, instruction-set path,
// workspace. Modelled on ruy's Context: it owns resources and reports what ran.
#pragma once
#include "core/cpu.h"
#include "core/registry.h"
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
  // 512-bit operations at half the 256-bit rate (default_zmm_half_rate; Zen 4):
  // SYRK's small-n tiles and GEMM's narrow-tile rule choose by it.
  bool zmm_half_rate = false;
  // The thread rule counts a call's flops at a fraction on a core with
  // full-rate 512-bit FMAs (dense/macro_kernel.h, thread_work); false (from
  // TESSERA_THREAD_WORK_SCALED=0) counts them in full on every core, as
  // tests that need a given shape to split do.
  bool thread_work_scaled = true;
  // This call's answer from ThreadPool::calls_frequent (-1: not asked yet),
  // reset by each level-3 entry point: the pool records every ask, so a
  // second ask within one call would read "frequent" off the first.
  int8_t calls_frequent = -1;
  // On its own cache line: a pool worker reads the workspace's slots on
  // every call, and the caller writes last_arch / last_threads above on
  // every call — on one line, each such write waited for the line to come
  // back from the worker's core (2-thread dgemm 64³, Zen 5 VM: ~100 ns).
  alignas(64) tessera::Workspace workspace;
};

namespace tessera {

inline bool handle_is_live(const tblasContext *h) { return object_is_live(h, ObjectKind::blas_handle); }

}  // namespace tessera
