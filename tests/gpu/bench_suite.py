#!/usr/bin/env python3
"""Runs cae's benchmark suite and writes its results as JSON and Markdown.

Called by tests/gpu/bench-suite.sh (which makes the build usable first); the
parts, what each measures and how: docs/PERF.md, "Method". Standard library
only: PyTorch is used through the peer scripts beside this file, in their own
processes, so that a slow compilation can be stopped without losing the rest.

Every step runs under a time limit taken from the command's budget (--budget):
a step that does not fit is recorded as "not run" or "timed out" with the
limit, and the command still writes everything it measured before its budget
ends.
"""
import argparse
import contextlib
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import ablation_table  # noqa: E402  (the ablation part's runs)
import ingredients_table  # noqa: E402  (the ingredients parts' variants)
import kernel_profile  # noqa: E402  (same folder)
import perf_tables  # noqa: E402  (the renderer: same folder)
import search_part  # noqa: E402  (the search part)

PARTS = perf_tables.PARTS
# Each of these is several whole pipelines or SVM searches at full size: --quick
# runs them (reduced) only when --part names them.
NOT_QUICK_PARTS = ingredients_table.PARTS + ["ablation", "search"]
# Backends in the order the tables list them (slowest first); others found follow.
KNOWN_BACKENDS = ["cpu", "naive", "v1", "v2", "v3", "winograd", "v4"]
TORCH_FAST_CONFIGS = ["bf16-eager", "bf16-compile"]
TORCH_MAX_CONFIG = "bf16-compile-max"

# What --quick reduces (the tables say which mode measured each figure).
SETTINGS = {
    "full": {"images": 50000, "extract_images": 60000, "repeats": 20, "cpu_batches": 2,
             "cpu_extract_images": 512, "cpu_repeats": 3, "torch_images": 50000,
             "torch_repeats": 3, "sweep_seeds": 60, "sweep_quick_shapes": False,
             "pipeline_args": [], "ddp_batches": [128, 256, 512], "torch_max_batches": [64, 256],
             "bench_limit": 300, "torch_limit": 240, "torch_max_limit": 270,
             "pipeline_limit": 300, "pipeline_cpu_limit": 900, "sweep_limit": 75, "ddp_limit": 240, "search_train_args": [],
             "kernel_batches": [256, 64], "kernels_limit": 240},
    "quick": {"images": 8192, "extract_images": 10000, "repeats": 5, "cpu_batches": 1,
              "cpu_extract_images": 256, "cpu_repeats": 1, "torch_images": 8192,
              "torch_repeats": 2, "sweep_seeds": 3, "sweep_quick_shapes": True,
              "pipeline_args": ["--samples", "10000"], "ddp_batches": [256], "torch_max_batches": [64],
              "bench_limit": 120, "torch_limit": 120, "torch_max_limit": 150,
              "pipeline_limit": 120, "pipeline_cpu_limit": 600, "sweep_limit": 40, "ddp_limit": 150,
              "search_train_args": ["--samples", "10000"],
              "kernel_batches": [256], "kernels_limit": 180},
    # Checks the suite itself on any machine (a CPU-only one included) in minutes: the
    # figures mean nothing and the tables say so.
    "smoke": {"images": 64, "extract_images": 64, "repeats": 1, "cpu_batches": 1,
              "cpu_extract_images": 64, "cpu_repeats": 1, "torch_images": 256,
              "torch_repeats": 1, "sweep_seeds": 2, "sweep_quick_shapes": True,
              "pipeline_args": ["--samples", "300", "--epochs", "1", "--validation", "100"],
              "ddp_batches": [64], "torch_max_batches": [64],
              "bench_limit": 240, "torch_limit": 120, "torch_max_limit": 120,
              "pipeline_limit": 240, "pipeline_cpu_limit": 300, "sweep_limit": 240, "ddp_limit": 120,
              "search_train_args": ["--epochs", "1"], "search_synthetic": ["--train", "400", "--test", "100"],
              "kernel_batches": [64], "kernels_limit": 180},
}

# The README's two pipeline commands ("Run it" and "What to expect"), as written there.
# The model presets, each timed on the two fastest backends and run through the
# pipeline with C and gamma chosen on the validation split.
MODEL_PRESETS = ["seed", "wide", "deep"]
MODEL_BACKENDS = ["v4", "v3"]
# The backend whose captured step the kernels part profiles kernel by kernel.
KERNELS_BACKEND = "v4"
# Kernel variants the kernels part also profiles, at its last batch, against
# the defaults' kernels: backend options that swap kernels of the step.
KERNEL_VARIANTS = [["edge-kernels=tensor-cores"]]

# The best recipe written out: what `cae pipeline --defaults best` (its
# default) adds (host/cli/pipeline_defaults.cpp; a unit test holds them
# equal), in the order the ingredients table writes its variants.
BEST_RECIPE = ["--features", ingredients_table.TWO_SCALES, "--augment", "flip", "--contrast-normalize",
               "--epochs", "60", "--search"]

# `cae pipeline` runs the best recipe by default: timed twice, from the fresh
# install (certifying the default backend on its first use) and again, as
# every later run meets it; `--defaults baseline` runs the seed's settings.
PIPELINES = [
    ("best", []),
    (perf_tables.AGAIN_RUN, []),
    ("baseline", ["--defaults", "baseline"]),
]


PARTS_HELP = (
    "Each part fits one command's default budget on one H100 (full mode, about): epoch-64 and "
    "epoch-256 4.5 minutes together, torch-max 2.5, pipeline 2.5 (the README's command from a fresh install and again, and the baseline), "
    "ingredients-1 4.5, ingredients-2 6, ingredients-3 2.4, ingredients-4 5, ingredients-5 4, ingredients-6 2.5, ingredients-7 3, ingredients-8 3 and ingredients-9 3.5 (a whole `cae pipeline ... --search` per variant of "
    "the best recipe, listed in tests/gpu/ingredients_table.py), ablation 8 (the best recipe with each "
    "ingredient taken away or added, and with two more training seeds: tests/gpu/ablation_table.py), search 5 (the best recipe's "
    "features made once, then `cae svm --search`, the same on the float32 kernel, "
    "`--search-exhaustive`, the linear classifier's search with its passes on the host "
    "and on the backend, and with the squared hinge on the backend, and the default search over "
    "a wider grid, on them), models 6, "
    "conformance 6, ddp 4 (two GPUs: `cae bench --devices 0,1`, PyTorch DDP, and `cae train` with one process per GPU against one process driving both), kernels 3 (Nsight Compute over one step of v4 at batches "
    "256 and 64). Merge the results of several commands with "
    "`python3 tests/gpu/perf_tables.py update A/perf-results.json B/perf-results.json`.")


