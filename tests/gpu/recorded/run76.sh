#!/bin/bash
# Device run 76 (one H200): the precision switches CAE_V3_BF16_TERMS (v4's GEMM operands as 1-3
# BF16 terms stacked along K) and CAE_V3_FP32_CONV (v3's convolution GEMMs in FP32), against the
# previous build's plugins (.devcarry/v4-before.so, v3-before.so, built from 1fc990e).
# PART=1: conformance at each setting; byte-identical checkpoints with the defaults (the default
# path must not move); 5-epoch loss curves, seeds 1-6, of v2, v4 (1, 2, 3 terms; 3 terms with
# FP32 RGB layers) and v3 with FP32 convolutions; epochs at batch 64/256 per setting.
# PART=2: 30 seeds of v4 at 2 and 3 terms; compute-sanitizer's four tools on v4 at 3 terms.
# Prediction: all pass, identical checkpoints; 3 terms + FP32 RGB layers within the FP32 band
# (1.3%) on every seed, 3 terms within 2%, 2 terms between; epoch at batch 64 about 0.60 s
# (2 terms) and 0.75 s (3 terms).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r76; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r76-${PART:-1}.tgz r76); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
P=$PWD/.devbuild/lib/cae/plugins
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader > $R/gpu-${PART:-1}.txt
# setting name -> "backend env..."
declare -A SET=(
  [v2]="v2" [v4]="v4" [v4t2]="v4 CAE_V3_BF16_TERMS=2" [v4t3]="v4 CAE_V3_BF16_TERMS=3"
  [v4t3f]="v4 CAE_V3_BF16_TERMS=3 CAE_V3_FP32_CONV=1" [v3f]="v3 CAE_V3_FP32_CONV=1" [v3]="v3")
run_set() {  # run_set NAME command args... (the setting's backend replaces @B)
  local spec=(${SET[$1]}); shift
  local b=${spec[0]}; local envs=("${spec[@]:1}")
  env "${envs[@]}" "${@//@B/$b}"
}
losses() { grep -o 'train loss [0-9.e-]*' $1 | cut -d' ' -f3 | tr '\n' ' '; }
if [ "${PART:-1}" = 1 ]; then
  for s in v4 v4t2 v4t3 v4t3f v3 v3f; do
    ( run_set $s timeout 200 $B/cae-conformance --backend @B > $R/conf-$s.log 2>&1; t "conformance $s rc=$? $(tail -1 $R/conf-$s.log)" ) &
  done
  wait
  for b in v4 v3; do
    for which in before after; do
      so=$PWD/.devcarry/$b-before.so; [ $which = after ] && so=$P/libcae-backend-$b.so
      timeout 60 $B/cae train --backend $so --data /tmp/cifar --samples 12800 --epochs 2 --seed 7 --out /tmp/$b-$which.ckpt > $R/det-$b-$which.log 2>&1
    done
    cmp /tmp/$b-before.ckpt /tmp/$b-after.ckpt; t "$b default checkpoints identical before/after rc=$?"
  done
  save
  for pair in "v2 v4" "v4t2 v4t3" "v4t3f v3f"; do
    for s in $pair; do
      for seed in 1 2 3 4 5 6; do
        ( run_set $s timeout 200 $B/cae train --backend @B --data /tmp/cifar --epochs 5 --seed $seed --out /tmp/c-$s-$seed.ckpt > $R/train-$s-$seed.log 2>&1; t "loss $s seed $seed rc=$? $(losses $R/train-$s-$seed.log)" ) &
      done
    done
    wait
    save
  done
  for batch in 64 256; do
    for s in v4 v4t2 v4t3 v4t3f; do
      run_set $s timeout 60 $B/cae bench --backend @B --batch $batch --images 50000 --repeats 3 --extract-images 0 > $R/bench-$s-$batch.log 2>&1
      t "bench $s b$batch rc=$? $(grep 'epoch (' $R/bench-$s-$batch.log)"
    done
  done
  save
else
  for s in v4t2 v4t3; do
    run_set $s timeout 200 $B/cae-conformance --backend @B --sweep 30 --jobs 12 > $R/sweep-$s.log 2>&1; t "sweep30 $s rc=$? $(tail -1 $R/sweep-$s.log)"
    grep -iE "(fail|crash).*seed" $R/sweep-$s.log | head -5 >> $R/summary.txt
    save
  done
  CAE_V3_BF16_TERMS=3 OUT=$R/s BACKENDS="v4" TOOLS="memcheck racecheck initcheck synccheck" WORKLOADS="quick full train" JOBS=12 TIMEOUT=180 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 200 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers (3 terms) rc=$? $(tail -14 $R/san.log | tr -s ' ' | tr '\n' '|')"
  save
fi
