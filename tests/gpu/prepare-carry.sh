#!/usr/bin/env bash
# Builds a portable CUDA-enabled tree (.devbuild) on a GPU-less machine so it
# can be carried to a GPU machine that lacks Boost, libsvm or OpenBLAS:
# the host links its C++ runtime, Boost and libsvm statically; shared
# libraries the plugins still need (OpenBLAS, libgomp, ...) are copied into
# .devbuild/runtime-libs. Optionally copies the CIFAR-10 pack into .devdata.
# usage: tests/gpu/prepare-carry.sh [CIFAR_PACK_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/.devbuild
cmake -S "$root" -B "$build" -G Ninja -DCAE_WITH_CUDA=ON -DCAE_PORTABLE=ON -DCMAKE_BUILD_TYPE=Release
cmake --build "$build"
mkdir -p "$build/runtime-libs"
# Every shared library our binaries resolve outside glibc and the CUDA driver.
find "$build/bin" "$build/lib" "$build/tests" -type f \( -perm -u+x -o -name '*.so' \) -print0 |
  xargs -0 ldd 2>/dev/null | awk '/=> \// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libcuda|libcublas[^/]*|libcublasLt[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$build/runtime-libs/"; done
ls "$build/runtime-libs"
if [ $# -ge 1 ]; then
  mkdir -p "$root/.devdata"
  cp "$1/cifar10-q75.pack" "$1/unpack.py" "$root/.devdata/"
fi
du -sh "$build" "$root/.devdata" 2>/dev/null || true
