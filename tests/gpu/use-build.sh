# Sourced by the GPU scripts: makes $build usable here. Configures and builds
# it (CUDA on) when it holds no build yet; a carried build records the
# absolute source path of the machine it was built on, so that path is made
# to lead to $root; its runtime-libs go on LD_LIBRARY_PATH.
# uses: $root (the source tree; default: the tree holding this file) and $build
# (the build folder; default: $root/.devbuild), which it makes absolute: CTest
# and the scripts change directory, and a relative LD_LIBRARY_PATH entry would
# then lead nowhere.
root=${root:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${build:-$root/.devbuild}
mkdir -p "$build" && build=$(cd "$build" && pwd) || exit 1
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCAE_WITH_CUDA=ON && cmake --build "$build" || exit 1
fi
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if [ -n "$source_dir" ] && [ ! -e "$source_dir" ]; then
  mkdir -p "$(dirname "$source_dir")" && ln -s "$root" "$source_dir"
fi
[ -d "$build/runtime-libs" ] && export LD_LIBRARY_PATH="$build/runtime-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# shellcheck source=tests/gpu/find-nccl.sh
source "$root/tests/gpu/find-nccl.sh"
