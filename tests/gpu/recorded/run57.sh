#!/bin/bash
# Device run 57 (one H200): run 56's fusion undone (v4 converts dy alone again and sums its
# columns after the weight gradient, beside the side stream's data gradient); column sums on
# 1024-thread blocks where they read float4s. Checks: conformance v3/v4, 20 seeds v3, 100 seeds
# v4, training twice from one seed and once with CAE_V3_PDL=0 (identical checkpoints); epochs
# with PDL on/off; v3,v4 bench and torch in the same call; ncu durations of a batch-64 step.
# Prediction: all pass; a batch-64 step's column sums 41 -> ~25 us; batch-64 epoch ~0.51 s
# (run 55: 0.515-0.518); batch 256 ~0.35 s.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r57; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r57.tgz r57); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for b in v4 v3; do
  ( timeout 100 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
timeout 100 $B/cae-conformance --backend v3 --sweep 20 --jobs 8 > $R/sweep-v3.log 2>&1; t "sweep20 v3 rc=$? $(tail -1 $R/sweep-v3.log)"
timeout 200 $B/cae-conformance --backend v4 --sweep 100 --jobs 8 > $R/sweep-v4.log 2>&1; t "sweep100 v4 rc=$? $(tail -1 $R/sweep-v4.log)"
grep -i "fail\|crash" $R/sweep-v4.log | head -5 >> $R/summary.txt
save
losses() { grep -o 'train loss [0-9.e-]*' $1 | cut -d' ' -f3 | tr '\n' ' '; }
for run in a b c; do
  pdl=1; [ $run = c ] && pdl=0
  CAE_V3_PDL=$pdl timeout 60 $B/cae train --backend v4 --data /tmp/cifar --epochs 3 --seed 7 --out /tmp/d-$run.ckpt > $R/det-$run.log 2>&1
  t "train v4 seed 7 run $run pdl=$pdl rc=$? $(losses $R/det-$run.log)"
done
cmp /tmp/d-a.ckpt /tmp/d-b.ckpt && cmp /tmp/d-a.ckpt /tmp/d-c.ckpt; t "checkpoints identical rc=$?"
for batch in 64 256; do
  for pdl in 1 0 1 0; do
    CAE_V3_PDL=$pdl timeout 60 $B/cae bench --backend v4 --batch $batch --images 50000 --repeats 5 --extract-images 0 > $R/bench-$batch-p$pdl.log 2>&1
    t "bench v4 b$batch pdl=$pdl rc=$? $(grep 'epoch (' $R/bench-$batch-p$pdl.log)"
  done
done
save
for batch in 256 64; do
  timeout 90 $B/cae bench --backend v3,v4 --batch $batch --images 50000 --repeats 5 --json $R/bench-$batch.json > $R/bench-$batch.log 2>&1
  t "bench v3,v4 b$batch rc=$? $(grep -A3 '^  backend' $R/bench-$batch.log | tail -2 | tr -s ' ' | tr '\n' '|')"
done
timeout 120 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
save
timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
  --launch-skip 2000 --launch-count 400 $B/cae train --backend v4 --data /tmp/cifar --samples 12800 \
  --epochs 1 --batch 64 --out /tmp/n.ckpt > $R/ncu.csv 2> $R/ncu.err; t "ncu rc=$? $(wc -l < $R/ncu.csv) lines"
save
