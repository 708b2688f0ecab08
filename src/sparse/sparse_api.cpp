// Sparse handle and descriptor entry points (create / destroy / get / set).
// Descriptors are checked for shape and types here; the CSR pattern itself
// (offsets, column indices) is checked by the first SpMV that uses it.
#include <cstdint>
#include <new>

#include "core/alloc.h"
#include "core/cpu.h"
#include "sparse/sparse_context.h"

using tessera::ObjectKind;
using tessera::object_is_live;
using tessera::object_register;
using tessera::object_unregister;
using tessera::sparse::sparse_handle_is_live;
using tessera::sparse::valid_base;
using tessera::sparse::valid_index_type;

namespace {

// Types a descriptor may hold: the real types the sparse routines compute on.
// Complex data is valid but not computed on → NOT_SUPPORTED.
tesseraStatus_t check_value_type(tesseraDataType_t t) {
  switch (t) {
    case TESSERA_R_16F:
    case TESSERA_R_32F:
    case TESSERA_R_64F:
    case TESSERA_R_32I: return TESSERA_STATUS_SUCCESS;
    case TESSERA_C_32F:
    case TESSERA_C_64F: return TESSERA_STATUS_NOT_SUPPORTED;
  }
  return TESSERA_STATUS_INVALID_VALUE;
}

// The largest index value a 32-bit index array can hold.
constexpr int64_t kMax32 = INT32_MAX;

template <class D>
tesseraStatus_t publish(D *d, ObjectKind kind, D **out) {
  if (!object_register(d, kind)) {
    delete d;
    return TESSERA_STATUS_ALLOC_FAILED;
  }
  *out = d;
  return TESSERA_STATUS_SUCCESS;
}

template <class D>
tesseraStatus_t destroy(D *d, ObjectKind kind) {
  if (!d) return TESSERA_STATUS_SUCCESS;  // like free(NULL) and cuSPARSE
  if (!object_unregister(d, kind)) return TESSERA_STATUS_INVALID_VALUE;
  delete d;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t create_spvec(tsparseSpVecDescr_t *x, int64_t size, int64_t nnz, const void *indices,
                             const void *values, tsparseIndexType_t idx_type, tsparseIndexBase_t base,
                             tesseraDataType_t type) {
  if (!x || size < 0 || nnz < 0 || !valid_index_type(idx_type) || !valid_base(base))
    return TESSERA_STATUS_INVALID_VALUE;
  if (nnz > 0 && (!indices || !values)) return TESSERA_STATUS_INVALID_VALUE;
  if (tesseraStatus_t st = check_value_type(type); st != TESSERA_STATUS_SUCCESS) return st;
  auto *d = tessera::alloc_fault() ? nullptr : new (std::nothrow) tsparseSpVecDescr();
  if (!d) return TESSERA_STATUS_ALLOC_FAILED;
  d->size = size;
  d->nnz = nnz;
  d->indices = indices;
  d->values = values;
  d->idx_type = idx_type;
  d->base = base;
  d->type = type;
  return publish(d, ObjectKind::spvec, x);
}

tesseraStatus_t create_dnvec(tsparseDnVecDescr_t *y, int64_t size, const void *values, tesseraDataType_t type) {
  if (!y || size < 0 || (size > 0 && !values)) return TESSERA_STATUS_INVALID_VALUE;
  if (tesseraStatus_t st = check_value_type(type); st != TESSERA_STATUS_SUCCESS) return st;
  auto *d = tessera::alloc_fault() ? nullptr : new (std::nothrow) tsparseDnVecDescr();
  if (!d) return TESSERA_STATUS_ALLOC_FAILED;
  d->size = size;
  d->values = const_cast<void *>(values);
  d->type = type;
  return publish(d, ObjectKind::dnvec, y);
}

tesseraStatus_t create_csr(tsparseSpMatDescr_t *A, int64_t rows, int64_t cols, int64_t nnz, const void *row_off,
                           const void *col_ind, const void *values, tsparseIndexType_t row_off_type,
                           tsparseIndexType_t col_ind_type, tsparseIndexBase_t base, tesseraDataType_t type) {
  if (!A || rows < 0 || cols < 0 || nnz < 0) return TESSERA_STATUS_INVALID_VALUE;
  if (!valid_index_type(row_off_type) || !valid_index_type(col_ind_type) || !valid_base(base))
    return TESSERA_STATUS_INVALID_VALUE;
  if (!row_off || (nnz > 0 && (!col_ind || !values))) return TESSERA_STATUS_INVALID_VALUE;
  // 32-bit arrays must be able to hold every offset / index they describe.
  if (row_off_type == TSPARSE_INDEX_32I && nnz > kMax32 - base) return TESSERA_STATUS_INVALID_VALUE;
  if (col_ind_type == TSPARSE_INDEX_32I && cols > kMax32 - base + 1) return TESSERA_STATUS_INVALID_VALUE;
  if (tesseraStatus_t st = check_value_type(type); st != TESSERA_STATUS_SUCCESS) return st;
  auto *d = tessera::alloc_fault() ? nullptr : new (std::nothrow) tsparseSpMatDescr();
  if (!d) return TESSERA_STATUS_ALLOC_FAILED;
  d->rows = rows;
  d->cols = cols;
  d->nnz = nnz;
  d->row_off = row_off;
  d->col_ind = col_ind;
  d->values = values;
  d->row_off_type = row_off_type;
  d->col_ind_type = col_ind_type;
  d->base = base;
  d->type = type;
  return publish(d, ObjectKind::spmat, A);
}

}  // namespace

extern "C" {

tesseraStatus_t tsparseCreate(tsparseHandle_t *handle) {
  if (!handle) return TESSERA_STATUS_INVALID_VALUE;
  auto *ctx = tessera::alloc_fault() ? nullptr : new (std::nothrow) tsparseContext();
  if (!ctx) return TESSERA_STATUS_ALLOC_FAILED;
  ctx->num_threads = tessera::default_num_threads();
  ctx->arch = tessera::default_arch();
  ctx->last_arch = ctx->arch;
  return publish(ctx, ObjectKind::sparse_handle, handle);
}

tesseraStatus_t tsparseDestroy(tsparseHandle_t handle) {
  if (!object_unregister(handle, ObjectKind::sparse_handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  delete handle;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseSetNumThreads(tsparseHandle_t handle, int threads) {
  if (!sparse_handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (threads < 1 || threads > tessera::ThreadPool::kMaxThreads) return TESSERA_STATUS_INVALID_VALUE;
  handle->num_threads = threads;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseGetNumThreads(tsparseHandle_t handle, int *threads) {
  if (!sparse_handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (!threads) return TESSERA_STATUS_INVALID_VALUE;
  *threads = handle->num_threads;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseSetArch(tsparseHandle_t handle, tesseraArch_t arch) {
  if (!sparse_handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  return tessera::arch_from_api(arch, &handle->arch);
}

tesseraStatus_t tsparseGetArch(tsparseHandle_t handle, tesseraArch_t *arch) {
  if (!sparse_handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (!arch) return TESSERA_STATUS_INVALID_VALUE;
  *arch = static_cast<tesseraArch_t>(handle->arch);
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseGetLastArch(tsparseHandle_t handle, tesseraArch_t *arch) {
  if (!sparse_handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (!arch) return TESSERA_STATUS_INVALID_VALUE;
  *arch = static_cast<tesseraArch_t>(handle->last_arch);
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseGetLastThreads(tsparseHandle_t handle, int *threads) {
  if (!sparse_handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (!threads) return TESSERA_STATUS_INVALID_VALUE;
  *threads = handle->last_threads;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseCreateSpVec(tsparseSpVecDescr_t *x, int64_t size, int64_t nnz, void *indices, void *values,
                                   tsparseIndexType_t idxType, tsparseIndexBase_t idxBase,
                                   tesseraDataType_t valueType) {
  return create_spvec(x, size, nnz, indices, values, idxType, idxBase, valueType);
}

tesseraStatus_t tsparseCreateConstSpVec(tsparseConstSpVecDescr_t *x, int64_t size, int64_t nnz,
                                        const void *indices, const void *values, tsparseIndexType_t idxType,
                                        tsparseIndexBase_t idxBase, tesseraDataType_t valueType) {
  return create_spvec(const_cast<tsparseSpVecDescr_t *>(x), size, nnz, indices, values, idxType, idxBase,
                      valueType);
}

tesseraStatus_t tsparseDestroySpVec(tsparseSpVecDescr_t x) { return destroy(x, ObjectKind::spvec); }

tesseraStatus_t tsparseSpVecGet(tsparseConstSpVecDescr_t x, int64_t *size, int64_t *nnz, const void **indices,
                                const void **values, tsparseIndexType_t *idxType, tsparseIndexBase_t *idxBase,
                                tesseraDataType_t *valueType) {
  if (!object_is_live(x, ObjectKind::spvec)) return TESSERA_STATUS_INVALID_VALUE;
  if (size) *size = x->size;
  if (nnz) *nnz = x->nnz;
  if (indices) *indices = x->indices;
  if (values) *values = x->values;
  if (idxType) *idxType = x->idx_type;
  if (idxBase) *idxBase = x->base;
  if (valueType) *valueType = x->type;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseCreateDnVec(tsparseDnVecDescr_t *y, int64_t size, void *values,
                                   tesseraDataType_t valueType) {
  return create_dnvec(y, size, values, valueType);
}

tesseraStatus_t tsparseCreateConstDnVec(tsparseConstDnVecDescr_t *y, int64_t size, const void *values,
                                        tesseraDataType_t valueType) {
  return create_dnvec(const_cast<tsparseDnVecDescr_t *>(y), size, values, valueType);
}

tesseraStatus_t tsparseDestroyDnVec(tsparseDnVecDescr_t y) { return destroy(y, ObjectKind::dnvec); }

tesseraStatus_t tsparseDnVecGet(tsparseConstDnVecDescr_t y, int64_t *size, const void **values,
                                tesseraDataType_t *valueType) {
  if (!object_is_live(y, ObjectKind::dnvec)) return TESSERA_STATUS_INVALID_VALUE;
  if (size) *size = y->size;
  if (values) *values = y->values;
  if (valueType) *valueType = y->type;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseCreateCsr(tsparseSpMatDescr_t *A, int64_t rows, int64_t cols, int64_t nnz,
                                 void *rowOffsets, void *colInd, void *values, tsparseIndexType_t rowOffsetsType,
                                 tsparseIndexType_t colIndType, tsparseIndexBase_t idxBase,
                                 tesseraDataType_t valueType) {
  return create_csr(A, rows, cols, nnz, rowOffsets, colInd, values, rowOffsetsType, colIndType, idxBase,
                    valueType);
}

tesseraStatus_t tsparseCreateConstCsr(tsparseConstSpMatDescr_t *A, int64_t rows, int64_t cols, int64_t nnz,
                                      const void *rowOffsets, const void *colInd, const void *values,
                                      tsparseIndexType_t rowOffsetsType, tsparseIndexType_t colIndType,
                                      tsparseIndexBase_t idxBase, tesseraDataType_t valueType) {
  return create_csr(const_cast<tsparseSpMatDescr_t *>(A), rows, cols, nnz, rowOffsets, colInd, values,
                    rowOffsetsType, colIndType, idxBase, valueType);
}

tesseraStatus_t tsparseDestroySpMat(tsparseSpMatDescr_t A) { return destroy(A, ObjectKind::spmat); }

tesseraStatus_t tsparseCsrGet(tsparseConstSpMatDescr_t A, int64_t *rows, int64_t *cols, int64_t *nnz,
                              const void **rowOffsets, const void **colInd, const void **values,
                              tsparseIndexType_t *rowOffsetsType, tsparseIndexType_t *colIndType,
                              tsparseIndexBase_t *idxBase, tesseraDataType_t *valueType) {
  if (!object_is_live(A, ObjectKind::spmat)) return TESSERA_STATUS_INVALID_VALUE;
  if (rows) *rows = A->rows;
  if (cols) *cols = A->cols;
  if (nnz) *nnz = A->nnz;
  if (rowOffsets) *rowOffsets = A->row_off;
  if (colInd) *colInd = A->col_ind;
  if (values) *values = A->values;
  if (rowOffsetsType) *rowOffsetsType = A->row_off_type;
  if (colIndType) *colIndType = A->col_ind_type;
  if (idxBase) *idxBase = A->base;
  if (valueType) *valueType = A->type;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseCsrSetPointers(tsparseSpMatDescr_t A, void *rowOffsets, void *colInd, void *values) {
  if (!object_is_live(A, ObjectKind::spmat)) return TESSERA_STATUS_INVALID_VALUE;
  if (!rowOffsets || (A->nnz > 0 && (!colInd || !values))) return TESSERA_STATUS_INVALID_VALUE;
  A->row_off = rowOffsets;
  A->col_ind = colInd;
  A->values = values;
  delete A->analysis.exchange(nullptr);
  delete A->blocks.exchange(nullptr);
  return TESSERA_STATUS_SUCCESS;
}

}  // extern "C"
