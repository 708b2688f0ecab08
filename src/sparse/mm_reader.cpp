// Matrix Market (.mtx) reader into an owned, zero-based CSR (tsparseMmRead).
// The whole file is read into memory and parsed line by line; every error
// names the file, the line and the reason. Rows come out sorted, entries of a
// row in file order; duplicates and explicit zeros are kept (SpMV adds
// duplicates); symmetric, skew-symmetric and hermitian files are expanded to
// both triangles (mirror = same, negated, conjugated value).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/alloc.h"
#include "core/registry.h"
#include "tessera/sparse.h"

struct tsparseMmMatrix {
  int64_t rows = 0, cols = 0, nnz = 0;
  std::vector<int32_t> row_off32, col32;
  std::vector<int64_t> row_off64, col64;
  std::vector<float> f32;  // R_32F, or C_32F as (re, im) pairs
  std::vector<double> f64;  // R_64F, or C_64F as pairs
  std::vector<int32_t> i32;
};

namespace tessera::sparse {
namespace {

enum class Field { real, integer, pattern, complex };
enum class Symmetry { general, symmetric, skew, hermitian };

struct ParseError {
  tesseraStatus_t status;
  std::string message;
};

class Reader {
 public:
  Reader(const char *path, std::string text) : path_(path), text_(std::move(text)) {}

  // Next line that is neither blank nor a comment; false at end of file.
  bool next_data_line(const char **begin, const char **end) {
    while (pos_ < text_.size()) {
      const size_t nl = text_.find('\n', pos_);
      const size_t e = nl == std::string::npos ? text_.size() : nl;
      const char *b = text_.data() + pos_;
      const char *le = text_.data() + e;
      pos_ = e + 1;
      ++line_;
      while (b < le && (*b == ' ' || *b == '\t' || *b == '\r')) ++b;
      if (b == le || *b == '%') continue;
      *begin = b;
      *end = le;
      return true;
    }
    return false;
  }

  // The first line, verbatim (the banner).
  std::string first_line() {
    const size_t nl = text_.find('\n');
    const size_t e = nl == std::string::npos ? text_.size() : nl;
    pos_ = e + 1;
    line_ = 1;
    std::string s = text_.substr(0, e);
    if (!s.empty() && s.back() == '\r') s.pop_back();
    return s;
  }

  [[noreturn]] void fail(const char *fmt, ...) const {
    va_list ap;
    va_start(ap, fmt);
    vfail(TESSERA_STATUS_INVALID_VALUE, fmt, ap);
  }
  [[noreturn]] void fail_with(tesseraStatus_t st, const char *fmt, ...) const {
    va_list ap;
    va_start(ap, fmt);
    vfail(st, fmt, ap);
  }
  int64_t line() const { return line_; }

