#!/bin/bash
# Device run 34 (one H200): extraction on several contexts of one device, each on its own
# thread, so that one context's copies overlap another's compute (auto: 2 for backends with
# page-locked memory). Prediction: v4 extraction 0.141 s (1 context, run 33) -> ~0.10 s with 2
# (max(GPU ~0.09 s, copies ~0.05 s) plus the encoders sharing the GPU); 3 no better.
# Bench at 1, 2, 3 contexts beside PyTorch in one call; the full pipeline on v4 (its
# extraction now on 2 contexts) for the accuracy.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r34; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for n in 1 2 3 0; do
  timeout 150 $B/cae bench --backend v3,v4 --batch 256 --images 50000 --repeats 5 --extract-streams $n --json $R/bench-256-s$n.json > $R/bench-256-s$n.log 2>&1
  t "bench b256 extract-streams $n rc=$? $(grep -A3 'one epoch' $R/bench-256-s$n.log | tail -2 | tr -s ' ' | tr '\n' '|')"
done
timeout 150 $B/cae bench --backend v3,v4 --batch 64 --images 50000 --repeats 5 --json $R/bench-64.json > $R/bench-64.log 2>&1
t "bench b64 rc=$? $(grep -A3 'one epoch' $R/bench-64.log | tail -2 | tr -s ' ' | tr '\n' '|')"
timeout 200 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
wait
timeout 200 $B/cae pipeline --backend v4 --data /tmp/cifar --out /tmp/pipe-v4 > $R/pipe-v4.log 2>&1; t "pipeline v4 rc=$? $(grep -iE 'accuracy' $R/pipe-v4.log | tr '\n' ' ' | cut -c1-240)"
grep -iE "extract|features|encod" $R/pipe-v4.log | tail -6 >> $R/summary.txt
cp $R/summary.txt $R/bench-* $R/torch.log $R/pipe-v4.log $OUT/ 2>/dev/null
