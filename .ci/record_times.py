#!/usr/bin/env python3
"""Writes the stage times of a CI run that passed as the `ci` part of a
benchmark-results file (the format of docs/perf-results.json), so the
README's figure for the test command comes from the same source as every
other figure: `tests/gpu/perf_tables.py update FILE` merges it.

usage: record_times.py --out FILE [--mode TEXT] NAME=SECONDS ...
  NAME=SECONDS  a stage and its whole seconds, in the order they ran

Standard library only: it runs in CI.
"""
import argparse
import datetime
import json
import os
import sys
from types import SimpleNamespace

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "gpu"))
import bench_suite  # noqa: E402  (the machine record every part carries)
import perf_tables  # noqa: E402  (the results format)


def parse_stage(text):
    name, sep, seconds = text.rpartition("=")
    if not sep or not name:
        raise ValueError(f"`{text}` is not NAME=SECONDS")
    try:
        value = int(seconds)
    except ValueError:
        raise ValueError(f"`{text}`: {seconds!r} is not a whole number of seconds") from None
    if value < 0:
        raise ValueError(f"`{text}`: a stage cannot take negative time")
    return {"name": name, "seconds": value}


def record(stages, mode, build):
    machine = bench_suite.machine_record(build, SimpleNamespace(commit=None), None)
    part = {
        "status": "measured",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "mode": mode,
        "machine": machine,
        "stages": stages,
        "total_s": sum(s["seconds"] for s in stages),
    }
    results = perf_tables.empty_results()
    results["parts"]["ci"] = part
    return results


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="the results file to write")
    p.add_argument("--mode", default="fresh clone", help="how the run started (default: fresh clone)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"), help="the build folder")
    p.add_argument("stages", nargs="+", metavar="NAME=SECONDS")
    args = p.parse_args(argv)
    try:
        stages = [parse_stage(s) for s in args.stages]
    except ValueError as e:
        print(f"record_times: {e}", file=sys.stderr)
        return 2
    results = record(stages, args.mode, args.build)
    perf_tables.write_atomically(args.out, json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
