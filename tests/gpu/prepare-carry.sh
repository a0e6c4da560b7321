#!/usr/bin/env bash
# Builds a portable CUDA-enabled tree (.devbuild) on a GPU-less machine and
# packs it into .devcarry/ so it fits a GPU machine's carry limit and runs
# there without Boost, libsvm or OpenBLAS installed:
#   - the host links its C++ runtime, Boost and libsvm statically (CAE_PORTABLE);
#   - shared libraries the plugins still need (OpenBLAS, libgomp, ...) are
#     copied into .devbuild/runtime-libs (run-matrix.sh puts them on the path);
#   - object files are left out and the rest is xz-compressed.
# usage: tests/gpu/prepare-carry.sh [--at COMMIT] [CIFAR_PACK_DIR] [TARGET...]
#   copies the CIFAR-10 pack along; builds TARGETs (default: cae-job, what the
#   pipeline, cae bench and cae-conformance need; `all` for every test binary,
#   which no longer fits the carry limit)
#   --at COMMIT: builds COMMIT's sources (a git worktree, removed afterwards)
#   instead of the working tree, from scratch, so that suite parts measured
#   on different days can all come from one commit; the scripts that drive
#   the build (tests/gpu/) stay the working tree's.
# On the GPU machine:  tar -xJf .devcarry/build.tar.xz && tests/gpu/run-matrix.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/.devbuild
carry=$root/.devcarry
source_dir=$root
at=
if [ "${1:-}" = --at ]; then
  [ $# -ge 2 ] || { echo "prepare-carry: --at needs a commit" >&2; exit 2; }
  at=$(git -C "$root" rev-parse --verify --quiet "$2^{commit}") ||
    { echo "prepare-carry: --at $2: no such commit in $root" >&2; exit 2; }
  shift 2
  source_dir=$(mktemp -d "${TMPDIR:-/tmp}/cae-carry-source.XXXXXX")
  trap 'git -C "$root" worktree remove --force "$source_dir" >/dev/null 2>&1; rm -rf "$source_dir"' EXIT
  git -C "$root" worktree add --detach --quiet "$source_dir" "$at"
  # A build folder configured from another source tree cannot be reused.
  rm -rf "$build"
fi
cmake -S "$source_dir" -B "$build" -G Ninja -DCAE_WITH_CUDA=ON -DCAE_PORTABLE=ON -DCMAKE_BUILD_TYPE=Release
pack=${1:-}
[ $# -ge 1 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(cae-job)
cmake --build "$build" --target "${targets[@]}"
rm -rf "$build/runtime-libs" && mkdir -p "$build/runtime-libs" "$carry"
# Every shared library our binaries resolve outside glibc, the C++ runtime
# (the GPU machine's is newer) and the CUDA driver, cuBLAS and NCCL (installed there;
# NCCL may live in PyTorch's nvidia-nccl wheel: tests/gpu/find-nccl.sh finds it).
find "$build/bin" "$build/lib" "$build/tests" -type f \( -perm -u+x -o -name '*.so' \) -print0 |
  xargs -0 ldd 2>/dev/null | awk '/=> \// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda|libcublas|libcublasLt|libnccl)\.so' |
  while read -r lib; do cp -L "$lib" "$build/runtime-libs/"; done || true  # ldd fails on scripts
# The commit the build was made from, for tests/gpu/bench-suite.sh's results
# (the GPU machine's copy of the tree has no git history).
git -C "$source_dir" describe --always --dirty --abbrev=12 >"$build/source-commit" 2>/dev/null || rm -f "$build/source-commit"
tar -cJf "$carry/build.tar.xz" -C "$root" --exclude='*.o' --exclude='*.a' --exclude='CMakeFiles' \
  --exclude='.ninja_*' .devbuild
if [ -n "$pack" ]; then
  cp "$pack/cifar10-q75.pack" "$pack/unpack.py" "$carry/"
fi
du -sh "$carry"
