// Generated and loaded benchmark matrices.
#include "bench/matrices.hpp"

#include <random>
#include <thread>

#include "bench/baselines.hpp"
#include "core/error.hpp"
#include "loaders/graph_file.hpp"

namespace fg::bench {

namespace {
std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t p = 0;
  for (std::size_t q; (q = s.find(':', p)) != std::string::npos; p = q + 1) out.push_back(s.substr(p, q - p));
  out.push_back(s.substr(p));
  return out;
}

// Stencil: vertex (i, j[, k]) links to itself and its axis neighbours (5 or 7 points).
edge_list poisson(int side, int dims) {
  edge_list e;
  e.kind = "poisson";
  e.name = "poisson" + std::to_string(dims) + "d-" + std::to_string(side);
  const std::int64_t n = dims == 2 ? std::int64_t(side) * side : std::int64_t(side) * side * side;
  FG_EXPECTS(n < 2147483647, "stencil too large");
  e.n = vertex_t(n);
  const std::int64_t stride[3] = {1, side, std::int64_t(side) * side};
  for (std::int64_t v = 0; v < n; ++v) {
    e.src.push_back(vertex_t(v));
    e.dst.push_back(vertex_t(v));
    for (int d = 0; d < dims; ++d) {
      const std::int64_t coord = (v / stride[d]) % side;
      if (coord > 0) e.src.push_back(vertex_t(v)), e.dst.push_back(vertex_t(v - stride[d]));
      if (coord + 1 < side) e.src.push_back(vertex_t(v)), e.dst.push_back(vertex_t(v + stride[d]));
    }
  }
  return e;
}
}  // namespace

edge_list make_matrix(const std::string& spec) {
  const auto part = split(spec);
  edge_list e;
  if (part[0] == "rmat" && (part.size() == 2 || part.size() == 3)) {  // rmat:SCALE[:EDGE_FACTOR], Graph500's 16
    const int scale = std::stoi(part[1]), ef = part.size() == 3 ? std::stoi(part[2]) : 16;
    e.kind = "rmat";
    e.name = "rmat-" + part[1] + (part.size() == 3 ? "-ef" + part[2] : "");
    e.n = vertex_t(1) << scale;
    rmat(scale, ef, 42, e.src, e.dst);
  } else if (part[0] == "uniform" && part.size() == 3) {
    const int scale = std::stoi(part[1]);
    const double mu = std::stod(part[2]);
    e.kind = "uniform";
    e.name = "uniform-" + part[1] + "-mu" + part[2];
    e.n = vertex_t(1) << scale;
    const std::size_t m = std::size_t(mu * double(e.n));
    e.src.resize(m);
    e.dst.resize(m);
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        std::mt19937_64 g(77 + t);
        std::uniform_int_distribution<vertex_t> u(0, e.n - 1);
        for (std::size_t i = t; i < m; i += threads) e.src[i] = u(g), e.dst[i] = u(g);
      });
    for (auto& th : pool) th.join();
  } else if ((part[0] == "poisson2d" || part[0] == "poisson3d") && part.size() == 2) {
    e = poisson(std::stoi(part[1]), part[0] == "poisson2d" ? 2 : 3);
  } else {
    edge_file f = read_graph(spec);
    e.kind = "real";
    e.name = spec.substr(spec.find_last_of('/') + 1);
    e.n = vertex_t(f.num_vertices);
    e.src = std::move(f.src);
    e.dst = std::move(f.dst);
  }
  return e;
}

}  // namespace fg::bench
