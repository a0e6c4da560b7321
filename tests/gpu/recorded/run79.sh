#!/bin/bash
# Device run 79 (one H200): are the memory-bound passes of a batch-64 v4 step slow for their size?
# ncu times each kernel of a step (as in run 70, PART=3) and, with the same settings, PyTorch's
# copy kernel moving 0.5-128 MB (tests/gpu/copy_reference.py).
# Prediction: copies of 2-16 MB reach only 1.5-2.5 TB/s alone (launch and ramp), so the step's
# 283 us of non-GEMM passes are within 1.5x of a copy of the same bytes.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r79; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r79.tgz r79); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader > $R/gpu.txt
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
[ "$SKIP_STEP" = 1 ] || timeout 100 $NCU --clock-control none --metrics $M --csv --launch-skip 2000 --launch-count 150 \
  $B/cae train --backend v4 --data /tmp/cifar --samples 12800 --epochs 1 --batch 64 --out /tmp/n.ckpt > $R/ncu-step.csv 2> $R/ncu-step.err
t "ncu step rc=$? $(wc -l < $R/ncu-step.csv) lines"
save
timeout 200 $NCU --clock-control none --metrics $M --csv python3 tests/gpu/copy_reference.py > $R/ncu-copy.csv 2> $R/ncu-copy.err
t "ncu copies rc=$? $(wc -l < $R/ncu-copy.csv) lines"
save
