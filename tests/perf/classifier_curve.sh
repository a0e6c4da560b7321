#!/usr/bin/env bash
# The classifier stage's time and peak memory against the number of training
# rows, on synthetic 8,192-d features (10 overlapping classes, 1,000 test
# rows): `cae svm` with the kernel SVM (default settings, cpu backend) and
# with --classifier linear, each under /usr/bin/time -v. Prints one line per
# run: classifier, rows, exit code, wall seconds, peak RSS (GiB), test accuracy.
# docs/classifiers.md holds its output on a 2-core, 24 GiB machine.
# usage: classifier_curve.sh BUILD_DIR WORK_DIR "SVM_ROWS..." "LINEAR_ROWS..."
#   e.g. classifier_curve.sh build /tmp/curve "10000 50000 200000" "10000 50000 200000"
set -u
build=$(cd "$1" && pwd)
work=$2
svm_rows=$3
linear_rows=$4
mkdir -p "$work"
cd "$work" || exit 1

features() {  # features ROWS: the folder, written once
  [ -s "F$1/train_features.npy" ] ||
    "$build/bin/cae-synthetic-features" "F$1" "$1" 1000 8192 10 0.015 1 >/dev/null || exit 1
}

measure() {  # measure NAME ROWS CAE-ARGS...
  local name=$1 rows=$2
  shift 2
  /usr/bin/time -v "$build/bin/cae" svm --features "F$rows" "$@" >"$name-$rows.log" 2>&1
  local rc=$?
  local wall rss accuracy
  wall=$(grep -oP "Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): \K.*" "$name-$rows.log" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; print s }')
  rss=$(grep -oP "Maximum resident set size \(kbytes\): \K[0-9]+" "$name-$rows.log")
  accuracy=$(grep -oP "test accuracy: \K[0-9.]+%" "$name-$rows.log")
  printf "%-6s %7s rows  exit %s  %8.1f s  %6.2f GiB  %s\n" "$name" "$rows" "$rc" "$wall" \
    "$(awk -v k="$rss" 'BEGIN { print k / 1048576 }')" "${accuracy:--}"
  [ "$rc" = 0 ] || grep -m1 "^cae" "$name-$rows.log"
}

for rows in $svm_rows; do
  features "$rows"
  measure svm "$rows" --backend cpu --out "svm-$rows.model"
done
for rows in $linear_rows; do
  features "$rows"
  measure linear "$rows" --classifier linear --C 5 --out "linear-$rows.model"
done
