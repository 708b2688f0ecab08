// libFuzzer target: the Matrix Market reader. The input is a file's bytes
// (after one byte choosing the value and index type). Whatever the bytes, the
// reader must return a status and, on success, a well-formed CSR (checked
// here, then multiplied by SpMV); sanitizers catch any bad memory access.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/sparse.h"

namespace {

// The size line's numbers, so that inputs claiming matrices beyond what a
// fuzzing process may allocate (the CSR needs rows+1 offsets) are skipped:
// they exercise the allocator, not the parser.
bool claims_huge(const uint8_t *d, size_t n) {
  std::string s(reinterpret_cast<const char *>(d), n);
  size_t pos = s.find('\n');  // skip the banner
  while (pos != std::string::npos && pos + 1 < s.size()) {
    size_t end = s.find('\n', pos + 1);
    std::string line = s.substr(pos + 1, end == std::string::npos ? std::string::npos : end - pos - 1);
    pos = end;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '%') continue;
    long long a = 0, b = 0;
    if (std::sscanf(line.c_str(), "%lld %lld", &a, &b) >= 1) return a > 100000 || b > 100000 || (a > 0 && b > 0 && a * b > 4000000);  // no overflow: |a|, |b| <= 1e5 there
    return false;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  static const tesseraDataType_t kTypes[] = {TESSERA_R_64F, TESSERA_R_32F, TESSERA_R_32I, TESSERA_C_64F,
                                             TESSERA_C_32F};
  const tesseraDataType_t type = kTypes[data[0] % 5];
  const tsparseIndexType_t itype = (data[0] / 5) % 2 ? TSPARSE_INDEX_64I : TSPARSE_INDEX_32I;
  ++data, --size;
  if (claims_huge(data, size)) return 0;
  const int fd = memfd_create("mtx", 0);
  if (fd < 0) abort();
  if (size && write(fd, data, size) != ssize_t(size)) abort();
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  char err[512];
  tsparseMmMatrix_t m = nullptr;
  const tesseraStatus_t st = tsparseMmRead(path.c_str(), type, itype, &m, err, sizeof err);
  close(fd);
  if (st != TESSERA_STATUS_SUCCESS) {
    if (m != nullptr || err[0] == '\0') abort();  // an error always says why and returns nothing
    return 0;
  }
  int64_t rows, cols, nnz;
  void *off, *col, *val;
  if (tsparseMmGet(m, &rows, &cols, &nnz, &off, &col, &val) != TESSERA_STATUS_SUCCESS) abort();
  auto o = [&](int64_t i) { return itype == TSPARSE_INDEX_64I ? static_cast<int64_t *>(off)[i] : static_cast<int32_t *>(off)[i]; };
  auto c = [&](int64_t p) { return itype == TSPARSE_INDEX_64I ? static_cast<int64_t *>(col)[p] : static_cast<int32_t *>(col)[p]; };
  if (o(0) != 0 || o(rows) != nnz) abort();
  for (int64_t i = 0; i < rows; ++i)
    if (o(i + 1) < o(i)) abort();
  for (int64_t p = 0; p < nnz; ++p)
    if (c(p) < 0 || c(p) >= cols) abort();
  // A real matrix the reader produced must multiply.
  if (type == TESSERA_R_64F) {
    tsparseHandle_t h;
    tsparseCreate(&h);
    tsparseSpMatDescr_t A;
    tsparseDnVecDescr_t X, Y;
    std::vector<double> x(size_t(cols) + 1, 1.0), y(size_t(rows) + 1, 0.0);
    const double one = 1, zero = 0;
    if (tsparseCreateCsr(&A, rows, cols, nnz, off, col, val, itype, itype, TSPARSE_INDEX_BASE_ZERO, type) == 0) {
      tsparseCreateDnVec(&X, cols, x.data(), type);
      tsparseCreateDnVec(&Y, rows, y.data(), type);
      size_t bytes = 0;
      tsparseSpMV_bufferSize(h, TSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, type, TSPARSE_SPMV_ALG_DEFAULT,
                             &bytes);
      std::vector<char> buf(bytes + 1);
      if (tsparseSpMV(h, TSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, type, TSPARSE_SPMV_ALG_DEFAULT,
                      buf.data()) != TESSERA_STATUS_SUCCESS)
        abort();  // the reader's CSR is valid by construction
      tsparseDestroyDnVec(X);
      tsparseDestroyDnVec(Y);
      tsparseDestroySpMat(A);
    }
    tsparseDestroy(h);
  }
  tsparseMmDestroy(m);
  return 0;
}
