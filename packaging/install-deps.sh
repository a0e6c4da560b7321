#!/usr/bin/env bash
# Installs the Debian packages cae builds against (only those missing).
# The CUDA toolkit is not a Debian package here: the CUDA backends are built
# when nvcc is found (/usr/local/cuda or CMAKE_CUDA_COMPILER), skipped otherwise.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libboost1.74-dev libboost-program-options1.74-dev  # Boost.DLL (header-only) + Program_options
  libsvm-dev                                         # the SVM solver
  doctest-dev                                        # test framework
  libopenblas-dev                                    # CBLAS for the cpu backend; LAPACK for whitening
  libgfortran-12-dev                                 # OpenBLAS's LAPACK runtime, for a static (CAE_PORTABLE) build
  libopenmpi-dev openmpi-bin                         # optional: MPI carries the group id of mpirun's ranks
  nlohmann-json3-dev                                 # safetensors headers, bench JSON
  libcairo2-dev                                      # report figures: PNG and SVG surfaces
  libstb-dev                                         # stb_image: PNG/JPEG/BMP image folders as data
  fonts-dejavu-core                                  # the sans-serif face figures are drawn in
  chromium                                           # browser test of report.html / bench page
  python3                                            # test scripts   
  clang libclang-rt-14-dev                           # libFuzzer targets (tests/fuzz)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all build dependencies present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo_cmd=""
[ "$(id -u)" = 0 ] || sudo_cmd="sudo"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
