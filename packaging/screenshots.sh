#!/usr/bin/env bash
# Takes a screenshot of every lab in a real window under Xvfb (for the README and for looking).
#   packaging/screenshots.sh [OUT_DIR]      (default: resources/screenshots)
# Needs a built tree (BUILD_DIR, default build) and xvfb-run + ImageMagick's import
# (`packaging/fullband.sh screenshots` installs both and builds). SCREEN=WxH sets the screen size.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$here/build}
out=${1:-$here/resources/screenshots}
mkdir -p "$out"
labs=$("$build_dir/app/fullband" export --help | sed -n 's/^Labs: //p' | tr -d ',')
for lab in $labs; do
  config=$(mktemp -d)
  mkdir -p "$config/FullBand"
  printf '[window]\nlab=%s\n' "$lab" > "$config/FullBand/FullBand.conf"
  XDG_CONFIG_HOME="$config" xvfb-run -a -s "-screen 0 ${SCREEN:-1600x1000}x24" sh -c \
    "'$build_dir/app/fullband' & pid=\$!; sleep ${SHOT_DELAY:-6}; import -window root '$out/$lab.png'; kill \$pid" >/dev/null 2>&1
  rm -rf "$config"
  echo "$out/$lab.png"
done
