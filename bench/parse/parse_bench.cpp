// fluxgraph_parse_bench: how fast live input is parsed, apart from the store. The file is read into
// memory first; then it is parsed in 1 MiB chunks (as live_reader reads them) into batches of
// --batch edges, alone and then with the dense id map and the line-order rule (to_dense), the
// reader thread's whole work per batch.
//
//   usage: fluxgraph_parse_bench FILE [--format text|bin|bin64] [--batch N] [--rounds R]
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "stream/live_reader.hpp"
#include "loaders/edge_parser.hpp"

namespace {
using clock_type = std::chrono::steady_clock;

std::vector<char> slurp(const char* path) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) throw std::runtime_error(std::string("cannot open ") + path);
  std::vector<char> data;
  char buf[1 << 16];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) data.insert(data.end(), buf, buf + n);
  std::fclose(f);
  return data;
}

// Parses `data` once; with `ids`, maps every batch too. Returns (edges, seconds).
std::pair<std::int64_t, double> pass(const std::vector<char>& data, fg::input_format fmt, std::size_t batch,
                                     fg::id_map* ids) {
  auto p = fg::edge_parser::make(fmt);
  fg::raw_edges b;
  fg::live_batch dense;
  std::int64_t edges = 0;
  auto flush = [&] {
    edges += std::int64_t(b.size());
    if (ids) fg::to_dense(b, *ids, dense);
    b.clear();
  };
  const auto t = clock_type::now();
  constexpr std::size_t chunk = 1 << 20;
  for (std::size_t pos = 0; pos < data.size(); pos += chunk) {
    p->feed(data.data() + pos, std::min(chunk, data.size() - pos));
    for (fg::parse_stop s; (s = p->parse(b, batch)) != fg::parse_stop::need_input;) {
      if (s == fg::parse_stop::bad_input) throw std::runtime_error(p->error().message("input"));
      flush();
    }
  }
  if (!p->finish()) throw std::runtime_error(p->error().message("input"));
  while (p->parse(b, batch) == fg::parse_stop::batch_full) flush();
  flush();
  return {edges, std::chrono::duration<double>(clock_type::now() - t).count()};
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: fluxgraph_parse_bench FILE [--format text|bin|bin64] [--batch N] [--rounds R]\n");
    return 1;
  }
  try {
    std::string format = "text";
    std::size_t batch = 100000;
    int rounds = 3;
    for (int i = 2; i + 1 < argc; i += 2) {
      if (std::strcmp(argv[i], "--format") == 0) format = argv[i + 1];
      else if (std::strcmp(argv[i], "--batch") == 0) batch = std::stoul(argv[i + 1]);
      else if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::stoi(argv[i + 1]);
      else throw std::runtime_error(std::string("unknown option ") + argv[i]);
    }
    const fg::input_format fmt = fg::parse_input_format(format);
    const std::vector<char> data = slurp(argv[1]);
    for (const bool map : {false, true}) {
      double best = 1e300;
      std::int64_t edges = 0;
      fg::id_map ids;
      for (int r = 0; r < rounds; ++r) {
        fg::id_map fresh;  // each round maps from empty, as a run does
        const auto [n, s] = pass(data, fmt, batch, map ? &fresh : nullptr);
        edges = n;
        best = std::min(best, s);
        if (map) ids = std::move(fresh);
      }
      fmt::print("{:<22} {:>12} edges  {:>8.3f} s  {:>7.1f} M edges/s  {:>7.1f} MB/s{}\n",
                 map ? "parse + dense ids" : "parse", edges, best, double(edges) / best / 1e6,
                 double(data.size()) / best / 1e6, map ? fmt::format("  ({} vertices)", ids.size()) : "");
    }
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "fluxgraph_parse_bench: {}\n", e.what());
    return 1;
  }
}
