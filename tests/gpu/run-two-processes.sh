#!/usr/bin/env bash
# One process per GPU against one process driving both, on a 2-GPU machine
# (docs/distributed.md): trains the same global batch three ways with a
# backend that has the ABI 1.2 members (NCCL):
#   single  one process, one GPU                     (--device 0)
#   devices one process, two GPUs                    (--devices 0,1)
#   ranks   two processes, rank r on GPU r           (CUDA_VISIBLE_DEVICES=r, --rank r --world-size 2)
# and prints each run's loss curve and images/s, and the max abs difference
# of the final weights between `ranks` and `devices` (and `single`). Exits 1
# when a run fails or ranks and devices differ by more than TOL.
# NCCL's environment is left as the machine sets it (never NCCL_NVLS_ENABLE).
# usage: tests/gpu/run-two-processes.sh [BUILD_DIR]
#   BACKEND=v3  BATCH=512  EPOCHS=2  TRAIN=16384  TEST=1024
#   DATA=DIR    a CIFAR-10 folder (default: synthetic images, TRAIN/TEST of them)
#   OPTIONS="--backend-option graph-exchange=host"  more options for every run
#   TOL=1e-5    the largest |w_ranks - w_devices| accepted
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/.devbuild}
# shellcheck source=tests/gpu/use-build.sh
source "$root/tests/gpu/use-build.sh"
cae=$build/bin/cae
backend=${BACKEND:-v3} batch=${BATCH:-512} epochs=${EPOCHS:-2} tol=${TOL:-1e-5}
work=${OUT:-$(mktemp -d)}
mkdir -p "$work"
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader 2>/dev/null || echo "nvidia-smi: no GPU visible"
"$cae" backends | grep -E "^$backend " || { echo "backend $backend is not listed"; exit 1; }

data=${DATA:-$work/data}
if [ -z "${DATA:-}" ]; then
  "$cae" data synth "$data" --train "${TRAIN:-16384}" --test "${TEST:-1024}" >/dev/null || exit 1
fi
# shellcheck disable=SC2206  # OPTIONS is a list of words
common=(--backend "$backend" --data "$data" --epochs "$epochs" --batch "$batch" ${OPTIONS:-})
status=0

"$cae" train "${common[@]}" --device 0 --out "$work/single.st" >"$work/single.log" 2>&1 || { echo "single failed"; status=1; }
"$cae" train "${common[@]}" --devices 0,1 --out "$work/devices.st" >"$work/devices.log" 2>&1 || { echo "devices failed"; status=1; }
rm -f "$work/group.id"
CUDA_VISIBLE_DEVICES=1 "$cae" train "${common[@]}" --device 0 --rank 1 --world-size 2 \
  --nccl-id-file "$work/group.id" --out "$work/rank1.st" >"$work/rank1.log" 2>&1 &
rank1=$!
CUDA_VISIBLE_DEVICES=0 "$cae" train "${common[@]}" --device 0 --rank 0 --world-size 2 \
  --nccl-id-file "$work/group.id" --out "$work/ranks.st" >"$work/ranks.log" 2>&1 || { echo "rank 0 failed"; status=1; }
wait "$rank1" || { echo "rank 1 failed"; status=1; }
[ -e "$work/rank1.st" ] && { echo "rank 1 wrote a checkpoint: it must not"; status=1; }
grep -h "gradients summed\|gradients exchanged" "$work/devices.log" "$work/ranks.log"

for run in single devices ranks; do
  curve=$(tr '\r' '\n' <"$work/$run.log" | sed -nE 's/^epoch ([0-9]+)\/[0-9]+ +train loss ([0-9.]+) .* ([0-9.]+) img\/s$/e\1 loss \2 \3 img\/s/p' | tr '\n' ';')
  printf '%-8s %s\n' "$run" "$curve"
done
[ "$status" = 0 ] || { tail -5 "$work"/*.log; exit 1; }

python3 - "$work" "$tol" <<'PY' || status=1
import array, json, struct, sys
work, tol = sys.argv[1], float(sys.argv[2])
def tensors(path):
    data = open(path, "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    header, body = json.loads(data[8:8 + n]), data[8 + n:]
    return {k: array.array("f", body[v["data_offsets"][0]:v["data_offsets"][1]])
            for k, v in header.items() if k != "__metadata__"}
ranks, devices, single = (tensors(f"{work}/{r}.st") for r in ("ranks", "devices", "single"))
def max_diff(a, b):
    return max(max(abs(x - y) for x, y in zip(a[k], b[k])) for k in a)
d_dev, d_one = max_diff(ranks, devices), max_diff(ranks, single)
print(f"max |w_ranks - w_devices| = {d_dev:.3e}   max |w_ranks - w_single| = {d_one:.3e}")
sys.exit(0 if d_dev <= tol else 1)
PY
echo "logs and checkpoints: $work"
exit "$status"
