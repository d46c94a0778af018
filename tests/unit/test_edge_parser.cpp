// The live input parsers (loaders/edge_parser.hpp): every kind of text line, comments, weights,
// errors naming their line (and parsing going on after them), lines and pairs split across
// reads however the input is cut, the batch limit, and the binary formats.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "loaders/edge_parser.hpp"
#include "loaders/text_reader.hpp"

namespace {
using namespace fg;

struct edge {
  char op;  // '+' or '-'
  std::int64_t u, v;
  double w;
  bool operator==(const edge& o) const { return op == o.op && u == o.u && v == o.v && w == o.w; }
};

// Everything `text` holds, in line order (deletes placed by del_after), fed in chunks of the given
// sizes (cycled), with `limit` per batch; bad lines go to `errors` and parsing goes on.
struct parsed {
  std::vector<edge> edges;
  std::vector<parse_error> errors;
  std::int64_t batches = 0;
};
void collect(const raw_edges& b, parsed& out) {
  std::size_t j = 0;
  for (std::size_t i = 0; i <= b.ins_src.size(); ++i) {
    for (; j < b.del_src.size() && b.del_after[j] == i; ++j) out.edges.push_back({'-', b.del_src[j], b.del_dst[j], 1});
    if (i < b.ins_src.size())
      out.edges.push_back({'+', b.ins_src[i], b.ins_dst[i], b.ins_weight.empty() ? 1.0 : b.ins_weight[i]});
  }
  if (b.size() > 0) ++out.batches;
}
parsed parse_all(input_format f, const std::string& text, std::vector<std::size_t> chunks = {1 << 20},
                 std::size_t limit = 1 << 20) {
  auto p = edge_parser::make(f);
  parsed out;
  raw_edges b;
  auto drain = [&] {
    for (;;) {
      const parse_stop s = p->parse(b, limit);
      if (s == parse_stop::need_input) return;
      if (s == parse_stop::bad_input) out.errors.push_back(p->error());
      if (s == parse_stop::batch_full) {
        CHECK(b.size() == limit);
        collect(b, out);
        b.clear();
      }
    }
  };
  for (std::size_t pos = 0, c = 0; pos < text.size(); ++c) {
    const std::size_t n = std::min(chunks[c % chunks.size()], text.size() - pos);
    p->feed(text.data() + pos, n);
    drain();
    pos += n;
  }
  if (!p->finish()) out.errors.push_back(p->error());
  drain();
  collect(b, out);
  return out;
}

const std::string mixed =
    "# a comment\n"
    "1 2\n"
    "\n"
    "  + 3 4  \n"
    "% another comment\n"
    "- 1 2\n"
    "5\t6\t0.25\n"
    "+ 7,8,-1.5e3\r\n"
    "9223372036854775807 0\n"
    "10 11";  // no newline at the end
const std::vector<edge> mixed_edges = {{'+', 1, 2, 1},  {'+', 3, 4, 1},       {'-', 1, 2, 1},
                                       {'+', 5, 6, .25}, {'+', 7, 8, -1500.0}, {'+', 9223372036854775807, 0, 1},
                                       {'+', 10, 11, 1}};

TEST_CASE("text: every kind of line, comments, weights, a last line without a newline") {
  const parsed r = parse_all(input_format::text, mixed);
  CHECK(r.errors.empty());
  CHECK(r.edges == mixed_edges);
}

TEST_CASE("text: the same edges however the input is cut into reads (lines split across reads)") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::size_t> chunks;
    for (int i = 0; i < 8; ++i) chunks.push_back(1 + rng() % 9);
    const parsed r = parse_all(input_format::text, mixed, chunks, 1 + rng() % 4);
    CHECK(r.errors.empty());
    CHECK(r.edges == mixed_edges);
  }
  // One line split in the middle of an id, of the separator and of the weight.
  for (std::size_t cut = 1; cut < 9; ++cut) {
    const parsed r = parse_all(input_format::text, "12 34 0.5\n", {cut, 100});
    REQUIRE(r.edges.size() == 1);
    CHECK(r.edges[0] == edge{'+', 12, 34, 0.5});
  }
}

