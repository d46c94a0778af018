"""Results against networkx and SciPy on real graphs (tests/data, from ../shared/data), and the
API's streaming against the CLI's on the same edges."""
import gzip
import os
import subprocess

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import fluxgraph
from conftest import CLI, data


def file_edges(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        rows = [line.split()[:2] for line in f if line.strip() and line[0] not in "#%"]
    e = np.array(rows, dtype=np.int64)
    return e[:, 0], e[:, 1]


def nx_graph(src, dst, n):
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    return G


@pytest.mark.parametrize("name", ["email-Eu-core.txt", "p2p-Gnutella04.data_39994.txt.gz", "wiki-Vote.txt.gz"])
def test_pagerank_equals_networkx(name, device):
    path = data("pagerank", "graphs", name)
    g = fluxgraph.read(path, device=device, keep_ids=True)  # networkx built from the raw ids
    src, dst = file_edges(path)
    expect = nx.pagerank(nx_graph(src, dst, g.num_vertices), alpha=0.85, tol=1e-12, max_iter=1000)
    got = g.pagerank(damping=0.85, tol=1e-12)
    ref = np.array([expect[v] for v in range(g.num_vertices)])
    assert np.abs(got - ref).sum() < 1e-8 * g.num_vertices


def weighted_random(seed, n, m, device):
    """A random weighted graph with parallel edges, as fluxgraph and as networkx (weights added up)."""
    rng = np.random.default_rng(seed)
    src, dst, w = rng.integers(0, n, m), rng.integers(0, n, m), rng.uniform(0.1, 3, m)
    g = fluxgraph.Graph(n, weighted=True, device=device)
    g.insert(src, dst, w)
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):  # parallel edges add up
        G.add_edge(u, v, weight=x + (G[u][v]["weight"] if G.has_edge(u, v) else 0))
    return g, G


def test_weighted_pagerank_equals_networkx(device):
    g, G = weighted_random(2, 500, 5000, device)
    expect = nx.pagerank(G, tol=1e-12, weight="weight")
    assert np.abs(g.pagerank(tol=1e-12, weighted=True) - np.array([expect[v] for v in range(500)])).sum() < 1e-8 * 500
    unweighted = nx.pagerank(G, tol=1e-12, weight=None)
    # unweighted unless asked, as the CLI and the C++ API
    assert np.abs(g.pagerank(tol=1e-12) - np.array([unweighted[v] for v in range(500)])).sum() < 1e-8 * 500


def test_pagerank_float_reads_within_their_bound(device):
    # wiki-Vote at tol 1e-8: tol n = 7.1e-5 >= 2^-16, so csr_merge reads the scores as float
    path = data("pagerank", "graphs", "wiki-Vote.txt.gz")
    g = fluxgraph.read(path, device=device, keep_ids=True)  # networkx built from the raw ids
    src, dst = file_edges(path)
    n = g.num_vertices
    ref = nx.pagerank(nx_graph(src, dst, n), alpha=0.85, tol=1e-12, max_iter=1000)
    ref = np.array([ref[v] for v in range(n)])
    bound = 0.85 / 0.15 * (1e-8 * n + 2.0**-24)
    mixed = g.pagerank(tol=1e-8, kernel="csr_merge", warm=False)
    assert g.pagerank_info["mixed_reads"] == g.pagerank_info["iterations"] > 0
    assert np.abs(mixed - ref).sum() <= bound
    exact = g.pagerank(tol=1e-8, kernel="csr_merge", warm=False, mixed_precision=False)
    assert g.pagerank_info["mixed_reads"] == 0
    assert np.abs(exact - ref).sum() <= bound


@pytest.mark.parametrize("name", ["email-Eu-core.txt", "wiki-Vote.txt.gz", "p2p-Gnutella04.data_39994.txt.gz"])
def test_personalized_pagerank_equals_networkx(name, device):
    path = data("pagerank", "graphs", name)
    g = fluxgraph.read(path, device=device, keep_ids=True)  # networkx built from the raw ids
    src, dst = file_edges(path)
    n = g.num_vertices
    G = nx_graph(src, dst, n)
    rng = np.random.default_rng(7)
    hubs = [int(v) for v in np.argsort(-np.bincount(src, minlength=n))[:3]]
    dangling = [int(v) for v in range(n) if G.out_degree(v) == 0][:2]  # a walk that starts stuck
    sets = [[hubs[0]], hubs, [int(v) for v in rng.choice(np.unique(src), 5, replace=False)], dangling or [1]]
    sets += [[int(v)] for v in rng.choice(n, 4, replace=False)]  # 8 sets in one read

    def expect(seeds):
        r = nx.pagerank(G, alpha=0.85, personalization={v: 1 for v in seeds}, tol=1e-12, max_iter=1000)
        return np.array([r[v] for v in range(n)])

    one = g.personalized_pagerank(sets[1], tol=1e-12)
    assert g.pagerank_info["converged"] and one.shape == (n,)
    assert np.abs(one - expect(sets[1])).sum() <= 1e-6
    many = g.personalized_pagerank(sets, tol=1e-12)
    assert many.shape == (len(sets), n) and all(i["converged"] for i in g.pagerank_info)
    for row, seeds in zip(many, sets):
        assert np.abs(row - expect(seeds)).sum() <= 1e-6
    assert np.abs(many[1] - one).sum() <= 1e-12  # a set's result does not depend on its company


