#!/usr/bin/env bash
# Runs the whole CTest matrix of a build and says why each skipped test was
# skipped (CTest itself only prints "Skipped"): a backend that cannot run
# here is reported with its reason, never passed.
# Tests run side by side on every core (CTest's own CTEST_PARALLEL_LEVEL
# overrides; tests that need the machine to themselves are marked RUN_SERIAL).
# usage: tests/run-tests.sh [BUILD_DIR] [extra ctest arguments...]
set -uo pipefail
export CTEST_PARALLEL_LEVEL=${CTEST_PARALLEL_LEVEL:-$(nproc)}
# Tests side by side share the cores: the cpu backend's idle OpenMP threads
# sleep rather than spin on cores another test's threads are waiting for.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
build=${1:-build}
shift || true
log=$(mktemp)
ctest --test-dir "$build" --output-on-failure "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
reasons=$(grep -h '^SKIPPED' "$build/Testing/Temporary/LastTest.log" 2>/dev/null)
if [ -n "$reasons" ]; then
  echo
  echo "skipped, with their reasons:"
  echo "$reasons" | sed 's/^/  /'
fi
passed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* +Passed' "$log")
failed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*Failed|\*\*\*Exception|\*\*\*Timeout|Not Run)' "$log")
skipped=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped' "$log")
rm -f "$log"
echo
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
