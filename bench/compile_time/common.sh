# shellcheck shell=bash disable=SC2034  # sourced: the variables are the sourcing script's
# bench/compile_time/common.sh: what every compile-time bench script of this folder starts with.
# Sourced, not run: `source "$(dirname "${BASH_SOURCE[0]}")/common.sh"`. It sets
#   here, root        this folder and the repository (from the sourcing script's own path)
#   GXX, CLANGXX      the compilers (environment; defaults g++ and clang++-16)
#   gcc_limits, clang_limits   constexpr limits high enough that no table here stops on them (the
#                     limits only cap the work; they do not change its cost)
#   tmp               a scratch directory, removed when the script exits
# and defines is_less A B: true when the number that starts A is less than the one that starts B
# (the scripts keep the fastest of N runs: this machine's noise only ever adds time).
set -euo pipefail
export LC_ALL=C  # one collation and plain-ASCII compiler messages, which some scripts match

here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
root=$(cd "$here/../.." && pwd)
GXX=${GXX:-g++}
CLANGXX=${CLANGXX:-clang++-16}
gcc_limits=(-fconstexpr-ops-limit=68719476736 -fconstexpr-loop-limit=2147483647)
clang_limits=(-fconstexpr-steps=4294967295)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

is_less() { awk -v a="${1%% *}" -v b="${2%% *}" 'BEGIN { exit !(a + 0 < b + 0) }'; }
