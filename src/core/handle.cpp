#include "core/handle.h"

#include <new>

#include "core/alloc.h"
#include "core/env.h"
#include "core/thread_pool.h"

extern "C" {

tesseraStatus_t tblasCreate(tblasHandle_t *handle) {
  if (!handle) return TESSERA_STATUS_INVALID_VALUE;
  auto *ctx = tessera::alloc_fault() ? nullptr : new (std::nothrow) tblasContext();
  if (!ctx) return TESSERA_STATUS_ALLOC_FAILED;
  ctx->num_threads = tessera::default_num_threads();
  ctx->arch = tessera::default_arch();
  ctx->last_arch = ctx->arch;
  ctx->gemm_kc = tessera::env_int64("TESSERA_GEMM_KC");
  ctx->gemm_mc = tessera::env_int64("TESSERA_GEMM_MC");
  ctx->gemm_nc = tessera::env_int64("TESSERA_GEMM_NC");
  ctx->zmm_half_rate = tessera::default_zmm_half_rate();
  ctx->thread_work_scaled = !tessera::env_equals("TESSERA_THREAD_WORK_SCALED", "0");
  if (!tessera::object_register(ctx, tessera::ObjectKind::blas_handle)) {
    delete ctx;
    return TESSERA_STATUS_ALLOC_FAILED;
  }
  *handle = ctx;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tblasDestroy(tblasHandle_t handle) {
  if (!tessera::object_unregister(handle, tessera::ObjectKind::blas_handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  delete handle;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tblasSetNumThreads(tblasHandle_t handle, int threads) {
  if (!tessera::handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (threads < 1 || threads > tessera::ThreadPool::kMaxThreads) return TESSERA_STATUS_INVALID_VALUE;
  handle->num_threads = threads;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tblasGetNumThreads(tblasHandle_t handle, int *threads) {
  if (!tessera::handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (!threads) return TESSERA_STATUS_INVALID_VALUE;
  *threads = handle->num_threads;
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tblasSetArch(tblasHandle_t handle, tesseraArch_t arch) {
  if (!tessera::handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  return tessera::arch_from_api(arch, &handle->arch);
}

tesseraStatus_t tblasGetArch(tblasHandle_t handle, tesseraArch_t *arch) {
  if (!tessera::handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (!arch) return TESSERA_STATUS_INVALID_VALUE;
  *arch = static_cast<tesseraArch_t>(handle->arch);
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tblasGetLastArch(tblasHandle_t handle, tesseraArch_t *arch) {
  if (!tessera::handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (!arch) return TESSERA_STATUS_INVALID_VALUE;
  *arch = static_cast<tesseraArch_t>(handle->last_arch);
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tblasGetLastThreads(tblasHandle_t handle, int *threads) {
  if (!tessera::handle_is_live(handle)) return TESSERA_STATUS_NOT_INITIALIZED;
  if (!threads) return TESSERA_STATUS_INVALID_VALUE;
  *threads = handle->last_threads;
  return TESSERA_STATUS_SUCCESS;
}

}  // extern "C"
