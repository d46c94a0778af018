// Load-to-result runs (tests/unit/file_analyses.hpp).
#include "tests/unit/file_analyses.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "loaders/graph_file.hpp"
#include "storage/dcsr.hpp"

namespace fg {

namespace {
template <class V, class S>
pagerank_result run_on(const edge_file& f, const pagerank_options& opt) {
  FG_EXPECTS(f.num_vertices < 2147483647, "pagerank: too many vertices");
  dcsr_config cfg;
  cfg.dups = is_pattern_v<V> ? duplicates::collapse : duplicates::accumulate;
  std::vector<stored_t<V>> w;
  if constexpr (!is_pattern_v<V>) w.assign(f.weight.begin(), f.weight.end());
  // In-edge store: the edge u -> v is entry (v, u).
  auto batch = make_coo<V, S>(f.dst, f.src, w);
  const auto n = vertex_t(f.num_vertices);
  auto At = dcsr_matrix<V, S>::from_coo(batch, n, n, cfg);
  At.defragment();
  return pagerank(At, opt);
}
}  // namespace

pagerank_result pagerank(const edge_file& f, const pagerank_options& opt, exec where) {
  validate(opt);  // before the store is built
  const bool weighted = opt.weighted && f.weighted();
  if (where == exec::reference)
    return weighted ? run_on<double, host_space>(f, opt) : run_on<pattern, host_space>(f, opt);
  return weighted ? run_on<double, device_space>(f, opt) : run_on<pattern, device_space>(f, opt);
}


namespace {
template <class S>
closure_run closure_on(const edge_file& f, const std::vector<vertex_t>* sources, const closure_options& opt,
                       bool want_pairs) {
  FG_EXPECTS(f.num_vertices < 2147483647, "closure: too many vertices");
  const auto n = vertex_t(f.num_vertices);
  closure_run run;
  dcsr_matrix<pattern, S> plus;
  {
    const auto R = dcsr_matrix<pattern, S>::from_coo(make_coo<pattern, S>(f.src, f.dst), n, n);
    plus = sources != nullptr ? reachable(R, *sources, opt, &run.stats) : transitive_closure(R, opt, &run.stats);
  }
  if (want_pairs) {
    const csr_matrix<pattern, S> c = plus.to_csr();
    plus = dcsr_matrix<pattern, S>();  // free R⁺ before the host copies
    run.row_ptr = to_vector(c.row_ptr);
    run.col = to_vector(c.col);
    // Rows are appended batch by batch: sort each for a deterministic output.
    for (std::size_t i = 0; i + 1 < run.row_ptr.size(); ++i)
      std::sort(run.col.begin() + run.row_ptr[i], run.col.begin() + run.row_ptr[i + 1]);
  }
  return run;
}
}  // namespace

closure_run closure_of_file(const edge_file& f, const std::vector<vertex_t>* sources, const closure_options& opt,
                            exec where, bool want_pairs) {
  return where == exec::reference ? closure_on<host_space>(f, sources, opt, want_pairs)
                                  : closure_on<device_space>(f, sources, opt, want_pairs);
}

}  // namespace fg
