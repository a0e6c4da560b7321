#!/usr/bin/env python3
"""Unit tests of the ingredients table (ingredients_table.py) that need no
GPU: the winner is chosen on validation accuracy, only its test accuracy is
shown, runs that did not finish are listed with their reason, and the
command line refuses unknown variants."""
import contextlib
import io
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ingredients_table  # noqa: E402


def measured(name, validation, test):
    return {"variant": name, "options": "--x " + name, "status": "measured", "mode": "full",
            "validation_accuracy": validation, "test_accuracy": test, "wall_s": 50.0,
            "peak_rss_gib": 4.5, "device": "H100", "backend": "v4"}


class TableTest(unittest.TestCase):
    def test_winner_by_validation_and_only_its_test_accuracy(self):
        # "b" has the best test accuracy but not the best validation accuracy.
        records = [measured("a", 76.0, 75.0), measured("b", 75.5, 77.0),
                   {"variant": "c", "options": "--y", "status": "failed", "reason": "exit 1: boom"}]
        doc, markdown = ingredients_table.table(records)
        self.assertEqual(doc["winner"], "a")
        self.assertEqual(doc["winner_test_accuracy"], 75.0)
        tests = {row["variant"]: row["test_accuracy"] for row in doc["rows"]}
        self.assertEqual(tests, {"a": 75.0, "b": None, "c": None})
        self.assertIn("| a | `--x a` | 76.00% | 75.00% |", markdown)
        self.assertIn("| b | `--x b` | 75.50% |  |", markdown)
        self.assertNotIn("77.00", markdown)
        self.assertIn("| c | `--y` | failed: exit 1: boom |", markdown)

    def test_no_measured_run_has_no_winner(self):
        doc, _ = ingredients_table.table([{"variant": "x", "options": "", "status": "not run",
                                           "reason": "no time left"}])
        self.assertIsNone(doc["winner"])

    def test_command_line(self):
        args = ingredients_table.parse_args(["B", "--out", "O", "--variants", "base,zca",
                                             "--variant", "mine=--whiten pca:0.5"])
        self.assertEqual([name for name, _ in args.chosen], ["base", "zca", "mine"])
        self.assertEqual(dict(args.chosen)["mine"], ["--whiten", "pca:0.5"])
        for bad in (["--variants", "nope"], ["--variant", "noequals"]):
            with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                ingredients_table.parse_args(["B", "--out", "O"] + bad)


class TableOnlyTest(unittest.TestCase):
    def test_table_from_raw_records_without_a_build(self):
        import json
        import tempfile
        with tempfile.TemporaryDirectory() as out:
            os.makedirs(os.path.join(out, "raw"))
            for record in (measured("a", 70.0, 69.0), measured("b", 72.0, 71.5)):
                with open(os.path.join(out, "raw", record["variant"] + ".json"), "w") as f:
                    json.dump(record, f)
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(ingredients_table.main(["no-build", "--out", out, "--table-only"]), 0)
            with open(os.path.join(out, "ingredients.json")) as f:
                doc = json.load(f)
            self.assertEqual(doc["winner"], "b")
            self.assertEqual(doc["winner_test_accuracy"], 71.5)


if __name__ == "__main__":
    unittest.main()
