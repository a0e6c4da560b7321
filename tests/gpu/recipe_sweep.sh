#!/usr/bin/env bash
# Compares feature recipes on one trained autoencoder: trains once, then per
# recipe `cae extract` and a classifier chosen on the validation split, and
# prints one row per recipe (dimension, validation accuracy, the
# extraction's and the classifier's seconds). Choose by the validation
# column; the test set is read once, for the winner: `--test` adds its
# column, for a run over that recipe alone.
# usage: tests/gpu/recipe_sweep.sh CAE DATA_DIR OUT_DIR [--train "OPTIONS"]
#          [--classifier "OPTIONS"] [--test] RECIPE...
#   --train       options of `cae train` (default: the best recipe's training,
#                 --augment flip --contrast-normalize)
#   --classifier  options of `cae svm` (default: --search, the RBF SVM with C
#                 and gamma searched on the validation split)
#   --test        also the test accuracy of each recipe
# Writes OUT_DIR/sweep.tsv and keeps each recipe's logs beside it.
set -uo pipefail
if [ $# -lt 4 ]; then sed -n 2,15p "$0" | sed 's/^# \{0,1\}//'; exit 2; fi
cae=$1 data=$2 out=$3
shift 3
train="--augment flip --contrast-normalize"
classifier="--search"
show_test=0
recipes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --train) train=$2; shift 2 ;;
    --classifier) classifier=$2; shift 2 ;;
    --test) show_test=1; shift ;;
    -*) echo "recipe_sweep: unknown option $1" >&2; exit 2 ;;
    *) recipes+=("$1"); shift ;;
  esac
done
[ ${#recipes[@]} -gt 0 ] || { echo "recipe_sweep: name at least one recipe" >&2; exit 2; }
mkdir -p "$out" || exit 1
model=$out/model.safetensors
if [ ! -f "$model" ]; then
  # shellcheck disable=SC2086 # the options are words on purpose
  "$cae" train --data "$data" $train --out "$model" > "$out/train.log" 2>&1 ||
    { echo "recipe_sweep: training failed (see $out/train.log)" >&2; exit 1; }
fi
if [ "$show_test" -eq 1 ]; then
  printf 'recipe\tdim\tvalidation\ttest\textract_s\tclassifier_s\n' | tee "$out/sweep.tsv"
else
  printf 'recipe\tdim\tvalidation\textract_s\tclassifier_s\n' | tee "$out/sweep.tsv"
fi
index=0
for recipe in "${recipes[@]}"; do
  index=$((index + 1))
  dir=$out/recipe-$index
  start=$(date +%s%N)
  if ! "$cae" extract --weights "$model" --data "$data" --features "$recipe" --out "$dir" \
      > "$dir.extract.log" 2>&1; then
    printf '%s\tfailed: %s\n' "$recipe" "$(tail -1 "$dir.extract.log")" | tee -a "$out/sweep.tsv"
    continue
  fi
  middle=$(date +%s%N)
  # shellcheck disable=SC2086
  "$cae" svm --features "$dir" $classifier --out "$dir/classifier.model" > "$dir.classifier.log" 2>&1
  status=$?
  end=$(date +%s%N)
  dim=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dim"])' "$dir/features.json")
  validation=$(grep -oE 'validation accuracy: [0-9.]+%' "$dir.classifier.log" | tail -1 | grep -oE '[0-9.]+%')
  accuracies=${validation:--}
  if [ "$show_test" -eq 1 ]; then
    test=$(grep -oE 'test accuracy: [0-9.]+%' "$dir.classifier.log" | tail -1 | grep -oE '[0-9.]+%')
    accuracies+=$'\t'"${test:--}"
  fi
  [ "$status" -eq 0 ] || accuracies="failed: $(tail -1 "$dir.classifier.log")"
  printf '%s\t%s\t%s\t%d.%d\t%d.%d\n' "$recipe" "$dim" "$accuracies" \
    $(((middle - start) / 1000000000)) $(((middle - start) / 100000000 % 10)) \
    $(((end - middle) / 1000000000)) $(((end - middle) / 100000000 % 10)) | tee -a "$out/sweep.tsv"
  # The features are large (gigabytes at tens of thousands of dimensions).
  rm -f "$dir"/*_features.npy
done
