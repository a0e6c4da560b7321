#!/bin/bash
# Device run 66 (one H200), the build with v3's short-K and narrow-output TF32 products (the narrow
# weight gradient removed after run 64). Checks: conformance of every CUDA backend; 60 seeds of v4
# and v3; epochs with the two kernels on, the narrow-output one off, and both off, interleaved,
# then v3,v4 beside torch.compile bf16 in one call; compute-sanitizer's four tools on v4 and v3
# over quick, full and train, beside the v4 pipeline from seeds 1, 2, 3. Prediction: all pass;
# b64 0.50 s (cuBLASLt 0.52), b256 0.350 s (0.355); 0 findings; test 68.5-69.3%.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r66; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r66.tgz r66); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for b in v4 v3 v2 v1 naive winograd; do
  ( timeout 150 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
for b in v4 v3; do
  ( timeout 200 $B/cae-conformance --backend $b --sweep 60 --jobs 8 > $R/sweep-$b.log 2>&1; t "sweep60 $b rc=$? $(tail -1 $R/sweep-$b.log)"
    grep -iE "^.*(fail|crash).*seed" $R/sweep-$b.log | head -5 >> $R/summary.txt ) &
done
wait
save
ops() { grep -E "encoder.conv1 |decoder.conv3 " $1 | grep conv2d | awk '{print $1, $2, $(NF-2)}' | tr '\n' ';'; }
n=0
bench() {  # backend batch label env...
  local b=$1 batch=$2 label=$3; shift 3
  n=$((n+1)); local f=$R/bench-$b-$batch-$label-$n.log
  env "$@" timeout 60 $B/cae bench --backend $b --batch $batch --images 50000 --repeats 5 --extract-images 0 > $f 2>&1
  t "bench $b b$batch $label rc=$? $(grep 'epoch (' $f) | $(ops $f)"
}
OFF="CAE_V3_SHORT_K=0 CAE_V3_NARROW_OUTPUT=0"
for round in 1 2; do
  for batch in 64 256; do
    bench v4 $batch own X=1
    bench v4 $batch no-narrow-output CAE_V3_NARROW_OUTPUT=0
    bench v4 $batch cublaslt $OFF
  done
done
for batch in 256 64; do
  timeout 90 $B/cae bench --backend v3,v4 --batch $batch --images 50000 --repeats 5 > $R/bench-both-$batch.log 2>&1
  t "bench v3,v4 b$batch rc=$? $(grep -A3 '^  backend' $R/bench-both-$batch.log | tail -2 | tr -s ' ' | tr '\n' '|')"
done
timeout 120 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
save
for seed in 1 2 3; do
  ( timeout 300 $B/cae pipeline --backend v4 --data /tmp/cifar --seed $seed --out /tmp/pipe-v4-$seed > $R/pipe-v4-$seed.log 2>&1; t "pipeline v4 seed $seed rc=$? $(grep -iE 'accuracy' $R/pipe-v4-$seed.log | tr -s ' ' | tr '\n' ' ' | cut -c1-200)" ) &
done
OUT=$R/s BACKENDS="v4 v3" TOOLS="memcheck racecheck initcheck synccheck" WORKLOADS="quick full train" JOBS=8 TIMEOUT=220 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 240 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$? $(tail -26 $R/san.log | tr -s ' ' | tr '\n' '|')"
save
wait
save
