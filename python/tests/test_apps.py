"""The graph applications (docs/graph-apps.md) against networkx on real graphs, and kept current by
a Stream against networkx after every batch."""
import math

import networkx as nx
import numpy as np
import pytest

import fluxgraph
from conftest import data
from test_oracles import file_edges, nx_graph

GRAPHS = ["pagerank/graphs/email-Eu-core.txt", "closure/TG.cedge.data_23874.txt.gz"]


def loaded(name, device, weighted=False):
    src, dst = file_edges(data(name))
    n = int(max(src.max(), dst.max())) + 1
    g = fluxgraph.Graph(n, weighted=weighted, device=device)
    w = None
    if weighted:
        w = np.random.default_rng(3).uniform(0.0, 5.0, src.shape[0])
        g.insert(src, dst, w)
    else:
        g.insert(src, dst)
    return g, src, dst, n, w


@pytest.mark.parametrize("name", GRAPHS)
def test_traversals_and_components(name, device):
    g, src, dst, n, _ = loaded(name, device)
    G = nx_graph(src, dst, n)
    for s in (0, n // 2):
        want = nx.single_source_shortest_path_length(G, s)
        levels = g.bfs(s)
        assert levels.dtype == np.int32
        assert {v: int(l) for v, l in enumerate(levels) if l >= 0} == want
    labels = g.wcc()
    comps = list(nx.weakly_connected_components(G))
    assert g.apps_info["components"] == len(comps)
    for c in comps:
        assert {int(labels[v]) for v in c} == {min(c)}


@pytest.mark.parametrize("name", GRAPHS)
def test_sssp_against_dijkstra(name, device):
    g, src, dst, n, w = loaded(name, device, weighted=True)
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):  # parallel edges: the lightest
        if not G.has_edge(u, v) or G[u][v]["weight"] > x:
            G.add_edge(u, v, weight=x)
    want = nx.single_source_dijkstra_path_length(G, 0)
    dist = g.sssp(0)
    for v in range(n):
        if v in want:
            assert dist[v] == pytest.approx(want[v], rel=1e-12, abs=1e-12)
        else:
            assert math.isinf(dist[v])


@pytest.mark.parametrize("name", GRAPHS)
def test_triangles_and_clustering(name, device):
    g, src, dst, n, _ = loaded(name, device)
    U = nx_graph(src, dst, n).to_undirected()
    U.remove_edges_from(nx.selfloop_edges(U))
    tri = nx.triangles(U)
    per = g.triangles(per_vertex=True)
    assert per.tolist() == [tri[v] for v in range(n)]
    assert g.triangles() == sum(tri.values()) // 3
    # LCC on the graph stored both ways is networkx's undirected clustering
    both = fluxgraph.Graph(n, device=device)
    both.insert(np.concatenate([src, dst]), np.concatenate([dst, src]))
    clu = nx.clustering(U)
    assert np.allclose(both.lcc(), [clu[v] for v in range(n)], rtol=1e-12, atol=1e-15)


def test_cdlp_rules_by_hand():
    # 0-1-2 a triangle, 3-4 an edge, 5 alone: after one round every vertex takes its least
    # neighbour's label among the most frequent
    g = fluxgraph.Graph(6)
    g.insert([0, 1, 2, 3], [1, 2, 0, 4])
    assert g.cdlp(1).tolist() == [1, 0, 0, 4, 3, 5]
    assert g.cdlp(0).tolist() == list(range(6))


def test_stream_keeps_them_current(device):
    src, dst = file_edges(data("pagerank/graphs/email-Eu-core.txt"))
    n = int(max(src.max(), dst.max())) + 1
    s = fluxgraph.Stream(n, bfs=0, wcc=True, triangles=True, device=device)
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    rng = np.random.default_rng(1)
    for lo in range(0, src.shape[0], 2500):
        ins = (src[lo:lo + 2500], dst[lo:lo + 2500])
        present = list(G.edges())
        pick = rng.choice(len(present), size=min(100, len(present)), replace=False) if present else []
        dele = (np.array([present[i][0] for i in pick], dtype=np.int64), np.array([present[i][1] for i in pick], dtype=np.int64))
        r = s.apply(insert=ins, delete=dele if len(pick) else None)
        G.remove_edges_from(zip(dele[0].tolist(), dele[1].tolist()))
        G.add_edges_from(zip(ins[0].tolist(), ins[1].tolist()))
        U = G.to_undirected()
        U.remove_edges_from(nx.selfloop_edges(U))
        assert r["triangles"] == sum(nx.triangles(U).values()) // 3
        assert r["components"] == nx.number_weakly_connected_components(G)
        assert r["bfs_reached"] == len(nx.single_source_shortest_path_length(G, 0))
