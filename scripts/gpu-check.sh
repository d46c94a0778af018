#!/usr/bin/env bash
# One call on the GPU machine: configure + build the CUDA build, run the whole test suite there
# (GPU against the reference twins), run the benchmarks, and print a summary table last.
# Inputs: .data/ (git-ignored; carried) may hold real graphs: *.mtx.gz / *.txt.gz are benchmarked.
# Writes logs to $OUT (the device tool's folder) or /tmp/fg-gpu-check.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/fg-gpu-check}
mkdir -p "$out"
status=0
step() {  # step NAME TIMEOUT CMD...: runs with a timeout, logs to $out/NAME.log, remembers failure
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "$name: rc=$rc, $((SECONDS - t0)) s" | tee -a "$out/steps.txt"
  [ $rc -eq 0 ] || { status=1; tail -25 "$out/$name.log"; }
  return $rc
}

nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$out/gpu.txt"
step configure 300 cmake --preset cuda -DFG_BACKEND=cuda || { echo "configure failed"; exit 1; }
step build 900 cmake --build --preset cuda -j "$(nproc)" || { echo "build failed"; exit 1; }
step tests 1200 ctest --preset cuda -V
step demo 120 build/cuda/fluxgraph stream data/wiki-Vote.txt.gz --batch 10000 --top 10
graphs=(rmat:20 rmat:22)
for f in .data/*.gz; do [ -e "$f" ] && graphs=("$f" "${graphs[@]}"); done
step bench 900 build/cuda/bench/fluxgraph_bench --json "$out/bench.json" "${graphs[@]}"
for f in .data/*.mtx.gz; do
  [ -e "$f" ] && step "pagerank-$(basename "$f" .mtx.gz)" 300 build/cuda/fluxgraph pagerank "$f" --top 3
done

echo
echo "================ summary ================"
cat "$out/gpu.txt"
cat "$out/steps.txt"
echo "-- tests (doctest counts per executable, CLI checks) --"
grep -E "^ *[0-9]+/[0-9]+ Test|tests passed|\[doctest\] (test cases|assertions)|checks passed" "$out/tests.log" | sed 's/^ *//'
echo "-- demo --"
grep -E "inserted|defragment:|pagerank:|backend:" "$out/demo.log"
echo "-- bench --"
grep -E "^[a-z0-9].*:|copy bandwidth|insert|speedup|SpMV|/ CSR|eta|defragment" "$out/bench.log" | grep -v "^device"
for f in "$out"/pagerank-*.log; do [ -e "$f" ] && grep -E "pagerank:|backend" "$f"; done
echo "gpu-check: $([ $status -eq 0 ] && echo GREEN || echo RED)"
exit $status
