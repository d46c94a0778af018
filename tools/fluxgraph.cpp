// fluxgraph: command-line front end. Every failure is one line on stderr and exit code 1.
#include <fmt/core.h>

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <set>

#include "bench/bench.hpp"
#include "core/error.hpp"
#include "tools/cli.hpp"

namespace fg::cli {

const char* usage_text =
    "usage: fluxgraph info FILE [--explain [--reads R] [--kernel NAME]]\n"
    "       fluxgraph pagerank FILE [--damping D] [--tol T] [--max-iter N] [--top K] [--out FILE]\n"
    "                               [--weighted] [--backend cpu|cuda] [--kernel auto|NAME]\n"
    "       fluxgraph stream FILE --batch N [--delete-fraction F [--seed S]] [--edges-out FILE]\n"
    "                             [--top K] [--out FILE] [--damping D] [--tol T] [--max-iter N]\n"
    "                             [--backend cpu|cuda] [--kernel auto|NAME] [--defrag none|limit|measured]\n"
    "                             [--layout auto|rows|size] [--pagerank] [--closure] [--compare]\n"
    "       fluxgraph stream - --batch N [--max-delay MS] [--on-error skip|fail] [--format text|bin|bin64]\n"
    "                          [--pagerank] [--closure] [--top K] [--out FILE] [--edges-out FILE]\n"
    "                          [--damping D] [--tol T] [--max-iter N] [--backend cpu|cuda] [--kernel auto|NAME]\n"
    "                          [--defrag none|limit|measured] [--layout auto|rows|size]\n"
    "       fluxgraph calibrate [--out FILE] [MATRIX...]   (measure this GPU for the kernel selector)\n"
    "       fluxgraph closure FILE [--count-only | --out FILE] [--backend cpu|cuda]\n"
    "       fluxgraph reach FILE --sources ID[,ID...] [--out FILE] [--backend cpu|cuda]\n"
    "       fluxgraph pointsto FILE [--out FILE [--sizes]] [--check] [--backend cpu|cuda]\n"
    "       fluxgraph cfl GRAPH GRAMMAR [--check] [--backend cpu|cuda]\n"
    "       fluxgraph cfa FILE [--out FILE] [--check] [--backend cpu|cuda]\n"
    "       fluxgraph bench spmv|insert|select|pagerank|closure|stream|pointsto|cfl ... (see fluxgraph bench spmv --help)\n"
    "FILE: Matrix Market (.mtx[.gz]) or an edge list (SNAP/whitespace, [.gz]).\n"
    "stream --delete-fraction F: after each insert batch, delete a random F of the edges that batch\n"
    "just inserted (seeded by --seed, default 1); --edges-out writes the edges that remain\n"
    "(Matrix Market, id = dense id + 1: an .mtx input's own ids).\n"
    "stream --defrag: when to defragment between batches: never, when a row reaches k segments (limit),\n"
    "or when the reads before the next batch make it pay off (measured, the default).\n"
    "stream --layout: where a defragmentation puts the rows: in order (rows), grouped by length (size:\n"
    "the ADCSR kernels then read the store with no copy), or auto (the default: size when the\n"
    "kernel selector would read the store with ADCSR, measured policy only).\n"
    "stream --pagerank: PageRank after every batch, warm-started from the last scores (iterations and\n"
    "time per batch; --out gets the last scores); --compare also runs each from scratch.\n"
    "stream --closure: the transitive closure's pairs after every batch, extended from that batch\n"
    "alone (recomputed after deletions); --compare also computes it from scratch and checks equality.\n"
    "stream -: edges from standard input as they arrive: 'u v' or '+ u v' inserts, '- u v' deletes, an\n"
    "optional weight after u v (checked; each edge counts once), '#' comments. A batch is cut at N edges,\n"
    "MS milliseconds (default 10) after its first edge arrived, or at the end of the input; the lines'\n"
    "order holds within a batch. stdout: one JSON object a line per batch ('top' with --pagerank), then a\n"
    "summary line (with the final PageRank's top K). --format bin|bin64: little-endian int32|int64\n"
    "(u, v) pairs, inserts only. A bad line is named on stderr (<stdin>:LINE); --on-error skip goes on,\n"
    "fail (the default) exits 1 once the batches before the bad line's are applied. --out: 'id score'\n"
    "by input id. --delete-fraction, --seed and --compare go with stream FILE only.\n"
    "closure: the pairs (x, y) joined by a directed path of length >= 1, their number, the semi-naive\n"
    "iterations, the time and the peak memory; --out writes them as 'x y' lines (file ids);\n"
    "--count-only (the default without --out) keeps them on the device. reach: the same for the\n"
    "rows of the given sources only, with a count per source.\n"
    "pointsto: Andersen's analysis of a constraint file (Galois numeric '<vars> <constraints>' format\n"
    "or 'p = &a', 'p = q', 'p = *q', '*p = q' lines): facts, copy edges, rounds, time; --out writes\n"
    "'var: objects' lines (--sizes: 'var: count'); --check compares with the worklist solver.\n"
    "cfl: CFL-reachability of a labelled graph ('src dst label [index]') under a grammar (POCR .cfg):\n"
    "the pairs of the grammar's Count: nonterminals, rounds, time; --check runs the worklist solver.\n"
    "cfa: 0-CFA of a CPS lambda-calculus program (s-expressions): flow facts, the largest flow set,\n"
    "rounds, time; --out writes 'var@line: size: lambdas'; --check runs the abstract interpreter.\n"
    "--backend cpu runs on the host (OpenMP in the CPU build, the sequential reference in the CUDA\n"
    "build); cuda runs on the GPU (CUDA build only). Default: the build's device backend.\n";

namespace {
// Options that take a value, per command; everything else that starts with -- is a flag.
const std::map<std::string, std::set<std::string>> valued = {
    {"info", {"reads", "kernel"}},
    {"pagerank", {"damping", "tol", "max-iter", "top", "out", "backend", "kernel"}},
    {"stream", {"batch", "top", "out", "damping", "tol", "max-iter", "backend", "kernel", "delete-fraction", "seed",
                "edges-out", "defrag", "layout", "max-delay", "on-error", "format"}},
    {"closure", {"out", "backend"}},
    {"reach", {"sources", "out", "backend"}},
    {"pointsto", {"out", "backend"}},
    {"cfl", {"backend"}},
    {"cfa", {"out", "backend"}},
};
const std::map<std::string, std::set<std::string>> flag_names = {
    {"info", {"explain"}}, {"pagerank", {"weighted"}}, {"stream", {"pagerank", "closure", "compare"}}, {"closure", {"count-only"}}, {"reach", {}},
    {"pointsto", {"check", "sizes"}}, {"cfl", {"check"}}, {"cfa", {"check"}}};
}  // namespace

bool options::has(const std::string& f) const {
  for (const auto& x : flags)
    if (x == f) return true;
  return false;
}
std::string options::get(const std::string& n, const std::string& fallback) const {
  auto it = values.find(n);
  return it == values.end() ? fallback : it->second;
}
double options::number(const std::string& n, double fallback, double lo, double hi) const {
  auto it = values.find(n);
  if (it == values.end()) return fallback;
  const std::string& s = it->second;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0])) || *end != '\0' || !(v >= lo && v <= hi))
    throw usage_error(fmt::format("--{} needs a number in [{}, {}], got '{}'", n, lo, hi, s));
  return v;
}
std::int64_t options::integer(const std::string& n, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const {
  auto it = values.find(n);
  if (it == values.end()) return fallback;
  const std::string& s = it->second;
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi)
    throw usage_error(fmt::format("--{} needs an integer in [{}, {}], got '{}'", n, lo, hi, s));
  return v;
}

