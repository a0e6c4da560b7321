#!/usr/bin/env bash
# The feature ingredients' validation table: `cae pipeline` per variant
# (whitening, contrast normalisation, sparse codes, soft threshold, model
# presets) on the README's best recipe with --search, chosen on the validation
# split; writes OUT/ingredients.{json,md} (tests/gpu/ingredients_table.py says how).
# usage: tests/gpu/ingredients-table.sh BUILD_DIR --out DIR --data CIFAR_DIR
#          [--variants a,b,...] [--variant NAME=OPTIONS]... [--backend B] [--budget SECONDS]
#          [--limit SECONDS] [--work DIR] [--keep-runs] [--rerun] [--smoke] [--table-only]
#   BUILD_DIR: a carried build (tests/gpu/prepare-carry.sh makes .devbuild), or a folder to
#   configure and build into when it holds no build yet.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
case "${1:-}" in
  ''|-h|--help) exec python3 "$root/tests/gpu/ingredients_table.py" --help ;;
  -*) echo "ingredients-table: the first argument is the build folder (got $1)" >&2; exit 2 ;;
esac
build=$1
shift
# shellcheck source=tests/gpu/use-build.sh
source "$root/tests/gpu/use-build.sh"
exec python3 "$root/tests/gpu/ingredients_table.py" "$build" "$@"
