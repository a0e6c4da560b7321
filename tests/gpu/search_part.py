#!/usr/bin/env python3
"""The `search` part of the benchmark suite (tests/gpu/bench-suite.sh): the
C and gamma search alone, on the best recipe's features.

The recipe's training and extraction run once (`cae train`, then `cae
extract`, the options the README's best pipeline gives them), then `cae svm
--search` three times on the same features: the default search (per gamma
one kernel, each C started from the previous C's solution, the RBF kernel
held as unorm16), the same search on the kernel in float32 (what unorm16
saves), and `--search-exhaustive` (every candidate trained from scratch, the
reference), the linear classifiers, and the default search over a wider grid
(whether the default grid holds the best candidate).
`cae svm` prints the search's own time ("search: N candidates in S s"), apart
from reading the features, the backend's start, writing the model and the
test prediction; the part records both that and the command's wall time and
peak memory, the candidate each search chose and whether they agree.
Standard library only.
"""
import os
import re
import shutil

from mode_options import option_items, with_mode_options

# Options of `cae pipeline` that belong to feature extraction; --search is
# the SVM's; every other option of the recipe is a training option.
EXTRACT_OPTIONS = {"--features", "--feature-threshold"}
SVM_FLAGS = {"--search"}

# A grid around the default one (--search-C 1,2,5,10,20, --search-gamma
# 0.5x,1x,2x), two steps further on each side the recipes' searches chose.
WIDE_GRID_C = "1,2,5,10,20,50,100"
WIDE_GRID_GAMMA = "0.125x,0.25x,0.5x,1x,2x"

SEARCHES = [("warm-started", []),
            # The same with the kernel blocks and decision values multiplied
            # with TF32 operands on the tensor cores (off by default on v3
            # and v4): its time, and whether the search still chooses alike.
            ("warm-started-tf32", ["--backend-option", "kernel-products=tf32"]),
            # The same with the SMO kernel taking each thread's rows one after
            # another (v3's and v4's default takes them four at a time): the
            # same steps, so the same choice; what the batched loads save.
            ("warm-started-one-row", ["--backend-option", "smo-rows=one"]),
            # The pairs solved by the host's SMO workers (the kernels come
            # down), on the kernel as unorm16 (its default there) and float32.
            ("warm-started-host", ["--svm-on", "host"]),
            ("warm-started-host-float32", ["--svm-on", "host", "--svm-kernel-values", "float32"]),
            ("exhaustive", ["--search-exhaustive"]),
            # The linear classifier on the same features, its C searched, its
            # passes on the host (OpenBLAS) and on the backend (kernel_matrix).
            ("linear-host", ["--classifier", "linear"]),
            ("linear-backend", ["--classifier", "linear", "--linear-on", "backend"]),
            # The same with the loss between the products on the host (v3's
            # and v4's linear-loss=off; on the device, ABI 1.11's linear_loss,
            # by default).
            ("linear-backend-host-loss", ["--classifier", "linear", "--linear-on", "backend",
                                          "--backend-option", "linear-loss=off"]),
            # One L2-SVM per class against the rest, on the backend's passes.
            ("linear-backend-hinge", ["--classifier", "linear", "--linear-on", "backend",
                                      "--linear-loss", "squared-hinge"]),
            # The default grid widened past both ends that the ingredients'
            # searches kept choosing (C 20, gamma 0.5x): whether a wider
            # default grid would find a better candidate, and at what time.
            ("wide-grid", ["--search-C", WIDE_GRID_C, "--search-gamma", WIDE_GRID_GAMMA])]


def split_recipe(options):
    """A pipeline's options -> (training options, extraction options).
    Options with a value take the next item with them."""
    train, extract = [], []
    for item in option_items(options):
        if item[0] not in SVM_FLAGS:
            (extract if item[0] in EXTRACT_OPTIONS else train).extend(item)
    return train, extract


def npy_shape(path):
    """The (rows, columns) of a 2-D .npy file, from its header."""
    with open(path, "rb") as f:
        header = f.read(256).decode("latin-1")
    m = re.search(r"'shape':\s*\((\d+),\s*(\d+)\)", header)
    if not m:
        raise ValueError(f"{path}: no 2-D shape in its header")
    return int(m.group(1)), int(m.group(2))


