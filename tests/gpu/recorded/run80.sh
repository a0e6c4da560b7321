#!/bin/bash
# Device run 80 (one H200): the new matrix entries for v4's precise setting (CAE_V3_BF16_TERMS=3
# CAE_V3_FP32_CONV=1): the CTest conformance.v4 and conformance.v4.precise, and run-matrix.sh's
# seed sweeps with the "v4-precise" entry beside every CUDA backend (few seeds: the entry's
# plumbing, not a new verdict; run 76 swept 30 seeds at 3 terms).
# Prediction: both CTest entries pass; the sweep lists v4-precise with errors far below v4's.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r80; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r80.tgz r80); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
root=$PWD build=$PWD/.devbuild; source tests/gpu/use-build.sh  # the carried build's source path, libraries
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader > $R/gpu.txt
timeout 200 tests/run-tests.sh .devbuild -R 'conformance\.v4' > $R/ctest.log 2>&1; t "ctest conformance.v4* rc=$? $(tail -1 $R/ctest.log)"
save
OUT=$R SEEDS=6 JOBS=3 CTEST=0 timeout 300 tests/gpu/run-matrix.sh .devbuild > $R/matrix.log 2>&1; t "matrix sweeps rc=$? $(grep -c '^== ' $R/matrix.log) entries"
grep -A12 '^== v4' $R/matrix.log > $R/v4-entries.txt
save
