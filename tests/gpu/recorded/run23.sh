#!/bin/bash
# Device run 23 (one H200), the run-22 build: where the time of a batch-64 step goes (sum of
# per-op device times vs the epoch's wall time, to size the CUDA-graph extension), and loss
# curves that separate BF16 rounding from training noise (v3 and v2/v4 on more seeds).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r23; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
t "nsys: $(command -v nsys || ls /usr/local/cuda/bin /opt/nvidia 2>/dev/null | grep -i nsys | head -2)"
for b in 64 256; do
  timeout 120 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 --json $R/bench-$b.json > $R/bench-$b.log 2>&1; t "bench b$b rc=$?"
done
wait
for s in 1 3; do for be in v3 v2 v4; do
  [ $s = 1 ] && [ $be != v3 ] && continue
  timeout 100 $B/cae train --backend $be --data /tmp/cifar --epochs 5 --seed $s --out /tmp/$be-$s.ckpt > $R/train-$be-$s.log 2>&1
  t "train $be seed $s rc=$? $(grep -o 'train loss [0-9.]*' $R/train-$be-$s.log | cut -d' ' -f3 | tr '\n' ' ')"
done; done
cp $R/* $OUT/ 2>/dev/null
