#!/usr/bin/env python3
"""Median of each metric per kernel name from an `ncu --csv` file (scripts/ncu-spmv.sh)."""
import csv, statistics, sys
from collections import defaultdict

rows = defaultdict(lambda: defaultdict(list))
with open(sys.argv[1]) as f:
    lines = [l for l in f if l.startswith('"')]  # skip the program's own output
for r in csv.DictReader(lines):
    try:
        v = float(r["Metric Value"].replace(",", ""))
    except (KeyError, ValueError):
        continue
    name = r["Kernel Name"].split("<")[0][-40:]
    rows[name][(r["Metric Name"], r["Metric Unit"])].append(v)
for name, ms in rows.items():
    n = max(len(v) for v in ms.values())
    parts = [f"{m.split('__')[1].split('.')[0]}={statistics.median(v):.4g}{u}" for (m, u), v in sorted(ms.items())]
    print(f"  {name:40s} x{n:3d}  " + "  ".join(parts))
