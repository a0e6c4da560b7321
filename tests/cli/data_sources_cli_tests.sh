#!/usr/bin/env bash
# End-to-end CLI tests of the data sources on the cpu backend: pipelines on a
# folder of PNG images, on .npy arrays and on CIFAR-100 files (the report names
# their classes), STL-10 files in the official layout checked and read, memory
# cap streaming, and the one-line errors of malformed data.
# usage: data_sources_cli_tests.sh CAE WRITE_TEST_DATA
set -u
CAE=$1
WRITE=$2
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
cd "$work" || exit 1

B="--backend cpu"
T="--epochs 1 --batch 32"

"$WRITE" folder PF 60 30 && "$WRITE" npy NP 100 && "$WRITE" npy-float NF.npy 40 &&
  "$WRITE" cifar100 C100 60 30 && "$WRITE" stl10 S10 20 20 30 || { echo "FAIL [writing test data]"; exit 1; }

# ---- a folder of PNG images with class subfolders ----
run "check folder" 0 "$CAE" data check PF
expect "check folder" "folder data in PF: 32x32 images, 3 channels, 10 classes"
expect "check folder" "5 +horizontal-stripes +6 +3"
run "pipeline folder" 0 "$CAE" pipeline $B --data PF $T --out RF
expect "pipeline folder" "data: 60 train, 30 test images from PF \(folder, 10 classes\)"
expect "pipeline folder" "test accuracy: [0-9.]+%"
checks=$((checks + 1))
grep -q "horizontal-stripes" RF/report.html && grep -q "checkerboard" RF/confusion.csv ||
  { echo "FAIL [the folder's class names in the report]"; failures=$((failures + 1)); }
checks=$((checks + 1))
grep -q "data format.*folder" RF/report.html || { echo "FAIL [data format in the report]"; failures=$((failures + 1)); }

run "evaluate folder" 0 "$CAE" evaluate $B --weights RF/model.safetensors --svm RF/svm.model --data PF --out RE
expect "evaluate folder" "test accuracy: [0-9.]+%"
checks=$((checks + 1))
grep -q "vertical-stripes" RE/report.html || { echo "FAIL [the folder's class names in evaluate's report]"; failures=$((failures + 1)); }
run "extract folder" 0 "$CAE" extract $B --weights RF/model.safetensors --data PF --out FE
exists "extract folder labels" FE/test_labels.npy

# Images over the memory cap are read from disk batch by batch, to the same model.
run "train folder in memory" 0 "$CAE" train $B --data PF $T --out M1.safetensors
run "train folder from disk" 0 "$CAE" train $B --data PF $T --memory-cap 0 --out M2.safetensors
expect "train folder from disk" "read from disk batch by batch"
checks=$((checks + 1))
cmp -s M1.safetensors M2.safetensors || { echo "FAIL [streamed training differs]"; failures=$((failures + 1)); }

# ---- .npy arrays ----
run "pipeline npy" 0 "$CAE" pipeline $B --data NP $T --out RN
expect "pipeline npy" "data: 80 train, 20 test images from NP \(npy, 10 classes\)"
checks=$((checks + 1))
grep -q "vertical-stripes" RN/report.html || { echo "FAIL [classes.txt names in the npy report]"; failures=$((failures + 1)); }
run "train npy float unlabelled" 0 "$CAE" train $B --data NF.npy $T --out M3.safetensors
expect "train npy float unlabelled" "training on 32 images from NF.npy \(npy\)"
run "pipeline unlabelled npy" 2 "$CAE" pipeline $B --data NF.npy $T --out RU
expect "pipeline unlabelled npy" "needs labelled images"

# ---- CIFAR-100 ----
run "pipeline cifar100" 0 "$CAE" pipeline $B --data C100 $T --out RC
expect "pipeline cifar100" "\(cifar100, 100 classes\)"
checks=$((checks + 1))
grep -q "fine-3" RC/report.html || { echo "FAIL [CIFAR-100 names in the report]"; failures=$((failures + 1)); }
run "check cifar100 coarse" 0 "$CAE" data check C100 --labels coarse
expect "check cifar100 coarse" "20 classes"
expect "check cifar100 coarse" "1 +coarse-1 +12 +6"

