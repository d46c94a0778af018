// Live input for a fluxgraph::stream: edges read from a file descriptor (a pipe, standard input,
// a socket) as they arrive, cut into batches by size or by delay, parsed and mapped to dense ids on
// threads of their own, so that reading the next batches overlaps with applying this one.
//
//   fluxgraph::live_options o;
//   o.known_ids = s.ids();  // the stream's ids so far: the reader numbers new ones after them
//   fluxgraph::live_reader in(STDIN_FILENO, o);
//   for (fluxgraph::live_batch b; in.next(b);) s.apply(b);
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fluxgraph/stream.hpp"

namespace fluxgraph {

/// text: 'u v', '+ u v' (insert), '- u v' (delete), 'u v w' (a weight, checked), '#'/'%' comments;
/// bin32 / bin64: little-endian (u, v) pairs of int32 / int64, inserts only. Ids >= 0.
enum class input_format { text, bin32, bin64 };

struct live_options {
  input_format format = input_format::text;
  std::size_t batch_edges = 100000;  ///< a batch is cut at this many edges (inserts + deletes) ...
  double max_delay = 0.01;           ///< ... or this many seconds after its first edge arrived
  bool skip_bad = false;             ///< skip bad lines (on_skip hears of each) instead of stopping
  std::string name = "<stdin>";      ///< the input's name in messages
  /// A skipped line's message ("NAME:LINE: what"), called on the reader's thread.
  std::function<void(const std::string&)> on_skip;
  /// Input ids that have dense ids 0, 1, ... already (a recovered stream's stream::ids()): new ids
  /// continue after them.
  std::vector<std::int64_t> known_ids;
};

/// One batch of live input, in dense ids: vertices get ids 0, 1, ... in the order their input ids
/// first appear in an insert.
struct live_batch {
  std::int64_t number = 0;            ///< 1-based
  /// For stream::apply (batch_order::deletes_first). The lines' order is kept: an insert that a
  /// later delete of the same edge in this batch undoes is dropped here, so the store ends as if
  /// the lines were applied one by one. A delete naming an id no insert named before it is dropped.
  edge_list inserts, deletes;
  std::size_t insert_lines = 0, delete_lines = 0;  ///< edges as read
  std::vector<std::int64_t> new_ids;  ///< input ids of the dense ids this batch gave out, in order
  std::int32_t vertices = 0;          ///< dense ids given out so far (this batch's included)
  std::int64_t first_line = 0, last_line = 0;     ///< text: line numbers; binary: pair numbers
  std::chrono::steady_clock::time_point arrived;  ///< when its first edge was read
};

/// Where the reader's two threads spent their time, in seconds (a stream's bottleneck is the
/// stage that never waits).
struct live_times {
  double parse = 0;           ///< reader: parsing and cutting
  double input_wait = 0;      ///< reader: waiting for input and reading it
  double reader_blocked = 0;  ///< reader: waiting for room in the queue to the mapper
  double map = 0;             ///< mapper: input ids to dense ids
  double mapper_blocked = 0;  ///< mapper: waiting for room in the queue to next()
};

class live_reader {
 public:
  /// @brief Starts reading `fd` on threads of its own; the descriptor stays the caller's.
  /// @throws fluxgraph::invalid_argument for batch_edges 0 or max_delay outside [0, 1e6] seconds
  live_reader(int fd, const live_options& opt);
  /// Stops the threads, even one waiting for input that never comes.
  ~live_reader();
  live_reader(const live_reader&) = delete;
  live_reader& operator=(const live_reader&) = delete;

  /// @brief The next batch, waiting for it; false after the last one.
  /// @throws fluxgraph::input_error "NAME:LINE: what" for a bad line (unless skip_bad), once every
  ///         batch before the bad line's was handed out; fluxgraph::error for a read error.
  bool next(live_batch& out);
  /// Bad lines skipped so far (skip_bad).
  std::int64_t skipped() const noexcept;
  /// The threads' times so far (stable once next() returned false).
  live_times times() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace fluxgraph
