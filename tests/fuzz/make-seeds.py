#!/usr/bin/env python3
"""Writes the seed corpora under seeds/<reader>/: small valid files of each
format (and a few near-misses), so fuzzing starts from inputs that reach deep
into the readers. Run once; the output is committed. Files named finding-*
beside them are inputs that once broke a reader (found by fuzzing), kept as
regression seeds; this script leaves them alone.
usage: tests/fuzz/make-seeds.py"""
import hashlib
import json
import os
import struct
import zlib

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

# --- model descriptions, checkpoints, linear models, features.json ---------
tiny_model = {"name": "tiny", "encoder": [{"channels": 2, "kernel": 1, "pool": True}]}
put("model_json", "tiny", json.dumps(tiny_model).encode())
put("model_json", "explicit-decoder", json.dumps({
    "name": "two", "encoder": [{"channels": 4, "kernel": 3, "relu": True, "pool": True},
                               {"channels": 8, "kernel": 5, "pool": False}],
    "decoder": [{"channels": 4, "upsample": True}, {"channels": 3, "kernel": 3, "relu": False}]}).encode())
put("model_json", "duplicate-key", b'{"name":"a","name":"b","encoder":[{"channels":2}]}')


def checkpoint(optimizer_state=True):
    """The checkpoint `cae train --model tiny.json` writes: one 1x1 encoder
    layer of 2 channels with a pool, its mirrored decoder, Adam's state."""
    shapes = [("encoder.conv1.weight", [2, 3, 1, 1]), ("encoder.conv1.bias", [2]),
              ("decoder.conv1.weight", [2, 2, 1, 1]), ("decoder.conv1.bias", [2]),
              ("decoder.conv2.weight", [3, 2, 1, 1]), ("decoder.conv2.bias", [3])]
    count = lambda shape: 1 if not shape else shape[0] * count(shape[1:])
    tensors = [(name, shape, [0.125 * (i % 5) for i in range(count(shape))]) for name, shape in shapes]
    if optimizer_state:
        for moment in ("m", "v"):
            tensors += [("optimizer.%s.%s" % (name, moment), shape, [0.01] * count(shape))
                        for name, shape in shapes]
    model = {"decoder": [{"channels": 2, "kernel": 1, "relu": True, "upsample": True},
                         {"channels": 3, "kernel": 1, "relu": False, "upsample": False}],
             "encoder": [{"channels": 2, "kernel": 1, "pool": True, "relu": True}], "name": "tiny"}
    optimizer = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "kind": "adam",
                 "learning_rate": 0.0003, "momentum": 0.0, "weight_decay": 0.0}
    metadata = {"architecture": "cae-autoencoder", "augment": "none", "backend": "cpu",
                "backend_options": "{}", "batch_size": "8", "batches_done": "0", "epoch": "1",
                "epochs_planned": "1", "format": "cae-checkpoint-1", "image_channels": "3",
                "image_side": "32", "input_noise": "0.0", "lr_schedule": "constant",
                "model": json.dumps(model, separators=(",", ":")),
                "optimizer": json.dumps(optimizer, separators=(",", ":")) if optimizer_state else "",
                "optimizer_steps": "2", "partial_loss_sum": "0.0", "recipe": "default",
                "samples": "16", "seed": "1", "test_mses": "[0.61]", "train_losses": "[0.73]"}
    if not optimizer_state:
        del metadata["optimizer"]
    else:  # the data record (data/data_record.hpp) of a folder split by fraction
        metadata["data"] = json.dumps({
            "format": "folder", "format_given": False, "path": "photos", "channels": 3, "side": 32,
            "resize": "box", "labels": "", "class_names": ["cats", "dogs"], "train_images": 16,
            "test_images": 4, "unlabelled_images": 0, "autoencoder_split": "train",
            "fraction_split": True, "test_fraction": 0.2, "split_seed": 1, "files": 20,
            "file_bytes": 61440, "files_sha256": "0" * 64}, separators=(",", ":"))
    return safetensors(tensors, metadata)


put("checkpoint", "tiny-adam", checkpoint())
put("checkpoint", "tiny-weights-only", checkpoint(optimizer_state=False))


def linear_model(standardize):
    classes, dim = 3, 2
    tensors = [("classes", [classes], [0, 1, 2]),
               ("weights", [classes, dim], [0.5, -1.0, 1.5, 0.25, -0.75, 2.0]),
               ("bias", [classes], [0.1, -0.2, 0.3])]
    if standardize:
        tensors += [("standardizer_mean", [dim], [0.1, -0.1]), ("standardizer_scale", [dim], [1.0, 2.0])]
    metadata = {"format": "cae-linear", "format_version": "1", "C": "5", "dim": str(dim),
                "objective": "multinomial logistic regression", "training_rows": "30",
                "iterations": "12", "converged": "yes", "loss": "0.5", "features_recipe": "latent"}
    return safetensors(tensors, metadata)


put("linear_model", "standardized", linear_model(True))
put("linear_model", "plain", linear_model(False))

