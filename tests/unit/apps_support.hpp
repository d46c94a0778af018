// Helpers of the graph-application suites (test_graph_apps*.cpp): a file's graph as the stores the
// algorithms read, on either twin, and the expected-output files of LDBC Graphalytics.
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fluxgraph/stream.hpp"
#include "loaders/graph_file.hpp"
#include "storage/dcsr.hpp"

namespace fg::test {

inline std::string app_data(const std::string& name) { return std::string(FG_TEST_DATA_DIR) + "/" + name; }

/// The out-edge store (weights, 1 when the file has none), the in-edge pattern store, the ids.
template <class S>
struct app_graph {
  dcsr_matrix<double, S> out;
  dcsr_matrix<pattern, S> in;
  std::vector<std::int64_t> ids;
  bool symmetric = false;
  vertex_t n() const { return out.rows(); }
};

/// `symmetrize`: an undirected edge file listing each edge once (both directions are stored).
template <class S>
app_graph<S> app_graph_of(edge_file f, bool symmetrize) {
  if (symmetrize) fluxgraph::add_reverse_edges(f);
  const std::vector<vertex_t> r(f.src.begin(), f.src.end()), c(f.dst.begin(), f.dst.end());
  const std::vector<double> w = f.weighted() ? f.weight : std::vector<double>(r.size(), 1.0);
  const auto n = vertex_t(f.num_vertices);
  app_graph<S> g{dcsr_matrix<double, S>::from_coo(make_coo<double, S>(r, c, w), n, n),
                 dcsr_matrix<pattern, S>::from_coo(make_coo<pattern, S>(c, r), n, n), f.original_id, symmetrize};
  return g;
}

/// "v value" lines: value by the file's vertex id. 9223372036854775807 and "infinity" (any case)
/// read as +inf (Graphalytics' unreached).
inline std::map<std::int64_t, double> expected_values(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::map<std::int64_t, double> out;
  std::int64_t v;
  std::string s;
  while (in >> v >> s) {
    std::string l = s;
    for (auto& ch : l) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    out[v] = (l == "infinity" || l == "9223372036854775807") ? std::numeric_limits<double>::infinity() : std::stod(s);
  }
  return out;
}

/// Compares ours (by dense id) with the expected values (by file id): exact for +inf, else within
/// rel * |expected| (+ 1e-15 for zeros).
inline void check_values(const std::vector<double>& ours, const std::vector<std::int64_t>& ids,
                         const std::map<std::int64_t, double>& want, double rel, const std::string& what) {
  REQUIRE_MESSAGE(ours.size() == want.size(), what << ": " << ours.size() << " vertices, expected " << want.size());
  for (std::size_t v = 0; v < ours.size(); ++v) {
    const auto it = want.find(ids[v]);
    REQUIRE_MESSAGE(it != want.end(), what << ": vertex " << ids[v] << " has no expected value");
    const double e = it->second, a = ours[v];
    const bool ok = std::isinf(e) ? a == e : std::abs(a - e) <= rel * std::abs(e) + 1e-15;
    CHECK_MESSAGE(ok, what << ": vertex " << ids[v] << " = " << std::setprecision(17) << a << ", expected " << e);
  }
}

/// The value of the first key that ends with `suffix` in a Java .properties file ("" if none).
inline std::string property(const std::string& path, const std::string& suffix) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), val = line.substr(eq + 1);
    while (!key.empty() && key.back() == ' ') key.pop_back();
    while (!val.empty() && val.front() == ' ') val.erase(val.begin());
    if (key.size() >= suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0) return val;
  }
  return {};
}

}  // namespace fg::test
