#!/usr/bin/env bash
# CLI tests of one process per device (--rank, --world-size, --nccl-id-file)
# on the cpu backend, which has no ABI 1.2 members, so the ranks exchange
# through the host's file fallback: one-line errors for bad options, a rank
# whose partner never comes, and two `cae train` processes against one
# process with --devices 0,1 at the same global batch (bit-identical weights)
# and against one device (loss curve within 1e-4). Only rank 0 writes. A
# signal to one rank stops both after the same step, and both resume.
# torchrun's variables (set here as torchrun sets them) place the ranks
# without --rank or --world-size; launchers that disagree, options against a
# launcher and malformed values are one-line errors; a rank killed mid-run
# ends the other within --group-timeout. `cae extract`, `cae svm` (its
# class pairs spread over the ranks, with and without a search, solved on
# the host and on the backend; the linear classifier's rows) and `cae
# pipeline` across two ranks give one process's features, models and
# predictions.
# (mpirun: mpirun_cli_tests.sh.)
# usage: distributed_cli_tests.sh CAE HAVE_MPI(0|1)
set -u
CAE=$1
HAVE_MPI=$2
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
# shellcheck source=tests/cli/checkpoint_lib.sh
source "$(dirname "$0")/checkpoint_lib.sh"


# 41 images at a global batch of 8: the last batch (1 image) runs on rank 0
# alone while rank 1 adds zeros, the rule of the in-process path.
run "synthetic data" 0 "$CAE" data synth "$work/d" --train 41 --test 10
common=(--backend cpu --data "$work/d" --epochs 2 --threads 1)
id="$work/group.id"
train=(train "${common[@]}" --batch 8)

# rank_ok NAME PID LOG: the rank running in the background as PID exited 0.
rank_ok() {
  wait "$2"
  local rc=$?
  checks=$((checks + 1))
  [ "$rc" = 0 ] || { out=$(cat "$3"); fail "$1" "exit code $rc"; }
}
usage_error() {  # usage_error NAME PATTERN ARGS...: exit 2, one line naming the problem
  local name=$1 pattern=$2
  shift 2
  run_err "$name" 2 "$CAE" train "${common[@]}" --out "$work/bad.st" "$@"
  expect "$name" "^cae train: .*$pattern"
  one_line "$name is one line"
}
usage_error "world 0" "--world-size must be between 1 and 65536, got 0" --world-size 0
usage_error "rank = world" "--rank 2 is outside 0\.\.1 for --world-size 2" --world-size 2 --rank 2 --nccl-id-file "$id"
usage_error "negative rank" "--rank -1 is outside 0\.\.1" --world-size 2 --rank=-1 --nccl-id-file "$id"
usage_error "no rank" "--world-size 2 needs --rank" --world-size 2 --nccl-id-file "$id"
usage_error "no id file" "--world-size 2 needs --nccl-id-file PATH" --world-size 2 --rank 0
usage_error "rank without world" "--rank 1 needs a --world-size above it" --rank 1
usage_error "id file without world" "--nccl-id-file needs --world-size 2 or more" --nccl-id-file "$id"
usage_error "timeout 0" "--group-timeout must be between 1 and 86400" --world-size 2 --rank 0 --nccl-id-file "$id" --group-timeout 0
usage_error "two devices per rank" "one device per process" --world-size 2 --rank 0 --nccl-id-file "$id" --devices 0,1
usage_error "batch per rank" "--batch 7 \(the global batch\) cannot be split into 2 equal shards" --world-size 2 --rank 0 --nccl-id-file "$id" --batch 7
absent "no id file after usage errors" "$id"