def test_personalized_pagerank_weighted_and_bad_seeds(device):
    g, G = weighted_random(3, 300, 3000, device)
    for weighted, weight in ((True, "weight"), (False, None)):
        expect = nx.pagerank(G, personalization={5: 1, 9: 1}, tol=1e-12, weight=weight)
        got = g.personalized_pagerank([5, 9, 9], tol=1e-12, weighted=weighted)  # a repeated seed counts once
        assert np.abs(got - np.array([expect[v] for v in range(300)])).sum() <= 1e-6
    with pytest.raises(ValueError, match="400"):
        g.personalized_pagerank([400])
    with pytest.raises(ValueError, match="empty"):
        g.personalized_pagerank([[1], []])
    with pytest.raises(ValueError, match="one vector at a time"):
        g.personalized_pagerank([1], kernel="csr_merge")


@pytest.mark.parametrize("name", ["OL.cedge.data_7035.txt.gz", "go_cc_parents.txt.gz"])
def test_closure_equals_networkx(name, device):
    path = data("closure", name)
    g = fluxgraph.read(path, device=device, keep_ids=True)  # networkx built from the raw ids
    src, dst = file_edges(path)
    G = nx_graph(src, dst, g.num_vertices)
    plus = g.closure()
    expect = nx.transitive_closure(G, reflexive=False)
    e = plus.edges()
    assert set(zip(e[0].tolist(), e[1].tolist())) == set(expect.edges())
    # and the published size (tests/data/closure/expected.tsv)
    with open(data("closure", "expected.tsv")) as f:
        sizes = {line.split()[0]: int(line.split()[1]) for line in f if not line.startswith("#")}
    assert plus.num_edges == g.closure_info["pairs"] == sizes[name]


def test_reach_equals_networkx_and_scipy(device):
    path = data("closure", "TG.cedge.data_23874.txt.gz")
    g = fluxgraph.read(path, device=device, keep_ids=True)  # networkx built from the raw ids
    src, dst = file_edges(path)
    G = nx_graph(src, dst, g.num_vertices)
    A = g.to_scipy()
    sources = [0, 17, 500, 17, g.num_vertices - 1]
    for s, got in zip(sources, g.reach(sources)):
        expect = set(nx.descendants(G, s)) | ({s} if any(s in nx.descendants(G, t) for t in G.successors(s)) else set())
        assert set(got.tolist()) == expect
        order = csgraph.breadth_first_order(A, s, directed=True, return_predecessors=False)
        assert set(order.tolist()) - {s} == set(got.tolist()) - {s}


def test_scipy_round_trip_and_spmv(device):
    A = sp.random(400, 400, density=0.02, format="csr", random_state=4, dtype=np.float64)
    A.data += 0.5
    g = fluxgraph.Graph.from_scipy(A, device=device)
    assert g.weighted and g.num_vertices == 400
    assert abs(g.to_scipy() - A).max() < 1e-15
    x = np.random.default_rng(1).uniform(size=400)
    assert np.allclose(g.spmv(x), A @ x, rtol=1e-13, atol=0)
    P = fluxgraph.Graph.from_scipy(A.astype(bool), device=device)
    assert not P.weighted and (P.to_scipy() != (A != 0)).nnz == 0
    with pytest.raises(ValueError, match="square"):
        fluxgraph.Graph.from_scipy(sp.random(3, 4, density=0.5))
    with pytest.raises(TypeError, match="scipy.sparse"):
        fluxgraph.Graph.from_scipy(np.ones((3, 3)))


def test_networkx_round_trip(device):
    G = nx.karate_club_graph()  # undirected, weighted: both directions go in
    g = fluxgraph.Graph.from_networkx(G, weight="weight", device=device)
    assert g.labels is None and g.num_edges == 2 * G.number_of_edges()
    back = g.to_networkx()
    assert set(back.edges()) == set(G.to_directed().edges())
    assert all(back[u][v]["weight"] == G[u][v]["weight"] for u, v in back.edges())
    L = nx.DiGraph([("a", "b"), ("b", "c")])
    h = fluxgraph.Graph.from_networkx(L, device=device)
    assert h.labels == ["a", "b", "c"] and h.neighbors(0).tolist() == [1]
    expect = nx.pagerank(G, tol=1e-12, weight="weight")
    assert np.abs(g.pagerank(tol=1e-12, weighted=True) - np.array([expect[v] for v in range(34)])).sum() < 1e-8 * 34
    # integer nodes other than 0..n-1 are the ids, an isolated one included (it changes PageRank's n)
    M = nx.DiGraph([(10, 3), (3, 2**40), (2**40, 10), (3, 10)])
    M.add_node(7)
    m = fluxgraph.Graph.from_networkx(M, device=device)
    assert m.labels == [3, 7, 10, 2**40] and m.neighbors(3).tolist() == [10, 2**40]
    want = nx.pagerank(M, tol=1e-12)
    got = m.by_label(m.pagerank(tol=1e-12))
    assert got.keys() == want.keys() and sum(abs(got[k] - want[k]) for k in want) < 1e-9
    assert set(m.to_networkx().edges()) == set(M.edges()) and set(m.to_networkx()) == set(M)


