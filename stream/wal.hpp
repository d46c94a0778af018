// The write-ahead log of a durable stream (docs/durability.md): a 32-byte file header, then one
// record per batch, each a 24-byte frame (magic, payload CRC-32, payload length, the frame's own
// CRC-32) and its payload. Little-endian. A damaged record with no whole record frame after it
// (cut short, zeros, garbage) is a torn tail and is dropped, unless the header counts it among the
// acknowledged records (stream/journal then refuses the log); one with records after it means
// acknowledged batches were damaged, and reading refuses the log.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fg {

/// One batch as the stream applied it, in dense ids.
struct wal_record {
  std::int64_t batch = 0;       ///< the stream's batch number, 1-based
  std::int64_t lines = 0;       ///< edge lines consumed through this batch (the producer's offset)
  std::int32_t vertices = 0;    ///< the graph has at least this many vertices after it
  bool inserts_first = false;   ///< batch_order::inserts_then_deletes (else deletes_first)
  std::vector<std::int64_t> new_ids;  ///< input ids of the dense ids this batch gave out, in order
  std::vector<std::int32_t> ins_src, ins_dst, del_src, del_dst;
};

/// Version 2 records in the header how many of the log's records were acknowledged (version 1,
/// still read, left that field 0).
constexpr std::uint32_t wal_version = 2;
constexpr std::size_t wal_header_bytes = 32;

/// The log file's header: the log holds batches after `base_batch`; `seeded`: batch 0 is not the
/// empty graph but a snapshot the stream started from (without it the log cannot be replayed);
/// `acked`: its first `acked` records were acknowledged and on the disk when the header was written
/// (the journal rewrites it in place as they are: docs/durability.md, "Acknowledged, and lost").
std::string wal_header(std::int64_t base_batch, bool seeded = false, std::uint32_t acked = 0);
/// Appends `r`'s frame and payload to `out`.
/// @throws fg::invalid_argument for an inconsistent record (lengths, negative ids)
void encode_record(const wal_record& r, std::string& out);

struct wal_scan {
  std::int64_t base_batch = 0;
  bool seeded = false;  ///< wal_header's flag
  std::vector<wal_record> records;
  std::size_t valid_bytes = 0;  ///< the header and the whole records: where the next one goes
  std::size_t torn_bytes = 0;   ///< a torn last record (or header), dropped
  std::int64_t acked = 0;       ///< records the header says were acknowledged (0: version 1)
  std::uint32_t version = 0;    ///< the header's (0: no whole header)
};
/// @brief Parses a log's bytes (`name` in messages). A torn header gives no records and
///        valid_bytes 0 (the log is to be written afresh).
/// @throws fg::input_error "NAME:0: what" for another format or version, or a corrupted record
///         that is not the last thing in the file
wal_scan scan_wal(const std::string& name, const char* data, std::size_t n);
/// scan_wal of a file's bytes. @throws fg::input_error when it cannot be read
wal_scan read_wal(const std::string& path);

}  // namespace fg
