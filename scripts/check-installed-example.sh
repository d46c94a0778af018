#!/usr/bin/env bash
# The installed package as a user sees it: `cmake --install BUILD` into a temporary prefix, then
# examples/installed configured, built and run against that prefix alone (find_package(fluxgraph));
# the installed `fluxgraph` command runs.
# Also checks that docs/api.md's streaming example is that program, so the page's code compiles.
# Usage: scripts/check-installed-example.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The fenced block after the marker line in docs/api.md must equal examples/installed/main.cpp.
awk '/<!-- example: examples\/installed\/main.cpp -->/ {on = 1; next}
     on && /^```cpp/ {inside = 1; next}
     inside && /^```/ {exit}
     inside {print}' "$src/docs/api.md" >"$tmp/api_example.cpp"
if ! diff -u "$src/examples/installed/main.cpp" "$tmp/api_example.cpp" >&2; then
  echo "check-installed-example: docs/api.md's example differs from examples/installed/main.cpp" >&2
  exit 1
fi

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/fluxgraph/fluxgraph.hpp"
# the command is installed too, and runs from the prefix alone
"$tmp/prefix/bin/fluxgraph" --version | grep -q '^fluxgraph ' || { echo "check-installed-example: bin/fluxgraph missing or broken" >&2; exit 1; }
if find "$tmp/prefix" -name '*bench*' -o -name '*cusparse*' | grep -q .; then
  echo "check-installed-example: benchmark code was installed" >&2
  exit 1
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$src/examples/installed" -B "$tmp/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" >/dev/null
"$tmp/build/stream_pagerank"
