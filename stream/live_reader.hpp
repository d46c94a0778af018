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
#include "stream/stream_session.hpp"
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

/// One batch of live input, in dense ids: the public type (include/fluxgraph/live.hpp).
using live_batch = fluxgraph::live_batch;

/// @brief A parsed batch to dense ids (interning insert ids in line order), with the line-order
///        rule of live_batch::inserts. `out.number` and `out.arrived` are left to the caller.
void to_dense(const raw_edges& raw, id_map& ids, live_batch& out);

struct live_options {
  input_format format = input_format::text;
  batch_cutter cut;
  bool skip_bad = false;          ///< skip bad lines (on_skip hears of each) instead of stopping there
  std::string name = "<stdin>";   ///< the input's name in messages
  /// A skipped line's message ("NAME:LINE: what"); called on the reader's thread.
  std::function<void(const std::string&)> on_skip;
  std::size_t queue = 4;          ///< parsed batches waiting at most; the reader then waits too
  std::size_t chunk = 1 << 20;    ///< bytes per read()
  std::vector<std::int64_t> known_ids;  ///< input ids with dense ids 0, 1, ... already (distinct, >= 0)
};

/// Where the reader's two threads spent their time: the public type (include/fluxgraph/live.hpp).
using live_reader_times = fluxgraph::live_times;

class live_reader {
 public:
  /// @brief Starts reading `fd` on a thread of its own. The descriptor stays open (the caller's).
  live_reader(int fd, live_options opt);
  /// Stops the thread, even one waiting for input that never comes.
  ~live_reader();
  live_reader(const live_reader&) = delete;
  live_reader& operator=(const live_reader&) = delete;

  /// @brief The next batch, waiting for it; false after the last one.
  /// @throws fg::input_error "NAME:LINE: what" for a bad line when not skip_bad, once every batch
  ///         before the bad line's was handed out (the bad line's batch is dropped whole);
  ///         fg::error for a read error or too many vertices.
  bool next(live_batch& out);
  /// Bad lines skipped so far (skip_bad).
  std::int64_t skipped() const noexcept;
  /// The threads' times so far (read after next() returned false for a stable answer).
  live_reader_times times() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace fg
