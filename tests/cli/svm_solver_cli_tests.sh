#!/usr/bin/env bash
# `cae svm --svm-solver smo|libsvm` on synthetic features (written by
# write_features.py, no training needed): both solvers give the same test
# accuracy, smo is the default, a bad value is one clear line, both commands
# that train an SVM list the option, and `--devices 0,1` (two cpu contexts)
# gives one device's model byte for byte. The kernel's values: float32 for
# one training, unorm16 for a search's candidates (auto), either on request,
# recorded in the model; unorm16 with the linear kernel is refused.
# usage: svm_solver_cli_tests.sh CAE
set -u
CAE=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/cli/test_lib.sh
source "$here/test_lib.sh"
cd "$work" || exit 1

B="--backend cpu"
# 4 overlapping classes: accuracy well below 100%, so a solver that went
# wrong would show.
python3 "$here/write_features.py" F 480 240 48 4 0.25 5 || { echo "setup: write_features.py failed"; exit 1; }

accuracy() { grep -oE "test accuracy: [0-9.]+%" <<<"$out"; }

run "libsvm" 0 "$CAE" svm $B --features F --svm-solver libsvm --out W/libsvm.model
expect "libsvm" "test accuracy: [0-9.]+%"
libsvm_accuracy=$(accuracy)
run "smo" 0 "$CAE" svm $B --features F --svm-solver smo --out W/smo.model
expect "smo" "test accuracy: [0-9.]+%"
smo_accuracy=$(accuracy)
run "default" 0 "$CAE" svm $B --features F --out W/default.model
default_accuracy=$(accuracy)
echo "libsvm: $libsvm_accuracy, smo: $smo_accuracy, default: $default_accuracy"

checks=$((checks + 1))
[ -n "$smo_accuracy" ] && [ "$smo_accuracy" = "$libsvm_accuracy" ] ||
  fail "same accuracy" "smo '$smo_accuracy' vs libsvm '$libsvm_accuracy'"
