#!/usr/bin/env bash
# mutation-survey.sh: does the test suite kill realistic bugs? Applies each mutant of tests/mutants/
# (one realistic single-point bug per patch; tests/mutants/README.md) to a scratch copy of the
# working tree, rebuilds what the mutant touches, runs the proofs and tests, and reports each mutant
# as killed (with the first build target or test that failed), SURVIVED, or stale (the patch no
# longer applies). Too slow for every CI run; docs/testing.md holds the last result.
#
# Usage: bash tools/mutation-survey.sh [--jobs N] [--scratch DIR] [--keep] [MUTANT.patch ...]
#   MUTANT.patch  the mutants to run (default: every tests/mutants/*.patch)
#   --jobs N      parallel compile and test jobs (default 2)
#   --scratch DIR where the copy and its build go (default: a new directory under ${TMPDIR:-/tmp});
#                 a directory kept by an earlier --keep run is reused: only changed files are
#                 copied again and ninja rebuilds only what they touch
#   --keep        keep the scratch copy and its build (for a re-run of a few mutants); without it
#                 only build/mutation-survey.md is left in the scratch directory
# Run it niced on a shared machine:  nice -n 10 bash tools/mutation-survey.sh
#
# Method. The copy holds the tracked and the untracked-not-ignored files (git ls-files -co
# --exclude-standard), so new tests not yet committed count; the real tree is never written. It is
# configured once with GCC (Release, no benchmarks), built, and the whole ctest run once as the
# baseline, which must pass. Then, per mutant: git apply (a mutant that does not apply cleanly is
# reported stale, not killed); if the patch names `# try-first:` tests, their targets are built
# (everything, when one of them is a script test without a target of its own) and those tests run first, and a failure there kills it; otherwise (or if they all pass)
# everything is built with ninja -k 0 and every other test run with ctest --stop-on-failure; then
# git apply -R. A build or a test run that exceeds its time limit (a few times the baseline's)
# kills the mutant by timeout.
# Output: one line per mutant as it finishes, a summary with the kill rate (killed / (killed +
# survived); stale mutants are not counted) and the survivors, and the same as a Markdown table
# in build/mutation-survey.md of the scratch directory. Logs: build/survey-logs/ there.
# Exit status: 0 when the survey ran (whatever the kill rate), 1 when it could not (missing tool,
# failing baseline, a mutant that would not revert), 2 on bad usage, 130 when interrupted.
set -uo pipefail
export LC_ALL=C  # one collation for the sorted file lists, plain ASCII messages

readonly prog="mutation-survey"
readonly usage_line="usage: bash tools/mutation-survey.sh [--jobs N] [--scratch DIR] [--keep] [MUTANT.patch ...]"

usage_error() {  # one line on stderr, exit 2
  echo "$prog: $* ($usage_line)" >&2
  exit 2
}

# ---- arguments ----------------------------------------------------------------------------------
jobs=2
scratch=""
keep=0
patches=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs)
      [ $# -ge 2 ] || usage_error "--jobs needs a value"
      jobs=$2
      shift 2
      ;;
    --jobs=*) jobs=${1#--jobs=}; shift ;;
    --scratch)
      if [ $# -lt 2 ] || [ -z "$2" ]; then usage_error "--scratch needs a directory"; fi
      scratch=$2
      shift 2
      ;;
    --scratch=*)
      scratch=${1#--scratch=}
      [ -n "$scratch" ] || usage_error "--scratch needs a directory"
      shift
      ;;
    --keep) keep=1; shift ;;
    -h | --help)
      echo "$usage_line"
      exit 0
      ;;
    --) shift; patches+=("$@"); break ;;
    -*) usage_error "unknown option '$1'" ;;
    *) patches+=("$1"); shift ;;
  esac
done
[[ $jobs =~ ^[1-9][0-9]{0,2}$ ]] || usage_error "--jobs must be a positive integer, got '$jobs'"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P) || { echo "$prog: cannot find the repository" >&2; exit 1; }