run_err "rank 1 without rank 0" 1 "$CAE" train "${common[@]}" --world-size 2 --rank 1 --nccl-id-file "$id" --group-timeout 1 --out "$work/r1.st"
expect "rank 1 without rank 0" "rank 1: no group id in .*group\.id after 1 s"
one_line "rank 1 without rank 0 is one line"
run_err "rank 0 without rank 1" 1 "$CAE" train "${common[@]}" --world-size 2 --rank 0 --nccl-id-file "$id" --group-timeout 1 --out "$work/r0.st"
expect "rank 0 without rank 1" "rank 0: rank 1 wrote no .* within 1 s"
absent "rank 0 alone writes no checkpoint" "$work/r0.st"
checks=$((checks + 1))
leftovers=$(ls "$work" | grep '^group\.id' || true)
[ -z "$leftovers" ] || fail "a failed rank 0 leaves no group files" "left: $leftovers"
echo "stale" >"$id"
run_err "stale id file" 1 "$CAE" train "${common[@]}" --world-size 2 --rank 0 --nccl-id-file "$id" --group-timeout 1 --out "$work/r0.st"
expect "stale id file" "the group id file .*group\.id already exists"
rm -f "$id"

# loss_curve: "l1 l2" from the epoch lines in $out.
loss_curve() {
  tr '\r' '\n' <<<"$out" | sed -nE 's/^epoch [0-9]+\/[0-9]+ +train loss ([0-9.]+).*/\1/p' | tr '\n' ' '
}
run "one device" 0 "$CAE" "${train[@]}" --out "$work/one.st"
one=$(loss_curve)
run "one process, 2 devices" 0 "$CAE" "${train[@]}" --devices 0,1 --out "$work/devices.st"
devices=$(loss_curve)

"$CAE" "${train[@]}" --world-size 2 --rank 1 --nccl-id-file "$id" --out "$work/rank1.st" >"$work/rank1.log" 2>&1 &
rank1=$!
run "rank 0 of 2 processes" 0 "$CAE" "${train[@]}" --world-size 2 --rank 0 --nccl-id-file "$id" --out "$work/ranks.st"
ranks=$(loss_curve)
expect "rank 0 says how it exchanges" "rank 0 of 2 processes, 4 images per process and step, gradients summed through files"
expect "rank 0 writes the checkpoint" "checkpoint: .*ranks\.st"
rank_ok "rank 1 of 2 processes" "$rank1" "$work/rank1.log"
out=$(cat "$work/rank1.log")
expect "rank 1 leaves the checkpoint to rank 0" "rank 1 done; rank 0 writes the checkpoint"
absent "rank 1 writes no checkpoint" "$work/rank1.st"
absent "the id file is gone" "$id"
checks=$((checks + 1))
leftovers=$(ls "$work" | grep '^group\.id' || true)
[ -z "$leftovers" ] || fail "the exchange files are gone" "left: $leftovers"

same_weights "2 processes = 1 process on 2 devices" "$work/devices.st" "$work/ranks.st"

close_curves() {  # close_curves NAME A B: loss curves within 1e-4 (relative)
  checks=$((checks + 1))
  python3 - "$2" "$3" <<'PY' || fail "$1" "loss curves '$2' vs '$3'"
import sys
a, b = [list(map(float, s.split())) for s in sys.argv[1:3]]
assert len(a) == 2 and len(b) == 2, (a, b)
for x, y in zip(a, b):
    assert abs(x - y) <= 1e-4 * max(abs(x), 1e-12), (a, b)
PY
}
close_curves "2 processes follow 1 process on 2 devices" "$devices" "$ranks"
close_curves "2 processes follow 1 device" "$one" "$ranks"

# A signal to rank 1 alone: the stop flag travels in the step's exchange, so
# both ranks stop after the same step; rank 0 saves the resumable checkpoint,
# and both ranks resumed from it finish the run.
run "more data" 0 "$CAE" data synth "$work/big" --train 1200 --test 10
long=(train --backend cpu --data "$work/big" --epochs 1 --threads 1 --batch 8 --world-size 2 --nccl-id-file "$id")
"$CAE" "${long[@]}" --rank 1 --out "$work/stop1.st" >"$work/stop1.log" 2>&1 &
stop1=$!
"$CAE" "${long[@]}" --rank 0 --out "$work/stop.st" >"$work/stop0.log" 2>&1 &
stop0=$!
for _ in $(seq 100); do  # until rank 1 trains (its handlers are set by then)
  grep -q "rank 1 of 2 processes" "$work/stop1.log" 2>/dev/null && break
  sleep 0.1
