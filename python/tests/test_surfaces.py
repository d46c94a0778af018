"""One graph, one answer: the same file through the CLI, through C++ (tests/cli/surface.cpp, the
public API alone) and through Python (fluxgraph.read), every result compared in the file's own ids,
on a sparse-id edge list (ids from 0 to ~2e9), a dense-id edge list and a Matrix Market file
(1-based ids as written): read, pagerank, bfs, sssp, wcc, cdlp, lcc, triangles, closure size,
reach, stream --edges-out read back, and a stream of inserts and deletes."""
import collections
import json
import os
import subprocess

import numpy as np
import pytest

import fluxgraph
from conftest import CLI, data


SURFACE = os.environ.get("FG_SURFACE")  # the C++ leg, built beside the CLI


def cpp(graph_file, source, device):
    """tests/cli/surface.cpp's results: {what: {id: value}} per vertex, {what: count}, and its edges."""
    out = subprocess.run([SURFACE, str(graph_file), str(source), device], capture_output=True, text=True,
                         check=True).stdout
    per_vertex, counts, edges = collections.defaultdict(dict), {}, []
    for line in out.splitlines():
        f = line.split()
        if f[0] == "edge":
            edges.append((int(f[1]), int(f[2])))
        elif len(f) == 3:
            per_vertex[f[0]][int(f[1])] = float(f[2])
        else:
            counts[f[0]] = int(f[1])
    return per_vertex, counts, edges


def cli(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, check=True).stdout


def summary(*args):
    return json.loads(cli(*args, "--format", "json"))


def values(tmp_path, *args):
    """An --out file's 'id value' lines as a dict."""
    out = tmp_path / "values.txt"
    cli(*args, "--out", out)
    return {int(a): float(b) for a, b in (line.split() for line in out.read_text().splitlines())}


def edge_list(path, ids, edges):
    path.write_text("".join(f"{ids[u]} {ids[v]}\n" for u, v in edges))
    return path


@pytest.fixture(params=["sparse", "dense", "mtx"])
def graph_file(request, tmp_path):
    rng = np.random.default_rng(4)
    n = 300
    edges = [(v, (v + 1) % n) for v in range(n)] + [tuple(e) for e in rng.integers(0, n, (1200, 2)).tolist()]
    if request.param == "sparse":
        ids = [0] + sorted(rng.choice(2_000_000_000, n - 1, replace=False).tolist())
        return edge_list(tmp_path / "sparse.txt", ids, edges)
    if request.param == "dense":
        return edge_list(tmp_path / "dense.txt", list(range(n)), edges)
    return data("pagerank", "graphs", "karate.mtx")


def test_the_cli_and_python_agree_in_the_file_ids(graph_file, tmp_path, device):
    backend = ["--backend", "cpu"] if device == "cpu" else []
    g = fluxgraph.read(graph_file, device=device)
    labels = g.labels if g.labels is not None else list(range(g.num_vertices))
    s = summary("pagerank", graph_file, "--tol", "1e-12", *backend)
    assert (s["vertices"], s["edges"]) == (g.num_vertices, g.num_edges)

    pr = values(tmp_path, "pagerank", graph_file, "--tol", "1e-12", *backend)
    ours = g.by_label(g.pagerank(tol=1e-12))
    assert pr.keys() == ours.keys() and sum(abs(pr[k] - ours[k]) for k in pr) < 1e-9

    source = labels[len(labels) // 3]  # a file id: calls take ids
    levels = g.by_label(g.bfs(source))
    assert values(tmp_path, "bfs", graph_file, "--source", source, *backend) == \
        {k: float(v) for k, v in levels.items() if v >= 0}
    dist = g.by_label(g.sssp(source))
    assert values(tmp_path, "sssp", graph_file, "--source", source, *backend) == \
        {k: v for k, v in dist.items() if np.isfinite(v)}

    for app, got in (("wcc", g.wcc()), ("cdlp", g.cdlp())):  # labels are file ids (wcc: the least member)
        assert values(tmp_path, app, graph_file, *backend) == {k: float(c) for k, c in g.by_label(got).items()}
    lcc = values(tmp_path, "lcc", graph_file, *backend)
    assert lcc == pytest.approx(g.by_label(g.lcc()), abs=1e-15)
    assert summary("tc", graph_file, *backend)["triangles"] == g.triangles()

    assert summary("closure", graph_file, *backend)["pairs"] == g.closure().num_edges
    reach = summary("reach", graph_file, "--sources", source, *backend)
    assert reach["pairs"] == len(g.reach([source])[0])

    # stream --edges-out: the edges in the file's ids, which read back as the same graph
    out = tmp_path / ("edges.mtx" if str(graph_file).endswith(".mtx") else "edges.txt")
    cli("stream", graph_file, "--batch", "100", "--edges-out", out, *backend)
    back = fluxgraph.read(out, device=device)

    def by_id(h):
        e = h.edges()  # in ids
        return sorted(zip(e[0].tolist(), e[1].tolist()))

    assert by_id(back) == by_id(g)


def test_cpp_and_python_agree_in_the_file_ids(graph_file, device):
    if not SURFACE:
        pytest.skip("FG_SURFACE (tests/cli/surface.cpp, built as fg_surface) not given")
    g = fluxgraph.read(graph_file, device=device)
    labels = g.labels if g.labels is not None else list(range(g.num_vertices))
    source = labels[len(labels) // 3]
    per, counts, edges = cpp(graph_file, source, device)
    assert (counts["vertices"], counts["edges"]) == (g.num_vertices, g.num_edges)
    ours = g.by_label(g.pagerank(tol=1e-12))
    assert per["pagerank"].keys() == ours.keys() and sum(abs(per["pagerank"][k] - ours[k]) for k in ours) < 1e-9
    assert per["bfs"] == {k: float(v) for k, v in g.by_label(g.bfs(source)).items()}
    assert per["sssp"] == g.by_label(g.sssp(source))
    for app, got in (("wcc", g.wcc()), ("cdlp", g.cdlp())):
        assert per[app] == {k: float(c) for k, c in g.by_label(got).items()}
    assert per["lcc"] == pytest.approx(g.by_label(g.lcc()), abs=1e-15)
    assert counts["triangles"] == g.triangles()
    assert counts["closure"] == g.closure().num_edges
    assert counts["reach"] == len(g.reach([source])[0])

    # the graph's sorted edges (in ids) in batches of 100, each batch's every 7th deleted again
    src, dst = g.edges()
    s = fluxgraph.Stream(device=device)
    for first in range(0, len(src), 100):
        bs, bd = src[first:first + 100], dst[first:first + 100]
        s.apply(insert=(bs, bd))
        s.apply(delete=(bs[::7], bd[::7]))
    left = s.edges()  # in ids
    assert sorted(edges) == sorted(zip(left[0].tolist(), left[1].tolist()))
    assert len(edges) < g.num_edges
