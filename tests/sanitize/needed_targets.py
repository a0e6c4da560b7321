#!/usr/bin/env python3
"""Prints the build outputs a set of CTest tests needs, one per line, as
ninja targets (paths relative to the build folder), so that a build can make
only those (tests/run-sanitized.sh).

What a test needs is read from its command line, as CMake wrote it into the
build's CTestTestfile.cmake files (ctest itself omits the command of a test
whose program is not built yet): every argument inside the build
folder that ninja builds (an executable, a library), and every output below
an argument that is a folder of the build (the loader's stub plugins). The
backends in the build tree's plugin folder come too, since `cae` finds its
backends there. ninja then builds their dependencies (libraries, and the
targets a test program declares it loads).

usage: needed_targets.py BUILD REGEX   (REGEX as ctest -R: searched in the test names)
exit status: 0, 1 when no test matched or none needs anything (the caller
would build nothing and test nothing), 2 bad usage or input.
"""
import os
import re
import subprocess
import sys

PLUGIN_FOLDER = os.path.join("lib", "cae", "plugins")


def ninja_outputs(build):
    out = subprocess.run(["ninja", "-C", build, "-t", "targets", "all"], capture_output=True,
                         text=True, check=True).stdout
    return {line.split(": ", 1)[0] for line in out.splitlines() if ": " in line}


ADD_TEST = re.compile(r'^add_test\(\[=\[(.*?)\]=\]\s+(.*)\)\s*$')
ARGUMENT = re.compile(r'"((?:[^"\\]|\\.)*)"')


def tests_of(build):
    """(name, [command arguments]) of every test the build registers."""
    for folder, _, files in os.walk(build):
        if "CTestTestfile.cmake" not in files:
            continue
        for line in open(os.path.join(folder, "CTestTestfile.cmake"), encoding="utf-8"):
            m = ADD_TEST.match(line.strip())
            if m:
                yield m.group(1), [a.replace('\\"', '"') for a in ARGUMENT.findall(m.group(2))]


def main(argv):
    if len(argv) != 3:
        print("usage: needed_targets.py BUILD REGEX", file=sys.stderr)
        return 2
    build = os.path.realpath(argv[1])
    try:
        pattern = re.compile(argv[2])
    except re.error as e:
        print(f"needed_targets: bad test-name pattern {argv[2]!r}: {e}", file=sys.stderr)
        return 2
    tests = [(name, command) for name, command in tests_of(build) if pattern.search(name)]
    if not tests:
        print(f"needed_targets: no test of {build} matches {argv[2]}", file=sys.stderr)
        return 1
    outputs = ninja_outputs(build)
    folders = [PLUGIN_FOLDER]
    wanted = set()
    for _, command in tests:
        for arg in command:
            path = os.path.realpath(arg) if os.path.isabs(arg) else None
            if not path or os.path.commonpath([path, build]) != build:
                continue
            rel = os.path.relpath(path, build)
            if rel in outputs:
                wanted.add(rel)
            else:
                folders.append(rel)
    for folder in folders:
        prefix = folder.rstrip("/") + "/"
        wanted.update(o for o in outputs if o.startswith(prefix) and "CMakeFiles" not in o
                      and not o.endswith(".o"))
    if not wanted:
        print("needed_targets: the tests name nothing the build makes", file=sys.stderr)
        return 1
    print("\n".join(sorted(wanted)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
