#!/usr/bin/env bash
# A graph's draws of inputs are evaluated side by side (check_graphs.cpp),
# and the one judged must be the draw a run one by one would judge: the
# graph checks on the cpu backend at a seed whose graphs meet near ties
# (every draw of some, the first draw of others) print the same lines, every
# error figure included, on one thread and on three.
# usage: graph_draws_tests.sh CAE_CONFORMANCE CPU_PLUGIN
set -u
CONFORMANCE=$1
CPU=$2
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/../cli/test_lib.sh"
cd "$work" || exit 1

for threads in 1 3; do
  run "graph checks on $threads thread(s)" 0 env OMP_NUM_THREADS=$threads \
    "$CONFORMANCE" --backend "$CPU" --filter graphs --seed 3 --no-record
  # The summary line carries the run's own time; every other line is compared.
  grep -v '^cae-conformance: ' <<<"$out" >"threads-$threads.txt"
done
out=$(cat threads-1.txt)
expect "some graph met a near tie on every draw" "every draw of inputs had a near tie"
expect "graphs were judged against float64" "^graphs .* worst err/bound [0-9.e+-]+ \((first|second|third|fourth) run"
checks=$((checks + 1))
diff threads-1.txt threads-3.txt >diff.txt ||
  fail "one thread and three judge the same draws" "$(head -20 diff.txt)"
finish
