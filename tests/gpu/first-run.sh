#!/usr/bin/env bash
# The README's main job as a new user meets it, on a GPU machine with a
# carried build (tests/gpu/prepare-carry.sh): nothing certified, CIFAR-10
# (JPEG q75 copy) under data/, then `cae pipeline` exactly as packaging/run.sh
# runs it (no options), timed from outside, and the same with
# `--defaults baseline`. Writes OUT/first-run.log (every line, timestamped),
# OUT/first-run.json (wall seconds, peak RSS, stage table, accuracy, the
# certification line) and the runs' report.json files.
# usage: tests/gpu/first-run.sh BUILD_DIR CIFAR_PACK_DIR OUT
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 pack=$2 out=$3
# shellcheck source=tests/gpu/use-build.sh
source "$root/tests/gpu/use-build.sh"
mkdir -p "$out" && out=$(cd "$out" && pwd)
log=$out/first-run.log
: >"$log"
stamp() { while IFS= read -r line; do printf '%(%T)T %s\n' -1 "$line"; done; }

# Fresh: no certification record beside the plugins or in the cache.
rm -f "$build"/lib/cae/plugins/*.certified.json
export XDG_CACHE_HOME=$out/cache
rm -rf "$XDG_CACHE_HOME"
work=$(mktemp -d)
python3 "$pack/unpack.py" "$work/cifar" >/dev/null || exit 1
mkdir -p "$work/job/data"
ln -s "$work/cifar/cifar-10-batches-bin" "$work/job/data/cifar-10-batches-bin"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$log"

# timed CMD...: runs CMD, then says its wall time and peak RSS (from outside).
timed() {
  python3 -c 'import resource, subprocess, sys, time
start = time.monotonic()
status = subprocess.call(sys.argv[1:])
print(f"wall {time.monotonic() - start:.2f} s, peak rss "
      f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss} KiB", file=sys.stderr)
sys.exit(status)' "$@"
}
# run NAME ARGS...: one `cae pipeline` in the job folder, timed from outside.
run() {
  local name=$1
  shift
  echo "== $name: cae pipeline $*" | tee -a "$log"
  (cd "$work/job" && timed "$build/bin/cae" pipeline "$@" \
    --out "run-$name") 2>&1 | stamp | tee -a "$log" | grep -E "certif|defaults|^.{9}(stage|total|test accuracy|validation accuracy|wall|Fontconfig)" 
  cp "$work/job/run-$name/report.json" "$out/report-$name.json" 2>/dev/null
}
run best
run baseline --defaults baseline
python3 - "$log" "$out/first-run.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
runs = {}
for block in re.split(r"^== ", text, flags=re.M)[1:]:
    name = block.split(":", 1)[0]
    wall = re.search(r"wall ([0-9.]+) s, peak rss ([0-9]+) KiB", block)
    total = re.search(r"^\S+ total\s+([0-9.]+)", block, re.M)
    acc = re.search(r"test accuracy: ([0-9.]+)%", block)
    cert = re.search(r"cae: certifying .*", block)
    runs[name] = {"wall_s": float(wall.group(1)) if wall else None,
                  "peak_rss_gib": int(wall.group(2)) / 2**20 if wall else None,
                  "stage_table_total_s": float(total.group(1)) if total else None,
                  "test_accuracy": float(acc.group(1)) if acc else None,
                  "certification": cert.group(0) if cert else None,
                  "fontconfig_lines": block.count("Fontconfig")}
json.dump(runs, open(sys.argv[2], "w"), indent=2)
print(json.dumps(runs, indent=2))
PY
