#!/usr/bin/env python3
"""The judgement of run_mutants.py on canned sweep reports, and its exit
status against a fake suite: a runner that let a passing or skipped seed, or
the wrong op, count as "caught" would make conformance.mutants worthless."""
import contextlib
import io
import json
import os
import stat
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_mutants  # noqa: E402

RELU = {"id": "relu-ge", "ops": ["relu_backward"], "filter": "relu_backward"}
PROBE = {"id": "probe-error", "ops": ["backend"], "check": "probe", "verdict": "failed",
         "filter": "backend"}
OVERRUN = {"id": "download-overrun", "ops": [], "detail": "guard|past the end",
           "filter": "relu_forward"}
CRASH = {"id": "crash", "ops": ["conv2d_backward"], "verdict": "crashed",
         "filter": "conv2d_backward"}


def failure(op, check="y[3,5]", detail="err 1.0e-01 > 1.0e-04"):
    return {"op": op, "check": check, "detail": detail}


def seed(number, verdict, failures=(), crash=None):
    return {"seed": number, "verdict": verdict, "failures": list(failures), "crash": crash}


def sweep(entries, returncode=1):
    return run_mutants.Sweep(returncode, {"backend": "mutant-x", "seeds": entries}, "log")


class JudgeTest(unittest.TestCase):
    def test_failed_naming_the_op_is_caught(self):
        j = run_mutants.judge(RELU, sweep([seed(1, "failed", [failure("relu_backward")]),
                                           seed(2, "failed", [failure("relu_backward")])]), [1, 2])
        self.assertTrue(j.every_seed_caught)
        self.assertEqual(j.ops, {"relu_backward"})

    def test_passed_and_skipped_seeds_escape(self):
        j = run_mutants.judge(RELU, sweep([seed(1, "passed"), seed(2, "skipped"),
                                           seed(3, "failed", [failure("relu_backward")])]),
                              [1, 2, 3])
        self.assertFalse(j.every_seed_caught)
        self.assertEqual(j.caught, 1)
        self.assertEqual([s for s, _ in j.escapes], [1, 2])

    def test_a_failure_of_another_op_escapes(self):
        j = run_mutants.judge(RELU, sweep([seed(1, "failed", [failure("relu_forward")])]), [1])
        self.assertFalse(j.every_seed_caught)
        self.assertIn("no failure names relu_backward", j.escapes[0][1])

    def test_a_missing_seed_escapes(self):
        j = run_mutants.judge(RELU, sweep([seed(1, "failed", [failure("relu_backward")])]), [1, 2])
        self.assertEqual(j.escapes, [(2, "no verdict in the report")])

    def test_exit_status_must_say_failed(self):
        j = run_mutants.judge(RELU, sweep([seed(1, "failed", [failure("relu_backward")])], 0), [1])
        self.assertFalse(j.every_seed_caught)
        self.assertEqual(j.escapes, [(None, "the suite exited 0, expected 1")])

    def test_no_report_escapes(self):
        j = run_mutants.judge(RELU, run_mutants.Sweep(134, None, "log", "no JSON report"), [1])
        self.assertFalse(j.every_seed_caught)

    def test_check_substring(self):
        right = seed(1, "failed", [failure("backend", "probe", "returned INTERNAL")])
        wrong = seed(2, "failed", [failure("backend", "table")])
        j = run_mutants.judge(PROBE, sweep([right, wrong]), [1, 2])
        self.assertEqual(j.caught, 1)
        self.assertEqual(j.escapes[0][0], 2)

    def test_probe_error_must_not_be_skipped_or_crash(self):
        crashed = seed(1, "crashed", [], {"signal": "SIGSEGV", "op": "backend", "check": "probe"})
        j = run_mutants.judge(PROBE, sweep([crashed, seed(2, "skipped")]), [1, 2])
        self.assertEqual(j.caught, 0)

    def test_detail_pattern_with_any_op(self):
        guard = failure("relu_forward", "download guard zone", "wrote 4 bytes past the end")
        plain = failure("relu_forward")
        j = run_mutants.judge(OVERRUN, sweep([seed(1, "failed", [plain, guard]),
                                              seed(2, "failed", [plain])]), [1, 2])
        self.assertEqual(j.caught, 1)
        self.assertEqual(j.ops, {"relu_forward"})

    def test_crash_names_the_op(self):
        crashed = seed(1, "crashed", [], {"signal": "SIGSEGV", "op": "conv2d_backward",
                                          "check": "x[65,3,5,5]"})
        elsewhere = seed(2, "crashed", [], {"signal": "SIGSEGV", "op": "memory", "check": ""})
        failed = seed(3, "failed", [failure("conv2d_backward")])
        j = run_mutants.judge(CRASH, sweep([crashed, elsewhere, failed]), [1, 2, 3])
        self.assertEqual(j.caught, 1)
        self.assertEqual([s for s, _ in j.escapes], [2, 3])

    def test_a_crash_counts_for_a_mutant_that_allows_it(self):
        crashed = seed(1, "crashed", [], {"signal": "SIGABRT", "op": "relu_backward", "check": ""})
        self.assertTrue(run_mutants.judge(RELU, sweep([crashed]), [1]).every_seed_caught)

    def test_escapes_are_grouped_by_reason(self):
        text = run_mutants.describe_escapes([(3, "passed"), (7, "passed"), (8, "passed"),
                                             (9, "passed"), (12, "skipped"),
                                             (None, "the suite exited 0, expected 1")])
        self.assertEqual(text, "seeds 3, 7-9 (passed); seed 12 (skipped); "
                               "the suite exited 0, expected 1")

    def test_union_filter(self):
        self.assertEqual(run_mutants.union_filter([RELU, {"filter": "conv2d,relu_backward"}]),
                         "relu_backward,conv2d")


