#!/usr/bin/env bash
# The bad-input and fault contract of `cae` (docs/reliability.md), one block
# per class of failure rather than per case: bad numbers on the command line,
# values that would be silently changed, output paths found bad only late,
# non-finite or out-of-range values in loaded files, signals and file-size
# limits, data that must not be overwritten, and messages in the user's terms.
# Every check asserts the exit code, the one-line message and what is (not)
# left on disk. Runs on the cpu backend with tiny synthetic data.
# usage: reliability_cli_tests.sh CAE
set -u
CAE=$1
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
cd "$work" || exit 1

# stop_with NAME SIGNAL EXPECTED_RC PID LOG: signals a background run, checks
# its exit code and leaves its log in $out.
stop_with() {
  kill -"$2" "$4"
  wait "$4"
  local rc=$?
  out=$(cat "$5")
  checks=$((checks + 1))
  [ "$rc" = "$3" ] || fail "$1" "exit code $rc, expected $3"
}
B="--backend cpu"

"$CAE" data synth D --train 40 --test 20 --seed 5 >/dev/null || { echo "setup: synth failed"; exit 1; }
"$CAE" train $B --data D --epochs 1 --batch 32 --out W/m.safetensors >/dev/null || { echo "setup: train failed"; exit 1; }
"$CAE" extract $B --weights W/m.safetensors --data D --out F >/dev/null || { echo "setup: extract failed"; exit 1; }
"$CAE" svm $B --features F --out W/svm.model >/dev/null || { echo "setup: svm failed"; exit 1; }

# ---- class 1: bad numbers on the command line are exit 2, before any data
# is read (--data names nothing, which would be exit 1 if it were reached) ----
for bad in "--lr nan" "--lr inf" "--momentum nan" "--weight-decay -inf" "--lr 0" "--epochs 0" \
           "--batch 99999999999" "--seed -1" "--seed 99999999999999999999" "--threads 100000" \
           "--threads -1" "--samples -5" "--batch 65537" "--test-samples 1e3"; do
  # shellcheck disable=SC2086
  error "train $bad" 2 "^cae train: (--[a-z-]+ must|.*for option '--[a-z-]+' is invalid)" \
    "$CAE" train $B --data nowhere $bad
done
error "svm --C nan" 2 "^cae svm: --C must be a finite number, got 'nan'" \
  "$CAE" svm $B --features F --out W/x.model --C nan
error "svm --svm-threads 5000" 2 "svm-threads must be between 0 and 1024, got 5000" \
  "$CAE" svm $B --features F --out W/x.model --svm-threads 5000
error "svm --memory-cap-gb inf" 2 "memory-cap-gb must be a finite number" \
  "$CAE" svm $B --features F --out W/x.model --memory-cap-gb inf
error "range message in user terms" 2 "--lr must be between 1e-09 and 10, got 1e-10" \
  "$CAE" train $B --data nowhere --lr 1e-10
error "synth --seed -1" 2 "--seed must be 0 or more, got '-1'" "$CAE" data synth E --seed -1
absent "synth --seed -1 writes nothing" E

# ---- class 2: no value is silently changed or replaced by a default ----
error "--backend ''" 2 "--backend is empty" "$CAE" train --backend '' --data D --epochs 1 --out W/n.st
# The cpu backend offers 4 logical devices (for --devices); 99 and 7 lie past them.
error "--device past the backend's devices" 2 "--device 99: backend cpu has 4 devices" \
  "$CAE" train $B --device 99 --data D --epochs 1 --out W/n.st
error "--device on info" 2 "--device 7: backend cpu has 4 devices" "$CAE" info $B --device 7
run "backends --device past the backends' devices" 0 "$CAE" backends --device 5
expect "backends --device past the backends' devices" "^cpu .*unavailable: no device 5 \(it has 4\)"
error "--weights ''" 2 "--weights is empty" "$CAE" extract $B --weights '' --data D --out F9
error "--plugin-dir that does not exist" 2 "--plugin-dir nowhere is not a folder" \
  "$CAE" backends --plugin-dir nowhere
