#!/bin/bash
# Device run 27 (one H200): v4's weight gradient on the TMA GEMM too (transposed BF16 copies
# of dy and x, both operands K-major boxes; x's box shifted per tap): conformance, 20 seeds,
# memcheck on the convolutions, bench beside v3.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r27; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
timeout 60 $B/cae-conformance --backend v4 > $R/conf.log 2>&1; t "conformance v4 rc=$? $(tail -1 $R/conf.log)"
grep -iE "fail" $R/conf.log | head -20 >> $R/summary.txt
timeout 100 $B/cae-conformance --backend v4 --sweep 20 --jobs 8 > $R/sweep.log 2>&1; t "sweep rc=$? $(tail -1 $R/sweep.log)"
timeout 100 compute-sanitizer --tool memcheck $B/cae-conformance --backend v4 --filter conv2d > $R/memcheck.log 2>&1; t "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1)"
for b in 256 64; do
  timeout 120 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 --json $R/bench-$b.json > $R/bench-$b.log 2>&1; t "bench b$b rc=$? $(grep -A3 'one epoch' $R/bench-$b.log | tail -2 | tr -s ' ' | tr '\n' '|')"
done
cp $R/* $OUT/ 2>/dev/null
