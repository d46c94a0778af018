// fluxgraph::graph's store: construction and the reads (degrees, neighbours, CSR, SpMV).
#include "api/store.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"

namespace fluxgraph::api {

using fg::device_space;
using fg::host_space;
using fg::pattern;

namespace {

fg::dcsr_config config(const graph_options& opt) {
  if (opt.max_segments < 2 || opt.max_segments > 64)
    throw invalid_argument("graph_options: max_segments must be in [2, 64], got " + std::to_string(opt.max_segments));
  fg::dcsr_config c;
  c.max_segments = opt.max_segments;
  return c;
}

fg::vertex_t vertex_count(vertex_id n) {
  if (n < 0 || n > std::numeric_limits<fg::vertex_t>::max())
    throw invalid_argument("graph: " + std::to_string(n) + " vertices is out of range [0, 2^31 - 1]");
  return fg::vertex_t(n);
}

// n elements at p, a pointer into space S's memory, copied to the host.
template <class S, class T>
std::vector<T> read_back(const T* p, std::size_t n) {
  std::vector<T> v(n);
  if (n == 0) return v;
  if constexpr (std::is_same_v<S, device_space>) fg::memory::copy_to_host(v.data(), p, n * sizeof(T));
  else std::memcpy(v.data(), p, n * sizeof(T));
  return v;
}

}  // namespace

template <class V, class S>
store<V, S>::store(vertex_id n, const graph_options& opt)
    : opt_(opt), g_(fg::orientation::out, vertex_count(n), config(opt)), policy_(fg::make_defrag_policy(opt.defrag)) {}

template <class V, class S>
store<V, S>::store(fg::dcsr_matrix<V, S>&& R, const graph_options& opt)
    : opt_(opt), g_(fg::orientation::out, std::move(R)), policy_(fg::make_defrag_policy(opt.defrag)) {}

template <class V, class S>
std::string store<V, S>::backend() const {
  if constexpr (std::is_same_v<S, host_space>) return "reference (sequential host twin)";
  else return fmt::format("{} ({})", fg::device_backend_name(), fg::device_description());
}

template <class V, class S>
memory_report store<V, S>::memory_use() const {
  memory_report r = g_.memory_report();
  if (in_pattern_) in_pattern_->account(r);
  if (in_weighted_) in_weighted_->store().account(r, "weighted in-edge store");
  if (kept_) r.parts.push_back({"kept pagerank", kept_->bytes()});
  {
    std::lock_guard<std::mutex> hold(reads_->lock);
    r.parts.push_back({"read views", reads_->reader.bytes()});
  }
  return r;
}

template <class V, class S>
std::vector<std::int64_t> store<V, S>::out_degree() const {
  const auto sizes = read_back<S>(g_.store().view().sizes, std::size_t(g_.num_vertices()));
  return std::vector<std::int64_t>(sizes.begin(), sizes.end());
}

template <class V, class S>
std::vector<vertex_id> store<V, S>::neighbors(vertex_id v) const {
  if (v < 0 || v >= g_.num_vertices())
    throw invalid_argument("neighbors: vertex " + std::to_string(v) + " is not in [0, " +
                           std::to_string(g_.num_vertices()) + ")");
  // Row v's size, segment count and segments, then the entries of each segment in row order.
  const fg::dcsr_view<V> A = g_.store().view();
  std::int64_t left = read_back<S>(A.sizes + v, 1)[0];
  const int nseg = read_back<S>(A.nseg + v, 1)[0];
  std::vector<vertex_id> out;
  out.reserve(std::size_t(left));
  for (int s = 0; s < nseg && left > 0; ++s) {
    const auto seg = read_back<S>(A.seg + s * A.pitch + 2 * fg::offset_t(v), 2);
    const std::int64_t take = std::min<std::int64_t>(left, seg[1] - seg[0]);
    const auto cols = read_back<S>(A.col + seg[0], std::size_t(take));
    out.insert(out.end(), cols.begin(), cols.end());
    left -= take;
  }
  std::sort(out.begin(), out.end());
  return out;
}

template <class V, class S>
csr store<V, S>::to_csr() const {
  const fg::csr_matrix<V, S> c = g_.store().to_csr();
  csr r;
  r.rows = c.rows;
  r.cols = c.cols;
  r.row_ptr = fg::to_vector(c.row_ptr);
  r.col = fg::to_vector(c.col);
  std::vector<double> val;
  if constexpr (!fg::is_pattern_v<V>) val = fg::to_vector(c.val);
  // Columns sorted within each row (the store keeps arrival order), values alongside.
  std::vector<std::int64_t> perm;
  for (std::size_t i = 0; i + 1 < r.row_ptr.size(); ++i) {
    const std::int64_t b = r.row_ptr[i], e = r.row_ptr[i + 1];
    if (val.empty()) {
      std::sort(r.col.begin() + b, r.col.begin() + e);
      continue;
    }
    perm.resize(std::size_t(e - b));
    std::iota(perm.begin(), perm.end(), b);
    std::sort(perm.begin(), perm.end(), [&](std::int64_t x, std::int64_t y) { return r.col[std::size_t(x)] < r.col[std::size_t(y)]; });
    std::vector<std::int32_t> c2(perm.size());
    std::vector<double> v2(perm.size());
    for (std::size_t j = 0; j < perm.size(); ++j) c2[j] = r.col[std::size_t(perm[j])], v2[j] = val[std::size_t(perm[j])];
    std::copy(c2.begin(), c2.end(), r.col.begin() + b);
    std::copy(v2.begin(), v2.end(), val.begin() + b);
  }
  r.val = std::move(val);
  return r;
}

template <class V, class S>
host_rows store<V, S>::host_view() const {
#if defined(FG_WITH_CUDA)
  if constexpr (std::is_same_v<S, device_space>)
    throw invalid_argument("host_view: this graph's store is in GPU memory; read a host copy (to_csr) instead");
#endif
  const fg::dcsr_view<V> A = g_.store().view();
  static_assert(std::is_same_v<fg::vertex_t, std::int32_t> && std::is_same_v<fg::offset_t, std::int64_t>);
  host_rows r;
  r.rows = g_.num_vertices();
  r.pitch = A.pitch;
  r.size = A.sizes;
  r.nseg = A.nseg;
  r.seg = A.seg;
  r.col = A.col;
  if constexpr (!fg::is_pattern_v<V>) r.val = A.val;
  return r;
}

namespace {
// y = A x over Sr, x and y pointers into space S's memory.
template <class Sr, class V, class S>
void spmv_in(const fg::dcsr_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  fg::detail::kernels<S>::template dcsr_spmv<Sr>(A, x, y);
}

// n doubles from p to q, both in space S's memory.
template <class S>
void copy_in(double* q, const double* p, std::size_t n) {
  if constexpr (std::is_same_v<S, host_space>) std::copy(p, p + n, q);
  else fg::memory::copy_on_device(q, p, n * sizeof(double));
}

template <class S>
void flags(const double* x, std::uint8_t* f, std::size_t n) {
  if constexpr (std::is_same_v<S, host_space>) for (std::size_t i = 0; i < n; ++i) f[i] = x[i] != 0;
  else flags_on_device(x, f, n);
}
template <class S>
void unflag(const std::uint8_t* f, double* y, std::size_t n) {
  if constexpr (std::is_same_v<S, host_space>) for (std::size_t i = 0; i < n; ++i) y[i] = f[i];
  else unflag_on_device(f, y, n);
}
}  // namespace

template <class V, class S>
void store<V, S>::spmv(const double* x, double* y, semiring s, memory where) const {
  const std::size_t n = std::size_t(g_.num_vertices());
  if (n == 0) return;
  if (x == nullptr || y == nullptr) throw invalid_argument("spmv: x or y is null");
  if (s == semiring::or_and && !fg::is_pattern_v<V>)
    throw invalid_argument("spmv: or_and needs an unweighted graph (a weight has no boolean meaning)");
#if defined(FG_WITH_CUDA)
  const bool here = (where == memory::device) == std::is_same_v<S, device_space>;
#else
  const bool here = true;  // host and device memory are one
#endif
  // Vectors elsewhere are copied into the store's space and back.
  fg::array<double, S> xs, ys;
  const double* xp = x;
  double* yp = y;
  if (!here) {
    xs = fg::array<double, S>(n);
    ys = fg::array<double, S>(n);
    if (where == memory::host) fg::memory::copy_to_device(xs.data(), x, n * sizeof(double));
    else fg::memory::copy_to_host(xs.data(), x, n * sizeof(double));
    xp = xs.data();
    yp = ys.data();
  }
  const fg::dcsr_view<V> A = g_.store().view();
  if (s == semiring::plus_times) {
    std::lock_guard<std::mutex> hold(reads_->lock);
    fg::array<double, S> xa(n), ya(n);
    copy_in<S>(xa.data(), xp, n);
    reads_->reader.spmv(g_.store(), xa, ya);
    copy_in<S>(yp, ya.data(), n);
  } else if (s == semiring::min_plus) {
    spmv_in<fg::min_plus<double>, V, S>(A, xp, yp);
  } else if constexpr (fg::is_pattern_v<V>) {
    fg::array<std::uint8_t, S> fx(n), fy(n);
    flags<S>(xp, fx.data(), n);
    spmv_in<fg::or_and, V, S>(A, fx.data(), fy.data());
    unflag<S>(fy.data(), yp, n);
  }
  if (!here) {
    if (where == memory::host) fg::memory::copy_to_host(y, ys.data(), n * sizeof(double));
    else fg::memory::copy_to_device(y, ys.data(), n * sizeof(double));
  }
}

#define FG_INSTANTIATE(V, S) template class store<V, S>;
FG_API_FOR_EACH_STORE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fluxgraph::api
