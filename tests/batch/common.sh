# shellcheck shell=bash
# Sourced by gnu_parallel.sh and slurm.sh (issue 24): run the sharding recipes of docs/verify.md
# ("Sharding: `--shard K/N` and `verify merge`") as they are written there, on a table small
# enough for seconds, and check the merged report against the one-process report.
# The caller sets test_name, then calls setup_workdir POSENC_EXE WORKDIR.
: "${test_name:?set test_name before sourcing common.sh}"

batch_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
docs=$batch_dir/../../docs/verify.md
config=$batch_dir/../../examples/configs/llama-3.2-1b.json

# The recipes' 2^21 positions in 64 shards take 18 CPU-minutes; 6 blocks of 1024 rows in 4
# shards take about one CPU-second; 4 does not divide 6, so the slices differ in size (1, 2, 1, 2).
N=4
POSITIONS=6144

die() {  # one line on stderr, whatever the message quotes
  local msg=$*
  echo "$test_name: FAIL: ${msg//$'\n'/; }" >&2
  exit 1
}

skip() {
  echo "$test_name: skipped: $*"
  exit 77
}

# setup_workdir POSENC_EXE WORKDIR: an empty WORKDIR holding `posenc` on PATH (the recipes call it
# by that name) and the recipe's config.json; cd there (the recipes write report-K.json in ".").
setup_workdir() {
  [ $# -eq 2 ] || die "usage: $0 POSENC_EXE WORKDIR"
  local exe
  exe=$(readlink -f "$1") || die "no posenc at $1"
  [ -x "$exe" ] || die "no executable posenc at $1"
  [ -f "$docs" ] || die "docs/verify.md not found at $docs"
  case $2 in "" | / | "$HOME") die "refusing WORKDIR '$2' (it is emptied first)" ;; esac
  rm -rf "$2"
  mkdir -p "$2/bin"
  workdir=$(cd "$2" && pwd)
  ln -s "$exe" "$workdir/bin/posenc"
  cp "$config" "$workdir/config.json"
  export PATH="$workdir/bin:$PATH"
  cd "$workdir" || die "cannot enter $workdir"
}

# docs_block HEADING [NTH]: the NTH (default 1) ```sh block after the line of docs/verify.md that
# starts with HEADING, with the sizes shrunk: 64 shards -> N, 2^21 positions -> POSITIONS, and
# llama-3.1-8b.json -> the copied config.json. Dies if the block is missing or a size is left.
docs_block() {
  local text
  text=$(awk -v head="$1" -v nth="${2:-1}" '
    index($0, head) == 1 { found = 1; next }
    found && /^```sh$/ { if (++seen == nth) { inside = 1 }; next }
    inside && /^```$/ { exit }
    inside { print }' "$docs")
  [ -n "$text" ] || die "docs/verify.md has no sh block $((${2:-1})) after '$1' (recipe moved? update $0)"
  text=$(sed -e "s/seq 0 63/seq 0 $((N - 1))/g" -e "s/--array=0-63/--array=0-$((N - 1))/g" \
    -e "s#/64\\b#/$N#g" -e "s/--positions 2097152/--positions $POSITIONS/g" \
    -e "s/llama-3\\.1-8b\\.json/config.json/g" <<<"$text")
  if grep -Eq '\b63\b|/64\b|2097152' <<<"$text"; then
    die "docs/verify.md's recipe after '$1' has a size this test does not shrink: $text"
  fi
  printf '%s\n' "$text"
}

# The docs' CFG (the shared flags of every shard), shrunk.
docs_cfg() {
  docs_block "Each task runs the same command" | grep '^CFG=' ||
    die "docs/verify.md no longer defines CFG= before the recipes"
}

# check_merge: merge report-*.json, run the one-process verify of the same table, and compare
# them; then show the comparison can fail: a missing shard is refused, and a shard report with
# one figure altered (by one unit of 2^-32 ULP) makes the merged report compare unequal.
check_merge() {
  local cfg reports=() k
  cfg=$(docs_cfg)
  eval "$cfg"  # sets CFG, as the docs do
  for ((k = 0; k < N; ++k)); do
    [ -s "report-$k.json" ] || die "shard $k wrote no report-$k.json"
    reports+=("report-$k.json")
  done
  posenc verify merge "${reports[@]}" --json -o merged.json || die "verify merge of the $N shard reports failed"
  # shellcheck disable=SC2086  # CFG is a list of flags, split as in the docs
  posenc verify rope $CFG --json --quiet -o one.json || die "the one-process verify failed"
  python3 "$batch_dir/same_report.py" merged.json one.json ||
    die "the merged report of $N shards differs from the one-process report"

  # A missing shard: refused with exit 2, not merged into a report of fewer blocks.
  local rc=0
  posenc verify merge "${reports[@]:0:N-1}" --json -o short.json 2>short.err || rc=$?
  if [ "$rc" -ne 2 ] || ! grep -q "missing" short.err; then
    die "verify merge of $((N - 1)) of $N shards exited $rc, not 2 naming the missing shard: $(cat short.err)"
  fi

  # One shard altered by the least amount a report can show: the comparison must see it.
  mkdir -p altered
  python3 - report-1.json altered/report-1.json <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["dtypes"][1]["ulp_sum_q"] = str(int(r["dtypes"][1]["ulp_sum_q"]) + 1)
json.dump(r, open(sys.argv[2], "w"), indent=1)
EOF
  posenc verify merge report-0.json altered/report-1.json "${reports[@]:2}" --json -o altered.json ||
    die "verify merge with an altered shard report failed to run"
  if python3 "$batch_dir/same_report.py" altered.json one.json 2>altered.err; then
    die "same_report.py did not see a shard report altered in dtypes[1].ulp_sum_q"
  fi
  grep -q 'dtypes\[1\]' altered.err || die "same_report.py named the wrong field: $(cat altered.err)"
  echo "$test_name: as it must, the comparison fails on an altered shard: $(cat altered.err)"
}