 private:
  [[noreturn]] void vfail(tesseraStatus_t st, const char *fmt, va_list ap) const {
    char msg[256];
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    throw ParseError{st, path_ + ":" + std::to_string(line_) + ": " + msg};
  }
  std::string path_;
  std::string text_;
  size_t pos_ = 0;
  int64_t line_ = 0;
};

// Tokens of one line, as [begin, end) pairs without copying.
struct Tokens {
  const char *b[4];
  const char *e[4];
  int n = 0;
  bool extra = false;  // more than 4 tokens
};
Tokens split(const char *p, const char *end) {
  Tokens t;
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    if (p == end) break;
    const char *s = p;
    while (p < end && *p != ' ' && *p != '\t' && *p != '\r') ++p;
    if (t.n == 4) {
      t.extra = true;
      break;
    }
    t.b[t.n] = s;
    t.e[t.n] = p;
    ++t.n;
  }
  return t;
}

std::string lower(std::string s) {
  for (char &c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool parse_i64(const char *b, const char *e, int64_t *v, bool *overflow) {
  std::string s(b, e);
  char *end = nullptr;
  errno = 0;
  const long long r = std::strtoll(s.c_str(), &end, 10);
  *overflow = errno == ERANGE;
  *v = r;
  return end == s.c_str() + s.size() && !s.empty();
}

bool parse_f64(const char *b, const char *e, double *v, bool *overflow) {
  std::string s(b, e);
  char *end = nullptr;
  errno = 0;
  const double r = std::strtod(s.c_str(), &end);
  *overflow = errno == ERANGE && (r == HUGE_VAL || r == -HUGE_VAL);
  *v = r;
  return end == s.c_str() + s.size() && !s.empty();
}

struct Entry {
  int64_t i, j;
  double re, im;
};

struct Header {
  bool coordinate;
  Field field;
  Symmetry sym;
};

Header parse_banner(Reader &r, const std::string &banner) {
  char obj[64] = {}, fmt[64] = {}, field[64] = {}, sym[64] = {}, head[64] = {};
  if (std::sscanf(banner.c_str(), "%63s %63s %63s %63s %63s", head, obj, fmt, field, sym) != 5 ||
      std::strcmp(head, "%%MatrixMarket") != 0)
    r.fail("bad banner: expected '%%%%MatrixMarket matrix <format> <field> <symmetry>'");
  Header h{};
  if (lower(obj) != "matrix") r.fail("bad banner: object '%s' is not 'matrix'", obj);
  const std::string f = lower(fmt), fl = lower(field), s = lower(sym);
  if (f == "coordinate") h.coordinate = true;
  else if (f == "array") h.coordinate = false;
  else r.fail("bad banner: format '%s' is neither 'coordinate' nor 'array'", fmt);
  if (fl == "real" || fl == "double") h.field = Field::real;
  else if (fl == "integer") h.field = Field::integer;
  else if (fl == "pattern") h.field = Field::pattern;
  else if (fl == "complex") h.field = Field::complex;
  else r.fail("bad banner: unknown field '%s'", field);
  if (s == "general") h.sym = Symmetry::general;
  else if (s == "symmetric") h.sym = Symmetry::symmetric;
  else if (s == "skew-symmetric") h.sym = Symmetry::skew;
  else if (s == "hermitian") h.sym = Symmetry::hermitian;
  else r.fail("bad banner: unknown symmetry '%s'", sym);
  if (!h.coordinate && h.field == Field::pattern) r.fail("bad banner: 'pattern' needs the coordinate format");
  if (h.field == Field::pattern && h.sym == Symmetry::skew) r.fail("bad banner: a pattern cannot be skew-symmetric");
  if (h.sym == Symmetry::hermitian && h.field != Field::complex) r.fail("bad banner: 'hermitian' needs a complex field");
  return h;
}

// Parses the value tokens of an entry (first at t.b[k]) into e.re / e.im.
void parse_value(Reader &r, const Header &h, const Tokens &t, int k, tesseraDataType_t want, Entry &e) {
  const int need = h.field == Field::pattern ? 0 : h.field == Field::complex ? 2 : 1;
  if (t.n - k < need) r.fail("truncated entry: expected %d value%s", need, need == 1 ? "" : "s");
  if (t.n - k > need || t.extra) r.fail("unexpected extra tokens after the entry");
  e.re = 1.0;
  e.im = 0.0;
  bool overflow = false;
  if (h.field == Field::integer) {
    int64_t v;
    if (!parse_i64(t.b[k], t.e[k], &v, &overflow)) r.fail("bad integer value '%.*s'", int(t.e[k] - t.b[k]), t.b[k]);
    if (overflow) r.fail("integer value overflows 64 bits");
    if (want == TESSERA_R_32I && (v < INT32_MIN || v > INT32_MAX)) r.fail("integer value %lld overflows int32", (long long)v);
    e.re = double(v);
  } else if (h.field == Field::real || h.field == Field::complex) {
    for (int c = 0; c < need; ++c) {
      double v;
      if (!parse_f64(t.b[k + c], t.e[k + c], &v, &overflow))
        r.fail("bad number '%.*s'", int(t.e[k + c] - t.b[k + c]), t.b[k + c]);
      if (overflow) r.fail("value overflows double");
      const bool single = want == TESSERA_R_32F || want == TESSERA_C_32F;
      if (single && std::isfinite(v) && std::fabs(v) > double(FLT_MAX)) r.fail("value %g overflows float", v);
      (c == 0 ? e.re : e.im) = v;
    }
  }
}

tsparseMmMatrix *read(const char *path, tesseraDataType_t want, tsparseIndexType_t itype) {
  if (alloc_fault()) throw std::bad_alloc();
  FILE *f = std::fopen(path, "rb");
  if (!f) throw ParseError{TESSERA_STATUS_INVALID_VALUE, std::string(path) + ": cannot open: " + std::strerror(errno)};
  std::string text;
  char chunk[1 << 16];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;) text.append(chunk, n);
  std::fclose(f);
  Reader r(path, std::move(text));
  const Header h = parse_banner(r, r.first_line());
  const bool want_complex = want == TESSERA_C_32F || want == TESSERA_C_64F;
  if (h.field == Field::complex && !want_complex)
    r.fail_with(TESSERA_STATUS_NOT_SUPPORTED, "complex file read as a real type");
  if (want == TESSERA_R_32I && (h.field == Field::real || h.field == Field::complex))
    r.fail_with(TESSERA_STATUS_NOT_SUPPORTED, "real-valued file read as int32");

  const char *b, *e;
  if (!r.next_data_line(&b, &e)) r.fail("missing size line");
  Tokens t = split(b, e);
  int64_t rows = 0, cols = 0, count = 0;
  bool ov = false;
  const int size_tokens = h.coordinate ? 3 : 2;
  if (t.n != size_tokens || t.extra) r.fail("size line needs %d integers", size_tokens);
  if (!parse_i64(t.b[0], t.e[0], &rows, &ov) || ov || rows < 0 || !parse_i64(t.b[1], t.e[1], &cols, &ov) || ov ||
      cols < 0)
    r.fail("bad dimensions on the size line");
  if (h.coordinate && (!parse_i64(t.b[2], t.e[2], &count, &ov) || ov || count < 0))
    r.fail("bad entry count on the size line");
  if (h.sym != Symmetry::general && rows != cols) r.fail("a %s matrix must be square", h.sym == Symmetry::skew ? "skew-symmetric" : "symmetric");
  if (!h.coordinate) {
    // Array: every column-major entry (symmetric: the lower triangle with the
    // diagonal; skew-symmetric: strictly lower). Counted in closed form, with
    // overflow checks: a size line can claim anything.
    const int64_t off = h.sym == Symmetry::skew ? 1 : 0;
    const int64_t m = h.sym == Symmetry::general ? rows : rows - off;  // entries in column 0
    const int64_t c = h.sym == Symmetry::general ? cols : std::min(cols, m);
    if (m > 0 && c > 0 && m > (INT64_MAX - m) / c) r.fail("array of %lld x %lld entries is too large", (long long)rows, (long long)cols);
    count = h.sym == Symmetry::general ? m * c : (m <= 0 ? 0 : m * (m + 1) / 2);
  }
  std::vector<Entry> entries;
  entries.reserve(size_t(std::min<int64_t>(count, int64_t(1) << 16)));  // grows with the file, not the claim
  int64_t aj = 0, ai = h.sym == Symmetry::skew ? 1 : 0;  // array cursor
  while (r.next_data_line(&b, &e)) {
    if (int64_t(entries.size()) == count) r.fail("more entries than the %lld declared", (long long)count);
    t = split(b, e);
    Entry en{};
    if (h.coordinate) {
      if (t.n < 2) r.fail("truncated entry: expected row and column indices");
      if (!parse_i64(t.b[0], t.e[0], &en.i, &ov) || ov || !parse_i64(t.b[1], t.e[1], &en.j, &ov) || ov)
        r.fail("bad row or column index");
      if (en.i < 1 || en.i > rows || en.j < 1 || en.j > cols)
        r.fail("index (%lld, %lld) outside the %lld x %lld matrix", (long long)en.i, (long long)en.j, (long long)rows,
               (long long)cols);
      --en.i;
      --en.j;
      if (h.sym != Symmetry::general && en.i < en.j) r.fail("entry above the diagonal in a symmetric-kind file");
      if (h.sym == Symmetry::skew && en.i == en.j) r.fail("diagonal entry in a skew-symmetric file");
      parse_value(r, h, t, 2, want, en);
    } else {
      en.i = ai;
      en.j = aj;
      parse_value(r, h, t, 0, want, en);
      if (++ai == rows) {
        ++aj;
        ai = h.sym == Symmetry::general ? 0 : aj + (h.sym == Symmetry::skew ? 1 : 0);
      }
    }
    entries.push_back(en);
  }
  if (int64_t(entries.size()) != count)
    r.fail("expected %lld entries, found %lld", (long long)count, (long long)entries.size());

  // Counting sort by row; a mirrored entry follows its original.
  auto mirrored = [&](const Entry &en) { return h.sym != Symmetry::general && en.i != en.j; };
  std::vector<int64_t> row_off(size_t(rows + 1), 0);
  for (const Entry &en : entries) {
    ++row_off[size_t(en.i + 1)];
    if (mirrored(en)) ++row_off[size_t(en.j + 1)];
  }
  for (int64_t i = 0; i < rows; ++i) row_off[size_t(i + 1)] += row_off[size_t(i)];
  const int64_t nnz = row_off[size_t(rows)];
  if (itype == TSPARSE_INDEX_32I && (nnz > INT32_MAX || rows > INT32_MAX || cols > INT32_MAX))
    r.fail_with(TESSERA_STATUS_NOT_SUPPORTED, "%lld entries / dimensions do not fit 32-bit indices", (long long)nnz);

  auto m = std::make_unique<tsparseMmMatrix>();
  m->rows = rows;
  m->cols = cols;
  m->nnz = nnz;
  std::vector<int64_t> col(static_cast<size_t>(nnz));
  const int vals_per = want_complex ? 2 : 1;
  std::vector<double> val(size_t(nnz) * size_t(vals_per));
  std::vector<int64_t> fill(row_off.begin(), row_off.end() - 1);
  auto put = [&](int64_t i, int64_t j, double re, double im) {
    const int64_t p = fill[size_t(i)]++;
    col[size_t(p)] = j;
    val[size_t(p * vals_per)] = re;
    if (want_complex) val[size_t(p * vals_per + 1)] = im;
  };
  for (const Entry &en : entries) {
    put(en.i, en.j, en.re, en.im);
    if (!mirrored(en)) continue;
    if (h.sym == Symmetry::symmetric) put(en.j, en.i, en.re, en.im);
    else if (h.sym == Symmetry::skew) put(en.j, en.i, -en.re, -en.im);
    else put(en.j, en.i, en.re, -en.im);
  }
  entries = {};
  if (itype == TSPARSE_INDEX_32I) {
    m->row_off32.assign(row_off.begin(), row_off.end());
    m->col32.assign(col.begin(), col.end());
  } else {
    m->row_off64 = std::move(row_off);
    m->col64 = std::move(col);
  }
  switch (want) {
    case TESSERA_R_32F:
    case TESSERA_C_32F: m->f32.assign(val.begin(), val.end()); break;
    case TESSERA_R_64F:
    case TESSERA_C_64F: m->f64 = std::move(val); break;
    default: m->i32.assign(val.begin(), val.end()); break;
  }
  return m.release();
}

void write_error(char *error, size_t len, const std::string &msg) {
  if (!error || len == 0) return;
  std::snprintf(error, len, "%s", msg.c_str());
}

}  // namespace
}  // namespace tessera::sparse

