#!/usr/bin/env python3
"""Unit tests of kernel_profile.py's reading of an ncu raw-page CSV: names,
the step found at the end of the launch list, medians over its replays."""
import csv
import io
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kernel_profile  # noqa: E402

COLUMNS = ["ID", "Process ID", "Kernel Name", "Stream", "Block Size", "Grid Size"] + list(kernel_profile.METRICS)


def csv_text(launches, note_lines=("==PROF== Disconnected from process 1",)):
    """launches: (demangled name, grid, ns, tensor %)."""
    out = io.StringIO()
    for line in note_lines:
        out.write(line + "\n")
    w = csv.writer(out, quoting=csv.QUOTE_ALL)
    w.writerow(COLUMNS)
    w.writerow(["", "", "", "", "", "", "nsecond", "%", "%", "byte", "byte"])
    for i, (name, grid, ns, tensor) in enumerate(launches):
        w.writerow([i, 7, name, 13, "(128, 1, 1)", grid, f"{ns:,}", "50.5", tensor, 1000, 2000])
    return out.getvalue()


GEMM = "void cae_v4::tma_igemm_kernel<128, cae_v4::(anonymous namespace)::TapLoads, cae_v4::BiasRelu>" \
       "(CUtensorMap, const float *, int)"
ADAM = "void cae_cuda::adam_kernel(float *, const float *, float, int)"
POOL = "void cae_cuda::<unnamed>::maxpool_kernel<float>(const float *, float *, int)"


def step(gemm_ns, adam_ns):
    return [(GEMM, "(264, 1, 1)", gemm_ns, 40.0), (POOL, "(512, 1, 1)", 900, 0.0),
            (GEMM, "(66, 1, 1)", 700, 30.0), (ADAM, "(100, 1, 1)", adam_ns, 0.0)]


class NameTest(unittest.TestCase):
    def test_drops_namespaces_and_parameters_keeps_template_arguments(self):
        self.assertEqual(kernel_profile.short_name(GEMM), "tma_igemm_kernel<128, TapLoads, BiasRelu>")
        self.assertEqual(kernel_profile.short_name(ADAM), "adam_kernel")
        self.assertEqual(kernel_profile.short_name("k(int (*)(int))"), "k")


class StepTest(unittest.TestCase):
    def launches(self, steps):
        ops_before = [(POOL, "(8, 1, 1)", 50, 0.0), (ADAM, "(1, 1, 1)", 20, 0.0)]
        timed = []
        for i, (g, a) in enumerate(steps):
            timed += step(g, a)
        return kernel_profile.parse_csv(csv_text(ops_before + timed))

    def test_finds_the_step_and_takes_medians_over_its_replays(self):
        launches = self.launches([(3000, 100), (1000, 300), (1200, 200), (1100, 250), (5000, 90)])
        kernels, repeats = kernel_profile.step_kernels(launches)
        self.assertEqual(repeats, 5)
        self.assertEqual([k["name"] for k in kernels],
                         ["tma_igemm_kernel<128, TapLoads, BiasRelu>", "maxpool_kernel<float>",
                          "tma_igemm_kernel<128, TapLoads, BiasRelu>", "adam_kernel"])
        self.assertEqual(kernels[0]["grid"], "(264, 1, 1)")
        self.assertAlmostEqual(kernels[0]["us"], 1.2)   # median of 3000, 1000, 1200, 1100, 5000 ns
        self.assertAlmostEqual(kernels[3]["us"], 0.2)   # median of 100, 300, 200, 250, 90
        self.assertEqual(kernels[2]["us"], 0.7)
        s = kernel_profile.summary(kernels, repeats)
        self.assertAlmostEqual(s["sum_us"], 1.2 + 0.9 + 0.7 + 0.2)
        self.assertAlmostEqual(s["tensor_kernels_us"], 1.9)
        self.assertAlmostEqual(s["tensor_kernels_pct"], (1.2 * 40 + 0.7 * 30) / 1.9)
        kernels[1]["tensor_pct"] = 1.0  # a CUDA-core kernel's stray reading is not tensor work
        self.assertAlmostEqual(kernel_profile.tensor_share(kernels)[0], 1.9)

    def test_parallel_branches_in_another_order_are_the_same_step(self):
        a = step(1000, 100)
        b = [a[0], a[2], a[1], a[3]]
        launches = kernel_profile.parse_csv(csv_text(a + b + a + b))
        period, repeats = kernel_profile.find_step(launches)
        self.assertEqual((period, repeats), (4, 4))

    def test_too_few_replays_is_an_error_not_a_guess(self):
        launches = kernel_profile.parse_csv(csv_text(step(1, 1) + step(1, 1)))
        with self.assertRaisesRegex(kernel_profile.ProfileError, "repeats 3 times"):
            kernel_profile.find_step(launches)

    def test_a_csv_without_the_header_or_a_metric_is_refused(self):
        with self.assertRaisesRegex(kernel_profile.ProfileError, "no ncu raw-page header"):
            kernel_profile.parse_csv("==PROF== nothing profiled\n")
        text = csv_text(step(1, 1)).replace("gpu__time_duration.sum", "gpu__time_duration.avg")
        with self.assertRaisesRegex(kernel_profile.ProfileError, "gpu__time_duration.sum"):
            kernel_profile.parse_csv(text)

    def test_parse_mode_writes_the_json(self):
        import json
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.csv")
            with open(path, "w") as f:
                f.write(csv_text(step(1000, 100) * 4))
            out = os.path.join(d, "k.json")
            self.assertEqual(kernel_profile.main(["--parse", path, "--batch", "64", "--json", out]), 0)
            with open(out) as f:
                r = json.load(f)
            self.assertEqual((r["batch"], r["kernel_count"], r["replays_matched"]), (64, 4, 4))
            self.assertEqual(kernel_profile.main(["--parse", os.path.join(d, "missing.csv")]), 1)


if __name__ == "__main__":
    unittest.main()
