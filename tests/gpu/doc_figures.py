"""Finds the measured-looking figures of the hand-written docs and says which
ones nothing backs: a figure outside a generated block must be a value the
results hold (docs/perf-results.json, raw or as the generated tables render
it) or a documented constant (tests/gpu/doc_constants.json).

A figure is a number followed by a unit of measurement (s, ms, %, GiB,
TFLOP/s, images/s, x ...), a range or list of numbers ending in such a unit
("0.35 to 0.41 s"), or a decimal alone in a hand-written table cell. Inline
code (`--sparsity l1:0.001`) is skipped: it holds options, not measurements.

Standard library only: it runs in CI.
"""
import glob
import json
import os
import re

# Each unit, and the factors that turn a value as the results store it into
# that unit: seconds may be quoted as ms, fractions as percent, bytes as GiB.
UNIT_SCALES = {
    "s": (1, 1e-3, 1e-6), "ms": (1, 1e3, 1e-3), "us": (1, 1e6, 1e3), "µs": (1, 1e6, 1e3),
    "min": (1, 1 / 60), "%": (1, 100), "GiB": (1, 2**-30), "MiB": (1, 2**-20),
    "GB": (1, 1e-9), "MB": (1, 1e-6), "GB/s": (1, 1e-9), "TB/s": (1,),
    "TFLOP/s": (1,), "GFLOP": (1, 1e-9), "images/s": (1,), "x": (1,),
}
UNIT_ALIASES = {"×": "x", "seconds": "s", "second": "s", "minutes": "min", "μs": "µs"}
# Longest first, so that "ms" is not read as "m" + "s" and "GB/s" not as "GB".
UNIT_WORDS = sorted(list(UNIT_SCALES) + list(UNIT_ALIASES), key=len, reverse=True)
NUMBER = r"\d[\d,]*(?:\.\d+)?"
UNIT = r"(?:%s)" % "|".join(re.escape(u) for u in UNIT_WORDS)
# A number, optionally a range or list of them, then a unit that ends the word.
FIGURE = re.compile(r"(?<![\w.,/-])((?:%s\s*(?:to|–|-)\s*)*)(%s)\s?(%s)(?![\w/])"
                    % (NUMBER, NUMBER, UNIT))
EARLIER_NUMBER = re.compile(NUMBER)
CELL_DECIMAL = re.compile(r"^\s*(\d[\d,]*\.\d+)\s*$")
INLINE_CODE = re.compile(r"`[^`\n]*`")
GENERATED = re.compile(r"<!-- generated:(\w+) -->\n.*?\n<!-- end:\1 -->", re.S)
# 1.5x is a ratio; "3 x 3" is a product, not a figure.
ARITHMETIC_X = re.compile(r"\s+\d")

DOC_GLOBS = ["README.md", "docs/*.md", "plugins/*/README.md"]


class Figure:
    """One number of a doc, as written, with the unit it is quoted in."""

    def __init__(self, path, line, text, number, unit):
        self.path, self.line, self.text, self.unit = path, line, text, unit
        self.value = float(number.replace(",", ""))
        self.decimals = len(number.split(".")[1]) if "." in number else 0

    def key(self):
        """How doc_constants.json names it: the number as written, its unit after a space."""
        return self.text

    def __repr__(self):
        return f"{self.path}:{self.line}: {self.text}"


def doc_paths(root):
    """Every doc the check reads, README first."""
    found = []
    for pattern in DOC_GLOBS:
        found += sorted(glob.glob(os.path.join(root, pattern)))
    return found


def blank_generated(text):
    """The text with each generated block's body blanked, line count kept."""
    return GENERATED.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def figures(text, path="<doc>"):
    """Every figure of `text` outside the generated blocks and inline code."""
    found = []
    in_fence = False
    for number, line in enumerate(blank_generated(text).splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        # Indented (4-space) blocks are commands and their output, like fences.
        if in_fence or line.startswith("    ") and not line.lstrip().startswith(("-", "*", "|")):
            continue
        line = INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)
        found += line_figures(line, path, number)
    return found


def line_figures(line, path, number):
    found = []
    for m in FIGURE.finditer(line):
        unit = UNIT_ALIASES.get(m.group(3), m.group(3))
        if unit == "x" and ARITHMETIC_X.match(line, m.end()):
            continue  # "3 x 3": a product, not a ratio
        for earlier in EARLIER_NUMBER.findall(m.group(1)):
            found.append(Figure(path, number, f"{earlier} {unit}", earlier, unit))
        found.append(Figure(path, number, f"{m.group(2)} {unit}", m.group(2), unit))
    if line.lstrip().startswith("|"):
        for cell in line.strip().strip("|").split("|"):
            d = CELL_DECIMAL.match(cell)
            if d:
                found.append(Figure(path, number, d.group(1), d.group(1), ""))
    return found


# ---------------------------------------------------------------- what backs a figure

# The unit each results field is stored in, by its name; a field not named
# here is a count (images, seeds, cores) and backs only unitless table cells.
FIELD_UNITS = [(re.compile(p), u) for p, u in [
    (r"(_s|^seconds| s)$", "s"), (r"(^|_)ms$", "ms"), (r"(^|_)us$", "us"),
    (r"(bytes|^dram_read|^dram_write)$", "B"), (r"^accuracy$", "fraction"),
    (r"_accuracy$", "%"), (r"_pct$", "%"), (r"^speedup$", "x"), (r"tflops$", "TFLOP/s"),
    (r"^memory_gib$", "GiB"), (r"_mib$", "MiB")]]
