#!/usr/bin/env bash
# `fluxgraph stream - --input-format bin --pagerank` end to end on R-MAT 22 (Graph500's a, b, c = .57, .19,
# .19; 2^22 ids, 16 edges a vertex: 67 M int32 pairs from scripts/rmat-bin.py), against
# the same stream without PageRank (docs/dynamic-pagerank.md's figures; issue 50's goal: >= 50 M
# edges/s and apply <= 2 ms median at 1e5-edge batches, apply <= 1 ms median at 1e4). Prints each
# run's rate, the apply percentiles (all batches, and the second half: the graph at full size) and
# what PageRank did per batch.
# usage: scripts/stream-pagerank.sh [FLUXGRAPH] [BATCHES]  (default build/cuda/fluxgraph, "100000 10000";
#        the input is cached in /tmp)
set -uo pipefail
cd "$(dirname "$0")/.."
fg=${1:-build/cuda/fluxgraph}
sizes=${2:-"100000 10000"}
in=/tmp/fg-rmat22.bin
[ -e "$in" ] || python3 scripts/rmat-bin.py 22 "$in" || exit 1
run() {  # run NAME ARGS...: one stream, then its summary
  local name=$1
  shift
  "$fg" stream - --input-format bin "$@" <"$in" >/tmp/fg-spr.json 2>/tmp/fg-spr.err || { tail -3 /tmp/fg-spr.err; return 1; }
  python3 - "$name" <<'PY'
import json, sys
lines = [json.loads(l) for l in open('/tmp/fg-spr.json')]
s, b = lines[-1], [l for l in lines if 'batch' in l]
def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * (len(v) - 1) + 0.5))] / 1e3 if v else 0
a, half = [x['apply_us'] for x in b], [x['apply_us'] for x in b[len(b) // 2:]]
print(f"{sys.argv[1]}: {s['edges_in']} edges in {len(b)} batches, {s['edges_per_s'] / 1e6:.1f} M edges/s; apply ms p50 "
      f"{pct(a, .5):.3f} p90 {pct(a, .9):.3f} (second half: p50 {pct(half, .5):.3f} p90 {pct(half, .9):.3f}); store p50 "
      f"{pct([x['store_us'] for x in b[len(b) // 2:]], .5):.3f}; latency p50 {s['latency_us_p50'] / 1e3:.1f} ms")
if b and 'pr_iterations' in b[0]:
    h = b[len(b) // 2:]
    print(f"  pagerank, second half: p50 {pct([x['pr_us'] for x in h], .5):.3f} ms p90 {pct([x['pr_us'] for x in h], .9):.3f}; "
          f"{sum(x['pr_iterations'] for x in h) / len(h):.1f} rounds and {sum(x['pr_edges'] for x in h) / len(h) / 1e6:.2f} M "
          f"edges read a batch (graph: {h[-1]['edges'] / 1e6:.1f} M); {sum(x['pr_restarted'] for x in b)} restarts, "
          f"{sum(x['pr_pulled'] for x in h)} of {len(h)} pulled, {sum(x['pr_edges'] == 0 and x['pr_iterations'] == 0 for x in h)} "
          f"with nothing to do; bound max "
          f"{max(x['pr_bound'] for x in h):.2e}; top at the end {s.get('top', [])[:3]}")
PY
}
for batch in $sizes; do
  run "no analysis, batch $batch" --batch "$batch" --top 0
  run "--pagerank, batch $batch" --batch "$batch" --pagerank
done
