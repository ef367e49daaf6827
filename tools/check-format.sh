#!/usr/bin/env bash
# The declared C++ format (.clang-format), checked on every .hpp/.cpp/.h file git tracks, with
# clang-format 16 (Debian clang-format-16: the version is pinned because clang-format's output
# changes between releases). Files that say "Do not edit" in their first 20 lines are a generator's
# output (e.g. a header `posenc emit rope --format c` wrote) and keep its layout.
# Usage: bash tools/check-format.sh          list the files that drift, exit 1 if any
#        bash tools/check-format.sh --fix    reformat them in place
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=clang-format-16
command -v "$fmt" >/dev/null || { echo "check-format: $fmt not found (bash tools/bootstrap-deps.sh installs it)" >&2; exit 2; }

# One awk and a few clang-format processes for all files: one process per file took 66 s of the
# suite's wall time (561 files, mostly process start-up); batched, it takes about 3 s.
mapfile -t tracked < <(git ls-files '*.hpp' '*.cpp' '*.h')
declare -A generated=()
while IFS= read -r f; do generated["$f"]=1; done < <(
  awk 'FNR <= 20 && /Do not edit/ { print FILENAME; nextfile }' "${tracked[@]}")
files=()
for f in "${tracked[@]}"; do
  [ -n "${generated[$f]:-}" ] || files+=("$f")
done

if [ "${1:-}" = "--fix" ]; then
  # Twice: on a few long macros clang-format 16 reaches its fixed point only on the second pass.
  "$fmt" -i "${files[@]}"
  "$fmt" -i "${files[@]}"
  exit 0
fi

# clang-format --dry-run -Werror names each drifting file as "FILE:LINE:COL: error: ...". Any
# other failure (a file it cannot read, a crash) is an error of this check, not a pass.
jobs=$(nproc 2>/dev/null || echo 2)
status=0
report=$(printf '%s\0' "${files[@]}" | xargs -0 -P "$jobs" -n 64 "$fmt" --dry-run -Werror 2>&1 >/dev/null) ||
  status=$?
mapfile -t drift < <(printf '%s\n' "$report" |
  sed -n 's/^\(.*\):[0-9][0-9]*:[0-9][0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ "$status" -ne 0 ] && [ ${#drift[@]} -eq 0 ]; then
  echo "check-format: $fmt failed: $(printf '%s\n' "$report" | head -n 1)" >&2
  exit 2
fi
if [ ${#drift[@]} -gt 0 ]; then
  echo "check-format: ${#drift[@]} file(s) differ from .clang-format (bash tools/check-format.sh --fix):" >&2
  printf '  %s\n' "${drift[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files match .clang-format"
