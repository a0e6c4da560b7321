#!/bin/bash
# Device run 54 (one H200): where a batch-64 step's time goes between kernels. (1) A chain
# of 60 memory-pass kernels shaped like a step, plain / PDL / graph / graph+PDL, to size
# what launch gaps cost on this GPU. (2) ncu's duration of every kernel over 400 launches of
# a v4 training run at batch 64, to sum a step's kernel time against the epoch's wall time
# per step. (3) The batch-64 epoch. Prediction: gaps of 1-3 us per kernel; kernels sum to
# ~85% of the step.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r54; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $R/smi.txt
.devcarry/launch_gaps > $R/gaps.log 2>&1; t "launch gaps rc=$?"; cat $R/gaps.log >> $R/summary.txt
wait
timeout 60 $B/cae bench --backend v4 --batch 64 --images 50000 --repeats 5 --extract-images 0 > $R/bench.log 2>&1
t "bench b64 rc=$? $(grep -A3 'one epoch' $R/bench.log | tail -1)"
timeout 200 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
  --launch-skip 2000 --launch-count 400 $B/cae train --backend v4 --data /tmp/cifar --samples 12800 \
  --epochs 1 --batch 64 --out /tmp/n.ckpt > $R/ncu.csv 2> $R/ncu.err; t "ncu rc=$? $(wc -l < $R/ncu.csv) lines"
CAE_V3_SIDE_STREAM=0 timeout 200 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
  --launch-skip 2000 --launch-count 400 $B/cae train --backend v4 --data /tmp/cifar --samples 12800 \
  --epochs 1 --batch 64 --out /tmp/n.ckpt > $R/ncu-s0.csv 2> $R/ncu-s0.err; t "ncu side0 rc=$? $(wc -l < $R/ncu-s0.csv) lines"
cd $OUT && tar -czf r54.tgz r54
