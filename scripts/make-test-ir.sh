#!/usr/bin/env bash
# Regenerates the LLVM IR of the hand-written points-to snippets (tests/data/pointsto/ir/*.c) with
# clang-14: -O0 with value names kept, except ssa.c at -O1 (phis, selects). The .ll files are
# checked in, so the tests need LLVM's library but not clang.
set -euo pipefail
cd "$(dirname "$0")/../tests/data/pointsto/ir"
for c in *.c; do
  opt=-O0
  [ "$c" = ssa.c ] && opt=-O1
  clang-14 -S -emit-llvm "$opt" -fno-discard-value-names "$c" -o "${c%.c}.ll"
done
