#!/usr/bin/env bash
# bench/runtime/run_apply.sh: the apply-throughput figures of docs/performance.md in one command.
#
# Builds bench/runtime/apply_bench.cpp with g++ and clang++-16 at -O2 for -march=x86-64 (the
# baseline ISA, SSE2) and -march=x86-64-v3 (AVX2 + FMA, if this machine runs it), runs each binary
# once (both regimes: "cache", 32 positions, and "stream", 4096 positions), and prints, per regime,
# a Markdown table of posenc / memcpy and posenc / libm-per-position, each ratio from one run. The
# raw output of every run is kept in $OUT (default: a temporary directory) for the absolute GB/s.
#
# Usage: bash bench/runtime/run_apply.sh               (about 1 minute on 2 cores)
# Environment: GXX (default g++), CLANGXX (default clang++-16), MARCHS (default "x86-64 x86-64-v3"),
#              OUT (directory for the binaries and raw outputs).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
gxx=${GXX:-g++}
clangxx=${CLANGXX:-clang++-16}
marchs=${MARCHS:-"x86-64 x86-64-v3"}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

runs=()
for march in $marchs; do
  if [ "$march" = x86-64-v3 ] && ! grep -qw avx2 /proc/cpuinfo; then
    echo "run_apply: this machine cannot run x86-64-v3 code; skipped" >&2
    continue
  fi
  for cxx in "$gxx" "$clangxx"; do
    name="$(basename "$cxx")_${march}"
    "$cxx" -std=c++20 -O2 "-march=$march" -ffp-contract=off -I"$root/include" \
      "$root/bench/runtime/apply_bench.cpp" -o "$out/$name"
    runs+=("$name")
  done
done

for name in "${runs[@]}"; do
  echo "running $name" >&2
  "$out/$name" > "$out/$name.txt"
done

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "raw outputs: $out"
for regime in cache stream; do
  echo
  echo "### $regime"
  echo
  header="| storage, layout |"
  rule="|---|"
  for name in "${runs[@]}"; do
    header="$header $name |"
    rule="$rule---|"
  done
  echo "$header"
  echo "$rule"
  for row in "f32 interleaved" "f32 half-split" "bf16 interleaved" "bf16 half-split"; do
    line="| $row |"
    for name in "${runs[@]}"; do
      # Lines of the regime's section: "<storage> <layout> memcpy ... (0.58x memcpy) | libm/pos ... (posenc 3.52x) |"
      cell=$(awk -v reg="$regime" -v st="${row% *}" -v lay="${row#* }" '
        /^== / { inreg = ($2 == reg ":") }
        inreg && $1 == st && $2 == lay {
          m = $0; sub(/x memcpy.*/, "", m); sub(/.*\(/, "", m)
          l = $0; sub(/.*libm\/pos[^(]*\(posenc /, "", l); sub(/x\).*/, "", l)
          print m "x, " l "x"
        }' "$out/$name.txt")
      line="$line $cell |"
    done
    echo "$line"
  done
done
