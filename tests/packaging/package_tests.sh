#!/usr/bin/env bash
# Packaging tests (CTest packaging.install): builds the packages from a finished
# build tree, then uses them the way a user and a third-party backend author do:
#   - cpack -G DEB and TGZ: package names, version, metadata, dependencies, contents;
#   - `cmake --install` into a prefix that is then MOVED, and the cae .deb
#     unpacked with dpkg-deb -x: in both, `cae backends` finds the cpu backend
#     inside that prefix and nothing from the build tree;
#   - examples/backend-template, as installed in each prefix, builds out of tree
#     with find_package(cae), is listed from a --plugin-dir and passes that
#     prefix's cae-conformance (in the moved prefix through its own CTest);
#     installed into the prefix, cae finds it without options;
#   - from the unpacked .deb, `cae pipeline --backend cpu` on a tiny synthetic set.
# usage: package_tests.sh BUILD_DIR VERSION HAVE_CUDA(ON|OFF)
set -u
BUILD=$1 VERSION=$2 HAVE_CUDA=$3
failures=0 checks=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset CAE_PLUGIN_PATH  # only the folders each test names
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

# run NAME EXPECTED_RC CMD...: captures stdout+stderr into $out, checks the exit code.
run() {
  local name=$1 expected=$2
  shift 2
  out=$("$@" 2>&1)
  exit_code "$name" "$expected" $? "$*"
}
# exit_code NAME EXPECTED_RC RC COMMAND: counts the check; a wrong code fails
# it with the command and the tail of $out.
exit_code() {
  checks=$((checks + 1))
  if [ "$3" != "$2" ]; then
    echo "FAIL [$1]: exit code $3, expected $2, from: $4"
    echo "$out" | tail -n 40 | sed 's/^/    /'
    failures=$((failures + 1))
  fi
}
# expect NAME PATTERN / reject NAME PATTERN: $out must (not) match the extended regex.
expect() {
  checks=$((checks + 1))
  if ! grep -qE -- "$2" <<<"$out"; then
    echo "FAIL [$1]: output lacks /$2/; output:"
    echo "$out" | tail -n 40 | sed 's/^/    /'
    failures=$((failures + 1))
  fi
}
# reject NAME PATTERN [ALLOWED]: lines matching ALLOWED do not count.
reject() {
  checks=$((checks + 1))
  if grep -vE -- "${3:-^$}" <<<"$out" | grep -qE -- "$2"; then
    echo "FAIL [$1]: output unexpectedly has /$2/:"
    grep -E -- "$2" <<<"$out" | head -n 5 | sed 's/^/    /'
    failures=$((failures + 1))
  fi
}
# require NAME PATH: the file exists.
require() {
  checks=$((checks + 1))
  if [ ! -e "$2" ]; then
    echo "FAIL [$1]: $2 does not exist"
    failures=$((failures + 1))
  fi
}
# same NAME EXPECTED ACTUAL: two strings are equal.
same() {
  checks=$((checks + 1))
  if [ "$2" != "$3" ]; then
    echo "FAIL [$1]: got '$3', expected '$2'"
    failures=$((failures + 1))
  fi
}
# Every backend path `cae backends` printed lies under $1 or $2 (never the build tree).
paths_only_under() {
  checks=$((checks + 1))
  local stray
  stray=$(grep -E '^ +/' <<<"$out" | grep -vE "^ +($1|${2:-$1})/" || true)
  if [ -n "$stray" ]; then
    echo "FAIL [$3]: backends outside $1:"
    echo "$stray" | sed 's/^/    /'
    failures=$((failures + 1))
  fi
}

# ---- packages ---------------------------------------------------------------
run "cpack" 0 cpack --config "$BUILD/CPackConfig.cmake" -G "DEB;TGZ" -B "$work/packages"
arch=$(dpkg --print-architecture)
cae_deb=$work/packages/cae_${VERSION}_${arch}.deb
cuda_deb=$work/packages/cae-cuda_${VERSION}_${arch}.deb
tarball=$(ls "$work"/packages/cae-"$VERSION"-Linux-*.tar.gz 2>/dev/null | head -n 1)
require "cae .deb" "$cae_deb"
require "tar.gz" "${tarball:-$work/packages/cae-$VERSION-Linux-*.tar.gz}"

