#!/bin/bash
# Device run 39 (one H200, warm, the run-37 build): extraction with v3/v4's chunked staging
# download (CAE_V3_PAGEABLE_DOWNLOAD=0: pinned chunks, host copies on several threads) vs the
# direct pageable DMA (default); then nsys over a batch-64 training run of v4.
cd "$(dirname "$0")/.." || exit 1
start=$(date +%s)
R=$OUT; mkdir -p $R
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $R/summary.txt; }
[ -d .devbuild/bin ] || tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
[ -f /tmp/cifar/test_batch.bin ] || python3 .devcarry/unpack.py /tmp/cifar > /dev/null 2>&1
for d in 1 0; do for k in 1 2 3 4; do
  CAE_V3_PAGEABLE_DOWNLOAD=$d timeout 100 $B/cae bench --backend v4 --batch 256 --images 2560 --repeats 1 --extract-streams $k > $R/bench-d$d-s$k.log 2>&1
  t "PAGEABLE_DOWNLOAD=$d streams=$k rc=$? $(grep 'feature extraction' $R/bench-d$d-s$k.log)"
done; done
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -1)
t "nsys at: ${NSYS:-none}; $(ls /usr/local/cuda/bin | tr '\n' ' ' | cut -c1-400)"
if [ -n "$NSYS" ]; then
  timeout 120 $NSYS profile -o /tmp/b64 --force-overwrite true $B/cae train --backend v4 --data /tmp/cifar --epochs 1 --batch 64 --samples 12800 --test-samples 256 --out /tmp/nsys.safetensors > $R/nsys-train.log 2>&1
  t "nsys profile rc=$?"
  timeout 120 $NSYS stats --report cuda_gpu_kern_sum --format csv -o $R/kern /tmp/b64.nsys-rep > $R/nsys-stats.log 2>&1
  t "nsys stats rc=$? $(ls $R | grep csv | tr '\n' ' ')"
  timeout 120 $NSYS stats --report cuda_gpu_trace --format csv -o /tmp/trace /tmp/b64.nsys-rep >> $R/nsys-stats.log 2>&1
  xz -9 -c /tmp/trace*.csv > $R/trace.csv.xz 2>/dev/null
  t "trace $(ls -la $R/trace.csv.xz)"
fi
