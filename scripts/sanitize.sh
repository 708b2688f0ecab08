#!/usr/bin/env bash
# Sanitizer runs, called by scripts/test.sh (so by CI):
#  - the whole test suite built with AddressSanitizer + UndefinedBehaviorSanitizer
#    (leak checking on; any report fails the run), except the tests that preload
#    libtessera_blas.so into uninstrumented programs (Netlib's, numpy, the installed
#    consumer) — an ASan runtime cannot be preloaded behind them;
#  - the threaded tests (pool, determinism across thread counts, concurrent handles)
#    built with ThreadSanitizer. The OpenMP tests are left out there: libgomp is not
#    instrumented, so TSan cannot see its synchronisation; nor the fork test: TSan does
#    not support starting threads in the child of a multi-threaded fork.
# Setup is assumed done (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DTESSERA_SANITIZE=address,undefined \
      -DTESSERA_BUILD_BENCH=OFF > /dev/null
cmake --build build-asan -j2
(cd build-asan &&
 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
 ctest --output-on-failure -j2 -E "netlib|numpy|install_and_consume")

cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Release -DTESSERA_SANITIZE=thread \
      -DTESSERA_BUILD_BENCH=OFF > /dev/null
cmake --build build-tsan -j2 --target tessera_tests
# Two processes side by side (one process ran 240 s here: each test's threads
# leave a core idle part of the time). Split by name rather than by gtest's
# round-robin shards, which put 130 of the 200 s in one (session 46, kernels at
# -O1): the reproducibility sweep (73 s) and one determinism test in the first,
# everything else the filter takes — new tests included — in the second.
tsan_filter='Concurrency*:Reproducibility*:Huge*:Core.*:*ThreadDeterminism*:SpMV.EveryIsa*:SpMV.UsesSeveral*:SpMV.ColumnBlocksDouble:SpVV.AllTypes*'
tsan_first='Reproducibility*:Gemm.ThreadDeterminismComplexFloat'
tsan_shard() {
  local filter
  if [ "$1" = 0 ]; then filter="$tsan_first:-*OpenMP*:*Fork*"; else filter="$tsan_filter:-$tsan_first:*OpenMP*:*Fork*"; fi
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build-tsan/tests/tessera_tests --gtest_filter="$filter" \
    > "build-tsan/tsan-shard$1.log" 2>&1
}
tsan_shard 0 & shard0=$!
tsan_shard 1 & shard1=$!
tsan_ok=1
wait "$shard0" || tsan_ok=0
wait "$shard1" || tsan_ok=0
cat build-tsan/tsan-shard0.log build-tsan/tsan-shard1.log
[ "$tsan_ok" = 1 ] || { echo "sanitize: TSan shard FAILED"; exit 1; }
echo "sanitize: ASan+UBSan suite and TSan threaded tests clean"
