#!/usr/bin/env bash
# Sets up, builds (Release, with tests) and runs every test, then the same
# suite under the sanitizers (scripts/sanitize.sh) and the fuzz targets for a
# fixed number of inputs (scripts/fuzz.sh). Arguments go to the first ctest;
# TESSERA_SKIP_SANITIZE=1 skips the sanitizer and fuzz builds (over half the time).
# Tests run two at a time (the machine has 2 cores; none of them times itself), and
# each stage prints how long it took, so a slow stage shows in CI's log.
set -euo pipefail
cd "$(dirname "$0")/.."
stage() { echo "test.sh: $1 done at ${SECONDS} s"; }
./scripts/setup.sh
stage setup
# Ninja for build directories created here (an existing one keeps the
# generator it was made with): it compiles a target's objects while the
# libraries they link against still build, where make waits for them — the
# sanitized builds' tests compiled on one core after the kernel files.
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j2
stage "Release build"
(cd build && ctest --output-on-failure -j2 "$@")
stage "Release tests"
if [ "${TESSERA_SKIP_SANITIZE:-0}" != 1 ]; then
  ./scripts/sanitize.sh
  stage "sanitizer builds and runs"
  ./scripts/fuzz.sh
  stage "fuzz build and runs"
fi
