#!/bin/bash
# Device run 38 (one H200, warm after run 37, same build): where `cae extract`'s time goes.
# Run 37's pipeline reported its "extract features" stage at 5.9 s (runs 5-13: 1.0-1.3 s).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
[ -d .devbuild/bin ] || tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
[ -f /tmp/cifar/test_batch.bin ] || python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
ls /tmp/pipe-v4 > $R/pipe-dir.txt 2>&1
grep -iE "stage|seconds|extract|train |svm" /tmp/pipe-v4/*.log 2>/dev/null | head -20 >> $R/pipe-dir.txt
CK=$(ls /tmp/pipe-v4/*.safetensors 2>/dev/null | head -1)
if [ -z "$CK" ]; then
  timeout 60 $B/cae train --backend v4 --data /tmp/cifar --epochs 1 --out /tmp/ck.safetensors > $R/train.log 2>&1; CK=/tmp/ck.safetensors
fi
t "checkpoint $CK"
for k in 1 2 4; do
  /usr/bin/time -v timeout 60 $B/cae extract --backend v4 --weights $CK --data /tmp/cifar --out /tmp/ex$k --streams $k > $R/extract-$k.log 2>&1
  t "cae extract streams=$k rc=$? $(grep -E 'Elapsed|Maximum resident' $R/extract-$k.log | tr -s ' ' | tr '\n' '|') $(grep -iE 'features|img/s|s$' $R/extract-$k.log | tail -3 | tr '\n' '|' | cut -c1-200)"
done
for k in 1 2 4; do
  timeout 100 $B/cae bench --backend v4 --batch 256 --images 2560 --repeats 1 --extract-streams $k > $R/bench-streams$k.log 2>&1
  t "bench extraction streams=$k rc=$? $(grep 'feature extraction' $R/bench-streams$k.log)"
done
timeout 100 $B/cae bench --backend v4 --batch 256 --images 2560 --repeats 1 --host-memory pageable > $R/bench-pageable.log 2>&1
t "bench pageable rc=$? $(grep 'feature extraction' $R/bench-pageable.log)"
