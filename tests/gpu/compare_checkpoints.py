#!/usr/bin/env python3
"""Compare the tensors of two cae checkpoints (safetensors) byte for byte.

usage: compare_checkpoints.py A.safetensors B.safetensors

The metadata block is ignored (it records settings such as the backend's
options, which a newer cae adds); every tensor's name, dtype, shape and bytes
must match. Prints one line and exits 0 when identical, 1 otherwise.
"""
import json
import struct
import sys


def tensors(path):
    with open(path, "rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
        data = f.read()
    header.pop("__metadata__", None)
    out = {}
    for name, entry in header.items():
        begin, end = entry["data_offsets"]
        out[name] = (entry["dtype"], tuple(entry["shape"]), data[begin:end])
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = tensors(sys.argv[1]), tensors(sys.argv[2])
    if a.keys() != b.keys():
        print(f"different tensors: {sorted(a.keys() ^ b.keys())}")
        return 1
    differing = [name for name in sorted(a) if a[name] != b[name]]
    if differing:
        print(f"{len(differing)} of {len(a)} tensors differ: {', '.join(differing)}")
        return 1
    print(f"identical: {len(a)} tensors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
