// Live edge input parsers. The text parser's fast path is a hand-written loop over the bytes of a
// line: every line it looks at ends with '\n' (a line split across chunks is completed in a carry
// buffer first), so the digit loops need no bounds checks. A bad line leaves the fast path and is
// examined again, token by token, only to say what is wrong with it.
#include "loaders/edge_parser.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include "core/error.hpp"
#include "loaders/text_reader.hpp"

namespace fg {

void raw_edges::clear() noexcept {
  ins_src.clear();
  ins_dst.clear();
  ins_weight.clear();
  del_src.clear();
  del_dst.clear();
  del_after.clear();
  first_line = last_line = 0;
}

void raw_edges::add_insert(std::int64_t u, std::int64_t v, double w) {
  if (ins_weight.size() < ins_src.size()) ins_weight.resize(ins_src.size(), 1.0);  // the first weighted line
  ins_src.push_back(u);
  ins_dst.push_back(v);
  ins_weight.push_back(w);
}

std::string parse_error::message(const std::string& name) const {
  if (byte >= 0) return name + ": byte offset " + std::to_string(byte) + ": " + what;
  return name + ":" + std::to_string(line) + ": " + what;
}

input_format parse_input_format(const std::string& s) {
  if (s == "text") return input_format::text;
  if (s == "bin") return input_format::bin32;
  if (s == "bin64") return input_format::bin64;
  throw invalid_argument("unknown input format '" + s + "' (text, bin or bin64)");
}

namespace {

// The same separators as the edge-list file loader (text_reader.hpp: is_separator with commas).
inline bool is_sep(char c) noexcept {
  return c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\v' || c == '\f';
}
inline bool is_digit(char c) noexcept { return static_cast<unsigned char>(c - '0') < 10; }

// A non-negative decimal id ending at a separator or '\n'; false for anything else (the caller
// says why). 18 digits always fit in int64, so only longer tokens take the checked loop.
inline bool read_id(const char*& p, std::int64_t& out) noexcept {
  const char* const s = p;
  if (!is_digit(*p)) return false;
  std::uint64_t x = 0;
  do x = x * 10 + std::uint64_t(*p++ - '0');
  while (is_digit(*p) && p - s < 18);
  while (is_digit(*p)) {
    if (__builtin_mul_overflow(x, 10u, &x) || __builtin_add_overflow(x, std::uint64_t(*p - '0'), &x)) return false;
    ++p;
  }
  if (x > std::uint64_t(std::numeric_limits<std::int64_t>::max())) return false;
  if (!is_sep(*p) && *p != '\n') return false;
  out = std::int64_t(x);
  return true;
}

// Why id token `tok` is not one (the file loader's words).
std::string bad_id(std::string_view tok) {
  std::int64_t v = 0;
  const parse_status st = parse_int64(tok, v);
  if (st == parse_status::out_of_range) return "vertex id " + quote_token(tok) + " does not fit in a 64-bit integer";
  if (st == parse_status::ok && v < 0) return "negative vertex id " + quote_token(tok);
  return "vertex id " + quote_token(tok) + " is not a non-negative integer";
}

// Why weight token `tok` is not one; empty when it is.
std::string bad_weight(std::string_view tok) {
  double w = 0;
  const parse_status st = parse_double(tok, w);
  if (st == parse_status::invalid) return "weight " + quote_token(tok) + " is not a number";
  if (st == parse_status::out_of_range) return "weight " + quote_token(tok) + " is out of range";
  if (!std::isfinite(w)) return "weight " + quote_token(tok) + " is not finite";
  return {};
}

// What is wrong with the line [p, '\n'), which the fast path rejected.
std::string diagnose(const char* p) {
  const char* e = p;
  while (*e != '\n') ++e;
  std::string_view tok[5];
  std::size_t n = split_tokens(std::string_view(p, std::size_t(e - p)), tok, 5, true);
  std::string_view* t = tok;
  const bool del = n > 0 && t[0] == "-";
  if (n > 0 && (t[0] == "+" || t[0] == "-")) ++t, --n;
  if (n < 2 || n > 3)
    return "expected 'u v', '+ u v', '- u v' or 'u v weight', found " + std::to_string(n) + (n == 1 ? " token" : " tokens") +
           (t != tok ? " after '" + std::string(tok[0]) + "'" : "");
  for (int i = 0; i < 2; ++i) {
    std::int64_t v = 0;
    if (parse_int64(t[i], v) != parse_status::ok || v < 0) return bad_id(t[i]);
  }
  if (del) return "a delete line is '- u v': it takes no weight";
  std::string w = bad_weight(t[2]);
  return w.empty() ? "malformed line" : w;
}

class text_parser final : public edge_parser {
 public:
  void feed(const char* data, std::size_t n) override {
    const char* end = data + n;
    tail_n_ = 0;
    cur_ = stop_ = end;
    if (!started_) skip_bom(data, n);
    if (n == 0) return;
    if (skipping_) {  // the rest of an overlong line goes, up to its end
      const char* nl = static_cast<const char*>(std::memchr(data, '\n', n));
      if (nl == nullptr) return;
      skipping_ = false;
      data = nl + 1;
    }
    if (!carry_.empty()) {  // a line began in an earlier chunk
      const char* nl = static_cast<const char*>(std::memchr(data, '\n', n));
      const std::size_t more = nl ? std::size_t(nl + 1 - data) : n;
      if (carry_.size() + more > max_line_ + 2) {  // + 2: its "\r\n"
        overlong(nl == nullptr);
        if (nl == nullptr) return;
        data = nl + 1;
      } else if (nl == nullptr) {
        carry_.append(data, n);
        return;
      } else {
        carry_.append(data, more);
        carry_ready_ = true;
        data = nl + 1;
      }
    }
    const char* last = static_cast<const char*>(memrchr(data, '\n', std::size_t(end - data)));
    cur_ = data;
    stop_ = last ? last + 1 : data;
    tail_ = stop_;
    tail_n_ = std::size_t(end - stop_);
  }

