#!/usr/bin/env bash
# compute-sanitizer over every CUDA backend of a build: memcheck (with leak
# check), racecheck, initcheck and synccheck, each over the conformance suite
# at quick shapes and at full shapes and over a short training run on
# synthetic data. Prints one summary table (backend x tool x workload: the
# number of errors the tool reported, or why it did not finish) and exits 1
# if any tool found anything.
# usage: tests/gpu/run-sanitizers.sh [BUILD_DIR]   (default .devbuild, as run-matrix.sh)
#   BACKENDS="v1 v2"   only these (default: every plugin but cpu)
#   JOBS=8             runs at once (they share the one GPU)
#   TIMEOUT=900        seconds per run before it is reported as "timeout"
#   TOOLS="racecheck"  only these tools (default: memcheck racecheck initcheck synccheck)
#   WORKLOADS="quick"  only these workloads (default: quick full train)
#   FILTER=conv2d      only these ops in the conformance workloads (--filter)
#   OPTIONS="linear-loss=on"  backend options of the conformance workloads
#                      (each a --backend-option), e.g. to check a kernel that
#                      an option turns on
#   KERNELS="--kernel-name kns=tma_igemm --kernel-name regex=nvjet|xmma|cutlass|Gemm|splitK"
#                      which kernels the tool checks (compute-sanitizer's kernel
#                      filter options; default: every kernel but NCCL's), e.g. to
#                      split a slow racecheck over runs side by side. Keep
#                      cuBLASLt's kernels checked in every part (e.g. add
#                      --kernel-name regex=nvjet|xmma|cutlass|Gemm|splitK): with
#                      them left out, racecheck (2025.3) stops at the first large
#                      cuBLASLt GEMM with "Internal Sanitizer Error: The Sanitizer
#                      failed to handle a hardware exception", even when the filter
#                      matches no kernel at all
#   TRAIN_SAMPLES=512  images of the training workload (racecheck runs ~1 image/s)
#   TEST_SAMPLES=128   test images the training workload evaluates after its epoch
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/.devbuild}
out=${OUT:-/tmp}/sanitizers
mkdir -p "$out"
[ -d "$build/runtime-libs" ] && export LD_LIBRARY_PATH="$build/runtime-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# shellcheck source=tests/gpu/find-nccl.sh
source "$root/tests/gpu/find-nccl.sh"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ ! -x "$sanitizer" ]; then
  echo "run-sanitizers: compute-sanitizer not found (CUDA toolkit's bin/)"; exit 77
fi
cae=$build/bin/cae
suite=$build/bin/cae-conformance
plugins=$build/lib/cae/plugins
backends=${BACKENDS:-$(ls "$plugins" | sed -n 's/^libcae-backend-\(.*\)\.so$/\1/p' | grep -vx cpu)}
jobs=${JOBS:-8}
limit=${TIMEOUT:-900}
train_samples=${TRAIN_SAMPLES:-512}
test_samples=${TEST_SAMPLES:-128}
tools=${TOOLS:-memcheck racecheck initcheck synccheck}
workloads=${WORKLOADS:-quick full train}
filter=()
[ -n "${FILTER:-}" ] && filter=(--filter "$FILTER")
# The conformance workloads' extra arguments: the filter, then the options.
for option in ${OPTIONS:-}; do filter+=(--backend-option "$option"); done

# A small synthetic data set for the training runs (made once, on the CPU).
data=$out/synth
[ -f "$data/data_batch_1.bin" ] || "$cae" data synth "$data" --train "$train_samples" --test "$test_samples" --seed 3 >/dev/null

