#!/usr/bin/env bash
# End-to-end CLI tests of the pipeline commands on the cpu backend and tiny
# synthetic data: data synth/check, train (+ augmentation), extract (+ feature
# recipes), svm (+ libsvm export),
# evaluate, and the bad-input contract (one line, non-zero exit, nothing left
# under a final name), and SIGINT during training (resumable checkpoint).
# usage: pipeline_cli_tests.sh CAE
set -u
CAE=$1
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
cd "$work" || exit 1

B="--backend cpu"

run "synth" 0 "$CAE" data synth D --train 130 --test 40 --seed 3
run "check" 0 "$CAE" data check D
expect "check" "train: 130 images"

run "train" 0 "$CAE" train $B --data D --epochs 1 --batch 32 --out W/m.safetensors
expect "train" "epoch 1/1  train loss [0-9.]+  test mse [0-9.]+"
exists "checkpoint" W/m.safetensors
checks=$((checks + 1))
head -c 4096 W/m.safetensors | grep -q '"encoder.conv1.weight"' || { echo "FAIL [checkpoint names]"; failures=$((failures + 1)); }

run "extract" 0 "$CAE" extract $B --weights W/m.safetensors --data D --out F
exists "features" F/train_features.npy
checks=$((checks + 1))
[ "$(head -c 6 F/train_features.npy | tail -c 5)" = "NUMPY" ] || { echo "FAIL [npy magic]"; failures=$((failures + 1)); }
# 130 rows of 8192 float32 plus the header.
checks=$((checks + 1))
size=$(stat -c %s F/train_features.npy)
[ "$size" -gt $((130 * 8192 * 4)) ] && [ "$size" -lt $((130 * 8192 * 4 + 256)) ] || { echo "FAIL [npy size $size]"; failures=$((failures + 1)); }

run "svm" 0 "$CAE" svm $B --features F --out W/svm.model --export-libsvm W/svm.libsvm
expect "svm" "test accuracy: [0-9.]+%"
exists "libsvm export" W/svm.libsvm
checks=$((checks + 1))
grep -q "^svm_type c_svc" W/svm.libsvm || { echo "FAIL [libsvm format]"; failures=$((failures + 1)); }

# Hyper-parameters are chosen on a validation split of the training rows.
run "svm search" 0 "$CAE" svm $B --features F --search --search-C 1,4 --search-gamma 1x,2x \
  --validation 26 --out W/svm-search.model
expect "svm search" "validation: 26 of 130 training rows held out \(seed 1\)"
expect "svm search" "\[4/4\] C 4 "
expect "svm search" "search: chose C [14], gamma [0-9.e-]+ \(validation [0-9.]+%\)"
expect "svm search" "test accuracy: [0-9.]+%"
run "svm bad validation" 2 "$CAE" svm $B --features F --validation many --out W/svm-bad.model
expect "svm bad validation" "--validation must be auto or a number of rows, got 'many'"
run "svm bad C list" 2 "$CAE" svm $B --features F --search --search-C 1,nan --out W/svm-bad.model
expect "svm bad C list" "--search-C: nan is outside 1e-06..1e\+09"
run "svm split too large" 2 "$CAE" svm $B --features F --validation 130 --out W/svm-bad.model
expect "svm split too large" "between 1 and 129 of the 130 training rows"

run "evaluate" 0 "$CAE" evaluate $B --weights W/m.safetensors --svm W/svm.model --data D --out R
expect "evaluate" "test accuracy: [0-9.]+%"
for f in report.html confusion.png confusion.csv predictions.csv reconstructions.png loss_curve.png; do exists "report $f" "R/$f"; done

# ---- feature recipes (--features) and training augmentation (--augment, --input-noise) ----
run "extract pyramid-flip" 0 "$CAE" extract $B --weights W/m.safetensors --data D --features pyramid-flip --out FP
expect "extract pyramid-flip" "\(pyramid-flip, 8192-d\)"
checks=$((checks + 1))
grep -q '"recipe": "pyramid-flip"' FP/features.json && grep -q '"dim": 8192' FP/features.json ||
  { echo "FAIL [features.json of pyramid-flip]"; failures=$((failures + 1)); }
