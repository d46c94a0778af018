// Andersen points-to (algorithms/pointsto.hpp), both twins against the worklist oracle:
//  - hand-written C-like cases with known answers (tests/data/pointsto/*.txt, *.cons: "#= var: objs"
//    lines list every non-empty set), checked exactly;
//  - random constraint sets (every kind, dense and sparse) equal the worklist solver's sets;
//  - malformed files throw fg::input_error "file:line: what".
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/pointsto.hpp"
#include "core/error.hpp"
#include "analysis_support.hpp"

namespace {
using namespace fg;
namespace fs = std::filesystem;

using test::data;
using sets = test::name_sets;

// The "#= var: objs" lines of a file.
sets expected_sets(const std::string& path) {
  std::ifstream in(path);
  sets out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("#= ", 0) != 0) continue;
    std::istringstream f(line.substr(3));
    std::string var, o;
    f >> var;
    var.pop_back();  // the ':'
    while (f >> o) out[var].insert(o);
  }
  return out;
}

sets named_sets(const pointsto_problem& p, const inclusion_result& r) {
  sets out;
  const auto name = [&](std::size_t v) { return p.names.empty() ? std::to_string(v) : p.names[v]; };  // numeric: v
  for (std::size_t v = 0; v < std::size_t(p.constraints.nodes); ++v)
    for (offset_t j = r.row_ptr[v]; j < r.row_ptr[v + 1]; ++j) out[name(v)].insert(name(std::size_t(r.col[std::size_t(j)])));
  return out;
}

void check_same(const inclusion_result& a, const inclusion_result& b) {
  CHECK(a.row_ptr == b.row_ptr);
  CHECK(a.col == b.col);
  CHECK(a.stats.facts == b.stats.facts);
  CHECK(a.stats.copy_edges == b.stats.copy_edges);
}

inclusion_problem random_problem(std::mt19937& g, vertex_t n, int per_kind) {
  inclusion_problem p;
  p.nodes = p.objects = n;
  auto v = [&] { return vertex_t(g() % std::uint32_t(n)); };
  p.stores.emplace_back();
  for (int i = 0; i < per_kind; ++i) {
    p.base_node.push_back(v()), p.base_obj.push_back(v());
    p.copy_dst.push_back(v()), p.copy_src.push_back(v());
    p.load_dst.push_back(v()), p.load_ptr.push_back(v());
    p.stores[0].ptr.push_back(v()), p.stores[0].src.push_back(v());
  }
  return p;
}
}  // namespace

TEST_CASE("pointsto: hand-written cases give their known sets on both twins and the worklist solver") {
  int files = 0;
  for (const auto& e : fs::directory_iterator(data("pointsto"))) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".txt" && ext != ".cons")) continue;
    const std::string path = e.path().string();
    CAPTURE(path);
    ++files;
    const pointsto_problem p = read_pointsto(path);
    const sets want = expected_sets(path);
    REQUIRE(!want.empty());
    const inclusion_result ref = solve_inclusion(p.constraints, exec::reference);
    const inclusion_result dev = solve_inclusion(p.constraints, exec::device);
    const inclusion_result wl = solve_inclusion_worklist(p.constraints);
    CHECK(named_sets(p, ref) == want);
    check_same(ref, dev);
    check_same(ref, wl);
    check_same(ref, solve_inclusion_wave(p.constraints));
    check_same(ref, solve_inclusion_bits(p.constraints));
  }
  CHECK(files >= 6);
}

TEST_CASE("pointsto: random constraint sets equal the worklist solver on both twins") {
  std::mt19937 g(7);
  for (vertex_t n : {1, 2, 5, 17, 60, 200})
    for (int per_kind : {1, 3, 10, 40}) {
      CAPTURE(n);
      CAPTURE(per_kind);
      const inclusion_problem p = random_problem(g, n, per_kind * (n > 20 ? 4 : 1));
      const inclusion_result wl = solve_inclusion_worklist(p);
      check_same(solve_inclusion(p, exec::reference), wl);
      check_same(solve_inclusion(p, exec::device), wl);
      check_same(solve_inclusion_wave(p), wl);
      check_same(solve_inclusion_bits(p), wl);
    }
  // A sliced run (tiny workspace) equals an unsliced one.
  const inclusion_problem p = random_problem(g, 300, 150);
  inclusion_options small;
  small.spmm.workspace_bytes = 1 << 20;
  check_same(solve_inclusion(p, exec::device, small), solve_inclusion_worklist(p));
}