run_one() {  # backend tool workload
  local b=$1 tool=$2 work=$3 log=$out/$1-$2-$3.log
  local extra=()
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  # --nvtx yes: v3 and v4 tell initcheck which bytes cuBLASLt wrote (its sm_90 GEMM
  # stores are invisible to the tool; plugins/common/cuda/runtime/library_writes.hpp).
  extra+=(--nvtx yes)
  # NCCL's own kernels (the all-reduces of the step exchanged over two GPUs,
  # which the conformance suite runs where a second GPU is visible) are not
  # checked: its LL protocol polls flags in buffers it never initialises,
  # which initcheck reports by the hundred thousand. Its API errors are
  # counted apart below, which needs every error printed.
  if [ -n "${KERNELS:-}" ]; then
    read -r -a kernels <<<"$KERNELS"
    extra+=("${kernels[@]}")
  else
    extra+=(--kernel-name-exclude kns=nccl)
  fi
  local cmd=()
  case $work in
    # The tools slow a check down many times over: its time limit, and the
    # whole run's, are the tool run's.
    quick) cmd=("$suite" --backend "$plugins/libcae-backend-$b.so" --seed 1 --quick --check-timeout "$limit"
                --time-limit "$limit" "${filter[@]}") ;;
    full) cmd=("$suite" --backend "$plugins/libcae-backend-$b.so" --seed 1
               --check-timeout "$limit" --time-limit "$limit" "${filter[@]}") ;;
    train) cmd=("$cae" train --backend "$plugins/libcae-backend-$b.so" --data "$data" --samples "$train_samples"
                --epochs 1 --batch 64 --out "$scratch/$b-$tool.ckpt") ;;
  esac
  timeout "$limit" "$sanitizer" --tool "$tool" "${extra[@]}" --print-limit 100000 "${cmd[@]}" >"$log" 2>&1
  local status=$?
  local summary
  # memcheck, initcheck, synccheck: "ERROR SUMMARY: N errors";
  # racecheck: "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
  summary=$(grep -E '^========= (ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazard)' "$log" |
    tail -1 | grep -oE '[0-9]+ (error|hazard)')
  # CUDA API errors that NCCL raises and handles inside its own calls (the
  # first frame above the driver is libnccl.so; ncclCommInitRank probes
  # cudaFuncGetAttributes on kernels without an image for this GPU) are
  # NCCL's, not the backend's: counted apart and named under the table. Only
  # when every error was printed (--print-limit) can they be told apart.
  local in_nccl
  in_nccl=$(awk '/Program hit .* on CUDA API call/ {open = 1; next}
                 open && /Host Frame/ && !/libcuda\.so/ {if (/libnccl\.so/) n++; open = 0}
                 END {print n + 0}' "$log")
  local printed
  printed=$(grep -cE '^========= (Program hit|Invalid|Uninitialized|Barrier|Race|Error)' "$log")
  if [ -n "$summary" ] && [ "$in_nccl" -gt 0 ] && [ "${summary%% *}" -le "$printed" ]; then
    summary="$(( ${summary%% *} - in_nccl )) error"
  else
    in_nccl=0
  fi
  if [ "$status" = 124 ]; then
    echo "$b $tool $work timeout"
  elif [ -z "$summary" ]; then
    echo "$b $tool $work no-summary(exit $status)"
  elif [ "$status" != 0 ] && [ "${summary%% *}" = 0 ]; then
    echo "$b $tool $work 0-errors-but-exit-$status"
  else
    echo "$b $tool $work ${summary%% *} $in_nccl"
  fi
}
scratch=$(mktemp -d)  # checkpoints of the training runs: not worth keeping
export -f run_one
export out suite cae plugins data sanitizer limit scratch train_samples
export FILTER="${FILTER:-}"
filter_decl=$(declare -p filter)
export filter_decl

# Lines are appended as runs finish, so a run cut short still leaves the
# verdicts of those that ended.
: >"$out/summary.unsorted"
for b in $backends; do
  for tool in $tools; do
    for work in $workloads; do echo "$b $tool $work"; done
  done
done | xargs -P "$jobs" -L 1 bash -c 'eval "$filter_decl"; run_one "$@" >>"$out/summary.unsorted"' _
sort "$out/summary.unsorted" >"$out/summary.txt"
rm -rf "$scratch"

echo "compute-sanitizer findings (errors reported; logs in $out):"
printf '%-10s %-10s' backend tool
for work in $workloads; do printf ' %-10s' "$work"; done
printf '\n'
status=0
for b in $backends; do
  for tool in $tools; do
    printf '%-10s %-10s' "$b" "$tool"
    for work in $workloads; do
      v=$(awk -v b="$b" -v t="$tool" -v w="$work" '$1==b && $2==t && $3==w {print $4}' "$out/summary.txt")
      printf ' %-10s' "${v:-missing}"
      [ "${v:-missing}" = 0 ] || status=1
    done
    printf '\n'
  done
done
awk '$5 > 0 {printf "not counted: %s %s %s: %d CUDA API error(s) raised and handled inside libnccl.so\n", $1, $2, $3, $5}' \
  "$out/summary.txt"
[ $status = 0 ] && echo "run-sanitizers: no findings" || echo "run-sanitizers: FINDINGS (see the logs above)"
exit $status
