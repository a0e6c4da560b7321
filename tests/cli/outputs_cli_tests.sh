#!/usr/bin/env bash
# Where cae writes, and who writes there at once (docs/reliability.md, "Output
# paths stay inside their folder", "Paths are checked before the work", "One
# writer per output"):
#   1. a file written under an output folder stays inside it once symbolic
#      links are resolved (report, pipeline, extract, evaluate, data synth);
#   2. every path option is valid UTF-8 and short enough for every file the
#      run creates, checked before any work (a table over the path options of
#      train, extract, svm, evaluate, pipeline and report), and a class-names
#      file is checked at load;
#   3. a folder is written by one cae at a time: report, pipeline and train on
#      one folder exclude each other, whichever starts first.
# Each refusal asserts the exit code, the one-line message and that nothing
# was written. Runs on the cpu backend with tiny synthetic data.
# usage: outputs_cli_tests.sh CAE
set -u
CAE=$1
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
cd "$work" || exit 1
B="--backend cpu"
TINY="--epochs 1 --batch 32"

"$CAE" data synth D --train 40 --test 20 --seed 5 >/dev/null || { echo "setup: synth failed"; exit 1; }

# ---- 3. one writer per folder: report, pipeline and train exclude each other
# (first, as the pipeline held still here writes the run the others use) ----
# wait_for_lock LOCK PID: until the run PID holds LOCK (its pid is in it).
wait_for_lock() {
  for _ in $(seq 1 1500); do
    grep -qx "cae output lock, pid $2" "$1" 2>/dev/null && return 0
    sleep 0.01
  done
  fail "wait for $1" "pid $2 never took it"
}
# A pipeline writing RUN, held still (SIGSTOP) while it holds the folder.
# shellcheck disable=SC2086
"$CAE" pipeline $B --data D $TINY --out RUN >pipeline.log 2>&1 &
pid=$!
wait_for_lock RUN/.cae.lock $pid
kill -STOP $pid
error "report during a pipeline into its folder" 1 \
  "^cae report: RUN is being written by another cae process \(pid $pid\); wait for it to finish" \
  "$CAE" report RUN
# shellcheck disable=SC2086
error "train --out RUN/model.safetensors during a pipeline into RUN" 1 \
  "^cae train: RUN/model.safetensors lies in RUN, which is being written by another cae process \(pid $pid\)" \
  "$CAE" train $B --data D $TINY --out RUN/model.safetensors
reject "train during a pipeline: refused before training" "training on"
kill -CONT $pid
wait $pid
rc=$?
checks=$((checks + 1))
[ "$rc" = 0 ] || { tail -5 pipeline.log; echo "FAIL [the pipeline held still]: exit code $rc"; exit 1; }
run "report after the pipeline" 0 "$CAE" report RUN
run "the pipeline's set reads whole" 0 "$CAE" info --weights RUN/model.safetensors
no_leftovers "report and pipeline: no temporaries or locks" RUN

# unchanged NAME DIR SNAPSHOT: DIR holds what SNAPSHOT (`snapshot DIR`) recorded.
snapshot() { (cd "$1" && find . -printf '%p %y %s %l\n' | sort && find . -type f -exec sha256sum {} + | sort); }
unchanged() {
  checks=$((checks + 1))
  [ "$(snapshot "$2")" = "$3" ] || fail "$1" "$2 was changed"
}

# ---- 1. a path under an output folder stays inside it ----
mkdir -p OUT && echo precious >OUT/confusion.png
outside=$(snapshot OUT)
# report: report.json names figs/confusion.png, and figs leads outside.
cp -r RUN RL && rm RL/cae-set.json  # report.json is edited: no longer the set's
python3 - RL/report.json <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["files"]["confusion_png"] = "figs/confusion.png"
json.dump(doc, open(sys.argv[1], "w"))
EOF
ln -s ../OUT RL/figs
before=$(snapshot RL)
error "report: a figure under a link to outside" 2 \
  "^cae report: RUN_DIR: RL/figs/confusion.png leads outside RL: RL/figs is a symbolic link to \.\./OUT; cae writes only inside" \
  "$CAE" report RL
