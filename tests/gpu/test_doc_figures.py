#!/usr/bin/env python3
"""Unit tests of the docs' figure scanner (doc_figures.py) and of the stale-part
check (stale_tables.py), through `perf_tables.py check` on a scratch checkout
built from fixtures/perf-results-sample.json."""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import doc_figures  # noqa: E402
import perf_tables  # noqa: E402
import stale_tables  # noqa: E402

FIXTURE = os.path.join(HERE, "fixtures", "perf-results-sample.json")


def texts(found):
    return [f.text for f in found]


class ScannerTest(unittest.TestCase):
    def test_figures_with_units_ranges_and_table_decimals(self):
        doc = ("An epoch takes 0.346 s, between 0.35 to 0.41 s; 68.63% and 5.3 GiB, 1.72x.\n"
               "| a | 0.512 | 12 |\n")
        self.assertEqual(texts(doc_figures.figures(doc)),
                         ["0.346 s", "0.35 s", "0.41 s", "68.63 %", "5.3 GiB", "1.72 x", "0.512"])

    def test_code_generated_blocks_and_products_are_not_figures(self):
        doc = ("Run `cae train --lr 0.5s` first.\n"
               "<!-- generated:x -->\n0.999 s\n<!-- end:x -->\n"
               "A 3 x 3 kernel.\n"
               "    $ cae bench  # 0.777 s\n"
               "```\n1.5 s\n```\n"
               "Then 2.25 s.\n")
        found = doc_figures.figures(doc)
        self.assertEqual(texts(found), ["2.25 s"])
        self.assertEqual(found[0].line, 10)  # the blanked block keeps line numbers

    def test_a_figure_is_backed_in_its_unit_within_rounding(self):
        with open(FIXTURE) as f:
            results = json.load(f)
        values = doc_figures.sourced_values(results, perf_tables.render_all(results))

        def backed(text):
            return [doc_figures.backed(f, values) for f in doc_figures.figures(text)]
        self.assertEqual(backed("0.500 s"), [True])       # the v4 epoch, rendered
        self.assertEqual(backed("500 ms"), [True])        # the same, in ms
        self.assertEqual(backed("0.5 s"), [True])         # rounded
        self.assertEqual(backed("0.512 s"), [False])      # nothing measured it
        self.assertEqual(backed("68.63%"), [True])        # accuracy 0.6863, as percent
        self.assertEqual(backed("0.500 GiB"), [False])    # the right number, the wrong unit


