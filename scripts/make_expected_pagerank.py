#!/usr/bin/env python3
"""Expected PageRank vectors for tests/unit/test_pagerank_expected.cpp.

For every graph file in tests/data/pagerank/graphs/ this writes
tests/data/pagerank/expected/<name>.pr, computed with networkx's own pure-Python power
iteration (networkx.algorithms.link_analysis.pagerank_alg._pagerank_python) with
alpha=0.85, weight=None, on an nx.DiGraph built with fluxgraph's loader semantics:

  * Matrix Market (.mtx, .mtx.gz): entry (i, j) is the edge i->j, 1-based ids as written;
    symmetric / skew-symmetric / hermitian files give both directions (the diagonal once);
    the vertex set is 1..max(rows, cols) of the size line, isolated vertices included;
    values are ignored.
  * Anything else is an edge list (SNAP / whitespace): "src dst [weight]" per line, lines
    whose first non-blank character is '#' or '%' and blank lines skipped; the vertex set is
    the ids that appear; src->dst is a directed edge.
  * Duplicate edges count once (nx.DiGraph).

<name> is the file name without a trailing ".gz" and then without its last extension
(wiki-Vote.txt.gz -> wiki-Vote, bips98_606.mtx.gz -> bips98_606).

Output format (.pr): '#' comment lines, then one line per vertex "<id as in the file> <score>",
sorted by id, scores with 17 significant digits ('%.17g').

With --lagraph FILE (the peer file shared/data/expected/lagraph_pagerank.txt) it also converts
LAGraph's PageRank vectors into expected/lagraph_<graph>.pr (ids shifted to the 1-based ids of
the .mtx, values copied verbatim) and prints the L1 / L-inf distances between networkx's vector
and LAGraph's for those graphs.

Needs only python3 and networkx (no numpy / scipy). Run from anywhere:
    python3 scripts/make_expected_pagerank.py [--lagraph /work/shared/data/expected/lagraph_pagerank.txt]
"""
import argparse
import gzip
import inspect
import os
import re
import sys
import time

import networkx as nx
from networkx.algorithms.link_analysis import pagerank_alg

ALPHA = 0.85
TOL = 1e-13          # networkx stops when the L1 change < n * tol
MAX_ITER = 10000

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAPHS_DIR = os.path.join(ROOT, "tests", "data", "pagerank", "graphs")
EXPECTED_DIR = os.path.join(ROOT, "tests", "data", "pagerank", "expected")

# section name in lagraph_pagerank.txt -> graph name (file stem in GRAPHS_DIR)
LAGRAPH_SECTIONS = {
    "karate_rank": "karate",
    "west0067_rank": "west0067",
    "ldbc_directed_example_rank": "ldbc-directed-example",
}


def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path, "r")


def graph_name(filename):
    base = filename[:-3] if filename.endswith(".gz") else filename
    stem, ext = os.path.splitext(base)
    return stem if ext else base


def is_matrix_market(filename):
    return filename.endswith(".mtx") or filename.endswith(".mtx.gz")


def read_matrix_market(path):
    """Returns (vertices, edges, entries read)."""
    with open_text(path) as f:
        header = f.readline().split()
        if len(header) != 5 or header[0] != "%%MatrixMarket" or header[1].lower() != "matrix" \
                or header[2].lower() != "coordinate":
            raise ValueError(f"{path}: not a MatrixMarket coordinate file: {header}")
        symmetry = header[4].lower()
        if symmetry not in ("general", "symmetric", "skew-symmetric", "hermitian"):
            raise ValueError(f"{path}: unknown symmetry {symmetry}")
        size = None
        for line in f:
            s = line.strip()
            if not s or s.startswith("%"):
                continue
            size = [int(t) for t in s.split()]
            break
        if size is None or len(size) != 3:
            raise ValueError(f"{path}: missing size line")
        rows, cols, nnz = size
        n = max(rows, cols)
        edges = []
        count = 0
        for line in f:
            s = line.strip()
            if not s or s.startswith("%"):
                continue
            t = s.split()
            i, j = int(t[0]), int(t[1])
            if not (1 <= i <= rows and 1 <= j <= cols):
                raise ValueError(f"{path}: entry ({i}, {j}) out of range")
            count += 1
            edges.append((i, j))
            if symmetry != "general" and i != j:
                edges.append((j, i))
        if count != nnz:
            raise ValueError(f"{path}: {count} entries, header says {nnz}")
    return list(range(1, n + 1)), edges, count


def read_edge_list(path):
    """Returns (vertices, edges, lines read)."""
    vertices = set()
    edges = []
    with open_text(path) as f:
        for line in f:
            s = line.strip()
            if not s or s[0] in "#%":
                continue
            t = s.split()
            u, v = int(t[0]), int(t[1])
            if u < 0 or v < 0:
                raise ValueError(f"{path}: negative id in {s!r}")
            vertices.add(u)
            vertices.add(v)
            edges.append((u, v))
    return sorted(vertices), edges, len(edges)


