#!/bin/bash
# Device run 77 (one H200): which precision setting brings v4's 5-epoch loss curve within 2% of
# v2's, on 12 seeds. Run 76 found 3 BF16 terms with FP32 RGB layers (v4t3f) within 1.5% on seeds
# 1-6 and 3 terms alone not (3.9% on seed 2). Here: v4 with only the RGB layers in FP32 (v4f) and
# with 2 terms and FP32 RGB layers (v4t2f), seeds 1-12; v2, v4 and v4t3f on seeds 7-12; epochs at
# batch 64/256 of v4f, v4t2f, v3 and v3f.
# Prediction: v4f stays out of the band on some seed (BF16's rounding remains), v4t2f within 2%
# on 11 of 12 seeds, v4t3f on all 12; epochs at batch 64: v4f 0.53 s, v4t2f 0.66 s, v3f 1.0 s.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r77; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r77-${PART:-1}.tgz r77); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
P=$PWD/.devbuild/lib/cae/plugins
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader > $R/gpu-${PART:-1}.txt
# setting name -> "backend env..."
declare -A SET=(
  [v2]="v2" [v4]="v4" [v4t2]="v4 CAE_V3_BF16_TERMS=2" [v4t3]="v4 CAE_V3_BF16_TERMS=3"
  [v4t3f]="v4 CAE_V3_BF16_TERMS=3 CAE_V3_FP32_CONV=1" [v3f]="v3 CAE_V3_FP32_CONV=1" [v3]="v3"
  [v4f]="v4 CAE_V3_FP32_CONV=1" [v4t2f]="v4 CAE_V3_BF16_TERMS=2 CAE_V3_FP32_CONV=1")
run_set() {  # run_set NAME command args... (the setting's backend replaces @B)
  local spec=(${SET[$1]}); shift
  local b=${spec[0]}; local envs=("${spec[@]:1}")
  env "${envs[@]}" "${@//@B/$b}"
}
losses() { grep -o 'train loss [0-9.e-]*' $1 | cut -d' ' -f3 | tr '\n' ' '; }
wave() {  # wave "SETTING:SEEDS" ...
  for item in "$@"; do
    s=${item%%:*}
    for seed in ${item#*:}; do
      ( run_set $s timeout 200 $B/cae train --backend @B --data /tmp/cifar --epochs 5 --seed $seed --out /tmp/c-$s-$seed.ckpt > $R/train-$s-$seed.log 2>&1; t "loss $s seed $seed rc=$? $(losses $R/train-$s-$seed.log)" ) &
    done
  done
  wait
  save
}
wave "v4f:1 2 3 4 5 6" "v4t2f:1 2 3 4 5 6"
wave "v2:7 8 9 10 11 12" "v4t3f:7 8 9 10 11 12"
wave "v4f:7 8 9 10 11 12" "v4t2f:7 8 9 10 11 12"
wave "v4:7 8 9 10 11 12"
for batch in 64 256; do
  for s in v4f v4t2f v3 v3f; do
    run_set $s timeout 60 $B/cae bench --backend @B --batch $batch --images 50000 --repeats 3 --extract-images 0 > $R/bench-$s-$batch.log 2>&1
    t "bench $s b$batch rc=$? $(grep 'epoch (' $R/bench-$s-$batch.log)"
  done
done
save
