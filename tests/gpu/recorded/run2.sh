#!/bin/bash
# Device run 2: seed sweeps (no CTest), v3 scratch poisoning, the sanitizer runs that did not finish.
cd "$(dirname "$0")/.." || exit 1
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
R=/tmp/r; mkdir -p $R
B=.devbuild; P=$B/lib/cae/plugins
( OUT=$R SEEDS=${SEEDS:-100} JOBS=4 CTEST=0 timeout 500 tests/gpu/run-matrix.sh $B > $R/matrix-run.log 2>&1 ) &
( CAE_V3_POISON_SCRATCH=1 $B/bin/cae-conformance --backend $P/libcae-backend-v3.so --sweep 20 --jobs 2 > $R/poison-conformance.log 2>&1
  $B/bin/cae data synth /tmp/syn --train 256 --test 64 --seed 3 >/dev/null
  CAE_V3_POISON_SCRATCH=1 $B/bin/cae train --backend v3 --data /tmp/syn --epochs 2 --batch 64 --out /tmp/p.ckpt > $R/poison-train.log 2>&1
  $B/bin/cae train --backend v3 --data /tmp/syn --epochs 2 --batch 64 --out /tmp/q.ckpt > $R/plain-train.log 2>&1
  cmp /tmp/p.ckpt /tmp/q.ckpt > $R/poison-cmp.txt 2>&1; echo "cmp rc=$?" >> $R/poison-cmp.txt ) &
( OUT=$R/a BACKENDS=v1 TOOLS=racecheck WORKLOADS=train JOBS=1 TIMEOUT=480 TRAIN_SAMPLES=16 TEST_SAMPLES=16 timeout 500 tests/gpu/run-sanitizers.sh $B > $R/san-v1.log 2>&1 ) &
( OUT=$R/b BACKENDS=v3 TOOLS=initcheck WORKLOADS="quick train" JOBS=2 TIMEOUT=480 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 500 tests/gpu/run-sanitizers.sh $B > $R/san-v3.log 2>&1 ) &
wait
cp $R/matrix-run.log $R/san-v1.log $R/san-v3.log $R/poison-cmp.txt $R/poison-conformance.log $OUT/ 2>/dev/null
tar -czf $OUT/logs.tgz -C $R --exclude=synth . 2>/dev/null
ls -la $OUT
