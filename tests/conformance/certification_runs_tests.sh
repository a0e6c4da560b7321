#!/usr/bin/env bash
# Certification means the full check set (certify.hpp): a run that narrows
# or weakens it (--filter, --quick, fewer --models, a larger --check-timeout
# or --time-limit, doctest options) reports its verdict, says in one line
# that it is not a certification and records nothing, alone or as a sweep;
# so a failed record stays until a full run of the same contents passes.
# A failed verdict on a file's contents also outweighs an older passing
# record of the same contents in the cache. A run records the contents it
# loaded: a plugin file replaced during the run is not recorded.
# usage: certification_runs_tests.sh CAE_CONFORMANCE CAE CPU_PLUGIN SLOW_PLUGIN
set -u
CONFORMANCE=$1
CAE=$2
CPU=$3
SLOW=$4
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/../cli/test_lib.sh"
cd "$work" || exit 1
export XDG_CACHE_HOME=$work/cache
mkdir -p P && cp "$CPU" P/
plugin=$PWD/P/$(basename "$CPU")

# record WHERE VERDICT: a record of VERDICT for the plugin's contents.
record() {
  python3 - "$plugin" "$1" "$2" <<'PY'
import hashlib, json, sys
plugin, where, verdict = sys.argv[1:]
digest = hashlib.sha256(open(plugin, "rb").read()).hexdigest()
json.dump({"format": "cae-certification", "format_version": 1, "backend": "cpu",
           "backend_version": "1.0.0", "file": plugin, "sha256": digest, "verdict": verdict,
           "seeds": [5], "certified_by": "cae-conformance"}, open(where, "w"))
PY
}
record "$plugin.certified.json" failed
cp "$plugin.certified.json" failed-record.json

weakened=(--filter backend --models 1 --check-timeout 120 --time-limit 5000 -tc=backend)
run "a weakened run passes" 0 "$CONFORMANCE" --backend "$plugin" --seed 1 "${weakened[@]}"
expect "its verdict is reported" "^cae-conformance: cpu: [0-9]+ checks, [0-9]+ passed, 0 failed, .*: PASSED$"
expect "one line says it is not a certification, naming every weakening" \
  "^cae-conformance: not a certification \(--filter runs only some checks; --models 1 checks fewer random models than 2; --check-timeout 120 allows more than 60 s per check; --time-limit 5000 allows more than 1800 s for the run; doctest options \(-tc=backend\) may leave checks out\): nothing recorded$"
reject "nothing is recorded" "certification \((passed|failed)\) recorded"
checks=$((checks + 1))
cmp -s failed-record.json "$plugin.certified.json" || fail "the failed record stays" "$(cat "$plugin.certified.json")"

run "--quick does not certify" 0 "$CONFORMANCE" --backend "$plugin" --seed 1 --quick --filter backend
expect "--quick is named" "^cae-conformance: not a certification \(--filter runs only some checks; --quick checks fewer and smaller shapes\): nothing recorded$"

run "a weakened sweep passes" 0 "$CONFORMANCE" --backend "$plugin" --seed 1 --sweep 2 \
  --filter backend --models 0
expect "the sweep says it is not a certification" \
  "^cae-conformance: not a certification \(--filter runs only some checks; --models 0 checks fewer random models than 2\): nothing recorded$"
checks=$((checks + 1))
cmp -s failed-record.json "$plugin.certified.json" || fail "the sweep leaves the failed record" "$(cat "$plugin.certified.json")"

run "cae reads the failed record" 0 "$CAE" backends --plugin-dir P
expect "cpu from P is not certified" "^ +not certified: failed seeds 5 \($plugin\.certified\.json\)$"

# An older passing record of the same contents in the cache does not hide
# the failed verdict beside the file.
digest=$(sha256sum "$plugin" | cut -d' ' -f1)
mkdir -p cache/cae/certified
record "cache/cae/certified/$digest.json" passed
run "a passing record in the cache" 0 "$CAE" backends --plugin-dir P
expect "the failed verdict still counts" "^ +not certified: failed seeds 5 \($plugin\.certified\.json\)$"

# A full run under a stricter --time-limit still certifies: the slow stub
# (3 s per convolution) fails it, and the failure is recorded.
mkdir -p S T
cp "$SLOW" S/ && cp "$SLOW" T/
slow=$PWD/S/$(basename "$SLOW")
run "a stricter time limit still certifies" 1 "$CONFORMANCE" --backend "$slow" --seed 1 --time-limit 3
expect "the time limit fails the run" "the run passed its time limit of 3.0 s"
expect "the failure is recorded" "^certification \(failed\) recorded in $slow\.certified\.json$"

# The same run, with the file replaced while it runs: nothing is recorded.
moved=$PWD/T/$(basename "$SLOW")
"$CONFORMANCE" --backend "$moved" --seed 1 --time-limit 3 >moved.log 2>&1 &
pid=$!
for _ in $(seq 1 100); do grep -q "^  seed 1" moved.log 2>/dev/null && break; sleep 0.1; done
cp "$moved" replacement.so && printf 'x' >>replacement.so && mv replacement.so "$moved"
wait "$pid"
out=$(cat moved.log)
expect "a file replaced during the run is named" \
  "^cae-conformance: $moved changed during the run \(its checks were of other contents\): nothing recorded$"
absent "no record for the replaced file" "$moved.certified.json"
finish
