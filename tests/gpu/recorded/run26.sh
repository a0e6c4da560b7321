#!/bin/bash
# Device run 26 (one H200): v4 at priority 55 (the default on a Hopper GPU): which backend
# `cae info` picks, SASS of the TMA GEMM (HGMMA, UTMALDG), Nsight Compute on conv2's forward
# TMA GEMM and its weight-gradient GEMM (cp.async), and a conformance run of the build.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r26; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin; P=$PWD/.devbuild/lib/cae/plugins
t "default: $($B/cae info 2>&1 | grep -i backend | head -2 | tr '\n' ' ')"
$B/cae backends > $R/backends.txt 2>&1
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CUOBJ --dump-sass $P/libcae-backend-v4.so > $R/v4.sass 2>&1
t "sass: $(grep -o 'HGMMA\.[A-Z0-9x.]*' $R/v4.sass | sort | uniq -c | tr -s ' ' | tr '\n' ';') HMMA=$(grep -c ' HMMA' $R/v4.sass) LDL=$(grep -c 'LDL' $R/v4.sass) UTMALDG=$(grep -c 'UTMALDG' $R/v4.sass) LDGSTS=$(grep -c 'LDGSTS' $R/v4.sass)"
timeout 60 $B/cae-conformance --backend v4 > $R/conf.log 2>&1; t "conformance v4 rc=$? $(tail -1 $R/conf.log)"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for k in 'tma_igemm_kernelILi128ENS_13BiasRelu' 'igemm_kernelILi128ENS_19TapChannelsByPixels'; do
  timeout 120 $NCU --kernel-name-base mangled --kernel-name "regex:$k" --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    --section LaunchStats --section ComputeWorkloadAnalysis \
    $B/cae bench --backend v4 --batch 256 --images 2560 --repeats 1 --extract-images 0 > $R/ncu-$(echo $k | cut -c1-30).log 2>&1
  t "ncu rc=$? $k"
done
cp $R/* $OUT/ 2>/dev/null
