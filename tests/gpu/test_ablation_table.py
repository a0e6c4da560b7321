#!/usr/bin/env python3
"""Unit tests of the ablation part (ablation_table.py) and its table
(perf_tables.render_ablation) that need no GPU: the commands it runs from the
best recipe, the record made from a pipeline's report, and the rendered
differences and seed spread."""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ablation_table  # noqa: E402
import bench_suite  # noqa: E402
import perf_tables  # noqa: E402

BEST = ["--features", "conv1:tri:sum4+conv2:tri:sum4+conv2:tri:sum2+latent:tri:max4+latent:tri:max2+flip+sqrt", "--augment", "flip", "--contrast-normalize", "--epochs", "60", "--search"]


class RunsTest(unittest.TestCase):
    def test_each_change_applied_to_the_best_recipe(self):
        commands = {name: " ".join(options) for name, _, options, _ in ablation_table.runs(BEST)}
        self.assertEqual(commands["winner"], " ".join(BEST))
        self.assertEqual(commands["no-triangle"], "--features conv1:id:sum4+conv2:id:sum4+conv2:id:sum2+latent:id:max4+latent:id:max2+flip+sqrt "
                         "--augment flip --contrast-normalize --epochs 60 --search")
        self.assertEqual(commands["max-pooled"], "--features conv1:tri:max4+conv2:tri:max4+conv2:tri:max2+latent:tri:max4+latent:tri:max2+flip+sqrt "
                         "--augment flip --contrast-normalize --epochs 60 --search")
        self.assertTrue(commands["no-flip-average"].startswith(
            "--features conv1:tri:sum4+conv2:tri:sum4+conv2:tri:sum2+latent:tri:max4+latent:tri:max2+sqrt --augment flip "))
        # Leaving out an option the best recipe would fill in needs --defaults
        # baseline: the command means exactly what it says.
        self.assertEqual(commands["no-flip-training"],
                         "--defaults baseline --features conv1:tri:sum4+conv2:tri:sum4+conv2:tri:sum2+latent:tri:max4+latent:tri:max2+flip+sqrt --contrast-normalize --epochs 60 --search")
        self.assertEqual(commands["no-contrast"],
                         "--defaults baseline --features conv1:tri:sum4+conv2:tri:sum4+conv2:tri:sum2+latent:tri:max4+latent:tri:max2+flip+sqrt --augment flip --epochs 60 --search")
        self.assertEqual(commands["no-search"],
                         "--defaults baseline --features conv1:tri:sum4+conv2:tri:sum4+conv2:tri:sum2+latent:tri:max4+latent:tri:max2+flip+sqrt --augment flip --contrast-normalize --epochs 60")
        self.assertEqual(commands["plus-threshold"], "--features conv1:tri:sum4+conv2:tri:sum4+conv2:tri:sum2+latent:tri:max4+latent:tri:max2+flip+sqrt --augment flip "
                         "--contrast-normalize --epochs 60 --feature-threshold 0.25 --search")
        self.assertEqual(commands["no-sqrt"], "--features conv1:tri:sum4+conv2:tri:sum4+conv2:tri:sum2+latent:tri:max4+latent:tri:max2+flip --augment flip "
                         "--contrast-normalize --epochs 60 --search")
        self.assertEqual(commands["one-scale"], "--features conv1:tri:sum4+conv2:tri:sum4+latent:tri:max4+flip+sqrt "
                         "--augment flip --contrast-normalize --epochs 60 --search")
        self.assertEqual(commands["epochs-20"], " ".join(BEST).replace("--epochs 60", "--epochs 20"))
        # A recipe that leaves its epochs to the default gets them written out.
        self.assertEqual(" ".join(ablation_table.variant_options([o for o in BEST if o not in ("--epochs", "60")],
                                                                 ("set", "--epochs", "20"))),
                         " ".join(BEST).replace("--epochs 60", "--epochs 20"))
        self.assertEqual(commands["winner-seed-3"], " ".join(BEST) + " --seed 3")
        # A recipe with nothing a variant changes is refused, not run twice.
        with self.assertRaisesRegex(ValueError, "nothing this variant changes"):
            ablation_table.runs(["--features", "conv1:tri:sum4+latent:tri:max4+flip+sqrt", "--search"])
        # Every run differs from the winner, and the names are distinct.
        self.assertEqual(len(set(commands.values())), len(commands))
        # The suite runs it on its own best recipe, and it is a suite part.
        self.assertIn("ablation", perf_tables.PARTS)
        self.assertIn("ablation", bench_suite.NOT_QUICK_PARTS)
        self.assertEqual(len(ablation_table.runs(bench_suite.BEST_RECIPE)), len(ablation_table.runs(BEST)))

    def test_record_from_a_report_and_a_failed_run(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "report.json"), "w") as f:
                json.dump({"accuracy": 0.7522, "backend": "v4", "device": "H200",
                           "settings": [["validation accuracy", "77.02%"], ["svm C", "5.000000"],
                                        ["svm gamma", "0.000062"]]}, f)
            step = bench_suite.Step(0, 29.5, 5 << 30, False, 300, "")
            r = ablation_table.run_record("winner", "the best recipe", BEST, 1, step, d)
            failed = ablation_table.run_record("no-search", "x", BEST[:-1], 1,
                                               bench_suite.Step(1, 1.0, 0, False, 300, "boom\n"), d)
        self.assertEqual((r["status"], r["validation_accuracy"], r["test_accuracy"], r["seed"]),
                         ("measured", 77.02, 75.22, 1))
        self.assertEqual(r["readme_command"], "cae pipeline " + " ".join(BEST))
        self.assertEqual((failed["status"], failed["reason"]), ("failed", "exit 1: boom"))


