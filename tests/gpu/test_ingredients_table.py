#!/usr/bin/env python3
"""Unit tests of the ingredients parts' variants (ingredients_table.py) and
the search part's parsing (search_part.py) that need no GPU: the commands
each variant runs, the groups that make the suite's parts, the record made
from a pipeline's report, and what `cae svm --search` prints."""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_suite  # noqa: E402
import ingredients_table  # noqa: E402
import perf_tables  # noqa: E402
import search_part  # noqa: E402


class VariantsTest(unittest.TestCase):
    def test_groups_are_the_renderers_parts_and_names_are_distinct(self):
        self.assertEqual(ingredients_table.PARTS, perf_tables.INGREDIENT_PARTS)
        for name in ingredients_table.PARTS:
            self.assertIn(name, perf_tables.PARTS)
        names = [name for group in ingredients_table.GROUPS for name, _ in group]
        self.assertEqual(len(names), len(set(names)))

    def test_the_readmes_best_recipe_is_one_of_the_variants(self):
        best = " ".join(["cae", "pipeline"] + bench_suite.BEST_RECIPE)
        commands = [" ".join(["cae", "pipeline"] + ingredients_table.pipeline_options(options))
                    for group in ingredients_table.GROUPS for _, options in group]
        self.assertIn(best, commands)
        self.assertTrue(all(c.endswith(" --search") for c in commands))

    def test_the_best_recipe_is_what_cae_pipeline_adds_by_default(self):
        # `cae help pipeline`, as docs/cli.md holds it (the docs.cli test keeps
        # the two equal), says which options --defaults best adds.
        with open(os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "cli.md")) as f:
            # The help breaks a long recipe after a '+'.
            text = " ".join(f.read().split()).replace("+ ", "+")
        added = text.split("the validation winner: ", 1)[1].split(";", 1)[0].split()

        def options(tokens):
            pairs, i = set(), 0
            while i < len(tokens):
                value = tokens[i + 1] if i + 1 < len(tokens) and not tokens[i + 1].startswith("--") else None
                pairs.add((tokens[i], value))
                i += 2 if value is not None else 1
            return pairs

        self.assertEqual(options(added), options(bench_suite.BEST_RECIPE))

    def test_each_group_fits_one_command_at_the_measured_pipeline_times(self):
        # A pipeline takes 60-65 s on one H100, the wide preset about 80 s:
        # a group must leave a margin under the suite's 570 s budget.
        for group in ingredients_table.GROUPS:
            seconds = sum(85 if "wide" in options else 70 for _, options in group)
            self.assertLess(seconds, 450, group)

    def test_record_from_a_report(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "report.json"), "w") as f:
                json.dump({"accuracy": 0.7457, "backend": "v4", "device": "H100",
                           "settings": [["validation accuracy", "75.84%"], ["svm C", "5.000000"],
                                        ["svm gamma", "0.000125"], ["svm search s", "12.500"]]}, f)
            step = bench_suite.Step(0, 61.0, 5 << 30, False, 300, "")
            r = ingredients_table.variant_record("c", ["--contrast-normalize"], step, d)
        self.assertEqual(r["readme_command"],
                         "cae pipeline --defaults baseline --features pyramid-flip --augment flip --contrast-normalize --search")
        self.assertEqual((r["status"], r["validation_accuracy"], r["test_accuracy"]), ("measured", 75.84, 74.57))
        self.assertEqual(r["svm"]["svm search s"], "12.500")
        # A variant's --features takes the place of the base's.
        self.assertEqual(" ".join(ingredients_table.pipeline_options(["--features", "pyramid-tri-flip",
                                                                      "--contrast-normalize"])),
                         "--defaults baseline --features pyramid-tri-flip --augment flip --contrast-normalize --search")
        # So does its --augment: one --augment in the command.
        self.assertEqual(" ".join(ingredients_table.pipeline_options(["--contrast-normalize", "--augment",
                                                                      "flip-crop"])),
                         "--defaults baseline --features pyramid-flip --augment flip-crop --contrast-normalize --search")
        # A variant without contrast normalisation starts from --defaults
        # baseline, or the best recipe's defaults would add it back.
        self.assertEqual(" ".join(ingredients_table.pipeline_options([])),
                         "--defaults baseline --features pyramid-flip --augment flip --search")
        # Every part of the best recipe given: the command means itself.
        self.assertEqual(ingredients_table.as_written(["--features", "latent", "--augment", "none",
                                                       "--contrast-normalize", "--epochs", "20", "--C", "5"]),
                         ["--features", "latent", "--augment", "none", "--contrast-normalize", "--epochs", "20",
                          "--C", "5"])
        # Without --epochs the best recipe would train 60: the command that ran
        # the training recipe's 20 starts from --defaults baseline.
        self.assertEqual(ingredients_table.as_written(["--features", "latent", "--augment", "none",
                                                       "--contrast-normalize", "--C", "5"])[:2],
                         ["--defaults", "baseline"])
        self.assertNotIn("classifier_s", r)  # a report without a stage table
        failed = ingredients_table.variant_record("c", [], bench_suite.Step(1, 1.0, 0, False, 300, "boom\n"), d)
        self.assertEqual((failed["status"], failed["reason"]), ("failed", "exit 1: boom"))


    def test_record_takes_the_classifiers_stage_from_the_reports_table(self):
        for stage in ("svm train", "linear train"):
            with tempfile.TemporaryDirectory() as d:
                with open(os.path.join(d, "report.json"), "w") as f:
                    json.dump({"accuracy": 0.75, "settings": [["linear C", "0.010000"]],
                               "stage_timings": [["train", 40.0], [stage, 6.25], ["report", 0.2]]}, f)
                step = bench_suite.Step(0, 61.0, 5 << 30, False, 300, "")
                r = ingredients_table.variant_record("c", ["--contrast-normalize"], step, d)
            self.assertEqual(r["classifier_s"], 6.25, stage)


