#!/usr/bin/env python3
"""Fails when a tracked file speaks of how cae was developed instead of cae.

The tree describes the product as it is: documentation, comments, scripts and
test names say what cae does and why, never which work period, numbered
measurement or ticket something came from (git log holds that). This check
scans every file `git ls-files` lists (text files; binary ones are skipped)
for the words below, case-insensitively, and prints each hit as
`path:line: what: text`.

Product meanings that share a word (the host's BackendSession, the Chrome
DevTools protocol's sessions, CMake's CMakePackageConfigHelpers) are listed in
process_words.allow: each line there is a glob of paths and a regular
expression; text matching the expression in files matching the glob is
ignored. Keep those expressions as narrow as the code they describe.

usage: tests/style/process_words.py [SOURCE_DIR]    (default: this checkout)
       tests/style/process_words.py --self-test       (the patterns on known lines)
exit status: 0 clean, 1 process words found, 2 bad usage or allow-list,
             77 not a git checkout (nothing to list; skipped with the reason)
"""
import fnmatch
import os
import re
import subprocess
import sys

# Units that make "runs 10x" or "run 3 times" a statement about cae, not a
# numbered measurement.
_UNITS = (r"x|×|times|epochs?|seeds?|steps?|images?|threads?|blocks?|batch(?:es)?|"
          r"ms|us|µs|ns|s|%|percent|minutes?|seconds?|hours?|[KMGT]i?B|T?FLOP/s")

WORDS = [
    ("a work session", re.compile(r"\bsessions?\b", re.I)),
    ("an issue number", re.compile(r"\bissues?\s*#?\d+", re.I)),
    ("a numbered run", re.compile(
        r"\bruns?\s*#?\d+(?![\d.,]\d)(?!\d)(?!\s*(?:" + _UNITS + r")(?![\w]))", re.I)),
    ("a helper (say what the code is)", re.compile(r"\bhelpers?\b", re.I)),
    ("the lead", re.compile(r"\bthe lead\b", re.I)),
    ("a ticket number", re.compile(r"\btickets?\s*#?\d+", re.I)),
    ("a numbered wave", re.compile(r"\bwaves?\s*#?\d+\b", re.I)),
    ("a worktree", re.compile(r"\bworktrees?\b", re.I)),
    ("a date", re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")),
]

HERE = os.path.dirname(os.path.abspath(__file__))
ALLOW_FILE = os.path.join(HERE, "process_words.allow")


class UsageError(Exception):
    pass


def read_allow_list(path):
    rules = []
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise UsageError(f"cannot read the allow-list {path}: {e.strerror}")
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) != 2:
            raise UsageError(f"{path}:{number}: expected 'PATH_GLOB REGEX', got {line!r}")
        try:
            rules.append((parts[0], re.compile(parts[1], re.I)))
        except re.error as e:
            raise UsageError(f"{path}:{number}: bad regular expression {parts[1]!r}: {e}")
    return rules


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                             check=False)
    except OSError as e:
        return None, f"git cannot run: {e.strerror}"
    if out.returncode != 0:
        return None, f"{root} is not a git checkout: {out.stderr.decode(errors='replace').strip()}"
    return [p for p in out.stdout.decode().split("\0") if p], None


def hits_in(text, allowed):
    for number, line in enumerate(text.splitlines(), 1):
        for pattern in allowed:
            line = pattern.sub(lambda m: " " * len(m.group(0)), line)
        for what, pattern in WORDS:
            if pattern.search(line):
                yield number, what


