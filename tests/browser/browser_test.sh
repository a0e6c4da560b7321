#!/usr/bin/env bash
# Browser test (CTest browser.report): makes the pages a user opens, on the
# cpu backend and tiny sizes, and checks them in headless Chromium
# (check_pages.py): a run's report.html, the bench page and a comparison of
# two runs. Screenshots stay in SHOTS_DIR for a human to look at.
# usage: browser_test.sh CAE SHOTS_DIR
# exit: 0 pass, 1 fail, 77 skipped (Chromium missing: says so, never a pass).
set -uo pipefail
CAE=$1 SHOTS=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || {
  echo "SKIPPED: Chromium is not installed (Debian package chromium)"
  exit 77
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset CAE_PLUGIN_PATH

step() {
  local name=$1
  shift
  if ! out=$("$@" 2>&1); then
    echo "FAIL [$name]: $*"
    echo "$out" | tail -n 30 | sed 's/^/    /'
    exit 1
  fi
}

step "synthetic data" "$CAE" data synth "$work/data" --train 200 --test 100 --seed 5
step "pipeline" "$CAE" pipeline --backend cpu --data "$work/data" --epochs 2 --out "$work/run"
step "second pipeline" "$CAE" pipeline --backend cpu --data "$work/data" --epochs 1 \
  --out "$work/run-b"
step "report again" "$CAE" report "$work/run"
step "compare" "$CAE" report "$work/run" "$work/run-b" --out "$work/compare"
step "bench page" "$CAE" bench --backend cpu --batch 2 --images 4 --extract-images 4 \
  --repeats 1 --html "$work/bench.html"
rm -rf "$SHOTS" && mkdir -p "$SHOTS"
# Inline figures expected: report 3 after `cae report` redrew it (per class,
# confusion, loss; the reconstructions, which it cannot redraw, are an <img>
# of their PNG), comparison 3 (per class, loss, timings), bench 1 epoch + 8
# op kinds.
python3 "$here/check_pages.py" "$SHOTS" "$work/run/report.html:3" \
  "$work/compare/compare.html:3" "$work/bench.html:9"
