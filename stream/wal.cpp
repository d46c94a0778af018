// The write-ahead log's bytes (stream/wal.hpp, docs/durability.md).
#include "stream/wal.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/error.hpp"
#include "loaders/durable_io.hpp"

namespace fg {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the log format is little-endian");

namespace {
constexpr char magic[8] = {'F', 'G', 'W', 'A', 'L', '\r', '\n', '\0'};
constexpr std::uint32_t record_magic = 0x31524746;  // "FGR1"
constexpr std::int64_t max_batch = std::int64_t(1) << 62;  // batch numbers stay far from overflow

struct file_header {
  char magic[8];
  std::uint32_t version, flags;
  std::int64_t base_batch;
  std::uint32_t acked, crc;  ///< acked: records acknowledged (version 1: 0); crc: of the 32 bytes, this field read as 0
};
static_assert(sizeof(file_header) == wal_header_bytes);

struct frame {
  std::uint32_t magic, payload_crc;
  std::uint64_t bytes;      ///< the payload's
  std::uint32_t crc, pad;   ///< crc: of the 24 frame bytes, this field read as 0
};
static_assert(sizeof(frame) == 24);

struct fixed_part {  // the payload's first 48 bytes; the arrays follow
  std::int64_t batch, lines;
  std::int32_t vertices;
  std::uint32_t flags;  ///< bit 0: inserts first
  std::uint64_t ids, inserts, deletes;
};
static_assert(sizeof(fixed_part) == 48);

template <class T>
std::uint32_t crc_with_zero(T t, std::uint32_t T::*field) {
  t.*field = 0;
  return crc32_of(&t, sizeof t);
}

template <class T>
void put(std::string& out, const std::vector<T>& v) {
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// What a record may hold: dense inserts below `vertices` (the store grows to hold them); deletes of
// any id >= 0 (one past the store deletes nothing, as the store does); input ids >= 0. encode_record
// refuses what decode would: a record that cannot be read back is never written.
bool valid(const wal_record& r) {
  const auto below = [&](const std::vector<std::int32_t>& v) {
    return std::all_of(v.begin(), v.end(), [&](std::int32_t x) { return x >= 0 && x < r.vertices; });
  };
  const auto nonneg = [](const auto& v) { return std::all_of(v.begin(), v.end(), [](auto x) { return x >= 0; }); };
  return r.batch > 0 && r.batch < max_batch && r.lines >= 0 && r.vertices >= 0 && below(r.ins_src) && below(r.ins_dst) &&
         nonneg(r.del_src) && nonneg(r.del_dst) && nonneg(r.new_ids);
}

// The payload after its frame was checked; false when its contents are impossible.
bool decode(const char* p, std::size_t n, wal_record& r) {
  fixed_part f;
  if (n < sizeof f) return false;
  std::memcpy(&f, p, sizeof f);
  const std::uint64_t limit = n;  // each count is bounded by the bytes before the sum is formed
  if (f.ids > limit / 8 || f.inserts > limit / 8 || f.deletes > limit / 8) return false;
  if (sizeof f + 8 * (f.ids + f.inserts + f.deletes) != n) return false;
  if ((f.flags & ~1u) != 0) return false;
  r.batch = f.batch, r.lines = f.lines, r.vertices = f.vertices, r.inserts_first = (f.flags & 1u) != 0;
  p += sizeof f;
  const auto take = [&p](auto& v, std::uint64_t count) {
    v.resize(count);
    if (count > 0) std::memcpy(v.data(), p, count * sizeof(v[0]));  // (an empty vector's data() may be null)
    p += count * sizeof(v[0]);
  };
  take(r.new_ids, f.ids);
  take(r.ins_src, f.inserts), take(r.ins_dst, f.inserts);
  take(r.del_src, f.deletes), take(r.del_dst, f.deletes);
  return valid(r);
}

bool all_zero(const char* p, std::size_t n) { return std::all_of(p, p + n, [](char c) { return c == 0; }); }

// A frame as encode_record writes it: its checksum holds and its pad is zero (a pad the checksum
// covers but the writer never sets would read as a record no encoding gives back).
bool whole(const frame& f) { return f.pad == 0 && f.crc == crc_with_zero(f, &frame::crc); }

// Whether a whole record frame (magic and its own checksum) starts anywhere in [p, p + n): after a
// damaged record, one means records were lost in the middle, none means the damage is the tail.
bool frame_follows(const char* p, std::size_t n) {
  for (std::size_t i = 0; i + sizeof(frame) <= n; ++i) {
    if (std::memcmp(p + i, &record_magic, 4) != 0) continue;
    frame f;
    std::memcpy(&f, p + i, sizeof f);
    if (whole(f)) return true;
  }
  return false;
}
}  // namespace

std::string wal_header(std::int64_t base_batch, bool seeded, std::uint32_t acked) {
  FG_EXPECTS(base_batch >= 0 && base_batch < max_batch, "wal: a base batch out of range");
  file_header h{};
  std::memcpy(h.magic, magic, 8);
  h.version = wal_version;
  h.flags = seeded ? 1u : 0u;
  h.base_batch = base_batch;
  h.acked = acked;
  h.crc = crc_with_zero(h, &file_header::crc);
  return std::string(reinterpret_cast<const char*>(&h), sizeof h);
}

void encode_record(const wal_record& r, std::string& out) {
  FG_EXPECTS(r.ins_src.size() == r.ins_dst.size() && r.del_src.size() == r.del_dst.size(), "wal: src and dst differ in length");
  FG_EXPECTS(valid(r), "wal: batch " + std::to_string(r.batch) + ": a record that could not be read back (a negative "
                       "position or id, or an insert past its vertex count)");
  const fixed_part f{r.batch, r.lines, r.vertices, r.inserts_first ? 1u : 0u,
                     r.new_ids.size(), r.ins_src.size(), r.del_src.size()};
  std::string payload(reinterpret_cast<const char*>(&f), sizeof f);
  payload.reserve(sizeof f + 8 * (f.ids + f.inserts + f.deletes));
  put(payload, r.new_ids), put(payload, r.ins_src), put(payload, r.ins_dst), put(payload, r.del_src), put(payload, r.del_dst);
  frame fr{record_magic, crc32_of(payload.data(), payload.size()), payload.size(), 0, 0};
  fr.crc = crc_with_zero(fr, &frame::crc);
  out.append(reinterpret_cast<const char*>(&fr), sizeof fr);
  out += payload;
}

wal_scan scan_wal(const std::string& name, const char* data, std::size_t n) {
  wal_scan s;
  const auto fail = [&](std::size_t at, const std::string& what) -> void {
    throw input_error(name, 0, "byte " + std::to_string(at) + ": " + what);
  };
  if (n < sizeof(file_header)) {  // created, never finished: the writer dies before its first record
    if (n > 0 && std::memcmp(data, magic, std::min<std::size_t>(n, 8)) != 0 && !all_zero(data, n))
      fail(0, "not a fluxgraph log");
    s.torn_bytes = n;
    return s;
  }
  file_header h;
  std::memcpy(&h, data, sizeof h);
  if (std::memcmp(h.magic, magic, 8) != 0) fail(0, "not a fluxgraph log");
  if (h.crc != crc_with_zero(h, &file_header::crc)) fail(0, "the log's header is corrupted (checksum mismatch)");
  if (h.version != 1 && h.version != wal_version)
    fail(0, "log version " + std::to_string(h.version) + ": this fluxgraph reads versions 1 and " + std::to_string(wal_version));
  if (h.base_batch < 0 || h.base_batch >= max_batch || (h.flags & ~1u) != 0 || (h.version == 1 && h.acked != 0))
    fail(0, "the log's header holds impossible values");
  s.base_batch = h.base_batch;
  s.acked = h.acked;
  s.version = h.version;
  s.seeded = (h.flags & 1u) != 0;
  std::size_t at = sizeof h;
  std::int64_t expect = h.base_batch + 1, lines = 0;
  while (at < n) {
    const std::size_t left = n - at;
    frame f;
    if (left < sizeof f) break;  // torn frame
    std::memcpy(&f, data + at, sizeof f);
    // A damaged frame or payload is a torn tail when no whole frame follows it (the last write,
    // cut short or left as zeros by the system); with one after it, records were lost: refused.
    if (f.magic != record_magic || !whole(f)) {
      if (!frame_follows(data + at + 1, left - 1)) break;
      fail(at, "a corrupted record frame, with records after it");
    }
    if (f.bytes > left - sizeof f) break;  // torn payload
    const char* payload = data + at + sizeof f;
    wal_record r;
    if (crc32_of(payload, f.bytes) != f.payload_crc) {
      if (!frame_follows(payload, left - sizeof f)) break;
      fail(at, "record checksum mismatch (corrupted), with records after it");
    }
    if (!decode(payload, f.bytes, r)) fail(at, "a record with impossible contents");
    if (r.batch != expect) fail(at, "record of batch " + std::to_string(r.batch) + " where batch " + std::to_string(expect) + " was due");
    if (r.lines < lines) fail(at, "the line count goes back");
    ++expect, lines = r.lines;
    s.records.push_back(std::move(r));
    at += sizeof f + f.bytes;
  }
  s.valid_bytes = at;
  s.torn_bytes = n - at;
  return s;
}

wal_scan read_wal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path, 0, std::string("cannot open file: ") + std::strerror(errno));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw input_error(path, 0, "read error");
  return scan_wal(path, bytes.data(), bytes.size());
}

}  // namespace fg
