#!/usr/bin/env python3
"""Renders the benchmark suite's results (docs/perf-results.json) as the tables
of docs/PERF.md, the "What to expect" figures of README.md and each backend
chapter's figures (the `chapter` block of plugins/NAME/README.md).

Each generated block sits between `<!-- generated:NAME -->` and
`<!-- end:NAME -->`; everything outside the markers is written by hand.

usage:
  perf_tables.py update [NEW_RESULTS.json ...]   merge new parts into the results, rewrite the docs
  perf_tables.py check [--strict]                 exit 1 when the docs and the results disagree,
                                                  the README's best recipe is not the
                                                  ingredients table's validation winner, or a
                                                  doc quotes a figure that neither the results
                                                  nor tests/gpu/doc_constants.json back; warn
                                                  of parts measured before a later commit
                                                  changed their code (--strict: fail)
  perf_tables.py render [RESULTS.json]            print every block
options (all commands): --results docs/perf-results.json --perf docs/PERF.md --readme README.md
  --root . (the checkout whose README.md, docs/*.md and plugins/*/README.md are scanned, and
  whose git history dates the parts) --constants tests/gpu/doc_constants.json

Standard library only: it runs in CI, where there is neither a GPU nor PyTorch.
"""
import argparse
import json
import os
import re
import statistics
import sys
import tempfile

import doc_figures
import kernel_profile
import ingredients_table  # noqa: E402  (how a variant's command reads today)
import search_part  # noqa: E402  (the wider grid's values)
import stale_tables

FORMAT = "cae-perf-results"
VERSION = 1
EPOCH_IMAGES = 50000
EXTRACT_IMAGES = 60000
NOT_MEASURED = "Not measured yet: `tests/gpu/bench-suite.sh` fills this table (see Regenerating)."

# The convolutions of host/nn/architecture.hpp: (in channels, out channels, side).
LAYERS = [(3, 256, 32), (256, 128, 16), (128, 128, 8), (128, 256, 16), (256, 3, 32)]
FORWARD_FLOP = sum(2 * side * side * c * o * 9 for c, o, side in LAYERS)
# Backward: data and weight gradients, 2x the forward, but the first layer needs no data gradient.
FIRST_LAYER_FLOP = 2 * 32 * 32 * 3 * 256 * 9
TRAIN_FLOP_PER_IMAGE = 3 * FORWARD_FLOP - FIRST_LAYER_FLOP

# Dense tensor-core (bf16, tf32) and CUDA-core (fp32) peaks in TFLOP/s, from NVIDIA's data
# sheets, by a substring of the name nvidia-smi prints. H200 has H100 SXM's compute.
PEAKS = [
    ("H100 PCIe", {"bf16": 756.0, "tf32": 378.0, "fp32": 51.2, "hbm_tbs": 2.0}),
    ("H100 NVL", {"bf16": 835.0, "tf32": 417.5, "fp32": 60.0, "hbm_tbs": 3.9}),
    ("H100", {"bf16": 989.4, "tf32": 494.7, "fp32": 66.9, "hbm_tbs": 3.35}),
    ("H200", {"bf16": 989.4, "tf32": 494.7, "fp32": 66.9, "hbm_tbs": 4.8}),
]

TORCH_NAMES = {"bf16-eager": "PyTorch eager bf16", "bf16-compile": "PyTorch torch.compile bf16",
               "bf16-compile-max": "PyTorch max-autotune bf16"}
TORCH_ORDER = ["bf16-eager", "bf16-compile", "bf16-compile-max"]

# The suite's parts, in the order it runs them and the machine table lists them.
INGREDIENT_PARTS = list(ingredients_table.PARTS)
PARTS = (["epoch-64", "epoch-256", "torch-max", "pipeline", "pipeline-cpu"] + INGREDIENT_PARTS
         + ["ablation", "search", "models", "conformance", "ddp", "kernels"])
PERF_BLOCKS = ["epoch", "extract", "svm", "search", "pipeline", "ingredients", "ablation", "models", "ddp",
               "conformance", "flops", "bound", "kernels", "machine"]
README_BLOCKS = ["expect", "run-it", "tests-time"]


class ResultsError(Exception):
    pass


def empty_results():
    return {"format": FORMAT, "version": VERSION, "parts": {}}


def validate(results, where):
    if not isinstance(results, dict) or results.get("format") != FORMAT:
        raise ResultsError(f"{where}: not a {FORMAT} file")
    if results.get("version") != VERSION:
        raise ResultsError(f"{where}: version {results.get('version')}, this renderer reads {VERSION}")
    if not isinstance(results.get("parts"), dict):
        raise ResultsError(f"{where}: no \"parts\" object")
    return results


def merge(base, new):
    """Parts of `new` replace the same parts of `base`; the others stay."""
    merged = {"format": FORMAT, "version": VERSION, "parts": dict(base["parts"])}
    merged["parts"].update(new["parts"])
    return merged


# ---------------------------------------------------------------- formatting


def fmt_s(seconds):
    if seconds >= 100:
        return f"{seconds:.0f}"
    if seconds >= 10:
        return f"{seconds:.1f}"
    if seconds >= 1:
        return f"{seconds:.2f}"
    return f"{seconds:.3f}"


def fmt_count(n):
    return f"{n:,.0f}"


def fmt_ratio(r):
    return f"{r:.2f}x"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def unmeasured_row(first, record, width, at=1):
    """A table row for a record that was not measured: its reason in cell `at`."""
    row = [first] + [""] * (width - 1)
    row[at] = f"not measured: {record.get('reason', '')}"
    return row


def measured(records):
    return [r for r in records if r.get("status") == "measured"]


def part(results, name):
    p = results["parts"].get(name)
    return p if p and p.get("status", "measured") == "measured" else None


def skipped_line(results, name):
    p = results["parts"].get(name)
    if p and p.get("status") in ("skipped", "failed"):
        return f"Not measured: {p.get('reason', p['status'])}."
    return NOT_MEASURED


def quick_note(p):
    if p.get("mode") == "smoke":
        return " Smoke mode (`--smoke`): tiny sizes that check the suite, figures meaningless."
    if p.get("mode") == "quick":
        return " Measured in quick mode (`--quick`): fewer images and seeds, scaled as noted."
    return ""


# What a part measured on when its record names no data set: the parts that time
# `cae bench` train on random images, the conformance sweep checks random tensors.
DATA_OF_PART = {"epoch-64": "random images (`cae bench`)", "epoch-256": "random images (`cae bench`)",
                "torch-max": "random images (`torch_reference.py`)",
                "ddp": "random images (`cae bench`, `torch_ddp_reference.py`)",
                "kernels": "random images (`cae bench`)",
                "conformance": "random tensors (`cae-conformance`)"}


def footer(p, name=None, date=None, gpus_used=1):
    """Where, when and on what a part was measured: GPU, driver, commit, date, data set."""
    m = p.get("machine", {})
    gpu = m.get("gpu") or "no GPU"
    if gpus_used > 1:
        gpu = f"{gpus_used}x {gpu}"
    data = p.get("data") or DATA_OF_PART.get(name, "?")
    return (f"Measured on {gpu} (driver {m.get('driver', '?')}) at commit {m.get('commit', '?')}, "
            f"{date or p.get('date', '?')}. Data: {data}.")


def peak_for(gpu, precision):
    for key, peaks in PEAKS:
        if gpu and key in gpu:
            return peaks.get(precision)
    return None


# ---------------------------------------------------------------- epoch


def per_epoch(record):
    """Seconds per 50,000-image epoch, scaled when fewer images were timed."""
    return record["epoch_s"] * EPOCH_IMAGES / record["images"]


def torch_records(results, batch):
    """PyTorch's configurations at `batch`, from the epoch part and torch-max."""
    found = {}
    for name in (f"epoch-{batch}", "torch-max"):
        p = part(results, name)
        for r in (p or {}).get("torch", []):
            if r.get("batch") == batch:
                found[r["config"]] = r
    return [found[c] for c in TORCH_ORDER if c in found]


def torch_max_part(results, records):
    """The torch-max part when any of `records` (from torch_records) comes from
    it, not from the epoch part's own call: figures of another commit and
    day, which a footer or header must name."""
    t = part(results, "torch-max")
    mine = (t or {}).get("torch", [])
    return t if any(r is m for r in records for m in mine) else None


def epoch_footer(results, batch, p, torch):
    """An epoch part's footer, naming the torch-max part's own commit and day
    where `torch` (torch_records) shows rows of it."""
    t = torch_max_part(results, torch)
    return (footer(p, f"epoch-{batch}")
            + (" The PyTorch max-autotune row: m" + footer(t, "torch-max")[1:] if t else ""))


def per_batch(results, render_batch):
    """A "### Batch B" section per training batch: render_batch(results, batch,
    part) paragraphs, or why that batch's part was not measured."""
    out = []
    for batch in (64, 256):
        p = part(results, f"epoch-{batch}")
        out.append(f"### Batch {batch}")
        out += render_batch(results, batch, p) if p else [skipped_line(results, f"epoch-{batch}")]
    return out


def render_epoch(results):
    return "\n\n".join(o for o in per_batch(results, epoch_batch) if o)


