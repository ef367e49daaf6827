#!/usr/bin/env bash
# Shows that a change of the house left the tool's outputs as they were: runs the same emit and math
# commands (every scheme, every format, every dtype, a few configs) with two `posenc` binaries and
# compares the files byte for byte. A move of code (issue 20's rule: behaviour does not change) is
# checked by building the old commit's CLI beside the new one:
#
#   git worktree add /tmp/old <old-commit> && cmake --preset gcc -S /tmp/old -B /tmp/old/build \
#     && ninja -C /tmp/old/build posenc
#   tools/compare-outputs.sh /tmp/old/build/tools/posenc build/gcc/tools/posenc
#
# Compares the output file, stdout, stderr and the exit status. Prints one line per command
# that differs and a count; exit 0 when every output is identical,
# 1 when one differs, 2 on bad usage.
set -uo pipefail
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: tools/compare-outputs.sh OLD_POSENC NEW_POSENC" >&2
  exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
cfg="$root/examples/configs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One command a line, without the binary and without the output flag; each runs once per format
# (csv, c, bin, npy, safetensors) where it writes a table, and once in each dtype where it has one.
tables=(
  "rope-freq --head-dim 128 --rope-theta 500000 --rope-type llama3 --factor 8 --original-max-position-embeddings 8192"
  "rope-freq --hf-config $cfg/phi-3.5-mini-instruct.json --seq-len 8000"
  "rope --head-dim 64 --positions 33 --start 4090"
  "rope --head-dim 128 --positions 9 --start 131000 --rope-type yarn --factor 4 --original-max-position-embeddings 32768 --fold-attention"
  "rope --head-dim 96 --positions 7 --rope-type longrope --factor 32 --original-max-position-embeddings 4096 --seq-len 9000 --short-factor 1,1.5,2,2.5,3,3.5,4,4.5,5,5.5,6,6.5,7,7.5,8,8.5,9,9.5,10,10.5,11,11.5,12,12.5,13,13.5,14,14.5,15,15.5,16,16.5,17,17.5,18,18.5,19,19.5,20,20.5,21,21.5,22,22.5,23,23.5,24,24.5 --long-factor 2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2"
  "rope --hf-config $cfg/llama-3.1-8b.json --positions 5 --start 65530 --layout interleaved"
  "rope --hf-config $cfg/deepseek-v3.json --positions 3 --start 100"
  "rope --hf-config $cfg/gpt-oss-20b.json --positions 4 --start 1000"
  "rope --hf-config $cfg/gpt-j-6b.json --positions 3"
  "rope --hf-config $cfg/qwen2.5-7b-instruct-yarn.json --positions 3 --start 32770"
  "rope --hf-config $cfg/gemma-2-2b.json --positions 2 --start 7"
  "rope --hf-config $cfg/pythia-160m.json --positions 2 --start 2047"
  "rope --hf-config $cfg/llama-3.2-1b.json --positions 2 --policy hf-float32"
  "rope --head-dim 32 --positions 4 --rope-type dynamic --factor 2 --max-position-embeddings 2048 --seq-len 4096"
  "rope --head-dim 32 --positions 4 --rope-type ntk --factor 2"
  "rope --head-dim 32 --positions 4 --rope-type linear --factor 2 --partial-rotary-factor 0.5"
  "sinusoidal --dim 16 --positions 9 --start -3"
  "sinusoidal --dim 12 --positions 5 --start 100000 --exponent fairseq --layout concat --base 1e4"
  "transformer-xl --d-model 8 --klen 6 --clamp-len 3"
  "transformer-xl --d-model 8 --klen 6 --model xlnet --qlen 4 --attn-type uni --bi-data"
  "alibi --heads 12"
  "alibi --heads 6 --max-bias 4 --bias --positions 9"
  "alibi --heads 3 --bias --positions 5 --symmetric"
  "alibi --hf-config $cfg/bloom-560m.json"
  "xpos --head-dim 8 --positions 6 --start -4533"
  "xpos --head-dim 16 --positions 5 --start 9000 --scale-base 256 --inverse"
  "kerple-log --p 0.5,1.25,3 --a 0.1,2,0x1p-3 --distances 40"
  "kerple-power --p 0.5,1.25,1.9 --a 0.1,2,0x1p-3 --distances 40"
  "sandwich --dim 64 --heads 4 --distances 50"
  "logn --positions 20 --start 500 --base 512"
  "logn --positions 20 --start 2040 --base 2048 --at-least-one"
)
integer_tables=(
  "t5-bucket --num-buckets 32 --max-distance 128 --range 200"
  "t5-bucket --num-buckets 32 --max-distance 128 --range 200 --causal"
  "t5-bucket --hf-config $cfg/t5-small.json --range 150"
  "deberta-bucket --bucket-size 256 --max-position 512 --range 700"
  "shaw --positions 12 --max-relative-position 3"
)
others=(
  "math sin 1.0"
  "math cos 0x1p+1000"
  "math exp -700.25 --decimal"
  "math log 3"
)

differs=0
count=0
refused=0
run_both() {  # name, then the command's words
  local name=$1
  shift
  count=$((count + 1))
  (cd "$work" && "$old" "$@" -o "old.$name" >old.out 2>old.err; echo $? >old.rc)
  (cd "$work" && "$new" "$@" -o "new.$name" >new.out 2>new.err; echo $? >new.rc)
  local same=1
  cmp -s "$work/old.rc" "$work/new.rc" || same=0
  cmp -s "$work/old.err" "$work/new.err" || same=0
  cmp -s "$work/old.out" "$work/new.out" || same=0
  if [ -e "$work/old.$name" ] || [ -e "$work/new.$name" ]; then
    cmp -s "$work/old.$name" "$work/new.$name" || same=0
  fi
  # A command the old binary refuses (an f16 table that overflows) still checks the exit status and
  # the error line; counted apart so that a list that stopped working shows.
  [ "$(cat "$work/old.rc")" = 0 ] || refused=$((refused + 1))
  [ "$same" = 1 ] || { echo "differs: posenc $*"; differs=$((differs + 1)); }
  rm -f "$work"/old.* "$work"/new.*
}

for t in "${tables[@]}"; do
  read -r -a words <<<"$t"
  for fmt in csv c bin npy safetensors; do
    for dtype in f64 f32 bf16 f16; do
      run_both "$fmt" emit "${words[@]}" --format "$fmt" --dtype "$dtype"
    done
  done
  run_both csv emit "${words[@]}" --decimal --dtype f32
done
for t in "${integer_tables[@]}"; do
  read -r -a words <<<"$t"
  for fmt in csv c bin npy safetensors; do run_both "$fmt" emit "${words[@]}" --format "$fmt"; done
done
for t in "${others[@]}"; do
  read -r -a words <<<"$t"
  count=$((count + 1))
  o=$("$old" "${words[@]}" 2>&1; echo "rc=$?")
  n=$("$new" "${words[@]}" 2>&1; echo "rc=$?")
  [ "$o" = "$n" ] || { echo "differs: posenc $t"; differs=$((differs + 1)); }
done

echo "compare-outputs: $count commands ($refused refused by both, with the same error line), $differs differ"
[ "$differs" -eq 0 ]
