#!/bin/bash
# Device run 31 (one H200), the run-30 build: Nsight Compute on conv2's forward and
# weight-gradient TMA GEMMs (batch 256) after the weight gradient moved to TMA and one wgmma
# group stays in flight.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r31; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for k in 'tma_igemm_kernelILi128ENS_14TapShiftedRowsENS_13BiasRelu' 'tma_igemm_kernelILi128ENS_16TapShiftedPixels'; do
  timeout 120 $NCU --kernel-name-base mangled --kernel-name "regex:$k" --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    --section LaunchStats --section ComputeWorkloadAnalysis \
    $B/cae bench --backend v4 --batch 256 --images 2560 --repeats 1 --extract-images 0 > $R/ncu-$(echo $k | cut -c18-40).log 2>&1
  t "ncu rc=$? $k"
done
cp $R/* $OUT/ 2>/dev/null
