#!/usr/bin/env bash
# Coverage-guided fuzzing of one of posenc's readers with libFuzzer (clang-16, Debian's
# libclang-rt-16-dev), under AddressSanitizer and UndefinedBehaviorSanitizer.
#
# Usage: bash tools/fuzz.sh READER SECONDS [libFuzzer flags...]
#   READER   hf_config | npy | safetensors | verify_report | verify_merge | cli_args | table_bin |
#            position_ids  (tests/fuzz/fuzz_READER.cpp)
#   SECONDS  how long to fuzz (wall time, one process); e.g. 3600 for the CPU-hour issue 24 asks
#   flags    passed to the fuzzer, e.g. -jobs=2 -workers=2 (then SECONDS is each job's)
#
# Builds build/fuzz/fuzz_READER, fuzzes from the kept corpus (tests/fuzz/corpus/READER/; for
# hf_config also examples/configs/) into a working corpus (build/fuzz/corpus/READER/) with the
# readers' dictionary (tests/fuzz/posenc.dict), and prints the executions, the coverage and the
# findings. A finding (a crash, a sanitizer report, or a broken property: tests/fuzz/fuzz_check.hpp)
# is saved under build/fuzz/findings/READER/; once fixed, copy it into tests/fuzz/corpus/READER/,
# where the suite replays it (fuzz_replay_READER). To keep the working corpus's new coverage, merge
# it into the kept one: bash tools/fuzz.sh --merge READER.
# Coverage: bash tools/fuzz.sh --coverage READER builds the harness with clang's source-based
# coverage (no sanitizers), runs every input of both corpora once and prints llvm-cov's line, region
# and branch coverage of the reader's own sources (llvm-16's llvm-cov and llvm-profdata: Debian
# llvm-16; the report in build/fuzz/coverage-READER.txt).
# Exit status: 0 when the run found nothing, 1 when it found something, 2 on bad usage or a
# missing tool.
set -euo pipefail
cd "$(dirname "$0")/.."
readers="hf_config npy safetensors verify_report verify_merge cli_args table_bin position_ids"
usage="usage: bash tools/fuzz.sh READER SECONDS [libFuzzer flags...] | --merge READER | --coverage READER  (READER: ${readers// / | })"
die() { echo "fuzz: $*" >&2; exit 2; }

