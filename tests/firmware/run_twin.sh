#!/usr/bin/env bash
# The twin of firmware_run: examples/firmware/run.sh given a host reference that is one bit off (its
# float and q15 RoPE tables with one bit flipped each, its checksum with one bit flipped) must exit 1 and say, for both
# boards, that a table and the checksum differ. So run.sh's own comparisons are shown able to fail.
#   run_twin.sh <run.sh> <work dir of firmware_run> <host reference> <flip_bit>
# (The images are firmware_run's: its build tree is up to date, so run.sh rebuilds nothing.)
set -euo pipefail
if [ "${LYING_REFERENCE_OF:-}" ]; then  # called by run.sh as its host reference
  case "$1" in
    tables)
      "$LYING_REFERENCE_OF" tables "$2"
      "$LYING_FLIP_BIT" "$2/posenc_fw_rope_table.bin" "$2/posenc_fw_rope_table.bin" 100
      "$LYING_FLIP_BIT" "$2/posenc_fw_rope_q15_table.bin" "$2/posenc_fw_rope_q15_table.bin" 100 ;;
    checksum)
      c="$("$LYING_REFERENCE_OF" checksum | sed -n 's/^checksum 0x//p')"
      printf 'checksum 0x%08x\n' $((16#$c ^ 1)) ;;
  esac
  exit 0
fi
run_sh="$1" work="$2" reference="$3" flip_bit="$4"
lie="$work/lying_reference.sh"
printf '#!/usr/bin/env bash\nexec bash %q "$@"\n' "$0" >"$lie"
chmod +x "$lie"
set +e
out="$(LYING_REFERENCE_OF="$reference" LYING_FLIP_BIT="$flip_bit" FIRMWARE_HOST_REFERENCE="$lie" \
       bash "$run_sh" "$work" 2>&1)"
status=$?
set -e
echo "$out"
[ "$status" -eq 1 ] || { echo "run.sh exited with $status, not 1, on a lying host reference"; exit 1; }
for board in mps2-an386 microbit; do
  grep -q "^$board: only 2 of the 4 tables in flash equal the host compiler's" <<<"$out" ||
    { echo "$board: run.sh did not see the table that differs by one bit"; exit 1; }
  grep -q "^$board: .*: MISMATCH" <<<"$out" || { echo "$board: run.sh did not see the checksum that differs"; exit 1; }
done
echo "run.sh saw, on both boards, the table and the checksum that differ by one bit"
