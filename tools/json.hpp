// One JSON object on one line, for the commands' machine-readable output (stream -'s lines and
// --format json's summaries): numbers in the shortest form that reads back to the same double.
#pragma once
#include <fmt/format.h>

#include <cstdio>
#include <iterator>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fluxgraph/error.hpp"

namespace fg::cli {

struct json_line {
  fmt::memory_buffer b;
  bool first = true;
  /// A number, or a text already in JSON (an array, true/false).
  template <class T>
  json_line& field(const char* name, const T& value) {
    fmt::format_to(std::back_inserter(b), "{}\"{}\":{}", first ? "{" : ",", name, value);
    first = false;
    return *this;
  }
  json_line& flag(const char* name, bool value) { return field(name, value ? "true" : "false"); }
  /// [[id, value], ...] in the order given (a top-k list).
  json_line& pairs(const char* name, const std::vector<std::pair<std::int64_t, double>>& list) {
    std::string a = "[";
    for (std::size_t i = 0; i < list.size(); ++i) a += fmt::format("{}[{},{}]", i ? "," : "", list[i].first, list[i].second);
    return field(name, a + "]");
  }
  /// A string, escaped.
  json_line& text(const char* name, std::string_view value) { return field(name, quoted(value)); }
  static std::string quoted(std::string_view s) {
    std::string q = "\"";
    for (const char c : s) {
      if (c == '"' || c == '\\') q += '\\', q += c;
      else if (static_cast<unsigned char>(c) < 0x20) q += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
      else q += c;
    }
    return q + '"';
  }
  /// The object as text, for a field of another (an array of objects).
  std::string object() const { return std::string(b.data(), b.size()) + "}"; }
  void print(std::FILE* out = stdout) {
    b.push_back('}');
    b.push_back('\n');
    if (std::fwrite(b.data(), 1, b.size(), out) != b.size() || std::fflush(out) != 0)
      throw fluxgraph::error("cannot write to standard output");
  }
};

}  // namespace fg::cli
