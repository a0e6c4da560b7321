#!/usr/bin/env python3
"""The best recipe's ablation table, as the benchmark suite measures it (the
`ablation` part of tests/gpu/bench-suite.sh): `cae pipeline` with the README's
best recipe, then once with each of its ingredients taken away and once with
one more added, every run choosing C and gamma on the validation
split (or not, where the search is what is taken away). Validation accuracy,
wall time and peak resident memory per command; what an ingredient is worth
is the winner's validation accuracy minus the run without it.

The winner alone is also run with two more training seeds: the test set is
read for the winner only, and its three seeds give the mean and spread of
its test accuracy (tests/gpu/perf_tables.py renders both).
Standard library only.
"""
import os
import re
import shutil

from ingredients_table import as_written, with_pipeline_outcome
from mode_options import with_mode_options

# A tap of a composed recipe pooled into 2x2 cells, with the '+' before it.
TWO_BY_TWO_TAP = re.compile(r"\+[a-z0-9_.]+:[a-z0-9_.]+:(?:sum|max)2(?=\+|$)")

# What each variant does to the best recipe's options: (name, what the table
# says, the change). A change is ("drop", OPTION) for a flag, ("set", OPTION,
# VALUE) to replace or add an option's value, ("add", OPTION, VALUE), or
# ("features", FUNCTION) for the winner's composed --features recipe
# (docs/features.md) rewritten by FUNCTION: the variants follow the winner's
# recipe instead of naming a second copy of it.
VARIANTS = [
    ("winner", "the best recipe", None),
    ("max-pooled", "with the convolutions' codes max-pooled instead of summed",
     ("features", lambda recipe: recipe.replace(":sum", ":max"))),
    ("no-triangle", "without the triangle code (the maps as they are: `id`)",
     ("features", lambda recipe: recipe.replace(":tri:", ":id:"))),
    ("no-flip-average", "without averaging each image's features with its mirror's",
     ("features", lambda recipe: recipe.replace("+flip", ""))),
    ("no-sqrt", "without the signed square root of every feature",
     ("features", lambda recipe: recipe.replace("+sqrt", ""))),
    ("one-scale", "without the codes pooled into 2x2 cells (the 4x4 cells alone)",
     ("features", lambda recipe: TWO_BY_TWO_TAP.sub("", recipe))),
    ("no-flip-training", "without flipped training images", ("drop", "--augment", "flip")),
    ("no-contrast", "without contrast normalisation", ("drop", "--contrast-normalize", None)),
    ("no-search", "without the search (C and gamma at their defaults)", ("drop", "--search", None)),
    ("plus-threshold", "with the soft threshold 0.25 after pooling",
     ("add", "--feature-threshold", "0.25")),
    ("epochs-20", "trained for 20 epochs (the winner's schedule written out, or set, to 20)",
     ("set", "--epochs", "20")),
]
# The winner again with these training seeds (the first run used the default, 1).
EXTRA_SEEDS = [2, 3]


def variant_options(best, change):
    """The best recipe's options with one change applied."""
    options = list(best)
    if change is None:
        return options
    if change[0] == "features":
        at = options.index("--features") + 1
        rewritten = change[1](options[at])
        if rewritten == options[at]:
            raise ValueError(f"the best recipe's features {options[at]} have nothing this variant changes")
        options[at] = rewritten
        return options
    kind, option, value = change
    if kind == "drop":
        at = options.index(option)
        del options[at:at + (2 if value is not None else 1)]
    elif kind == "set":
        if option in options:
            options[options.index(option) + 1] = value
        else:
            options[-1:-1] = [option, value]
    elif kind == "add":
        # Before --search, which the README writes last.
        at = options.index("--search") if "--search" in options else len(options)
        options[at:at] = [option, value]
    else:
        raise ValueError(f"unknown change {kind}")
    return options


def runs(best):
    """(name, description, options, seed) of every pipeline the part runs, in
    order, each written so that it means exactly its options
    (ingredients_table.as_written)."""
    out = [(name, text, as_written(variant_options(best, change)), 1) for name, text, change in VARIANTS]
    out += [(f"winner-seed-{s}", f"the best recipe, training seed {s}", list(best) + ["--seed", str(s)], s)
            for s in EXTRA_SEEDS]
    return out


def run_record(name, text, options, seed, step, run_dir):
    """One run's record from its finished (or failed) pipeline: `step` is
    bench_suite.run_step's result, `run_dir` the pipeline's --out folder."""
    record = {"variant": name, "change": text, "seed": seed,
              "readme_command": " ".join(["cae", "pipeline"] + options)}
    return with_pipeline_outcome(record, step, run_dir)


def run_part(suite, best):
    """Runs every pipeline through the suite (its budget, limits, logs and
    the mode's added options); each run's folder is removed once measured."""
    records = []
    for name, text, options, seed in runs(best):
        run_dir = os.path.join(suite.raw, f"ablation-{name}")
        cmd = ([suite.cae, "pipeline", "--data", suite.args.data]
               + with_mode_options(suite.s["pipeline_args"], options) + ["--out", run_dir])
        suite.say(f"ablation {name}: cae pipeline {' '.join(options)}")
        step = suite.step(cmd, suite.s["pipeline_limit"], f"ablation-{name}")
        records.append(run_record(name, text, options, seed, step, run_dir))
        shutil.rmtree(run_dir, ignore_errors=True)
    return records
