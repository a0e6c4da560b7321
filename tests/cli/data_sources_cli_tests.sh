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

# The data each product was made from is recorded: the checkpoint (cae info),
# features.json (the features' data and the checkpoint's) and the report.
run "info folder checkpoint" 0 "$CAE" info --weights RF/model.safetensors
expect "info folder checkpoint" "^trained on:$"
expect "info folder checkpoint" "^  data format: +folder \(recognised\)$"
expect "info folder checkpoint" "^  image shape: +3x32x32, --resize box$"
expect "info folder checkpoint" "^  classes: +10: .*horizontal-stripes"
expect "info folder checkpoint" "^  train images: +60$"
expect "info folder checkpoint" "^  test images: +30$"
expect "info folder checkpoint" "^  autoencoder trained on: +train split$"
expect "info folder checkpoint" "^  data files: +90 files, [0-9]+ bytes; names and sizes sha256 [0-9a-f]{64}$"
reject "info folder checkpoint" "split: "
json_field() {  # json_field NAME FILE PYTHON-EXPRESSION-ON-doc EXPECTED
  checks=$((checks + 1))
  local got
  got=$(python3 -c 'import json, sys; doc = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$2" "$3" 2>&1)
  [ "$got" = "$4" ] || { echo "FAIL [$1]: $3 of $2 is '$got', expected '$4'"; failures=$((failures + 1)); }
}
json_field "features.json data" FE/features.json 'doc["data"]["format"], doc["data"]["class_names"][5], doc["data"]["train_images"], doc["data"]["resize"]' "('folder', 'horizontal-stripes', 60, 'box')"
json_field "features.json training data" FE/features.json 'doc["training_data"]["files_sha256"] == doc["data"]["files_sha256"]' "True"
json_field "report.json data rows" RF/report.json '[v for k, v in doc["settings"] if k in ("data format", "image shape", "train images")]' "['folder (recognised)', '3x32x32, --resize box', '60']"
checks=$((checks + 1))
grep -q "names and sizes sha256" RE/report.html && grep -q "trained on" RE/report.html ||
  { echo "FAIL [evaluate's report names the data and the training data]"; failures=$((failures + 1)); }

# The same shape from another source is a transfer: allowed, and said.
run "transfer folder network to cifar100" 0 "$CAE" extract $B --weights RF/model.safetensors --data C100 --out FT
expect "transfer folder network to cifar100" "transfer: RF/model.safetensors was trained on 3x32x32 folder images from PF \(files sha256 [0-9a-f]{12}\); C100 gives 3x32x32 cifar100 images of the same shape"
json_field "transfer features.json" FT/features.json 'doc["data"]["format"], doc["training_data"]["format"]' "('cifar100', 'folder')"

# A checkpoint from before the data was recorded still loads and says so.
python3 - RF/model.safetensors OLD.safetensors <<'PY'
import json, struct, sys
data = open(sys.argv[1], "rb").read()
n = struct.unpack("<Q", data[:8])[0]
header = json.loads(data[8:8 + n])
del header["__metadata__"]["data"]
text = json.dumps(header, separators=(",", ":")).encode()
text += b" " * (-len(text) % 8)
open(sys.argv[2], "wb").write(struct.pack("<Q", len(text)) + text + data[8 + n:])
PY
run "info old checkpoint" 0 "$CAE" info --weights OLD.safetensors
expect "info old checkpoint" "^trained on: +not recorded"
run "extract with old checkpoint" 0 "$CAE" extract $B --weights OLD.safetensors --data PF --out FO
json_field "old checkpoint's features.json" FO/features.json 'doc["training_data"]' "None"

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
run "info npy checkpoint" 0 "$CAE" info --weights RN/model.safetensors
expect "info npy checkpoint" "^  data format: +npy \(recognised\)$"
expect "info npy checkpoint" "^  split: +--test-fraction 0.2, --split-seed 1$"
expect "info npy checkpoint" "^  train images: +80$"
run "train npy float unlabelled" 0 "$CAE" train $B --data NF.npy $T --out M3.safetensors
expect "train npy float unlabelled" "training on 32 images from NF.npy \(npy\)"
run "info unlabelled npy checkpoint" 0 "$CAE" info --weights M3.safetensors
expect "info unlabelled npy checkpoint" "^  classes: +none \(unlabelled\)$"
run "pipeline unlabelled npy" 2 "$CAE" pipeline $B --data NF.npy $T --out RU
expect "pipeline unlabelled npy" "needs labelled images"

# ---- CIFAR-100 ----
run "pipeline cifar100" 0 "$CAE" pipeline $B --data C100 $T --out RC
expect "pipeline cifar100" "\(cifar100, 100 classes\)"
checks=$((checks + 1))
grep -q "fine-3" RC/report.html || { echo "FAIL [CIFAR-100 names in the report]"; failures=$((failures + 1)); }
run "train cifar100 coarse" 0 "$CAE" train $B --data C100 --labels coarse $T --out MC.safetensors
run "info cifar100 coarse" 0 "$CAE" info --weights MC.safetensors
expect "info cifar100 coarse" "^  data format: +cifar100 \(recognised\)$"
expect "info cifar100 coarse" "^  labels: +coarse$"
expect "info cifar100 coarse" "^  classes: +20: coarse-0, coarse-1,"
expect "info cifar100 coarse" "^  data files: +3 files, "
run "check cifar100 coarse" 0 "$CAE" data check C100 --labels coarse
expect "check cifar100 coarse" "20 classes"
expect "check cifar100 coarse" "1 +coarse-1 +12 +6"

# ---- STL-10 (96x96, column-major planes) ----
run "check stl10" 0 "$CAE" data check S10
expect "check stl10" "stl10 data in S10/stl10_binary: 96x96 images, 3 channels, 10 classes"
expect "check stl10" "unlabelled: 30 images"
# The network follows the data: the seed network on 96x96 images (a 24x24
# latent), its features pooled to the same 9,216 dimensions as on 32x32.
run "pipeline stl10" 0 "$CAE" pipeline $B --data S10 --unlabelled $T --out R10
expect "pipeline stl10" "test accuracy: [0-9.]+%"
checks=$((checks + 1))
grep -q '"dim": 9216' R10/features.json || fail "stl10 feature dim" "R10/features.json lacks dim 9216"
run "stl10 model" 0 "$CAE" info --weights R10/model.safetensors
expect "stl10 model" "seed on 3x96x96 images"
expect "stl10 model" "latent: +128x24x24"
run "stl10 data record" 0 "$CAE" info --weights R10/model.safetensors
expect "stl10 data record" "^  unlabelled images: +30$"
expect "stl10 data record" "^  autoencoder trained on: +unlabelled split$"
# A network is refused on images of another shape, in one line naming both.
run_err "96x96 model on 32x32 images" 1 "$CAE" extract $B --weights R10/model.safetensors --data PF --out F96
expect "96x96 model on 32x32 images" "^cae extract: R10/model.safetensors was trained on 3x96x96 stl10 images from S10 \(files sha256 [0-9a-f]{12}\), but PF gives 3x32x32 folder images; a network encodes only images of the shape it was trained on \(give --image-size 96 to bring the folder's images to it\)$"
one_line "96x96 model on 32x32 images"
absent "nothing extracted for another shape" F96/features.json
run_err "96x96 model evaluating cifar100" 1 "$CAE" evaluate $B --weights R10/model.safetensors --svm R10/svm.model --data C100 --out E96
expect "96x96 model evaluating cifar100" "trained on 3x96x96 stl10 images from S10 .*, but C100 gives 3x32x32 cifar100 images; .*\(only image folders are resized, with --image-size 96\)$"
one_line "96x96 model evaluating cifar100"
run_err "resume a 96x96 run on 32x32 images" 1 "$CAE" train $B --resume R10/model.safetensors --data PF --epochs 2
expect "resume a 96x96 run on 32x32 images" "^cae train: R10/model.safetensors was trained on 3x96x96 stl10 images"
one_line "resume a 96x96 run on 32x32 images"

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
# A folder, a FIFO or nothing where a file of a set should be: the line names
# that file and what is there, never "not a data set cae recognises".
"$CAE" data synth C10 --train 20 --test 10 >/dev/null || fail "setup: data synth" "failed"
for item in C10:test_batch.bin C10:batches.meta.txt C100:test.bin C100:train.bin NP:images.npy \
            NP:labels.npy S10:test_X.bin S10:test_y.bin; do
  set_dir=${item%%:*} file=${item#*:}
  kinds="folder fifo missing"
  [ "$file" = labels.npy ] && kinds="folder fifo"  # without labels.npy the images are unlabelled
  for kind in $kinds; do
    rm -rf Q && cp -r "$set_dir" Q && rm -f Q/cae-set.json
    target=$(find Q -name "$file")
    rm -f "$target"
    case $kind in folder) mkdir "$target" ;; fifo) mkfifo "$target" ;; esac
    name="$kind as $set_dir's $file"
    run_err "$name" 1 timeout 20 "$CAE" data check Q
    expect "$name" "$target"
    case $kind in
      folder) expect "$name" "is a folder" ;;
      fifo) expect "$name" "FIFO" ;;
      missing) expect "$name" "missing" ;;
    esac
    reject "$name" "not a data set cae recognises"
    one_line "$name"
  done
done
# A split given as folders needs both halves.
rm -rf Q && mkdir -p Q && cp -r PF/train Q/train
run_err "train/ without test/" 1 "$CAE" data check Q
expect "train/ without test/" "Q has train/ but no test/"
rm -rf Q && mkdir -p Q && cp -r PF/test Q/test
run_err "test/ without train/" 1 "$CAE" data check Q
expect "test/ without train/" "Q has test/ but no train/"
# A valid PNG too large to decode is named as such, not as an unknown type.
rm -rf Q && cp -r PF Q && rm -f Q/cae-set.json
python3 - Q/train/disc/huge.png <<'EOF2'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
EOF2
run_err "a 100000x100000 PNG" 1 "$CAE" data check Q
expect "a 100000x100000 PNG" "Q/train/disc/huge.png: it is 100000x100000 pixels, more than cae decodes"
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
