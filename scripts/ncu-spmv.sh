#!/usr/bin/env bash
# Hardware counters (Nsight Compute) of chosen SpMV kernels next to cuSPARSE's, on chosen matrices:
# time, DRAM bytes read/written, L2 hit rate, achieved occupancy, global load sectors. For explaining a
# benchmark gap with bytes actually moved (vs CMRS beta+). Needs a CUDA build (build/cuda).
# usage: scripts/ncu-spmv.sh KERNELS MATRIX... (KERNELS comma-separated, e.g. csr_adaptive,csr_vector)
# Writes ncu-<matrix>.csv to $OUT (or /tmp) and prints per-kernel medians.
set -uo pipefail
cd "$(dirname "$0")/.."
kernels=$1
shift
dest=${OUT:-/tmp}
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,\
sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
smsp__inst_executed.sum
for m in "$@"; do
  name=$(basename "$m" | sed 's/[^A-Za-z0-9_.-]/_/g')
  # --clock-control none: report at the clocks the benchmark runs at (KINDS.md: the default was not checked)
  timeout 240 ncu --clock-control none --csv --print-kernel-base function --metrics "$metrics" --launch-count 400 \
    build/cuda/fluxgraph bench spmv --types float --runs 20 --kernels "$kernels" "$m" >"$dest/ncu-$name.csv" 2>"$dest/ncu-$name.err"
  echo "ncu $m: rc=$?"
  python3 scripts/ncu_summary.py "$dest/ncu-$name.csv" || tail -5 "$dest/ncu-$name.err"
done
