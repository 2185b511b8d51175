#!/usr/bin/env bash
# Install every Debian package probekit needs to build, test and bench.
# Safe to run again: apt-get skips what is already there.
set -euo pipefail
pkgs=(
  build-essential cmake ninja-build pkg-config git
  clang-14 libclang-14-dev llvm-14-dev libclang-rt-14-dev
  libpcre2-dev libcmocka-dev libinih-dev libjansson-dev
  valgrind python3
  pre-commit
  ripgrep python3-jsonschema clang-format
  python3-numpy libgtest-dev
  chromium
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
