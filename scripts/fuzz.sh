#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang) and runs each for SECONDS, JOBS at a time, from a
# seed corpus taken from tests/data (docs/fuzzing.md). Prints a table: runs, corpus, crashes.
#   scripts/fuzz.sh [SECONDS] [JOBS] [TARGET...]     (make fuzz: 600 s; CI: 45 s)
# A crash, leak, timeout or out-of-memory leaves its input in build/fuzz/findings/TARGET/ and makes
# the script exit 1. Reproduce: build/fuzz/TARGET build/fuzz/findings/TARGET/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-600}
JOBS=${2:-$(nproc)}
shift $(( $# > 2 ? 2 : $# )) || true
OUT=build/fuzz
command -v clang++ >/dev/null || { echo "fuzz: clang++ is missing (scripts/install-deps.sh installs it)"; exit 1; }
cmake -S fuzz -B $OUT -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build $OUT -j "$JOBS" >/dev/null
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(cfa cfl edge_list matrix_market pointsto snapshot stream_parser wal)

# The seed corpus: the repository's own inputs of each kind (small ones: libFuzzer mutates them).
seed() {
  local t=$1 dir=$OUT/corpus/$1
  mkdir -p "$dir"
  case $t in
    matrix_market) find tests/data/loaders -name '*.mtx' -size -64k ;;
    edge_list) find tests/data/loaders -name '*.txt' -size -64k ;;
    pointsto) find tests/data/pointsto -type f -size -64k ;;
    cfl) ;;  # written below: GRAMMAR '\0' GRAPH
    cfa) find tests/data/cfa -type f -size -64k ;;
    snapshot) find tests/data/snapshot -name '*.fgsnap' ;;
    wal) ;;  # written below by a short durable stream
    stream_parser) ;;
  esac | head -200 | while read -r f; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done
  case $t in
    cfl)
      for g in tests/data/cfl/*.cfg tests/data/cfl/malformed/*.cfg; do
        for e in tests/data/cfl/*.peg tests/data/cfl/*.vfg tests/data/cfl/*.graph tests/data/cfl/malformed/*.graph; do
          [ -f "$e" ] && [ "$(stat -c %s "$e")" -lt 65536 ] && { cat "$g"; printf '\0'; cat "$e"; } > "$dir/$(basename "$g")_$(basename "$e")"
        done
      done 2>/dev/null || true ;;
    stream_parser)
      printf '\x00\x05+ 1 2\n- 3 4\n5 6 0.5\n# c\n7 8' > "$dir/text"
      printf '\x01\x07\x01\x00\x00\x00\x02\x00\x00\x00' > "$dir/bin32"
      printf '\x02\x03\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00' > "$dir/bin64" ;;
    wal)
      local bin=build/auto/fluxgraph wal=$OUT/wal_seed
      if [ -x $bin ]; then
        rm -rf $wal
        printf '1 2\n2 3\n- 1 2\n4 5\n5 1\n' | $bin stream - --batch 2 --wal $wal --snapshot-every 2 >/dev/null 2>&1 || true
        cp $wal/*.wal "$dir/" 2>/dev/null || true
      fi ;;
  esac
}

mkdir -p $OUT/findings $OUT/logs
# A run's findings replace the last run's (the logs of both name them).
for t in "${TARGETS[@]}"; do seed "$t"; rm -rf $OUT/findings/$t; mkdir -p $OUT/findings/$t; done
run_one() {
  local t=$1
  (cd $OUT/findings/$t && ../../${t}_fuzz ../../corpus/$t -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 \
     -timeout=10 -max_len=65536 -print_final_stats=1 > ../../logs/$t.log 2>&1) && echo "$t ok" || echo "$t FAILED"
}
export -f run_one
export OUT SECONDS_EACH
printf '%s\n' "${TARGETS[@]}" | xargs -P "$JOBS" -I{} bash -c 'run_one {}'

status=0
printf '\n%-15s %12s %10s %8s %8s\n' target runs exec/s corpus crashes
for t in "${TARGETS[@]}"; do
  log=$OUT/logs/$t.log
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  corpus=$(ls $OUT/corpus/$t | wc -l)
  crashes=$(ls $OUT/findings/$t | wc -l)
  [ "$crashes" -eq 0 ] && grep -q 'Done [0-9]* runs' "$log" || status=1
  printf '%-15s %12s %10s %8s %8s\n' "$t" "${runs:-0}" "${rate:-0}" "$corpus" "$crashes"
done
[ $status -eq 0 ] || { echo "fuzz: a target failed: see $OUT/logs and $OUT/findings"; grep -hE 'ERROR|SUMMARY|runtime error' $OUT/logs/*.log | head -20 || true; }
exit $status
