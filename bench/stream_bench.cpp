// fluxgraph bench stream: DCSR against the two alternatives a GPU user has for a graph that keeps
// changing, as in King et al. 2016 §IV-A/§IV-C, on this device:
//   - HYB (ELL + sorted COO tail, bench/hyb_updater.hpp): the paper's dynamic baseline;
//   - rebuilding CSR for every batch (device sort + unique + row offsets; bench/baselines.hpp).
// Four parts per graph: streaming updates (the whole graph built by batches: edges/s), iterative
// updates (Fig. 3: rounds of +0.2% random nonzeros then 5 SpMVs: total time), post-processing
// overhead (Table IV: defragment / HYB rebuild / 1000 updates, in CSR SpMVs) and SpMV on the
// fragmented vs defragmented store vs CSR (shared with bench insert). Device-timed (CUDA events),
// medians where an operation can be repeated; every format's result is checked against the others.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "bench/baselines.hpp"
#include "bench/bench.hpp"
#include "bench/hyb_updater.hpp"
#include "bench/report.hpp"
#include "bench/timer.hpp"
#include "core/error.hpp"
#include "core/semiring.hpp"
#include "stream/defrag_policy.hpp"
#include "storage/dcsr.hpp"

namespace fg::bench {

namespace {
struct stream_options {
  std::vector<std::size_t> batches = {10000, 100000, 1000000, 10000000};
  int rounds = 50, spmvs = 5;
  double growth = 0.002;   ///< nonzeros added per round, as a share of the graph's (the paper's 0.2%)
  double hyb_tail = 0.1;   ///< HYB rebuild threshold (delta tail share)
  // Caps on the number of batches, so the benchmark finishes in minutes: past them a size is skipped
  // for that format (said in the output). The CSR rebuild sorts every edge so far per batch.
  std::size_t dcsr_cap = 10000, hyb_cap = 2000, csr_cap = 200;
  std::string json;
};

results table;

std::string tag(std::size_t batch, std::size_t nb) { return fmt::format("batch {:.0e} ({} batches)", double(batch), nb); }

// Streaming updates: the whole graph inserted in batches of `batch`, into each format.
void streaming(const edge_list& g, std::size_t batch, const stream_options& o, device_timer& t,
               dcsr_matrix<pattern, device_space>* keep) {
  const auto batches = split(g, batch);
  const std::size_t nb = batches.size(), m = g.src.size();
  const std::string tg = tag(batch, nb);
  auto rate = [&](double ms) { return double(m) / (ms * 1e-3) / 1e6; };
  double dcsr_ms = 0, hyb_ms = 0;
  offset_t distinct = -1;
  // Warm-up, untimed: the first launch of each kernel loads its module, and the first stores grow
  // the memory pool; a cold first graph measured 46 M edges/s where the same batches warm ran at
  // 365 (cnr-2000, 1e5, H100). A long-running stream pays neither per batch. DCSR streams
  // every batch once so the pool holds the blocks of each of its compactions (cheap next to the
  // timed runs); HYB and the rebuild only need their kernels loaded.
  {
    const std::size_t few = std::min<std::size_t>(nb, 3);
    if (nb <= o.dcsr_cap) {
      dcsr_matrix<pattern, device_space> W;
      W.resize(g.n, g.n);
      for (const auto& b : batches) W.insert_batch(b);
    }
    hyb_updater H(g.n, o.hyb_tail);
    csr_rebuild C(g.n);
    for (std::size_t i = 0; i < few; ++i) {
      H.insert(batches[i].row, batches[i].col, batches[i].nnz);
      C.insert(batches[i].row, batches[i].col, batches[i].nnz);
    }
  }
  if (nb <= o.dcsr_cap) {
    dcsr_matrix<pattern, device_space> A;
    A.resize(g.n, g.n);
    for (const auto& b : batches) dcsr_ms += t.time_ms([&] { A.insert_batch(b); });
    table.record(g.name, "stream DCSR " + tg, rate(dcsr_ms), "M edges/s");
    distinct = A.nnz();
    if (keep != nullptr) *keep = std::move(A);
  } else {
    fmt::print("  stream DCSR {}: skipped (> {} batches)\n", tg, o.dcsr_cap);
  }
  if (nb <= o.hyb_cap) {
    hyb_updater H(g.n, o.hyb_tail);
    for (const auto& b : batches) hyb_ms += t.time_ms([&] { H.insert(b.row, b.col, b.nnz); });
    table.record(g.name, "stream HYB " + tg, rate(hyb_ms), "M edges/s");
    table.record(g.name, "  HYB rebuilds", double(H.rebuilds()), "");
    if (distinct >= 0 && H.nnz() != distinct) throw error("bench stream: HYB and DCSR disagree on the edge count");
    if (dcsr_ms > 0) table.record(g.name, "  DCSR speedup over HYB", hyb_ms / dcsr_ms, "x");
  } else {
    fmt::print("  stream HYB {}: skipped (> {} batches)\n", tg, o.hyb_cap);
  }
  if (nb <= o.csr_cap) {
    csr_rebuild C(g.n);
    double ms = 0;
    offset_t d = 0;
    for (const auto& b : batches) ms += t.time_ms([&] { d = C.insert(b.row, b.col, b.nnz); });
    table.record(g.name, "stream CSR rebuild " + tg, rate(ms), "M edges/s");
    if (distinct >= 0 && d != distinct) throw error("bench stream: CSR rebuild and DCSR disagree on the edge count");
    if (dcsr_ms > 0) table.record(g.name, "  DCSR speedup over CSR rebuild", ms / dcsr_ms, "x");
  } else {
    fmt::print("  stream CSR rebuild {}: skipped (> {} batches)\n", tg, o.csr_cap);
  }
}

// `count` uniformly random edges (the paper's random nonzeros), seeded.
coo_matrix<pattern, device_space> random_edges(vertex_t n, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<vertex_t> u(0, n - 1);
  std::vector<vertex_t> r(count), c(count);
  for (std::size_t i = 0; i < count; ++i) r[i] = u(g), c[i] = u(g);
  return make_coo<pattern, device_space>(r, c);
}

// The three formats holding the whole graph, built untimed (the starting point of §IV-A's iterative
// test and of Table IV).
struct formats {
  dcsr_matrix<pattern, device_space> dcsr, dcsr_policy;
  hyb_updater hyb;
  csr_rebuild csr;
  formats(const edge_list& g, double tail) : hyb(g.n, tail), csr(g.n) {
    FG_EXPECTS(!g.src.empty(), "bench stream: " + g.name + " has no edges");
    const auto parts = split(g, g.src.size());
    const auto& all = parts.front();
    dcsr_config cfg;
    dcsr = dcsr_matrix<pattern, device_space>::from_coo(all, g.n, g.n, cfg);
    dcsr_policy = dcsr_matrix<pattern, device_space>::from_coo(all, g.n, g.n, cfg);
    hyb.insert(all.row, all.col, all.nnz);
    csr.insert(all.row, all.col, all.nnz);
  }
};

// Iterative updates (Fig. 3): rounds of (insert growth x nnz random edges; `spmvs` SpMVs).
void iterative(const edge_list& g, formats& f, const stream_options& o, device_timer& t, const defrag_policy& policy) {
  const auto add = std::max<std::size_t>(1, std::size_t(o.growth * double(f.dcsr.nnz())));
  std::vector<coo_matrix<pattern, device_space>> rounds;
  for (int r = 0; r < o.rounds; ++r) rounds.push_back(random_edges(g.n, add, 1000 + std::uint64_t(r)));
  auto xs = rotating_x(std::size_t(g.n));
  array<float, device_space> y(std::size_t(g.n));
  double dcsr = 0, dcsr_pol = 0, hyb = 0, csr = 0;
  int defrags = 0;
  for (int r = 0; r < o.rounds; ++r) {
    const auto& b = rounds[std::size_t(r)];
    auto& x = xs[std::size_t(r) % xs.size()];
    dcsr += t.time_ms([&] {
      f.dcsr.insert_batch(b);
      for (int s = 0; s < o.spmvs; ++s) spmv<plus_times<float>>(f.dcsr, x, y);
    });
    dcsr_pol += t.time_ms([&] {  // the engine's measured policy, asked with the reads that follow
      f.dcsr_policy.insert_batch(b);
      const defrag_decision d = decide_defragment(policy, profile(f.dcsr_policy), f.dcsr_policy.needs_defragment(), o.spmvs);
      if (d.defragmented) f.dcsr_policy.defragment(), ++defrags;
      for (int s = 0; s < o.spmvs; ++s) spmv<plus_times<float>>(f.dcsr_policy, x, y);
    });
    hyb += t.time_ms([&] {
      f.hyb.insert(b.row, b.col, b.nnz);
      for (int s = 0; s < o.spmvs; ++s) f.hyb.spmv(x, y);
    });
    csr += t.time_ms([&] {
      f.csr.insert(b.row, b.col, b.nnz);
      const auto c = f.csr.csr();
      for (int s = 0; s < o.spmvs; ++s) spmv<plus_times<float>>(c, x, y);
    });
  }
  const std::string what = fmt::format("iterative {} x (+{} nnz, {} SpMVs)", o.rounds, add, o.spmvs);
  table.record(g.name, what + ": DCSR", dcsr, "ms");
  table.record(g.name, "  DCSR + measured defrag policy", dcsr_pol, "ms");
  table.record(g.name, "    policy defragmentations", double(defrags), "");
  table.record(g.name, "  HYB", hyb, "ms");
  table.record(g.name, "  CSR rebuild", csr, "ms");
  table.record(g.name, "  DCSR speedup over CSR rebuild (Fig. 3 top)", csr / dcsr, "x");
  table.record(g.name, "  HYB speedup over CSR rebuild", csr / hyb, "x");
  table.record(g.name, "  DCSR speedup over HYB", hyb / dcsr, "x");
  // The four must hold the same matrix: the same y for one x.
  array<float, device_space> y2(std::size_t(g.n));
  spmv<plus_times<float>>(f.dcsr, xs[0], y);
  const auto want = to_vector(y);
  f.hyb.spmv(xs[0], y2);
  double err = max_rel_error(to_vector(y2), want);
  spmv<plus_times<float>>(f.dcsr_policy, xs[0], y2);
  err = std::max(err, max_rel_error(to_vector(y2), want));
  spmv<plus_times<float>>(f.csr.csr(), xs[0], y2);
  err = std::max(err, max_rel_error(to_vector(y2), want));
  table.record(g.name, "  max rel. error HYB / CSR / policy vs DCSR", err, "");
  if (!(err < 1e-3)) throw error("bench stream: the formats disagree after the iterative updates");
}

// Post-processing overhead (Table IV) in CSR SpMVs: 1000 updates (one batch) per format, the HYB
// rebuild (its "sort"), and a defragmentation of the store the rounds left.
void overhead(const edge_list& g, formats& f, device_timer& t) {
  const auto c = f.csr.csr();
  auto xs = rotating_x(std::size_t(g.n));
  array<float, device_space> y(std::size_t(g.n));
  const double spmv_ms =
      median_ms(t, 3, 25, [&](int i) { spmv<plus_times<float>>(c, xs[std::size_t(i) % xs.size()], y); });
  table.record(g.name, "CSR SpMV (the unit below)", spmv_ms, "ms");
  std::vector<coo_matrix<pattern, device_space>> ups;
  for (int i = 0; i < 14; ++i) ups.push_back(random_edges(g.n, 1000, 5000 + std::uint64_t(i)));
  const double d = median_ms(t, 3, 11, [&](int i) { f.dcsr.insert_batch(ups[std::size_t(i) % ups.size()]); });
  const double h = median_ms(t, 3, 11, [&](int i) { const auto& u = ups[std::size_t(i) % ups.size()]; f.hyb.insert(u.row, u.col, u.nnz); });
  const double cr = median_ms(t, 1, 3, [&](int i) {
    const auto& u = ups[std::size_t(i) % ups.size()];
    f.csr.insert(u.row, u.col, u.nnz);
    (void)f.csr.csr();
  });
  const double hr = median_ms(t, 1, 3, [&](int) { f.hyb.rebuild(); });
  const double df = t.time_ms([&] { f.dcsr.defragment(); });
  table.record(g.name, "  DCSR 1000 updates (Table IV)", d / spmv_ms, "SpMVs");
  table.record(g.name, "  HYB 1000 updates", h / spmv_ms, "SpMVs");
  table.record(g.name, "  CSR rebuild 1000 updates", cr / spmv_ms, "SpMVs");
  table.record(g.name, "  HYB rebuild (sort)", hr / spmv_ms, "SpMVs");
  table.record(g.name, "  DCSR defragment after the rounds", df / spmv_ms, "SpMVs");
}

void bench_graph(const std::string& spec, const stream_options& o, double copy_gbs, const defrag_policy& policy) {
  const edge_list g = make_matrix(spec);
  fmt::print("\n{}: {} vertices, {} edges\n", g.name, g.n, g.src.size());
  device_timer t;
  dcsr_matrix<pattern, device_space> frag;
  bool have = false;
  for (std::size_t b : o.batches) {
    if (b > g.src.size() && have) continue;
    streaming(g, std::min(b, std::max<std::size_t>(g.src.size(), 1)), o, t, have ? nullptr : &frag);
    have = have || frag.nnz() > 0;  // the smallest streamed batches fragment the most
  }
  {
    formats f(g, o.hyb_tail);
    iterative(g, f, o, t, policy);
    overhead(g, f, t);
  }
  if (have) spmv_fragmentation(g.name, frag, copy_gbs, table);
}
}  // namespace

namespace {
struct stream_cli {
  stream_options o;
  std::string batches = "1e4,1e5,1e6,1e7";
  std::vector<std::string> graphs;
};

int run_stream(stream_cli& c) {
  stream_options& o = c.o;
  o.batches = parse_sizes(c.batches);
  fmt::print("device: {} ({})\n", device_backend_name(), device_description());
  const double copy = copy_bandwidth_gbs(std::size_t(1) << 28);
  table.record("-", "copy bandwidth (read + write)", copy, "GB/s");
  const defrag_policy policy = make_defrag_policy(defrag_mode::measured);
  fmt::print("defragmentation policy: measured, calibration {}\n", policy.cal.source);
  for (const auto& g : c.graphs) bench_graph(g, o, copy, policy);
  if (!o.json.empty()) table.write_json(o.json);
  return 0;
}
}  // namespace

void add_stream(CLI::App& bench, int& status) {
  auto [app, c] = subcommand<stream_cli>(bench, "stream", "streaming and iterative updates: DCSR against HYB + delta and a CSR rebuild, and the read overhead (King et al. IV-A, IV-C)", status, run_stream);
  app->add_option("--json", c->o.json, "write the results as JSON");
  app->add_option("--batches", c->batches, "batch sizes, comma-separated (1e5 notation)")->capture_default_str();
  app->add_option("--rounds", c->o.rounds, "iterative rounds")->check(CLI::PositiveNumber)->capture_default_str();
  app->add_option("--spmvs", c->o.spmvs, "SpMVs per round")->check(CLI::PositiveNumber)->capture_default_str();
  app->add_option("--hyb-tail", c->o.hyb_tail, "HYB rebuild threshold: the delta's share of the entries")
      ->check(CLI::Range(1e-9, 1.0))->capture_default_str();
  app->add_option("MATRIX", c->graphs, matrix_help)->required();
}

}  // namespace fg::bench
