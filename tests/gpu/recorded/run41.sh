#!/bin/bash
# Device run 41 (one H200), the build to be committed: v2 and v3/v4 choose page-locked or staged
# uploads through one shared helper (upload_host_floats). Conformance of every CUDA backend,
# 20 seeds on v2/v3/v4, compute-sanitizer (4 tools x quick, full, train) on v2 and v3 (their
# transfer paths; v4 shares v3's), extraction timed three times, the v4 pipeline.
# Predictions: every verdict passes, 0 sanitizer findings; extraction ~0.10-0.12 s;
# pipeline accuracy exactly run 37's (validation 69.02%, test 68.92%).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r41; rm -rf $R; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { cp $R/summary.txt $OUT/; tar -czf $OUT/r41.tar.gz -C /tmp r41 2>/dev/null; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
[ -f /tmp/cifar/test_batch.bin ] || python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for b in v4 v3 v2 naive v1 winograd; do
  ( timeout 200 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
for b in v2 v3 v4; do
  timeout 120 $B/cae-conformance --backend $b --sweep 20 --jobs 8 > $R/sweep-$b.log 2>&1; t "sweep20 $b rc=$? $(tail -1 $R/sweep-$b.log)"
done
save
for i in 1 2 3; do
  timeout 100 $B/cae bench --backend v4 --batch 256 --images 2560 --repeats 1 > $R/bench-extract$i.log 2>&1; t "bench v4 extraction #$i rc=$? $(grep 'feature extraction' $R/bench-extract$i.log)"
done
save
OUT=$R/s BACKENDS="v2 v3" JOBS=8 TIMEOUT=200 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 240 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$? $(tail -12 $R/san.log | tr -s ' ' | tr '\n' '|')"
save
timeout 200 $B/cae pipeline --backend v4 --data /tmp/cifar --out /tmp/pipe-v4 > $R/pipe-v4.log 2>&1; t "pipeline v4 rc=$? $(grep -iE 'accuracy|extract features' $R/pipe-v4.log | tr -s ' ' | tr '\n' ' ' | cut -c1-300)"
save
