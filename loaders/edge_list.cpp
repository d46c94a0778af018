// Whitespace (or comma) separated edge lists, SNAP style. Ids are arbitrary non-negative 64-bit
// integers, so they are gathered first and only then mapped to the dense range the engine uses.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "loaders/edge_parser.hpp"
#include "loaders/graph_file.hpp"
#include "loaders/text_reader.hpp"

namespace fg {

edge_file read_matrix_market(const std::string& path, const line_share& share);  // loaders/matrix_market.cpp

namespace {

constexpr std::int64_t max_vertices = std::numeric_limits<std::int32_t>::max();

// Error paths are kept out of line so that the per-token fast path stays small.
[[noreturn]] __attribute__((noinline)) void bad_id(const text_reader& in, std::string_view tok,
                                                     parse_status st, std::int64_t value) {
  std::string what;
  if (st == parse_status::out_of_range)
    what = "vertex id " + quote_token(tok) + " does not fit in a 64-bit integer";
  else if (st == parse_status::ok && value < 0)
    what = "negative vertex id " + quote_token(tok);
  else
    what = "vertex id " + quote_token(tok) + " is not a non-negative integer";
  throw input_error(in.path(), in.line_number(), what);
}

inline std::int64_t parse_id(const text_reader& in, std::string_view tok) {
  std::int64_t v = 0;
  const parse_status st = parse_int64(tok, v);
  if (st != parse_status::ok || v < 0) bad_id(in, tok, st, v);
  return v;
}

inline double parse_weight(const text_reader& in, std::string_view tok) {
  double w = 0;
  const parse_status st = parse_double(tok, w);
  if (st == parse_status::ok && std::isfinite(w)) return w;
  std::string what = "weight " + quote_token(tok);
  if (st == parse_status::invalid)
    what += " is not a number";
  else if (st == parse_status::out_of_range)
    what += " is out of range";
  else
    what += " is not finite";
  throw input_error(in.path(), in.line_number(), what);
}

[[noreturn]] void too_many_vertices(const std::string& path, std::int64_t n) {
  throw input_error(path, 0, "too many vertices: " + std::to_string(n) + " distinct ids (the limit is " +
                                 std::to_string(max_vertices) + ")");
}

// Ids that are small compared with the edge count (the usual case: SNAP ids are nearly dense)
// are mapped through a direct table in O(m + max id); anything else goes through sort + unique +
// binary search. Both give dense ids in increasing order of original id.
void densify(const std::string& path, const std::vector<std::int64_t>& src64,
             const std::vector<std::int64_t>& dst64, edge_file& g) {
  const std::size_t m = src64.size();
  std::int64_t max_id = 0;
  for (std::size_t k = 0; k < m; ++k) max_id = std::max({max_id, src64[k], dst64[k]});
  g.src.resize(m);
  g.dst.resize(m);

  if (max_id < 4 * static_cast<std::int64_t>(m) + 1024) {
    std::vector<std::int32_t> dense(static_cast<std::size_t>(max_id) + 1, 0);
    for (std::size_t k = 0; k < m; ++k) {
      dense[static_cast<std::size_t>(src64[k])] = 1;
      dense[static_cast<std::size_t>(dst64[k])] = 1;
    }
    std::int64_t n = 0;
    for (std::int64_t id = 0; id <= max_id; ++id) n += dense[static_cast<std::size_t>(id)];
    if (n > max_vertices) too_many_vertices(path, n);
    g.original_id.reserve(static_cast<std::size_t>(n));
    for (std::int64_t id = 0; id <= max_id; ++id) {
      std::int32_t& d = dense[static_cast<std::size_t>(id)];
      if (d == 0) continue;
      d = static_cast<std::int32_t>(g.original_id.size());
      g.original_id.push_back(id);
    }
    for (std::size_t k = 0; k < m; ++k) {
      g.src[k] = dense[static_cast<std::size_t>(src64[k])];
      g.dst[k] = dense[static_cast<std::size_t>(dst64[k])];
    }
  } else {
    std::vector<std::int64_t>& ids = g.original_id;
    ids.reserve(2 * m);
    ids.insert(ids.end(), src64.begin(), src64.end());
    ids.insert(ids.end(), dst64.begin(), dst64.end());
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    ids.shrink_to_fit();
    const auto n = static_cast<std::int64_t>(ids.size());
    if (n > max_vertices) too_many_vertices(path, n);
    // A plain binary search over millions of ids costs ~25 cache misses per lookup. Cutting the
    // id span into at most n equal buckets and searching only inside the id's bucket makes it
    // one or two for spread-out ids, and never worse than the plain search for clustered ones.
    const auto lo = static_cast<std::uint64_t>(ids.front());
    const std::uint64_t span = static_cast<std::uint64_t>(ids.back()) - lo;
    int shift = 0;
    while ((span >> shift) >= static_cast<std::uint64_t>(n)) ++shift;
    const std::size_t buckets = static_cast<std::size_t>(span >> shift) + 1;
    std::vector<std::uint32_t> first(buckets + 1);  // first[b]: first index of bucket b
    std::size_t i = 0;
    for (std::size_t b = 0; b <= buckets; ++b) {
      while (i < ids.size() && ((static_cast<std::uint64_t>(ids[i]) - lo) >> shift) < b) ++i;
      first[b] = static_cast<std::uint32_t>(i);
    }
    const auto dense_of = [&](std::int64_t id) {
      const std::size_t b = static_cast<std::size_t>((static_cast<std::uint64_t>(id) - lo) >> shift);
      const auto it = std::lower_bound(ids.begin() + first[b], ids.begin() + first[b + 1], id);
      return static_cast<std::int32_t>(it - ids.begin());
    };
    for (std::size_t k = 0; k < m; ++k) {
      g.src[k] = dense_of(src64[k]);
      g.dst[k] = dense_of(dst64[k]);
    }
  }
  g.num_vertices = static_cast<std::int64_t>(g.original_id.size());
}

}  // namespace

// The lines of a share (line_share: all by default) in the file's own ids.
edge_share read_edge_list_share(const std::string& path, const line_share& share) {
  text_reader in(path);
  edge_share g;
  std::vector<std::int64_t>& src64 = g.src;
  std::vector<std::int64_t>& dst64 = g.dst;
  std::int64_t data_line = 0;

  std::size_t columns = 0;          // 2 or 3, fixed by the first edge line
  std::int64_t columns_line = 0;    // that line, for the mismatch message
  std::string_view line;
  std::string_view tok[4];
  while (in.next(line)) {
    const std::string_view t = trim_left(line);
    if (t.empty() || t.front() == '#' || t.front() == '%') continue;
    if (!share.keeps(data_line++)) continue;  // another rank's line
    const std::size_t n = split_tokens(t, tok, 4, true);
    if (n != columns || columns == 0) {
      if (n != 2 && n != 3)
        throw input_error(path, in.line_number(),
                          "expected 'src dst' or 'src dst weight', found " + std::to_string(n) +
                              (n == 1 ? " token" : " tokens"));
      if (columns != 0)
        throw input_error(path, in.line_number(),
                          "inconsistent column count: " + std::to_string(n) + " columns here, " +
                              std::to_string(columns) + " on line " + std::to_string(columns_line));
      columns = n;
      columns_line = in.line_number();
    }
    src64.push_back(parse_id(in, tok[0]));
    dst64.push_back(parse_id(in, tok[1]));
    if (columns == 3) g.weight.push_back(parse_weight(in, tok[2]));
  }
  if (data_line == 0) throw input_error(path, 0, "empty file: no edges");
  return g;
}

edge_file read_edge_list(const std::string& path) {
  edge_share raw = read_edge_list_share(path, line_share{});
  edge_file g;
  g.path = path;
  g.weight = std::move(raw.weight);
  densify(path, raw.src, raw.dst, g);
  return g;
}

// *.bin: little-endian int32 pairs "src dst", what `stream --input-format bin` reads from standard input,
// decoded by the same parser (loaders/edge_parser.hpp); ids as in an edge list (any non-negative,
// mapped to [0, n) in increasing order).
edge_file read_binary_edges(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path, 0, std::string("cannot open: ") + std::strerror(errno));
  const std::unique_ptr<edge_parser> parser = edge_parser::make(input_format::bin32);
  raw_edges e;
  const auto drain = [&] {  // every pair fed so far into e; a bad one names its pair as the line
    if (parser->parse(e, std::numeric_limits<std::size_t>::max()) == parse_stop::bad_input)
      throw input_error(path, parser->error().line, parser->error().what);
  };
  std::vector<char> chunk(std::size_t(1) << 20);
  while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
    parser->feed(chunk.data(), std::size_t(in.gcount()));
    drain();
  }
  if (in.bad()) throw input_error(path, parser->position() + 1, "read error");
  if (!parser->finish())
    throw input_error(path, parser->position() + 1, "truncated: the file ends inside a pair (8 bytes a pair)");
  drain();
  if (e.ins_src.empty()) throw input_error(path, 0, "empty file: no edges");
  edge_file g;
  g.path = path;
  densify(path, e.ins_src, e.ins_dst, g);
  return g;
}

edge_share read_graph_share(const std::string& path, const line_share& share) {
  FG_EXPECTS(share.parts >= 1 && share.part >= 0 && share.part < share.parts && share.chunk >= 1,
             "read_graph_share: part must be in [0, parts)");
  if (guess_format(path) == file_format::edge_list) return read_edge_list_share(path, share);
  const edge_file f = read_matrix_market(path, share);
  edge_share g;
  g.src.assign(f.src.begin(), f.src.end());
  g.dst.assign(f.dst.begin(), f.dst.end());
  g.weight = f.weight;
  g.num_vertices = f.num_vertices;
  g.dense = true;
  return g;
}

}  // namespace fg
