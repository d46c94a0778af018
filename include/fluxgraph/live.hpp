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
