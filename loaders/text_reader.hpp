// Line-at-a-time reading of plain or gzip text, plus the token and number helpers both loaders
// share. Internal to loaders/: the public interface is graph_file.hpp.
#pragma once
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace fg {

/// The longest line a text_reader returns, in bytes (default 1 MiB): process-wide, set by the
/// CLI's --max-line and fluxgraph::set_max_line_bytes.
std::size_t max_line_bytes() noexcept;
void set_max_line_bytes(std::size_t bytes) noexcept;

/// @brief Reads a plain or gzip-compressed text file line by line (zlib detects which).
///
/// A line longer than max_line_bytes() is an input_error at that line, raised while reading it:
/// a decompression bomb (a small .gz of one endless line) fails fast, in bounded memory. A UTF-8
/// byte-order mark at the start of the file is skipped. The line terminator ("\n" or "\r\n") is not part of the line; a
/// last line without a terminator is still returned. Every error is an fg::input_error naming the
/// path: "cannot open file: ..." (line 0) from the constructor, "truncated gzip stream" or
/// "corrupt gzip stream: ..." / "read error: ..." from next(), at the number of the line that
/// was being read when the stream broke.
class text_reader {
 public:
  explicit text_reader(const std::string& path);
  ~text_reader();
  text_reader(const text_reader&) = delete;
  text_reader& operator=(const text_reader&) = delete;

  /// @brief Next line into `line`; false at the end of the file. The view stays valid only until
  ///        the next call.
  bool next(std::string_view& line);

  /// @brief 1-based number of the line last returned by next() (0 before the first); at the end of
  ///        the file, the number of lines the file has.
  std::int64_t line_number() const noexcept { return line_no_; }
  const std::string& path() const noexcept { return path_; }

 private:
  void fill();  // refills buf_; sets eof_ at a clean end, throws on a broken stream
  [[noreturn]] void too_long() const;

  std::string path_;
  void* file_ = nullptr;  // gzFile, kept opaque so that users need not include zlib.h
  std::vector<char> buf_;
  std::size_t pos_ = 0, end_ = 0;
  std::string carry_;  // a line that straddles two refills of buf_
  std::int64_t line_no_ = 0;
  std::size_t max_line_ = 0;
  bool eof_ = false;
};

/// @brief True for the bytes that separate tokens; commas only when `comma` is set (CSV-like edge
///        lists). Runs of separators count as one, so "1, 2" and "1,,2" both give two tokens.
inline bool is_separator(char c, bool comma) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || (comma && c == ',');
}

/// @brief Splits `line` into tokens; stores the first `max_out` in `out` and returns how many there
///        are in total, so that callers can report a wrong count without a second pass.
inline std::size_t split_tokens(std::string_view line, std::string_view* out, std::size_t max_out,
                                bool comma) noexcept {
  std::size_t count = 0, i = 0;
  const std::size_t n = line.size();
  while (true) {
    while (i < n && is_separator(line[i], comma)) ++i;
    if (i == n) return count;
    const std::size_t start = i;
    while (i < n && !is_separator(line[i], comma)) ++i;
    if (count < max_out) out[count] = line.substr(start, i - start);
    ++count;
  }
}

/// @brief The line without leading separators (spaces, tabs; never commas).
inline std::string_view trim_left(std::string_view line) noexcept {
  std::size_t i = 0;
  while (i < line.size() && is_separator(line[i], false)) ++i;
  return line.substr(i);
}

enum class parse_status { ok, invalid, out_of_range };

/// @brief Whole-token integer: "12abc", "1.5", "+3", "" are invalid (no partial parses).
inline parse_status parse_int64(std::string_view tok, std::int64_t& value) noexcept {
  const char* first = tok.data();
  const char* last = first + tok.size();
  const auto r = std::from_chars(first, last, value);
  if (r.ec == std::errc::result_out_of_range && r.ptr == last) return parse_status::out_of_range;
  if (r.ec != std::errc() || r.ptr != last || first == last) return parse_status::invalid;
  return parse_status::ok;
}

/// @brief Whole-token floating point number; a leading '+' is allowed (Matrix Market writers emit
///        it). "nan" and "inf" parse fine here: callers reject non-finite values with their own
///        message. Overflow and underflow are out_of_range.
inline parse_status parse_double(std::string_view tok, double& value) noexcept {
  if (tok.size() > 1 && tok[0] == '+' && tok[1] != '-' && tok[1] != '+') tok.remove_prefix(1);
  const char* first = tok.data();
  const char* last = first + tok.size();
  const auto r = std::from_chars(first, last, value);
  if (r.ec == std::errc::result_out_of_range && r.ptr == last) return parse_status::out_of_range;
  if (r.ec != std::errc() || r.ptr != last || first == last) return parse_status::invalid;
  return parse_status::ok;
}

/// @brief A token quoted for an error message, shortened so a garbage megabyte-long token does
///        not become a megabyte-long message; bytes outside printable ASCII (and the backslash)
///        as \xHH, so that a binary file's bytes do not reach the terminal raw.
std::string quote_token(std::string_view tok);

}  // namespace fg
