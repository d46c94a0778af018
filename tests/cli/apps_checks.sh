# Sourced by run_cli_tests.sh (its helpers and variables): bfs, sssp, wcc, cdlp, lcc, tc against the
# LDBC Graphalytics example graphs' expected outputs, LAGraph's triangle count, and their errors.

# same_values OUT EXPECTED TOL: every expected 'id value' line with a finite value (Graphalytics
# marks unreached 9223372036854775807 or Infinity) is in OUT within TOL (relative), and OUT has
# nothing else. Sets PROBLEM.
same_values() {
  [ -n "$PROBLEM" ] && return
  PROBLEM=$(awk -v tol="$3" '
    NR == FNR { if ($2 != "9223372036854775807" && tolower($2) != "infinity") want[$1] = $2; next }
    { if (!($1 in want)) { print "unexpected line: " $0; exit } got[$1] = $2 }
    END {
      for (v in want) {
        if (!(v in got)) { print "vertex " v " missing"; exit }
        d = got[v] - want[v]; if (d < 0) d = -d
        a = want[v] < 0 ? -want[v] : want[v]
        if (d > tol * a + 1e-15) { print "vertex " v ": " got[v] ", expected " want[v]; exit }
      }
    }' "$2" "$1")
}

ga="$DATA/graphalytics/validation-graphs/example"
for kind in directed undirected; do
  und=()
  [ "$kind" = undirected ] && und=(--undirected)
  src=$(awk -F' *= *' '/bfs.source-vertex/ { print $2 }' "$DATA/graphalytics/properties/example-$kind.properties")
  iters=$(awk -F' *= *' '/cdlp.max-iterations/ { print $2 }' "$DATA/graphalytics/properties/example-$kind.properties")
  for app in bfs:BFS:0 sssp:SSSP:1e-12 wcc:WCC:0 cdlp:CDLP:0 lcc:LCC:1e-12; do
    IFS=: read -r cmd upper tol <<<"$app"
    args=("$ga/example-$kind.e" "${und[@]}" --out "$TMP/$cmd.out")
    [ "$cmd" = bfs ] || [ "$cmd" = sssp ] && args+=(--source "$src")
    [ "$cmd" = cdlp ] && args+=(--iterations "$iters")
    run "$cmd" "${args[@]}"
    status_text
    PROBLEM=
    [ "$RC" -ne 0 ] && PROBLEM="$STATUS: ${ERR_TEXT:0:300}"
    same_values "$TMP/$cmd.out" "$ga/example-$kind-$upper" "$tol"
    if [ -z "$PROBLEM" ]; then pass "$cmd example-$kind: equals Graphalytics' expected output"
    else fail "$cmd example-$kind" "$PROBLEM"
    fi
  done
done

run tc "$DATA/apps/karate.mtx"
value_of triangles
if [ "$RC" -eq 0 ] && [ "$VALUE" = 45 ]; then pass "tc karate: 45 triangles (LAGraph)"
else status_text; fail "tc karate" "$STATUS, triangles '$VALUE' (want 45): ${ERR_TEXT:0:200}"
fi
run tc "$DATA/apps/karate.mtx" --out "$TMP/tc.out"
if [ "$RC" -eq 0 ] && [ "$(awk '{ s += $2 } END { print s }' "$TMP/tc.out")" = 135 ]; then
  pass "tc karate --out: per-vertex counts sum to 3 x 45"
else fail "tc karate --out" "per-vertex sum $(awk '{ s += $2 } END { print s }' "$TMP/tc.out" 2>&1)"
fi

# Errors: one line, status 1; a negative weight names the file and the edge.
PROBLEM=
run bfs "$DATA/apps/karate.mtx" --source 99
error_exit_problem
[ -z "$PROBLEM" ] && [[ $ERR_TEXT != *"--source 99 is not a vertex"* ]] && PROBLEM="message: $ERR_TEXT"
if [ -z "$PROBLEM" ]; then pass "bfs --source not a vertex: one-line error"; else fail "bfs bad source" "$PROBLEM"; fi
PROBLEM=
run sssp "$DATA/apps/karate.mtx"
error_exit_problem
if [ -z "$PROBLEM" ]; then pass "sssp without --source: one-line error"; else fail "sssp without --source" "$PROBLEM"; fi
printf '1 2 0.5\n2 3 -1\n' >"$TMP/neg.txt"
PROBLEM=
run sssp "$TMP/neg.txt" --source 1
error_exit_problem
[ -z "$PROBLEM" ] && [[ $ERR_TEXT != *"neg.txt"*"edge 2 (2 -> 3) has weight -1"* ]] && PROBLEM="message: $ERR_TEXT"
if [ -z "$PROBLEM" ]; then pass "sssp negative weight: names the file and the edge"; else fail "sssp negative weight" "$PROBLEM"; fi

# stream --bfs/--sssp/--wcc/--triangles --compare: the kept results equal from-scratch runs after
# every batch (an error otherwise); inserts only: only the first batch runs from scratch.
for g in "$DATA/pagerank/graphs/email-Eu-core.txt" "$DATA/closure/TG.cedge.data_23874.txt.gz"; do
  for del in 0 0.2; do
    run stream "$g" --batch 3000 --bfs 0 --sssp 1 --wcc --triangles --compare --delete-fraction "$del"
    status_text
    recomputed=$(printf '%s\n' "$OUT_TEXT" | awk '/^applications kept current/ { gsub(/\(/, ""); print $(NF-3) }')
    if [ "$RC" -ne 0 ]; then fail "stream apps --compare $(basename "$g") --delete-fraction $del" "$STATUS: ${ERR_TEXT:0:300}"
    elif [[ $OUT_TEXT != *"equal after every batch"* ]]; then fail "stream apps --compare $(basename "$g")" "no 'equal after every batch'"
    elif [ "$del" = 0 ] && [ "$recomputed" != 1 ]; then fail "stream apps $(basename "$g") inserts only" "$recomputed batches from scratch (want 1: the first)"
    else pass "stream --bfs --sssp --wcc --triangles --compare $(basename "$g") --delete-fraction $del: equal after every batch"
    fi
  done
done

# stream -: the JSON lines carry the applications; hand-checked: after '- 1 2' the triangle 1-3-4 is left
printf '1 2\n2 3\n3 1\n3 4\n- 1 2\n4 1\n' >"$TMP/apps-live.txt"
timeout "$CMD_TIMEOUT" "$BIN" stream - --batch 2 --bfs 1 --wcc --triangles <"$TMP/apps-live.txt" >"$TMP/apps-live.out" 2>"$TMP/apps-live.err"
want='"bfs_reached":3,"components":1,"triangles":0|"bfs_reached":4,"components":1,"triangles":1|"bfs_reached":1,"components":1,"triangles":1'
got=$(grep -o '"bfs_reached":[0-9]*,"components":[0-9]*,"triangles":[0-9]*' "$TMP/apps-live.out" | paste -sd'|')
if [ "$got" = "$want" ]; then pass "stream - --bfs --wcc --triangles: JSON lines as hand-checked"
else fail "stream - apps JSON" "got '$got', want '$want'; stderr: $(head -c 300 "$TMP/apps-live.err")"
fi
