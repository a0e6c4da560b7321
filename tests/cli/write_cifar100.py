#!/usr/bin/env python3
"""Writes a tiny CIFAR-100 set in the official binary layout: DIR/train.bin and
DIR/test.bin (records of coarse label, fine label, 3,072 pixel bytes),
fine_label_names.txt (100 names) and coarse_label_names.txt (20). The fine
labels are spread over the whole 0..99 range (7, 23, 64, 99 in turn), so a
stage that assumed CIFAR-10's ten classes would refuse them; each class is a
colour gradient of its own hue plus noise. Pure Python.
usage: write_cifar100.py DIR TRAIN TEST SEED
"""
import os
import random
import sys

FINE = [7, 23, 64, 99]


def records(count, rng):
    out = bytearray()
    for i in range(count):
        fine = FINE[i % len(FINE)]
        out += bytes([fine // 5, fine])
        hue = [(fine * 37 + 60 * c) % 256 for c in range(3)]
        for c in range(3):
            for y in range(32):
                for x in range(32):
                    out.append(max(0, min(255, hue[c] * (x + 1) // 32 + rng.randint(-40, 40))))
    return out


def main():
    out, train, test, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    for name, count in (("train.bin", train), ("test.bin", test)):
        with open(os.path.join(out, name), "wb") as f:
            f.write(records(count, rng))
    with open(os.path.join(out, "fine_label_names.txt"), "w") as f:
        f.write("".join("fine-%d\n" % k for k in range(100)))
    with open(os.path.join(out, "coarse_label_names.txt"), "w") as f:
        f.write("".join("coarse-%d\n" % k for k in range(20)))


if __name__ == "__main__":
    main()
