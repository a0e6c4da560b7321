#!/usr/bin/env bash
# Builds the host, the cpu backend and the test suites with AddressSanitizer +
# UndefinedBehaviorSanitizer (CMake option CAE_SANITIZE; CUDA off, since the
# CUDA backends are checked by compute-sanitizer on a GPU machine:
# tests/gpu/run-sanitizers.sh) and runs the cpu conformance, loader, unit and
# CLI tests under it. Any finding aborts the test that made it.
# usage: tests/run-sanitized.sh [BUILD_DIR]   (default build-asan)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-asan}
# The tests this script runs (CTest names). The build makes only what their
# command lines name (tests/sanitize/needed_targets.py): not the mutants, the
# fuzz targets or the packaging tests, which run in the plain build only.
tests='^(conformance\.cpu|loader|cli|unit\.|reference\.|abi\.)'
# -O1 -g1: what AddressSanitizer's own documentation suggests (fast enough to
# run, frames not merged away) with line tables only, enough for every
# report's file:line; full -O2 -g debug builds took twice as long to compile
# and link for the same findings. A unity build throughout (batches of eight
# files compiled as one; the host and tests are unity builds in every build)
# compiles the instrumented tree in about half the time: 287 s against
# 546 s on CI's 2 cores; the sanitizers check the same code.
cmake -S "$root" -B "$build" -G Ninja -DCAE_SANITIZE=ON -DCAE_WITH_CUDA=OFF -DCMAKE_UNITY_BUILD=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" >/dev/null
mapfile -t wanted < <(python3 "$root/tests/sanitize/needed_targets.py" "$build" "$tests")
[ "${#wanted[@]}" -gt 0 ] || { echo "run-sanitized.sh: nothing to build for $tests" >&2; exit 1; }
ninja -C "$build" "${wanted[@]}"
# halt_on_error: the first finding fails the test; leaks count as findings.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$root/tests/sanitize/lsan.supp:print_suppressions=0
"$root/tests/run-tests.sh" "$build" -R "$tests" --timeout 1800
