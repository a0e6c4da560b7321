#!/bin/bash
# Device run 46 (one H200): run 45's direct kernels for the 3-channel layers measured slower than
# v3's TF32 path (conv1 forward 0.064 vs 0.041 ms at batch 64, conv1 backward 0.098 vs 0.034,
# conv5 backward 0.138 vs 0.086). Reworked: a tap's channels in one 16-byte shared load (no
# sliding window of register moves), two wide channels per thread in the widening kernel, the
# weight gradient's wide values loaded 16 at a time before use, and its block partials added in
# two parallel fixed-order stages. Prediction (batch 64): conv1 forward ~0.03 ms, conv1 backward
# ~0.035 ms, conv5 backward ~0.06 ms; the faster of v3's path and these stays, per op.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r46; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { tar -czf $OUT/r46.tgz -C $OUT r46; }
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
