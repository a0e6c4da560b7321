#!/usr/bin/env bash
# --model end to end on the cpu backend and tiny synthetic data: the seed
# network's checkpoint and features are byte-identical to those of cae before
# networks were descriptions (hashes below: the tensors and features exactly
# as cae 6f3d089 wrote them with these settings, the input noise of the
# augmented run as ABI 1.12 defines its draws; the whole files as that
# checkpoint plus the "backend_options" record ABI 1.4 added and the "data"
# record of the images it trained on); each preset and a JSON description trains, is shown by
# `cae info --weights`, extracts, classifies and evaluates; bad descriptions
# are refused in one line.
# usage: model_cli_tests.sh CAE
set -u
CAE=$1
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
cd "$work" || exit 1

B="--backend cpu"
same_hash() {  # same_hash NAME FILE SHA256
  checks=$((checks + 1))
  local got
  got=$(sha256sum "$2" | cut -d' ' -f1)
  [ "$got" = "$3" ] || { echo "FAIL [$1]: $2 has sha256 $got, expected $3"; failures=$((failures + 1)); }
}
same_tensors() {  # same_tensors NAME CHECKPOINT SHA256: of the bytes after the safetensors header
  checks=$((checks + 1))
  local got
  got=$(python3 -c 'import hashlib, struct, sys
data = open(sys.argv[1], "rb").read()
print(hashlib.sha256(data[8 + struct.unpack("<Q", data[:8])[0]:]).hexdigest())' "$2")
  [ "$got" = "$3" ] || { echo "FAIL [$1]: $2 has tensor bytes $got, expected $3"; failures=$((failures + 1)); }
}

# ---- the seed network: results identical to before ----
# The hashes are of the cpu backend's bits, whose GEMMs are OpenBLAS's: on a
# machine with AVX-512 OpenBLAS picks other kernels (SkylakeX, Cooperlake),
# whose sums round differently. Its Haswell kernels (AVX2, which every x86-64
# machine this runs on has) give the same bits everywhere.
export OPENBLAS_CORETYPE=Haswell
run "synth" 0 "$CAE" data synth D --train 24 --test 10 --seed 5
run "seed train" 0 "$CAE" train $B --data D --epochs 2 --batch 8 --seed 7 --out W/seed.safetensors
same_tensors "seed tensors" W/seed.safetensors ed0c1c144af49a90be61b2c3afe82ef5daf82a9ddf53a62dd83020e1455c4030
same_hash "seed checkpoint" W/seed.safetensors be878cfbf96a5424da597754bb286f53d12e1666c9752b59ff356bd0ddcaf562
run "seed train augmented" 0 "$CAE" train $B --data D --epochs 1 --batch 8 --seed 7 \
  --augment flip-crop --input-noise 0.05 --model seed --out W/seed-aug.safetensors
# Its input noise is ABI 1.12's draws (cae_normal_draw), which the cpu backend adds.
same_tensors "seed augmented tensors" W/seed-aug.safetensors bdc0e226b850324223b0fada7325d8594d69363c67bb409134f31d4b27cb4b99
same_hash "seed augmented checkpoint" W/seed-aug.safetensors 2efd9179d1ff7d36a04bb3328fd46e0dc1c8b7389d68cbc74036bd73f9ce6c84
run "seed extract" 0 "$CAE" extract $B --weights W/seed.safetensors --data D --out FS
same_hash "seed latent features" FS/train_features.npy f8316ba777c1a08b9e70df2dcdb65e8caee3c1d31d8e2a08a3b86f7e3b723d1d
run "seed extract pyramid-flip" 0 "$CAE" extract $B --weights W/seed.safetensors --data D \
  --features pyramid-flip --out FP
same_hash "seed pyramid-flip features" FP/test_features.npy 872349ca79bfc6bf4e7d97b8dc46d24943cb35e1ddfa3e3d971abfb8a7bb5a66
run "seed info" 0 "$CAE" info --weights W/seed.safetensors
expect "seed info" "^model: +seed on 3x32x32 images"
expect "seed info" "encoder.conv1 +3 -> 256 +3x3 +kernel +32x32 +-> +16x16 +ReLU max-pool"
expect "seed info" "^parameters: +751875$"
expect "seed info" "feature dim 8192"

# ---- presets and a JSON description, train to evaluate ----
cat > small.json <<'JSON'
{"name": "small",
 "encoder": [{"channels": 6, "kernel": 5, "pool": true},
             {"channels": 5, "kernel": 3, "pool": true},
             {"channels": 4, "kernel": 1}]}
JSON
for model in wide deep small.json; do
  name=${model%.json}
  run "$name train" 0 "$CAE" train $B --data D --epochs 1 --batch 8 --model "$model" \
    --out "W/$name.safetensors"
  expect "$name train" "epoch 1/1  train loss [0-9.]+  test mse [0-9.]+"
  run "$name info" 0 "$CAE" info --weights "W/$name.safetensors"
  expect "$name info" "^model: +$name on 3x32x32 images"
  run "$name extract" 0 "$CAE" extract $B --weights "W/$name.safetensors" --data D \
    --features pyramid --out "F$name"
  exists "$name features" "F$name/train_features.npy"
  run "$name svm" 0 "$CAE" svm $B --features "F$name" --out "W/$name.svm"
  run "$name evaluate" 0 "$CAE" evaluate $B --weights "W/$name.safetensors" --svm "W/$name.svm" \
    --data D --features pyramid --out "R$name"
  expect "$name evaluate" "test accuracy: [0-9.]+%"
  exists "$name report" "R$name/report.html"
done
# Derived, never fixed: the dimension each model's pyramid gives.
run "wide info" 0 "$CAE" info --weights W/wide.safetensors
expect "wide info" "encoder.conv1 +3 -> 512 +5x5 +kernel"
checks=$((checks + 3))
grep -q '"dim": 12288' Fwide/features.json || fail "wide pyramid dim" "not 12288"
grep -q '"dim": 10240' Fdeep/features.json || fail "deep pyramid dim" "not 10240"
# small: conv1 6x4x4 + conv2 5x4x4 + conv3 4x8x8 -> 4x4 + latent 4x4x4.
grep -q '"dim": 304' Fsmall/features.json || fail "small pyramid dim" "not 304"
run "small info" 0 "$CAE" info --weights W/small.safetensors
# The mirrored decoder: 4->4 and 4->5 with 1x1 kernels (mirroring conv3), 5->6 3x3, 6->3 5x5.
expect "small info" "^parameters: +$(( (6*3*25+6) + (5*6*9+5) + (4*5+4) + (4*4+4) + (5*4+5) + (6*5*9+6) + (3*6*25+3) ))$"
expect "small info" "latent: +4x8x8 \(feature dim 256\)"

# ---- bad descriptions and combinations: one line, exit 2, nothing written ----
echo '{"encoder": [{"channels": 8, "kernel": 4}]}' > even.json
run_err "even kernel" 2 "$CAE" train $B --data D --model even.json --out W/bad.safetensors
expect "even kernel" "^cae train: --model: even.json: 'encoder\[0\].kernel' must be an odd whole number from 1 to 15, got 4$"
one_line "even kernel"
echo '{"encoder": [{"channels": 4, "pool": true}, {"channels": 4, "pool": true}, {"channels": 4, "pool": true}, {"channels": 4, "pool": true}, {"channels": 4, "pool": true}, {"channels": 4, "pool": true}]}' > deep-pools.json
run_err "pool of an odd size" 2 "$CAE" train $B --data D --model deep-pools.json --out W/bad.safetensors
expect "pool of an odd size" "encoder.conv6 max-pools a 1x1 map"
one_line "pool of an odd size"
# A description nested without limit, or holding a huge value: one short line.
python3 -c 'print("[" * 100000 + "]" * 100000)' > deep-arrays.json
python3 -c 'print("{\"encoder\": " + "[" * 10000 + "]" * 10000 + "}")' > deep-encoder.json
for file in deep-arrays.json deep-encoder.json; do
  run_err "$file" 2 "$CAE" train $B --data D --model $file --out W/bad.safetensors
  expect "$file" "^cae train: --model: $file: bad JSON: nested deeper than 64 levels$"
  one_line "$file"
done
python3 -c 'print("{\"encoder\": [{\"channels\": \"" + "x" * 100000 + "\"}]}")' > huge-channels.json
run_err "huge channels string" 2 "$CAE" train $B --data D --model huge-channels.json --out W/bad.safetensors
expect "huge channels string" "'encoder\[0\]\.channels' must be a whole number from 1 to [0-9]+, got \"x+\.\.\. \(100002 bytes\)$"
short_line "huge channels string" 300
run_err "unknown preset" 2 "$CAE" train $B --data D --model tall --out W/bad.safetensors
expect "unknown preset" "unknown model preset 'tall' \(seed, wide, deep, or a JSON file\)"
run_err "missing file" 2 "$CAE" pipeline $B --data D --model nothing.json --out P
expect "missing file" "nothing.json: no such preset or readable file"
run_err "model with resume" 2 "$CAE" train $B --data D --model wide --resume W/seed.safetensors
expect "model with resume" "--model cannot be combined with --resume"
absent "no partial checkpoint" W/bad.safetensors

run "help" 0 "$CAE" help train
expect "help" "--model NAME\|FILE.json"
expect "help" "wide: encoder 512@5x5\+pool"
run "help extract" 0 "$CAE" help extract
expect "help extract" "pyramid: conv1 4x4 \+ conv2 4x4 \+"
finish
