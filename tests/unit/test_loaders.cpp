// Loaders: hand-checked tiny files, two real graphs, a malformed corpus where every file must fail
// with the right line, and generated files for what is too big or too random to keep in the repo.
#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "loaders/graph_file.hpp"
#include "loaders/snapshot.hpp"
#include "loaders/text_reader.hpp"

#ifndef FG_TEST_DATA_DIR
#error "FG_TEST_DATA_DIR must name the absolute path of tests/data"
#endif

namespace fs = std::filesystem;

namespace {

const std::string loaders_dir = std::string(FG_TEST_DATA_DIR) + "/loaders/";

struct edge {
  std::int32_t src, dst;
  double weight;
  bool operator==(const edge& o) const { return src == o.src && dst == o.dst && weight == o.weight; }
};

// Edges in file order (weight 0 when the file has none), so that order is checked too.
std::vector<edge> edges_of(const fg::edge_file& g) {
  REQUIRE(g.src.size() == g.dst.size());
  if (g.weighted()) REQUIRE(g.weight.size() == g.src.size());
  std::vector<edge> out;
  for (std::size_t k = 0; k < g.src.size(); ++k)
    out.push_back({g.src[k], g.dst[k], g.weighted() ? g.weight[k] : 0.0});
  return out;
}

// A file in the temp directory, removed when the test ends (pass or fail).
class temp_file {
 public:
  explicit temp_file(const std::string& suffix) {
    static std::mt19937_64 rng{std::random_device{}()};
    path_ = (fs::temp_directory_path() / ("fg_test_loaders_" + std::to_string(rng()) + suffix)).string();
  }
  ~temp_file() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
  const std::string& path() const { return path_; }
  void write(const std::string& content) const {
    std::ofstream out(path_, std::ios::binary);
    out << content;
    REQUIRE(out.good());
  }
  void write_gz(const std::string& content) const {
    gzFile f = gzopen(path_.c_str(), "wb6");
    REQUIRE(f != nullptr);
    REQUIRE(gzwrite(f, content.data(), static_cast<unsigned>(content.size())) == static_cast<int>(content.size()));
    REQUIRE(gzclose(f) == Z_OK);
  }

 private:
  std::string path_;
};

// The input_error `fn` throws; fails the test if it throws nothing or something else.
template <class F>
fg::input_error input_error_of(F&& fn) {
  try {
    fn();
  } catch (const fg::input_error& e) {
    return e;
  } catch (const std::exception& e) {
    FAIL("expected fg::input_error, got: " << e.what());
  }
  FAIL("expected fg::input_error, nothing was thrown");
  throw std::logic_error("unreachable");
}

std::vector<std::string> lines_of(const std::string& path) {
  fg::text_reader in(path);
  std::vector<std::string> out;
  std::string_view line;
  while (in.next(line)) {
    out.emplace_back(line);
    CHECK(in.line_number() == static_cast<std::int64_t>(out.size()));
  }
  return out;
}

}  // namespace

TEST_CASE("guess_format: .mtx and .mtx.gz are Matrix Market, anything else an edge list") {
  using fg::file_format;
  CHECK(fg::guess_format("a/b/graph.mtx") == file_format::matrix_market);
  CHECK(fg::guess_format("graph.mtx.gz") == file_format::matrix_market);
  CHECK(fg::guess_format("GRAPH.MTX") == file_format::matrix_market);
  CHECK(fg::guess_format("graph.txt") == file_format::edge_list);
  CHECK(fg::guess_format("graph.txt.gz") == file_format::edge_list);
  CHECK(fg::guess_format("graph.mtx.bak") == file_format::edge_list);
  CHECK(fg::guess_format("mtx") == file_format::edge_list);
  CHECK(fg::guess_format("") == file_format::edge_list);
}