features = {"recipe": "latent", "model": "tiny", "dim": 4,
            "taps": [{"map": "latent", "grid": 2, "dim": 4}], "flip_average": False,
            "weights": "tiny.safetensors", "weights_sha256": "8d" * 32}
put("features_json", "tiny-model", json.dumps(features, indent=2).encode())
put("features_json", "seed-model", json.dumps({"recipe": "latent", "weights": "seed.safetensors"}).encode())

# --- the output set's manifest and certification records --------------------
member = b"member of the set\n"  # what fuzz_set_manifest.cpp writes as member.npy
put("set_manifest", "complete", json.dumps({
    "command": "cae extract", "format": "cae-set", "run": "7ecf38e58c5c9202", "state": "complete",
    "version": 2, "files": {"member.npy": {"bytes": len(member), "sha256": hashlib.sha256(member).hexdigest()},
                            "other.npy": {"bytes": 3, "sha256": "00" * 32}}}, indent=2).encode())
put("set_manifest", "writing", json.dumps({
    "command": "cae data synth", "format": "cae-set", "run": "1", "state": "writing", "version": 2,
    "files": {"member.npy": {"bytes": 1, "sha256": "11" * 32}}}).encode())

put("certification", "passed", json.dumps({
    "format": "cae-certification", "format_version": 1, "backend": "fuzz", "backend_version": "1.0.0",
    "file": "/abs/libcae-backend-fuzz.so", "sha256": "@SHA@", "verdict": "passed", "seeds": [1, 2, 3],
    "certified_by": "cae-conformance"}, indent=2).encode())
put("certification", "other-backend", json.dumps({
    "format": "cae-certification", "format_version": 1, "backend": "cpu", "backend_version": "2",
    "sha256": "@SHA@", "verdict": "failed", "seeds": [7]}).encode())

# --- data sources: CIFAR-100, STL-10, .npy images, image files --------------
image32 = bytes((i * 7) % 256 for i in range(3 * 32 * 32))
put("cifar100", "two-records", bytes([3, 42]) + image32 + bytes([19, 99]) + image32)
put("cifar100", "bad-fine-label", bytes([3, 100]) + image32)
put("cifar100", "short", bytes([3, 42]) + image32[:100])

image96 = bytes((i * 11) % 256 for i in range(3 * 96 * 96))
put("stl10", "two-images", bytes([2, 1, 10]) + image96 * 2)
put("stl10", "bad-label", bytes([1, 11]) + image96)
put("stl10", "count-mismatch", bytes([3, 1, 2, 3]) + image96)


def npy_images(labels, images):
    return struct.pack("<H", len(labels)) + labels + images


labels4 = npy("|u1", [4], bytes([0, 1, 2, 1]))
put("npy_images", "u1-rgb", npy_images(labels4, npy("|u1", [4, 2, 2, 3], bytes(range(48)))))
put("npy_images", "f4-gray", npy_images(npy("<i8", [4], struct.pack("<4q", 0, 1, 0, 1)),
                                        npy("<f4", [4, 2, 2], struct.pack("<16f", *[i / 16 for i in range(16)]))))
put("npy_images", "f4-out-of-range", npy_images(b"", npy("<f4", [2, 1, 1, 1], struct.pack("<2f", 0.5, 1.5))))


def png(width, height, color_type, bit_depth, rows, palette=None, interlace=0):
    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, interlace))
    if palette:
        data += chunk(b"PLTE", palette)
    raw = b"".join(bytes([row_filter]) + row for row_filter, row in rows)
    return data + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


put("image_file", "png-rgb", png(4, 4, 2, 8, [(i % 5, bytes(range(i * 12, i * 12 + 12))) for i in range(4)]))
put("image_file", "png-gray-alpha", png(3, 2, 4, 8, [(0, bytes(6)), (2, bytes(range(6)))]))
put("image_file", "png-palette", png(2, 2, 3, 4, [(0, b"\x01"), (0, b"\x10")], palette=bytes(range(6))))
put("image_file", "png-16bit-interlaced", png(2, 2, 0, 16, [(0, b"\x01\x02"), (0, b"\x03\x04"), (0, b"\x05\x06\x07\x08")], interlace=1))


def bmp(width, height, bits, pixels, palette=b""):
    header_size = 14 + 40 + len(palette)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, bits, 0, len(pixels), 2835, 2835,
                       len(palette) // 4, 0)
    return b"BM" + struct.pack("<IHHI", header_size + len(pixels), 0, 0, header_size) + info + palette + pixels


put("image_file", "bmp-24", bmp(2, 2, 24, bytes(range(6)) + b"\0\0" + bytes(range(6, 12)) + b"\0\0"))
put("image_file", "bmp-8-palette", bmp(4, 1, 8, bytes([0, 1, 1, 0]), palette=bytes([0, 0, 0, 0, 255, 255, 255, 0])))


