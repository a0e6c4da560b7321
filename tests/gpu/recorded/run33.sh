#!/bin/bash
# Device run 33 (one H200): ABI 1.3 page-locked host memory (host_alloc/host_free in every
# CUDA backend; v3/v4 copy from/to their own blocks without staging; the host's extraction
# and bench batches live there). Prediction: extraction of 60,000 images 0.30 -> ~0.16 s on
# v4 (2.7 GB at ~50 GB/s instead of ~14 GB/s, plus ~0.1 s of GPU work); the epoch nearly
# unchanged (its 3 MB uploads already overlap with the GPU through v3's staging).
# Conformance of every CUDA backend (one seed), the host-memory checks over 20 seeds,
# memcheck on them, then bench pinned vs pageable in one call beside PyTorch.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r33; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
for b in v4 v3 v2 naive v1 winograd; do
  ( timeout 200 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log) | $(grep -c 'host memory' $R/conf-$b.log) host-memory lines" ) &
done
wait
grep -h "FAIL" -A2 $R/conf-*.log | head -30 >> $R/summary.txt
grep -h "host memory" $R/conf-v4.log | head -12 >> $R/summary.txt
for b in v4 v3; do
  timeout 120 $B/cae-conformance --backend $b --filter "host memory" --sweep 20 --jobs 8 > $R/sweep-$b.log 2>&1; t "host-memory sweep $b rc=$? $(tail -1 $R/sweep-$b.log)"
done
( OUT=$R/s BACKENDS="v4 v3" TOOLS=memcheck WORKLOADS="quick" FILTER="host memory" JOBS=2 TIMEOUT=150 timeout 170 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "memcheck host memory rc=$? $(tail -4 $R/san.log | tr '\n' '|')" )
for b in 256 64; do
  for m in pinned pageable; do
    timeout 150 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 --host-memory $m --json $R/bench-$b-$m.json > $R/bench-$b-$m.log 2>&1
    t "bench b$b $m rc=$? $(grep -A3 'one epoch\|epoch s' $R/bench-$b-$m.log | tail -3 | tr -s ' ' | tr '\n' '|')"
  done
done
timeout 200 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
cp $R/summary.txt $R/san.log $R/bench-* $R/torch.log $R/sweep-*.log $R/conf-*.log $OUT/ 2>/dev/null
