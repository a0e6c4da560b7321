#!/bin/bash
# Device run 53 (one H200): the review's mend: the side stream and its events are made at a
# context's first fork, so v3's contexts hold none. v4 conformance and 20 seeds, training twice
# from one seed and once on one stream (identical checkpoints), memcheck on v4 (quick), the
# batch-64 epoch with and without the side stream. Prediction: all pass; epochs as run 49.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r53; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for b in v4 v3; do
  ( timeout 100 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
timeout 100 $B/cae-conformance --backend v4 --sweep 20 --jobs 8 > $R/sweep-v4.log 2>&1; t "sweep20 v4 rc=$? $(tail -1 $R/sweep-v4.log)"
losses() { grep -o 'train loss [0-9.e-]*' $1 | cut -d' ' -f3 | tr '\n' ' '; }
for run in a b c; do
  side=1; [ $run = c ] && side=0
  CAE_V3_SIDE_STREAM=$side timeout 60 $B/cae train --backend v4 --data /tmp/cifar --epochs 3 --seed 7 --out /tmp/d-$run.ckpt > $R/det-$run.log 2>&1
  t "train v4 seed 7 run $run side=$side rc=$? $(losses $R/det-$run.log)"
done
cmp /tmp/d-a.ckpt /tmp/d-b.ckpt && cmp /tmp/d-a.ckpt /tmp/d-c.ckpt; t "checkpoints identical rc=$?"
for side in 1 0; do
  CAE_V3_SIDE_STREAM=$side timeout 60 $B/cae bench --backend v4 --batch 64 --images 50000 --repeats 5 --extract-images 0 > $R/bench-s$side.log 2>&1
  t "bench b64 side=$side rc=$? $(grep 'epoch (' $R/bench-s$side.log)"
done
OUT=$R/s BACKENDS="v4 v3" TOOLS="memcheck" WORKLOADS="quick" JOBS=2 TIMEOUT=120 timeout 140 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$? $(tail -5 $R/san.log | tr -s ' ' | tr '\n' '|')"