def ablation_results(runs):
    results = perf_tables.empty_results()
    results["parts"]["ablation"] = {"status": "measured", "mode": "full", "data": "CIFAR-10 (JPEG q75 copy)",
                                    "date": "the date", "added_options": "",
                                    "machine": {"gpu": "NVIDIA H200", "driver": "580", "commit": "abc"},
                                    "runs": runs}
    return results


def run(name, validation, test, seed=1, status="measured"):
    record = {"variant": name, "change": f"change {name}", "seed": seed, "status": status,
              "readme_command": f"cae pipeline {name}"}
    if status == "measured":
        record.update(wall_s=30.0, peak_rss_bytes=5 * 2**30, validation_accuracy=validation,
                      test_accuracy=test, svm={"svm C": "5.000000", "svm gamma": "0.000062"})
    else:
        record["reason"] = "timed out"
    return record


class RenderTest(unittest.TestCase):
    def test_differences_from_the_winner_and_the_seed_spread(self):
        text = perf_tables.render_ablation(ablation_results([
            run("winner", 77.0, 75.0), run("no-triangle", 75.5, 74.0), run("no-sqrt", 77.25, 70.0),
            run("no-search", None, None, status="failed"),
            run("winner-seed-2", 76.8, 76.0, seed=2), run("winner-seed-3", 77.1, 74.0, seed=3)]))
        # Written as today's `cae pipeline` reads them (ingredients_table.as_written).
        self.assertIn("| `cae pipeline --defaults baseline no-triangle` | change no-triangle | 75.50% | -1.50 |", text)
        self.assertIn("| 77.25% | +0.25 |", text)
        self.assertIn("not measured: timed out", text)
        # Only the winner's seeds read the test set: 75, 76, 74 -> mean 75, sd 1.
        self.assertIn("75.00% (seed 1), 76.00% (seed 2), 74.00% (seed 3); mean 75.00%, "
                      "standard deviation 1.00 points", text)
        self.assertNotIn("70.00%", text)
        self.assertNotIn("winner-seed", text.split("\n\n")[0])
        self.assertIn("Measured on NVIDIA H200 (driver 580) at commit abc", text)

    def test_says_when_the_validation_winner_moved_on(self):
        winner = "cae pipeline " + " ".join(BEST)
        other = winner.replace(BEST[1], "pyramid-tri-flip")
        results = ablation_results([dict(run("winner", 77.0, 75.0), readme_command=winner, wall_s=16.0),
                                    run("winner-seed-2", 76.8, 76.0, seed=2)])

        def ingredient(command, validation, wall):
            return {"status": "measured", "readme_command": command, "validation_accuracy": validation,
                    "test_accuracy": 70.0, "wall_s": wall, "peak_rss_bytes": 2**30, "svm": {}}
        results["parts"]["ingredients-4"] = {
            "status": "measured", "mode": "full", "data": "d", "date": "the date",
            "machine": {"gpu": "NVIDIA H200", "driver": "580", "commit": "abc"},
            "runs": [ingredient(winner, 77.0, 16.0), ingredient(other, 77.1, 15.0)]}
        # Within the seeds' spread, "other" is faster: the ablation took apart the old winner.
        self.assertIn(f"This ablation takes apart `{winner}`, the validation winner when the "
                      f"part ran; the validation table's winner is now `{other}`",
                      perf_tables.render_ablation(results))
        results["parts"]["ingredients-4"]["runs"][1]["wall_s"] = 17.0
        self.assertNotIn("This ablation takes apart", perf_tables.render_ablation(results))

    def test_not_measured(self):
        self.assertIn("Not measured yet", perf_tables.render_ablation(perf_tables.empty_results()))


if __name__ == "__main__":
    unittest.main()
