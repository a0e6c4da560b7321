#!/bin/bash
# Device run 5 (one H200): winograd sweep after the dw fix; where v3's initcheck
# reports come from; issue 12's final pipelines (settings chosen on the validation split).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin; P=$PWD/.devbuild/lib/cae/plugins
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
( timeout 200 compute-sanitizer --tool initcheck --print-limit 100000000 $B/cae-conformance --backend $P/libcae-backend-v3.so --seed 1 --quick --filter conv2d 2>&1 |
    grep -E '^=========     at |ERROR SUMMARY' | sed -E 's/\+0x[0-9a-f]+//' | sort | uniq -c | sort -rn > $R/initcheck-kernels.txt ) &
timeout 200 $B/cae-conformance --backend winograd --sweep 40 --jobs 6 > $R/wino-conf.log 2>&1; t "winograd sweep rc=$? $(tail -1 $R/wino-conf.log)"
wait
t "initcheck kernels: $(head -5 $R/initcheck-kernels.txt | tr '\n' ' ')"
pipe() {  # name args...
  timeout 200 python3 .devcarry/peakrss.py $B/cae pipeline --backend v3 --data /tmp/cifar --out /tmp/$1 "${@:2}" > $R/pipe-$1.log 2>&1
  t "pipeline $1 rc=$? $(grep -E 'search: chose|validation accuracy|test accuracy|svm \(|peakrss' $R/pipe-$1.log | tr '\n' ' ')"
  grep -A14 -iE '^ *stage|timings' $R/pipe-$1.log | head -16 >> $R/summary.txt
}
pipe final --features pyramid-flip --augment flip --search --search-C 2,5,10 --search-gamma 0.5x,1x,2x
pipe pyramid --features pyramid-flip --augment flip
pipe latent
pipe seed --features latent --recipe seed
pipe latent-seed2 --seed 2
cp $R/summary.txt $R/wino-conf.log $R/initcheck-kernels.txt $OUT/
tar -czf $OUT/logs.tgz -C $R . 2>/dev/null