checks=$((checks + 1))
cmp -s F/train_features.npy FP/train_features.npy && { echo "FAIL [pyramid-flip equals latent]"; failures=$((failures + 1)); }
# A recipe of another dimension: 9728 columns, and the SVM stage takes the file's.
run "extract latent-quadrants" 0 "$CAE" extract $B --weights W/m.safetensors --data D --features latent-quadrants --out FQ
checks=$((checks + 1))
size=$(stat -c %s FQ/test_features.npy)
[ "$size" -gt $((40 * 9728 * 4)) ] && [ "$size" -lt $((40 * 9728 * 4 + 256)) ] || { echo "FAIL [9728-d npy size $size]"; failures=$((failures + 1)); }
run "svm on 9728-d features" 0 "$CAE" svm $B --features FQ --out W/svm-q.model
expect "svm on 9728-d features" "test accuracy: [0-9.]+%"
run "evaluate with its recipe" 0 "$CAE" evaluate $B --weights W/m.safetensors --svm W/svm-q.model --data D --features latent-quadrants --out RQ
expect "evaluate with its recipe" "test accuracy: [0-9.]+%"
run "evaluate without --features: the model's recipe" 0 "$CAE" evaluate $B --weights W/m.safetensors --svm W/svm-q.model --data D --out RQ3
expect "evaluate without --features: the model's recipe" "test accuracy: [0-9.]+%"
checks=$((checks + 1))
grep -q '"latent-quadrants (9728-d' RQ3/report.json || { echo "FAIL [evaluate used the model's recipe]"; failures=$((failures + 1)); }
run "evaluate with another recipe" 2 "$CAE" evaluate $B --weights W/m.safetensors --svm W/svm-q.model --data D --features latent --out RQ2
expect "evaluate with another recipe" "svm-q.model was trained on latent-quadrants features, but --features latent gives other features"
one_line "evaluate with another recipe"
run "bad --features" 2 "$CAE" extract $B --weights W/m.safetensors --data D --features pyramids --out FB
expect "bad --features" "--features: unknown feature recipe 'pyramids' \(latent, latent-flip, pyramid, pyramid-flip, pyramid-tri, pyramid-tri-flip, latent-quadrants, or composed terms"
one_line "bad --features"
absent "bad --features writes nothing" FB
run "extract help lists recipes" 0 "$CAE" extract --help
expect "extract help lists recipes" "latent-quadrants: latent 8x8 \+ conv1"
run "train augmented" 0 "$CAE" train $B --data D --epochs 1 --batch 32 --augment flip-crop --input-noise 0.05 --out W/aug.safetensors
expect "train augmented" "epoch 1/1  train loss [0-9.]+"
checks=$((checks + 1))
head -c 20000 W/aug.safetensors | grep -aq '"augment":"flip-crop"' || { echo "FAIL [augment in checkpoint]"; failures=$((failures + 1)); }
run "bad --augment" 2 "$CAE" train $B --data D --epochs 1 --augment rotate --out W/never.safetensors
expect "bad --augment" "--augment must be none, flip or flip-crop, got 'rotate'"
one_line "bad --augment"
run "bad --input-noise" 2 "$CAE" pipeline $B --data D --epochs 1 --input-noise -0.1 --out RN
expect "bad --input-noise" "--input-noise must be between 0 and 1"
one_line "bad --input-noise"
run "bad pipeline --features" 2 "$CAE" pipeline $B --data D --epochs 1 --features none --out RN
expect "bad pipeline --features" "unknown feature recipe 'none'"
absent "bad pipeline options write nothing" RN
run "pipeline pyramid-flip" 0 "$CAE" pipeline $B --data D --samples 60 --epochs 1 --batch 32 --features pyramid-flip \
  --augment flip --input-noise 0.05 --out RP
expect "pipeline pyramid-flip" "test accuracy: [0-9.]+%"
checks=$((checks + 1))
flat=$(tr -d ' \n' <RP/report.json)
grep -qF '["features","pyramid-flip(8192-d:conv14x4+conv24x4+latent4x4,averagedwiththemirrorimage)"]' <<<"$flat" &&
  grep -qF '["augment","flip"]' <<<"$flat" && grep -q 'pyramid-flip (8192-d' RP/report.html &&
  grep -q '"recipe": "pyramid-flip"' RP/features.json ||
  { echo "FAIL [recipe and augmentation in the pipeline's report]"; failures=$((failures + 1)); }

