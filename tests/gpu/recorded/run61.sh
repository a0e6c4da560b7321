#!/bin/bash
# Device run 61 (one H200), the committed build c4752d9: v4's 5-epoch loss curves from seeds 1-6,
# against v2's of runs 50 and 52 (v2 unchanged since). Prediction: largest deviations as runs
# 50/52 (0.6-3.2%), since only the bias gradient's summation order changed.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r61; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
losses() { grep -o 'train loss [0-9.e-]*' $1 | cut -d' ' -f3 | tr '\n' ' '; }
for group in "1 2 3" "4 5 6"; do
  for s in $group; do
    ( timeout 200 $B/cae train --backend v4 --data /tmp/cifar --epochs 5 --seed $s --out /tmp/c$s.ckpt > $R/train-$s.log 2>&1; t "v4 seed $s rc=$? $(losses $R/train-$s.log)" ) &
  done
  wait
done
