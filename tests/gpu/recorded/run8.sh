#!/bin/bash
# Device run 8 (one H200): issue 12 training schedules chosen on the validation split
# (test features deleted before the SVM: the test set is not touched), and the memcheck
# NCCL classification of run-sanitizers.sh on naive and v3.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > $R/unpack.log 2>&1
( OUT=$R/s BACKENDS="naive v3" TOOLS=memcheck WORKLOADS=quick JOBS=2 TIMEOUT=300 timeout 320 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$?" ) &
W=/tmp/w; mkdir -p $W
train() {  # name extra-args
  timeout 120 $B/cae train --backend v3 --data /tmp/cifar --augment flip --out $W/$1.st "${@:2}" > $R/train-$1.log 2>&1
  t "train $1 rc=$? $(grep -E '^epoch [0-9]+/' $R/train-$1.log | tail -1)"
}
val() {  # model recipe
  rm -rf $W/f
  timeout 60 $B/cae extract --backend v3 --weights $W/$1.st --data /tmp/cifar --features $2 --out $W/f > $R/extract-$1-$2.log 2>&1 || { t "extract $1 $2 failed"; return; }
  rm -f $W/f/test_features.npy $W/f/test_labels.npy
  timeout 120 $B/cae svm --backend v3 --features $W/f --validation 5000 --out $W/m.svm > $R/svm-$1-$2.log 2>&1
  t "val $1 $2: $(grep -E 'validation accuracy' $R/svm-$1-$2.log | tr '\n' ' ')"
}
train const20; val const20 pyramid-flip
train cos20 --lr-schedule cosine; val cos20 pyramid-flip
train cos20hi --lr-schedule cosine --lr 0.001; val cos20hi pyramid-flip
train noise20 --input-noise 0.1; val noise20 pyramid-flip
train cos40 --lr-schedule cosine --epochs 40; val cos40 pyramid-flip
wait
cp $R/summary.txt $R/san.log $OUT/
tar -czf $OUT/logs.tgz -C $R --exclude=synth . 2>/dev/null
