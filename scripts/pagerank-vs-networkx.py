#!/usr/bin/env python3
"""The L1 distance between fluxgraph's scores (an --out file: `ID SCORE` lines, the file's ids) and
networkx.pagerank of the same graph file (Matrix Market or an edge list, .gz too; every vertex of a
Matrix Market file, the listed ones of an edge list).

usage: scripts/pagerank-vs-networkx.py GRAPH SCORES [--tol T]   (networkx at T, default 1e-13)
e.g.   fluxgraph stream G --batch 20000 --pagerank --tol 1e-12 --out s.txt && scripts/pagerank-vs-networkx.py G s.txt
"""
import argparse
import gzip

import networkx as nx


def edges(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        mtx = path.endswith((".mtx", ".mtx.gz"))
        sized = not mtx
        for line in f:
            if line.startswith(("%", "#")) or not line.strip():
                continue
            parts = line.split()
            if not sized:  # the Matrix Market size line: rows cols entries
                sized = True
                yield ("n", int(parts[0]))
                continue
            yield (int(parts[0]), int(parts[1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("graph")
    ap.add_argument("scores")
    ap.add_argument("--tol", type=float, default=1e-13)
    a = ap.parse_args()
    g = nx.DiGraph()
    for e in edges(a.graph):
        if e[0] == "n":
            g.add_nodes_from(range(1, e[1] + 1))
        else:
            g.add_edge(*e)
    want = nx.pagerank(g, alpha=0.85, tol=a.tol, max_iter=100000)
    got = {}
    with open(a.scores) as f:
        for line in f:
            v, s = line.split()
            got[int(v)] = float(s)
    missing = set(want) ^ set(got)
    if missing:
        raise SystemExit(f"{len(missing)} vertices in one of the two only, e.g. {sorted(missing)[:5]}")
    l1 = sum(abs(want[v] - got[v]) for v in want)
    print(f"{a.graph}: {g.number_of_nodes()} vertices, {g.number_of_edges()} edges; L1 to networkx (tol {a.tol:g}): {l1:.3e}")


if __name__ == "__main__":
    main()
