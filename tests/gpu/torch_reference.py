#!/usr/bin/env python3
"""PyTorch's time for the seed's autoencoder, to put beside `cae bench` in the
same job on the same machine (cae's ratios to PyTorch). One 50,000-image epoch, data already on
the GPU, Adam(1e-3), MSE, after warm-up; median of --repeats epochs.

usage: tests/gpu/torch_reference.py [--batch 256 64] [--configs bf16-compile bf16-eager]
                                    [--repeats 3] [--json out.json]
Configurations:
  bf16-eager            bf16 autocast, channels_last
  bf16-compile          the same under torch.compile (default mode)
  bf16-compile-max      torch.compile(mode="max-autotune"): slow to compile
  tf32                  TF32 matmuls/convolutions, no autocast
"""
import argparse
import json
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Autoencoder(nn.Module):
    # The layers of host/nn/architecture.hpp: 3-256-128 (pool) | 128-256-3 (upsample).
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 256, 3, padding=1)
        self.c2 = nn.Conv2d(256, 128, 3, padding=1)
        self.d1 = nn.Conv2d(128, 128, 3, padding=1)
        self.d2 = nn.Conv2d(128, 256, 3, padding=1)
        self.d3 = nn.Conv2d(256, 3, 3, padding=1)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.interpolate(F.relu(self.d1(x)), scale_factor=2, mode="nearest")
        x = F.interpolate(F.relu(self.d2(x)), scale_factor=2, mode="nearest")
        return self.d3(x)


def epoch_seconds(config, batch, images, repeats):
    torch.manual_seed(1)
    torch.backends.cuda.matmul.allow_tf32 = config == "tf32"
    torch.backends.cudnn.allow_tf32 = config == "tf32"
    torch.backends.cudnn.benchmark = True
    model = Autoencoder().cuda().to(memory_format=torch.channels_last)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = torch.rand(images, 3, 32, 32, device="cuda").to(memory_format=torch.channels_last)
    autocast = config.startswith("bf16")

    def step(x):
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=autocast):
            loss = F.mse_loss(model(x).float(), x)
        loss.backward()
        optimizer.step()
        return loss

    if config == "bf16-compile":
        step = torch.compile(step)
    elif config == "bf16-compile-max":
        step = torch.compile(step, mode="max-autotune")
    batches = [data[i:i + batch] for i in range(0, images - batch + 1, batch)]
    start = time.time()
    for x in batches[:20]:  # warm-up: compilation, cuDNN's algorithm search
        step(x)
    torch.cuda.synchronize()
    warmup = time.time() - start
    times = []
    for _ in range(repeats):
        begin = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        begin.record()
        for x in batches:
            step(x)
        end.record()
        torch.cuda.synchronize()
        times.append(begin.elapsed_time(end) / 1000.0)
    return statistics.median(times), times, warmup


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", type=int, nargs="+", default=[256, 64])
    parser.add_argument("--configs", nargs="+", default=["bf16-compile", "bf16-eager"],
                        choices=["bf16-eager", "bf16-compile", "bf16-compile-max", "tf32"])
    parser.add_argument("--images", type=int, default=50000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_reference: no CUDA device")
    results = []
    for config in args.configs:
        for batch in args.batch:
            median, times, warmup = epoch_seconds(config, batch, args.images, args.repeats)
            results.append({"config": config, "batch": batch, "epoch_s": median,
                            "epochs_s": times, "warmup_s": warmup})
            print(f"torch {torch.__version__} {config:18s} batch {batch:4d}: "
                  f"{median:.3f} s/epoch (runs {', '.join(f'{t:.3f}' for t in times)}; "
                  f"warm-up {warmup:.1f} s)", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
