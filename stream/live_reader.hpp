// Live input for a stream_session: edges read from a file descriptor (a pipe, standard input) as
// they arrive, cut into batches by size or by delay, on a thread of their own, so that parsing the
// next batch overlaps with applying this one.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "stream/id_map.hpp"
#include "fluxgraph/live.hpp"
#include "loaders/edge_parser.hpp"

namespace fg {

/// @brief When a batch is cut: at `max_edges` edges (inserts + deletes), or `max_delay` seconds
///        after its first edge arrived (a slow stream still reaches the store), or at the end of the
///        input. Times are seconds on any one clock (tests use a fake one). (live_reader holds a
///        batch due by delay back while an earlier one still waits to be applied: under load it
///        grows toward max_edges instead of queueing behind that one.)
struct batch_cutter {
  std::size_t max_edges = 1;
  double max_delay = 0.01;

  bool full(std::size_t edges) const noexcept { return edges >= max_edges; }
  /// The batch of `edges` edges, the first of which arrived at `first`, is to be cut at `now`.
  bool due(std::size_t edges, double first, double now) const noexcept {
    return edges > 0 && (full(edges) || now - first >= max_delay);
  }
  /// How long the reader may wait for input before the batch is due; < 0: no limit (no edge yet).
  double wait(std::size_t edges, double first, double now) const noexcept {
    return edges == 0 ? -1.0 : std::max(0.0, max_delay - (now - first));
  }
};

/// One batch of live input, in dense ids: the public type (include/fluxgraph/reports.hpp).
using live_batch = fluxgraph::live_batch;

/// @brief A parsed batch to dense ids (interning insert ids in line order), with the line-order
///        rule of live_batch::inserts. `out.number` and `out.arrived` are left to the caller.
void to_dense(const raw_edges& raw, id_map& ids, live_batch& out);

// The reader's options and the reader itself are the public ones (include/fluxgraph/options.hpp,
// live.hpp); stream/live_reader.cpp implements fluxgraph::live_reader.
using fluxgraph::live_options;
using fluxgraph::live_reader;
using fluxgraph::edge_list;
using live_reader_times = fluxgraph::live_times;

}  // namespace fg
