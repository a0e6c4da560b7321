#!/usr/bin/env bash
# The consistency contract of `cae` (docs/reliability.md, "Options take effect
# or are refused", "Every stage checked before the first" and the sections
# after them): no option is silently dropped, `pipeline` refuses what a later
# stage would refuse before it trains, files are what they claim, and the
# products of different runs are not mixed. Every check asserts the exit
# code, the one-line message and that no work was done.
# Runs on the cpu backend with tiny synthetic data.
# usage: consistency_cli_tests.sh CAE
set -u
CAE=$1
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
cd "$work" || exit 1

B="--backend cpu"

"$CAE" data synth D --train 40 --test 20 --seed 5 >/dev/null || { echo "setup: synth failed"; exit 1; }
"$CAE" train $B --data D --epochs 1 --batch 32 --out W/m.safetensors >/dev/null || { echo "setup: train failed"; exit 1; }
"$CAE" extract $B --weights W/m.safetensors --data D --out F >/dev/null || { echo "setup: extract failed"; exit 1; }

# ---- options take effect or are refused at once (exit 2) ----
# Values other than the checkpoint's are refused; the same value is accepted.
for option in "--lr 0.01" "--batch 8" "--optimizer sgd" "--seed 9" "--momentum 0.5" \
              "--weight-decay 0.1" "--recipe seed" "--augment flip" "--input-noise 0.1" \
              "--lr-schedule cosine"; do
  # --data names nothing: the refusal comes before any data is read.
  # shellcheck disable=SC2086
  error "train --resume $option" 2 "^cae train: ${option%% *} cannot change a resumed run" \
    "$CAE" train $B --data nowhere --resume W/m.safetensors --out W/r.safetensors $option
done
absent "refused resumes write nothing" W/r.safetensors
run "train --resume --epochs extends the run" 0 \
  "$CAE" train $B --data D --resume W/m.safetensors --epochs 2 --out W/r.safetensors
expect "train --resume --epochs extends the run" "resuming W/m.safetensors at epoch 2"
run "train --resume with the checkpoint's own --batch" 0 \
  "$CAE" train $B --data D --resume W/r.safetensors --epochs 3 --batch 32 --out W/r.safetensors
error "--momentum with adam" 2 "^cae train: --momentum applies to --optimizer sgd only" \
  "$CAE" train $B --data nowhere --optimizer adam --momentum 0.9
for option in "--C 2" "--gamma 0.1"; do
  # shellcheck disable=SC2086
  error "svm --search $option" 2 "^cae svm: ${option%% *} is not used with --search" \
    "$CAE" svm $B --features F --out W/s.model --search $option
done
error "svm --search-C 1,,2" 2 "^cae svm: --search-C has an empty value in '1,,2'" \
  "$CAE" svm $B --features F --out W/s.model --search --search-C 1,,2
error "svm --search-gamma 1x," 2 "^cae svm: --search-gamma has an empty value" \
  "$CAE" svm $B --features F --out W/s.model --search --search-gamma 1x,
error "svm --search-C without --search" 2 "^cae svm: --search-C is used only with --search" \
  "$CAE" svm $B --features F --out W/s.model --search-C 1,2
error "svm --search-gamma without --search" 2 "^cae svm: --search-gamma is used only with --search" \
  "$CAE" svm $B --features F --out W/s.model --search-gamma 1x
error "svm --gamma with a linear kernel" 2 "^cae svm: --gamma does not apply to --kernel linear" \
  "$CAE" svm $B --features F --out W/s.model --kernel linear --gamma 0.5
error "svm --validation-seed without a split" 2 "^cae svm: --validation-seed is used only with a validation split" \
  "$CAE" svm $B --features F --out W/s.model --validation-seed 3
error "svm --search-C past the range of --C" 2 "^cae svm: --search-C: 1e12 is outside 1e-06..1e\+09" \
  "$CAE" svm $B --features F --out W/s.model --search --search-C 1e12
absent "refused svm runs write nothing" W/s.model

