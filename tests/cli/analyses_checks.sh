# Sourced by run_cli_tests.sh (its helpers and variables): closure, reach, stream --closure,
# pointsto, cfl and cfa. Split off to keep each file readable.

# ---- closure and reach --------------------------------------------------------------------------
# value_of NAME: the number after "NAME: " on a line of the last stdout (in VALUE), empty if none.
VALUE=
value_of() {
  VALUE=$(printf '%s\n' "$OUT_TEXT" | awk -v k="$1: " 'index($0, k) == 1 { print substr($0, length(k) + 1); exit }')
  VALUE=${VALUE%% *}
}
ol="$DATA/closure/OL.cedge.data_7035.txt.gz"
run closure "$ol"
status_text
value_of pairs
p=$VALUE
value_of iterations
if [ "$RC" -ne 0 ]; then fail "closure OL.cedge" "$STATUS: ${ERR_TEXT:0:300}"
elif [ "$p" != 146120 ] || [ "$VALUE" != 64 ]; then fail "closure OL.cedge" "pairs '$p', iterations '$VALUE' (published: 146120, 64)"
else pass "closure OL.cedge: 146120 pairs, 64 iterations as published"
fi
out="$TMP/closure-ol.out"
run closure "$ol" --out "$out"
status_text
tmps=("$out".tmp*)
if [ "$RC" -ne 0 ]; then fail "closure OL.cedge --out" "$STATUS: ${ERR_TEXT:0:300}"
elif [ -e "${tmps[0]}" ]; then fail "closure OL.cedge --out" "temporary file left behind: ${tmps[*]}"
elif ! lines=$(awk 'NF != 2 || $1 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/ { bad = 1 } END { if (bad) exit 1; print NR }' "$out"); then
  fail "closure OL.cedge --out" "a line is not 'src dst'"
elif [ "$lines" != 146120 ] || [ "$(sort -u "$out" | wc -l)" != 146120 ]; then fail "closure OL.cedge --out" "$lines lines (want 146120 distinct)"
else pass "closure OL.cedge --out: 146120 distinct 'src dst' lines"
fi
# A hand-made graph: a 3-cycle with a tail, a self-loop, an isolated edge and a repeated edge.
tiny="$TMP/tiny-closure.txt"
printf '# cycle 10 -> 20 -> 30 -> 10, tail 30 -> 40, self-loop 70, edge 50 -> 60 twice\n10 20\n20 30\n30 10\n30 40\n70 70\n50 60\n50 60\n' >"$tiny"
want_pairs=$'10 10\n10 20\n10 30\n10 40\n20 10\n20 20\n20 30\n20 40\n30 10\n30 20\n30 30\n30 40\n50 60\n70 70'
run closure "$tiny" --out "$TMP/tiny.out"
status_text
if [ "$RC" -ne 0 ]; then fail "closure hand-made graph" "$STATUS: ${ERR_TEXT:0:300}"
elif [ "$(<"$TMP/tiny.out")" != "$want_pairs" ]; then fail "closure hand-made graph" "pairs: $(tr '\n' ',' <"$TMP/tiny.out")"
else pass "closure hand-made graph: the 14 pairs, self-pairs only on the cycle and the loop"
fi
run closure "$tiny" --count-only
value_of pairs
if [ "$RC" -ne 0 ] || [ "$VALUE" != 14 ]; then fail "closure --count-only" "status $RC, pairs '$VALUE'"
else pass "closure --count-only: pairs: 14"
fi
run reach "$tiny" --sources 10,70,60
value_of pairs
if [ "$RC" -ne 0 ]; then status_text; fail "reach --sources 10,70,60" "$STATUS: ${ERR_TEXT:0:300}"
elif [ "$VALUE" != 5 ] || [[ $OUT_TEXT != *$'source 10: 4 reachable\nsource 70: 1 reachable\nsource 60: 0 reachable'* ]]; then
  fail "reach --sources 10,70,60" "pairs '$VALUE', output: ${OUT_TEXT:0:400}"
