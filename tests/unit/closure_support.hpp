// Helpers of the closure suites (test_closure.cpp, test_closure_incremental.cpp): Boost.Graph's
// transitive closure as the oracle, and a store's pairs as a set.
#pragma once
#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/transitive_closure.hpp>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "storage/dcsr.hpp"

namespace fg::test {

using pair_set = std::set<std::pair<vertex_t, vertex_t>>;
using pair_list = std::vector<std::pair<vertex_t, vertex_t>>;

inline std::string data(const std::string& name) { return std::string(FG_TEST_DATA_DIR) + "/" + name; }

/// Boost.Graph's transitive_closure of the digraph (n, e) as a pair set.
inline pair_set boost_closure(vertex_t n, const pair_list& e) {
  boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS> g(static_cast<std::size_t>(n)), tc;
  for (const auto& [u, v] : e) boost::add_edge(std::size_t(u), std::size_t(v), g);
  boost::transitive_closure(g, tc);
  pair_set out;
  for (auto [it, end] = boost::edges(tc); it != end; ++it)
    out.emplace(vertex_t(boost::source(*it, tc)), vertex_t(boost::target(*it, tc)));
  return out;
}

/// The pairs of a validated store; fails the test if one is stored twice.
template <class S>
pair_set pairs_of(const dcsr_matrix<pattern, S>& A) {
  A.validate();
  const auto coo = A.to_coo();
  const auto r = to_vector(coo.row), c = to_vector(coo.col);
  pair_set out;
  for (std::size_t i = 0; i < r.size(); ++i) out.emplace(r[i], c[i]);
  REQUIRE(out.size() == coo.nnz);
  return out;
}

}  // namespace fg::test