TEST_CASE("text_reader: line numbers, CRLF, blank lines, missing final newline") {
  temp_file f(".txt");
  f.write("first\r\n\n  third \nlast");
  const auto lines = lines_of(f.path());
  CHECK(lines == std::vector<std::string>{"first", "", "  third ", "last"});

  temp_file empty(".txt");
  empty.write("");
  CHECK(lines_of(empty.path()).empty());
}

TEST_CASE("text_reader: lines longer than its buffer, plain and gzip") {
  // Around and across the reader's 1 MiB chunks, plus a line of several chunks.
  std::string content;
  std::vector<std::string> expected;
  std::mt19937 rng(7);
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, (std::size_t{1} << 20) - 3, std::size_t{5},
                          std::size_t{3} << 20, std::size_t{17}}) {
    std::string line(len, 'x');
    for (char& c : line) c = static_cast<char>('a' + rng() % 26);
    content += line + "\n";
    expected.push_back(std::move(line));
  }
  temp_file plain(".txt"), gz(".txt.gz");
  plain.write(content);
  gz.write_gz(content);
  fg::set_max_line_bytes(std::size_t{4} << 20);  // the 3 MiB line is past the default limit
  CHECK(lines_of(plain.path()) == expected);
  CHECK(lines_of(gz.path()) == expected);
  fg::set_max_line_bytes(std::size_t{1} << 20);
  CHECK_THROWS_WITH_AS(lines_of(gz.path()), doctest::Contains(":5: line longer than 1048576 bytes"), fg::input_error);
}

