#!/usr/bin/env python3
"""Stream edge batches into a fluxgraph Graph and keep PageRank current.

A generator yields batches (a preferential-attachment stream with some deletions); after each batch
PageRank starts from the last scores, so it needs fewer iterations than from scratch. Prints a
progress bar, then the top-k vertices.

    python3 examples/python/streaming_pagerank.py [--batches 50] [--batch-size 20000] [--top 10]
"""
import argparse
import sys
import time

import numpy as np

import fluxgraph


def edge_batches(batches, size, seed=1):
    """(insert_src, insert_dst, delete_src, delete_dst) per batch: new edges prefer vertices that
    already have many (endpoints drawn from earlier edges), a tenth of each batch deletes old ones."""
    rng = np.random.default_rng(seed)
    seen = np.arange(16, dtype=np.int64)
    next_id = 16
    for _ in range(batches):
        new = rng.integers(next_id, next_id + size // 4, size)
        targets = seen[rng.integers(0, seen.size, size)]
        next_id += size // 4
        gone = rng.integers(0, seen.size, size // 10)
        yield new, targets, seen[gone], seen[(gone + 1) % seen.size]
        seen = np.concatenate([seen, new[: size // 2], targets[: size // 2]])


def progress(i, total, text, width=30):
    done = width * i // total
    sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {i}/{total} {text}")
    sys.stderr.flush()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batches", type=int, default=50)
    p.add_argument("--batch-size", type=int, default=20000)
    p.add_argument("--top", type=int, default=10)
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda"])
    a = p.parse_args()
    g = fluxgraph.Graph(device=a.device)
    iterations, start = [], time.perf_counter()
    for i, (s, d, ds, dd) in enumerate(edge_batches(a.batches, a.batch_size), 1):
        g.apply(insert=(s, d), delete=(ds, dd))
        scores = g.pagerank()
        iterations.append(g.pagerank_info["iterations"])
        progress(i, a.batches, f"{g.num_edges} edges, PageRank {iterations[-1]} iterations")
    sys.stderr.write("\n")
    cold = g.pagerank(warm=False)
    print(f"{a.batches} batches in {time.perf_counter() - start:.2f} s on {g.backend}")
    print(f"PageRank iterations per batch: first {iterations[0]}, mean after {np.mean(iterations[1:]):.1f} "
          f"(from scratch now: {g.pagerank_info['iterations']}); L1 to scratch {np.abs(scores - cold).sum():.2e}")
    top = np.argsort(-scores, kind="stable")[: a.top]  # vertex numbers: g.labels names them
    name = g.labels or range(g.num_vertices)
    print(f"top {a.top}:")
    for rank, v in enumerate(top, 1):
        print(f"{rank:4d}  vertex {name[v]:8d}  score {scores[v]:.6f}")


if __name__ == "__main__":
    main()
