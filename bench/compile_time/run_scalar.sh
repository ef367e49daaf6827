#!/usr/bin/env bash
# bench/compile_time/run_scalar.sh: the compile-time cost of ONE call of the public scalar functions
# posenc::math::cos/sin/exp (issue 23), against GCC's folding of std::cos/sin/exp (baseline a) and
# a trivial fill of the same bytes (baseline b), all in one run (docs/performance.md 1.1).
# For each function (cos+sin, exp) and type (double, float) it compiles scalar_math.cpp at two
# sizes, SMALL and BIG rows of 64 pairs, measuring CPU time (%U) and peak RSS (%M) with
# /usr/bin/time, and prints the per-pair cost from the difference (BIG - SMALL) / (64 (BIG - SMALL)),
# so that what a TU costs once (headers, the emitted object) drops out; then the ratios.
# Constexpr limits are lifted (the cost, not the limit, is measured here).
# Usage: bash bench/compile_time/run_scalar.sh
#        SMALL=128 BIG=1024 REPEAT=3 CASES="double:0 float:0 double:1 float:1" bash bench/compile_time/run_scalar.sh
# (CASES: type:fn with fn 0 = cos+sin, 1 = exp; REPEAT: keep the fastest, and the smallest RSS, of N;
#  POSENC_INCLUDE: the include directory to measure, default this tree's, e.g. an older commit's
#  `git archive <commit> include | tar -x -C /tmp/old` for a before/after in one session.)
# shellcheck source=SCRIPTDIR/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # here, root, GXX, CLANGXX, limits, tmp, is_less
SMALL=${SMALL:-128}
BIG=${BIG:-1024}
REPEAT=${REPEAT:-1}
CASES=${CASES:-"double:0 float:0 double:1 float:1"}
common=(-std=c++20 -O2 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror
        -ffp-contract=off -I"${POSENC_INCLUDE:-$root/include}" -c "$here/scalar_math.cpp" -o /dev/null)

# one KIND IMPL FN TYPE ROWS -> "user_seconds peak_kib" (fastest / smallest of REPEAT)
one() {
  local kind=$1 impl=$2 fn=$3 type=$4 rows=$5 cmd best_t="" best_m="" t m
  if [[ $kind == gcc ]]; then cmd=("$GXX" "${gcc_limits[@]}"); else cmd=("$CLANGXX" "${clang_limits[@]}"); fi
  for ((r = 0; r < REPEAT; ++r)); do
    /usr/bin/time -f '%U %M' -o "$tmp/time" "${cmd[@]}" "${common[@]}" -DPOSENC_BENCH_ROWS="$rows" \
      -DPOSENC_SCALAR_IMPL="$impl" -DPOSENC_SCALAR_FN="$fn" -DPOSENC_SCALAR_TYPE="$type" 2> "$tmp/log" ||
      { head -n 15 "$tmp/log" >&2; echo "0 0"; return 0; }
    read -r t m < "$tmp/time"
    if [[ -z $best_t ]] || is_less "$t" "$best_t"; then best_t=$t; fi
    if [[ -z $best_m ]] || ((m < best_m)); then best_m=$m; fi
  done
  echo "$best_t $best_m"
}

# per_pair KIND IMPL FN TYPE -> "us_per_pair kib_per_pair small_s small_kib big_s big_kib"
per_pair() {
  local a b
  a=$(one "$@" "$SMALL"); b=$(one "$@" "$BIG")
  awk -v a="$a" -v b="$b" -v n=$((64 * (BIG - SMALL))) 'BEGIN { split(a, x, " "); split(b, y, " ");
    printf "%.2f %.3f %s %s %s %s\n", (y[1] - x[1]) * 1e6 / n, (y[2] - x[2]) / n, x[1], x[2], y[1], y[2] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

echo "scalar compile-time benchmark: $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), rows $SMALL and $BIG x 64 pairs, REPEAT=$REPEAT"
echo "  $($GXX --version | head -n 1); $($CLANGXX --version | head -n 1); include ${POSENC_INCLUDE:-$root/include}"
printf '%-7s %-7s %-6s %-8s %11s %11s %9s %9s %10s %10s\n' fn type cxx variant "us/pair" "KiB/pair" \
  "t/folded" "mem/triv" "small s,KiB" "big s,KiB"
declare -A TRIV
for c in $CASES; do
  type=${c%%:*}; fn=${c##*:}
  name=$([[ $fn == 0 ]] && echo cos+sin || echo exp)
  for kind in gcc clang; do
    key=$kind/$type
    [[ -n ${TRIV[$key]:-} ]] || TRIV[$key]=$(per_pair "$kind" 0 0 "$type")
    read -r tu tm ts tsm tb tbm <<< "${TRIV[$key]}"
    fu=""
    if [[ $kind == gcc ]]; then
      read -r fu fm fs fsm fb fbm <<< "$(per_pair gcc 2 "$fn" "$type")"
      printf '%-7s %-7s %-6s %-8s %11s %11s %9s %9s %10s %10s\n' "$name" "$type" gcc folded "$fu" "$fm" 1.00 \
        "$(ratio "$fm" "$tm")" "$fs,$fsm" "$fb,$fbm"
    fi
    read -r pu pm ps psm pb pbm <<< "$(per_pair "$kind" 1 "$fn" "$type")"
    printf '%-7s %-7s %-6s %-8s %11s %11s %9s %9s %10s %10s\n' "$name" "$type" "$kind" posenc "$pu" "$pm" \
      "$([[ -n $fu ]] && ratio "$pu" "$fu" || echo -)" "$(ratio "$pm" "$tm")" "$ps,$psm" "$pb,$pbm"
    printf '%-7s %-7s %-6s %-8s %11s %11s %9s %9s %10s %10s\n' "$name" "$type" "$kind" trivial "$tu" "$tm" \
      "$([[ -n $fu ]] && ratio "$tu" "$fu" || echo -)" 1.00 "$ts,$tsm" "$tb,$tbm"
  done
done
echo "goal (issue 23): gcc posenc t/folded <= 4, mem/triv <= 3"
