#!/usr/bin/env bash
# bench/compile_time/run_schemes.sh: compile time and compiler memory of the schemes' constexpr
# tables against a trivial constexpr fill of the same array, in one run (docs/performance.md 2.2).
# For each scheme (schemes_cost.cpp) and compiler it compiles the trivial fill and the scheme's
# table with -c -O2, measures wall time and peak RSS (/usr/bin/time -f '%e %M'), and prints both
# and their ratio. Constexpr limits start at the compilers' defaults and double on a limit stop
# (as run.sh does); the flags that sufficed are printed.
# Usage: bash bench/compile_time/run_schemes.sh                 (schemes 1 2 3; sinusoidal rows 64)
#        SCHEMES="2 3" SINUSOIDAL_ROWS=1024 REPEAT=5 bash bench/compile_time/run_schemes.sh
# (REPEAT, default 3: each compile is timed that many times and the fastest kept.)
# shellcheck source=SCRIPTDIR/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # here, root, GXX, CLANGXX, limits, tmp, is_less
SCHEMES=${SCHEMES:-"1 2 3"}
SINUSOIDAL_ROWS=${SINUSOIDAL_ROWS:-64}
REPEAT=${REPEAT:-3}
common=(-std=c++20 -O2 -c -ffp-contract=off -I"$root/include")

# compile CXX KIND ARGS... -> "seconds kib flags"; doubles the constexpr limits on a limit stop.
compile() {
  local cxx=$1 kind=$2; shift 2
  local ops=33554432 loop=262144 steps=1048576 flags
  for _ in $(seq 1 12); do
    if [[ $kind == gcc ]]; then flags=("-fconstexpr-ops-limit=$ops" "-fconstexpr-loop-limit=$loop")
    else flags=("-fconstexpr-steps=$steps"); fi
    if /usr/bin/time -o "$tmp/time" -f '%e %M' "$cxx" "${common[@]}" "${flags[@]}" "$@" -o "$tmp/o.o" 2>"$tmp/err"; then
      local best; best=$(tail -1 "$tmp/time")
      for _ in $(seq 2 "$REPEAT"); do  # keep the fastest of REPEAT runs (the machine's noise is one-sided)
        /usr/bin/time -o "$tmp/time" -f '%e %M' "$cxx" "${common[@]}" "${flags[@]}" "$@" -o "$tmp/o.o" 2>/dev/null
        local t; t=$(tail -1 "$tmp/time")
        if is_less "$t" "$best"; then best=$t; fi
      done
      echo "$best ${flags[*]}"
      return 0
    fi
    if grep -q -E 'constexpr-ops-limit|constexpr-loop-limit|constexpr-steps|maximum step limit|operation count exceeds' "$tmp/err"; then
      ops=$((ops * 2)); loop=$((loop * 2)); steps=$((steps * 2))
      continue
    fi
    echo "FAIL $(head -3 "$tmp/err" | tr '\n' ' ')"
    return 0
  done
  echo "FAIL limits beyond 2^12 x the defaults"
}

names=([1]="sinusoidal ${SINUSOIDAL_ROWS}x512 float" [2]="ALiBi symmetric 8x256x256 float" [3]="T5 buckets 8193 int")
printf '%-34s %-6s %12s %12s %12s %12s %8s %8s\n' scheme cc trivial_s trivial_MiB posenc_s posenc_MiB time_x mem_x
for s in $SCHEMES; do
  for kind in gcc clang; do
    if [[ $kind == gcc ]]; then cxx=$GXX; else cxx=$CLANGXX; fi
    def=(-DPOSENC_BENCH_SCHEME="$s" -DPOSENC_BENCH_ROWS="$SINUSOIDAL_ROWS")
    read -r tt tm _ <<<"$(compile "$cxx" "$kind" "${def[@]}" -DPOSENC_BENCH_TRIVIAL "$here/schemes_cost.cpp")"
    res=$(compile "$cxx" "$kind" "${def[@]}" "$here/schemes_cost.cpp")
    read -r pt pm pflags <<<"$res"
    if [[ $pt == FAIL ]]; then echo "${names[$s]} $kind: $res"; continue; fi
    awk -v n="${names[$s]}" -v k="$kind" -v tt="$tt" -v tm="$tm" -v pt="$pt" -v pm="$pm" -v f="$pflags" \
      'BEGIN { printf "%-34s %-6s %12s %12.1f %12s %12.1f %8.2f %8.2f   %s\n", n, k, tt, tm / 1024, pt, pm / 1024, pt / tt, pm / tm, f }'
  done
done
