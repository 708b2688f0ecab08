#include "dense/kernels/gemm_kernels.h"

namespace tessera::dense {

template <>
const GemmKernels<float> &gemm_kernels<float>(Arch arch) {
  switch (arch) {
    case Arch::avx512: return avx512::kF32;
    case Arch::avx2: return avx2::kF32;
    case Arch::generic: break;
  }
  return generic::kF32;
}

template <>
const GemmKernels<double> &gemm_kernels<double>(Arch arch) {
  switch (arch) {
    case Arch::avx512: return avx512::kF64;
    case Arch::avx2: return avx2::kF64;
    case Arch::generic: break;
  }
  return generic::kF64;
}

template <>
const GemmKernels<float> &gemm_kernels_narrow<float>(Arch arch) {
  switch (arch) {
    case Arch::avx512: return avx512::kF32Narrow;
    case Arch::avx2: return avx2::kF32Narrow;
    case Arch::generic: break;
  }
  return gemm_kernels<float>(arch);
}

template <>
const GemmKernels<double> &gemm_kernels_narrow<double>(Arch arch) {
  switch (arch) {
    case Arch::avx512: return avx512::kF64Narrow;
    case Arch::avx2: return avx2::kF64Narrow;
    case Arch::generic: break;
  }
  return gemm_kernels<double>(arch);
}

template <>
const GemmKernels<float> *gemm_kernels_narrow_c8<float>(Arch arch) {
  return arch == Arch::avx512 ? &avx512::kF32NarrowC8 : nullptr;
}

template <>
const GemmKernels<double> *gemm_kernels_narrow_c8<double>(Arch) {
  return nullptr;  // zsyrk's 4×8 tile measured slower than its 4×4 one (n = 4, 8: 1.1–1.3× the time)
}

template <>
const GemmKernels<float> *gemm_kernels_column<float>(Arch arch, int64_t n) {
  if (n == 1) return arch == Arch::avx512 ? &avx512::kF32Column : arch == Arch::avx2 ? &avx2::kF32Column : nullptr;
  if (n == 2) return arch == Arch::avx512 ? &avx512::kF32Column2 : arch == Arch::avx2 ? &avx2::kF32Column2 : nullptr;
  return nullptr;
}

template <>
const GemmKernels<double> *gemm_kernels_column<double>(Arch arch, int64_t n) {
  if (n == 1) return arch == Arch::avx512 ? &avx512::kF64Column : arch == Arch::avx2 ? &avx2::kF64Column : nullptr;
  if (n == 2) return arch == Arch::avx512 ? &avx512::kF64Column2 : arch == Arch::avx2 ? &avx2::kF64Column2 : nullptr;
  return nullptr;
}

template <>
const KGroupKernels<float> *gemm_kernels_kgroup<float>(Arch arch) {
  return arch == Arch::avx512 ? &avx512::kF32KGroup : nullptr;
}

template <>
const KGroupKernels<double> *gemm_kernels_kgroup<double>(Arch arch) {
  return arch == Arch::avx512 ? &avx512::kF64KGroup : nullptr;
}

}  // namespace tessera::dense
