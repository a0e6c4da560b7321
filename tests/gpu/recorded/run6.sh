#!/bin/bash
# Device run 6 (one H200): compute-sanitizer over the winograd backend.
cd "$(dirname "$0")/.." || exit 1
tar -xJf .devcarry/build.tar.xz
R=/tmp/r; mkdir -p $R
OUT=$R BACKENDS=winograd JOBS=12 TIMEOUT=500 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 540 tests/gpu/run-sanitizers.sh .devbuild > $R/san-winograd.log 2>&1
cp $R/san-winograd.log $OUT/
cd $R/sanitizers && for f in *.log; do grep -E '^=========     at ' $f | sed -E 's/\+0x[0-9a-f]+//' | sort | uniq -c | sed "s|^|$f |"; done > $OUT/kernels.txt
tar -czf $OUT/logs.tgz -C $R --exclude=synth . 2>/dev/null