def epoch_batch(results, batch, p):
    out = []
    torch = torch_records(results, batch)
    torch_ok = measured(torch)
    header = ["", "precision", "s per epoch", "images/s"] + [
        f"÷ {TORCH_NAMES[t['config']].replace('PyTorch ', '')}" for t in torch_ok]
    rows, notes = [], []
    for r in p["cae"]:
        if r.get("status") != "measured":
            rows.append(unmeasured_row(r["backend"], r, len(header), at=2))
            continue
        seconds = per_epoch(r)
        name = r["backend"]
        if r["images"] != EPOCH_IMAGES:
            mark = "¹" if r["backend"] == "cpu" else "²"
            name += mark
            note = (f"{mark} extrapolated from {fmt_count(r['images'])} images"
                    + (f" (the cpu backend on all {results_cores(p)} cores; its own scale)"
                       if r["backend"] == "cpu" else ""))
            if note not in notes:
                notes.append(note)
        rows.append([name, r["precision"], fmt_s(seconds), fmt_count(EPOCH_IMAGES / seconds)]
                    + [fmt_ratio(seconds / per_epoch(t)) for t in torch_ok])
    for t in torch:
        label = TORCH_NAMES[t["config"]]
        if t.get("status") != "measured":
            rows.append(unmeasured_row(label, t, len(header), at=2))
            continue
        seconds = per_epoch(t)
        name = label + ("²" if t["images"] != EPOCH_IMAGES else "")
        if t["images"] != EPOCH_IMAGES:
            note = f"² extrapolated from {fmt_count(t['images'])} images"
            if note not in notes:
                notes.append(note)
        rows.append([name, "bf16", fmt_s(seconds), fmt_count(EPOCH_IMAGES / seconds)]
                    + [fmt_ratio(seconds / per_epoch(o)) for o in torch_ok])
    out.append(table(header, rows))
    if not torch:
        out.append("PyTorch: not measured.")
    if torch_ok:
        notes.insert(0, "Each ÷ column is the row's epoch time divided by that PyTorch "
                        "configuration's: below 1.00x the row is faster")
    out.append("\n\n".join(n + "." for n in notes))
    out.append(epoch_footer(results, batch, p, torch) + quick_note(p))
    return out


def results_cores(p):
    return p.get("machine", {}).get("cores", "?")


# ---------------------------------------------------------------- extraction


def render_extract(results):
    p = part(results, "epoch-64")
    if not p:
        return skipped_line(results, "epoch-64")
    rows, notes = [], []
    for r in p["cae"]:
        if r.get("status") != "measured":
            rows.append(unmeasured_row(r["backend"], r, 5))
            continue
        if not r.get("extract_images"):
            continue
        seconds = r["extract_s"] * EXTRACT_IMAGES / r["extract_images"]
        name = r["backend"]
        if r["extract_images"] != EXTRACT_IMAGES:
            name += "¹"
            note = "¹ extrapolated from fewer images: " + ", ".join(
                f"{x['backend']} {fmt_count(x['extract_images'])}" for x in measured(p["cae"])
                if x.get("extract_images") and x["extract_images"] != EXTRACT_IMAGES)
            if note not in notes:
                notes.append(note)
        rows.append([name, fmt_s(seconds), fmt_count(EXTRACT_IMAGES / seconds),
                     str(r["extract_streams"]), r["host_memory"]])
    text = table(["backend", "s for 60,000 images", "images/s", "contexts", "host memory"], rows)
    return "\n\n".join([text] + [n + "." for n in notes] + [footer(p, "epoch-64") + quick_note(p)])


# ---------------------------------------------------------------- SVM and pipeline


def pipeline_table(results, header, measured_row, at=1):
    """A table with a row per pipeline run: measured_row(run) for a measured
    run, the reason in column `at` for one that was not. (None, part) when the
    pipeline part was not run."""
    p = part(results, "pipeline")
    if not p:
        return None, p
    rows = []
    for r in p.get("runs", []):
        if r.get("status") != "measured":
            rows.append(unmeasured_row(run_label(r), r, len(header), at=at))
        else:
            rows.append(measured_row(r))
    return table(header, rows), p


# The pipeline part's run of the README's command timed a second time, its
# backend certified by the first (tests/gpu/bench_suite.py's PIPELINES).
AGAIN_RUN = "best-again"


def run_label(r):
    """A pipeline run's command cell; the README's command timed a second
    time says so."""
    again = ", run again (certified)" if r.get("name") == AGAIN_RUN else ""
    return f"`{r['readme_command']}`{again}"


def classifier_choice(svm):
    """What the run's classifier chose: the kernel SVM's C and gamma, or the
    linear classifier's C (its runs record "linear C" and no gamma)."""
    if svm.get("linear C") is not None:
        return f"linear, C {trim_number(svm.get('linear C'))}"
    return f"C {trim_number(svm.get('svm C'))}, gamma {trim_number(svm.get('svm gamma'))}"


def svm_row(r):
    svm = r.get("svm", {})
    return [run_label(r), fmt_s(r["stages"].get("svm train", 0.0)),
            fmt_s(r["stages"].get("svm predict", 0.0)),
            f"C {trim_number(svm.get('svm C'))}, gamma {trim_number(svm.get('svm gamma'))}: "
            f"{svm.get('svm chosen by', '?')}", svm_rows(r)]


def svm_row_with_search(r):
    svm = r.get("svm", {})
    return svm_row(r) + [fmt_s(float(svm["svm search s"])) if svm.get("svm search s") else "-"]


def render_svm(results):
    header = ["run", "SVM training (s)", "prediction (s)", "C and gamma", "rows: fit + validation"]
    runs = (part(results, "pipeline") or {}).get("runs", [])
    if any(r.get("svm", {}).get("svm search s") for r in runs):  # reports that time the search
        text, p = pipeline_table(results, header + ["of the training, the search (s)"],
                                 svm_row_with_search)
    else:
        text, p = pipeline_table(results, header, svm_row)
    if text is None:
        return skipped_line(results, "pipeline")
    return text + f"\n\n{footer(p, 'pipeline')}{pipeline_quick_note(p)}{default_moved_sentence(results)}"


def svm_rows(run):
    """"45,000 + 5,000": the rows the SVM is fitted on and the held-out ones."""
    try:
        held_out = int(str(run["svm"]["validation rows"]).split()[0])
        return f"{int(run['train_images']) - held_out:,} + {held_out:,}"
    except (KeyError, TypeError, ValueError, IndexError):
        return "?"


def trim_number(text):
    try:
        return f"{float(text):g}"
    except (TypeError, ValueError):
        return text or "?"


def pipeline_quick_note(p):
    if not p.get("added_options"):
        return quick_note(p)
    return quick_note(p) + f" `{p['added_options']}` added to each command."


def pipeline_row(r):
    st = r["stages"]
    # What the run's own stage table accounts for of the wall time measured
    # from outside ("-" for a run from before the table had start-up and
    # write-outputs rows).
    accounted = (f"{100 * sum(st.values()) / r['wall_s']:.1f}%"
                 if "start-up" in st and r["wall_s"] > 0 else "-")
    return [run_label(r), r["backend"], fmt_s(st.get("start-up", 0.0)),
            fmt_s(st.get("train", 0.0)), fmt_s(st.get("extract features", 0.0)),
            fmt_s(st.get("svm train", 0.0) + st.get("svm predict", 0.0)),
            fmt_s(st.get("write outputs", 0.0)), fmt_s(r["wall_s"]), accounted,
            f"{r['peak_rss_bytes'] / 2**30:.2f}",
            f"{100 * r['accuracy']:.2f}%", r.get("validation_accuracy") or "-"]


def render_pipeline(results):
    header = ["command", "backend", "start-up (s)", "training (s)", "features (s)", "SVM (s)",
              "writing (s)", "wall (s)", "stage table / wall", "peak RSS (GiB)", "test accuracy",
              "validation accuracy"]
    text, p = pipeline_table(results, header, pipeline_row, at=2)
    if text is None:
        return skipped_line(results, "pipeline")
    return text + f"\n\n{footer(p, 'pipeline')}{pipeline_quick_note(p)}{default_moved_sentence(results)}"


# ---------------------------------------------------------------- the search alone

SEARCH_NAMES = {"warm-started": "warm-started (`--search`)",
                "warm-started-tf32": "warm-started, products with TF32 operands "
                                     "(`--search --backend-option kernel-products=tf32`)",
                "warm-started-one-row": "warm-started, SMO rows one at a time "
                                        "(`--search --backend-option smo-rows=one`)",
                "warm-started-host": "warm-started, pairs solved on the host "
                                     "(`--search --svm-on host`)",
                "warm-started-host-float32": "warm-started, pairs solved on the host, kernel in "
                                             "float32 (`--search --svm-on host "
                                             "--svm-kernel-values float32`)",
                "exhaustive": "exhaustive (`--search --search-exhaustive`)",
                "linear-host": "linear classifier, passes on the host "
                               "(`--search --classifier linear`)",
                "linear-backend": "linear classifier, passes on the backend "
                                  "(`--search --classifier linear --linear-on backend`)",
                "linear-backend-host-loss": "linear classifier, passes on the backend, loss on the "
                                            "host (`--search --classifier linear --linear-on "
                                            "backend --backend-option linear-loss=off`)",
                "linear-backend-hinge": "one-vs-rest L2-SVMs, passes on the backend "
                                        "(`--search --classifier linear --linear-on backend "
                                        "--linear-loss squared-hinge`)",
                "wide-grid": "warm-started, a wider grid (`--search --search-C "
                             f"{search_part.WIDE_GRID_C} --search-gamma "
                             f"{search_part.WIDE_GRID_GAMMA}`)"}
# Searches over other candidates than the default grid's: not compared with
# the exhaustive search's choice, but with the default search's result.
OTHER_GRIDS = {"wide-grid"}


