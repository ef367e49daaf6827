#!/usr/bin/env bash
# posenc's whole test suite: installs what is missing, checks the format (tools/check-format.sh),
# then builds and tests with GCC 12 and Clang 16 (proofs, Catch2 tests, examples, header and
# packaging checks), warnings as errors, then again with GCC under AddressSanitizer and
# UndefinedBehaviorSanitizer (that preset builds and runs the code that runs: tests, examples, CLI;
# the compile-only checks and benchmarks ran already in the first two).
# Usage: bash tools/test.sh [preset ...]      (default: gcc clang asan)
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/bootstrap-deps.sh
bash tools/check-format.sh   # the declared format (.clang-format); drift fails the suite

presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(gcc clang asan)
jobs=$(nproc 2>/dev/null || echo 2)

for preset in "${presets[@]}"; do
  echo "=== posenc: ${preset}: configure, build, test ==="
  start=$(date +%s)
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
  echo "=== posenc: ${preset}: passed in $(( $(date +%s) - start )) s ==="
done
