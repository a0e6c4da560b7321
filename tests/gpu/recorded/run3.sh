#!/bin/bash
# Device run 3: winograd on a GPU for the first time; issue 12 recipe/augmentation
# selection on a validation split (test features hidden: the test set is not touched).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
R=/tmp/r; mkdir -p $R; B=$PWD/.devbuild/bin; P=$PWD/.devbuild/lib/cae/plugins
python3 .devcarry/unpack.py /tmp/cifar > $R/unpack.log 2>&1
$B/cae backends > $R/backends.txt 2>&1
t "winograd conformance"
timeout 120 $B/cae-conformance --backend winograd --sweep 8 --jobs 4 > $R/wino-conf.log 2>&1; t "rc=$?"
timeout 60 $B/cae bench --backend v2,winograd --batch 256 --images 10240 --extract-images 0 --repeats 10 > $R/wino-bench.log 2>&1; t "bench rc=$?"
W=/tmp/w; mkdir -p $W
train() {  # name extra-args
  timeout 90 $B/cae train --backend v3 --data /tmp/cifar --out $W/$1.st "${@:2}" > $R/train-$1.log 2>&1
  t "train $1 rc=$? $(grep -E '^epoch 20/' $R/train-$1.log | tail -1)"
}
val() {  # model recipe
  rm -rf $W/f
  timeout 60 $B/cae extract --backend v3 --weights $W/$1.st --data /tmp/cifar --features $2 --out $W/f > $R/extract-$1-$2.log 2>&1 || { t "extract $1 $2 failed"; return; }
  rm -f $W/f/test_features.npy $W/f/test_labels.npy
  python3 .devcarry/peakrss.py timeout 120 $B/cae svm --backend v3 --features $W/f --validation 5000 --out $W/m.svm > $R/svm-$1-$2.log 2>&1
  t "val $1 $2: $(grep -E 'validation accuracy|^svm' $R/svm-$1-$2.log | tr '\n' ' ') $(grep peakrss $R/svm-$1-$2.log)"
}
train base
for r in latent pyramid latent-quadrants latent-flip pyramid-flip; do val base $r; done
train flip --augment flip
val flip latent; val flip pyramid-flip
train flipcrop --augment flip-crop
val flipcrop latent; val flipcrop pyramid-flip
cp $R/summary.txt $R/wino-conf.log $R/wino-bench.log $OUT/
tar -czf $OUT/logs.tgz -C $R . 2>/dev/null
