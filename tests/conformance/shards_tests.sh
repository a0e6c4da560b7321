#!/usr/bin/env bash
# --jobs J without --sweep (shards.cpp): one seed's test cases dealt to J
# processes run exactly the checks a single run does, with one summary line
# for the whole run; a process's share alone (--shard K/J) is never a
# certification; empty shares pass while a filter that matches nothing
# fails; a sharded run that fails records its failure like a single run; bad
# --shard values are one clear line and exit 2.
# usage: shards_tests.sh CAE_CONFORMANCE CPU_PLUGIN SLOW_PLUGIN
set -u
CONFORMANCE=$1
CPU=$2
SLOW=$3
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/../cli/test_lib.sh"
cd "$work" || exit 1
export XDG_CACHE_HOME=$work/cache
some=(--seed 5 --filter relu,maxpool,kernel_matrix,transpose,linear_loss)

run "a single run passes" 0 "$CONFORMANCE" --backend "$CPU" "${some[@]}"
single=$out
run "the same run in three processes passes" 0 "$CONFORMANCE" --backend "$CPU" "${some[@]}" --jobs 3 \
  --json sharded.json
expect "one summary names the processes" \
  "^cae-conformance: cpu: [0-9]+ checks, [0-9]+ passed, 0 failed, [0-9]+ notes \(seed 5, [0-9.]+ s, 3 processes\): PASSED$"
checks=$((checks + 1))
lines() { grep -E ' (ok|FAIL)$' | sort; }
if ! diff <(lines <<<"$single") <(lines <<<"$out") >diff.txt; then
  fail "the processes run exactly the single run's checks" "$(head -5 diff.txt)"
fi
checks=$((checks + 1))
[ "$(grep -c '^cae-conformance: backend cpu' <<<"$out")" = 1 ] || fail "the header is shown once" "$out"
count=$(grep -oE '^cae-conformance: cpu: [0-9]+ checks' <<<"$single" | grep -oE '[0-9]+ checks')
expect "the same number of checks" "^cae-conformance: cpu: $count, "
checks=$((checks + 1))
python3 - sharded.json <<'PY' || fail "--json holds the whole run" "$(cat sharded.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "passed" and d["processes"] == 3 and d["seed"] == 5, d
assert d["checks"] == d["passed"] > 0 and d["failed"] == 0, d
PY

# More processes than test cases: the empty shares pass, the run is judged
# on the checks that ran; a --filter that matches nothing still fails.
run "one test case in three processes passes" 0 "$CONFORMANCE" --backend "$CPU" --seed 5 \
  --filter relu_forward --jobs 3
expect "its summary" "^cae-conformance: cpu: [1-9][0-9]* checks, .*, 3 processes\): PASSED$"
run "a filter that matches nothing fails" 1 "$CONFORMANCE" --backend "$CPU" --filter nosuchop --jobs 2
expect "no check ran is said" "^  no check ran \(does --filter match an op\?\)$"

run "one process's share passes" 0 "$CONFORMANCE" --backend "$CPU" "${some[@]}" --shard 1/3
expect "a share is not a certification" \
  "^cae-conformance: not a certification \(--filter runs only some checks; --shard runs one process's share of the checks\): nothing recorded$"
reject "nothing is recorded" "certification \((passed|failed)\) recorded"

run "--shard needs K/J" 2 "$CONFORMANCE" --backend "$CPU" --shard 3
expect "--shard needs K/J: said" "^cae-conformance: --shard expects K/J \(e\.g\. 0/4\), got '3'$"
run "--shard K below J" 2 "$CONFORMANCE" --backend "$CPU" --shard 2/2
expect "--shard K below J: said" \
  "^cae-conformance: --shard expects K/J with J from 1 to 256 and K below J, got '2/2'$"

# A backend that fails (the slow stub past a 3 s time limit): the sharded
# run fails as a single run does, and its failure is recorded.
mkdir -p S && cp "$SLOW" S/
slow=$PWD/S/$(basename "$SLOW")
run "a failing backend fails the sharded run" 1 "$CONFORMANCE" --backend "$slow" --seed 1 --jobs 2 \
  --time-limit 3
expect "the summary says FAILED" "^cae-conformance: [a-z0-9_-]+: [0-9]+ checks, .*, 2 processes\): FAILED$"
expect "the failed checks are shown" "FAIL$"
expect "the seed to repeat is named" "^  repeat with: cae-conformance --backend $slow --seed 1$"
expect "the failure is recorded" "^certification \(failed\) recorded in $slow\.certified\.json$"
finish
