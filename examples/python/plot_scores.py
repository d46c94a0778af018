#!/usr/bin/env python3
"""Plot how the PageRank scores of the leading vertices move as edge batches stream in (PNG).

    python3 examples/python/plot_scores.py [--out scores.png] [--batches 30] [--top 8]
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import fluxgraph  # noqa: E402
from streaming_pagerank import edge_batches  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="scores.png")
    p.add_argument("--batches", type=int, default=30)
    p.add_argument("--batch-size", type=int, default=10000)
    p.add_argument("--top", type=int, default=8)
    a = p.parse_args()
    g = fluxgraph.Graph()
    history = []
    for s, d, ds, dd in edge_batches(a.batches, a.batch_size):
        g.apply(insert=(s, d), delete=(ds, dd))
        history.append(g.pagerank())
    leaders = np.argsort(-history[-1], kind="stable")[: a.top]  # vertex numbers: g.labels names them
    name = g.labels or range(g.num_vertices)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for v in leaders:
        ax.plot(range(1, len(history) + 1), [h[v] if v < h.size else np.nan for h in history], label=f"vertex {name[v]}")
    ax.set_xlabel("batch")
    ax.set_ylabel("PageRank score")
    ax.set_title(f"PageRank of the final top {a.top}, kept current over {a.batches} batches")
    ax.legend(fontsize="small", ncol=2)
    fig.tight_layout()
    fig.savefig(a.out, dpi=100)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