unchanged "report: nothing written outside" OUT "$outside"
unchanged "report: nothing written in the run" RL "$before"
rm RL/figs && mkdir RL/real && ln -s real RL/figs  # a link that stays inside is followed
run "report: a link inside the run" 0 "$CAE" report RL
exists "report: a link inside the run" RL/real/confusion.png
# Every other writer of a folder, at the start: a linked subfolder, or a link
# at the name of a file it writes.
mkdir -p RP RM FX EX SX
ln -s ../OUT RP/synthetic-data
ln -s ../OUT/confusion.png RM/model.safetensors
ln -s ../OUT/confusion.png FX/test_labels.npy
ln -s ../OUT/confusion.png EX/report.html
ln -s ../OUT/confusion.png SX/batches.meta.txt
while IFS='|' read -r name folder link cmd; do
  before=$(snapshot "$folder")
  # shellcheck disable=SC2086
  error "$name" 2 "^cae [a-z]+: (--out|DIR): $folder/.* leads outside $folder: $folder/$link is a symbolic link" \
    "$CAE" $cmd
  reject "$name: refused before the work" "training on|backend cpu on|epoch"
  unchanged "$name: nothing written outside" OUT "$outside"
  unchanged "$name: nothing written in the folder" "$folder" "$before"
done <<EOF
pipeline: synthetic data into a link|RP|synthetic-data|pipeline $B $TINY --out RP
pipeline: the model at a link|RM|model.safetensors|pipeline $B --data D $TINY --out RM
extract: labels at a link|FX|test_labels.npy|extract $B --weights RUN/model.safetensors --data D --out FX
evaluate: the page at a link|EX|report.html|evaluate $B --weights RUN/model.safetensors --svm RUN/svm.model --data D --out EX
data synth: class names at a link|SX|batches.meta.txt|data synth SX --train 10 --test 10 --force
EOF

# ---- 2. paths are checked before the work: UTF-8, NAME_MAX, PATH_MAX ----
# long_path N: a path of N bytes under N/, in names of at most 200 bytes.
long_path() {
  local path=N name
  name=$(printf 'a%.0s' $(seq 1 200))
  while [ $((${#path} + 201)) -lt "$1" ]; do path="$path/$name"; done
  printf '%s/%s' "$path" "$(printf 'b%.0s' $(seq 1 $(($1 - ${#path} - 1))))"
}
not_utf8=$(printf 'N/caf\xfe')
long_name="N/$(printf 'c%.0s' $(seq 1 300))"
# One row per path option: its kind (in: read; dir: an output folder, where
# a 4,072-byte path leaves no room for the files in it; file: an output
# file, where 4,090 bytes leave none for its temporary) and a command line
# whose @ is the bad path. Every other output goes under N/, which must not
# exist afterwards.
while IFS='|' read -r kind option cmd; do
  case $kind in
    in) too_long=$(long_path 4200) long_message="is 4200 bytes; a path is at most 4095 bytes \(PATH_MAX\)" ;;
    dir) too_long=$(long_path 4072) long_message="is 4072 bytes, [0-9]+ with the file cae creates there" ;;
    file) too_long=$(long_path 4090) long_message="is 4090 bytes, [0-9]+ with the file cae creates there" ;;
  esac
  for bad in "$not_utf8" "$long_name" "$too_long"; do
    case $bad in
      "$not_utf8") what="not UTF-8" message="is not UTF-8 \(byte 0xFE at index 5\); cae records paths in JSON" ;;
      "$long_name") what="a name of 300 bytes" message="holds a name of 300 bytes.*NAME_MAX" ;;
      *) what="${#too_long} bytes" message=$long_message ;;
    esac
    read -r -a words <<<"$cmd"
    for i in "${!words[@]}"; do [ "${words[$i]}" = @ ] && words[i]=$bad; done
    error "${words[0]} $option $what" 2 "^cae ${words[0]}: $option '.*' $message" "$CAE" "${words[@]}"
    checks=$((checks + 1))
    [ ! -e N ] || { fail "${words[0]} $option $what" "N/ was written"; rm -rf N; }
  done
