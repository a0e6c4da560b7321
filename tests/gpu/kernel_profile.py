#!/usr/bin/env python3
"""Every kernel of one training step, as Nsight Compute measures it.

A captured step is one CUDA graph launch: CUDA events can only time it
whole. This runs `cae bench` for a short epoch under ncu, which profiles each
kernel node of the graph as a kernel of its own (--graph-profiling node),
finds the step in the launch list (the trailing sequence that repeats once
per step) and reports, per kernel in step order: its time, how busy the
tensor cores were (sm__pipe_tensor_cycles_active: wgmma and mma together,
as a share of the cycles they could have been busy, which for BF16 is the
share of the dense BF16 peak), the SMs' and DRAM's throughput.

Each kernel runs alone under the profiler with clocks left as they are
(--clock-control none) and caches flushed before it (ncu's default), so the
sum of the kernels is not the step's time: the step's time is what
`cae bench` measures without the profiler; the difference is what the
profiler cannot see (launch gaps, the upload of each batch) plus the warmer
caches of the real run.

usage:
  kernel_profile.py --build .devbuild --backend v4 --batch 256 --json k256.json
  kernel_profile.py --parse report.csv --json k.json   (an ncu --csv --page raw export)

Standard library only; ncu from the PATH or --ncu.
"""
import argparse
import csv
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

METRICS = {
    "gpu__time_duration.sum": "ns",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed": "sm_pct",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed": "tensor_pct",
    "dram__bytes_read.sum": "dram_read",
    "dram__bytes_write.sum": "dram_write",
}
# Graph replays the step sequence must show to be taken as the step: bench
# runs three warm-up steps and then the timed ones, all the same graph.
MIN_REPEATS = 3


class ProfileError(Exception):
    pass


def short_name(demangled):
    """`void ns::kernel<A, ns::B>(args...)` -> `kernel<A, B>`: the template
    arguments say which loads and epilogue a GEMM runs; namespaces and the
    parameter list say nothing a reader needs."""
    name = demangled.strip()
    if name.startswith("void "):
        name = name[5:]
    depth = 0
    for i, ch in enumerate(name):  # drop the parameter list: the first '(' outside <>
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            name = name[:i]
            break
    # ncu writes an anonymous namespace as `<unnamed>`, c++filt as `(anonymous namespace)`.
    name = re.sub(r"(<unnamed>|\(anonymous namespace\))::", "", name)
    name = re.sub(r"\b[A-Za-z_][A-Za-z0-9_]*::", "", name)
    return re.sub(r"\s+", " ", name).strip()


def number(text):
    text = (text or "").replace(",", "").strip()
    if text in ("", "n/a"):
        return None
    try:
        return float(text)
    except ValueError:
        return None


def parse_csv(text):
    """The rows of `ncu --csv --page raw --print-units base`: one dict per
    kernel launch, in launch order."""
    rows = list(csv.reader(io.StringIO(text)))
    start = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
    if start is None:
        raise ProfileError("no ncu raw-page header (a row starting with \"ID\") in the CSV")
    header = rows[start]
    for needed in ["Kernel Name", "Grid Size", "Block Size"] + list(METRICS):
        if needed not in header:
            raise ProfileError(f"the ncu CSV has no column {needed!r}")
    col = {name: header.index(name) for name in header}
    launches = []
    for r in rows[start + 1:]:
        if len(r) != len(header) or not r[0].strip().isdigit():
            continue  # the units row, or a note ncu printed
        launch = {"name": short_name(r[col["Kernel Name"]]), "grid": r[col["Grid Size"]].strip(),
                  "block": r[col["Block Size"]].strip()}
        if "Stream" in col:
            launch["stream"] = r[col["Stream"]].strip()
        for metric, key in METRICS.items():
            launch[key] = number(r[col[metric]])
        launches.append(launch)
    if not launches:
        raise ProfileError("the ncu CSV lists no kernel")
    return launches


def signature(launch):
    return (launch["name"], launch["grid"], launch["block"])