def parse_two_processes(text):
    """What tests/gpu/run-two-processes.sh printed: each run's last epoch in
    images/s, the steps whose gradients crossed inside the step graphs (for
    --devices, then the two processes), the largest weight difference
    between the two processes and --devices; None without the three runs."""
    img_s = {}
    for run, curve in re.findall(r"^(single|devices|ranks) +(.*)$", text, re.M):
        epochs = re.findall(r"e\d+ loss [0-9.]+ ([0-9.]+) img/s", curve)
        if epochs:
            img_s[run] = float(epochs[-1])
    if set(img_s) != {"single", "devices", "ranks"}:
        return None
    in_graph = [[int(a), int(b)] for a, b in
                re.findall(r"gradients exchanged inside the step graphs on (\d+) of (\d+) steps", text)]
    diff = re.search(r"max \|w_ranks - w_devices\| = ([0-9.eE+-]+)", text)
    return {"single_img_s": img_s["single"], "devices_img_s": img_s["devices"],
            "ranks_img_s": img_s["ranks"],
            "devices_in_graph": in_graph[0] if len(in_graph) > 0 else None,
            "ranks_in_graph": in_graph[1] if len(in_graph) > 1 else None,
            "max_weight_difference": float(diff.group(1)) if diff else None}


class Budget:
    """The seconds left to the whole command; each step gets at most its own
    limit and never more than what is left less a reserve for writing results."""

    def __init__(self, seconds, reserve=15.0):
        self.end = time.monotonic() + seconds
        self.reserve = reserve

    def limit(self, wanted):
        return max(0.0, min(float(wanted), self.end - time.monotonic() - self.reserve))

    def share(self, wanted, steps_left):
        """limit(wanted), but no more than an equal share of what is left among
        `steps_left` steps still to run, so that the last of them is not starved."""
        return self.limit(min(float(wanted), self.limit(float("inf")) / max(1, steps_left)))


class Step:
    """One child process: exit code, wall time, peak resident memory, log."""

    def __init__(self, rc, wall_s, peak_rss_bytes, timed_out, limit_s, log):
        self.rc, self.wall_s, self.peak_rss_bytes = rc, wall_s, peak_rss_bytes
        self.timed_out, self.limit_s, self.log = timed_out, limit_s, log

    def failure(self):
        """None when the step succeeded, else one line saying why not."""
        if self.timed_out:
            return f"timed out after {self.limit_s:.0f} s"
        if self.rc != 0:
            tail = [line for line in self.log.splitlines() if line.strip()][-1:]
            return f"exit {self.rc}" + (f": {tail[0].strip()[:200]}" if tail else "")
        return None


def run_step(cmd, limit_s, log_path, env=None):
    """Runs cmd in its own process group, logs its output to log_path, stops the
    group when limit_s passes. Peak RSS comes from wait4 on the child itself."""
    start = time.monotonic()
    if limit_s <= 0:
        return Step(None, 0.0, 0, True, 0.0, "not started: no time left in the budget")
    with open(log_path, "w") as log:
        log.write("$ " + " ".join(cmd) + "\n")
        log.flush()
        try:
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                    preexec_fn=os.setsid)
        except OSError as e:
            return Step(127, 0.0, 0, False, limit_s, f"cannot start {cmd[0]}: {e}")
        timed_out, kill_at = False, None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid == proc.pid:
                break
            now = time.monotonic()
            if not timed_out and now - start > limit_s:
                timed_out, kill_at = True, now + 5  # SIGTERM first: cae cleans up on it
                signal_group(proc.pid, signal.SIGTERM)
            elif timed_out and now > kill_at:
                signal_group(proc.pid, signal.SIGKILL)
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    with open(log_path, errors="replace") as f:
        text = f.read()
    return Step(proc.returncode, wall, usage.ru_maxrss * 1024, timed_out, limit_s, text)


def signal_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


# ---------------------------------------------------------------- machine


def command_output(cmd, timeout=60):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def parse_nvidia_smi_gpus(text):
    """Rows of `nvidia-smi --query-gpu=name,memory.total,driver_version
    --format=csv,noheader,nounits` as dicts."""
    gpus = []
    for line in (text or "").splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) == 3 and cells[0]:
            gpus.append({"name": cells[0], "memory_mib": int(float(cells[1])), "driver": cells[2]})
    return gpus


def parse_cuda_toolkit(cache_text):
    """The CUDA toolkit the build was compiled with, from its CMakeCache.txt."""
    m = re.search(r"FIND_PACKAGE_MESSAGE_DETAILS_CUDAToolkit:INTERNAL=.*\[v([0-9.]+)", cache_text)
    return m.group(1) if m else None


def source_commit(build, given):
    """--commit, else the commit a carried build was made from (written by
    tests/gpu/prepare-carry.sh: a copied tree's git history may be stale),
    else the source tree's own."""
    if given:
        return given
    recorded = os.path.join(build, "source-commit")
    if os.path.exists(recorded):
        with open(recorded) as f:
            text = f.read().strip()
        if text:
            return text
    out = command_output(["git", "-C", ROOT, "describe", "--always", "--dirty", "--abbrev=12"])
    return out.strip() if out and out.strip() else "unknown"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def torch_versions(python):
    code = ("import json, torch; print(json.dumps({'torch': torch.__version__, "
            "'cudnn': torch.backends.cudnn.version() if torch.cuda.is_available() else None, "
            "'torch_cuda': torch.version.cuda, 'gpus': torch.cuda.device_count()}))")
    out = command_output([python, "-c", code], timeout=120)
    try:
        return json.loads(out.strip().splitlines()[-1]) if out else None
    except (ValueError, IndexError):
        return None


