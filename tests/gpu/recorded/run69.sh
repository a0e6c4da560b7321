#!/bin/bash
# Device run 69 (one H200), a measuring run on the 41804d4 build (no backend change): where the
# batch-64 step's GEMM time goes, and what the vendor libraries reach on the same layers. (1)
# `cae bench` per-op figures of v4 at batch 64 and 256 beside tests/gpu/torch_layer_reference.py
# (cuDNN's convolutions and cuBLAS's materialised GEMMs, BF16) in the same call; (2) ncu durations
# of every kernel of a batch-64 step; (3) ncu's speed-of-light, occupancy and warp-state sections
# of the step's GEMM kernels. Prediction: cuDNN's per-layer times at batch 64 within 0.8-1.3x of
# v4's GEMM kernels; the GEMM kernels' tensor pipes active 25-40% of their time, L2 below 60%.
# The first call (PART=1) came on an H100 and timed cuDNN through Python's launch overhead (each
# backward an autograd.grad call); PART=2, on the same warm H100, re-timed the layers with the
# CUDA-graph replays torch_layer_reference.py now uses; PART=3 repeats the timings on an H200.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r69; mkdir -p $R
if [ "${PART:-1}" != 1 ]; then
  rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
  export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; B=$PWD/.devbuild/bin
  nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
  timeout 100 python3 tests/gpu/torch_layer_reference.py --batch 64 256 > $R/torch-layers.log 2>&1; echo "torch layers rc=$?"
  for batch in 64 256; do
    [ "$PART" = 2 ] && [ $batch = 256 ] && continue
    timeout 60 $B/cae bench --backend v4 --batch $batch --images 50000 --repeats 3 --extract-images 0 > $R/bench-v4-$batch.log 2>&1
    echo "bench v4 b$batch rc=$? $(grep 'epoch (' $R/bench-v4-$batch.log)"
  done
  [ "$PART" = 3 ] && { timeout 150 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; echo "torch rc=$?"; }
  if [ "$PART" = 3 ]; then  # where the TMA GEMM's warps wait, by instruction
    python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    timeout 90 $NCU --clock-control none --kernel-name regex:tma_igemm --launch-skip 300 --launch-count 4 \
      --section SpeedOfLight --section WarpStateStats --section SourceCounters \
      $B/cae train --backend v4 --data /tmp/cifar --samples 12800 --epochs 1 --batch 64 --out /tmp/n.ckpt > $R/ncu-stalls.txt 2>&1
    echo "ncu stalls rc=$?"; (cd $OUT && tar -czf r69.tgz r69)
  fi
  cat $R/torch-layers.log; grep -hE "^conv2d_|sum of ops" $R/bench-v4-*.log; grep -h "s/epoch" $R/torch.log 2>/dev/null
  exit 0
fi
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r69.tgz r69); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt
for batch in 64 256; do
  timeout 90 $B/cae bench --backend v4 --batch $batch --images 50000 --repeats 5 --extract-images 0 > $R/bench-v4-$batch.log 2>&1
  t "bench v4 b$batch rc=$? $(grep 'epoch (' $R/bench-v4-$batch.log)"
done
timeout 200 python3 tests/gpu/torch_layer_reference.py --batch 64 256 > $R/torch-layers.log 2>&1; t "torch layers rc=$?"
timeout 150 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
save
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
TRAIN="$B/cae train --backend v4 --data /tmp/cifar --samples 12800 --epochs 1 --batch 64 --out /tmp/n.ckpt"
timeout 90 $NCU --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
  --launch-skip 2000 --launch-count 150 $TRAIN > $R/ncu-step.csv 2> $R/ncu-step.err; t "ncu step rc=$? $(wc -l < $R/ncu-step.csv) lines"
save
timeout 240 $NCU --clock-control none --kernel-name regex:'igemm|short_k|gemm|nvjet|xmma' --launch-skip 300 --launch-count 24 \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
  $TRAIN > $R/ncu-gemm.txt 2> $R/ncu-gemm.err; t "ncu gemm sections rc=$? $(grep -c 'Duration' $R/ncu-gemm.txt) kernels"
save
$NCU --query-metrics --chip gh100 2>/dev/null | grep -iE "gmma|tensor_op|lts__t_bytes|l2" > $R/ncu-metric-names.txt
M=gpu__time_duration.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active
timeout 120 $NCU --clock-control none --kernel-name regex:'igemm|short_k|gemm|nvjet|xmma' --launch-skip 300 --launch-count 48 --metrics $M --csv \
  $TRAIN > $R/ncu-gemm-metrics.csv 2> $R/ncu-gemm-metrics.err; t "ncu gemm metrics rc=$? $(wc -l < $R/ncu-gemm-metrics.csv) lines"
save