def test_read_keeps_the_file_ids(device):
    g = fluxgraph.read(data("pagerank", "graphs", "karate.mtx"), device=device)
    assert g.num_vertices == 34  # Matrix Market ids 1..34, as written
    assert g.num_edges == 156 and g.labels == list(range(1, 35))
    e = fluxgraph.read(data("loaders", "weighted.txt"), weighted=True, device=device)
    assert e.num_vertices == 3 and e.weighted and e.labels == [1, 3, 10]  # the ids that appear, as the CLI
    assert sorted(zip(*[a.tolist() for a in e.edges()])) == \
        [(1, 3, -2.25), (3, 1, 0.5), (3, 3, 0.0), (10, 3, 1000.0)]  # in the file's ids
    raw = fluxgraph.read(data("loaders", "weighted.txt"), weighted=True, device=device, keep_ids=True)
    assert raw.num_vertices == 11 and raw.labels is None


def test_read_equals_the_cli_on_sparse_ids(tmp_path, device):
    # ids 10..200, 6 distinct: the CLI's graph, its PageRank by the same ids
    path = tmp_path / "sparse.txt"
    path.write_text("10 20\n20 30\n30 10\n10 200\n200 15\n15 30\n40 10\n")
    g = fluxgraph.read(path, device=device)
    assert g.num_vertices == 6 and g.labels == [10, 15, 20, 30, 40, 200]
    out = tmp_path / "pr.txt"
    subprocess.run([CLI, "pagerank", str(path), "--tol", "1e-12", "--out", str(out)], check=True, capture_output=True)
    cli = {int(a): float(b) for a, b in (line.split() for line in out.read_text().splitlines())}
    ours = g.by_label(g.pagerank(tol=1e-12))
    assert ours.keys() == cli.keys() and sum(abs(ours[k] - cli[k]) for k in cli) < 1e-10


def test_streaming_through_the_api_equals_the_cli(tmp_path, device):
    # The same insert/delete lines through `fluxgraph stream -` and through Graph calls: the same
    # edges at the end, the same PageRank. Ids 0..n-1 appear in order (a cycle first), so the CLI's
    # dense ids are the input's.
    rng = np.random.default_rng(9)
    n = 3000
    lines = [f"{v} {(v + 1) % n}" for v in range(n)]
    present = set((v, (v + 1) % n) for v in range(n))
    ops = []
    for _ in range(40000):
        if present and rng.random() < 0.2:
            u, v = list(present)[rng.integers(len(present))] if rng.random() < 0.01 else (
                int(rng.integers(n)), int(rng.integers(n)))
            ops.append(("-", u, v))
            present.discard((u, v))
        else:
            u, v = int(rng.integers(n)), int(rng.integers(n))
            ops.append(("+", u, v))
            present.add((u, v))
    lines += [f"{op} {u} {v}" for op, u, v in ops]
    edges_out, scores_out = tmp_path / "edges.txt", tmp_path / "scores.txt"
    backend = ["--backend", "cpu"] if device == "cpu" else []
    subprocess.run([CLI, "stream", "-", "--batch", "1000", "--max-delay", "100000", "--edges-out", str(edges_out),
                    "--out", str(scores_out), "--tol", "1e-12"] + backend,
                   input="\n".join(lines) + "\n", text=True, check=True, capture_output=True)
    g = fluxgraph.Graph(device=device)
    run, kind = [], None
    for line in lines + ["end"]:  # runs of inserts and of deletes, in line order (as the CLI keeps it)
        t = line.split()
        k = "-" if t[0] == "-" else ("end" if t[0] == "end" else "+")
        if k != kind and run:
            a = np.array(run, dtype=np.int64)
            g.insert(a[:, 0], a[:, 1]) if kind == "+" else g.delete(a[:, 0], a[:, 1])
            run = []
        kind = k
        if k != "end":
            run.append((int(t[-2]), int(t[-1])))
    with open(edges_out) as f:  # an edge list in the input's ids
        entries = [line.split() for line in f if not line.startswith("#")]
    cli_edges = {(int(u), int(v)) for u, v in entries}
    e = g.edges()
    assert set(zip(e[0].tolist(), e[1].tolist())) == cli_edges == present
    cli_scores = np.loadtxt(scores_out)
    ours = g.pagerank(tol=1e-12)
    assert np.abs(ours[cli_scores[:, 0].astype(np.int64)] - cli_scores[:, 1]).sum() < 1e-8 * n