class SearchPartTest(unittest.TestCase):
    def test_split_recipe_into_training_and_extraction(self):
        train, extract = search_part.split_recipe(bench_suite.BEST_RECIPE)
        self.assertEqual(train, ["--augment", "flip", "--contrast-normalize", "--epochs", "60"])
        self.assertEqual(extract, ["--features", "conv1:tri:sum4+conv2:tri:sum4+conv2:tri:sum2+latent:tri:max4+latent:tri:max2"
                                              "+flip+sqrt"])
        self.assertEqual(search_part.split_recipe(["--feature-threshold", "0.25", "--whiten", "zca"]),
                         (["--whiten", "zca"], ["--feature-threshold", "0.25"]))

    def test_implied_defaults_from_a_pipeline_log(self):
        log = ("backend v4\ndefaults: best recipe: --features latent --epochs 60 --search "
               "(--defaults baseline for the seed's settings)\nepoch 1/60\n")
        self.assertEqual(bench_suite.implied_defaults(log), "--features latent --epochs 60 --search")
        self.assertIsNone(bench_suite.implied_defaults("backend v4\nepoch 1/20\n"))
        self.assertIsNone(bench_suite.implied_defaults(None))

    def test_parse_svm_output(self):
        text = ("backend v4 on NVIDIA H100 80GB HBM3 (bf16)\n"
                "validation: 5000 of 50000 training rows held out (seed 1); the SVM trains on the other 45000\n"
                "search: 15 candidates in 12.34 s (warm-started)\n"
                "search: chose C 5, gamma 0.000125 (validation 75.84%)\n"
                "prediction: 10000 test rows in 1.20 s\n")
        self.assertEqual(search_part.parse_svm_output(text), {
            "backend": "v4", "device": "NVIDIA H100 80GB HBM3", "validation_rows": 5000, "train_rows": 50000,
            "candidates": 15, "search_s": 12.34, "kind": "warm-started", "C": "5", "gamma": "0.000125",
            "validation_accuracy": 75.84, "test_rows": 10000, "prediction_s": 1.2})
        self.assertEqual(search_part.parse_svm_output("nothing\n"), {})

    def test_parse_linear_output(self):
        text = ("backend v4 on NVIDIA H200 (bf16)\n"
                "validation: 5000 of 50000 training rows held out (seed 1); the classifier trains on the other 45000\n"
                "search: 7 values of C in ascending order, each starting from the last one's weights\n"
                "  C 0.1      validation 71.20%  (18 iterations)\n"
                "  C 0.5      validation 74.10%  (23 iterations)\n"
                "search: chose C 0.5\n"
                "linear: C 0.5, 41 L-BFGS iterations (converged), training cross-entropy 0.6120, 3.4 s\n"
                "validation accuracy: 74.10% (5000 rows)\n"
                "test accuracy: 73.50% (7350/10000)\n")
        self.assertEqual(search_part.parse_svm_output(text), {
            "backend": "v4", "device": "NVIDIA H200", "validation_rows": 5000, "train_rows": 50000,
            "candidates": 7, "kind": "linear", "Cs": ["0.1", "0.5"], "C": "0.5",
            "validation_accuracy": 74.1, "iterations": 41, "linear_s": 3.4})

    def test_npy_shape(self):
        with tempfile.NamedTemporaryFile("wb", suffix=".npy", delete=False) as f:
            f.write(b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (50000, 8192), }")
        try:
            self.assertEqual(search_part.npy_shape(f.name), (50000, 8192))
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
