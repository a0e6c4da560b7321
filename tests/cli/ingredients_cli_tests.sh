#!/usr/bin/env bash
# End-to-end CLI tests of the feature ingredients on the cpu backend and a
# small 8x8 image set (whitening's covariance is 192x192, learned at once):
# pipeline with --whiten zca --contrast-normalize --sparsity (l1:LAMBDA and
# wta-spatial) and
# --feature-threshold, the transform stored in the checkpoint and applied by
# extract and evaluate, resumption refusing other settings, and bad values
# refused with one line and exit 2 before anything is written.
# usage: ingredients_cli_tests.sh CAE
set -u
CAE=$1
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$work" || exit 1

# same_accuracy NAME DIR1 DIR2: the two runs' reports give the same test accuracy.
same_accuracy() {
  checks=$((checks + 1))
  local first second
  first=$(grep -oE '"accuracy": [0-9.e-]+' "$2/report.json" | head -1)
  second=$(grep -oE '"accuracy": [0-9.e-]+' "$3/report.json" | head -1)
  [ -n "$first" ] && [ "$first" = "$second" ] || fail "$1" "$2: $first, $3: $second"
}

B="--backend cpu"
T="--epochs 1 --batch 32 --validation 40"
python3 "$HERE/write_small_images.py" NP 200 8 5 || { echo "FAIL [writing the image set]"; exit 1; }

run "pipeline zca + contrast" 0 "$CAE" pipeline $B --defaults baseline --data NP $T --whiten zca --contrast-normalize --augment flip \
  --search --search-C 1,2 --search-gamma 1x --out R
expect "pipeline zca + contrast" "input transform: contrast-normalized, zca:0.1 whitening, learned on 160 images"
expect "pipeline zca + contrast" "test accuracy: [0-9.]+%"
exists "pipeline zca + contrast: checkpoint" R/model.safetensors
checks=$((checks + 1))
head -c 8192 R/model.safetensors | grep -q '"format":"cae-checkpoint-2"' ||
  fail "checkpoint format" "a checkpoint with a transform is not cae-checkpoint-2"
checks=$((checks + 1))
head -c 8192 R/model.safetensors | grep -q '"input.whitening"' || fail "checkpoint tensors" "no input.whitening"
checks=$((checks + 1))
grep -q '"input transform", "contrast-normalized, zca:0.1 whitening"' R/report.json ||
  grep -q 'contrast-normalized, zca:0.1 whitening' R/report.json || fail "report" "no input transform in report.json"
# The search's own time, apart from the rest of the SVM stage, is in the report.
expect "pipeline zca + contrast" "search: 2 candidates in [0-9.]+ s \(warm-started\)"
checks=$((checks + 1))
python3 -c 'import json, sys; s = dict(json.load(open(sys.argv[1]))["settings"]); float(s["svm search s"]); assert s["svm search"].startswith("2 candidates, warm-started"), s' R/report.json ||
  fail "report" "no svm search settings in report.json"

run "info whitened" 0 "$CAE" info --weights R/model.safetensors
expect "info whitened" "input transform: contrast-normalized, zca:0.1 whitening"

# extract applies the checkpoint's transform: twice the same features; the
# same training without the transform gives others.
run "extract whitened" 0 "$CAE" extract $B --weights R/model.safetensors --data NP --out E1
run "extract whitened again" 0 "$CAE" extract $B --weights R/model.safetensors --data NP --out E2
checks=$((checks + 1))
grep -q '"input_transform": "contrast-normalized, zca:0.1 whitening"' E1/features.json ||
  fail "extract features.json" "$(cat E1/features.json)"
checks=$((checks + 1))
cmp -s E1/train_features.npy E2/train_features.npy || fail "extract repeat" "features differ between two runs"
run "train plain" 0 "$CAE" train $B --data NP --epochs 1 --batch 32 --out P.safetensors
checks=$((checks + 1))
head -c 8192 P.safetensors | grep -q '"format":"cae-checkpoint-1"' || fail "plain format" "a plain checkpoint is not cae-checkpoint-1"
run "extract plain" 0 "$CAE" extract $B --weights P.safetensors --data NP --out E3
checks=$((checks + 1))
cmp -s E1/train_features.npy E3/train_features.npy && fail "transform applied" "whitened and plain checkpoints give the same features"
# the pipeline's own features are the extracted ones: evaluate agrees with it.
run "evaluate whitened" 0 "$CAE" evaluate $B --weights R/model.safetensors --svm R/svm.model --data NP --out V
expect "evaluate whitened" "test accuracy: [0-9.]+%"
same_accuracy "evaluate = pipeline" R V

# pca, sparse codes and the soft threshold, recorded where they change results.
run "pipeline pca + l1 + threshold" 0 "$CAE" pipeline $B --defaults baseline --data NP $T --whiten pca:0.05 \
  --sparsity l1:0.5 --feature-threshold 0.1 --out S
expect "pipeline pca + l1 + threshold" "input transform: pca:0.05 whitening"
checks=$((checks + 1))
grep -q '"recipe": "latent+threshold:0.1"' S/features.json && grep -q '"threshold": 0.1' S/features.json ||
  fail "features.json threshold" "$(cat S/features.json)"
