#!/usr/bin/env bash
# One call on the GPU machine: configure + build the CUDA build, run the whole test suite there
# (GPU against the reference twins), run the benchmarks, and print a summary table last.
# Inputs: .data/ (git-ignored; carried) may hold real graphs: *.mtx.gz / *.txt.gz are benchmarked.
# Writes logs to $OUT (the device tool's folder) or /tmp/fg-gpu-check.
# usage: scripts/gpu-check.sh [PARTS]: PARTS a comma list of tests, sanitize (= memcheck +
# racecheck + memcheck-apps), bench, live, wal, spmv, select, closure, python, apps, analyses,
# ppr (issue 53: bench ppr on rmat-22 and rmat-24), memory (issue 54: bench memory, bytes per edge
# with PageRank kept current, on rmat-22, rmat-24 and cnr-2000, both footprints), memory-scale (the store alone on rmat-26),
# stream-scale (rmat-27 through stream -, PageRank every 10 batches, compact), numerics (issue 21: cg_fem with the CuPy CG beside it, amg_setup on 2D/3D Poisson and the FE problem),
# amg-rounds (issue 21's Galerkin products, three rounds of 11 runs each: the spread between calls),
# profile-coarse (ncu of every 2D Galerkin kernel), trace-amg (a CUPTI timeline of the same), trace-spmv (one of the small graphs' SpMVs),
# trace-insert (issue 54: 1e7-edge batches into rmat-22 and rmat-26 under the CUPTI timeline),
# incremental (issue 50: PageRank kept current through stream -, against from scratch, bench incremental),
# locality (issue 22: the renumbered views, evict-first loads A/B, PageRank on rmat-24), dist (issue 24:
# mpirun -np 1|2 on the one GPU against one process), scaling (issue 25, a machine of 2+ GPUs: bench dist
# at P = 1 and P = one rank per GPU over NCCL; FG_SCALING_SET, default rmat:24 rmat:25;
# FG_SCALING_PARTITIONS, default blocks,cyclic,sorted), profile (ncu counters of issue 22's
# csr_merge on rmat-24 and issue 21's Galerkin kernels; logs profile-*.log) (default: all but
# scaling, profile, amg-rounds, profile-coarse, trace-amg, trace-spmv, trace-insert, memory-scale and stream-scale). All of them take longer than one device call
# (600 s) now: run it as
# `scripts/gpu-check.sh tests` and then `scripts/gpu-check.sh bench,live,spmv,select,closure`
# on the same machine (the second call reuses the build).
set -uo pipefail
cd "$(dirname "$0")/.."
# NVLink multicast stays off on the GPU machines (KINDS.md): a program that uses it can take the
# host's shared GPUs out of service. Every program below inherits these.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
parts=,${1:-tests,sanitize,bench,live,incremental,wal,spmv,select,ppr,memory,closure,python,apps,analyses,numerics,locality,dist},
want() { [[ $parts == *,$1,* ]]; }
# Logs go to a scratch folder; at the end the device tool's $OUT gets at most 8 files: the JSON
# results, the plots, the summary and one tarball of every log.
final=${OUT:-/tmp/fg-gpu-check}
out=$(mktemp -d /tmp/fg-gpu-check.XXXX)
mkdir -p "$final"
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
# Four suites at a time (the backend alone took 180-300 s on the H100, and serially they passed the
# call's 600 s; since split in two, each part ~120-150 s on the H200); a suite that hangs is stopped
# at 330 s so the others still run (2026-11-28: backend part 2 hung once in SURAA's first case).
want tests && step tests 420 ctest --preset cuda -V -j 4 --timeout 330
# compute-sanitizer (issue 18): memcheck (with leaks) and racecheck over the GPU backend suite at a
# reduced size: the test cases of 10^4 batches, 2^24 nonzeros, real graphs and out-of-memory
# injection are left out (the sanitizers slow kernels 10-100x; OOM injection fights their allocator).
# FG_DEVICE_BLOCK_CACHE=0: the allocator's host cache off, so every block is its exact size and freed
# (a cached block would be neither bounds-checked past its request nor reported as a leak).
san_skip='*10^4*,*2^24*,many short streams*,spmm on real graphs*,*hub row of 1e5*,*workspace cap*,*out of*memory*'
san_skip+=',*cannot get memory*,*runs out of memory*,api analyses: CFL value flow*,*allocation that fails*,amg: preconditioned CG*'
if command -v compute-sanitizer >/dev/null; then  # parts: sanitize = memcheck + racecheck
  { want sanitize || want memcheck; } && step memcheck 400 env FG_DEVICE_BLOCK_CACHE=0 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 \
    build/cuda/tests/fg_test_backend --no-intro=true -tce="$san_skip"
  # the graph applications' kernels (their tests are in the unit suite): Graphalytics, LAGraph,
  # the incremental streams; the real-graph oracle case left out (Boost on seven graphs, slow there)
  { want sanitize || want memcheck-apps; } && step memcheck-apps 300 env FG_DEVICE_BLOCK_CACHE=0 compute-sanitizer --tool memcheck --leak-check full \
    --error-exitcode 1 build/cuda/tests/fg_test_unit --no-intro=true -tc="graphalytics*,triangles*,wcc*,bfs*,incremental*"
  # racecheck cannot follow CUDA dynamic parallelism: it warns once at start (which
  # --error-exitcode would count as a hazard) and SURAA's parent/child launches, and the views and
  # races that may pick SURAA, are left to memcheck. A reported race fails the step.
  { want sanitize || want racecheck; } && step racecheck 170 env FG_DEVICE_BLOCK_CACHE=0 compute-sanitizer --tool racecheck --racecheck-report hazard \
    build/cuda/tests/fg_test_backend --no-intro=true -tce="$san_skip,suraa*,every selectable kernel*,*read phase*,*race reads*"
  grep -qE "Race reported|SUMMARY: [0-9]+ hazards? displayed \([1-9]" "$out/racecheck.log" 2>/dev/null &&
    { status=1; echo "racecheck: races reported"; }