options parse(int argc, char** argv) {
  options o;
  if (argc < 2) throw usage_error("no command given");
  o.command = argv[1];
  auto vit = valued.find(o.command);
  if (vit == valued.end()) throw usage_error("unknown command '" + o.command + "'");
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) == 0) {
      std::string name = a.substr(2);
      if (vit->second.count(name)) {
        if (i + 1 >= argc) throw usage_error("--" + name + " needs a value");
        if (o.values.count(name)) throw usage_error("--" + name + " given twice");
        o.values[name] = argv[++i];
      } else if (flag_names.at(o.command).count(name)) {
        o.flags.push_back(name);
      } else {
        throw usage_error("unknown option '" + a + "' for " + o.command);
      }
    } else if (o.file.empty()) {
      o.file = a;
    } else if (o.command == "cfl" && o.file2.empty()) {
      o.file2 = a;
    } else {
      throw usage_error("unexpected argument '" + a + "'");
    }
  }
  if (o.file.empty()) throw usage_error(o.command + " needs a FILE");
  if (o.command == "cfl" && o.file2.empty()) throw usage_error("cfl needs a GRAPH and a GRAMMAR file");
  return o;
}

}  // namespace fg::cli

int main(int argc, char** argv) {
  using namespace fg::cli;
  if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    fmt::print("{}", usage_text);
    return 0;
  }
  try {
    if (argc >= 3 && std::strcmp(argv[1], "bench") == 0) {
      const std::vector<std::string> args(argv + 3, argv + argc);
      if (std::strcmp(argv[2], "spmv") == 0) return fg::bench::run_spmv(args);
      if (std::strcmp(argv[2], "insert") == 0) return fg::bench::run_insert(args);
      if (std::strcmp(argv[2], "select") == 0) return fg::bench::run_select(args);
      if (std::strcmp(argv[2], "pagerank") == 0) return fg::bench::run_pagerank(args);
      if (std::strcmp(argv[2], "closure") == 0) return fg::bench::run_closure(args);
      if (std::strcmp(argv[2], "stream") == 0) return fg::bench::run_stream(args);
      if (std::strcmp(argv[2], "pointsto") == 0) return fg::bench::run_pointsto_bench(args);
      if (std::strcmp(argv[2], "cfl") == 0) return fg::bench::run_cfl_bench(args);
      throw usage_error(std::string("unknown benchmark '") + argv[2] +
                        "' (spmv, insert, select, pagerank, closure, stream, pointsto or cfl)");
    }
    if (argc >= 2 && std::strcmp(argv[1], "calibrate") == 0)
      return fg::bench::run_calibrate(std::vector<std::string>(argv + 2, argv + argc));
    const options o = parse(argc, argv);
    // Live input: a reader thread parses while the store applies. OpenMP's default spin-wait between
    // parallel regions keeps every core busy and starves that thread (a tiny graph took 18 s instead
    // of 0.01 s on 2 cores). Passive waiting, unless the user chose; read before OpenMP starts.
    if (o.command == "stream" && o.file == "-") setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    if (o.command == "info") return run_info(o);
    if (o.command == "pagerank") return run_pagerank(o);
    if (o.command == "closure") return run_closure(o);
    if (o.command == "reach") return run_reach(o);
    if (o.command == "pointsto") return run_pointsto(o);
    if (o.command == "cfl") return run_cfl(o);
    if (o.command == "cfa") return run_cfa(o);
    return run_stream(o);
  } catch (const usage_error& e) {
    fmt::print(stderr, "fluxgraph: {} (see fluxgraph --help)\n", e.what());
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "fluxgraph: out of host memory\n");
  } catch (const std::exception& e) {
    fmt::print(stderr, "fluxgraph: {}\n", e.what());
  }
  return 1;
}