def find_step(launches, min_repeats=MIN_REPEATS):
    """(period, repeats): the sequence that the launch list ends with
    `repeats` >= min_repeats times in a row (compared as multisets: kernels
    of parallel branches may be profiled in either order) and that covers the
    most launches; a step whose first part repeats inside it still covers
    more as itself than its part does."""
    keys = [signature(x) for x in launches]
    n = len(keys)
    best = None
    for period in range(1, n // min_repeats + 1):
        last = sorted(keys[n - period:])
        repeats = 1
        while (repeats + 1) * period <= n and \
                sorted(keys[n - (repeats + 1) * period:n - repeats * period]) == last:
            repeats += 1
        if repeats >= min_repeats and (best is None or period * repeats > best[0] * best[1]):
            best = (period, repeats)
    if best is None:
        raise ProfileError(f"no kernel sequence repeats {min_repeats} times at the end of the "
                           f"{n} launches profiled: was the epoch the last thing run?")
    return best


def step_kernels(launches, min_repeats=MIN_REPEATS):
    """The step's kernels in the order of its last replay, each metric the
    median over the replays found (matched by signature and occurrence)."""
    period, repeats = find_step(launches, min_repeats)
    n = len(launches)
    replays = [launches[n - (k + 1) * period:n - k * period] for k in range(repeats)]

    def occurrences(replay):
        """{(signature, nth occurrence): launch}, in launch order."""
        seen, out = {}, {}
        for x in replay:
            key = signature(x)
            seen[key] = seen.get(key, 0) + 1
            out[key + (seen[key],)] = x
        return out

    indexed = [occurrences(r) for r in replays]
    kernels = []
    for key, x in indexed[0].items():  # the last replay, in launch order
        same = [ix[key] for ix in indexed]
        k = {"name": x["name"], "grid": x["grid"], "block": x["block"]}
        if "stream" in x:
            k["stream"] = x["stream"]
        for metric_key in METRICS.values():
            values = [s[metric_key] for s in same if s[metric_key] is not None]
            k[metric_key] = statistics.median(values) if values else None
        k["us"] = k.pop("ns") / 1e3 if k.get("ns") is not None else None
        kernels.append(k)
    return kernels, repeats


# A kernel counts as a tensor-core kernel above this tensor-pipe share: the
# CUDA-core kernels read 0-1% (a stray mma or the metric's noise).
TENSOR_KERNEL_MIN_PCT = 5.0


def tensor_share(kernels):
    """(us, pct): the tensor-core kernels' time and their tensor pipes'
    busy share over it (weighted by time); pct None when there are none."""
    tensor = [k for k in kernels if k.get("us") and (k.get("tensor_pct") or 0) >= TENSOR_KERNEL_MIN_PCT]
    us = sum(k["us"] for k in tensor)
    return us, (sum(k["us"] * k["tensor_pct"] for k in tensor) / us if us else None)


def summary(kernels, repeats):
    tensor_us, tensor_pct = tensor_share(kernels)
    return {"kernels": kernels, "replays_matched": repeats, "kernel_count": len(kernels),
            "sum_us": sum(k["us"] or 0.0 for k in kernels), "tensor_kernels_us": tensor_us,
            "tensor_kernels_pct": tensor_pct}


def find_ncu(given):
    if given:
        return given
    found = shutil.which("ncu")
    if found:
        return found
    for root in ("/opt/nvidia/nsight-compute", "/usr/local/cuda/nsight-compute"):
        if os.path.isdir(root):
            for version in sorted(os.listdir(root), reverse=True):
                path = os.path.join(root, version, "ncu")
                if os.access(path, os.X_OK):
                    return path
    if os.access("/usr/local/cuda/bin/ncu", os.X_OK):
        return "/usr/local/cuda/bin/ncu"
    raise ProfileError("Nsight Compute (ncu) not found: put it on the PATH or pass --ncu")


def run_name(backend, batch, options):
    """kernels-BACKEND-BATCH, then each backend option as -NAME-VALUE: one name
    per setting, so that a variant's files do not overwrite the defaults'."""
    return "-".join([f"kernels-{backend}-{batch}"] + [o.replace("=", "-") for o in options])


def profile(args):
    ncu = find_ncu(args.ncu)
    cae = os.path.join(os.path.abspath(args.build), "bin", "cae")
    if not os.access(cae, os.X_OK):
        raise ProfileError(f"{cae} is not an executable: is --build a cae build?")
    bench = [cae, "bench", "--backend", args.backend, "--batch", str(args.batch),
             "--images", str(args.steps * args.batch), "--extract-images", "0", "--repeats", "1"]
    if args.model:
        bench += ["--model", args.model]
    if args.image_size:
        bench += ["--image-size", str(args.image_size)]
    for option in args.backend_option or []:
        bench += ["--backend-option", option]
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    report = os.path.join(work, run_name(args.backend, args.batch, args.backend_option or []))
    cmd = [ncu, "--clock-control", "none", "--graph-profiling", "node", "--print-units", "base",
           "--metrics", ",".join(METRICS), "--export", report, "--force-overwrite"] + bench
    log_path = report + ".log"
    with open(log_path, "w") as log:
        rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, timeout=args.timeout).returncode
    if rc != 0:
        raise ProfileError(f"ncu exited {rc} (log: {log_path})")
    text = subprocess.run([ncu, "--import", report + ".ncu-rep", "--csv", "--page", "raw",
                           "--print-units", "base", "--print-kernel-base", "demangled"], capture_output=True, text=True,
                          check=True, timeout=600).stdout
    version = subprocess.run([ncu, "--version"], capture_output=True, text=True).stdout.strip()
    return text, {"ncu": version.splitlines()[-1] if version else ncu,
                  "command": "ncu " + " ".join(cmd[1:-len(bench)]) + " cae " + " ".join(bench[1:])}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--build", default=".devbuild", help="the cae build folder (default .devbuild)")
    p.add_argument("--backend", default="v4", help="backend to profile (default v4)")
    p.add_argument("--backend-option", action="append", metavar="NAME=VALUE",
                   help="passed to cae bench (repeatable)")
    p.add_argument("--model", help="passed to cae bench: a preset or a JSON description (default: cae's)")
    p.add_argument("--image-size", type=int, help="passed to cae bench: side of the images (default: cae's)")
    p.add_argument("--batch", type=int, default=256, help="training batch (default 256)")
    p.add_argument("--steps", type=int, default=2,
                   help="timed steps after bench's 3 warm-up steps (default 2)")
    p.add_argument("--ncu", help="the ncu executable (default: from the PATH)")
    p.add_argument("--work", default="/tmp/cae-kernel-profile",
                   help="folder for ncu's report and log (default /tmp/cae-kernel-profile)")
    p.add_argument("--timeout", type=float, default=900, help="seconds ncu may take (default 900)")
    p.add_argument("--parse", metavar="CSV", help="read an existing ncu raw-page CSV instead of profiling")
    p.add_argument("--json", help="write the result here (default: print it)")
    args = p.parse_args(argv)
    if args.batch < 1 or args.steps < 1 or (args.image_size is not None and args.image_size < 1):
        p.error("--batch, --steps and --image-size must be at least 1")
    if args.timeout <= 0:
        p.error("--timeout must be positive")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.parse:
            with open(args.parse) as f:
                text, meta = f.read(), {"source": args.parse}
        else:
            text, meta = profile(args)
        kernels, repeats = step_kernels(parse_csv(text))
    except (ProfileError, OSError, subprocess.SubprocessError) as e:
        print(f"kernel_profile: {e}", file=sys.stderr)
        return 1
    result = dict(meta, backend=args.backend, batch=args.batch, model=args.model or "default",
                  backend_options=args.backend_option or [], **summary(kernels, repeats))
    text = json.dumps(result, indent=1) + "\n"
    if args.json:
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, args.json)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
