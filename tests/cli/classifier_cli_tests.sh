#!/usr/bin/env bash
# The classifier stage's choices on tiny inputs: `--classifier linear` through
# `cae svm`, `cae pipeline` and `cae evaluate` (model file told apart from an
# SVM's; either loss: logistic or one-vs-rest squared hinge), its C search,
# its passes on the backend (`--linear-on backend`), bad values as one clear
# line, and the default
# (warm-started) `--search` choosing what `--search-exhaustive` chooses.
# usage: classifier_cli_tests.sh CAE
set -u
CAE=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/cli/test_lib.sh
source "$here/test_lib.sh"
cd "$work" || exit 1

B="--backend cpu"
# stage_table NAME ROW...: $out ends in the stage table, holding each ROW in
# order (start-up first, other last), and its rows sum to its total (each
# printed to the millisecond).
stage_table() {
  local name=$1
  shift
  checks=$((checks + 1))
  local table rows
  table=$(awk '/^stage +seconds +share$/ { keep = 1; text = "" } keep { text = text $0 "\n" } END { printf "%s", text }' <<<"$out")
  [ -n "$table" ] || { fail "$name: stage table" "no table in the output"; return; }
  rows=$(sed 's/  *[0-9.]* *[0-9.%-]*$//' <<<"$table" |
    awk 'NR > 2 && !/^-+$/ && $0 != "total" { printf "%s%s", sep, $0; sep = "," }')
  [ "$rows" = "$(IFS=,; echo "$*")" ] || fail "$name: stage table" "rows '$rows', expected '$(IFS=,; echo "$*")'"
  awk '/^total / { total = $2 } NR > 2 && !/^-+$/ && !/^total / { sum += $(NF - 1); n++ }
       END { d = sum - total; exit !(total > 0 && d < 0.0005 * n + 1e-9 && -d < 0.0005 * n + 1e-9) }' <<<"$table" ||
    fail "$name: stage table" "rows do not sum to the total"
}
# extended_search NAME: $out's linear search tried the auto grid
# 0.0001..0.1 in order, then went on a decade past a winning end for as long
# as each new C scored higher than the best before it (upwards first), and
# chose the best C (the smaller on a tie).
extended_search() {
  checks=$((checks + 1))
  local verdict
  verdict=$(python3 - "$out" <<'PY'
import re, sys
tried = [(float(c), float(a)) for c, a in
         re.findall(r"^  C (\S+) +validation ([0-9.]+)%", sys.argv[1], re.M)]
chose = re.search(r"^search: chose C (\S+)$", sys.argv[1], re.M)
grid = [1e-4, 1e-3, 1e-2, 1e-1]
def close(a, b): return abs(a - b) <= 1e-9 * max(abs(a), abs(b))
if len(tried) < 4 or not all(close(c, g) for (c, _), g in zip(tried, grid)):
    sys.exit(print(f"not the auto grid first: {tried}"))
def best(rows):  # highest accuracy, the smaller C on a tie
    return min(rows, key=lambda r: (-r[1], r[0]))
expected = list(tried[:4])
for step, edge in ((10.0, 1e-1), (0.1, 1e-4)):
    for _ in range(3):
        if not close(best(expected)[0], edge): break
        before = best(expected)[1]
        if len(tried) <= len(expected): sys.exit(print(f"no C past the winning end {edge:g}"))
        c, a = tried[len(expected)]
        if not close(c, edge * step): sys.exit(print(f"C {c:g} after the end {edge:g}"))
        expected.append((c, a))
        if not a > before: break
        edge = c
if len(tried) != len(expected): sys.exit(print(f"tried {tried[len(expected):]} past the rule"))
if not chose or not close(float(chose.group(1)), best(tried)[0]):
    sys.exit(print(f"chose {chose and chose.group(1)}, the best is {best(tried)[0]:g}"))
print("ok")
PY
)
  [ "$verdict" = ok ] || fail "$1: extended search" "$verdict"
}
# 4 overlapping classes: neither chance nor perfect.
python3 "$here/write_features.py" F 480 240 48 4 0.25 5 || { echo "setup: write_features.py failed"; exit 1; }
# 4 classes far apart: every C of the grid scores the same.
python3 "$here/write_features.py" S 480 240 48 4 3.0 3 || { echo "setup: write_features.py failed"; exit 1; }

run "linear" 0 "$CAE" svm --features F --classifier linear --out W/linear.model
expect "linear" "linear: C 0.001, [0-9]+ L-BFGS iterations \(converged\)"
expect "linear" "test accuracy: [0-9.]+%"
stage_table "linear" "start-up" "options" "read features" "linear train" "write model" \
  "predict test" "release memory" "other"
