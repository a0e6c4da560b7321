#!/bin/bash
# Device run 9 (one H200): winograd with the direct path for layers under 16 channels
# (issue 10): per-op bench beside v2, then the 200-seed sweep, v2's 100-seed sweep (its cuBLAS
# helpers moved to plugins/common) and both under the four compute-sanitizer tools.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
timeout 120 $B/cae bench --backend v2,winograd --batch 256 --images 10240 --extract-images 0 --repeats 10 > $R/bench.log 2>&1; t "bench rc=$?"
( timeout 420 $B/cae-conformance --backend winograd --sweep 200 --jobs 8 > $R/sweep-winograd.log 2>&1; t "winograd sweep rc=$? $(tail -1 $R/sweep-winograd.log)" ) &
( timeout 420 $B/cae-conformance --backend v2 --sweep 100 --jobs 3 > $R/sweep-v2.log 2>&1; t "v2 sweep rc=$? $(tail -1 $R/sweep-v2.log)" ) &
( OUT=$R/s BACKENDS="winograd v2" JOBS=4 TIMEOUT=400 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 430 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$?" ) &
wait
grep -B2 -A16 "worst error per op" $R/sweep-winograd.log > $R/sweep-winograd-worst.txt
cp $R/summary.txt $R/bench.log $R/san.log $R/sweep-winograd-worst.txt $OUT/
tar -czf $OUT/logs.tgz -C $R --exclude=synth . 2>/dev/null