merge=0 coverage=0
if [ "${1:-}" = "--merge" ]; then merge=1; shift; fi
if [ "${1:-}" = "--coverage" ]; then coverage=1; shift; fi
[ $# -ge 1 ] || die "$usage"
reader=$1; shift
[[ " $readers " == *" $reader "* ]] || die "unknown reader '$reader' ($usage)"
if [ "$merge" = 0 ] && [ "$coverage" = 0 ]; then
  [ $# -ge 1 ] || die "SECONDS is required ($usage)"
  seconds=$1; shift
  [[ $seconds =~ ^[1-9][0-9]{0,6}$ ]] || die "SECONDS must be a positive integer, got '$seconds'"
fi

cxx=clang++-16
command -v "$cxx" >/dev/null || die "$cxx not found (bash tools/bootstrap-deps.sh installs it)"
out=build/fuzz
mkdir -p "$out" "$out/corpus/$reader" "$out/findings/$reader"
exe="$out/fuzz_$reader"
src="tests/fuzz/fuzz_$reader.cpp"
# Rebuilt when the harness or any posenc header is newer than the binary (not for --coverage, which
# builds its own instrumented binary below).
if [ "$coverage" = 0 ] &&
  { [ ! -x "$exe" ] || [ -n "$(find "$src" tests/fuzz/fuzz_check.hpp include -newer "$exe" -print -quit; find tools/cli -newer "$exe" -print -quit)" ]; }; then
  echo "fuzz: building $exe"
  "$cxx" -std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -Iinclude -Itools -Itests/fuzz "$src" -o "$exe" ||
    die "cannot build $exe (libFuzzer is in Debian's libclang-rt-16-dev)"
fi

kept="tests/fuzz/corpus/$reader"
seeds=("$kept")
[ "$reader" = hf_config ] && seeds+=(examples/configs)

if [ "$coverage" = 1 ]; then
  # The reader's own sources: what the coverage figures are of (the harness and the standard
  # library, nlohmann-json and the value types are left out).
  case $reader in
    hf_config) sources=(include/posenc/io/*hf_config.hpp include/posenc/io/detail/*.hpp) ;;
    npy) sources=(include/posenc/io/npy.hpp include/posenc/io/tensor.hpp) ;;
    safetensors) sources=(include/posenc/io/safetensors.hpp include/posenc/io/tensor.hpp) ;;
    verify_report) sources=(include/posenc/io/verify_report_json.hpp) ;;
    verify_merge) sources=(include/posenc/io/verify_report_json.hpp include/posenc/verify/report.hpp) ;;
    cli_args) sources=(tools/cli/args.hpp tools/cli/hexfloat.hpp) ;;
    table_bin) sources=(tools/cli/table_bin.hpp) ;;
    position_ids) sources=(tools/cli/position_ids.hpp) ;;
  esac
  llvm=/usr/lib/llvm-16/bin
  [ -x "$llvm/llvm-cov" ] || die "$llvm/llvm-cov not found (Debian package llvm-16)"
  cov_exe="$out/coverage_$reader"
  "$cxx" -std=c++20 -O0 -g -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
    -Iinclude -Itools -Itests/fuzz "$src" -o "$cov_exe" || die "cannot build $cov_exe"
  rm -f "$out/coverage-$reader.profraw"
  LLVM_PROFILE_FILE="$out/coverage-$reader.profraw" "$cov_exe" -runs=0 "$out/corpus/$reader" "${seeds[@]}" \
    >"$out/coverage-$reader.log" 2>&1 || { tail -n 5 "$out/coverage-$reader.log" >&2; die "the corpus run failed"; }
  "$llvm/llvm-profdata" merge -sparse "$out/coverage-$reader.profraw" -o "$out/coverage-$reader.profdata"
  "$llvm/llvm-cov" report "$cov_exe" -instr-profile="$out/coverage-$reader.profdata" "${sources[@]}" \
    >"$out/coverage-$reader.txt"
  inputs=$(find "$out/corpus/$reader" "${seeds[@]}" -type f | wc -l)
  total=$(grep '^TOTAL' "$out/coverage-$reader.txt" | awk '{print "regions " $4 ", lines " $10 ", branches " $13}')
  echo "fuzz: $reader: coverage over $inputs inputs of ${sources[*]}: $total (build/fuzz/coverage-$reader.txt)"
  exit 0
fi

if [ "$merge" = 1 ]; then
  # Into the kept corpus, the inputs of the working corpus that add coverage (libFuzzer's -merge=1).
  before=$(find "$kept" -type f | wc -l)
  "$exe" -merge=1 "$kept" "$out/corpus/$reader" 2>"$out/merge-$reader.log" ||
    { tail -n 5 "$out/merge-$reader.log" >&2; die "merge failed"; }
  echo "fuzz: $reader: kept corpus $before -> $(find "$kept" -type f | wc -l) inputs"
  exit 0
fi

log="$out/fuzz-$reader.log"
echo "fuzz: $reader for $seconds s (log: $log)"
stamp="$out/.run-$reader"
touch "$stamp"  # the findings of this run are the files newer than it
status=0
"$exe" -max_total_time="$seconds" -print_final_stats=1 -dict=tests/fuzz/posenc.dict -max_len=65536 \
  -artifact_prefix="$out/findings/$reader/" "$@" "$out/corpus/$reader" "${seeds[@]}" >"$log" 2>&1 || status=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s += $1} END {print s + 0}')
cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1 || true)
findings=$(find "$out/findings/$reader" -type f -newer "$stamp" | wc -l)
echo "fuzz: $reader: $execs executions, ${cov:-no coverage line}, corpus $(find "$out/corpus/$reader" -type f | wc -l) inputs, findings $findings"
if [ "$status" != 0 ] || [ "$findings" != 0 ]; then
  grep -m 3 -E 'ERROR|property broken|SUMMARY' "$log" >&2 || true
  echo "fuzz: $reader: findings in $out/findings/$reader/ (replay: build/asan/tests/posenc_fuzz_replay $reader FILE)" >&2
  exit 1
fi
