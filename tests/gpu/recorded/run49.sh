#!/bin/bash
# Device run 49 (one H200): v4 back on v3's TF32 GEMMs for conv1/conv5 (as in run 47); the suite
# with run 48's two extra shapes; new: v4's convolution backward runs the data-gradient GEMM on a
# second stream beside the weight gradient (CAE_V3_SIDE_STREAM=0 turns it off). Conformance of
# every CUDA backend, v4 20 seeds, epochs with and without the side stream interleaved, memcheck
# and racecheck on v4.
# Prediction: every verdict passes; batch 64 epoch 0.595 -> ~0.57 s (conv backward 0.38 ms of
# the 0.76 ms step, GEMMs that fill about one wave each); batch 256 unchanged within 1%.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r49; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { tar -czf $OUT/r49.tgz -C $OUT r49; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
for b in v4 v3 v2 naive v1 winograd; do
  ( timeout 150 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
save
timeout 150 $B/cae-conformance --backend v4 --sweep 20 --jobs 8 > $R/sweep-v4.log 2>&1; t "sweep20 v4 rc=$? $(tail -1 $R/sweep-v4.log)"; save
for i in 1 2; do for side in 1 0; do for b in 64 256; do
  CAE_V3_SIDE_STREAM=$side timeout 100 $B/cae bench --backend v4 --batch $b --images 50000 --repeats 5 --extract-images 0 --json $R/bench-$b-s$side-$i.json > $R/bench-$b-s$side-$i.log 2>&1
  t "bench b$b side=$side #$i rc=$? $(grep -A2 'one epoch' $R/bench-$b-s$side-$i.log | tail -1 | tr -s ' ')"
done; done; done
save
OUT=$R/s BACKENDS="v4" TOOLS="memcheck racecheck" WORKLOADS="quick full train" JOBS=6 TIMEOUT=150 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 170 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$? $(tail -7 $R/san.log | tr -s ' ' | tr '\n' '|')"
save
