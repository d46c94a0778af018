#!/usr/bin/env python3
"""The Python API against the C++ API on the same batches (issue 17's goal: inserts <= 1.2x, PageRank
<= 1.05x). NumPy int64 batches of 1e4, 1e5 and 1e6 edges streamed into a fresh graph, each size
timed alternately through fluxgraph.Graph.insert (Python loop) and fluxgraph::graph::insert (a C++
loop over the same memory, _api_bench); medians of --reps runs. PageRank from scratch on the final
graph: the fastest of --reps runs each way.

    PYTHONPATH=build/<preset>/python python3 python/bench/bench_api.py [--edges 4000000] [--reps 5]
"""
import argparse
import statistics
import time

import numpy as np

import _api_bench
import fluxgraph


def python_inserts(src, dst, batch, device):
    g = fluxgraph.Graph(device=device)
    t = time.perf_counter()
    for i in range(0, src.shape[0], batch):
        g.insert(src[i:i + batch], dst[i:i + batch])
    return time.perf_counter() - t


def python_pagerank(src, dst, runs):
    g = fluxgraph.Graph()
    g.insert(src, dst)
    g.pagerank(warm=False)
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        g.pagerank(warm=False)
        best = min(best, time.perf_counter() - t)
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--edges", type=int, default=4_000_000, help="edges streamed per run (R-MAT-like skew)")
    p.add_argument("--vertices", type=int, default=1 << 20)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--device", default="auto", choices=["auto", "cpu"])
    a = p.parse_args()
    rng = np.random.default_rng(1)
    # Skewed ids (a power of a uniform variable): hub rows, as in real streams.
    src = (a.vertices * rng.random(a.edges) ** 3).astype(np.int64)
    dst = (a.vertices * rng.random(a.edges) ** 2).astype(np.int64)
    print(f"fluxgraph {fluxgraph.__version__} ({fluxgraph.build}), {a.edges} edges over {a.vertices} ids, "
          f"{a.reps} runs each, device {a.device}")
    print(f"{'batch':>9} {'C++ M edges/s':>14} {'Python M edges/s':>17} {'Python/C++':>11}")
    for batch in (10_000, 100_000, 1_000_000):
        cpp, py = [], []
        for _ in range(a.reps):
            cpp.append(_api_bench.inserts(src.ctypes.data, dst.ctypes.data, a.edges, batch, a.device))
            py.append(python_inserts(src, dst, batch, a.device))
        c, q = statistics.median(cpp), statistics.median(py)
        print(f"{batch:>9} {a.edges / c / 1e6:>14.1f} {a.edges / q / 1e6:>17.1f} {q / c:>11.3f}")
    c = _api_bench.pagerank(src.ctypes.data, dst.ctypes.data, a.edges, a.reps)
    q = python_pagerank(src, dst, a.reps)
    print(f"pagerank from scratch: C++ {c * 1e3:.2f} ms, Python {q * 1e3:.2f} ms, Python/C++ {q / c:.3f}")


if __name__ == "__main__":
    main()
