#!/bin/bash
# Device run 22 (one H200): v4 after the review clean-up (launch width from tile_width): conformance + 30-seed sweep.
cd "$(dirname "$0")/.." || exit 1
tar -xJf .devcarry/build.tar.xz
export LD_LIBRARY_PATH=$PWD/.devbuild/runtime-libs; source tests/gpu/find-nccl.sh
B=$PWD/.devbuild/bin
timeout 60 $B/cae-conformance --backend v4 2>&1 | tail -1
timeout 150 $B/cae-conformance --backend v4 --sweep 30 --jobs 8 2>&1 | tail -1
