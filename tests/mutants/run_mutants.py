#!/usr/bin/env python3
"""Asserts that cae-conformance FAILS every mutant backend on every seed.

A mutant is the cpu backend with one deliberate bug (tests/mutants/*.cpp).
For each mutant of the manifest (written by tests/mutants/CMakeLists.txt) this
runs one sweep

    cae-conformance --backend LIB --seed S --sweep N --filter F --json FILE

and reads FILE. A mutant is CAUGHT on a seed when that seed's verdict is
"failed" or "crashed" (or the one verdict the mutant requires) and a failure,
or the crash, names one of the mutant's ops (and matches its check or detail
pattern where the manifest gives one). Anything else, a pass or a skip above
all, is an ESCAPE: a hole in the suite.

--control runs the correct cpu backend through the same sweep (every
mutant's filter at once) and asserts the opposite: every seed PASSED, so the
runner's judgement cannot be satisfied by a suite that fails everything.

Exit status: 0 every mutant caught on every seed (--control: the cpu backend
passed every seed), 1 otherwise, 2 bad command line or manifest, 77 the suite
has no --sweep/--json (printed as "SKIPPED: <reason>").
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

EXIT_PASSED, EXIT_FAILED, EXIT_USAGE, EXIT_SKIPPED = 0, 1, 2, 77
CAUGHT_VERDICTS = ("failed", "crashed")


class UsageError(Exception):
    pass


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", required=True, help="the cae-conformance executable")
    parser.add_argument("--manifest", required=True, help="mutants.json from the build tree")
    parser.add_argument("--first-seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--seeds", type=int, default=20, help="seeds per sweep (default 20)")
    parser.add_argument("--work-dir", required=True, help="where sweep reports and logs go")
    parser.add_argument("--only", default="", help="comma-separated mutant ids to run")
    parser.add_argument("--jobs", type=int, default=1, help="sweeps run at once (default 1)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per sweep")
    parser.add_argument("--suite-arg", action="append", default=[],
                        help="extra argument for every suite run (repeatable)")
    parser.add_argument("--control", action="store_true",
                        help="run the correct cpu backend instead: every seed must PASS")
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.jobs < 1 or args.first_seed < 0:
        parser.error("--seeds and --jobs must be >= 1, --first-seed >= 0")
    return args


def load_manifest(path):
    try:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read the manifest {path}: {e}")
    for entry in manifest.get("mutants", []):
        if not os.path.isfile(entry["library"]):
            raise UsageError(f"mutant {entry['id']}: no library at {entry['library']} (build it)")
    if not manifest.get("mutants"):
        raise UsageError(f"the manifest {path} lists no mutants")
    return manifest


def sweep_support(suite):
    """None when the suite has --sweep and --json, else why it cannot be used."""
    try:
        help_text = subprocess.run([suite, "--help"], capture_output=True, text=True,
                                   timeout=60).stdout
    except OSError as e:
        raise UsageError(f"cannot run the suite {suite}: {e}")
    missing = [o for o in ("--sweep", "--json") if o not in help_text]
    if missing:
        return (f"{suite} has no {' or '.join(missing)} (the sweep mode of the conformance "
                f"suite): the mutants cannot be swept")
    return None


# ---- one sweep ------------------------------------------------------------------------------

class Sweep:
    """What one cae-conformance --sweep run left: exit status, report, log."""

    def __init__(self, returncode, report, log_path, problem=None):
        self.returncode = returncode
        self.report = report
        self.log_path = log_path
        self.problem = problem  # why there is no usable report


def sweep_environment(args):
    """With sweeps side by side, the backends' idle OpenMP threads sleep
    (OMP_WAIT_POLICY=passive unless set): spinning ones take the cores the
    other sweeps' threads are waiting for."""
    env = dict(os.environ)
    if args.jobs > 1:
        env.setdefault("OMP_WAIT_POLICY", "passive")
    return env


