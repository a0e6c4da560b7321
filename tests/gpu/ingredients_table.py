#!/usr/bin/env python3
"""The feature ingredients' validation table: `cae pipeline` once per variant
(input whitening, contrast normalisation, sparse codes, the soft threshold,
the model presets), each with C and gamma chosen by --search on the
validation split, and one table of validation accuracy, wall time and peak
resident memory per variant.

Choices are made on the validation split: the winner is the variant with
the best validation accuracy, and the table shows the test accuracy of the
winner alone (every pipeline computes one; reading the others would turn the
test set into a second validation set).

Called by tests/gpu/ingredients-table.sh (which makes the build usable
first). Each variant writes OUT/raw/VARIANT.json; the table (OUT/ingredients.json
and OUT/ingredients.md) is made from every variant measured in OUT, so
several commands, each within its own time budget, can fill one table
(--variants picks which run now; one already measured is not run again).
Standard library only; the child processes are run, timed and measured as
bench_suite.py runs its pipelines.
"""
import argparse
import json
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_suite import Budget, run_step  # noqa: E402  (same folder)

# The README's best recipe: every variant adds its options to it.
BASE = ["--features", "pyramid-flip", "--augment", "flip", "--search"]

VARIANTS = [
    ("base", []),
    ("zca", ["--whiten", "zca"]),
    ("contrast", ["--contrast-normalize"]),
    ("contrast-zca", ["--contrast-normalize", "--whiten", "zca"]),
    ("contrast-zca-0.01", ["--contrast-normalize", "--whiten", "zca:0.01"]),
    ("l1", ["--sparsity", "l1:0.01"]),
    ("threshold", ["--feature-threshold", "0.25"]),
    ("contrast-zca-l1-threshold", ["--contrast-normalize", "--whiten", "zca", "--sparsity", "l1:0.01",
                                   "--feature-threshold", "0.25"]),
    ("wide", ["--model", "wide"]),
    ("deep", ["--model", "deep"]),
    ("wide-contrast-zca", ["--model", "wide", "--contrast-normalize", "--whiten", "zca"]),
]

SMOKE_OPTIONS = ["--samples", "300", "--epochs", "1", "--validation", "100"]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build", help="the build folder (its bin/cae is run)")
    p.add_argument("--out", required=True, help="folder for the table, raw/ and logs/ (reused: adds to its table)")
    p.add_argument("--data", help="the CIFAR-10 folder (without it: the pipeline's synthetic set)")
    p.add_argument("--backend", help="cae's --backend (default: cae's own choice)")
    p.add_argument("--variants", default=",".join(name for name, _ in VARIANTS),
                   help="comma-separated variants to run now (default: all): " +
                        ", ".join(name for name, _ in VARIANTS))
    p.add_argument("--variant", action="append", default=[], metavar="NAME=OPTIONS",
                   help="one more variant: NAME and the cae pipeline options it adds to the base recipe")
    p.add_argument("--budget", type=float, default=570.0,
                   help="seconds for this whole command; variants that do not fit are recorded as not run")
    p.add_argument("--limit", type=float, default=300.0, help="seconds at most for one pipeline")
    p.add_argument("--smoke", action="store_true",
                   help="check the script on any machine: " + " ".join(SMOKE_OPTIONS) + " (figures mean nothing)")
    p.add_argument("--rerun", action="store_true", help="run variants already measured in --out again")
    p.add_argument("--work", help="folder for the pipelines' own output folders (default: OUT/runs); "
                                  "each is removed once measured (its SVM model alone may be a GB)")
    p.add_argument("--keep-runs", action="store_true", help="keep each pipeline's output folder")
    p.add_argument("--table-only", action="store_true",
                   help="run nothing: make the table from OUT/raw/*.json (e.g. gathered from several machines)")
    args = p.parse_args(argv)
    variants = dict(VARIANTS)
    for extra in args.variant:
        name, _, options = extra.partition("=")
        if not name or not options:
            p.error(f"--variant '{extra}' is not NAME=OPTIONS")
        variants[name] = options.split()
    chosen = [name for name in args.variants.split(",") if name]
    for name in chosen:
        if name not in variants:
            p.error(f"unknown variant '{name}' (known: {', '.join(variants)})")
    chosen += [extra.partition("=")[0] for extra in args.variant if extra.partition("=")[0] not in chosen]
    args.chosen = [(name, variants[name]) for name in chosen]
    return args


def percent(text):
    """'74.04%' -> 74.04; None when absent."""
    if not text:
        return None
    return float(text.rstrip("%"))


