// The Q1 finite-element Poisson problem (algorithms/fem_poisson.hpp). On a uniform grid the
// assembled Q1 matrices are tensor products of the 1D ones, stiffness k = (-1, 2, -1) / h and
// mass m = (1, 4, 1) h / 6, so an entry for the neighbour at offset (dx, dy, dz) is
// k(dx) m(dy) m(dz) + m(dx) k(dy) m(dz) + m(dx) m(dy) k(dz), and the mass entry m(dx) m(dy) m(dz):
// no element loop is needed.
#include "algorithms/fem_poisson.hpp"

#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace fg {

namespace {
double k1(int d, double h) { return d == 0 ? 2 / h : -1 / h; }
double m1(int d, double h) { return d == 0 ? 4 * h / 6 : h / 6; }
// u = g(x) p(y) p(z) with p(t) = t - t^2 and g(x) = p(x) e^x; -Δu = f. Not a product of sines:
// those are eigenvectors of the Q1 matrices, and CG would stop after one step.
double p2(double t) { return t - t * t; }
double solution(double x, double y, double z) { return p2(x) * std::exp(x) * p2(y) * p2(z); }
double source(double x, double y, double z) {
  const double g = p2(x) * std::exp(x), gxx = std::exp(x) * (-3 * x - x * x);
  return -(gxx * p2(y) * p2(z) - 2 * g * p2(z) - 2 * g * p2(y));
}
}  // namespace

template <class T>
fem_poisson<T> fem_poisson_3d(vertex_t intervals) {
  FG_EXPECTS(intervals >= 2, "fem_poisson_3d: at least 2 intervals a side");
  const std::int64_t m = intervals - 1;  // unknowns a side
  FG_EXPECTS(m * m * m <= std::numeric_limits<vertex_t>::max(), "fem_poisson_3d: too many unknowns for vertex_t");
  fem_poisson<T> p;
  p.intervals = intervals;
  p.h = 1.0 / intervals;
  const double h = p.h;
  const auto n = vertex_t(m * m * m);
  auto id = [m](std::int64_t i, std::int64_t j, std::int64_t k) { return vertex_t(i + m * (j + m * k)); };
  std::vector<offset_t> ptr{0};
  std::vector<vertex_t> col;
  std::vector<T> val;
  p.b.assign(std::size_t(n), T(0));
  p.exact.resize(std::size_t(n));
  for (std::int64_t k = 0; k < m; ++k)
    for (std::int64_t j = 0; j < m; ++j)
      for (std::int64_t i = 0; i < m; ++i) {
        const vertex_t row = id(i, j, k);
        double load = 0;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const std::int64_t x = i + dx, y = j + dy, z = k + dz;  // grid node (x + 1, y + 1, z + 1)
              load += m1(dx, h) * m1(dy, h) * m1(dz, h) * source(double(x + 1) * h, double(y + 1) * h, double(z + 1) * h);
              if (x < 0 || y < 0 || z < 0 || x >= m || y >= m || z >= m) continue;  // a boundary node: u = 0 there
              col.push_back(id(x, y, z));
              val.push_back(T(k1(dx, h) * m1(dy, h) * m1(dz, h) + m1(dx, h) * k1(dy, h) * m1(dz, h) + m1(dx, h) * m1(dy, h) * k1(dz, h)));
            }
        ptr.push_back(offset_t(col.size()));
        p.b[std::size_t(row)] = T(load);
        p.exact[std::size_t(row)] = solution(double(i + 1) * h, double(j + 1) * h, double(k + 1) * h);
      }
  p.A.rows = p.A.cols = n;
  p.A.row_ptr = to_space<host_space>(ptr);
  p.A.col = to_space<host_space>(col);
  p.A.val = to_space<host_space>(val);
  return p;
}

template <class T>
double fem_l2_error(const fem_poisson<T>& p, const std::vector<T>& x) {
  FG_EXPECTS(x.size() == p.exact.size(), "fem_l2_error: one value per unknown");
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += (double(x[i]) - p.exact[i]) * (double(x[i]) - p.exact[i]);
  return std::sqrt(p.h * p.h * p.h * s);
}

template fem_poisson<float> fem_poisson_3d<float>(vertex_t);
template fem_poisson<double> fem_poisson_3d<double>(vertex_t);
template double fem_l2_error<float>(const fem_poisson<float>&, const std::vector<float>&);
template double fem_l2_error<double>(const fem_poisson<double>&, const std::vector<double>&);

}  // namespace fg
