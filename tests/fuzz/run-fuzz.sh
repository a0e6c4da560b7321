#!/usr/bin/env bash
# One bounded libFuzzer run, as CTest's fuzz.<reader>: fuzzes from the seed
# corpus (never modified: new inputs go to a scratch copy) for SECONDS and
# fails on any crash, leak, sanitizer report, timeout or out-of-memory. A
# finding is kept under FINDINGS_DIR for `BINARY FILE` to reproduce.
# usage: run-fuzz.sh BINARY SEED_DIR SECONDS FINDINGS_DIR [SKIP_REASON]
set -u
binary=$1 seeds=$2 seconds=$3 findings=$4 skip_reason=${5:-}
if [ -n "$skip_reason" ]; then
  echo "SKIPPED: $skip_reason"
  exit 77
fi
if [ ! -x "$binary" ]; then
  echo "FAIL: $binary was not built (the cae_fuzz_targets sub-build failed?)"
  exit 1
fi
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
mkdir -p "$findings"
name=$(basename "$binary")
# The reader's libFuzzer dictionary (dicts/<reader>.dict), when it has one.
dict=()
[ -f "$(dirname "$0")/dicts/${name#fuzz_}.dict" ] && dict=(-dict="$(dirname "$0")/dicts/${name#fuzz_}.dict")
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$findings/$name-" "${dict[@]}" "$corpus" "$seeds" 2>&1 | tail -25
status=${PIPESTATUS[0]}
if [ "$status" != 0 ]; then
  echo "FAIL: $name found a problem (exit $status); the input is in $findings/"
  exit 1
fi
echo "$name: no finding in ${seconds} s"
