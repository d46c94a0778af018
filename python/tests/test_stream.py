"""fluxgraph.Stream (the streaming session) against networkx and the CLI's `stream FILE`."""
import subprocess

import networkx as nx
import numpy as np
import pytest

import fluxgraph
from conftest import CLI, data
from test_oracles import file_edges


def test_stream_keeps_pagerank_and_the_closure_current(device):
    rng = np.random.default_rng(4)
    n = 400
    s = fluxgraph.Stream(n, pagerank=True, closure=True, tol=1e-12, device=device)
    present = set()
    for b in range(1, 31):
        src, dst = rng.integers(0, n, 80, dtype=np.int64), rng.integers(0, n, 80, dtype=np.uint16)
        gone = [e for e in sorted(present) if rng.random() < 0.05] if b % 3 == 0 else []
        dsrc, ddst = np.array([u for u, _ in gone], dtype=np.int32), np.array([v for _, v in gone], dtype=np.int32)
        present -= set(gone)
        present |= set(zip(src.tolist(), dst.tolist()))
        r = s.apply(insert=(src, dst), delete=(dsrc, ddst))
        assert r["batch"] == b and r["edges"] == len(present) and r["vertices"] == n
        G = nx.DiGraph()
        G.add_nodes_from(range(n))
        G.add_edges_from(present)
        assert r["closure_pairs"] == nx.transitive_closure(G, reflexive=False).number_of_edges()
    e = s.edges()
    assert set(zip(e[0].tolist(), e[1].tolist())) == present and len(s) == len(present)
    want = nx.pagerank(G, alpha=0.85, tol=1e-14, max_iter=10000)
    got = s.scores()
    assert np.abs(got - np.array([want[v] for v in range(n)])).sum() < 1e-6
    assert s.finish()["pagerank_iterations"] > 0
    assert s.totals()["batches"] == 30 and s.closure_pairs() == r["closure_pairs"]
    assert "Stream(400 vertices" in repr(s)


def test_kept_pagerank_equals_networkx_after_every_batch_of_a_real_graph(device):
    # email-Eu-core in 36 mixed batches (file edges in random order, 10% of the stored edges
    # deleted every third batch): after each, the kept scores are within the stated bound of
    # networkx's (plus networkx's own stopping error, d/(1-d) n tol at its tol).
    src, dst = file_edges(data("pagerank", "graphs", "email-Eu-core.txt"))
    ids = np.unique(np.concatenate([src, dst]))
    src, dst = np.searchsorted(ids, src), np.searchsorted(ids, dst)
    n = len(ids)
    rng = np.random.default_rng(7)
    order = rng.permutation(len(src))
    s = fluxgraph.Stream(n, pagerank=True, tol=1e-12, device=device)
    present, pushed, batches = set(), 0, 36
    for b, chunk in enumerate(np.array_split(order, batches)):
        gone = [e for e in sorted(present) if rng.random() < 0.1] if b % 3 == 2 else []
        r = s.apply(insert=(src[chunk], dst[chunk]), delete=([u for u, _ in gone], [v for _, v in gone]))
        before = set(present)
        present -= set(gone)
        present |= set(zip(src[chunk].tolist(), dst[chunk].tolist()))
        # The rule (docs/dynamic-pagerank.md): a batch that changes over a quarter of the edges starts
        # over. Any other may too, where a run from scratch is predicted cheapest (measured times).
        if b == 0 or len(present ^ before) > 0.25 * len(present):
            assert r["pr_restarted"], b
        G = nx.DiGraph()
        G.add_nodes_from(range(n))
        G.add_edges_from(present)
        want = nx.pagerank(G, alpha=0.85, tol=1e-15, max_iter=100000)
        got = s.scores()
        err = np.abs(got - np.array([want[v] for v in range(n)])).sum()
        assert err <= r["pr_bound"] + 0.85 / 0.15 * n * 1e-15, (b, err, r["pr_bound"])
        assert r["pr_bound"] <= 0.85 / 0.15 * 1e-12 * n
        best = s.top(5)
        assert [v for v, _ in best[:5]] == sorted(range(n), key=lambda v: (-got[v], v))[:5]
        pushed += not r["pr_restarted"]
    assert pushed >= 1  # the first update after a restart pushes, to measure the pushes