def parse_svm_output(text):
    """What `cae svm --search` prints -> a dict of the search's figures;
    a key is absent when its line is."""
    found = {}
    m = re.search(r"^search: (\d+) candidates in ([0-9.]+) s \(([a-z-]+)\)$", text, re.M)
    if m:
        found.update(candidates=int(m.group(1)), search_s=float(m.group(2)), kind=m.group(3))
    m = re.search(r"^search: chose C (\S+), gamma (\S+) \(validation ([0-9.]+)%\)$", text, re.M)
    if m:
        found.update(C=m.group(1), gamma=m.group(2), validation_accuracy=float(m.group(3)))
    # The linear classifier's search: its Cs, its choice, its training time.
    m = re.search(r"^search: (\d+) values of C in ascending order", text, re.M)
    if m:
        found.update(candidates=int(m.group(1)), kind="linear")
        tried = re.findall(r"^  C (\S+) +validation ", text, re.M)
        if tried:
            found.update(Cs=tried)
    m = re.search(r"^search: chose C (\S+)$", text, re.M)
    if m:
        found.update(C=m.group(1))
    m = re.search(r"^validation accuracy: ([0-9.]+)% \(\d+ rows\)$", text, re.M)
    if m and "validation_accuracy" not in found:
        found.update(validation_accuracy=float(m.group(1)))
    m = re.search(r"^linear: C \S+, (\d+) L-BFGS iterations .*, ([0-9.]+) s$", text, re.M)
    if m:
        found.update(iterations=int(m.group(1)), linear_s=float(m.group(2)))
    m = re.search(r"^validation: (\d+) of (\d+) training rows held out", text, re.M)
    if m:
        found.update(validation_rows=int(m.group(1)), train_rows=int(m.group(2)))
    m = re.search(r"^prediction: (\d+) test rows in ([0-9.]+) s$", text, re.M)
    if m:
        found.update(test_rows=int(m.group(1)), prediction_s=float(m.group(2)))
    m = re.search(r"^backend (\S+) on (.*?) \(", text, re.M)
    if m:
        found.update(backend=m.group(1), device=m.group(2))
    return found


def run(suite, recipe_options, data, train_args):
    """The part's record. `recipe_options`: the best pipeline's options;
    `data`: the image folder; `train_args`: the mode's additions to training."""
    base = os.path.join(suite.raw, "search")
    os.makedirs(base, exist_ok=True)
    train_options, extract_options = split_recipe(recipe_options)
    checkpoint = os.path.join(base, "model.safetensors")
    features = os.path.join(base, "features")
    commands = {
        "train": ["cae", "train"] + train_options,
        "extract": ["cae", "extract"] + extract_options,
    }
    record = {"recipe": " ".join(["cae", "pipeline"] + recipe_options),
              "commands": {k: " ".join(v) for k, v in commands.items()}, "searches": []}
    try:
        steps = [("train", [suite.cae, "train", "--data", data] + with_mode_options(train_args, train_options)
                  + ["--out", checkpoint], suite.s["pipeline_limit"]),
                 ("extract", [suite.cae, "extract", "--weights", checkpoint, "--data", data]
                  + extract_options + ["--out", features], suite.s["pipeline_limit"])]
        for name, cmd, limit in steps:
            suite.say(f"search: {' '.join(commands[name])}")
            step = suite.step(cmd, limit, f"search-{name}")
            if step.failure():
                return dict(record, status="failed", reason=f"{name}: {step.failure()}")
            record[f"{name}_s"] = step.wall_s
        record["train_rows"], record["dim"] = npy_shape(os.path.join(features, "train_features.npy"))
        for kind, options in SEARCHES:
            shown = ["cae", "svm", "--features", "FEATURES", "--search"] + options
            cmd = [suite.cae, "svm", "--features", features, "--search"] + options + [
                "--out", os.path.join(base, f"{kind}.model")]
            suite.say(f"search: {' '.join(shown)}")
            step = suite.step(cmd, suite.s["pipeline_limit"], f"search-svm-{kind}")
            entry = {"search": kind, "command": " ".join(shown)}
            if step.failure():
                entry.update(status="failed", reason=step.failure())
            else:
                entry.update(status="measured", wall_s=step.wall_s, peak_rss_bytes=step.peak_rss_bytes,
                             **parse_svm_output(step.log))
            record["searches"].append(entry)
        return dict(record, status="measured")
    finally:
        # The features (2 GB for CIFAR-10) and models are not results.
        shutil.rmtree(base, ignore_errors=True)
