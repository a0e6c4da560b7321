#!/bin/bash
# Device run 59 (one H200), the committed build 337cd6f: the epochs with PDL on and off
# interleaved, v3,v4 bench and torch.compile in the same call; conformance v3/v4 and 20 seeds of
# v4; the v4 pipeline from seeds 2 and 3 (run 58 gave seed 1), for the spread of a change of
# rounding. Prediction: epochs as run 55 (b64 0.515-0.518 s, b256 0.354 s); pipelines within
# 0.5 point of v3's 69.38 / 69.20% on those seeds.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r59; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r59.tgz r59); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for b in v4 v3; do
  ( timeout 100 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
timeout 100 $B/cae-conformance --backend v4 --sweep 20 --jobs 8 > $R/sweep-v4.log 2>&1; t "sweep20 v4 rc=$? $(tail -1 $R/sweep-v4.log)"
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
for seed in 2 3; do
  ( timeout 200 $B/cae pipeline --backend v4 --data /tmp/cifar --seed $seed --out /tmp/pipe-v4-$seed > $R/pipe-v4-$seed.log 2>&1; t "pipeline v4 seed $seed rc=$? $(grep -iE 'accuracy' $R/pipe-v4-$seed.log | tr -s ' ' | tr '\n' ' ' | cut -c1-200)" ) &
done
wait
save
