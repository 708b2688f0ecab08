// Matrix Market reader: every field and symmetry kind, array and coordinate,
// comments, duplicates and explicit zeros kept; malformed files give a clear
// "file:line: reason"; the four SuiteSparse matrices load and multiply.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sparse_util.h"
#include "tessera/sparse.h"

namespace {

struct Loaded {
  tesseraStatus_t st;
  std::string err;
  int64_t rows = 0, cols = 0, nnz = 0;
  std::vector<int64_t> off, col;
  std::vector<double> val;  // real or (re, im) pairs for complex
};

// A Matrix Market file written for one test and removed when the object
// goes (every run had left its files in the temporary directory: 1984 of them
// on one development machine). The process id keeps the names apart when CTest
// runs these tests in parallel processes (each counter starts at 0: two tests
// once read each other's file under `ctest -j2`).
class TempMtx {
 public:
  explicit TempMtx(const std::string &text) {
    static int counter = 0;
    path_ = ::testing::TempDir() + "tessera_mm_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".mtx";
    std::ofstream(path_) << text;
  }
  ~TempMtx() { std::remove(path_.c_str()); }
  TempMtx(const TempMtx &) = delete;
  TempMtx &operator=(const TempMtx &) = delete;
  const std::string &path() const { return path_; }

 private:
  std::string path_;
};

Loaded load_file(const std::string &path, tesseraDataType_t t = TESSERA_R_64F,
                 tsparseIndexType_t it = TSPARSE_INDEX_64I) {
  Loaded r;
  char err[512];
  tsparseMmMatrix_t m = nullptr;
  r.st = tsparseMmRead(path.c_str(), t, it, &m, err, sizeof err);
  r.err = err;
  if (r.st != TESSERA_STATUS_SUCCESS) return r;
  void *off, *col, *val;
  EXPECT_EQ(tsparseMmGet(m, &r.rows, &r.cols, &r.nnz, &off, &col, &val), TESSERA_STATUS_SUCCESS);
  const int per = (t == TESSERA_C_32F || t == TESSERA_C_64F) ? 2 : 1;
  for (int64_t i = 0; i <= r.rows; ++i)
    r.off.push_back(it == TSPARSE_INDEX_64I ? static_cast<int64_t *>(off)[i] : static_cast<int32_t *>(off)[i]);
  for (int64_t p = 0; p < r.nnz; ++p)
    r.col.push_back(it == TSPARSE_INDEX_64I ? static_cast<int64_t *>(col)[p] : static_cast<int32_t *>(col)[p]);
  for (int64_t p = 0; p < r.nnz * per; ++p) {
    switch (t) {
      case TESSERA_R_32F:
      case TESSERA_C_32F: r.val.push_back(static_cast<float *>(val)[p]); break;
      case TESSERA_R_32I: r.val.push_back(static_cast<int32_t *>(val)[p]); break;
      default: r.val.push_back(static_cast<double *>(val)[p]);
    }
  }
  EXPECT_EQ(tsparseMmDestroy(m), TESSERA_STATUS_SUCCESS);
  EXPECT_EQ(tsparseMmDestroy(m), TESSERA_STATUS_INVALID_VALUE);
  return r;
}

Loaded load(const std::string &text, tesseraDataType_t t = TESSERA_R_64F, tsparseIndexType_t it = TSPARSE_INDEX_64I) {
  TempMtx file(text);
  return load_file(file.path(), t, it);
}

TEST(MatrixMarket, CoordinateGeneralWithCommentsDuplicatesAndZeros) {
  Loaded m = load(
      "%%MatrixMarket matrix coordinate real general\n% a comment\n\n3 4 5\n2 1 1.5\n1 4 -2\n%inner\n2 1 "
      "0.5\n3 3 0\n1 2 7e0\n");
  ASSERT_EQ(m.st, TESSERA_STATUS_SUCCESS) << m.err;
  EXPECT_EQ(m.rows, 3);
  EXPECT_EQ(m.cols, 4);
  EXPECT_EQ(m.nnz, 5);
  EXPECT_EQ(m.off, (std::vector<int64_t>{0, 2, 4, 5}));
  EXPECT_EQ(m.col, (std::vector<int64_t>{3, 1, 0, 0, 2}));  // rows sorted, file order within a row
  EXPECT_EQ(m.val, (std::vector<double>{-2, 7, 1.5, 0.5, 0}));
}

TEST(MatrixMarket, SymmetricSkewHermitianPattern) {
  Loaded s = load("%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 4\n3 1 2\n3 2 5\n");
  ASSERT_EQ(s.st, TESSERA_STATUS_SUCCESS) << s.err;
  EXPECT_EQ(s.nnz, 5);
  EXPECT_EQ(s.off, (std::vector<int64_t>{0, 2, 3, 5}));
  EXPECT_EQ(s.col, (std::vector<int64_t>{0, 2, 2, 0, 1}));
  EXPECT_EQ(s.val, (std::vector<double>{4, 2, 5, 2, 5}));
  Loaded k = load("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n", TESSERA_R_32I);
  ASSERT_EQ(k.st, TESSERA_STATUS_SUCCESS) << k.err;
  EXPECT_EQ(k.col, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(k.val, (std::vector<double>{-3, 3}));
  Loaded hm = load("%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 1 0\n2 1 2 3\n", TESSERA_C_64F);
  ASSERT_EQ(hm.st, TESSERA_STATUS_SUCCESS) << hm.err;
  EXPECT_EQ(hm.nnz, 3);
  EXPECT_EQ(hm.val, (std::vector<double>{1, 0, 2, -3, 2, 3}));  // (0,0), (0,1)=conj, (1,0)
  Loaded p = load("%%MatrixMarket matrix coordinate pattern general\n2 3 2\n1 3\n2 2\n", TESSERA_R_32F,
                  TSPARSE_INDEX_32I);
  ASSERT_EQ(p.st, TESSERA_STATUS_SUCCESS) << p.err;
  EXPECT_EQ(p.val, (std::vector<double>{1, 1}));
  EXPECT_EQ(p.col, (std::vector<int64_t>{2, 1}));
}

TEST(MatrixMarket, ArrayGeneralAndSymmetric) {
  Loaded g = load("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n");
  ASSERT_EQ(g.st, TESSERA_STATUS_SUCCESS) << g.err;
  EXPECT_EQ(g.nnz, 6);
  EXPECT_EQ(g.col, (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(g.val, (std::vector<double>{1, 3, 5, 2, 4, 6}));
  Loaded s = load("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n");
  ASSERT_EQ(s.st, TESSERA_STATUS_SUCCESS) << s.err;
  EXPECT_EQ(s.val, (std::vector<double>{1, 2, 2, 3}));
  Loaded k = load("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n");
  ASSERT_EQ(k.st, TESSERA_STATUS_SUCCESS) << k.err;
  EXPECT_EQ(k.nnz, 6);
}

// Each malformed file fails with the expected status and a message naming
// the file and line and containing the reason.
TEST(MatrixMarket, MalformedFilesGiveFileLineReason) {
  struct Bad {
    const char *text;
    tesseraDataType_t type;
    tesseraStatus_t st;
    int line;
    const char *reason;
  };
  const Bad cases[] = {
      {"%%MatrixMarkt matrix coordinate real general\n1 1 0\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 1, "bad banner"},
      {"%%MatrixMarket matrix coordinate real\n1 1 0\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 1, "bad banner"},
      {"%%MatrixMarket matrix diagonal real general\n1 1 0\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 1, "format"},
      {"%%MatrixMarket matrix coordinate quaternion general\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 1, "field"},
      {"%%MatrixMarket matrix coordinate real general\n% only comments\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 2, "missing size"},
      {"%%MatrixMarket matrix coordinate real general\n2 2\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 2, "size line"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 4, "truncated"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 3, "outside"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n0 1 1\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 3, "outside"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 1\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 4, "expected 3 entries, found 2"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 4, "more entries"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1e999\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 3, "overflows double"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1e39\n", TESSERA_R_32F, TESSERA_STATUS_INVALID_VALUE, 3, "overflows float"},
      {"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 3000000000\n", TESSERA_R_32I, TESSERA_STATUS_INVALID_VALUE, 3, "overflows int32"},
      {"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 99999999999999999999\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 3, "overflows 64"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 abc\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 3, "bad number"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1 2\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 3, "extra"},
      {"%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 2, "square"},
      {"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 3, "above the diagonal"},
      {"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 3, "diagonal entry"},
      {"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 5, "expected 4 entries, found 3"},
      // Regression: a claimed array of 1.6e19 entries overflowed the count (and summing it column by column hung).
      {"%%MatrixMarket matrix array real general\n4000000000 4000000000\n1\n", TESSERA_R_64F, TESSERA_STATUS_INVALID_VALUE, 2, "too large"},
      {"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2\n", TESSERA_R_64F, TESSERA_STATUS_NOT_SUPPORTED, 1, "complex"},
      {"%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 0.5\n", TESSERA_R_32I, TESSERA_STATUS_NOT_SUPPORTED, 1, "int32"},
  };
  for (const Bad &b : cases) {
    TempMtx file(b.text);
    const std::string &path = file.path();
    Loaded m = load_file(path, b.type);
    EXPECT_EQ(m.st, b.st) << b.text;
    const std::string where = path + ":" + std::to_string(b.line) + ": ";
    EXPECT_EQ(m.err.rfind(where, 0), 0u) << "message '" << m.err << "' should start with '" << where << "'";
    EXPECT_NE(m.err.find(b.reason), std::string::npos) << "message '" << m.err << "' lacks '" << b.reason << "'";
  }
  Loaded missing = load_file("/nonexistent/file.mtx");
  EXPECT_EQ(missing.st, TESSERA_STATUS_INVALID_VALUE);
  EXPECT_NE(missing.err.find("cannot open"), std::string::npos);
}

// The SuiteSparse matrices: entry counts after expansion and an SpMV against
// the reference loop.
TEST(MatrixMarket, RealMatricesLoadAndMultiply) {
  struct Want {
    const char *name;
    int64_t rows, nnz;
    int64_t max_row;
  };
  const Want wants[] = {
      {"bcsstk13", 2003, 83883, -1},
      {"pushpull", 4000, -1, -1},
      {"arrow", 46500, -1, 46500},
      {"bayer10", 13436, 94926, -1},
  };
  for (const Want &w : wants) {
    const std::string path = std::string(TESSERA_MATRICES) + "/" + w.name + ".mtx";
    Loaded m = load_file(path, TESSERA_R_64F, TSPARSE_INDEX_32I);
    ASSERT_EQ(m.st, TESSERA_STATUS_SUCCESS) << m.err;
    EXPECT_EQ(m.rows, w.rows) << w.name;
    if (w.nnz >= 0) EXPECT_EQ(m.nnz, w.nnz) << w.name;
    int64_t longest = 0;
    for (int64_t i = 0; i < m.rows; ++i) longest = std::max(longest, m.off[size_t(i + 1)] - m.off[size_t(i)]);
    if (w.max_row >= 0) EXPECT_EQ(longest, w.max_row) << w.name;
    if (std::string(w.name) == "bayer10") {
      int64_t zeros = 0;
      for (double v : m.val) zeros += v == 0.0;
      EXPECT_EQ(zeros, 23332) << "explicit zeros must be kept";
    }
    tt::Csr<double> a;
    a.rows = m.rows;
    a.cols = m.cols;
    a.off = m.off;
    a.col = m.col;
    a.val = m.val;
    std::mt19937_64 rng(3);
    std::vector<double> x(size_t(a.cols)), y(size_t(a.rows), 0.0);
    for (auto &e : x) e = tt::random_entry<double>(rng);
    tt::IndexArrays ia = tt::index_arrays(a, TSPARSE_INDEX_32I, TSPARSE_INDEX_32I, 0);
    tt::SparseHandle h;
    tsparseSpMatDescr_t A;
    tsparseDnVecDescr_t X, Y;
    ASSERT_EQ(tsparseCreateCsr(&A, a.rows, a.cols, a.nnz(), ia.off(), ia.col(), a.val.data(), TSPARSE_INDEX_32I,
                               TSPARSE_INDEX_32I, TSPARSE_INDEX_BASE_ZERO, TESSERA_R_64F),
              TESSERA_STATUS_SUCCESS);
    tsparseCreateDnVec(&X, a.cols, x.data(), TESSERA_R_64F);
    tsparseCreateDnVec(&Y, a.rows, y.data(), TESSERA_R_64F);
    const double one = 1, zero = 0;
    size_t bytes = 0;
    tsparseSpMV_bufferSize(h, TSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, TESSERA_R_64F,
                           TSPARSE_SPMV_ALG_DEFAULT, &bytes);
    std::vector<char> buf(bytes);
    ASSERT_EQ(tsparseSpMV(h, TSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, TESSERA_R_64F,
                          TSPARSE_SPMV_ALG_DEFAULT, buf.data()),
              TESSERA_STATUS_SUCCESS);
    auto ref = tt::ref_spmv(a, false, 1.0, x, 0.0, y);
    for (size_t i = 0; i < y.size(); ++i) ASSERT_LE(std::fabs(y[i] - ref.y[i]), ref.bound[i]) << w.name << " row " << i;
    tsparseDestroyDnVec(X);
    tsparseDestroyDnVec(Y);
    tsparseDestroySpMat(A);
  }
}

}  // namespace
