#!/usr/bin/env bash
# CLI tests of --devices on the cpu backend (4 logical devices): the device
# count in `cae backends`, one-line errors for bad lists, a global batch the
# devices cannot share, training on 2 devices against 1 at the same global
# batch (loss curve within 1e-4), bit-identical reruns, and `cae extract`
# split over 2 devices, and `cae bench --devices`.
# usage: devices_cli_tests.sh CAE STUB_DIR
set -u
CAE=$1 STUB_DIR=$2
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"

same() {  # same NAME A B: two values are equal
  checks=$((checks + 1))
  if [ "$2" != "$3" ]; then
    echo "FAIL [$1]: '$2' != '$3'"
    failures=$((failures + 1))
  fi
}

run "backends shows device counts" 0 "$CAE" backends --plugin-dir "$STUB_DIR"
expect "cpu has 4 logical devices" '^cpu .*available: .*, 4 devices$'
expect "an ABI 1.0 plugin is listed as such" '^abi10 +0\.0\.1 +ABI 1\.0 +available: .*1 device$'

run "synthetic data" 0 "$CAE" data synth "$work/d" --train 40 --test 16
common=(--backend cpu --data "$work/d" --epochs 2 --threads 1)
for bad in "0,x" "0,,1" "0,0" "7" "0," "-1" ""; do
  run_err "bad list '$bad'" 2 "$CAE" train "${common[@]}" --batch 8 --devices "$bad" --out "$work/bad.st"
  expect "bad list '$bad' names --devices" "^cae train: .*--devices"
  one_line "bad list '$bad' is one line"
done
run_err "--device with --devices" 2 "$CAE" train "${common[@]}" --device 1 --devices 0,1 --out "$work/bad.st"
expect "--device with --devices" "give --device or --devices, not both"
run_err "batch not divisible" 2 "$CAE" train "${common[@]}" --batch 10 --devices 0,1,2 --out "$work/bad.st"
expect "batch not divisible" "--batch 10 cannot be split into 3 equal shards"
one_line "batch not divisible is one line"

# train LABEL DEVICES: the loss curve ("l1 l2") of a run with global batch 8.
train() {
  run "train $1" 0 "$CAE" train "${common[@]}" --batch 8 --devices "$2" --out "$work/$1.st"
  losses=$(tr '\r' '\n' <<<"$out" | sed -nE 's/^epoch [0-9]+\/[0-9]+ +train loss ([0-9.]+).*/\1/p' | tr '\n' ' ')
}
train one 0; one=$losses
reject "one device names no exchange" "gradients exchanged"
train two 0,1; two=$losses
expect "2 devices run data parallel" "data parallel over 2 devices, 4 images per device"
# 40 images at batch 8, 2 epochs: 10 steps, each one graph with its exchange
# inside (the cpu backend runs all_reduce_sum nodes through its group).
expect "2 devices say how their steps exchanged" "gradients exchanged inside the step graphs on 10 of 10 steps"
train two-again 0,1
train all all
expect "--devices all takes every device" "data parallel over 4 devices, 2 images per device"
checks=$((checks + 1))
if ! python3 - "$one" "$two" <<'PY'; then
import sys
a, b = [list(map(float, s.split())) for s in sys.argv[1:3]]
assert len(a) == 2 and len(b) == 2, (a, b)
for x, y in zip(a, b):
    assert abs(x - y) <= 1e-4 * max(abs(x), 1e-12), (a, b)
PY
  echo "FAIL [2 devices follow 1 device]: loss curves '$one' vs '$two'"
  failures=$((failures + 1))
fi
checks=$((checks + 1))
if ! cmp -s "$work/two.st" "$work/two-again.st"; then
  echo "FAIL [rerun on 2 devices]: checkpoints differ"
  failures=$((failures + 1))
fi

run "extract on 1 device" 0 "$CAE" extract --backend cpu --threads 1 --weights "$work/one.st" --data "$work/d" --out "$work/f1"
run "extract on 2 devices" 0 "$CAE" extract --backend cpu --threads 1 --devices 0,1 --weights "$work/one.st" --data "$work/d" --out "$work/f2"
expect "extract on 2 devices" "backend cpu on .*, 2 devices"
for f in train_features test_features train_labels; do
  checks=$((checks + 1))
  if ! cmp -s "$work/f1/$f.npy" "$work/f2/$f.npy"; then
    echo "FAIL [extract split by rows]: $f.npy differs between 1 and 2 devices"
    failures=$((failures + 1))
  fi
done

# cae bench --devices: the data-parallel benchmark (one device vs several at
# the same per-device batch, and the fused exchange alone) on a tiny epoch.
run "bench on 2 devices" 0 "$CAE" bench --backend cpu --threads 1 --devices 0,1 --batch 4 --images 8 \
  --repeats 2 --json "$work/dp.json"
expect "bench reports the speed-up" "^  2 devices, batch +4: .* images/s, speed-up [0-9.]+x$"
expect "bench reports the exchange" "fused gradient exchange: 3\.01 MB per device"
checks=$((checks + 1))
if ! python3 - "$work/dp.json" <<'PY'; then
import json, sys
r = json.load(open(sys.argv[1]))
assert r["devices"] == 2 and r["global_batch"] == 4 and r["steps"] == 2, r
assert r["gradient_bytes"] == 751875 * 4, r
assert r["single_device_seconds"] > 0 and r["parallel_seconds"] > 0 and r["exchange_ms"] > 0, r
PY
  echo "FAIL [bench --devices --json]: $(cat "$work/dp.json")"
  failures=$((failures + 1))
fi
run_err "bench batch not divisible" 2 "$CAE" bench --backend cpu --devices 0,1 --batch 5
expect "bench batch not divisible" "--batch 5 must be a multiple of the 2 devices"
one_line "bench batch not divisible is one line"
run_err "bench --devices with all" 2 "$CAE" bench --backend all --devices 0,1
expect "bench --devices with all" "--devices compares devices of ONE backend"

finish
