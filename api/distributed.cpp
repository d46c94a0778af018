// fluxgraph::ranks, read_edges(ranks&, path) and distributed_graph: the public facade of the
// distributed engine (distributed/dist_graph.hpp, distributed/dist_pagerank.hpp, core/comm.hpp).
#include "fluxgraph/distributed.hpp"

#include <algorithm>
#include <numeric>
#include <climits>
#include <exception>

#include "distributed/dist_pagerank.hpp"
#include "core/comm.hpp"
#include "core/semiring.hpp"
#include "distributed/dist_graph.hpp"
#include "loaders/graph_file.hpp"

namespace fluxgraph {

using fg::comm_op;
using fg::device_space;

ranks::ranks(const std::string& transport) : c_(fg::make_communicator(transport)) {}
ranks::~ranks() = default;
int ranks::rank() const noexcept { return c_->rank(); }
int ranks::size() const noexcept { return c_->size(); }
std::string ranks::transport() const { return c_->transport(); }
std::uint64_t ranks::bytes_sent() const noexcept { return c_->bytes_sent(); }
std::int64_t ranks::max(std::int64_t value) {
  c_->allreduce(&value, 1, comm_op::max);
  return value;
}

namespace {
// Every rank's sorted distinct ids, gathered on every rank and merged: the ids that appear, in
// increasing order, as one process's reader numbers them.
std::vector<std::int64_t> global_ids(fg::communicator& c, const fg::edge_share& s) {
  std::vector<std::int64_t> mine(s.src);
  mine.insert(mine.end(), s.dst.begin(), s.dst.end());
  std::sort(mine.begin(), mine.end());
  mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  std::vector<std::int64_t> counts(static_cast<std::size_t>(c.size()), 0);
  counts[std::size_t(c.rank())] = std::int64_t(mine.size());
  c.allreduce(counts.data(), c.size(), comm_op::sum);
  std::int64_t total = 0;
  for (std::int64_t k : counts) total += k;
  std::vector<std::int64_t> all(static_cast<std::size_t>(total));
  c.allgatherv(mine.data(), std::int64_t(mine.size()), all.data(), counts, sizeof(std::int64_t), true);
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}
}  // namespace

distributed_file read_edges(ranks& r, const std::string& path) {
  fg::communicator& c = r.comm();
  fg::edge_share s;
  std::int64_t failed = INT64_MAX;  // the lowest rank that could not read its share
  std::exception_ptr why;
  try {
    s = fg::read_graph_share(path, fg::line_share{c.rank(), c.size()});
  } catch (const error&) {
    failed = c.rank(), why = std::current_exception();
  }
  c.allreduce(&failed, 1, comm_op::min);
  if (why) std::rethrow_exception(why);  // this rank's own error, naming its line
  if (failed != INT64_MAX) throw error(path + ": rank " + std::to_string(failed) + " could not read its share of the lines");
  distributed_file f;
  f.path = path;
  f.weight = std::move(s.weight);
  if (s.dense) {
    std::int64_t n = s.num_vertices;
    c.allreduce(&n, 1, comm_op::max);
    f.num_vertices = n;
    f.original_id.resize(std::size_t(n));
    for (std::int64_t v = 0; v < n; ++v) f.original_id[std::size_t(v)] = v + 1;
    f.src.assign(s.src.begin(), s.src.end());
    f.dst.assign(s.dst.begin(), s.dst.end());
  } else {
    f.original_id = global_ids(c, s);
    if (f.original_id.size() > std::size_t(INT_MAX)) throw error(path + ": more than 2^31 - 1 vertices");
    f.num_vertices = vertex_id(f.original_id.size());
    auto dense = [&](std::int64_t id) {
      return std::int32_t(std::lower_bound(f.original_id.begin(), f.original_id.end(), id) - f.original_id.begin());
    };
    f.src.resize(s.src.size());
    f.dst.resize(s.dst.size());
    for (std::size_t i = 0; i < s.src.size(); ++i) f.src[i] = dense(s.src[i]), f.dst[i] = dense(s.dst[i]);
  }
  // A file with no edges at all is an error, as for one process (a rank may have none).
  std::int64_t edges = std::int64_t(f.src.size());
  c.allreduce(&edges, 1, comm_op::sum);
  if (edges == 0) throw input_error(path, 0, "empty file: no edges");
  return f;
}

struct distributed_graph::impl {
  virtual ~impl() = default;
  virtual distributed_batch apply(const edge_span<std::int32_t>& ins, const edge_span<std::int32_t>& del) = 0;
  virtual distributed_pagerank pagerank(const pagerank_options& opt) = 0;
  virtual std::vector<double> spmv(semiring s, const std::vector<double>& x) = 0;
  virtual std::vector<double> gather(const std::vector<double>& local) const = 0;
  virtual std::vector<vertex_id> local_ids() const = 0;
  virtual vertex_id num_vertices() const noexcept = 0;
  virtual std::int64_t num_edges() const = 0;
  virtual std::int64_t local_edges() const noexcept = 0;
  virtual std::string partition() const = 0;
  virtual fg::communicator& comm() const = 0;
};

namespace {

template <class V>
struct dist_impl final : distributed_graph::impl {
  fg::dist_graph<V, device_space> g;
  dist_impl(fg::communicator& c, fg::row_partition p, vertex_id n, bool in)
      : g(c, in ? fg::orientation::in : fg::orientation::out, std::move(p), fg::vertex_t(n)) {}

