#!/bin/bash
# Device run 63 (one H200): v3's own short-K TF32 product (v3_short_k_product.cu) for conv1's
# forward and conv5's data gradient, in v3 and v4. Checks: conformance of every CUDA backend
# (three new small shapes and one large-batch shape), 20 seeds of v3 and v4; per-op and epoch
# times with CAE_V3_SHORT_K=1/0 interleaved at batch 64 and 256. Prediction: batch 64 conv1
# forward 0.044 -> ~0.022 ms, decoder.conv3 backward 0.090 -> ~0.07 ms; epoch v4 b64
# 0.515 -> ~0.49 s, b256 0.355 -> ~0.345 s.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r63; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r63.tgz r63); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for b in v4 v3 v2 v1 naive winograd; do
  ( timeout 150 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
grep -E "32,7,9|3,9,12\] w\[32|512|257,32" $R/conf-v4.log $R/conf-v3.log | head -20 >> $R/summary.txt
for b in v4 v3; do
  timeout 120 $B/cae-conformance --backend $b --sweep 20 --jobs 8 > $R/sweep-$b.log 2>&1; t "sweep20 $b rc=$? $(tail -1 $R/sweep-$b.log)"
  grep -iE "^.*(fail|crash).*seed" $R/sweep-$b.log | head -5 >> $R/summary.txt
done
save
ops() { grep -E "encoder.conv1 |decoder.conv3 " $1 | grep conv2d | awk '{print $1, $2, $(NF-2)}' | tr '\n' ';'; }
for batch in 64 256; do
  for k in 1 0 1 0; do
    CAE_V3_SHORT_K=$k timeout 60 $B/cae bench --backend v4 --batch $batch --images 50000 --repeats 5 --extract-images 0 > $R/bench-$batch-k$k-$SECONDS.log 2>&1
    f=$(ls -t $R/bench-$batch-k$k-*.log | head -1)
    t "bench v4 b$batch short_k=$k rc=$? $(grep 'epoch (' $f) | $(ops $f)"
  done
done
for k in 1 0; do
  CAE_V3_SHORT_K=$k timeout 60 $B/cae bench --backend v3 --batch 64 --images 50000 --repeats 5 --extract-images 0 > $R/bench-v3-k$k.log 2>&1
  t "bench v3 b64 short_k=$k rc=$? $(grep 'epoch (' $R/bench-v3-k$k.log) | $(ops $R/bench-v3-k$k.log)"
done
save
