/* Tessera sparse: cuSPARSE-style handle, non-owning descriptors, SpVV, CSR SpMV,
 * and a Matrix Market reader. Names, enum values and parameter orders of
 * SPEC §7 are the contract; everything marked "extension" is added. */
#ifndef TESSERA_SPARSE_H
#define TESSERA_SPARSE_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tsparseContext *tsparseHandle_t;
typedef struct tsparseSpVecDescr *tsparseSpVecDescr_t;
typedef struct tsparseDnVecDescr *tsparseDnVecDescr_t;
typedef struct tsparseSpMatDescr *tsparseSpMatDescr_t;
/* Read-only views (cuSPARSE's "const" descriptors): the same objects. */
typedef struct tsparseSpVecDescr const *tsparseConstSpVecDescr_t;
typedef struct tsparseDnVecDescr const *tsparseConstDnVecDescr_t;
typedef struct tsparseSpMatDescr const *tsparseConstSpMatDescr_t;

typedef enum TESSERA_ENUM_INT { TSPARSE_INDEX_32I = 0, TSPARSE_INDEX_64I = 1 } tsparseIndexType_t;
typedef enum TESSERA_ENUM_INT { TSPARSE_INDEX_BASE_ZERO = 0, TSPARSE_INDEX_BASE_ONE = 1 } tsparseIndexBase_t;
typedef enum TESSERA_ENUM_INT {
  TSPARSE_OPERATION_NON_TRANSPOSE = 0,
  TSPARSE_OPERATION_TRANSPOSE = 1,
  TSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2
} tsparseOperation_t;
/* TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS (op N; other ops run the default): for
 * matrices whose x is larger than the caches and read at random (power-law
 * graphs). preprocess copies A — pattern AND values — into column blocks whose
 * slice of x stays in cache, and every later SpMV with this algorithm
 * multiplies that copy (as MKL's mkl_sparse_optimize does): after changing A's
 * values, call preprocess again (SpMV makes the copy on first use if
 * preprocess was not called). Each row sums its blocks in block order, so the
 * result differs in rounding from the default algorithm but is bitwise
 * identical for any thread count; int32 results are exact either way. When x
 * fits in one block, this is the default algorithm. */
typedef enum TESSERA_ENUM_INT {
  TSPARSE_SPMV_ALG_DEFAULT = 0,
  TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS = 1
} tsparseSpMVAlg_t;

/* ---- handle ---------------------------------------------------------------
 * Thread count defaults to the cores available to the process
 * (TESSERA_NUM_THREADS overrides); the path to TESSERA_ARCH or the best one. */
TESSERA_API tesseraStatus_t tsparseCreate(tsparseHandle_t *handle);
TESSERA_API tesseraStatus_t tsparseDestroy(tsparseHandle_t handle);
TESSERA_API tesseraStatus_t tsparseSetNumThreads(tsparseHandle_t handle, int threads);
TESSERA_API tesseraStatus_t tsparseGetNumThreads(tsparseHandle_t handle, int *threads);
/* Extensions: instruction-set path, and what the last call used. */
TESSERA_API tesseraStatus_t tsparseSetArch(tsparseHandle_t handle, tesseraArch_t arch);
TESSERA_API tesseraStatus_t tsparseGetArch(tsparseHandle_t handle, tesseraArch_t *arch);
TESSERA_API tesseraStatus_t tsparseGetLastArch(tsparseHandle_t handle, tesseraArch_t *arch);
TESSERA_API tesseraStatus_t tsparseGetLastThreads(tsparseHandle_t handle, int *threads);

/* ---- descriptors (never own the arrays) -----------------------------------
 * Value types: TESSERA_R_16F (SpVV only), R_32F, R_64F, R_32I. */
TESSERA_API tesseraStatus_t tsparseCreateSpVec(tsparseSpVecDescr_t *x, int64_t size, int64_t nnz,
                                               void *indices, void *values, tsparseIndexType_t idxType,
                                               tsparseIndexBase_t idxBase, tesseraDataType_t valueType);
