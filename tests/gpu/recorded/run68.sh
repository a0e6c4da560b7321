#!/bin/bash
# Device run 68 (one H200), the review-mend commit fc8c0ab (same behaviour: the short-K product's
# eligibility names the launch's y limit; column sums use the shared alignment helper). Checks:
# conformance of every CUDA backend; compute-sanitizer's four tools on v4 and v3 over quick, full
# and train; 60 seeds of v4, then of v3. Prediction: all pass, 0 findings.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r68; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r68.tgz r68); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
for b in v4 v3 v2 v1 naive winograd; do
  ( timeout 150 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
OUT=$R/s BACKENDS="v4 v3" TOOLS="memcheck racecheck initcheck synccheck" WORKLOADS="quick full train" JOBS=12 TIMEOUT=180 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 190 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$? $(tail -26 $R/san.log | tr -s ' ' | tr '\n' '|')"
save
for b in v4 v3; do
  timeout 165 $B/cae-conformance --backend $b --sweep 60 --jobs 12 > $R/sweep-$b.log 2>&1; t "sweep60 $b rc=$? $(tail -1 $R/sweep-$b.log)"
  grep -iE "^.*(fail|crash).*seed" $R/sweep-$b.log | head -5 >> $R/summary.txt
  save
done