def run_sweep(args, name, library, filter_text):
    os.makedirs(args.work_dir, exist_ok=True)
    json_path = os.path.join(args.work_dir, name + ".json")
    log_path = os.path.join(args.work_dir, name + ".log")
    if os.path.exists(json_path):
        os.remove(json_path)
    command = [args.suite, "--backend", library, "--seed", str(args.first_seed),
               "--sweep", str(args.seeds), "--json", json_path]
    if filter_text:
        command += ["--filter", filter_text]
    command += args.suite_arg
    with open(log_path, "w", encoding="utf-8") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        try:
            returncode = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT,
                                        timeout=args.timeout, env=sweep_environment(args)).returncode
        except subprocess.TimeoutExpired:
            return Sweep(None, None, log_path, f"the sweep ran past {args.timeout:.0f} s")
    try:
        with open(json_path, encoding="utf-8") as f:
            return Sweep(returncode, json.load(f), log_path)
    except (OSError, ValueError) as e:
        return Sweep(returncode, None, log_path, f"no JSON report (exit {returncode}): {e}")


# ---- judgement ----------------------------------------------------------------------------

def named_failures(seed_entry):
    """The seed's failures, and its crash as one more, as (op, check, detail)."""
    found = [(f.get("op", ""), f.get("check", ""), f.get("detail", ""))
             for f in seed_entry.get("failures") or []]
    crash = seed_entry.get("crash")
    if crash:
        found.append((crash.get("op", ""), crash.get("check", ""),
                      "crash " + str(crash.get("signal", ""))))
    return found


def matches(mutant, failure):
    op, check, detail = failure
    if mutant.get("ops") and op not in mutant["ops"]:
        return False
    if mutant.get("check") and mutant["check"] not in check:
        return False
    if mutant.get("detail") and not re.search(mutant["detail"], check + " " + detail, re.I):
        return False
    return True


def expectation(mutant):
    parts = ["/".join(mutant["ops"]) if mutant.get("ops") else "any op"]
    if mutant.get("check"):
        parts.append(f"check '{mutant['check']}'")
    if mutant.get("detail"):
        parts.append(f"detail /{mutant['detail']}/")
    return ", ".join(parts)


def judge_seed(mutant, entry):
    """(True, ops that caught it) or (False, why it escaped) for one seed's entry."""
    if entry is None:
        return False, "no verdict in the report"
    verdict = entry.get("verdict")
    allowed = (mutant["verdict"],) if mutant.get("verdict") else CAUGHT_VERDICTS
    if verdict not in allowed:
        return False, f"{verdict}, expected {' or '.join(allowed)}"
    ops = sorted({f[0] for f in named_failures(entry) if matches(mutant, f)})
    if not ops:
        return False, f"{verdict}, but no failure names {expectation(mutant)}"
    return True, ops


class Judgement:
    def __init__(self, seeds):
        self.seeds = seeds
        self.caught = 0
        self.ops = set()
        self.escapes = []  # (seed or None for the whole sweep, reason)

    @property
    def every_seed_caught(self):
        return self.caught == len(self.seeds) and not self.escapes


def judge(mutant, sweep, seeds):
    """How the sweep's report treated the mutant on each of `seeds`."""
    judgement = Judgement(seeds)
    if sweep.report is None:
        judgement.escapes.append((None, sweep.problem))
        return judgement
    by_seed = {e.get("seed"): e for e in sweep.report.get("seeds") or []}
    for seed in seeds:
        caught, detail = judge_seed(mutant, by_seed.get(seed))
        if caught:
            judgement.caught += 1
            judgement.ops.update(detail)
        else:
            judgement.escapes.append((seed, detail))
    if sweep.returncode != EXIT_FAILED:
        judgement.escapes.append((None, f"the suite exited {sweep.returncode}, expected 1"))
    return judgement


def seed_list(seeds):
    """"1-14, 16, 18-20" for [1, ..., 14, 16, 18, 19, 20]."""
    runs = []
    for seed in seeds:
        if runs and seed == runs[-1][1] + 1:
            runs[-1][1] = seed
        else:
            runs.append([seed, seed])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def describe_escapes(escapes):
    """"seeds 3, 7-9 (passed); seed 12 (...)", grouping seeds that escaped alike."""
    groups = {}
    for seed, reason in escapes:
        groups.setdefault(reason, []).append(seed)
    parts = []
    for reason, seeds in groups.items():
        numbered = [s for s in seeds if s is not None]
        if numbered:
            label = "seed" if len(numbered) == 1 else "seeds"
            parts.append(f"{label} {seed_list(numbered)} ({reason})")
        else:
            parts.append(reason)
    return "; ".join(parts)


