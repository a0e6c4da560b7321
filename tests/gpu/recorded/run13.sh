#!/bin/bash
# Device run 13 (one H200): issue 12 final pipelines again, the SVM model now written while
# the test set is predicted.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
p() {  # name args
  timeout 200 python3 .devcarry/peakrss.py $B/cae pipeline --backend v3 --data /tmp/cifar --out /tmp/$1 "${@:2}" > $R/pipe-$1.log 2>&1
  t "$1 rc=$? $(grep -E 'validation accuracy|test accuracy|svm train|peakrss' $R/pipe-$1.log | tr '\n' ' ')"
}
p latent
p final --features pyramid-flip --augment flip --search --search-C 10 --search-gamma 0.5x
cp $R/summary.txt $OUT/
tar -czf $OUT/logs.tgz -C $R . 2>/dev/null