def machine_record(build, args, torch_info):
    gpus = parse_nvidia_smi_gpus(command_output(
        ["nvidia-smi", "--query-gpu=name,memory.total,driver_version",
         "--format=csv,noheader,nounits"]))
    smi = command_output(["nvidia-smi"]) or ""
    cuda_driver = re.search(r"CUDA Version:\s*([0-9.]+)", smi)
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            toolkit = parse_cuda_toolkit(f.read())
    except OSError:
        toolkit = None
    with open("/proc/meminfo") as f:
        mem_kib = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
    return {
        "gpu": gpus[0]["name"] if gpus else None,
        "gpus": len(gpus),
        "gpu_memory_mib": gpus[0]["memory_mib"] if gpus else None,
        "driver": gpus[0]["driver"] if gpus else None,
        "cuda_driver": cuda_driver.group(1) if cuda_driver else None,
        "cuda_toolkit": toolkit,
        "torch": torch_info["torch"] if torch_info else None,
        "torch_cuda": torch_info["torch_cuda"] if torch_info else None,
        "cudnn": torch_info["cudnn"] if torch_info else None,
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": round(mem_kib / 1048576, 1),
        "commit": source_commit(build, args.commit),
    }


# A backend's first row in `cae backends`: name, version, ABI, availability.
BACKEND_ROW = re.compile(r"^(\S+)\s+\S+\s+ABI \S+\s+(available|unavailable)(?::\s*(.*))?$")


def parse_backends(text):
    """`cae backends` rows -> {name: None (available) or the reason it is not}."""
    found = {}
    for line in (text or "").splitlines():
        m = BACKEND_ROW.match(line)
        if m:
            found[m.group(1)] = None if m.group(2) == "available" else (m.group(3) or "unavailable")
    return found


def default_backend(text):
    """The backend `cae backends` marks as the default, or None."""
    name = None
    for line in (text or "").splitlines():
        m = BACKEND_ROW.match(line)
        if m:
            name = m.group(1)
        elif name and line.rstrip().endswith("the default"):
            return name
    return None


def implied_defaults(output):
    """The options `--defaults best` filled in for a `cae pipeline` run (its
    "defaults: best recipe:" line), or None (baseline, or nothing implied)."""
    m = re.search(r"^defaults: best recipe: (.+?) \(--defaults baseline", output or "", re.M)
    return m.group(1) if m else None


def first_use_certification(output):
    """{"backend", "seconds", "verdict"} of the line `cae` prints when it
    certifies its default backend on first use, or None."""
    m = re.search(r"^cae: certifying (\S+) on first use .*? (certified in ([0-9.]+) s|NOT certified)",
                  output or "", re.M)
    if not m:
        return None
    return {"backend": m.group(1), "seconds": float(m.group(3)) if m.group(3) else None,
            "verdict": "passed" if m.group(3) else "failed"}


def default_backend_problem(found, default):
    """Why the parts that time cae's default backend (the README's commands,
    `cae bench --devices`) would not time a GPU backend here, or None. With
    nothing certified, cae certifies the fastest of its own backends on first
    use; but once the cpu backend alone is certified (by hand), it is the
    default: those parts would then time the cpu backend for their whole
    budget instead of saying what is missing."""
    gpu = [b for b in ordered_backends(found, None) if found[b] is None and b != "cpu"]
    if not gpu or default != "cpu":
        return None
    return (f"cae's default backend here is {default or 'none'}, while {', '.join(gpu)} "
            f"{'is' if len(gpu) == 1 else 'are'} available but not certified: certify the "
            f"fastest first (cae-conformance --backend {gpu[-1]})")


def ordered_backends(found, wanted):
    names = wanted if wanted else (
        [b for b in KNOWN_BACKENDS if b in found] + sorted(b for b in found if b not in KNOWN_BACKENDS))
    return names


# ---------------------------------------------------------------- parts


