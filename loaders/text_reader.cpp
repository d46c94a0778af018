#include "loaders/text_reader.hpp"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"

namespace fg {

namespace {
// Large reads amortise the per-call cost of gzread; the line scan itself is a memchr.
constexpr std::size_t read_chunk = std::size_t{1} << 20;
// zlib's default 8 KiB input buffer makes decompression syscall-bound on large files.
constexpr unsigned zlib_buffer = 1u << 17;

gzFile as_gz(void* p) { return static_cast<gzFile>(p); }

std::atomic<std::size_t> max_line{std::size_t{1} << 20};
}  // namespace

std::size_t max_line_bytes() noexcept { return max_line.load(std::memory_order_relaxed); }
void set_max_line_bytes(std::size_t bytes) noexcept {
  // At least 1; at most 2^62, so the readers' "+ 2" allowances for a line's "\r\n" cannot wrap.
  max_line.store(std::clamp<std::size_t>(bytes, 1, std::size_t{1} << 62), std::memory_order_relaxed);
}

std::string quote_token(std::string_view tok) {
  constexpr std::size_t max_shown = 40;
  std::string out = "'";
  for (const char c : tok.substr(0, max_shown)) {  // bytes a terminal would act on, escaped
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '\\') {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  if (tok.size() > max_shown) out += "...";
  out += '\'';
  return out;
}

text_reader::text_reader(const std::string& path) : path_(path), max_line_(max_line_bytes()) {
  // gzopen() opens a directory without complaint and only fails at the first read, with a
  // message that would carry a misleading line number; catch it here instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw input_error(path, 0, std::string("cannot open file: ") + std::strerror(EISDIR));
  errno = 0;
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) {
    const int err = errno;
    throw input_error(path, 0,
                      std::string("cannot open file: ") +
                          (err != 0 ? std::strerror(err) : "out of memory"));
  }
  gzbuffer(f, zlib_buffer);
  file_ = f;
  try {
    buf_.resize(read_chunk);
  } catch (...) {
    gzclose(f);
    throw;
  }
}

text_reader::~text_reader() {
  if (file_ != nullptr) gzclose(as_gz(file_));
}

void text_reader::fill() {
  pos_ = end_ = 0;
  const int n = gzread(as_gz(file_), buf_.data(), static_cast<unsigned>(buf_.size()));
  const int read_errno = errno;  // gzerror() below may overwrite it
  int errnum = Z_OK;
  const char* msg = gzerror(as_gz(file_), &errnum);
  // The line being read when the stream broke is the most useful place to point at.
  const std::int64_t where = line_no_ + 1;
  if (n > 0) {
    end_ = static_cast<std::size_t>(n);
    return;
  }
  switch (errnum) {
    case Z_OK:
      eof_ = true;
      return;
    case Z_BUF_ERROR:
      // zlib reports a stream cut short only as a soft Z_BUF_ERROR ("unexpected end of file"),
      // after handing out everything it could decode; so it shows up once the data is used up.
      throw input_error(path_, where, "truncated gzip stream");
    case Z_ERRNO:
      throw input_error(path_, where, std::string("read error: ") + std::strerror(read_errno));
    case Z_DATA_ERROR: {
      // gzerror() prefixes the path; the input_error already names it.
      std::string what = msg != nullptr ? msg : "";
      const std::string prefix = path_ + ": ";
      if (what.compare(0, prefix.size(), prefix) == 0) what.erase(0, prefix.size());
      throw input_error(path_, where, "corrupt gzip stream: " + what);
    }
    default:
      throw input_error(path_, where, "read error (zlib error " + std::to_string(errnum) + ")");
  }
}

bool text_reader::next(std::string_view& line) {
  bool carrying = false;
  carry_.clear();
  while (true) {
    if (pos_ < end_) {
      const char* begin = buf_.data() + pos_;
      const std::size_t avail = end_ - pos_;
      const char* nl = static_cast<const char*>(std::memchr(begin, '\n', avail));
      if (nl != nullptr) {
        const std::size_t len = static_cast<std::size_t>(nl - begin);
        if (carry_.size() + len > max_line_ + 4) too_long();  // + 4: room for a '\r' and a byte-order mark
        pos_ += len + 1;
        if (carrying) {
          carry_.append(begin, len);
          line = carry_;
        } else {
          line = std::string_view(begin, len);
        }
        break;
      }
      if (carry_.size() + avail > max_line_ + 4) too_long();
      carry_.append(begin, avail);
      carrying = true;
      pos_ = end_;
    }
    if (!eof_) fill();
    if (eof_) {
      if (!carrying) return false;
      line = carry_;  // last line without a terminator
      break;
    }
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line_no_ == 0 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);  // a UTF-8 byte-order mark
  if (line.size() > max_line_) too_long();  // the scan above allowed for a '\r' and a mark
  ++line_no_;
  return true;
}

void text_reader::too_long() const {
  throw input_error(path_, line_no_ + 1,
                    "line longer than " + std::to_string(max_line_) + " bytes (the limit: --max-line raises it)");
}

}  // namespace fg
