// Parsers of live edge input (`fluxgraph stream -`): text lines or raw binary pairs, fed chunk by
// chunk as a pipe delivers them, so a line or a pair may be split across two chunks. They parse
// straight from the caller's buffer (no istream, no string per line) into the batch being built.
//
// Text: one edge per line, `u v` or `+ u v` (insert), `- u v` (delete), `u v w` / `+ u v w` (insert
// with a weight); ids are non-negative integers that fit in int64; separators are spaces, tabs or
// commas; `#` and `%` start comment lines; blank lines and a final line without "\n" are fine.
// Binary: little-endian (u, v) pairs of int32 (`bin`) or int64 (`bin64`), inserts only.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fluxgraph/types.hpp"

namespace fg {

/// One batch as parsed, in the input's own ids and in input order per kind.
struct raw_edges {
  std::vector<std::int64_t> ins_src, ins_dst;
  /// Empty while no insert line had a weight; then one per insert (1 where a line gave none).
  std::vector<double> ins_weight;
  std::vector<std::int64_t> del_src, del_dst;
  /// del_after[j]: how many inserts of this batch came before delete j (the lines' order).
  std::vector<std::uint32_t> del_after;
  std::int64_t first_line = 0, last_line = 0;  ///< of the batch's edges (text: line numbers; binary: pair numbers)

  std::size_t size() const noexcept { return ins_src.size() + del_src.size(); }
  void clear() noexcept;
  void add_insert(std::int64_t u, std::int64_t v) {
    ins_src.push_back(u);
    ins_dst.push_back(v);
    if (!ins_weight.empty()) ins_weight.push_back(1.0);
  }
  void add_insert(std::int64_t u, std::int64_t v, double w);
  void add_delete(std::int64_t u, std::int64_t v) {
    del_src.push_back(u);
    del_dst.push_back(v);
    del_after.push_back(std::uint32_t(ins_src.size()));
  }
};

/// A bad line (text) or pair (binary). The parser has consumed it: parsing may go on after it.
struct parse_error {
  std::int64_t line = 0;   ///< text: its 1-based line number
  std::int64_t byte = -1;  ///< binary: the byte offset of the bad pair (or of a trailing partial one)
  std::string what;
  /// "NAME:LINE: what" or "NAME: byte offset B: what"
  std::string message(const std::string& name) const;
};

using fluxgraph::input_format;  // include/fluxgraph/types.hpp
/// "text", "bin" (int32 pairs) or "bin64"; throws fg::invalid_argument otherwise.
input_format parse_input_format(const std::string& s);

enum class parse_stop {
  need_input,  ///< the chunk is used up: feed() the next one, or finish() at the end of input
  batch_full,  ///< the batch reached the limit: cut it, then parse() again
  bad_input,   ///< error() says what; parse() again to go on after it
};

class edge_parser {
 public:
  static std::unique_ptr<edge_parser> make(input_format f);
  virtual ~edge_parser() = default;

  /// @brief The next chunk. It must stay valid, and unchanged, until parse() returns need_input;
  ///        feed only after need_input (or before the first parse).
  virtual void feed(const char* data, std::size_t n) = 0;
  /// @brief The input has ended: what is left over (a last line without "\n") is parsed by the
  ///        next parse() calls. Returns false when the rest cannot be parsed (a partial binary
  ///        pair): then error() says what.
  virtual bool finish() = 0;
  /// @brief Parses into `out` until out.size() reaches `limit`, the input runs out, or a bad edge.
  virtual parse_stop parse(raw_edges& out, std::size_t limit) = 0;

  const parse_error& error() const noexcept { return error_; }
  /// Text: the lines read so far; binary: the pairs.
  std::int64_t position() const noexcept { return position_; }

 protected:
  parse_error error_;
  std::int64_t position_ = 0;
};

}  // namespace fg