# ---- pipeline: every stage's options are checked before the first stage ----
# Each of these would be found by the SVM stage; pipeline must refuse it before
# training (no "epoch" line, no checkpoint).
pipeline_refuses() {
  local name=$1 rc=$2 pattern=$3
  shift 3
  error "pipeline $name" "$rc" "$pattern" "$CAE" pipeline $B --data D --epochs 1 --out P "$@"
  reject "pipeline $name: before training" "epoch 1"
  absent "pipeline $name: no checkpoint" P/model.safetensors
}
pipeline_refuses "--search-gamma garbage" 2 "--search-gamma: bad SVM gamma 'garbage'" --search --search-gamma garbage
pipeline_refuses "--search-gamma 1e300" 2 "--search-gamma: SVM gamma '1e300' is outside the range of a float" --search --search-gamma 1e300
pipeline_refuses "--gamma 1e300" 2 "^cae pipeline: SVM gamma '1e300' is outside the range of a float" --gamma 1e300
pipeline_refuses "--gamma 1e-300" 2 "^cae pipeline: SVM gamma '1e-300' is outside the range of a float" --gamma 1e-300
pipeline_refuses "--validation 99999" 2 "--validation 99999: a validation split needs between 1 and 39 of the 40 training rows" --validation 99999
pipeline_refuses "--validation takes a class" 2 "--validation 36: the validation split of 36 rows takes every row of a class" --validation 36
pipeline_refuses "--samples 1" 1 "^cae pipeline: the 1 training images of D holds 1 class; an SVM needs at least two" --samples 1
pipeline_refuses "--search with too few rows for auto" 2 "--search needs a validation split, but --validation auto holds out 0" --samples 8 --search
pipeline_refuses "--C with --search" 2 "^cae pipeline: --C is not used with --search" --search --C 3
# The same check serves `cae svm` (one validation pass, not a copy).
error "svm --validation 99999" 2 "^cae svm: --validation 99999: a validation split needs between 1 and 39" \
  "$CAE" svm $B --features F --out W/s.model --validation 99999
error "svm --gamma 1e300" 2 "^cae svm: SVM gamma '1e300' is outside the range of a float" \
  "$CAE" svm $B --features F --out W/s.model --gamma 1e300

# ---- provenance: products name what produced them; mismatches are refused ----
"$CAE" extract $B --weights W/m.safetensors --data D --features pyramid --out FP >/dev/null
"$CAE" svm $B --features F --out W/latent.model >/dev/null
"$CAE" svm $B --features FP --out W/pyramid.model >/dev/null
"$CAE" train $B --data D --epochs 1 --batch 32 --seed 2 --out W/other.safetensors >/dev/null
checks=$((checks + 1))
python3 - W/latent.model F/features.json <<'PY' || fail "the model carries the features' provenance" "see above"
import json, struct, sys
b = open(sys.argv[1], "rb").read()
meta = json.loads(b[8:8 + struct.unpack("<Q", b[:8])[0]])["__metadata__"]
features = json.load(open(sys.argv[2]))
assert len(features["weights_sha256"]) == 64, features
assert meta["weights_sha256"] == features["weights_sha256"], (meta, features)
assert meta["features_recipe"] == "latent", meta
PY
error "a pyramid model on latent features" 2 "^cae evaluate: W/pyramid.model was trained on pyramid features, but --features latent gives other features; give --features pyramid" \
  "$CAE" evaluate $B --weights W/m.safetensors --svm W/pyramid.model --data D --features latent --out R1
absent "a pyramid model on latent features: no report" R1/report.json
error "a model of another checkpoint" 2 "^cae evaluate: W/latent.model was trained on features of the weights sha256 [0-9a-f]{12} \(W/m.safetensors\), but --weights W/other.safetensors holds sha256 [0-9a-f]{12}" \
  "$CAE" evaluate $B --weights W/other.safetensors --svm W/latent.model --data D --out R2
