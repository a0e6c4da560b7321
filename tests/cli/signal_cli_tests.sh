#!/usr/bin/env bash
# Output sets survive signals whole (docs/reliability.md, "Output sets"):
# each long command (data synth, train, extract, svm, pipeline) is stopped by
# SIGTERM or SIGINT at several points of a run that would replace a complete
# previous set, and what a reader finds afterwards must be the complete
# previous set or the complete new one, never files of both, with no
# temporaries or locks left behind. The new set's contents are known from the
# same run made to the end in another folder (every command here is
# deterministic on the cpu backend). Small synthetic data, cpu backend.
# usage: signal_cli_tests.sh CAE
set -u
CAE=$1
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
cd "$work" || exit 1
B="--backend cpu"

# fingerprint FILE...: one hash of the files' contents, or "missing".
fingerprint() {
  local file
  for file in "$@"; do [ -f "$file" ] || { echo missing; return; }; done
  cat "$@" | md5sum | cut -d' ' -f1
}
# stop NAME SIGNAL WHEN CMD...: runs CMD in the background and sends SIGNAL
# when WHEN comes: a delay in seconds, or /REGEX/ appearing in its output.
# The run must end with the signal's code, or 0 if it finished first.
stop() {
  local name=$1 signal=$2 when=$3
  shift 3
  "$@" >run.log 2>&1 &
  local pid=$!
  if [[ $when == /*/ ]]; then
    local pattern=${when:1:${#when}-2}
    for _ in $(seq 1 400); do
      grep -qE "$pattern" run.log 2>/dev/null && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
  else
    sleep "$when"
  fi
  kill -"$signal" "$pid" 2>/dev/null
  wait "$pid"
  local rc=$?
  out=$(cat run.log)
  checks=$((checks + 1))
  case "$signal:$rc" in
    *:0 | TERM:143 | INT:130) ;;
    *) fail "$name" "exit code $rc after SIG$signal" ;;
  esac
}
# whole NAME NOW PREVIOUS NEW: the set read now is one of the two.
whole() {
  checks=$((checks + 1))
  [ "$2" = "$3" ] || [ "$2" = "$4" ] ||
    fail "$1" "a mix: the set is neither the previous one ($3) nor the new one ($4), it is $2"
}

"$CAE" data synth D --train 96 --test 32 --seed 3 >/dev/null || { echo "setup: synth failed"; exit 1; }

# again NOW NEW CMD...: when a stopped run got to the end after all, CMD
# writes the previous set again, so that the next stop tells the two apart.
again() {
  local now=$1 new=$2
  shift 2
  [ "$now" != "$new" ] || "$@" >/dev/null
}

# ---- data synth --force: 2 batch files of seed 1 replaced by 1 of seed 2 ----
synth_set() { fingerprint "$1"/data_batch_*.bin "$1"/test_batch.bin "$1"/batches.meta.txt; }
"$CAE" data synth REF_S --train 2000 --test 20 --seed 2 >/dev/null
"$CAE" data synth S --train 10001 --test 20 --seed 1 >/dev/null
new=$(synth_set REF_S)
previous=$(synth_set S)
for when in 0.05 0.3 0.8; do
  stop "synth --force, SIGTERM after ${when}s" TERM "$when" "$CAE" data synth S --train 2000 --test 20 --seed 2 --force
  now=$(synth_set S)
  whole "synth --force, SIGTERM after ${when}s" "$now" "$previous" "$new"
  run "synth --force, SIGTERM after ${when}s: data check" 0 "$CAE" data check S
  no_leftovers "synth --force, SIGTERM after ${when}s" S
  again "$now" "$new" "$CAE" data synth S --train 10001 --test 20 --seed 1 --force
done

# ---- train: a checkpoint is one file: the old one, the new one, or the
# resumable checkpoint the interrupted run says it saved ----
"$CAE" train $B --data D --epochs 2 --batch 16 --seed 2 --out REF_W/m.safetensors >/dev/null
"$CAE" train $B --data D --epochs 1 --batch 16 --seed 1 --out W/m.safetensors >/dev/null
new=$(fingerprint REF_W/m.safetensors)
for when in 0.2 /epoch\ 1/; do
  previous=$(fingerprint W/m.safetensors)
  stop "train, SIGTERM at $when" TERM "$when" "$CAE" train $B --data D --epochs 2 --batch 16 --seed 2 --out W/m.safetensors
  now=$(fingerprint W/m.safetensors)
  if ! grep -q "resumable checkpoint saved to W/m.safetensors" <<<"$out"; then
    whole "train, SIGTERM at $when" "$now" "$previous" "$new"
  fi
  run "train, SIGTERM at $when: the checkpoint loads" 0 "$CAE" extract $B --weights W/m.safetensors --data D --out WX
  no_leftovers "train, SIGTERM at $when" W
done

# ---- extract: features of the seed-1 model replaced by the seed-2 model's,
# stopped in the train split, between the splits and in the test split ----
features_set() { fingerprint "$1"/{train,test}_{features,labels}.npy "$1"/features.json; }
"$CAE" train $B --data D --epochs 1 --batch 16 --seed 1 --out W/a.safetensors >/dev/null
cp REF_W/m.safetensors W/b.safetensors
"$CAE" data synth X --train 500 --test 300 --seed 4 >/dev/null
"$CAE" extract $B --weights W/b.safetensors --data X --out REF_F >/dev/null
"$CAE" extract $B --weights W/a.safetensors --data X --out F >/dev/null
new=$(features_set REF_F)
for when in /train:\ [1-9]/ /test:/ 0.2; do
  previous=$(features_set F)
  stop "extract, SIGTERM at $when" TERM "$when" "$CAE" extract $B --weights W/b.safetensors --data X --out F
  now=$(features_set F)
  whole "extract, SIGTERM at $when" "$now" "$previous" "$new"
  no_leftovers "extract, SIGTERM at $when" F
  again "$now" "$new" "$CAE" extract $B --weights W/a.safetensors --data X --out F
done
run "svm reads the features left" 0 "$CAE" svm $B --features F --out W/f.model

# ---- svm: one model file, the old or the new ----
"$CAE" svm $B --features REF_F --C 10 --out REF_W/s.model >/dev/null
"$CAE" svm $B --features REF_F --C 1 --out W/s.model >/dev/null
new=$(fingerprint REF_W/s.model)
for when in 0.1 0.5; do
  previous=$(fingerprint W/s.model)
  stop "svm, SIGINT after ${when}s" INT "$when" "$CAE" svm $B --features REF_F --C 10 --out W/s.model
  whole "svm, SIGINT after ${when}s" "$(fingerprint W/s.model)" "$previous" "$new"
  no_leftovers "svm, SIGINT after ${when}s" W
done

# ---- pipeline: model, SVM and report of seed 1 replaced by seed 2's ----
pipeline_set() { fingerprint "$1"/model.safetensors "$1"/svm.model "$1"/confusion.csv "$1"/predictions.csv; }
P="$CAE pipeline $B --data D --epochs 1 --batch 16"
# The reference is written to P as well: the SVM model names its checkpoint
# by path (P/model.safetensors).
$P --seed 2 --out P >/dev/null
new=$(pipeline_set P)
$P --seed 1 --out P >/dev/null
for when in 0.3 /encode/ /svm\ \(/; do
  previous=$(pipeline_set P)
  # shellcheck disable=SC2086
  stop "pipeline, SIGTERM at $when" TERM "$when" $P --seed 2 --out P
  now=$(pipeline_set P)
  whole "pipeline, SIGTERM at $when" "$now" "$previous" "$new"
  run "pipeline, SIGTERM at $when: cae report" 0 "$CAE" report P
  no_leftovers "pipeline, SIGTERM at $when" P
  # shellcheck disable=SC2086
  again "$now" "$new" $P --seed 1 --out P
done
finish