done
sleep 1
kill -INT "$stop1"
wait "$stop1"
rc1=$?
wait "$stop0"
rc0=$?
out=$(cat "$work/stop0.log")
checks=$((checks + 1))
[ "$rc0" = 130 ] && [ "$rc1" = 130 ] || fail "both ranks stop on rank 1's signal" "exit codes $rc0 and $rc1, expected 130"
expect "rank 0 saves the resumable checkpoint" "resumable checkpoint saved to .*stop\.st"
images0=$(sed -nE 's/.*after ([0-9]+) images.*/\1/p' <<<"$out")
out=$(cat "$work/stop1.log")
images1=$(sed -nE 's/.*after ([0-9]+) images.*/\1/p' <<<"$out")
checks=$((checks + 1))
[ -n "$images0" ] && [ "$images0" = "$images1" ] || fail "both ranks stop after the same step" "rank 0 after '$images0' images, rank 1 after '$images1'"
absent "rank 1 saves nothing" "$work/stop1.st"
"$CAE" "${long[@]}" --rank 1 --resume "$work/stop.st" >"$work/resume1.log" 2>&1 &
resume1=$!
run "rank 0 resumes" 0 "$CAE" "${long[@]}" --rank 0 --resume "$work/stop.st"
expect "rank 0 resumes" "resuming .*stop\.st at epoch 1"
expect "rank 0 finishes" "checkpoint: .*stop\.st"
rank_ok "rank 1 resumes" "$resume1" "$work/resume1.log"

# torchrun exports RANK, WORLD_SIZE and LOCAL_RANK to each process it starts.
as_torchrun() {  # as_torchrun RANK CMD...: CMD with torchrun's variables for RANK of 2
  local rank=$1
  shift
  env RANK="$rank" WORLD_SIZE=2 LOCAL_RANK="$rank" "$@"
}
launcher_error() {  # launcher_error NAME PATTERN VARIABLE=VALUE... -- ARGS...: exit 2, one line
  local name=$1 pattern=$2 variables=()
  shift 2
  while [ "$1" != "--" ]; do variables+=("$1"); shift; done
  shift
  run_err "$name" 2 env "${variables[@]}" "$CAE" train "${common[@]}" --out "$work/bad.st" "$@"
  expect "$name" "^cae train: .*$pattern"
  one_line "$name is one line"
}
launcher_error "malformed RANK" "RANK='x' \(torchrun's rank\) is not a whole number from 0 to 65535" RANK=x WORLD_SIZE=2 --
launcher_error "negative SLURM_PROCID" "SLURM_PROCID='-1' \(Slurm's rank\)" SLURM_PROCID=-1 SLURM_NTASKS=2 --
launcher_error "rank not below size" "RANK=2 is not below WORLD_SIZE=2" RANK=2 WORLD_SIZE=2 --
launcher_error "launchers disagree" "Slurm's SLURM_PROCID=0 and torchrun's RANK=1 disagree" SLURM_PROCID=0 SLURM_NTASKS=2 RANK=1 WORLD_SIZE=2 --
launcher_error "--rank against torchrun" "--rank 0 disagrees with rank 1 from torchrun \(RANK=1, WORLD_SIZE=2\)" RANK=1 WORLD_SIZE=2 -- --rank 0 --nccl-id-file "$id"
launcher_error "--world-size against torchrun" "--world-size 3 disagrees with 2 ranks from torchrun" RANK=1 WORLD_SIZE=2 -- --world-size 3 --nccl-id-file "$id"
launcher_error "torchrun without an id file" "2 ranks from torchrun \(RANK=0, WORLD_SIZE=2\) need --nccl-id-file PATH" RANK=0 WORLD_SIZE=2 --
if [ "$HAVE_MPI" != 1 ]; then
  launcher_error "mpirun's ranks without MPI" "this cae was built without MPI, so give --nccl-id-file PATH" OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 --