TEST_CASE("pointsto: an object that joins a cycle at once passes the cycle's set on, in every solver") {
  // p = &o; d = &q; d = *p; *p = d; x = o. Once o is in pts(p), o -> d -> o is a cycle: the solvers
  // with cycle collapse merge o into d and make no new edge, yet x must still get q.
  inclusion_problem p;
  p.nodes = p.objects = 5;  // 0 p, 1 o, 2 d, 3 q, 4 x
  p.base_node = {0, 2}, p.base_obj = {1, 3};
  p.load_dst = {2}, p.load_ptr = {0};
  p.stores.emplace_back();
  p.stores[0].ptr = {0}, p.stores[0].src = {2};
  p.copy_dst = {4}, p.copy_src = {1};
  const inclusion_result wl = solve_inclusion_worklist(p);
  REQUIRE(wl.row_ptr.size() == 6);
  CHECK(std::vector<vertex_t>(wl.col.begin() + wl.row_ptr[4], wl.col.begin() + wl.row_ptr[5]) == std::vector<vertex_t>{3});
  check_same(solve_inclusion_wave(p), wl);
  check_same(solve_inclusion_bits(p), wl);
  check_same(solve_inclusion(p, exec::reference), wl);
  check_same(solve_inclusion(p, exec::device), wl);
}

TEST_CASE("pointsto: the numeric and the text format read the same constraints") {
  const pointsto_problem num = read_pointsto(data("pointsto/numeric.cons"));
  const pointsto_problem txt = read_pointsto(data("pointsto/load_store.txt"));
  CHECK(num.names.empty());  // numbered: no name strings (found by the fuzz target: a header of 4e8 variables)
  CHECK(num.constraints.nodes == 8);
  {  // a header may announce 2e9 variables: reading it costs nothing per variable
    const std::string path = (fs::temp_directory_path() / "fg_pointsto_huge.cons").string();
    std::ofstream(path) << "2000000000 0\n";
    const pointsto_problem huge = read_pointsto(path);
    CHECK(huge.constraints.nodes == 2000000000);
    CHECK(huge.names.empty());
    fs::remove(path);
  }
  CHECK(num.lines == 7);
  CHECK(txt.lines == 7);
  CHECK(solve_inclusion(num.constraints, exec::device).stats.facts == solve_inclusion(txt.constraints, exec::device).stats.facts);
  CHECK_THROWS_AS(solve_inclusion_worklist([] {
                    inclusion_problem p;
                    p.nodes = p.objects = 2;
                    p.copy_dst = {0};
                    p.copy_src = {5};
                    return p;
                  }()),
                  fg::invalid_argument);
}

TEST_CASE("pointsto: malformed files throw file:line errors") {
  int files = 0;
  for (const auto& e : fs::directory_iterator(data("pointsto/malformed"))) {
    const std::string path = e.path().string();
    ++files;
    test::check_input_error(path, [&] { (void)read_pointsto(path); });
  }
  CHECK(files >= 10);
}

TEST_CASE("pointsto: the wave solver equals the worklist oracle on larger cyclic problems with field stores") {
  std::mt19937 g(11);
  for (vertex_t n : {400, 2500}) {  // sizes: the oracle takes ~1 s on the larger (400 s at n = 3000 with n per kind)
    CAPTURE(n);
    inclusion_problem p = random_problem(g, n, n > 1000 ? n / 4 : n / 2);
    // long copy chains that close into cycles, and cycles through loads and stores
    for (vertex_t v = 0; v + 1 < n; v += 2) p.copy_dst.push_back(v + 1), p.copy_src.push_back(v);
    for (vertex_t v = 0; v < n; v += 97) p.copy_dst.push_back(v), p.copy_src.push_back(std::min<vertex_t>(n - 1, v + 60));
    inclusion_problem::store_family f;  // a store through a field map: o -> (o * 7 + 3) mod n
    for (int i = 0; i < n / 4; ++i) f.ptr.push_back(vertex_t(g() % std::uint32_t(n))), f.src.push_back(vertex_t(g() % std::uint32_t(n)));
    for (vertex_t o = 0; o < n; o += 3) f.field_obj.push_back(o), f.field_node.push_back(vertex_t((std::int64_t(o) * 7 + 3) % n));
    p.stores.push_back(f);
    const inclusion_result wl = solve_inclusion_worklist(p);
    const inclusion_result wave = solve_inclusion_wave(p);
    CHECK(wl.stats.facts > offset_t(n));  // not a trivial fixed point
    check_same(wave, wl);
    check_same(solve_inclusion_bits(p), wl);
    if (n < 1000) check_same(solve_inclusion(p, exec::reference), wl);  // the host SpMM twin is slow past that
  }
}