class Suite:
    def __init__(self, args):
        self.args = args
        self.mode = "smoke" if args.smoke else "quick" if args.quick else "full"
        self.s = dict(SETTINGS[self.mode])
        if getattr(args, "sweep_seeds", None):
            self.s["sweep_seeds"] = args.sweep_seeds
        self.build = os.path.abspath(args.build)
        self.cae = os.path.join(self.build, "bin", "cae")
        self.conformance = os.path.join(self.build, "bin", "cae-conformance")
        self.out = os.path.abspath(args.out)
        self.work = os.path.abspath(args.work or args.out)
        self.logs = os.path.join(self.work, "logs")
        self.raw = os.path.join(self.work, "raw")
        os.makedirs(self.logs, exist_ok=True)
        os.makedirs(self.raw, exist_ok=True)
        self.budget = Budget(args.budget)
        self.torch = torch_versions(args.python)
        self.machine = machine_record(self.build, args, self.torch)
        listing = command_output([self.cae, "backends"])
        if listing is None:
            sys.exit(f"bench-suite: {self.cae} backends failed: is {self.build} a cae build?")
        self.found = parse_backends(listing)
        self.default_problem = default_backend_problem(self.found, default_backend(listing))
        self.certified_untimed = False  # certify_default_untimed has run
        unknown = [b for b in (args.backends or []) if b not in self.found]
        if unknown:
            sys.exit(f"bench-suite: --backends names {', '.join(unknown)}, not found by "
                     f"`cae backends` (found: {', '.join(self.found)})")
        self.backends = ordered_backends(self.found, args.backends)

    def log(self, name):
        return os.path.join(self.logs, name + ".log")

    def certify_default_untimed(self):
        """Before a part that times whole pipelines on cae's default backend:
        the first-use certification a fresh machine would otherwise fold into
        its first run's wall time (about 15-20 s on an H200), made once here,
        untimed, by a tiny `cae bench` (which certifies the default on first
        use like any command). Only the pipeline part times a first use, on a
        fresh install of its own."""
        if self.certified_untimed:
            return
        self.certified_untimed = True
        step = self.step([self.cae, "bench", "--images", "64", "--batch", "64"],
                         self.s["pipeline_limit"], "certify-default")
        if step.failure():
            self.say(f"certifying the default backend before timing failed: {step.failure()}")

    def step(self, cmd, wanted_limit, log_name):
        """run_step within the budget, its output in logs/LOG_NAME.log."""
        return run_step(cmd, self.budget.limit(wanted_limit), self.log(log_name))

    def header(self):
        return {"mode": self.mode, "date": datetime.datetime.now(datetime.timezone.utc)
                .strftime("%Y-%m-%d %H:%M UTC"), "machine": self.machine}

    def say(self, text):
        print(f"[bench-suite {time.strftime('%H:%M:%S')}] {text}", flush=True)

    # -- training epochs (and, at batch 64, feature extraction)

    def bench_backend(self, backend, batch):
        reason = self.found.get(backend)
        if reason is not None:
            return {"backend": backend, "status": "skipped", "reason": reason}
        cpu = backend == "cpu"
        images = self.s["cpu_batches"] * batch if cpu else self.s["images"]
        extract = 0 if batch != 64 else (self.s["cpu_extract_images"] if cpu else self.s["extract_images"])
        repeats = self.s["cpu_repeats"] if cpu else self.s["repeats"]
        json_path = os.path.join(self.raw, f"bench-{backend}-{batch}.json")
        cmd = [self.cae, "bench", "--backend", backend, "--batch", str(batch), "--images",
               str(images), "--extract-images", str(extract), "--repeats", str(repeats),
               "--json", json_path]
        step = run_step(cmd, self.budget.limit(self.s["bench_limit"]), self.log(f"bench-{backend}-{batch}"))
        record = {"backend": backend, "command": "cae " + " ".join(cmd[1:-2])}
        if step.failure():
            return dict(record, status="failed", reason=step.failure())
        with open(json_path) as f:
            b = json.load(f)
        record.update(status="measured", precision=b["precision"], device=b["device"],
                      images=b["images"], epoch_s=b["epoch_seconds"], epoch_tflops=b["epoch_tflops"],
                      extract_images=b["extract_images"], extract_s=b["extract_seconds"],
                      extract_streams=b["extract_streams"], host_memory=b["host_memory"],
                      peak_device_bytes=b["peak_device_bytes"],
                      ops=[{k: op[k] for k in ("op", "layer", "ms", "tflops")} for op in b["ops"]])
        return record

    def torch_run(self, config, batch, limit, tag):
        if not self.torch:
            return {"config": config, "batch": batch, "status": "skipped",
                    "reason": f"PyTorch is not importable by {self.args.python}"}
        images = self.s["torch_images"]
        json_path = os.path.join(self.raw, f"torch-{config}-{batch}.json")
        cmd = [self.args.python, os.path.join(HERE, "torch_reference.py"), "--configs", config,
               "--batch", str(batch), "--images", str(images), "--repeats",
               str(self.s["torch_repeats"]), "--json", json_path]
        step = run_step(cmd, self.budget.limit(limit), self.log(tag))
        if step.failure():
            return {"config": config, "batch": batch, "status": "failed", "reason": step.failure()}
        with open(json_path) as f:
            r = json.load(f)["results"][0]
        return {"config": config, "batch": batch, "status": "measured", "images": images,
                "epoch_s": r["epoch_s"], "epochs_s": r["epochs_s"], "warmup_s": r["warmup_s"]}

    def part_epoch(self, batch):
        cae = []
        for backend in self.backends:
            self.say(f"batch {batch}: cae bench --backend {backend}")
            cae.append(self.bench_backend(backend, batch))
        torch = []
        for config in TORCH_FAST_CONFIGS:
            self.say(f"batch {batch}: PyTorch {config}")
            torch.append(self.torch_run(config, batch, self.s["torch_limit"], f"torch-{config}-{batch}"))
        return {"batch": batch, "cae": cae, "torch": torch}

    def part_torch_max(self):
        torch = []
        for batch in self.s["torch_max_batches"]:
            self.say(f"batch {batch}: PyTorch {TORCH_MAX_CONFIG}")
            torch.append(self.torch_run(TORCH_MAX_CONFIG, batch, self.s["torch_max_limit"],
                                        f"torch-{TORCH_MAX_CONFIG}-{batch}"))
        return {"torch": torch}

    # -- the whole job

    def fresh_install(self):
        """A copy of the build's program, backends and fonts under raw/, and an
        environment whose certification cache is empty: (cae, env)."""
        prefix = os.path.join(self.raw, "fresh-install")
        shutil.rmtree(prefix, ignore_errors=True)
        for folder in ("bin", os.path.join("lib", "cae", "plugins"), "share"):
            source = os.path.join(self.build, folder)
            if os.path.isdir(source):
                shutil.copytree(source, os.path.join(prefix, folder),
                                ignore=shutil.ignore_patterns("*.certified.json"))
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(self.raw, "fresh-cache"))
        shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
        return os.path.join(prefix, "bin", "cae"), env

    def part_pipeline_cpu(self):
        """The README's main command on a machine without a GPU: the fresh
        install's `cae pipeline` with no options in an empty folder, so on the
        cpu backend (GPUs hidden), certified on first use, and on the synthetic
        set it generates without CIFAR-10 under data/."""
        fresh, env = self.fresh_install()
        env["CUDA_VISIBLE_DEVICES"] = ""
        job = os.path.join(self.raw, "pipeline-cpu")
        shutil.rmtree(job, ignore_errors=True)
        os.makedirs(job)
        cmd = [fresh, "pipeline"]
        self.say("pipeline-cpu: cae pipeline (no GPU, no data)")
        log = self.log("pipeline-cpu")
        with contextlib.chdir(job):
            step = run_step(cmd, self.budget.limit(self.s["pipeline_cpu_limit"]), log, env=env)
        record = {"name": "best", "readme_command": "cae pipeline",
                  "certified_on_first_use": first_use_certification(step.log)}
        if step.failure():
            return {"runs": [dict(record, status="failed", reason=step.failure())]}
        with open(os.path.join(job, "run", "report.json")) as f:
            report = json.load(f)
        return {"data": "synthetic (3,000 + 600 images, generated by `cae pipeline`)",
                "runs": [dict(record, status="measured", backend=report["backend"],
                              device=report["device"], wall_s=step.wall_s,
                              peak_rss_bytes=step.peak_rss_bytes, accuracy=report["accuracy"],
                              stages=dict(report["stage_timings"]))]}

    def part_pipeline(self):
        if not self.args.data:
            return {"status": "skipped", "reason": "no CIFAR-10 folder given (--data DIR)"}
        # As a new user meets it: a fresh copy of the program and its backends,
        # nothing certified, so the first run certifies the default backend on
        # its first use and its wall time includes that.
        fresh, env = self.fresh_install()
        runs = []
        for name, options in PIPELINES:
            run_dir = os.path.join(self.raw, f"pipeline-{name}")
            extra = self.s["pipeline_args"]
            readme_command = " ".join(["cae", "pipeline"] + options)
            cmd = [fresh, "pipeline", "--data", self.args.data] + extra + options + ["--out", run_dir]
            self.say(f"pipeline {name}: {readme_command}")
            step = run_step(cmd, self.budget.limit(self.s["pipeline_limit"]), self.log(f"pipeline-{name}"),
                            env=env)
            record = {"name": name, "readme_command": readme_command,
                      "command": "cae " + " ".join(cmd[1:]).replace(self.raw + "/", ""),
                      "certified_on_first_use": first_use_certification(step.log),
                      "defaults": implied_defaults(step.log)}
            if step.failure():
                runs.append(dict(record, status="failed", reason=step.failure()))
                continue
            with open(os.path.join(run_dir, "report.json")) as f:
                report = json.load(f)
            settings = dict(report["settings"])
            runs.append(dict(record, status="measured", backend=report["backend"],
                             device=report["device"], wall_s=step.wall_s,
                             peak_rss_bytes=step.peak_rss_bytes, accuracy=report["accuracy"],
                             validation_accuracy=settings.get("validation accuracy"),
                             train_images=settings.get("train images"),
                             stages=dict(report["stage_timings"]),
                             svm={k: settings.get(k) for k in ("svm chosen by", "svm C", "svm gamma",
                                                               "features", "validation rows",
                                                               "svm search s")}))
        return {"data": self.args.data_name or f"`{self.args.data}`", "added_options": " ".join(self.s["pipeline_args"]), "runs": runs}

    # -- the model presets

    def preset_bench(self, backend, preset):
        reason = self.found.get(backend)
        if reason is not None:
            return {"backend": backend, "status": "skipped", "reason": reason}
        json_path = os.path.join(self.raw, f"bench-{preset}-{backend}.json")
        cmd = [self.cae, "bench", "--backend", backend, "--model", preset, "--batch", "64",
               "--images", str(self.s["images"]), "--extract-images", "0",
               "--repeats", str(self.s["repeats"]), "--json", json_path]
        step = run_step(cmd, self.budget.limit(self.s["bench_limit"]), self.log(f"bench-{preset}-{backend}"))
        if step.failure():
            return {"backend": backend, "status": "failed", "reason": step.failure()}
        with open(json_path) as f:
            b = json.load(f)
        return {"backend": backend, "status": "measured", "images": b["images"],
                "epoch_s": b["epoch_seconds"], "precision": b["precision"]}

    def part_models(self):
        if not self.args.data:
            return {"status": "skipped", "reason": "no CIFAR-10 folder given (--data DIR)"}
        runs = []
        for preset in MODEL_PRESETS:
            record = {"model": preset, "epochs": []}
            for backend in MODEL_BACKENDS:
                self.say(f"model {preset}: cae bench --backend {backend} --model {preset}")
                record["epochs"].append(self.preset_bench(backend, preset))
            backend = next((b for b in MODEL_BACKENDS if self.found.get(b) is None), "cpu")
            options = ["--backend", backend, "--model", preset, "--search"]
            run_dir = os.path.join(self.raw, f"pipeline-model-{preset}")
            cmd = [self.cae, "pipeline", "--data", self.args.data] + self.s["pipeline_args"] + options + ["--out", run_dir]
            record["readme_command"] = " ".join(["cae", "pipeline"] + options)
            self.say(f"model {preset}: {record['readme_command']}")
            step = run_step(cmd, self.budget.limit(self.s["pipeline_limit"]), self.log(f"pipeline-model-{preset}"))
            if step.failure():
                record.update(status="failed", reason=step.failure())
            else:
                with open(os.path.join(run_dir, "report.json")) as f:
                    report = json.load(f)
                settings = dict(report["settings"])
                record.update(status="measured", wall_s=step.wall_s, peak_rss_bytes=step.peak_rss_bytes,
                              accuracy=report["accuracy"],
                              validation_accuracy=settings.get("validation accuracy"),
                              svm={k: settings.get(k) for k in ("svm chosen by", "svm C", "svm gamma",
                                                                "features")})
            runs.append(record)
        return {"data": self.args.data_name or f"`{self.args.data}`",
                "added_options": " ".join(self.s["pipeline_args"]), "runs": runs}

    # -- the ingredients' validation table and the search alone

    def part_ingredients(self, group):
        if not self.args.data:
            return {"status": "skipped", "reason": "no CIFAR-10 folder given (--data DIR)"}
        if self.default_problem:
            return {"status": "skipped", "reason": self.default_problem}
        self.certify_default_untimed()
        runs = ingredients_table.run_group(self, ingredients_table.GROUPS[group])
        return {"data": self.args.data_name or f"`{self.args.data}`",
                "added_options": " ".join(self.s["pipeline_args"]), "runs": runs}

    def part_ablation(self):
        if not self.args.data:
            return {"status": "skipped", "reason": "no CIFAR-10 folder given (--data DIR)"}
        if self.default_problem:
            return {"status": "skipped", "reason": self.default_problem}
        self.certify_default_untimed()
        runs = ablation_table.run_part(self, BEST_RECIPE)
        return {"data": self.args.data_name or f"`{self.args.data}`",
                "added_options": " ".join(self.s["pipeline_args"]), "runs": runs}

    def part_search(self):
        data, name = self.args.data, self.args.data_name or f"`{self.args.data}`"
        if "search_synthetic" in self.s:  # smoke: a set small enough for any machine
            data, name = os.path.join(self.raw, "search-data"), "synthetic (`cae data synth`)"
            step = self.step([self.cae, "data", "synth", data] + self.s["search_synthetic"], 60, "search-data")
            if step.failure():
                return {"status": "failed", "reason": f"cae data synth: {step.failure()}"}
        elif not data:
            return {"status": "skipped", "reason": "no CIFAR-10 folder given (--data DIR)"}
        if self.default_problem:
            return {"status": "skipped", "reason": self.default_problem}
        self.certify_default_untimed()
        record = search_part.run(self, BEST_RECIPE, data, self.s["search_train_args"])
        return dict(record, data=name, added_options=" ".join(self.s["search_train_args"]))

    # -- conformance: every backend's seed sweep

    def part_conformance(self):
        # One backend at a time, its seeds spread over every core: several CUDA
        # sweeps at once time-slice one GPU between a dozen processes and none
        # of them finishes within its limit. A sweep stopped at its limit still
        # writes the seeds it finished; the table shows how many of how many.
        seeds = self.s["sweep_seeds"]
        cores = max(1, min(os.cpu_count() or 1, seeds))
        env = dict(os.environ, OMP_NUM_THREADS="1")  # each child's float64 reference on one core
        records = []
        runnable = [b for b in self.backends if self.found.get(b) is None]
        for backend in self.backends:
            if self.found.get(backend) is not None:
                records.append({"backend": backend, "status": "skipped", "reason": self.found[backend]})
                continue
            # Each backend at most its equal share of what is left: the last
            # one (v4, the default) gets as long as the first.
            limit = self.budget.share(self.s["sweep_limit"], len(runnable) - runnable.index(backend))
            # The cpu backend's checks use every core themselves: seeds side
            # by side would only share them (16 at once finished none in 75 s).
            jobs = 1 if backend == "cpu" else cores
            json_path = os.path.join(self.raw, f"sweep-{backend}.json")
            cmd = [self.conformance, "--backend", backend, "--seed", "1", "--sweep", str(seeds),
                   "--jobs", str(jobs), "--json", json_path] + (["--quick"] if self.s["sweep_quick_shapes"] else [])
            self.say(f"conformance: {seeds} seeds of {backend}, {jobs} at a time, at most {limit:.0f} s")
            start = time.monotonic()
            with open(self.log(f"sweep-{backend}"), "w") as log:
                proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                        preexec_fn=os.setsid)
                try:
                    proc.wait(timeout=max(1.0, limit))
                    timed_out = False
                except subprocess.TimeoutExpired:
                    # The sweep stops its children and still writes its JSON.
                    signal_group(proc.pid, signal.SIGTERM)
                    try:
                        proc.wait(timeout=20)
                    except subprocess.TimeoutExpired:
                        signal_group(proc.pid, signal.SIGKILL)
                        proc.wait()
                    timed_out = True
            record = {"backend": backend, "seconds": round(time.monotonic() - start, 1)}
            if not os.path.exists(json_path):
                reason = f"timed out after {limit:.0f} s" if timed_out else f"exit {proc.returncode}"
                record.update(status="failed", reason=reason + ", no JSON written")
            else:
                record.update(sweep_record(json_path, 0 if timed_out else proc.returncode,
                                           drop_interrupted=timed_out))
                if timed_out and record.get("failed", 0) == 0:
                    record.update(status="partial",
                                  reason=f"{record['seeds_run']} of {seeds} seeds in {limit:.0f} s")
            records.append(record)
        return {"seeds": seeds, "quick_shapes": self.s["sweep_quick_shapes"], "backends": records}

    # -- two GPUs

    def part_ddp(self):
        if (self.machine["gpus"] or 0) < 2:
            return {"status": "skipped",
                    "reason": f"needs 2 GPUs; nvidia-smi lists {self.machine['gpus'] or 0}"}
        if self.default_problem:
            return {"status": "skipped", "reason": self.default_problem}
        runs, processes = [], []
        for batch in self.s["ddp_batches"]:
            run = self.cae_ddp(batch, [])
            runs.append(run)
            # A backend that exchanges inside its step graphs and can be told
            # not to (v4's graph-exchange option) is timed the other way too,
            # in the same run: what the overlap buys on this machine.
            if "graph-exchange" in run.get("backend_options", {}):
                runs.append(self.cae_ddp(batch, ["--backend-option", "graph-exchange=host"]))
            runs.append(self.torch_ddp(batch))
            if run.get("status") == "measured":
                processes.append(self.cae_processes(run["backend"], batch))
        return {"runs": runs, "processes": processes}

    def cae_ddp(self, batch, extra):
        name = f"ddp-cae-{batch}" + ("-" + "-".join(a.split("=")[-1] for a in extra[1::2]) if extra else "")
        json_path = os.path.join(self.raw, f"{name}.json")
        cmd = [self.cae, "bench", "--devices", "0,1", "--batch", str(batch), "--images",
               str(self.s["images"]), "--json", json_path] + extra
        self.say(f"two GPUs: cae bench --devices 0,1 --batch {batch}" + "".join(" " + a for a in extra))
        step = run_step(cmd, self.budget.limit(self.s["ddp_limit"]), self.log(name))
        options = " ".join(extra[1::2])
        if step.failure():
            return {"who": "cae", "global_batch": batch, "status": "failed", "reason": step.failure(),
                    "options": options}
        with open(json_path) as f:
            d = json.load(f)
        return {"who": "cae", "status": "measured", "backend": d["backend"], "options": options,
                "backend_options": d.get("backend_options", {}),
                "global_batch": d["global_batch"], "images": d["images"],
                "single_s": d["single_device_seconds"], "parallel_s": d["parallel_seconds"],
                "speedup": d["speedup"], "exchange_ms": d["exchange_ms"],
                "steps": d.get("steps"), "steps_exchanged_in_graph": d.get("steps_exchanged_in_graph")}

    def cae_processes(self, backend, batch):
        """`cae train` at one global batch three ways (tests/gpu/run-two-processes.sh):
        one GPU, one process with --devices 0,1, and two processes (one per
        GPU, --rank); each one's last epoch in images/s, how the two-GPU runs
        exchanged their gradients, and how far the two processes' final
        weights lie from --devices'."""
        epochs = 2
        record = {"backend": backend, "global_batch": batch, "images": self.s["images"],
                  "epochs": epochs}
        work = tempfile.mkdtemp(prefix=f"cae-processes-{batch}-")
        env = dict(os.environ, BACKEND=backend, BATCH=str(batch), EPOCHS=str(epochs),
                   TRAIN=str(self.s["images"]), TEST="1024", OUT=work)
        self.say(f"two GPUs: cae train, two processes (--rank) against --devices 0,1, global batch {batch}")
        cmd = ["bash", os.path.join(HERE, "run-two-processes.sh"), self.build]
        step = run_step(cmd, self.budget.limit(self.s["ddp_limit"]), self.log(f"ddp-processes-{batch}"),
                        env=env)
        shutil.rmtree(work, ignore_errors=True)
        parsed = parse_two_processes(step.log)
        if parsed is None or step.timed_out:
            return dict(record, status="failed",
                        reason=step.failure() or "run-two-processes.sh printed no images/s")
        # Every run trained (each printed its images/s): a failure left is the
        # script's comparison of the final weights, which the table shows.
        return dict(record, status="measured", weights_agree=step.rc == 0, **parsed)

    def torch_ddp(self, batch):
        if not self.torch:
            return {"who": "torch", "global_batch": batch, "status": "skipped",
                    "reason": f"PyTorch is not importable by {self.args.python}"}
        json_path = os.path.join(self.raw, f"ddp-torch-{batch}.json")
        cmd = [self.args.python, os.path.join(HERE, "torch_ddp_reference.py"), "--global-batch",
               str(batch), "--images", str(self.s["images"]), "--repeats",
               str(self.s["torch_repeats"]), "--json", json_path]
        self.say(f"two GPUs: PyTorch DDP bf16-eager, global batch {batch}")
        step = run_step(cmd, self.budget.limit(self.s["ddp_limit"]), self.log(f"ddp-torch-{batch}"))
        if step.failure():
            return {"who": "torch", "global_batch": batch, "status": "failed", "reason": step.failure()}
        with open(json_path) as f:
            d = json.load(f)
        return {"who": "torch", "status": "measured", "config": d["config"], "global_batch": batch,
                "images": d["images"], "single_s": d["single_s"], "parallel_s": d["parallel_s"],
                "speedup": d["single_s"] / d["parallel_s"]}

    # -- one step, kernel by kernel

    def part_kernels(self):
        backend = KERNELS_BACKEND
        if backend not in self.found:
            return {"status": "skipped", "reason": f"no {backend} backend in this build"}
        if self.found[backend] is not None:
            return {"status": "skipped", "reason": f"{backend}: {self.found[backend]}"}
        runs = []
        for batch in self.s["kernel_batches"]:
            self.say(f"batch {batch}: kernel_profile.py (ncu) over one step of {backend}")
            runs.append(self.kernel_run(backend, batch, []))
        batch = self.s["kernel_batches"][-1]
        for options in KERNEL_VARIANTS:
            self.say(f"batch {batch}, {' '.join(options)}: kernel_profile.py (ncu) over one step of {backend}")
            runs.append(self.kernel_run(backend, batch, options))
        return {"backend": backend, "runs": runs}

    def kernel_run(self, backend, batch, options):
        name = kernel_profile.run_name(backend, batch, options)
        json_path = os.path.join(self.raw, f"{name}.json")
        option_args = [a for o in options for a in ("--backend-option", o)]
        cmd = [sys.executable, os.path.join(HERE, "kernel_profile.py"), "--build", self.build,
               "--backend", backend, "--batch", str(batch), "--work", os.path.join(self.work, "ncu"),
               "--json", json_path] + option_args
        step = self.step(cmd, self.s["kernels_limit"], name)
        if step.failure():
            return {"batch": batch, "options": options, "status": "failed", "reason": step.failure()}
        with open(json_path) as f:
            record = dict(json.load(f), status="measured", options=options)
        # The same step without the profiler, to set the kernels' sum against.
        bench_json = os.path.join(self.raw, f"{name}-bench.json")
        images = self.s["images"]
        bench = [self.cae, "bench", "--backend", backend, "--batch", str(batch), "--images",
                 str(images), "--extract-images", "0", "--repeats", "1"] + option_args + [
                 "--json", bench_json]
        step = self.step(bench, self.s["bench_limit"], f"{name}-bench")
        if step.failure():
            return dict(record, status="failed", reason="the step without the profiler: " + step.failure())
        with open(bench_json) as f:
            b = json.load(f)
        record.update(epoch_s=b["epoch_seconds"], epoch_images=b["images"],
                      epoch_command="cae " + " ".join(bench[1:-2]))
        return record

    def run(self, parts):
        results = perf_tables.empty_results()
        for part in parts:
            self.say(f"part {part} ({self.budget.limit(1e9):.0f} s of budget left)")
            record = self.header()
            if part == "epoch-64":
                record.update(self.part_epoch(64))
            elif part == "epoch-256":
                record.update(self.part_epoch(256))
            elif part == "torch-max":
                record.update(self.part_torch_max())
            elif part == "pipeline":
                record.update(self.part_pipeline())
            elif part == "pipeline-cpu":
                record.update(self.part_pipeline_cpu())
            elif part == "models":
                record.update(self.part_models())
            elif part == "conformance":
                record.update(self.part_conformance())
            elif part == "ddp":
                record.update(self.part_ddp())
            elif part in ingredients_table.PARTS:
                record.update(self.part_ingredients(ingredients_table.PARTS.index(part)))
            elif part == "ablation":
                record.update(self.part_ablation())
            elif part == "search":
                record.update(self.part_search())
            elif part == "kernels":
                record.update(self.part_kernels())
            record.setdefault("status", "measured")
            results["parts"][part] = record
            write_atomically(os.path.join(self.out, "perf-results.json"),
                             json.dumps(results, indent=1, sort_keys=True) + "\n")
        tables = perf_tables.render_all(results)
        write_atomically(os.path.join(self.out, "perf-tables.md"),
                         "\n\n".join(tables[name] for name in perf_tables.PERF_BLOCKS) + "\n")
        self.say(f"wrote {self.out}/perf-results.json and perf-tables.md; logs in {self.logs}")
        return results


