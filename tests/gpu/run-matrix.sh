#!/usr/bin/env bash
# Runs the whole CTest matrix (every backend's conformance suite, loader, CLI
# and unit tests) on a machine with a GPU, then sweeps every CUDA backend's
# conformance over many seeds, all backends at the same time on the one GPU
# (as users share a GPU), and prints the worst error per op per backend (v4 also
# at its precise setting, as "v4-precise", and with its edge layers' tensor-core
# kernels, as "v4-tensor-edges").
# usage: tests/gpu/run-matrix.sh [BUILD_DIR]
#   SEEDS=200   seeds per CUDA backend (1..SEEDS)
#   JOBS=4      seeds of one backend at a time (all backends run at once)
#   OUT=/tmp    where the logs and each sweep's report go (made if missing)
#   QUICK=1     sweep at --quick shapes
#   MODELS=4    random models per seed whose every layer shape is checked
#               (--models; each seed draws its own); LARGE=1 adds the model
#               presets on 96x96 images (--large-models), whose float64
#               reference takes minutes: those runs get --time-limit 7200
#   CTEST=0     only the sweeps (the CTest matrix already ran on this build)
#   MUTANT_SEEDS=20  seeds of the conformance suite's own test (the mutants, on
#               the cpu backend) after the GPU sweeps; CI sweeps fewer
#               (CMake's CAE_MUTANT_SEEDS); 0 skips it
#   BUILD_DIR: a carried build (tests/gpu/prepare-carry.sh makes .devbuild), or
#   a folder to configure and build into when it holds no build yet.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/.devbuild}
# Where the logs and sweep reports go (OUT), made if missing: every sweep
# below writes into it from the background.
out=${OUT:-/tmp}
mkdir -p "$out" || { echo "run-matrix.sh: cannot make the folder OUT=$out" >&2; exit 1; }
# shellcheck source=tests/gpu/use-build.sh
source "$root/tests/gpu/use-build.sh"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "nvidia-smi: no GPU visible"
"$build/bin/cae" backends
# The packaging test needs a complete build tree (CPack, CMake exports), which a
# carried build leaves out; CI runs it.
status=0
if [ "${CTEST:-1}" != 0 ]; then
# The mutants run on the cpu backend in CI: nothing GPU-specific to learn here.
ctest --test-dir "$build" --output-on-failure --timeout 900 -LE packaging -E 'mutants|browser|fuzz' \
  2>&1 | tee "$out/matrix.log"
status=${PIPESTATUS[0]}
echo "---- matrix summary ----"
grep -E '^ *[0-9]+/[0-9]+ Test +#' "$out/matrix.log" | sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: //'
grep -E 'tests passed|tests failed' "$out/matrix.log"
fi

# ---- seed sweeps, every CUDA backend at once ----
seeds=${SEEDS:-200}
jobs=${JOBS:-4}
quick=()
[ "${QUICK:-0}" = 1 ] && quick=(--quick)
plugins=$build/lib/cae/plugins
backends=$(ls "$plugins" | sed -n 's/^libcae-backend-\(.*\)\.so$/\1/p' | grep -vx cpu)
# Each child process computes its float64 references on one core: the
# backends' sweeps together fill the machine without oversubscribing it.
export OMP_NUM_THREADS=1
pids=()
swept=""
# start_sweep ENTRY BACKEND [NAME=VALUE...]: sweeps BACKEND's plugin with the
# given backend options in the background, logged as sweep-ENTRY.
start_sweep() {
  local entry=$1 backend=$2 option
  shift 2
  local options=()
  for option in "$@"; do options+=(--backend-option "$option"); done
  "$build/bin/cae-conformance" --backend "$plugins/libcae-backend-$backend.so" --seed 1 \
    --sweep "$seeds" --jobs "$jobs" "${quick[@]}" "${options[@]}" --models "${MODELS:-4}" \
    $([ "${LARGE:-0}" = 1 ] && echo --large-models --time-limit 7200) \
    --json "$out/sweep-$entry.json" \
    >"$out/sweep-$entry.log" 2>&1 &
  pids+=($!)
  swept="$swept $entry"
}
for b in $backends; do
  start_sweep "$b" "$b"
done
# v4's precise setting (plugins/v4/README.md, "The precise setting") runs other code paths:
# swept as its own entry, "v4-precise".
if [ -f "$plugins/libcae-backend-v4.so" ]; then
  start_sweep v4-precise v4 bf16-terms=3 fp32-conv=true
  # The edge layers' tensor-core variant (plugins/v4/README.md, "The
  # tensor-core variant"), kept beside the FP32 kernels: certified the same way.
  start_sweep v4-tensor-edges v4 edge-kernels=tensor-cores
fi
# Stopped (a time limit's SIGTERM, ^C), the sweeps are told to stop too: each
# stops its seeds and still prints the summary of those that ended, which
# this script then shows as usual. (The sweeps run in the background, where
# a signal to this script would not reach them.)
trap 'echo "run-matrix: stopped; stopping the sweeps (their summaries cover the seeds that ended)"
      kill -TERM "${pids[@]}" 2>/dev/null' TERM INT
sweep_status=0
i=0
for b in $swept; do
  # wait returns early when a trapped signal arrives: wait again for the
  # sweep itself.
  while :; do
    wait "${pids[$i]}"
    code=$?
    kill -0 "${pids[$i]}" 2>/dev/null || break
  done
  [ "$code" = 0 ] || sweep_status=1
  i=$((i + 1))
done
echo "---- sweeps: $seeds seeds per CUDA backend, all backends at once on one GPU ----"
for b in $swept; do
  echo "== $b"
  sed -n '/^worst error per op/,$p' "$out/sweep-$b.log"
  grep -E '^seed [0-9]+: (FAILED|CRASHED)' -A6 "$out/sweep-$b.log" | head -60
done
[ "$status" = 0 ] && status=$sweep_status

# ---- the conformance suite's own test, at the long sweep ----
# The mutants load the cpu backend by the path they were built with, and the
# manifest names them by path: a build carried from another folder cannot run
# them, which is reported as skipped, not passed.
mutant_seeds=${MUTANT_SEEDS:-20}
manifest=$build/tests/mutants/mutants.json
if [ "$mutant_seeds" != 0 ]; then
  echo "---- mutants: $mutant_seeds seeds each, and the control ----"
  if [ ! -f "$manifest" ]; then
    echo "SKIPPED: mutants: $manifest does not exist (a build without tests/mutants)"
  elif ! python3 -c 'import json, os, sys
m = json.load(open(sys.argv[1]))
sys.exit(0 if all(os.path.exists(p) for p in [m["control"]] + [x["library"] for x in m["mutants"]]) else 1)' "$manifest"; then
    echo "SKIPPED: mutants: the build was made in another folder (its manifest's paths do not exist here)"
  else
    mutant_run=(python3 "$root/tests/mutants/run_mutants.py" --suite "$build/bin/cae-conformance"
                --manifest "$manifest" --seeds "$mutant_seeds" --jobs "$(nproc)"
                --work-dir "$out/mutants" --suite-arg=--check-timeout=15)
    "${mutant_run[@]}" || status=1
    "${mutant_run[@]}" --control || status=1
  fi
fi
exit "$status"
