#!/usr/bin/env bash
# bench/compile_time/run_per_entry.sh: what one more entry of a constexpr RoPE table costs the
# compiler, against a trivial fill of the same bytes (issue 23's goal: within 1.3x on both
# compilers; docs/performance.md section 1).
#
# Each table is compiled at two sizes, SMALL and BIG rows, and the cost of an entry is the
# difference: what a translation unit costs once (headers, the first evaluation of each function,
# the emitted object) drops out, which a whole-TU ratio (run.sh) keeps. Variants and baselines:
#   compact   posenc_table.cpp: math::sincos_geometric_table<float>, rows x 64 {sin, cos} pairs
#             baseline trivial_fill.cpp at the same rows (the same bytes)
#   expanded  rope_table_llama31.cpp: rope::make_table<float, rows, 128>, cos and sin [rows][128]
#             baseline trivial_fill.cpp at twice the rows (the same bytes)
# The compiles of a round are interleaved (variant, its baseline, the before tree, each size) and
# the fastest CPU time (%U) of ROUNDS rounds is kept for each: this machine's single times move by
# 30%, and a change of load then hits every variant of a round alike.
#
# Usage: bash bench/compile_time/run_per_entry.sh
#        SMALL=1024 BIG=3072 ROUNDS=5 COMPILERS="clang" VARIANTS="compact" bash bench/compile_time/run_per_entry.sh
#        POSENC_BEFORE=/tmp/old/include bash bench/compile_time/run_per_entry.sh   (a before column:
#          `git archive <commit> include | tar -x -C /tmp/old`)
# Environment: GXX (default g++), CLANGXX (default clang++-16), SMALL (256), BIG (1024), ROUNDS (5),
# COMPILERS ("gcc clang"), VARIANTS ("compact expanded"), POSENC_BEFORE (none). Constexpr limits
# are lifted: the cost, not the limit, is measured. About 4 minutes with the defaults on 2 cores.
# shellcheck source=SCRIPTDIR/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # here, root, GXX, CLANGXX, limits, tmp, is_less
SMALL=${SMALL:-256}
BIG=${BIG:-1024}
ROUNDS=${ROUNDS:-5}
COMPILERS=${COMPILERS:-"gcc clang"}
VARIANTS=${VARIANTS:-"compact expanded"}
BEFORE=${POSENC_BEFORE:-}

# compile KIND FILE ROWS INCLUDE -> CPU seconds
compile() {
  local kind=$1 file=$2 rows=$3 inc=$4 cmd
  if [[ $kind == gcc ]]; then cmd=("$GXX" "${gcc_limits[@]}"); else cmd=("$CLANGXX" "${clang_limits[@]}"); fi
  if ! /usr/bin/time -f '%U' -o "$tmp/time" "${cmd[@]}" -std=c++20 -O2 -I"$inc" -DPOSENC_BENCH_ROWS="$rows" \
         -c "$here/$file" -o /dev/null 2> "$tmp/log"; then
    head -n 15 "$tmp/log" >&2
    echo "run_per_entry: $kind failed to compile $file at $rows rows" >&2
    exit 1
  fi
  cat "$tmp/time"
}

declare -A best
keep() {  # keep KEY SECONDS: the fastest
  if [[ -z ${best[$1]:-} ]] || is_less "$2" "${best[$1]}"; then best[$1]=$2; fi
}

echo "per-entry compile cost: $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), rows $SMALL and $BIG," \
  "fastest of $ROUNDS interleaved rounds"
for ((r = 1; r <= ROUNDS; ++r)); do
  for kind in $COMPILERS; do
    for v in $VARIANTS; do
      case $v in
        compact) file=posenc_table.cpp scale=1 ;;
        expanded) file=rope_table_llama31.cpp scale=2 ;;
        *) echo "run_per_entry: unknown variant '$v' (compact, expanded)" >&2; exit 2 ;;
      esac
      for rows in "$SMALL" "$BIG"; do
        keep "$kind/$v/after/$rows" "$(compile "$kind" "$file" "$rows" "$root/include")"
        [[ -n $BEFORE ]] && keep "$kind/$v/before/$rows" "$(compile "$kind" "$file" "$rows" "$BEFORE")"
        keep "$kind/$v/trivial/$rows" "$(compile "$kind" trivial_fill.cpp $((scale * rows)) "$root/include")"
      done
    done
  done
  echo "  round $r of $ROUNDS done" >&2
done

per_entry() {  # per_entry KEY_PREFIX -> BIG - SMALL seconds
  awk -v a="${best[$1/$SMALL]}" -v b="${best[$1/$BIG]}" 'BEGIN { printf "%.3f", b - a }'
}
printf '\n| compiler | table | %s rows s | %s rows s | trivial %s / %s s | per entry / trivial |%s\n' \
  "$SMALL" "$BIG" "$SMALL" "$BIG" "${BEFORE:+ before |}"
printf '|---|---|---|---|---|---|%s\n' "${BEFORE:+---|}"
for kind in $COMPILERS; do
  for v in $VARIANTS; do
    t=$(per_entry "$kind/$v/trivial")
    after=$(awk -v a="$(per_entry "$kind/$v/after")" -v t="$t" 'BEGIN { printf "%.2f", a / t }')
    extra=""
    if [[ -n $BEFORE ]]; then
      extra=" $(awk -v a="$(per_entry "$kind/$v/before")" -v t="$t" 'BEGIN { printf "%.2f", a / t }')x |"
    fi
    printf '| %s | %s | %s | %s | %s / %s | **%sx** |%s\n' "$kind" "$v" "${best[$kind/$v/after/$SMALL]}" \
      "${best[$kind/$v/after/$BIG]}" "${best[$kind/$v/trivial/$SMALL]}" "${best[$kind/$v/trivial/$BIG]}" "$after" "$extra"
  done
done
echo
echo "goal: per entry within 1.3x of the trivial fill of the same bytes, on both compilers"
