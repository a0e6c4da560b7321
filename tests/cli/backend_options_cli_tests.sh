#!/usr/bin/env bash
# CLI tests of --backend-option against the stub plugins: `cae info` lists a
# backend's declared options with their defaults, allowed values and help;
# a chosen value reaches the backend; an undeclared name, a value outside
# its declaration (NaN included) or any option for a backend built against
# ABI 1.3 (or one that declares none) is a one-line command-line error, exit 2.
# usage: backend_options_cli_tests.sh CAE STUB_DIR
set -u
CAE=$1 STUB_DIR=$2
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"

stub=(--plugin-dir "$STUB_DIR" --backend optstub)
run "info lists the options" 0 "$CAE" info "${stub[@]}"
expect "a float option with its default" '^  scale=1  \(default\)$'
expect "its allowed values" 'float: a finite number in 0\.25\.\.4'
expect "an enum option" 'enum: one of red\|green\|blue'
expect "help of an option" 'relu_forward multiplies its output by this'

run "a chosen value reaches the backend" 0 "$CAE" info "${stub[@]}" \
  --backend-option colour=blue --backend-option units=7
expect "shown against its default" '^  colour=blue  \(default red\)$'
expect "the backend computed with it" '^device: +minimal host memory blue$'
expect "the integer option too" '^compute units: 7$'

for bad in "speed=3" "scale=9" "scale=nan" "units=2.5" "exact=yes" "colour=pink" "units"; do
  run_err "bad option '$bad'" 2 "$CAE" info "${stub[@]}" --backend-option "$bad"
  expect "bad option '$bad' names it" "^cae info: --backend-option"
  one_line "bad option '$bad' is one line"
done
run_err "an option given twice" 2 "$CAE" info "${stub[@]}" --backend-option units=2 \
  --backend-option units=3
expect "given twice" "units is given twice"

run_err "a 1.3 backend has no options" 2 "$CAE" info --plugin-dir "$STUB_DIR" --backend abi13 \
  --backend-option scale=2
expect "a 1.3 backend says why" "backend abi13 \(ABI 1\.3\) declares no options \(options need ABI 1\.4\)"
run "a 1.3 backend without options" 0 "$CAE" info --plugin-dir "$STUB_DIR" --backend abi13
expect "it lists none" '^options: +none \(options need ABI 1\.4\)$'
run_err "cpu declares none" 2 "$CAE" info --backend cpu --backend-option threads=2
expect "cpu declares none" "backend cpu \(ABI 1\.[0-9]+\) declares no options"
run_err "train refuses a bad option before any work" 2 "$CAE" train --backend cpu \
  --backend-option x=1 --data "$work/none" --out "$work/never.st"
expect "the option, not the missing data, is named" "backend cpu .* declares no options"
absent "no checkpoint" "$work/never.st"
finish
