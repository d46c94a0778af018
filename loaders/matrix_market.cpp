// Matrix Market coordinate reader. The format is specified at
// https://math.nist.gov/MatrixMarket/formats.html; where the spec is loose (case of the banner,
// comments between entries, blank lines) we accept, and everything that would give a wrong graph
// is an input_error.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "loaders/graph_file.hpp"
#include "loaders/text_reader.hpp"

namespace fg {

namespace {

enum class mm_field { real, integer, pattern };
enum class mm_symmetry { general, symmetric, skew };

struct mm_header {
  mm_field field = mm_field::real;
  mm_symmetry symmetry = mm_symmetry::general;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_blank(std::string_view line) { return trim_left(line).empty(); }

bool is_comment(std::string_view line) {
  const std::string_view t = trim_left(line);
  return !t.empty() && t.front() == '%';
}

constexpr const char* banner_form =
    "expected '%%MatrixMarket matrix coordinate real|integer|pattern "
    "general|symmetric|skew-symmetric'";

mm_header parse_banner(const text_reader& in, std::string_view line) {
  const std::string& path = in.path();
  const std::int64_t ln = in.line_number();
  std::string_view tok[6];
  const std::size_t n = split_tokens(line, tok, 6, false);
  if (n == 0 || lower(tok[0]) != "%%matrixmarket")
    throw input_error(path, ln, std::string("missing or garbled %%MatrixMarket header: ") + banner_form);
  if (n != 5)
    throw input_error(path, ln, "garbled %%MatrixMarket header: " + std::to_string(n) +
                                    " words instead of 5; " + banner_form);
  const std::string object = lower(tok[1]), format = lower(tok[2]), field = lower(tok[3]),
                    symmetry = lower(tok[4]);
  if (object != "matrix")
    throw input_error(path, ln, "unsupported Matrix Market object " + quote_token(tok[1]) +
                                    ": only 'matrix' is supported");
  if (format == "array")
    throw input_error(path, ln, "unsupported Matrix Market format 'array' (dense): only "
                                "'coordinate' is supported");
  if (format != "coordinate")
    throw input_error(path, ln, "unknown Matrix Market format " + quote_token(tok[2]) + "; " + banner_form);
  mm_header h;
  if (field == "real") {
    h.field = mm_field::real;
  } else if (field == "integer") {
    h.field = mm_field::integer;
  } else if (field == "pattern") {
    h.field = mm_field::pattern;
  } else if (field == "complex") {
    throw input_error(path, ln, "unsupported Matrix Market field 'complex': only real, integer "
                                "and pattern are supported");
  } else {
    throw input_error(path, ln, "unknown Matrix Market field " + quote_token(tok[3]) + "; " + banner_form);
  }
  if (symmetry == "general") {
    h.symmetry = mm_symmetry::general;
  } else if (symmetry == "symmetric") {
    h.symmetry = mm_symmetry::symmetric;
  } else if (symmetry == "skew-symmetric") {
    h.symmetry = mm_symmetry::skew;
  } else if (symmetry == "hermitian") {
    throw input_error(path, ln, "unsupported Matrix Market symmetry 'hermitian' (complex only)");
  } else {
    throw input_error(path, ln, "unknown Matrix Market symmetry " + quote_token(tok[4]) + "; " + banner_form);
  }
  // The spec forbids it, and there would be no value to negate.
  if (h.field == mm_field::pattern && h.symmetry == mm_symmetry::skew)
    throw input_error(path, ln, "a pattern matrix cannot be skew-symmetric");
  return h;
}

struct mm_size {
  std::int64_t rows = 0, cols = 0, entries = 0;
};

mm_size parse_size_line(const text_reader& in, std::string_view line) {
  const std::string bad = "bad size line: expected 'rows columns entries' (3 non-negative integers)";
  std::string_view tok[4];
  const std::size_t n = split_tokens(line, tok, 4, false);
  if (n != 3)
    throw input_error(in.path(), in.line_number(), bad + ", found " + std::to_string(n) + " tokens");
  std::int64_t v[3];
  for (int k = 0; k < 3; ++k) {
    if (parse_int64(tok[k], v[k]) != parse_status::ok || v[k] < 0)
      throw input_error(in.path(), in.line_number(), bad + ", found " + quote_token(tok[k]));
  }
  constexpr std::int64_t max_vertices = std::numeric_limits<std::int32_t>::max();
  if (std::max(v[0], v[1]) > max_vertices)
    throw input_error(in.path(), in.line_number(),
                      "too many vertices: " + std::to_string(std::max(v[0], v[1])) +
                          " (the limit is " + std::to_string(max_vertices) + ")");
  return {v[0], v[1], v[2]};
}

// 1-based index in [1, limit] to a dense 0-based id.
std::int32_t parse_index(const text_reader& in, std::string_view tok, std::int64_t limit,
                         const char* what) {
  std::int64_t v = 0;
  const parse_status st = parse_int64(tok, v);
  if (st == parse_status::invalid)
    throw input_error(in.path(), in.line_number(),
                      std::string(what) + " index " + quote_token(tok) + " is not an integer");
  if (st == parse_status::out_of_range || v < 1 || v > limit)
    throw input_error(in.path(), in.line_number(),
                      std::string(what) + " index " + quote_token(tok) + " out of range [1, " +
                          std::to_string(limit) + "]");
  return static_cast<std::int32_t>(v - 1);
}

double parse_value(const text_reader& in, std::string_view tok, mm_field field) {
  double value = 0;
  if (field == mm_field::integer) {
    std::int64_t iv = 0;
    const parse_status st = parse_int64(tok, iv);
    if (st == parse_status::invalid)
      throw input_error(in.path(), in.line_number(),
                        "value " + quote_token(tok) + " is not an integer (the header says 'integer')");
    if (st == parse_status::out_of_range)
      throw input_error(in.path(), in.line_number(), "value " + quote_token(tok) + " is out of range");
    return static_cast<double>(iv);
  }
  const parse_status st = parse_double(tok, value);
  if (st == parse_status::invalid)
    throw input_error(in.path(), in.line_number(), "value " + quote_token(tok) + " is not a number");
  if (st == parse_status::out_of_range)
    throw input_error(in.path(), in.line_number(), "value " + quote_token(tok) + " is out of range");
  if (!std::isfinite(value))
    throw input_error(in.path(), in.line_number(), "value " + quote_token(tok) + " is not finite");
  return value;
}

}  // namespace

// The reader, keeping only a share's entries (read_graph_share; line_share{}: all of them).
edge_file read_matrix_market(const std::string& path, const line_share& share) {
  text_reader in(path);
  std::string_view line;

  if (!in.next(line)) throw input_error(path, 0, "empty file");
  if (is_blank(line)) {
    // A file of blank lines is as empty as a file of no bytes; anything else lacks its banner.
    while (in.next(line)) {
      if (!is_blank(line)) throw input_error(path, 1, std::string("missing %%MatrixMarket header: ") + banner_form);
    }
    throw input_error(path, 0, "empty file");
  }
  const mm_header header = parse_banner(in, line);

  bool have_size = false;
  while (in.next(line)) {
    if (is_blank(line) || is_comment(line)) continue;
    have_size = true;
    break;
  }
  if (!have_size)
    throw input_error(path, in.line_number(), "truncated: missing size line 'rows columns entries'");
  const mm_size size = parse_size_line(in, line);

  const bool mirrored = header.symmetry != mm_symmetry::general;
  // The mirror (j, i) of an entry would fall outside a non-square matrix.
  if (mirrored && size.rows != size.cols)
    throw input_error(path, in.line_number(),
                      "a " + std::string(header.symmetry == mm_symmetry::skew ? "skew-symmetric" : "symmetric") +
                          " matrix must be square, the size line says " + std::to_string(size.rows) +
                          " x " + std::to_string(size.cols));
  const bool has_value = header.field != mm_field::pattern;
  const std::size_t want_tokens = has_value ? 3 : 2;

  edge_file g;
  g.path = path;
  g.num_vertices = std::max(size.rows, size.cols);
  // The header's count is only a hint until the entries are seen: a garbled count must not turn
  // into a huge allocation before the error is found.
  constexpr std::int64_t max_reserve = std::int64_t{1} << 24;
  const auto reserve = static_cast<std::size_t>(std::min(size.entries, max_reserve) * (mirrored ? 2 : 1));
  g.src.reserve(reserve);
  g.dst.reserve(reserve);
  if (has_value) g.weight.reserve(reserve);

  std::int64_t found = 0;
  std::string_view tok[4];
  while (in.next(line)) {
    const std::size_t n = split_tokens(line, tok, 4, false);
    if (n == 0) continue;
    if (tok[0].front() == '%') continue;
    if (found == size.entries)
      throw input_error(path, in.line_number(),
                        "too many entries: the size line says " + std::to_string(size.entries));
    if (!share.keeps(found)) {  // another rank's line: counted, parsed there
      ++found;
      continue;
    }
    if (n != want_tokens)
      throw input_error(path, in.line_number(),
                        "expected " + std::to_string(want_tokens) + " tokens (" +
                            (has_value ? "row column value" : "row column") + "), found " +
                            std::to_string(n));
    const std::int32_t i = parse_index(in, tok[0], size.rows, "row");
    const std::int32_t j = parse_index(in, tok[1], size.cols, "column");
    const double v = has_value ? parse_value(in, tok[2], header.field) : 0.0;
    if (header.symmetry == mm_symmetry::skew && i == j)
      throw input_error(path, in.line_number(),
                        "diagonal entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                            ") in a skew-symmetric matrix");
    g.src.push_back(i);
    g.dst.push_back(j);
    if (has_value) g.weight.push_back(v);
    if (mirrored && i != j) {
      g.src.push_back(j);
      g.dst.push_back(i);
      if (has_value) g.weight.push_back(header.symmetry == mm_symmetry::skew ? -v : v);
    }
    ++found;
  }
  if (found < size.entries)
    throw input_error(path, in.line_number(),
                      "truncated: expected " + std::to_string(size.entries) + " entries, found " +
                          std::to_string(found));

  g.original_id.resize(static_cast<std::size_t>(g.num_vertices));
  for (std::int64_t v = 0; v < g.num_vertices; ++v) g.original_id[static_cast<std::size_t>(v)] = v + 1;
  return g;
}

edge_file read_matrix_market(const std::string& path) { return read_matrix_market(path, line_share{}); }

}  // namespace fg
