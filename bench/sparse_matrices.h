// Benchmark matrices: generated (2D 5-point Laplacian, 3D 27-point stencil,
// R-MAT power-law graph with planted dense rows) or read from .mtx files.
// Zero-based CSR with int32 indices (every peer takes int32).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

struct CsrMatrix {
  std::string name;
  int64_t rows = 0, cols = 0;
  std::vector<int32_t> off, col;
  std::vector<double> val;  // random in [-1, 1], never zero
  int64_t nnz() const { return int64_t(col.size()); }
  int64_t max_row() const;
};

// g x g grid, 5-point stencil: g^2 rows, ~5 entries each.
CsrMatrix make_laplacian_2d(int64_t g);
// g^3 grid, 27-point stencil: g^3 rows, ~27 entries each.
CsrMatrix make_stencil_27(int64_t g);
// R-MAT (Graph500 a,b,c,d = .57,.19,.19,.05), 2^scale vertices, `edges`
// generated edges, vertices randomly permuted, duplicates removed; plus five
// rows planted from `dense_draws` random-column draws each (the baseline's
// matrix: scale 21, 19M edges, 120k..500k draws).
CsrMatrix make_rmat(int scale, int64_t edges, const std::vector<int64_t> &dense_draws, uint64_t seed);
// A .mtx file through tsparseMmRead; values replaced by random ones unless
// keep_values (so pattern files get data too). Throws std::runtime_error.
CsrMatrix load_mtx(const std::string &path, bool keep_values);

}  // namespace bench
