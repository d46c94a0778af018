// Graph files in, edge lists out. Host-only. Every error is an fg::input_error naming file and line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fluxgraph/types.hpp"

namespace fg {

/// @brief A graph read from a file: edges in a dense vertex range [0, n), plus the map back to the
///        file's own ids so results can be reported in the input's numbering. The public type
///        (include/fluxgraph/types.hpp): fluxgraph::read_edges hands it over without a copy.
using edge_file = fluxgraph::edge_file;

enum class file_format { matrix_market, edge_list };

/// @brief Format from the name: *.mtx / *.mtx.gz are Matrix Market, anything else an edge list.
///        The suffix is compared case-insensitively (".MTX" is Matrix Market too).
file_format guess_format(const std::string& path);

/// @brief Matrix Market coordinate: real/integer/pattern, general/symmetric/skew-symmetric; .gz read
///        transparently. Entry (i, j) is the edge i->j; symmetric files give both directions
///        (the diagonal once); skew-symmetric gives (j, i) with the negated value.
/// @throws fg::input_error on a bad header, wrong count, index out of range or < 1, non-numeric
///         token, NaN/inf value, truncated file or empty file.
edge_file read_matrix_market(const std::string& path);

/// @brief SNAP / whitespace edge list: "src dst [weight]" per line, '#' or '%' comment lines,
///        blank lines skipped, .gz transparently. Ids are non-negative integers; the vertex set is the
///        ids that appear, mapped to [0, n) in increasing id order.
/// @throws fg::input_error naming file and line for anything else.
edge_file read_edge_list(const std::string& path);

/// @brief *.bin: little-endian int32 pairs "src dst" (stream --input-format bin's input), ids mapped as an
///        edge list's. @throws fg::input_error naming the file and the pair (as its line)
edge_file read_binary_edges(const std::string& path);

/// @brief LDBC Graphalytics' adjacency form of its validation graphs: "v n1 n2 ..." per line (the
///        edges v -> n_i; a line of v alone is a vertex without out-edges). Ids map to [0, n) in
///        increasing order. @throws fg::input_error naming file and line
edge_file read_adjacency(const std::string& path);

/// @brief A Graphalytics vertex file (one id per line) and edge file ("src dst [weight]"): every
///        vertex of the vertex file is a vertex, with edges or not; an edge naming an id the vertex
///        file lacks is an error. @throws fg::input_error naming file and line
edge_file read_vertex_edge(const std::string& e_path, const std::string& v_path);

/// @brief For "X.e": "X.v" when that file exists, else "" (then X.e is read as an edge list).
std::string vertex_file_of(const std::string& e_path);

/// @brief Dispatch on guess_format(path); a Graphalytics X.e with X.v beside it is read as a pair,
///        *.adj as adjacency lines, *.bin as int32 pairs; a snapshot (docs/snapshot.md, recognised by its
///        first bytes, whatever its name) as the graph it holds.
edge_file read_graph(const std::string& path);

/// Which of a file's data lines one rank of a distributed run parses: chunks of `chunk`
/// consecutive data lines (entries, edges), dealt to the parts in turn.
struct line_share {
  int part = 0, parts = 1;
  std::int64_t chunk = std::int64_t(1) << 16;
  bool keeps(std::int64_t data_line) const noexcept { return (data_line / chunk) % parts == part; }
};

/// The edges of one share of a graph file, in the file's own ids: Matrix Market ids minus one, with
/// num_vertices from its size line (dense = true); an edge list's ids as written, num_vertices -1
/// (the ranks map them to dense ids together).
struct edge_share {
  std::vector<std::int64_t> src, dst;
  std::vector<double> weight;
  std::int64_t num_vertices = -1;
  bool dense = false;
};

/// @brief One share of a Matrix Market file or an edge list: every line is read (counts, the
///        header), only the share's data lines are parsed and checked.
/// @throws fg::input_error naming file and line for a bad line of the share, or a bad header/count.
edge_share read_graph_share(const std::string& path, const line_share& share);

}  // namespace fg
