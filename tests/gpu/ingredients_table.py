#!/usr/bin/env python3
"""The feature ingredients' validation table, as the benchmark suite measures
it (the `ingredients-1` to `-9` parts of tests/gpu/bench-suite.sh):
`cae pipeline` once per variant of the README's best recipe (contrast
normalisation, sparse codes, the soft threshold, input and patch whitening, the wider
and deeper model presets, sum-pooled composed recipes, the linear
classifier, the dense single-layer learners, the training's schedule,
pooling at two scales, the training's batch, the validation split kept from the
autoencoder), each with C (and gamma) chosen by --search on the
validation split, recording validation accuracy, wall time, peak resident
memory and the whole command.

Choices are made on the validation split: the winner is the fastest variant
within one seed standard deviation of the best validation accuracy
(tests/gpu/perf_tables.py renders the table, picks the winner and checks that
the README's best recipe is that winner). Every pipeline also
scores the test set; only the winner's test accuracy is shown, since reading
the others would turn the test set into a second validation set.

Each variant is a whole pipeline (about a minute on one H100), so the
variants are split into groups, one suite part each, that fit one command's
time budget; `perf_tables.py update` merges the parts into one table.
Standard library only.
"""
import json
import os
import shutil

from mode_options import with_mode_options

# The recipe every variant builds on: multi-layer pooled features averaged
# with the mirror image, trained on flipped images; --search goes last.
BASE = ["--features", "pyramid-flip", "--augment", "flip"]
SEARCH = ["--search"]
# The triangle code of every tap, the convolutions' maps summed over 4x4
# cells (the latent stays max-pooled), averaged with the mirror image.
SUMMED = "conv1:tri:sum4+conv2:tri:sum4+latent:tri:max4+flip"
# The same with each feature's signed square root.
SUMMED_SQRT = SUMMED + "+sqrt"
# The best recipe's features with the convolution's and the latent's codes
# also pooled into 2x2 cells (quadrants): the README's best recipe
# (tests/gpu/bench_suite.py's BEST_RECIPE); and the same over 3x3 cells.
TWO_SCALES = ("conv1:tri:sum4+conv2:tri:sum4+conv2:tri:sum2+latent:tri:max4+latent:tri:max2"
              "+flip+sqrt")
