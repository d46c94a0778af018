// `fluxgraph spmv FILE`: y = A x over a semiring, in one process or under mpirun (every rank reads
// its share of the lines and multiplies its rows; rank 0 writes). A is the graph's adjacency: row u
// holds u's out-edges (--transpose: v's in-edges, PageRank's pull). x: every entry 1, or --x FILE
// ('id value' lines in the graph file's ids; ids not listed take 0, or +inf under min_plus: the
// semiring's zero). Output: 'id value' lines for every vertex (--out), and a summary line.
#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>

#include "tools/cli.hpp"
#include "tools/json.hpp"

namespace fg::cli {

namespace {
fluxgraph::semiring semiring_of(const options& o) {
  // One spelling across the CLI, C++ and Python (fluxgraph::semiring's names); the hyphenated
  // form this command took before is still understood.
  std::string s = o.get("semiring", "plus_times");
  std::replace(s.begin(), s.end(), '-', '_');
  if (s == "plus_times") return fluxgraph::semiring::plus_times;
  if (s == "min_plus") return fluxgraph::semiring::min_plus;
  if (s == "or_and") return fluxgraph::semiring::or_and;
  throw usage_error("--semiring must be plus_times, min_plus or or_and, got '" + o.get("semiring", "") + "'");
}

// x in dense ids from --x (file ids; `original` increasing, as every loader gives it), else ones.
std::vector<double> read_x(const options& o, const std::vector<std::int64_t>& original, fluxgraph::semiring s) {
  if (!o.values.count("x")) return std::vector<double>(original.size(), 1.0);
  const double zero = s == fluxgraph::semiring::min_plus ? std::numeric_limits<double>::infinity() : 0.0;
  std::vector<double> x(original.size(), zero);
  const std::string path = o.get("x", "");
  std::ifstream in(path);
  if (!in) throw fluxgraph::input_error(path, 0, "cannot open the x file");
  std::string line;
  for (std::int64_t no = 1; std::getline(in, line); ++no) {
    const std::size_t a = line.find_first_not_of(" \t\r");
    if (a == std::string::npos || line[a] == '#' || line[a] == '%') continue;
    std::int64_t id = 0;
    const char* end = line.data() + line.size();
    auto [p, ec] = std::from_chars(line.data() + a, end, id);
    while (ec == std::errc() && p < end && (*p == ' ' || *p == '\t')) ++p;
    double v = 0;
    const auto [q, ec2] = ec == std::errc() ? std::from_chars(p, end, v) : std::from_chars_result{p, ec};
    if (ec != std::errc() || ec2 != std::errc() || std::isnan(v) || line.find_first_not_of(" \t\r", std::size_t(q - line.data())) != std::string::npos)
      throw fluxgraph::input_error(path, no, "expected 'id value', got '" + line + "'");
    const auto it = std::lower_bound(original.begin(), original.end(), id);
    if (it == original.end() || *it != id)
      throw fluxgraph::input_error(path, no, "vertex " + std::to_string(id) + " is not in the graph");
    x[std::size_t(it - original.begin())] = v;
  }
  return x;
}

// The summary line (and with --format json, `json` completed and printed), then --out.
void write_y(const options& o, const std::vector<std::int64_t>& original, const std::vector<double>& y, double seconds,
             int repeat, json_line* json = nullptr) {
  std::size_t set = 0;
  double sum = 0;
  for (double v : y)
    if (v != 0 && std::isfinite(v)) ++set, sum += v;
  fmt::print("spmv: {} {} rows, {} entries nonzero and finite (sum {:.6g}); {:.4f} ms per multiplication (median of {})\n",
             o.get("semiring", "plus_times"), y.size(), set, sum, 1e3 * seconds, repeat);
  if (json) {
    json->text("semiring", o.get("semiring", "plus_times")).field("nonzero", set).field("sum", sum);
    json->field("ms", 1e3 * seconds).field("repeat", repeat).print(data_stream());
  }
  if (!o.values.count("out")) return;
  auto body = [&](std::FILE* out) {
    for (std::size_t v = 0; v < y.size() && !std::ferror(out); ++v) data_line(out, original[v], y[v]);
    return !std::ferror(out);
  };
  write_atomically(o.get("out", ""), body);
}

// The median of `repeat` calls of f, in seconds.
template <class F>
double median_seconds(int repeat, F f) {
  std::vector<double> t;
  for (int i = 0; i < repeat; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(t.begin(), t.begin() + std::ptrdiff_t(t.size() / 2), t.end());
  return t[t.size() / 2];
}

int run_spmv_distributed(const options& o, fluxgraph::ranks& r, fluxgraph::semiring s, int repeat) {
  if (o.values.count("backend")) throw usage_error("--backend is a single-process option (a distributed run uses each rank's GPU, or its CPUs)");
  fluxgraph::distributed_file f = fluxgraph::read_edges(r, o.file);
  const bool in = o.has("transpose");
  std::vector<double> x = read_x(o, f.original_id, s);  // every rank reads x (file ids); each keeps its entries
  const std::vector<vertex_id> id = renumber_by_row_size(o, r, f, in);
  if (!id.empty()) {
    std::vector<double> moved(x.size());
    for (std::size_t v = 0; v < id.size(); ++v) moved[std::size_t(id[v])] = x[v];
    x = std::move(moved);
  }
  const bool weighted = o.has("weighted") && !f.weight.empty();
  const fluxgraph::edge_span<std::int32_t> e{f.src.data(), f.dst.data(), f.src.size(), weighted ? f.weight.data() : nullptr};
  fluxgraph::distributed_graph g(r, f.num_vertices, graph_options(o, r, f, e, in));
  g.apply(e);
  std::vector<double> xl;
  for (fluxgraph::vertex_id v : g.local_ids()) xl.push_back(x[std::size_t(v)]);
  std::vector<double> yl;
  const double sec = median_seconds(repeat, [&] { yl = g.spmv(s, xl); });
  const std::vector<double> y = g.gather(yl);
  const auto edges = g.num_edges();  // collective: on every rank, before rank 0 alone reports
  if (r.rank() == 0) {
    fmt::print("{}: {} vertices, {} edges stored; ranks: {} ({}), partition {}\n", f.path, f.num_vertices, edges, r.size(),
               r.transport(), o.get("partition", "cyclic"));
    write_y(o, f.original_id, y, sec, repeat);
  }
  return 0;
}
}  // namespace

int run_spmv(const options& o) {
  const fluxgraph::semiring s = semiring_of(o);
  const int repeat = int(o.integer("repeat", 1, 1, 1000000));
  const std::string comm = o.get("comm", "auto");
  fluxgraph::ranks r(comm);
  if (r.size() > 1 || comm == "mpi" || comm == "nccl") {
    if (json_output(o)) throw usage_error("--format json is for one process; a distributed run prints text (rank 0)");
    return run_spmv_distributed(o, r, s, repeat);
  }
  if (o.values.count("partition")) throw usage_error("--partition goes with a distributed run (mpirun, --comm)");
  std::string backend;
  const fluxgraph::device where = backend_of(o, backend);
  double t_load = 0;
  const fluxgraph::edge_file f = load(o.file, t_load);
  fluxgraph::graph_options opt;
  opt.where = where;
  opt.weighted = o.has("weighted");
  opt.ids = fluxgraph::vertex_ids::dense;  // the file's vertex numbers; its ids are f.original_id
  fluxgraph::graph g(f.num_vertices, opt);
  const double* w = opt.weighted && !f.weight.empty() ? f.weight.data() : nullptr;
  const bool in = o.has("transpose");
  g.insert(fluxgraph::edge_span<std::int32_t>{in ? f.dst.data() : f.src.data(), in ? f.src.data() : f.dst.data(), f.src.size(), w});
  const std::vector<double> x = read_x(o, f.original_id, s);
  std::vector<double> y;
  const double sec = median_seconds(repeat, [&] { y = g.spmv(x, s); });
  fmt::print("{}: {} vertices, {} edges, loaded in {:.3f} s\nbackend: {}\n", f.path, f.num_vertices, f.num_edges(), t_load, backend);
  json_line j = json_summary(o, f, g, backend);
  write_y(o, f.original_id, y, sec, repeat, json_output(o) ? &j : nullptr);
  return 0;
}

}  // namespace fg::cli
