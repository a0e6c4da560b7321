#!/bin/bash
# Device run 18 (one H200), same build as run 17: full pipelines (20 epochs, SVM, test accuracy)
# with v2, v3, winograd and v4 from seed 1 (issue 10: each within 0.5 point of v2), while every
# CUDA backend's conformance is swept over 30 seeds on the same GPU (the build after v3's sources
# became an object library shared with v4).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r18; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
( OUT=$R CTEST=0 SEEDS=30 JOBS=2 timeout 520 tests/gpu/run-matrix.sh .devbuild > $R/matrix.log 2>&1; t "matrix sweeps rc=$?" ) &
for be in v2 v3 winograd v4; do
  timeout 200 $B/cae pipeline --backend $be --data /tmp/cifar --out /tmp/pipe-$be > $R/pipe-$be.log 2>&1
  t "pipeline $be rc=$? $(grep -iE 'accuracy' $R/pipe-$be.log | tr '\n' ' ' | cut -c1-200)"
done
wait
cp $R/summary.txt $R/matrix.log $R/pipe-*.log $OUT/ 2>/dev/null
tar -czf $OUT/logs.tgz -C $R . 2>/dev/null
