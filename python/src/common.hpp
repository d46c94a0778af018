// Helpers the pybind11 layer's files share (python/src/module.cpp, stream.cpp).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <utility>
#include <vector>

#include "fluxgraph/fluxgraph.hpp"

namespace py = pybind11;

// A NumPy array that owns `v` (moved into a capsule): no copy of the result.
template <class T>
inline py::array_t<T> owned(std::vector<T>&& v) {
  auto* heap = new std::vector<T>(std::move(v));
  py::capsule free(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({heap->size()}, {sizeof(T)}, heap->data(), free);
}

inline fluxgraph::device device_of(const std::string& d) {
  if (d == "auto") return fluxgraph::device::automatic;
  if (d == "cpu") return fluxgraph::device::cpu;
  if (d == "cuda") return fluxgraph::device::cuda;
  throw py::value_error("device must be 'auto', 'cpu' or 'cuda', got '" + d + "'");
}

/// memory_use() as a dict: "parts" {name: bytes}, "total" (their sum), "bytes_per_edge", the
/// allocator's "in_use" and "peak", "csr_bytes" (one orientation's CSR) and "host_ids".
inline py::dict memory_dict(const fluxgraph::memory_report& r) {
  py::dict parts, d;
  for (const auto& p : r.parts) parts[py::str(p.name)] = p.bytes;
  d["vertices"] = r.vertices, d["edges"] = r.edges, d["parts"] = parts, d["total"] = r.total();
  d["bytes_per_edge"] = r.per_edge(r.total()), d["in_use"] = r.in_use, d["peak"] = r.peak;
  d["csr_bytes"] = r.packed, d["host_ids"] = r.host_ids;
  return d;
}

/// fluxgraph.Stream's C++ half (python/src/stream.cpp).
void register_stream(py::module_& m);
/// fluxgraph.pointsto's C++ half (python/src/analyses.cpp).
void register_analyses(py::module_& m);
/// fluxgraph.Graph's graph applications (python/src/apps.cpp).
void register_apps(py::class_<fluxgraph::graph>& g);
