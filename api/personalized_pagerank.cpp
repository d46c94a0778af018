// fluxgraph::graph::personalized_pagerank: the engine's (algorithms/pagerank.hpp) over the in-edge
// copy PageRank reads, written once for the four stores (api::visit).
#include "api/store.hpp"

namespace fluxgraph {

std::vector<pagerank_result> graph::personalized_pagerank(const std::vector<std::vector<vertex_id>>& seed_sets,
                                                         const pagerank_options& opt) {
  fg::validate(opt);
  std::vector<std::vector<fg::vertex_t>> sets(seed_sets.size());
  for (std::size_t j = 0; j < sets.size(); ++j)
    for (vertex_id id : seed_sets[j]) {
      const vertex_id v = vertex(id, "personalized pagerank");
      if (v < 0 || v >= num_vertices())
        throw invalid_argument("personalized pagerank: seed " + std::to_string(id) + " is not a vertex (the graph has " +
                               std::to_string(num_vertices()) + ")");
      sets[j].push_back(fg::vertex_t(v));
    }
  return api::visit(*p_, [&](auto& s) {
    using V = typename std::decay_t<decltype(s)>::value_type;
    if constexpr (!fg::is_pattern_v<V>)
      if (opt.weighted) return fg::personalized_pagerank(s.in_weighted(), opt, sets);
    // Unweighted: the out-edge store's row sizes are the out-weights, as the kept PageRank takes
    // them, for a pattern store; a weighted one's rows count parallel edges apiece.
    fg::pagerank_start from;
    if constexpr (fg::is_pattern_v<V>) from.out_degree = s.out().store().view().sizes;
    return fg::personalized_pagerank(s.in_pattern(), opt, sets, from);
  });
}

pagerank_result graph::personalized_pagerank(const std::vector<vertex_id>& seeds, const pagerank_options& opt) {
  return std::move(personalized_pagerank(std::vector<std::vector<vertex_id>>{seeds}, opt).front());
}

}  // namespace fluxgraph
