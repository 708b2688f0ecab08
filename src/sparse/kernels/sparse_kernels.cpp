#include "sparse/kernels/sparse_kernels.h"

namespace tessera::sparse {

const SparseKernels &sparse_kernels(Arch arch) {
  switch (arch) {
    case Arch::avx512: return avx512::kKernels;
    case Arch::avx2: return avx2::kKernels;
    case Arch::generic: break;
  }
  return generic::kKernels;
}

}  // namespace tessera::sparse
