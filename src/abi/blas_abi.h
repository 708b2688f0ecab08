// Symbols shared by the ABI layer's files: the error handlers (which a
// program may replace with its own definitions) and reference CBLAS's
// globals, which the Netlib CBLAS test programs read.
#pragma once
#include <cstddef>

#define TESSERA_ABI __attribute__((visibility("default")))

extern "C" {
// Netlib's Fortran error handler: routine name (blank padded), argument number.
TESSERA_ABI void xerbla_(const char *srname, const int *info, size_t srname_len);
// Reference CBLAS's error handler.
TESSERA_ABI void cblas_xerbla(int info, const char *rout, const char *form, ...);
// 1 while a CBLAS call runs in row-major (the test programs' cblas_xerbla
// swaps argument numbers back by it); reference CBLAS's names.
TESSERA_ABI extern int RowMajorStrg;
TESSERA_ABI extern int CBLAS_CallFromC;
// Tessera's own (tessera/cblas.h): the thread count of BLAS-ABI calls.
TESSERA_ABI void tessera_blas_set_num_threads(int threads);
TESSERA_ABI int tessera_blas_get_num_threads(void);
}