fi
want tests && step demo 120 build/cuda/fluxgraph stream data/wiki-Vote.txt.gz --batch 10000 --top 10
# Insert benchmark on two real graphs and R-MAT; SpMV benchmark on every matrix in .data (see
# scripts/prepare-bench-data.sh) plus generated ones spanning mu from 2 to 100+ (override: FG_SPMV_SET).
ins=(rmat:20 rmat:22)
for f in .data/cnr-2000.mtx.gz .data/soc-Slashdot0902.txt.gz; do [ -e "$f" ] && ins=("$f" "${ins[@]}"); done
# Graph applications (issue 19): BFS/SSSP GTEPS, WCC, triangles, LCC, CDLP, incremental on R-MAT and
# the largest real graphs in .data (Boost.Graph is the CPU build's baseline: `make`, then the same).
apps_set=(rmat:22 rmat:24)
for f in cnr-2000.mtx.gz soc-Slashdot0902.txt.gz loc-Brightkite.data_214078.txt.gz usroads.data_165435.txt.gz; do
  [ -e ".data/$f" ] && apps_set+=(".data/$f")
done
# one process a graph: each starts with an empty memory pool (rmat-24 after rmat-22 ran out of memory)
want apps && step apps 540 bash -c 'rc=0; for g; do build/cuda/fluxgraph bench apps --runs 3 --no-boost "$g" || rc=1; done; exit $rc' _ "${apps_set[@]}"
want bench && step bench 240 build/cuda/fluxgraph bench insert --batches 1e3,1e4,1e5,1e6,1e7 --json "$out/insert.json" "${ins[@]}"
spmv_set=${FG_SPMV_SET:-"$(ls .data/* 2>/dev/null | tr '\n' ' ') rmat:20 rmat:22 rmat:24 uniform:22:2 uniform:22:8 uniform:20:32 uniform:18:128 poisson2d:2048 poisson3d:160"}
# shellcheck disable=SC2086
want spmv && step spmv 330 build/cuda/fluxgraph bench spmv --json "$out/spmv.json" --points "$out/bench.points" $spmv_set
want spmv && python3 scripts/plot_spmv.py "$out/spmv.json" "$out/spmv" > "$out/spmv-summary.txt" 2>&1
# Kernel selection (issue 4): this GPU's synthetic calibration, then the selector judged on the bench
# points: leave-one-out, synthetic calibration only, and both; PageRank auto vs every forced kernel.
want select && step calibrate 120 build/cuda/fluxgraph calibrate --out "$out/synthetic.points"
want select && step select 60 build/cuda/fluxgraph bench select "$out/bench.points"
want select && step select-synthetic 60 build/cuda/fluxgraph bench select "$out/bench.points" --calibration "$out/synthetic.points"
want select && step select-both 60 build/cuda/fluxgraph bench select "$out/bench.points" --extra "$out/synthetic.points" --detail
pr_set=()
for f in cnr-2000.mtx.gz soc-Slashdot0902.txt.gz email-Enron.txt.gz loc-Brightkite.data_214078.txt.gz wiki-Vote.txt \
  usroads.data_165435.txt.gz; do [ -e ".data/$f" ] && pr_set+=(".data/$f"); done
