// Points-to from LLVM IR (algorithms/llvm_ir.hpp): hand-written C snippets (tests/data/pointsto/ir/*.c,
// compiled by scripts/make-test-ir.sh) whose "//= node: objects" lines give exact sets, solved by
// the wave solver, the worklist oracle and both matrix twins, which must agree on every set; IR
// that LLVM cannot read is an input error naming the file. Skipped in a build without LLVM.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "algorithms/pointsto.hpp"
#include "core/error.hpp"
#include "analysis_support.hpp"
#include "algorithms/llvm_ir.hpp"

namespace {
using namespace fg;
namespace fs = std::filesystem;
using sets = std::map<std::string, std::set<std::string>>;

sets expected(const std::string& c_file) {  // the "//= node: objects" lines
  std::ifstream in(c_file);
  sets out;
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t at = line.find("//= ");
    if (at == std::string::npos) continue;
    std::istringstream f(line.substr(at + 4));
    std::string node, o;
    f >> node;
    node.pop_back();  // the ':'
    out[node];
    while (f >> o) out[node].insert(o);
  }
  return out;
}

// every node's set, by name (empty ones too)
sets named_sets(const pointsto_problem& p, const inclusion_result& r) {
  sets m;
  for (std::size_t v = 0; v < p.names.size(); ++v) {
    auto& s = m[p.names[v]];
    for (offset_t j = r.row_ptr[v]; j < r.row_ptr[v + 1]; ++j) s.insert(p.names[std::size_t(r.col[std::size_t(j)])]);
  }
  return m;
}

std::set<std::string> set_of(const sets& all, const std::string& node) {
  const auto it = all.find(node);
  if (it == all.end()) FAIL("no node named " << node);
  return it == all.end() ? std::set<std::string>{} : it->second;
}
}  // namespace

TEST_CASE("pointsto from LLVM IR: hand-written C snippets give their known sets in every solver") {
  if (!llvm_ir_supported()) return;  // this build has no LLVM (the GPU machine): nothing to read
  int files = 0;
  for (const auto& e : fs::directory_iterator(test::data("pointsto/ir"))) {
    if (e.path().extension() != ".ll") continue;
    const std::string path = e.path().string();
    CAPTURE(path);
    ++files;
    REQUIRE(looks_like_llvm_ir(path));
    const pointsto_problem p = read_pointsto(path);
    REQUIRE(p.names.size() == std::size_t(p.constraints.nodes));
    const inclusion_result wave = solve_inclusion_wave(p.constraints);
    const inclusion_result oracle = solve_inclusion_worklist(p.constraints);
    for (const inclusion_result* r : {&oracle, &wave}) {
      CHECK(r->row_ptr == wave.row_ptr);
      CHECK(r->col == wave.col);
    }
    for (exec where : {exec::reference, exec::device}) {
      const inclusion_result m = solve_inclusion(p.constraints, where);
      CHECK(m.row_ptr == wave.row_ptr);
      CHECK(m.col == wave.col);
    }
    fs::path c = e.path();
    const sets want = expected(c.replace_extension(".c").string());
    REQUIRE(want.size() >= 3);
    const sets got = named_sets(p, wave);
    for (const auto& [node, objects] : want) {
      CAPTURE(node);
      CHECK(set_of(got, node) == objects);
    }
  }
  CHECK(files >= 4);
}

TEST_CASE("pointsto from LLVM IR: IR that LLVM cannot read names the file and line") {
  if (!llvm_ir_supported()) {
    CHECK_THROWS_AS(read_llvm_ir(test::data("pointsto/ir/basics.ll")), invalid_argument);
    return;
  }
  const std::string path = (fs::temp_directory_path() / "fg_bad_ir.ll").string();
  std::ofstream(path) << "define i32 @main() {\n  ret i32 %nope\n}\n";
  try {
    (void)read_pointsto(path);
    FAIL("bad IR was read");
  } catch (const input_error& x) {
    const std::string what = x.what();
    CHECK(what.find(path + ":2") != std::string::npos);
    CHECK(what.find("LLVM cannot read it") != std::string::npos);
  }
  std::ofstream(path, std::ios::binary) << "BC\xC0\xDE garbage";
  const std::string bc = path.substr(0, path.size() - 3) + ".bc";
  fs::rename(path, bc);
  CHECK_THROWS_AS(read_pointsto(bc), input_error);
  fs::remove(bc);
}

TEST_CASE("pointsto from LLVM IR: the constraints written as text have the same least solution") {
  if (!llvm_ir_supported()) return;
  const std::string out = (fs::temp_directory_path() / "fg_ir_constraints.pts").string();
  for (const char* name : {"basics", "calls", "libc", "ssa"}) {
    CAPTURE(name);
    const pointsto_problem p = read_pointsto(test::data(std::string("pointsto/ir/") + name + ".ll"));
    const inclusion_result r = solve_inclusion_wave(p.constraints);
    // the same sets by name (every name is an identifier already: none rewritten); variables in no
    // constraint, which the text file cannot name, have empty sets
    sets want = named_sets(p, r);
    for (auto it = want.begin(); it != want.end();) it = it->second.empty() ? want.erase(it) : std::next(it);
    // with the solution: calls as the copies they resolve to; without: as func / call lines
    for (const bool resolved : {true, false}) {
      CAPTURE(resolved);
      write_pointsto_text(p, out, resolved ? &r : nullptr);
      const pointsto_problem back = read_pointsto(out);
      CHECK(back.constraints.icalls.callee.size() == (resolved ? 0 : p.constraints.icalls.callee.size()));
      CHECK(back.constraints.functions.object.size() == (resolved ? 0 : p.constraints.functions.object.size()));
      const inclusion_result s = solve_inclusion_worklist(back.constraints);
      sets got = named_sets(back, s);
      for (auto it = got.begin(); it != got.end();) it = it->second.empty() ? got.erase(it) : std::next(it);
      CHECK(got == want);
    }
  }
  fs::remove(out);
}
