#!/usr/bin/env bash
# The benchmark suite over a GPU lease whose commands may each run only a few
# minutes: `start` runs the suite's parts in the background, detached (setsid)
# so that they outlive the command that started them, one
# tests/gpu/bench-suite.sh command per group of parts, each writing its own
# results folder; `collect` waits for them a while and copies what is finished.
# A group that ends (or is cut off with the lease) leaves the ones before it
# intact, and every group runs at the one commit the build was made from, so
# the merged tables name one commit and one GPU.
#
# usage: tests/gpu/suite-background.sh start BUILD_DIR --data DIR [--data-name NAME] [--work DIR]
#                                         [--group "PART PART ..."]... [--smoke]
#        tests/gpu/suite-background.sh collect SECONDS OUT_DIR [--work DIR]
#   start    returns at once; --group (repeatable) replaces the default groups, which run
#            every one-GPU part, the tables the README quotes first
#   collect  waits up to SECONDS (0: not at all) for the groups still running, then copies each
#            finished group's results to OUT_DIR/gN.json and the groups' logs (the step logs and
#            raw JSON, no features or checkpoints) to OUT_DIR/logs.tar.xz; prints the progress.
#            Exits 0 when every group has ended, 3 while some still run.
#   --work   where the groups write (default /tmp/cae-suite-background)
#   --smoke  the suite's smoke mode: checks this script and the suite on any machine
# Then, here: python3 tests/gpu/perf_tables.py update OUT_DIR/g*.json
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
usage() { sed -n '11,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }
fail() { echo "suite-background: $*" >&2; exit 2; }

# The default order: the README's pipelines, then the ingredients whose
# winner the README names and the ablation, then everything else.
default_groups=("pipeline" "ingredients-3 ingredients-4 ingredients-7" "ablation" "ingredients-8"
                "ingredients-1 ingredients-2 ingredients-6" "models" "ingredients-5" "ingredients-9" "search"
                "epoch-64 epoch-256" "torch-max" "conformance" "kernels" "pipeline-cpu")

start() {
  [ $# -ge 1 ] || usage
  local build=$1 data='' data_name='' work=/tmp/cae-suite-background mode=--full
  local groups=()
  shift
  while [ $# -gt 0 ]; do
    case $1 in
      --data) [ $# -ge 2 ] || fail "--data needs a folder"; data=$2; shift 2 ;;
      --data-name) [ $# -ge 2 ] || fail "--data-name needs a name"; data_name=$2; shift 2 ;;
      --work) [ $# -ge 2 ] || fail "--work needs a folder"; work=$2; shift 2 ;;
      --group) [ $# -ge 2 ] && [ -n "$2" ] || fail "--group needs parts"; groups+=("$2"); shift 2 ;;
      --smoke) mode=--smoke; shift ;;
      *) fail "unknown argument $1" ;;
    esac
  done
  [ -d "$build" ] || fail "no build folder $build"
  [ -n "$data" ] && [ -d "$data" ] || fail "--data DIR must name a CIFAR-10 folder"
  [ ${#groups[@]} -gt 0 ] || groups=("${default_groups[@]}")
  [ -e "$work/driver.log" ] && fail "$work holds an earlier run: remove it or name another --work"
  mkdir -p "$work" || fail "cannot make $work"
  local named=()
  [ -n "$data_name" ] && named=(--data-name "$data_name")
  # The driver: groups in order, each its own bench-suite command and folder.
  # shellcheck disable=SC2016
  setsid nohup bash -c '
    root=$1 build=$2 data=$3 work=$4 mode=$5; shift 5
    modes=(); [ "$mode" = --smoke ] && modes=(--smoke)
    named=(); [ "$1" = --data-name ] && { named=(--data-name "$2"); shift 2; }
    shift  # the "--" before the groups
    i=0
    for group in "$@"; do
      i=$((i + 1)); args=()
      for part in $group; do args+=(--part "$part"); done
      echo "$(date -u +%T) group $i: $group"
      PYTHONUNBUFFERED=1 "$root/tests/gpu/bench-suite.sh" "$build" --out "$work/g$i" --work "$work/g$i-work" \
        --data "$data" "${named[@]}" "${modes[@]}" "${args[@]}" --budget 600 >"$work/g$i.log" 2>&1
      echo "$(date -u +%T) group $i exit $?"
      touch "$work/g$i.done"
    done
    echo "$(date -u +%T) all groups ended"; touch "$work/all.done"
  ' suite-background "$root" "$build" "$data" "$work" "$mode" "${named[@]}" -- "${groups[@]}" \
    >"$work/driver.log" 2>&1 </dev/null &
  echo "suite-background: ${#groups[@]} groups started in the background; progress in $work/driver.log"
}

collect() {
  [ $# -ge 2 ] || usage
  local seconds=$1 out=$2 work=/tmp/cae-suite-background
  shift 2
  [[ $seconds =~ ^[0-9]+$ ]] || fail "SECONDS must be a whole number, got $seconds"
  while [ $# -gt 0 ]; do
    case $1 in
      --work) [ $# -ge 2 ] || fail "--work needs a folder"; work=$2; shift 2 ;;
      *) fail "unknown argument $1" ;;
    esac
  done
  [ -e "$work/driver.log" ] || fail "no run under $work (start one first)"
  mkdir -p "$out" || fail "cannot make $out"
  local end=$(($(date +%s) + seconds))
  while [ "$(date +%s)" -lt "$end" ] && [ ! -e "$work/all.done" ]; do sleep 5; done
  cat "$work/driver.log"
  local done_file group
  for done_file in "$work"/g*.done; do
    [ -e "$done_file" ] || continue
    group=$(basename "$done_file" .done)
    if [ -f "$work/$group/perf-results.json" ]; then
      cp "$work/$group/perf-results.json" "$out/$group.json"
    else
      echo "suite-background: $group wrote no results; the end of its log:"
      tail -5 "$work/$group.log"
    fi
  done
  (cd "$work" && { ls g*.log driver.log; find . -path '*/logs/*' -type f; find . -name '*.json' -size -2M; } 2>/dev/null |
    tar -cJf "$out/logs.tar.xz" -T -) || echo "suite-background: the logs could not be archived"
  [ -e "$work/all.done" ] && return 0
  echo "suite-background: groups still running"
  return 3
}

case ${1:-} in
  start) shift; start "$@" ;;
  collect) shift; collect "$@" ;;
  -h|--help) usage 0 ;;
  '') usage ;;
  *) fail "the first argument is start or collect (got $1)" ;;
esac