error "--samples past the data" 2 "--samples 1000, but D holds only 40 training images" \
  "$CAE" train $B --data D --epochs 1 --samples 1000 --out W/n.st
absent "nothing trained" W/n.st
# An int64 label above 2^31 must not be cut to int32 and merged into a class.
mkdir -p L && cp F/*.npy L/
python3 - L/train_labels.npy "$(python3 -c 'print(2**32 + 3)')" <<'EOF'
import struct, sys
path, big = sys.argv[1], int(sys.argv[2])
rows = 40
labels = [i % 10 for i in range(rows)]
labels[5] = big
header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d,), }" % rows
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%dq" % rows, *labels))
EOF
# (Without features.json the labels may be any of the 4,096 classes a model holds.)
error "label above 2^31" 1 "L/train_labels.npy: label 4294967299 at index 5 is not a class 0..4095" \
  "$CAE" svm $B --features L --out W/l.model
absent "label above 2^31: no model" W/l.model

# ---- class 3: output paths are checked before the work starts ----
mkdir -p adir && touch afile
error "--out ''" 2 "--out is empty" "$CAE" train $B --data D --epochs 1 --out ''
error "--out is a folder" 1 "--out adir is a folder" "$CAE" train $B --data D --epochs 1 --out adir
reject "--out is a folder: found before training" "training on"
error "a file where a folder is expected" 1 "afile.*not a directory" \
  "$CAE" train $B --data D --epochs 1 --out afile/m.safetensors
error "extract --out is a file" 1 "afile exists and is not a folder" \
  "$CAE" extract $B --weights W/m.safetensors --data D --out afile
reject "extract --out is a file: found before encoding" "backend cpu on"
error "evaluate --out is a file" 1 "afile exists and is not a folder" \
  "$CAE" evaluate $B --weights W/m.safetensors --svm W/svm.model --data D --out afile
reject "evaluate --out is a file: found before encoding" "encode test"
error "svm --out is a folder" 1 "--out adir is a folder" "$CAE" svm $B --features F --out adir
error "import-weights --out is a folder" 1 "--out adir is a folder" \
  "$CAE" import-weights W/m.safetensors --out adir
# Two runs writing the same output: the second stops at once, naming the first.
"$CAE" data synth S --train 600 --test 20 --seed 4 >/dev/null
"$CAE" train $B --data S --epochs 3 --batch 16 --out W/busy.safetensors >busy.log 2>&1 &
pid=$!
for _ in $(seq 1 200); do grep -q "epoch 1/3: [1-9]" busy.log 2>/dev/null && break; sleep 0.1; done
error "same --out as a running training" 1 "W/busy.safetensors is being written by another cae process \(pid $pid\)" \
  "$CAE" train $B --data S --epochs 1 --out W/busy.safetensors

# ---- class 4: signals: SIGTERM is 143, SIGINT 130, nothing half-written ----
stop_with "train SIGTERM" TERM 143 "$pid" busy.log
expect "SIGTERM saves a resumable checkpoint" "resumable checkpoint saved to W/busy.safetensors"
no_leftovers "SIGTERM" W
"$CAE" data synth X --train 3000 --test 10 --seed 6 >/dev/null
"$CAE" extract $B --weights W/m.safetensors --data X --out FX >extract.log 2>&1 &
pid=$!
for _ in $(seq 1 300); do grep -q "train: [1-9]" extract.log 2>/dev/null && break; sleep 0.1; done
stop_with "extract SIGINT" INT 130 "$pid" extract.log
expect "extract SIGINT says so" "interrupted \(SIGINT\); temporary files removed"
no_leftovers "extract SIGINT" FX
absent "extract SIGINT writes no partial features" FX/train_features.npy
# A file-size limit (ulimit -f) is a write error with a message, not SIGXFSZ.
run "file-size limit" 1 bash -c "ulimit -f 64; exec '$CAE' train $B --data D --epochs 1 --batch 32 --out W/big.safetensors"
expect "file-size limit" "cannot write W/big.safetensors: File too large \(the file-size limit"
no_leftovers "file-size limit" W
absent "file-size limit: no checkpoint" W/big.safetensors
run "file-size limit in data synth" 1 bash -c "ulimit -f 64; exec '$CAE' data synth Y --train 200 --test 20"
expect "file-size limit in data synth" "File too large"
no_leftovers "file-size limit in data synth" Y
# The temporary of a process killed with SIGKILL goes with the next write of its name.
touch W/m.safetensors.tmp.999999999
run "stale temporary removed by the next write" 0 "$CAE" train $B --data D --epochs 1 --batch 32 --out W/m.safetensors
absent "stale temporary removed by the next write" W/m.safetensors.tmp.999999999

# ---- class 5: every loaded tensor and field is checked once, at load ----
python3 - <<'EOF'
import json, struct
def load(path):
    b = open(path, "rb").read()
    n = struct.unpack("<Q", b[:8])[0]
    return json.loads(b[8:8 + n]), b[8 + n:]
def save(path, header, data, text=None):
    h = (text if text is not None else json.dumps(header)).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    open(path, "wb").write(struct.pack("<Q", len(h)) + h + data)
def poison(src, dst, tensor, value):
    header, data = load(src)
    data = bytearray(data)
    at = header[tensor]["data_offsets"][0] + 4 * 3
    data[at:at + 4] = struct.pack("<f", value)
    save(dst, header, bytes(data))
poison("W/m.safetensors", "W/nan.safetensors", "encoder.conv2.weight", float("nan"))
poison("W/m.safetensors", "W/inf-state.safetensors", "optimizer.encoder.conv1.bias.m", float("inf"))
poison("W/svm.model", "W/nan.model", "pair_coef", float("nan"))
header, data = load("W/m.safetensors")
header["__metadata__"]["batch_size"] = "0"
save("W/batch0.safetensors", header, data)
header["__metadata__"]["batch_size"] = "32"
header["__metadata__"]["optimizer"] = json.dumps({"kind": "adam", "learning_rate": 1e30})
save("W/lrnan.safetensors", header, data)
header["__metadata__"]["optimizer"] = json.dumps({"kind": "adam"})
save("W/overflow.safetensors", header, data, json.dumps(header).replace('"F32"', '"F32", "x": 1e999', 1))
EOF
checks=$((checks + 1))
[ -f W/nan.safetensors ] || fail "crafting damaged files" "python3 failed"
error "NaN in a checkpoint tensor" 1 "W/nan.safetensors: tensor 'encoder.conv2.weight' holds a non-finite value \(nan\) at index 3" \
  "$CAE" extract $B --weights W/nan.safetensors --data D --out F4
absent "NaN in a checkpoint: no features" F4/train_features.npy
error "Inf in optimizer state" 1 "tensor 'optimizer.encoder.conv1.bias.m' holds a non-finite value \(inf\)" \
  "$CAE" train $B --data D --resume W/inf-state.safetensors --out W/r.safetensors
error "bad metadata names the field" 1 "W/batch0.safetensors: checkpoint metadata 'batch_size' is 0" \
  "$CAE" train $B --data D --resume W/batch0.safetensors --out W/r.safetensors
error "optimizer metadata out of range" 1 "W/lrnan.safetensors: checkpoint metadata 'optimizer.learning_rate' is 1e\+?30" \
  "$CAE" train $B --data D --resume W/lrnan.safetensors --out W/r.safetensors
error "number overflow in the header names the file" 1 "W/overflow.safetensors: bad JSON header: number overflow" \
  "$CAE" extract $B --weights W/overflow.safetensors --data D --out F5
reject "no library codes" "json.exception"
error "resume mid-epoch on other data" 2 "W/busy.safetensors stopped in the middle of an epoch over 600 training images, but D gives 40" \
  "$CAE" train $B --data D --resume W/busy.safetensors --out W/r.safetensors
error "a device file as a checkpoint" 1 "cannot read /dev/zero: it is a device, not a regular file" \
  "$CAE" extract $B --weights /dev/zero --data D --out F6
error "a folder as a checkpoint" 1 "cannot read adir: it is a folder" \
  "$CAE" extract $B --weights adir --data D --out F6
error "NaN in an SVM model" 1 "W/nan.model: tensor 'pair_coef' holds a non-finite value" \
  "$CAE" evaluate $B --weights W/m.safetensors --svm W/nan.model --data D --out R
absent "NaN in an SVM model: no report" R/report.html
mkdir -p G && cp F/*.npy G/
python3 - G/train_features.npy <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
start = 10 + struct.unpack("<H", b[8:10])[0]
at = start + 4 * (8192 * 2 + 7)
b[at:at + 4] = struct.pack("<f", float("nan"))
open(sys.argv[1], "wb").write(b)
EOF
error "NaN in features" 1 "G/train_features.npy: value at row 2, column 7 is NaN" \
  "$CAE" svm $B --features G --out W/g.model
absent "NaN in features: no model" W/g.model
# Inputs the SVM cannot use are found at load, before the backend is started.
mkdir -p H && cp F/*.npy H/
python3 - H <<'EOF'
import struct, sys
def npy(path, descr, shape, payload):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload)
npy(sys.argv[1] + "/test_features.npy", "<f4", [2, 5], struct.pack("<10f", *range(10)))
npy(sys.argv[1] + "/test_labels.npy", "|u1", [2], bytes([1, 2]))
EOF
error "test features of another width" 1 "H/test_features.npy has 5 columns, H/train_features.npy 8192" \
  "$CAE" svm $B --features H --out W/h.model
absent "test features of another width: no model" W/h.model

# ---- class 6: nothing the user has is overwritten or lost ----
before=$(md5sum D/*.bin | md5sum)
error "synth over an existing data set" 1 "D already holds CIFAR-10 files .*--force" \
  "$CAE" data synth D --train 20 --test 10
checks=$((checks + 1))
[ "$(md5sum D/*.bin | md5sum)" = "$before" ] || fail "synth over an existing data set" "batch files changed"
error "--out is an input of train" 2 "--out D/data_batch_1.bin is also an input" \
  "$CAE" train $B --data D --epochs 1 --out D/data_batch_1.bin
error "--out is an input of svm" 2 "--out F/train_labels.npy is also an input" \
  "$CAE" svm $B --features F --out F/train_labels.npy
error "--out is the input of import-weights" 2 "--out W/m.safetensors is also an input" \
  "$CAE" import-weights W/m.safetensors --out W/m.safetensors
checks=$((checks + 1))
[ "$(md5sum D/*.bin | md5sum)" = "$before" ] || fail "outputs that are inputs" "batch files changed"
# Another seed, the same counts: the set the classifiers below were trained
# on keeps its files' names and sizes (their identity), so they still apply.
run "synth --force replaces" 0 "$CAE" data synth D --train 40 --test 20 --seed 9 --force
checks=$((checks + 1))
[ "$(md5sum D/*.bin | md5sum)" != "$before" ] || fail "synth --force replaces" "batch files unchanged"
run "synth --force replaces: check" 0 "$CAE" data check D
expect "synth --force replaces" "train: 40 images"

# ---- class 7: messages in the user's terms ----
mkdir -p Z && "$CAE" data synth Z --train 20 --test 10 >/dev/null && rm Z/data_batch_1.bin && mkdir Z/data_batch_1.bin
error "a folder named like a batch file" 1 "Z/data_batch_1.bin is a folder, not a CIFAR-10 batch file" \
  "$CAE" data check Z
error "import-weights of a folder" 1 "adir is a folder, not the seed's weights file" \
  "$CAE" import-weights adir --out W/imp.safetensors
python3 -c 'import sys; sys.stdout.buffer.write(b"\x00\x00\xc0\x7f" * 751875)' > W/nan-weights.bin
error "import-weights with NaN" 1 "W/nan-weights.bin holds a non-finite value \(nan\) at index 0" \
  "$CAE" import-weights W/nan-weights.bin --out W/imp.safetensors
absent "import-weights with NaN writes nothing" W/imp.safetensors

# ---- locks touch no file cae did not create, and follow no symbolic link ----
echo "my notes" > W/own.model.lock
error "a user's file named like the lock" 1 "W/own.model.lock exists, not a lock of a running cae; cae leaves it alone" \
  "$CAE" svm $B --features F --out W/own.model
checks=$((checks + 1))
[ "$(cat W/own.model.lock)" = "my notes" ] || fail "a user's file named like the lock" "it was changed"
absent "a user's file named like the lock: no model" W/own.model
echo "keep me" > precious.txt
ln -s ../precious.txt W/link.model.lock
error "a symbolic link at the lock's name" 1 "W/link.model.lock is a symbolic link, not a lock of a running cae" \
  "$CAE" svm $B --features F --out W/link.model
mkdir -p FL && ln -s ../precious.txt FL/.cae.lock
error "a symbolic link at a folder's lock" 1 "FL/.cae.lock is a symbolic link" \
  "$CAE" extract $B --weights W/m.safetensors --data D --out FL
checks=$((checks + 1))
[ "$(cat precious.txt)" = "keep me" ] && [ -L W/link.model.lock ] ||
  fail "a symbolic link at the lock's name" "the link or its target was changed"
rm W/own.model.lock W/link.model.lock
echo "cae output lock, pid 999999999" > W/stale.model.lock  # left by a cae killed with SIGKILL
run "a dead cae's lock is taken over" 0 "$CAE" svm $B --features F --out W/stale.model
absent "a dead cae's lock is removed with the run" W/stale.model.lock

# ---- inputs that could block (FIFO, device, socket) are refused at once ----
mkfifo pipe.fifo
mkdir -p FF && cp F/*.npy FF/ && rm FF/test_features.npy && mkfifo FF/test_features.npy
mkdir -p RF && mkfifo RF/report.json
for case in "checkpoint|extract $B --weights pipe.fifo --data D --out F7" \
            "--resume|train $B --data D --resume pipe.fifo --out W/r.safetensors" \
            "features .npy|svm $B --features FF --out W/ff.model" \
            "--svm model|evaluate $B --weights W/m.safetensors --svm pipe.fifo --data D --out R2" \
            "import-weights input|import-weights pipe.fifo --out W/imp.safetensors"; do
  # shellcheck disable=SC2086
  error "a FIFO as ${case%%|*}" 1 "pipe.fifo: it is a FIFO, not a regular file|test_features.npy: it is a FIFO" \
    timeout 20 "$CAE" ${case#*|}
done
error "a FIFO as report.json" 1 "RF/report.json: it is a FIFO" timeout 20 "$CAE" report RF
error "a device as the SVM model" 1 "cannot read /dev/zero: it is a device" \
  timeout 20 "$CAE" evaluate $B --weights W/m.safetensors --svm /dev/zero --data D --out R2

# ---- paths read from files stay inside their folder ----
mkdir -p RUN && "$CAE" evaluate $B --weights W/m.safetensors --svm W/svm.model --data D --out RUN >/dev/null ||
  fail "setup: evaluate" "failed"
cp RUN/report.json RUN/good.json
rm RUN/cae-set.json  # else the edited report.json is refused as not the one evaluate wrote
for bad in "/tmp/cae-outside-$$.png" "../outside.png" "sub/../../outside.png"; do
  python3 - RUN/good.json RUN/report.json "$bad" <<'EOF2'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["files"]["confusion_png"] = sys.argv[3]
json.dump(doc, open(sys.argv[2], "w"))
EOF2
  error "report.json's files.confusion_png is '$bad'" 1 "RUN/report.json: files.confusion_png is '.*', which is not a name inside its folder" \
    "$CAE" report RUN
done
absent "no figure written outside the run" "/tmp/cae-outside-$$.png"
absent "no figure written outside the run (..)" outside.png

# ---- JSON nested without limit, or holding a huge value: every reader
# refuses it in one short line naming the file (a walk over 100,000 levels
# overflowed the stack; a refusal quoted the whole value) ----
python3 -c 'print("[" * 100000 + "]" * 100000)' > deep.json
python3 - deep.safetensors <<'EOF2'
import struct, sys
header = ("[" * 100000 + "]" * 100000).encode()
open(sys.argv[1], "wb").write(struct.pack("<Q", len(header)) + header)
EOF2
error "a deep checkpoint header" 1 "deep.safetensors: bad JSON header: nested deeper than 64 levels" \
  "$CAE" info --weights deep.safetensors
mkdir -p JR JS && cp RUN/good.json JR/report.json && cp deep.json JR/cae-set.json
cp deep.json JS/report.json
error "a deep cae-set.json" 1 "JR/cae-set.json is not a cae output-set manifest" "$CAE" report JR
error "a deep report.json" 1 "JS/report.json: .*nested deeper than 64 levels" "$CAE" report JS
python3 - JS/report.json <<'EOF2'
import sys
open(sys.argv[1], "w").write('{"format": "cae-report", "version": "' + "v" * 100000 + '"}')
EOF2
error "a huge version in report.json" 1 "JS/report.json: .*\\(100002 bytes\\)" "$CAE" report JS
short_line "a huge version in report.json" 300
mkdir -p FJ && cp F/*.npy FJ/ && cp deep.json FJ/features.json
error "a deep features.json" 1 "FJ/features.json: bad JSON: nested deeper than 64 levels" \
  "$CAE" svm $B --features FJ --out W/fj.model
python3 -c 'print("{\"recipe\": \"" + "r" * 100000 + "\"}")' > FJ/features.json
error "a huge recipe in features.json" 1 "FJ/features.json: .*\\(100000 bytes\\)" \
  "$CAE" svm $B --features FJ --out W/fj.model
short_line "a huge recipe in features.json" 300

# ---- memory limits: one clear last line and exit 1 within seconds, never a
# hang (OpenBLAS retries a failed buffer mapping forever; a library that
# gives up by raising SIGINT is a failure, not an interruption) ----
# AddressSanitizer reserves terabytes of shadow address space at start, so a
# sanitized cae cannot run under an address-space limit at all: the plain
# build (CI's first stage) runs these checks, the sanitized one says it does not.
limits="64 128 192 256 320 384 448 512 640"
if ldd "$CAE" 2>/dev/null | grep -q libasan; then
  echo "SKIPPED: memory limits (a sanitized build cannot start under an address-space limit)"
  limits=""
fi
for mb in $limits; do
  for cmd in "svm $B --features F --out W/mem.model" \
             "extract $B --weights W/m.safetensors --data D --out FM --batch 16"; do
    name="cae ${cmd%% *} under an address-space limit of ${mb} MiB"
    # shellcheck disable=SC2086
    out=$(timeout 60 prlimit --as=$((mb << 20)) "$CAE" $cmd 2>&1 >/dev/null)
    rc=$?
    checks=$((checks + 1))
    case $rc in
      0) ;;
      1) tail -1 <<<"$out" | grep -qE "^cae( ${cmd%% *})?: .*(out of memory|cannot allocate|refused a resource|could not start its threads or get memory)" ||
           fail "$name" "the last line does not say what ran out" ;;
      124) fail "$name" "it hung (killed after 60 s)" ;;
      *) fail "$name" "exit code $rc" ;;
    esac
  done
done
no_leftovers "memory limits" W
no_leftovers "memory limits" FM

no_leftovers "end" W
finish
