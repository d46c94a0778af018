#!/usr/bin/env bash
# `fluxgraph stream -` end to end (issue 16's goal: >= 20 M edges/s text, >= 100 M/s --input-format bin):
# uniform random edges over 2^22 ids, 100 M int32 pairs and 30 M text lines, piped in with cat at
# --batch 100000. Prints each run's summary (rate, latency, where the time went: apply_s, parse_s,
# input_wait_s, map_s) and the per-batch wait / apply / store percentiles.
# usage: scripts/stream-e2e.sh [FLUXGRAPH]   (default build/cuda/fluxgraph; inputs cached in /tmp)
set -uo pipefail
cd "$(dirname "$0")/.."
fg=${1:-build/cuda/fluxgraph}
[ -e /tmp/fg-e2e.bin ] && [ -e /tmp/fg-e2e.txt ] || python3 - <<'PY' || exit 1
import numpy as np
rng = np.random.default_rng(1)
rng.integers(0, 1 << 22, size=(100_000_000, 2), dtype=np.int32).tofile('/tmp/fg-e2e.bin')
t = rng.integers(0, 1 << 22, size=(30_000_000, 2))
with open('/tmp/fg-e2e.txt', 'w') as f:
    for i in range(0, len(t), 1_000_000):
        f.write('\n'.join(f'{a} {b}' for a, b in t[i:i + 1_000_000].tolist()) + '\n')
PY
for f in "bin /tmp/fg-e2e.bin" "text /tmp/fg-e2e.txt"; do
  set -- $f
  cat "$2" | "$fg" stream - --batch 100000 --input-format "$1" >/tmp/fg-e2e.json 2>/tmp/fg-e2e.err || { tail -3 /tmp/fg-e2e.err; exit 1; }
  python3 - "$1" <<'PY'
import json, sys
lines = [json.loads(l) for l in open('/tmp/fg-e2e.json')]
s = lines[-1]
print(f"stream - --input-format {sys.argv[1]}: {s['edges_in']} edges, {s['edges_per_s'] / 1e6:.1f} M edges/s, latency p50 "
      f"{s['latency_us_p50'] / 1e3:.1f} ms p99 {s['latency_us_p99'] / 1e3:.1f} ms; seconds {s['seconds']:.3f}: apply "
      f"{s['apply_s']:.3f}, parse {s['parse_s']:.3f}, input wait {s['input_wait_s']:.3f}, map {s['map_s']:.3f}")
b = [l for l in lines if 'batch' in l]
for k in ['wait_us', 'apply_us', 'store_us']:
    v = sorted(x[k] for x in b)
    print(f"  {k}: p50 {v[len(v) // 2]} p99 {v[int(len(v) * .99)]}")
PY
done
