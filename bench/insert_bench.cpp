// fluxgraph bench insert: insert throughput (DCSR vs CSR rebuild per batch), delete throughput, and
// SpMV on fragmented and defragmented DCSR vs CSR. Medians of event-timed runs after warm-up; x
// vectors rotated so L2 does not hold them; GB/s counted as the bytes a CSR SpMV must move;
// eta = GB/s / measured copy BW.
#include <fmt/core.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bench/baselines.hpp"
#include "bench/bench.hpp"
#include "bench/matrices.hpp"
#include "bench/timer.hpp"
#include "core/error.hpp"
#include "core/semiring.hpp"
#include "loaders/graph_file.hpp"
#include "storage/dcsr.hpp"

namespace fg::bench {

namespace {
struct row {
  std::string graph, what;
  double value;
  std::string unit;
};
std::vector<row> rows;
void record(const std::string& g, const std::string& what, double v, const std::string& unit) {
  rows.push_back({g, what, v, unit});
  fmt::print("  {:<44} {:>14.4f} {}\n", what, v, unit);
}

// The edges in batches of `batch`, in stream order, on the device.
std::vector<coo_matrix<pattern, device_space>> split(const edge_list& g, std::size_t batch) {
  const std::size_t m = g.src.size(), nb = (m + batch - 1) / batch;
  std::vector<coo_matrix<pattern, device_space>> batches;
  for (std::size_t b = 0; b < nb; ++b) {
    const std::size_t lo = b * batch, hi = std::min(m, lo + batch);
    batches.push_back(make_coo<pattern, device_space>({g.src.begin() + lo, g.src.begin() + hi},
                                                      {g.dst.begin() + lo, g.dst.begin() + hi}));
  }
  return batches;
}

// Time streaming all edges in batches of `batch` into DCSR and into a per-batch CSR rebuild.
dcsr_matrix<pattern, device_space> stream(const edge_list& g, std::size_t batch, device_timer& t, bool baseline) {
  const std::size_t m = g.src.size();
  const auto batches = split(g, batch);
  const std::size_t nb = batches.size();
  dcsr_matrix<pattern, device_space> A;
  A.resize(g.n, g.n);
  double ms = 0;
  for (auto& b : batches) ms += t.time_ms([&] { A.insert_batch(b); });
  const std::string tag = fmt::format("batch {:.0e} ({} batches)", double(batch), nb);
  record(g.name, "DCSR insert " + tag, double(m) / (ms * 1e-3) / 1e6, "M edges/s");
  const auto& st = A.stats();
  record(g.name, "  auto compactions (segment limit + buffer)", double(st.defrag_segment_limit + st.defrag_buffer_full), "");
  if (baseline && nb <= 200) {
    csr_rebuild csr(g.n);
    double cms = 0;
    offset_t distinct = 0;
    for (auto& b : batches) cms += t.time_ms([&] { distinct = csr.insert(b.row, b.col, b.nnz); });
    record(g.name, "CSR rebuild " + tag, double(m) / (cms * 1e-3) / 1e6, "M edges/s");
    record(g.name, "  DCSR speedup over CSR rebuild", cms / ms, "x");
    if (distinct != A.nnz()) throw error("CSR rebuild and DCSR disagree on the edge count");
  }
  return A;
}

// Time deleting every edge again, in batches of `batch` in stream order, from the store that
// streaming them in batches of the same size built (fragmented, as a live store is). Each delete
// batch compacts the rows it touches, so its cost is the touched rows' volume, not just the batch.
void delete_rate(const edge_list& g, std::size_t batch, device_timer& t) {
  const auto batches = split(g, batch);
  dcsr_matrix<pattern, device_space> A;
  A.resize(g.n, g.n);
  for (const auto& b : batches) A.insert_batch(b);
  const offset_t distinct = A.nnz();
  double ms = 0;
  for (const auto& b : batches) ms += t.time_ms([&] { A.delete_batch(b); });
  if (A.nnz() != 0) throw error("bench delete: edges left after deleting every edge");
  const std::string tag = fmt::format("batch {:.0e} ({} batches)", double(batch), batches.size());
  record(g.name, "DCSR delete " + tag, double(g.src.size()) / (ms * 1e-3) / 1e6, "M edges/s");
  record(g.name, "  distinct edges removed per second", double(distinct) / (ms * 1e-3) / 1e6, "M edges/s");
}

template <class Mat>
double spmv_ms(const Mat& A, device_timer& t, std::vector<array<float, device_space>>& xs, array<float, device_space>& y) {
  return median_ms(t, 3, 25, [&](int i) { spmv<plus_times<float>>(A, xs[std::size_t(i) % xs.size()], y); });
}

void bench_graph(const std::string& spec, double copy_gbs, const std::vector<std::size_t>& batch_sizes) {
  const edge_list g = make_matrix(spec);
  fmt::print("\n{}: {} vertices, {} edges\n", g.name, g.n, g.src.size());
  device_timer t;
  dcsr_matrix<pattern, device_space> frag;
  bool have = false;
  for (std::size_t b : batch_sizes) {
    if (b > g.src.size() && have) continue;
    auto A = stream(g, std::min(b, g.src.size()), t, true);
    if (!have) frag = std::move(A), have = true;  // the smallest batches fragment the most
    delete_rate(g, std::min(b, g.src.size()), t);
  }
  // SpMV: fragmented DCSR, defragmented DCSR, CSR; the x vectors rotate through > L2.
  const std::size_t n = std::size_t(g.n);
  const std::size_t copies = std::clamp<std::size_t>((256u << 20) / (n * 4 + 1), 2, 16);
  std::vector<array<float, device_space>> xs;
  std::mt19937 rng(1);
  std::vector<float> hx(n);
  for (std::size_t c = 0; c < copies; ++c) {
    for (auto& v : hx) v = std::uniform_real_distribution<float>(0, 1)(rng);
    xs.push_back(to_space<device_space>(hx));
  }
  array<float, device_space> y(n), y2(n);
  const double bytes = double(frag.nnz()) * 4 + double(n + 1) * 8 + double(n) * 8;  // col, row_ptr, x, y
  const double t_frag = spmv_ms(frag, t, xs, y);
  spmv<plus_times<float>>(frag, xs[0], y);
  const auto y_frag = to_vector(y);
  const double t_defrag = t.time_ms([&] { frag.defragment(); });
  const double t_pack = spmv_ms(frag, t, xs, y);
  const auto csr = frag.to_csr();
  const double t_csr = spmv_ms(csr, t, xs, y2);
  spmv<plus_times<float>>(csr, xs[0], y2);
  const auto y_csr = to_vector(y2);
  double err = 0;
  for (std::size_t i = 0; i < n; ++i) err = std::max(err, double(std::fabs(y_frag[i] - y_csr[i]) / (1e-6 + std::fabs(y_csr[i]))));
  record(g.name, "SpMV DCSR fragmented", t_frag, "ms");
  record(g.name, "SpMV DCSR defragmented", t_pack, "ms");
  record(g.name, "SpMV CSR (vector kernel)", t_csr, "ms");
  record(g.name, "  fragmented / CSR", t_frag / t_csr, "x");
  record(g.name, "  defragmented / CSR", t_pack / t_csr, "x");
  record(g.name, "  CSR GB/s (bytes a CSR SpMV must move)", bytes / (t_csr * 1e-3) / 1e9, "GB/s");
  record(g.name, "  CSR eta (of copy bandwidth)", bytes / (t_csr * 1e-3) / 1e9 / copy_gbs, "");
  record(g.name, "defragment", t_defrag, "ms");
  record(g.name, "  defragment in CSR SpMVs", t_defrag / t_csr, "SpMVs");
  record(g.name, "  max rel. error DCSR vs CSR", err, "");
}
}  // namespace

const char* bench_usage =
    "usage: fluxgraph bench spmv [--json FILE] [--points FILE] [--runs N] [--types float,double] [--kernels a,b] MATRIX...\n"
    "       fluxgraph bench select POINTS [--reads 10,100,1000] [--calibration FILE | --extra FILE] [--detail]\n"
    "       fluxgraph bench pagerank [--runs N] GRAPH...\n"
    "       fluxgraph bench insert [--json FILE] [--batches 1e5,1e6] MATRIX...\n"
    "       fluxgraph bench closure [--json FILE] [--expected TSV] [--workspace BYTES] [--no-split] FILE...\n"
    "       fluxgraph bench pointsto [--check] [--workspace BYTES] [FILE... | --vars N [--constraints M] [--seed S]\n"
    "                                [--write FILE]]\n"
    "       fluxgraph bench cfl [--check] [--workspace BYTES] GRAMMAR GRAPH...\n"
    "MATRIX: a graph file, rmat:SCALE[:EDGE_FACTOR], uniform:SCALE:MU, poisson2d:SIDE or poisson3d:SIDE\n";

int run_insert(const std::vector<std::string>& args) {
  std::string json;
  std::vector<std::string> graphs;
  std::vector<std::size_t> batches = {100000, 1000000, 10000000};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json" && i + 1 < args.size()) json = args[++i];
    else if (a == "--batches" && i + 1 < args.size()) {
      batches.clear();
      const std::string s = args[++i];
      for (std::size_t p = 0; p < s.size();) {
        std::size_t q = s.find(',', p);
        batches.push_back(std::size_t(std::stod(s.substr(p, q - p))));
        p = q == std::string::npos ? s.size() : q + 1;
      }
    } else graphs.push_back(a);
  }
  FG_EXPECTS(!graphs.empty(), std::string("bench insert needs matrices\n") + bench_usage);
  std::sort(batches.begin(), batches.end());
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  const double copy = copy_bandwidth_gbs(std::size_t(1) << 30);
  record("-", "copy bandwidth (read + write)", copy, "GB/s");
  for (const auto& g : graphs) bench_graph(g, copy, batches);
  if (!json.empty()) {
    std::ofstream out(json);
    out << "[\n";
    for (std::size_t i = 0; i < rows.size(); ++i)
      fmt::print(out, "  {{\"graph\": \"{}\", \"metric\": \"{}\", \"value\": {}, \"unit\": \"{}\"}}{}\n", rows[i].graph,
                 rows[i].what, rows[i].value, rows[i].unit, i + 1 < rows.size() ? "," : "");
    out << "]\n";
  }
  return 0;
}

}  // namespace fg::bench