TEST_CASE("text_reader: a line past max_line_bytes fails at its number while it is read; a byte-order mark is skipped") {
  fg::set_max_line_bytes(1000);
  temp_file bomb(".txt.gz");
  bomb.write_gz("1 2\n" + std::string(std::size_t{64} << 20, '1'));  // 64 MiB of one line: 64 KiB of gzip
  CHECK_THROWS_WITH_AS(fg::read_graph(bomb.path()), doctest::Contains(":2: line longer than 1000 bytes"), fg::input_error);
  // Exactly the limit passes ('\r' of a "\r\n" line not counted); one byte more fails.
  fg::set_max_line_bytes(8);
  temp_file exact(".txt"), over(".txt");
  exact.write("1      2\r\n3      4\n");
  over.write("1       2\n");
  CHECK(fg::read_graph(exact.path()).num_edges() == 2);
  CHECK_THROWS_WITH_AS(fg::read_graph(over.path()), doctest::Contains(":1: line longer than 8 bytes"), fg::input_error);
  fg::set_max_line_bytes(SIZE_MAX);  // "no limit" is clamped, not wrapped around
  CHECK(fg::read_graph(over.path()).num_edges() == 1);
  fg::set_max_line_bytes(std::size_t{1} << 20);
  temp_file bom(".txt");
  bom.write("\xEF\xBB\xBF# a comment after a byte-order mark\n1 2\n2 3\n");
  const fg::edge_file f = fg::read_graph(bom.path());
  CHECK(f.num_edges() == 2);
  temp_file bom_mtx(".mtx");
  bom_mtx.write("\xEF\xBB\xBF%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  CHECK(fg::read_graph(bom_mtx.path()).num_edges() == 1);
}

TEST_CASE("missing files and directories are input_errors at line 0") {
  for (const std::string& p : {loaders_dir + "no_such_file.mtx", loaders_dir + "no_such_file.txt",
                              loaders_dir + "malformed"}) {
    CAPTURE(p);
    const fg::input_error e = input_error_of([&] { fg::read_graph(p); });
    CHECK(e.line() == 0);
    CHECK(e.file() == p);
    CHECK(std::string(e.what()).rfind(p + ":0: cannot open file: ", 0) == 0);
  }
}

TEST_CASE("Matrix Market real general: n = max(rows, cols), comments and blank lines skipped") {
  const fg::edge_file g = fg::read_graph(loaders_dir + "general.mtx");
  CHECK(g.path == loaders_dir + "general.mtx");
  CHECK(g.num_vertices == 4);
  CHECK(g.original_id == std::vector<std::int64_t>{1, 2, 3, 4});
  CHECK(g.weighted());
  CHECK(edges_of(g) == std::vector<edge>{{0, 0, 1.5}, {0, 3, -2}, {1, 2, 32.5}, {2, 0, 0.5}, {2, 3, 7}});
}

TEST_CASE("Matrix Market symmetric: off-diagonal entries both ways, the diagonal once; .gz the same") {
  const std::vector<edge> expected{{0, 0, 10}, {1, 0, 2.5}, {0, 1, 2.5}, {3, 1, -1},
                                   {1, 3, -1}, {3, 2, 3},   {2, 3, 3}};
  for (const std::string name : {"symmetric.mtx", "symmetric.mtx.gz"}) {
    CAPTURE(name);
    const fg::edge_file g = fg::read_graph(loaders_dir + name);
    CHECK(g.num_vertices == 4);
    CHECK(g.num_edges() == 7);
    CHECK(edges_of(g) == expected);
  }
}

TEST_CASE("Matrix Market skew-symmetric: the mirror entry is negated") {
  const fg::edge_file g = fg::read_matrix_market(loaders_dir + "skew.mtx");
  CHECK(g.num_vertices == 3);
  CHECK(edges_of(g) == std::vector<edge>{{1, 0, 4}, {0, 1, -4}, {2, 1, -1.5}, {1, 2, 1.5}});
}

TEST_CASE("Matrix Market pattern: no weights") {
  const fg::edge_file g = fg::read_graph(loaders_dir + "pattern.mtx");
  CHECK(g.num_vertices == 5);
  CHECK_FALSE(g.weighted());
  CHECK(g.weight.empty());
  CHECK(g.src == std::vector<std::int32_t>{0, 1, 4});
  CHECK(g.dst == std::vector<std::int32_t>{1, 2, 0});
  CHECK(g.original_id == std::vector<std::int64_t>{1, 2, 3, 4, 5});
}

TEST_CASE("Matrix Market integer symmetric, mixed-case banner, CRLF line ends") {
  const fg::edge_file g = fg::read_graph(loaders_dir + "integer.mtx");
  CHECK(g.num_vertices == 3);
  CHECK(edges_of(g) == std::vector<edge>{{0, 0, 7}, {2, 0, -4}, {0, 2, -4}, {2, 1, 12}, {1, 2, 12}});
}

TEST_CASE("edge list: comments, mixed separators, non-contiguous ids mapped in increasing order") {
  const fg::edge_file g = fg::read_graph(loaders_dir + "edges_comments.txt");
  CHECK(g.num_vertices == 3);
  CHECK(g.original_id == std::vector<std::int64_t>{5, 7, 100});
  CHECK_FALSE(g.weighted());
  // 5 100 / 100 7 / 7,5 / 5 7
  CHECK(g.src == std::vector<std::int32_t>{0, 2, 1, 0});
  CHECK(g.dst == std::vector<std::int32_t>{2, 1, 0, 1});
}

TEST_CASE("binary edge list (*.bin): int32 pairs mapped like an edge list; a torn pair or a negative id names its pair") {
  const fs::path dir = fs::temp_directory_path() / "fg_test_bin_edges";
  fs::create_directories(dir);
  const auto write = [&](const char* name, const std::vector<std::int32_t>& v, std::size_t drop = 0) {
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()),
                                                std::streamsize(v.size() * sizeof(std::int32_t) - drop));
    return path;
  };
  const fg::edge_file g = fg::read_graph(write("g.BIN", {5, 100, 100, 7, 7, 5, 5, 7}));
  CHECK(g.num_vertices == 3);
  CHECK(g.original_id == std::vector<std::int64_t>{5, 7, 100});
  CHECK(g.src == std::vector<std::int32_t>{0, 2, 1, 0});
  CHECK(g.dst == std::vector<std::int32_t>{2, 1, 0, 1});
  const auto fails_at = [](const std::string& path, std::int64_t pair, const char* what) {
    try {
      fg::read_graph(path);
      FAIL("no error for " << path);
    } catch (const fg::input_error& e) {
      CHECK(e.line() == pair);
      CHECK(std::string(e.what()).find(what) != std::string::npos);
    }
  };
  fails_at(write("torn.bin", {1, 2, 3, 4}, 3), 2, "ends inside a pair");
  fails_at(write("negative.bin", {1, 2, 3, -4, 5, 6}), 2, "negative vertex id -4");
  fails_at(write("empty.bin", {}), 0, "no edges");
  fs::remove_all(dir);
}