exists "linear model" W/linear.model
checks=$((checks + 1))
head -c 4096 W/linear.model | grep -q '"format":"cae-linear"' || fail "linear format" "no cae-linear format in the header"
checks=$((checks + 1))
pct=$(grep -oE "test accuracy: [0-9.]+" <<<"$out" | grep -oE "[0-9.]+$")
awk -v a="$pct" 'BEGIN { exit !(a > 40 && a < 99.9) }' || fail "linear accuracy range" "$pct%"

# One L2-SVM per class against the rest: its own objective in the file and
# the log, an accuracy of the same order as the logistic model's.
run "squared hinge" 0 "$CAE" svm --features F --classifier linear --linear-loss squared-hinge \
  --out W/hinge.model
expect "squared hinge" "linear: C 0.0001, [0-9]+ L-BFGS iterations \((converged|iteration limit)\), training squared hinge [0-9.]+"
checks=$((checks + 1))
head -c 4096 W/hinge.model | grep -q 'one-vs-rest L2-SVM' || fail "squared hinge objective" "no one-vs-rest objective in the header"
checks=$((checks + 1))
pct_hinge=$(grep -oE "test accuracy: [0-9.]+" <<<"$out" | grep -oE "[0-9.]+$")
awk -v a="$pct_hinge" -v b="$pct" 'BEGIN { exit !(a > 40 && a > b - 15) }' ||
  fail "squared hinge accuracy" "$pct_hinge% against the logistic model's $pct%"
checks=$((checks + 1))
cmp -s W/hinge.model W/linear.model && fail "squared hinge" "the same model file as the logistic loss's"
# --search-C auto: the linear classifier's own grid, decades below the kernel
# SVM's, from C 0.0001 up; where an end of it wins, a decade further. Here
# the top wins (C 0.1), so C 1 is tried; on the far-apart classes every C
# ties, the smallest wins the tie, so C 0.00001 is tried.
run "linear search, its own grid" 0 "$CAE" svm --features F --classifier linear --search --validation 60 \
  --out W/linear-auto.model
expect "linear search, its own grid" "C 0.0001 +validation [0-9.]+%"
expect "linear search, its own grid" "C 1 +validation [0-9.]+%"
reject "linear search, its own grid" "C 1e-05 +validation"
extended_search "linear search, its own grid"
run "linear search, a tie at the bottom" 0 "$CAE" svm --features S --classifier linear --search \
  --validation 60 --out W/linear-tie.model
expect "linear search, a tie at the bottom" "C 0.1 +validation 100.00%"
expect "linear search, a tie at the bottom" "C 1e-05 +validation [0-9.]+%"
reject "linear search, a tie at the bottom" "C 1 +validation"
extended_search "linear search, a tie at the bottom"
run "bad --linear-loss" 2 "$CAE" svm --features F --classifier linear --linear-loss hinge --out W/bad.model
expect "bad --linear-loss" "--linear-loss must be logistic or squared-hinge, got 'hinge'"
one_line "bad --linear-loss"
run "--linear-loss with the SVM" 2 "$CAE" svm --features F --linear-loss squared-hinge --out W/bad.model
expect "--linear-loss with the SVM" "--linear-loss applies to --classifier linear only"
absent "refused --linear-loss writes nothing" W/bad.model
run "linear search" 0 "$CAE" svm --features F --classifier linear --search --search-C 0.01,1,0.1 \
  --validation 60 --out W/linear-search.model
expect "linear search" "validation: 60 of 480 training rows held out \(seed 1\)"
expect "linear search" "C 0.01 +validation [0-9.]+%"
expect "linear search" "search: chose C (0.01|0.1|1)"
expect "linear search" "validation accuracy: [0-9.]+% \(60 rows\)"

# The passes on the backend: the classifier of the host pass within rounding
# (the same accuracy here), and the same model file on one device or two.
run "linear on the backend" 0 "$CAE" svm $B --features F --classifier linear --linear-on backend \
  --out W/linear-backend.model
expect "linear on the backend" "linear: C 0.001, [0-9]+ L-BFGS iterations \(converged\)"
stage_table "linear on the backend" "start-up" "options and backend" "read features" \
  "start backend" "linear train" "write model" "predict test" "release memory" "other"
checks=$((checks + 1))
pct_backend=$(grep -oE "test accuracy: [0-9.]+" <<<"$out" | grep -oE "[0-9.]+$")
awk -v a="$pct" -v b="$pct_backend" 'BEGIN { d = a - b; exit !(d < 1 && d > -1) }' ||
  fail "linear on the backend: the host's accuracy" "$pct_backend% against $pct%"
run "linear on 2 devices" 0 "$CAE" svm $B --features F --classifier linear --linear-on backend \
  --devices 0,1 --out W/linear-backend-2.model
checks=$((checks + 1))
cmp -s W/linear-backend.model W/linear-backend-2.model ||
  fail "linear on 2 devices" "W/linear-backend-2.model differs from one device's"