# The mutants, as absolute paths (the work happens in the scratch directory).
selection="every mutant of tests/mutants/"
if [ ${#patches[@]} -eq 0 ]; then
  shopt -s nullglob
  patches=("$root"/tests/mutants/*.patch)
  shopt -u nullglob
  [ ${#patches[@]} -gt 0 ] || usage_error "no mutants in tests/mutants/"
else
  selection="${#patches[@]} selected mutants"
fi
mutants=()
for p in "${patches[@]}"; do
  if [ ! -f "$p" ] || [ ! -r "$p" ]; then usage_error "no such mutant file: '$p'"; fi
  case "$p" in *.patch) ;; *) usage_error "a mutant is a .patch file, got '$p'" ;; esac
  mutants+=("$(cd "$(dirname "$p")" && pwd -P)/$(basename "$p")")
done

for tool in git cmake ctest ninja g++ timeout tar cmp comm realpath python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$prog: '$tool' is not installed (bash tools/bootstrap-deps.sh)" >&2; exit 1; }
done

# ---- the scratch directory ----------------------------------------------------------------------
readonly marker=".posenc-mutation-survey"
if [ -z "$scratch" ]; then
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/posenc-mutation-survey.XXXXXX") || { echo "$prog: cannot create a scratch directory" >&2; exit 1; }
else
  if [ -e "$scratch" ] && [ ! -d "$scratch" ]; then usage_error "--scratch '$scratch' is not a directory"; fi
  scratch=$(realpath -m -- "$scratch") || usage_error "cannot resolve --scratch"
  case "$scratch/" in
    "$root"/*) usage_error "--scratch must be outside the repository" ;;
  esac
  if [ ! -d "$scratch" ]; then mkdir -p "$scratch" || usage_error "cannot create --scratch '$scratch'"; fi
  if [ -n "$(ls -A "$scratch")" ] && [ ! -f "$scratch/$marker" ]; then
    usage_error "--scratch '$scratch' is not empty and is not a survey's scratch directory"
  fi
fi
echo "$root" >"$scratch/$marker"
readonly scratch
readonly logs="$scratch/build/survey-logs"
readonly table_md="$scratch/build/mutation-survey.md"
# git apply works on the plain copy; it must not find a repository above it.
GIT_CEILING_DIRECTORIES=$(dirname "$scratch")
export GIT_CEILING_DIRECTORIES

child=""          # the process group of the running build or test (timeout makes it a group leader)
applied=""        # the mutant currently applied to the copy
# shellcheck disable=SC2317  # trap handlers: reached through the traps below
cleanup() {
  if [ -n "$child" ]; then
    kill -TERM -- "-$child" 2>/dev/null
    wait "$child" 2>/dev/null
    child=""
  fi
  if [ -n "$applied" ]; then
    (cd "$scratch" && git apply -R "$applied") || echo "$prog: could not revert $(basename "$applied") in $scratch" >&2
    applied=""
  fi
  if [ "$keep" = 1 ]; then
    return
  fi
  # Everything but the Markdown table (and the marker, so the directory can be reused).
  (cd "$scratch" && find . -mindepth 1 -maxdepth 1 ! -name build ! -name "$marker" -exec rm -rf {} +)
  if [ -d "$scratch/build" ]; then
    (cd "$scratch/build" && find . -mindepth 1 -maxdepth 1 ! -name mutation-survey.md -exec rm -rf {} +)
  fi
}
# shellcheck disable=SC2317
on_signal() {
  trap - INT TERM
  echo "$prog: interrupted" >&2
  cleanup
  trap - EXIT
  exit 130
}
trap on_signal INT TERM
trap cleanup EXIT

fatal() {  # exit 1 with a message (the EXIT trap reverts and cleans up)
  echo "$prog: $*" >&2
  exit 1
}

# Runs "$@" with a time limit, output to a log, in its own process group (so that an interrupt can
# end it and everything it started). Returns the command's status; 124 (or 137) on timeout.
run_limited() {
  local limit=$1 log=$2 rc
  shift 2
  timeout --kill-after=30 "$limit" "$@" >"$log" 2>&1 &
  child=$!
  wait "$child"
  rc=$?
  child=""
  return "$rc"
}

# ---- copy the working tree ----------------------------------------------------------------------
files_new="$scratch/.survey-files.new"
files_old="$scratch/.survey-files"
git -C "$root" ls-files -co --exclude-standard -z >"$files_new.all" || fatal "git ls-files failed in $root"
# Tracked files deleted in the working tree are listed too: keep the ones that exist.
while IFS= read -r -d '' f; do
  if [ -f "$root/$f" ] || [ -L "$root/$f" ]; then printf '%s\0' "$f"; fi
done <"$files_new.all" | sort -z >"$files_new"
rm -f "$files_new.all"
if [ -f "$files_old" ]; then
  # Reused: copy only what differs, with a new mtime, so ninja rebuilds exactly what it touches
  # (this also undoes a mutant left applied by an interrupted run); drop files the tree lost.
  while IFS= read -r -d '' f; do
    if ! cmp -s "$root/$f" "$scratch/$f"; then
      if ! { mkdir -p "$scratch/$(dirname "$f")" && rm -f "$scratch/$f" && cp -P "$root/$f" "$scratch/$f"; }; then
        fatal "cannot copy $f"
      fi
    fi
  done <"$files_new"
  comm -z -23 "$files_old" "$files_new" | while IFS= read -r -d '' f; do rm -f "$scratch/$f"; done
else
  tar -C "$root" --null -T "$files_new" -cf - | tar -C "$scratch" -xf - || fatal "cannot copy the tree into $scratch"
fi
mv "$files_new" "$files_old"
mkdir -p "$logs"

# ---- configure, build, baseline -----------------------------------------------------------------
cd "$scratch" || fatal "cannot enter $scratch"
echo "$prog: scratch copy $scratch ($(tr -cd '\0' <"$files_old" | wc -c) files), --jobs $jobs"

# The first target that failed to build in a ninja log: the CMake target of the first FAILED output.
first_failed_target() {
  local out
  out=$(sed -n 's/^FAILED: \([^ ]*\).*/\1/p' "$1" | head -n 1)
  if [ -z "$out" ]; then
    echo "(ninja)"
  elif [[ $out =~ CMakeFiles/([^/]+)\.dir/ ]]; then
    echo "${BASH_REMATCH[1]}"
  else
    basename "$out"
  fi
}
# The first test that did not pass in a ctest log, as "test NAME" or "timeout NAME".
first_failed_test() {
  local line name status
  line=$(grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$1" | grep -F '***' | head -n 1)
  if [ -n "$line" ]; then
    name=$(sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .*/\1/' <<<"$line")
    status=$(sed -E 's/.*\*\*\*([A-Za-z]+).*/\1/' <<<"$line")
    if [ "$status" = Timeout ]; then echo "timeout $name"; else echo "test $name"; fi
  else
    echo "test (ctest failed without a test result)"
  fi
}
# The first test that started but never finished in a ctest log cut short by our time limit.
unfinished_test() {
  local started finished t
  started=$(sed -nE 's/^ *Start +[0-9]+: ([^ ]+).*/\1/p' "$1")
  finished=$(sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .*/\1/p' "$1")
  for t in $started; do
    if ! grep -qxF "$t" <<<"$finished"; then
      echo "$t"
      return
    fi
  done
  echo "ctest"
}

# -O2 as the presets build (CMakePresets.json): CMake's Release default -O3 trips GCC 12's false
# -Wrestrict on std::string concatenations in the CLI, and the baseline would not build under -Werror.
if ! run_limited 600 "$logs/configure.log" cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" -DCMAKE_CXX_COMPILER=g++ -DPOSENC_BUILD_BENCH=OFF; then
  tail -n 20 "$logs/configure.log" >&2
  fatal "the copy does not configure; nothing was surveyed (--keep keeps the logs)"
fi

start=$SECONDS
if ! run_limited 7200 "$logs/baseline-build.log" ninja -C build -j "$jobs" -k 0; then
  tail -n 40 "$logs/baseline-build.log" >&2
  fatal "the baseline does not build (first failing target: $(first_failed_target "$logs/baseline-build.log")); nothing was surveyed (--keep keeps the logs)"
fi
build_s=$((SECONDS - start))
# The time of a full build, for the per-mutant limit (a reused scratch only rebuilds a little).
if [ ! -f "$scratch/.survey-full-build-seconds" ] || [ "$build_s" -gt "$(cat "$scratch/.survey-full-build-seconds")" ]; then
  echo "$build_s" >"$scratch/.survey-full-build-seconds"
fi
full_build_s=$(cat "$scratch/.survey-full-build-seconds")
build_limit=$((3 * full_build_s + 300))

start=$SECONDS
if ! run_limited 7200 "$logs/baseline-ctest.log" ctest --test-dir build -j "$jobs" --output-on-failure; then
  tail -n 60 "$logs/baseline-ctest.log" >&2
  fatal "the baseline fails its tests (first: $(first_failed_test "$logs/baseline-ctest.log")); nothing was surveyed (--keep keeps the logs)"
fi
ctest_s=$((SECONDS - start))
test_limit=$((4 * ctest_s + 300))
# Every ctest name, to check the try-first lines against.
ctest_names=$(ctest --test-dir build -N | sed -nE 's/^ *Test +#[0-9]+: ([^ ]+).*/\1/p')
# Each test's program, as a path in the build tree ninja can build ("NAME PATH"), or "NAME -" when the
# program is not built here (cmake -P, python3): the test's executable, since a group executable
# holds many tests (posenc_tests_cli runs test_cli, test_cli_verify, ...).
ctest_programs=$(ctest --test-dir build --show-only=json-v1 | python3 -c '
import json, os, sys
build = os.path.realpath("build")
for t in json.load(sys.stdin)["tests"]:
    cmd = t.get("command") or [""]
    exe = os.path.realpath(cmd[0]) if cmd[0] else ""
    print(t["name"], os.path.relpath(exe, build) if exe.startswith(build + os.sep) else "-")
') || fatal "cannot read the tests' commands (ctest --show-only=json-v1)"
echo "$prog: baseline passed: build ${build_s} s, tests ${ctest_s} s ($(grep -c . <<<"$ctest_names") tests); limits: build ${build_limit} s, tests ${test_limit} s"

# ---- the mutants --------------------------------------------------------------------------------
header_field() {  # header_field FILE KEY: the value of "# KEY:" before the diff
  sed -n "/^diff --git /q; s/^# $2: *//p" "$1" | head -n 1
}
regex_of() {  # ^(a|b)$ for ctest -R / -E, names escaped
  local out="" n
  for n in "$@"; do
    out+="${out:+|}$(sed 's/[][\.*^$+?(){}|/]/\\&/g' <<<"$n")"
  done
  echo "^($out)\$"
}

timed_out() { [ "$1" = 124 ] || [ "$1" = 137 ]; }  # timeout(1): it ended the command, or had to kill it

# Runs one applied mutant; sets killer ("" when it survived).
killer=""
survey_one() {
  local patch=$1 name=$2 n try=() targets=() rc re log
  killer=""
  for n in $(header_field "$patch" try-first | tr ',' ' '); do
    if grep -qxF "$n" <<<"$ctest_names"; then
      try+=("$n")
    else
      echo "$prog: $name: try-first names no ctest test '$n' (ignored)" >&2
    fi
  done
  if [ ${#try[@]} -gt 0 ]; then
    # A test with a target of its own needs that target built. A script test (python_tests,
    # tensor_files_numpy, a cmake -P check) has none: it runs what other targets build (the module,
    # the CLI), so the whole tree is built first; otherwise it ran against the unmutated module or
    # tool, passed, and was then left out of the full run: a false survivor.
    local whole=0 exe
    for n in "${try[@]}"; do
      exe=$(awk -v n="$n" '$1 == n { print $2 }' <<<"$ctest_programs")
      if [ -n "$exe" ] && [ "$exe" != - ] && ninja -C build -t query "$exe" >/dev/null 2>&1; then
        targets+=("$exe")
      else
        whole=1
      fi
    done
    if [ "$whole" = 1 ]; then targets=(); fi  # ninja with no target: everything
    if [ ${#targets[@]} -gt 0 ] || [ "$whole" = 1 ]; then
      log="$logs/$name.try-build.log"
      run_limited "$build_limit" "$log" ninja -C build -j "$jobs" -k 0 "${targets[@]}"
      rc=$?
      if timed_out "$rc"; then killer="timeout build"; return; fi
      if [ "$rc" != 0 ]; then killer="build $(first_failed_target "$log")"; return; fi
    fi
    re=$(regex_of "${try[@]}")
    log="$logs/$name.try-ctest.log"
    run_limited "$test_limit" "$log" ctest --test-dir build -j "$jobs" -R "$re" --stop-on-failure --timeout "$test_limit" --output-on-failure
    rc=$?
    if timed_out "$rc"; then killer="timeout $(unfinished_test "$log")"; return; fi
    if [ "$rc" != 0 ]; then killer=$(first_failed_test "$log"); return; fi
  fi
  log="$logs/$name.build.log"
  run_limited "$build_limit" "$log" ninja -C build -j "$jobs" -k 0
  rc=$?
  if timed_out "$rc"; then killer="timeout build"; return; fi
  if [ "$rc" != 0 ]; then killer="build $(first_failed_target "$log")"; return; fi
  log="$logs/$name.ctest.log"
  local exclude=()
  if [ ${#try[@]} -gt 0 ]; then exclude=(-E "$(regex_of "${try[@]}")"); fi  # they passed already
  run_limited "$test_limit" "$log" ctest --test-dir build -j "$jobs" "${exclude[@]}" --stop-on-failure --timeout "$test_limit" --output-on-failure
  rc=$?
  if timed_out "$rc"; then killer="timeout $(unfinished_test "$log")"; return; fi
  if [ "$rc" != 0 ]; then killer=$(first_failed_test "$log"); fi
}

names=() areas=() whats=() results=() killers=() secs=()
total=${#mutants[@]}
i=0
for patch in "${mutants[@]}"; do
  i=$((i + 1))
  name=$(basename "$patch" .patch)
  area=$(header_field "$patch" area)
  what=$(header_field "$patch" what)
  [ -t 2 ] && echo "[$i/$total] $name ..." >&2
  start=$SECONDS
  if ! git apply --check "$patch" >"$logs/$name.apply.log" 2>&1; then
    result=stale
    killer="does not apply: $(grep -m 1 -E '^error: ' "$logs/$name.apply.log" | cut -c 8-)"
  else
    git apply "$patch" >>"$logs/$name.apply.log" 2>&1 || fatal "git apply failed after --check for $name"
    applied=$patch
    survey_one "$patch" "$name"
    git apply -R "$patch" >>"$logs/$name.apply.log" 2>&1 || fatal "cannot revert $name; the copy in $scratch is inconsistent"
    applied=""
    if [ -n "$killer" ]; then result=killed; else result=SURVIVED; fi
  fi
  s=$((SECONDS - start))
  names+=("$name") areas+=("${area:-?}") whats+=("${what:-?}") results+=("$result") killers+=("$killer") secs+=("$s")
  case "$result" in
    killed) printf '%-9s %-48s by %-34s (%d s)\n' killed "$name" "$killer" "$s" ;;
    SURVIVED) printf '%-9s %-48s (%d s)\n' SURVIVED "$name" "$s" ;;
    stale) printf '%-9s %-48s %s\n' stale "$name" "$killer" ;;
  esac
done

# ---- summary ------------------------------------------------------------------------------------
killed=0 survived=0 stale=0
survivors=()
for k in "${!names[@]}"; do
  case "${results[$k]}" in
    killed) killed=$((killed + 1)) ;;
    SURVIVED) survived=$((survived + 1)); survivors+=("${names[$k]}") ;;
    stale) stale=$((stale + 1)) ;;
  esac
done
if [ $((killed + survived)) -gt 0 ]; then
  rate=$(awk -v k="$killed" -v s="$survived" 'BEGIN { printf "%.1f", 100 * k / (k + s) }')
else
  rate="n/a"
fi
summary="mutants: $total, killed: $killed, survived: $survived, stale: $stale, kill rate: $rate %"
echo
echo "$summary"
if [ ${#survivors[@]} -gt 0 ]; then
  echo "survivors:"
  for k in "${!names[@]}"; do
    [ "${results[$k]}" = SURVIVED ] && echo "  ${names[$k]}: ${whats[$k]}"
  done
else
  echo "survivors: none"
fi

md_escape() { echo "${1//|/\\|}"; }
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
# --no-optional-locks: read only, never refresh the index (others may be committing meanwhile)
if [ -n "$(git --no-optional-locks -C "$root" status --porcelain --untracked-files=normal 2>/dev/null)" ]; then
  commit="$commit + uncommitted changes"
fi
{
  echo "# Mutation survey"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), tree $commit, $(g++ -dumpfullversion -dumpversion 2>/dev/null | sed 's/^/GCC /'), --jobs $jobs;"
  echo "baseline build ${build_s} s, baseline tests ${ctest_s} s; \`bash tools/mutation-survey.sh\` on $selection."
  echo
  echo "| mutant | area | result | killed by | s |"
  echo "|---|---|---|---|---:|"
  for k in "${!names[@]}"; do
    case "${results[$k]}" in
      killed) by="\`${killers[$k]}\`" ;;
      stale) by="does not apply" ;;
      *) by="" ;;
    esac
    echo "| \`${names[$k]}\` | ${areas[$k]} | ${results[$k]} | $by | ${secs[$k]} |"
  done
  echo
  echo "$summary"
  if [ ${#survivors[@]} -gt 0 ] || [ "$stale" -gt 0 ]; then
    echo
    for k in "${!names[@]}"; do
      case "${results[$k]}" in
        SURVIVED) echo "- survived \`${names[$k]}\`: $(md_escape "${whats[$k]}")" ;;
        stale) echo "- stale \`${names[$k]}\`: $(md_escape "${whats[$k]}")" ;;
      esac
    done
  fi
} >"$table_md"
echo "table: $table_md"
if [ "$keep" = 1 ]; then
  echo "kept: $scratch (re-run: bash tools/mutation-survey.sh --scratch $scratch --keep MUTANT.patch ...)"
fi
exit 0
