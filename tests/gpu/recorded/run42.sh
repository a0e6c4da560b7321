#!/bin/bash
# Device run 42 (one H200, the run-41 build): v2 under racecheck on the training workload, which
# ran past run 41's 200 s limit (racecheck runs ~1 image/s).
cd "$(dirname "$0")/.." || exit 1
[ -d .devbuild/bin ] || tar -xJf .devcarry/build.tar.xz
OUT=$OUT BACKENDS="v2" TOOLS="racecheck" WORKLOADS="train" TIMEOUT=540 TRAIN_SAMPLES=64 TEST_SAMPLES=32 \
  timeout 570 tests/gpu/run-sanitizers.sh .devbuild > $OUT/san.log 2>&1
echo "rc=$?"; tail -8 $OUT/san.log
