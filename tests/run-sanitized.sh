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
cmake -S "$root" -B "$build" -G Ninja -DCAE_SANITIZE=ON -DCAE_WITH_CUDA=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build"
# halt_on_error: the first finding fails the test; leaks count as findings.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$root/tests/sanitize/lsan.supp:print_suppressions=0
"$root/tests/run-tests.sh" "$build" -R '^(conformance\.cpu|loader|cli|unit\.|reference\.|abi\.)' \
  --timeout 1800