fi
absent "no id file after launcher errors" "$id"

as_torchrun 1 "$CAE" "${train[@]}" --nccl-id-file "$id" --out "$work/torchrun1.st" >"$work/torchrun1.log" 2>&1 &
torchrun1=$!
run "torchrun's rank 0" 0 as_torchrun 0 "$CAE" "${train[@]}" --nccl-id-file "$id" --out "$work/torchrun.st"
checks=$((checks + 1))
first=$(head -n 1 <<<"$out")
[ "$first" = "rank 0 of 2 from torchrun (RANK=0, WORLD_SIZE=2), device 0 from LOCAL_RANK, group id through $id" ] ||
  fail "the first line names torchrun" "first line: $first"
rank_ok "torchrun's rank 1" "$torchrun1" "$work/torchrun1.log"
out=$(cat "$work/torchrun1.log")
expect "rank 1 takes its device from LOCAL_RANK" "^rank 1 of 2 from torchrun \(RANK=1, WORLD_SIZE=2\), device 1 from LOCAL_RANK"
same_weights "torchrun's 2 processes = 1 process on 2 devices" "$work/devices.st" "$work/torchrun.st"

# A rank killed mid-run: the other stops at its next exchange, within
# --group-timeout, with one line naming the rank that is missing.
dead=(train --backend cpu --data "$work/big" --epochs 1 --threads 1 --batch 8 --nccl-id-file "$id" --group-timeout 2)
# env execs cae, so $! is cae's own process id.
env RANK=1 WORLD_SIZE=2 "$CAE" "${dead[@]}" --out "$work/dead1.st" >"$work/dead1.log" 2>&1 &
dead1=$!
env RANK=0 WORLD_SIZE=2 "$CAE" "${dead[@]}" --out "$work/dead.st" >"$work/dead0.log" 2>"$work/dead0.err" &
dead0=$!
for _ in $(seq 100); do
  grep -q "rank 1 of 2 processes" "$work/dead1.log" 2>/dev/null && break
  sleep 0.1
done
{ kill -KILL "$dead1" && wait "$dead1"; } 2>/dev/null  # no job-control notice in the log
killed_at=$(date +%s%N)
wait "$dead0"
rc0=$?
waited_ms=$((($(date +%s%N) - killed_at) / 1000000))
out=$(cat "$work/dead0.err")
checks=$((checks + 1))
[ "$rc0" = 1 ] || fail "rank 0 fails when rank 1 is killed" "exit code $rc0"
expect "rank 0 names the missing rank" "^cae train: rank 0: rank 1 wrote no .* within 2 s"
one_line "the killed rank's partner says so in one line"
checks=$((checks + 1))
[ "$waited_ms" -lt 6000 ] || fail "rank 0 ends within the group timeout" "it took $waited_ms ms"

