// _fluxgraph: the pybind11 layer under the `fluxgraph` Python package (python/fluxgraph). It takes
// raw array addresses that the package has checked (dtype, length, contiguity, host or device) and
// calls the public C++ API with the GIL released; results come back as NumPy arrays that own the
// C++ vectors (no copy). Library errors become Python exceptions: BatchError and InputError are
// ValueErrors, out-of-memory a MemoryError, the rest fluxgraph.Error (a RuntimeError).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fluxgraph/fluxgraph.hpp"
#include "common.hpp"

namespace py = pybind11;
using fluxgraph::graph;

namespace {

fluxgraph::semiring semiring_of(const std::string& s) {
  if (s == "plus_times") return fluxgraph::semiring::plus_times;
  if (s == "min_plus") return fluxgraph::semiring::min_plus;
  if (s == "or_and") return fluxgraph::semiring::or_and;
  throw py::value_error("semiring must be 'plus_times', 'min_plus' or 'or_and', got '" + s + "'");
}

// One side of a batch as the package hands it over: addresses, length, id width, memory.
struct side {
  std::uintptr_t src = 0, dst = 0, weight = 0;
  std::size_t size = 0;
  int bits = 64;
  bool on_device = false;
  bool present = false;
};

template <class I>
fluxgraph::edge_span<I> span_of(const side& s) {
  return {reinterpret_cast<const I*>(s.src), reinterpret_cast<const I*>(s.dst), s.size,
          reinterpret_cast<const double*>(s.weight), s.on_device ? fluxgraph::memory::device : fluxgraph::memory::host};
}

py::dict result_of(const fluxgraph::batch_result& r) {
  py::dict d;
  d["batch"] = r.batch;
  d["inserted"] = r.inserted;
  d["deleted"] = r.deleted;
  d["vertices"] = r.vertices;
  d["edges"] = r.edges;
  return d;
}

// insert (del absent), erase (ins absent) or a mixed batch; both sides have the same id width.
fluxgraph::batch_result apply(graph& g, const side& ins, const side& del) {
  py::gil_scoped_release release;
  const int bits = ins.present ? ins.bits : del.bits;
  if (bits == 32) {
    if (ins.present && del.present) return g.apply(span_of<std::int32_t>(ins), span_of<std::int32_t>(del));
    return ins.present ? g.insert(span_of<std::int32_t>(ins)) : g.erase(span_of<std::int32_t>(del));
  }
  if (ins.present && del.present) return g.apply(span_of<std::int64_t>(ins), span_of<std::int64_t>(del));
  return ins.present ? g.insert(span_of<std::int64_t>(ins)) : g.erase(span_of<std::int64_t>(del));
}

py::tuple csr_tuple(fluxgraph::csr&& c) {
  py::object val = c.val.empty() ? py::object(py::none()) : py::object(owned(std::move(c.val)));
  return py::make_tuple(owned(std::move(c.row_ptr)), owned(std::move(c.col)), val, c.rows, c.cols);
}

py::dict info_of(const fluxgraph::pagerank_result& r) {
  py::dict info;
  info["iterations"] = r.iterations;
  info["converged"] = r.converged;
  info["last_change"] = r.last_change;
  info["warm_started"] = r.warm_started;
  info["seconds"] = r.seconds;
  info["kernel"] = r.kernel;
  info["kernel_reason"] = r.kernel_reason;
  info["mixed_reads"] = r.mixed_reads;
  return info;
}

py::dict info_of(const fluxgraph::closure_info& i) {
  py::dict d;
  d["pairs"] = i.pairs;
  d["iterations"] = i.iterations;
  d["seconds"] = i.seconds;
  d["peak_bytes"] = i.peak_bytes;
  return d;
}

void register_errors(py::module_& m) {
  // Translators run newest first: the base class is registered before the classes derived from it.
  static py::exception<fluxgraph::error> error(m, "Error", PyExc_RuntimeError);
  static py::exception<fluxgraph::batch_error> batch(m, "BatchError", PyExc_ValueError);
  static py::exception<fluxgraph::input_error> input(m, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const fluxgraph::batch_error& e) {
      batch(e.what());
    } catch (const fluxgraph::input_error& e) {
      input(e.what());
    } catch (const fluxgraph::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const fluxgraph::out_of_memory& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const fluxgraph::error& e) {
      error(e.what());
    }
  });
}

}  // namespace

