#!/bin/bash
# Device run 73 (one H200), measuring: how many slices v4's weight-gradient GEMMs split K into.
# The new switch CAE_V3_SPLIT_K_BLOCKS=N aims the split at N blocks per SM (2 until now: one
# full wave of the two blocks an SM holds). Fewer slices write fewer FP32 partials (42.5 MB per
# batch-64 step, run 70) and leave SMs to the data gradient running beside on the side stream.
# Epochs at N = 1, 2, 3, batch 64 and 256, alternated twice; conformance of v4 at each N.
# Prediction: N = 1 is 0.003-0.01 s faster at batch 64 and within noise at 256; N = 3 slower.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r73; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader > $R/gpu.txt
for n in 1 2 3; do
  ( CAE_V3_SPLIT_K_BLOCKS=$n timeout 100 $B/cae-conformance --backend v4 > $R/conf-$n.log 2>&1; t "conformance v4 split-k-blocks $n rc=$? $(tail -1 $R/conf-$n.log)" ) &
done
wait
for rep in 1 2; do
  for batch in 64 256; do
    for n in 2 1 3; do
      CAE_V3_SPLIT_K_BLOCKS=$n timeout 60 $B/cae bench --backend v4 --batch $batch --images 50000 --repeats 3 --extract-images 0 > $R/bench-$n-$batch-$rep.log 2>&1
      t "bench split-k-blocks $n b$batch rep$rep rc=$? $(grep 'epoch (' $R/bench-$n-$batch-$rep.log)"
    done
  done
done
grep -h "conv2d_backward" $R/bench-*-64-1.log > $R/backward-ops.txt
(cd $OUT && tar -czf r73.tgz r73)
