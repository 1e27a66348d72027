#!/usr/bin/env bash
# FullBand's one entry point for a fresh Debian 12 machine (run as root, or with sudo available).
#   packaging/fullband.sh run    install missing packages, build, start the app
#   packaging/fullband.sh test   install missing packages, build, run every test through CTest
#   packaging/fullband.sh build  install missing packages and build only
# Environment: BUILD_DIR (default: build), FULLBAND_JOBS (default: number of cores).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$here/build}
jobs=${FULLBAND_JOBS:-$(nproc)}
mode=${1:-run}
shift || true

# Build and test dependencies, all from Debian 12.
packages=(build-essential cmake ninja-build pkg-config
          qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6svg6 libgl-dev
          libeigen3-dev libtbb-dev
          xvfb xauth fonts-dejavu-core)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "fullband: installing missing packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure_and_build() {
  local march_args=()
  # x86-64-v3 (AVX2/FMA) lets Eigen vectorize; fall back to a portable build on older CPUs.
  if ! grep -q -m1 avx2 /proc/cpuinfo 2>/dev/null; then march_args=(-DFULLBAND_MARCH=); fi
  cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${march_args[@]}" "$@"
  cmake --build "$build_dir" -j "$jobs"
}

install_missing
case "$mode" in
  build) configure_and_build "$@" ;;
  run)
    configure_and_build
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "fullband: no display found; starting under xvfb-run (set DISPLAY to see the window)"
      exec xvfb-run -a -s '-screen 0 1600x1000x24' "$build_dir/app/fullband" "$@"
    fi
    exec "$build_dir/app/fullband" "$@" ;;
  test)
    configure_and_build
    export QT_QPA_PLATFORM=offscreen
    ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" "$@" ;;
  *) echo "usage: $0 run|test|build" >&2; exit 2 ;;
esac
