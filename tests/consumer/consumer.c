/* Uses all three public headers of an installed Tessera from plain C: the
 * native dense API, the sparse API and CBLAS; exits 0 when every result is
 * right. */
#include <math.h>
#include <stdio.h>
#include <tessera/blas.h>
#include <tessera/cblas.h>
#include <tessera/sparse.h>

static int check(const char *what, double got, double want) {
  if (fabs(got - want) > 1e-12 * (1 + fabs(want))) {
    printf("FAIL %s: got %g want %g\n", what, got, want);
    return 1;
  }
  return 0;
}

int main(void) {
  int bad = 0;
  /* C = A*B with A = [1 2; 3 4], B = [5 6; 7 8] (column-major). */
  double A[4] = {1, 3, 2, 4}, B[4] = {5, 7, 6, 8}, C[4] = {0}, one = 1, zero = 0;
  tblasHandle_t h;
  if (tblasCreate(&h) != TESSERA_STATUS_SUCCESS) return 2;
  if (tblasDgemm(h, TBLAS_OP_N, TBLAS_OP_N, 2, 2, 2, &one, A, 2, B, 2, &zero, C, 2) != TESSERA_STATUS_SUCCESS) bad++;
  bad += check("tblasDgemm C11", C[0], 19) + check("tblasDgemm C22", C[3], 50);
  tblasDestroy(h);

  /* The same product in row-major through CBLAS. */
  double Ar[4] = {1, 2, 3, 4}, Br[4] = {5, 6, 7, 8}, Cr[4] = {0};
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0, Ar, 2, Br, 2, 0.0, Cr, 2);
  bad += check("cblas_dgemm C12", Cr[1], 22) + check("cblas_dgemm C21", Cr[2], 43);

  /* y = A*x for the CSR [[2, 0], [1, 3]]. */
  int off[3] = {0, 1, 3}, col[3] = {0, 0, 1};
  double val[3] = {2, 1, 3}, x[2] = {1, 10}, y[2] = {0, 0};
  tsparseHandle_t sh;
  tsparseSpMatDescr_t M;
  tsparseDnVecDescr_t X, Y;
  char buffer[4096];
  size_t need = 0;
  tsparseCreate(&sh);
  tsparseCreateCsr(&M, 2, 2, 3, off, col, val, TSPARSE_INDEX_32I, TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO,
                   TESSERA_R_64F);
  tsparseCreateDnVec(&X, 2, x, TESSERA_R_64F);
  tsparseCreateDnVec(&Y, 2, y, TESSERA_R_64F);
  tsparseSpMV_bufferSize(sh, TSPARSE_OPERATION_NON_TRANSPOSE, &one, M, X, &zero, Y, TESSERA_R_64F,
                         TSPARSE_SPMV_ALG_DEFAULT, &need);
  if (need > sizeof buffer ||
      tsparseSpMV(sh, TSPARSE_OPERATION_NON_TRANSPOSE, &one, M, X, &zero, Y, TESSERA_R_64F, TSPARSE_SPMV_ALG_DEFAULT,
                  buffer) != TESSERA_STATUS_SUCCESS)
    bad++;
  bad += check("tsparseSpMV y0", y[0], 2) + check("tsparseSpMV y1", y[1], 31);
  tsparseDestroyDnVec(X);
  tsparseDestroyDnVec(Y);
  tsparseDestroySpMat(M);
  tsparseDestroy(sh);
  printf("%s (%s)\n", bad ? "FAILED" : "consumer OK", tesseraGetStatusString(TESSERA_STATUS_SUCCESS));
  return bad ? 1 : 0;
}
