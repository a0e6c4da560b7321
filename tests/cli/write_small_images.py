#!/usr/bin/env python3
"""Writes a small labelled image set as .npy arrays: DIR/images.npy (uint8
[N, SIDE, SIDE, 3]) and DIR/labels.npy (uint8, 0..9). Each class is a
horizontal colour gradient of its own hue plus noise, so a classifier has
something to learn. Pure Python (no numpy in the test deps).
usage: write_small_images.py DIR N SIDE SEED
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from write_features import write_npy  # noqa: E402 (the same .npy writer)


def main():
    out, count, side, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    pixels = bytearray()
    labels = bytearray()
    for i in range(count):
        label = i % 10
        labels.append(label)
        hue = [(label * 37 + 60 * c) % 256 for c in range(3)]
        for y in range(side):
            for x in range(side):
                for c in range(3):
                    value = hue[c] * (x + 1) // side + rng.randint(-40, 40)
                    pixels.append(max(0, min(255, value)))
    write_npy(os.path.join(out, "images.npy"), "|u1", (count, side, side, 3), bytes(pixels))
    write_npy(os.path.join(out, "labels.npy"), "|u1", (count,), bytes(labels))


if __name__ == "__main__":
    main()
