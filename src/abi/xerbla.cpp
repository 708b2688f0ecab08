// Default error handlers. Unlike Netlib's, they report and return: a library
// must never end the process over a bad argument. They are ordinary exported
// definitions, so a program's own xerbla_ / cblas_xerbla (as Netlib's test
// programs define) is found first by the dynamic linker and takes their
// place. Kept in their own file so no call to them can be inlined.
#include <cstdarg>
#include <cstdio>

#include "abi/blas_abi.h"

extern "C" {

TESSERA_ABI int RowMajorStrg = 0;
TESSERA_ABI int CBLAS_CallFromC = 0;

TESSERA_ABI void xerbla_(const char *srname, const int *info, size_t srname_len) {
  int len = 0;
  while (size_t(len) < srname_len && srname[len] != ' ' && srname[len] != '\0') ++len;
  std::fprintf(stderr, " ** On entry to %.*s parameter number %d had an illegal value\n", len, srname, *info);
}

TESSERA_ABI void cblas_xerbla(int info, const char *rout, const char *form, ...) {
  if (info) std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
  va_list ap;
  va_start(ap, form);
  std::vfprintf(stderr, form, ap);
  va_end(ap);
}

}  // extern "C"