def render_search(results):
    p = part(results, "search")
    if not p:
        return skipped_line(results, "search")
    header = ["search", "candidates", "search alone (s)", "`cae svm` wall (s)", "peak RSS (GiB)",
              "C and gamma chosen", "validation accuracy"]
    rows = []
    for r in p.get("searches", []):
        label = SEARCH_NAMES.get(r["search"], r["search"])
        if r.get("status") != "measured":
            rows.append(unmeasured_row(label, r, len(header)))
            continue
        linear = r["search"].startswith("linear")
        chosen = f"C {r.get('C', '?')}" if linear else f"C {r.get('C', '?')}, gamma {r.get('gamma', '?')}"
        if linear and r.get("iterations") is not None:
            chosen += f" ({r['iterations']} L-BFGS iterations)"
        # The linear classifier's own time covers the same span: the split to the winner's model.
        alone = r.get("linear_s" if linear else "search_s")
        candidates = str(r.get("candidates", "?"))
        if linear and r.get("Cs"):  # the grid searched: the linear classifier's C lies far from the SVM's
            candidates += f" (C {r['Cs'][0]} to {r['Cs'][-1]})"
        rows.append([label, candidates,
                     fmt_s(alone) if alone is not None else "?", fmt_s(r["wall_s"]),
                     f"{r['peak_rss_bytes'] / 2**30:.2f}", chosen,
                     f"{r['validation_accuracy']:.2f}%" if "validation_accuracy" in r else "?"])
    lines = [table(header, rows)]
    # The kernel SVM's searches choose among the same candidates; the linear
    # classifier's rows are another classifier.
    ok = [r for r in measured(p.get("searches", []))
          if "C" in r and not r["search"].startswith("linear") and r["search"] not in OTHER_GRIDS]
    if len(ok) >= 2:
        # The exhaustive search tries every candidate: the others are measured against it.
        reference = next((r for r in ok if r["search"] == "exhaustive"), ok[0])
        others = [SEARCH_NAMES.get(r["search"], r["search"]) for r in ok
                  if (r["C"], r["gamma"]) != (reference["C"], reference["gamma"])]
        reference_name = ("the exhaustive search" if reference["search"] == "exhaustive"
                          else SEARCH_NAMES.get(reference["search"], reference["search"]))
        lines.append(("Both" if len(ok) == 2 else "All") + " SVM searches choose the same candidate."
                     if not others else
                     f"Not every search chooses {reference_name}'s candidate (C {reference['C']}, "
                     f"gamma {reference['gamma']}): " + "; ".join(others) + " chose another.")
    if any(r.get("search") == "warm-started-host" for r in p.get("searches", [])):
        lines.append("The default search and the exhaustive one solve the class pairs on the "
                     "backend where it offers the solver (`--svm-on auto`: the kernels stay on "
                     "the device, docs/classifiers.md); the host rows solve them on the host's "
                     "cores, on the kernel as unorm16 (`--svm-kernel-values auto` there: 16-bit "
                     "fixed point, half the bytes each SMO step reads and half the memory each "
                     "pair holds) and as the float32 the backend computed.")
    wider = wider_grid_note(p)
    if wider:
        lines.append(wider)
    lines.append(search_features_note(p, ok))
    added = f" `{p['added_options']}` added to `cae train`." if p.get("added_options") else ""
    lines.append(f"{footer(p, 'search')}{quick_note(p)}{added}")
    return "\n\n".join(lines)


def wider_grid_note(p):
    """What the wider grid found against the default grid, or '' without both."""
    searches = {r["search"]: r for r in measured(p.get("searches", []))}
    default, wide = searches.get("warm-started"), searches.get("wide-grid")
    if not default or not wide or "validation_accuracy" not in default or \
            "validation_accuracy" not in wide:
        return ""
    gain = wide["validation_accuracy"] - default["validation_accuracy"]
    found = (f"The wider grid chose C {wide.get('C', '?')}, gamma {wide.get('gamma', '?')} at "
             f"{wide['validation_accuracy']:.2f}% on the validation split, against the default "
             f"grid's {default['validation_accuracy']:.2f}% (C {default.get('C', '?')}, gamma "
             f"{default.get('gamma', '?')})")
    if "search_s" in wide and "search_s" in default:
        found += f", its search {fmt_s(wide['search_s'])} s against {fmt_s(default['search_s'])} s"
    verdict = ("the default grid already holds the best candidate of the wider one" if gain <= 0 else
               f"{gain:.2f} points more, one training seed's features")
    return f"{found}: {verdict}."


def search_features_note(p, searches):
    """Where the features came from and what the wall time holds besides the search."""
    commands = p.get("commands", {})
    text = (f"The features of `{ingredient_command(p['recipe']) if p.get('recipe') else '?'}` (the suite's best recipe when this part "
            f"ran), made once: "
            f"`{commands.get('train', '?')}`, then `{commands.get('extract', '?')}`")
    if "dim" in p:
        text += f": {fmt_count(p['train_rows'])} training rows of {fmt_count(p['dim'])} dimensions"
    first = searches[0] if searches else {}
    if "validation_rows" in first:
        fit = first["train_rows"] - first["validation_rows"]
        text += (f"; the SVM is fitted on {fmt_count(fit)} of them and scored on the "
                 f"{fmt_count(first['validation_rows'])} held out (seeded)")
    text += (". The search alone is timed by `cae svm` itself, from the split to the winner's "
             "model (no further fit follows: the winner's model is kept); the wall time adds "
             "reading the features, starting the backend, writing the model and predicting "
             "the test rows")
    if "prediction_s" in first:
        text += f" ({fmt_count(first['test_rows'])} in {fmt_s(first['prediction_s'])} s)"
    return text + "."


# ---------------------------------------------------------------- the ingredients


def ingredient_runs(results):
    """Every ingredients part measured, and the runs of all of them."""
    parts = [(name, part(results, name)) for name in INGREDIENT_PARTS]
    parts = [(name, p) for name, p in parts if p]
    return parts, [r for _, p in parts for r in p.get("runs", [])]


def wall_source(p):
    """What a part's wall times depend on besides the command: the code (the
    commit) and the GPU. Times from two sources do not compare."""
    m = p.get("machine") or {}
    return (m.get("commit"), m.get("gpu"))


def seed_spread(results, key="validation_accuracy"):
    """The sample standard deviation of the best recipe's `key` over its
    training seeds (the ablation part's winner runs), or 0.0 without two of
    them: for the validation accuracy (points), how far apart two recipes'
    accuracies must be before the difference means something; for the wall
    time (`wall_s`, seconds), the same for their times."""
    runs = (part(results, "ablation") or {}).get("runs", [])
    values = [r[key] for r in measured(runs)
              if r.get("variant", "").startswith("winner") and r.get(key) is not None]
    return statistics.stdev(values) if len(values) >= 2 else 0.0


def wall_noise(results):
    """(seconds, what they are): how much two wall times of the suite may
    differ for no reason but the timing. The largest gap between two timings
    of one command (the same command line in the ingredients and ablation
    parts, measured at one commit on one GPU): the suite times the best
    recipe and its neighbours more than once, in parts minutes apart, and
    those gaps (2 s in 16) are wider than the spread of the seeds' runs
    side by side in one part. Without a command timed twice: the standard
    deviation of the best recipe's wall time over its training seeds."""
    timings = {}
    for name in INGREDIENT_PARTS + ["ablation"]:
        p = part(results, name)
        for r in measured((p or {}).get("runs", [])):
            if r.get("wall_s") is not None and r.get("readme_command"):
                key = (wall_source(p), ingredient_command(r["readme_command"]))
                timings.setdefault(key, []).append(r["wall_s"])
    gaps = [(max(walls) - min(walls), command, walls)
            for (_, command), walls in timings.items() if len(walls) >= 2]
    if gaps:
        gap, command, walls = max(gaps)
        return gap, (f"the largest gap between two timings of one command in these parts: "
                     f"`{command}` took {fmt_s(min(walls))} s and {fmt_s(max(walls))} s")
    return (seed_spread(results, "wall_s"),
            "the standard deviation of the best recipe's wall time over its training seeds")


def decide(results, parts):
    """The ingredients table's verdict with both tolerances measured."""
    return ingredients_decision(parts, seed_spread(results), wall_noise(results)[0])


class Decision:
    """The ingredients table's verdict: `close`, the runs whose validation
    accuracy lies within the tolerance of the best; `winner`, the fastest of
    them, or None while their wall times come from different commits or GPUs
    (`sources`, part name -> (commit, GPU), says which): a pipeline measured
    at an older commit is slower for reasons that have nothing to do with its
    options, so the comparison waits until they are measured at one commit."""

    def __init__(self, close, winner, sources):
        self.close, self.winner, self.sources = close, winner, sources

    def undecided(self):
        return bool(self.close) and self.winner is None


def ingredients_decision(parts, tolerance=0.0, wall_tolerance=0.0):
    """The fastest run among those whose validation accuracy lies within
    `tolerance` points of the best, all timed at one commit on one GPU (see
    Decision); runs within `wall_tolerance` seconds of the fastest count as
    fast as it, and the most accurate of them wins (the first of a tie).
    With the seeds' spreads as the tolerances this is the one-standard-error
    rule on both axes: a recipe better by less than the noise of a training
    seed does not replace a faster one, and one faster by less than the
    noise of a wall time does not replace a better one (so that timing the
    same commands again does not turn the verdict around)."""
    ok = [(name, p, r) for name, p in parts for r in measured(p.get("runs", []))
          if r.get("validation_accuracy") is not None]
    if not ok:
        return Decision([], None, {})
    best = max(r["validation_accuracy"] for _, _, r in ok)
    close = [(name, p, r) for name, p, r in ok if r["validation_accuracy"] >= best - tolerance - 1e-9]
    sources = {name: wall_source(p) for name, p, _ in close}
    runs = [r for _, _, r in close]
    if len(set(sources.values())) > 1:
        return Decision(runs, None, sources)
    fastest = min(r["wall_s"] for r in runs)
    as_fast = [r for r in runs if r["wall_s"] <= fastest + wall_tolerance + 1e-9]
    return Decision(runs, max(as_fast, key=lambda r: r["validation_accuracy"]), sources)


def ingredient_command(command):
    """A variant's command as today's `cae pipeline` reads it: runs measured
    before the best recipe became the default wrote no `--defaults baseline`,
    which they meant (ingredients_table.as_written)."""
    words = command.split()
    return " ".join(words[:2] + ingredients_table.as_written(words[2:]))