  bool finish() override {
    if (!started_) unmatched_bom();
    if (!carry_.empty() && !carry_ready_) {
      carry_ += '\n';
      carry_ready_ = true;
    }
    return true;
  }

  parse_stop parse(raw_edges& out, std::size_t limit) override {
    if (overlong_) {
      overlong_ = false;
      return parse_stop::bad_input;
    }
    if (carry_ready_) {
      if (out.size() >= limit) return parse_stop::batch_full;
      carry_ready_ = false;
      const char* next = nullptr;
      const bool ok = line(carry_.data(), out, next);
      carry_.clear();
      if (!ok) return parse_stop::bad_input;
    }
    while (cur_ < stop_) {
      if (out.size() >= limit) return parse_stop::batch_full;
      if (!line(cur_, out, cur_)) return parse_stop::bad_input;
    }
    if (tail_n_ > 0) {  // the chunk's unterminated end waits for the rest of its line
      if (tail_n_ > max_line_ + 2) overlong(true);
      else carry_.assign(tail_, tail_n_);
      tail_n_ = 0;
      if (overlong_) {
        overlong_ = false;
        return parse_stop::bad_input;
      }
    }
    return parse_stop::need_input;
  }

 private:
  // One line from p (which ends with '\n'); `next` is set past it, good or bad.
  bool line(const char* p, raw_edges& out, const char*& next) {
    const std::int64_t number = ++position_;
    const char* const start = p;
    while (is_sep(*p)) ++p;
    char c = *p;
    if (c == '\n' || c == '#' || c == '%') {  // blank or comment
      while (*p != '\n') ++p;
      if (longer(start, p)) return bad(start, number, next);
      next = p + 1;
      return true;
    }
    bool del = false;
    if ((c == '+' || c == '-') && (is_sep(p[1]) || p[1] == '\n')) {
      del = c == '-';
      for (++p; is_sep(*p);) ++p;
    }
    std::int64_t u = 0, v = 0;
    if (!read_id(p, u)) return bad(start, number, next);
    while (is_sep(*p)) ++p;
    if (!read_id(p, v)) return bad(start, number, next);
    while (is_sep(*p)) ++p;
    if (*p == '\n' && longer(start, p)) return bad(start, number, next);  // "1 2" and a sea of blanks
    if (out.size() == 0) out.first_line = number;
    if (*p == '\n') {
      if (del) out.add_delete(u, v);
      else out.add_insert(u, v);
    } else {
      const char* w0 = p;
      while (!is_sep(*p) && *p != '\n') ++p;
      double w = 0;
      const std::string_view tok(w0, std::size_t(p - w0));
      while (is_sep(*p)) ++p;
      if (del || *p != '\n' || longer(start, p) || parse_double(tok, w) != parse_status::ok || !std::isfinite(w)) {
        if (out.size() == 0) out.first_line = 0;
        return bad(start, number, next);
      }
      out.add_insert(u, v, w);
    }
    out.last_line = number;
    next = p + 1;
    return true;
  }

  __attribute__((noinline, cold)) bool bad(const char* start, std::int64_t number, const char*& next) {
    const char* nl = start;
    while (*nl != '\n') ++nl;
    error_ = parse_error{number, -1, longer(start, nl) ? too_long() : diagnose(start)};
    next = nl + 1;
    return false;
  }
  // [start, nl) is past the limit ('\r' of a "\r\n" line not counted).
  bool longer(const char* start, const char* nl) const noexcept {
    std::size_t len = std::size_t(nl - start);
    if (len > 0 && start[len - 1] == '\r') --len;
    return len > max_line_;
  }
  std::string too_long() const { return "line longer than " + std::to_string(max_line_) + " bytes (the limit: --max-line raises it)"; }

