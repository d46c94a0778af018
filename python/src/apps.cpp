// fluxgraph.Graph's graph applications (docs/graph-apps.md): BFS, SSSP, WCC, CDLP, LCC, triangles,
// with the GIL released; each returns its per-vertex array (owned, no copy) and an info dict.
#include <pybind11/stl.h>

#include "common.hpp"

namespace {
using fluxgraph::graph;

// Runs f() without the GIL.
template <class F>
auto released(F f) {
  py::gil_scoped_release release;
  return f();
}
}  // namespace

void register_apps(py::class_<graph>& g) {
  g.def("bfs", [](graph& gr, std::int64_t source) {
     fluxgraph::bfs_result r = released([&] { return gr.bfs(source); });
     py::dict i;
     i["depth"] = r.depth, i["reached"] = r.reached, i["edges"] = r.edges, i["push_steps"] = r.push_steps;
     i["pull_steps"] = r.pull_steps, i["seconds"] = r.seconds;
     return py::make_tuple(owned(std::move(r.level)), i);
   })
      .def("sssp", [](const graph& gr, std::int64_t source, double delta) {
        fluxgraph::sssp_result r = released([&] { return gr.sssp(source, delta); });
        py::dict i;
        i["reached"] = r.reached, i["edges"] = r.edges, i["delta"] = r.delta, i["seconds"] = r.seconds;
        return py::make_tuple(owned(std::move(r.dist)), i);
      })
      .def("wcc", [](const graph& gr) {
        fluxgraph::wcc_result r = released([&] { return gr.wcc(); });
        py::dict i;
        i["components"] = r.components, i["seconds"] = r.seconds;
        return py::make_tuple(owned(std::move(r.label)), i);
      })
      .def("cdlp", [](const graph& gr, int iterations) {
        fluxgraph::cdlp_result r = released([&] { return gr.cdlp(iterations); });
        py::dict i;
        i["iterations"] = r.iterations, i["seconds"] = r.seconds;
        return py::make_tuple(owned(std::move(r.label)), i);
      })
      .def("lcc", [](const graph& gr) {
        fluxgraph::lcc_result r = released([&] { return gr.lcc(); });
        py::dict i;
        i["seconds"] = r.seconds;
        return py::make_tuple(owned(std::move(r.lcc)), i);
      })
      .def("triangles", [](const graph& gr, bool per_vertex) {
        fluxgraph::triangle_result r = released([&] { return gr.triangles(per_vertex); });
        py::dict i;
        i["total"] = r.total, i["seconds"] = r.seconds;
        return py::make_tuple(owned(std::move(r.per_vertex)), i);
      });
}