# The stages of a pipeline run are seconds, named by stage ("svm train").
SECONDS_PARENTS = {"stages"}
# A generated table's column unit, from its header.
COLUMN_UNITS = [(re.compile(p), u) for p, u in [
    (r"images/s", "images/s"), (r"GB/s", "GB/s"), (r"TFLOP/s", "TFLOP/s"), (r"GiB", "GiB"),
    (r"\bMB\b", "MB"), (r"\bms\b", "ms"), (r"^us$", "us"), (r"\(s\)|\bs per\b|\bs for\b", "s")]]
# How a figure quoted in one unit may come from a value stored in another.
CONVERSIONS = {
    "s": [("s", 1), ("ms", 1e-3), ("us", 1e-6)], "ms": [("ms", 1), ("s", 1e3), ("us", 1e-3)],
    "us": [("us", 1), ("ms", 1e3), ("s", 1e6)], "min": [("min", 1), ("s", 1 / 60)],
    "%": [("%", 1), ("fraction", 100)], "GiB": [("GiB", 1), ("B", 2**-30)],
    "MiB": [("MiB", 1), ("B", 2**-20)], "GB": [("GB", 1), ("B", 1e-9)], "MB": [("MB", 1), ("B", 1e-6)],
}
CONVERSIONS["µs"] = CONVERSIONS["us"]


def field_unit(key, parent):
    if parent in SECONDS_PARENTS:
        return "s"
    for pattern, unit in FIELD_UNITS:
        if key and pattern.search(key):
            return unit
    return ""


def json_values(node, key=None, parent=None):
    """(value, unit) of every number the results hold; a number written inside
    a string ("68.10%", "0.3 s") with the unit the string gives it."""
    if isinstance(node, bool):
        return []
    if isinstance(node, (int, float)):
        return [(float(node), field_unit(key, parent))]
    if isinstance(node, str):
        found = [(f.value, f.unit) for f in line_figures(node, "", 0)]
        unit = field_unit(key, parent)
        return found + [(float(n.replace(",", "")), unit) for n in EARLIER_NUMBER.findall(node)]
    if isinstance(node, dict):
        return [v for k, child in node.items() for v in json_values(child, k, key)]
    if isinstance(node, list):
        return [v for child in node for v in json_values(child, key, parent)]
    return []


def rendered_values(text):
    """(value, unit) of every number a generated block shows: figures with
    their units, table cells with their column's unit."""
    found = []
    lines = text.splitlines()
    units = []
    for i, line in enumerate(lines):
        found += [(f.value, f.unit) for f in line_figures(line, "", 0)]
        if not line.startswith("|"):
            units = []
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            units = [next((u for p, u in COLUMN_UNITS if p.search(c)), "") for c in cells]
            continue
        for column, cell in enumerate(cells):
            unit = units[column] if column < len(units) else ""
            found += [(float(n.replace(",", "")), unit) for n in EARLIER_NUMBER.findall(cell)]
    return found


def sourced_values(results, rendered_blocks):
    """{unit: values} a figure may quote: the results' own numbers and every
    number the generated blocks derive from them (per-epoch times, ratios)."""
    values = {}
    pairs = json_values(results)
    for text in rendered_blocks.values():
        pairs += rendered_values(text)
    for value, unit in pairs:
        values.setdefault(unit, set()).add(value)
    return values


def backed(figure, values):
    """Whether a value, in the figure's unit or one convertible to it, rounds to
    the figure as written, within 5% of it: "2 s" may quote 1.96 but not 1.6.
    A unitless table cell may quote a value of any unit."""
    if figure.unit:
        sources = CONVERSIONS.get(figure.unit, [(figure.unit, 1)])
    else:
        sources = [(unit, 1) for unit in values]
    target = round(figure.value, figure.decimals)
    for unit, factor in sources:
        for v in values.get(unit, ()):
            x = v * factor
            if round(x, figure.decimals) == target and abs(x - figure.value) <= 0.05 * abs(figure.value):
                return True
    return False


def load_constants(path):
    """doc_constants.json: {"constants": {"FIGURE": "why it is not a measurement"}},
    each FIGURE as Figure.key() writes it; {"files": {"PATH": {...}}} for one doc only."""
    if not path or not os.path.exists(path):
        return {"constants": {}, "files": {}}
    with open(path) as f:
        data = json.load(f)
    return {"constants": data.get("constants", {}), "files": data.get("files", {})}


def is_constant(figure, constants):
    return (figure.key() in constants["constants"]
            or figure.key() in constants["files"].get(figure.path, {}))


def unsourced(paths, results, rendered_blocks, constants, root):
    """The figures of `paths` that neither the results nor the constants back."""
    values = sourced_values(results, rendered_blocks)
    problems = []
    for path in paths:
        with open(path) as f:
            text = f.read()
        for figure in figures(text, os.path.relpath(path, root)):
            if not backed(figure, values) and not is_constant(figure, constants):
                problems.append(figure)
    return problems
