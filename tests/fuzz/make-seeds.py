#!/usr/bin/env python3
"""Writes the seed corpora under seeds/<reader>/: small valid files of each
format (and a few near-misses), so fuzzing starts from inputs that reach deep
into the readers. Run once; the output is committed.
usage: tests/fuzz/make-seeds.py"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def put(reader, name, data):
    folder = os.path.join(HERE, "seeds", reader)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def safetensors(tensors, metadata=None):
    header, blob = {}, b""
    for name, shape, values in tensors:
        data = struct.pack("<%df" % len(values), *values)
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [len(blob), len(blob) + len(data)]}
        blob += data
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + blob


def npy(descr, shape, payload, major=1):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    length_bytes = 2 if major == 1 else 4
    header += " " * ((64 - (8 + length_bytes + len(header) + 1) % 64) % 64) + "\n"
    length = struct.pack("<H" if major == 1 else "<I", len(header))
    return b"\x93NUMPY" + bytes([major, 0]) + length + header.encode() + payload


def svm_model(standardize):
    tensors = [
        ("classes", [3], [0, 1, 2]),
        ("sv_rows", [3, 2], [0.5, -1.0, 1.5, 0.25, -0.75, 2.0]),
        ("sv_class", [3], [0, 1, 2]),
        ("sv_source", [3], [4, 7, 9]),
        ("pair_classes", [3, 2], [0, 1, 0, 2, 1, 2]),
        ("pair_rho", [3], [0.1, -0.2, 0.3]),
        ("pair_offsets", [4], [0, 2, 4, 6]),
        ("pair_support", [6], [0, 1, 0, 2, 1, 2]),
        ("pair_coef", [6], [1.0, -1.0, 0.5, -0.5, 2.0, -2.0]),
    ]
    if standardize:
        tensors += [("standardizer_mean", [2], [0.1, -0.1]), ("standardizer_scale", [2], [1.0, 2.0])]
    metadata = {"format": "cae-svm-ovo", "format_version": "1", "kernel": "rbf", "gamma": "0.5",
                "C": "5", "dim": "2"}
    return safetensors(tensors, metadata)


put("safetensors", "checkpoint-like", safetensors(
    [("encoder.conv1.weight", [2, 1, 1, 2], [0.1, -0.2, 0.3, 0.4]), ("encoder.conv1.bias", [2], [0.0, 1.0]),
     ("optimizer.encoder.conv1.bias.m", [2], [0.0, 0.0])],
    {"format": "cae-checkpoint-1", "epoch": "2", "seed": "7", "optimizer": '{"kind":"adam"}',
     "train_losses": "[0.5,0.25]"}))
put("safetensors", "empty-tensor", safetensors([("e", [0, 3], []), ("s", [], [2.5])]))
put("safetensors", "no-tensors", safetensors([], {"k": "v"}))
put("safetensors", "overflow-number", b"\x28\x00\x00\x00\x00\x00\x00\x00" +
    b'{"a":{"dtype":"F32","shape":[1e999],"x":1}}'[:40])

put("npy", "features-f4", npy("<f4", [2, 3], struct.pack("<6f", 1, 2, 3, -4, 5.5, 0)))
put("npy", "labels-u1", npy("|u1", [4], bytes([0, 9, 3, 3])))
put("npy", "labels-i8", npy("<i8", [3], struct.pack("<3q", 1, 2**32 + 3, -1)))
put("npy", "labels-i4-v2", npy("<i4", [2], struct.pack("<2i", 5, 6), major=2))
put("npy", "fortran", npy("<f4", [1, 1], struct.pack("<f", 1)).replace(b"False", b"True "))

record = bytes([3]) + bytes(range(256)) * 12
put("cifar", "two-records", record + bytes([9]) + record[1:])
put("cifar", "bad-label", bytes([10]) + record[1:])
put("cifar", "short", record[:100])

put("svm_model", "rbf-standardized", svm_model(True))
put("svm_model", "rbf-plain", svm_model(False))