TEST_CASE("text: the batch limit cuts between lines, and line numbers span the batch") {
  auto p = edge_parser::make(input_format::text);
  const std::string t = "1 2\n# c\n3 4\n5 6\n- 1 2\n";
  p->feed(t.data(), t.size());
  raw_edges b;
  CHECK(p->parse(b, 2) == parse_stop::batch_full);
  CHECK(b.size() == 2);
  CHECK(b.first_line == 1);
  CHECK(b.last_line == 3);
  b.clear();
  CHECK(p->parse(b, 2) == parse_stop::need_input);  // full, but the chunk ran out first
  CHECK(b.ins_src == std::vector<std::int64_t>{5});
  CHECK(b.del_src == std::vector<std::int64_t>{1});
  CHECK(b.del_after == std::vector<std::uint32_t>{1});
  CHECK(b.first_line == 4);
  CHECK(b.last_line == 5);
  b.clear();
  CHECK(p->parse(b, 2) == parse_stop::need_input);
  CHECK(b.size() == 0);
  CHECK(p->position() == 5);
}

TEST_CASE("text: weights default to 1 before the first weighted line") {
  const parsed r = parse_all(input_format::text, "1 2\n3 4\n5 6 2.5\n7 8\n");
  REQUIRE(r.edges.size() == 4);
  CHECK(r.edges[0].w == 1.0);
  CHECK(r.edges[2].w == 2.5);
  CHECK(r.edges[3].w == 1.0);
}

TEST_CASE("text: a bad line names its line number and what is wrong; parsing goes on after it") {
  struct bad {
    std::string line, what;
  };
  const std::vector<bad> cases = {
      {"1 x", "vertex id 'x' is not a non-negative integer"},
      {"1.5 2", "vertex id '1.5' is not a non-negative integer"},
      {"12abc 2", "vertex id '12abc' is not a non-negative integer"},
      {"-5 3", "negative vertex id '-5'"},
      {"- -5 3", "negative vertex id '-5'"},
      {"+5 3", "vertex id '+5' is not a non-negative integer"},
      {"9223372036854775808 1", "vertex id '9223372036854775808' does not fit in a 64-bit integer"},
      {"99999999999999999999999 1", "does not fit in a 64-bit integer"},
      {"7", "found 1 token"},
      {"+", "found 0 tokens after '+'"},
      {"- 1", "found 1 token after '-'"},
      {"1 2 3 4", "found 4 tokens"},
      {"1 2 abc", "weight 'abc' is not a number"},
      {"1 2 nan", "weight 'nan' is not finite"},
      {"1 2 -inf", "weight '-inf' is not finite"},
      {"1 2 1e999", "weight '1e999' is out of range"},
      {"- 1 2 0.5", "a delete line is '- u v': it takes no weight"},
  };
  for (const bad& c : cases) {
    CAPTURE(c.line);
    const parsed r = parse_all(input_format::text, "1 2\n# comment\n\n" + c.line + "\n8 9\n");
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].line == 4);
    CHECK(r.errors[0].what.find(c.what) != std::string::npos);
    CHECK(r.errors[0].message("<stdin>").rfind("<stdin>:4: ", 0) == 0);
    REQUIRE(r.edges.size() == 2);  // the lines around it
    CHECK(r.edges[1] == edge{'+', 8, 9, 1});
  }
  // A bad last line without a newline, and a bad line split across reads.
  CHECK(parse_all(input_format::text, "1 2\n3 y").errors.at(0).line == 2);
  const parsed split = parse_all(input_format::text, "1 2\n3 4 5 6\n", {6, 100});
  REQUIRE(split.errors.size() == 1);
  CHECK(split.errors[0].line == 2);
  CHECK(split.errors[0].what.find("found 4 tokens") != std::string::npos);
}

std::string pairs32(const std::vector<std::int32_t>& ids) {
  std::string s;
  for (std::int32_t x : ids)
    for (int b = 0; b < 4; ++b) s += char((std::uint32_t(x) >> (8 * b)) & 0xff);
  return s;
}
std::string pairs64(const std::vector<std::int64_t>& ids) {
  std::string s;
  for (std::int64_t x : ids)
    for (int b = 0; b < 8; ++b) s += char((std::uint64_t(x) >> (8 * b)) & 0xff);
  return s;
}