checks=$((checks + 1))
grep -q '"input_transform": "pca:0.05 whitening"' S/features.json && grep -q '"sparsity": "l1:0.5"' S/features.json ||
  fail "features.json model" "$(cat S/features.json)"
checks=$((checks + 1))
head -c 8192 S/model.safetensors | grep -q '"sparsity":"l1:0.5"' || fail "checkpoint sparsity" "no sparsity in the metadata"
checks=$((checks + 1))
grep -q 'l1:0.5' S/report.json && grep -q 'soft threshold 0.1' S/report.json || fail "report sparsity" "not in report.json"
run "info sparse" 0 "$CAE" info --weights S/model.safetensors
expect "info sparse" "input transform: pca:0.05 whitening"
expect "info sparse" "sparsity: +l1:0.5"
# evaluate refuses features other than those the SVM was trained on, and
# without --features takes the SVM's own.
error "evaluate without the threshold" 2 "was trained on latent\+threshold:0.1 features" \
  "$CAE" evaluate $B --weights S/model.safetensors --svm S/svm.model --data NP --features latent --out V2
run "evaluate with the SVM's recipe" 0 "$CAE" evaluate $B --weights S/model.safetensors --svm S/svm.model \
  --data NP --out V4
expect "evaluate with the SVM's recipe" "test accuracy: [0-9.]+%"
run "evaluate with the threshold" 0 "$CAE" evaluate $B --weights S/model.safetensors --svm S/svm.model \
  --data NP --feature-threshold 0.1 --out V3

# The spatial winner-take-all: recorded like the penalty; evaluate decodes as
# the pipeline did, so both score the same.
run "pipeline wta-spatial" 0 "$CAE" pipeline $B --defaults baseline --data NP $T --sparsity wta-spatial --out W
checks=$((checks + 1))
head -c 8192 W/model.safetensors | grep -q '"sparsity":"wta-spatial"' || fail "checkpoint wta" "no sparsity in the metadata"
checks=$((checks + 1))
grep -q '"sparsity": "wta-spatial"' W/features.json || fail "features.json wta" "$(cat W/features.json)"
run "info wta" 0 "$CAE" info --weights W/model.safetensors
expect "info wta" "sparsity: +wta-spatial"
run "evaluate wta" 0 "$CAE" evaluate $B --weights W/model.safetensors --svm W/svm.model --data NP --out VW
same_accuracy "evaluate wta = pipeline" W VW
python3 "$HERE/write_small_images.py" N12 60 12 6 || { echo "FAIL [writing the 12x12 set]"; exit 1; }
error "wta on 3x3 latent maps" 1 "--sparsity wta-spatial needs latent maps whose side is a power of two \(this network's latent maps are 3 x 3\)" \
  "$CAE" train $B --data N12 --epochs 1 --sparsity wta-spatial --out X4.safetensors
absent "no checkpoint of the refused wta run" X4.safetensors

# Patch whitening: learned on the training images' patches, stored in the
# checkpoint (a filter per channel), applied by extract and evaluate as by
# the pipeline; the report's reconstructions come back through its inverse.
run "pipeline patch + contrast" 0 "$CAE" pipeline $B --defaults baseline --data NP $T --whiten patch3 --contrast-normalize \
  --out PW
expect "pipeline patch + contrast" "input transform: contrast-normalized, patch3:0.1 whitening, learned on 160 images"
expect "patch convolution on the backend" "input transform: applied to 160 training images and [0-9]+ test images in [0-9.]+ s; patch whitening's 3x3 convolution on the backend \(cpu\)"
checks=$((checks + 1))
head -c 8192 PW/model.safetensors | grep -q '"whiten":"patch3:0.1"' || fail "patch checkpoint" "no whiten patch3:0.1 in the metadata"
checks=$((checks + 1))
head -c 8192 PW/model.safetensors | grep -q '"input.unwhitening"' && fail "patch checkpoint" "a patch filter needs no stored inverse"
run "info patch" 0 "$CAE" info --weights PW/model.safetensors
expect "info patch" "input transform: contrast-normalized, patch3:0.1 whitening"
run "evaluate patch" 0 "$CAE" evaluate $B --weights PW/model.safetensors --svm PW/svm.model --data NP --out VP
expect "evaluate patch: where it convolves" "^input transform: patch whitening's 3x3 convolution on the backend \(cpu\)$"
same_accuracy "evaluate patch = pipeline" PW VP
error "resume other patch size" 2 "--whiten cannot change a resumed run" \
  "$CAE" train $B --data NP --resume PW/model.safetensors --epochs 2 --whiten patch5 --contrast-normalize --out RP.safetensors
error "patch larger than the images" 1 "--whiten patch9: a 9x9 patch does not fit the 8x8 images" \
  "$CAE" train $B --data NP --epochs 1 --whiten patch9 --out X5.safetensors
absent "no checkpoint of the refused patch run" X5.safetensors

