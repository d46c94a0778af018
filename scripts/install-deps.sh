#!/usr/bin/env bash
# Installs what the build needs and is missing (Debian/Ubuntu). Quiet when everything is there.
set -euo pipefail

missing=()
have_header() { [ -e "/usr/include/$1" ] || [ -e "/usr/local/include/$1" ]; }
command -v cmake >/dev/null || missing+=(cmake)
command -v ninja >/dev/null || missing+=(ninja-build)
command -v g++ >/dev/null || missing+=(g++)
command -v python3 >/dev/null || missing+=(python3)  # the live-input CLI checks (tests/cli/stream_live_checks.py)
have_header boost/graph/adjacency_list.hpp || missing+=(libboost-graph-dev)
have_header fmt/core.h || missing+=(libfmt-dev)
have_header doctest/doctest.h || missing+=(doctest-dev)
have_header zlib.h || missing+=(zlib1g-dev)
# Thrust/CUB: a CUDA toolkit's CCCL, else Debian's packages.
if ! { [ -e /usr/local/cuda/include/cccl/thrust/version.h ] || [ -e /usr/local/cuda/include/thrust/version.h ] ||
       have_header thrust/version.h; }; then
  missing+=(libthrust-dev libcub-dev)
fi
# The Python module and its tests, for Debian's python3 (FG_PYTHON: cmake/python.cmake).
have_header pybind11/pybind11.h || missing+=(pybind11-dev)
[ -e /usr/include/python3.11/Python.h ] || ls /usr/include/python3*/Python.h >/dev/null 2>&1 || missing+=(python3-dev)
py_has() { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import $1" 2>/dev/null; }
py_has pybind11 || missing+=(python3-pybind11)
py_has numpy || missing+=(python3-numpy)
py_has scipy || missing+=(python3-scipy)
py_has networkx || missing+=(python3-networkx)
py_has pytest || missing+=(python3-pytest)
py_has matplotlib || missing+=(python3-matplotlib)  # examples/python/plot_scores.py
have_header CLI11.hpp || have_header CLI/CLI.hpp || missing+=(libcli11-dev)
# Distributed runs (issue 24, FG_MPI=auto): Open MPI's headers and mpirun.
command -v mpicxx >/dev/null || missing+=(libopenmpi-dev)
command -v mpirun >/dev/null || missing+=(openmpi-bin)
# LLVM IR as points-to input (FG_LLVM=auto, algorithms/llvm_ir.cpp): LLVM's development package; clang-14
# regenerates the test programs' IR (scripts/make-test-ir.sh).
ls /usr/lib/llvm-*/lib/cmake/llvm/LLVMConfig.cmake >/dev/null 2>&1 || missing+=(llvm-dev)
command -v clang-14 >/dev/null || command -v clang >/dev/null || missing+=(clang)
# The fuzz targets (make fuzz, fuzz/): clang with its libFuzzer runtime.
command -v clang++ >/dev/null || missing+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || missing+=(libclang-rt-dev)
cmake_ok=$(cmake --version 2>/dev/null | awk 'NR==1 { split($3, v, "."); print (v[1] > 3 || (v[1] == 3 && v[2] >= 24)) }')
[ "${cmake_ok:-0}" = 1 ] || missing+=(cmake)

[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
