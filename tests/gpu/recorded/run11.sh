#!/bin/bash
# Device run 11 (two H200s, issue 11): full pipelines on one device and on --devices 0,1
# (training, extraction and now the SVM kernels split over both), seeds 1..3, one run.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
nvidia-smi -L > $R/gpus.txt; env | grep -E '^NCCL' >> $R/gpus.txt
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
for s in 1 2 3; do
  timeout 150 python3 .devcarry/peakrss.py $B/cae pipeline --backend v3 --data /tmp/cifar --seed $s --out /tmp/p1-$s > $R/pipe1-$s.log 2>&1
  t "seed $s one device rc=$? $(grep -E 'test accuracy|svm train|peakrss' $R/pipe1-$s.log | tr '\n' ' ')"
  timeout 150 python3 .devcarry/peakrss.py $B/cae pipeline --backend v3 --devices 0,1 --data /tmp/cifar --seed $s --out /tmp/p2-$s > $R/pipe2-$s.log 2>&1
  t "seed $s two devices rc=$? $(grep -E 'test accuracy|svm train|peakrss' $R/pipe2-$s.log | tr '\n' ' ')"
done
cp $R/summary.txt $OUT/
tar -czf $OUT/logs.tgz -C $R . 2>/dev/null
