#!/usr/bin/env bash
# The one list of Debian packages Kolize needs to build, test and run.
# Installs only what is missing: with apt-get when run as root, otherwise it prints
# the exact install command and exits non-zero.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config python3
  libsdl2-dev libglm-dev libimgui-dev libstb-dev python3-glad
  libgtest-dev libbenchmark-dev libbullet-dev libccd-dev libqhull-dev libcli11-dev nlohmann-json3-dev libtinyobjloader-dev
  xvfb xauth xdotool
  dpkg-dev file desktop-file-utils
  clang libclang-rt-14-dev
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "deps.sh: missing packages; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
