// SURAA construction (Algorithm 2, the setup phase) and SpMV entry points: argument checks,
// allocation, Freedman–Diaconis segmentation and grouping (host arithmetic on a few values read
// back from the sorted matrix), then the twin of the matrix's memory space.
#include "storage/suraa.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"  // exclusive_scan, FG_FOR_EACH_VALUE, FG_FOR_EACH_SPMV
#include "storage/detail/suraa_kernels.hpp"

namespace fg {
namespace {

/// Vector-kernel threads per row for a G2 segment: the paper's Y (a multiple of 32 from the mean
/// npr, Algorithm 1 lines 7-9), rounded up to a power of two <= 256 so it divides the block.
int vector_threads(offset_t mean_npr) {
  const int y = detail::suraa_threads(mean_npr);
  int p = 32;
  while (p < y && p < 256) p *= 2;
  return p;
}

/// Freedman–Diaconis over the sorted npr (descending): reads the lengths of the sorted rows 0,
/// m/4, 3m/4 and m-1 from the scanned row_ptr.
template <class S>
suraa_fd freedman_diaconis(const offset_t* row_ptr, vertex_t m, int max_segments) {
  const offset_t M = m, q1 = M / 4, q3 = 3 * M / 4;
  const offset_t pos[8] = {0, 1, q1, q1 + 1, q3, q3 + 1, M - 1, M};
  offset_t v[8];
  detail::suraa_kernels<S>::suraa_read(row_ptr, pos, 8, v);
  suraa_fd fd;
  fd.npr_max = v[1] - v[0];
  fd.q_upper = v[3] - v[2];
  fd.q_lower = v[5] - v[4];
  fd.npr_min = v[7] - v[6];
  // The rule's bin width in npr units; npr are integers, so no bin is narrower than one (this also
  // covers IQR = 0, where the rule degenerates).
  fd.width = std::max(2.0 * double(fd.q_upper - fd.q_lower) / std::cbrt(double(m)), 1.0);
  fd.bins = offset_t(std::ceil(double(fd.npr_max - fd.npr_min) / fd.width));
  const offset_t k = std::clamp<offset_t>(fd.bins, 1, max_segments);
  fd.segment_rows = vertex_t((M + k - 1) / k);
  return fd;
}

/// Equal segments of fd.segment_rows sorted rows (the last may be shorter), grouped (§4.1): G1 takes
/// whole segments from the top while their mean npr > 32 and G1 holds <= max_child_threads rows;
/// the rest are G2 (mean >= 32) or G3.
template <class S>
std::vector<suraa_segment> make_segments(const offset_t* row_ptr, vertex_t m, const suraa_fd& fd,
                                         const suraa_options& opts) {
  std::vector<offset_t> bound;
  for (offset_t b = 0; b < m; b += fd.segment_rows) bound.push_back(b);
  bound.push_back(m);
  std::vector<offset_t> at(bound.size());
  detail::suraa_kernels<S>::suraa_read(row_ptr, bound.data(), bound.size(), at.data());
  std::vector<suraa_segment> segs;
  bool g1_open = true;
  vertex_t g1_rows = 0;
  for (std::size_t s = 0; s + 1 < bound.size(); ++s) {
    suraa_segment g;
    g.begin = vertex_t(bound[s]);
    g.end = vertex_t(bound[s + 1]);
    g.nnz = at[s + 1] - at[s];
    const offset_t rows = g.end - g.begin, mean = g.nnz / rows;
    if (g1_open && g.nnz > 32 * rows && g1_rows + rows <= opts.max_child_threads) {
      g.group = suraa_group::g1_dynamic;
      g.threads = detail::suraa_threads(mean);
      g1_rows += vertex_t(rows);
    } else {
      g1_open = false;
      g.group = g.nnz >= 32 * rows ? suraa_group::g2_vector : suraa_group::g3_scalar;
      g.threads = g.group == suraa_group::g2_vector ? vector_threads(mean) : 1;
    }
    segs.push_back(g);
  }
  return segs;
}

/// The launch plan: consecutive segments with the same group and threads per row joined into one
/// launch. Within a group a row's result depends only on the kernel and its threads (a thread, a Y-wide
/// vector, or a block per row), never on where its launch begins, so joining changes no bit of y.
std::vector<suraa_segment> merge_launches(const std::vector<suraa_segment>& segs) {
  std::vector<suraa_segment> out;
  for (const suraa_segment& s : segs) {
    if (!out.empty() && out.back().group == s.group && out.back().threads == s.threads && out.back().end == s.begin) {
      out.back().end = s.end;
      out.back().nnz += s.nnz;
    } else {
      out.push_back(s);
    }
  }
  return out;
}

}  // namespace

template <class V, class S>
suraa_matrix<V, S> to_suraa(const csr_matrix<V, S>& A, const suraa_options& opts) {
  FG_EXPECTS(opts.max_segments >= 1, "suraa_options.max_segments must be >= 1");
  FG_EXPECTS(opts.max_child_threads >= 0, "suraa_options.max_child_threads must be >= 0");
  FG_EXPECTS(A.rows >= 0 && A.cols >= 0, "to_suraa: negative dimension");
  using K = detail::suraa_kernels<S>;
  suraa_matrix<V, S> m;
  m.rows = A.rows;
  m.cols = A.cols;
  m.opts = opts;
  m.row_ptr = array<offset_t, S>(std::size_t(A.rows) + 1);
  m.perm = array<vertex_t, S>(std::size_t(A.rows));
  m.col = array<vertex_t, S>(std::size_t(A.nnz()));
  m.val = array<stored_t<V>, S>(is_pattern_v<V> ? 0 : std::size_t(A.nnz()));
  fill_zero(m.row_ptr);  // row_ptr[rows] = 0 before the scan; {0} for an empty matrix
  if (A.rows == 0) return m;
  K::suraa_sort_rows(A.row_ptr.data(), A.rows, m.perm.data(), m.row_ptr.data());
  detail::kernels<S>::exclusive_scan(m.row_ptr.data(), std::size_t(A.rows) + 1);
  if (A.nnz() > 0) K::template suraa_rearrange<V>(A.view(), m.perm.data(), m.row_ptr.data(), m.col.data(), m.val.data());
  m.fd = freedman_diaconis<S>(m.row_ptr.data(), A.rows, opts.max_segments);
  m.segments = make_segments<S>(m.row_ptr.data(), A.rows, m.fd, opts);
  m.launches = merge_launches(m.segments);
  return m;
}

template <class Sr, class V, class S>
void spmv(const suraa_matrix<V, S>& A, const array<typename Sr::value_type, S>& x,
          array<typename Sr::value_type, S>& y) {
  detail::check_spmv_sizes(x.size(), y.size(), A.rows, A.cols);
  const std::vector<suraa_segment>& plan = A.opts.merge_launches ? A.launches : A.segments;
  if (A.rows > 0)
    detail::suraa_kernels<S>::template suraa_spmv<Sr>(A.view(), plan.data(), plan.size(), A.opts.dynamic_parallelism,
                                                      x.data(), y.data());
}

#define FG_INSTANTIATE_IN(V, S) \
  template suraa_matrix<V, S> to_suraa<V, S>(const csr_matrix<V, S>&, const suraa_options&);
#define FG_INSTANTIATE(V) FG_INSTANTIATE_IN(V, host_space) FG_INSTANTIATE_IN(V, device_space)
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE
#undef FG_INSTANTIATE_IN

#define FG_SPMV_FORMAT suraa_matrix
FG_FOR_EACH_SPMV(FG_SPMV_OF_FORMAT)
#undef FG_SPMV_FORMAT

}  // namespace fg