TEST_CASE("a snapshot, whatever its name, is read as the graph it holds, in its ids; a cut one fails as one") {
  const fs::path dir = fs::temp_directory_path() / "fg_test_snapshot_graph";
  fs::create_directories(dir);
  fg::snapshot s;
  s.vertices = 3;
  s.row_ptr = {0, 2, 2, 3};  // 0 -> 1, 0 -> 2, 2 -> 0
  s.col = {1, 2, 0};
  s.original_id = {10, 20, 30};
  const std::string path = (dir / "graph.txt").string();  // a misleading name: the bytes decide
  fg::write_snapshot(path, s);
  const fg::edge_file g = fg::read_graph(path);
  CHECK(g.num_vertices == 3);
  CHECK(g.src == std::vector<std::int32_t>{0, 0, 2});
  CHECK(g.dst == std::vector<std::int32_t>{1, 2, 0});
  CHECK(g.original_id == std::vector<std::int64_t>{10, 20, 30});
  fs::resize_file(path, 100);
  CHECK_THROWS_WITH_AS(fg::read_graph(path), doctest::Contains("truncated"), fg::input_error);
  fs::remove_all(dir);
}

TEST_CASE("edge list: weights") {
  const fg::edge_file g = fg::read_edge_list(loaders_dir + "weighted.txt");
  CHECK(g.num_vertices == 3);
  CHECK(g.original_id == std::vector<std::int64_t>{1, 3, 10});
  CHECK(edges_of(g) == std::vector<edge>{{1, 0, 0.5}, {0, 1, -2.25}, {2, 1, 1000}, {1, 1, 0}});
}

TEST_CASE("edge list: ids up to INT64_MAX") {
  const fg::edge_file g = fg::read_graph(loaders_dir + "big_ids.txt");
  CHECK(g.original_id ==
        std::vector<std::int64_t>{3, 42, 1000000000000, std::numeric_limits<std::int64_t>::max()});
  CHECK(g.src == std::vector<std::int32_t>{2, 0, 1});
  CHECK(g.dst == std::vector<std::int32_t>{0, 3, 2});
}

TEST_CASE("edge list: generated files map every id back to itself (dense and sparse id ranges, .gz)") {
  std::mt19937_64 rng(42);
  // The first range takes the direct-table path of the loader, the second the sort + search path.
  for (const std::int64_t id_range : {std::int64_t{3000}, std::int64_t{1} << 50}) {
    for (const bool gz : {false, true}) {
      CAPTURE(id_range);
      CAPTURE(gz);
      std::vector<std::int64_t> s, d;
      std::vector<double> w;
      std::ostringstream text;
      text.precision(17);
      text << "# generated\n";
      const char* seps[] = {" ", "\t", ",", " , ", "  \t"};
      for (int k = 0; k < 20000; ++k) {
        s.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(id_range)));
        d.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(id_range)));
        w.push_back(static_cast<double>(k) / 8.0 - 100.0);
        text << s.back() << seps[k % 5] << d.back() << seps[(k + 1) % 5] << w.back() << "\n";
      }
      temp_file f(gz ? ".txt.gz" : ".txt");
      if (gz)
        f.write_gz(text.str());
      else
        f.write(text.str());
      const fg::edge_file g = fg::read_graph(f.path());

      std::set<std::int64_t> ids(s.begin(), s.end());
      ids.insert(d.begin(), d.end());
      REQUIRE(g.original_id == std::vector<std::int64_t>(ids.begin(), ids.end()));
      CHECK(g.num_vertices == static_cast<std::int64_t>(ids.size()));
      REQUIRE(g.num_edges() == 20000);
      CHECK(g.weight == w);
      bool all_match = true;
      for (std::size_t k = 0; k < s.size(); ++k)
        all_match = all_match && g.original_id[static_cast<std::size_t>(g.src[k])] == s[k] &&
                    g.original_id[static_cast<std::size_t>(g.dst[k])] == d[k];
      CHECK(all_match);
    }
  }
}

