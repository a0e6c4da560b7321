#!/bin/bash
# Device run 1: GPU matrix (CTest + seed sweeps) and compute-sanitizer, at once.
cd "$(dirname "$0")/.." || exit 1
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh; echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH" > /tmp/r-ld.txt
R=/tmp/r; mkdir -p $R
nvidia-smi -L > $R/gpu.txt; cat /tmp/r-ld.txt >> $R/gpu.txt; .devbuild/bin/cae backends >> $R/gpu.txt 2>&1
grep -qE "^ *v3 .* available" $R/gpu.txt || { cp $R/gpu.txt $OUT/; echo "v3 unavailable"; cat $R/gpu.txt; exit 3; }
( SEEDS=${SEEDS:-60} JOBS=4 timeout 530 tests/gpu/run-matrix.sh .devbuild > $R/matrix.log 2>&1 ) &
( OUT=$R JOBS=${SJOBS:-10} TIMEOUT=${STIMEOUT:-480} TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 540 tests/gpu/run-sanitizers.sh .devbuild > $R/sanitizers.log 2>&1 ) &
wait
cp $R/matrix.log $R/sanitizers.log $OUT/
tar -czf $OUT/logs.tgz -C $R --exclude=synth . 2>/dev/null
ls -la $OUT
