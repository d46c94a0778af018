// fluxgraph.Stream's C++ half: fluxgraph::stream with the GIL released while it works. Batches
// arrive as int64 NumPy arrays the package has checked (python/fluxgraph/_stream.py), the caller's
// ids (renumbered by fluxgraph::stream) or vertex numbers; reports go back as dicts.
#include <pybind11/stl.h>

#include "common.hpp"

namespace {
using fluxgraph::stream;
using ids = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

fluxgraph::edge_span<std::int64_t> span_of(const ids& src, const ids& dst) {
  return {src.data(), dst.data(), std::size_t(src.size())};
}

// A batch's dict: Graph.insert's fields (batch, inserted, deleted, vertices, edges: the one schema,
// docs/api.md), then the stream's own, each analysis's only when the stream keeps it.
py::dict report_of(const fluxgraph::batch_report& r, const fluxgraph::stream_options& o) {
  py::dict d;
  d["batch"] = r.batch, d["inserted"] = r.stored, d["deleted"] = r.removed, d["vertices"] = r.vertices;
  d["edges"] = r.edges, d["inserts"] = r.inserts, d["deletes"] = r.deletes;
  d["store_seconds"] = r.store_seconds, d["defragmented"] = r.defrag.defragmented, d["defrag_reason"] = r.defrag.reason;
  d["defrag_seconds"] = r.defrag_seconds, d["seconds"] = r.seconds();
  if (o.pagerank_per_batch) {
    d["pr_updated"] = r.pr_updated;
    d["pr_iterations"] = r.pr_iterations, d["pr_seconds"] = r.pr_seconds, d["pr_restarted"] = r.pr_restarted;
    d["pr_pulled"] = r.pr_pulled, d["pr_bound"] = r.pr_bound, d["pr_edges"] = r.pr_edges;
    if (o.compare) d["cold_iterations"] = r.cold_iterations, d["cold_seconds"] = r.cold_seconds;
    if (r.pr_error >= 0) d["pr_error"] = r.pr_error;
  }
  if (o.closure) {
    d["closure_pairs"] = r.closure_pairs, d["closure_rounds"] = r.closure_rounds;
    d["closure_recomputed"] = r.closure_recomputed, d["closure_seconds"] = r.closure_seconds;
  }
  if (o.bfs_source >= 0) d["bfs_reached"] = r.bfs_reached;
  if (o.sssp_source >= 0) d["sssp_reached"] = r.sssp_reached;
  if (o.wcc) d["components"] = r.components;
  if (o.triangles) d["triangles"] = r.triangles;
  if (o.bfs_source >= 0 || o.sssp_source >= 0 || o.wcc || o.triangles)
    d["apps_recomputed"] = r.apps_recomputed, d["apps_seconds"] = r.apps_seconds;
  return d;
}

fluxgraph::defrag_mode mode_of(const std::string& m) {
  if (m == "none") return fluxgraph::defrag_mode::none;
  if (m == "limit") return fluxgraph::defrag_mode::segment_limit;
  if (m == "measured") return fluxgraph::defrag_mode::measured;
  throw py::value_error("defrag must be 'none', 'limit' or 'measured', got '" + m + "'");
}
fluxgraph::row_layout layout_of(const std::string& l) {
  if (l == "auto") return fluxgraph::row_layout::automatic;
  if (l == "rows") return fluxgraph::row_layout::rows;
  if (l == "size") return fluxgraph::row_layout::size;
  throw py::value_error("layout must be 'auto', 'rows' or 'size', got '" + l + "'");
}
}  // namespace

