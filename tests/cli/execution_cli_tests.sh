#!/usr/bin/env bash
# CLI tests of --execution on the cpu backend, whose graphs (ABI 1.5) run
# through the interpreter of plugins/common: the same op members in the same
# order, so a run with --execution graph must give a checkpoint whose tensors
# are BIT-IDENTICAL to --execution ops (Adam with a partial last batch, SGD
# with momentum and denoising targets, two devices with the exchange between
# the backward graph and the update). A checkpoint records that graphs ran; a bad
# value is a command-line error; graph on a backend without graph members is
# one line at run time, before any training.
# usage: execution_cli_tests.sh CAE STUB_DIR COMPARE_CHECKPOINTS_PY
set -u
CAE=$1 STUB_DIR=$2 COMPARE=$3
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"

run "synthetic data" 0 "$CAE" data synth "$work/d" --train 24 --test 10
common=(--backend cpu --data "$work/d" --epochs 1 --threads 1)

# pair LABEL OPTIONS...: one run op by op, one as graphs, same tensors.
pair() {
  local label=$1
  shift
  run "$label op by op" 0 "$CAE" train "${common[@]}" "$@" --execution ops --out "$work/$label-ops.st"
  run "$label as graphs" 0 "$CAE" train "${common[@]}" "$@" --execution graph --out "$work/$label-graph.st"
  checks=$((checks + 1))
  python3 "$COMPARE" "$work/$label-ops.st" "$work/$label-graph.st" >/dev/null ||
    fail "$label: graph and ops give identical tensors" "$(python3 "$COMPARE" "$work/$label-ops.st" "$work/$label-graph.st")"
}
pair adam --batch 16
pair sgd --optimizer sgd --momentum 0.9 --lr 0.01 --input-noise 0.1 --batch 8
pair devices --batch 8 --devices 0,1

recorded() {  # recorded NAME FILE VALUE: the checkpoint's metadata says how it ran
  checks=$((checks + 1))
  head -c 8192 "$2" | grep -aq "\"execution\":\"$3\"" || fail "$1" "$2 does not record execution $3"
}
recorded "graph runs are recorded" "$work/adam-graph.st" graph
# A run op by op records nothing: its checkpoint stays as before graphs.
checks=$((checks + 1))
! head -c 8192 "$work/adam-ops.st" | grep -aq '"execution"' || fail "op runs record nothing" "$work/adam-ops.st"
run "auto runs graphs where the backend compiles them" 0 "$CAE" train "${common[@]}" --batch 16 \
  --out "$work/auto.st"
recorded "auto on cpu ran graphs" "$work/auto.st" graph

run_err "an unknown execution" 2 "$CAE" train "${common[@]}" --execution fast --out "$work/bad.st"
expect "an unknown execution names the choices" "--execution: unknown execution 'fast' \(auto, graph or ops\)"
one_line "an unknown execution is one line"
run_err "graph on a backend without graph members" 1 "$CAE" train --plugin-dir "$STUB_DIR" \
  --backend abi13 --data "$work/d" --epochs 1 --execution graph --out "$work/never.st"
expect "it says why" "the backend 'abi13' does not compile graphs"
one_line "graph refused is one line"
absent "no checkpoint without graphs" "$work/never.st"

run_err "graph with a penalty the graphs do not hold" 1 "$CAE" train "${common[@]}" --batch 8 \
  --sparsity l1:0.1 --execution graph --out "$work/sparse.st"
expect "it names --sparsity" "--execution graph does not cover --sparsity"
absent "no checkpoint of a refused run" "$work/sparse.st"
run_err "graph with winner-take-all codes the graphs do not hold" 1 "$CAE" train "${common[@]}" --batch 8 \
  --sparsity wta-spatial --execution graph --out "$work/wta.st"
expect "it names wta-spatial" "--execution graph does not cover --sparsity wta-spatial"
absent "no checkpoint of the refused wta run" "$work/wta.st"
run "auto with that penalty runs op by op" 0 "$CAE" train "${common[@]}" --batch 8 \
  --sparsity l1:0.1 --out "$work/sparse-auto.st"
checks=$((checks + 1))
! head -c 8192 "$work/sparse-auto.st" | grep -aq '"execution"' || fail "sparsity ran op by op" "$work/sparse-auto.st"

run "help lists --execution" 0 "$CAE" help train
expect "help lists --execution" "--execution auto\|graph\|ops"
run "info says cpu compiles graphs" 0 "$CAE" info --backend cpu
expect "info says cpu compiles graphs" '^graphs: +compiles graphs'
run "info says a 1.3 backend runs op by op" 0 "$CAE" info --plugin-dir "$STUB_DIR" --backend abi13
expect "a 1.3 backend has no graphs" '^graphs: +none: runs op by op'
run "backends -v says who compiles graphs" 0 "$CAE" backends -v --plugin-dir "$STUB_DIR"
expect "backends -v says so" "compiles graphs \(ABI 1\.5\)"
finish