TESSERA_API tesseraStatus_t tsparseCreateConstSpVec(tsparseConstSpVecDescr_t *x, int64_t size, int64_t nnz,
                                                    const void *indices, const void *values,
                                                    tsparseIndexType_t idxType, tsparseIndexBase_t idxBase,
                                                    tesseraDataType_t valueType);
TESSERA_API tesseraStatus_t tsparseDestroySpVec(tsparseSpVecDescr_t x);
TESSERA_API tesseraStatus_t tsparseSpVecGet(tsparseConstSpVecDescr_t x, int64_t *size, int64_t *nnz,
                                            const void **indices, const void **values,
                                            tsparseIndexType_t *idxType, tsparseIndexBase_t *idxBase,
                                            tesseraDataType_t *valueType);

TESSERA_API tesseraStatus_t tsparseCreateDnVec(tsparseDnVecDescr_t *y, int64_t size, void *values,
                                               tesseraDataType_t valueType);
TESSERA_API tesseraStatus_t tsparseCreateConstDnVec(tsparseConstDnVecDescr_t *y, int64_t size,
                                                    const void *values, tesseraDataType_t valueType);
TESSERA_API tesseraStatus_t tsparseDestroyDnVec(tsparseDnVecDescr_t y);
TESSERA_API tesseraStatus_t tsparseDnVecGet(tsparseConstDnVecDescr_t y, int64_t *size, const void **values,
                                            tesseraDataType_t *valueType);

/* rowOffsets has rows+1 entries (rowOffsets[0] == idxBase, rowOffsets[rows] ==
 * nnz + idxBase); colInd and values have nnz. Column indices need not be
 * sorted; duplicates add. The sparsity pattern is checked on the first SpMV
 * (or preprocess) and the result kept with the descriptor: do not change
 * rowOffsets/colInd afterwards without tsparseCsrSetPointers (values may
 * change freely; TSPARSE_SPMV_CSR_ALG_COLUMN_BLOCKS multiplies its own copy
 * of them until the next preprocess). */
TESSERA_API tesseraStatus_t tsparseCreateCsr(tsparseSpMatDescr_t *A, int64_t rows, int64_t cols, int64_t nnz,
                                             void *rowOffsets, void *colInd, void *values,
                                             tsparseIndexType_t rowOffsetsType, tsparseIndexType_t colIndType,
                                             tsparseIndexBase_t idxBase, tesseraDataType_t valueType);
TESSERA_API tesseraStatus_t tsparseCreateConstCsr(tsparseConstSpMatDescr_t *A, int64_t rows, int64_t cols,
                                                  int64_t nnz, const void *rowOffsets, const void *colInd,
                                                  const void *values, tsparseIndexType_t rowOffsetsType,
                                                  tsparseIndexType_t colIndType, tsparseIndexBase_t idxBase,
                                                  tesseraDataType_t valueType);
TESSERA_API tesseraStatus_t tsparseDestroySpMat(tsparseSpMatDescr_t A);
TESSERA_API tesseraStatus_t tsparseCsrGet(tsparseConstSpMatDescr_t A, int64_t *rows, int64_t *cols,
                                          int64_t *nnz, const void **rowOffsets, const void **colInd,
                                          const void **values, tsparseIndexType_t *rowOffsetsType,
                                          tsparseIndexType_t *colIndType, tsparseIndexBase_t *idxBase,
                                          tesseraDataType_t *valueType);
/* Points A at new arrays (same shape, nnz and types) and drops its analysis. */
TESSERA_API tesseraStatus_t tsparseCsrSetPointers(tsparseSpMatDescr_t A, void *rowOffsets, void *colInd,
                                                  void *values);