else pass "reach --sources 10,70,60: 4, 1 and 0 reachable"
fi
run reach "$tiny" --sources 20 --out "$TMP/reach.out"
if [ "$RC" -ne 0 ] || [ "$(<"$TMP/reach.out")" != $'20 10\n20 20\n20 30\n20 40' ]; then fail "reach --out" "status $RC: $(tr '\n' ',' <"$TMP/reach.out" 2>/dev/null)"
else pass "reach --out: the source's pairs in file ids"
fi
run reach "$tiny" --sources 10,99
PROBLEM=
error_exit_problem
if [ -z "$PROBLEM" ] && [[ $ERR_TEXT != *"99"* ]]; then PROBLEM="message does not name 99: $ERR_TEXT"; fi
if [ -z "$PROBLEM" ]; then pass "reach with an unknown source: status 1, one line: $ERR_TEXT"
else fail "reach with an unknown source" "$PROBLEM"
fi
usage_error "closure --count-only with --out" closure "$tiny" --count-only --out "$TMP/usage.out"
usage_error "reach without --sources" reach "$tiny" --out "$TMP/usage.out"
usage_error "reach --sources 1,,2" reach "$tiny" --sources 10,,20 --out "$TMP/usage.out"
usage_error "reach --sources abc" reach "$tiny" --sources abc --out "$TMP/usage.out"
usage_error "closure --backend gpu" closure "$tiny" --backend gpu --out "$TMP/usage.out"
usage_error "closure --sources" closure "$tiny" --sources 10 --out "$TMP/usage.out"
run closure "$tiny" --out "$TMP/no-such-dir/pairs.txt"
PROBLEM=
error_exit_problem
if [ -z "$PROBLEM" ] && [ -e "$TMP/no-such-dir" ]; then PROBLEM="$TMP/no-such-dir was created"; fi
if [ -z "$PROBLEM" ]; then pass "closure --out into a missing directory: status 1: $ERR_TEXT"
else fail "closure --out into a missing directory" "$PROBLEM"
fi


# ---- stream --closure ---------------------------------------------------------------------------
# The closure kept up to date batch by batch ends at the published count and, with --compare, equals
# a from-scratch closure after every batch (the run fails otherwise); deletions recompute it.
# closure_line: the "closure: N pairs; ..." line's N (in VALUE).
closure_line() { VALUE=$(printf '%s\n' "$OUT_TEXT" | awk '/^closure: / { print $2; exit }'); }
run stream "$ol" --batch 700 --closure --compare
status_text
closure_line
if [ "$RC" -ne 0 ]; then fail "stream OL.cedge --closure --compare" "$STATUS: ${ERR_TEXT:0:300}"
elif [ "$VALUE" != 146120 ]; then fail "stream OL.cedge --closure --compare" "closure '$VALUE' pairs (published: 146120)"
elif ! printf '%s\n' "$OUT_TEXT" | grep -q '^from scratch after every batch: .*equal after every batch$'; then
  fail "stream OL.cedge --closure --compare" "no 'equal after every batch' line"
elif [ "$(printf '%s\n' "$OUT_TEXT" | awk '$1 ~ /^[0-9]+$/ && NF == 9' | wc -l)" != 11 ]; then
  fail "stream OL.cedge --closure --compare" "not 11 batch rows of 9 columns"
