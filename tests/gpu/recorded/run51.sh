#!/bin/bash
# Device run 51 (one H200): run 50's v4 loss curve from seed 2 ended 2.6-3.2% above v2's
# (epochs 3-5). How far two FP32-accumulating backends drift apart with no BF16 at all: v3
# (TF32 operands) from seeds 1-3, 5 epochs, against run 50's v2 curves. Prediction: v3 within
# 1.5% of v2 on seeds 1 and 3 (sixth session), seed 2 unknown.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r51; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
losses() { grep -o 'train loss [0-9.e-]*' $1 | cut -d' ' -f3 | tr '\n' ' '; }
for s in 1 2 3; do
  timeout 60 $B/cae train --backend v3 --data /tmp/cifar --epochs 5 --seed $s --out /tmp/v3-$s.ckpt > $R/train-v3-$s.log 2>&1
  t "train v3 seed $s rc=$? $(losses $R/train-v3-$s.log)"
done
