#!/usr/bin/env python3
"""Unit tests of the benchmark suite's renderer (perf_tables.py) on
fixtures/perf-results-sample.json, and of the suite's own parsing and
process handling (bench_suite.py) that need neither a GPU nor PyTorch."""
import contextlib
import copy
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_suite  # noqa: E402
import perf_tables  # noqa: E402

FIXTURE = os.path.join(HERE, "fixtures", "perf-results-sample.json")


def sample():
    with open(FIXTURE) as f:
        return json.load(f)


def rows_of(markdown, first_cell):
    """The cells of the table rows whose first cell is first_cell."""
    found = []
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_cell:
            found.append(cells)
    return found


class RenderTest(unittest.TestCase):
    def test_empty_results_say_not_measured_in_every_block(self):
        blocks = perf_tables.render_all(perf_tables.empty_results())
        chapters = [f"chapter-{b}" for b, _ in perf_tables.CHAPTERS]
        self.assertEqual(set(blocks), set(perf_tables.PERF_BLOCKS + perf_tables.README_BLOCKS + chapters))
        for name, text in blocks.items():
            self.assertIn("Not measured yet", text, name)
            self.assertNotIn("|", text, name)  # no table without figures

    def test_chapter_sets_a_backend_beside_the_one_before(self):
        text = perf_tables.render_chapter(sample(), "v4", "cpu")
        p = sample()["parts"]["epoch-64"]
        cpu, v4 = (next(r for r in p["cae"] if r["backend"] == b) for b in ("cpu", "v4"))
        epoch = rows_of(text, "s per epoch, batch 64")[0]
        self.assertEqual(epoch[1:], [perf_tables.fmt_s(perf_tables.per_epoch(cpu)),
                                     perf_tables.fmt_s(perf_tables.per_epoch(v4)),
                                     perf_tables.fmt_ratio(perf_tables.per_epoch(cpu) / perf_tables.per_epoch(v4))])
        step = rows_of(text, "step (the ops' sum)")[0]
        self.assertEqual(step[1], f"{sum(op['ms'] for op in cpu['ops']):.3f}")
        self.assertIn("cpu at batch 64 extrapolated from", text)
        self.assertIn("Measured on", text)
        # A backend that was not measured, and one without a chapter before it.
        self.assertIn("Not measured yet for winograd", perf_tables.render_chapter(sample(), "winograd", "v2"))
        self.assertNotIn("speed-up", perf_tables.render_chapter(sample(), "cpu"))

    def test_epoch_ratios_divide_by_each_torch_configuration(self):
        text = perf_tables.render_epoch(sample())
        batch64 = text.split("### Batch 256")[0]
        self.assertEqual(rows_of(batch64, "v4"), [["v4", "bf16", "0.500", "100,000", "0.50x", "2.00x"]])
        # max-autotune timed out: a row that says so, and no ratio column for it
        self.assertIn("| PyTorch max-autotune bf16 |  | not measured: timed out after 270 s |", batch64)
        self.assertNotIn("÷ max-autotune", batch64)

    def test_cpu_is_scaled_to_an_epoch_and_labelled_extrapolated(self):
        text = perf_tables.render_epoch(sample())
        # 2.56 s for 128 images -> 1,000 s for 50,000
        self.assertEqual(rows_of(text, "cpu¹")[0][:4], ["cpu¹", "fp32", "1000", "50"])
        self.assertIn("¹ extrapolated from 128 images", text)

    def test_backends_not_measured_give_their_reason(self):
        text = perf_tables.render_epoch(sample())
        self.assertIn("not measured: timed out after 300 s", rows_of(text, "naive")[0])
        self.assertIn("not measured: unavailable: no driver", rows_of(text, "winograd")[0])
        self.assertIn("Not measured yet", text.split("### Batch 256")[1])

    def test_extraction_scaled_to_60000_images(self):
        text = perf_tables.render_extract(sample())
        self.assertEqual(rows_of(text, "v4"), [["v4", "0.250", "240,000", "4", "pinned"]])
        self.assertEqual(rows_of(text, "cpu¹")[0][1], "150")  # 1.28 s for 512 images

    def test_pipeline_and_svm_tables(self):
        results = sample()
        pipeline = perf_tables.render_pipeline(results)
        self.assertEqual(rows_of(pipeline, "`cae pipeline`"),
                         [["`cae pipeline`", "v4", "0.000", "10.0", "2.00", "9.00", "0.000", "22.8", "-",
                           "5.32", "68.63%", "68.10%"]])
        # A run whose stage table has the start-up row says what it accounts for.
        run = [r for r in results["parts"]["pipeline"]["runs"] if r.get("status") == "measured"][0]
        run["stages"].update({"start-up": 0.5, "write outputs": 1.0, "other": 0.1})
        share = f"{100 * sum(run['stages'].values()) / run['wall_s']:.1f}%"
        self.assertEqual(rows_of(perf_tables.render_pipeline(results), "`cae pipeline`")[0][6:9],
                         ["1.00", "22.8", share])
        self.assertIn("not measured: exit 1: out of memory", pipeline)
        svm = perf_tables.render_svm(results)
        self.assertEqual(rows_of(svm, "`cae pipeline`")[0][1:5],
                         ["7.50", "1.50", "C 5, gamma 0.000123: the options given", "45,000 + 5,000"])
        self.assertIn("Data: CIFAR-10 (test copy).", pipeline)

    def test_readme_command_run_again(self):
        # The README's command timed twice: from a fresh install, certifying
        # on first use, then again; both rows and both sentences tell them apart.
        results = sample()
        runs = results["parts"]["pipeline"]["runs"]
        first = next(r for r in runs if r.get("status") == "measured")
        first["certified_on_first_use"] = {"backend": "v4", "seconds": 13.4, "verdict": "passed"}
        again = dict(copy.deepcopy(first), name="best-again", wall_s=11.0,
                     certified_on_first_use=None)
        runs.insert(runs.index(first) + 1, again)
        pipeline = perf_tables.render_pipeline(results)
        self.assertEqual([row[7] for row in rows_of(pipeline, "`cae pipeline`")], ["22.8"])
        self.assertEqual([row[7] for row in rows_of(pipeline, "`cae pipeline`, run again (certified)")],
                         ["11.0"])
        expect = perf_tables.render_expect(results)
        self.assertIn("`cae pipeline` takes 22.8 s (from a fresh install, 13.4 s of it certifying v4 on "
                      "its first use and 7.50 s training the SVM)", expect)
        self.assertIn("run again, its backend certified, it takes 11.0 s (7.50 s training the SVM)", expect)

    def test_quick_mode_is_stated(self):
        results = sample()
        results["parts"]["pipeline"].update(mode="quick", added_options="--samples 10000")
        self.assertIn("quick mode", perf_tables.render_pipeline(results))
        self.assertIn("`--samples 10000` added", perf_tables.render_pipeline(results))
        self.assertIn("`--samples 10000` added", perf_tables.render_expect(results))

    def test_conformance_worst_ratio_per_op_and_backend(self):
        text = perf_tables.render_conformance(sample())
        self.assertEqual(rows_of(text, "`conv2d_forward`"), [["`conv2d_forward`", "3.1e-01", "9.3e-02"]])
        self.assertEqual(rows_of(text, "`relu_forward`"), [["`relu_forward`", "0.0e+00", "-"]])
        self.assertEqual(rows_of(text, "seeds passed"), [["seeds passed", "30 of 30", "29 of 30"]])
        self.assertIn("naive (unavailable: no driver)", text)

    def test_partial_sweep_counts_its_finished_seeds(self):
        results = sample()
        backends = results["parts"]["conformance"]["backends"]
        swept = next(b for b in backends if b.get("status") == "measured")
        swept.update(status="partial", seeds_run=12, passed=12, seconds=150.0,
                     reason="12 of 30 seeds in 150 s")
        text = perf_tables.render_conformance(results)
        self.assertIn("12 of 12", rows_of(text, "seeds passed")[0])
        self.assertIn("Stopped at the time limit: " + swept["backend"] + " (12 of 30 seeds in 150 s)", text)
        # The worst values then come from the checks run, not from every seed of the sweep.
        self.assertIn("over the checks each sweep ran from seed 1 on (at most", text)
        self.assertNotIn("over seeds 1..", text)

    def test_a_whole_sweep_names_its_seeds(self):
        self.assertIn("Worst err/bound per op over seeds 1..", perf_tables.render_conformance(sample()))

    def test_seeds_stopped_at_the_limit_count_as_not_run(self):
        stopped = {"seed": 3, "verdict": "failed",
                   "failures": [{"op": "conv2d_forward", "check": "x", "detail": "interrupted by SIGTERM after 2 s"}]}
        real = {"seed": 2, "verdict": "failed",
                "failures": [{"op": "conv2d_forward", "check": "x", "detail": "worst err/bound 3"}]}
        # A child the stop's SIGTERM ended before it wrote a verdict is stopped
        # too; one killed by another signal crashed.
        terminated = {"seed": 4, "verdict": "crashed", "failures": [],
                      "crash": {"signal": "killed by signal 15 (Terminated)", "op": "", "check": "?"}}
        segfault = {"seed": 5, "verdict": "crashed", "failures": [],
                    "crash": {"signal": "killed by signal 11 (Segmentation fault)", "op": "", "check": "?"}}
        doc = {"seeds": [{"seed": 1, "verdict": "passed"}, real, stopped, terminated, segfault], "worst": []}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "sweep.json")
            with open(path, "w") as f:
                json.dump(doc, f)
            kept = bench_suite.sweep_record(path, 0, drop_interrupted=True)
            whole = bench_suite.sweep_record(path, 1)
        self.assertEqual((kept["seeds_run"], kept["passed"], kept["failed"]), (3, 1, 2))
        self.assertEqual((whole["seeds_run"], whole["failed"]), (5, 4))

    def test_models_table_per_preset(self):
        results = sample()
        header = {k: results["parts"]["conformance"][k] for k in ("date", "machine", "mode")}
        results["parts"]["models"] = dict(header, status="measured", data="CIFAR-10", added_options="", runs=[
            {"model": "wide", "readme_command": "cae pipeline --backend v4 --model wide --search",
             "epochs": [{"backend": "v4", "status": "measured", "images": 25000, "epoch_s": 0.5},
                        {"backend": "v3", "status": "failed", "reason": "timed out"}],
             "status": "measured", "wall_s": 61.0, "peak_rss_bytes": 3 * 2**30, "accuracy": 0.7012,
             "validation_accuracy": "70.50%", "svm": {"svm C": "5", "svm gamma": "0.000125"}}])
        text = perf_tables.render_models(results)
        self.assertEqual(rows_of(text, "`wide`"), [["`wide`", "1.00", "not measured: timed out", "61.0",
                                                   "3.00", "C 5, gamma 0.000125", "70.50%", "70.12%"]])

    def test_boundary_bytes_of_the_seed_layers(self):
        # ReLU backward of encoder.conv1 at batch 2: y, dy, dx of [2,256,32,32] float32.
        self.assertEqual(perf_tables.boundary_bytes("relu_backward", "encoder.conv1", 2), 3 * 4 * 2 * 256 * 1024)
        # Max-pool forward of encoder.conv2 at batch 1: [128,16,16] in, [128,8,8] out.
        self.assertEqual(perf_tables.boundary_bytes("maxpool2x2_forward", "encoder.conv2", 1), 4 * 128 * (256 + 64))
        # The first layer's backward writes no data gradient.
        first = perf_tables.boundary_bytes("conv2d_backward", "encoder.conv1", 1)
        self.assertEqual(first, 4 * (1024 * (3 + 256) + 2 * (256 * 3 * 9 + 256)))

    def test_bound_table_sums_the_fastest_backends_ops(self):
        text = perf_tables.render_bound(sample())
        step = rows_of(text, "step")
        self.assertEqual(len(step), 1)  # batch 64 only in the sample
        v4 = next(r for r in sample()["parts"]["epoch-64"]["cae"] if r["backend"] == "v4")
        self.assertEqual(step[0][1], f"{sum(op['ms'] for op in v4['ops']):.3f}")
        self.assertIn("at 3.35 TB/s", text)

    def test_flops_share_of_the_declared_precisions_peak(self):
        text = perf_tables.render_flops(sample())
        # 1.0334 GFLOP x 50,000 / 0.5 s = 103.3 TFLOP/s, of H100 SXM's 989.4 bf16
        self.assertEqual(rows_of(text, "v4"), [["v4", "bf16", "103.34", "10.4% of 989.4",
                                                "400.0 (conv2d_forward, encoder.conv2)"]])
        self.assertEqual(rows_of(text, "cpu")[0][3], "-")

    def test_flop_count_of_the_model(self):
        # forward: conv1 14.2 + conv2 151.0 + conv3 18.9 + conv4 151.0 + conv5 14.2 MFLOP
        self.assertEqual(perf_tables.FORWARD_FLOP, 349175808)
        self.assertEqual(perf_tables.TRAIN_FLOP_PER_IMAGE, 3 * 349175808 - 14155776)

    def test_peaks_by_gpu_name(self):
        self.assertEqual(perf_tables.peak_for("NVIDIA H100 PCIe", "bf16"), 756.0)
        self.assertEqual(perf_tables.peak_for("NVIDIA H100 80GB HBM3", "tf32"), 494.7)
        self.assertEqual(perf_tables.peak_for("NVIDIA H200", "fp32"), 66.9)
        self.assertIsNone(perf_tables.peak_for("NVIDIA A100-SXM4-80GB", "bf16"))

    def test_machine_table_once_per_distinct_machine(self):
        text = perf_tables.render_machine(sample())
        self.assertEqual(rows_of(text, "GPU"), [["GPU", "NVIDIA H100 80GB HBM3", "NVIDIA H200"]])
        self.assertIn("conformance (2026-01-02 03:30 UTC, full)", rows_of(text, "parts measured")[0][2])

    def test_ddp_skipped_with_reason(self):
        self.assertEqual(perf_tables.render_ddp(sample()), "Not measured: needs 2 GPUs; nvidia-smi lists 1.")
        results = sample()
        results["parts"]["ddp"] = {"status": "measured", "mode": "full", "date": "d", "runs": [
            {"who": "cae", "status": "measured", "backend": "v4", "global_batch": 256, "images": 50000,
             "single_s": 1.0, "parallel_s": 0.6, "speedup": 1.0 / 0.6, "exchange_ms": 0.1},
            {"who": "torch", "status": "failed", "global_batch": 256, "reason": "exit 1"}]}
        text = perf_tables.render_ddp(results)
        self.assertEqual(rows_of(text, "cae"), [["cae", "v4", "256", "1.00", "0.600", "1.67x", "not recorded by this run"]])
        self.assertIn("not measured: exit 1", rows_of(text, "PyTorch DDP")[0])

    def test_ddp_names_how_the_gradients_crossed(self):
        results = sample()
        cae = {"who": "cae", "status": "measured", "backend": "v4", "global_batch": 128, "images": 50000,
               "single_s": 0.45, "parallel_s": 0.25, "speedup": 1.8, "exchange_ms": 0.1, "steps": 391}
        results["parts"]["ddp"] = {"status": "measured", "mode": "full", "date": "d", "runs": [
            dict(cae, options="", steps_exchanged_in_graph=391),
            dict(cae, options="graph-exchange=host", parallel_s=0.26, speedup=1.7,
                 steps_exchanged_in_graph=0),
            {"who": "torch", "status": "measured", "config": "bf16-eager DDP", "global_batch": 128,
             "images": 50000, "single_s": 2.2, "parallel_s": 1.4, "speedup": 1.57}]}
        rows = rows_of(perf_tables.render_ddp(results), "cae")
        self.assertEqual(rows[0][1], "v4")
        self.assertEqual(rows[0][6], "inside the step graph, every step")
        self.assertEqual(rows[1][1], "v4, `graph-exchange=host`")
        self.assertEqual(rows[1][6], "one, after the backward pass")
        self.assertEqual(rows_of(perf_tables.render_ddp(results), "PyTorch DDP")[0][6],
                         "DDP's buckets, beside the backward pass")

    def test_two_processes_against_devices(self):
        printed = (
            "data parallel over 2 devices, 64 images per device and step\n"
            "gradients exchanged inside the step graphs on 782 of 782 steps\n"
            "gradients exchanged inside the step graphs on 780 of 782 steps\n"
            "single   e1 loss 0.051 90000 img/s;e2 loss 0.030 100000 img/s;\n"
            "devices  e1 loss 0.051 150000 img/s;e2 loss 0.030 160000 img/s;\n"
            "ranks    e1 loss 0.051 140000 img/s;e2 loss 0.030 152000 img/s;\n"
            "max |w_ranks - w_devices| = 0.000e+00   max |w_ranks - w_single| = 2.1e-06\n")
        parsed = bench_suite.parse_two_processes(printed)
        self.assertEqual(parsed["devices_img_s"], 160000.0)
        self.assertEqual(parsed["ranks_img_s"], 152000.0)
        self.assertEqual(parsed["devices_in_graph"], [782, 782])
        self.assertEqual(parsed["ranks_in_graph"], [780, 782])
        self.assertEqual(parsed["max_weight_difference"], 0.0)
        self.assertIsNone(bench_suite.parse_two_processes(printed.replace("ranks    e1", "rank 1 failed")))
        results = sample()
        results["parts"]["ddp"] = {"status": "measured", "mode": "full", "date": "d", "runs": [
            {"who": "torch", "status": "failed", "global_batch": 128, "reason": "exit 1"}],
            "processes": [dict(parsed, status="measured", backend="v4", global_batch=128, epochs=2),
                          dict(parsed, status="measured", backend="v4", global_batch=256, epochs=2,
                               weights_agree=False, max_weight_difference=0.25),
                          {"status": "failed", "global_batch": 512, "reason": "rank 1 failed"}]}
        text = perf_tables.render_ddp(results)
        self.assertEqual(rows_of(text, "128"), [["128", "v4", "0.312", "0.329", "1.05x",
                                                 "inside the step graph in 780 of 782 steps", "0.0e+00"]])
        self.assertEqual(rows_of(text, "256")[0][6], "2.5e-01 (over the script's tolerance)")
        self.assertIn("not measured: rank 1 failed", rows_of(text, "512")[0])

    def test_every_measured_table_names_gpu_driver_commit_date_and_data(self):
        results = with_ingredients(sample())
        blocks = perf_tables.render_all(results)
        for name in ("epoch", "extract", "svm", "pipeline", "ingredients", "conformance", "flops", "bound"):
            text = blocks[name]
            for needle in ("Measured on NVIDIA ", "(driver ", " at commit ", "2026-01-02", "Data: "):
                self.assertIn(needle, text, f"{name} lacks {needle!r}")
        self.assertIn("Data: random images (`cae bench`).", blocks["epoch"])
        self.assertIn("Data: random tensors (`cae-conformance`).", blocks["conformance"])
        self.assertIn("On CIFAR-10 (test copy), `cae pipeline`", blocks["expect"])

    def test_readme_sentence(self):
        text = perf_tables.render_expect(sample())
        self.assertIn("`cae pipeline` takes 22.8 s", text)
        self.assertIn("5.32 GiB", text)
        self.assertIn("v4 0.500 s", text)
        self.assertNotIn("cpu 1000", text)  # the cpu backend gets its own scale
        self.assertIn("about 20.0 s per 1,000 images on the GPU machine's 16 cores", text)
        # max-autotune timed out at batch 64: the fastest quoted is of those measured
        self.assertIn("PyTorch's fastest measured (torch.compile bf16)", text)
        self.assertIn("(max-autotune bf16 not measured)", text)

    def test_readme_sentence_names_each_parts_commit(self):
        results = sample()
        same = perf_tables.render_expect(results)
        self.assertEqual(same.count(" at commit "), 1)
        results["parts"]["epoch-64"]["machine"] = dict(results["parts"]["epoch-64"]["machine"], commit="0ldc0mm1t")
        text = perf_tables.render_expect(results)
        self.assertIn("the training epochs on ", text)
        self.assertIn("at commit 0ldc0mm1t", text)
        self.assertIn("the pipelines on ", text)


