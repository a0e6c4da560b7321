#!/bin/bash
# Device run 43 (one H200, the run-41 build = commit a6be857): extraction of 60,000 images on
# 3 vs 4 contexts per device, interleaved, 4 calls each, to choose the auto count on more than
# run 39's one pass each. Prediction: 4 about 3% faster than 3 (run 39: 0.101 vs 0.104 s).
cd "$(dirname "$0")/.." || exit 1
[ -d .devbuild/bin ] || tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
for i in 1 2 3 4; do for k in 3 4 2; do
  timeout 60 $B/cae bench --backend v4 --batch 256 --images 2560 --repeats 1 --extract-streams $k > $OUT/b-$k-$i.log 2>&1
  echo "call $i streams $k: $(grep 'feature extraction' $OUT/b-$k-$i.log | grep -o '[0-9.]* s$')"
done; done | tee $OUT/summary.txt
rm -f $OUT/b-*.log