void register_stream(py::module_& m) {
  py::class_<stream>(m, "_Stream")
      .def(py::init([](std::int64_t n, const std::string& device, bool pagerank, bool closure, bool compare,
                       const std::string& defrag, const std::string& layout, double damping, double tol, int max_iter,
                       const std::string& kernel, const std::string& wal, const std::string& sync, double interval,
                       std::int64_t snapshot_every, std::int64_t bfs, std::int64_t sssp, bool wcc, bool triangles,
                       bool renumber, std::int64_t pagerank_every, bool compact) {
        fluxgraph::stream_options o;
        o.ids = renumber ? fluxgraph::vertex_ids::renumber : fluxgraph::vertex_ids::dense;
        o.durability.dir = wal;
        if (sync == "batch") o.durability.sync = fluxgraph::sync_mode::batch;
        else if (sync == "interval") o.durability.sync = fluxgraph::sync_mode::interval;
        else if (sync == "none") o.durability.sync = fluxgraph::sync_mode::none;
        else throw py::value_error("sync must be 'batch', 'interval' or 'none', got '" + sync + "'");
        o.durability.sync_interval = interval, o.durability.snapshot_every = snapshot_every;
        o.where = device_of(device);
        o.pagerank_per_batch = pagerank, o.closure = closure, o.compare = compare;
        o.pagerank_every = pagerank_every;
        o.memory_footprint = compact ? fluxgraph::footprint::compact : fluxgraph::footprint::fast;
        o.bfs_source = bfs, o.sssp_source = sssp, o.wcc = wcc, o.triangles = triangles;
        o.defrag = mode_of(defrag), o.layout = layout_of(layout);
        o.pagerank.damping = damping, o.pagerank.tol = tol, o.pagerank.max_iter = max_iter, o.pagerank.kernel = kernel;
        return stream(o, n);
      }))
      .def("apply", [](stream& s, const ids& isrc, const ids& idst, const ids& dsrc, const ids& ddst, std::int64_t n) {
        fluxgraph::batch_report r;
        {
          py::gil_scoped_release release;
          r = s.apply(span_of(isrc, idst), span_of(dsrc, ddst), n);
        }
        return report_of(r, s.options());
      })
      .def("finish", [](stream& s) {
        fluxgraph::stream_end e;
        {
          py::gil_scoped_release release;
          e = s.finish();
        }
        py::dict d;
        d["defrag_asked"] = e.defrag_asked, d["defragmented"] = e.defrag.defragmented, d["defrag_reason"] = e.defrag.reason;
        d["pagerank_iterations"] = e.pagerank.iterations, d["pagerank_converged"] = e.pagerank.converged;
        return d;
      })
      .def("scores", [](const stream& s) { return owned(s.scores().score); })
      .def("top", [](const stream& s, std::size_t k) { return s.top(k); })
      .def("ids", [](const stream& s) { return owned(std::vector<std::int64_t>(s.ids())); })
      .def("edges", [](const stream& s) {
        fluxgraph::coo c = s.edges();
        return py::make_tuple(owned(std::move(c.src)), owned(std::move(c.dst)));
      })
      .def("totals", [](const stream& s) {
        const fluxgraph::stream_totals& t = s.totals();
        py::dict d;
        d["batches"] = t.batches, d["inserts"] = t.inserts, d["deletes"] = t.deletes, d["store_seconds"] = t.store_seconds;
        d["defragmentations"] = t.defragmentations, d["pr_iterations"] = t.pr_iterations, d["pr_seconds"] = t.pr_seconds;
        d["pr_restarts"] = t.pr_restarts, d["pr_bound"] = t.pr_bound, d["cold_seconds"] = t.cold_seconds;
        d["closure_seconds"] = t.closure_seconds;
        return d;
      })
      .def("closure_pairs", &stream::closure_pairs)
      .def("memory_use", [](const stream& s) { return memory_dict(s.memory_use()); })
      .def("recovery", [](const stream& s) {
        const fluxgraph::recovery_info r = s.recovery();
        py::dict d;
        d["durable"] = r.durable, d["batches"] = r.batches, d["edges_in"] = r.lines, d["snapshot_batch"] = r.snapshot_batch;
        d["replayed"] = r.replayed, d["torn_bytes"] = r.torn_bytes, d["lost_batches"] = r.lost_batches;
        d["warnings"] = r.warnings, d["seconds"] = r.seconds;
        return d;
      })
      .def("checkpoint", [](stream& s) {
        py::gil_scoped_release release;
        s.checkpoint();
      })
      .def("save", [](const stream& s, const std::string& path) {
        py::gil_scoped_release release;
        s.save(path);
      })
      .def("load", [](stream& s, const std::string& path) {
        py::gil_scoped_release release;
        s.load(path);
      })
      .def_property_readonly("num_vertices", &stream::num_vertices)
      .def_property_readonly("num_edges", &stream::num_edges)
      .def_property_readonly("backend", &stream::backend);
}
