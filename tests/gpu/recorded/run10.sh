#!/bin/bash
# Device run 10 (one H200): v2's sweep printed nothing in 420 s in run 9 (next to 12 other
# GPU processes); v2 alone, then v2's 100 seeds beside winograd's seeds 141..200.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=/tmp/r; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
timeout 120 $B/cae-conformance --backend v2 --seed 1 > $R/v2-seed1.log 2>&1; t "v2 seed 1 rc=$? $(tail -1 $R/v2-seed1.log)"
tail -3 $R/v2-seed1.log >> $R/summary.txt
( timeout 400 $B/cae-conformance --backend v2 --sweep 100 --jobs 6 --json $R/v2.json > $R/sweep-v2.log 2>&1; t "v2 sweep rc=$? $(tail -1 $R/sweep-v2.log)" ) &
( timeout 400 $B/cae-conformance --backend winograd --seed 141 --sweep 60 --jobs 6 > $R/sweep-winograd2.log 2>&1; t "winograd 141..200 rc=$? $(tail -1 $R/sweep-winograd2.log)" ) &
wait
grep -c PASSED $R/sweep-v2.log >> $R/summary.txt
grep -A16 "worst error per op" $R/sweep-winograd2.log > $R/worst-w.txt
grep -A16 "worst error per op" $R/sweep-v2.log > $R/worst-v2.txt
cp $R/summary.txt $R/worst-w.txt $R/worst-v2.txt $OUT/
tar -czf $OUT/logs.tgz -C $R . 2>/dev/null
