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
