#include "loaders/graph_file.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

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

edge_file read_graph(const std::string& path) {
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