def load_digraph(path):
    vertices, edges, lines = (read_matrix_market if is_matrix_market(path) else read_edge_list)(path)
    g = nx.DiGraph()
    g.add_nodes_from(vertices)
    g.add_edges_from(edges)
    return g, lines


def nx_pagerank(g, max_iter=MAX_ITER):
    return pagerank_alg._pagerank_python(g, alpha=ALPHA, max_iter=max_iter, tol=TOL, weight=None)


def count_iterations(g, upper):
    """Smallest max_iter for which _pagerank_python converges (it returns no count itself).
    Deterministic, so 'converges within k' is monotone in k: exponential then binary search."""
    def ok(k):
        try:
            nx_pagerank(g, k)
            return True
        except nx.PowerIterationFailedConvergence:
            return False
    lo, hi = 0, 1
    while not ok(hi):
        lo, hi = hi, min(2 * hi, upper)
        if lo == upper:
            return None
    while hi - lo > 1:   # ok(hi) and not ok(lo)
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def residual_l1(g, x):
    """Independent check: ||x - step(x)||_1 for one step of the PageRank map
    x' = alpha * (A^T D^-1 x + (sum of dangling x) / n) + (1 - alpha) / n (uniform teleport and
    dangling redistribution, each edge counted once). ||x - x*||_1 <= residual / (1 - alpha)."""
    n = g.number_of_nodes()
    y = dict.fromkeys(g, (1.0 - ALPHA) / n)
    dangling = 0.0
    for u in g:
        d = g.out_degree(u)
        if d == 0:
            dangling += x[u]
        else:
            share = ALPHA * x[u] / d
            for v in g.successors(u):
                y[v] += share
    add = ALPHA * dangling / n
    return sum(abs(y[v] + add - x[v]) for v in g)


def replay_matlab(g, tol=1e-4, max_iter=100):
    """Replays the reference LAGraph's test compares with (MATLAB centrality(G,'pagerank')):
    power iteration from the uniform vector, dangling mass and teleport uniform, stopping at the
    first iterate whose L-inf change is < tol. Returns (iterations, vector, last L1 change)."""
    n = g.number_of_nodes()
    x = dict.fromkeys(g, 1.0 / n)
    for k in range(1, max_iter + 1):
        y = dict.fromkeys(g, (1.0 - ALPHA) / n)
        dangling = 0.0
        for u in g:
            d = g.out_degree(u)
            if d == 0:
                dangling += x[u]
            else:
                for v in g.successors(u):
                    y[v] += ALPHA * x[u] / d
        for v in y:
            y[v] += ALPHA * dangling / n
        change_inf = max(abs(y[v] - x[v]) for v in g)
        change_l1 = sum(abs(y[v] - x[v]) for v in g)
        x = y
        if change_inf < tol:
            return k, x, change_l1
    return None, x, change_l1


def write_pr(path, header_lines, scores):
    with open(path, "w") as f:
        for h in header_lines:
            f.write("# " + h + "\n")
        for v in sorted(scores):
            f.write(f"{v} {scores[v]}\n" if isinstance(scores[v], str) else f"{v} {scores[v]:.17g}\n")


