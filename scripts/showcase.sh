#!/usr/bin/env bash
# Sets up, builds in Release and runs the short benchmark showcase: Tessera
# beside OpenBLAS (pthread/OpenMP builds, default and ZEN kernels) and BLIS,
# GEMM in four precisions at 1 and all threads; then CSR SpMV beside Eigen and
# librsb on smaller generated matrices and the SuiteSparse ones, and the
# seed's SpVV cases. Results: bench-results/.
# Extra options go to the GEMM run, e.g. ./scripts/showcase.sh --types d
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j2 --target tessera-bench
./build/bench/tessera-bench gemm --quick --out bench-results "$@"
echo
./build/bench/tessera-bench spmv --quick --types d --rounds 5 --out bench-results
echo
./build/bench/tessera-bench spvv --reps 9
