#!/usr/bin/env bash
# Refusals that name the culprit (docs/reliability.md, "Options take effect or
# are refused", "Memory is refused before it is asked for" and "Messages name
# what the user wrote"): options a run would ignore, a model or a file larger
# than the machine, and messages that must name the option or file the user
# gave. Each refusal is one line with its exit code, and no work is done.
# Runs on the cpu backend with tiny data; nothing here trains.
# usage: refusals_cli_tests.sh CAE WRITE_TEST_DATA
set -u
CAE=$1
WRITE=$2
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/cli/test_lib.sh
source "$HERE/test_lib.sh"
cd "$work" || exit 1

B="--backend cpu"
setup() { "$@" >/dev/null 2>&1 || { echo "FAIL [setup: $*]"; exit 1; }; }
setup "$CAE" data synth D --train 20 --test 10 --seed 5
setup python3 "$HERE/write_small_images.py" NP 50 32 1
setup python3 "$HERE/write_features.py" F 20 10 8 2 3 1

# ---- options a run would ignore are refused, exit 2, before any work ----
error "--image-size on .npy images" 2 "^cae train: --image-size applies to image folders only; NP holds npy data, whose images have a fixed shape$" \
  "$CAE" train $B --data NP --image-size 16 --epochs 1 --out W/m.safetensors
error "--resize on CIFAR-10" 2 "^cae train: --resize applies to image folders only; D holds cifar10 data" \
  "$CAE" train $B --data D --resize crop --epochs 1 --out W/m.safetensors
error "--labels coarse on CIFAR-10" 2 "^cae train: --labels chooses CIFAR-100's fine or coarse classes; D holds cifar10 data$" \
  "$CAE" train $B --data D --labels coarse --epochs 1 --out W/m.safetensors
error "--test-fraction on data with a test split" 2 "^cae train: --test-fraction splits data without a test split of its own .*; D holds cifar10 data with one$" \
  "$CAE" train $B --data D --test-fraction 0.5 --epochs 1 --out W/m.safetensors
absent "refused trainings write nothing" W/m.safetensors
error "data check --image-size on .npy" 2 "^cae data: --image-size applies to image folders only; NP holds npy data" \
  "$CAE" data check NP --image-size 16
run "data check --test-fraction on a single images.npy" 0 "$CAE" data check NP --test-fraction 0.5
error "data check --train" 2 "^cae data: --train is not an option of \`cae data check\` \(synth only\)$" \
  "$CAE" data check D --train 5
error "data synth --labels" 2 "^cae data: --labels is not an option of \`cae data synth\` \(check only\)$" \
  "$CAE" data synth S --labels coarse
absent "a refused synth writes nothing" S
for option in "--backend-option threads=2" "--backend cpu" "--device 0" "--threads 2"; do
  # shellcheck disable=SC2086
  error "svm --classifier linear $option" 2 "^cae svm: ${option%% *} is a backend option, and --classifier linear uses no backend" \
    "$CAE" svm --features nowhere --classifier linear $option --out W/l.model
done
run "svm --classifier linear without backend options" 0 "$CAE" svm --features F --classifier linear --out W/l.model
error "--sparsity l1 below a float's range" 2 "^cae train: --sparsity 'l1:1e-50': LAMBDA is outside the range of a float \(1.2e-38 to 3.4e\+38\); it would be 0 in training$" \
  "$CAE" train $B --data nowhere --sparsity l1:1e-50 --out W/m.safetensors

# ---- memory: a model or a file larger than the machine, refused by size ----
python3 - >huge.json <<'PY'
import json
print(json.dumps({"name": "huge", "encoder": [{"channels": 4096, "kernel": 15}] * 16}))
PY
error "a model larger than the machine" 2 "^cae train: --model huge: even at --batch 1, the network \([0-9]+ parameters\) with its gradients and one image's activations needs [0-9.]+ GiB, more than this machine's memory \([0-9.]+ GiB\)$" \
  "$CAE" train $B --data D --model huge.json --epochs 1 --out W/m.safetensors
reject "a model larger than the machine: no advice about --batch" "try a smaller"
reject "a model larger than the machine: refused before training" "epoch 1"
# A label file twice the machine's memory (sparse: no disk is used).
setup "$WRITE" stl10 S10 10 10 0
memory_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
truncate -s $((memory_kib * 2048)) S10/stl10_binary/test_y.bin
error "a file larger than the machine" 1 "^cae train: reading S10/stl10_binary/test_y.bin needs [0-9.]+ GiB, more than this machine's memory \([0-9.]+ GiB\)$" \
  "$CAE" train $B --data S10 --epochs 1 --out W/m.safetensors
rm -f S10/stl10_binary/test_y.bin

# ---- messages name what the user wrote ----
mkdir -p JD
error "bench --json a folder" 1 "^cae bench: --json JD is a folder" "$CAE" bench $B --json JD
reject "bench --json a folder: not --out" "--out"
error "a flag given a value" 2 "^cae train: --contrast-normalize is a flag: it takes no value, but 'true' follows it" \
  "$CAE" train $B --data D --contrast-normalize true
echo "not a library" >text.so
error "a file that is no backend" 2 "^cae train: cannot use backend ./text.so: it exists but is not a loadable cae backend: .+" \
  "$CAE" train --backend ./text.so --data D --out W/m.safetensors
error "a backend file that does not exist" 2 "^cae train: cannot use backend ./none.so: no such file$" \
  "$CAE" train --backend ./none.so --data D --out W/m.safetensors
absent "refused runs write nothing" W/m.safetensors

finish
