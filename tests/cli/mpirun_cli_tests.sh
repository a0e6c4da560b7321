#!/usr/bin/env bash
# `mpirun -np 2 cae train` on the cpu backend: the ranks, the size and the
# device come from Open MPI's variables and the group's token travels by
# MPI_Bcast, with no id file; the two ranks give bit-for-bit the weights of
# one process with --devices 0,1 at the same global batch, `cae extract`
# the features, `cae svm` the model (its class pairs spread over the ranks)
# and `cae pipeline` the SVM (or the linear classifier) and predictions of
# such a process. Skipped (exit 77,
# CTest's SKIP) when cae was built without MPI, and only then.
# usage: mpirun_cli_tests.sh CAE HAVE_MPI(0|1)
set -u
CAE=$1
HAVE_MPI=$2
if [ "$HAVE_MPI" != 1 ]; then
  echo "SKIP: cae was built without MPI (CAE_WITH_MPI, libopenmpi-dev): no MPI bootstrap to test"
  exit 77
fi
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
# shellcheck source=tests/cli/checkpoint_lib.sh
source "$(dirname "$0")/checkpoint_lib.sh"

# Open MPI refuses root without these; CI containers run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

run "synthetic data" 0 "$CAE" data synth "$work/d" --train 41 --test 10
train=(train --backend cpu --data "$work/d" --epochs 1 --threads 1 --batch 8)
run "one process, 2 devices" 0 "$CAE" "${train[@]}" --devices 0,1 --out "$work/devices.st"

# --bind-to none: each rank's threads are not pinned to one core of a shared machine.
run "mpirun -np 2" 0 mpirun --oversubscribe --bind-to none -np 2 "$CAE" "${train[@]}" --out "$work/mpi.st"
expect "rank 0 names Open MPI" "^rank 0 of 2 from Open MPI \(OMPI_COMM_WORLD_RANK=0, OMPI_COMM_WORLD_SIZE=2(, PMIX_RANK=0)?\), device 0 from OMPI_COMM_WORLD_LOCAL_RANK, group id through MPI$"
expect "rank 1 names Open MPI" "^rank 1 of 2 from Open MPI .*, device 1 from OMPI_COMM_WORLD_LOCAL_RANK, group id through MPI$"
expect "the ranks exchange through files" "rank 0 of 2 processes, 4 images per process and step, gradients summed through files"
expect "rank 1 leaves the checkpoint to rank 0" "rank 1 done; rank 0 writes the checkpoint"
same_weights "mpirun -np 2 = 1 process on 2 devices" "$work/devices.st" "$work/mpi.st"
checks=$((checks + 1))
leftovers=$(ls -A "$work" | grep '^\.cae-group' || true)
[ -z "$leftovers" ] || fail "the exchange files beside the output are gone" "left: $leftovers"

# `mpirun -np 2 cae extract`: each rank encodes half of the images, rank 0
# writes the set, the same features as one process on 2 devices.
extract=(extract --backend cpu --data "$work/d" --threads 1 --batch 4 --weights "$work/devices.st")
run "extract, one process on 2 devices" 0 "$CAE" "${extract[@]}" --devices 0,1 --out "$work/feat-devices"
run "extract, mpirun -np 2" 0 mpirun --oversubscribe --bind-to none -np 2 "$CAE" "${extract[@]}" --out "$work/feat-mpi"
expect "extract rank 1 leaves the set to rank 0" "rank 1 done; rank 0 writes the features"
for split in train test; do
  checks=$((checks + 1))
  python3 - "$work/feat-devices/${split}_features.npy" "$work/feat-mpi/${split}_features.npy" <<'PY' ||
import array, sys
def values(path):
    data = open(path, "rb").read()
    v = array.array("f")
    v.frombytes(data[10 + int.from_bytes(data[8:10], "little"):])
    return list(v)
