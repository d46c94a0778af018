// The C++ leg of python/tests/test_surfaces.py: a graph file through the public C++ API alone
// (fluxgraph::read, the algorithms, a stream of inserts and deletes), every result printed in the
// file's own ids, for the test to compare with what the CLI and Python give for the same file.
// Lines: "what id value" per vertex, "what value" for a count, "edge u v" for the stream's edges.
// usage: fg_surface FILE SOURCE_ID [auto|cpu]
#include <fluxgraph/fluxgraph.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

namespace {
using fluxgraph::vertex_id;

void values(const char* what, const std::vector<std::int64_t>& id, const std::vector<double>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) std::printf("%s %lld %.17g\n", what, static_cast<long long>(id[i]), v[i]);
}

// The graph's edges (sorted) in batches of 100 through a stream, each batch's every 7th edge
// deleted again in a batch of its own: the edges left, in the file's ids (python/tests/
// test_surfaces.py makes the same batches through Python's Stream).
// The stream renumbers (stream_options::ids, the default): it takes the file's ids and names its
// vertices by them.
void stream_with_deletes(const fluxgraph::graph& g, const std::vector<std::int64_t>& id, fluxgraph::device where) {
  fluxgraph::stream_options so;
  so.where = where;
  so.pagerank_at_end = false;
  fluxgraph::stream s(so);
  const fluxgraph::coo e = g.to_coo();
  for (std::size_t first = 0; first < e.src.size(); first += 100) {
    std::vector<std::int64_t> ins_src, ins_dst, del_src, del_dst;
    for (std::size_t i = first; i < std::min(first + 100, e.src.size()); ++i) {
      ins_src.push_back(id[std::size_t(e.src[i])]), ins_dst.push_back(id[std::size_t(e.dst[i])]);
      if ((i - first) % 7 == 0) del_src.push_back(ins_src.back()), del_dst.push_back(ins_dst.back());
    }
    s.apply({ins_src.data(), ins_dst.data(), ins_src.size()}, {});
    s.apply({}, {del_src.data(), del_dst.data(), del_src.size()});
  }
  const fluxgraph::coo left = s.edges();
  const std::vector<std::int64_t>& name = s.ids();
  for (std::size_t i = 0; i < left.src.size(); ++i)
    std::printf("edge %lld %lld\n", static_cast<long long>(name[std::size_t(left.src[i])]),
                static_cast<long long>(name[std::size_t(left.dst[i])]));
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: fg_surface FILE SOURCE_ID [auto|cpu]\n");
    return 2;
  }
  try {
    fluxgraph::graph_options opt;
    opt.where = argc > 3 && std::string(argv[3]) == "cpu" ? fluxgraph::device::cpu : fluxgraph::device::automatic;
    fluxgraph::graph g = fluxgraph::read(argv[1], opt);  // renumbering: calls take the file's ids
    const std::vector<std::int64_t> id = g.ids();      // and results by vertex are named by them
    const vertex_id source = std::stoll(argv[2]);
    if (g.index(source) < 0) throw fluxgraph::error(std::string("no vertex ") + argv[2]);
    std::printf("vertices %lld\nedges %lld\n", static_cast<long long>(g.num_vertices()), static_cast<long long>(g.num_edges()));

    fluxgraph::pagerank_options p;
    p.tol = 1e-12;
    values("pagerank", id, g.pagerank(p).score);
    std::vector<double> v;
    for (std::int32_t l : g.bfs(source).level) v.push_back(l);
    values("bfs", id, v);
    values("sssp", id, g.sssp(source).dist);
    v.clear();
    for (std::int64_t c : g.wcc().label) v.push_back(double(c));  // the least member's id
    values("wcc", id, v);
    v.clear();
    for (std::int64_t c : g.cdlp(10).label) v.push_back(double(c));
    values("cdlp", id, v);
    values("lcc", id, g.lcc().lcc);
    std::printf("triangles %lld\n", static_cast<long long>(g.triangles().total));
    std::printf("closure %lld\n", static_cast<long long>(g.closure().num_edges()));
    std::printf("reach %zu\n", g.reach({source}).col.size());
    stream_with_deletes(g, id, opt.where);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fg_surface: %s\n", e.what());
    return 1;
  }
}