CELLS3 = "conv1:tri:sum3+conv2:tri:sum3+latent:tri:max3+flip+sqrt"
# The best recipe's options added to BASE.
BEST = ["--features", SUMMED_SQRT, "--contrast-normalize"]
LINEAR = ["--classifier", "linear", "--linear-on", "backend"]
# A one-layer model's map, triangle-coded and summed over its quadrants.
DENSE = "conv1:tri:sum2+flip+sqrt"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (name, options added to BASE), one list per suite part. With the times of
# one H100 (about 50 s per pipeline, 70 s for the wide preset, 100 s with
# whitening) each group takes under 7 minutes.
GROUPS = [
    [("base", []),
     ("contrast", ["--contrast-normalize"]),
     ("l1-0.001", ["--sparsity", "l1:0.001"]),
     ("contrast-l1-0.001", ["--contrast-normalize", "--sparsity", "l1:0.001"]),
     ("contrast-l1-0.01", ["--contrast-normalize", "--sparsity", "l1:0.01"])],
    [("contrast-threshold", ["--contrast-normalize", "--feature-threshold", "0.25"]),
     ("contrast-zca", ["--contrast-normalize", "--whiten", "zca"]),
     ("contrast-wide", ["--contrast-normalize", "--model", "wide"]),
     ("contrast-deep", ["--contrast-normalize", "--model", "deep"]),
     ("contrast-wta", ["--contrast-normalize", "--sparsity", "wta-spatial"])],
    # The encoder: the triangle code of every tap before its max-pool
    # (docs/features.md), in place of the base's plain maps; and the summed
    # recipe with a signed square root of every feature (the README's best
    # recipe: as fast as the summed recipe without it, and ahead of it).
    [("contrast-tri", ["--features", "pyramid-tri-flip", "--contrast-normalize"]),
     ("contrast-tri-sum-sqrt", ["--features", SUMMED_SQRT, "--contrast-normalize"])],
    # Density and width (docs/features.md, "Composed recipes"): the
    # convolutions' maps sum-pooled over 4x4 cells instead of max-pooled, the
    # wider first layer, and the linear classifier (C searched on its own
    # grid) for the longer vectors.
    [("contrast-tri-sum", ["--features", SUMMED, "--contrast-normalize"]),
     ("contrast-tri-wide", ["--features", "pyramid-tri-flip", "--contrast-normalize",
                            "--model", "wide"]),
     ("contrast-tri-linear", ["--features", "pyramid-tri-flip", "--contrast-normalize"] + LINEAR),
     ("contrast-tri-sum-linear", ["--features", SUMMED_SQRT, "--contrast-normalize"] + LINEAR),
     ("contrast-tri-sum-wide-linear", ["--features", SUMMED_SQRT, "--contrast-normalize",
                                       "--model", "wide"] + LINEAR)],
    # The single-layer dense learners of the k-means papers, as autoencoders
    # (examples/models/): 1,600 and 4,000 filters of 5x5 at stride 1, no
    # pooling, a 5x5 decoder; their maps triangle-coded and summed over
    # quadrants on the device, a signed square root, the linear classifier.
    [("dense1600-tri-sum-linear", ["--model", "examples/models/dense1600.json", "--features",
                                   DENSE, "--contrast-normalize"] + LINEAR),
     ("dense4000-tri-sum-linear", ["--model", "examples/models/dense4000.json", "--features",
                                   DENSE, "--contrast-normalize"] + LINEAR)],
    # Patch whitening (docs/features.md): the first layer's neighbourhoods
    # whitened instead of whole images, on the triangle-coded recipe; the
    # patch size and EPS varied, with and without contrast normalisation,
    # and under the dense single layer.
    [("contrast-tri-patch5", ["--features", "pyramid-tri-flip", "--contrast-normalize",
                              "--whiten", "patch5"]),
     ("contrast-tri-patch3", ["--features", "pyramid-tri-flip", "--contrast-normalize",
                              "--whiten", "patch3"]),
     ("contrast-tri-patch5-0.01", ["--features", "pyramid-tri-flip", "--contrast-normalize",
                                   "--whiten", "patch5:0.01"]),
     ("tri-patch5", ["--features", "pyramid-tri-flip", "--whiten", "patch5"]),
     # The k-means papers' setting: whitened 5x5 patches under a dense
     # single layer of 5x5 filters.
     ("dense1600-patch5-tri-sum-linear", ["--model", "examples/models/dense1600.json", "--features",
                                          DENSE, "--contrast-normalize", "--whiten", "patch5"] + LINEAR)],
    # The best recipe's training: twice the epochs, the learning rate
    # decayed (cosine) or higher, shifted crops, denoising.
    [("best-epochs40", BEST + ["--epochs", "40"]),
     ("best-cosine", BEST + ["--lr-schedule", "cosine"]),
     ("best-epochs40-cosine", BEST + ["--epochs", "40", "--lr-schedule", "cosine"]),
     ("best-lr0.001", BEST + ["--lr", "0.001"]),
     ("best-flip-crop", BEST + ["--augment", "flip-crop"]),
     ("best-noise0.1", BEST + ["--input-noise", "0.1"])],
    # Pooling at two scales and a longer schedule: the convolutions' and the
    # latent's codes pooled over 2x2 cells beside the 4x4 ones (the k-means
    # papers' quadrants next to the finer grid), 3x3 cells instead of 4x4,
    # and three times the epochs, alone and together.
    [("best-epochs60", BEST + ["--epochs", "60"]),
     ("best-two-scales", ["--features", TWO_SCALES, "--contrast-normalize"]),
     ("best-two-scales-epochs60", ["--features", TWO_SCALES, "--contrast-normalize",
                                   "--epochs", "60"]),
     ("best-cells3", ["--features", CELLS3, "--contrast-normalize"])],
    # The training's batch, with the rate scaled with it (the README's recipe
    # trains at batch 64; batch 256 runs an epoch about a third faster on v4),
    # and the dense single layer's maps classified by the RBF SVM on 3x3
    # cells (14,400 features) instead of the linear classifier on quadrants,
    # with 5x5 and with 7x7 filters.
    [("best-two-scales-batch128", ["--features", TWO_SCALES, "--contrast-normalize",
                                   "--batch", "128", "--lr", "0.0004"]),
     ("best-two-scales-batch256", ["--features", TWO_SCALES, "--contrast-normalize",
                                   "--batch", "256", "--lr", "0.001"]),
     ("dense1600-tri-cells3", ["--model", "examples/models/dense1600.json", "--features",
                               "conv1:tri:sum3+flip+sqrt", "--contrast-normalize"]),
     ("dense1600-7x7-tri-cells3", ["--model", "examples/models/dense1600-7x7.json", "--features",
                                   "conv1:tri:sum3+flip+sqrt", "--contrast-normalize"]),
     # The README's recipe with the validation split kept out of the
     # autoencoder's images: its validation accuracy scores unseen images,
     # as the test accuracy does (how far the others' splits flatter them).
     ("best-two-scales-hold-out", ["--features", TWO_SCALES, "--contrast-normalize",
                                   "--hold-out-validation"])],
]
PARTS = [f"ingredients-{i + 1}" for i in range(len(GROUPS))]


