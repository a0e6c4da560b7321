#!/bin/bash
# Device run 47 (one H200): the build to commit. The direct 3-channel kernels of runs 45/46 are
# removed (conv1/conv5 on v3's TF32 GEMMs again); kept: v4's create checks the device once, the
# GEMMs' shared-memory opt-in once per kernel and device, v3's tap sum in v4's per-tap forward;
# host: one ModelCopies for extract and bench, TapPooling's single-tap rule in one member.
# Conformance of v3 and v4, 20 seeds each, bench of v3/v4 beside PyTorch, extraction, memcheck and
# racecheck on v4, the v4 pipeline.
# Predictions: every verdict passes; epochs as run 40 (v4 0.378 / 0.596 s); extraction
# 0.10-0.11 s; pipeline test accuracy 68.92% (the per-tap sum's order changed: a 0.1-point
# change would not surprise).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r47; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { tar -czf $OUT/r47.tgz -C $OUT r47; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for b in v4 v3; do
  ( timeout 100 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
for b in v4 v3; do
  timeout 100 $B/cae-conformance --backend $b --sweep 20 --jobs 8 > $R/sweep-$b.log 2>&1; t "sweep20 $b rc=$? $(tail -1 $R/sweep-$b.log)"
done
save
for b in 256 64; do
  timeout 100 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 --json $R/bench-$b.json > $R/bench-$b.log 2>&1
  t "bench b$b rc=$? $(grep -A3 'one epoch' $R/bench-$b.log | tail -2 | tr -s ' ' | tr '\n' '|') $(grep -A3 'feature extraction' $R/bench-$b.log | tail -2 | tr -s ' ' | tr '\n' '|')"; save
done
timeout 120 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
save
( timeout 150 $B/cae pipeline --backend v4 --data /tmp/cifar --out /tmp/pipe-v4 > $R/pipe-v4.log 2>&1; t "pipeline v4 rc=$? $(grep -iE 'accuracy|extract features' $R/pipe-v4.log | tr -s ' ' | tr '\n' ' ' | cut -c1-300)" ) &
OUT=$R/s BACKENDS="v4" TOOLS="memcheck racecheck" WORKLOADS="quick full" JOBS=4 TIMEOUT=150 timeout 170 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$? $(tail -6 $R/san.log | tr -s ' ' | tr '\n' '|')"
wait
save
