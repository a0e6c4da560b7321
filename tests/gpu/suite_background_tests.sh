#!/usr/bin/env bash
# tests/gpu/suite-background.sh without a GPU: its refusals (one line, exit 2),
# and a smoke-mode group run in the background and collected: the group's
# results copied (the epoch part inside), the logs archived, exit 0 once
# every group has ended; a second start over the same folder refused.
# usage: tests/gpu/suite_background_tests.sh BUILD_DIR
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: suite_background_tests.sh BUILD_DIR}
script=$root/tests/gpu/suite-background.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/suite-background-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
expect() {  # expect DESCRIPTION WANTED_RC COMMAND...
  local what=$1 wanted=$2 rc
  shift 2
  "$@" >"$work/out" 2>&1
  rc=$?
  if [ "$rc" -ne "$wanted" ]; then
    echo "FAIL: $what: exit $rc, wanted $wanted"; sed 's/^/  | /' "$work/out"; failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}
one_line() {  # the last command's output is one line naming $1
  if [ "$(wc -l <"$work/out")" -ne 1 ] || ! grep -q -- "$1" "$work/out"; then
    echo "FAIL: not one line naming '$1':"; sed 's/^/  | /' "$work/out"; failures=$((failures + 1))
  fi
}

expect "no arguments" 2 "$script"
expect "--help" 0 "$script" --help
expect "an unknown verb" 2 "$script" run; one_line "start or collect"
expect "start without --data" 2 "$script" start "$build"; one_line "--data"
expect "start with an unknown option" 2 "$script" start "$build" --data "$work" --fast; one_line "--fast"
expect "collect with a bad wait" 2 "$script" collect soon "$work/out-dir"; one_line "soon"
expect "collect with nothing started" 2 "$script" collect 0 "$work/out-dir" --work "$work/none"; one_line "start one first"

expect "start a smoke group" 0 "$script" start "$build" --data "$work" --group epoch-64 --smoke --work "$work/run"
expect "a second start over the same folder" 2 "$script" start "$build" --data "$work" --smoke --work "$work/run"
one_line "earlier run"
expect "collect until every group ended" 0 "$script" collect 240 "$work/results" --work "$work/run"
if python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if 'epoch-64' in d['parts'] else 1)" \
    "$work/results/g1.json"; then
  echo "ok: the group's results name its part"
else
  echo "FAIL: $work/results/g1.json does not hold part epoch-64"; failures=$((failures + 1))
fi
# Listed first: grep -q leaving early would fail the pipe under pipefail.
tar -tJf "$work/results/logs.tar.xz" >"$work/listing" 2>&1
if grep -qx "g1.log" "$work/listing"; then
  echo "ok: the logs are archived"
else
  echo "FAIL: logs.tar.xz lacks g1.log"; failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] && echo "suite-background: all checks passed" && exit 0
echo "suite-background: $failures check(s) failed"
exit 1
