#!/bin/bash
# Device run 19 (one H200): v4 with a multi-stage cp.async GEMM over BF16 NHWC copies for every
# layer whose channels come in 16-byte chunks (forward, data gradient, and the weight gradient
# with MN-major wgmma operands): conformance, 40-seed sweep, bench beside v3 and PyTorch.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin; P=$PWD/.devbuild/lib/cae/plugins
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CUOBJ --dump-sass $P/libcae-backend-v4.so > $R/v4.sass 2>&1
t "sass: $(grep -o 'HGMMA\.[A-Z0-9x.]*' $R/v4.sass | sort | uniq -c | tr -s ' ' | tr '\n' ';') HMMA=$(grep -c ' HMMA' $R/v4.sass) LDL=$(grep -c 'LDL' $R/v4.sass) LDGSTS=$(grep -c 'LDGSTS' $R/v4.sass)"
timeout 120 $B/cae-conformance --backend v4 > $R/conf-v4.log 2>&1; t "conformance v4 rc=$? $(tail -1 $R/conf-v4.log)"
grep -E "FAIL|fail" $R/conf-v4.log | head -20 > $R/conf-fail.txt
if grep -q PASSED $R/conf-v4.log; then
  timeout 150 $B/cae-conformance --backend v4 --sweep 40 --jobs 8 > $R/sweep-v4.log 2>&1; t "sweep v4 rc=$? $(tail -1 $R/sweep-v4.log)"
fi
for b in 256 64; do
  timeout 150 $B/cae bench --backend v3,v4 --batch $b --images 50000 --repeats 5 > $R/bench-$b.log 2>&1; t "bench $b rc=$?"
done
timeout 200 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
cp $R/summary.txt $R/bench-*.log $R/torch.log $R/conf-v4.log $R/conf-fail.txt $OUT/ 2>/dev/null
tail -40 $R/sweep-v4.log > $OUT/sweep-v4-tail.log 2>/dev/null