TEST_CASE("real graph: karate.mtx (pattern symmetric, 78 entries)") {
  const fg::edge_file g = fg::read_graph(loaders_dir + "karate.mtx");
  CHECK(g.num_vertices == 34);
  CHECK(g.num_edges() == 156);
  CHECK_FALSE(g.weighted());
  std::set<std::pair<std::int32_t, std::int32_t>> e;
  std::vector<int> degree(34, 0);
  for (std::size_t k = 0; k < g.src.size(); ++k) {
    REQUIRE(g.src[k] >= 0);
    REQUIRE(g.src[k] < 34);
    REQUIRE(g.dst[k] >= 0);
    REQUIRE(g.dst[k] < 34);
    CHECK(g.src[k] != g.dst[k]);
    e.insert({g.src[k], g.dst[k]});
    ++degree[static_cast<std::size_t>(g.src[k])];
  }
  CHECK(e.size() == 156);  // no duplicates
  for (const auto& [u, v] : e) CHECK(e.count({v, u}) == 1);
  // Zachary's club: the instructor (1) and the president (34) have the largest degrees.
  CHECK(degree[0] == 16);
  CHECK(degree[33] == 17);
  CHECK(g.original_id[0] == 1);
  CHECK(g.original_id[33] == 34);
}

TEST_CASE("real graph: the first 300 lines of SNAP email-Eu-core") {
  const std::string path = loaders_dir + "email-Eu-core-head.txt";
  const fg::edge_file g = fg::read_graph(path);
  CHECK(g.num_vertices == 271);
  CHECK(g.num_edges() == 300);
  CHECK_FALSE(g.weighted());
  // Ids there are 0..270, all present, so the mapping must be the identity.
  for (std::size_t v = 0; v < g.original_id.size(); ++v) CHECK(g.original_id[v] == static_cast<std::int64_t>(v));
  std::ifstream in(path);
  std::int64_t a = 0, b = 0;
  std::size_t k = 0;
  bool all_match = true;
  while (in >> a >> b) {
    REQUIRE(k < g.src.size());
    all_match = all_match && g.src[k] == a && g.dst[k] == b;
    ++k;
  }
  CHECK(k == 300);
  CHECK(all_match);
}

