#!/usr/bin/env bash
# Certification counts (host/plugin/certification.hpp): a plugin dropped into
# a folder that declares priority 1000 and computes wrong convolutions
# ("greedy") does not become the default; `cae backends` shows every
# backend's certification and the default; an uncertified backend is used
# only when named, with a one-line warning; a record counts only for the
# exact file it certified. Needs the cpu backend certified (CTest runs
# conformance.cpu first: it writes the record).
# usage: certification_cli_tests.sh CAE CAE_CONFORMANCE GREEDY_PLUGIN
set -u
CAE=$1
CONFORMANCE=$2
GREEDY=$3
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
cd "$work" || exit 1
mkdir -p P && cp "$GREEDY" P/
greedy=$PWD/P/$(basename "$GREEDY")
P="--plugin-dir P"

run "backends lists certification" 0 "$CAE" backends $P
expect "greedy is not certified" "^ +not certified: no record \(certify it: cae-conformance --backend $greedy\)$"
expect "cpu is certified and the default" "^ +certified: passed seeds [0-9, ]+ \(.*\); the default$"
reject "greedy is not the default" "no record.*the default"

run "info picks the certified default" 0 "$CAE" info $P
expect "info picks the certified default" "^backend: +cpu "
reject "info: no warning for the default" "warning"
run_err "the default says what it passed over" 0 "$CAE" info $P
expect "the note names greedy and how to certify or name it" \
  "^cae: note: the default backend is cpu: greedy is available but not certified \(certify it: cae-conformance --backend $greedy; or name it: --backend greedy\)$"
checks=$((checks + 1))
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "the note is one line" "stderr has more lines"
"$CAE" data synth D --train 20 --test 10 >/dev/null
run "train picks the certified default" 0 "$CAE" train $P --data D --epochs 1 --batch 10 --out m.safetensors
expect "train picks the certified default" "backend cpu"

run_err "a named uncertified backend: used, with a warning" 0 "$CAE" info $P --backend greedy
expect "the warning names it" "^cae: warning: backend greedy is not certified: no record"
checks=$((checks + 1))
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "the warning is one line" "stderr has more lines"

# A certification run of greedy fails (its convolutions are wrong) and records so.
run "conformance of greedy" 1 "$CONFORMANCE" --backend "$greedy" --seed 1
expect "conformance of greedy records its failure" "certification \(failed\) recorded in $greedy.certified.json"
run "a failed certification is shown" 0 "$CAE" backends $P
expect "a failed certification is shown" "^ +not certified: failed seeds 1 "

# A record that certifies this exact file makes it eligible, and then its
# priority wins; the same record no longer counts once the file changes.
python3 - "$greedy" <<'PY'
import hashlib, json, sys
path = sys.argv[1]
digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
json.dump({"format": "cae-certification", "format_version": 1, "backend": "greedy",
           "backend_version": "0.0.1", "file": path, "sha256": digest, "verdict": "passed",
           "seeds": [7], "certified_by": "cae-conformance"}, open(path + ".certified.json", "w"))
PY
run "a certified plugin may be the default" 0 "$CAE" backends $P
expect "a certified plugin may be the default" "^ +certified: passed seeds 7 .*; the default$"
printf 'x' >>"$greedy"
run "a changed file loses its certification" 0 "$CAE" backends $P
expect "a changed file loses its certification" "^ +not certified: the file changed since it was certified"
run "info: back to cpu" 0 "$CAE" info $P
expect "info: back to cpu" "^backend: +cpu "
echo "not json" >"$greedy.certified.json"
run "a damaged record is said so" 0 "$CAE" backends $P
expect "a damaged record is said so" "record .*certified.json is damaged"
# A huge (sparse) file at a record's name is refused by its size, never read
# into memory.
truncate -s 64G "$greedy.certified.json"
run "a 64 GiB record is damage, not read" 0 "$CAE" backends $P
expect "a 64 GiB record is damage, not read" "record .*certified.json is damaged"
# Fields of the wrong type or range are damage, not converted (a version or a
# seed of 1e300 was undefined behaviour), and what a record says reaches
# `cae backends` on one line.
record() {  # record VERSION SEEDS BACKEND
  python3 - "$greedy" "$1" "$2" "$3" <<'PY'
import hashlib, json, sys
path, version, seeds, backend = sys.argv[1:]
digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
open(path + ".certified.json", "w").write(
    '{"format": "cae-certification", "format_version": %s, "backend": %s, "backend_version": "0.0.1",'
    ' "sha256": "%s", "verdict": "passed", "seeds": %s}' % (version, json.dumps(backend), digest, seeds))
PY
}
record 1e300 '[7]' greedy
run "a version of 1e300 is another format" 0 "$CAE" backends $P
expect "a version of 1e300 is another format" "record .*certified.json is not a certification record of this format"
record 1 '[1e300]' greedy
run "a seed of 1e300 is damage" 0 "$CAE" backends $P
expect "a seed of 1e300 is damage" "record .*certified.json is damaged"
record 1 '[7]' $'other\nline'
run "a backend name with a newline stays on one line" 0 "$CAE" backends $P
expect "a backend name with a newline stays on one line" 'certifies other\\x0aline 0.0.1, not greedy 0.0.1'
finish
