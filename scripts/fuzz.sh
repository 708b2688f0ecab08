#!/usr/bin/env bash
# Builds the libFuzzer targets with clang + ASan + UBSan and runs each for a
# fixed number of inputs, starting from the committed corpus (new inputs go to
# a scratch directory, never into the repository). Any crash, sanitizer
# report, leak, timeout or out-of-memory fails the run. Called by
# scripts/test.sh; FUZZ_RUNS overrides the number of inputs per target.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${FUZZ_RUNS:-200000}  # ~15 s for both targets here (kernels at -O0, see CMakeLists.txt)
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release -DTESSERA_FUZZ=ON \
  -DTESSERA_SANITIZE=address,undefined -DTESSERA_BUILD_TESTS=OFF -DTESSERA_BUILD_BENCH=OFF > /dev/null
cmake --build build-fuzz -j2 --target fuzz_mm_reader fuzz_api
for t in mm_reader api; do
  scratch=build-fuzz/corpus-$t
  rm -rf "$scratch" && mkdir -p "$scratch"
  echo "fuzz: $t, $runs inputs"
  log=build-fuzz/fuzz-$t.log
  if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
       build-fuzz/fuzz/fuzz_$t "$scratch" "fuzz/corpus/$t" -runs="$runs" -timeout=10 -rss_limit_mb=2048 \
       -print_final_stats=1 > "$log" 2>&1; then
    tail -60 "$log"
    echo "fuzz: $t FAILED (reproducer: the crash-* file above; keep it as a regression test)"
    exit 1
  fi
  grep -E "^#[0-9]+.*DONE|stat::number_of_executed_units|stat::new_units_added" "$log" || true
done
echo "fuzz: no findings"
