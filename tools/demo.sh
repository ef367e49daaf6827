#!/usr/bin/env bash
# posenc's demo: installs what is missing, builds with GCC 12, and runs the quick-start example:
# RoPE cos/sin values computed at compile time, each checked against MPFR at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/bootstrap-deps.sh --demo
cmake --preset gcc >/dev/null
cmake --build --preset gcc --target example_quickstart posenc_cli -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
./build/gcc/examples/example_quickstart
echo
echo "From the command line (exact hex output by default, --decimal for people):"
for args in "math sin 1e22" "math exp 1 --decimal" \
            "emit rope --head-dim 8 --positions 2 --start 4095 --dtype bf16 --decimal" \
            "emit rope --head-dim 7 --positions 2"; do
  echo "\$ posenc $args"
  # shellcheck disable=SC2086
  ./build/gcc/tools/posenc $args || echo "(exit $?: bad input is refused with one line, nothing written)"
done
