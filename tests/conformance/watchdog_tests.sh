#!/usr/bin/env bash
# A backend that hangs cannot hang certification (watchdog.hpp): with a
# plugin whose conv2d_forward sleeps 3 s per call, a check past its
# --check-timeout is FAILED naming the op and the time, and the suite ends
# with its summary line and JSON; a run past its --time-limit, every call
# within its check's limit, ends the same way; SIGTERM ends it the same
# way, exit 143.
# usage: watchdog_tests.sh CAE_CONFORMANCE SLOW_PLUGIN
set -u
CONFORMANCE=$1
SLOW=$2
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/../cli/test_lib.sh"
cd "$work" || exit 1

start=$(date +%s)
run "a hanging check times out" 1 "$CONFORMANCE" --backend "$SLOW" --filter conv2d_forward \
  --check-timeout 1 --seed 1 --json hang.json
took=$(( $(date +%s) - start ))
checks=$((checks + 1))
[ "$took" -lt 10 ] || fail "a hanging check times out" "took $took s"
expect "the op and the time are named" "^conv2d_forward .*timed out after [0-9.]+ s \(limit 1.0 s, --check-timeout\) +FAIL"
expect "the summary line follows" "^cae-conformance: slowconv: [0-9]+ checks, [0-9]+ passed, [1-9][0-9]* failed, .*: FAILED$"
exists "the JSON follows" hang.json
checks=$((checks + 1))
grep -q '"verdict": "failed"' hang.json && grep -q 'timed out' hang.json ||
  fail "the JSON names the timeout" "$(cat hang.json 2>/dev/null)"

# Each call within its check's limit, the run as a whole past its own.
start=$(date +%s)
run "a crawling run passes its time limit" 1 "$CONFORMANCE" --backend "$SLOW" \
  --filter conv2d_forward --check-timeout 600 --time-limit 2 --seed 1
took=$(( $(date +%s) - start ))
checks=$((checks + 1))
[ "$took" -lt 10 ] || fail "a crawling run passes its time limit" "took $took s"
expect "the limit is named" \
  "^conv2d_forward .*the run passed its time limit of 2.0 s \(--time-limit\) after [0-9.]+ s +FAIL"
expect "the summary line follows the time limit" "^cae-conformance: slowconv: .*: FAILED$"

"$CONFORMANCE" --backend "$SLOW" --filter conv2d_forward --check-timeout 600 --seed 1 \
  --json term.json >term.log 2>&1 &
pid=$!
for _ in $(seq 1 100); do grep -q "^  seed 1" term.log 2>/dev/null && break; sleep 0.1; done
sleep 0.5
kill -TERM "$pid"
wait "$pid"
rc=$?
out=$(cat term.log)
checks=$((checks + 1))
[ "$rc" = 143 ] || fail "SIGTERM" "exit code $rc, expected 143"
expect "SIGTERM names the running check" "^conv2d_forward .*interrupted by SIGTERM after [0-9.]+ s +FAIL"
expect "SIGTERM: the summary line follows" "^cae-conformance: slowconv: .*: FAILED$"
exists "SIGTERM: the JSON follows" term.json
finish
