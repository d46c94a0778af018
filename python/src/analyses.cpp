// fluxgraph.pointsto (python/fluxgraph/_analyses.py): Andersen points-to of a constraint file or of
// LLVM IR, solved without the GIL; the sets come back as CSR arrays (owned, no copy) with the names.
#include <pybind11/stl.h>

#include "common.hpp"

void register_analyses(py::module_& m) {
  m.def("_pointsto", [](const std::string& path, const std::string& device, bool check) {
    fluxgraph::pointsto_constraints c;
    fluxgraph::csr pts;
    fluxgraph::analysis_info info;
    bool equal = true;
    {
      py::gil_scoped_release release;
      c = fluxgraph::read_pointsto(path);
      pts = fluxgraph::pointsto(c, device_of(device), &info);
      if (check) {
        const fluxgraph::csr want = fluxgraph::pointsto_reference(c);
        equal = want.row_ptr == pts.row_ptr && want.col == pts.col;
      }
    }
    if (!equal) throw fluxgraph::error(path + ": pointsto differs from the worklist oracle");
    py::dict i;
    i["facts"] = info.facts, i["copy_edges"] = info.copy_edges, i["iterations"] = info.iterations;
    i["seconds"] = info.seconds;
    std::vector<std::string> names = std::move(c.names);
    if (names.empty())  // the numeric format: variable v is "v"
      for (std::int64_t v = 0; v < pts.rows; ++v) names.push_back(std::to_string(v));
    return py::make_tuple(std::move(names), owned(std::move(pts.row_ptr)), owned(std::move(pts.col)), i);
  });
}
