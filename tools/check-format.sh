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

files=()
while IFS= read -r f; do
  head -n 20 "$f" | grep -q "Do not edit" && continue
  files+=("$f")
done < <(git ls-files '*.hpp' '*.cpp' '*.h')

if [ "${1:-}" = "--fix" ]; then
  # Twice: on a few long macros clang-format 16 reaches its fixed point only on the second pass.
  "$fmt" -i "${files[@]}"
  "$fmt" -i "${files[@]}"
  exit 0
fi

drift=()
for f in "${files[@]}"; do
  "$fmt" --dry-run -Werror "$f" >/dev/null 2>&1 || drift+=("$f")
done
if [ ${#drift[@]} -gt 0 ]; then
  echo "check-format: ${#drift[@]} file(s) differ from .clang-format (bash tools/check-format.sh --fix):" >&2
  printf '  %s\n' "${drift[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files match .clang-format"
