#!/usr/bin/env bash
# The layer rule of docs/architecture.md ("Layers"): a folder includes only itself and the folders
# below it. Prints every include that runs up the stack and exits 1 if there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
# bottom first; include/ (the public headers, "fluxgraph/...") is the ground every layer may use
layers=(core storage loaders read algorithms stream distributed api bench tools python)
rank() { local i; for i in "${!layers[@]}"; do [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }; done; echo -1; }
bad=0
for dir in "${layers[@]}"; do
  from=$(rank "$dir")
  while IFS=: read -r file line inc; do
    target=${inc%%/*}
    to=$(rank "$target")
    if [ "$to" -gt "$from" ]; then
      echo "$file:$line: $dir/ includes $inc, which is above it"
      bad=1
    fi
  done < <(find "$dir" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.inc' \) |
           xargs -r grep -n -o -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' |
           sed -E 's/^([^:]+):([0-9]+):.*"([^"]+)"/\1:\2:\3/')
done
# the public headers include nothing of the engine
if find include -type f | xargs grep -n -E '#[[:space:]]*include[[:space:]]+"(core|storage|loaders|read|algorithms|stream|distributed|api)/'; then
  echo "include/fluxgraph: a public header includes the engine"; bad=1
fi
# the engine includes the public type headers only, never a facade (the live reader implements its own)
engine=(core storage loaders read algorithms stream distributed)
if find "${engine[@]}" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' \) |
   xargs grep -n -E '#[[:space:]]*include[[:space:]]+"fluxgraph/' |
   grep -v -E '"fluxgraph/(types|options|reports|error|apps)\.hpp"' | grep -v -E '^stream/live_reader\.hpp:[0-9]+:.*"fluxgraph/live\.hpp"'; then
  echo "the engine includes a facade header above: only fluxgraph/types, options, reports, error and apps"; bad=1
fi
[ "$bad" = 0 ] && echo "layers: every include runs down ($(IFS=' '; echo "${layers[*]}"))"
exit "$bad"