# `cae extract` across ranks placed as torchrun places them: each rank
# encodes its share of the images, rank 0 writes the set, and the features
# equal one process's with --devices 0,1 (the same split of the rows).
extract=(extract --backend cpu --data "$work/d" --threads 1 --batch 4 --weights "$work/devices.st")
run "extract, one process on 2 devices" 0 "$CAE" "${extract[@]}" --devices 0,1 --out "$work/feat-devices"
# torchrun_pair NAME ID OUT ARGS...: `cae ARGS` as two ranks placed by
# torchrun's variables, joined through the id file ID, into OUT: rank 1 in the
# background, rank 0 through `run`; then rank 1 exited 0 and $out is its log.
torchrun_pair() {
  local name=$1 group_id=$2 dest=$3
  shift 3
  env RANK=1 WORLD_SIZE=2 LOCAL_RANK=1 "$CAE" "$@" --nccl-id-file "$group_id" --out "$dest" \
    >"$dest.rank1.log" 2>&1 &
  local second=$!
  run "$name, rank 0 of 2 (torchrun's variables)" 0 env RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 "$CAE" "$@" \
    --nccl-id-file "$group_id" --out "$dest"
  local first_out=$out
  rank_ok "$name, rank 1 of 2" "$second" "$dest.rank1.log"
  rank0_out=$first_out
  out=$(cat "$dest.rank1.log")
}
extract_id="$work/extract.id"  # its own: a killed rank above left its group's files
torchrun_pair extract "$extract_id" "$work/feat-ranks" "${extract[@]}"
expect "extract rank 1 leaves the set to rank 0" "rank 1 done; rank 0 writes the features"
out=$rank0_out
expect "extract rank 0 names torchrun" "^rank 0 of 2 from torchrun"
same_npy() {  # same_npy NAME A B: the same shape and values (float32 .npy)
  checks=$((checks + 1))
  python3 - "$2" "$3" <<'PY' || fail "$1" "$2 and $3 differ"
import array, sys
def load(path):
    data = open(path, "rb").read()
    header_end = 10 + int.from_bytes(data[8:10], "little")
    values = array.array("f")
    values.frombytes(data[header_end:])
    return data[:header_end].replace(b" ", b""), values
(ha, a), (hb, b) = load(sys.argv[1]), load(sys.argv[2])
assert ha == hb, (ha, hb)
assert len(a) > 0 and list(a) == list(b)
PY
}
for split in train test; do
  same_npy "extract: 2 ranks' $split features = one process on 2 devices" \
    "$work/feat-devices/${split}_features.npy" "$work/feat-ranks/${split}_features.npy"
  checks=$((checks + 1))
  cmp -s "$work/feat-devices/${split}_labels.npy" "$work/feat-ranks/${split}_labels.npy" ||
    fail "extract: 2 ranks' $split labels = one process's" "they differ"
done
absent "the extract's id file is gone" "$extract_id"
checks=$((checks + 1))
leftovers=$(ls -A "$work" | grep -E '^extract\.id' || true)
[ -z "$leftovers" ] || fail "the extract's exchange files are gone" "left: $leftovers"

# `cae svm` across ranks: each rank solves its share of the class pairs and
# rank 0 writes the model: the file one process on 2 devices writes, byte for
# byte, with one C and with a warm-started search.
svm=(svm --backend cpu --threads 1 --features "$work/feat-devices")
svm_search=(--search --validation 10 --search-C 1,10 --search-gamma scale,0.001)
run "svm, one process on 2 devices" 0 "$CAE" "${svm[@]}" --devices 0,1 --out "$work/svm-devices.model"
torchrun_pair svm "$work/svm.id" "$work/svm-ranks.model" "${svm[@]}"
expect "svm rank 1 leaves the model to rank 0" "rank 1 done; rank 0 writes the model"
checks=$((checks + 1))
cmp -s "$work/svm-devices.model" "$work/svm-ranks.model" ||
  fail "svm: 2 ranks' model = one process on 2 devices" "the model files differ"
run "svm search, one process on 2 devices" 0 "$CAE" "${svm[@]}" "${svm_search[@]}" --devices 0,1 \
  --out "$work/svm-search-devices.model"
torchrun_pair "svm search" "$work/svm-search.id" "$work/svm-search-ranks.model" "${svm[@]}" "${svm_search[@]}"
out=$rank0_out
expect "svm search across ranks reports its choice" "^search: chose C [0-9.]+, gamma"
checks=$((checks + 1))
cmp -s "$work/svm-search-devices.model" "$work/svm-search-ranks.model" ||
  fail "svm search: 2 ranks' model = one process on 2 devices" "the model files differ"
# The same search with the pairs solved by the backend (svm_dual_solve): each
# rank's backend solves its share, as one process's devices share them.
run "svm search on the backend, one process on 2 devices" 0 "$CAE" "${svm[@]}" "${svm_search[@]}" \
  --svm-on backend --devices 0,1 --out "$work/svm-backend-devices.model"