PYBIND11_MODULE(_fluxgraph, m) {
  m.doc() = "fluxgraph's C++ layer; use the fluxgraph package";
  register_errors(m);
  m.attr("__version__") = fluxgraph::version();
  m.attr("build") = fluxgraph::build_backend();

  py::class_<side>(m, "_Side")
      .def(py::init<>())
      .def(py::init([](std::uintptr_t src, std::uintptr_t dst, std::uintptr_t w, std::size_t n, int bits, bool dev) {
        return side{src, dst, w, n, bits, dev, true};
      }));

  py::class_<graph> g(m, "_Graph");
  g
      .def(py::init([](std::int64_t n, bool weighted, const std::string& device, bool renumber) {
        fluxgraph::graph_options o;
        o.weighted = weighted;
        o.where = device_of(device);
        o.ids = renumber ? fluxgraph::vertex_ids::renumber : fluxgraph::vertex_ids::dense;
        return graph(n, o);
      }))
      .def_property_readonly("renumbered", &graph::renumbered)
      .def("ids", [](const graph& g) { return owned(g.ids()); })
      .def("apply", [](graph& g, const side& ins, const side& del) { return result_of(apply(g, ins, del)); })
      .def("resize", &graph::resize, py::call_guard<py::gil_scoped_release>())
      .def("add_vertices", &graph::add_vertices, py::call_guard<py::gil_scoped_release>())
      .def("defragment", &graph::defragment, py::call_guard<py::gil_scoped_release>())
      .def("maybe_defragment", [](graph& g, double reads) {
        fluxgraph::defrag_decision d;
        {
          py::gil_scoped_release release;
          d = g.maybe_defragment(reads);
        }
        return py::make_tuple(d.defragmented, d.reason);
      })
      .def_property_readonly("num_vertices", &graph::num_vertices)
      .def_property_readonly("num_edges", &graph::num_edges)
      .def_property_readonly("weighted", &graph::weighted)
      .def_property_readonly("backend", &graph::backend)
      .def_property_readonly("version", &graph::version)
      .def("out_degree", [](const graph& g) { return owned(g.out_degree()); })
      .def("memory_use", [](const graph& g) { return memory_dict(g.memory_use()); })
      .def("neighbors", [](const graph& g, std::int64_t v) { return owned(g.neighbors(v)); })
      .def("to_csr", [](const graph& g) {
        fluxgraph::csr c;
        {
          py::gil_scoped_release release;
          c = g.to_csr();
        }
        return csr_tuple(std::move(c));
      })
      .def("spmv", [](const graph& g, std::uintptr_t x, std::uintptr_t y, const std::string& s, bool on_device) {
        const fluxgraph::semiring sr = semiring_of(s);
        py::gil_scoped_release release;
        g.spmv(reinterpret_cast<const double*>(x), reinterpret_cast<double*>(y), sr,
               on_device ? fluxgraph::memory::device : fluxgraph::memory::host);
      })
      .def("pagerank", [](graph& g, double damping, double tol, int max_iter, bool weighted, bool warm,
                          const std::string& kernel, bool mixed) {
        fluxgraph::pagerank_options o;
        o.damping = damping, o.tol = tol, o.max_iter = max_iter, o.weighted = weighted, o.warm = warm, o.kernel = kernel;
        o.mixed_precision = mixed;
        fluxgraph::pagerank_result r;
        {
          py::gil_scoped_release release;
          r = g.pagerank(o);
        }
        py::dict info = info_of(r);
        return py::make_tuple(owned(std::move(r.score)), info);
      })
      .def("personalized_pagerank", [](graph& g, const std::vector<std::vector<std::int64_t>>& sets, double damping, double tol,
                                       int max_iter, bool weighted, const std::string& kernel) {
        fluxgraph::pagerank_options o;
        o.damping = damping, o.tol = tol, o.max_iter = max_iter, o.weighted = weighted, o.kernel = kernel;
        std::vector<fluxgraph::pagerank_result> r;
        {
          py::gil_scoped_release release;
          r = g.personalized_pagerank(sets, o);
        }
        py::list scores, infos;
        for (fluxgraph::pagerank_result& one : r) {
          infos.append(info_of(one));
          scores.append(owned(std::move(one.score)));
        }
        return py::make_tuple(scores, infos);
      })
      .def("closure", [](const graph& g) {
        fluxgraph::closure_info i;
        graph plus = [&] {
          py::gil_scoped_release release;
          return g.closure(&i);
        }();
        return py::make_tuple(std::move(plus), info_of(i));
      })
      .def("save", [](const graph& g, const std::string& path, const std::vector<std::int64_t>& ids) {
        py::gil_scoped_release release;
        g.save(path, ids);
      })
      .def("reach", [](const graph& g, const std::vector<std::int64_t>& sources) {
        fluxgraph::closure_info i;
        fluxgraph::csr c;
        {
          py::gil_scoped_release release;
          c = g.reach(sources, &i);
        }
        return py::make_tuple(csr_tuple(std::move(c)), info_of(i));
      });
  register_apps(g);

  register_stream(m);
  register_analyses(m);
  m.def("transfers", [] {
    const fluxgraph::transfer_counts c = fluxgraph::transfers();
    py::dict d;
    d["to_device"] = c.to_device;
    d["to_host"] = c.to_host;
    return d;
  }, "Bytes fluxgraph copied host -> device and device -> host since the program started.");
  m.def("_load", [](const std::string& path, const std::string& device, bool renumber) {
    fluxgraph::graph_options o;
    o.where = device_of(device);
    o.ids = renumber ? fluxgraph::vertex_ids::renumber : fluxgraph::vertex_ids::dense;
    std::vector<std::int64_t> ids;
    graph g = [&] {
      py::gil_scoped_release release;
      return fluxgraph::load(path, o, &ids);
    }();
    return py::make_tuple(std::move(g), owned(std::move(ids)));
  });
  m.def("_read", [](const std::string& path, bool weighted, const std::string& device, bool keep_ids) {
    fluxgraph::graph_options o;  // renumbering unless keep_ids (read() makes that graph dense)
    o.weighted = weighted;
    o.where = device_of(device);
    std::vector<std::int64_t> ids;
    graph g = [&] {
      py::gil_scoped_release release;
      return fluxgraph::read(path, o, &ids, keep_ids);
    }();
    return py::make_tuple(std::move(g), owned(std::move(ids)));
  });
}
