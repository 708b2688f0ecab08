#!/usr/bin/env bash
# Installs what Tessera needs to build, test and benchmark on Debian 12 (root).
# Skips apt entirely when everything is already present.
set -euo pipefail
pkgs=(build-essential cmake ninja-build libgtest-dev libgmock-dev
      libopenblas-dev libopenblas0-openmp libopenblas0-pthread libblis-dev libblis4-pthread
      libeigen3-dev librsb-dev gnuplot-nox
      libblas3 libblas-test python3 python3-numpy python3-pytest python3-hypothesis pkg-config
      clang libclang-rt-14-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
