#!/bin/bash
# Device run 62 (one H200), the review-mend commit 23d4314 (same behaviour: the side stream marks
# its own waits, PDL gated on the kernels' PTX version alone, derived_storage reports a fresh
# allocation). Checks: PDL reported on/off; conformance v3/v4; 60 seeds each; training twice and
# once with CAE_V3_PDL=0 (identical checkpoints); compute-sanitizer's four tools on v3 and v4
# over quick, full and train; batch-64 epoch PDL on/off. Prediction: all pass, 0 findings,
# epochs as run 59 (0.515-0.521 s / 0.556-0.586 s).
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r62; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r62.tgz r62); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1 &
for p in 1 0; do
  CAE_V3_PDL=$p CAE_V3_VERBOSE=1 $B/cae info --backend v4 > $R/info-$p.log 2>&1; t "info pdl=$p rc=$? $(grep '\[v3\] device' $R/info-$p.log | head -1)"
done
for b in v4 v3; do
  ( timeout 100 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
done
wait
for b in v4 v3; do
  timeout 200 $B/cae-conformance --backend $b --sweep 60 --jobs 8 > $R/sweep-$b.log 2>&1; t "sweep60 $b rc=$? $(tail -1 $R/sweep-$b.log)"
  grep -iE "^.*(fail|crash).*seed" $R/sweep-$b.log | head -5 >> $R/summary.txt
done
save
losses() { grep -o 'train loss [0-9.e-]*' $1 | cut -d' ' -f3 | tr '\n' ' '; }
for run in a b c; do
  pdl=1; [ $run = c ] && pdl=0
  CAE_V3_PDL=$pdl timeout 60 $B/cae train --backend v4 --data /tmp/cifar --epochs 3 --seed 7 --out /tmp/d-$run.ckpt > $R/det-$run.log 2>&1
  t "train v4 seed 7 run $run pdl=$pdl rc=$? $(losses $R/det-$run.log)"
done
cmp /tmp/d-a.ckpt /tmp/d-b.ckpt && cmp /tmp/d-a.ckpt /tmp/d-c.ckpt; t "checkpoints identical rc=$?"
for pdl in 1 0 1 0; do
  CAE_V3_PDL=$pdl timeout 60 $B/cae bench --backend v4 --batch 64 --images 50000 --repeats 5 --extract-images 0 > $R/bench-64-p$pdl.log 2>&1
  t "bench v4 b64 pdl=$pdl rc=$? $(grep 'epoch (' $R/bench-64-p$pdl.log)"
done
save
OUT=$R/s BACKENDS="v4 v3" TOOLS="memcheck racecheck initcheck synccheck" WORKLOADS="quick full train" JOBS=8 TIMEOUT=200 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 220 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$? $(tail -14 $R/san.log | tr -s ' ' | tr '\n' '|')"
save
