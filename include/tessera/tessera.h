/* Tessera: dense and sparse BLAS for multicore x86-64 CPUs.
 * Library-wide types: status codes, data types, complex layouts. */
#ifndef TESSERA_TESSERA_H
#define TESSERA_TESSERA_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define TESSERA_API
#else
#define TESSERA_API __attribute__((visibility("default")))
#endif

/* In C++ the enums get int as their fixed underlying type, so that any int a
 * caller passes (an invalid enum included, which the routines reject) is a
 * valid value of the parameter's type. Same size and calling convention as
 * the C enums. */
#ifdef __cplusplus
#define TESSERA_ENUM_INT : int
#else
#define TESSERA_ENUM_INT
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TESSERA_ENUM_INT {
  TESSERA_STATUS_SUCCESS = 0,
  TESSERA_STATUS_NOT_INITIALIZED = 1,
  TESSERA_STATUS_ALLOC_FAILED = 3,
  TESSERA_STATUS_INVALID_VALUE = 7,
  TESSERA_STATUS_INTERNAL_ERROR = 14,
  TESSERA_STATUS_NOT_SUPPORTED = 15
} tesseraStatus_t;

TESSERA_API const char *tesseraGetStatusString(tesseraStatus_t status);

typedef enum TESSERA_ENUM_INT {
  TESSERA_R_16F,
  TESSERA_R_32F,
  TESSERA_R_64F,
  TESSERA_R_32I,
  TESSERA_C_32F,
  TESSERA_C_64F
} tesseraDataType_t;

typedef struct { float re, im; } tesseraComplex;        /* layout of float _Complex  */
typedef struct { double re, im; } tesseraDoubleComplex; /* layout of double _Complex */

/* Instruction-set paths compiled into the library (extension to SPEC §7).
 * TESSERA_ARCH=generic|avx2|avx512 in the environment forces one. */
typedef enum TESSERA_ENUM_INT {
  TESSERA_ARCH_GENERIC = 0,
  TESSERA_ARCH_AVX2 = 1,   /* AVX2 + FMA3 */
  TESSERA_ARCH_AVX512 = 2, /* AVX-512 F/DQ/VL/BW */
  TESSERA_ARCH_AUTO = -1   /* best the CPU supports (or TESSERA_ARCH) */
} tesseraArch_t;

TESSERA_API const char *tesseraGetArchString(tesseraArch_t arch);
/* Best path this CPU supports (ignores TESSERA_ARCH). */
TESSERA_API tesseraArch_t tesseraGetCpuArch(void);
/* 1 when the CPU and OS can run `arch`, else 0. */
TESSERA_API int tesseraArchSupported(tesseraArch_t arch);

#ifdef __cplusplus
}
#endif
#endif