def seed_range(args):
    return list(range(args.first_seed, args.first_seed + args.seeds))


# ---- the two modes --------------------------------------------------------------------------

def run_mutants(args, manifest):
    mutants = manifest["mutants"]
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {m["id"] for m in mutants}
        if unknown:
            raise UsageError(f"--only: no mutant named {', '.join(sorted(unknown))}")
        mutants = [m for m in mutants if m["id"] in wanted]
    seeds = seed_range(args)
    width = max(len(m["id"]) for m in mutants) + len("mutant-") + 2
    # The graph mutants' sweeps run the longest (whole training steps against
    # float64): started first, they do not leave one worker alone at the end.
    # Results are still judged and printed in the manifest's order.
    longest_first = sorted(mutants, key=lambda m: not any(f.startswith("graph") for f in m["filter"].split(",")))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        started = {m["id"]: pool.submit(run_sweep, args, "mutant-" + m["id"], m["library"],
                                        m["filter"])
                   for m in longest_first}
        escaped = []
        for mutant in mutants:
            sweep = started[mutant["id"]].result()
            judgement = judge(mutant, sweep, seeds)
            name = ("mutant-" + mutant["id"]).ljust(width)
            if judgement.every_seed_caught:
                print(f"{name}caught on {judgement.caught}/{len(seeds)} seeds by "
                      f"{', '.join(sorted(judgement.ops))} checks", flush=True)
            else:
                escaped.append(mutant["id"])
                print(f"{name}ESCAPED on {describe_escapes(judgement.escapes)}; caught on "
                      f"{judgement.caught}/{len(seeds)} seeds (log: {sweep.log_path})",
                      flush=True)
    caught = len(mutants) - len(escaped)
    verdict = "PASSED" if not escaped else "FAILED (escaped: " + ", ".join(escaped) + ")"
    print(f"\nconformance.mutants: {len(mutants)} mutants, {caught} caught on every one of "
          f"seeds {seeds[0]}..{seeds[-1]}: {verdict}")
    return EXIT_PASSED if not escaped else EXIT_FAILED


def union_filter(mutants):
    parts = []
    for mutant in mutants:
        parts += [p for p in mutant["filter"].split(",") if p and p not in parts]
    return ",".join(parts)


def run_control(args, manifest):
    """The correct cpu backend must PASS the sweep that fails the mutants."""
    seeds = seed_range(args)
    sweep = run_sweep(args, "control-cpu", manifest["control"], union_filter(manifest["mutants"]))
    problems = []
    if sweep.report is None:
        problems.append(sweep.problem)
    else:
        by_seed = {e.get("seed"): e for e in sweep.report.get("seeds") or []}
        for seed in seeds:
            entry = by_seed.get(seed)
            if entry is None or entry.get("verdict") != "passed":
                failures = named_failures(entry or {})
                first = f": {failures[0][0]} {failures[0][1]} {failures[0][2]}" if failures else ""
                verdict = entry.get("verdict") if entry else "no verdict"
                problems.append(f"seed {seed} {verdict}{first}")
        if sweep.returncode != EXIT_PASSED:
            problems.append(f"the suite exited {sweep.returncode}, expected 0")
    # Judged as a mutant that may fail anywhere, the correct backend must escape
    # on every seed: a runner that "caught" it would catch anything.
    as_mutant = judge({"id": "cpu", "ops": []}, sweep, seeds)
    if sweep.report is not None and as_mutant.caught:
        problems.append(f"judged as a mutant, the cpu backend was 'caught' on "
                        f"{as_mutant.caught} seeds")
    if problems:
        print(f"control cpu: FAILED: {'; '.join(problems)} (log: {sweep.log_path})")
        return EXIT_FAILED
    print(f"control cpu: the suite passed the correct cpu backend on {len(seeds)}/{len(seeds)} "
          f"seeds under every mutant's filter; judged as a mutant it escapes on all of them")
    return EXIT_PASSED


def main(argv):
    args = parse_args(argv)
    try:
        manifest = load_manifest(args.manifest)
        unsupported = sweep_support(args.suite)
        if unsupported:
            print(f"SKIPPED: {unsupported}")
            return EXIT_SKIPPED
        return run_control(args, manifest) if args.control else run_mutants(args, manifest)
    except UsageError as e:
        print(f"run_mutants: {e}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