run "linear backend option alone" 2 "$CAE" svm $B --features F --classifier linear --out W/bad.model
expect "linear backend option alone" "--backend is a backend option, and --classifier linear uses no backend"
run "bad --linear-on" 2 "$CAE" svm --features F --classifier linear --linear-on gpu --out W/bad.model
expect "bad --linear-on" "--linear-on must be auto, host or backend, got 'gpu'"
one_line "bad --linear-on"
run "--linear-on with the SVM" 2 "$CAE" svm $B --features F --linear-on backend --out W/bad.model
expect "--linear-on with the SVM" "--linear-on applies to --classifier linear only"
absent "refused --linear-on writes nothing" W/bad.model

run "bad classifier" 2 "$CAE" svm --features F --classifier forest --out W/bad.model
expect "bad classifier" "--classifier must be svm or linear, got 'forest'"
one_line "bad classifier"
absent "bad classifier writes nothing" W/bad.model
run "linear export" 2 "$CAE" svm --features F --classifier linear --export-libsvm W/x.libsvm --out W/bad.model
expect "linear export" "--export-libsvm writes a kernel SVM; it does not apply to --classifier linear"
absent "linear export writes nothing" W/bad.model
run "bad iterations" 2 "$CAE" svm --features F --classifier linear --linear-iterations 0 --out W/bad.model
one_line "bad iterations"

# The default search (one kernel per gamma, Cs seeded) chooses the exhaustive one's candidate.
search=(--search --search-C 0.3,1,3,10 --search-gamma 0.5x,1x,2x --validation 80)
run "warm search" 0 "$CAE" svm $B --features F "${search[@]}" --out W/warm.model
expect "warm search" "search: one kernel per gamma, every C seeded with the last one's solution"
expect "warm search" "search: 12 candidates in [0-9.]+ s \(warm-started\)"
expect "warm search" "prediction: [0-9]+ test rows in [0-9.]+ s"
stage_table "warm search" "start-up" "options and backend" "read features" "start backend" \
  "svm train" "predict test" "write model" "release memory" "other"
warm=$(grep -E "^search: chose" <<<"$out")
run "exhaustive search" 0 "$CAE" svm $B --features F "${search[@]}" --search-exhaustive --out W/cold.model
expect "exhaustive search" "search: every candidate trained from scratch"
expect "exhaustive search" "search: 12 candidates in [0-9.]+ s \(exhaustive\)"
cold=$(grep -E "^search: chose" <<<"$out")
checks=$((checks + 1))
[ -n "$warm" ] && [ "$warm" = "$cold" ] || fail "same choice" "warm '$warm' vs exhaustive '$cold'"
# Over two cpu contexts (the rows stay on each for the whole search): the same choice and model.
run "warm search on 2 devices" 0 "$CAE" svm $B --features F "${search[@]}" --devices 0,1 --out W/warm-2.model
expect "warm search on 2 devices" "\(2 producers\)"
checks=$((checks + 1))
[ "$(grep -E "^search: chose" <<<"$out")" = "$warm" ] || fail "same choice on 2 devices" "$(grep -E "^search: chose" <<<"$out") vs '$warm'"
checks=$((checks + 1))
cmp -s W/warm.model W/warm-2.model || fail "warm search on 2 devices" "W/warm-2.model differs from one device's"
run "exhaustive without search" 2 "$CAE" svm $B --features F --search-exhaustive --out W/bad.model
expect "exhaustive without search" "--search-exhaustive needs --search"

# Through the pipeline and `cae evaluate`.
run "synth" 0 "$CAE" data synth D --train 130 --test 40 --seed 3
run "pipeline linear" 0 "$CAE" pipeline $B --data D --epochs 1 --batch 32 --classifier linear \
  --validation 20 --out P
expect "pipeline linear" "linear predict"
# --linear-on auto: the cpu backend keeps its tensors in host memory.
expect "pipeline linear" "linear: passes on the host \\(--linear-on auto: cpu keeps its tensors in host memory\\)"
expect "pipeline linear" "test accuracy: [0-9.]+%"
exists "pipeline linear model" P/linear.model
absent "no svm model" P/svm.model
checks=$((checks + 1))
grep -q "multinomial logistic regression" P/report.html || fail "report names the classifier" "P/report.html"
run "evaluate linear" 0 "$CAE" evaluate $B --weights P/model.safetensors --svm P/linear.model --data D --out R
expect "evaluate linear" "test accuracy: [0-9.]+%"
exists "evaluate report" R/report.html
checks=$((checks + 1))
grep -q "multinomial logistic regression" R/report.json ||
  fail "evaluate linear report" "R/report.json does not name the linear classifier's objective"

for command in svm pipeline; do
  run "$command help" 0 "$CAE" "$command" --help
  expect "$command help" "--classifier svm\|linear"
  expect "$command help" "--search-exhaustive"
done

finish
