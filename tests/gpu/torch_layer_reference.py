#!/usr/bin/env python3
"""What the vendor libraries reach on each of the autoencoder's convolutions, to
put beside `cae bench`'s per-op figures measured on the same machine at the
same time. Two figures per layer and pass, BF16 operands, FP32 accumulation:

  cudnn   the convolution itself: torch's conv2d in bf16, channels_last,
          cudnn.benchmark on (cuDNN's fastest algorithm for the shape);
  gemm    cuBLAS's BF16 GEMM of the same size as the convolution's implicit GEMM,
          with the operands already materialised (no gather): forward
          [P x 9C] . [9C x O], data gradient [P x 9O] . [9O x C], weight
          gradient [O x P] . [P x 9C], where P = batch * H * W.

The "backward" of a layer is its data gradient plus its weight gradient (and
bias gradient for cudnn), except the first layer, whose input needs no gradient
(as in training: cae's conv1 backward computes no dx either).
Each figure is the median of --rounds replays of a CUDA graph of --iterations
calls, timed by CUDA events after warm-up: device time only (a Python loop of
small calls would time the host's launch overhead instead).

usage: tests/gpu/torch_layer_reference.py [--batch 64 256] [--iterations 50] [--rounds 5]
"""
import argparse
import statistics

import torch
import torch.nn.functional as F

# (name, in channels, out channels, height = width) of host/nn/architecture.hpp.
LAYERS = [
    ("encoder.conv1", 3, 256, 32),
    ("encoder.conv2", 256, 128, 16),
    ("decoder.conv1", 128, 128, 8),
    ("decoder.conv2", 128, 256, 16),
    ("decoder.conv3", 256, 3, 32),
]


def timed_ms(fn, iterations, rounds):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up, cuDNN's algorithm search, outside the capture
        for _ in range(5):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(iterations):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    samples = []
    for _ in range(rounds):
        begin = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        begin.record()
        graph.replay()
        end.record()
        torch.cuda.synchronize()
        samples.append(begin.elapsed_time(end) / iterations)
    return statistics.median(samples)


def cudnn_figures(batch, c, o, hw, first, iterations, rounds):
    x = torch.randn(batch, c, hw, hw, device="cuda", dtype=torch.bfloat16)
    x = x.to(memory_format=torch.channels_last)
    w = (0.05 * torch.randn(o, c, 3, 3, device="cuda", dtype=torch.bfloat16))
    w = w.to(memory_format=torch.channels_last)
    b = torch.zeros(o, device="cuda", dtype=torch.bfloat16)
    dy = torch.randn(batch, o, hw, hw, device="cuda", dtype=torch.bfloat16)
    dy = dy.to(memory_format=torch.channels_last)

    def forward():
        F.conv2d(x, w, b, padding=1)

    def backward():  # autograd's own call for a convolution: dx (not for conv1), dw, db
        torch.ops.aten.convolution_backward(dy, x, w, [o], [1, 1], [1, 1], [1, 1], False, [0, 0],
                                            1, [not first, True, True])

    return timed_ms(forward, iterations, rounds), timed_ms(backward, iterations, rounds)


def gemm_figures(batch, c, o, hw, first, iterations, rounds):
    p = batch * hw * hw

    def product(m, k, n):
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
        return lambda: torch.mm(a, b)

    # Each product's operands are allocated only when it is timed: the first
    # layer's data-gradient operands alone would be 1.2 GB at batch 256.
    forward_ms = timed_ms(product(p, 9 * c, o), iterations, rounds)
    weight_ms = timed_ms(product(o, p, 9 * c), iterations, rounds)
    data_ms = 0.0 if first else timed_ms(product(p, 9 * o, c), iterations, rounds)
    return forward_ms, data_ms + weight_ms


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.iterations < 1 or args.rounds < 1 or any(b < 1 for b in args.batch):
        parser.error("--batch, --iterations and --rounds must be positive")
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    print(f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, "
          f"{torch.cuda.get_device_name()}")
    print("ms per call (TFLOP/s); backward = data + weight gradient (conv1: weight only)")
    print(f"{'batch':>5} {'layer':<14} {'cudnn fwd':>16} {'cudnn bwd':>16} "
          f"{'gemm fwd':>16} {'gemm bwd':>16}")
    for batch in args.batch:
        total = [0.0, 0.0, 0.0, 0.0]
        for index, (name, c, o, hw) in enumerate(LAYERS):
            first = index == 0  # the input layer: no data gradient
            flops = 2.0 * batch * hw * hw * c * o * 9
            backward_flops = flops * (1 if first else 2)
            figures = cudnn_figures(batch, c, o, hw, first, args.iterations, args.rounds)
            figures += gemm_figures(batch, c, o, hw, first, args.iterations, args.rounds)
            cells = []
            for i, ms in enumerate(figures):
                total[i] += ms
                work = flops if i % 2 == 0 else backward_flops
                cells.append(f"{ms:8.4f} ({work / ms / 1e9:5.0f})")
            print(f"{batch:>5} {name:<14} " + " ".join(f"{cell:>16}" for cell in cells))
        print(f"{batch:>5} {'sum':<14} " + " ".join(f"{ms:16.4f}" for ms in total))


if __name__ == "__main__":
    main()