namespace {
// Some objects are functions (formals and a return node each); call sites through random nodes.
void add_random_calls(std::mt19937& g, inclusion_problem& p, int functions, int sites) {
  const auto n = std::uint32_t(p.nodes);
  auto v = [&] { return vertex_t(g() % n); };
  auto maybe = [&] { return g() % 4 == 0 ? vertex_t(-1) : v(); };  // -1: a non-pointer value
  p.functions.formal_ptr.push_back(0);
  for (int k = 0; k < functions; ++k) {
    p.functions.object.push_back(vertex_t(std::uint32_t(k) * 7 % n));
    p.functions.ret.push_back(maybe());
    for (std::uint32_t i = g() % 4; i > 0; --i) p.functions.formals.push_back(maybe());
    p.functions.formal_ptr.push_back(offset_t(p.functions.formals.size()));
    p.base_node.push_back(v()), p.base_obj.push_back(p.functions.object.back());  // someone takes its address
  }
  std::sort(p.functions.object.begin(), p.functions.object.end());  // distinct objects (7k mod n, n >= functions)
  p.icalls.arg_ptr.push_back(0);
  for (int j = 0; j < sites; ++j) {
    p.icalls.callee.push_back(v());
    p.icalls.result.push_back(maybe());
    for (std::uint32_t i = g() % 5; i > 0; --i) p.icalls.args.push_back(maybe());  // more or fewer than the formals
    p.icalls.arg_ptr.push_back(offset_t(p.icalls.args.size()));
  }
}
}  // namespace

TEST_CASE("pointsto: indirect calls resolved on the fly agree in every solver") {
  SUBCASE("hand-checked: fp = &f; r = fp(&a) makes f's formal point to a and r to what f returns") {
    inclusion_problem p;
    p.nodes = p.objects = 6;  // 0 fp, 1 f (object), 2 x (f's formal), 3 a, 4 r, 5 g (object, never called)
    p.base_node = {0, 2};  // fp = &f; x = &x (f returns its formal x)
    p.base_obj = {1, 2};
    p.functions.object = {1, 5};
    p.functions.ret = {2, -1};
    p.functions.formals = {2};
    p.functions.formal_ptr = {0, 1, 1};
    p.icalls.callee = {0};
    p.icalls.result = {4};
    p.icalls.args = {3};
    p.icalls.arg_ptr = {0, 1};
    p.base_node.push_back(3), p.base_obj.push_back(3);  // a = &a: the actual points to a
    for (const inclusion_result& r : {solve_inclusion_wave(p), solve_inclusion_worklist(p), solve_inclusion(p, exec::reference),
                                      solve_inclusion(p, exec::device), solve_inclusion_bits(p)}) {
      auto row = [&](std::size_t v) { return std::vector<vertex_t>(r.col.begin() + r.row_ptr[v], r.col.begin() + r.row_ptr[v + 1]); };
      CHECK(row(2) == std::vector<vertex_t>{2, 3});  // the formal x: its own fact and the actual's a
      CHECK(row(4) == std::vector<vertex_t>{2, 3});  // r = the return x
      CHECK(row(5).empty());
    }
  }
  SUBCASE("random problems") {
    std::mt19937 g(5);
    for (vertex_t n : {8, 40, 300}) {
      CAPTURE(n);
      inclusion_problem p = random_problem(g, n, int(n) / 2 + 1);
      add_random_calls(g, p, std::min<int>(int(n), 6 + int(n) / 10), int(n) / 3 + 2);
      const inclusion_result wl = solve_inclusion_worklist(p);
      check_same(solve_inclusion_wave(p), wl);
      check_same(solve_inclusion_bits(p), wl);
      check_same(solve_inclusion(p, exec::reference), wl);
      check_same(solve_inclusion(p, exec::device), wl);
    }
  }
  SUBCASE("bad tables are errors") {
    inclusion_problem p;
    p.nodes = p.objects = 3;
    p.icalls.callee = {0};
    p.icalls.result = {7};
    p.icalls.arg_ptr = {0, 0};
    CHECK_THROWS_AS(solve_inclusion_wave(p), invalid_argument);
    p.icalls.result = {-1};
    p.icalls.arg_ptr = {0, 2};
    CHECK_THROWS_AS(solve_inclusion_worklist(p), invalid_argument);
  }
}
