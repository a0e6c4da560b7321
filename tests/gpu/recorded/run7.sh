#!/bin/bash
# Device run 7 (one H200): v3 under the four compute-sanitizer tools with the NVTX marks of
# cuBLASLt's writes (issue 15), and a 100-seed conformance sweep of naive/v1/v2/v3 on this build.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=.devbuild
nvidia-smi -L > $R/gpu.txt; $B/bin/cae backends >> $R/gpu.txt 2>&1
/usr/local/cuda/bin/compute-sanitizer --nvtx yes --tool initcheck env 2>&1 | grep -E 'NVTX|COMPUTE' > $R/nvtx-env.txt
t "nvtx env: $(tr '\n' ' ' < $R/nvtx-env.txt | cut -c1-200)"
( OUT=$R SEEDS=100 JOBS=6 CTEST=0 timeout 520 tests/gpu/run-matrix.sh $B > $R/matrix-run.log 2>&1; t "matrix rc=$?" ) &
( OUT=$R/s BACKENDS=v3 JOBS=6 TIMEOUT=450 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 500 tests/gpu/run-sanitizers.sh $B > $R/san-v3.log 2>&1; t "sanitizers rc=$?" ) &
wait
tail -30 $R/matrix-run.log > $R/matrix-tail.txt
cp $R/summary.txt $R/matrix-tail.txt $R/san-v3.log $OUT/ 2>/dev/null
tar -czf $OUT/logs.tgz -C $R --exclude=synth --exclude='*.ckpt' . 2>/dev/null
ls -la $OUT
