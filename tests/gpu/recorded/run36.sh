#!/bin/bash
# Device run 36 (one H200): v4's host code only (one image_box rule for both box shapes, one
# launch helper for both GEMM kernels); the sm_90a cubin of v4_conv.cu is byte-identical to
# run 35's. Prediction: every verdict and time as in run 35.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r36; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
timeout 100 $B/cae-conformance --backend v4 > $R/conf-v4.log 2>&1; t "conformance v4 rc=$? $(tail -1 $R/conf-v4.log)"
timeout 150 $B/cae-conformance --backend v4 --sweep 40 --jobs 8 > $R/sweep-v4.log 2>&1; t "sweep v4 rc=$? $(tail -1 $R/sweep-v4.log)"
( OUT=$R/s BACKENDS="v4" TOOLS=memcheck WORKLOADS="quick full" JOBS=2 TIMEOUT=150 timeout 170 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "memcheck rc=$? $(tail -5 $R/san.log | tr -s ' ' | tr '\n' '|')" )
for b in 256 64; do
  timeout 150 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 --json $R/bench-$b.json > $R/bench-$b.log 2>&1
  t "bench b$b rc=$? $(grep -A3 'one epoch' $R/bench-$b.log | tail -2 | tr -s ' ' | tr '\n' '|')"
done
cp $R/summary.txt $R/san.log $R/bench-* $R/sweep-v4.log $OUT/ 2>/dev/null