def jpeg(components):
    """A baseline JPEG whose every 8x8 block is flat (DC difference 0, then
    end of block): one Huffman code of length 1 per table. `components`: 1
    (8x8 grayscale) or 3 (16x16 YCbCr with 4:2:0 subsampling)."""
    def segment(marker, payload):
        return b"\xff" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload
    side = 8 if components == 1 else 16
    sampling = [0x11] if components == 1 else [0x22, 0x11, 0x11]
    frame = struct.pack(">BHHB", 8, side, side, components)
    frame += b"".join(bytes([c + 1, sampling[c], 0]) for c in range(components))
    one_code = bytes([1] + [0] * 15) + b"\x00"  # a single symbol 0, code length 1
    scan = bytes([components]) + b"".join(bytes([c + 1, 0x00]) for c in range(components)) + b"\x00\x3f\x00"
    blocks = 1 if components == 1 else 6  # per MCU; each block is two bits '0' '0'
    bits = "00" * blocks
    bits += "1" * ((8 - len(bits) % 8) % 8)
    entropy = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
    return (b"\xff\xd8" + segment(0xDB, b"\x00" + bytes([1] * 64)) + segment(0xC0, frame) +
            segment(0xC4, b"\x00" + one_code) + segment(0xC4, b"\x10" + one_code) +
            segment(0xDA, scan) + entropy + b"\xff\xd9")


put("image_file", "jpeg-gray", jpeg(1))
put("image_file", "jpeg-ycbcr-420", jpeg(3))

# --- class names, the CSV tables of a run, the group id, the seed's weights --
cifar10_names = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]
put("class_names", "cifar10", ("\n".join(cifar10_names) + "\n").encode())
put("class_names", "crlf-blank-lines", ("\r\n\r\n".join(cifar10_names) + "  \r\n").encode())
put("class_names", "cifar100-utf8", "".join("Klasse-%d-\u00e4\u00f6\u2603\n" % i for i in range(100)).encode())
put("class_names", "too-few", b"a\nb\nc\n")
# Names report.json's writer and cairo could not take: refused at load.
put("class_names", "latin1-name", ("\n".join(cifar10_names[:9]) + "\ncaf").encode() + b"\xe9\n")
put("class_names", "escape-sequence", ("\n".join(cifar10_names[:9]) + "\nred\x1b[31m\n").encode())

put("confusion_csv", "three-classes", b'true\\predicted,cat,"dog, big","say ""hi"""\n'
    b'cat,5,1,0\n"dog, big",2,7,1\n"say ""hi""",0,0,9\n')
put("confusion_csv", "numbered", b"true\\predicted,0,1\n0,3,0\n1,1,2\n")
put("confusion_csv", "not-square", b"true\\predicted,a,b\na,1,2\n")
put("confusion_csv", "large-counts", b"true\\predicted,a,b\na,4611686018427387903,0\nb,0,1\n")
put("confusion_csv", "total-overflows", b"true\\predicted,a,b\na,9223372036854775807,1\nb,0,0\n")
put("confusion_csv", "ragged-last-row", b"true\\predicted,a,b,c\na,1,2,3\nb,4,5,6\nc\n")
put("confusion_csv", "quoted-line-break", b'true\\predicted,a\na,"1\n2"\n')

put("loss_csv", "train-and-test", b"epoch,train loss,test MSE\n1,0.5,0.6\n2,0.25,\n3,0.125,0.2\n")
put("loss_csv", "one-series-log", b"epoch,loss\n1,100\n2,1\n3,0.01\n4,1e-5\n")
put("loss_csv", "empty-values", b"epoch,a,b\n1,,\n2,-1,0\n")
put("loss_csv", "infinite-value", b"epoch,loss\n1,inf\n2,0.5\n")

put("group_id", "files", b"cae-group-id 1\nbackend cpu\nexchange files\nid 00112233445566778899aabbccddeeff\n")
put("group_id", "backend", b"cae-group-id 1\nbackend cuda\nexchange backend\nid " + b"0a" * 128 + b"\n")
put("group_id", "uppercase-id", b"cae-group-id 1\nbackend cpu\nexchange files\nid ABCD\n")

# The target repeats an input whose first byte is odd to the file's full size.
put("seed_weights", "repeated-small-floats", b"\x01" + struct.pack("<4f", 0.01, -0.02, 0.5, -1.0))
put("seed_weights", "repeated-with-nan", b"\x01" + struct.pack("<4f", 0.01, float("nan"), 0.5, -1.0))
put("seed_weights", "too-short", b"\x00" + struct.pack("<2f", 0.5, 0.25))

# The strict JSON parser's depth: an odd first byte repeats the rest to
# 300,000 bytes (arrays, objects, and a mix nest far past the limit), an even
# one is read as it is (at the limit, one past it, a huge string value).
put("json_depth", "repeated-arrays", b"\x01[")
put("json_depth", "repeated-objects", b'\x01{"a":')
put("json_depth", "repeated-mix", b'\x01[{"a":')
put("json_depth", "repeated-string", b"\x01x")
put("json_depth", "at-the-limit", b"\x00" + b"[" * 64 + b"]" * 64)
put("json_depth", "past-the-limit", b"\x00" + b"[" * 65 + b"]" * 65)
put("json_depth", "huge-string", b'\x00{"a": "' + b"x" * 60000 + b'\n"}')
