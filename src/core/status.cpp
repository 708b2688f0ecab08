#include "tessera/tessera.h"

extern "C" const char *tesseraGetStatusString(tesseraStatus_t status) {
  switch (status) {
    case TESSERA_STATUS_SUCCESS: return "TESSERA_STATUS_SUCCESS";
    case TESSERA_STATUS_NOT_INITIALIZED: return "TESSERA_STATUS_NOT_INITIALIZED";
    case TESSERA_STATUS_ALLOC_FAILED: return "TESSERA_STATUS_ALLOC_FAILED";
    case TESSERA_STATUS_INVALID_VALUE: return "TESSERA_STATUS_INVALID_VALUE";
    case TESSERA_STATUS_INTERNAL_ERROR: return "TESSERA_STATUS_INTERNAL_ERROR";
    case TESSERA_STATUS_NOT_SUPPORTED: return "TESSERA_STATUS_NOT_SUPPORTED";
  }
  return "TESSERA_STATUS_<unknown>";
}
