#!/usr/bin/env bash
# Runs the whole CTest matrix (every backend's conformance suite, loader, CLI
# and unit tests) on a machine with a GPU, and prints the summary.
# usage: tests/gpu/run-matrix.sh [BUILD_DIR]
#   BUILD_DIR: a carried build (tests/gpu/prepare-carry.sh makes .devbuild), or
#   a folder to configure and build into when it holds no build yet.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/.devbuild}
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCAE_WITH_CUDA=ON && cmake --build "$build" || exit 1
fi
# A carried build records the absolute source path of the machine it was
# built on; make that path lead here.
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if [ -n "$source_dir" ] && [ ! -e "$source_dir" ]; then
  mkdir -p "$(dirname "$source_dir")" && ln -s "$root" "$source_dir"
fi
[ -d "$build/runtime-libs" ] && export LD_LIBRARY_PATH="$build/runtime-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "nvidia-smi: no GPU visible"
"$build/bin/cae" backends
# The packaging test needs a complete build tree (CPack, CMake exports), which a
# carried build leaves out; CI runs it.
ctest --test-dir "$build" --output-on-failure --timeout 900 -LE packaging 2>&1 | tee "${OUT:-/tmp}/matrix.log"
status=${PIPESTATUS[0]}
echo "---- matrix summary ----"
grep -E '^ *[0-9]+/[0-9]+ Test +#' "${OUT:-/tmp}/matrix.log" | sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: //'
grep -E 'tests passed|tests failed' "${OUT:-/tmp}/matrix.log"
exit "$status"