def render_ingredients(results):
    parts, runs = ingredient_runs(results)
    if not parts:
        return skipped_line(results, INGREDIENT_PARTS[0])
    spread = seed_spread(results)
    wall_spread, wall_why = wall_noise(results)
    decision = ingredients_decision(parts, spread, wall_spread)
    winner = decision.winner
    ranked = sorted(measured(runs), key=lambda r: -(r.get("validation_accuracy") or -1.0))
    # The classifier's own stage, where the runs recorded it (older records
    # did not: the column appears once any run has it).
    stage_timed = any(r.get("classifier_s") is not None for r in ranked)
    header = (["command", "validation accuracy", "wall (s)"] + (["classifier (s)"] if stage_timed else [])
              + ["peak RSS (GiB)", "C and gamma chosen"])
    rows = []
    for r in ranked:
        svm = r.get("svm", {})
        mark = (" (the winner)" if r is winner else
                " (within the noise)" if decision.undecided() and any(r is c for c in decision.close) else "")
        classifier = [fmt_s(r["classifier_s"]) if r.get("classifier_s") is not None else "-"]
        rows.append([f"`{ingredient_command(r['readme_command'])}`" + mark,
                     f"{r['validation_accuracy']:.2f}%" if r.get("validation_accuracy") is not None else "-",
                     fmt_s(r["wall_s"])] + (classifier if stage_timed else [])
                    + [f"{r['peak_rss_bytes'] / 2**30:.2f}", classifier_choice(svm)])
    for r in runs:
        if r.get("status") != "measured":
            rows.append(unmeasured_row(f"`{r['readme_command']}`", r, len(header)))
    lines = [table(header, rows)]
    if decision.undecided():
        timed = ", ".join(f"`{name}` at {source[0] or '?'} on {source[1] or 'no GPU'}"
                          for name, source in sorted(decision.sources.items()))
        lines.append(f"Sorted by validation accuracy (the validation split of the training set). "
                     f"No winner is named yet: the commands marked \"within the noise\" lie "
                     f"within {spread:.2f} points of the best (the standard deviation of the best "
                     f"recipe's validation accuracy over its training seeds, the ablation part), "
                     f"so the fastest of them wins, but their wall times were measured on "
                     f"different code or GPUs ({timed}) and do not compare; no test accuracy "
                     f"is read until those parts are measured at one commit.")
    if winner:
        rule = ("the command with the best validation accuracy" if spread == 0.0 else
                f"the fastest command whose validation accuracy lies within {spread:.2f} points "
                f"of the best: the standard deviation of the best recipe's validation accuracy "
                f"over its training seeds (the ablation part), below which a difference means "
                f"nothing")
        if spread != 0.0 and wall_spread != 0.0:
            rule += (f"; commands within {wall_spread:.2f} s of the fastest ({wall_why}) count as "
                     f"fast as it, and the most accurate of them wins")
        lines.append(f"Sorted by validation accuracy (the validation split of the training set). "
                     f"The winner is {rule}. "
                     f"The winner's test accuracy, the only one read: {winner['test_accuracy']:.2f}%.")
    if stage_timed:
        lines.append("Classifier: the pipeline's own stage row for its classifier (`svm train` or "
                     "`linear train`), the search over C (and gamma) included: the kernel SVM's "
                     "class pairs and the linear classifier's passes run on the device; the "
                     "feature dimension is in each run's features.json.")
    missing = [name for name in INGREDIENT_PARTS if name not in dict(parts)]
    if missing:
        lines.append("Not measured yet: part " + ", ".join(f"`{m}`" for m in missing) + ".")
    notes = sorted({quick_note(p) for _, p in parts})  # each mode's note once
    added = sorted({p.get("added_options") for _, p in parts if p.get("added_options")})
    lines.append(ingredients_footer(parts) + "".join(notes) + "".join(f" `{a}` added to each command." for a in added))
    return "\n\n".join(lines)


def ingredients_footer(parts):
    """One footer when the parts share a machine and data set, else one per part."""
    dated = [(p, f"{p.get('date', '?')} (`{name}`)") for name, p in parts]
    first = parts[0][1]
    if all(p.get("machine") == first.get("machine") and p.get("data") == first.get("data")
           for _, p in parts):
        return footer(first, parts[0][0], ", ".join(d for _, d in dated))
    return " ".join(footer(p, name, d) for (name, _), (p, d) in zip(parts, dated))


BEST_RECIPE = re.compile(r"best recipe cae knows is\s*`([^`]+)`")


def recipe_problems(results, readme_text):
    """Why the README's best recipe is not the ingredients table's winner
    (an empty list when it is, or when no full-mode table exists)."""
    parts, _ = ingredient_runs(results)
    decision = decide(results, parts)
    if not decision.close or any(p.get("mode") != "full" for _, p in parts):
        return []
    # Until the close runs are timed at one commit, any of them may be the
    # winner: the README's recipe must be one of them.
    allowed = ([decision.winner["readme_command"]] if decision.winner else
               [r["readme_command"] for r in decision.close])
    verdict = (f"the validation winner `{allowed[0]}`" if decision.winner else
               "one of the commands within the noise of the validation best (" +
               ", ".join(f"`{c}`" for c in allowed) + ")")
    problems = []
    named = BEST_RECIPE.search(readme_text)
    if not named:
        problems.append("README.md names no best recipe (\"The best recipe cae knows is `...`\")")
    elif named.group(1) not in allowed:
        problems.append(f"README.md's best recipe `{named.group(1)}` is not {verdict}")
    # `cae pipeline` alone runs the best recipe by default (its options are
    # checked against the README's written-out recipe above).
    best = [r for r in (part(results, "pipeline") or {}).get("runs", []) if r.get("name") == "best"
            and r["readme_command"] != "cae pipeline"]
    if best and best[0]["readme_command"] not in allowed:
        problems.append(f"the pipeline part's best recipe `{best[0]['readme_command']}` is not {verdict}")
    return problems


# ---------------------------------------------------------------- the ablation


def render_ablation(results):
    p = part(results, "ablation")
    if not p:
        return skipped_line(results, "ablation")
    runs = p.get("runs", [])
    by_seed = [r for r in runs if r["variant"].startswith("winner")]
    variants = [r for r in runs if not r["variant"].startswith("winner-seed-")]
    winner = next((r for r in measured(variants) if r["variant"] == "winner"), None)
    base = winner.get("validation_accuracy") if winner else None
    header = ["command", "change", "validation accuracy", "points from the winner", "wall (s)",
              "peak RSS (GiB)", "C and gamma"]
    rows = []
    for r in variants:
        if r.get("status") != "measured":
            rows.append(unmeasured_row(f"`{ingredient_command(r['readme_command'])}`", r, len(header), at=2))
            continue
        svm = r.get("svm", {})
        va = r.get("validation_accuracy")
        delta = "" if r is winner or va is None or base is None else f"{va - base:+.2f}"
        rows.append([f"`{ingredient_command(r['readme_command'])}`", r["change"], f"{va:.2f}%" if va is not None else "-",
                     delta, fmt_s(r["wall_s"]), f"{r['peak_rss_bytes'] / 2**30:.2f}",
                     classifier_choice(svm)])
    lines = [table(header, rows)]
    seeds = [r for r in measured(by_seed) if r.get("test_accuracy") is not None]
    if seeds:
        tests = [r["test_accuracy"] for r in seeds]
        mean = sum(tests) / len(tests)
        spread = (sum((t - mean) ** 2 for t in tests) / (len(tests) - 1)) ** 0.5 if len(tests) > 1 else 0.0
        each = ", ".join(f"{r['test_accuracy']:.2f}% (seed {r['seed']})" for r in seeds)
        lines.append(f"The test set, read for the winner only, over {len(seeds)} training seeds: {each}; "
                     f"mean {mean:.2f}%, standard deviation {spread:.2f} points.")
    unmeasured = [r for r in by_seed if r.get("status") != "measured"]
    if unmeasured:
        lines.append("Not measured: " + "; ".join(f"`{ingredient_command(r['readme_command'])}` ({r.get('reason', '')})"
                                                 for r in unmeasured) + ".")
    moved = ablation_behind(results, winner)
    if moved:
        lines.append(moved)
    added = f" `{p['added_options']}` added to each command." if p.get("added_options") else ""
    lines.append(footer(p, "ablation") + quick_note(p) + added)
    return "\n\n".join(lines)


def ablation_behind(results, winner):
    """A line saying that the ablation took apart another recipe than the
    validation table's winner (the winner changed after the part ran), or ""."""
    parts, _ = ingredient_runs(results)
    decision = decide(results, parts) if parts else None
    if not winner or not decision or not decision.winner:
        return ""
    now = ingredient_command(decision.winner["readme_command"])
    then = ingredient_command(winner["readme_command"])
    if now == then:
        return ""
    return (f"This ablation takes apart `{then}`, the validation winner when the part ran; the "
            f"validation table's winner is now `{now}`, and the part has not been measured on it yet.")


# ---------------------------------------------------------------- model presets


def render_models(results):
    p = part(results, "models")
    if not p:
        return skipped_line(results, "models")
    backends = []
    for r in p["runs"]:
        for e in r["epochs"]:
            if e["backend"] not in backends:
                backends.append(e["backend"])
    header = (["model"] + [f"{b} epoch, batch 64 (s)" for b in backends]
              + ["pipeline `--search` (s)", "peak RSS (GiB)", "C and gamma", "validation accuracy",
                 "test accuracy"])
    rows = []
    for r in p["runs"]:
        epochs = {e["backend"]: e for e in r["epochs"]}
        cells = [f"`{r['model']}`"]
        for b in backends:
            e = epochs.get(b, {})
            cells.append(fmt_s(per_epoch(e)) if e.get("status") == "measured"
                         else f"not measured: {e.get('reason', '')}")
        if r.get("status") != "measured":
            cells += [f"not measured: {r.get('reason', '')}", "", "", "", ""]
        else:
            svm = r.get("svm", {})
            cells += [fmt_s(r["wall_s"]), f"{r['peak_rss_bytes'] / 2**30:.2f}",
                      classifier_choice(svm),
                      r.get("validation_accuracy") or "-", f"{100 * r['accuracy']:.2f}%"]
        rows.append(cells)
    commands = "; ".join(f"`{r['readme_command']}`" for r in p["runs"] if "readme_command" in r)
    return (table(header, rows) + f"\n\nPipelines: {commands} (`cae pipeline`'s default recipe at the commit "
            f"below, the README's best then: Adam, batch 64, its features, training images and "
            f"epochs; C and gamma by `--search` on the validation split). "
            f"{footer(p, 'models')}{pipeline_quick_note(p)}")


