#!/usr/bin/env python3
"""PyTorch's data-parallel time for the autoencoder on 2 GPUs, to put beside
`cae bench --devices 0,1` in the same command (tests/gpu/bench-suite.sh).

The same two epochs `cae bench --devices` times, with the model, optimiser and
bf16 autocast of torch_reference.py: the epoch on GPU 0 alone at the
per-device batch (--global-batch / 2), then the epoch on both GPUs under
DistributedDataParallel (NCCL), each rank training its half of the --images at
the per-device batch. Data is already on each GPU; each figure is the median
of --repeats epochs after warm-up, wall clock between synchronised points
(after every rank has finished).

usage: tests/gpu/torch_ddp_reference.py --global-batch 256 [--images 50000]
                                        [--repeats 3] [--json out.json]
       --device cpu runs both measurements on the CPU (gloo), to check the
       script where there is no GPU; its times mean nothing.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_reference import Autoencoder  # noqa: E402  (the same model, same folder)

WORLD = 2
WARMUP_STEPS = 20


def epoch_times(rank, world, device_kind, batch, images, repeats, rendezvous):
    """Median seconds of an epoch of images/world images per rank at `batch`."""
    cuda = device_kind == "cuda"
    device = torch.device("cuda", rank) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
        torch.backends.cudnn.benchmark = True
    if world > 1:
        dist.init_process_group("nccl" if cuda else "gloo", init_method=f"file://{rendezvous}",
                                rank=rank, world_size=world)
    torch.manual_seed(1)
    model = Autoencoder().to(device, memory_format=torch.channels_last)
    if world > 1:
        model = DistributedDataParallel(model, device_ids=[rank] if cuda else None)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    shard = images // world
    data = torch.rand(shard, 3, 32, 32, device=device).to(memory_format=torch.channels_last)
    batches = [data[i:i + batch] for i in range(0, shard - batch + 1, batch)]
    if not batches:
        raise SystemExit(f"torch_ddp_reference: {shard} images per rank hold no batch of {batch}")

    def step(x):
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_kind, dtype=torch.bfloat16):
            loss = F.mse_loss(model(x).float(), x)
        loss.backward()
        optimizer.step()

    def synchronize():
        if cuda:
            torch.cuda.synchronize(device)
        if world > 1:
            dist.barrier()

    for i in range(WARMUP_STEPS):  # cuDNN's algorithm search, NCCL's first collectives
        step(batches[i % len(batches)])
    synchronize()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for x in batches:
            step(x)
        synchronize()
        times.append(time.perf_counter() - start)
    if world > 1:
        dist.destroy_process_group()
    return statistics.median(times), times, len(batches) * batch * world


def worker(rank, world, device_kind, batch, images, repeats, rendezvous, result_path):
    median, times, trained = epoch_times(rank, world, device_kind, batch, images, repeats, rendezvous)
    if rank == 0:
        with open(result_path, "w") as f:
            json.dump({"median": median, "times": times, "images": trained}, f)


def measure(world, device_kind, batch, images, repeats):
    """Runs `world` processes (one for the single-GPU figure too, so that each
    measurement starts from a fresh CUDA context) and returns rank 0's figures."""
    with tempfile.TemporaryDirectory() as tmp:
        result = os.path.join(tmp, "result.json")
        mp.spawn(worker, args=(world, device_kind, batch, images, repeats,
                               os.path.join(tmp, "rendezvous"), result), nprocs=world, join=True)
        with open(result) as f:
            return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--global-batch", type=int, required=True)
    parser.add_argument("--images", type=int, default=50000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    if args.global_batch < WORLD or args.global_batch % WORLD:
        parser.error(f"--global-batch {args.global_batch} must be a positive multiple of {WORLD}")
    if args.images < args.global_batch or args.repeats < 1:
        parser.error("--images must hold one global batch and --repeats must be positive")
    if args.device == "cuda" and torch.cuda.device_count() < WORLD:
        sys.exit(f"torch_ddp_reference: needs {WORLD} GPUs, PyTorch sees {torch.cuda.device_count()}")
    per_device = args.global_batch // WORLD
    single = measure(1, args.device, per_device, args.images, args.repeats)
    parallel = measure(WORLD, args.device, per_device, args.images, args.repeats)
    record = {"config": "bf16-eager DDP", "torch": torch.__version__, "device": args.device,
              "global_batch": args.global_batch, "per_device_batch": per_device,
              "images": parallel["images"], "single_s": single["median"] * parallel["images"] / single["images"],
              "single_epochs_s": single["times"], "parallel_s": parallel["median"],
              "parallel_epochs_s": parallel["times"]}
    print(f"torch {torch.__version__} DDP bf16 eager, global batch {args.global_batch}: "
          f"1 GPU {record['single_s']:.3f} s, {WORLD} GPUs {record['parallel_s']:.3f} s per "
          f"{record['images']}-image epoch, speed-up {record['single_s'] / record['parallel_s']:.2f}x",
          flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(record, f, indent=1)


if __name__ == "__main__":
    main()
