#!/usr/bin/env bash
# posenc's demo, README's main job: the RoPE table of a shipped model config (Llama-3.1-8B's
# config.json, examples/configs/llama-3.1-8b.json) taken from the config to a proof, a verification
# against MPFR and a firmware image. Each step says what it does, and what it showed:
#   1. installs the Debian packages the demo needs (tools/bootstrap-deps.sh --demo);
#   2. builds posenc's command line, then a program whose table `posenc emit` generates from the
#      config while it builds (posenc_add_table, docs/cmake.md) and whose static_asserts prove the
#      table's laws while it compiles (examples/demo/llama31_table.cpp), the build's steps shown;
#   3. runs that program: what was proved, and the header against the run-time fill, bit for bit;
#   4. emits 8192 positions of the same table (the model's original context) as a file and checks
#      every entry against MPFR and every law of the registry (posenc verify);
#   5. builds examples/firmware for a Cortex-M4F and a Cortex-M0 and runs both under QEMU, where
#      they rotate vectors with their flash tables and print a checksum that the host recomputes.
# After the packages are installed it takes about 100 s on two cores, most of it compiling
# the command line. Work files go to build/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
config=examples/configs/llama-3.1-8b.json
work=build/demo
cli=build/gcc/tools/posenc

step() { printf '\n[%s/5] %s\n' "$1" "$2"; }
took() { printf '      (%d s so far)\n' "$(($(date +%s) - start))"; }
# The build's steps, one line each, as ninja finishes them: "[k/N] compiling <file>".
show_build() {
  sed -u -n -E \
    -e 's#^\[([0-9]+/[0-9]+)\] Building CXX object .*/CMakeFiles/[^/]+\.dir/(.*)\.o$#      [\1] compiled \2#p' \
    -e 's#^\[([0-9]+/[0-9]+)\] Linking CXX executable (.*)$#      [\1] linked \2#p' \
    -e 's#^\[([0-9]+/[0-9]+)\] posenc: (.*)$#      [\1] \2#p' \
    -e 's#^(FAILED: .*)$#      \1#p' -e 's#^(.*(error|Error).*)$#      \1#p'
}

step 1 "Debian packages: installing what is missing (tools/bootstrap-deps.sh --demo)"
bash tools/bootstrap-deps.sh --demo
echo "      done"

step 2 "building posenc (GCC 12, Release): the command line, then examples/demo/llama31_table.cpp,"
echo "      whose header 'posenc emit rope --hf-config $config' writes during the build and whose"
echo "      static_asserts prove that table's laws while it compiles (the command line: about 90 s on 2 cores)"
cmake --preset gcc >/dev/null
mkdir -p "$work"
# Ninja prints a step when it finishes, so the build runs in the background and this loop shows each
# finished step as it comes, and a line every 15 s while a long one (the command line) compiles.
cmake --build --preset gcc --target posenc_cli example_demo_llama31 -- -j "$(nproc 2>/dev/null || echo 2)" \
  >"$work/build.log" 2>&1 </dev/null &
build=$!
shown=0
waited=0
while kill -0 "$build" 2>/dev/null; do
  sleep 1
  waited=$((waited + 1))
  lines=$(wc -l <"$work/build.log")
  if [ "$lines" -gt "$shown" ]; then
    tail -n +"$((shown + 1))" "$work/build.log" | head -n "$((lines - shown))" | show_build
    shown=$lines
  elif [ $((waited % 15)) -eq 0 ]; then
    echo "      ... compiling ($waited s into the build)"
  fi
done
status=0
wait "$build" || status=$?
tail -n +"$((shown + 1))" "$work/build.log" | show_build
if [ "$status" -ne 0 ]; then
  echo "      the build failed: $work/build.log has the compiler's output"
  exit 1
fi
took

step 3 "the proof: build/gcc/examples/example_demo_llama31"
./build/gcc/examples/example_demo_llama31 | sed 's/^/      /'

step 4 "verify: 8192 positions x 128 elements of the table, float32, every entry against MPFR"
echo "      \$ posenc emit rope --hf-config $config --positions 8192 --dtype f32 --format bin -o $work/llama31.bin"
"$cli" emit rope --hf-config "$config" --positions 8192 --dtype f32 --format bin -o "$work/llama31.bin"
echo "      $(stat -c %s "$work/llama31.bin") bytes written"
echo "      \$ posenc verify rope --hf-config $config --positions 8192 --dtype f32 --table $work/llama31.bin"
"$cli" verify rope --hf-config "$config" --positions 8192 --dtype f32 --table "$work/llama31.bin" --quiet |
  grep -E '^posenc verify|^dtype|^f32 +[0-9]|  f32  (exactness|unit norm|identity at 0|relative dot|composition|norm preservation) |^time' |
  sed 's/^/      /'
took

step 5 "firmware: examples/firmware for a Cortex-M4F (mps2-an386) and a Cortex-M0 (micro:bit), under QEMU"
if [ -x examples/firmware/run.sh ]; then
  bash examples/firmware/run.sh "$work/firmware" | sed 's/^/      /'
else
  echo "      examples/firmware is not in this checkout yet: skipped"
fi
took
printf '\nDone in %d s. README.md and docs/guide.md say what to read next.\n' "$(($(date +%s) - start))"