# ---------------------------------------------------------------- two GPUs


def render_ddp(results):
    p = part(results, "ddp")
    if not p:
        return skipped_line(results, "ddp")
    rows = []
    for r in p["runs"]:
        who = "cae" if r["who"] == "cae" else "PyTorch DDP"
        if r.get("status") != "measured":
            rows.append(unmeasured_row(who, r, 7, at=3))
            continue
        if r["who"] == "cae":
            what = r.get("backend") + (f", `{r['options']}`" if r.get("options") else "")
            exchange = ddp_exchange(r)
        else:
            what, exchange = r.get("config"), "DDP's buckets, beside the backward pass"
        rows.append([who, what, str(r["global_batch"]), fmt_s(r["single_s"] * EPOCH_IMAGES / r["images"]),
                     fmt_s(r["parallel_s"] * EPOCH_IMAGES / r["images"]), fmt_ratio(r["speedup"]), exchange])
    header = ["", "backend / configuration", "global batch", "1 GPU, batch / 2 (s per epoch)",
              "2 GPUs (s per epoch)", "speed-up", "gradient exchange"]
    text = table(header, rows)
    if p.get("processes"):
        text += "\n\n" + render_processes(p["processes"])
    return text + f"\n\n{footer(p, 'ddp', gpus_used=2)}{quick_note(p)}"


def render_processes(runs):
    """`cae train` with one process per GPU against one process driving both
    (tests/gpu/run-two-processes.sh), at each global batch."""
    rows = []
    for r in runs:
        if r.get("status") != "measured":
            rows.append(unmeasured_row(str(r.get("global_batch")), r, 7, at=1))
            continue
        diff = r.get("max_weight_difference")
        rows.append([str(r["global_batch"]), r["backend"],
                     fmt_s(EPOCH_IMAGES / r["devices_img_s"]), fmt_s(EPOCH_IMAGES / r["ranks_img_s"]),
                     fmt_ratio(r["devices_img_s"] / r["ranks_img_s"]),
                     exchange_text(*(r.get("ranks_in_graph") or [None, None])),
                     ("not recorded" if diff is None else f"{diff:.1e}")
                     + ("" if r.get("weights_agree", True) else " (over the script's tolerance)")])
    header = ["global batch", "backend", "one process, `--devices 0,1` (s per epoch)",
              "two processes, `--rank` (s per epoch)", "two processes' epoch / one's",
              "gradient exchange (two processes)", "largest weight difference"]
    return ("One process per GPU (`cae train --rank R --world-size 2`, "
            "tests/gpu/run-two-processes.sh) against one process driving both, "
            f"{runs[0].get('epochs', 2)} epochs of `cae train` each, the last one timed "
            "(rank 0's test evaluation included), and the largest difference between "
            "their final weights:\n\n" + table(header, rows))


def ddp_exchange(run):
    """How a cae run's steps exchanged their gradients (cae bench's JSON)."""
    return exchange_text(run.get("steps_exchanged_in_graph"), run.get("steps"))


def exchange_text(inside, steps):
    """`inside` of `steps` steps exchanged their gradients inside the step graph."""
    if inside is None or not steps:
        return "not recorded by this run"
    if inside == 0:
        return "one, after the backward pass"
    if inside == steps:
        return "inside the step graph, every step"
    return f"inside the step graph in {inside} of {steps} steps"


# ---------------------------------------------------------------- conformance


def render_conformance(results):
    p = part(results, "conformance")
    if not p:
        return skipped_line(results, "conformance")
    backends = p["backends"]
    # A sweep stopped at its time limit still certifies the seeds it finished.
    swept = [b for b in backends if b.get("status") in ("measured", "partial")]
    ops = sorted({op for b in swept for op in b["worst"]})
    header = ["op"] + [b["backend"] for b in swept]
    rows = [[f"`{op}`"] + [f"{b['worst'][op]['ratio']:.1e}" if op in b["worst"] else "-" for b in swept]
            for op in ops]
    rows.append(["seeds passed"] + [f"{b['passed']} of {b['seeds_run']}" for b in swept])
    if any("seconds" in b for b in swept):
        rows.append(["sweep time"] + [f"{b['seconds']:.0f} s" if "seconds" in b else "-" for b in swept])
    lines = [table(header, rows) if swept else "No backend was swept."]
    partial = [b for b in swept if b.get("status") == "partial"]
    if partial:
        lines.append("Stopped at the time limit: " + "; ".join(f"{b['backend']} ({b['reason']})" for b in partial) + ".")
    others = [b for b in backends if b not in swept]
    if others:
        lines.append("Not swept: " + "; ".join(f"{b['backend']} ({b.get('reason', '')})" for b in others) + ".")
    shapes = "the `--quick` shapes" if p.get("quick_shapes") else "the full shapes"
    # The worst values include the checks a seed stopped at the limit had
    # finished: a sweep that finished no seed still shows what it checked.
    over = (f"on {shapes}, over the checks each sweep ran from seed 1 on (at most {p['seeds']} seeds; a seed "
            f"stopped at the time limit counts with the checks it finished)" if partial
            else f"over seeds 1..{p['seeds']} ({shapes})")
    lines.append(f"Worst err/bound per op {over}; 1 is the bound. {footer(p, 'conformance')}{quick_note(p)}")
    return "\n\n".join(lines)


# ---------------------------------------------------------------- TFLOP/s


def render_flops(results):
    out = per_batch(results, flops_batch)
    out.append(f"TFLOP/s counts the convolutions' multiply-adds: {TRAIN_FLOP_PER_IMAGE / 1e9:.3f} GFLOP "
               f"per training image ({FORWARD_FLOP / 1e9:.3f} forward). The peak is the GPU's dense "
               "rate for the backend's declared precision (NVIDIA's data sheet); the cpu row has none.")
    return "\n\n".join(out)


def flops_batch(results, batch, p):
    gpu = p.get("machine", {}).get("gpu")
    rows = []
    for r in measured(p["cae"]):
        conv = [op for op in r["ops"] if op["op"].startswith("conv2d")]
        best = max(conv, key=lambda op: op["tflops"]) if conv else None
        rows.append(flops_row(r["backend"], r["precision"], per_epoch(r), gpu, best))
    torch = measured(torch_records(results, batch))
    for t in torch:
        rows.append(flops_row(TORCH_NAMES[t["config"]], "bf16", per_epoch(t), gpu, None))
    return [table(["", "precision", "epoch TFLOP/s", "share of peak", "fastest convolution op"], rows),
            epoch_footer(results, batch, p, torch)]


def flops_row(name, precision, epoch_s, gpu, best_op):
    tflops = TRAIN_FLOP_PER_IMAGE * EPOCH_IMAGES / epoch_s / 1e12
    peak = peak_for(gpu, precision) if name != "cpu" else None
    share = f"{100 * tflops / peak:.1f}% of {peak:g}" if peak else "-"
    best = f"{best_op['tflops']:.1f} ({best_op['op']}, {best_op['layer']})" if best_op else "-"
    return [name, precision, f"{tflops:.2f}", share, best]


# ---------------------------------------------------------------- where the step goes

# Each layer of the seed network by the name `cae bench` gives it: (in, out, side, after),
# after = the 2x2 max-pool or 2x upsample that follows it.
LAYER_SHAPES = {"encoder.conv1": (3, 256, 32, "pool"), "encoder.conv2": (256, 128, 16, "pool"),
                "decoder.conv1": (128, 128, 8, "up"), "decoder.conv2": (128, 256, 16, "up"),
                "decoder.conv3": (256, 3, 32, None)}
PARAMETERS = sum(o * c * 9 + o for c, o, _, _ in LAYER_SHAPES.values())
OP_KINDS = [("convolutions, forward", ("conv2d_forward",)),
            ("convolutions, backward", ("conv2d_backward",)),
            ("ReLU backward", ("relu_backward",)),
            ("max-pool", ("maxpool2x2_forward", "maxpool2x2_backward")),
            ("upsample", ("upsample2x_forward", "upsample2x_backward")),
            ("loss and Adam", ("mse_loss", "adam_step"))]


def boundary_bytes(op, layer, batch):
    """The fewest bytes `op` moves when every tensor crosses the ABI as float32:
    each input read once, each output written once."""
    if op == "adam_step":
        return 7 * 4 * PARAMETERS  # param, grad, m, v read; param, m, v written
    c, o, side, after = LAYER_SHAPES[layer]
    pixels = batch * side * side
    if op == "conv2d_forward":
        return 4 * (pixels * (c + o) + o * c * 9 + o)
    if op == "conv2d_backward":
        dx = 0 if layer == "encoder.conv1" else pixels * c
        return 4 * (pixels * (c + o) + dx + 2 * (o * c * 9 + o))
    if op == "relu_backward":
        return 4 * 3 * pixels * o
    if op == "mse_loss":
        return 4 * 3 * pixels * o
    resized = pixels * o // 4 if after == "pool" else pixels * o * 4
    if op == "maxpool2x2_forward":
        return 4 * (pixels * o + resized)
    if op == "maxpool2x2_backward":
        return 4 * (2 * pixels * o + resized)
    return 4 * (pixels * o + resized)  # upsample forward or backward


def render_bound(results):
    out = per_batch(results, bound_batch)
    out.append("One training step of the fastest backend, op by op as `cae bench` times it. Bytes: "
               "the fewest each op moves with its tensors crossing the ABI as float32 (inputs read "
               "once, outputs written once); HBM: the GPU's data-sheet bandwidth. The memory-bound "
               "passes already run near that bandwidth, so only moving fewer bytes makes them faster: "
               "BF16 activations kept inside the backend, ReLU, pooling and upsampling fused into "
               "the convolutions' epilogues and operand loads (a whole-step graph).")
    return "\n\n".join(o for o in out if o)


