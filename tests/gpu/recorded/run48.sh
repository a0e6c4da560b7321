#!/bin/bash
# Device run 48 (one H200): v4 runs conv1's forward and conv5's data gradient on its own BF16
# GEMMs over a zero-padded 8-channel copy of the narrow tensor (x of conv1, dy of conv5) and a
# padded weight form, instead of v3's TF32 GEMMs; conv1's backward, conv5's forward and conv5's
# weight gradient stay on v3's path. Conformance gains two small shapes of these kinds (every
# CUDA backend run), v4 20 seeds, bench v3/v4 beside PyTorch.
# Prediction (batch 64 / 256): conv1 forward 0.042 -> ~0.025 / 0.100 -> ~0.07 ms; conv5 backward
# 0.090 -> ~0.065 / 0.216 -> ~0.16 ms; epoch v4 0.595 -> ~0.56 s, 0.385 -> ~0.37 s.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r48; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { tar -czf $OUT/r48.tgz -C $OUT r48; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
for b in v4 v3 v2 naive v1 winograd; do
  ( timeout 150 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
grep -iE "fail|crash" $R/conf-v4.log | head -20 >> $R/summary.txt; save
timeout 150 $B/cae-conformance --backend v4 --sweep 20 --jobs 8 > $R/sweep-v4.log 2>&1; t "sweep20 v4 rc=$? $(tail -1 $R/sweep-v4.log)"; save
for b in 256 64; do
  timeout 100 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 --json $R/bench-$b.json > $R/bench-$b.log 2>&1
  t "bench b$b rc=$? $(grep -A3 'one epoch' $R/bench-$b.log | tail -2 | tr -s ' ' | tr '\n' '|')"; save
done
timeout 120 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
save
