#!/bin/bash
# Device run 64 (one H200): v3's own TF32 kernels for the 3-channel layers' products, the
# short-K product (conv1 forward, conv5 data gradient; run 63) and now the narrow weight
# gradient (conv1's and conv5's dW) and the narrow-output product (conv5's forward taps), in
# v3 and v4. Checks: conformance of every CUDA backend
# (small 64-channel shapes, 512 outputs from 1 channel, 257 images of 64 channels), 20 seeds
# of v3 and v4, training twice (identical checkpoints), compute-sanitizer's four tools on v4
# and v3 over quick, full and train; times with each kernel switched off in turn, interleaved;
# the v4 pipeline (seed 1). Prediction: b64 encoder.conv1 backward 0.034 -> ~0.022 ms,
# decoder.conv3 backward 0.077 -> ~0.06 ms, decoder.conv3 forward 0.046 -> ~0.028 ms; epoch
# v4 b64 0.494 -> ~0.46 s, b256 0.355 -> ~0.345 s; 0 findings; test accuracy within 0.5
# points of 68.50%.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r64; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r64.tgz r64); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for b in v4 v3 v2 v1 naive winograd; do
  ( timeout 150 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
grep -E "w\[64,3|64,7,9|512|257,64" $R/conf-v4.log | head -20 >> $R/summary.txt
for b in v4 v3; do
  timeout 120 $B/cae-conformance --backend $b --sweep 20 --jobs 8 > $R/sweep-$b.log 2>&1; t "sweep20 $b rc=$? $(tail -1 $R/sweep-$b.log)"
  grep -iE "^.*(fail|crash).*seed" $R/sweep-$b.log | head -5 >> $R/summary.txt
done
save
ops() { grep -E "encoder.conv1 |decoder.conv3 " $1 | grep conv2d | awk '{print $1, $2, $(NF-2)}' | tr '\n' ';'; }
n=0
bench() {  # backend batch label env...
  local b=$1 batch=$2 label=$3; shift 3
  n=$((n+1)); local f=$R/bench-$b-$batch-$label-$n.log
  env "$@" timeout 60 $B/cae bench --backend $b --batch $batch --images 50000 --repeats 5 --extract-images 0 > $f 2>&1
  t "bench $b b$batch $label rc=$? $(grep 'epoch (' $f) | $(ops $f)"
}
OFF="CAE_V3_SHORT_K=0 CAE_V3_NARROW_GRADIENT=0 CAE_V3_NARROW_OUTPUT=0"
for round in 1 2; do
  bench v4 64 all-own X=1
  bench v4 64 no-narrow-output CAE_V3_NARROW_OUTPUT=0
  bench v4 64 no-narrow-gradient CAE_V3_NARROW_GRADIENT=0
  bench v4 64 cublaslt $OFF
done
for round in 1 2; do
  bench v4 256 all-own X=1
  bench v4 256 cublaslt $OFF
done
bench v3 64 all-own X=1
bench v3 64 cublaslt $OFF
losses() { grep -o 'train loss [0-9.e-]*' $1 | cut -d' ' -f3 | tr '\n' ' '; }
for run in a b; do
  timeout 60 $B/cae train --backend v4 --data /tmp/cifar --epochs 3 --seed 7 --out /tmp/d-$run.ckpt > $R/det-$run.log 2>&1
  t "train v4 seed 7 run $run rc=$? $(losses $R/det-$run.log)"
done
cmp /tmp/d-a.ckpt /tmp/d-b.ckpt; t "checkpoints identical rc=$?"
save
( timeout 300 $B/cae pipeline --backend v4 --data /tmp/cifar --seed 1 --out /tmp/pipe-v4 > $R/pipe-v4.log 2>&1; t "pipeline v4 seed 1 rc=$? $(grep -iE 'accuracy' $R/pipe-v4.log | tr -s ' ' | tr '\n' ' ' | cut -c1-300)" ) &
OUT=$R/s BACKENDS="v4 v3" TOOLS="memcheck racecheck initcheck synccheck" WORKLOADS="quick full train" JOBS=8 TIMEOUT=260 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 280 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$? $(tail -26 $R/san.log | tr -s ' ' | tr '\n' '|')"
save
wait
save
