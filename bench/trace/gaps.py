#!/usr/bin/env python3
"""Where a timed region's time goes, from a bench/trace/cupti_trace.cpp timeline.

Every region a device_timer times lies between two cudaEventRecord calls. For each region: the
host's time from the first record to the second, the GPU's busy time (the union of its kernels,
copies and sets), how long the GPU sat idle in between, and the host's API calls by name (count
and total us). Regions with the same kernel sequence are one group (a method's runs); each group
prints its medians, in order of first appearance. With --timeline N the N-th group's median run is
printed op by op.

usage: gaps.py TRACE.csv [--min-kernels K] [--timeline N] [--top M]
"""
import argparse
import collections
import re
import statistics


def short(name):
    """A kernel's readable name: the innermost fg:: function or the kernel template's name."""
    for key in ("count_products", "single_segments", "scan_sizes", "group_rows", "warp_rows", "block_rows",
                "label_rows", "list_rows", "compact", "count_rows", "small_bins", "scan_small", "global_rows"):
        if key in name:
            return key
    m = re.search(r"fg::(?:[\w<>]+::)*(\w+)\(", name)
    if m:
        return m.group(1)
    m = re.match(r"(?:void )?([\w:]+)", name)
    return (m.group(1) if m else name)[-48:]


def load(path):
    ops = []
    with open(path) as f:
        for line in f:
            kind, start, end, name = line.rstrip("\n").split(",", 3)
            ops.append((int(start), int(end), kind, name))
    ops.sort()
    return ops


def regions(ops):
    """(t0, t1, ops inside) for consecutive pairs of cudaEventRecord calls."""
    records = [o for o in ops if o[2] == "A" and o[3].startswith("cudaEventRecord")]
    out = []
    for a, b in zip(records[0::2], records[1::2]):
        t0, t1 = a[1], b[0]
        out.append((t0, t1, [o for o in ops if o[0] >= t0 and o[0] < t1]))
    return out


def busy(gpu):
    total, cur_s, cur_e = 0, None, None
    for s, e, _, _ in sorted(gpu):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        total += cur_e - cur_s
    return total


def summary(region):
    t0, t1, inside = region
    gpu = [o for o in inside if o[2] in "KCS"]
    api = collections.defaultdict(lambda: [0, 0])
    for s, e, k, n in inside:
        if k == "A":
            api[n][0] += 1
            api[n][1] += e - s
    return {"wall": t1 - t0, "busy": busy(gpu), "kernels": sum(1 for o in gpu if o[2] == "K"),
            "copies": sum(1 for o in gpu if o[2] == "C"), "api": api,
            "sig": tuple(short(o[3]) for o in gpu if o[2] == "K")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--min-kernels", type=int, default=1)
    ap.add_argument("--timeline", type=int, default=-1)
    ap.add_argument("--top", type=int, default=8)
    a = ap.parse_args()
    regs = [r for r in regions(load(a.trace))]
    groups = collections.OrderedDict()
    for r in regs:
        s = summary(r)
        if s["kernels"] >= a.min_kernels:
            groups.setdefault(s["sig"], []).append((s, r))
    for gi, (sig, runs) in enumerate(groups.items()):
        ss = [s for s, _ in runs]
        wall = statistics.median(s["wall"] for s in ss) / 1e3
        bz = statistics.median(s["busy"] for s in ss) / 1e3
        print(f"group {gi}: {len(runs)} runs, {ss[0]['kernels']} kernels, {ss[0]['copies']} copies: "
              f"host {wall:.1f} us, GPU busy {bz:.1f} us, idle {wall - bz:.1f} us; first kernels {' '.join(sig[:6])}")
        names = collections.defaultdict(list)
        for s in ss:
            for n, (c, t) in s["api"].items():
                names[n].append((c, t))
        rows = sorted(((statistics.median(t for _, t in v) / 1e3, statistics.median(c for c, _ in v), n)
                       for n, v in names.items()), reverse=True)
        print("   " + ", ".join(f"{n} {c:g}x {t:.1f} us" for t, c, n in rows[:a.top]))
        if gi == a.timeline:
            s, (t0, t1, inside) = sorted(runs, key=lambda x: x[0]["wall"])[len(runs) // 2]
            for st, e, k, n in inside:
                label = n if k == "A" else short(n) if k == "K" else n
                print(f"   {(st - t0) / 1e3:9.1f} {(e - st) / 1e3:7.1f} {'host' if k == 'A' else 'GPU '} {label}")


if __name__ == "__main__":
    main()
