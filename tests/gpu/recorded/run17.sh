#!/bin/bash
# Device run 17 (one H200): v4 with each K tile's loads issued one iteration before they are
# converted (branch v4-deferred-loads): SASS, conformance + 60-seed sweep, bench beside v3 and
# PyTorch in the same call, 5-epoch loss curves of v2 and v4 from seeds 1 and 2.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin; P=$PWD/.devbuild/lib/cae/plugins
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CUOBJ --dump-sass $P/libcae-backend-v4.so > $R/v4.sass 2>&1
t "sass: $(grep -o 'HGMMA\.[A-Z0-9x.]*' $R/v4.sass | sort | uniq -c | tr -s ' ' | tr '\n' ';') HMMA=$(grep -c ' HMMA' $R/v4.sass) LDL=$(grep -c 'LDL' $R/v4.sass)"
timeout 120 $B/cae-conformance --backend v4 > $R/conf-v4.log 2>&1; t "conformance v4 rc=$? $(tail -1 $R/conf-v4.log)"
timeout 200 $B/cae-conformance --backend v4 --sweep 60 --jobs 8 > $R/sweep-v4.log 2>&1; t "sweep v4 rc=$? $(tail -1 $R/sweep-v4.log)"
for b in 256 64; do
  timeout 150 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 --json $R/bench-$b.json > $R/bench-$b.log 2>&1; t "bench $b rc=$?"
done
timeout 200 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile --json $R/torch.json > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
wait
for s in 1 2; do for be in v2 v4; do
  timeout 100 $B/cae train --backend $be --data /tmp/cifar --epochs 5 --seed $s --out /tmp/$be-$s.ckpt > $R/train-$be-$s.log 2>&1; t "train $be seed $s rc=$? $(grep -io 'loss[^,]*' $R/train-$be-$s.log | tr '\n' ' ' | cut -c1-300)"
done; done
cp $R/summary.txt $R/bench-*.log $R/torch.log $R/conf-v4.log $OUT/ 2>/dev/null
tail -60 $R/sweep-v4.log > $OUT/sweep-v4-tail.log
tar -czf $OUT/logs.tgz -C $R . 2>/dev/null
