#!/bin/bash
# Device run 32 (one H200): v4 with weight-gradient splits that keep the grid within one wave
# (run 31: 270 blocks for 264 places). Prediction: conv2/conv4 backward 0.305 -> ~0.26 ms,
# epoch at batch 256 0.400 -> ~0.385 s. Conformance first (stops if it fails), bench beside v3
# and PyTorch (same call), 40 seeds, compute-sanitizer on v4, loss curves, pipeline, SASS.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r32; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
timeout 60 $B/cae-conformance --backend v4 > $R/conf.log 2>&1; rc=$?; t "conformance v4 rc=$rc $(tail -1 $R/conf.log)"
if [ $rc != 0 ]; then grep FAIL -A1 $R/conf.log | head -20 >> $R/summary.txt; cp $R/* $OUT/; exit 1; fi
for b in 256 64; do
  timeout 120 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 --json $R/bench-$b.json > $R/bench-$b.log 2>&1; t "bench b$b rc=$? $(grep -A3 'one epoch' $R/bench-$b.log | tail -2 | tr -s ' ' | tr '\n' '|')"
done
timeout 200 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
timeout 150 $B/cae-conformance --backend v4 --sweep 40 --jobs 8 > $R/sweep.log 2>&1; t "sweep rc=$? $(tail -1 $R/sweep.log)"
wait
( OUT=$R/s BACKENDS="v4" JOBS=6 TIMEOUT=200 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 230 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$?" ) &
for s in 1 3; do
  timeout 60 $B/cae train --backend v4 --data /tmp/cifar --epochs 5 --seed $s --out /tmp/v4-$s.ckpt > $R/train-v4-$s.log 2>&1
  t "train v4 seed $s rc=$? $(grep -o 'train loss [0-9.]*' $R/train-v4-$s.log | cut -d' ' -f3 | tr '\n' ' ')"
done
timeout 150 $B/cae pipeline --backend v4 --data /tmp/cifar --out /tmp/pipe-v4 > $R/pipe-v4.log 2>&1; t "pipeline v4 rc=$? $(grep -iE 'accuracy' $R/pipe-v4.log | tr '\n' ' ' | cut -c1-240)"
wait
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CUOBJ --dump-sass .devbuild/lib/cae/plugins/libcae-backend-v4.so > $R/v4.sass 2>&1
t "sass: $(grep -o 'HGMMA\.[A-Z0-9x.]*' $R/v4.sass | sort | uniq -c | tr -s ' ' | tr '\n' ';') HMMA=$(grep -c ' HMMA' $R/v4.sass) LDL=$(grep -c 'LDL' $R/v4.sass) UTMALDG=$(grep -c 'UTMALDG' $R/v4.sass)"
rm -f $R/v4.sass
cp $R/summary.txt $R/san.log $R/bench-* $R/torch.log $R/sweep.log $R/pipe-v4.log $OUT/ 2>/dev/null
