#!/bin/bash
# Device run 52 (one H200): three more seeds for runs 50/51's loss-curve comparison: v2, v3 and
# v4 from seeds 4-6, 5 epochs each, to see whether v4's spread around v2 (seed 2: up to +3.2%)
# is larger than v3's in general. Prediction: v4's largest deviation over seeds 4-6 is 2-3%,
# v3's about 1.5%.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r52; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
losses() { grep -o 'train loss [0-9.e-]*' $1 | cut -d' ' -f3 | tr '\n' ' '; }
for s in 4 5 6; do for be in v2 v3 v4; do
  timeout 60 $B/cae train --backend $be --data /tmp/cifar --epochs 5 --seed $s --out /tmp/$be-$s.ckpt > $R/train-$be-$s.log 2>&1
  t "train $be seed $s rc=$? $(losses $R/train-$be-$s.log)"
done; done