a, b = values(sys.argv[1]), values(sys.argv[2])
assert len(a) > 0 and a == b
PY
    fail "extract: mpirun -np 2 $split features = one process on 2 devices" "they differ"
done

# `mpirun -np 2 cae svm`: each rank solves its share of the class pairs, rank
# 0 writes the model one process on 2 devices writes, byte for byte.
svm=(svm --backend cpu --threads 1 --features "$work/feat-devices")
run "svm, one process on 2 devices" 0 "$CAE" "${svm[@]}" --devices 0,1 --out "$work/svm-devices.model"
run "svm, mpirun -np 2" 0 mpirun --oversubscribe --bind-to none -np 2 "$CAE" "${svm[@]}" --out "$work/svm-mpi.model"
expect "svm rank 1 leaves the model to rank 0" "rank 1 done; rank 0 writes the model"
checks=$((checks + 1))
cmp -s "$work/svm-devices.model" "$work/svm-mpi.model" ||
  fail "svm: mpirun -np 2 model = one process on 2 devices" "the model files differ"

# `mpirun -np 2 cae pipeline`: the ranks train, encode and solve the SVM's
# class pairs, rank 0 predicts and writes the folder: the SVM and every
# prediction of one process on 2 devices.
pipeline=(pipeline --backend cpu --data "$work/d" --epochs 1 --threads 1 --batch 8)
run "pipeline, one process on 2 devices" 0 "$CAE" "${pipeline[@]}" --devices 0,1 --out "$work/pipe-devices"
run "pipeline, mpirun -np 2" 0 mpirun --oversubscribe --bind-to none -np 2 "$CAE" "${pipeline[@]}" --out "$work/pipe-mpi"
expect "pipeline rank 1 leaves the folder to rank 0" "rank 1 done; rank 0 predicts and writes"
same_weights "pipeline: mpirun -np 2 SVM = one process on 2 devices" "$work/pipe-devices/svm.model" \
  "$work/pipe-mpi/svm.model"
checks=$((checks + 1))
cmp -s "$work/pipe-devices/predictions.csv" "$work/pipe-mpi/predictions.csv" ||
  fail "pipeline: mpirun -np 2 predictions = one process on 2 devices" "predictions.csv differs"

# The pipeline with the linear classifier: each rank passes over its share of
# the rows, rank 0 writes the same classifier as one process on 2 devices.
run "linear pipeline, one process on 2 devices" 0 "$CAE" "${pipeline[@]}" --classifier linear --devices 0,1 \
  --out "$work/linear-devices"
run "linear pipeline, mpirun -np 2" 0 mpirun --oversubscribe --bind-to none -np 2 "$CAE" "${pipeline[@]}" \
  --classifier linear --out "$work/linear-mpi"
same_weights "linear pipeline: mpirun -np 2 classifier = one process on 2 devices" \
  "$work/linear-devices/linear.model" "$work/linear-mpi/linear.model"
checks=$((checks + 1))
cmp -s "$work/linear-devices/predictions.csv" "$work/linear-mpi/predictions.csv" ||
  fail "linear pipeline: mpirun -np 2 predictions = one process on 2 devices" "predictions.csv differs"

# An option that disagrees with the launcher stops every rank with one line.
run_err "--rank against mpirun" 2 mpirun --oversubscribe -np 2 "$CAE" "${train[@]}" --rank 0 --out "$work/bad.st"
expect "--rank against mpirun" "cae train: --rank 0 disagrees with rank 1 from Open MPI"

# Open MPI's variables without mpirun: MPI sees one process, not the two
# the variables name, and the run stops at once with one line.
run_err "Open MPI's variables without mpirun" 1 env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 "$CAE" "${train[@]}" --out "$work/alone.st"
expect "Open MPI's variables without mpirun" "^cae train: rank 0: MPI sees rank 0 of 1, the launcher's variables rank 0 of 2"
one_line "Open MPI's variables without mpirun is one line"
absent "no checkpoint without mpirun" "$work/alone.st"

finish
