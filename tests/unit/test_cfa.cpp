// 0-CFA (algorithms/cfa.hpp), both twins against the abstract interpreter:
//  - hand-written programs with known flow sets (tests/data/cfa/*.scm, ";= var@line: lambdas"),
//    checked exactly;
//  - the identity worst case, generated for growing n: every argument lambda reaches every
//    continuation (flow sets of size n), equal to the interpreter;
//  - the programs of examples/cfa; malformed programs throw fg::input_error "file:line: what".
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "algorithms/cfa.hpp"
#include "core/error.hpp"
#include "analysis_support.hpp"

namespace {
using namespace fg;
namespace fs = std::filesystem;

using test::data;
using sets = test::name_sets;

sets expected_sets(const std::string& path) {
  std::ifstream in(path);
  sets out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(";= ", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    std::string rest = line.substr(colon + 1), var = line.substr(3, colon - 3);
    auto& s = out[var];
    for (std::size_t b = rest.find('('); b != std::string::npos; b = rest.find('(', b + 1)) s.insert(rest.substr(b, rest.find(')', b) - b + 1));
  }
  return out;
}

sets named(const cfa_program& p, const cfa_result& r) {
  sets out;
  for (std::size_t v = 0; v < p.vars.size(); ++v)
    for (offset_t j = r.row_ptr[v]; j < r.row_ptr[v + 1]; ++j) {
      const std::string l = p.lambda_name(int(r.col[std::size_t(j)]));
      out[p.vars[v].name + "@" + std::to_string(p.vars[v].line)].insert(l.substr(0, l.find('@')));
    }
  return out;
}

void check_twins(const cfa_program& p) {
  const cfa_result want = analyse_cfa_interpreter(p);
  for (exec where : {exec::reference, exec::device}) {
    const cfa_result r = analyse_cfa(p, where);
    CHECK(r.row_ptr == want.row_ptr);
    CHECK(r.col == want.col);
  }
}

// id applied at n sites: ((lambda (id halt) (id (lambda (a1) (halt a1)) (lambda (r1) ... (halt rn))))
//                         (lambda (x k) (k x)) (lambda (z) (z z)))
std::string identity_program(int n) {
  std::string s = "((lambda (id halt)\n";
  for (int i = 1; i <= n; ++i) s += " (id (lambda (a" + std::to_string(i) + ") (halt a" + std::to_string(i) + ")) (lambda (r" + std::to_string(i) + ")\n";
  s += " (halt r" + std::to_string(n) + ")" + std::string(std::size_t(2 * n), ')') + ")\n (lambda (x k) (k x))\n (lambda (z) (z z)))\n";
  return s;
}
}  // namespace

TEST_CASE("cfa: hand-written programs give their known flow sets on both twins and the interpreter") {
  int files = 0;
  for (const auto& e : fs::directory_iterator(data("cfa"))) {
    if (e.path().extension() != ".scm") continue;
    const std::string path = e.path().string();
    CAPTURE(path);
    ++files;
    const cfa_program p = read_cfa_program(path);
    const sets want = expected_sets(path);
    REQUIRE(!want.empty());
    CHECK(named(p, analyse_cfa(p, exec::device)) == want);
    CHECK(named(p, analyse_cfa_interpreter(p)) == want);
    check_twins(p);
  }
  CHECK(files >= 3);
}

TEST_CASE("cfa: the identity worst case grows every flow set to n; examples/cfa equal the interpreter") {
  for (int n : {1, 2, 5, 20, 60}) {
    CAPTURE(n);
    const fs::path path = fs::temp_directory_path() / ("fg_test_cfa_id" + std::to_string(n) + ".scm");
    std::ofstream(path) << identity_program(n);
    const cfa_program p = read_cfa_program(path.string());
    check_twins(p);
    const cfa_result r = analyse_cfa(p, exec::device);
    // id and halt 1 each; x, k, z n each; every r_i and a_i n each ((z z) spreads the a's).
    offset_t largest = 0;
    for (std::size_t v = 0; v < p.vars.size(); ++v) largest = std::max(largest, r.row_ptr[v + 1] - r.row_ptr[v]);
    CHECK(largest == n);
    CHECK(r.facts == offset_t(2 + 3 * n + 2 * n * n));
    fs::remove(path);
  }
  int files = 0;
  for (const auto& e : fs::directory_iterator(std::string(FG_TEST_DATA_DIR) + "/../../examples/cfa")) {
    if (e.path().extension() != ".scm") continue;
    ++files;
    CAPTURE(e.path().string());
    check_twins(read_cfa_program(e.path().string()));
  }
  CHECK(files >= 3);
}

TEST_CASE("cfa: malformed programs throw file:line errors") {
  int files = 0;
  for (const auto& e : fs::directory_iterator(data("cfa/malformed"))) {
    ++files;
    const std::string path = e.path().string();
    test::check_input_error(path, [&] { (void)read_cfa_program(path); });
  }
  CHECK(files >= 8);
}