TEST_CASE("malformed corpus: every file is an input_error at the expected line") {
  struct expectation {
    std::int64_t line;
    const char* says;  // a piece of the message, so that the right check is known to have fired
  };
  const std::map<std::string, expectation> table{
      {"empty.txt", {0, "empty file: no edges"}},
      {"empty.mtx", {0, "empty file"}},
      {"comments_only.txt", {0, "empty file: no edges"}},
      {"bad_banner.mtx", {1, "%%MatrixMarket header"}},
      {"no_banner.mtx", {1, "missing or garbled %%MatrixMarket header"}},
      {"array_format.mtx", {1, "'array'"}},
      {"complex.mtx", {1, "'complex'"}},
      {"hermitian.mtx", {1, "'hermitian'"}},
      {"pattern_skew.mtx", {1, "cannot be skew-symmetric"}},
      {"bad_size_line.mtx", {3, "bad size line"}},
      {"negative_size.mtx", {2, "bad size line"}},
      {"missing_size_line.mtx", {2, "missing size line"}},
      {"symmetric_not_square.mtx", {2, "must be square"}},
      {"truncated_entries.mtx", {6, "truncated: expected 5 entries, found 3"}},
      {"too_many_entries.mtx", {5, "too many entries"}},
      {"row_index_zero.mtx", {4, "row index '0' out of range [1, 3]"}},
      {"column_index_too_big.mtx", {5, "column index '4' out of range [1, 3]"}},
      {"non_numeric_index.mtx", {4, "column index 'x' is not an integer"}},
      {"trailing_garbage_index.mtx", {3, "row index '12abc' is not an integer"}},
      {"trailing_garbage_value.mtx", {4, "value '2.0abc' is not a number"}},
      {"nan_value.mtx", {4, "value 'nan' is not finite"}},
      {"inf_value.mtx", {3, "value 'inf' is not finite"}},
      {"missing_value.mtx", {4, "expected 3 tokens"}},
      {"float_in_integer.mtx", {4, "value '2.5' is not an integer"}},
      {"skew_diagonal.mtx", {4, "diagonal entry (3, 3)"}},
      {"non_numeric_id.txt", {4, "vertex id 'x' is not a non-negative integer"}},
      {"trailing_garbage_id.txt", {2, "vertex id '12abc' is not a non-negative integer"}},
      {"float_id.txt", {2, "vertex id '1.5' is not a non-negative integer"}},
      {"negative_id.txt", {2, "negative vertex id '-2'"}},
      {"id_overflow.txt", {2, "does not fit in a 64-bit integer"}},
      {"nan_weight.txt", {2, "weight 'NaN' is not finite"}},
      {"inf_weight.txt", {2, "weight '-inf' is not finite"}},
      {"weight_overflow.txt", {1, "weight '1e999' is out of range"}},
      {"missing_column.txt", {3, "found 1 token"}},
      {"too_many_columns.txt", {1, "found 4 tokens"}},
      {"inconsistent_columns.txt", {4, "inconsistent column count: 3 columns here, 2 on line 1"}},
      // Cut in half: zlib still decodes lines 1..147 and part of 148.
      {"truncated.txt.gz", {148, "truncated gzip stream"}},
      {"corrupt_crc.txt.gz", {1, "corrupt gzip stream"}},
  };

  std::set<std::string> seen;
  for (const fs::directory_entry& entry : fs::directory_iterator(loaders_dir + "malformed")) {
    const std::string name = entry.path().filename().string();
    const std::string path = entry.path().string();
    CAPTURE(name);
    const auto it = table.find(name);
    REQUIRE_MESSAGE(it != table.end(), "no expectation for malformed/" << name << ": add it to the table");
    seen.insert(name);
    const fg::input_error e = input_error_of([&] { fg::read_graph(path); });
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(e.file() == path);
    CHECK(e.line() == it->second.line);
    CHECK(what.rfind(path + ":" + std::to_string(it->second.line) + ": ", 0) == 0);
    CHECK(what.find(it->second.says) != std::string::npos);
  }
  CHECK(seen.size() >= 18);
  for (const auto& kv : table) {
    const std::string& name = kv.first;  // not a structured binding: CAPTURE's lambda needs a variable
    CAPTURE(name);
    CHECK_MESSAGE(seen.count(name) == 1, "the table names a file that is not in malformed/");
  }
}

TEST_CASE("a huge bad token is shortened in the message") {
  temp_file f(".txt");
  f.write("1 2\n" + std::string(100000, '7') + "x 3\n");
  const fg::input_error e = input_error_of([&] { fg::read_graph(f.path()); });
  CHECK(e.line() == 2);
  CHECK(std::string(e.what()).size() < f.path().size() + 200);
}