TEST_CASE("text: a line carried past max_line_bytes is an error at its number, in bounded memory; parsing goes on") {
  set_max_line_bytes(64);
  const std::string text = "1 2\n" + std::string(300, '7') + " 8\n3 4\n# " + std::string(500, '9') + "\n5 6\n" +
                           std::string(100, '1');
  for (const std::vector<std::size_t>& chunks : {std::vector<std::size_t>{7}, {50, 3}, {80}, {1000}}) {
    CAPTURE(chunks[0]);
    const parsed p = parse_all(input_format::text, text, chunks);
    const std::vector<edge> want = {{'+', 1, 2, 1}, {'+', 3, 4, 1}, {'+', 5, 6, 1}};
    std::vector<std::int64_t> lines, long_lines;
    for (const auto& e : p.errors) {
      lines.push_back(e.line);
      if (e.message("<stdin>").find("line longer than 64 bytes") != std::string::npos) long_lines.push_back(e.line);
    }
    CHECK(p.edges == want);
    CHECK(lines == std::vector<std::int64_t>{2, 4, 6});
    CHECK(long_lines == std::vector<std::int64_t>{2, 4, 6});  // within one read or carried across reads
  }
  set_max_line_bytes(std::size_t(1) << 20);
}

TEST_CASE("text: a UTF-8 byte-order mark before the first line is skipped, and only there") {
  const parsed p = parse_all(input_format::text, "\xEF\xBB\xBF" "1 2\n3 4\n");
  CHECK(p.errors.empty());
  CHECK(p.edges == std::vector<edge>{{'+', 1, 2, 1}, {'+', 3, 4, 1}});
  CHECK(parse_all(input_format::text, "1 2\n\xEF\xBB\xBF" "3 4\n").errors.size() == 1);
  // a pipe may deliver the mark a byte at a time (found by the stream parser's fuzz target)
  for (const std::size_t chunk : {1, 2, 4}) {
    const parsed split = parse_all(input_format::text, "\xEF\xBB\xBF" "1 2\n3 4\n", {chunk});
    CHECK(split.errors.empty());
    CHECK(split.edges == p.edges);
    // bytes that begin like a mark and are not one stay the first line's: an error at line 1
    const parsed broken = parse_all(input_format::text, "\xEF\xBB" "1 2\n3 4\n", {chunk});
    REQUIRE(broken.errors.size() == 1);
    CHECK(broken.errors[0].line == 1);
    CHECK(broken.edges == std::vector<edge>{{'+', 3, 4, 1}});
  }
  const parsed only = parse_all(input_format::text, "\xEF\xBB", {1});  // ends inside a would-be mark
  CHECK(only.errors.size() == 1);
}

TEST_CASE("binary: little-endian int32 and int64 pairs, split across reads anyhow") {
  const std::vector<edge> want = {{'+', 1, 2, 1}, {'+', 70000, 3, 1}, {'+', 2147483647, 0, 1}};
  const std::string b32 = pairs32({1, 2, 70000, 3, 2147483647, 0});
  const std::string b64 = pairs64({1, 2, 70000, 3, 2147483647, 0});
  for (std::size_t chunk = 1; chunk <= 17; ++chunk) {
    CAPTURE(chunk);
    const parsed r32 = parse_all(input_format::bin32, b32, {chunk}, 2);
    CHECK(r32.errors.empty());
    CHECK(r32.edges == want);
    const parsed r64 = parse_all(input_format::bin64, b64, {chunk, 3});
    CHECK(r64.errors.empty());
    CHECK(r64.edges == want);
  }
  CHECK(parse_all(input_format::bin64, pairs64({std::int64_t(1) << 40, 5})).edges.at(0).u == std::int64_t(1) << 40);
}

TEST_CASE("binary: a negative id and a trailing partial pair name their byte offset") {
  const parsed neg = parse_all(input_format::bin32, pairs32({1, 2, 3, -4, 5, 6}), {5});
  REQUIRE(neg.errors.size() == 1);
  CHECK(neg.errors[0].byte == 12);
  CHECK(neg.errors[0].message("<stdin>") == "<stdin>: byte offset 12: negative vertex id -4");
  CHECK(neg.edges.size() == 2);
  for (std::size_t extra = 1; extra < 16; ++extra) {
    CAPTURE(extra);
    const parsed part = parse_all(input_format::bin64, pairs64({1, 2, 3, 4}) + std::string(extra, '\1'), {7});
    REQUIRE(part.errors.size() == 1);
    CHECK(part.edges.size() == 2);
    CHECK(part.errors[0].byte == 32);
    CHECK(part.errors[0].what == "trailing partial pair: " + std::to_string(extra) + " of 16 bytes");
  }
}

TEST_CASE("input formats by name") {
  CHECK(parse_input_format("text") == input_format::text);
  CHECK(parse_input_format("bin") == input_format::bin32);
  CHECK(parse_input_format("bin64") == input_format::bin64);
  CHECK_THROWS_AS(parse_input_format("csv"), fg::invalid_argument);
}

}  // namespace
