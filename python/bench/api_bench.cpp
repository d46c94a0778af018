// _api_bench: the C++ side of python/bench/bench_api.py. The same batches (NumPy memory) through
// the C++ API in a C++ loop, timed there, so the script can compare the Python API against it.
// Built into the build tree only; not part of the package.
#include <pybind11/pybind11.h>

#include <chrono>
#include <cstdint>

#include "fluxgraph/fluxgraph.hpp"

namespace py = pybind11;

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Seconds to stream n edges (64-bit ids at src/dst) in batches of `batch` into a fresh graph.
double inserts(std::uintptr_t src, std::uintptr_t dst, std::size_t n, std::size_t batch, const std::string& device) {
  py::gil_scoped_release release;
  fluxgraph::graph_options o;
  o.where = device == "cpu" ? fluxgraph::device::cpu : fluxgraph::device::automatic;
  fluxgraph::graph g(0, o);
  const auto* s = reinterpret_cast<const std::int64_t*>(src);
  const auto* d = reinterpret_cast<const std::int64_t*>(dst);
  const double t = now();
  for (std::size_t i = 0; i < n; i += batch) {
    const std::size_t m = std::min(batch, n - i);
    g.insert(fluxgraph::edge_span<std::int64_t>{s + i, d + i, m});
  }
  return now() - t;
}

// Seconds of one PageRank from scratch on the graph of those edges (built once, untimed).
double pagerank(std::uintptr_t src, std::uintptr_t dst, std::size_t n, int runs) {
  py::gil_scoped_release release;
  fluxgraph::graph g;
  g.insert(fluxgraph::edge_span<std::int64_t>{reinterpret_cast<const std::int64_t*>(src),
                                              reinterpret_cast<const std::int64_t*>(dst), n});
  fluxgraph::pagerank_options o;
  o.warm = false;
  g.pagerank(o);  // warm-up: the in-edge copy and the kernel's view
  double best = 1e300;
  for (int r = 0; r < runs; ++r) {
    const double t = now();
    g.pagerank(o);
    best = std::min(best, now() - t);
  }
  return best;
}
}  // namespace

PYBIND11_MODULE(_api_bench, m) {
  m.def("inserts", &inserts);
  m.def("pagerank", &pagerank);
}