run "cae .deb metadata" 0 dpkg-deb -I "$cae_deb"
expect "deb: name" '^ Package: cae$'
expect "deb: version" "^ Version: ${VERSION//./\\.}$"
expect "deb: maintainer" '^ Maintainer: .+<.+@.+>'
expect "deb: description" '^ Description: .+'
expect "deb: section" '^ Section: science'
for dep in 'libboost-program-options1\.74\.0' 'libsvm3' 'libopenblas0' 'libgomp1' 'libstdc\+\+6' \
  'libc6' 'libcairo2'; do
  expect "deb: depends on $dep" "^ Depends: .*$dep"
done
run "cae .deb contents" 0 dpkg-deb -c "$cae_deb"
for file in usr/bin/cae usr/bin/cae-conformance usr/lib/cae/plugins/libcae-backend-cpu.so \
  usr/include/cae/backend.h usr/include/cae/option_text.h usr/lib/cmake/cae/caeConfig.cmake usr/lib/cmake/cae/caeTargets.cmake \
  usr/lib/cmake/cae/CaeBackendSdk.cmake usr/lib/cmake/cae/backend_exports.map \
  usr/share/doc/cae/README.md usr/share/doc/cae/abi.md usr/share/doc/cae/writing-a-backend.md \
  usr/share/doc/cae/cli.md usr/share/doc/cae/install.md \
  usr/share/doc/cae/examples/backend-template/template_backend.c \
  usr/share/doc/cae/examples/models/dense1600.json usr/share/doc/cae/examples/models/dense4000.json \
  usr/share/doc/cae/examples/models/dense1600-7x7.json \
  usr/share/doc/cae/copyright; do
  expect "deb contains $file" " \./$file$"
done
same "cae .deb: the cpu backend only" "libcae-backend-cpu.so" \
  "$(grep -oE 'libcae-backend-[^ /]+\.so' <<<"$out" | sort -u | xargs)"
# Debian policy 12.5: the copyright file, in the machine-readable format, with the license.
mkdir -p "$work/copyright" && run "deb: extract" 0 dpkg-deb -x "$cae_deb" "$work/copyright"
run "deb: copyright" 0 cat "$work/copyright/usr/share/doc/cae/copyright"
expect "copyright: DEP-5 format" '^Format: https://www\.debian\.org/doc/packaging-manuals/copyright-format/1\.0/$'
expect "copyright: license" '^License: Expat$'
expect "copyright: license text" '^ THE SOFTWARE IS PROVIDED "AS IS"'

if [ "$HAVE_CUDA" = ON ]; then
  require "cae-cuda .deb" "$cuda_deb"
  run "cae-cuda .deb metadata" 0 dpkg-deb -I "$cuda_deb"
  expect "cuda deb: name" '^ Package: cae-cuda$'
  expect "cuda deb: version" "^ Version: ${VERSION//./\\.}$"
  expect "cuda deb: depends on cae" "^ Depends: .*cae \(= ${VERSION//./\\.}\)"
  expect "cuda deb: depends on cuBLAS" '^ Depends: .*libcublas'
  expect "cuda deb: depends on the driver" '^ Depends: .*libcuda1'
  run "cae-cuda .deb contents" 0 dpkg-deb -c "$cuda_deb"
  for name in naive v1 v2; do
    expect "cuda deb contains $name" " \./usr/lib/cae/plugins/libcae-backend-$name\.so$"
  done
  expect "cuda deb contains its copyright" ' \./usr/share/doc/cae-cuda/copyright$'
  reject "cuda deb has only backends" '\./usr/(bin|include|share)/.*[^/]$' \
    '\./usr/share/doc/cae-cuda/copyright$'
  reject "cuda deb has no cpu backend" 'libcae-backend-cpu\.so'
else
  checks=$((checks + 1))
  if [ -e "$cuda_deb" ]; then
    echo "FAIL [no CUDA, no cae-cuda .deb]: $cuda_deb exists"
    failures=$((failures + 1))
  fi
fi

# ---- three prefixes: cmake --install (moved afterwards), the .deb, the tar.gz ----
run "cmake --install" 0 cmake --install "$BUILD" --prefix "$work/staging"
mv "$work/staging" "$work/moved"  # the prefix must not remember where it was installed
install_prefix=$work/moved
run "dpkg-deb -x" 0 dpkg-deb -x "$cae_deb" "$work/deb"
deb_prefix=$work/deb/usr
mkdir -p "$work/tgz" && run "tar -x" 0 tar -xzf "$tarball" -C "$work/tgz"
tgz_prefix=$(ls -d "$work"/tgz/cae-* | head -n 1)

