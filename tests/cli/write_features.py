#!/usr/bin/env python3
"""Writes a synthetic feature set as `cae extract` leaves it: DIR/{train,test}_
{features,labels}.npy (float32 [rows, dim], int32 labels 0..classes-1).

Each class is a Gaussian cloud around its own centre (centres ~ N(0,
spread^2), points ~ centre + N(0, 1)), so an SVM has something to learn and the
classes overlap for small spreads. Pure Python (no numpy in the test deps).
usage: write_features.py DIR TRAIN_ROWS TEST_ROWS DIM CLASSES SPREAD SEED
"""
import array
import os
import random
import struct
import sys


def write_npy(path, descr, shape, payload):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else ""))
    # Magic, version 1.0, then the header padded so the data is 64-byte aligned.
    padding = 64 - (10 + len(header) + 1) % 64
    header += " " * padding + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("ascii"))
        f.write(payload)


def split(out, name, rows, dim, centres, rng):
    values = array.array("f")
    labels = array.array("i")
    for r in range(rows):
        label = r % len(centres)
        centre = centres[label]
        values.extend(centre[d] + rng.gauss(0.0, 1.0) for d in range(dim))
        labels.append(label)
    if sys.byteorder != "little":
        values.byteswap()
        labels.byteswap()
    write_npy(os.path.join(out, name + "_features.npy"), "<f4", (rows, dim), values.tobytes())
    write_npy(os.path.join(out, name + "_labels.npy"), "<i4", (rows,), labels.tobytes())


def main():
    if len(sys.argv) != 8:
        sys.exit("usage: write_features.py DIR TRAIN_ROWS TEST_ROWS DIM CLASSES SPREAD SEED")
    out = sys.argv[1]
    train, test, dim, classes = (int(v) for v in sys.argv[2:6])
    spread, seed = float(sys.argv[6]), int(sys.argv[7])
    rng = random.Random(seed)
    centres = [[rng.gauss(0.0, spread) for _ in range(dim)] for _ in range(classes)]
    os.makedirs(out, exist_ok=True)
    split(out, "train", train, dim, centres, rng)
    split(out, "test", test, dim, centres, rng)


if __name__ == "__main__":
    main()
