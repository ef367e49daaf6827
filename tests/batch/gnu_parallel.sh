#!/usr/bin/env bash
# Usage: gnu_parallel.sh POSENC_EXE WORKDIR
# Runs docs/verify.md's GNU parallel recipe (read from the docs, sizes shrunk: see common.sh) with
# the real `parallel`, then checks `verify merge` of its shard reports equals the one-process
# report bit for bit except the time. Exit 77 (skipped) when parallel is not installed.
set -euo pipefail
test_name=batch_gnu_parallel
# shellcheck source=SCRIPTDIR/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

command -v parallel >/dev/null ||
  skip "GNU parallel not installed (Debian package parallel; bash tools/bootstrap-deps.sh installs it)"
command -v python3 >/dev/null || die "python3 not found (the report comparison needs it)"

setup_workdir "$@"
recipe="$(docs_cfg)
$(docs_block "**GNU parallel**")"
printf '%s: running, in %s:\n%s\n' "$test_name" "$workdir" "$recipe"

# The recipe in its own strict shell, so a failing shard (parallel exits non-zero) stops it there.
# Its merge prints the text report; keep it, and check it says PASS.
bash -euo pipefail -c "$recipe" >recipe.out 2>recipe.err ||
  die "the docs' GNU parallel recipe failed: $(tail -n 3 recipe.err | tr '\n' ' ')"
head -n 1 recipe.out | grep -q 'PASS' || die "the recipe's merge did not print PASS: $(head -n 1 recipe.out)"

check_merge
echo "$test_name: PASS ($N shards by GNU parallel $(parallel --version | awk 'NR == 1 { print $3 }'))"
