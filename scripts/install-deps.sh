#!/usr/bin/env bash
# Installs the Debian packages kvplan builds with, when any is missing.
# Runs apt-get as root (or through sudo when available).
set -euo pipefail
pkgs=(g++ cmake ninja-build make git python3 clang clang-format libfmt-dev nlohmann-json3-dev
      libcli11-dev libsqlite3-dev libssl-dev libgtest-dev libbenchmark-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "kvplan: installing missing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq || true
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
