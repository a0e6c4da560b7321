#!/bin/bash
# Device run 83 (one H200): the cleanup after the final review: prepare_weight_forms_kernel
# computes each element's destination once and then writes its terms (same values, same places);
# run-matrix.sh starts every sweep through one function; the CTest conformance entries come from one
# CMake function. Compared with .devcarry/v4-e34f1c6.so (the plugin before the cleanup).
# Prediction: checkpoints identical at the default and the precise setting; conformance 404/404;
# 30/30 seeds at both settings; run-matrix.sh lists 7 entries, all passing; 0 sanitizer findings.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r83; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r83.tgz r83); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
root=$PWD build=$PWD/.devbuild; source tests/gpu/use-build.sh
B=$PWD/.devbuild/bin P=$PWD/.devbuild/lib/cae/plugins C=$PWD/.devcarry
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader > $R/gpu.txt
PRECISE="CAE_V3_BF16_TERMS=3 CAE_V3_FP32_CONV=1"
timeout 200 tests/run-tests.sh .devbuild -R 'conformance\.v' > $R/ctest.log 2>&1; t "ctest conformance.v* rc=$? $(tail -1 $R/ctest.log)"
for s in default precise; do
  envs=""; [ $s = precise ] && envs=$PRECISE
  for which in before after; do
    so=$C/v4-e34f1c6.so; [ $which = after ] && so=$P/libcae-backend-v4.so
    env $envs timeout 90 $B/cae train --backend $so --data /tmp/cifar --samples 12800 --epochs 2 --seed 7 --out /tmp/$s-$which.ckpt > $R/det-$s-$which.log 2>&1
  done
  cmp /tmp/$s-before.ckpt /tmp/$s-after.ckpt; t "$s checkpoints identical rc=$?"
done
save
OUT=$R SEEDS=30 JOBS=4 CTEST=0 timeout 400 tests/gpu/run-matrix.sh .devbuild > $R/matrix.log 2>&1
t "matrix sweeps (30 seeds) rc=$? entries: $(grep '^== ' $R/matrix.log | tr '\n' ' ') failed/crashed: $(grep -cE '^seed [0-9]+: (FAILED|CRASHED)' $R/matrix.log)"
for e in v4 v4-precise; do t "$e: $(grep -E 'sweep of' $R/sweep-$e.log | tail -1)"; done
save
env $PRECISE OUT=$R/s BACKENDS="v4" TOOLS="memcheck racecheck initcheck synccheck" WORKLOADS="quick train" JOBS=12 TIMEOUT=150 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 170 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers (precise) rc=$? $(tail -8 $R/san.log | tr -s ' ' | tr '\n' '|')"
save
