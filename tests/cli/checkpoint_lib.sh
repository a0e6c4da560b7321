# Shared by the CLI test scripts of runs across processes (source it after
# test_lib.sh): comparing checkpoints.

# same_weights NAME A B: the tensors of two checkpoints are bit-identical.
same_weights() {
  checks=$((checks + 1))
  python3 - "$2" "$3" <<'PY' || fail "$1" "weights differ"
import json, struct, sys
def tensors(path):
    data = open(path, "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    body = data[8 + n:]
    return {k: body[v["data_offsets"][0]:v["data_offsets"][1]]
            for k, v in header.items() if k != "__metadata__"}
a, b = tensors(sys.argv[1]), tensors(sys.argv[2])
assert a.keys() == b.keys() and a, (sorted(a), sorted(b))
bad = [k for k in a if a[k] != b[k]]
assert not bad, bad
PY
}
