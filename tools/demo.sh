#!/usr/bin/env bash
# posenc's demo: installs what is missing, builds with GCC 12, and runs the quick-start example:
# RoPE cos/sin values computed at compile time, each checked against MPFR at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/bootstrap-deps.sh
cmake --preset gcc >/dev/null
cmake --build --preset gcc --target example_quickstart posenc_cli -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
./build/gcc/examples/example_quickstart
