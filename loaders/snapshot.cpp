// The snapshot format (docs/snapshot.md): a 48-byte header, then the sections in a fixed order,
// each a 16-byte frame (tag, byte length, CRC-32 of the payload) and its payload. Little-endian.
#include "loaders/snapshot.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include "core/error.hpp"
#include "loaders/durable_io.hpp"

namespace fg {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the snapshot format is little-endian");

namespace {
constexpr char magic[8] = {'F', 'G', 'S', 'N', 'A', 'P', '\r', '\n'};  // "\r\n": a text-mode copy breaks it
constexpr std::uint32_t flag_weighted = 1, flag_ids = 2, flag_stream = 4;

struct header {
  char magic[8];
  std::uint32_t version, flags;
  std::int64_t vertices, edges;
  std::uint32_t sections, reserved;
  std::uint32_t crc;  ///< of the whole header, this field read as 0
  std::uint32_t pad;
};
static_assert(sizeof(header) == 48);

struct frame {
  char tag[4];
  std::uint32_t crc;
  std::uint64_t bytes;
};
static_assert(sizeof(frame) == 16);

std::uint32_t header_crc(header h) {
  h.crc = 0;
  return crc32_of(&h, sizeof h);
}

// --- writing -----------------------------------------------------------------------------------
struct writer {
  std::string path;
  int fd = -1;
  void put(const void* p, std::size_t n) { write_all(fd, p, n, path); }
  template <class T>
  void section(const char (&tag)[5], const std::vector<T>& v) {
    frame f{};
    std::memcpy(f.tag, tag, 4);
    f.bytes = v.size() * sizeof(T);
    f.crc = crc32_of(v.data(), f.bytes);
    put(&f, sizeof f);
    put(v.data(), f.bytes);
  }
};

void check_consistent(const snapshot& s) {
  FG_EXPECTS(s.vertices >= 0 && s.row_ptr.size() == std::size_t(s.vertices) + 1 && s.row_ptr[0] == 0 &&
                 s.row_ptr.back() == std::int64_t(s.col.size()),
             "snapshot: row_ptr does not describe col");
  FG_EXPECTS(!s.weighted || s.val.size() == s.col.size(), "snapshot: one value per entry needed");
  FG_EXPECTS(s.original_id.empty() || s.original_id.size() == std::size_t(s.vertices), "snapshot: one id per vertex needed");
  FG_EXPECTS(s.stream_batches >= -1 && s.stream_lines >= 0, "snapshot: a negative stream position");
}

// --- reading: the header first, then each section straight into its vector ----------------------
struct reader {
  std::string path;
  std::ifstream in;
  std::uint64_t size = 0, pos = 0;
  [[noreturn]] void fail(const std::string& what) const { throw input_error(path, 0, what); }
  void get(void* p, std::size_t n) {
    if (!in.read(static_cast<char*>(p), std::streamsize(n))) fail("read error");
    pos += n;
  }
  template <class T>
  std::vector<T> section(const char (&tag)[5], std::size_t count) {
    frame f;
    get(&f, sizeof f);
    if (std::memcmp(f.tag, tag, 4) != 0) fail(std::string("expected section '") + tag + "' at byte " + std::to_string(pos - sizeof f));
    if (f.bytes != count * sizeof(T))
      fail(std::string("section '") + tag + "' holds " + std::to_string(f.bytes) + " bytes, the header says " +
           std::to_string(count * sizeof(T)));
    std::vector<T> v(count);  // the header's sizes were checked against the file's: no giant buffer
    get(v.data(), f.bytes);
    if (crc32_of(v.data(), f.bytes) != f.crc) fail(std::string("section '") + tag + "': checksum mismatch (corrupted)");
    return v;
  }
};

void check_contents(const reader& r, const snapshot& s) {
  for (std::size_t v = 0; v + 1 < s.row_ptr.size(); ++v)
    if (s.row_ptr[v] > s.row_ptr[v + 1]) r.fail("row offsets decrease at vertex " + std::to_string(v));
  if (s.row_ptr.front() != 0 || s.row_ptr.back() != std::int64_t(s.col.size())) r.fail("row offsets do not span the entries");
  for (std::size_t i = 0; i < s.col.size(); ++i)
    if (s.col[i] < 0 || s.col[i] >= s.vertices) r.fail("entry " + std::to_string(i) + ": vertex " + std::to_string(s.col[i]) + " out of range");
  for (std::size_t i = 0; i < s.val.size(); ++i)
    if (!std::isfinite(s.val[i])) r.fail("entry " + std::to_string(i) + ": a value that is not finite");
}
}  // namespace

std::vector<std::int32_t> entry_rows(const snapshot& s) {
  std::vector<std::int32_t> rows(s.col.size());
  for (std::size_t v = 0; v + 1 < s.row_ptr.size(); ++v)
    std::fill(rows.begin() + s.row_ptr[v], rows.begin() + s.row_ptr[v + 1], std::int32_t(v));
  return rows;
}

void write_snapshot(const std::string& path, const snapshot& s) {
  check_consistent(s);
  // A name of its own (mkstemp): two saves to one path at once must not share a temporary.
  std::string tmp = path + ".tmpXXXXXX";
  writer w{path, ::mkstemp(tmp.data())};
  if (w.fd < 0) throw error("cannot write " + path + ": " + std::strerror(errno));
  ::fchmod(w.fd, 0644);
  try {
    header h{};
    std::memcpy(h.magic, magic, 8);
    h.version = snapshot_version;
    const bool stream = s.stream_batches >= 0;
    h.flags = (s.weighted ? flag_weighted : 0) | (s.original_id.empty() ? 0 : flag_ids) | (stream ? flag_stream : 0);
    h.vertices = s.vertices;
    h.edges = std::int64_t(s.col.size());
    h.sections = 2 + (s.weighted ? 1 : 0) + (s.original_id.empty() ? 0 : 1) + (stream ? 1 : 0);
    h.crc = header_crc(h);
    w.put(&h, sizeof h);
    w.section("ROWS", s.row_ptr);
    w.section("COLS", s.col);
    if (s.weighted) w.section("VALS", s.val);
    if (!s.original_id.empty()) w.section("IDS ", s.original_id);
    if (stream) w.section("STRM", std::vector<std::int64_t>{s.stream_batches, s.stream_lines});
    if (::fsync(w.fd) != 0) throw error("cannot write " + path + ": " + std::strerror(errno));
    if (::close(std::exchange(w.fd, -1)) != 0) throw error("cannot write " + path + ": " + std::strerror(errno));
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw error("cannot write " + path + ": " + std::strerror(errno));
  } catch (...) {
    if (w.fd >= 0) ::close(w.fd);
    std::remove(tmp.c_str());
    throw;
  }
  sync_folder_of(path);
}

bool looks_like_snapshot(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  return in.read(head, 8) && std::memcmp(head, magic, 8) == 0;
}

snapshot read_snapshot(const std::string& path) {
  reader r{path, std::ifstream()};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    r.fail(std::string("cannot open file: ") + (std::filesystem::exists(path, ec) ? "not a regular file" : std::strerror(ENOENT)));
  r.size = std::filesystem::file_size(path, ec);
  r.in.open(path, std::ios::binary);
  if (ec || !r.in) r.fail(std::string("cannot open file: ") + std::strerror(errno));
  if (r.size < sizeof(header)) r.fail("not a fluxgraph snapshot (too short for its header)");
  header h;
  r.get(&h, sizeof h);
  if (std::memcmp(h.magic, magic, 8) != 0) r.fail("not a fluxgraph snapshot");
  if (h.crc != header_crc(h)) r.fail("the header is corrupted (checksum mismatch)");
  if (h.version != snapshot_version)
    r.fail("snapshot version " + std::to_string(h.version) + ": this fluxgraph reads version " + std::to_string(snapshot_version));
  const bool weighted = (h.flags & flag_weighted) != 0, ids = (h.flags & flag_ids) != 0;
  const bool stream = (h.flags & flag_stream) != 0;
  if ((h.flags & ~(flag_weighted | flag_ids | flag_stream)) != 0 || h.vertices < 0 || h.vertices > 2147483647 || h.edges < 0 ||
      h.edges > (std::int64_t(1) << 50) || h.reserved != 0 || h.pad != 0 || h.sections != 2u + weighted + ids + stream)
    r.fail("the header holds impossible values");
  const std::uint64_t n = std::uint64_t(h.vertices), m = std::uint64_t(h.edges);
  const std::uint64_t announced = sizeof(header) + sizeof(frame) + 8 * (n + 1) + sizeof(frame) + 4 * m +
                                  (weighted ? sizeof(frame) + 8 * m : 0) + (ids ? sizeof(frame) + 8 * n : 0) +
                                  (stream ? sizeof(frame) + 16 : 0);
  if (r.size < announced)
    r.fail("truncated: the header announces " + std::to_string(announced) + " bytes, the file has " + std::to_string(r.size));
  if (r.size > announced) r.fail(std::to_string(r.size - announced) + " bytes after the last section");
  snapshot s;
  s.vertices = h.vertices;
  s.weighted = weighted;
  s.row_ptr = r.section<std::int64_t>("ROWS", std::size_t(n) + 1);
  s.col = r.section<std::int32_t>("COLS", std::size_t(m));
  if (weighted) s.val = r.section<double>("VALS", std::size_t(m));
  if (ids) s.original_id = r.section<std::int64_t>("IDS ", std::size_t(n));
  if (stream) {
    const std::vector<std::int64_t> pos = r.section<std::int64_t>("STRM", 2);
    if (pos[0] < 0 || pos[1] < 0) r.fail("a negative stream position");
    s.stream_batches = pos[0], s.stream_lines = pos[1];
  }
  check_contents(r, s);
  return s;
}

}  // namespace fg