def bound_batch(results, batch, p):
    runs = [r for r in measured(p["cae"]) if r.get("ops") and r["backend"] != "cpu"]
    if not runs:
        return []
    r = min(runs, key=per_epoch)
    known = [op for op in r["ops"] if op["op"] == "adam_step" or op["layer"] in LAYER_SHAPES]
    if len(known) != len(r["ops"]):
        return []  # a model other than the seed's: no byte counts for it
    gpu = p.get("machine", {}).get("gpu")
    hbm = peak_for(gpu, "hbm_tbs")
    step_ms = sum(op["ms"] for op in r["ops"])
    rows = []
    total_bytes = 0
    for kind, names in OP_KINDS:
        ops = [op for op in r["ops"] if op["op"] in names]
        if not ops:
            continue
        ms = sum(op["ms"] for op in ops)
        nbytes = sum(boundary_bytes(op["op"], op["layer"], batch) for op in ops)
        total_bytes += nbytes
        floor = nbytes / (hbm * 1e12) * 1e3 if hbm else None
        rows.append([kind, f"{ms:.3f}", f"{100 * ms / step_ms:.0f}%", f"{nbytes / 1e6:.0f}",
                     f"{nbytes / (ms * 1e-3) / 1e9:.0f}", f"{floor:.3f}" if floor else "-"])
    floor = total_bytes / (hbm * 1e12) * 1e3 if hbm else None
    rows.append(["step", f"{step_ms:.3f}", "100%", f"{total_bytes / 1e6:.0f}",
                 f"{total_bytes / (step_ms * 1e-3) / 1e9:.0f}", f"{floor:.3f}" if floor else "-"])
    header = ["", "ms per step", "share", "MB at the ABI", "GB/s", "ms at HBM peak"]
    note = (f"{r['backend']} at batch {batch}: {step_ms * EPOCH_IMAGES / batch / 1e3:.3f} s per epoch from "
            f"these ops ({fmt_s(per_epoch(r))} s timed end to end)")
    if floor:
        note += (f"; the bytes alone need {floor * EPOCH_IMAGES / batch / 1e3:.3f} s per epoch at "
                 f"{hbm:g} TB/s")
    return [table(header, rows), note + ".", footer(p, f"epoch-{batch}")]


# ---------------------------------------------------------------- kernels


def render_kernels(results):
    p = part(results, "kernels")
    if not p:
        return skipped_line(results, "kernels")
    out = []
    for run in p.get("runs", []):
        options = run.get("options") or []
        out.append(f"### Batch {run['batch']}" + "".join(f", `{o}`" for o in options))
        out += kernels_batch(run, p.get("machine", {}).get("gpu"))
    out.append("Every kernel of one captured training step in the order the step runs them, each "
               "profiled alone by Nsight Compute (`tests/gpu/kernel_profile.py`: clocks left as they "
               "are, caches flushed before each kernel; the median over the step's replays). Tensor "
               "pipe: the share of the cycles the tensor cores could have been busy that they were "
               "(wgmma included): for these BF16 products, the share of the dense BF16 peak. The "
               "step's own time is `cae bench`'s epoch without the profiler, divided by its steps; "
               "the kernels' sum differs from it by the launch gaps and each batch's upload, which "
               "the profiler does not see, and by the caches the real step finds warm." + quick_note(p))
    out.append(footer(p, "kernels"))
    return "\n\n".join(o for o in out if o)


