#!/usr/bin/env bash
# Measures the winograd backend's launch parameters per layer shape: runs
# `cae bench` once per candidate (the backend options transform-warps=T/32 and
# images-per-pass=N, taken at create, so no rebuild), prints every convolution's time per
# candidate, the best candidate per layer and op (the rows to copy into
# plugins/winograd/winograd_tuning_table.cpp), and v2's time on the same
# layer for comparison (winograd aims at a forward of conv2/conv4 faster than
# v2's).
# usage: tests/gpu/tune-winograd.sh [BUILD_DIR]
#   BATCHES="256 64"            batch sizes (the table is per shape: one row per layer)
#   THREADS="128 256 512"       transform-kernel block sizes (multiples of 32, up to 1024)
#   CHUNKS="0 16 32 64 128"     images per pass (0: whole batch, within the workspace budget)
#   REPEATS=20                  timed runs per op (cae bench takes the median)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
cae="$build/bin/cae"
[ -x "$cae" ] || { echo "tune-winograd: $cae not found (build first)" >&2; exit 1; }
batches=${BATCHES:-256 64}
threads_list=${THREADS:-128 256 512}
chunks=${CHUNKS:-0 16 32 64 128}
repeats=${REPEATS:-20}
results=$(mktemp)
trap 'rm -f "$results"' EXIT

# Runs one bench and appends "PREFIX op layer shape ms" per convolution row to
# the results; a failed candidate is reported and skipped, not fatal.
bench_into_results() {
  local prefix=$1
  shift
  local output
  if ! output=$("$@" 2>&1); then
    echo "  failed: $(printf '%s\n' "$output" | tail -1)"
    return 0
  fi
  printf '%s\n' "$output" |
    awk -v prefix="$prefix" '$1 ~ /^conv2d_(forward|backward)$/ && NF >= 4 { print prefix, $1, $2, $3, $4 }' \
      >> "$results"
}

for batch in $batches; do
  images=$((batch * 10))
  echo "== batch $batch: v2 (reference) =="
  bench_into_results "$batch v2 - -" "$cae" bench --backend v2 --batch "$batch" \
    --images "$images" --extract-images 0 --repeats "$repeats"
  for threads in $threads_list; do
    for chunk in $chunks; do
      echo "== batch $batch: winograd threads=$threads chunk=$chunk =="
      bench_into_results "$batch winograd $threads $chunk" \
        "$cae" bench --backend winograd \
        --backend-option "transform-warps=$((threads / 32))" \
        --backend-option "images-per-pass=$chunk" --batch "$batch" --images "$images" --extract-images 0 \
        --repeats "$repeats"
    done
  done
done

echo
echo "---- every candidate (ms per op) ----"
printf '%-6s %-9s %-8s %-6s %-17s %-15s %-34s %9s\n' batch backend threads chunk op layer shape ms
sort -k1,1n -k6,6 -k5,5 -k8,8g "$results" |
  awk '{ printf "%-6s %-9s %-8s %-6s %-17s %-15s %-34s %9s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'

echo
echo "---- best winograd candidate per batch, layer and op, against v2 ----"
printf '%-6s %-17s %-15s %-34s %8s %6s %9s %9s %8s\n' batch op layer shape threads chunk winograd v2 speedup
awk '
  $2 == "v2" { v2[$1 " " $5 " " $6] = $8; next }
  { key = $1 " " $5 " " $6
    if (!(key in best) || $8 + 0 < best[key] + 0) { best[key] = $8; row[key] = $0 } }
  END {
    for (key in row) {
      split(row[key], f, " ")
      ref = (key in v2) ? v2[key] : "-"
      speedup = (ref != "-" && f[8] > 0) ? sprintf("%.2fx", ref / f[8]) : "-"
      printf "%-6s %-17s %-15s %-34s %8s %6s %9s %9s %8s\n", f[1], f[5], f[6], f[7], f[3], f[4], f[8], ref, speedup
    }
  }' "$results" | sort -k1,1n -k3,3 -k2,2
