# Shared by the CLI test scripts (source it): a scratch folder as the working
# directory, counters, and assertions on the output and exit code of one run.
# Each assertion counts a check; a failure prints why and the output's tail.
failures=0 checks=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL [$1]: $2"
  [ -n "${out:-}" ] && echo "$out" | tail -20 | sed 's/^/    /'
  failures=$((failures + 1))
}
# run NAME EXPECTED_RC CMD...: stdout+stderr into $out, checks the exit code.
run() {
  local name=$1 expected=$2
  shift 2
  out=$("$@" 2>&1)
  local rc=$?
  checks=$((checks + 1))
  [ "$rc" = "$expected" ] || fail "$name" "exit code $rc, expected $expected"
}
# run_err NAME EXPECTED_RC CMD...: like run, but $out is stderr alone (the error).
run_err() {
  local name=$1 expected=$2
  shift 2
  out=$("$@" 2>&1 >/dev/null)
  local rc=$?
  checks=$((checks + 1))
  [ "$rc" = "$expected" ] || fail "$name" "exit code $rc, expected $expected"
}
# expect / reject NAME PATTERN: $out must (not) match the extended regex.
expect() {
  checks=$((checks + 1))
  grep -qE -- "$2" <<<"$out" || fail "$1" "output lacks /$2/"
}
reject() {
  checks=$((checks + 1))
  ! grep -qE -- "$2" <<<"$out" || fail "$1" "output unexpectedly has /$2/"
}
# one_line NAME: errors are a single line. The warning that a backend named
# with --backend is not certified (a stub plugin's) is its own line, not part
# of the error.
one_line() {
  checks=$((checks + 1))
  [ "$(printf '%s\n' "$out" | grep -cv '^cae: warning: backend .* is not certified: ')" = 1 ] ||
    fail "$1" "error is not one line"
}
# short_line NAME MAX: no line of $out is longer than MAX characters (a
# message quotes an excerpt of a huge value, never the value).
short_line() {
  checks=$((checks + 1))
  [ "$(printf '%s\n' "$out" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le "$2" ] ||
    fail "$1" "a line is longer than $2 characters"
}
# error NAME RC PATTERN CMD...: a run that must fail with one line matching PATTERN.
error() {
  local name=$1 rc=$2 pattern=$3
  shift 3
  run "$name" "$rc" "$@"
  expect "$name" "$pattern"
  one_line "$name"
}
exists() {
  checks=$((checks + 1))
  [ -s "$2" ] || fail "$1" "$2 missing or empty"
}
absent() {
  checks=$((checks + 1))
  [ ! -e "$2" ] || fail "$1" "$2 should not exist"
}
# no_leftovers NAME DIR: no temporaries or locks of a finished or stopped run.
no_leftovers() {
  checks=$((checks + 1))
  local left
  left=$(ls -a "$2" 2>/dev/null | grep -E '\.tmp\.[0-9]+$|\.lock$' || true)
  [ -z "$left" ] || fail "$1" "left behind in $2: $left"
}
# finish: the summary line and the script's exit status.
finish() {
  echo "$((checks - failures)) passed, $failures failed"
  [ "$failures" = 0 ]
}
