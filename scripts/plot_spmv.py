#!/usr/bin/env python3
"""Plots `fluxgraph bench spmv --json` results: GB/s and speedup vs cuSPARSE against mu, per kernel,
one PNG per value type. Also prints the summary table (winner per matrix). Needs matplotlib."""
import json
import sys
from collections import defaultdict


def main(path, out_prefix):
    data = json.load(open(path))
    rs = data["results"]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
        print("plot_spmv: matplotlib missing, table only", file=sys.stderr)
    for ty in ("float", "double"):
        sub = [r for r in rs if r["type"] == ty]
        if not sub:
            continue
        if plt:
            fig, ax = plt.subplots(1, 2, figsize=(13, 5))
            by_kernel = defaultdict(list)
            for r in sub:
                by_kernel[r["kernel"]].append(r)
            for k, v in sorted(by_kernel.items()):
                v.sort(key=lambda r: r["mu"])
                ax[0].plot([r["mu"] for r in v], [r["gbs"] for r in v], "o", label=k, alpha=0.8)
                if k != "cusparse":
                    ax[1].plot([r["mu"] for r in v], [r["speedup_vs_cusparse"] for r in v], "o", label=k, alpha=0.8)
            for a, t in zip(ax, ("GB/s (beta+ / time)", "speedup vs cuSPARSE")):
                a.set_xscale("log")
                a.set_xlabel("mu (mean nonzeros per row)")
                a.set_title(f"{t}, {ty}")
                a.grid(True, alpha=0.3)
            ax[1].axhline(1.0, color="k", lw=0.8)
            ax[0].legend(fontsize=8)
            fig.tight_layout()
            fig.savefig(f"{out_prefix}-{ty}.png", dpi=110)
        # winner per matrix (our kernels only) and its ratio to cuSPARSE
        best = {}
        limit = 1e-4 if ty == "float" else 1e-10  # max |y - y_ref| / (|A||x|); above it a kernel is wrong
        wrong = sorted({(r["kernel"], r["matrix"]) for r in sub if r["max_rel_error"] > limit})
        for k, m in wrong:
            print(f"WRONG RESULT (excluded): {ty} {k} on {m}")
        for r in sub:
            if r["kernel"] == "cusparse" or r["max_rel_error"] > limit:
                continue
            key = r["matrix"]
            if key not in best or r["spmv_ms"] < best[key]["spmv_ms"]:
                best[key] = r
        print(f"\n{ty}: best fluxgraph kernel per matrix (speedup vs cuSPARSE, eta+)")
        wins = 0
        for key, r in sorted(best.items(), key=lambda kv: kv[1]["mu"]):
            wins += r["speedup_vs_cusparse"] > 1.0
            print(f"  {key:<44} mu {r['mu']:8.2f} sigma {r['sigma']:9.2f}  {r['kernel']:<14} x{r['speedup_vs_cusparse']:5.2f}  eta+ {r['eta_plus']:.3f}")
        print(f"  beats cuSPARSE on {wins} of {len(best)} matrices")
        skewed = [r for r in best.values() if r["sigma"] >= r["mu"]]
        print(f"  power-law (sigma >= mu): beats cuSPARSE on {sum(r['speedup_vs_cusparse'] > 1 for r in skewed)} of {len(skewed)}")
        # per kernel: median eta+ and speedup over the matrices it ran correctly on, and its wins
        print(f"\n{ty}: per kernel, median over matrices (wins = fastest of ours)")
        print(f"  {'kernel':<14} {'eta+':>6} {'x cuSPARSE':>10} {'wins':>5}")
        kernels = sorted({r["kernel"] for r in sub})
        for k in kernels:
            rk = [r for r in sub if r["kernel"] == k and r["max_rel_error"] <= limit]
            if not rk:
                continue
            med = lambda v: sorted(v)[len(v) // 2]
            nwin = sum(1 for r in best.values() if r["kernel"] == k)
            print(f"  {k:<14} {med([r['eta_plus'] for r in rk]):6.3f} {med([r['speedup_vs_cusparse'] for r in rk]):10.2f} {nwin:5d}")
        # the winner by mean row length and by skew
        print(f"\n{ty}: winners by mu band x skew (sigma/mu < 1: regular, >= 1: skewed)")
        for lo, hi in ((0, 2), (2, 4), (4, 8), (8, 16), (16, 64), (64, 1e9)):
            for name, cond in (("regular", lambda r: r["sigma"] < r["mu"]), ("skewed", lambda r: r["sigma"] >= r["mu"])):
                ws = sorted(r["kernel"] for r in best.values() if lo <= r["mu"] < hi and cond(r))
                if ws:
                    print(f"  mu [{lo:g}, {hi:g}) {name:<8} {', '.join(ws)}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "spmv")