def interrupted(seed):
    """A seed the sweep stopped at its time limit: every failure is the stop
    itself, or the child was ended by the stop's SIGTERM before it could
    write a verdict (a crash by any other signal stays a crash)."""
    failures = seed.get("failures") or []
    if seed.get("verdict") == "crashed":
        return not failures and (seed.get("crash") or {}).get("signal", "").startswith(
            "killed by signal 15")
    return seed.get("verdict") != "passed" and bool(failures) and all(
        str(f.get("detail", "")).startswith("interrupted by") for f in failures)


def sweep_record(json_path, rc, drop_interrupted=False):
    """A sweep's JSON -> seeds run, verdict counts, worst err/bound per op. With
    drop_interrupted (the sweep was stopped at its limit), seeds stopped midway
    count as not run rather than failed."""
    with open(json_path) as f:
        d = json.load(f)
    seeds = [s for s in d.get("seeds", []) if not (drop_interrupted and interrupted(s))]
    verdicts = [s.get("verdict", "failed") for s in seeds]
    record = {"status": "measured", "seeds_run": len(verdicts),
              "passed": verdicts.count("passed"),
              "failed": len(verdicts) - verdicts.count("passed") - verdicts.count("skipped"),
              "worst": {w["op"]: {"ratio": w["ratio"], "seed": w["seed"]} for w in d.get("worst", [])}}
    if verdicts and verdicts.count("skipped") == len(verdicts):
        record.update(status="skipped", reason=d["seeds"][0].get("reason", "unavailable"))
    elif rc not in (0, 77) and record["failed"] == 0:
        record.update(status="failed", reason=f"cae-conformance exited {rc}")
    return record


