#include "loaders/graph_file.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <string_view>
#include <utility>

#include "loaders/snapshot.hpp"

namespace fg {

namespace {
// Case-insensitive, so that "graph.MTX" from a Windows tool is still read as Matrix Market.
bool ends_with_nocase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), s.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                    [](char a, char b) {
                      return std::tolower(static_cast<unsigned char>(a)) ==
                             std::tolower(static_cast<unsigned char>(b));
                    });
}
}  // namespace

file_format guess_format(const std::string& path) {
  if (ends_with_nocase(path, ".mtx") || ends_with_nocase(path, ".mtx.gz")) return file_format::matrix_market;
  return file_format::edge_list;
}

namespace {
// A snapshot (`fluxgraph save`, a durable stream's) as the edge file it was taken from: dense ids,
// each vertex's original id (its dense id when the snapshot kept none).
edge_file from_snapshot(const std::string& path) {
  snapshot s = read_snapshot(path);
  edge_file f;
  f.path = path;
  f.num_vertices = s.vertices;
  f.src = entry_rows(s);
  f.dst = std::move(s.col);
  f.weight = std::move(s.val);
  f.original_id = std::move(s.original_id);
  if (f.original_id.empty()) {
    f.original_id.resize(std::size_t(s.vertices));
    std::iota(f.original_id.begin(), f.original_id.end(), std::int64_t(0));
  }
  return f;
}
}  // namespace

edge_file read_graph(const std::string& path) {
  if (looks_like_snapshot(path)) return from_snapshot(path);
  if (const std::string v = vertex_file_of(path); !v.empty()) return read_vertex_edge(path, v);
  if (ends_with_nocase(path, ".adj") || ends_with_nocase(path, ".adj.gz")) return read_adjacency(path);
  if (ends_with_nocase(path, ".bin")) return read_binary_edges(path);
  switch (guess_format(path)) {
    case file_format::matrix_market:
      return read_matrix_market(path);
    case file_format::edge_list:
      break;
  }
  return read_edge_list(path);
}

}  // namespace fg
