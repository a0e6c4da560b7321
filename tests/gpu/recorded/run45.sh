#!/bin/bash
# Device run 45 (one H200): v4's 3-channel layers (conv1 forward and backward, conv5 backward) on
# direct FP32 kernels (plugins/v4/v4_narrow_conv.cu) instead of v3's TF32 im2col GEMMs; v4 creates
# check the device once (no per-launch capability query); shared-memory opt-in once per kernel
# and device; v3's tap sum for v4's per-tap forward. Conformance, 20 seeds, per-op and epoch
# bench of v3 and v4 beside torch.compile.
# Predictions (batch 256 / 64): conv1 forward 0.103 -> ~0.075 / 0.044 -> ~0.02 ms; conv5
# backward 0.239 -> ~0.16 / 0.090 -> ~0.045 ms; epoch v4 0.378 -> ~0.34 s, 0.596 -> ~0.53 s.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r45; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { tar -czf $OUT/r45.tgz -C $OUT r45; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
timeout 150 $B/cae-conformance --backend v4 > $R/conf-v4.log 2>&1; t "conformance v4 rc=$? $(tail -1 $R/conf-v4.log)"
grep -iE "fail|crash" $R/conf-v4.log | head -20 >> $R/summary.txt; save
timeout 150 $B/cae-conformance --backend v4 --sweep 20 --jobs 8 > $R/sweep-v4.log 2>&1; t "sweep20 v4 rc=$? $(tail -1 $R/sweep-v4.log)"; save
for b in 256 64; do
  timeout 150 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 --json $R/bench-$b.json > $R/bench-$b.log 2>&1
  t "bench b$b rc=$? $(grep -A3 'one epoch' $R/bench-$b.log | tail -2 | tr -s ' ' | tr '\n' '|')"; save
done
timeout 150 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
save
