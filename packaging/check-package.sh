#!/usr/bin/env bash
# Checks FullBand's Debian package the way a user gets it: unpacks the .deb into a scratch root
# (dpkg -x, no root needed), checks its metadata and installed files, and runs the installed binary
# (--version, and a headless export of a chart to PNG). The Qt and oneTBB libraries are the
# system's, as the package's Depends line promises.
#   packaging/check-package.sh FILE.deb
#   packaging/check-package.sh BUILD_DIR     (runs cpack -G DEB there first)
set -euo pipefail

arg=${1:?usage: check-package.sh FILE.deb | BUILD_DIR}
if [ -d "$arg" ]; then
  (cd "$arg" && cpack -G DEB >/dev/null)
  deb=$(ls -t "$arg"/fullband_*.deb | head -n1)
else
  deb=$arg
fi
[ -f "$deb" ] || { echo "check-package: no package at '$deb'" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fail() { echo "check-package: FAIL: $*" >&2; exit 1; }

echo "check-package: $(basename "$deb")"
depends=$(dpkg-deb -f "$deb" Depends)
echo "  Depends: $depends"
for lib in libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6svg6 qt6-qpa-plugins libtbb12; do
  [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib"
done

# The dependencies resolve from Debian's archive (a simulated install changes nothing), where apt
# has package lists to ask.
if ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
  apt-get -s -o Debug::NoLocking=1 install --no-install-recommends "$(realpath "$deb")" > "$root.apt" 2>&1 \
    && grep -q '^Inst fullband ' "$root.apt" || { cat "$root.apt" >&2; rm -f "$root.apt"; fail "apt cannot install the package"; }
  echo "  apt-get -s install: $(grep -c '^Inst ' "$root.apt") package(s) to install, dependencies resolve"
  rm -f "$root.apt"
fi

dpkg -x "$deb" "$root"
for f in usr/bin/fullband \
         usr/share/applications/fullband.desktop \
         usr/share/metainfo/org.fullband.FullBand.metainfo.xml \
         usr/share/icons/hicolor/scalable/apps/fullband.svg \
         usr/share/icons/hicolor/48x48/apps/fullband.png \
         usr/share/icons/hicolor/128x128/apps/fullband.png \
         usr/share/icons/hicolor/256x256/apps/fullband.png \
         usr/share/mime/packages/fullband.xml \
         usr/share/fullband/decks/road-to-transformers.fullband; do
  [ -s "$root/$f" ] || fail "the package does not install $f"
done
for size in 48 128 256; do
  file "$root/usr/share/icons/hicolor/${size}x${size}/apps/fullband.png" | grep -q "$size x $size" \
    || fail "the ${size}x${size} icon has the wrong size"
done
# Validators, where Debian's tools are installed.
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/fullband.desktop" || fail "desktop-file-validate"
  echo "  desktop-file-validate fullband.desktop: OK"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$root/usr/share/metainfo/org.fullband.FullBand.metainfo.xml" >/dev/null \
    || fail "appstreamcli validate"
  echo "  appstreamcli validate org.fullband.FullBand.metainfo.xml: OK"
fi
# Every library the installed binary needs resolves from the system.
if ldd "$root/usr/bin/fullband" | grep -q 'not found'; then
  ldd "$root/usr/bin/fullband" >&2
  fail "unresolved libraries"
fi

bin=$root/usr/bin/fullband
version=$(env -u DISPLAY -u WAYLAND_DISPLAY "$bin" --version) || fail "fullband --version exited with $?"
echo "  $bin --version: $version"
[[ "$version" == "FullBand "* ]] || fail "unexpected --version output"

out=$root/decay-bound.png
printed=$(cd "$root" && env -u DISPLAY -u WAYLAND_DISPLAY "$bin" export decay-bound --out decay-bound.png) \
  || fail "fullband export exited with $?"
[ -s "$out" ] || fail "fullband export wrote no PNG"
echo "  fullband export decay-bound --out x.png: $printed ($(file -b "$out" | cut -d, -f1-2))"
file "$out" | grep -q '1600 x 1000' || fail "the exported PNG is not 1600 x 1000"
echo "check-package: OK"