def with_header(results, record, mode="full"):
    """record with the date, machine and mode of the sample's parts."""
    header = {k: results["parts"]["conformance"][k] for k in ("date", "machine")}
    return dict(header, mode=mode, **record)


BEST = "cae pipeline --features pyramid-flip --augment flip --contrast-normalize --epochs 60 --sparsity l1:0.001 --search"


def ingredient_run(command, validation, test, wall=60.0):
    return {"variant": command.split()[-2], "readme_command": command, "status": "measured",
            "wall_s": wall, "peak_rss_bytes": 5 * 2**30, "validation_accuracy": validation,
            "test_accuracy": test, "svm": {"svm C": "5.000000", "svm gamma": "0.000125"}}


def with_ingredients(results, mode="full", second=True):
    results["parts"]["ingredients-1"] = with_header(results, {"status": "measured", "data": "CIFAR-10",
        "added_options": "", "runs": [
            ingredient_run("cae pipeline --features pyramid-flip --augment flip --search", 74.06, 73.8),
            ingredient_run(BEST, 75.84, 74.57, wall=66.5),
            {"variant": "x", "readme_command": "cae pipeline --x --search", "status": "failed",
             "reason": "exit 1: out of memory"}]}, mode)
    if second:
        results["parts"]["ingredients-2"] = with_header(results, {"status": "measured", "data": "CIFAR-10",
            "added_options": "", "runs": [
                ingredient_run("cae pipeline --features pyramid-flip --augment flip --contrast-normalize "
                               "--model wide --search", 75.44, 75.9, wall=82.1)]}, mode)
    return results


