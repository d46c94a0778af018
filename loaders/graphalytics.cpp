// LDBC Graphalytics graph files: a vertex file (.v, one id per line) with an edge file (.e,
// "src dst [weight]"), and the adjacency form of its validation graphs ("v n1 n2 ..."). Both can
// name vertices without edges, which an edge list cannot, so the vertex set is read explicitly.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "loaders/graph_file.hpp"
#include "loaders/text_reader.hpp"

namespace fg {

namespace {

std::int64_t id_at(const text_reader& in, std::string_view tok) {
  std::int64_t v = 0;
  if (parse_int64(tok, v) != parse_status::ok || v < 0)
    throw input_error(in.path(), in.line_number(), "vertex id " + quote_token(tok) + " is not a non-negative integer");
  return v;
}

double weight_at(const text_reader& in, std::string_view tok) {
  double w = 0;
  if (parse_double(tok, w) != parse_status::ok || !std::isfinite(w))
    throw input_error(in.path(), in.line_number(), "weight " + quote_token(tok) + " is not a finite number");
  return w;
}

bool skip(std::string_view t) { return t.empty() || t.front() == '#' || t.front() == '%'; }

/// Dense ids in increasing id order over the sorted, distinct `ids`.
struct id_table {
  std::vector<std::int64_t> ids;
  std::int32_t dense(std::int64_t id) const {
    const auto it = std::lower_bound(ids.begin(), ids.end(), id);
    return it != ids.end() && *it == id ? std::int32_t(it - ids.begin()) : -1;
  }
};

void finish(edge_file& g, id_table& t) {
  std::sort(t.ids.begin(), t.ids.end());
  t.ids.erase(std::unique(t.ids.begin(), t.ids.end()), t.ids.end());
  if (t.ids.size() > std::size_t(std::numeric_limits<std::int32_t>::max()))
    throw input_error(g.path, 0, "too many vertices: " + std::to_string(t.ids.size()));
  g.num_vertices = std::int64_t(t.ids.size());
}
}  // namespace

edge_file read_adjacency(const std::string& path) {
  text_reader in(path);
  edge_file g;
  g.path = path;
  id_table t;
  std::vector<std::int64_t> src, dst;
  std::string_view line;
  std::vector<std::string_view> tok(1);
  while (in.next(line)) {
    const std::string_view l = trim_left(line);
    if (skip(l)) continue;
    const std::size_t n = split_tokens(l, tok.data(), tok.size(), false);
    if (n > tok.size()) {
      tok.resize(n);
      split_tokens(l, tok.data(), tok.size(), false);
    }
    const std::int64_t v = id_at(in, tok[0]);
    t.ids.push_back(v);
    for (std::size_t i = 1; i < n; ++i) src.push_back(v), dst.push_back(id_at(in, tok[i]));
  }
  if (t.ids.empty()) throw input_error(path, 0, "empty file: no vertices");
  t.ids.insert(t.ids.end(), dst.begin(), dst.end());  // a neighbour without a line of its own
  finish(g, t);
  g.original_id = t.ids;
  for (std::size_t k = 0; k < src.size(); ++k) g.src.push_back(t.dense(src[k])), g.dst.push_back(t.dense(dst[k]));
  return g;
}

edge_file read_vertex_edge(const std::string& e_path, const std::string& v_path) {
  edge_file g;
  g.path = e_path;
  id_table t;
  std::string_view line, tok[4];
  {
    text_reader vin(v_path);
    while (vin.next(line)) {
      const std::string_view l = trim_left(line);
      if (skip(l)) continue;
      if (split_tokens(l, tok, 4, false) != 1) throw input_error(v_path, vin.line_number(), "expected one vertex id");
      t.ids.push_back(id_at(vin, tok[0]));
    }
  }
  finish(g, t);
  g.original_id = t.ids;
  text_reader in(e_path);
  std::size_t columns = 0;
  while (in.next(line)) {
    const std::string_view l = trim_left(line);
    if (skip(l)) continue;
    const std::size_t n = split_tokens(l, tok, 4, false);
    if (n != 2 && n != 3) throw input_error(e_path, in.line_number(), "expected 'src dst' or 'src dst weight'");
    if (columns == 0) columns = n;
    if (n != columns) throw input_error(e_path, in.line_number(), "inconsistent column count");
    std::int32_t d[2];
    for (int k = 0; k < 2; ++k) {
      d[k] = t.dense(id_at(in, tok[k]));
      if (d[k] < 0)
        throw input_error(e_path, in.line_number(), "vertex " + std::string(tok[k]) + " is not in the vertex file " + v_path);
    }
    g.src.push_back(d[0]), g.dst.push_back(d[1]);
    if (n == 3) g.weight.push_back(weight_at(in, tok[2]));
  }
  return g;
}

std::string vertex_file_of(const std::string& e_path) {
  if (e_path.size() < 2 || e_path.compare(e_path.size() - 2, 2, ".e") != 0) return {};
  std::string v = e_path.substr(0, e_path.size() - 2) + ".v";
  return std::filesystem::exists(v) ? v : std::string();
}

}  // namespace fg
