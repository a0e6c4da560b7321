#!/usr/bin/env bash
# Provenance (docs/reliability.md, "Provenance: products of different origins
# are not combined" and "Every stage knows the data's classes"): each
# classifier (kernel SVM and linear) records the weights, recipe and data of
# the features it was trained on, and `cae evaluate` refuses it with other
# weights, another recipe or other data, one line, exit 2; features.json is
# read through its folder's output set; a CIFAR-100 set goes through extract,
# svm and evaluate with its own 100 classes.
# Runs on the cpu backend with tiny data, one epoch.
# usage: provenance_cli_tests.sh CAE
set -u
CAE=$1
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/cli/test_lib.sh
source "$HERE/test_lib.sh"
cd "$work" || exit 1

B="--backend cpu"
T="--epochs 1 --batch 16"
setup() { "$@" >/dev/null 2>&1 || { echo "FAIL [setup: $*]"; exit 1; }; }

setup "$CAE" data synth D --train 40 --test 20 --seed 5
setup "$CAE" data synth D2 --train 50 --test 20 --seed 6
setup "$CAE" train $B --data D $T --out W/m.safetensors
setup "$CAE" train $B --data D $T --seed 2 --out W/other.safetensors
setup "$CAE" extract $B --weights W/m.safetensors --data D --out F
setup "$CAE" svm $B --features F --out W/svm.model
setup "$CAE" svm --features F --classifier linear --out W/linear.model

# ---- each classifier: foreign weights, recipe and data are refused ----
for kind in svm linear; do
  M=W/$kind.model
  error "$kind: foreign weights" 2 "^cae evaluate: $M was trained on features of the weights sha256 [0-9a-f]{12} \(W/m.safetensors\), but --weights W/other.safetensors holds sha256 [0-9a-f]{12}" \
    "$CAE" evaluate $B --weights W/other.safetensors --svm $M --data D --out R
  error "$kind: foreign recipe" 2 "^cae evaluate: $M was trained on latent features, but --features pyramid gives other features; give --features latent" \
    "$CAE" evaluate $B --weights W/m.safetensors --svm $M --features pyramid --data D --out R
  error "$kind: foreign data" 2 "^cae evaluate: $M was trained on features of 3x32x32 cifar10 images from D \(files sha256 [0-9a-f]{12}\), but --data gives 3x32x32 cifar10 images from D2 \(files sha256 [0-9a-f]{12}\); evaluate on the data the features were extracted from$" \
    "$CAE" evaluate $B --weights W/m.safetensors --svm $M --data D2 --out R
  absent "$kind: refusals write no report" R/report.json
  run "$kind: its own weights, recipe and data" 0 \
    "$CAE" evaluate $B --weights W/m.safetensors --svm $M --data D --out R_$kind
done
checks=$((checks + 1))
python3 - W/linear.model <<'PY' || fail "the linear model records its features' origin" "see above"
import json, struct, sys
b = open(sys.argv[1], "rb").read()
meta = json.loads(b[8:8 + struct.unpack("<Q", b[:8])[0]])["__metadata__"]
assert meta["features_recipe"] == "latent" and len(meta["weights_sha256"]) == 64, meta
assert json.loads(meta["data"])["format"] == "cifar10", meta
PY

# ---- features.json is read through its output set ----
# Another extraction's features.json, or an edited one, beside the features of
# a set is refused (exit 1) naming the file and the manifest; no model written.
setup "$CAE" extract $B --weights W/other.safetensors --data D --out F2
mkdir -p FX && cp F/* FX/ && cp F2/features.json FX/features.json
error "another extraction's features.json" 1 "^cae svm: FX/features.json is not the file \`cae extract\` \(set [0-9a-f]+\) wrote with the others in FX \(FX/cae-set.json\)" \
  "$CAE" svm --features FX --classifier linear --out W/x.model
cp F/features.json FX/features.json && sed -i 's/"weights": "W\/m.safetensors"/"weights": "W\/x.safetensors"/' FX/features.json
error "an edited features.json" 1 "^cae svm: FX/features.json is not the file \`cae extract\`" \
  "$CAE" svm --features FX --classifier linear --out W/x.model
absent "refused features: no model" W/x.model

# ---- CIFAR-100: every stage takes its classes from the data ----
python3 "$HERE/write_cifar100.py" C100 32 16 3 || { echo "FAIL [setup: write_cifar100.py]"; exit 1; }
setup "$CAE" train $B --data C100 $T --out W/c100.safetensors
run "extract cifar100" 0 "$CAE" extract $B --weights W/c100.safetensors --data C100 --out FC
for kind in svm linear; do
  # The linear classifier uses no backend (--backend is refused with it).
  backend=$B && [ $kind = linear ] && backend=
  # shellcheck disable=SC2086
  run "svm cifar100 ($kind)" 0 "$CAE" svm $backend --features FC --classifier $kind --out W/c100-$kind.model
  reject "svm cifar100 ($kind): labels are classes of the data" "not a class"
  run "evaluate cifar100 ($kind)" 0 \
    "$CAE" evaluate $B --weights W/c100.safetensors --svm W/c100-$kind.model --data C100 --out RC_$kind
  checks=$((checks + 1))
  grep -q '"fine-99"' RC_$kind/report.json || fail "evaluate cifar100 ($kind): the report names class 99" "RC_$kind/report.json"
done
# Labels beyond the data's classes are still refused, bounded by the data's count.
mkdir -p FC5 && cp FC/*.npy FC5/
python3 - FC/features.json FC5/features.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["data"]["class_names"] = doc["data"]["class_names"][:5]
json.dump(doc, open(sys.argv[2], "w"))
PY
error "labels beyond the recorded classes" 1 "^cae svm: FC5/train_labels.npy: label 7 at index 0 is not a class 0..4$" \
  "$CAE" svm --features FC5 --classifier linear --out W/c5.model

finish