class NewPartsRenderTest(unittest.TestCase):
    def test_ingredients_sorted_by_validation_with_the_winner_marked(self):
        text = perf_tables.render_ingredients(with_ingredients(sample()))
        rows = [line for line in text.splitlines() if line.startswith("| `")]
        self.assertEqual(len(rows), 4)
        self.assertTrue(rows[0].startswith(f"| `{BEST}` (the winner) | 75.84% | 66.5 | 5.00 | C 5, gamma 0.000125 |"))
        self.assertIn("--model wide --search` | 75.44% | 82.1 |", rows[1])
        self.assertIn("--augment flip --search` | 74.06% |", rows[2])
        self.assertIn("not measured: exit 1: out of memory", rows[3])
        self.assertIn("the only one read: 74.57%", text)
        self.assertNotIn("75.90", text)  # another variant's test accuracy is never shown
        self.assertIn("(`ingredients-1`)", text)
        self.assertIn("(`ingredients-2`)", text)

    def test_ingredients_classifier_column_once_a_run_records_its_stage(self):
        results = with_ingredients(sample())
        untimed = perf_tables.render_ingredients(results)
        self.assertNotIn("classifier (s)", untimed)
        self.assertNotIn("the search over C (and gamma) included", untimed)
        results["parts"]["ingredients-2"]["runs"][0]["classifier_s"] = 6.25
        text = perf_tables.render_ingredients(results)
        self.assertIn("| command | validation accuracy | wall (s) | classifier (s) | peak RSS (GiB) |", text)
        rows = [line for line in text.splitlines() if line.startswith("| `")]
        self.assertIn("--model wide --search` | 75.44% | 82.1 | 6.25 |", rows[1])
        self.assertIn(" (the winner) | 75.84% | 66.5 | - | 5.00 |", rows[0])
        self.assertIn("the search over C (and gamma) included", text)

    def test_a_winner_by_less_than_the_seeds_spread_gives_way_to_a_faster_run(self):
        results = with_ingredients(sample())
        # A slower command 0.3 points ahead of BEST (75.84%, 66.5 s).
        results["parts"]["ingredients-2"]["runs"].append(
            ingredient_run("cae pipeline --features slow --search", 76.14, 74.0, wall=90.0))
        self.assertIn("--features slow --search` (the winner)",
                      perf_tables.render_ingredients(results))
        # Training seeds whose validation accuracies spread by 0.41 points
        # (sample standard deviation of 77.02, 76.20, 76.56): 0.3 is noise.
        results["parts"]["ablation"] = with_header(results, {"status": "measured", "runs": [
            {"variant": v, "status": "measured", "validation_accuracy": a}
            for v, a in (("winner", 77.02), ("no-search", 70.0), ("winner-seed-2", 76.20),
                         ("winner-seed-3", 76.56))]}, "full")
        self.assertAlmostEqual(perf_tables.seed_spread(results), 0.4114, places=3)
        text = perf_tables.render_ingredients(results)
        self.assertIn(f"`{BEST}` (the winner)", text)
        self.assertIn("within 0.41 points of the best", text)
        # 0.5 points ahead is more than the spread: the slower run wins.
        results["parts"]["ingredients-2"]["runs"][-1]["validation_accuracy"] = 76.34
        self.assertIn("--features slow --search` (the winner)",
                      perf_tables.render_ingredients(results))

    def test_a_run_faster_by_less_than_the_wall_spread_gives_way_to_a_better_one(self):
        results = with_ingredients(sample())
        # BEST: 75.84%, 66.5 s. A command 0.2 points behind and 0.5 s faster.
        results["parts"]["ingredients-2"]["runs"].append(
            ingredient_run("cae pipeline --features quick --search", 75.64, 74.0, wall=66.0))
        # Seeds spread by 0.41 points and by 0.62 s (66.5, 67.2, 66.0).
        results["parts"]["ablation"] = with_header(results, {"status": "measured", "runs": [
            {"variant": v, "status": "measured", "validation_accuracy": a, "wall_s": w}
            for v, a, w in (("winner", 77.02, 66.5), ("winner-seed-2", 76.20, 67.2),
                            ("winner-seed-3", 76.56, 66.0))]}, "full")
        self.assertAlmostEqual(perf_tables.seed_spread(results, "wall_s"), 0.6028, places=3)
        text = perf_tables.render_ingredients(results)
        # 0.5 s is within the wall noise: the more accurate BEST wins.
        self.assertIn(f"`{BEST}` (the winner)", text)
        self.assertIn("commands within 0.60 s of the fastest (the standard deviation of the best "
                      "recipe's wall time over its training seeds)", text)
        # 1 s faster is more than the noise: the faster run wins.
        results["parts"]["ingredients-2"]["runs"][-1]["wall_s"] = 65.5
        self.assertIn("--features quick --search` (the winner)", perf_tables.render_ingredients(results))
        # Without the ablation's walls, the fastest close run wins as before.
        for r in results["parts"]["ablation"]["runs"]:
            del r["wall_s"]
        results["parts"]["ingredients-2"]["runs"][-1]["wall_s"] = 66.0
        self.assertIn("--features quick --search` (the winner)", perf_tables.render_ingredients(results))

    def test_one_command_timed_twice_sets_the_wall_noise(self):
        results = with_ingredients(sample())
        # BEST: 75.84%, 66.5 s. A command 0.2 points behind and 1 s faster.
        results["parts"]["ingredients-2"]["runs"].append(
            ingredient_run("cae pipeline --features quick --search", 75.64, 74.0, wall=65.5))
        results["parts"]["ablation"] = with_header(results, {"status": "measured", "runs": [
            {"variant": v, "status": "measured", "validation_accuracy": a, "wall_s": w,
             "readme_command": c}
            for v, a, w, c in (("winner", 75.84, 64.4, BEST),
                               ("winner-seed-2", 75.60, 64.9, BEST + " --seed 2"),
                               ("winner-seed-3", 75.40, 64.6, BEST + " --seed 3"))]}, "full")
        # The seeds' walls spread by 0.25 s, but BEST itself took 64.4 s in
        # the ablation and 66.5 s in ingredients-1: 1 s faster is noise.
        gap, why = perf_tables.wall_noise(results)
        self.assertAlmostEqual(gap, 2.1, places=6)
        self.assertIn(f"`{BEST}` took 64.4 s and 66.5 s", why)
        text = perf_tables.render_ingredients(results)
        self.assertIn(f"`{BEST}` (the winner)", text)
        self.assertIn("commands within 2.10 s of the fastest (the largest gap between two timings", text)
        # Timed at another commit, the two timings are not of one source: the
        # seeds' spread is the noise again and the faster run wins.
        results["parts"]["ablation"]["machine"] = dict(results["parts"]["ablation"]["machine"], commit="other")
        self.assertLess(perf_tables.wall_noise(results)[0], 1.0)
        self.assertIn("--features quick --search` (the winner)", perf_tables.render_ingredients(results))

    def test_close_runs_timed_at_different_commits_name_no_winner(self):
        results = with_ingredients(sample())
        # A faster command 0.1 points behind BEST, in a part measured at
        # another commit: which is faster is not known, so neither wins.
        results["parts"]["ingredients-2"]["runs"].append(
            ingredient_run("cae pipeline --features fast --search", 75.74, 74.0, wall=20.0))
        results["parts"]["ingredients-2"]["machine"] = dict(
            results["parts"]["ingredients-2"]["machine"], commit="0123456789ab")
        results["parts"]["ablation"] = with_header(results, {"status": "measured", "runs": [
            {"variant": v, "status": "measured", "validation_accuracy": a}
            for v, a in (("winner", 77.02), ("winner-seed-2", 76.20), ("winner-seed-3", 76.56))]}, "full")
        text = perf_tables.render_ingredients(results)
        self.assertNotIn("(the winner)", text)
        self.assertIn(f"`{BEST}` (within the noise)", text)
        self.assertIn("--features fast --search` (within the noise)", text)
        self.assertIn("No winner is named yet", text)
        self.assertIn("`ingredients-2` at 0123456789ab", text)
        self.assertNotIn("74.57%", text)  # no test accuracy read
        # The README may name any close command, not one outside the noise.
        readme = "The best recipe cae knows is\n`{}`:\n"
        best = next(r for r in results["parts"]["pipeline"]["runs"] if r.get("name") == "best")
        best["readme_command"] = BEST
        self.assertEqual(perf_tables.recipe_problems(results, readme.format(BEST)), [])
        self.assertEqual(perf_tables.recipe_problems(
            results, readme.format("cae pipeline --features fast --search")), [])
        problems = perf_tables.recipe_problems(
            results, readme.format("cae pipeline --features pyramid-flip --augment flip --search"))
        self.assertEqual(len(problems), 1)
        self.assertIn("within the noise of the validation best", problems[0])
        # Measured at one commit, the faster one wins again.
        results["parts"]["ingredients-2"]["machine"] = results["parts"]["ingredients-1"]["machine"]
        self.assertIn("--features fast --search` (the winner)", perf_tables.render_ingredients(results))
        self.assertIn("is not the validation winner",
                      perf_tables.recipe_problems(results, readme.format(BEST))[0])

    def test_ingredients_with_one_part_says_which_is_missing(self):
        text = perf_tables.render_ingredients(with_ingredients(sample(), second=False))
        self.assertIn("Not measured yet: part `ingredients-2`, `ingredients-3`, `ingredients-4`, `ingredients-5`, `ingredients-6`, `ingredients-7`, `ingredients-8`, `ingredients-9`.", text)
        self.assertIn("Not measured yet", perf_tables.render_ingredients(perf_tables.empty_results()))

    def test_readme_best_recipe_must_be_the_validation_winner(self):
        readme = f"The best recipe cae knows is\n`{BEST}`:\nmore"
        results = with_ingredients(sample())
        best = next(r for r in results["parts"]["pipeline"]["runs"] if r.get("name") == "best")
        best["readme_command"] = BEST
        self.assertEqual(perf_tables.recipe_problems(results, readme), [])
        other = readme.replace("--sparsity l1:0.001 ", "")
        problems = perf_tables.recipe_problems(results, other)
        self.assertEqual(len(problems), 1)
        self.assertIn("is not the validation winner", problems[0])
        self.assertIn("names no best recipe", perf_tables.recipe_problems(results, "no recipe")[0])
        # The pipeline part must run the winner too.
        best["readme_command"] = "cae pipeline --y"
        self.assertIn("pipeline part's best recipe", perf_tables.recipe_problems(results, readme)[0])
        # No table, or one measured in a reduced mode: nothing to check.
        self.assertEqual(perf_tables.recipe_problems(sample(), other), [])
        self.assertEqual(perf_tables.recipe_problems(with_ingredients(sample(), mode="smoke"), other), [])

    def test_pipeline_figures_say_when_the_default_recipe_moved_on(self):
        results = with_ingredients(sample())
        runs = results["parts"]["pipeline"]["runs"]
        best = dict(next(r for r in runs if r.get("name") == "default"), name="best",
                    certified_on_first_use={"backend": "v4", "seconds": 9.5})
        runs[:] = [r for r in runs if r.get("name") != "best"] + [best]
        # Recorded: the run ran the winner by default, nothing to say.
        best["defaults"] = BEST[len("cae pipeline "):]
        self.assertIsNone(perf_tables.default_recipe_moved(results))
        self.assertNotIn("not yet timed as the default", perf_tables.render_expect(results))
        # Recorded, another recipe: every pipeline block says so, with the
        # winner's own figures from the ingredients table.
        best["defaults"] = "--features latent --search"
        # (Written as today's `cae pipeline` reads it: without --epochs it
        # trained the training recipe's 20, under --defaults baseline.)
        self.assertEqual(perf_tables.default_recipe_moved(results),
                         ("cae pipeline --defaults baseline --features latent --search", BEST))
        for render in (perf_tables.render_expect, perf_tables.render_run_it, perf_tables.render_pipeline):
            text = render(results)
            self.assertIn("ran the default recipe of their commit, which today's `cae pipeline` writes "
                          "`cae pipeline --defaults baseline --features latent --search`", text)
            self.assertIn(f"it now runs `{BEST}`", text)
            self.assertIn("took 66.5 s, already certified, and scored 75.84% on the validation split and "
                          "74.57% on the test set.", text)
        # Not recorded: the ablation part at the same commit names the recipe;
        # at another commit nothing is known and nothing is said.
        del best["defaults"]
        results["parts"]["ablation"] = with_header(results, {"status": "measured", "runs": [
            {"variant": "winner", "status": "measured", "validation_accuracy": 75.0,
             "readme_command": "cae pipeline --features old --search"}]}, "full")
        results["parts"]["ablation"]["machine"] = results["parts"]["pipeline"]["machine"]
        self.assertEqual(perf_tables.default_recipe_moved(results)[0],
                         "cae pipeline --defaults baseline --features old --search")
        results["parts"]["ablation"]["machine"] = dict(results["parts"]["pipeline"]["machine"], commit="other")
        self.assertIsNone(perf_tables.default_recipe_moved(results))

    def search_results(self, exhaustive_C="5"):
        results = sample()
        common = {"status": "measured", "candidates": 15, "validation_rows": 5000, "train_rows": 50000,
                  "gamma": "0.000125", "validation_accuracy": 75.84, "test_rows": 10000, "prediction_s": 1.2,
                  "peak_rss_bytes": 4 * 2**30}
        results["parts"]["search"] = with_header(results, {
            "status": "measured", "data": "CIFAR-10", "added_options": "", "recipe": BEST,
            "commands": {"train": "cae train --augment flip", "extract": "cae extract --features pyramid-flip"},
            "train_rows": 50000, "dim": 8192, "searches": [
                dict(common, search="warm-started", search_s=12.34, wall_s=20.0, C="5"),
                dict(common, search="warm-started-host", search_s=18.5, wall_s=26.0, C="5"),
                dict(common, search="exhaustive", search_s=95.0, wall_s=103.0, C=exhaustive_C)]})
        return results

    def test_search_table(self):
        text = perf_tables.render_search(self.search_results())
        self.assertEqual(rows_of(text, "warm-started (`--search`)"),
                         [["warm-started (`--search`)", "15", "12.3", "20.0", "4.00", "C 5, gamma 0.000125", "75.84%"]])
        self.assertEqual(rows_of(text, "exhaustive (`--search --search-exhaustive`)")[0][2], "95.0")
        self.assertEqual(rows_of(text, "warm-started, pairs solved on the host "
                                       "(`--search --svm-on host`)")[0][2], "18.5")
        self.assertIn("All SVM searches choose the same candidate.", text)
        self.assertIn("the host rows solve them on the host's cores", text)
        self.assertIn("50,000 training rows of 8,192 dimensions", text)
        self.assertIn("fitted on 45,000 of them and scored on the 5,000 held out", text)
        self.assertIn("(10,000 in 1.20 s)", text)
        # The rows that chose otherwise than the exhaustive search are named, and only they.
        text = perf_tables.render_search(self.search_results("10"))
        self.assertIn("Not every search chooses the exhaustive search's candidate (C 10, gamma 0.000125): "
                      "warm-started (`--search`); warm-started, pairs solved on the host "
                      "(`--search --svm-on host`) chose another.", text)

    def test_search_table_wider_grid(self):
        results = self.search_results()
        self.assertNotIn("wider grid", perf_tables.render_search(results))
        results["parts"]["search"]["searches"].append(
            {"search": "wide-grid", "status": "measured", "candidates": 35, "search_s": 30.5,
             "wall_s": 40.0, "peak_rss_bytes": 4 * 2**30, "C": "50", "gamma": "3.1e-05",
             "validation_accuracy": 76.34})
        text = perf_tables.render_search(results)
        label = ("warm-started, a wider grid (`--search --search-C 1,2,5,10,20,50,100 "
                 "--search-gamma 0.125x,0.25x,0.5x,1x,2x`)")
        self.assertEqual(rows_of(text, label)[0][1:3], ["35", "30.5"])
        # Other candidates: it is compared with the default search, not the exhaustive one.
        self.assertIn("All SVM searches choose the same candidate.", text)
        self.assertIn("The wider grid chose C 50, gamma 3.1e-05 at 76.34% on the validation split, "
                      "against the default grid's 75.84% (C 5, gamma 0.000125), its search 30.5 s "
                      "against 12.3 s: 0.50 points more, one training seed's features.", text)
        results["parts"]["search"]["searches"][-1].update(C="5", gamma="0.000125", validation_accuracy=75.84)
        self.assertIn(": the default grid already holds the best candidate of the wider one.",
                      perf_tables.render_search(results))

    def test_search_table_linear_rows(self):
        results = self.search_results()
        results["parts"]["search"]["searches"].append(
            {"search": "linear-backend", "status": "measured", "candidates": 7, "wall_s": 9.0,
             "peak_rss_bytes": 3 * 2**30, "C": "0.5", "validation_accuracy": 74.1,
             "validation_rows": 5000, "train_rows": 50000, "linear_s": 7.25, "iterations": 61,
             "Cs": ["1e-05", "0.1"]})
        results["parts"]["search"]["searches"].append(
            {"search": "linear-host", "status": "measured", "candidates": 7, "wall_s": 30.0,
             "peak_rss_bytes": 2 * 2**30, "C": "0.5", "validation_accuracy": 74.3})
        text = perf_tables.render_search(results)
        label = ("linear classifier, passes on the backend "
                 "(`--search --classifier linear --linear-on backend`)")
        self.assertEqual(rows_of(text, label),
                         [[label, "7 (C 1e-05 to 0.1)", "7.25", "9.00", "3.00", "C 0.5 (61 L-BFGS iterations)",
                           "74.10%"]])
        # Its time not parsed: shown as unknown, never as another row's.
        label = "linear classifier, passes on the host (`--search --classifier linear`)"
        self.assertEqual(rows_of(text, label), [[label, "7", "?", "30.0", "2.00", "C 0.5", "74.30%"]])
        # Another classifier: the SVM searches still agree among themselves.
        self.assertIn("All SVM searches choose the same candidate.", text)

    def test_search_not_measured(self):
        results = sample()
        results["parts"]["search"] = {"status": "skipped", "reason": "no CIFAR-10 folder given (--data DIR)"}
        self.assertEqual(perf_tables.render_search(results), "Not measured: no CIFAR-10 folder given (--data DIR).")
        results["parts"]["search"] = {"status": "failed", "reason": "train: exit 1: out of memory"}
        self.assertEqual(perf_tables.render_search(results), "Not measured: train: exit 1: out of memory.")
        results = self.search_results()
        results["parts"]["search"]["searches"][1:] = [
            {"search": "exhaustive", "status": "failed", "reason": "timed out after 300 s"}]
        text = perf_tables.render_search(results)
        self.assertIn("not measured: timed out after 300 s", rows_of(text, "exhaustive (`--search --search-exhaustive`)")[0])
        self.assertNotIn("same candidate", text)

    def test_svm_table_gives_the_search_time_when_reports_have_it(self):
        results = sample()
        self.assertNotIn("the search (s)", perf_tables.render_svm(results))
        run = next(r for r in results["parts"]["pipeline"]["runs"] if r.get("status") == "measured")
        run["svm"]["svm search s"] = "12.500"
        text = perf_tables.render_svm(results)
        self.assertIn("the search (s)", text)
        self.assertEqual(rows_of(text, f"`{run['readme_command']}`")[0][-1], "12.5")


