#!/usr/bin/env python3
"""docs/backends.md names every option a bundled backend declares.

    python3 tests/docs/backend_options_doc.py [ROOT]

Backends declare their options in tables of cae_plugin::OptionSpec
(plugins/common/backend_options.hpp); each entry starts with its kind and
name. The page's table writes each as `NAME=`; a declared name the page
lacks fails, naming it and the file that declares it.
"""
import os
import re
import sys

# {CAE_OPTION_ENUM, "graph-fusion", ...} or, one field a line, CAE_OPTION_BOOL,\n "poison-scratch",
DECLARATION = re.compile(r"CAE_OPTION_[A-Z]+\s*,\s*\"([a-z0-9-]+)\"")
# Examples in comments ("//   {CAE_OPTION_INT, ...}") declare nothing.
LINE_COMMENT = re.compile(r"//[^\n]*")
SOURCES = (".cpp", ".hpp", ".c", ".h", ".cu", ".cuh")


def declared_options(plugins):
    """{option name: first file declaring it} over the bundled backends' sources."""
    found = {}
    for folder, _, files in sorted(os.walk(plugins)):
        for name in sorted(files):
            if not name.endswith(SOURCES):
                continue
            path = os.path.join(folder, name)
            with open(path, errors="replace") as f:
                for option in DECLARATION.findall(LINE_COMMENT.sub("", f.read())):
                    found.setdefault(option, os.path.relpath(path, os.path.dirname(plugins)))
    return found


def main(argv):
    root = argv[0] if argv else os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    options = declared_options(os.path.join(root, "plugins"))
    if not options:
        print("backend_options_doc: no option declarations found under plugins/", file=sys.stderr)
        return 1
    with open(os.path.join(root, "docs", "backends.md")) as f:
        page = f.read()
    missing = [name for name in options if f"`{name}=`" not in page]
    for name in missing:
        print(f"backend_options_doc: docs/backends.md does not describe `{name}=` "
              f"(declared in {options[name]})", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
