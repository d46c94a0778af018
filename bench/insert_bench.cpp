// fluxgraph bench insert: insert throughput (DCSR vs CSR rebuild per batch), delete throughput, and
// SpMV on fragmented and defragmented DCSR vs CSR. Medians of event-timed runs after warm-up; x
// vectors rotated so L2 does not hold them; GB/s counted as the bytes a CSR SpMV must move;
// eta = GB/s / measured copy BW.
#include <fmt/core.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bench/baselines.hpp"
#include "bench/bench.hpp"
#include "bench/report.hpp"
#include "bench/matrices.hpp"
#include "bench/timer.hpp"
#include "core/error.hpp"
#include "core/semiring.hpp"
#include "loaders/graph_file.hpp"
#include "storage/dcsr.hpp"
#include "storage/dcsr_pipeline.hpp"

namespace fg::bench {

namespace {
results table;
dcsr_config store_config;  // --index: the stores' duplicate-check index (dcsr_config::index)
std::string parts = ",queued,rebuild,delete,spmv,";  // --parts, between commas
bool want(const char* part) { return parts.find(fmt::format(",{},", part)) != std::string::npos; }
void record(const std::string& g, const std::string& what, double v, const std::string& unit) {
  table.record(g, what, v, unit);
}

// Where a run's time sits: the median batch, the slowest, and the share of the slowest tenth (a
// store that grows in steps spends its time in a few batches; one that slows as it grows, in all).
void spread(const std::string& g, std::vector<double> ms) {
  if (ms.empty()) return;
  const double total = std::accumulate(ms.begin(), ms.end(), 0.0);
  std::sort(ms.begin(), ms.end());
  const std::size_t tenth = std::max<std::size_t>(1, ms.size() / 10);
  const double top = std::accumulate(ms.end() - std::ptrdiff_t(tenth), ms.end(), 0.0);
  record(g, "  batch ms: median / slowest", ms[ms.size() / 2], fmt::format("/ {:.2f}", ms.back()));
  record(g, "  share of the time in the slowest tenth", 100.0 * top / total, "%");
}

// Time streaming all edges in batches of `batch` into DCSR and into a per-batch CSR rebuild.
dcsr_matrix<pattern, device_space> stream(const edge_list& g, std::size_t batch, device_timer& t, bool baseline) {
  const std::size_t m = g.src.size();
  const auto batches = split(g, batch);
  const std::size_t nb = batches.size();
  dcsr_matrix<pattern, device_space> A(store_config);
  A.resize(g.n, g.n);
  std::vector<double> each;
  for (auto& b : batches) each.push_back(t.time_ms([&] { A.insert_batch(b); }));
  const double ms = std::accumulate(each.begin(), each.end(), 0.0);
  const std::string tag = fmt::format("batch {:.0e} ({} batches)", double(batch), nb);
  record(g.name, "DCSR insert " + tag, double(m) / (ms * 1e-3) / 1e6, "M edges/s");
  spread(g.name, each);
  const auto& st = A.stats();
  record(g.name, "  auto compactions (segment limit + buffer)", double(st.compactions_segment_limit + st.compactions_buffer_full), "");
  record(g.name, "  buffer grows / row-table grows", double(st.buffer_grows), fmt::format("/ {}", st.row_table_grows));
  record(g.name, "  rows relocated", double(st.rows_relocated), "");
  record(g.name, "  edge-set builds / moving steps", double(st.index_builds), fmt::format("/ {}", st.index_moves));
  // The same batches queued (dcsr_pipeline): no read-back per batch, one per 64 batches.
  if (want("queued")) {
    dcsr_matrix<pattern, device_space> P(store_config);
    P.resize(g.n, g.n);
    dcsr_pipeline<pattern, device_space> pipe(P, 64);
    const double pms = t.time_ms([&] {
      for (auto& b : batches) pipe.insert(b);
      pipe.settle();
    });
    record(g.name, "DCSR insert, queued " + tag, double(m) / (pms * 1e-3) / 1e6, "M edges/s");
    record(g.name, "  queued / one at a time", ms / pms, "x");
    if (P.nnz() != A.nnz()) throw error("bench insert: the queued store disagrees on the edge count");
  }
  if (baseline && nb <= 200 && want("rebuild")) {
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
  dcsr_matrix<pattern, device_space> A(store_config);
  A.resize(g.n, g.n);
  for (const auto& b : batches) A.insert_batch(b);
  const offset_t distinct = A.nnz();
  dcsr_matrix<pattern, device_space> P(store_config);  // the same, for the queued deletions
  P.resize(g.n, g.n);
  for (const auto& b : batches) P.insert_batch(b);
  double ms = 0;
  for (const auto& b : batches) ms += t.time_ms([&] { A.delete_batch(b); });
  if (A.nnz() != 0) throw error("bench delete: edges left after deleting every edge");
  const std::string tag = fmt::format("batch {:.0e} ({} batches)", double(batch), batches.size());
  record(g.name, "DCSR delete " + tag, double(g.src.size()) / (ms * 1e-3) / 1e6, "M edges/s");
  {
    dcsr_pipeline<pattern, device_space> pipe(P, 64);
    const double pms = t.time_ms([&] {
      for (const auto& b : batches) pipe.erase(b);
      pipe.settle();
    });
    if (P.nnz() != 0) throw error("bench delete: edges left after the queued deletions");
    record(g.name, "DCSR delete, queued " + tag, double(g.src.size()) / (pms * 1e-3) / 1e6, "M edges/s");
  }
  record(g.name, "  distinct edges removed per second", double(distinct) / (ms * 1e-3) / 1e6, "M edges/s");
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
    if (want("delete")) delete_rate(g, std::min(b, g.src.size()), t);
  }
  if (want("spmv")) spmv_fragmentation(g.name, frag, copy_gbs, table);
}

struct insert_options {
  std::string json, batches = "1e5,1e6,1e7", index = "auto";
  std::vector<std::string> parts{"queued", "rebuild", "delete", "spmv"};
  std::vector<std::string> graphs;
};

int run_insert(const insert_options& o) {
  const std::vector<std::size_t> batches = parse_sizes(o.batches);
  parts = ",";
  for (const auto& p : o.parts) parts += p + ",";
  store_config.index = o.index == "always" ? edge_index::always : o.index == "never" ? edge_index::never : edge_index::automatic;
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  const double copy = copy_bandwidth_gbs(std::size_t(1) << 30);
  record("-", "copy bandwidth (read + write)", copy, "GB/s");
  for (const auto& g : o.graphs) bench_graph(g, copy, batches);
  if (!o.json.empty()) table.write_json(o.json);
  return 0;
}
}  // namespace

void add_insert(CLI::App& bench, int& status) {
  auto [app, o] = subcommand<insert_options>(bench, "insert", "DCSR insert and delete rates per batch size against a CSR rebuild, HYB + delta; SpMV on the fragmented store", status, run_insert);
  app->add_option("--json", o->json, "write the results as JSON");
  app->add_option("--batches", o->batches, "batch sizes, comma-separated (1e5 notation)")->capture_default_str();
  app->add_option("--index", o->index, "the stores' duplicate-check edge set")->check(CLI::IsMember({"auto", "always", "never"}))->capture_default_str();
  app->add_option("--parts", o->parts, "what runs beside the inserts: queued (dcsr_pipeline), rebuild (CSR every batch), delete, spmv (on the fragmented store), or none")
      ->delimiter(',')->expected(1)->check(CLI::IsMember({"queued", "rebuild", "delete", "spmv", "none"}))->capture_default_str();
  app->add_option("MATRIX", o->graphs, matrix_help)->required();
}

}  // namespace fg::bench
