// Store snapshots: a graph's edges as CSR (and, when the edges came with other ids, each dense
// vertex's id) in one versioned binary file with a checksum per section (docs/snapshot.md).
// Saving is atomic (a temporary file, fsync, rename, fsync of the folder); loading checks every
// byte before anything is built, so a wrong, truncated or corrupted file is an input_error and
// never half a graph. Host only.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace fg {

struct snapshot {
  std::int64_t vertices = 0;
  bool weighted = false;
  std::vector<std::int64_t> row_ptr;      ///< vertices + 1 entries, row_ptr[0] = 0
  std::vector<std::int32_t> col;          ///< row_ptr[vertices] entries, each in [0, vertices)
  std::vector<double> val;                ///< weighted: one finite value per entry
  std::vector<std::int64_t> original_id;  ///< empty, or one id per vertex
  /// A durable stream's position when it was taken (stream/journal.hpp): batches applied and
  /// edge lines consumed; -1: not a stream's snapshot.
  std::int64_t stream_batches = -1;
  std::int64_t stream_lines = 0;
};

/// The snapshot format's version that this build writes and reads.
constexpr std::uint32_t snapshot_version = 1;

/// The row of every entry (the sources of the edges, in entry order): what a store is built from.
std::vector<std::int32_t> entry_rows(const snapshot& s);

/// @brief Writes `s` to `path` atomically (the old file, if any, stays whole until the rename).
/// @throws fg::error naming the path and the system's reason (a full disk, say); no file is left
///         behind but the old one. fg::invalid_argument when `s` is inconsistent.
void write_snapshot(const std::string& path, const snapshot& s);
/// @brief Reads and checks a snapshot.
/// @throws fg::input_error "PATH:0: what" (not a snapshot, another version, truncated, a checksum
///         that does not match, ids or offsets out of range, trailing bytes).
snapshot read_snapshot(const std::string& path);
/// Whether the file at `path` begins as a snapshot does (its magic bytes): graph readers take it
/// as one instead of parsing it as text.
bool looks_like_snapshot(const std::string& path);

}  // namespace fg
