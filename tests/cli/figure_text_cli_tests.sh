#!/usr/bin/env bash
# Figures on a machine without a fontconfig configuration (no /etc/fonts, as on
# the GPU machine): the pipeline and `cae report` draw their figures' text
# from the font file cae names itself, print no "Fontconfig" line, and write
# every PNG. Where a user namespace can hide every font folder (unshare), the
# same report without any font says so in one line and still writes figures,
# which then differ from those with text.
# The seed's settings (--defaults baseline) keep the pipeline short.
# usage: figure_text_cli_tests.sh CAE
set -u
CAE=$1
# shellcheck source=tests/cli/test_lib.sh
source "$(dirname "$0")/test_lib.sh"
cd "$work" || exit 1

mkdir empty-fontconfig
no_fontconfig=(env FONTCONFIG_FILE=/nonexistent FONTCONFIG_PATH="$work/empty-fontconfig")
figures=(loss_curve.png confusion.png)

run "synth" 0 "$CAE" data synth D --train 64 --test 20 --seed 5
run "pipeline without fontconfig" 0 "${no_fontconfig[@]}" "$CAE" pipeline --backend cpu --defaults baseline \
  --data D --epochs 1 --batch 32 --out R
reject "pipeline without fontconfig" "Fontconfig"
reject "pipeline without fontconfig" "without text"
for f in "${figures[@]}" reconstructions.png report.html; do exists "pipeline $f" "R/$f"; done

rm -f R/loss_curve.png R/confusion.png
run "report without fontconfig" 0 "${no_fontconfig[@]}" "$CAE" report R
reject "report without fontconfig" "Fontconfig"
for f in "${figures[@]}"; do exists "report $f" "R/$f"; done

# No font anywhere: tmpfs over the system's font folders and the build's copy.
hide=()
for folder in /usr/share/fonts /usr/local/share/fonts "$(dirname "$CAE")/../share/cae/fonts"; do
  [ -d "$folder" ] && hide+=("$folder")
done
if unshare -rm true 2>/dev/null; then
  cp -r R T
  rm -f T/loss_curve.png T/confusion.png
  # shellcheck disable=SC2016  # expanded by the inner shell
  run "report without any font" 0 "${no_fontconfig[@]}" unshare -rm sh -c \
    'for d in "$@"; do mount -t tmpfs none "$d" || exit 3; done; exec "$0" report T' \
    "$CAE" "${hide[@]}"
  reject "report without any font" "Fontconfig"
  expect "report without any font" "^cae: no DejaVuSans.ttf in .*; figures are drawn without text$"
  checks=$((checks + 1))
  [ "$(grep -c "without text" <<<"$out")" = 1 ] || fail "report without any font" "said more than once"
  for f in "${figures[@]}"; do
    exists "report without any font: $f" "T/$f"
    checks=$((checks + 1))
    ! cmp -s "R/$f" "T/$f" || fail "text drawn in $f" "same picture with and without a font"
  done
else
  echo "note: no user namespaces here (unshare -rm), the case without any font is not checked"
fi
finish