done <<EOF
in|--data|train $B --data @ $TINY --out N/m.st
file|--out|train $B --data D $TINY --out @
in|--resume|train $B --data D $TINY --resume @ --out N/m.st
in|--model|train $B --data D $TINY --model @ --out N/m.st
file|--nccl-id-file|train $B --data D $TINY --rank 0 --world-size 2 --nccl-id-file @ --out N/m.st
in|--plugin-dir|train $B --plugin-dir @ --data D $TINY --out N/m.st
in|--backend|train --backend @ --data D $TINY --out N/m.st
in|--weights|extract $B --weights @ --data D --out N/f
in|--data|extract $B --weights RUN/model.safetensors --data @ --out N/f
dir|--out|extract $B --weights RUN/model.safetensors --data D --out @
in|--features|svm $B --features @ --out N/s.model
file|--out|svm $B --features RUN --out @
file|--export-libsvm|svm $B --features RUN --out N/s.model --export-libsvm @
in|--weights|evaluate $B --weights @ --svm RUN/svm.model --data D --out N/e
in|--svm|evaluate $B --weights RUN/model.safetensors --svm @ --data D --out N/e
in|--data|evaluate $B --weights RUN/model.safetensors --svm RUN/svm.model --data @ --out N/e
dir|--out|evaluate $B --weights RUN/model.safetensors --svm RUN/svm.model --data D --out @
in|--data|pipeline $B --data @ $TINY --out N/p
dir|--out|pipeline $B --data D $TINY --out @
in|--model|pipeline $B --data D $TINY --model @ --out N/p
in|RUN_DIR|report @
dir|--out|report RUN RL --out @
EOF
# A class name that is not UTF-8 is found when the data is loaded, not when
# the report is written after training.
python3 - NP <<'EOF'
import os, struct, sys
folder = sys.argv[1]
os.makedirs(folder)
def npy(path, descr, shape, data):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)
count = 20
npy(folder + "/images.npy", "|u1", "(%d, 32, 32, 3)" % count, bytes(i % 251 for i in range(count * 3072)))
npy(folder + "/labels.npy", "<i8", "(%d,)" % count, struct.pack("<%dq" % count, *[i % 2 for i in range(count)]))
open(folder + "/classes.txt", "wb").write(b"cats\ndo\xfe\xffgs\n")
EOF
for cmd in "train $B --data NP $TINY --out N/m.st|N/m.st" "pipeline $B --data NP $TINY --out N/p|N/p/model.safetensors"; do
  read -r -a words <<<"${cmd%|*}"
  error "${words[0]}: a class name that is not UTF-8" 1 "^cae ${words[0]}: NP/classes.txt line 2: the class name is not UTF-8" \
    "$CAE" "${words[@]}"
  reject "${words[0]}: the class name, before training" "training on|epoch"
  absent "${words[0]}: the class name: nothing trained" "${cmd#*|}"
done

# ---- 3. (continued) The other way round: a training writing
# RUN/model.safetensors keeps a pipeline and a report out of RUN until it ends ----
# shellcheck disable=SC2086
"$CAE" train $B --data D $TINY --out RUN/model.safetensors >train.log 2>&1 &
pid=$!
wait_for_lock RUN/model.safetensors.lock $pid
kill -STOP $pid
# shellcheck disable=SC2086
error "pipeline into a folder whose checkpoint a training writes" 1 \
  "^cae pipeline: RUN is being written by another cae process \(writing RUN/model.safetensors, pid $pid\)" \
  "$CAE" pipeline $B --data D $TINY --out RUN
error "report of a folder whose checkpoint a training writes" 1 \
  "^cae report: RUN is being written by another cae process \(writing RUN/model.safetensors, pid $pid\)" \
  "$CAE" report RUN
kill -CONT $pid
wait $pid
rc=$?
checks=$((checks + 1))
[ "$rc" = 0 ] || { out=$(cat train.log); fail "the training held still" "exit code $rc"; }
run "the training's checkpoint reads" 0 "$CAE" info --weights RUN/model.safetensors
no_leftovers "train and pipeline: no temporaries or locks" RUN

finish