def kernels_batch(run, gpu):
    if run.get("status") != "measured":
        return [f"Not measured: {run.get('reason', run.get('status'))}."]
    total = run["sum_us"]
    rows = []
    for i, k in enumerate(run["kernels"], 1):
        us = k.get("us") or 0.0
        dram = ((k.get("dram_read") or 0) + (k.get("dram_write") or 0)) / (us * 1e-6) / 1e9 if us else 0
        tensor = k.get("tensor_pct")
        rows.append([str(i), f"`{k['name']}`", k["grid"].replace(" ", ""), f"{us:.1f}",
                     f"{100 * us / total:.1f}%" if total else "-",
                     f"{tensor:.0f}%" if tensor is not None else "-",
                     f"{k['sm_pct']:.0f}%" if k.get("sm_pct") is not None else "-", f"{dram:.0f}"])
    header = ["", "kernel", "grid", "us", "share", "tensor pipe", "SM", "DRAM GB/s"]
    steps = -(-EPOCH_IMAGES // run["batch"])
    epoch_s = run["epoch_s"] * EPOCH_IMAGES / run["epoch_images"] if run.get("epoch_s") else None
    step_ms = epoch_s / steps * 1e3 if epoch_s else None
    note = (f"{run['backend']}, batch {run['batch']}: {run['kernel_count']} kernels per step, "
            f"{total / 1e3:.3f} ms together under the profiler")
    if step_ms:
        note += (f"; the step without the profiler {step_ms:.3f} ms ({fmt_s(epoch_s)} s per "
                 f"{fmt_count(EPOCH_IMAGES)}-image epoch, `{run['epoch_command']}`)")
    tensor_us, tensor_pct = kernel_profile.tensor_share(run["kernels"])
    if tensor_us:
        note += (f". The kernels that use the tensor cores (tensor pipe at least "
                 f"{kernel_profile.TENSOR_KERNEL_MIN_PCT:g}%) take {tensor_us / 1e3:.3f} ms, "
                 f"their tensor pipes busy {tensor_pct:.0f}% of that time")
    note += f". Profiled with {run.get('ncu', 'ncu')} on {gpu or 'an unnamed GPU'}: `{run['command']}`."
    return [table(header, rows), note]


# ---------------------------------------------------------------- machine


MACHINE_ROWS = [("GPU", "gpu"), ("GPUs", "gpus"), ("GPU memory (MiB)", "gpu_memory_mib"),
                ("driver", "driver"), ("CUDA (driver)", "cuda_driver"),
                ("CUDA toolkit (build)", "cuda_toolkit"), ("PyTorch", "torch"),
                ("PyTorch's CUDA", "torch_cuda"), ("cuDNN", "cudnn"), ("CPU", "cpu"),
                ("cores", "cores"), ("memory (GiB)", "memory_gib"), ("commit", "commit")]


def render_machine(results):
    machines = []  # (machine, [(part, date, mode)])
    names = [n for n in PARTS if n in results["parts"]] + sorted(set(results["parts"]) - set(PARTS))
    for name in names:
        p = results["parts"][name]
        m = p.get("machine")
        if m is None:
            continue
        for known, parts in machines:
            if known == m:
                parts.append((name, p.get("date", "?"), p.get("mode", "?")))
                break
        else:
            machines.append((m, [(name, p.get("date", "?"), p.get("mode", "?"))]))
    if not machines:
        return NOT_MEASURED
    header = [""] + [f"machine {i + 1}" if len(machines) > 1 else "value" for i in range(len(machines))]
    rows = [[label] + [str(m.get(key)) if m.get(key) is not None else "-" for m, _ in machines]
            for label, key in MACHINE_ROWS]
    rows.append(["parts measured"] + ["<br>".join(f"{n} ({d}, {mode})" for n, d, mode in parts)
                                      for _, parts in machines])
    return table(header, rows)


# ---------------------------------------------------------------- backend chapters

# The course of plugins/README.md: each backend and the chapter it is measured
# against (winograd is a side chapter off v2, the FP32 GEMM it replaces).
CHAPTERS = [("cpu", None), ("naive", "cpu"), ("v1", "naive"), ("v2", "v1"), ("v3", "v2"),
            ("winograd", "v2"), ("v4", "v3")]
CHAPTER_ROWS = ([("conv2d_forward", layer) for layer in LAYER_SHAPES]
                + [("conv2d_backward", layer) for layer in LAYER_SHAPES])
MEMORY_BOUND_OPS = ("relu_backward", "maxpool2x2_forward", "maxpool2x2_backward",
                    "upsample2x_forward", "upsample2x_backward")


def cae_record(p, backend):
    """The measured `cae bench` record of `backend` in an epoch part, or None."""
    for r in measured((p or {}).get("cae", [])):
        if r["backend"] == backend:
            return r
    return None


def layer_label(layer):
    c, o, side, _ = LAYER_SHAPES[layer]
    return f"{layer} ({c}→{o}, {side}x{side})"


def op_ms(record, names, layer=None):
    """The milliseconds per step of the record's ops named `names` (on `layer`), or None."""
    ops = [op for op in record.get("ops", []) if op["op"] in names and (layer is None or op["layer"] == layer)]
    return sum(op["ms"] for op in ops) if ops else None


def chapter_op_rows(records):
    """(label, [ms per record]) per convolution and op group of one step."""
    rows = []
    for op, layer in CHAPTER_ROWS:
        kind = "forward" if op == "conv2d_forward" else "backward"
        rows.append((f"{kind}, {layer_label(layer)}", [op_ms(r, (op,), layer) for r in records]))
    rows.append(("ReLU backward, max-pool, upsample", [op_ms(r, MEMORY_BOUND_OPS) for r in records]))
    rows.append(("loss and Adam", [op_ms(r, ("mse_loss", "adam_step")) for r in records]))
    rows.append(("step (the ops' sum)", [sum(op["ms"] for op in r.get("ops", [])) or None for r in records]))
    return rows


def ms_cell(ms):
    return f"{ms:.3f}" if ms is not None else "-"


def speedup_cell(before, after):
    return fmt_ratio(before / after) if before and after else "-"


def render_chapter(results, backend, before=None):
    """One backend's figures beside the chapter it builds on: the epoch, its
    arithmetic rate, extraction and conformance, then each op of a step."""
    parts = {batch: part(results, f"epoch-{batch}") for batch in (64, 256)}
    records = {batch: cae_record(p, backend) for batch, p in parts.items()}
    if not any(records.values()):
        return (f"Not measured yet for {backend}: `tests/gpu/bench-suite.sh` measures it "
                "(docs/PERF.md, \"Regenerating\").")
    names = [b for b in (before, backend) if b]
    header = [""] + names + ([f"{backend}'s speed-up over {before}"] if before else [])
    rows = []
    for batch, p in parts.items():
        recs = [cae_record(p, b) for b in names]
        seconds = [per_epoch(r) if r else None for r in recs]
        row = [f"s per epoch, batch {batch}"] + [fmt_s(s) if s else "-" for s in seconds]
        if before:
            row.append(speedup_cell(*seconds))
        rows.append(row)
        gpu = (p or {}).get("machine", {}).get("gpu")
        rates = [flops_row(r["backend"], r["precision"], per_epoch(r), gpu, None)[2:4] if r else ["-", "-"]
                 for r in recs]
        rows.append([f"TFLOP/s, batch {batch} (share of peak)"]
                    + [f"{t} ({s})" if s != "-" else t for t, s in rates] + ([""] if before else []))
    p64 = parts[64]
    recs = [cae_record(p64, b) for b in names]
    extract = [r["extract_s"] * EXTRACT_IMAGES / r["extract_images"] if r and r.get("extract_images") else None
               for r in recs]
    rows.append(["s to extract 60,000 images"] + [fmt_s(s) if s else "-" for s in extract]
                + ([speedup_cell(*extract)] if before else []))
    rows.append(["memory the backend held at peak, batch 64 (GiB)"]
                + [f"{r['peak_device_bytes'] / 2**30:.2f}" if r and r.get("peak_device_bytes") else "-"
                   for r in recs] + ([""] if before else []))
    conf = {b["backend"]: b for b in (part(results, "conformance") or {}).get("backends", [])
            if b.get("status") in ("measured", "partial")}
    for op in ("conv2d_forward", "conv2d_backward"):
        cells = [f"{conf[b]['worst'][op]['ratio']:.1e}" if op in conf.get(b, {}).get("worst", {}) else "-"
                 for b in names]
        if any(c != "-" for c in cells):
            rows.append([f"worst `{op}` error / bound"] + cells + ([""] if before else []))
    out = [table(header, rows)]
    batches = [(batch, p, [cae_record(p, b) for b in names]) for batch, p in parts.items() if p]
    batches = [(batch, p, recs) for batch, p, recs in batches if all(r and r.get("ops") for r in recs)]
    if batches:
        op_header = ["one training step"]
        for batch, _, _ in batches:
            op_header += [f"{b}, batch {batch} (ms)" for b in names]
            if before:
                op_header.append(f"speed-up, batch {batch}")
        op_rows = []
        per_batch_rows = [chapter_op_rows(recs) for _, _, recs in batches]
        for i, (label, _) in enumerate(per_batch_rows[0]):
            row = [label]
            for rows_of_batch in per_batch_rows:
                values = rows_of_batch[i][1]
                row += [ms_cell(v) for v in values]
                if before:
                    row.append(speedup_cell(*values))
            op_rows.append(row)
        out.append(table(op_header, op_rows))
    notes = ("Epoch: 50,000 images timed end to end by `cae bench` (Adam, the seed's autoencoder); "
             "TFLOP/s and peak as in docs/PERF.md, \"Achieved TFLOP/s and share of peak\"; "
             "conformance: the worst error over its bound in the seed sweep (1 is the bound, which "
             "follows the declared precision). Ops: one training step op by op as `cae bench` times "
             "each (the op path; an epoch may run the step as a graph, so the ops' sum is not the "
             "epoch divided by its steps)")
    scaled = [(batch, r) for batch, p in parts.items() for r in (cae_record(p, b) for b in names)
              if r and r.get("images") != EPOCH_IMAGES]
    for batch, r in scaled:
        extract = (f" (extraction from {fmt_count(r['extract_images'])})"
                   if r.get("extract_images") and r["extract_images"] != EXTRACT_IMAGES else "")
        notes += (f"; {r['backend']} at batch {batch} extrapolated from {fmt_count(r['images'])} images"
                  f"{extract} on the machine's {results_cores(parts[batch])} cores")
    out.append(notes + ".")
    out.append(chapter_footer(results, parts))
    return "\n\n".join(out)


def chapter_footer(results, parts):
    """On what the chapter's figures were measured: the GPU and driver, and the
    data, once per distinct machine. A chapter names no commit or date:
    docs/PERF.md's tables and its machine table do."""
    sources = [(f"epoch-{batch}", p) for batch, p in parts.items() if p]
    c = part(results, "conformance")
    if c:
        sources.append(("conformance", c))
    machines = []
    for _, p in sources:
        m = p.get("machine", {})
        text = f"{m.get('gpu') or 'no GPU'} (driver {m.get('driver', '?')})"
        if text not in machines:
            machines.append(text)
    notes = "".join(sorted({quick_note(p) for _, p in sources}))
    return ("Measured on " + " and ".join(machines) + "; data: "
            + ", ".join(sorted({DATA_OF_PART[name] for name, _ in sources}))
            + ". docs/PERF.md names the commit and date of each part (\"Machine and versions\")."
            + notes)


def chapter_renderers():
    return {f"chapter-{b}": (lambda results, b=b, before=before: render_chapter(results, b, before))
            for b, before in CHAPTERS}


# ---------------------------------------------------------------- README


def short_torch_name(record):
    return TORCH_NAMES[record["config"]].replace("PyTorch ", "")


def default_recipe_moved(results):
    """(then, now) when the pipeline part timed `cae pipeline` running another
    recipe by default than the one the ingredients table now names (the
    README's, which `--defaults best` fills in), else None. The recipe a run
    ran is its `defaults` line (recorded since the suite kept it); a record
    without one ran the recipe the ablation part took apart at the same
    commit, the suite's best recipe of that commit."""
    p = part(results, "pipeline")
    best = [r for r in measured((p or {}).get("runs", [])) if r.get("name") == "best"]
    decision = decide(results, ingredient_runs(results)[0])
    if not best or not decision.winner:
        return None
    then = ingredient_command(f"cae pipeline {best[0]['defaults']}") if best[0].get("defaults") else None
    ablation = part(results, "ablation")
    if then is None and ablation and ablation["machine"].get("commit") == p["machine"].get("commit"):
        winner = [r for r in ablation.get("runs", []) if r.get("variant") == "winner"]
        then = ingredient_command(winner[0]["readme_command"]) if winner else None
    now = ingredient_command(decision.winner["readme_command"])
    return (then, now) if then and then != now else None


def default_moved_sentence(results):
    """What the pipeline part's figures say no longer: see default_recipe_moved."""
    moved = default_recipe_moved(results)
    if not moved:
        return ""
    then, now = moved
    winner = decide(results, ingredient_runs(results)[0]).winner
    return (f" These `cae pipeline` figures ran the default recipe of their commit, which today's "
            f"`cae pipeline` writes `{then}`; it now runs `{now}`, the ingredients table's winner (docs/PERF.md), not yet timed as the "
            f"default: as a variant of that table it took {fmt_s(winner['wall_s'])} s, already "
            f"certified, and scored {winner['validation_accuracy']:.2f}% on the validation split"
            + (f" and {winner['test_accuracy']:.2f}% on the test set" if winner.get("test_accuracy") is not None else "")
            + ".")


def render_expect(results):
    sentences = []
    p = part(results, "pipeline")
    runs = (p or {}).get("runs", [])
    sources = []  # (what, machine, date) of every part the sentences quote
    ok = measured(runs)
    if ok:
        sources.append(("the pipelines", p["machine"], p["date"]))
        parts = []
        for r in ok:
            certified = r.get("certified_on_first_use") or {}
            first_use = (f"from a fresh install, {fmt_s(certified['seconds'])} s of it certifying "
                         f"{certified['backend']} on its first use and "
                         if certified.get("seconds") else "")
            command = ("run again, its backend certified, it" if r.get("name") == AGAIN_RUN
                       else f"`{r['readme_command']}`")
            text = (f"{command} takes {fmt_s(r['wall_s'])} s "
                    f"({first_use}{fmt_s(r['stages'].get('svm train', 0.0))} s training the SVM), "
                    f"{r['peak_rss_bytes'] / 2**30:.2f} GiB of memory and reaches "
                    f"{100 * r['accuracy']:.2f}% test accuracy with {r['backend']}")
            parts.append(text)
        added = f" (`{p['added_options']}` added: {p.get('mode')} mode)" if p.get("added_options") else ""
        sentences.append(f"On {p.get('data') or 'an unnamed data set'}" + added + ", " + "; ".join(parts) + "."
                         + default_moved_sentence(results))
    for batch in (64, 256):
        e = part(results, f"epoch-{batch}")
        if not e:
            continue
        if not any(what == "the training epochs" for what, _, _ in sources):
            sources.append(("the training epochs", e["machine"], e["date"]))
        cells = [f"{r['backend']} {fmt_s(per_epoch(r))} s" for r in measured(e["cae"]) if r["backend"] != "cpu"]
        every_torch = torch_records(results, batch)
        torch = measured(every_torch)
        if torch:
            best = min(torch, key=per_epoch)
            # The fastest may come from the torch-max part: its own commit and day.
            t = torch_max_part(results, [best])
            if t and not any(what == "PyTorch's max-autotune" for what, _, _ in sources):
                sources.append(("PyTorch's max-autotune", t["machine"], t["date"]))
            # A configuration that was not measured may be the fastest: say so.
            missing = [short_torch_name(r) for r in every_torch if r.get("status") != "measured"]
            cells.append(f"PyTorch's fastest{' measured' if missing else ''} ({short_torch_name(best)}) "
                         f"{fmt_s(per_epoch(best))} s"
                         + (f" ({', '.join(missing)} not measured)" if missing else ""))
        if cells:
            sentences.append(f"One training epoch of 50,000 images at batch {batch}: " + ", ".join(cells) + ".")
        cpu = [r for r in measured(e["cae"]) if r["backend"] == "cpu"]
        if cpu and batch == 64:
            # The GPU machine's processor, not a promise for any 16 cores: its
            # OpenBLAS has run there at about one core's rate (docs/PERF.md, "Training").
            sentences.append(f"The cpu backend trains at about {fmt_s(cpu[0]['epoch_s'] * 1000 / cpu[0]['images'])} s "
                             f"per 1,000 images on the GPU machine's {results_cores(e)} cores, a figure of that "
                             "machine's processor more than of the backend (docs/PERF.md, \"Training\").")
    if not sentences:
        return ("Not measured yet on the current code: `tests/gpu/bench-suite.sh` (below, and "
                "docs/PERF.md) produces these figures on a GPU machine.")
    return " ".join([measured_where(sources)] + sentences)


def measured_where(sources):
    """Where and when the quoted parts ran: once when they share GPU, day and
    commit, else each named with its own."""
    def gpu(machine):
        return machine.get("gpu") or "machine without a GPU"

    def when(machine, date):
        return f"on {date[:10]} at commit {machine.get('commit', '?')}"

    distinct = {(gpu(m), when(m, d)) for _, m, d in sources}
    tail = "; docs/PERF.md has every table and how it was measured."
    if len(distinct) == 1:
        _, machine, date = sources[0]
        return f"Measured on one {gpu(machine)} {when(machine, date)}{tail}"
    if len({g for g, _ in distinct}) == 1:
        return (f"Measured on one {gpu(sources[0][1])}: "
                + ", ".join(f"{what} {when(m, d)}" for what, m, d in sources) + tail)
    return ("Measured " + ", ".join(f"{what} on one {gpu(m)} {when(m, d)}" for what, m, d in sources)
            + tail)


def render_run_it(results):
    """The README's main command, timed from outside as a new user meets it:
    the best run of the pipeline part (a fresh install on the GPU machine,
    its default backend certified on first use) and of pipeline-cpu (no
    GPU, no data)."""
    sentences = []
    for name, where in (("pipeline", "with CIFAR-10 (JPEG q75 copy) under data/"),
                        ("pipeline-cpu", "without a GPU and without data (its synthetic set)")):
        p = part(results, name)
        best = [r for r in measured((p or {}).get("runs", [])) if r.get("name") == "best"
                and "certified_on_first_use" in r]
        if not best:
            continue
        r, m = best[0], p["machine"]
        machine = (f"one {m['gpu']}" if name == "pipeline" and m.get("gpu")
                   else f"{results_cores(p)} CPU cores")
        certified = r.get("certified_on_first_use")
        first_use = (f", {fmt_s(certified['seconds'])} s of it certifying {certified['backend']} on "
                     f"its first use" if certified and certified.get("seconds") else "")
        sentences.append(
            f"On {machine} {where}, its `{r['readme_command']}` took {fmt_s(r['wall_s'])} s from "
            f"a fresh install{first_use}, and reached {100 * r['accuracy']:.2f}% test accuracy with "
            f"{r['backend']} (measured on {p['date'][:10]} at commit {m.get('commit', '?')}).")
        if name == "pipeline":
            sentences[-1] += default_moved_sentence(results)
    if not sentences:
        return ("Not measured yet on the current code: `tests/gpu/bench-suite.sh --part pipeline "
                "--part pipeline-cpu` measures it.")
    return " ".join(sentences) + " Building before the first run is not included."


# The stages of `.ci/run` that are the README's test command; the rest
# (the sanitized build and tests) are CI's own.
README_TEST_STAGES = ("install", "configure + build", "tests")


def render_tests_time(results):
    """How long the README's test command took from a fresh clone on the
    machine CI runs on (a passing `.ci/run`, .ci/record_times.py), then
    CI's whole run."""
    p = part(results, "ci")
    if not p or p.get("status") != "measured":
        return ("Not measured yet on the current code: a passing `.ci/run` writes "
                "build/ci-times.json, which `tests/gpu/perf_tables.py update` merges.")
    m = p["machine"]
    stages = p["stages"]
    mine = [s for s in stages if s["name"] in README_TEST_STAGES]
    after = [s for s in stages if s["name"] not in README_TEST_STAGES]
    where = (f"On {results_cores(p)} CPU cores ({m.get('cpu', 'unknown CPU')})"
             + (f" with {m['gpus']} GPU{'s' if m['gpus'] != 1 else ''}" if m.get("gpus") else
                " without a GPU"))
    text = (f"{where}, from a {p.get('mode', 'fresh clone')}, this command took "
            f"{fmt_count(sum(s['seconds'] for s in mine))} s ("
            + ", ".join(f"{s['name']} {fmt_count(s['seconds'])} s" for s in mine) + ")")
    if after:
        text += ("; CI's `.ci/run` then adds "
                 + ", ".join(f"{s['name']} {fmt_count(s['seconds'])} s" for s in after)
                 + f", {fmt_count(p['total_s'])} s in all")
    return text + f" (measured on {p['date'][:10]} at commit {m.get('commit', '?')})."


RENDERERS = {"tests-time": render_tests_time, "epoch": render_epoch, "extract": render_extract, "svm": render_svm,
             "search": render_search, "pipeline": render_pipeline, "ingredients": render_ingredients, "ablation": render_ablation, "models": render_models, "ddp": render_ddp, "conformance": render_conformance,
             "flops": render_flops, "bound": render_bound, "kernels": render_kernels,
             "machine": render_machine, "expect": render_expect, "run-it": render_run_it}
RENDERERS.update(chapter_renderers())


def render_all(results):
    return {name: fn(results) for name, fn in RENDERERS.items()}


# ---------------------------------------------------------------- files


def replace_blocks(text, blocks, where):
    """`text` with every block's content between its markers replaced."""
    for name, body in blocks.items():
        pattern = re.compile(r"(<!-- generated:%s -->\n).*?(\n<!-- end:%s -->)" % (name, name), re.S)
        found = len(pattern.findall(text))
        if found != 1:
            raise ResultsError(f"{where}: {found} `<!-- generated:{name} -->` ... `<!-- end:{name} -->` "
                               "blocks, expected 1")
        text = pattern.sub(lambda m: m.group(1) + body + m.group(2), text)
    return text


def load(path):
    try:
        with open(path) as f:
            return validate(json.load(f), path)
    except OSError as e:
        raise ResultsError(f"{path}: {e.strerror}")
    except ValueError as e:
        raise ResultsError(f"{path}: not JSON ({e})")


def write_atomically(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".tmp-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def documents(args):
    """(path, {block name in the file: name in the rendered blocks}) of every
    document with generated blocks: PERF.md, the README, and each backend's
    chapter (plugins/NAME/README.md) that holds a `chapter` block."""
    docs = [(args.perf, {n: n for n in PERF_BLOCKS}), (args.readme, {n: n for n in README_BLOCKS})]
    for backend, _ in CHAPTERS:
        path = os.path.join(args.root, "plugins", backend, "README.md")
        if os.path.exists(path):
            with open(path) as f:
                if "<!-- generated:chapter -->" in f.read():
                    docs.append((path, {"chapter": f"chapter-{backend}"}))
    return docs


def check_sources(args, results, blocks):
    """Every figure of the docs backed, every part younger than its code (a
    warning unless --strict): 0 when so, else 1."""
    paths = doc_figures.doc_paths(args.root)
    paths += [p for p in (args.perf, args.readme) if os.path.abspath(p) not in map(os.path.abspath, paths)]
    unsourced = doc_figures.unsourced(paths, results, blocks, doc_figures.load_constants(args.constants),
                                      args.root)
    for figure in unsourced:
        print(f"perf_tables: {figure.path}:{figure.line}: \"{figure.text}\" is in neither "
              f"{os.path.basename(args.results)} nor {os.path.basename(args.constants)}: "
              "generate it, quote a measured value, or remove it", file=sys.stderr)
    lines, stale = stale_tables.report(results, args.root)
    for line in lines:
        print(f"perf_tables: {'error' if args.strict and line.startswith('stale') else 'warning'}: {line}",
              file=sys.stderr)
    if unsourced or (stale and args.strict):
        return 1
    print(f"perf_tables: docs agree with {args.results}")
    return 0


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("command", choices=["update", "check", "render"])
    p.add_argument("new", nargs="*", help="update: results to merge in; render: the results to render")
    p.add_argument("--results", default=os.path.join(root, "docs", "perf-results.json"))
    p.add_argument("--perf", default=os.path.join(root, "docs", "PERF.md"))
    p.add_argument("--readme", default=os.path.join(root, "README.md"))
    p.add_argument("--root", default=root)
    p.add_argument("--constants", default=os.path.join(here, "doc_constants.json"))
    p.add_argument("--strict", action="store_true", help="check: fail on stale parts too")
    args = p.parse_args(argv)
    try:
        if args.command == "render":
            if len(args.new) > 1:
                p.error("render takes at most one results file")
            blocks = render_all(load(args.new[0] if args.new else args.results))
            print("\n\n".join(f"<!-- {n} -->\n{b}" for n, b in blocks.items()))
            return 0
        if args.command == "check" and args.new:
            p.error("check takes no results files: it reads --results")
        results = load(args.results)
        for path in args.new:
            results = merge(results, load(path))
        blocks = render_all(results)
        changed, problems = [], []
        for path, names in documents(args):
            with open(path) as f:
                text = f.read()
            new_text = replace_blocks(text, {n: blocks[source] for n, source in names.items()}, path)
            if path == args.readme:
                problems = recipe_problems(results, new_text)
            if new_text != text:
                changed.append(path)
                if args.command == "update":
                    write_atomically(path, new_text)
        for problem in problems:
            print(f"perf_tables: {problem}: the README's recipe must be the winner on the validation "
                  "split (docs/PERF.md, the ingredients table)", file=sys.stderr)
        if args.command == "update":
            if args.new:
                write_atomically(args.results, json.dumps(results, indent=1, sort_keys=True) + "\n")
            print(f"perf_tables: {len(changed)} file(s) rewritten" + (f": {', '.join(changed)}" if changed else ""))
            return 1 if problems else 0
        if changed:
            print(f"perf_tables: {', '.join(changed)} disagree(s) with {args.results}: "
                  "run `python3 tests/gpu/perf_tables.py update`", file=sys.stderr)
            return 1
        if problems:
            return 1
        return check_sources(args, results, blocks)
    except ResultsError as e:
        print(f"perf_tables: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