def write_atomically(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="tests/gpu/bench-suite.sh",
                                description="cae's benchmark suite: results JSON and the tables "
                                            "of docs/PERF.md.",
                                epilog=PARTS_HELP)
    p.add_argument("build", help="a cae build folder (CUDA on for the GPU backends)")
    p.add_argument("--out", required=True, help="folder for perf-results.json, perf-tables.md, logs/")
    p.add_argument("--work", help="folder for logs/ and raw/ (every step's output and the JSON "
                                  "of every command; default: --out)")
    p.add_argument("--quick", action="store_true",
                   help="fewer images, seeds and configurations: every part but "
                        + ", ".join(NOT_QUICK_PARTS) + " in under 10 minutes")
    p.add_argument("--smoke", action="store_true",
                   help="tiny sizes, to check the suite itself on any machine (figures meaningless)")
    p.add_argument("--part", action="append", choices=PARTS + ["all"],
                   help="run this part only (repeatable; default: all; with --quick, all but "
                        + ", ".join(NOT_QUICK_PARTS) + "). Parts: " + ", ".join(PARTS))
    p.add_argument("--data", help="CIFAR-10 binary folder for the pipeline, ingredients, search and "
                                  "models parts")
    p.add_argument("--data-name", help="what the tables call the --data set (default: its path)")
    p.add_argument("--backends", help="comma-separated backends (default: every one found)")
    p.add_argument("--budget", type=float, default=570,
                   help="seconds the whole command may take (default 570)")
    p.add_argument("--commit", help="the source commit to record (default: git describe, or the "
                                    "build's source-commit file)")
    p.add_argument("--python", default="python3", help="the Python that has PyTorch (default python3)")
    p.add_argument("--sweep-seeds", type=int,
                   help="seeds of each backend's conformance sweep (default: 60 in full mode, "
                        "3 with --quick); the conformance table says how many ran")
    args = p.parse_args(argv)
    if args.sweep_seeds is not None and not 1 <= args.sweep_seeds <= 1000:
        p.error(f"--sweep-seeds {args.sweep_seeds} must be between 1 and 1000")
    if not (args.budget > 0 and args.budget < float("inf")):
        p.error(f"--budget {args.budget} must be a positive number of seconds")
    if args.data and not os.path.isdir(args.data):
        p.error(f"--data {args.data} is not a folder")
    args.backends = [b for b in args.backends.split(",")] if args.backends else None
    if args.backends is not None and (not all(args.backends) or len(set(args.backends)) != len(args.backends)):
        p.error("--backends must list distinct names separated by commas")
    parts = args.part or ["all"]
    every = [p_ for p_ in PARTS if not (args.quick and p_ in NOT_QUICK_PARTS)]
    args.parts = every if "all" in parts else [p_ for p_ in PARTS if p_ in parts]
    if os.path.exists(os.path.join(args.out, "perf-results.json")):
        p.error(f"--out {args.out} already holds perf-results.json: give a new folder")
    for sub in ("logs", "raw"):  # a previous run's files would mix with this one's
        if os.path.exists(os.path.join(args.work or args.out, sub)):
            p.error(f"{args.work or args.out} already holds {sub}/ of a previous run: give a new "
                    f"{'--work' if args.work else '--out'} folder")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not os.access(os.path.join(args.build, "bin", "cae"), os.X_OK):
        print(f"bench-suite: {args.build}/bin/cae is not there: build first", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    Suite(args).run(args.parts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
