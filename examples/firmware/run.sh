#!/usr/bin/env bash
# Builds this example for both boards, runs each image under QEMU, and checks it against the host:
# the tables in the image equal, byte for byte, the ones the host compiler builds from the same
# header, and the checksum each image prints equals the host's computation (host/reference.cpp).
# One line per step and per board, for a reader (tools/demo.sh shows them).
#
#   bash examples/firmware/run.sh <work dir>
#
# <work dir>/build holds the cross build (CMake, Ninja, arm-none-eabi.cmake), <work dir>/host the
# host's program and tables. FIRMWARE_HOST_REFERENCE=<program> uses an already built host reference
# (the posenc tests build it) instead of compiling host/reference.cpp with c++. Exit status: 0 when
# every image ran and matched the host, 1 when one did not, 3 when a tool is missing (the Arm
# toolchain and QEMU: tools/bootstrap-deps.sh installs them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
posenc_root="$(cd "$here/../.." && pwd)"
work="${1:?usage: run.sh <work dir>}"
mkdir -p "$work/host"
work="$(cd "$work" && pwd)"
boards=(mps2-an386 microbit)
tables=(posenc_fw_rope_table posenc_fw_alibi_slopes posenc_fw_alibi_bias posenc_fw_rope_q15_table)

needed=(arm-none-eabi-g++ arm-none-eabi-objdump arm-none-eabi-size qemu-system-arm cmake ninja)
[ -n "${FIRMWARE_HOST_REFERENCE:-}" ] || needed+=(c++)
for tool in "${needed[@]}"; do
  if ! command -v "$tool" >/dev/null; then
    echo "$tool is not installed (tools/bootstrap-deps.sh installs it): the firmware example is skipped"
    exit 3
  fi
done

echo "building both images (arm-none-eabi-g++ -Os; Cortex-M4F hard float, Cortex-M0 soft float)"
if ! { cmake -S "$here" -B "$work/build" -G Ninja --toolchain "$here/arm-none-eabi.cmake" &&
       cmake --build "$work/build"; } >"$work/build.log" 2>&1; then
  echo "the build failed: $work/build.log has the compiler's output"
  exit 1
fi

reference="${FIRMWARE_HOST_REFERENCE:-}"
if [ -z "$reference" ]; then
  echo "building the host's reference (c++ -std=c++20 -O2: the same tables and computation on this machine)"
  reference="$work/host/reference"
  c++ -std=c++20 -O2 -ffp-contract=off -I"$posenc_root/include" -I"$here/src" "$here/host/reference.cpp" \
    -o "$reference"
fi
"$reference" tables "$work/host"
host_checksum="$("$reference" checksum | sed -n 's/^checksum //p')"

status=0
for board in "${boards[@]}"; do
  elf="$work/build/firmware-$board.elf"
  # Flash (text + data) and RAM (data + bss), from Berkeley size's second line.
  read -r text data bss _ < <(arm-none-eabi-size "$elf" | sed -n 2p)
  # The tables' bytes in the ELF file: a symbol's address, less its section's address, plus the
  # section's offset in the file.
  headers="$(arm-none-eabi-objdump -h "$elf")"
  symbols="$(arm-none-eabi-objdump -t "$elf")"
  equal=0
  table_bytes=0
  for t in "${tables[@]}"; do
    read -r addr section size < <(awk -v n="$t" '$NF == n { print $1, $(NF - 2), $(NF - 1) }' <<<"$symbols")
    read -r vma offset < <(awk -v s="$section" '$2 == s { print $4, $6 }' <<<"$headers")
    start=$((16#$addr - 16#$vma + 16#$offset))
    table_bytes=$((table_bytes + 16#$size))
    if [ "$section" = .rodata ] && [ "$(stat -c %s "$work/host/$t.bin")" -eq $((16#$size)) ] &&
       cmp -s -i "$start:0" -n $((16#$size)) "$elf" "$work/host/$t.bin"; then
      equal=$((equal + 1))
    fi
  done
  out="$(timeout 60 qemu-system-arm -M "$board" -nographic -monitor none -serial none \
         -semihosting-config enable=on,target=native -kernel "$elf" 2>&1)" && run=0 || run=$?
  image_checksum="$(sed -n 's/^checksum //p' <<<"$out")"
  echo "$board: $((text + data)) bytes of flash, $table_bytes of them posenc's tables in .rodata; $((data + bss)) bytes of RAM before the stack"
  # Two scores of each section: the float table's, then the q15 table's (an integer, the score x 2^30).
  awk -v b="$board" '/^RoPE in q15/ { q = 1 } /^RoPE \(/ { q = 0 }
    /^  m = (3|63), / { sub(/^  /, ""); print b ":   RoPE " (q ? "q15 score x 2^30 " : "score ") $0 }' <<<"$out"
  if [ "$equal" -eq "${#tables[@]}" ]; then
    echo "$board: the ${#tables[@]} tables in flash equal the host compiler's, byte for byte"
  else
    echo "$board: only $equal of the ${#tables[@]} tables in flash equal the host compiler's"
    status=1
  fi
  if [ "$run" -eq 0 ] && grep -qx done <<<"$out" && [ "$image_checksum" = "$host_checksum" ]; then
    echo "$board: ran under QEMU; checksum $image_checksum = the host's"
  else
    echo "$board: QEMU exit status $run; checksum '${image_checksum}', the host's $host_checksum: MISMATCH"
    status=1
  fi
done
exit "$status"
