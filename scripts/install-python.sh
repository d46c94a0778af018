#!/usr/bin/env bash
# `make python`: copies the built package (BUILD/python/fluxgraph: the Python files and the
# _fluxgraph extension) into the site-packages of the interpreter the build used (FG_PYTHON in
# BUILD/CMakeCache.txt): the system-wide one when writable, else the user's. No network needed.
# Usage: scripts/install-python.sh BUILD_DIR
set -euo pipefail
build=$1
py=$(sed -n 's/^FG_PYTHON:FILEPATH=//p' "$build/CMakeCache.txt")
[ -n "$py" ] || { echo "install-python: $build was configured without a python3 with numpy and pybind11" >&2; exit 1; }
[ -d "$build/python/fluxgraph" ] || { echo "install-python: no module in $build/python (build first)" >&2; exit 1; }
dest=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
if ! { mkdir -p "$dest" 2>/dev/null && [ -w "$dest" ]; }; then
  dest=$("$py" -c 'import site; print(site.getusersitepackages())')
  mkdir -p "$dest"
fi
rm -rf "$dest/fluxgraph"
cp -r "$build/python/fluxgraph" "$dest/fluxgraph"
cd /
"$py" -c 'import fluxgraph; print(f"fluxgraph {fluxgraph.__version__} ({fluxgraph.build}) installed for '"$py"' in '"$dest"'")'