# Personalized PageRank (issue 53): 8 seed sets a read against 8 cuSPARSE SpMVs and one SpMM.
want ppr && step ppr 400 build/cuda/fluxgraph bench ppr --runs 15 rmat:22 rmat:24
# What a graph costs in memory (issue 54, docs/performance.md "Memory"): bytes per edge, part by part,
# streamed with PageRank kept current; and the store alone at rmat-26 (1.07 G edges).
mem_set=(rmat:22 rmat:24)
[ -e .data/cnr-2000.mtx.gz ] && mem_set+=(.data/cnr-2000.mtx.gz)
want memory && step memory 300 build/cuda/fluxgraph bench memory "${mem_set[@]}"
want memory-scale && step memory-scale 400 build/cuda/fluxgraph bench memory --no-pagerank --batch 1e7 rmat:26
want memory && step memory-compact 300 build/cuda/fluxgraph bench memory --memory compact "${mem_set[@]}"
# stream-scale (not in the default set): issue 54's 2-billion-edge stream: R-MAT of FG_STREAM_SCALE
# (default 27: 2.1 G edges; 28 on an H200) made on the host by scripts/rmat-bin.py (8 processes),
# through stream - in 1e7-edge batches, PageRank kept current every 10 batches in the compact
# footprint; the summary line (memory_bytes, peak_bytes) and nvidia-smi's high-water mark.
want stream-scale && step stream-scale 560 bash -c 's=${FG_STREAM_SCALE:-27};
  (while sleep 5; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done) > /tmp/smi.txt & w=$!;
  python3 scripts/rmat-bin.py $s - | build/cuda/fluxgraph stream - --input-format bin --batch 10000000 --pagerank \
    --memory compact --pagerank-every 10 > /tmp/stream-scale.jsonl; rc=$?; kill $w;
  tail -1 /tmp/stream-scale.jsonl; echo "nvidia-smi high-water MiB: $(sort -n /tmp/smi.txt | tail -1)"; exit $rc'
want select && step pagerank-kernels 200 build/cuda/fluxgraph bench pagerank --runs 9 "${pr_set[@]}" rmat:20
# Transitive closure (issue 5) on the quick graphs of the published table (.closure/, see
# scripts/prepare-bench-data.sh); all 20: `fluxgraph bench closure --expected ... .closure/*.gz`.
cl_set=()
for f in OL.cedge cal.cedge TG.cedge wing ego-Facebook wiki-Vote cti delaunay_n16; do
  for g in .closure/"$f".data_*; do [ -e "$g" ] && cl_set+=("$g"); done