class CheckTest(unittest.TestCase):
    """`perf_tables.py check` on a scratch checkout whose docs are up to date."""

    def setUp(self):
        self.root = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.root, "docs"))
        os.makedirs(os.path.join(self.root, "plugins", "v4"))
        shutil.copy(FIXTURE, self.path("docs/perf-results.json"))
        self.write("docs/PERF.md", "# Perf\n\n" + "".join(
            f"<!-- generated:{n} -->\n\n<!-- end:{n} -->\n\n" for n in perf_tables.PERF_BLOCKS))
        self.write("README.md", "<!-- generated:expect -->\n\n<!-- end:expect -->\n"
                   "<!-- generated:run-it -->\n\n<!-- end:run-it -->\n"
                   "<!-- generated:tests-time -->\n\n<!-- end:tests-time -->\n")
        self.write("plugins/v4/kernel.cu", "// v1\n")
        self.write("constants.json", json.dumps({"constants": {"128 MiB": "a documented limit"}}))
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(self.cli("update"), 0)

    def tearDown(self):
        shutil.rmtree(self.root)

    def path(self, relative):
        return os.path.join(self.root, relative)

    def write(self, relative, text):
        with open(self.path(relative), "w") as f:
            f.write(text)

    def cli(self, *args):
        return perf_tables.main(list(args) + [
            "--results", self.path("docs/perf-results.json"), "--perf", self.path("docs/PERF.md"),
            "--readme", self.path("README.md"), "--root", self.root,
            "--constants", self.path("constants.json")])

    def check(self, *args):
        with contextlib.redirect_stderr(io.StringIO()) as err, contextlib.redirect_stdout(io.StringIO()):
            code = self.cli("check", *args)
        return code, err.getvalue()

    def test_an_unsourced_figure_fails_naming_file_line_and_figure(self):
        self.write("plugins/v4/README.md", "# v4\n\nIts epoch takes 0.346 s.\n")
        code, err = self.check()
        self.assertEqual(code, 1)
        self.assertIn('plugins/v4/README.md:3: "0.346 s"', err)

    def test_a_sourced_figure_or_a_documented_constant_passes(self):
        self.write("plugins/v4/README.md", "# v4\n\nIts epoch takes 0.500 s, in 128 MiB.\n")
        self.write("docs/other.md", "68.63% on the test set.\n")
        self.assertEqual(self.check()[0], 0)

    def test_a_constant_listed_for_one_file_covers_that_file_only(self):
        self.write("constants.json", json.dumps({"files": {"docs/a.md": {"7 s": "a timeout"}}}))
        self.write("docs/a.md", "Waits 7 s.\n")
        self.assertEqual(self.check()[0], 0)
        self.write("docs/b.md", "Waits 7 s.\n")
        self.assertEqual(self.check()[0], 1)

    def git(self, *args):
        subprocess.run(["git", "-C", self.root, "-c", "user.name=t", "-c", "user.email=t@t"] + list(args),
                       check=True, capture_output=True)

    def measured_at(self, commit):
        results = perf_tables.load(self.path("docs/perf-results.json"))
        for p in results["parts"].values():
            if "machine" in p:
                p["machine"]["commit"] = commit
        with open(self.path("docs/perf-results.json"), "w") as f:
            json.dump(results, f)
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(self.cli("update"), 0)  # the footers name the commit

    def head(self):
        return subprocess.run(["git", "-C", self.root, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()

    def test_a_part_measured_before_its_code_changed_is_stale_under_strict(self):
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("commit", "-qm", "measured")
        self.measured_at(self.head())
        self.assertEqual(self.check("--strict")[0], 0)  # nothing changed since
        self.write("plugins/v4/README.md", "# v4\n")
        self.git("add", "-A")
        self.git("commit", "-qm", "prose only")
        self.assertEqual(self.check("--strict")[0], 0)  # a README changes no figure
        self.write("plugins/v4/kernel.cu", "// v2\n")
        self.git("add", "-A")
        self.git("commit", "-qm", "faster")
        code, err = self.check()
        self.assertEqual(code, 0)  # a warning by default
        self.assertIn("warning: stale: part `epoch-64`", err)
        self.assertIn("plugins/v4/ (1)", err)
        code, err = self.check("--strict")
        self.assertEqual(code, 1)
        self.assertIn("error: stale: part `epoch-64`", err)

    def test_without_the_history_the_stale_check_says_why_and_skips(self):
        code, err = self.check("--strict")  # not a git checkout
        self.assertEqual(code, 0)
        self.assertIn("not checked: not a git checkout", err)
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("commit", "-qm", "x")
        self.measured_at("0123456789ab")
        code, err = self.check("--strict")
        self.assertEqual(code, 0)
        self.assertIn("not checked: commit 0123456789ab is not in its history", err)

    def test_code_paths_per_part(self):
        part = {"cae": [{"backend": "v3"}, {"backend": "v4"}]}
        self.assertEqual(stale_tables.code_paths("epoch-64", part)[:4],
                         ["plugins/v3/", "plugins/v4/", "api/", "plugins/common/"])
        self.assertEqual(stale_tables.code_paths("torch-max", {"torch": []}), ["tests/gpu/torch_reference.py"])
        self.assertIn("host/", stale_tables.code_paths("pipeline", {"runs": [{"backend": "v4"}]}))


if __name__ == "__main__":
    unittest.main()
