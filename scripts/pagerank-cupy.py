#!/usr/bin/env python3
"""Static PageRank: `fluxgraph bench pagerank` against the CuPy script a GPU user would write instead
(cuSPARSE SpMV through cupyx.scipy.sparse, float32, the same damping, tolerance and stopping rule:
L1 change < tol * n), on the same graph in the same run (docs/dynamic-pagerank.md, 'Static PageRank
against a CuPy script'). The goal: per iteration >= 1.25x CuPy, and the whole run (set-up
included) faster than CuPy's whole run including its CSR build.

CuPy's whole run: from the edges on the device (as fluxgraph's starts from its store) to converged
scores: duplicate edges removed (the pattern graph both count), out-degrees, the CSR of P^T with
1/deg values, and the iterations. fluxgraph's: profile, selection, view, out-weights, iterations.

usage: scripts/pagerank-cupy.py [--fluxgraph build/cuda/fluxgraph] [--runs 5] [--kernels auto] GRAPH...
  GRAPH: rmat:SCALE (scripts/rmat-bin.py, cached in /tmp) or a *.bin file of int32 pairs."""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def graph_file(spec):
    if spec.startswith("rmat:"):
        scale = int(spec.split(":")[1])
        path = f"/tmp/fg-rmat{scale}.bin"
        if not os.path.exists(path):
            rmat = __import__("rmat-bin")
            s, d = rmat.rmat(scale)
            np.stack([s, d], axis=1).tofile(path)
        return path
    return spec


def cupy_pagerank(pairs, damping=0.85, tol=1e-10, max_iter=1000):
    """One whole run from int32 pairs on the device; returns (whole ms, build ms, iterations, ms an iteration, scores)."""
    import cupy as cp
    import cupyx.scipy.sparse as sp

    start, built, done = cp.cuda.Event(), cp.cuda.Event(), cp.cuda.Event()
    start.record()
    ids, inv = cp.unique(pairs.ravel(), return_inverse=True)  # dense ids in increasing order, as fluxgraph's reader
    n = int(ids.size)
    inv = inv.reshape(-1, 2).astype(cp.int64)
    key = cp.unique(inv[:, 0] * n + inv[:, 1])  # the pattern graph: each edge once
    src, dst = (key // n).astype(cp.int32), (key % n).astype(cp.int32)
    deg = cp.bincount(src, minlength=n).astype(cp.float32)
    val = (1.0 / deg[src]).astype(cp.float32)
    A = sp.csr_matrix((val, (dst, src)), shape=(n, n))  # P^T: pull over the in-edges
    dangling = (deg == 0).astype(cp.float32)
    x = cp.full(n, 1.0 / n, dtype=cp.float32)
    built.record()
    it = 0
    while it < max_iter:
        y = A @ x
        xn = damping * y + (damping * (x @ dangling) + (1 - damping)) / n
        change = float(cp.abs(xn - x).sum())  # the one wait an iteration, as fluxgraph's update
        x = xn
        it += 1
        if change < tol * n:
            break
    done.record()
    done.synchronize()
    whole = cp.cuda.get_elapsed_time(start, done)
    build = cp.cuda.get_elapsed_time(start, built)
    return whole, build, it, (whole - build) / it, x


def fluxgraph_pagerank(fg, path, runs, kernels):
    out = subprocess.run([fg, "bench", "pagerank", "--runs", str(runs), "--kernels", kernels, path],
                         capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in out.splitlines():
        m = re.match(r"\s+(\S+)\s+([\d.]+) ms\s+\(views\s+([\d.]+).*?(\d+) iterations, ([\d.]+) ms each, reads ([\d.]+)(.*)", line)
        if m:
            rows[m.group(1)] = dict(ms=float(m.group(2)), views=float(m.group(3)), its=int(m.group(4)),
                                    each=float(m.group(5)), reads=float(m.group(6)), rest=m.group(7).strip())
    return out, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fluxgraph", default="build/cuda/fluxgraph")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--kernels", default="auto")
    ap.add_argument("graphs", nargs="+")
    a = ap.parse_args()
    import cupy as cp

    for spec in a.graphs:
        path = graph_file(spec)
        pairs = cp.asarray(np.fromfile(path, dtype=np.int32).reshape(-1, 2))
        cupy_pagerank(pairs)  # warm-up: CuPy's kernels compiled, the pool's blocks taken
        runs = sorted((cupy_pagerank(pairs) for _ in range(a.runs)), key=lambda r: r[0])
        whole, build, its, each, x = runs[len(runs) // 2]
        out, rows = fluxgraph_pagerank(a.fluxgraph, path, a.runs, a.kernels)
        print(f"{spec} ({path}): {out.splitlines()[2].strip() if len(out.splitlines()) > 2 else ''}")
        print(f"  cupy       whole {whole:8.3f} ms (CSR build {build:.3f}), {its} iterations, {each:.3f} ms each")
        for k, r in rows.items():
            print(f"  fluxgraph {k:<8} whole {r['ms']:8.3f} ms (views {r['views']:.3f}), {r['its']} iterations, "
                  f"{r['each']:.3f} ms each (reads {r['reads']:.3f}) {r['rest']}")
            print(f"    per iteration {each / r['each']:.2f}x CuPy (goal >= 1.25); whole run {whole / r['ms']:.2f}x CuPy's "
                  f"with its CSR build (goal > 1)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