# ---- STL-10 (96x96, column-major planes) ----
run "check stl10" 0 "$CAE" data check S10
expect "check stl10" "stl10 data in S10/stl10_binary: 96x96 images, 3 channels, 10 classes"
expect "check stl10" "unlabelled: 30 images"
# The network follows the data: the seed network on 96x96 images (a 24x24
# latent), its features pooled to the same 8,192 dimensions as on 32x32.
run "pipeline stl10" 0 "$CAE" pipeline $B --data S10 --unlabelled $T --out R10
expect "pipeline stl10" "test accuracy: [0-9.]+%"
checks=$((checks + 1))
grep -q '"dim": 8192' R10/features.json || fail "stl10 feature dim" "R10/features.json lacks dim 8192"
run "stl10 model" 0 "$CAE" info --weights R10/model.safetensors
expect "stl10 model" "seed on 3x96x96 images"
expect "stl10 model" "latent: +128x24x24"
run_err "96x96 model on 32x32 images" 1 "$CAE" extract $B --weights R10/model.safetensors --data PF --out F96
expect "96x96 model on 32x32 images" "PF holds 32x32 images with 3 channel\(s\); the model 'seed' takes 96x96 images with 3 channels \(for an image folder, --image-size 96\)"
one_line "96x96 model on 32x32 images"

# ---- bad options and malformed data: one line, the right exit code ----
run_err "bad --data-format" 2 "$CAE" train $B --data PF --data-format mnist --out X.safetensors
expect "bad --data-format" "--data-format must be auto, cifar10, cifar100, stl10, folder, npy or synthetic, got 'mnist'"
one_line "bad --data-format"
run_err "bad --test-fraction" 2 "$CAE" train $B --data PF --test-fraction 1.5 --out X.safetensors
expect "bad --test-fraction" "--test-fraction must be between 0 and 1"
run_err "bad --labels" 2 "$CAE" data check C100 --labels medium
expect "bad --labels" "--labels must be fine or coarse, got 'medium'"
run_err "--unlabelled without such a split" 2 "$CAE" train $B --data C100 --unlabelled $T --out X.safetensors
expect "--unlabelled without such a split" "has no unlabelled split"
absent "nothing written for bad options" X.safetensors
mkdir -p PF/train/disc && echo "not a png" >PF/train/disc/broken.png
run_err "unreadable image" 1 "$CAE" data check PF
expect "unreadable image" "cannot read image PF/train/disc/broken.png"
one_line "unreadable image"
rm PF/train/disc/broken.png
mkdir PF/test/empty-class
run_err "class folder sets differ" 1 "$CAE" data check PF
expect "class folder sets differ" "PF/test has a class folder empty-class that the training split lacks"
rmdir PF/test/empty-class
head -c 5000 S10/stl10_binary/test_X.bin >S10/stl10_binary/t && mv S10/stl10_binary/t S10/stl10_binary/test_X.bin
run_err "truncated stl10" 1 "$CAE" data check S10
expect "truncated stl10" "test_X.bin is 5000 bytes, not a multiple of the 27648-byte record"
mkdir E && echo "notes" >E/readme.txt
run_err "nothing recognised" 1 "$CAE" data check E
expect "nothing recognised" "is not a data set cae recognises"

# fetch: an archive already there is checked against the published MD5 (no network).
mkdir FX && echo "not the archive" >FX/cifar-100-binary.tar.gz
run_err "fetch checks the MD5" 1 "$CAE" data fetch FX --dataset cifar100
expect "fetch checks the MD5" "FX/cifar-100-binary.tar.gz does not have the published MD5 03b5dce01913d631647c71ecec9e9cb8"
run_err "fetch unknown dataset" 2 "$CAE" data fetch FY --dataset imagenet
expect "fetch unknown dataset" "--dataset must be cifar10, cifar100 or stl10, got 'imagenet'"
absent "fetch unknown dataset writes nothing" FY

run "help data" 0 "$CAE" help data
expect "help data" "Data formats"
expect "help data" "--dataset"
finish
