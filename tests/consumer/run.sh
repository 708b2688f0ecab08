#!/usr/bin/env bash
# Installs the build tree into a fresh prefix, then builds and runs the
# consumer against it twice: with find_package(Tessera) and with pkg-config.
# Usage: run.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1 work=$2
src=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/cmake-build" > "$work/build.log"
"$work/cmake-build/consumer"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
libdir=$(pkg-config --variable=libdir tessera)
cc -std=c99 -o "$work/consumer-pc" "$src/consumer.c" $(pkg-config --cflags --libs tessera tessera-blas) -lm \
   -Wl,-rpath,"$libdir"
"$work/consumer-pc"
