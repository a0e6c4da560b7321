#!/bin/bash
# Device run 60 (one H200): PDL now also requires that v3's kernels were compiled for compute
# capability 9.0+ (cudaFuncGetAttributes' ptxVersion), and CAE_V3_VERBOSE=1 says whether it is
# on. Checks: it says "on" here; conformance v3/v4; v4 20 seeds; the batch-64 epoch with PDL on
# and off. Prediction: "on"; all pass; epochs as run 59 (0.515-0.517 s / 0.556-0.585 s).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r60; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
for p in 1 0; do
  CAE_V3_PDL=$p CAE_V3_VERBOSE=1 $B/cae info --backend v4 > $R/info-$p.log 2>&1; t "info pdl=$p rc=$? $(grep '\[v3\] device' $R/info-$p.log | head -1)"
done
for b in v4 v3; do
  ( timeout 100 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
timeout 100 $B/cae-conformance --backend v4 --sweep 20 --jobs 8 > $R/sweep-v4.log 2>&1; t "sweep20 v4 rc=$? $(tail -1 $R/sweep-v4.log)"
for pdl in 1 0 1 0; do
  CAE_V3_PDL=$pdl timeout 60 $B/cae bench --backend v4 --batch 64 --images 50000 --repeats 5 --extract-images 0 > $R/bench-64-p$pdl.log 2>&1
  t "bench v4 b64 pdl=$pdl rc=$? $(grep 'epoch (' $R/bench-64-p$pdl.log)"
done
