#!/usr/bin/env python3
"""The time a plain device copy takes to move as many bytes as each of a
training step's memory-bound passes: the reference that says whether those
passes (pooling, upsampling, conversions, sums, Adam) are slow for their size.

Run it under Nsight Compute with the same settings as the step it is compared
with, so both sides are timed alike (each kernel alone, caches flushed):

  ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,\\
      dram__bytes_write.sum --csv python3 tests/gpu/copy_reference.py > copies.csv

Each size is copied `--repeats` times by PyTorch's element-wise kernel
(dst = src * 1: a same-type copy_ would be a cudaMemcpy, not a kernel, and
ncu times kernels only); src and dst each hold half of the bytes moved. The sizes are printed to stderr in launch
order.
"""
import argparse
import sys

import torch


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, nargs="+",
                        default=[0.5, 1, 2, 4, 8, 16, 32, 64, 128],
                        help="bytes moved per copy (read + written), in MB (10^6 bytes)")
    parser.add_argument("--repeats", type=int, default=3, help="copies per size")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("copy_reference: no CUDA device", file=sys.stderr)
        return 1
    if args.repeats < 1 or any(not (0 < m < 1e5) for m in args.megabytes):
        print("copy_reference: sizes must be in (0, 1e5) MB and repeats >= 1", file=sys.stderr)
        return 2
    for megabytes in args.megabytes:
        floats = max(1, int(megabytes * 1e6 / 2 / 4))
        src = torch.ones(floats, device="cuda")  # one fill kernel, before the copies
        dst = torch.empty_like(src)
        torch.cuda.synchronize()
        for _ in range(args.repeats):
            print(f"copy {megabytes} MB", file=sys.stderr)
            torch.mul(src, 1.0, out=dst)
        torch.cuda.synchronize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
