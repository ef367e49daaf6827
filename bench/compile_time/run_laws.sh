#!/usr/bin/env bash
# bench/compile_time/run_laws.sh: the cost of the constexpr laws against generating the table, in
# one run (docs/performance.md). Each variant of laws_cost.cpp is compiled with g++ and clang++ with
# raised constexpr limits (the same for all variants, so the ratios compare like with like);
# /usr/bin/time gives wall seconds and peak RSS. The law's own cost is (law - table) / table;
# parity's is (parity - mirror) / table (variant 9 builds the mirrored table parity reads).
# Usage: bash bench/compile_time/run_laws.sh     Environment: GXX, CLANGXX, REPEAT (fastest of N),
# LAWS (the variants of laws_cost.cpp, default all: 0 .. 10; 0 must come first, 9 before 10).
# shellcheck source=SCRIPTDIR/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # here, root, GXX, CLANGXX, limits, tmp, is_less
REPEAT=${REPEAT:-1}
common=(-std=c++20 -O2 -Wall -Wextra -Werror -ffp-contract=off -I"$root/include" -c -o /dev/null)
names=(table exactness unit_norm pair_copies relative_dot composition norm_pres pass_through monotone_freq mirror parity)

measure() {  # compiler limits... -- law -> "seconds kib"
  local cxx=$1 law=$2; shift 2
  local best="" out
  for _ in $(seq "$REPEAT"); do
    out=$( { /usr/bin/time -f '%e %M' "$cxx" "${common[@]}" "$@" -DPOSENC_BENCH_LAW="$law" "$here/laws_cost.cpp"; } 2>&1 | tail -1)
    if [[ -z $best ]] || is_less "$out" "$best"; then best=$out; fi
  done
  echo "$best"
}

printf '%-8s %-12s %10s %10s %14s %14s\n' compiler variant seconds MiB "law/table time" "law/table mem"
for kind in gcc clang; do
  if [[ $kind == gcc ]]; then cxx=$GXX; limits=("${gcc_limits[@]}"); else cxx=$CLANGXX; limits=("${clang_limits[@]}"); fi
  base="" mirror=""
  for law in ${LAWS:-0 1 2 3 4 5 6 7 8 9 10}; do
    read -r s k < <(measure "$cxx" "$law" "${limits[@]}")
    if [[ $law == 0 ]]; then base="$s $k"; fi
    if [[ $law == 9 ]]; then mirror="$s $k"; fi
    read -r bs bk <<<"$base"
    # parity (10) is measured from the mirrored table (9), relative to the table's generation (0)
    if [[ $law == 10 ]]; then read -r ms mk <<<"$mirror"; else ms=$bs mk=$bk; fi
    awk -v c="$kind" -v n="${names[$law]}" -v s="$s" -v k="$k" -v bs="$bs" -v bk="$bk" -v ms="$ms" -v mk="$mk" -v l="$law" 'BEGIN {
      if (l == 0) printf "%-8s %-12s %10.2f %10.0f %14s %14s\n", c, n, s, k / 1024, "-", "-";
      else printf "%-8s %-12s %10.2f %10.0f %14.2f %14.2f\n", c, n, s, k / 1024, (s - ms) / bs, (k - mk) / bk }'
  done
done
