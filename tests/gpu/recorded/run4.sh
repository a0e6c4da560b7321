#!/bin/bash
# Device run 4 (two H200s): issue 11 on real GPUs: data-parallel speed-up and the
# fused exchange, the group checks over two devices, pipelines on one vs two
# devices, and one process per GPU.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
env | grep -E '^NCCL' > $R/nccl-env.txt
nvidia-smi -L > $R/gpus.txt; $B/cae backends >> $R/gpus.txt 2>&1
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
t "conformance group/process group on v3 and naive (2 devices)"
for b in v3 naive; do timeout 60 $B/cae-conformance --backend $b --seed 1 --filter group > $R/conf-group-$b.log 2>&1; t "$b rc=$? $(tail -1 $R/conf-group-$b.log)"; done
t "bench 512/2 vs 256/1"
timeout 90 $B/cae bench --backend v3 --devices 0,1 --batch 512 --images 50000 --json $R/dp512.json > $R/dp512.log 2>&1; t "rc=$?"; tail -5 $R/dp512.log | tee -a $R/summary.txt
timeout 90 $B/cae bench --backend v3 --devices 0,1 --batch 128 --images 50000 --json $R/dp128.json > $R/dp128.log 2>&1; t "rc=$?"; tail -5 $R/dp128.log | tee -a $R/summary.txt
t "pipelines"
timeout 150 python3 .devcarry/peakrss.py $B/cae pipeline --backend v3 --data /tmp/cifar --out /tmp/p1 > $R/pipe1.log 2>&1; t "one device rc=$? $(grep -E 'test accuracy|validation accuracy|peakrss' $R/pipe1.log | tr '\n' ' ')"
timeout 150 python3 .devcarry/peakrss.py $B/cae pipeline --backend v3 --devices 0,1 --data /tmp/cifar --out /tmp/p2 > $R/pipe2.log 2>&1; t "two devices rc=$? $(grep -E 'test accuracy|validation accuracy|peakrss' $R/pipe2.log | tr '\n' ' ')"
t "two processes"
OUT=/tmp/two timeout 200 tests/gpu/run-two-processes.sh .devbuild > $R/two.log 2>&1; t "rc=$?"
cp /tmp/two/*.log $R/ 2>/dev/null
cp $R/summary.txt $R/dp512.log $R/dp128.log $R/two.log $OUT/
tar -czf $OUT/logs.tgz -C $R . 2>/dev/null
