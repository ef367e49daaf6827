#!/usr/bin/env bash
# bench/compile_time/run.sh: the compile-time benchmark of a constexpr RoPE table (docs/performance.md).
#
# In ONE run, for each table size (rows x 64 (cos, sin) float pairs, d = 128, base 10000) it compiles
#   posenc   posenc_rope.cpp   posenc::math::rope_sincos<float> per entry, correctly rounded
#                                                                                 (g++ and clang++)
#   table    posenc_table.cpp  posenc::math::rope_sincos_table<float>: the same bits, table API
#                                                                                 (g++ and clang++)
#   trivial  trivial_fill.cpp  float(i) * 0.5f, no math: baseline (b)                 (g++ and clang++)
#   folded   gcc_folded.cpp    GCC's MPFR folding of std::cos/std::sin on a float angle,
#                              less accurate (see the file): baseline (a)              (g++ only)
#   rope     rope_table_llama31.cpp  rope::make_table<float, rows, 128>: Llama-3.1's expanded
#                              table, cos and sin [rows][128], twice the bytes of the others
#                                                                                 (g++ and clang++)
#   trivial2 trivial_fill.cpp at 2 x rows: the trivial fill of the rope variant's bytes, its baseline
# measuring wall time and peak RSS with /usr/bin/time -f '%e %M', and prints absolute figures and
# ratios against the baselines measured in the same run, so that machine speed cancels out.
#
# The scalar functions called once per entry (posenc::math::cos/sin/exp against GCC's folded std::
# calls, per call) are measured by run_scalar.sh (scalar_math.cpp; docs/performance.md 1.1).
#
# Constexpr limits: each compile starts at the compiler's defaults (or at the limit that the previous,
# smaller size of the same variant needed: a bigger table never needs less) and, when it stops on a
# limit, doubles that limit and compiles again; the flags printed are therefore the smallest
# power-of-two multiples of the defaults that suffice (the exact need lies between half the value and
# the value). Only the final, successful compile is timed.
#
# Usage: bash bench/compile_time/run.sh            (sizes 256 1024 4096)
#        SIZES="4096" REPEAT=3 bash bench/compile_time/run.sh   (REPEAT: keep the fastest of N runs)
#        VARIANTS="trivial folded table" bash bench/compile_time/run.sh   (skip the slow per-entry one)
# Environment: GXX (default g++), CLANGXX (default clang++-16), SIZES, REPEAT (default 1), VARIANTS
# (default "trivial folded posenc table"). A full run takes about 20 minutes on 2 cores, most of it
# the per-entry posenc variant on Clang (4 minutes for 4096 x 64, plus the limit search).
# shellcheck source=SCRIPTDIR/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # here, root, GXX, CLANGXX, limits, tmp, is_less

SIZES=${SIZES:-"256 1024 4096"}
REPEAT=${REPEAT:-1}
VARIANTS=${VARIANTS:-"trivial folded posenc table"}
common=(-std=c++20 -O2 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror
        -ffp-contract=off -I"$root/include")

# Compiler defaults (reference/constexpr-math.md section 6) and a cap to stop runaway doubling.
gcc_ops_default=33554432   # -fconstexpr-ops-limit, 2^25
gcc_loop_default=262144    # -fconstexpr-loop-limit, 2^18
clang_steps_default=1048576  # -fconstexpr-steps, 2^20
cap=68719476736            # 2^36

# measure COMPILER_KIND VARIANT ROWS -> prints "time rss_kib flags" or "FAIL reason"
measure() {
  local kind=$1 variant=$2 rows=$3 cxx src
  local ops=${START_OPS[$kind/$variant]:-$gcc_ops_default}
  local loop=${START_LOOP[$kind/$variant]:-$gcc_loop_default}
  local steps=${START_STEPS[$kind/$variant]:-$clang_steps_default}
  if [[ $kind == gcc ]]; then cxx=$GXX; else cxx=$CLANGXX; fi
  case $variant in
    posenc) src=$here/posenc_rope.cpp ;;
    table) src=$here/posenc_table.cpp ;;
    trivial) src=$here/trivial_fill.cpp ;;
    folded) src=$here/gcc_folded.cpp ;;
    rope) src=$here/rope_table_llama31.cpp ;;
    trivial2) src=$here/trivial_fill.cpp rows=$((2 * rows)) ;;
  esac
  while :; do
    local flags=()
    if [[ $kind == gcc ]]; then
      ((ops != gcc_ops_default)) && flags+=("-fconstexpr-ops-limit=$ops")
      ((loop != gcc_loop_default)) && flags+=("-fconstexpr-loop-limit=$loop")
    else
      ((steps != clang_steps_default)) && flags+=("-fconstexpr-steps=$steps")
    fi
    if /usr/bin/time -f '%e %M' -o "$tmp/time" "$cxx" "${common[@]}" "${flags[@]}" \
         -DPOSENC_BENCH_ROWS="$rows" -c "$src" -o "$tmp/out.o" 2> "$tmp/log"; then
      local best_t best_m t m i
      read -r best_t best_m < "$tmp/time"
      for ((i = 1; i < REPEAT; ++i)); do
        /usr/bin/time -f '%e %M' -o "$tmp/time" "$cxx" "${common[@]}" "${flags[@]}" \
          -DPOSENC_BENCH_ROWS="$rows" -c "$src" -o "$tmp/out.o" 2> "$tmp/log"
        read -r t m < "$tmp/time"
        if is_less "$t" "$best_t"; then best_t=$t; fi
        ((m < best_m)) && best_m=$m
      done
      echo "$best_t $best_m $ops $loop $steps ${flags[*]:-(defaults)}"
      return 0
    fi
    if grep -q 'operation count exceeds limit' "$tmp/log"; then
      ops=$((ops * 2))
    elif grep -q 'loop iteration count exceeds limit' "$tmp/log"; then
      loop=$((loop * 2))
    elif grep -q 'maximum step limit' "$tmp/log"; then
      steps=$((steps * 2))
    else
      echo "FAIL: compile error (its first lines are on stderr)"
      head -n 15 "$tmp/log" >&2
      return 0
    fi
    if ((ops > cap || loop > cap || steps > cap)); then
      echo "FAIL limits beyond 2^36"
      return 0
    fi
  done
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "-" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