def run_variant(args, budget, name, options):
    cae = os.path.join(args.build, "bin", "cae")
    run_dir = os.path.join(args.work, name)
    cmd = [cae, "pipeline"] + (["--data", args.data] if args.data else [])
    cmd += (["--backend", args.backend] if args.backend else []) + (SMOKE_OPTIONS if args.smoke else [])
    cmd += BASE + options + ["--out", run_dir]
    record = {"variant": name, "options": " ".join(BASE + options), "mode": "smoke" if args.smoke else "full",
              "command": " ".join(["cae", "pipeline"] + cmd[2:-2])}
    print(f"ingredients: {name}: {record['command']}", flush=True)
    step = run_step(cmd, budget.limit(args.limit), os.path.join(args.out, "logs", name + ".log"))
    if step.failure():
        record.update(status="not run" if step.rc is None else "failed", reason=step.failure())
        return record
    with open(os.path.join(run_dir, "report.json")) as f:
        report = json.load(f)
    settings = dict(report["settings"])
    record.update(status="measured", wall_s=round(step.wall_s, 1), peak_rss_gib=round(step.peak_rss_bytes / 2**30, 2),
                  validation_accuracy=percent(settings.get("validation accuracy")),
                  test_accuracy=round(100.0 * report["accuracy"], 2),
                  device=report.get("device"), backend=report.get("backend"),
                  settings={k: settings.get(k) for k in ("model", "input transform", "sparsity", "features",
                                                         "svm C", "svm gamma", "validation rows")})
    if not args.keep_runs:
        shutil.rmtree(run_dir, ignore_errors=True)
    return record


def table(records):
    """The JSON document and its Markdown: the winner by validation accuracy,
    the test accuracy shown for the winner only."""
    measured = [r for r in records if r.get("status") == "measured" and r.get("validation_accuracy") is not None]
    winner = max(measured, key=lambda r: r["validation_accuracy"]) if measured else None
    rows = []
    for r in sorted(records, key=lambda r: -(r.get("validation_accuracy") or -1)):
        row = {k: r.get(k) for k in ("variant", "options", "status", "reason", "validation_accuracy",
                                     "wall_s", "peak_rss_gib", "mode", "device", "backend")}
        row["test_accuracy"] = r["test_accuracy"] if winner is r else None
        rows.append(row)
    doc = {"chosen_on": "the validation split (--validation auto: min(5000, rows/10), seeded)",
           "winner": winner["variant"] if winner else None,
           "winner_test_accuracy": winner["test_accuracy"] if winner else None, "rows": rows}
    lines = ["| variant | options | validation | test (winner only) | wall s | peak RSS GiB |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        if row["status"] != "measured":
            lines.append(f"| {row['variant']} | `{row['options']}` | {row['status']}: {row['reason']} | | | |")
            continue
        test = f"{row['test_accuracy']:.2f}%" if row["test_accuracy"] is not None else ""
        lines.append(f"| {row['variant']} | `{row['options']}` | {row['validation_accuracy']:.2f}% | {test} | "
                     f"{row['wall_s']:.1f} | {row['peak_rss_gib']:.2f} |")
    devices = sorted({f"{r['backend']} on {r['device']}" for r in rows if r.get("device")})
    modes = sorted({r["mode"] for r in rows if r.get("mode")})
    lines.append("")
    lines.append(f"Every row: `cae pipeline {' '.join(BASE)}` plus its options; {', '.join(devices) or 'no device'}; "
                 f"mode {', '.join(modes) or '-'}. The winner is chosen on validation accuracy; its test "
                 "accuracy is the only one shown.")
    return doc, "\n".join(lines) + "\n"


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.table_only:
        args.chosen = []
    elif not os.access(os.path.join(args.build, "bin", "cae"), os.X_OK):
        print(f"ingredients: {args.build}/bin/cae is not there: build first", file=sys.stderr)
        return 1
    args.work = args.work or os.path.join(args.out, "runs")
    os.makedirs(args.work, exist_ok=True)
    for sub in ("raw", "logs"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    budget = Budget(args.budget)
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for name, options in args.chosen:
        raw = os.path.join(args.out, "raw", name + ".json")
        if os.path.exists(raw) and not args.rerun:
            with open(raw) as f:
                if json.load(f).get("status") == "measured":
                    print(f"ingredients: {name}: measured before (--rerun to run it again)", flush=True)
                    continue
        record = run_variant(args, budget, name, options)
        record["started"] = started
        with open(raw + ".tmp", "w") as f:
            json.dump(record, f, indent=1)
        os.replace(raw + ".tmp", raw)
    records = []
    for entry in sorted(os.listdir(os.path.join(args.out, "raw"))):
        if entry.endswith(".json"):
            with open(os.path.join(args.out, "raw", entry)) as f:
                records.append(json.load(f))
    doc, markdown = table(records)
    with open(os.path.join(args.out, "ingredients.json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(args.out, "ingredients.md"), "w") as f:
        f.write(markdown)
    print(markdown, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