# Neither chance (25%) nor perfect: the data tests the solvers.
checks=$((checks + 1))
pct=${smo_accuracy//[^0-9.]/}
awk -v a="$pct" 'BEGIN { exit !(a > 40 && a < 99.9) }' || fail "accuracy range" "smo accuracy $pct%"
exists "libsvm model" W/libsvm.model
exists "smo model" W/smo.model
# The default is smo: the same model file byte for byte.
checks=$((checks + 1))
cmp -s W/smo.model W/default.model || fail "default is smo" "W/default.model differs from W/smo.model"
# The option reaches the solver: 1 MiB holds SMO's pairs (240 rows, 4 bytes
# per kernel entry) but not libsvm's (16 bytes per entry and a 100 MB cache).
# (The models themselves may well be identical: same method, same kernel.)
run "smo under 1 MiB" 0 "$CAE" svm $B --features F --svm-solver smo --memory-cap-gb 0.001 --out W/small.model
exists "smo under 1 MiB" W/small.model
run "libsvm under 1 MiB" 1 "$CAE" svm $B --features F --svm-solver libsvm --memory-cap-gb 0.001 --out W/small-libsvm.model
expect "libsvm under 1 MiB" "memory cap of 0.00 GiB is too small: the largest class pair \(240 rows\)"
absent "libsvm under 1 MiB" W/small-libsvm.model

run "bad solver" 2 "$CAE" svm $B --features F --svm-solver fast --out W/bad.model
expect "bad solver" "unknown SVM solver 'fast' \(choose smo or libsvm\)"
one_line "bad solver"
absent "bad solver writes nothing" W/bad.model

# --devices: the kernels split over two cpu contexts (one producer thread
# each) give one device's model byte for byte, with either solver and through
# a search on a validation split; the phase timings name the producers.
for solver in smo libsvm; do
  run "$solver on 2 devices" 0 "$CAE" svm $B --features F --svm-solver $solver --devices 0,1 --out W/$solver-2.model
  expect "$solver on 2 devices" "svm phases: standardize [0-9.]+ s, gamma [0-9.]+ s, upload [0-9.]+ s, kernels [0-9.]+ s \(2 producers\)"
  checks=$((checks + 1))
  cmp -s W/$solver.model W/$solver-2.model || fail "$solver on 2 devices" "W/$solver-2.model differs from one device's"
done
search=(--search --search-C 1,5 --search-gamma 0.5x,1x --validation 60)
run "search on 1 device" 0 "$CAE" svm $B --features F "${search[@]}" --out W/search-1.model
expect "search on 1 device" "kernels [0-9.]+ s \(1 producer\)"
run "search on 2 devices" 0 "$CAE" svm $B --features F "${search[@]}" --devices 0,1 --out W/search-2.model
checks=$((checks + 1))
cmp -s W/search-1.model W/search-2.model || fail "search on 2 devices" "W/search-2.model differs from one device's"
run "bad devices" 2 "$CAE" svm $B --features F --devices 0,0 --out W/bad-devices.model
expect "bad devices" "--devices '0,0': device 0 is listed twice"
one_line "bad devices"
absent "bad devices writes nothing" W/bad-devices.model

# --svm-kernel-values: auto is float32 for one training (the default model
# above), unorm16 for a search's candidates; either can be asked for.
run "kernel values float32" 0 "$CAE" svm $B --features F --svm-kernel-values float32 --out W/f32.model
expect "kernel values float32" "svm \(smo, kernel float32\)"
checks=$((checks + 1))
cmp -s W/smo.model W/f32.model || fail "auto is float32 for one training" "W/f32.model differs from W/smo.model"
checks=$((checks + 1))
grep -aq '"kernel_values":"float32"' W/f32.model || fail "model records float32" "no kernel_values in W/f32.model"
run "kernel values unorm16" 0 "$CAE" svm $B --features F --svm-kernel-values unorm16 --out W/u16.model
expect "kernel values unorm16" "svm \(smo, kernel unorm16\)"
expect "kernel values unorm16" "test accuracy: [0-9.]+%"
checks=$((checks + 1))
grep -aq '"kernel_values":"unorm16"' W/u16.model || fail "model records unorm16" "no kernel_values in W/u16.model"
run "search kernel values" 0 "$CAE" svm $B --features F "${search[@]}" --out W/search-auto.model
expect "search kernel values" "svm \(smo, kernel unorm16\)"
run "search in float32" 0 "$CAE" svm $B --features F "${search[@]}" --svm-kernel-values float32 --out W/search-f32.model
expect "search in float32" "svm \(smo, kernel float32\)"
run "bad kernel values" 2 "$CAE" svm $B --features F --svm-kernel-values fp16 --out W/bad-kv.model
expect "bad kernel values" "unknown SVM kernel values 'fp16' \(choose auto, float32 or unorm16\)"
one_line "bad kernel values"
absent "bad kernel values writes nothing" W/bad-kv.model
run "unorm16 linear" 2 "$CAE" svm $B --features F --kernel linear --svm-kernel-values unorm16 --out W/bad-kv.model
expect "unorm16 linear" "--svm-kernel-values unorm16 needs --kernel rbf"
one_line "unorm16 linear"
absent "unorm16 linear writes nothing" W/bad-kv.model
run "kernel values with libsvm" 2 "$CAE" svm $B --features F --svm-solver libsvm --svm-kernel-values float32 --out W/bad-kv.model
expect "kernel values with libsvm" "--svm-kernel-values applies to --svm-solver smo only"
absent "kernel values with libsvm writes nothing" W/bad-kv.model

for command in svm pipeline; do
  run "$command help" 0 "$CAE" "$command" --help
  expect "$command help" "--svm-solver smo\|libsvm"
  expect "$command help" "--svm-kernel-values auto\|float32\|unorm16"
done

finish
