#!/bin/bash
# Device run 44 (one H200): extraction's auto count is now 4 contexts (run 43). Auto extraction
# three times, 5 and 6 contexts twice each, `cae extract` with auto, and v4's conformance and
# 20 seeds on this build. Prediction: auto 0.100-0.110 s; 5 and 6 no faster than 4.
cd "$(dirname "$0")/.." || exit 1
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for i in 1 2 3; do for k in 0 5 6; do
  [ $k != 0 ] && [ $i = 3 ] && continue
  timeout 60 $B/cae bench --backend v4 --batch 256 --images 2560 --repeats 1 --extract-streams $k > $OUT/b.log 2>&1
  echo "call $i streams $k: $(grep 'feature extraction' $OUT/b.log)"
done; done | tee $OUT/summary.txt
wait
timeout 60 $B/cae train --backend v4 --data /tmp/cifar --epochs 1 --out /tmp/ck.safetensors > /dev/null 2>&1
timeout 60 $B/cae extract --backend v4 --weights /tmp/ck.safetensors --data /tmp/cifar --out /tmp/ex > $OUT/extract.log 2>&1
echo "cae extract rc=$? $(grep -E 'done in' $OUT/extract.log | tr '\n' '|')" | tee -a $OUT/summary.txt
timeout 100 $B/cae-conformance --backend v4 > $OUT/conf.log 2>&1; echo "conformance rc=$? $(tail -1 $OUT/conf.log)" | tee -a $OUT/summary.txt
timeout 120 $B/cae-conformance --backend v4 --sweep 20 --jobs 8 > $OUT/sweep.log 2>&1; echo "sweep rc=$? $(tail -1 $OUT/sweep.log)" | tee -a $OUT/summary.txt
rm -f $OUT/b.log
