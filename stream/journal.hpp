// The durability of a stream (docs/durability.md): a folder holding snapshots of the store
// (snap-B.fgsnap: the graph from batch B on, copied over the batches after it, loaders/snapshot.hpp)
// and write-ahead logs (log-B.wal: the batches after B, stream/wal.hpp). Every batch is appended to the log (and, by
// the sync mode, made durable) before the stream acknowledges it; every N batches (or log bytes)
// a snapshot is written and the logs it makes useless are removed, keeping the snapshot before it
// and the log from there, so that a snapshot found corrupted is recovered from the one before.
// On start the journal finds the newest snapshot that reads whole and the log records after it.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fluxgraph/options.hpp"
#include "fluxgraph/reports.hpp"
#include "loaders/snapshot.hpp"
#include "stream/wal.hpp"

namespace fg {

// A journal's folder, sync rule and snapshot spacing: the public type (include/fluxgraph/options.hpp).
using fluxgraph::durability_options;
using fluxgraph::sync_mode;

/// What the journal found on start: the snapshot to build from and the batches to replay after it.
struct journal_recovery {
  snapshot base;                    ///< stream_batches: the batch it holds (0 and empty: none)
  std::string snapshot_path;        ///< empty when none was used
  std::vector<wal_record> records;  ///< batches base + 1, base + 2, ... in order
  std::int64_t torn_bytes = 0;      ///< a torn last record, dropped
  std::int64_t lost_batches = 0;    ///< acknowledged batches a damaged log lost (durability_options::accept_loss)
  std::vector<std::string> warnings;  ///< corrupted snapshots passed over, torn records dropped
};

/// What `fluxgraph wal check DIR` reports: the public type (include/fluxgraph/reports.hpp).
using journal_health = fluxgraph::wal_health;

class journal {
 public:
  /// @brief Reads every snapshot and log of a journal's folder and runs the recovery a start would,
  ///        taking no lock and changing nothing (a stream may be running on it).
  /// @throws fg::error when `dir` is not a folder
  static journal_health check(const std::string& dir);
  /// @brief Opens (or creates) the folder, locks it and reads what it holds.
  /// @throws fg::error for a folder in use, unreadable, or whose history cannot be rebuilt (a
  ///         corrupted record before the end of a log, batches missing, no usable snapshot and no
  ///         log from the start): never a silently shorter stream.
  explicit journal(const durability_options& opt);
  ~journal();
  journal(const journal&) = delete;
  journal& operator=(const journal&) = delete;

  /// The recovered state (once: moved out).
  journal_recovery take_recovery();
  /// @brief Appends one batch (the next batch number) and syncs it as the mode says.
  /// @throws fg::error naming the log and the system's reason (a full disk); the log is cut back
  ///         to before the record, so the batch is not in the journal and must not be acknowledged.
  void append(const wal_record& r);
  /// Whether the batches or log bytes since the last snapshot call for one (never while one is
  /// being written: the stream does not wait for it; the log grows meanwhile).
  bool snapshot_due() const noexcept;
  /// @brief Starts a log after the last appended batch and writes `s` (s.stream_batches: that
  ///        batch) as the newest snapshot on a thread of its own, then removes what no recovery
  ///        needs any more: the stream goes on meanwhile (a snapshot of 10^7 edges takes a second
  ///        to checksum, write and sync). Until it is whole, recovery uses the snapshot before and
  ///        the logs from there. One snapshot is written at a time: a second waits for the first.
  /// @throws fg::error for the snapshot before, if it failed (a full disk: the log still holds
  ///         every batch; nothing is lost). A failure of this one is thrown by the next append(),
  ///         write_snapshot() or wait().
  void write_snapshot(snapshot s);
  /// @brief As write_snapshot(s), with the snapshot of batch `batch` built by `build` on the
  ///        snapshot's thread (a transposition, say: off the stream's thread too); `batch` is
  ///        the last appended one or the one begin_snapshot started.
  void write_snapshot(std::int64_t batch, std::function<snapshot()> build);
  /// @brief Starts the snapshot of the last appended batch, `batch`, whose contents come later
  ///        (write_snapshot(batch, build)): the log after it begins now, and no other snapshot is
  ///        due meanwhile. The contents may be gathered a part at a time between later batches,
  ///        each part as the graph was then: recovery replays the log from `batch` on, and each
  ///        edge's last insert or delete there decides it, whatever state a part caught
  ///        (docs/durability.md, "Snapshots a part at a time"). False: that snapshot is whole.
  /// @throws as write_snapshot.
  bool begin_snapshot(std::int64_t batch);
  /// Forgets a snapshot begun and not written (the logs hold every batch since the one before).
  void drop_snapshot() noexcept;
  /// @brief Waits for the snapshot being written, if any. @throws fg::error when it failed
  void wait();
  /// @brief Throws fg::error once a log write failed: from then on nothing is appended (the
  ///        stream is to be restarted, which recovers every acknowledged batch).
  void check() const;
  const std::string& dir() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};


}  // namespace fg