FAKE_SUITE = """\
#!{python}
# A stand-in for cae-conformance: writes a sweep report where every seed has
# the verdict {verdict!r}, failing relu_backward when it fails.
import json, sys
args = sys.argv[1:]
if "--help" in args:
    print({help!r})
    sys.exit(0)
first, count = int(args[args.index("--seed") + 1]), int(args[args.index("--sweep") + 1])
failures = [{{"op": "relu_backward", "check": "y[3]", "detail": "1 > 0"}}]
seeds = [{{"seed": s, "verdict": {verdict!r}, "crash": None,
          "failures": failures if {verdict!r} == "failed" else []}}
         for s in range(first, first + count)]
with open(args[args.index("--json") + 1], "w") as f:
    json.dump({{"backend": "x", "seeds": seeds}}, f)
sys.exit(0 if {verdict!r} == "passed" else 1)
"""


class MainTest(unittest.TestCase):
    """run_mutants.main end to end, with a fake suite in a temporary folder."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.library = os.path.join(self.dir.name, "libmutant.so")
        open(self.library, "w").close()
        self.manifest = os.path.join(self.dir.name, "mutants.json")
        with open(self.manifest, "w") as f:
            json.dump({"control": self.library,
                       "mutants": [dict(RELU, library=self.library)]}, f)

    def tearDown(self):
        self.dir.cleanup()

    def main(self, verdict, help_text="--sweep N --json FILE", extra=()):
        suite = os.path.join(self.dir.name, "fake-suite")
        with open(suite, "w") as f:
            f.write(FAKE_SUITE.format(python=sys.executable, verdict=verdict, help=help_text))
        os.chmod(suite, os.stat(suite).st_mode | stat.S_IXUSR)
        argv = ["--suite", suite, "--manifest", self.manifest, "--seeds", "3",
                "--work-dir", os.path.join(self.dir.name, "runs")] + list(extra)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            status = run_mutants.main(argv)
        return status, out.getvalue()

    def test_caught_mutants_pass(self):
        status, out = self.main("failed")
        self.assertEqual(status, 0, out)
        self.assertIn("caught on 3/3 seeds by relu_backward checks", out)

    def test_a_passing_mutant_fails_the_runner(self):
        status, out = self.main("passed")
        self.assertEqual(status, 1, out)
        self.assertIn("ESCAPED on seeds 1-3 (passed, expected failed or crashed)", out)

    def test_control_needs_every_seed_passed(self):
        self.assertEqual(self.main("passed", extra=["--control"])[0], 0)
        status, out = self.main("failed", extra=["--control"])
        self.assertEqual(status, 1, out)
        self.assertIn("seed 1 failed: relu_backward", out)

    def test_a_suite_without_sweep_is_a_skip(self):
        status, out = self.main("failed", help_text="--seed S only")
        self.assertEqual(status, 77)
        self.assertTrue(out.startswith("SKIPPED: "), out)


if __name__ == "__main__":
    unittest.main()