# Lines the patterns must reject, and lines with the same words in a product
# meaning that they must let through (with the allow-list's rules for a
# host/cli source where given).
SELF_TEST_REJECT = [
    "measured in the sixth session", "Session 4 found", "(docs/PERF.md, run 73)",
    "Run 77 measured v3", "runs 45, 46: 27 multiply-adds", "issue 10's target", "Issue #9",
    "a fork-join helper", "Helpers shared by the plugins", "a TODO from the lead",
    "ticket 12", "wave 3 of the work", "in my worktree", "On the H200 (2026-11-23)",
]
SELF_TEST_ACCEPT = [
    ("README.md", "denoising runs 10x slower on one thread"),
    ("README.md", "the sweep runs 20 seeds"), ("README.md", "each kernel runs 3 times"),
    ("README.md", "training runs 2.5 s per epoch"), ("README.md", "its last wave"),
    ("README.md", "one thread issues the copies"), ("README.md", "an integer ticket, the only atomic"),
    ("README.md", "BackendSession opens a backend"),
    ("host/cli/train_command.cpp", "  BackendSession session = select_backend_session(vm);"),
    ("host/cli/train_command.cpp", "  start_backend_session(session, vm, std::cout);"),
    ("host/cli/bench_command.cpp", "            const BackendSession& session) {"),
    ("host/cli/bench_command.cpp", "  return {{\"backend\", session.backend->name},"),
    ("host/cli/pipeline_command.cpp", "  return finish(outcome, session, synthetic, data_dir);"),
    ("host/cli/pipeline_command.cpp", "    pipeline_report(session, data, data_dir, synthetic);"),
    ("packaging/CMakeLists.txt", "include(CMakePackageConfigHelpers)"),
    ("docs/PERF.md", "Measured 2026-01-02 03:04 UTC."),
]


def self_test(rules):
    failures = []
    for line in SELF_TEST_REJECT:
        if not list(hits_in(line, [])):
            failures.append(f"not rejected: {line!r}")
    for path, line in SELF_TEST_ACCEPT:
        allowed = [regex for glob, regex in rules if fnmatch.fnmatchcase(path, glob)]
        hits = [what for _, what in hits_in(line, allowed)]
        if hits:
            failures.append(f"rejected as {hits[0]}: {path}: {line!r}")
    # The allow-list must not excuse a process word in a host/cli comment.
    cli = [regex for glob, regex in rules if fnmatch.fnmatchcase("host/cli/x.cpp", glob)]
    if not list(hits_in("// measured in the sixth session, faster", cli)):
        failures.append("the allow-list lets a session comment through in host/cli")
    for f in failures:
        print(f"process_words self-test: {f}")
    if not failures:
        print(f"process_words self-test: {len(SELF_TEST_REJECT)} rejected and "
              f"{len(SELF_TEST_ACCEPT) + 1} accepted as expected")
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        try:
            return self_test(read_allow_list(ALLOW_FILE))
        except UsageError as e:
            print(f"process_words: {e}", file=sys.stderr)
            return 2
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print("usage: tests/style/process_words.py [SOURCE_DIR | --self-test]", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1] if len(argv) == 2 else os.path.join(HERE, "..", ".."))
    try:
        rules = read_allow_list(ALLOW_FILE)
    except UsageError as e:
        print(f"process_words: {e}", file=sys.stderr)
        return 2
    files, why = tracked_files(root)
    if files is None:
        print(f"SKIPPED: process-word check: {why}")
        return 77
    own = {os.path.relpath(p, root) for p in (os.path.abspath(__file__), ALLOW_FILE)}
    found = 0
    scanned = 0
    for rel in files:
        if rel in own:
            continue
        path = os.path.join(root, rel)
        try:
            data = open(path, "rb").read()
        except OSError:
            continue  # listed but deleted in the working tree
        if b"\0" in data:
            continue  # binary
        scanned += 1
        text = data.decode("utf-8", errors="replace")
        allowed = [regex for glob, regex in rules if fnmatch.fnmatchcase(rel, glob)]
        lines = text.splitlines()
        for number, what in hits_in(text, allowed):
            print(f"{rel}:{number}: {what}: {lines[number - 1].strip()[:160]}")
            found += 1
    # Test names are files' text too (CMakeLists.txt), so they are covered above.
    if found:
        print(f"process_words: {found} line(s) speak of how cae was developed, not of cae: "
              f"say what is true of cae instead (or, for a product meaning, add it to "
              f"{os.path.relpath(ALLOW_FILE, root)})")
        return 1
    print(f"process_words: {scanned} tracked text files speak only of cae")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