  // A line past max_line_ bytes: an error at its number, without holding it (a stream of one
  // endless line stays in bounded memory); `open`: its end has not arrived yet, so skip to it.
  void overlong(bool open) {
    error_ = parse_error{++position_, -1, too_long()};
    carry_.clear();
    carry_ready_ = false;
    skipping_ = open;
    overlong_ = true;
  }

  // A UTF-8 byte-order mark at the start is skipped, even one that a pipe delivers split across
  // chunks; bytes that began like one and were not are given back as the first line's start.
  static constexpr char bom_[3] = {'\xEF', '\xBB', '\xBF'};
  void skip_bom(const char*& data, std::size_t& n) {
    while (n > 0 && bom_n_ < 3 && *data == bom_[bom_n_]) ++data, --n, ++bom_n_;
    if (bom_n_ == 3) started_ = true;
    else if (n > 0) unmatched_bom();  // a byte that breaks the mark: the input has started
  }
  void unmatched_bom() {
    carry_.assign(bom_, bom_n_);
    started_ = true;
  }

  std::size_t max_line_ = max_line_bytes();
  std::size_t bom_n_ = 0;       // bytes of a byte-order mark matched so far
  bool started_ = false;        // past the byte-order mark, or sure there is none
  bool skipping_ = false;       // inside an overlong line: drop input up to its '\n'
  bool overlong_ = false;       // parse() owes a bad_input for it
  const char* cur_ = nullptr;   // the next line of the chunk
  const char* stop_ = nullptr;  // past the chunk's last '\n'
  const char* tail_ = nullptr;  // the chunk's bytes after it ...
  std::size_t tail_n_ = 0;      // ... and how many
  std::string carry_;           // a line split across chunks
  bool carry_ready_ = false;    // carry_ holds a whole line, '\n' included
};

// Little-endian pairs of W-byte signed ids (W = 4 or 8), whatever the host's byte order.
template <int W>
class binary_parser final : public edge_parser {
  static constexpr std::size_t pair = 2 * W;

 public:
  void feed(const char* data, std::size_t n) override {
    auto* p = reinterpret_cast<const unsigned char*>(data);
    if (carry_n_ > 0) {  // complete the pair that began in an earlier chunk
      const std::size_t k = std::min(pair - carry_n_, n);
      std::memcpy(carry_ + carry_n_, p, k);
      carry_n_ += k;
      p += k;
      n -= k;
    }
    cur_ = p;
    stop_ = p + (n - n % pair);
    tail_n_ = n % pair;
  }

  bool finish() override {
    if (carry_n_ == 0 || carry_n_ == pair) return true;
    error_ = parse_error{0, position_ * std::int64_t(pair),
                         "trailing partial pair: " + std::to_string(carry_n_) + " of " + std::to_string(pair) + " bytes"};
    carry_n_ = 0;
    return false;
  }

  parse_stop parse(raw_edges& out, std::size_t limit) override {
    if (carry_n_ == pair) {
      if (out.size() >= limit) return parse_stop::batch_full;
      carry_n_ = 0;
      if (!take(carry_, out)) return parse_stop::bad_input;
    }
    while (cur_ < stop_) {
      if (out.size() >= limit) return parse_stop::batch_full;
      const unsigned char* p = cur_;
      cur_ += pair;
      if (!take(p, out)) return parse_stop::bad_input;
    }
    if (tail_n_ > 0) {
      std::memcpy(carry_, stop_, tail_n_);
      carry_n_ = tail_n_;
      tail_n_ = 0;
    }
    return parse_stop::need_input;
  }

 private:
  static std::int64_t load(const unsigned char* p) noexcept {
    std::uint64_t x = 0;
    for (int i = W - 1; i >= 0; --i) x = (x << 8) | p[i];
    if constexpr (W == 4) return std::int32_t(std::uint32_t(x));
    else return std::int64_t(x);
  }
  bool take(const unsigned char* p, raw_edges& out) {
    const std::int64_t number = ++position_;
    const std::int64_t u = load(p), v = load(p + W);
    if (u < 0 || v < 0) {
      const std::int64_t offset = (number - 1) * std::int64_t(pair) + (u < 0 ? 0 : W);
      error_ = parse_error{number, offset, "negative vertex id " + std::to_string(u < 0 ? u : v)};
      return false;
    }
    if (out.size() == 0) out.first_line = number;
    out.last_line = number;
    out.add_insert(u, v);
    return true;
  }

  const unsigned char* cur_ = nullptr;
  const unsigned char* stop_ = nullptr;
  std::size_t tail_n_ = 0;
  unsigned char carry_[pair] = {};
  std::size_t carry_n_ = 0;
};

}  // namespace

std::unique_ptr<edge_parser> edge_parser::make(input_format f) {
  switch (f) {
    case input_format::text:
      return std::make_unique<text_parser>();
    case input_format::bin32:
      return std::make_unique<binary_parser<4>>();
    case input_format::bin64:
      break;
  }
  return std::make_unique<binary_parser<8>>();
}

}  // namespace fg
