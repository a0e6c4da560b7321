#!/usr/bin/env python3
"""docs/cli.md is the help the built `cae` prints, command by command.

    python3 tests/docs/cli_doc.py build/bin/cae           # rewrite docs/cli.md
    python3 tests/docs/cli_doc.py build/bin/cae --check   # exit 1 naming the first
                                                          # command whose help differs

The page is never edited by hand: a wrong or missing word is fixed in the
help text (host/cli/), then the page is generated again. Generating also
checks the help itself: every command's summary fits one line of `cae help`,
its options are listed once, and every option its usage line names is one it
takes.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "cli.md")
REGENERATE = "python3 tests/docs/cli_doc.py build/bin/cae"

INTRO = f"""\
Generated from the help the built `cae` prints: `{REGENERATE}` rewrites this page, and CTest's `docs.cli` fails when they differ. Do not edit it by hand.

# Command reference

`cae help` lists the commands; `cae help CMD` (or `cae CMD --help`) prints
what this page shows for CMD. Bad input gets one line naming the problem and
a non-zero exit code: 2 for a bad command line, 1 for a failure at run time
(docs/reliability.md, "Exit codes"). The options of a backend itself
(`--backend-option NAME=VALUE`) are declared by the backend: `cae info
--backend B` lists them, and docs/backends.md describes every bundled one.
"""

# An option row of Boost.Program_options' listing: "  -b [ --backend ] ..." or "  --out arg ...".
OPTION_ROW = re.compile(r"^  (?:-\w \[ )?--([\w-]+)")
# An option named in a usage line: "--name" not followed by more name characters.
USAGE_OPTION = re.compile(r"--([A-Za-z][\w-]*)")


class HelpError(Exception):
    """The help text itself is wrong (not merely different from the page)."""


def run_help(cae, args):
    result = subprocess.run([cae, "help"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True)
    if result.returncode != 0:
        raise HelpError(f"`cae help {' '.join(args)}` exited {result.returncode}: "
                        f"{result.stderr.strip()}")
    return result.stdout


# `cae help` gives each command one line; longer ones wrap into a wall of text.
OVERVIEW_WIDTH = 100


def command_names(overview):
    """The commands `cae help` lists, in its order, each on a line of its own."""
    lines = overview.splitlines()
    try:
        start = lines.index("commands:") + 1
    except ValueError:
        raise HelpError("`cae help` prints no \"commands:\" list")
    names = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        names.append(line.split()[0])
        if len(line) > OVERVIEW_WIDTH:
            raise HelpError(f"`cae help`: the summary of {names[-1]} makes a line of {len(line)} "
                            f"characters (at most {OVERVIEW_WIDTH}); move the rest into its details")
    if not names:
        raise HelpError("`cae help` lists no commands")
    return names


def check_command_help(name, text):
    """Every option listed once; every option of the usage line declared."""
    declared = [m.group(1) for m in map(OPTION_ROW.match, text.splitlines()) if m]
    repeated = sorted({o for o in declared if declared.count(o) > 1})
    if repeated:
        raise HelpError(f"`cae help {name}` lists --{', --'.join(repeated)} more than once")
    usage = text.splitlines()[0]
    unknown = [o for o in USAGE_OPTION.findall(usage) if o not in declared and o != "help"]
    if unknown:
        raise HelpError(f"`cae help {name}`: its usage line names --{', --'.join(unknown)}, "
                        "which it does not take")


def fenced(text):
    return "```text\n" + text.rstrip("\n") + "\n```\n"


def sections(cae):
    """(title, markdown) per command, the overview first."""
    overview = run_help(cae, [])
    result = [("cae help", "## `cae help`\n\n" + fenced(overview))]
    for name in command_names(overview):
        text = run_help(cae, [name])
        check_command_help(name, text)
        result.append((f"cae help {name}", f"## `cae {name}`\n\n" + fenced(text)))
    return result


def render(parts):
    return INTRO + "".join("\n" + markdown for _, markdown in parts)


def first_difference(parts, current):
    """The title of the first section the page does not hold as printed."""
    if not current.startswith(INTRO):
        return "the introduction"
    for title, markdown in parts:
        if ("\n" + markdown) not in current:
            return title
    return "the order of the sections or text between them"


def main(argv):
    parser = argparse.ArgumentParser(description="Generate or check docs/cli.md from `cae help`.")
    parser.add_argument("cae", help="the built cae executable")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--doc", default=DOC, help="the page (default: docs/cli.md)")
    args = parser.parse_args(argv)
    try:
        parts = sections(args.cae)
    except (HelpError, OSError) as error:
        print(f"cli_doc: {error}", file=sys.stderr)
        return 1
    wanted = render(parts)
    if not args.check:
        with open(args.doc, "w") as f:
            f.write(wanted)
        return 0
    try:
        with open(args.doc) as f:
            current = f.read()
    except OSError as error:
        print(f"cli_doc: {error}", file=sys.stderr)
        return 1
    if current == wanted:
        return 0
    print(f"cli_doc: {args.doc} differs from what cae prints, first at `{first_difference(parts, current)}`;"
          f" regenerate it: {REGENERATE}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
