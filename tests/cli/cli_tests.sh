#!/usr/bin/env bash
# CLI tests of `cae`: listing, diagnostics, selection, bad options, and a
# backend compiled outside the tree against api/cae/backend.h alone.
# usage: cli_tests.sh CAE STUB_DIR API_DIR C_COMPILER MINIMAL_BACKEND_C
set -u
CAE=$1 STUB_DIR=$2 API_DIR=$3 CC=$4 MINIMAL_C=$5
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"

run "backends lists cpu" 0 "$CAE" backends
expect "backends lists cpu" '^cpu +[0-9.]+ +ABI 1\.[0-9]+ +available: '

run "backends -v explains rejected files" 0 "$CAE" backends -v --plugin-dir "$STUB_DIR"
expect "-v: no entry symbol" 'missing entry symbol cae_backend_get_table: .*undefined symbol'
expect "-v: wrong major" 'ABI major mismatch: backend speaks 2\.[0-9]+, host speaks 1\.[0-9]+'
expect "-v: table too small" 'table too small: [0-9]+ bytes, the host needs at least [0-9]+'
expect "-v: not a plugin" 'libnot-a-plugin\.so.*|not a plugin: cannot be loaded'
expect "-v: unavailable with reason" '^unavail .*unavailable: stub: no such device on this machine'
expect "-v: folders searched" 'folders searched, in order'

run "unknown backend" 2 "$CAE" info --backend nosuchbackend
expect "unknown backend" "unknown backend 'nosuchbackend'; available: .*cpu"
one_line "unknown backend"

run "backend names are case-insensitive" 0 "$CAE" info --backend CPU
expect "case-insensitive" '^backend: +cpu '

# What an unavailable backend's table declares needs no device: listed, then refused.
run "unavailable backend described" 2 "$CAE" info --plugin-dir "$STUB_DIR" --backend unavail
expect "unavailable backend described" '^backend: +unavail '
expect "unavailable backend described" '^device: +none: unavailable here'
expect "unavailable backend described" '^ops:'
run_err "unavailable backend refused" 2 "$CAE" info --plugin-dir "$STUB_DIR" --backend unavail
expect "unavailable backend refused" "backend 'unavail' is unavailable here: stub: no such device.*; what its table declares is listed above"
one_line "unavailable backend refused"

run "non-numeric --device" 2 "$CAE" backends --device abc
expect "non-numeric --device" "argument \('abc'\) for option '--device' is invalid"
one_line "non-numeric --device"

run "negative --device" 2 "$CAE" info --device -3
expect "negative --device" -- '--device must be >= 0'
one_line "negative --device"

run "unknown option" 2 "$CAE" backends --frobnicate
expect "unknown option" "unrecognised option '--frobnicate'"
one_line "unknown option"

run "unknown command" 2 "$CAE" frobnicate
expect "unknown command" "unknown command 'frobnicate'"
one_line "unknown command"

run "help for a command" 0 "$CAE" help backends
expect "help for a command" '^usage: cae backends'

# A backend built outside the tree, from the ABI header alone, in strict C99.
"$CC" -std=c99 -pedantic -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
  -I "$API_DIR" -DSTUB_NAME='"outoftree"' -o "$work/libmy-backend.so" "$MINIMAL_C"
checks=$((checks + 1))
[ -f "$work/libmy-backend.so" ] || { echo "FAIL [out-of-tree build]"; failures=$((failures + 1)); }

run "out-of-tree backend by path" 0 "$CAE" info --backend "$work/libmy-backend.so"
expect "out-of-tree backend by path" '^backend: +outoftree 0\.0\.1'
run "out-of-tree backend via --plugin-dir" 0 "$CAE" backends --plugin-dir "$work"
expect "out-of-tree backend via --plugin-dir" "^outoftree .*available"
run "out-of-tree backend via CAE_PLUGIN_PATH" 0 env CAE_PLUGIN_PATH="/nonexistent:$work" "$CAE" backends
expect "out-of-tree backend via CAE_PLUGIN_PATH" "^outoftree .*available"

# The current directory is never searched unless named.
run "cwd not searched" 0 bash -c "cd '$work' && '$CAE' backends"
reject "cwd not searched" "outoftree"

finish
