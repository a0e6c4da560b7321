#!/usr/bin/env bash
# --max-failures N (watchdog.hpp): on a backend whose relu_backward is wrong
# in most checks (the relu-ge mutant), the run ends after exactly N failed
# checks with its stop line, summary and JSON; without the option every
# check runs; a value outside 1..1000000 is refused.
# usage: max_failures_tests.sh CAE_CONFORMANCE RELU_GE_MUTANT
set -u
CONFORMANCE=$1
MUTANT=$2
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/../cli/test_lib.sh"
cd "$work" || exit 1

suite=("$CONFORMANCE" --backend "$MUTANT" --filter relu_backward --seed 1)
run "every check without the option" 1 "${suite[@]}" --json all.json
all=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["failures"]))' all.json)
checks=$((checks + 1))
[ "${all:-0}" -gt 2 ] || fail "the mutant fails more than two checks" "failures: ${all:-none}"

for n in 1 2; do
  run "--max-failures $n" 1 "${suite[@]}" --max-failures "$n" --json "stop-$n.json"
  expect "--max-failures $n: the stop is said" \
    "^cae-conformance: $n failed checks \(--max-failures $n\): the suite stops here"
  expect "--max-failures $n: the summary follows" \
    "^cae-conformance: mutant-relu-ge: $n checks, 0 passed, $n failed, .*: FAILED$"
  expect "--max-failures $n: not a certification" "--max-failures may end the run before every check ran"
  got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["verdict"], len(d["failures"]))' \
    "stop-$n.json")
  checks=$((checks + 1))
  [ "$got" = "failed $n" ] || fail "--max-failures $n: the JSON holds $n failures" "got '$got'"
done

run_err "--max-failures 0 is refused" 2 "${suite[@]}" --max-failures 0
expect "the refusal names the option" "^cae-conformance: --max-failures expects 1 to 1000000, got '0'$"
finish