def pipeline_options(options):
    """The options of one variant's `cae pipeline`, as the README would write
    them: a variant's --features and --augment take the place of the base's."""
    base, options = list(BASE), list(options)
    for name in ("--features", "--augment"):
        if name in options:
            at = options.index(name)
            base[base.index(name) + 1] = options[at + 1]
            del options[at:at + 2]
    return as_written(base + options + SEARCH)


def as_written(options):
    """`options` as a `cae pipeline` command that means exactly them. Options
    not given take the best recipe's values (host/cli/pipeline_defaults.cpp:
    --features, --augment, --contrast-normalize, --epochs, and --search unless
    C or gamma is given), so a command that leaves one of them out starts
    from `--defaults baseline`, where what is left out is off (and the
    training recipe's 20 epochs run: what every command without --epochs
    ran before the best recipe trained 60)."""
    given = set(o for o in options if o.startswith("--"))
    fills_in = (not {"--features", "--augment", "--contrast-normalize", "--epochs"} <= given
                or not given & {"--search", "--C", "--gamma"})
    if fills_in and "--defaults" not in given:
        return ["--defaults", "baseline"] + list(options)
    return list(options)


def in_tree(option):
    """An option naming a file of the source tree (examples/models/...), as
    the README writes it from the tree's root, made absolute for the suite."""
    return os.path.join(ROOT, option) if option.startswith("examples/") else option


def percent(text):
    """'74.04%' -> 74.04; None when absent."""
    if not text:
        return None
    return float(str(text).rstrip("%"))


def variant_record(name, options, step, run_dir):
    """One variant's record from its finished (or failed) pipeline: `step` is
    bench_suite.run_step's result, `run_dir` the pipeline's --out folder."""
    record = {"variant": name, "readme_command": " ".join(["cae", "pipeline"] + pipeline_options(options))}
    return with_pipeline_outcome(record, step, run_dir)


def with_pipeline_outcome(record, step, run_dir):
    """`record` with what a pipeline run gave: its failure, or its wall time,
    peak memory, accuracies and chosen SVM from the report it wrote."""
    if step.failure():
        record.update(status="failed", reason=step.failure())
        return record
    with open(os.path.join(run_dir, "report.json")) as f:
        report = json.load(f)
    settings = dict(report["settings"])
    record.update(status="measured", wall_s=step.wall_s, peak_rss_bytes=step.peak_rss_bytes,
                  validation_accuracy=percent(settings.get("validation accuracy")),
                  test_accuracy=round(100.0 * report["accuracy"], 2),
                  backend=report.get("backend"), device=report.get("device"),
                  svm={k: settings.get(k) for k in ("svm C", "svm gamma", "linear C", "features",
                                                      "svm search s")})
    # The classifier's own stage (its C, or C and gamma, search included),
    # as the pipeline's stage table gives it.
    stages = dict((name, seconds) for name, seconds in report.get("stage_timings", []))
    for name in ("svm train", "linear train"):
        if name in stages:
            record["classifier_s"] = stages[name]
    return record


def run_group(suite, group):
    """Runs one group's pipelines through the suite (its budget, limits, logs
    and the mode's added options); each run's folder is removed once measured
    (its SVM model alone is about a GB)."""
    records = []
    for name, options in group:
        run_dir = os.path.join(suite.raw, f"ingredients-{name}")
        cmd = ([suite.cae, "pipeline", "--data", suite.args.data]
               + with_mode_options(suite.s["pipeline_args"], [in_tree(o) for o in pipeline_options(options)])
               + ["--out", run_dir])
        suite.say(f"ingredients {name}: cae pipeline {' '.join(pipeline_options(options))}")
        step = suite.step(cmd, suite.s["pipeline_limit"], f"ingredients-{name}")
        records.append(variant_record(name, options, step, run_dir))
        shutil.rmtree(run_dir, ignore_errors=True)
    return records
