#!/bin/bash
# Device run 30 (one H200): the conformance suite with its new wide-channel convolutions
# (16-128 channels on 9x12, 6x10, 8x8 and 4x4 images; K = 3, 5, 1), which reach v4's cp.async
# GEMM, its taps forward and its TMA GEMM at K != 3: every CUDA backend, one run and 12 seeds.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r30; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
for be in v4 v3 v2 winograd v1 naive; do
  timeout 90 $B/cae-conformance --backend $be > $R/conf-$be.log 2>&1; t "conformance $be rc=$? $(tail -1 $R/conf-$be.log)"
  grep -E "FAIL|unsupported" $R/conf-$be.log | grep -E "\[(3|2|8),(16|64|128)," | head -8 >> $R/summary.txt
  timeout 100 $B/cae-conformance --backend $be --sweep 12 --jobs 8 > $R/sweep-$be.log 2>&1; t "sweep $be rc=$? $(tail -1 $R/sweep-$be.log)"
done
timeout 60 compute-sanitizer --tool memcheck $B/cae-conformance --backend v4 --filter conv2d > $R/memcheck.log 2>&1; t "memcheck v4 rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1)"
cp $R/summary.txt $OUT/ 2>/dev/null
