#!/usr/bin/env bash
# Sets up, builds (Release, with tests) and runs every test, then the same
# suite under the sanitizers (scripts/sanitize.sh) and the fuzz targets for a
# fixed number of inputs (scripts/fuzz.sh). Arguments go to the first ctest;
# TESSERA_SKIP_SANITIZE=1 skips the sanitizer and fuzz builds (about 8 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j2
(cd build && ctest --output-on-failure -j1 "$@")
if [ "${TESSERA_SKIP_SANITIZE:-0}" != 1 ]; then
  ./scripts/sanitize.sh
  ./scripts/fuzz.sh
fi