def read_lagraph(path):
    """{section: {0-based id: value text}} from shared/data/expected/lagraph_pagerank.txt."""
    sections, cur = {}, None
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            m = re.match(r"^\[(\w+)\]\s+n=(\d+)$", s)
            if m:
                cur = m.group(1)
                sections[cur] = {"n": int(m.group(2)), "values": {}}
                continue
            i, val = s.split()
            float(val)
            sections[cur]["values"][int(i)] = val
    for name, sec in sections.items():
        if sorted(sec["values"]) != list(range(sec["n"])):
            raise ValueError(f"{path}: section {name} does not hold ids 0..{sec['n'] - 1}")
    return sections


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lagraph", help="shared/data/expected/lagraph_pagerank.txt: also write "
                    "expected/lagraph_*.pr and report networkx-vs-LAGraph distances")
    ap.add_argument("--no-iterations", action="store_true",
                    help="skip the iteration count search (saves a few x the run time)")
    args = ap.parse_args()

    src = inspect.getsourcefile(pagerank_alg._pagerank_python)
    sig = inspect.signature(pagerank_alg._pagerank_python)
    print(f"networkx {nx.__version__} ({src}); _pagerank_python{sig}")
    os.makedirs(EXPECTED_DIR, exist_ok=True)

    files = sorted(f for f in os.listdir(GRAPHS_DIR) if not f.startswith("."))
    names = [graph_name(f) for f in files]
    if len(set(names)) != len(names):
        raise SystemExit(f"two graph files map to one expected name: {files}")
    results = {}
    print(f"{'graph':32s} {'n':>7s} {'m':>8s} {'lines':>8s} {'iters':>5s} {'sum-1':>9s} {'residual':>9s} {'secs':>6s}")
    for fname, name in zip(files, names):
        if name.startswith("lagraph_"):
            raise SystemExit(f"{fname}: graph names may not start with lagraph_")
        path = os.path.join(GRAPHS_DIR, fname)
        t0 = time.time()
        g, lines = load_digraph(path)
        x = nx_pagerank(g)
        iters = None if args.no_iterations else count_iterations(g, MAX_ITER)
        res = residual_l1(g, x)
        total = sum(x.values())
        dt = time.time() - t0
        n, m = g.number_of_nodes(), g.number_of_edges()
        results[name] = x
        header = [
            f"PageRank of tests/data/pagerank/graphs/{fname}: networkx {nx.__version__} "
            f"pagerank_alg._pagerank_python(G, alpha={ALPHA}, weight=None, tol={TOL:g}, max_iter={MAX_ITER})",
            f"stop rule: L1 change < n*tol; iterations={iters if iters is not None else 'not counted'}; "
            f"dangling mass and teleport uniform; nx.DiGraph (duplicate edges once, self-loops kept)",
            f"n={n} m={m} (distinct directed edges; {lines} entries/lines in the file); "
            f"sum={total:.17g}; fixed-point residual L1={res:.3g}",
            "format: <vertex id as in the file> <score, 17 significant digits>; "
            "written by scripts/make_expected_pagerank.py",
        ]
        write_pr(os.path.join(EXPECTED_DIR, name + ".pr"), header, x)
        print(f"{name:32s} {n:7d} {m:8d} {lines:8d} {str(iters):>5s} {total - 1:9.1e} {res:9.1e} {dt:6.1f}")
        sys.stdout.flush()

    if args.lagraph:
        sections = read_lagraph(args.lagraph)
        print(f"\nLAGraph vectors from {args.lagraph} (networkx vector = the one just written)")
        print(f"{'graph':24s} {'n':>4s} {'sum(LAGraph)':>14s} {'L1':>10s} {'Linf':>10s}")
        for sec_name, name in LAGRAPH_SECTIONS.items():
            sec = sections[sec_name]
            vals = {i + 1: v for i, v in sec["values"].items()}   # 1-based as in the .mtx
            header = [
                f"LAGraph PageRank of {name}.mtx, from GraphBLAS/LAGraph src/test/test_PageRank.c "
                f"(array {sec_name}; via shared/data/expected/lagraph_pagerank.txt)",
                "reference = MATLAB centrality(G,'pagerank') in double: damping 0.85, tolerance 1e-4, "
                "dangling mass spread uniformly; LAGraph's test checks max-abs < 1e-4",
                "ids shifted to 1-based (as in the .mtx); values copied verbatim; "
                "written by scripts/make_expected_pagerank.py --lagraph",
            ]
            x = results.get(name)
            g, _ = load_digraph(os.path.join(GRAPHS_DIR, name + ".mtx"))
            k, xm, last_l1 = replay_matlab(g)
            replay_err = max(abs(float(vals[v]) - xm[v]) for v in g)
            bound = ALPHA / (1 - ALPHA) * last_l1
            header.insert(2, f"these values are (to their 10 printed decimals: max-abs {replay_err:.2g}) "
                             f"power iterate {k} from the uniform vector, the first whose L-inf change "
                             f"< 1e-4; sum {sum(float(v) for v in vals.values()):.10f}; a-posteriori L1 error bound alpha/(1-alpha)*last L1 change = {bound:.2g}")
            if x is not None:
                l1 = sum(abs(float(vals[v]) - x[v]) for v in x)
                linf = max(abs(float(vals[v]) - x[v]) for v in x)
                if set(x) != set(vals):
                    raise SystemExit(f"{name}: LAGraph ids differ from the graph's vertices")
                header.insert(2, f"distance to networkx {nx.__version__} (expected/{name}.pr): "
                                 f"L1={l1:.3g} Linf={linf:.3g}")
            else:
                l1 = linf = float("nan")
            total = sum(float(v) for v in vals.values())
            write_pr(os.path.join(EXPECTED_DIR, f"lagraph_{name}.pr"), header, vals)
            print(f"{name:24s} {sec['n']:4d} {total:14.10f} {l1:10.3e} {linf:10.3e}   replay: "
                  f"iterate {k} matches to {replay_err:.2g}, L1 error bound {bound:.2g}")


if __name__ == "__main__":
    main()
