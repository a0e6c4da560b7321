#!/bin/bash
# Device run 71 (one H200): v4's split-K weight-gradient partials summed four elements per thread
# (sum_splits4_kernel) on top of run 70's 8-byte epilogue stores. Runs every part of run70.sh in
# one call, with .devcarry/v4-before.so now built from 2b86bc3 (run 70's build) and the results
# under $OUT/r70 as there. Prediction: all pass, identical checkpoints, sum of the step's split
# sums 24 -> 12-16 us on the H200, the batch-64 epoch -0.005 to -0.01 s, batch 256 within noise.
here=$(dirname "$0")
for part in 1 3 2; do PART=$part bash "$here/run70.sh"; done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
cd "$here/.." && timeout 60 $NCU --clock-control none --kernel-name regex:sum_splits --launch-skip 30 --launch-count 6 \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
  .devbuild/bin/cae train --backend v4 --data /tmp/cifar --samples 12800 --epochs 1 --batch 64 --out /tmp/n.ckpt \
  > $OUT/r70/ncu-sum-splits.txt 2>&1
grep -E "sum_splits|duration|bytes" $OUT/r70/ncu-sum-splits.txt | tail -24
