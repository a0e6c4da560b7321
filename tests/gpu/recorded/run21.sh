#!/bin/bash
# Device run 21 (one H200), same build as run 20: compute-sanitizer on v4 (and v3, whose
# convolutions moved into the runtime), v3 conformance, v4 5-epoch loss curve and pipeline.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r21; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
timeout 60 $B/cae-conformance --backend v3 > $R/conf-v3.log 2>&1; t "conformance v3 rc=$? $(tail -1 $R/conf-v3.log)"
( OUT=$R/s BACKENDS="v4 v3" JOBS=8 TIMEOUT=200 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 230 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$?" )
wait
timeout 60 $B/cae train --backend v4 --data /tmp/cifar --epochs 5 --seed 1 --out /tmp/v4.ckpt > $R/train-v4.log 2>&1; t "train v4 seed 1 rc=$? $(grep -io 'loss [0-9.]*' $R/train-v4.log | tr '\n' ' ')"
timeout 120 $B/cae pipeline --backend v4 --data /tmp/cifar --out /tmp/pipe-v4 > $R/pipe-v4.log 2>&1; t "pipeline v4 rc=$? $(grep -iE 'accuracy' $R/pipe-v4.log | tr '\n' ' ' | cut -c1-200)"
cp $R/summary.txt $R/san.log $R/conf-v3.log $R/pipe-v4.log $OUT/ 2>/dev/null
