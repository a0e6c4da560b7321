#!/bin/bash
# Device run 12 (one H200, issue 12 final figures with the shared-block SVM stage, and
# winograd's seed 140, the one seed run 9's cut-short sweep left unchecked; naive and v1
# under the four compute-sanitizer tools).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
timeout 60 $B/cae-conformance --backend winograd --seed 140 > $R/wino-140.log 2>&1; t "winograd seed 140 rc=$? $(tail -1 $R/wino-140.log)"
p() {  # name args
  timeout 200 python3 .devcarry/peakrss.py $B/cae pipeline --backend v3 --data /tmp/cifar --out /tmp/$1 "${@:2}" > $R/pipe-$1.log 2>&1
  t "$1 rc=$? $(grep -E 'validation accuracy|test accuracy|svm train|peakrss' $R/pipe-$1.log | tr '\n' ' ')"
}
p latent
p final --features pyramid-flip --augment flip --search --search-C 10 --search-gamma 0.5x
# issue 15: naive and v1 under the four tools on this build (their last full run predates ABI 1.2)
( OUT=$R/sn BACKENDS=naive JOBS=6 TIMEOUT=300 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 320 tests/gpu/run-sanitizers.sh .devbuild > $R/san-naive.log 2>&1; t "naive sanitizers rc=$?" ) &
( OUT=$R/sv BACKENDS=v1 JOBS=6 TIMEOUT=300 TRAIN_SAMPLES=16 TEST_SAMPLES=16 timeout 320 tests/gpu/run-sanitizers.sh .devbuild > $R/san-v1.log 2>&1; t "v1 sanitizers rc=$?" ) &
wait
cat $R/san-naive.log $R/san-v1.log >> $R/summary.txt
cp $R/summary.txt $OUT/
tar -czf $OUT/logs.tgz -C $R . 2>/dev/null
