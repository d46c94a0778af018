// Host steps of the AMG setup (algorithms/detail/amg_setup.hpp).
#include <algorithm>
#include <cmath>

#include "algorithms/detail/amg_setup.hpp"
#include "core/error.hpp"

namespace fg::detail {

namespace {
csr_matrix<double, host_space> host_csr(vertex_t rows, vertex_t cols, const std::vector<offset_t>& ptr, const std::vector<vertex_t>& col,
                                        const std::vector<double>& val) {
  csr_matrix<double, host_space> m;
  m.rows = rows, m.cols = cols;
  m.row_ptr = to_space<host_space>(ptr), m.col = to_space<host_space>(col), m.val = to_space<host_space>(val);
  return m;
}
std::vector<double> diagonal(const csr_matrix<double, host_space>& A) {
  std::vector<double> d(std::size_t(A.rows), 0.0);
  for (vertex_t i = 0; i < A.rows; ++i)
    for (offset_t j = A.row_ptr[std::size_t(i)]; j < A.row_ptr[std::size_t(i) + 1]; ++j)
      if (A.col[std::size_t(j)] == i) d[std::size_t(i)] += A.val[std::size_t(j)];
  return d;
}
}  // namespace

strength_graph strength(const csr_matrix<double, host_space>& A, double theta) {
  const std::vector<double> d = diagonal(A);
  strength_graph C;
  for (vertex_t i = 0; i < A.rows; ++i) {
    for (offset_t j = A.row_ptr[std::size_t(i)]; j < A.row_ptr[std::size_t(i) + 1]; ++j) {
      const vertex_t c = A.col[std::size_t(j)];
      const double a = std::abs(A.val[std::size_t(j)]);
      if (c != i && a != 0 && a >= theta * std::sqrt(std::abs(d[std::size_t(i)] * d[std::size_t(c)]))) C.col.push_back(c);
    }
    C.ptr.push_back(offset_t(C.col.size()));
  }
  return C;
}

std::vector<vertex_t> aggregate(const strength_graph& C, vertex_t& count) {
  const auto n = C.ptr.size() - 1;
  std::vector<vertex_t> agg(n, -1);
  count = 0;
  auto neighbours = [&](std::size_t i) { return std::pair{C.col.begin() + C.ptr[i], C.col.begin() + C.ptr[i + 1]}; };
  for (std::size_t i = 0; i < n; ++i) {  // 1: roots whose neighbourhood is free
    if (agg[i] >= 0) continue;
    const auto [b, e] = neighbours(i);
    if (std::any_of(b, e, [&](vertex_t j) { return agg[std::size_t(j)] >= 0; })) continue;
    agg[i] = count;
    for (auto it = b; it != e; ++it) agg[std::size_t(*it)] = count;
    ++count;
  }
  std::vector<vertex_t> phase1 = agg;  // 2: join a neighbour's phase-1 aggregate
  for (std::size_t i = 0; i < n; ++i) {
    if (agg[i] >= 0) continue;
    const auto [b, e] = neighbours(i);
    const auto it = std::find_if(b, e, [&](vertex_t j) { return phase1[std::size_t(j)] >= 0; });
    if (it != e) agg[i] = phase1[std::size_t(*it)];
  }
  for (std::size_t i = 0; i < n; ++i) {  // 3: what is left
    if (agg[i] >= 0) continue;
    agg[i] = count;
    const auto [b, e] = neighbours(i);
    for (auto it = b; it != e; ++it)
      if (agg[std::size_t(*it)] < 0) agg[std::size_t(*it)] = count;
    ++count;
  }
  return agg;
}

csr_matrix<double, host_space> tentative(const std::vector<vertex_t>& agg, vertex_t count, const std::vector<double>& B,
                                         std::vector<double>& B_next) {
  B_next.assign(std::size_t(count), 0.0);
  for (std::size_t i = 0; i < agg.size(); ++i) B_next[std::size_t(agg[i])] += B[i] * B[i];
  for (double& x : B_next) x = std::sqrt(x);
  std::vector<offset_t> ptr(agg.size() + 1);
  std::vector<double> val(agg.size());
  for (std::size_t i = 0; i < agg.size(); ++i) ptr[i + 1] = offset_t(i + 1), val[i] = B[i] / B_next[std::size_t(agg[i])];
  return host_csr(vertex_t(agg.size()), count, ptr, agg, val);
}

csr_matrix<double, host_space> smoothed(const csr_matrix<double, host_space>& AT, const csr_matrix<double, host_space>& T,
                                        const std::vector<double>& dinv, double w) {
  std::vector<offset_t> ptr{0};
  std::vector<vertex_t> col;
  std::vector<double> val;
  for (vertex_t i = 0; i < AT.rows; ++i) {
    const std::size_t first = col.size();
    for (offset_t j = AT.row_ptr[std::size_t(i)]; j < AT.row_ptr[std::size_t(i) + 1]; ++j)
      col.push_back(AT.col[std::size_t(j)]), val.push_back(-w * dinv[std::size_t(i)] * AT.val[std::size_t(j)]);
    for (offset_t j = T.row_ptr[std::size_t(i)]; j < T.row_ptr[std::size_t(i) + 1]; ++j) {  // T's one entry
      const vertex_t c = T.col[std::size_t(j)];
      const auto at = std::lower_bound(col.begin() + long(first), col.end(), c);
      if (at != col.end() && *at == c) val[std::size_t(at - col.begin())] += T.val[std::size_t(j)];
      else val.insert(val.begin() + (at - col.begin()), T.val[std::size_t(j)]), col.insert(at, c);
    }
    ptr.push_back(offset_t(col.size()));
  }
  return host_csr(AT.rows, AT.cols, ptr, col, val);
}

csr_matrix<double, host_space> transposed(const csr_matrix<double, host_space>& A) {
  std::vector<offset_t> ptr(std::size_t(A.cols) + 1, 0);
  for (std::size_t j = 0; j < A.col.size(); ++j) ++ptr[std::size_t(A.col[j]) + 1];
  for (std::size_t c = 1; c < ptr.size(); ++c) ptr[c] += ptr[c - 1];
  std::vector<offset_t> at(ptr.begin(), ptr.end() - 1);
  std::vector<vertex_t> col(A.col.size());
  std::vector<double> val(A.col.size());
  for (vertex_t i = 0; i < A.rows; ++i)  // rows in order: each transposed row comes out sorted
    for (offset_t j = A.row_ptr[std::size_t(i)]; j < A.row_ptr[std::size_t(i) + 1]; ++j) {
      const auto k = std::size_t(at[std::size_t(A.col[std::size_t(j)])]++);
      col[k] = i, val[k] = A.val[std::size_t(j)];
    }
  return host_csr(A.cols, A.rows, ptr, col, val);
}

std::vector<double> cholesky(const csr_matrix<double, host_space>& A) {
  const auto n = std::size_t(A.rows);
  std::vector<double> L(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (offset_t j = A.row_ptr[i]; j < A.row_ptr[i + 1]; ++j)
      if (const auto c = std::size_t(A.col[std::size_t(j)]); c <= i) L[i * n + c] += A.val[std::size_t(j)];
  for (std::size_t j = 0; j < n; ++j) {
    double d = L[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= L[j * n + k] * L[j * n + k];
    FG_EXPECTS(d > 0, "amg: the coarsest matrix is not positive definite");
    L[j * n + j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = L[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / L[j * n + j];
    }
  }
  return L;
}

void cholesky_solve(const std::vector<double>& L, std::vector<double>& x) {
  const std::size_t n = x.size();
  for (std::size_t i = 0; i < n; ++i) {  // L y = b
    for (std::size_t k = 0; k < i; ++k) x[i] -= L[i * n + k] * x[k];
    x[i] /= L[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T x = y
    for (std::size_t k = i + 1; k < n; ++k) x[i] -= L[k * n + i] * x[k];
    x[i] /= L[i * n + i];
  }
}

}  // namespace fg::detail