class KernelsRenderTest(unittest.TestCase):
    def results(self, runs):
        r = sample()
        machine = r["parts"]["epoch-64"]["machine"]
        r["parts"]["kernels"] = {"status": "measured", "mode": "full", "machine": machine,
                                 "backend": "v4", "runs": runs}
        return r

    def run_record(self):
        kernels = [{"name": "tma_igemm_kernel<128, TapLoads>", "grid": "(264, 1, 1)", "us": 300.0,
                    "tensor_pct": 40.0, "sm_pct": 70.0, "dram_read": 3e8, "dram_write": 0.0},
                   {"name": "adam_kernel", "grid": "(100, 1, 1)", "us": 100.0, "tensor_pct": 0.0,
                    "sm_pct": 20.0, "dram_read": 1e8, "dram_write": 1e8}]
        import kernel_profile
        return dict(kernel_profile.summary(kernels, 4), status="measured", batch=256, backend="v4",
                    ncu="Version 2025.3.1", command="ncu ... cae bench --batch 256",
                    epoch_s=0.1, epoch_images=10000, epoch_command="cae bench --batch 256")

    def test_one_row_per_kernel_and_the_step_without_the_profiler(self):
        text = perf_tables.render_kernels(self.results([self.run_record()]))
        self.assertIn("### Batch 256", text)
        first = rows_of(text, "1")[0]
        self.assertEqual(first[1:], ["`tma_igemm_kernel<128, TapLoads>`", "(264,1,1)", "300.0", "75.0%",
                                     "40%", "70%", "1000"])
        self.assertEqual(rows_of(text, "2")[0][-1], "2000")
        # 0.1 s for 10,000 images is 0.5 s per 50,000-image epoch of 196 steps: 2.551 ms a step.
        self.assertIn("0.400 ms together under the profiler", text)
        self.assertIn("the step without the profiler 2.551 ms", text)
        self.assertIn("(tensor pipe at least 5%) take 0.300 ms, their tensor pipes busy 40%", text)

    def test_a_variant_run_is_headed_by_its_backend_options(self):
        variant = dict(self.run_record(), options=["edge-kernels=tensor-cores"])
        text = perf_tables.render_kernels(self.results([self.run_record(), variant]))
        self.assertIn("### Batch 256\n", text)
        self.assertIn("### Batch 256, `edge-kernels=tensor-cores`\n", text)

    def test_failed_batch_and_missing_part_give_the_reason(self):
        text = perf_tables.render_kernels(self.results(
            [{"batch": 64, "status": "failed", "reason": "exit 1: ncu not found"}]))
        self.assertIn("Not measured: exit 1: ncu not found.", text)
        r = sample()
        r["parts"]["kernels"] = {"status": "skipped", "reason": "no v4 backend in this build"}
        self.assertEqual(perf_tables.render_kernels(r), "Not measured: no v4 backend in this build.")