echo "compile-time benchmark: $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "  $($GXX --version | head -n 1)"
echo "  $($CLANGXX --version | head -n 1)"
echo "  flags: ${common[*]/-I*/-I<include>} -c; REPEAT=$REPEAT"
echo
declare -A T M F START_OPS START_LOOP START_STEPS
configs=()
for kind in gcc clang; do
  for variant in $VARIANTS; do
    [[ $kind == clang && $variant == folded ]] && continue  # Clang cannot fold std::sin
    configs+=("$kind $variant")
  done
done
for rows in $SIZES; do
  for cfg in "${configs[@]}"; do
    read -r kind variant <<< "$cfg"
    out=$(measure "$kind" "$variant" "$rows")
    key="$rows/$kind/$variant"
    if [[ $out == FAIL* ]]; then
      T[$key]=0; M[$key]=0; F[$key]=$out
    else
      read -r t m ops loop steps f <<< "$out"
      T[$key]=$t; M[$key]=$m; F[$key]=$f
      START_OPS[$kind/$variant]=$ops; START_LOOP[$kind/$variant]=$loop; START_STEPS[$kind/$variant]=$steps
    fi
    echo "  done: $rows x 64 $kind $variant: ${T[$key]} s, $(mib "${M[$key]}") MiB, ${F[$key]}" >&2
  done
done

printf '%-8s %-6s %-8s %9s %9s %10s %10s %10s  %s\n' \
  "table" "cxx" "variant" "wall s" "peak MiB" "t/trivial" "t/folded" "mem/triv" "constexpr limit flags needed"
for rows in $SIZES; do
  for cfg in "${configs[@]}"; do
    read -r kind variant <<< "$cfg"
    key="$rows/$kind/$variant"
    base=trivial
    [[ $variant == rope ]] && base=trivial2  # the trivial fill of the same bytes
    tt=${T[$rows/$kind/$base]:-0}
    tf=${T[$rows/gcc/folded]:-0}
    rf="-"
    [[ $kind == gcc && $variant != folded ]] && rf=$(ratio "${T[$key]}" "$tf")
    [[ $variant == folded ]] && rf="1.00"
    printf '%-8s %-6s %-8s %9s %9s %10s %10s %10s  %s\n' "${rows}x64" "$kind" "$variant" \
      "${T[$key]}" "$(mib "${M[$key]}")" "$(ratio "${T[$key]}" "$tt")" "$rf" \
      "$(ratio "${M[$key]}" "${M[$rows/$kind/$base]:-0}")" "${F[$key]}"
  done
done

# The goals of the issue, checked on the largest size of this run, for both ways of building.
big=${SIZES##* }
goal() {  # name value limit
  if [[ $2 == - ]]; then s="NOT MEASURED (a compile failed or was not run)"
  elif awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }'; then s=MET; else s="NOT MET"; fi
  printf '  %-42s %6s (goal <= %s)  %s\n' "$1" "$2" "$3" "$s"
}
for variant in posenc table; do
  [[ " $VARIANTS " == *" $variant "* ]] || continue
  echo
  echo "goals on the ${big}x64 table, variant $variant:"
  goal "gcc time / gcc folded time" "$(ratio "${T[$big/gcc/$variant]}" "${T[$big/gcc/folded]:-0}")" 2
  goal "gcc time / gcc trivial time" "$(ratio "${T[$big/gcc/$variant]}" "${T[$big/gcc/trivial]:-0}")" 3
  goal "clang time / clang trivial time" "$(ratio "${T[$big/clang/$variant]}" "${T[$big/clang/trivial]:-0}")" 3
  goal "gcc peak RSS / gcc trivial peak RSS" "$(ratio "${M[$big/gcc/$variant]}" "${M[$big/gcc/trivial]:-0}")" 2.5
  goal "clang peak RSS / clang trivial peak RSS" "$(ratio "${M[$big/clang/$variant]}" "${M[$big/clang/trivial]:-0}")" 2.5
done
if [[ " $VARIANTS " == *" rope "* ]]; then
  echo
  echo "goals on the ${big}-row expanded RoPE table (variant rope against trivial2, the same bytes):"
  goal "clang time / clang trivial time" "$(ratio "${T[$big/clang/rope]:-0}" "${T[$big/clang/trivial2]:-0}")" 1.3
  goal "gcc time / gcc trivial time" "$(ratio "${T[$big/gcc/rope]:-0}" "${T[$big/gcc/trivial2]:-0}")" 1.3
fi