expect "one process's search solves its pairs on the backend" "pairs solved on the backend \\(2 contexts\\)"
torchrun_pair "svm search on the backend" "$work/svm-backend.id" "$work/svm-backend-ranks.model" \
  "${svm[@]}" "${svm_search[@]}" --svm-on backend
out=$rank0_out
expect "svm search on the backend across ranks reports its choice" "^search: chose C [0-9.]+, gamma"
expect "each rank solves its pairs on its backend" "pairs solved on the backend \\(1 context\\)"
checks=$((checks + 1))
cmp -s "$work/svm-backend-devices.model" "$work/svm-backend-ranks.model" ||
  fail "svm search on the backend: 2 ranks' model = one process on 2 devices" "the model files differ"
# The linear classifier: each rank passes over its share of the rows' fixed
# groups and the groups' sums are exchanged; one process needs no backend.
linear=(svm --features "$work/feat-devices" --classifier linear --validation 10 --search --search-C 0.1,10)
run "linear, one process" 0 "$CAE" "${linear[@]}" --out "$work/linear-one.model"
torchrun_pair linear "$work/linear.id" "$work/linear-ranks.model" "${linear[@]}" --backend cpu --threads 1
expect "linear rank 1 leaves the model to rank 0" "rank 1 done; rank 0 writes the model"
checks=$((checks + 1))
cmp -s "$work/linear-one.model" "$work/linear-ranks.model" ||
  fail "linear: 2 ranks' model = one process" "the model files differ"

# `cae pipeline` across ranks: the ranks train and encode together and solve
# the SVM's class pairs together, rank 0 predicts and writes the folder: the
# autoencoder, the SVM and every prediction of one process on 2 devices.
pipeline=(pipeline --backend cpu --data "$work/d" --epochs 1 --threads 1 --batch 8)
run "pipeline, one process on 2 devices" 0 "$CAE" "${pipeline[@]}" --devices 0,1 --out "$work/pipe-devices"
pipeline_id="$work/pipeline.id"
torchrun_pair pipeline "$pipeline_id" "$work/pipe-ranks" "${pipeline[@]}"
expect "pipeline rank 1 leaves the folder to rank 0" "rank 1 done; rank 0 predicts and writes"
out=$rank0_out
expect "pipeline rank 0 reports" "^test accuracy: [0-9.]+%"
same_weights "pipeline: 2 ranks' model = one process on 2 devices" "$work/pipe-devices/model.safetensors" \
  "$work/pipe-ranks/model.safetensors"
# (Their metadata name their own folders: the tensors are compared.)
same_weights "pipeline: 2 ranks' SVM = one process on 2 devices" "$work/pipe-devices/svm.model" \
  "$work/pipe-ranks/svm.model"
checks=$((checks + 1))
cmp -s "$work/pipe-devices/predictions.csv" "$work/pipe-ranks/predictions.csv" ||
  fail "pipeline: 2 ranks' predictions = one process on 2 devices" "predictions.csv differs"
absent "the pipeline's id file is gone" "$pipeline_id"
# Without data every rank would write its own synthetic set into --out.
error "pipeline across ranks without --data" 2 \
  "^cae pipeline: across ranks it needs --data \(or CIFAR-10 under data/\)" \
  env RANK=1 WORLD_SIZE=2 LOCAL_RANK=1 "$CAE" pipeline --backend cpu --nccl-id-file "$pipeline_id" \
  --out "$work/pipe-nodata"
absent "pipeline across ranks without --data writes nothing" "$work/pipe-nodata"

# The one-process commands refuse to run as one of several ranks: each would
# repeat the whole job into the same folder.
one_process() {
  local command=$1
  shift
  error "$command under a launcher" 2 "cae $command runs as one process, but this is rank 1 of 2 from torchrun" \
    env RANK=1 WORLD_SIZE=2 LOCAL_RANK=1 "$CAE" "$command" "$@" --out "$work/one-process-$command"
  absent "$command under a launcher writes nothing" "$work/one-process-$command"
}
one_process evaluate --weights "$work/nowhere.safetensors" --svm "$work/nowhere.model"
finish
