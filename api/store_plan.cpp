// fluxgraph::graph's store: how the engine would read it (profile, the cost model's plan).
#include "api/store.hpp"
#include "read/cost_model.hpp"
#include "read/profile.hpp"

namespace fluxgraph::api {

template <class V, class S>
graph_profile store<V, S>::profile() const {
  return fg::profile(g_.store());
}

template <class V, class S>
read_plan store<V, S>::plan_reads(double reads, const std::string& kernel) const {
  if (!(reads >= 1)) throw invalid_argument("plan_reads: reads must be at least 1");
  const auto cal = fg::load_calibration(fg::device_description());
  const fg::selection s = fg::select_kernel(fg::profile(g_.store()), 8, reads, *cal, kernel);
  read_plan r;
  r.reads = reads;
  r.calibration = cal->source;
  r.estimates = s.estimates;
  r.kernel = s.kernel;
  r.reason = s.reason;
  const fg::race_rule rule;
  const std::vector<std::string> field = fg::race_contenders(s, reads, rule);
  if (field.size() > 1) r.race = field;
  r.race_spread = rule.spread, r.race_budget = rule.budget, r.race_probes = rule.probes;
  return r;
}

#define FG_INSTANTIATE(V, S)                                   \
  template graph_profile store<V, S>::profile() const;         \
  template read_plan store<V, S>::plan_reads(double, const std::string&) const;
FG_API_FOR_EACH_STORE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fluxgraph::api