class ReadmeCommandsTest(unittest.TestCase):
    def test_the_suite_runs_the_readmes_pipeline_commands_as_written(self):
        with open(os.path.join(os.path.dirname(os.path.dirname(HERE)), "README.md")) as f:
            readme = f.read()
        for name, options in bench_suite.PIPELINES:
            command = " ".join(["cae pipeline"] + options)
            self.assertIn(f"`{command}`" if options else "cae pipeline --out run", readme, name)


class RunItRenderTest(unittest.TestCase):
    """The README's main command: the best run of each pipeline part, with the
    certification on first use it included; old records without that field
    are not quoted as fresh-install figures."""

    def results(self, certified):
        run = {"name": "best", "readme_command": "cae pipeline", "status": "measured",
               "backend": "v4", "wall_s": 49.11, "accuracy": 0.7481, "peak_rss_bytes": 5 << 30,
               "stages": {}}
        if certified is not None:
            run["certified_on_first_use"] = certified
        results = perf_tables.empty_results()
        results["parts"]["pipeline"] = {"status": "measured", "date": "2026-11-29T04:00:00",
                                        "machine": {"gpu": "NVIDIA H200", "commit": "abc1234",
                                                    "cores": 16}, "runs": [run]}
        return results

    def test_fresh_install_with_its_certification(self):
        text = perf_tables.render_run_it(self.results({"backend": "v4", "seconds": 12.1,
                                                       "verdict": "passed"}))
        self.assertIn("On one NVIDIA H200 with CIFAR-10 (JPEG q75 copy) under data/, its "
                      "`cae pipeline` took 49.1 s from a fresh install, 12.1 s of it certifying v4 "
                      "on its first use, and reached 74.81% test accuracy with v4", text)
        self.assertIn("at commit abc1234", text)

    def test_a_record_from_before_is_not_quoted(self):
        self.assertTrue(perf_tables.render_run_it(self.results(None)).startswith("Not measured yet"))


