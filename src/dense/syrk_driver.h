// SYRK/HERK planning and execution (validated arguments only; no checks here).
#pragma once
#include <cstdint>

#include "core/handle.h"
#include "dense/gemm_driver.h"
#include "tessera/tessera.h"

namespace tessera::dense {

// C = alpha*op(A)*op(A)^T + beta*C (herk: ^H, real alpha/beta) on the `lower`
// or upper triangle of the n×n C. `opA` describes op(A) (n × k); for complex
// types alpha/beta point at two values (herk: imaginary parts zero).
template <typename T, bool Complex>
tesseraStatus_t syrk_execute(tblasContext *h, bool lower, bool herk, int64_t n, int64_t k, const T *alpha,
                             GemmOperand<T> opA, const T *beta, T *C, int64_t ldc);

}  // namespace tessera::dense