@pytest.mark.parametrize("memory,every", [("compact", 1), ("compact", 3), ("fast", 4)])
def test_compact_footprint_and_scores_every_few_batches_equal_networkx(device, memory, every):
    # The out-edges alone (memory="compact"; the sweeps read them with atomics) and updates every few
    # batches: a scored batch's scores are networkx's within the stated bound, a batch in between
    # gives the last scored ones, the end scores the last batches, and compact holds one orientation.
    rng = np.random.default_rng(9)
    n = 600
    s = fluxgraph.Stream(n, pagerank=True, tol=1e-12, device=device, memory=memory, pagerank_every=every)
    present, last = set(), None
    for b in range(1, 15):
        src, dst = rng.integers(0, n, 150), (rng.integers(0, n, 150) ** 2) % n  # skewed targets
        gone = [e for e in sorted(present) if rng.random() < 0.05] if b % 4 == 0 else []
        present -= set(gone)
        present |= set(zip(src.tolist(), dst.tolist()))
        r = s.apply(insert=(src, dst), delete=([u for u, _ in gone], [v for _, v in gone]))
        assert r["pr_updated"] == (b % every == 0), b
        if not r["pr_updated"]:
            assert last is None or np.array_equal(s.scores(), last)  # the last scored batch's, not the seeded state
            continue
        G = nx.DiGraph()
        G.add_nodes_from(range(n))
        G.add_edges_from(present)
        want = nx.pagerank(G, alpha=0.85, tol=1e-15, max_iter=100000)
        last = s.scores()
        assert np.abs(last - np.array([want[v] for v in range(n)])).sum() <= r["pr_bound"] + 1e-9, b
    s.finish()  # scores the batches since the last scored one
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(present)
    want = nx.pagerank(G, alpha=0.85, tol=1e-15, max_iter=100000)
    assert np.abs(s.scores() - np.array([want[v] for v in range(n)])).sum() < 1e-6
    parts = s.memory_use()["parts"]
    assert ("in-edge store entries" in parts) == (memory == "fast")
    assert parts["out-edge store pair index"] == 0 or memory == "fast"
    with pytest.raises(ValueError):
        fluxgraph.Stream(n, pagerank=True, memory="tiny")
    with pytest.raises(ValueError):
        fluxgraph.Stream(n, pagerank=True, pagerank_every=0)


@pytest.mark.parametrize("memory", ["fast", "compact"])
def test_finish_after_a_failed_batch_scores_the_batches_since_the_last_update(memory):
    # A seeded batch, then one the store refuses (the analyses start over): finish() scores the graph.
    s = fluxgraph.Stream(10, pagerank=True, pagerank_every=2, renumber=False, memory=memory, tol=1e-12)
    assert not s.apply(insert=([0, 1, 2, 3], [1, 2, 0, 0]))["pr_updated"]
    with pytest.raises(fluxgraph.BatchError):
        s.apply(insert=([0, 2**31 - 1], [1, 2]))
    s.finish()
    G = nx.DiGraph([(0, 1), (1, 2), (2, 0), (3, 0)])
    G.add_nodes_from(range(10))
    want = nx.pagerank(G, alpha=0.85, tol=1e-15, max_iter=100000)
    assert np.abs(s.scores() - np.array([want[v] for v in range(10)])).sum() < 1e-9


def test_stream_errors_leave_it_unchanged():
    s = fluxgraph.Stream()
    s.apply(insert=([0, 1], [1, 2]))
    for bad, err in [((([0, 1], [1]),), ValueError), ((([-1], [2]),), ValueError), ((([0.5], [1]),), TypeError),
                     ((([2**64 - 1], [1]),), ValueError), ((([[0]], [[1]]),), ValueError)]:
        with pytest.raises(err):
            s.apply(*bad)
    with pytest.raises(ValueError):
        fluxgraph.Stream(defrag="sometimes")
    assert len(s) == 2 and s.totals()["batches"] == 1
    d = fluxgraph.Stream(renumber=False)  # the ids are the vertex numbers, up to 2^31 - 2
    with pytest.raises(ValueError, match="past the largest id"):
        d.apply(insert=([2**31], [1]))
    assert d.num_vertices == 0 and d.labels is None


@pytest.mark.skipif(CLI is None, reason="FG_CLI (the fluxgraph command) not given")
def test_stream_equals_the_cli_stream_file(tmp_path, device):
    # The same file in the same batches: `fluxgraph stream FILE --batch 2000 --pagerank` and a
    # Stream fed those batches end with the same edges and the same last scores.
    path = data("pagerank", "graphs", "email-Eu-core.txt")
    src, dst = file_edges(path)
    ids = np.unique(np.concatenate([src, dst]))  # the CLI's dense ids: the file ids in order
    dense_src, dense_dst = np.searchsorted(ids, src), np.searchsorted(ids, dst)
    out = tmp_path / "scores.txt"
    backend = ["--backend", "cpu"] if device == "cpu" else []
    subprocess.run([CLI, "stream", path, "--batch", "2000", "--pagerank", "--tol", "1e-12", "--out", str(out)] + backend,
                   check=True, capture_output=True)
    s = fluxgraph.Stream(len(ids), pagerank=True, tol=1e-12, device=device)
    for b in range(0, len(src), 2000):
        s.apply(insert=(dense_src[b:b + 2000], dense_dst[b:b + 2000]))
    cli = np.loadtxt(out)
    ours = s.scores()
    # Each is within d/(1-d) tol n (L1) of the exact scores (docs/dynamic-pagerank.md, "The bound");
    # the two may take different paths to it (push or pull is chosen by the times measured).
    bound = 2 * 0.85 / 0.15 * 1e-12 * len(ids)
    assert np.abs(ours[np.searchsorted(ids, cli[:, 0].astype(np.int64))] - cli[:, 1]).sum() < bound