for prefix in "$install_prefix" "$deb_prefix" "$tgz_prefix"; do
  label=${prefix#"$work"/}
  run "$label: cae backends" 0 "$prefix/bin/cae" backends
  expect "$label: cpu listed" '^cpu +[0-9.]+ +ABI 1\.[0-9]+ +available: '
  expect "$label: cpu from the prefix" "^ +$prefix/lib/cae/plugins/libcae-backend-cpu\.so$"
  paths_only_under "$prefix" "" "$label: only the prefix's backends"
  reject "$label: no duplicate warnings" 'warning'
done
run "deb: cae backends -v" 0 "$deb_prefix/bin/cae" backends -v
reject "deb: build tree not searched" 'build tree'
run "deb: cae backends" 0 "$deb_prefix/bin/cae" backends
same "deb: only cpu" "cpu" "$(awk '/ ABI [0-9]/ {print $1}' <<<"$out" | xargs)"

# Both .debs unpacked together: the CUDA backends join cae's plugin folder and
# load (on a machine without a GPU they are listed as unavailable, with why).
if [ "$HAVE_CUDA" = ON ]; then
  run "dpkg-deb -x cae" 0 dpkg-deb -x "$cae_deb" "$work/deb-all"
  run "dpkg-deb -x cae-cuda" 0 dpkg-deb -x "$cuda_deb" "$work/deb-all"
  run "cae + cae-cuda: cae backends" 0 "$work/deb-all/usr/bin/cae" backends
  for name in naive v1 v2; do
    expect "cae + cae-cuda: $name listed" "^$name +[0-9.]+ +ABI 1\.[0-9]+ +(available|unavailable): "
    expect "cae + cae-cuda: $name from the prefix" \
      "^ +$work/deb-all/usr/lib/cae/plugins/libcae-backend-$name\.so$"
  done
fi

# ---- a third-party backend from the installed template ---------------------
# template_in PREFIX LABEL: builds the prefix's copy of the template against it.
template_in() {
  local prefix=$1 label=$2 build=$work/template-$2 drop=$work/drop-$2
  run "$label: configure template" 0 cmake -S "$prefix/share/doc/cae/examples/backend-template" \
    -B "$build" "${generator[@]}" -DCMAKE_PREFIX_PATH="$prefix"
  run "$label: build template" 0 cmake --build "$build"
  reject "$label: template builds without warnings" 'warning:'
  mkdir -p "$drop" && cp "$build/libcae-backend-template.so" "$drop/"
  run "$label: template listed" 0 "$prefix/bin/cae" backends --plugin-dir "$drop"
  expect "$label: template listed" '^template +1\.0\.0 +ABI 1\.[0-9]+ +available: '
  expect "$label: template path" "^ +$drop/libcae-backend-template\.so$"
  paths_only_under "$prefix" "$drop" "$label: no build-tree backend beside the template"
}
template_in "$install_prefix" install
template_in "$deb_prefix" deb

# Each prefix's cae-conformance certifies the template built against it. The
# moved prefix's run is the template's own CTest (cae::conformance from the
# package: the same program on the same library); the .deb's runs beside it,
# each on one core, since the template computes on one thread.
passed='cae-conformance: template: [0-9]+ checks, [0-9]+ passed, 0 failed.*PASSED'
deb_certify=("$deb_prefix/bin/cae-conformance" --backend "$work/drop-deb/libcae-backend-template.so")
"${deb_certify[@]}" >"$work/deb-certification.log" 2>&1 &
deb_certification=$!
run "template ctest" 0 ctest --test-dir "$work/template-install" --output-on-failure -V
expect "install: conformance PASSED (the template's CTest)" "$passed"
wait "$deb_certification"
deb_status=$?
out=$(cat "$work/deb-certification.log")
exit_code "deb: template certified" 0 "$deb_status" "${deb_certify[*]}"
expect "deb: conformance PASSED" "$passed"

# The template's install rule: installed into cae's prefix, cae finds it with
# no option at all.
run "template install" 0 cmake --install "$work/template-install" --prefix "$install_prefix"
run "installed template listed" 0 "$install_prefix/bin/cae" backends
expect "installed template listed" "^ +$install_prefix/lib/cae/plugins/libcae-backend-template\.so$"

# ---- the unpacked .deb runs the whole pipeline ------------------------------
run "deb: synthetic data" 0 "$deb_prefix/bin/cae" data synth "$work/data" --train 200 --test 100
run "deb: pipeline" 0 "$deb_prefix/bin/cae" pipeline --backend cpu --data "$work/data" --epochs 1 \
  --out "$work/run"
expect "deb: pipeline prints test accuracy" 'test accuracy: [0-9.]+%'
require "deb: pipeline writes report.html" "$work/run/report.html"

echo "packaging: $checks checks, $failures failed"
[ "$failures" = 0 ]