extern "C" {

tesseraStatus_t tsparseMmRead(const char *path, tesseraDataType_t valueType, tsparseIndexType_t indexType,
                              tsparseMmMatrix_t *matrix, char *error, size_t errorLength) {
  using namespace tessera::sparse;
  if (error && errorLength) error[0] = '\0';
  if (!path || !matrix || (indexType != TSPARSE_INDEX_32I && indexType != TSPARSE_INDEX_64I)) {
    write_error(error, errorLength, "invalid argument");
    return TESSERA_STATUS_INVALID_VALUE;
  }
  switch (valueType) {
    case TESSERA_R_32F:
    case TESSERA_R_64F:
    case TESSERA_R_32I:
    case TESSERA_C_32F:
    case TESSERA_C_64F: break;
    default: write_error(error, errorLength, "unsupported value type"); return TESSERA_STATUS_NOT_SUPPORTED;
  }
  try {
    tsparseMmMatrix *m = read(path, valueType, indexType);
    if (!tessera::object_register(m, tessera::ObjectKind::mm_matrix)) {
      delete m;
      write_error(error, errorLength, std::string(path) + ": out of memory");
      return TESSERA_STATUS_ALLOC_FAILED;
    }
    *matrix = m;
    return TESSERA_STATUS_SUCCESS;
  } catch (const ParseError &e) {
    write_error(error, errorLength, e.message);
    return e.status;
  } catch (const std::bad_alloc &) {
    write_error(error, errorLength, std::string(path) + ": out of memory");
    return TESSERA_STATUS_ALLOC_FAILED;
  } catch (const std::length_error &) {
    write_error(error, errorLength, std::string(path) + ": sizes too large");
    return TESSERA_STATUS_ALLOC_FAILED;
  }
}

tesseraStatus_t tsparseMmGet(tsparseMmMatrix_t m, int64_t *rows, int64_t *cols, int64_t *nnz, void **rowOffsets,
                             void **colInd, void **values) {
  if (!tessera::object_is_live(m, tessera::ObjectKind::mm_matrix)) return TESSERA_STATUS_INVALID_VALUE;
  if (rows) *rows = m->rows;
  if (cols) *cols = m->cols;
  if (nnz) *nnz = m->nnz;
  const bool i32 = !m->row_off32.empty();
  if (rowOffsets) *rowOffsets = i32 ? static_cast<void *>(m->row_off32.data()) : m->row_off64.data();
  if (colInd) *colInd = i32 ? static_cast<void *>(m->col32.data()) : m->col64.data();
  if (values) {
    *values = !m->f32.empty()   ? static_cast<void *>(m->f32.data())
              : !m->f64.empty() ? static_cast<void *>(m->f64.data())
                                : static_cast<void *>(m->i32.data());
  }
  return TESSERA_STATUS_SUCCESS;
}

tesseraStatus_t tsparseMmDestroy(tsparseMmMatrix_t m) {
  if (!m) return TESSERA_STATUS_SUCCESS;
  if (!tessera::object_unregister(m, tessera::ObjectKind::mm_matrix)) return TESSERA_STATUS_INVALID_VALUE;
  delete m;
  return TESSERA_STATUS_SUCCESS;
}

}  // extern "C"