def test_a_durable_stream_resumes_where_it_ended(tmp_path, device):
    rng = np.random.default_rng(9)
    wal = tmp_path / "wal"
    plain = fluxgraph.Stream(300, device=device)
    s = fluxgraph.Stream(300, device=device, wal=wal, snapshot_every=4)
    assert s.recovery()["durable"] and s.recovery()["batches"] == 0
    for b in range(1, 15):
        src, dst = rng.integers(0, 300, 50), rng.integers(0, 300, 50)
        gone = (src[:5], dst[:5]) if b % 3 == 0 else None
        plain.apply(insert=(src, dst), delete=gone)
        s.apply(insert=(src, dst), delete=gone)
        if b % 5 == 0:
            del s
            s = fluxgraph.Stream(300, device=device, wal=wal, snapshot_every=4)
            r = s.recovery()
            # snapshots fall due every 4 batches (later while one is being written)
            assert r["batches"] == b and r["snapshot_batch"] + r["replayed"] == b and r["snapshot_batch"] >= 4
            for mine, theirs in zip(s.edges(), plain.edges()):
                np.testing.assert_array_equal(mine, theirs)
    snap = tmp_path / "s.fgsnap"
    s.save(snap)
    g, ids = fluxgraph.load(snap)
    assert g.num_edges == len(plain) and len(ids) == 0  # dense ids: none saved
    t = fluxgraph.Stream(device=device)
    t.load(snap)
    for mine, theirs in zip(t.edges(), plain.edges()):
        np.testing.assert_array_equal(mine, theirs)
    with pytest.raises(ValueError):
        fluxgraph.Stream(wal=tmp_path / "w2", sync="sometimes")


def test_batch_dict_one_schema(device):
    # Graph.insert's fields under the same names; an analysis's only when the stream keeps it
    g = fluxgraph.Graph(device=device)
    gi = g.insert([0, 1, 1], [1, 2, 2])
    s = fluxgraph.Stream(device=device)
    r = s.apply(insert=([0, 1, 1], [1, 2, 2]))
    assert {k: r[k] for k in gi} == gi
    assert r["inserts"] == 3 and not any(k.startswith(("pr_", "closure_", "bfs", "sssp", "components", "triangles")) for k in r)
    w = fluxgraph.Stream(device=device, pagerank=True, wcc=True).apply(insert=([0], [1]))
    assert "pr_bound" in w and "components" in w and "bfs_reached" not in w and "closure_pairs" not in w


def test_stream_renumbers_sparse_ids_against_networkx(device):
    # ids up to 2^62 with deletes (some naming ids never inserted): the edges in ids, the
    # per-batch PageRank by id, the top vertex and the kept WCC count against networkx
    import networkx as nx

    rng = np.random.default_rng(51)
    pool = rng.choice(2**62, 200, replace=False)
    s = fluxgraph.Stream(pagerank=True, tol=1e-12, wcc=True, device=device)
    G = nx.DiGraph()
    for b in range(8):
        src, dst = pool[rng.integers(0, 200, 150)], pool[rng.integers(0, 200, 150)]
        e = list(G.edges())
        gone = [e[i] for i in rng.choice(len(e), min(20, len(e)), replace=False)] if e else []
        gone.append((7, int(pool[0])))  # 7 is never an id: removes nothing
        ds, dd = np.array([u for u, _ in gone], dtype=np.int64), np.array([v for _, v in gone], dtype=np.int64)
        r = s.apply(insert=(src, dst), delete=(ds, dd))
        G.remove_edges_from(gone)
        G.add_edges_from(zip(src.tolist(), dst.tolist()))
        assert r["vertices"] == G.number_of_nodes() and r["edges"] == G.number_of_edges()
        assert r["components"] == nx.number_weakly_connected_components(G)
    es, ed = s.edges()
    assert set(zip(es.tolist(), ed.tolist())) == set(G.edges())
    want = nx.pagerank(G, tol=1e-12)
    got = s.by_label(s.scores())
    assert got.keys() == want.keys() and sum(abs(got[k] - want[k]) for k in want) < 1e-8
    best = max(want.values())
    assert abs(want[s.top(1)[0][0]] - best) < 1e-8  # top() gives an id


def test_stream_edges_follow_the_renumber_flag(tmp_path):
    # Renumbering: edges in ids (Stream(3) starts with ids 0, 1, 2). renumber=False: vertex numbers,
    # also when a snapshot gave the stream ids (labels names them).
    s = fluxgraph.Stream(3)
    s.apply(insert=([10**12, 2], [0, 10**12]))
    assert s._s.ids().tolist() == [0, 1, 2, 10**12]
    assert set(zip(*(a.tolist() for a in s.edges()))) == {(10**12, 0), (2, 10**12)}
    snap = tmp_path / "ids.fgsnap"
    s.save(snap)
    d = fluxgraph.Stream(renumber=False)
    d.load(snap)
    assert set(zip(*(a.tolist() for a in d.edges()))) == {(3, 0), (2, 3)}
    assert d.labels == [0, 1, 2, 10**12]
