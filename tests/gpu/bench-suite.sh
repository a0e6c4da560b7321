#!/usr/bin/env bash
# One command for every table of docs/PERF.md and the README's "What to expect":
# cae's training epoch per backend beside PyTorch (measured in the same command),
# feature extraction, the SVM stage and its search alone, the whole pipeline,
# the ingredients' validation table, the model presets, data-parallel scaling
# beside PyTorch DDP, each backend's conformance error and TFLOP/s. Writes
# OUT/perf-results.json, OUT/perf-tables.md and OUT/logs/; then
#   python3 tests/gpu/perf_tables.py update OUT/perf-results.json
# merges the results into docs/perf-results.json and rewrites the docs.
# usage: tests/gpu/bench-suite.sh BUILD_DIR --out DIR [--quick|--smoke] [--part NAME]...
#          [--data CIFAR_DIR] [--backends B1,B2] [--budget SECONDS] [--commit SHA] [--python PY]
#          [--sweep-seeds N]
#   parts: epoch-64 epoch-256 torch-max pipeline pipeline-cpu ingredients-1 ... ingredients-9
#   ablation search models kernels
#   conformance ddp (default: all of them; with --quick all but the ingredients parts and search);
#   --quick runs those parts reduced, in under 10 minutes on one H100;
#   --budget (default 570 s) bounds the whole command: steps that do not fit are recorded
#   as not run. Each part alone fits the budget in full mode.
#   BUILD_DIR: a carried build (tests/gpu/prepare-carry.sh makes .devbuild), or a folder to
#   configure and build into when it holds no build yet.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
case "${1:-}" in
  ''|-h|--help) exec python3 "$root/tests/gpu/bench_suite.py" --help ;;
  -*) echo "bench-suite: the first argument is the build folder (got $1)" >&2; exit 2 ;;
esac
build=$1
shift
# shellcheck source=tests/gpu/use-build.sh
source "$root/tests/gpu/use-build.sh"
exec python3 "$root/tests/gpu/bench_suite.py" "$build" "$@"