done
[ ${#cl_set[@]} -gt 0 ] && want closure && step closure 90 build/cuda/fluxgraph bench closure --expected .closure/transitive_closure_sizes.tsv \
  --json "$out/closure.json" "${cl_set[@]}"
# Incremental closure (issue 6): a random 0.01% / 1% of the edges held back, R⁺ of the rest extended
# by them vs R⁺ from scratch (equal pair counts required).
inc_set=()
for f in TG.cedge wiki-Vote delaunay_n16 usroads; do
  for g in .closure/"$f".data_*; do [ -e "$g" ] && inc_set+=("$g"); done
done
[ ${#inc_set[@]} -gt 0 ] && want closure && step closure-inc 90 build/cuda/fluxgraph bench closure --no-split --incremental 0.0001,0.01 \
  "${inc_set[@]}"
want live && step live 300 scripts/stream-e2e.sh
# PageRank kept current (issue 50, docs/dynamic-pagerank.md): rmat-22 through `stream -` with and
# without it, the real graphs' streams against PageRank from scratch, and bench incremental.
want incremental && step incremental-live 300 scripts/stream-pagerank.sh build/cuda/fluxgraph "100000 10000"
inc_graphs=()
for f in cnr-2000.mtx.gz:100000 soc-Slashdot0902.txt.gz:20000; do [ -e ".data/${f%%:*}" ] && inc_graphs+=("$f"); done
want incremental && step incremental-compare 120 bash -c 'for g; do build/cuda/fluxgraph stream .data/${g%%:*} --batch ${g##*:} \
  --pagerank --compare | grep -E "^incremental|^from scratch" | sed "s|^|${g%%:*}: |"; done' _ "${inc_graphs[@]}"
want incremental && step incremental 300 build/cuda/fluxgraph bench incremental --batches 1e3,1e4,1e5 --count 10 rmat:22 \
  $(for g in "${inc_graphs[@]}"; do echo ".data/${g%%:*}"; done)
want wal && step wal 300 scripts/wal-overhead.sh
# The Python API against the C++ API on the same NumPy batches (issue 17: <= 1.2x inserts, <= 1.05x PageRank).
py=$(sed -n "s/^FG_PYTHON:FILEPATH=//p" build/cuda/CMakeCache.txt 2>/dev/null)
want python && step python-api 300 env PYTHONPATH=build/cuda/python "${py:-python3}" python/bench/bench_api.py --edges 20000000 --reps 5
for f in .data/*.mtx.gz; do
  [ -e "$f" ] && want select && step "pagerank-$(basename "$f" .mtx.gz)" 300 build/cuda/fluxgraph pagerank "$f" --top 3
done
# Issue 26: points-to of the binutils programs (text with their indirect calls, made by
# scripts/make-bench-ir.sh: the GPU machine has no LLVM) against the oracle; CFL on the POCR pairs
# (scripts/prepare-bench-data.sh), the GPU solve beside the CPU set solver.
pts_set=()
for f in readelf objdump ld as; do [ -e ".data/pointsto/$f.pts.gz" ] && pts_set+=(".data/pointsto/$f.pts.gz"); done
[ ${#pts_set[@]} -gt 0 ] && want analyses && step pointsto 420 build/cuda/fluxgraph bench pointsto --check --runs 3 "${pts_set[@]}"
[ -e .data/pocr/aa.cfg ] && want analyses && step cfl 200 bash -c 'd=.data/pocr; build/cuda/fluxgraph bench cfl --runs 5 $d/aa.cfg \
  $d/{art,bzip2,gzip,crafty,astar,namd}.peg.gz && build/cuda/fluxgraph bench cfl --runs 5 $d/vf.cfg $d/{art,bzip2,gzip,astar}.vfg.gz'
# Issue 21: CG on the Q1 FE problem up to 128^3 cubes (CSR, SELL-C-sigma, the selected kernel; float,
# double), the CuPy/cuSPARSE CG per iteration at 128^3 beside it, and the AMG setup's Galerkin
# product (DCSR SpMM vs CSR/COO vs cuSPARSE) on 2D 1024^2 and 3D 128^3 Poisson, with PCG.
want numerics && step cg-fem 300 build/cuda/bench/cg_fem --size 32 --grids 3
want numerics && step cupy-cg 200 bash -c 'for p in float double; do python3 bench/numerics/cg_fem/cupy_cg.py --size 128 --iterations 100 --precision $p; done'
want numerics && step amg 400 bash -c 'build/cuda/bench/amg_setup --problem poisson2d --size 1024 --grids 1 &&
  build/cuda/bench/amg_setup --problem poisson3d --size 128 --grids 1 && build/cuda/bench/amg_setup --problem fem --size 16 --grids 3'
# amg-rounds (not in the default set): the Galerkin products of 3D 128^3, FE 64^3 and 2D 1024^2,
# three rounds each, for the spread of issue 21's ratios between runs.
# profile-coarse (not in the default set either): the ncu time of every kernel of the 2D Galerkin
# product (where a coarse level's ~0.25-0.34 ms goes: kernels or the host's calls between them).
want amg-rounds && step amg-rounds 400 bash -c 'for p in "poisson3d 128" "fem 64" "poisson2d 1024"; do for round in 1 2 3; do
  echo "== $p round $round"; build/cuda/bench/amg_setup --problem ${p% *} --size ${p#* } \
  --grids 1 --runs 11 | grep -E "^(poisson|fem)|level [0-9]"; done; done'
want profile-coarse && command -v ncu >/dev/null && step profile-coarse 300 ncu --launch-skip 0 --launch-count 600 \
  --metrics gpu__time_duration.sum build/cuda/bench/amg_setup --problem poisson2d --size 1024 --grids 1 --runs 1
# trace-amg (not in the default set): a CUPTI timeline (bench/trace/cupti_trace.cpp; nsys is not on
# the machine) of the 2D Galerkin products, read by bench/trace/gaps.py: host time, GPU busy time
# and the API calls of every timed region; the timeline itself goes into the logs' tarball.
want trace-amg && step trace-amg 300 bash -c 'cuda=$(dirname $(dirname $(command -v nvcc))) &&
  g++ -O2 -shared -fPIC bench/trace/cupti_trace.cpp -I$cuda/include -L$cuda/lib64 -lcupti -o /tmp/libfgtrace.so &&
  CUDA_INJECTION64_PATH=/tmp/libfgtrace.so FG_TRACE_OUT=/tmp/trace-amg.csv LD_LIBRARY_PATH=$cuda/lib64:${LD_LIBRARY_PATH:-} \
  build/cuda/bench/amg_setup --problem poisson2d --size 1024 --grids 1 --runs 5 &&
  python3 bench/trace/gaps.py /tmp/trace-amg.csv --min-kernels 3 && gzip -c /tmp/trace-amg.csv > '"$out"'/trace-amg.csv.gz'
# trace-spmv (not in the default set): the same timeline for the small graphs' SpMV (issue 22: is a
# 15-30 us read bound by the GPU or by the host's launches, ours and cuSPARSE's alike?).
want trace-spmv && step trace-spmv 300 bash -c 'cuda=$(dirname $(dirname $(command -v nvcc))) &&
  g++ -O2 -shared -fPIC bench/trace/cupti_trace.cpp -I$cuda/include -L$cuda/lib64 -lcupti -o /tmp/libfgtrace.so &&
  for g in .data/email-Enron.txt.gz .data/git_web_ml_git_edges.txt.gz .data/soc-Slashdot0902.txt.gz .data/cnr-2000.mtx.gz; do
  echo "== $g"; CUDA_INJECTION64_PATH=/tmp/libfgtrace.so FG_TRACE_OUT=/tmp/trace-spmv.csv LD_LIBRARY_PATH=$cuda/lib64:${LD_LIBRARY_PATH:-} \
  build/cuda/fluxgraph bench spmv --types float --kernels csr_merge,csr_vector,sell $g | tail -6 &&
  python3 bench/trace/gaps.py /tmp/trace-spmv.csv --top 5; done'
# trace-insert (not in the default set): issue 54's insert rate at scale: the same 1e7-edge batches
# into rmat-22 and rmat-26 under the CUPTI timeline, totals per kernel and API call for each (what
# grows with the graph: the duplicate probe, compactions, the sort's key bits).
want trace-insert && step trace-insert 500 bash -c 'cuda=$(dirname $(dirname $(command -v nvcc))) &&
  g++ -O2 -shared -fPIC bench/trace/cupti_trace.cpp -I$cuda/include -L$cuda/lib64 -lcupti -o /tmp/libfgtrace.so &&
  for s in 22 26; do echo "== rmat-$s"; CUDA_INJECTION64_PATH=/tmp/libfgtrace.so FG_TRACE_OUT=/tmp/trace-insert.csv \
  LD_LIBRARY_PATH=$cuda/lib64:${LD_LIBRARY_PATH:-} build/cuda/fluxgraph bench insert --batches 1e7 rmat:$s | tail -12 &&
  python3 bench/trace/totals.py /tmp/trace-insert.csv --top 25; done'
# Issue 22: the locality layer. The renumbered views (dbg_*) and the column-sorted partitions
# (colsort) beside csr_merge, csr_vector and cuSPARSE on the power-law graphs, with the matrix
# loads evict-first (default) and cached (FG_SPMV_CACHED_LOADS=1, the A/B), then PageRank end to
# end on rmat-24.
loc_set=()
for f in cnr-2000.mtx.gz soc-Slashdot0902.txt.gz git_web_ml_git_edges.txt.gz email-Enron.txt.gz; do
  [ -e ".data/$f" ] && loc_set+=(".data/$f")
done
loc_set+=(rmat:22 rmat:24)
loc_kernels=csr_merge,csr_vector,adcsr,dbg_merge,dbg_vector,colsort
want locality && step locality 400 build/cuda/fluxgraph bench spmv --types float,double,pattern --kernels $loc_kernels \
  --json "$out/locality.json" "${loc_set[@]}"
want locality && step locality-cached 300 env FG_SPMV_CACHED_LOADS=1 build/cuda/fluxgraph bench spmv --types float,double \
  --kernels $loc_kernels "${loc_set[@]}"
want locality && step locality-pagerank 300 build/cuda/fluxgraph bench pagerank --runs 3 --kernels auto,$loc_kernels rmat:24
# profile (not in the default set): ncu counters of the kernels the open issues are stuck on.
# Issue 22: where csr_merge's time goes on rmat-24 (x gathered from L2 or DRAM, L1 hits), in the
# input order and the DBG order, and colsort's (the column-sorted partitions); issue 21: every kernel
# of level 0 of the 2D Galerkin product.
ncu_metrics=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
ncu_metrics+=,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active
for k in csr_merge dbg_merge colsort; do
  want profile && command -v ncu >/dev/null && step "profile-$k" 300 ncu --kernel-name regex:"${k#dbg_}"'(_kernel)?<' \
    --launch-skip 4 --launch-count 2 --metrics "$ncu_metrics" build/cuda/fluxgraph bench spmv --types float \
    --runs 20 --kernels "$k" rmat:24
done
want profile && command -v ncu >/dev/null && step profile-galerkin 300 ncu --launch-count 70 \
  --metrics gpu__time_duration.sum build/cuda/bench/amg_setup --problem poisson2d --size 1024 --grids 1 --runs 1
# ... and why the hash kernels take what they take, in 3D 128³ where the goal is missed (level 0:
# A·P's group_rows<32>, 1.64 ms, and R·(AP)'s warp tables, 1.66 ms, on 2026-11-29): throughput against
# peak, warp stall reasons, the memory tables. The setup's own products come first (A·T, A·P, R·(AP)).
want profile && command -v ncu >/dev/null && step profile-hash 300 ncu --kernel-name "regex:group_rows|warp_rows" \
  --launch-count 8 --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
  --section LaunchStats --section Occupancy build/cuda/bench/amg_setup --problem poisson3d --size 128 --grids 1 --runs 1
want profile && for k in csr_merge dbg_merge; do  # the counters now; the Galerkin kernels are in the tarball
  echo "-- ncu, $k on rmat-24 (float)"; grep -E "^ +(gpu__|dram__|lts__|l1tex__|sm__)" "$out/profile-$k.log"; done
# Issue 24: the distributed store on the GPU: P = 1 and P = 2 ranks sharing the one GPU over MPI
# (the CUDA build stages device buffers through the host), against one process.
mpi_env=(OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1)
want dist && command -v mpirun >/dev/null && step dist 300 env "${mpi_env[@]}" bash -c 'for np in 1 2; do
  mpirun -np $np build/cuda/tests/fg_test_dist || exit 1; done; python3 tests/cli/dist_checks.py build/cuda/fluxgraph mpirun tests/data'
# Issue 25: strong and weak scaling, one rank per GPU (NCCL), against P = 1 in the same call: the
# same R-MAT graphs (bench dist generates each rank's chunks of one edge stream), ingestion at 1e6-
# and 1e7-edge batches, the SpMV with its all-gather and local parts, PageRank per iteration.
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
# shellcheck disable=SC2086
want scaling && command -v mpirun >/dev/null && step scaling 540 env "${mpi_env[@]}" bash -c 'for np in 1 '"$ngpu"'; do
  mpirun -np $np --bind-to none -x NCCL_NVLS_ENABLE build/cuda/fluxgraph bench dist --batches 1000000,10000000 \
  --partitions '"${FG_SCALING_PARTITIONS:-blocks,cyclic,sorted}"' \
  '"${FG_SCALING_SET:-rmat:24 rmat:25}"' || exit 1; done'

echo
echo "================ summary ================"
cat "$out/gpu.txt"
cat "$out/steps.txt"
show() { [ -e "$out/$1.log" ]; }
show tests && echo "-- tests (doctest counts per executable, CLI checks) --" && grep -E "^ *[0-9]+/[0-9]+ Test|tests passed|\[doctest\] (test cases|assertions)|checks passed" "$out/tests.log" | sed 's/^ *//'
for f in memcheck memcheck-apps racecheck; do
  show $f && echo "-- compute-sanitizer $f --" && grep -E "ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|\[doctest\] (test cases|assertions)|Device not supported|error" "$out/$f.log" | head -6
done
show demo && echo "-- demo --" && grep -E "inserted|defragment:|pagerank:|backend:" "$out/demo.log"
show bench && echo "-- bench insert --" && grep -E "^[a-z0-9].*:|copy bandwidth|insert|delete|speedup|SpMV|/ CSR|eta|defragment" "$out/bench.log" | grep -v "^device"
show spmv && echo "-- bench spmv (best kernel per matrix; full table in spmv.log / spmv.json) --" && cat "$out/spmv-summary.txt"
if show select; then
  echo "-- kernel selection (auto within 10% of the fastest; pagerank auto vs best forced) --"
  for f in select select-synthetic select-both; do echo "$f:"; grep -E "^reads .*within" "$out/$f.log"; done
  grep -E "auto \(|within 10%" "$out/pagerank-kernels.log"
fi
show apps && echo "-- graph applications (bench apps) --" && grep -vE "^device" "$out/apps.log"
show python-api && echo "-- Python API vs C++ API --" && cat "$out/python-api.log"
show live && echo "-- stream - end to end --" && grep -E "stream -|_us:" "$out/live.log"
show incremental-live && echo "-- stream - --pagerank (rmat-22) --" && cat "$out/incremental-live.log"
show incremental-compare && echo "-- stream --pagerank --compare --" && cat "$out/incremental-compare.log"
show incremental && echo "-- bench incremental --" && grep -vE "^device" "$out/incremental.log"
show wal && echo "-- stream - with --wal (durability's cost) --" && grep -E "^batch" "$out/wal.log"
echo "-- transitive closure (pairs and iterations vs the published table) --"
[ -e "$out/closure.log" ] && sed -n '/^graph /,$p' "$out/closure.log"
echo "-- incremental closure (held-back share extended vs from scratch) --"
[ -e "$out/closure-inc.log" ] && sed -n '/^incremental: graph/,$p' "$out/closure-inc.log"
for f in "$out"/pagerank-*.log; do [ -e "$f" ] && grep -E "pagerank:|backend" "$f"; done
show pointsto && echo "-- points-to (bench pointsto: solve = GPU, cpu = wave solver) --" && grep -vE "^device" "$out/pointsto.log"
show cfl && echo "-- CFL (bench cfl: solve = GPU, cpu = set solver) --" && grep -vE "^device" "$out/cfl.log"
show cg-fem && echo "-- CG on the Q1 FE problem (cg_fem; CuPy CG per iteration below) --" && grep -vE "^\{" "$out/cg-fem.log"
show cupy-cg && cat "$out/cupy-cg.log"
for f in locality locality-cached; do
  show $f && echo "-- $f: bench spmv (issue 22; speedup vs cuSPARSE after x) --" && grep -E "^[a-z].*\(|^  (float|double|pattern) " "$out/$f.log"
done
show locality-pagerank && echo "-- PageRank on rmat-24 (issue 22: <= 2.0 ms per iteration) --" && grep -vE "^device" "$out/locality-pagerank.log"
show dist && echo "-- distributed store on the GPU (issue 24) --" && grep -E "^ranks:|checks passed|FAIL" "$out/dist.log"
show scaling && echo "-- scaling: bench dist, P = 1 and one rank per GPU (issue 25) --" && grep -vE "^device|^\[" "$out/scaling.log"
show amg && echo "-- AMG setup: Galerkin product by DCSR SpMM / CSR-COO / cuSPARSE, PCG iterations --" && grep -vE "^\{|^device" "$out/amg.log"
show trace-spmv && echo "-- small graphs' SpMV: host vs GPU time per timed region --" && grep -E "^==|^group" "$out/trace-spmv.log"
show trace-amg && echo "-- 2D Galerkin products: host vs GPU time per timed region --" && grep -E "^group" "$out/trace-amg.log"
show amg-rounds && echo "-- AMG Galerkin products, three rounds (issue 21) --" && grep -E "^==|^(poisson|fem)" "$out/amg-rounds.log"
echo "gpu-check: $([ $status -eq 0 ] && echo GREEN || echo RED)"
tar czf "$final/gpu-check-logs.tar.gz" -C "$out" .
for f in spmv.json insert.json spmv-float.png spmv-summary.txt bench.points synthetic.points closure.json; do [ -e "$out/$f" ] && cp "$out/$f" "$final/"; done
exit $status