  distributed_batch apply(const edge_span<std::int32_t>& ins, const edge_span<std::int32_t>& del) override {
    using edges = typename fg::dist_graph<V, device_space>::edge_list;  // the caller's arrays, read where they are
    const fg::dist_batch_report r = g.apply(edges{ins.src, ins.dst, ins.weight, ins.size, ins.where == memory::device},
                                            edges{del.src, del.dst, nullptr, del.size, del.where == memory::device});
    distributed_batch b;
    b.batch = r.batch;
    b.vertices = r.vertices;
    b.bytes_sent = r.bytes_sent;
    b.edges = g.num_edges();
    return b;
  }
  distributed_pagerank pagerank(const pagerank_options& opt) override {
    pagerank_options o = opt;
    o.progress = nullptr;  // collective: a rank's progress line would repeat on every rank
    distributed_pagerank out = fg::pagerank(g, o);
    out.id = local_ids();
    return out;
  }
  template <class Sr>
  std::vector<double> run(const std::vector<double>& x) {
    using T = typename Sr::value_type;
    std::vector<T> xs(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      if constexpr (std::is_same_v<Sr, fg::or_and>) xs[i] = T(x[i] != 0);  // any nonzero is true
      else xs[i] = T(x[i]);
    }
    fg::array<T, device_space> y;
    fg::spmv<Sr>(g, fg::to_space<device_space>(xs), y);
    const std::vector<T> h = fg::to_vector(y);
    return {h.begin(), h.end()};
  }
  std::vector<double> spmv(semiring s, const std::vector<double>& x) override {
    if (x.size() != std::size_t(g.local_vertices()))
      throw invalid_argument("distributed_graph::spmv: x holds " + std::to_string(x.size()) + " entries for " +
                             std::to_string(g.local_vertices()) + " local vertices");
    if (s == semiring::plus_times) return run<fg::plus_times<double>>(x);
    if (s == semiring::min_plus) return run<fg::min_plus<double>>(x);
    if constexpr (!fg::is_pattern_v<V>) throw invalid_argument("or_and needs an unweighted graph");
    else return run<fg::or_and>(x);
  }
  std::vector<double> gather(const std::vector<double>& local) const override {
    return fg::to_vector(fg::gather_all(g, fg::to_space<device_space>(local)));
  }
  std::vector<vertex_id> local_ids() const override {
    std::vector<vertex_id> id(std::size_t(g.local_vertices()));
    for (std::size_t l = 0; l < id.size(); ++l) id[l] = g.partition().global(g.comm().rank(), fg::vertex_t(l));
    return id;
  }
  vertex_id num_vertices() const noexcept override { return g.num_vertices(); }
  std::int64_t num_edges() const override { return g.num_edges(); }
  std::int64_t local_edges() const noexcept override { return g.local().nnz(); }
  std::string partition() const override { return g.partition().name(); }
  fg::communicator& comm() const override { return g.comm(); }
};

fg::row_partition partition_of(const distributed_options& opt, int parts) {
  if (fg::row_partition::parse(opt.partition) == fg::partition_kind::cyclic) return fg::row_partition::cyclic(parts);
  if (opt.cuts.size() != std::size_t(parts) + 1)
    throw invalid_argument("partition blocks: " + std::to_string(parts + 1) + " cuts needed (balanced_cuts), got " +
                           std::to_string(opt.cuts.size()));
  fg::row_partition p;
  p.kind = fg::partition_kind::blocks;
  p.parts = parts;
  for (vertex_id c : opt.cuts) p.starts.push_back(fg::vertex_t(c));
  return p;
}
}  // namespace

distributed_graph::distributed_graph(ranks& r, vertex_id vertices, const distributed_options& opt) {
  const fg::row_partition p = partition_of(opt, r.size());
  if (opt.weighted) p_ = std::make_unique<dist_impl<double>>(r.comm(), p, vertices, opt.in_edges);
  else p_ = std::make_unique<dist_impl<fg::pattern>>(r.comm(), p, vertices, opt.in_edges);
}
distributed_graph::~distributed_graph() = default;
distributed_graph::distributed_graph(distributed_graph&&) noexcept = default;

distributed_batch distributed_graph::apply(const edge_span<std::int32_t>& ins, const edge_span<std::int32_t>& del) {
  return p_->apply(ins, del);
}
distributed_pagerank distributed_graph::pagerank(const pagerank_options& opt) { return p_->pagerank(opt); }
std::vector<double> distributed_graph::spmv(semiring s, const std::vector<double>& x) { return p_->spmv(s, x); }
std::vector<double> distributed_graph::gather(const std::vector<double>& local) const { return p_->gather(local); }
std::vector<vertex_id> distributed_graph::local_ids() const { return p_->local_ids(); }
vertex_id distributed_graph::num_vertices() const noexcept { return p_->num_vertices(); }
std::int64_t distributed_graph::num_edges() const { return p_->num_edges(); }
std::int64_t distributed_graph::local_edges() const noexcept { return p_->local_edges(); }
std::string distributed_graph::partition() const { return p_->partition(); }
std::pair<std::int64_t, double> distributed_graph::balance() const {
  std::int64_t most = p_->local_edges(), total = most;
  p_->comm().allreduce(&most, 1, comm_op::max);
  p_->comm().allreduce(&total, 1, comm_op::sum);
  return {most, double(total) / p_->comm().size()};
}

namespace {
// Every vertex's row entries over every rank's edges (rows: sources, or targets with in_edges).
std::vector<std::int64_t> row_entries(ranks& r, vertex_id n, const edge_span<std::int32_t>& e, bool in_edges) {
  std::vector<std::int64_t> rows(static_cast<std::size_t>(n), 0);
  const std::int32_t* row = in_edges ? e.dst : e.src;
  for (std::size_t i = 0; i < e.size; ++i)
    if (row[i] >= 0 && row[i] < n) ++rows[std::size_t(row[i])];
  r.comm().allreduce(rows.data(), int(n), comm_op::sum);
  return rows;
}
}  // namespace

std::vector<vertex_id> balanced_cuts(ranks& r, vertex_id n, const edge_span<std::int32_t>& e, bool in_edges) {
  const fg::row_partition p = fg::row_partition::balanced_blocks(row_entries(r, n, e, in_edges), r.size());
  return {p.starts.begin(), p.starts.end()};
}

std::vector<vertex_id> size_sorted_ids(ranks& r, vertex_id n, const edge_span<std::int32_t>& e, bool in_edges) {
  const std::vector<std::int64_t> rows = row_entries(r, n, e, in_edges);
  std::vector<vertex_id> order(static_cast<std::size_t>(n)), id(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), vertex_id(0));
  std::stable_sort(order.begin(), order.end(), [&](vertex_id a, vertex_id b) { return rows[std::size_t(a)] > rows[std::size_t(b)]; });
  for (std::size_t i = 0; i < order.size(); ++i) id[std::size_t(order[i])] = vertex_id(i);
  return id;
}

}  // namespace fluxgraph
