#!/usr/bin/env bash
# The linear classifier's device ops on a GPU machine with a carried build
# (tests/gpu/prepare-carry.sh): ABI 1.11's linear_loss (v3's and v4's
# linear-loss option, off by default) and transpose, certified over a seed
# sweep with the option on and at the defaults, then the passes timed with
# the loss on the host and on the GPU on synthetic features of the search's
# size (45,000 rows fitted of 50,000, 16,000 dimensions, 10 classes).
# Writes OUT/linear-classifier.log (every line) and prints each verdict and
# each search's setup and per-C lines.
# usage: tests/gpu/linear-classifier-check.sh BUILD_DIR OUT [SEEDS]   (SEEDS default 20)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 out=$2 seeds=${3:-20}
# shellcheck source=tests/gpu/use-build.sh
source "$root/tests/gpu/use-build.sh"
mkdir -p "$out" && out=$(cd "$out" && pwd)
log=$out/linear-classifier.log
: >"$log"
status=0
say() { printf '%s\n' "$*" | tee -a "$log"; }
# check NAME CMD...: runs CMD into the log; says its last line and whether it passed.
check() {
  local name=$1
  shift
  say "== $name: $*"
  if "$@" >>"$log" 2>&1; then say "$name: passed"; else say "$name: FAILED (see $log)"; status=1; fi
}

plugins=$build/lib/cae/plugins
for backend in v4 v3; do
  check "$backend linear-loss=on" "$build/bin/cae-conformance" --backend "$plugins/libcae-backend-$backend.so" \
    --backend-option linear-loss=on --sweep "$seeds" --jobs 4 --filter linear_loss,transpose
  check "$backend defaults" "$build/bin/cae-conformance" --backend "$plugins/libcae-backend-$backend.so" \
    --sweep "$seeds" --jobs 4 --filter linear_loss,transpose
done

features=$(mktemp -d)
check "synthetic features" "$build/bin/cae-synthetic-features" "$features" 50000 10000 16000 10 0.02 1
rm -f "$features"/test_*  # the search alone: no test rows to predict
for loss in off on; do
  say "== search, linear-loss=$loss"
  "$build/bin/cae" svm --features "$features" --search --classifier linear --linear-on backend \
    --backend v4 --backend-option "linear-loss=$loss" --out "$features/model-$loss" 2>&1 |
    tee -a "$log" | grep -E '^(search:|  C |linear:)' || status=1
done
rm -rf "$features"
exit $status
