#!/usr/bin/env bash
# Longer fuzzing than CI's 5 s per reader: each target of a build runs for
# SECONDS (default 1 hour) on JOBS workers, and the inputs it finds are kept in
# BUILD_DIR/tests/fuzz/corpus/<reader> (so a second run continues where the
# first stopped). Findings go to BUILD_DIR/tests/fuzz/findings.
# usage: tests/fuzz/run-long.sh [BUILD_DIR] [SECONDS] [JOBS] [READER...]
#   READER: one of the targets' names (fuzz_READER), default: every one built
# Exits 1 when any target found something (the inputs are in findings/).
set -euo pipefail
build=${1:-build}
seconds=${2:-3600}
jobs=${3:-1}
shift $(($# < 3 ? $# : 3))
readers=("$@")
if [ ${#readers[@]} -eq 0 ]; then
  for binary in "$build"/tests/fuzz/targets/fuzz_*; do
    [ -x "$binary" ] && readers+=("${binary##*/fuzz_}")
  done
fi
here=$(cd "$(dirname "$0")" && pwd)
fuzz_dir=$(cd "$build/tests/fuzz" && pwd)
parallel=()
# With several jobs libFuzzer writes a fuzz-<n>.log per job into the current folder.
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
status=0
for reader in "${readers[@]}"; do
  binary="$fuzz_dir/targets/fuzz_$reader"
  if [ ! -x "$binary" ]; then
    echo "$binary is missing: configure the build with clang and libclang-rt-14-dev installed" >&2
    exit 2
  fi
  corpus="$fuzz_dir/corpus/$reader"
  dict=()
  [ -f "$here/dicts/$reader.dict" ] && dict=(-dict="$here/dicts/$reader.dict")
  mkdir -p "$corpus" "$fuzz_dir/findings"
  echo "== $reader: $seconds s, $jobs job(s), corpus $corpus"
  (cd "$fuzz_dir" && "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 "${parallel[@]}" "${dict[@]}" -print_final_stats=1 \
    -artifact_prefix="$fuzz_dir/findings/fuzz_$reader-" "$corpus" "$here/seeds/$reader") || status=1
done
exit $status
