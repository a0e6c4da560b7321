#!/bin/bash
# Device run 70 (one H200): v4's GEMM epilogues write each accumulator pair as one 8-byte store
# (v4_epilogues.cuh), against the previous build's v4 plugin (.devcarry/v4-before.so, built from
# ff2491f) loaded by path in the same call.
# PART=1: conformance of v4 and v3; byte-identical checkpoints before/after (the change moves no
# arithmetic); epochs at batch 64 and 256, before and after interleaved, beside torch.compile bf16;
# and ncu of a batch-64 step (duration and DRAM bytes of every kernel) and of the TMA GEMMs' store
# sectors (PART=3). PART=2: 60 seeds of v4; compute-sanitizer's four tools on v4 over quick, full, train.
# Prediction: all pass, identical checkpoints, excess store sectors 0, -20 to -40 us per batch-64
# step (-0.015 to -0.03 s per epoch), batch 256 -0.005 to -0.015 s.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT/r70; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
save() { (cd $OUT && tar -czf r70-${PART:-1}.tgz r70); }
rm -rf .devbuild; tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
AFTER=$PWD/.devbuild/lib/cae/plugins/libcae-backend-v4.so BEFORE=$PWD/.devcarry/v4-before.so
python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader > $R/gpu-$PART.txt
if [ "${PART:-1}" = 1 ]; then
  for b in v4 v3; do
    ( timeout 150 $B/cae-conformance --backend $b > $R/conf-$b.log 2>&1; t "conformance $b rc=$? $(tail -1 $R/conf-$b.log)" ) &
  done
  wait
  for which in before after; do
    so=$BEFORE; [ $which = after ] && so=$AFTER
    timeout 60 $B/cae train --backend $so --data /tmp/cifar --samples 12800 --epochs 2 --seed 7 --out /tmp/$which.ckpt > $R/det-$which.log 2>&1
    t "train $which rc=$? $(grep -i loss $R/det-$which.log | tail -1)"
  done
  cmp /tmp/before.ckpt /tmp/after.ckpt; t "checkpoints identical rc=$?"
  save
  for rep in 1 2 3; do
    for batch in 64 256; do
      for which in before after; do
        so=$BEFORE; [ $which = after ] && so=$AFTER
        timeout 60 $B/cae bench --backend $so --batch $batch --images 50000 --repeats 3 --extract-images 0 > $R/bench-$which-$batch-$rep.log 2>&1
        t "bench $which b$batch rep$rep rc=$? $(grep 'epoch (' $R/bench-$which-$batch-$rep.log)"
      done
    done
  done
  save
  timeout 150 python3 tests/gpu/torch_reference.py --batch 256 64 --configs bf16-compile > $R/torch.log 2>&1; t "torch rc=$? $(grep -o 'bf16.*s/epoch' $R/torch.log | tr '\n' ';')"
  save
elif [ "$PART" = 3 ]; then
  NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  TRAIN="$B/cae train --backend v4 --data /tmp/cifar --samples 12800 --epochs 1 --batch 64 --out /tmp/n.ckpt"
  timeout 100 $NCU --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv \
    --launch-skip 2000 --launch-count 150 $TRAIN > $R/ncu-step.csv 2> $R/ncu-step.err; t "ncu step rc=$? $(wc -l < $R/ncu-step.csv) lines"
  save
  timeout 90 $NCU --clock-control none --kernel-name regex:tma_igemm --launch-skip 300 --launch-count 9 --section SourceCounters \
    --section SpeedOfLight $TRAIN > $R/ncu-sectors.txt 2>&1; t "ncu sectors rc=$? $(grep -c 'excessive' $R/ncu-sectors.txt) excess-sector lines"
  CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
  for which in before after; do
    so=$BEFORE; [ $which = after ] && so=$AFTER
    $CUOBJ --dump-sass $so 2>/dev/null | grep -oE "STG\.E(\.[A-Z0-9]+)*" | sort | uniq -c > $R/stg-$which.txt
  done
  t "stores before: $(tr -s ' ' < $R/stg-before.txt | tr '\n' ';') after: $(tr -s ' ' < $R/stg-after.txt | tr '\n' ';')"
  save
else
  timeout 170 $B/cae-conformance --backend v4 --sweep 60 --jobs 12 > $R/sweep-v4.log 2>&1; t "sweep60 v4 rc=$? $(tail -1 $R/sweep-v4.log)"
  grep -iE "(fail|crash).*seed" $R/sweep-v4.log | head -5 >> $R/summary.txt
  save
  OUT=$R/s BACKENDS="v4" TOOLS="memcheck racecheck initcheck synccheck" WORKLOADS="quick full train" JOBS=12 TIMEOUT=180 TRAIN_SAMPLES=64 TEST_SAMPLES=32 timeout 200 tests/gpu/run-sanitizers.sh .devbuild > $R/san.log 2>&1; t "sanitizers rc=$? $(tail -14 $R/san.log | tr -s ' ' | tr '\n' '|')"
  save
fi
