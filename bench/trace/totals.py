#!/usr/bin/env python3
"""Totals of a bench/trace/cupti_trace.cpp timeline: time and count per kernel, copy, set and API call.

Where gaps.py splits timed regions, this answers "what did the whole run spend its GPU and API time
on" (e.g. PageRank's iteration beyond its SpMV: the update pass, the out-weights, allocations).

usage: totals.py TRACE.csv [--top N]
"""
import argparse
import collections

from gaps import load, short


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    tot = collections.defaultdict(lambda: [0, 0])
    for start, end, kind, name in load(a.trace):
        key = kind + " " + (short(name) if kind == "K" else name.split()[0] if kind in "CS" else name)
        tot[key][0] += 1
        tot[key][1] += end - start
    print(f"{'ms':>10} {'count':>7}  what (K kernel, C copy, S set, A API call)")
    for key, (n, ns) in sorted(tot.items(), key=lambda kv: -kv[1][1])[: a.top]:
        print(f"{ns / 1e6:10.3f} {n:7d}  {key}")


if __name__ == "__main__":
    main()
