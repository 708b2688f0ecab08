#include "sparse_matrices.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

#include "tessera/sparse.h"

namespace bench {

namespace {

// splitmix64: fast enough for the ~400M draws of an R-MAT.
struct SplitMix {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  // In [-1, -1/16] ∪ [1/16, 1]: random, never zero.
  double value() {
    const double m = 0.0625 + 0.9375 * uniform();
    return (next() & 1) ? m : -m;
  }
};

void random_values(CsrMatrix &m, uint64_t seed) {
  SplitMix r{seed};
  m.val.resize(m.col.size());
  for (auto &v : m.val) v = r.value();
}

}  // namespace

int64_t CsrMatrix::max_row() const {
  int64_t mx = 0;
  for (int64_t i = 0; i < rows; ++i) mx = std::max<int64_t>(mx, off[size_t(i + 1)] - off[size_t(i)]);
  return mx;
}

CsrMatrix make_laplacian_2d(int64_t g) {
  CsrMatrix m;
  m.name = "lap2d-" + std::to_string(g);
  m.rows = m.cols = g * g;
  m.off.reserve(size_t(m.rows + 1));
  m.col.reserve(size_t(5 * m.rows));
  m.off.push_back(0);
  for (int64_t i = 0; i < g; ++i)
    for (int64_t j = 0; j < g; ++j) {
      const int64_t r = i * g + j;
      if (i > 0) m.col.push_back(int32_t(r - g));
      if (j > 0) m.col.push_back(int32_t(r - 1));
      m.col.push_back(int32_t(r));
      if (j + 1 < g) m.col.push_back(int32_t(r + 1));
      if (i + 1 < g) m.col.push_back(int32_t(r + g));
      m.off.push_back(int32_t(m.col.size()));
    }
  random_values(m, 1);
  return m;
}

CsrMatrix make_stencil_27(int64_t g) {
  CsrMatrix m;
  m.name = "st27-" + std::to_string(g);
  m.rows = m.cols = g * g * g;
  m.off.reserve(size_t(m.rows + 1));
  m.col.reserve(size_t(27 * m.rows));
  m.off.push_back(0);
  for (int64_t i = 0; i < g; ++i)
    for (int64_t j = 0; j < g; ++j)
      for (int64_t k = 0; k < g; ++k) {
        for (int64_t di = -1; di <= 1; ++di)
          for (int64_t dj = -1; dj <= 1; ++dj)
            for (int64_t dk = -1; dk <= 1; ++dk) {
              const int64_t a = i + di, b = j + dj, c = k + dk;
              if (a < 0 || b < 0 || c < 0 || a >= g || b >= g || c >= g) continue;
              m.col.push_back(int32_t((a * g + b) * g + c));
            }
        m.off.push_back(int32_t(m.col.size()));
      }
  random_values(m, 2);
  return m;
}

CsrMatrix make_rmat(int scale, int64_t edges, const std::vector<int64_t> &dense_draws, uint64_t seed) {
  const int64_t n = int64_t(1) << scale;
  SplitMix r{seed};
  std::vector<int32_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  for (int64_t i = n - 1; i > 0; --i) std::swap(perm[size_t(i)], perm[size_t(r.next() % uint64_t(i + 1))]);
  std::vector<std::pair<int32_t, int32_t>> e;
  e.reserve(size_t(edges));
  // Quadrant probabilities a, b, c, d = .57, .19, .19, .05 (cumulative).
  for (int64_t k = 0; k < edges; ++k) {
    int64_t u = 0, v = 0;
    for (int bit = scale - 1; bit >= 0; --bit) {
      const double p = r.uniform();
      if (p >= 0.57) {
        if (p < 0.76) v |= int64_t(1) << bit;
        else if (p < 0.95) u |= int64_t(1) << bit;
        else u |= (int64_t(1) << bit), v |= int64_t(1) << bit;
      }
    }
    e.push_back({perm[size_t(u)], perm[size_t(v)]});
  }
  for (size_t d = 0; d < dense_draws.size(); ++d) {
    const int32_t row = int32_t(r.next() % uint64_t(n));
    for (int64_t k = 0; k < dense_draws[d]; ++k) e.push_back({row, int32_t(r.next() % uint64_t(n))});
  }
  std::sort(e.begin(), e.end());
  e.erase(std::unique(e.begin(), e.end()), e.end());
  CsrMatrix m;
  m.name = "rmat-" + std::to_string(scale);
  m.rows = m.cols = n;
  m.off.assign(size_t(n + 1), 0);
  m.col.reserve(e.size());
  for (const auto &[u, v] : e) {
    ++m.off[size_t(u) + 1];
    m.col.push_back(v);
  }
  for (int64_t i = 0; i < n; ++i) m.off[size_t(i + 1)] += m.off[size_t(i)];
  random_values(m, seed + 1);
  return m;
}

CsrMatrix load_mtx(const std::string &path, bool keep_values) {
  char err[512];
  tsparseMmMatrix_t mm = nullptr;
  if (tsparseMmRead(path.c_str(), TESSERA_R_64F, TSPARSE_INDEX_32I, &mm, err, sizeof err) != TESSERA_STATUS_SUCCESS)
    throw std::runtime_error(err);
  int64_t rows, cols, nnz;
  void *off, *col, *val;
  tsparseMmGet(mm, &rows, &cols, &nnz, &off, &col, &val);
  CsrMatrix m;
  const size_t slash = path.find_last_of('/');
  m.name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (m.name.size() > 4 && m.name.substr(m.name.size() - 4) == ".mtx") m.name.resize(m.name.size() - 4);
  m.rows = rows;
  m.cols = cols;
  m.off.assign(static_cast<int32_t *>(off), static_cast<int32_t *>(off) + rows + 1);
  m.col.assign(static_cast<int32_t *>(col), static_cast<int32_t *>(col) + nnz);
  if (keep_values) m.val.assign(static_cast<double *>(val), static_cast<double *>(val) + nnz);
  else random_values(m, 3);
  tsparseMmDestroy(mm);
  return m;
}

}  // namespace bench