/* ---- SpVV: result = sum_i x.values[i] * y[x.indices[i]] --------------------
 * x and y share a value type; fp16 and fp32 compute in fp32 (result is a
 * float), fp64 in fp64, int32 exactly with wraparound. Indices need not be
 * sorted; any index outside y → INVALID_VALUE (never read). op other than
 * NON_TRANSPOSE → NOT_SUPPORTED. Bitwise identical for any thread count. */
TESSERA_API tesseraStatus_t tsparseSpVV(tsparseHandle_t h, tsparseOperation_t op, tsparseSpVecDescr_t x,
                                        tsparseDnVecDescr_t y, void *result, tesseraDataType_t computeType);

/* ---- SpMV: y = alpha*op(A)*x + beta*y ---------------------------------------
 * op N or T (C is T for these real types); A, x, y and computeType share one
 * type: R_32F, R_64F or R_32I (exact, wraparound). alpha/beta point to that
 * type. beta == 0: y is not read. externalBuffer must hold bufferSize bytes
 * (may be null when bufferSize is 0). preprocess is optional: it checks A and
 * keeps the work split with the descriptor; SpMV does it on first use. */
TESSERA_API tesseraStatus_t tsparseSpMV_bufferSize(tsparseHandle_t h, tsparseOperation_t op, const void *alpha,
                                                   tsparseSpMatDescr_t A, tsparseDnVecDescr_t x,
                                                   const void *beta, tsparseDnVecDescr_t y,
                                                   tesseraDataType_t computeType, tsparseSpMVAlg_t alg,
                                                   size_t *bufferSize);
TESSERA_API tesseraStatus_t tsparseSpMV_preprocess(tsparseHandle_t h, tsparseOperation_t op, const void *alpha,
                                                   tsparseSpMatDescr_t A, tsparseDnVecDescr_t x,
                                                   const void *beta, tsparseDnVecDescr_t y,
                                                   tesseraDataType_t computeType, tsparseSpMVAlg_t alg,
                                                   void *externalBuffer);
TESSERA_API tesseraStatus_t tsparseSpMV(tsparseHandle_t h, tsparseOperation_t op, const void *alpha,
                                        tsparseSpMatDescr_t A, tsparseDnVecDescr_t x, const void *beta,
                                        tsparseDnVecDescr_t y, tesseraDataType_t computeType,
                                        tsparseSpMVAlg_t alg, void *externalBuffer);

/* ---- Matrix Market reader (extension) ---------------------------------------
 * Reads a .mtx file (coordinate or array; real, integer, pattern, complex;
 * general, symmetric, skew-symmetric, hermitian) into an owned CSR with rows
 * sorted, entries of a row in file order, duplicates and explicit zeros kept,
 * symmetric kinds expanded to both triangles. valueType: R_32F, R_64F, R_32I
 * (real, integer or pattern files; a value that does not fit → error), or
 * C_32F/C_64F (any field). Index type 32I fails with NOT_SUPPORTED when nnz
 * or a dimension does not fit. On error, returns INVALID_VALUE (malformed
 * file: message "path:line: reason"), NOT_SUPPORTED, or ALLOC_FAILED, and
 * writes a message to `error` (may be null) of `errorLength` bytes. */
typedef struct tsparseMmMatrix *tsparseMmMatrix_t;
TESSERA_API tesseraStatus_t tsparseMmRead(const char *path, tesseraDataType_t valueType,
                                          tsparseIndexType_t indexType, tsparseMmMatrix_t *matrix, char *error,
                                          size_t errorLength);
/* Zero-based CSR arrays owned by the matrix, valid until tsparseMmDestroy. */
TESSERA_API tesseraStatus_t tsparseMmGet(tsparseMmMatrix_t matrix, int64_t *rows, int64_t *cols, int64_t *nnz,
                                         void **rowOffsets, void **colInd, void **values);
TESSERA_API tesseraStatus_t tsparseMmDestroy(tsparseMmMatrix_t matrix);

#ifdef __cplusplus
}
#endif
#endif