else pass "stream OL.cedge --batch 700 --closure --compare: 146120 pairs, equal to from scratch after all 11 batches"
fi
run stream "$tiny" --batch 2 --closure
closure_line
if [ "$RC" -ne 0 ] || [ "$VALUE" != 14 ]; then status_text; fail "stream hand-made graph --closure" "status $RC, closure '$VALUE' pairs"
else pass "stream hand-made graph --batch 2 --closure: 14 pairs"
fi
run stream "$tiny" --batch 3 --closure --compare --pagerank --delete-fraction 1
closure_line
if [ "$RC" -ne 0 ] || [ "$VALUE" != 0 ]; then status_text; fail "stream --closure --delete-fraction 1" "status $RC, closure '$VALUE' pairs"
elif ! printf '%s\n' "$OUT_TEXT" | grep -q ', 3 recomputed after deletions'; then fail "stream --closure --delete-fraction 1" "not recomputed 3 times"
else pass "stream --closure --pagerank --delete-fraction 1: recomputed after each of 3 batches, 0 pairs"
fi
usage_error "stream --compare alone" stream "$tiny" --batch 2 --compare
# --closure without --pagerank: the final PageRank is still of the graph as given (it once read the
# closure's out-edge store as in-edges: the reversed graph's scores).
out="$TMP/stream-closure-pr.out"
run stream "$DATA/pagerank/graphs/west0067.mtx" --batch 50 --closure --tol 1e-12 --out "$out"
scores_check "stream west0067.mtx --batch 50 --closure" "$out" "$DATA/pagerank/expected/west0067.pr" networkx
# ---- pointsto, cfl, cfa -------------------------------------------------------------------------
out="$TMP/pointsto.out"
run pointsto "$DATA/pointsto/load_store.txt" --out "$out" --check
value_of "points-to facts"
want=$'x: a b c\ny: b\npp: x\nz: a b c\nw: c'
if [ "$RC" -ne 0 ]; then status_text; fail "pointsto load_store.txt" "$STATUS: ${ERR_TEXT:0:300}"
elif [ "$VALUE" != 9 ] || [ "$(<"$out")" != "$want" ] || [[ $OUT_TEXT != *"check: equal"* ]]; then
  fail "pointsto load_store.txt" "facts '$VALUE', sets: $(tr '\n' ',' <"$out")"
else pass "pointsto load_store.txt: the 9 known facts, --out sets, --check"
fi
run pointsto "$DATA/pointsto/numeric.cons" --out "$out" --sizes
if [ "$RC" -ne 0 ] || [ "$(<"$out")" != $'0: 3\n1: 1\n2: 1\n3: 3\n4: 1' ]; then fail "pointsto numeric --sizes" "status $RC: $(tr '\n' ',' <"$out")"
else pass "pointsto numeric.cons --sizes: the Galois format reads as the text one"
fi
# LLVM IR (builds with LLVM): the indirect call of calls.c resolved; --constraints-out re-read as text
# gives the same sets; without LLVM, a clear refusal
run pointsto "$DATA/pointsto/ir/calls.ll" --out "$out" --check --constraints-out "$TMP/calls.pts"
if [ "$RC" -ne 0 ] && [[ $ERR_TEXT == *"no LLVM"* ]]; then pass "pointsto calls.ll: refused without LLVM (${ERR_TEXT:0:80})"
elif [ "$RC" -ne 0 ] || ! grep -qx '@r2(obj): @a(obj) @c(obj) @d(obj)' "$out" || [[ $OUT_TEXT != *"check: equal"* ]]; then
  fail "pointsto calls.ll" "status $RC: ${ERR_TEXT:0:300} $(grep '^@r2' "$out" 2>/dev/null)"
else
  cp "$out" "$TMP/ir.sets"
  run pointsto "$TMP/calls.pts" --out "$out"
  if [ "$RC" -ne 0 ] || ! diff -q <(sort "$TMP/ir.sets") <(sort "$out") >/dev/null; then
    fail "pointsto --constraints-out" "status $RC: ${ERR_TEXT:0:300}"
  else pass "pointsto calls.ll: indirect calls resolved, --check, --constraints-out re-read gives the same sets"
  fi
  run pointsto "$DATA/pointsto/ir/calls.ll" --keep-calls --constraints-out "$TMP/calls-kept.pts"
  run pointsto "$TMP/calls-kept.pts" --out "$out" --check
  if [ "$RC" -ne 0 ] || ! grep -q '^r = call \|= call ' "$TMP/calls-kept.pts" || ! diff -q <(sort "$TMP/ir.sets") <(sort "$out") >/dev/null; then
    fail "pointsto --keep-calls" "status $RC: ${ERR_TEXT:0:300}"
  else pass "pointsto calls.ll --keep-calls: 'func' / 'call' lines re-read give the same sets"
  fi