absent "a model of another checkpoint: no report" R2/report.json
run "the matching checkpoint and recipe" 0 "$CAE" evaluate $B --weights W/m.safetensors --svm W/pyramid.model --features pyramid --data D --out R3
checks=$((checks + 1))
grep -q "weights sha256" R3/report.json || fail "the report records the weights' identity" "R3/report.json"
mkdir -p FB && cp F/*.npy FB/ && sed 's/"recipe": "latent"/"recipe": "bogus"/' F/features.json >FB/features.json
error "features.json of an unknown recipe" 1 "^cae svm: FB/features.json: unknown feature recipe 'bogus'" \
  "$CAE" svm $B --features FB --out W/b.model
# The recipe and its dimension edited together: features.json is what cae
# trusts for the dimension, and it must agree with the features' columns.
sed 's/"recipe": "latent"/"recipe": "latent-quadrants"/; s/"dim": 8192/"dim": 9728/' F/features.json >FB/features.json
error "features.json that disagrees with the features" 1 "^cae svm: FB/features.json says recipe latent-quadrants \(9728-d\), but FB/train_features.npy has 8192 columns" \
  "$CAE" svm $B --features FB --out W/b.model
printf '{"recipe": "latent", "model": "mine", "dim": 1e300}' >FB/features.json
error "features.json with a dimension out of range (was undefined)" 1 "^cae svm: FB/features.json is damaged: 'dim' is not a whole number" \
  "$CAE" svm $B --features FB --out W/b.model
printf '{"recipe": "bo\\ngus"}' >FB/features.json
error "features.json of an unknown recipe with a newline: one line" 1 "^cae svm: FB/features.json: unknown feature recipe 'bo\\\\x0agus'" \
  "$CAE" svm $B --features FB --out W/b.model
absent "refused features: no model" W/b.model

# ---- files are what they claim ----
python3 - <<'PY'
import json, struct
def load(path):
    b = open(path, "rb").read()
    n = struct.unpack("<Q", b[:8])[0]
    return b[8:8 + n].decode(), b[8 + n:]
def save(path, text, data):
    h = text.encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    open(path, "wb").write(struct.pack("<Q", len(h)) + h + data)
text, data = load("W/m.safetensors")
header = json.loads(text)
first = next(k for k in header if k != "__metadata__")
entry = json.dumps(header[first])
# The same tensor name twice (its second entry pointing at the same bytes).
save("W/dup-tensor.safetensors", text.replace("{", "{%s: %s, " % (json.dumps(first), entry), 1), data)
meta = header["__metadata__"]
import re
save("W/dup-meta.safetensors", re.sub(r'"__metadata__":\s*\{', '"__metadata__": {"seed": "7", ', text, count=1), data)
for field, value, name in [("format", "cae-checkpoint-9", "format"), ("recipe", "turbo", "recipe"),
                           ("architecture", "resnet", "architecture")]:
    h = json.loads(text)
    h["__metadata__"][field] = value
    save("W/%s.safetensors" % name, json.dumps(h), data)
PY
error "a tensor named twice" 1 "^cae extract: W/dup-tensor.safetensors: JSON header has the key '[a-z0-9_.]+' twice in the top level" \
  "$CAE" extract $B --weights W/dup-tensor.safetensors --data D --out X1
error "a metadata key named twice" 1 "^cae extract: W/dup-meta.safetensors: JSON header has the key 'seed' twice in '__metadata__'" \
  "$CAE" extract $B --weights W/dup-meta.safetensors --data D --out X1
error "an unknown checkpoint format" 1 "^cae extract: W/format.safetensors: checkpoint metadata 'format' is 'cae-checkpoint-9', not cae-checkpoint-1" \
  "$CAE" extract $B --weights W/format.safetensors --data D --out X1
error "an unknown recipe" 1 "^cae train: W/recipe.safetensors: checkpoint metadata 'recipe' is 'turbo', not a training recipe" \
  "$CAE" train $B --data D --resume W/recipe.safetensors --epochs 3 --out W/r2.safetensors
error "another architecture" 1 "^cae extract: W/architecture.safetensors: checkpoint metadata 'architecture' is 'resnet'" \
  "$CAE" extract $B --weights W/architecture.safetensors --data D --out X1
absent "refused checkpoints: no features" X1/train_features.npy
mkdir -p DL && cp D/* DL/ && rm DL/test_batch.bin && ln -s test_batch.bin DL/test_batch.bin
error "a symlink loop is a loop, not missing" 1 "^cae data: cannot use DL/test_batch.bin: .*\(a loop of symbolic links\)$" \
  "$CAE" data check DL --data-format cifar10
ln -s loop loop
error "--out inside a symlink loop" 1 "^cae extract: cannot [a-z ]+ loop/sub: .*\(a loop of symbolic links\)$" \
  "$CAE" extract $B --weights W/m.safetensors --data D --out loop/sub
reject "--out inside a symlink loop: no library text" "filesystem error"
# A batch file larger than the address space: `data check` streams it; a
# command that must hold it names it.
mkdir -p HUGE && cp D/test_batch.bin D/batches.meta.txt HUGE/ && truncate -s $((3073 * 700000)) HUGE/data_batch_1.bin
# A sanitized cae cannot start under an address-space limit: the plain build
# (CI's first stage) runs this check, the sanitized one says it does not.
if ldd "$CAE" 2>/dev/null | grep -q libasan; then
  echo "SKIPPED: data check under an address-space limit (a sanitized build cannot start under one)"
else
  run "data check streams a file larger than memory" 0 prlimit --as=1500000000 "$CAE" data check HUGE
  expect "data check streams a file larger than memory" "train: 700000 images"
fi
cp R3/report.json R3/report.json.good
sed -i 's/"accuracy": [0-9.e+-]*/"accuracy": "high"/' R3/report.json
error "a damaged report.json" 1 "^cae report: .*R3/report.json" "$CAE" report R3
reject "a damaged report.json: no library codes" "json.exception"

finish
