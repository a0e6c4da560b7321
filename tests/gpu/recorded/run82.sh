#!/bin/bash
# Device run 82 (one H200): the review mend of the precision switches (v4's stacked x copy goes to
# scratch instead of the column cache, an infinite high half leaves a 0 low term, dy's
# channel-stacked copy only when dx is wanted; v3's FP32 routing through the existing short-K
# test; conformance entries pin the switches). Plugins to compare: .devcarry/v4-before.so and
# v3-before.so (1fc990e), v4-1ab4bda.so and v3-1ab4bda.so (the switches before the mend).
# Prediction: every check passes; default checkpoints identical to 1fc990e's, precise-setting
# checkpoints identical to 1ab4bda's (no finite value moved); 0 sanitizer findings.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r82; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r82.tgz r82); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
root=$PWD build=$PWD/.devbuild; source tests/gpu/use-build.sh
B=$PWD/.devbuild/bin P=$PWD/.devbuild/lib/cae/plugins C=$PWD/.devcarry
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader > $R/gpu.txt
PRECISE="CAE_V3_BF16_TERMS=3 CAE_V3_FP32_CONV=1"
conf() { ( env $2 timeout 200 $B/cae-conformance --backend $1 > $R/conf-$3.log 2>&1; t "conformance $3 rc=$? $(tail -1 $R/conf-$3.log)" ) & }
conf v4 "" v4; conf v4 "$PRECISE" v4-precise; conf v4 "CAE_V3_BF16_TERMS=2" v4-t2; conf v3 "" v3; conf v3 "CAE_V3_FP32_CONV=1" v3-fp32
wait
timeout 200 tests/run-tests.sh .devbuild -R 'conformance\.v4' > $R/ctest.log 2>&1; t "ctest conformance.v4* rc=$? $(tail -1 $R/ctest.log)"
same() {  # same NAME ENV SO_BEFORE SO_AFTER
  for which in before after; do
    so=$3; [ $which = after ] && so=$4
    env $2 timeout 90 $B/cae train --backend $so --data /tmp/cifar --samples 12800 --epochs 2 --seed 7 --out /tmp/$1-$which.ckpt > $R/det-$1-$which.log 2>&1
  done
  cmp /tmp/$1-before.ckpt /tmp/$1-after.ckpt; t "$1 checkpoints identical rc=$? $(grep -o 'train loss [0-9.]*' $R/det-$1-after.log | tail -1)"
}
same v4-default "" $C/v4-before.so $P/libcae-backend-v4.so
same v3-default "" $C/v3-before.so $P/libcae-backend-v3.so
same v4-precise "$PRECISE" $C/v4-1ab4bda.so $P/libcae-backend-v4.so
same v4-t2 "CAE_V3_BF16_TERMS=2" $C/v4-1ab4bda.so $P/libcae-backend-v4.so
same v3-fp32 "CAE_V3_FP32_CONV=1" $C/v3-1ab4bda.so $P/libcae-backend-v3.so
save
for batch in 64 256; do
  env $PRECISE timeout 60 $B/cae bench --backend v4 --batch $batch --images 50000 --repeats 3 --extract-images 0 > $R/bench-precise-$batch.log 2>&1
  t "bench precise b$batch rc=$? $(grep 'epoch (' $R/bench-precise-$batch.log)"
done
save
env $PRECISE timeout 200 $B/cae-conformance --backend v4 --sweep 30 --jobs 12 > $R/sweep-precise.log 2>&1; t "sweep30 precise rc=$? $(tail -1 $R/sweep-precise.log)"
grep -iE "(fail|crash).*seed" $R/sweep-precise.log | head -5 >> $R/summary.txt
save
env $PRECISE OUT=$R/s BACKENDS="v4" TOOLS="memcheck racecheck initcheck synccheck" WORKLOADS="quick full train" JOBS=12 TIMEOUT=180 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 200 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers (precise) rc=$? $(tail -14 $R/san.log | tr -s ' ' | tr '\n' '|')"
save
