// The oracle of 0-CFA: a direct abstract interpreter over the program (no constraint encoding, no
// matrices). Each pass evaluates every call with the current store — a variable evaluates to its
// flow set, a lambda to itself — and joins the arguments into the parameters of every lambda the
// function may be; passes repeat until one changes nothing.
#include <chrono>
#include <set>

#include "algorithms/cfa.hpp"

namespace fg {

cfa_result analyse_cfa_interpreter(const cfa_program& p) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::set<vertex_t>> flow(p.vars.size());
  auto eval = [&](const cfa_program::atom& a) {
    return a.is_lambda ? std::set<vertex_t>{vertex_t(a.id)} : flow[std::size_t(a.id)];
  };
  cfa_result out;
  for (bool changed = true; changed;) {
    changed = false;
    ++out.iterations;
    for (const auto& call : p.calls)
      for (vertex_t l : eval(call.fn)) {
        const auto& params = p.lambdas[std::size_t(l)].params;
        for (std::size_t i = 0; i < params.size() && i < call.args.size(); ++i)
          for (vertex_t x : eval(call.args[i])) changed |= flow[std::size_t(params[i])].insert(x).second;
      }
  }
  out.row_ptr.push_back(0);
  for (const auto& f : flow) {
    out.col.insert(out.col.end(), f.begin(), f.end());
    out.row_ptr.push_back(offset_t(out.col.size()));
  }
  out.facts = offset_t(out.col.size());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace fg
