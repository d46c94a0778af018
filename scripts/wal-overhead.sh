#!/usr/bin/env bash
# What durability costs `fluxgraph stream -` (issue 18): 20 M uniform random int32 pairs over 2^22
# ids piped in as --input-format bin, at --batch 100000 and 10000, without --wal and with --wal in each
# --sync mode (snapshots every 50 batches). Prints rate, latency and the log's share per run.
# usage: scripts/wal-overhead.sh [FLUXGRAPH]   (default build/cuda/fluxgraph; input cached in /tmp)
set -uo pipefail
cd "$(dirname "$0")/.."
fg=${1:-build/cuda/fluxgraph}
n=${FG_WAL_EDGES:-20000000}
in=/tmp/fg-wal-$n.bin
[ -e $in ] || python3 -c "
import numpy as np
np.random.default_rng(2).integers(0, 1 << 22, size=($n, 2), dtype=np.int32).tofile('$in')" || exit 1
dir=$(mktemp -d /tmp/fg-wal.XXXX)
for batch in 100000 10000; do
  for mode in off none interval:100 batch; do
    rm -rf "$dir/wal"
    args=()
    [ $mode = off ] || args=(--wal "$dir/wal" --sync "$mode" --snapshot-every 50)
    cat $in | "$fg" stream - --batch $batch --input-format bin "${args[@]}" >"$dir/out.json" 2>"$dir/err" || { tail -3 "$dir/err"; exit 1; }
    size=$(du -sh "$dir/wal" 2>/dev/null | cut -f1)
    python3 - "$batch" "$mode" "${size:--}" "$dir/out.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[4])]
s, b = lines[-1], [l for l in lines if 'batch' in l]
log = sorted(x.get('log_us', 0) for x in b)
snaps = sum(1 for x in b if x.get('snapshot'))
print(f"batch {sys.argv[1]:>6} wal {sys.argv[2]:<12} {s['edges_per_s'] / 1e6:6.1f} M edges/s  latency p50 {s['latency_us_p50'] / 1e3:6.2f} ms"
      f" p99 {s['latency_us_p99'] / 1e3:7.2f} ms  log p50 {log[len(log) // 2] / 1e3:6.2f} ms p99 {log[int(len(log) * .99)] / 1e3:6.2f} ms"
      f"  snapshots {snaps:>3}  folder {sys.argv[3]}")
PY
  done
done
rm -rf "$dir"
