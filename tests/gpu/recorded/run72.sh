#!/bin/bash
# Device run 72 (one H200), measuring only, the committed build 2b86bc3 (run 70's 8-byte epilogue
# stores; run 71's four-wide split sums measured slower and reverted): v4 and v3 epochs at batch
# 64 and 256, per-op figures beside tests/gpu/torch_layer_reference.py (cuDNN BF16 convolutions,
# graph replays) and torch.compile bf16, all in one call. Prediction: v4 0.445-0.455 s (64) and
# 0.327-0.332 s (256); v3 0.67-0.70 s and 0.50 s; v4's five convolutions per batch-64 step
# 0.44-0.46 ms against cuDNN's 0.62-0.66 ms.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r72; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; B=$PWD/.devbuild/bin
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader > $R/gpu.txt
for batch in 64 256; do
  for b in v4 v3; do
    timeout 60 $B/cae bench --backend $b --batch $batch --images 50000 --repeats 5 --extract-images 0 > $R/bench-$b-$batch.log 2>&1
    t "bench $b b$batch rc=$? $(grep 'epoch (' $R/bench-$b-$batch.log)"
  done
done
timeout 150 python3 tests/gpu/torch_layer_reference.py --batch 64 256 > $R/torch-layers.log 2>&1; t "torch layers rc=$?"
timeout 150 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
(cd $OUT && tar -czf r72.tgz r72)