class TestsTimeRenderTest(unittest.TestCase):
    """The README's test command: the stages of a passing `.ci/run` that are
    the command, summed, then CI's own stages and the whole run."""

    def results(self, stages):
        results = perf_tables.empty_results()
        results["parts"]["ci"] = {"status": "measured", "date": "2026-12-03T05:00:00+00:00",
                                  "mode": "fresh clone", "stages": stages,
                                  "total_s": sum(s["seconds"] for s in stages),
                                  "machine": {"gpu": None, "gpus": 0, "cpu": "Xeon", "cores": 2,
                                              "commit": "abc1234"}}
        return results

    def test_the_commands_stages_summed_then_cis_own(self):
        text = perf_tables.render_tests_time(self.results([
            {"name": "install", "seconds": 3}, {"name": "configure + build", "seconds": 344},
            {"name": "tests", "seconds": 399}, {"name": "sanitized build + tests", "seconds": 705}]))
        self.assertEqual(
            text, "On 2 CPU cores (Xeon) without a GPU, from a fresh clone, this command took 746 s "
            "(install 3 s, configure + build 344 s, tests 399 s); CI's `.ci/run` then adds "
            "sanitized build + tests 705 s, 1,451 s in all (measured on 2026-12-03 at commit abc1234).")

    def test_no_record_says_how_to_make_one(self):
        self.assertTrue(perf_tables.render_tests_time(perf_tables.empty_results())
                        .startswith("Not measured yet"))

    def test_the_record_ci_writes_renders(self):
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), ".ci"))
        import record_times
        stages = [record_times.parse_stage(s) for s in ("install=1", "configure + build=2", "tests=3")]
        results = record_times.record(stages, "fresh clone", tempfile.mkdtemp())
        perf_tables.validate(results, "record")
        self.assertEqual(results["parts"]["ci"]["total_s"], 6)
        self.assertIn("this command took 6 s (install 1 s, configure + build 2 s, tests 3 s)",
                      perf_tables.render_tests_time(results))
        for bad in ("tests", "=3", "tests=-1", "tests=1.5", "tests=nan"):
            with self.assertRaises(ValueError, msg=bad):
                record_times.parse_stage(bad)


class FilesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.results = os.path.join(self.dir, "results.json")
        self.perf = os.path.join(self.dir, "PERF.md")
        self.readme = os.path.join(self.dir, "README.md")
        with open(self.results, "w") as f:
            json.dump(perf_tables.empty_results(), f)
        with open(self.perf, "w") as f:
            f.write("# Perf\n\nhand-written\n\n" + "".join(
                f"<!-- generated:{n} -->\nstale {n}\n<!-- end:{n} -->\n\nbetween\n\n" for n in perf_tables.PERF_BLOCKS))
        with open(self.readme, "w") as f:
            f.write("intro\n<!-- generated:expect -->\nabout 33 s\n<!-- end:expect -->\n"
                    "<!-- generated:run-it -->\nabout 49 s\n<!-- end:run-it -->\n"
                    "<!-- generated:tests-time -->\nabout 746 s\n<!-- end:tests-time -->\noutro\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def cli(self, *args):
        return perf_tables.main(list(args) + ["--results", self.results, "--perf", self.perf,
                                              "--readme", self.readme, "--root", self.dir])

    def test_check_fails_until_update_then_passes(self):
        self.assertEqual(self.cli("check"), 1)
        self.assertEqual(self.cli("update"), 0)
        self.assertEqual(self.cli("check"), 0)
        with open(self.readme) as f:
            text = f.read()
        self.assertTrue(text.startswith("intro\n<!-- generated:expect -->\nNot measured yet"))
        self.assertTrue(text.endswith("<!-- end:tests-time -->\noutro\n"))
        self.assertIn("<!-- generated:run-it -->\nNot measured yet", text)
        with open(self.perf) as f:
            perf = f.read()
        self.assertEqual(perf.count("between"), len(perf_tables.PERF_BLOCKS))  # hand-written text kept
        self.assertNotIn("stale", perf)

    def test_check_fails_when_the_readmes_recipe_is_not_the_winner(self):
        new = os.path.join(self.dir, "new.json")
        with open(new, "w") as f:
            json.dump(with_ingredients(perf_tables.empty_results() | {"parts": {"conformance": sample()["parts"]["conformance"]}}), f)
        with open(self.readme, "a") as f:
            f.write(f"The best recipe cae knows is `{BEST.replace(' --sparsity l1:0.001', '')}`.\n")
        with contextlib.redirect_stderr(io.StringIO()) as err, contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(self.cli("update", new), 1)  # the docs are written, the mismatch is said
            self.assertEqual(self.cli("check"), 1)
        self.assertIn("is not the validation winner", err.getvalue())
        with open(self.readme) as f:
            text = f.read()
        with open(self.readme, "w") as f:
            f.write(text.replace("--epochs 60 --search", "--epochs 60 --sparsity l1:0.001 --search"))
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(self.cli("check"), 0)

    def test_update_merges_new_parts_and_check_sees_a_hand_edit(self):
        self.assertEqual(self.cli("update", FIXTURE), 0)
        with open(self.results) as f:
            self.assertEqual(set(json.load(f)["parts"]), set(sample()["parts"]))
        self.assertEqual(self.cli("check"), 0)
        with open(self.readme) as f:
            text = f.read()
        with open(self.readme, "w") as f:
            f.write(text.replace("22.8 s", "13 s"))
        self.assertEqual(self.cli("check"), 1)

    def test_a_backends_chapter_is_rewritten_and_checked(self):
        chapter = os.path.join(self.dir, "plugins", "v4", "README.md")
        os.makedirs(os.path.dirname(chapter))
        with open(chapter, "w") as f:
            f.write("# v4\n<!-- generated:chapter -->\nstale\n<!-- end:chapter -->\nprose\n")
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(self.cli("update", FIXTURE), 0)
            self.assertEqual(self.cli("check"), 0)
        with open(chapter) as f:
            text = f.read()
        self.assertIn("| s per epoch, batch 64 |", text)
        self.assertTrue(text.endswith("<!-- end:chapter -->\nprose\n"))
        with open(chapter, "w") as f:
            f.write(text.replace("| s per epoch, batch 64 |", "| s per epoch, batch 64 | 1 |"))
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(self.cli("check"), 1)

    def test_merge_replaces_only_the_new_parts(self):
        base = sample()
        new = perf_tables.empty_results()
        new["parts"]["conformance"] = {"status": "skipped", "reason": "x"}
        merged = perf_tables.merge(base, new)
        self.assertEqual(merged["parts"]["conformance"], {"status": "skipped", "reason": "x"})
        self.assertEqual(merged["parts"]["epoch-64"], base["parts"]["epoch-64"])

    def test_missing_or_doubled_marker_is_an_error(self):
        with open(self.readme, "w") as f:
            f.write("no markers\n")
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(self.cli("update"), 1)
        self.assertIn("0 `<!-- generated:expect -->`", err.getvalue())
        with self.assertRaises(perf_tables.ResultsError):
            perf_tables.replace_blocks("<!-- generated:x -->\na\n<!-- end:x -->\n" * 2, {"x": "b"}, "f")

    def test_wrong_format_is_an_error(self):
        with open(self.results, "w") as f:
            json.dump({"format": "other"}, f)
        self.assertEqual(self.cli("check"), 1)
        bad = copy.deepcopy(perf_tables.empty_results())
        bad["version"] = 99
        with self.assertRaises(perf_tables.ResultsError):
            perf_tables.validate(bad, "x")


class SuiteTest(unittest.TestCase):
    def test_parse_backends(self):
        text = ("cpu      1.0.0    ABI 1.3  available: AMD EPYC, 23.5 GiB, fp32, deterministic\n"
                "         /x/libcae-backend-cpu.so\n"
                "v4       0.1.0    ABI 1.3  unavailable: no NVIDIA driver found\n")
        self.assertEqual(bench_suite.parse_backends(text), {"cpu": None, "v4": "no NVIDIA driver found"})
        self.assertEqual(bench_suite.ordered_backends({"zz": None, "v4": None, "cpu": None}, None),
                         ["cpu", "v4", "zz"])

    def test_default_backend_must_be_a_certified_gpu_one(self):
        text = ("cpu      1.0.0    ABI 1.6  available: Xeon, 125 GiB, fp32, deterministic, 16 devices\n"
                "         /x/libcae-backend-cpu.so\n"
                "         certified: passed seeds 1, 2, 3 (/x/libcae-backend-cpu.so.certified.json); the default\n"
                "v4       0.1.0    ABI 1.6  available: NVIDIA H100, 79.1 GiB, bf16, deterministic, 1 devices\n"
                "         /x/libcae-backend-v4.so\n"
                "         not certified: no record (certify it: cae-conformance --backend /x/libcae-backend-v4.so)\n")
        self.assertEqual(bench_suite.default_backend(text), "cpu")
        found = bench_suite.parse_backends(text)
        problem = bench_suite.default_backend_problem(found, "cpu")
        self.assertIn("cae-conformance --backend v4", problem)
        self.assertIsNone(bench_suite.default_backend_problem(found, "v4"))
        self.assertIsNone(bench_suite.default_backend_problem({"cpu": None, "v4": "no driver"}, "cpu"))
        # Nothing certified: cae certifies the fastest on first use.
        self.assertIsNone(bench_suite.default_backend_problem(found, None))

    def test_parse_nvidia_smi_and_toolkit(self):
        gpus = bench_suite.parse_nvidia_smi_gpus("NVIDIA H100 80GB HBM3, 81559, 580.95.05\n"
                                                 "NVIDIA H100 80GB HBM3, 81559, 580.95.05\n")
        self.assertEqual(len(gpus), 2)
        self.assertEqual(gpus[0], {"name": "NVIDIA H100 80GB HBM3", "memory_mib": 81559, "driver": "580.95.05"})
        self.assertEqual(bench_suite.parse_nvidia_smi_gpus(None), [])
        cache = "FIND_PACKAGE_MESSAGE_DETAILS_CUDAToolkit:INTERNAL=[/usr/local/cuda/include][v13.0.88()]\n"
        self.assertEqual(bench_suite.parse_cuda_toolkit(cache), "13.0.88")
        self.assertIsNone(bench_suite.parse_cuda_toolkit("nothing"))

    def test_sweep_record(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"backend": "v4", "seeds": [{"verdict": "passed"}, {"verdict": "failed"}],
                       "worst": [{"op": "conv2d_forward", "ratio": 0.5, "seed": 2, "check": "c"}]}, f)
        try:
            r = bench_suite.sweep_record(f.name, 1)
        finally:
            os.unlink(f.name)
        self.assertEqual(r, {"status": "measured", "seeds_run": 2, "passed": 1, "failed": 1,
                             "worst": {"conv2d_forward": {"ratio": 0.5, "seed": 2}}})

    def test_run_step_times_out_and_measures_peak_memory(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "a.log")
            step = bench_suite.run_step([sys.executable, "-c", "import time; time.sleep(30)"], 0.5, log)
            self.assertTrue(step.timed_out)
            self.assertLess(step.wall_s, 10)
            self.assertEqual(step.failure(), "timed out after 0 s")
            step = bench_suite.run_step(
                [sys.executable, "-c", "b = bytearray(200 << 20); print('done')"], 60, log)
            self.assertIsNone(step.failure())
            self.assertGreater(step.peak_rss_bytes, 200 << 20)
            self.assertIn("done", step.log)
            step = bench_suite.run_step([sys.executable, "-c", "raise SystemExit('bad thing')"], 60, log)
            self.assertEqual(step.failure(), "exit 1: bad thing")
            self.assertTrue(bench_suite.run_step(["true"], 0, log).timed_out)  # no budget left

    def test_budget_never_exceeds_what_is_left(self):
        budget = bench_suite.Budget(100, reserve=10)
        self.assertLessEqual(budget.limit(1000), 90)
        self.assertEqual(budget.limit(5), 5)
        self.assertEqual(bench_suite.Budget(5, reserve=10).limit(60), 0)

    def test_budget_share_leaves_room_for_the_steps_after(self):
        budget = bench_suite.Budget(490, reserve=10)  # 480 s to spend
        # Six sweeps that each want 75 s fit (450 s): each gets its 75.
        self.assertEqual(budget.share(75, 6), 75)
        # Seven do not (525 s): the first gets its share, not its 75, so the seventh is not starved.
        self.assertAlmostEqual(budget.share(75, 7), 480 / 7, delta=1)
        # Seven that want 100 s each get an equal share, about 480 / 7.
        self.assertAlmostEqual(budget.share(100, 7), 480 / 7, delta=1)
        self.assertAlmostEqual(budget.share(1000, 1), 480, delta=1)
        self.assertEqual(bench_suite.Budget(5, reserve=10).share(60, 3), 0)

    def test_bad_command_lines(self):
        for argv in (["b"], ["b", "--out", "o", "--budget", "nan"], ["b", "--out", "o", "--budget", "-1"],
                     ["b", "--out", "o", "--part", "nope"], ["b", "--out", "o", "--backends", "v4,,v3"],
                     ["b", "--out", "o", "--backends", "v4,v4"], ["b", "--out", "o", "--data", "/nonexistent"]):
            with self.assertRaises(SystemExit) as e, contextlib.redirect_stderr(io.StringIO()):
                bench_suite.parse_args(argv)
            self.assertEqual(e.exception.code, 2, argv)
        args = bench_suite.parse_args(["b", "--out", "/nonexistent/o", "--part", "ddp", "--part", "epoch-64"])
        self.assertEqual(args.parts, ["epoch-64", "ddp"])
        # --quick leaves out the parts made of whole pipelines unless they are named.
        quick = bench_suite.parse_args(["b", "--out", "/nonexistent/o", "--quick"]).parts
        self.assertEqual(quick, [p for p in bench_suite.PARTS if p not in ("ingredients-1", "ingredients-2", "ingredients-3", "ingredients-4", "ingredients-5", "ingredients-6", "ingredients-7", "ingredients-8", "ingredients-9", "ablation", "search")])
        self.assertEqual(bench_suite.parse_args(["b", "--out", "/nonexistent/o"]).parts, bench_suite.PARTS)
        self.assertEqual(bench_suite.parse_args(["b", "--out", "/nonexistent/o", "--quick", "--part", "search"]).parts,
                         ["search"])
        with tempfile.TemporaryDirectory() as d:  # a previous run's work folder is not reused
            os.makedirs(os.path.join(d, "raw"))
            for argv in (["b", "--out", d], ["b", "--out", "/nonexistent/o", "--work", d]):
                with self.assertRaises(SystemExit) as e, contextlib.redirect_stderr(io.StringIO()):
                    bench_suite.parse_args(argv)
                self.assertEqual(e.exception.code, 2, argv)


if __name__ == "__main__":
    unittest.main()
