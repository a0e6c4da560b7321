#!/bin/bash
# Device run 14 (one H200): the epoch time of a denoising run after the input noise moved to
# per-image streams on several threads (run 8: 7.5 s per epoch against 0.7 s without noise).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
timeout 60 $B/cae train --backend v3 --data /tmp/cifar --augment flip --epochs 3 --out /tmp/plain.st > $R/plain.log 2>&1; t "plain rc=$? $(grep -E '^epoch [0-9]+/' $R/plain.log | tr '\n' ' ')"
timeout 90 $B/cae train --backend v3 --data /tmp/cifar --augment flip --input-noise 0.1 --epochs 3 --out /tmp/noise.st > $R/noise.log 2>&1; t "noise rc=$? $(grep -E '^epoch [0-9]+/' $R/noise.log | tr '\n' ' ')"
cp $R/summary.txt $OUT/
