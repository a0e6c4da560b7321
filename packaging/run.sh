#!/usr/bin/env bash
# The whole job in one command, from a fresh clone: installs the Debian
# packages that are missing, builds what `cae pipeline` needs (the program,
# every backend, cae-conformance), then runs `cae pipeline` with the
# arguments given (default: the best recipe, into run/). The pipeline uses the
# fastest backend that runs here, certifying it on its first use, and
# CIFAR-10 when it is under data/ (a synthetic set otherwise).
#   usage: packaging/run.sh [cae pipeline options]   e.g. --out myrun --epochs 5
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
say() { printf 'run.sh: %s\n' "$*"; }
elapsed() { echo $(( $(date +%s) - $1 )) s; }

start=$(date +%s)
"$root/packaging/install-deps.sh"
say "dependencies: $(elapsed "$start")"

start=$(date +%s)
if [ ! -f "$build/CMakeCache.txt" ]; then
  mkdir -p "$build"
  cmake -S "$root" -B "$build" -G Ninja > "$build/configure.log" 2>&1 ||
    { say "configure failed (log: $build/configure.log)"; tail -n 20 "$build/configure.log"; exit 1; }
fi
cmake --build "$build" --target cae-job
say "build: $(elapsed "$start")"

exec "$build/bin/cae" pipeline "$@"
