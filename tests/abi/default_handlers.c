/* Tessera's default error handlers report and return: a bad argument never
 * ends the process (reference CBLAS's cblas_xerbla calls exit). This program
 * defines no handler of its own, passes bad arguments through CBLAS and the
 * Fortran symbols, and must reach its last line with C untouched. */
#include <stdio.h>
#include <string.h>
#include <tessera/cblas.h>

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *, const double *,
            const int *, const double *, const int *, const double *, double *, const int *, size_t, size_t);

int main(void) {
  double A[4] = {1, 2, 3, 4}, C[4] = {7, 7, 7, 7}, one = 1;
  int n = 2, bad_m = -1;
  cblas_dgemm((CBLAS_LAYOUT)0, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0, A, 2, A, 2, 0.0, C, 2);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0, A, 1, A, 2, 0.0, C, 2);
  cblas_dsyrk(CblasRowMajor, CblasUpper, (CBLAS_TRANSPOSE)0, 2, 2, 1.0, A, 2, 0.0, C, 2);
  dgemm_("X", "N", &n, &n, &n, &one, A, &n, A, &n, &one, C, &n, 1, 1);
  dgemm_("N", "N", &bad_m, &n, &n, &one, A, &n, A, &n, &one, C, &n, 1, 1);
  for (int i = 0; i < 4; ++i)
    if (C[i] != 7) {
      printf("C was written\n");
      return 1;
    }
  printf("still running after 5 bad calls\n");
  return 0;
}