# A resumed run keeps its transform and penalty: other values are refused.
error "resume other whitening" 2 "--whiten cannot change a resumed run" \
  "$CAE" train $B --data NP --resume R/model.safetensors --epochs 2 --whiten none --out RR.safetensors
error "resume other sparsity" 2 "--sparsity cannot change a resumed run" \
  "$CAE" train $B --data NP --resume S/model.safetensors --epochs 2 --sparsity l1:1 --out RS.safetensors
run "resume same settings" 0 "$CAE" train $B --data NP --resume R/model.safetensors --epochs 2 --augment flip \
  --whiten zca --contrast-normalize --out RR.safetensors
expect "resume same settings" "epoch 2/2"
reject "resume same settings" "input transform: .* learned on"

# Composed recipes: recorded in their canonical form, read back by evaluate
# from the SVM model, and a map the model lacks refused before any work.
run "extract composed" 0 "$CAE" extract $B --weights P.safetensors --data NP \
  --features conv1:soft0.1+conv2:tri:max2+latent+flip+sqrt --out EC
checks=$((checks + 1))
python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))
assert f["recipe"] == "conv1:soft0.1:sum2+conv2:tri:max2+latent:id:max8+flip+sqrt", f["recipe"]
assert [t.get("encoder") for t in f["taps"]] == ["soft-split:0.1", "triangle", None], f["taps"]
assert f["signed_sqrt"] is True and f["flip_average"] is True, f
# 8x8 images: conv1 256 x 8x8 in quadrants, both signs; conv2 128 x 4x4 and the latent 128 x 2x2.
assert [t["dim"] for t in f["taps"]] == [2 * 256 * 4, 128 * 4, 128 * 4] and f["dim"] == 3072, f' EC/features.json ||
  fail "extract composed features.json" "$(cat EC/features.json)"
# The SVM takes the dimension features.json records (8x8 images: not the
# seed network's on 32x32).
run "svm on composed features" 0 "$CAE" svm $B --features EC --out EC.model
run "pipeline composed" 0 "$CAE" pipeline $B --defaults baseline --data NP $T --features conv2:tri+latent:sum2 --out RC
checks=$((checks + 1))
grep -q '"conv2:tri:sum2+latent:id:sum2 (' RC/report.json || fail "report composed" "no canonical recipe in report.json"
run "evaluate composed" 0 "$CAE" evaluate $B --weights RC/model.safetensors --svm RC/svm.model --data NP --out VC
same_accuracy "evaluate composed = pipeline" RC VC
error "composed: a map the model lacks" 2 "--features: feature recipe 'conv3:tri:sum2': the model 'seed' has no conv3 \(its maps: conv1, conv2, latent\)" \
  "$CAE" pipeline $B --data NP $T --features conv3:tri --out X1
error "composed: a bad term" 2 "--features: feature recipe term 'conv1:soft': 'soft' needs a threshold" \
  "$CAE" extract $B --weights P.safetensors --data NP --features conv1:soft --out X3

# Bad values: one line, exit 2, nothing written.
error "whiten negative EPS" 2 "--whiten 'zca:-1': EPS must be a finite number" \
  "$CAE" pipeline $B --data NP $T --whiten zca:-1 --out X1
error "whiten NaN" 2 "--whiten 'zca:nan': EPS must be a finite number" \
  "$CAE" train $B --data NP --whiten zca:nan --out X2.safetensors
error "whiten Inf" 2 "--whiten 'pca:inf': EPS must be a finite number" \
  "$CAE" train $B --data NP --whiten pca:inf --out X2.safetensors
error "whiten unknown kind" 2 "--whiten 'white' is not none, zca\[:EPS\], pca\[:EPS\] or patch\[S\]\[:EPS\]" \
  "$CAE" pipeline $B --data NP $T --whiten white --out X1
error "whiten even patch" 2 "--whiten 'patch4': the patch size '4' is not an odd number from 1 to 15" \
  "$CAE" pipeline $B --data NP $T --whiten patch4 --out X1
error "whiten patch without EPS" 2 "--whiten 'patch5:0': patch whitening needs EPS > 0" \
  "$CAE" train $B --data NP --whiten patch5:0 --out X2.safetensors
error "sparsity zero" 2 "--sparsity 'l1:0': LAMBDA must be a finite number above 0" \
  "$CAE" pipeline $B --data NP $T --sparsity l1:0 --out X1
error "sparsity unknown" 2 "--sparsity 'l2:1' is not none, l1:LAMBDA or wta-spatial" \
  "$CAE" train $B --data NP --sparsity l2:1 --out X2.safetensors
error "threshold negative" 2 "--feature-threshold: the feature threshold must be a finite number" \
  "$CAE" extract $B --weights R/model.safetensors --data NP --feature-threshold -1 --out X3
error "threshold NaN" 2 "--feature-threshold.* finite number" \
  "$CAE" pipeline $B --data NP $T --feature-threshold nan --out X1
absent "refused runs write nothing" X1
absent "refused runs write nothing" X2.safetensors
absent "refused runs write nothing" X3

finish
