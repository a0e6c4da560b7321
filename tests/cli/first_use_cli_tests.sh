#!/usr/bin/env bash
# Certification on first use (host/cli/first_use_certification.hpp), in an
# installed layout (PREFIX/bin/cae, PREFIX/lib/cae/plugins) holding the
# certified cpu backend and "greedy", a bundled-looking plugin that asks for
# priority 1000 and computes wrong convolutions: without --backend, cae runs
# cae-conformance on greedy first, says in one line that it failed and why,
# and goes on with cpu; the failed verdict is kept, so the next run does not
# certify again; --certify-on-first-use false, --backend and a plugin found
# through --plugin-dir never certify anything. Needs the cpu backend
# certified (conformance.cpu runs first and writes the record beside it).
# usage: first_use_cli_tests.sh CAE CAE_CONFORMANCE CPU_PLUGIN GREEDY_PLUGIN
set -u
CAE=$1
CONFORMANCE=$2
CPU=$3
GREEDY=$4
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
cd "$work" || exit 1
export XDG_CACHE_HOME=$work/cache

# install PREFIX: cae, cae-conformance and the certified cpu backend (its
# record travels with it: a record is about the file's contents), plus greedy.
install() {
  mkdir -p "$1/bin" "$1/lib/cae/plugins"
  cp "$CAE" "$CONFORMANCE" "$1/bin/"
  cp "$CPU" "$CPU.certified.json" "$GREEDY" "$1/lib/cae/plugins/"
}
install A
greedy=$PWD/A/lib/cae/plugins/$(basename "$GREEDY")
"$CAE" data synth D --train 20 --test 10 >/dev/null

run "first use certifies greedy" 0 A/bin/cae train --data D --epochs 1 --batch 10 --out m1.safetensors
expect "it says which backend, where and the log" \
  "^cae: certifying greedy on first use \(cae-conformance --backend $greedy( --jobs [0-9]+)?; log $work/cache/cae/certified/logs/greedy\.log\) \.\.\. NOT certified: [0-9]+ checks, [0-9]+ passed, [1-9][0-9]* failed, .*: FAILED; the next backend is tried"
expect "it goes on with cpu" "^backend cpu "
exists "the log is kept" cache/cae/certified/logs/greedy.log
exists "the failed verdict is recorded" "$greedy.certified.json"
checks=$((checks + 1))
grep -q '"verdict": *"failed"' "$greedy.certified.json" || fail "the record says failed" "$(cat "$greedy.certified.json")"

run "a failed verdict is not repeated" 0 A/bin/cae train --data D --epochs 1 --batch 10 --out m2.safetensors
reject "no second certification" "certifying"
expect "still cpu" "^backend cpu "

install B
run "--certify-on-first-use false" 0 B/bin/cae train --data D --epochs 1 --batch 10 \
  --certify-on-first-use false --out m3.safetensors
reject "nothing certified" "certifying"
absent "no record written" "B/lib/cae/plugins/$(basename "$GREEDY").certified.json"
run "--backend names the backend" 0 B/bin/cae train --data D --epochs 1 --batch 10 --backend cpu \
  --out m4.safetensors
reject "--backend: nothing certified" "certifying"

mkdir -p C/bin C/lib/cae/plugins P
cp "$CAE" "$CONFORMANCE" C/bin/ && cp "$CPU" "$CPU.certified.json" C/lib/cae/plugins/ && cp "$GREEDY" P/
run "a plugin from --plugin-dir is never certified by itself" 0 C/bin/cae train --plugin-dir P \
  --data D --epochs 1 --batch 10 --out m5.safetensors
reject "--plugin-dir: nothing certified" "certifying"
expect "--plugin-dir: cpu" "^backend cpu "

run "a bad value is refused" 2 B/bin/cae train --data D --certify-on-first-use maybe --out m6.safetensors
one_line "a bad value is refused"

finish