# --defaults: best (the default) fills in the validation winner's options
# that were not given, each given option replacing its part; baseline keeps
# every option's own default (the seed's settings).
run "pipeline, best defaults" 0 "$CAE" pipeline $B --data D --samples 60 --epochs 1 --batch 32 --validation 20 --out RB
expect "best: the defaults line" "^defaults: best recipe: --features conv1:tri:sum4\+conv2:tri:sum4\+conv2:tri:sum2\+latent:tri:max4\+latent:tri:max2\+flip\+sqrt --augment flip --contrast-normalize --search \(--defaults baseline for the seed's settings\)$"
expect "best: C and gamma searched" "^search: chose C"
expect "best: contrast normalisation" "^input transform: contrast-normalized"
checks=$((checks + 1))
grep -qF '"recipe": "''' + W + '''"' RB/features.json && tr -d ' \n' <RB/report.json | grep -qF '["augment","flip"]' ||
  { echo "FAIL [best: recipe and augmentation recorded]"; failures=$((failures + 1)); }
run "pipeline, baseline defaults" 0 "$CAE" pipeline $B --defaults baseline --data D --samples 60 --epochs 1 --batch 32 --validation 20 --out RL
reject "baseline: no defaults line" "^defaults:"
reject "baseline: one SVM fit" "^search:"
checks=$((checks + 1))
grep -q '"recipe": "latent"' RL/features.json && tr -d ' \n' <RL/report.json | grep -qF '["augment","none"]' ||
  { echo "FAIL [baseline: latent features, no augmentation]"; failures=$((failures + 1)); }
# --hold-out-validation: the autoencoder trains on the rows outside the
# validation split (40 of 60), said in the data line and in the epoch's
# count, and recorded in the checkpoint's data.
run "pipeline, validation held out" 0 "$CAE" pipeline $B --defaults baseline --data D --samples 60 --epochs 1 --batch 32 \
  --validation 20 --hold-out-validation --out RH
expect "held out: the data line" "^data: 60 train, 40 test images from D \(cifar10, 10 classes, autoencoder on the 40 outside the validation split\)$"
expect "held out: the epoch's images" "^epoch 1/1: 40/40 done in"
expect "held out: the split" "^validation: 20 of 60 training rows held out \(seed 1\)"
run "held out: recorded" 0 "$CAE" info --weights RH/model.safetensors
expect "held out: recorded" "autoencoder trained on: +train split less its 20 validation rows \(seed 1\)$"
run "baseline: every training image" 0 "$CAE" info --weights RL/model.safetensors
expect "baseline: every training image" "autoencoder trained on: +train split$"
error "held out without a split" 2 "^cae pipeline: --hold-out-validation needs a validation split; --validation 0 holds out no rows$" \
  "$CAE" pipeline $B --defaults baseline --data D --validation 0 --hold-out-validation --out RX
absent "held out without a split writes nothing" RX
error "held out of the unlabelled split" 2 "^cae pipeline: --hold-out-validation: with --unlabelled the autoencoder trains on the unlabelled split, which holds no validation rows to keep out$" \
  "$CAE" pipeline $B --data D --unlabelled --hold-out-validation --out RX
absent "held out of the unlabelled split writes nothing" RX
run "given options replace their parts" 0 "$CAE" pipeline $B --data D --samples 60 --epochs 1 --batch 32 --validation 20 \
  --features latent --C 3 --out RG
expect "given options replace their parts" "^defaults: best recipe: --augment flip --contrast-normalize \(--defaults baseline"
# Without --epochs the recipe's 60 are filled in on a data set given (the
# synthetic set of a bare `cae pipeline` keeps its own shorter schedule).
# Sixty epochs of eight images, each epoch scored on ten test images: the
# set's own 130 and 40 made this one run half of the script's time.
run "synth, eight images an epoch" 0 "$CAE" data synth DE --train 24 --test 10 --seed 5
run "best defaults: the recipe's epochs" 0 "$CAE" pipeline $B --data DE --samples 8 --batch 8 --validation 1 \
  --features latent --C 3 --out RE
expect "best defaults: the recipe's epochs" "^defaults: best recipe: --augment flip --contrast-normalize --epochs 60 \(--defaults baseline"
expect "best defaults: 60 epochs trained" "^epoch 60/60: 8/8 done in"
reject "--C means one fit" "^search:"
error "bad --defaults" 2 "^cae pipeline: --defaults must be best or baseline, got 'seed'$" \
  "$CAE" pipeline $B --data D --defaults seed --out RX
absent "bad --defaults writes nothing" RX

# The SVM stage on two cpu contexts: one kernel producer each, said in the
# summary and in report.json (models equal to one device's: svm_solver_cli_tests.sh).
run "pipeline on 2 devices" 0 "$CAE" pipeline $B --data D --samples 64 --epochs 1 --batch 32 --devices 0,1 --out R2
expect "pipeline on 2 devices" "svm phases: .*kernels [0-9.]+ s \(2 producers\)"
expect "pipeline on 2 devices" "test accuracy: [0-9.]+%"
checks=$((checks + 1))
tr -d ' \n' <R2/report.json | grep -qF '["svmkernelproducers","2"]' ||
  { echo "FAIL [svm producers in the pipeline's report]"; failures=$((failures + 1)); }

# ---- bad input: one line, non-zero exit, nothing under a final name ----
cp -r D D2 && printf 'x' >> D2/data_batch_1.bin
run "data size" 1 "$CAE" data check D2
expect "data size" "data_batch_1.bin.*not a multiple of the 3073-byte record"
one_line "data size"

# Without its set manifest, which would refuse the changed file before its label is read.
cp -r D D3 && rm D3/cae-set.json && printf '\x0b' | dd of=D3/test_batch.bin bs=1 seek=0 conv=notrunc status=none
run "bad label" 1 "$CAE" train $B --data D3 --epochs 1 --out W/never.safetensors
expect "bad label" "test_batch.bin.*label 11"
one_line "bad label"
absent "bad label leaves no checkpoint" W/never.safetensors

head -c 5000 W/m.safetensors > W/truncated.safetensors
run "truncated checkpoint" 1 "$CAE" extract $B --weights W/truncated.safetensors --data D --out F2
expect "truncated checkpoint" "truncated.safetensors"
one_line "truncated checkpoint"
absent "truncated checkpoint writes nothing" F2/train_features.npy

run "wrong architecture" 1 "$CAE" extract $B --weights W/svm.model --data D --out F3
expect "wrong architecture" "svm.model: not a checkpoint of its model .seed."
one_line "wrong architecture"

head -c 1000 /dev/zero > W/seed.bin
run "import wrong size" 1 "$CAE" import-weights W/seed.bin --out W/imported.safetensors
expect "import wrong size" "seed.bin is 1000 bytes; the seed's weights file is 3007500"
absent "import wrong size writes nothing" W/imported.safetensors

run "non-numeric option" 2 "$CAE" train $B --data D --epochs many
expect "non-numeric option" "epochs"
one_line "non-numeric option"
run "out-of-range option" 2 "$CAE" train $B --data D --batch 0
expect "out-of-range option" -- "--batch must be between 1 and"
one_line "out-of-range option"
run "missing data" 1 "$CAE" train $B --data nowhere --epochs 1
expect "missing data" "nowhere"
one_line "missing data"
run "unwritable output" 1 "$CAE" extract $B --weights W/m.safetensors --data D --out /proc/cae-no-such-dir
one_line "unwritable output"
checks=$((checks + 1))
ls W | grep -q '\.tmp\.' && { echo "FAIL [temporary files left behind]"; failures=$((failures + 1)); }

# ---- SIGINT during training: a resumable checkpoint and how to resume ----
"$CAE" data synth S --train 600 --test 20 --seed 4 >/dev/null
"$CAE" train $B --data S --epochs 3 --batch 16 --out W/int.safetensors >int.log 2>&1 &
pid=$!
for _ in $(seq 1 100); do grep -q "epoch 1/3: [1-9]" int.log 2>/dev/null && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
rc=$?
checks=$((checks + 1))
[ "$rc" = 130 ] || { echo "FAIL [sigint exit code $rc]"; cat int.log; failures=$((failures + 1)); }
out=$(cat int.log)
expect "sigint" "resumable checkpoint saved to W/int.safetensors"
expect "sigint" "resume with: cae train --resume W/int.safetensors"
run "resume" 0 "$CAE" train $B --data S --resume W/int.safetensors --epochs 1
expect "resume" "resuming W/int.safetensors at epoch 1"
expect "resume" "epoch 1/1  train loss"

# Without --data and without data/ here, pipeline makes a synthetic set inside
# --out and runs on it (the README's first command).
mkdir -p nodata && (cd nodata && "$CAE" pipeline $B --samples 200 --epochs 1 --validation 50 --out R) > nodata.log 2>&1
rc=$?
checks=$((checks + 1))
[ "$rc" = 0 ] || { echo "FAIL [pipeline without data exit $rc]"; cat nodata.log; failures=$((failures + 1)); }
exists "pipeline without data: report" nodata/R/report.json
exists "pipeline without data: synthetic set" nodata/R/synthetic-data/test_batch.bin

finish
