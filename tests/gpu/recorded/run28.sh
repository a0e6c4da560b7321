#!/bin/bash
# Device run 28 (one H200): v4's weight gradient on the TMA GEMM with MN-major operands (boxes of
# the BF16 NHWC copies; run 27's transposed copies with 32-byte box rows faulted: swizzled
# boxes fill whole 128-byte rows). Which descriptor field holds the MN atom stride is tried
# both ways (CAE_V4_MN_LBO, a switch for this run only); the passing one is then checked:
# conformance, 20 seeds, memcheck, bench beside v3.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r28; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
good=
for v in 0 1; do
  CAE_V4_MN_LBO=$v timeout 60 $B/cae-conformance --backend v4 --filter conv2d_backward > $R/conf-bwd-$v.log 2>&1; rc=$?
  t "conv2d_backward with CAE_V4_MN_LBO=$v rc=$rc $(tail -1 $R/conf-bwd-$v.log)"
  grep FAIL -A1 $R/conf-bwd-$v.log | head -6 >> $R/summary.txt
  [ $rc = 0 ] && good=$v
done
if [ -n "$good" ]; then
  export CAE_V4_MN_LBO=$good
  timeout 60 $B/cae-conformance --backend v4 > $R/conf.log 2>&1; t "conformance v4 rc=$? $(tail -1 $R/conf.log)"
  timeout 100 $B/cae-conformance --backend v4 --sweep 20 --jobs 8 > $R/sweep.log 2>&1; t "sweep rc=$? $(tail -1 $R/sweep.log)"
  timeout 100 compute-sanitizer --tool memcheck $B/cae-conformance --backend v4 --filter conv2d > $R/memcheck.log 2>&1; t "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1)"
  for b in 256 64; do
    timeout 120 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 --json $R/bench-$b.json > $R/bench-$b.log 2>&1; t "bench b$b rc=$? $(grep -A3 'one epoch' $R/bench-$b.log | tail -2 | tr -s ' ' | tr '\n' '|')"
  done
fi
cp $R/* $OUT/ 2>/dev/null