fi
# the text format's own call lines (every build): tests/data/pointsto/calls.txt, hand-checked
run pointsto "$DATA/pointsto/calls.txt" --out "$out" --check
if [ "$RC" -ne 0 ] || ! grep -qx 's: o1' "$out" || ! grep -qx 'fp: id pick' "$out" || [[ $OUT_TEXT != *"check: equal"* ]]; then
  fail "pointsto calls.txt" "status $RC: ${ERR_TEXT:0:300} $(tr '\n' ',' <"$out" 2>/dev/null)"
else pass "pointsto calls.txt: func / call lines resolved (s: o1, fp: id pick), equal to the worklist solver"
fi
run cfl "$DATA/cfl/dyck.graph" "$DATA/cfl/dyck.cfg" --check
value_of "count S"
if [ "$RC" -ne 0 ] || [ "$VALUE" != 11 ] || [[ $OUT_TEXT != *"check: equal"* ]]; then fail "cfl dyck" "status $RC, count '$VALUE': ${ERR_TEXT:0:300}"
else pass "cfl dyck: count S: 11, equal to the worklist solver"
fi
run cfl "$DATA/cfl/art.peg" "$DATA/cfl/aa.cfg" --check
value_of "count V"
if [ "$RC" -ne 0 ] || [ "$VALUE" != 460 ] || [[ $OUT_TEXT != *"check: equal"* ]]; then fail "cfl art.peg aa.cfg" "status $RC, count '$VALUE': ${ERR_TEXT:0:300}"
else pass "cfl art.peg aa.cfg: count V: 460, equal to the worklist solver"
fi
run cfa "$DATA/cfa/id.scm" --check --out "$out"
value_of "flow facts"
if [ "$RC" -ne 0 ] || [ "$VALUE" != 16 ] || [[ $OUT_TEXT != *"check: equal"* ]] || ! grep -q '^k@9: 2: (r1)@6:8 (r2)@8:14$' "$out"; then
  fail "cfa id.scm" "status $RC, facts '$VALUE': $(tr '\n' ',' <"$out" 2>/dev/null)"
else pass "cfa id.scm: 16 flow facts, k's set, equal to the abstract interpreter"
fi
analysis_malformed=0
for f in "$DATA"/pointsto/malformed/* "$DATA"/cfl/malformed/* "$DATA"/cfa/malformed/*; do
  [ -f "$f" ] || continue
  analysis_malformed=$((analysis_malformed + 1))
  out="$TMP/analysis_malformed.out"
  case $f in
    */pointsto/*) run pointsto "$f" --out "$out" ;;
    */cfl/*.cfg) run cfl "$DATA/cfl/dyck.graph" "$f" ;;
    */cfl/*) run cfl "$f" "$DATA/cfl/dyck.cfg" ;;
    *) run cfa "$f" --out "$out" ;;
  esac
  PROBLEM=
  error_exit_problem
  file_message_problem "$f"
  leftover_problem "$out"
  if [ -z "$PROBLEM" ]; then pass "malformed ${f#$DATA/}: one 'PATH:LINE:' line, status 1"
  else fail "malformed ${f#$DATA/}" "$PROBLEM"
  fi
done
if [ "$analysis_malformed" -ge 25 ]; then pass "malformed analysis inputs: $analysis_malformed files"
else fail "malformed analysis inputs" "only $analysis_malformed files"
fi
usage_error "cfl with one file" cfl "$DATA/cfl/dyck.graph"
usage_error "cfa --sizes" cfa "$DATA/cfa/id.scm" --sizes
usage_error "pointsto --backend gpu" pointsto "$DATA/pointsto/basic.txt" --backend gpu --out "$TMP/usage.out"

