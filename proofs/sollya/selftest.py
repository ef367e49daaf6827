#!/usr/bin/env python3
"""Shows that a Sollya certificate can fail: certify.py, run on a copy of a header with one change,
must fail with its one-line diagnosis, and pass on the header as it is (so the change is the cause).

usage: selftest.py CASE [--sollya PATH]    (CASE: perturbed_coefficient or tightened_figure)
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DETAIL = HERE.parents[1] / "include" / "posenc" / "math" / "detail"

# case: (header, kernel, text, replacement); the text must occur exactly once in the header.
CASES = {
    # exp_dd_eval's 1/6 (high part) one unit in the last place lower: |P - (e^r - 1)| grows by
    # about 2^-55 r^3 (2^-95.5), far above the 2^-106.7 of the derivation.
    "perturbed_coefficient": ("exp_kernel.hpp", "exp_dd", "fast_two_sum(0x1.5555555555555p-3,",
                              "fast_two_sum(0x1.5555555555554p-3,"),
    # The figure of exp_dd's Taylor remainder tightened below the certified 2^-106.77.
    "tightened_figure": ("exp_kernel.hpp", "exp_dd", "r^7/7! < 2^-106.7;", "r^7/7! < 2^-106.8;"),
}


def run(kernel, sollya, override=None):
    command = [sys.executable, str(HERE / "certify.py"), kernel]
    command += ["--sollya", sollya] if sollya else []
    command += ["--header-override", override] if override else []
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", choices=CASES)
    parser.add_argument("--sollya")
    args = parser.parse_args()
    header, kernel, text, replacement = CASES[args.case]

    plain = run(kernel, args.sollya)
    if plain.returncode != 0:
        sys.exit(f"selftest {args.case}: {kernel} does not pass on {header} as it is (so its failure below "
                 f"would show nothing): {(plain.stderr.strip().splitlines() or ['?'])[-1]}")
    source = (DETAIL / header).read_text()
    if source.count(text) != 1:
        sys.exit(f"selftest {args.case}: '{text}' occurs {source.count(text)} times in {header}, not once: "
                 f"update proofs/sollya/selftest.py")
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / header
        copy.write_text(source.replace(text, replacement))
        changed = run(kernel, args.sollya, f"{header}={copy}")
    lines = [l for l in changed.stderr.splitlines() if l.startswith(f"FAILED {kernel} ")]
    if changed.returncode != 1 or len(lines) != 1 or "certified" not in lines[0]:
        sys.exit(f"selftest {args.case}: certify.py {kernel} on {header} with '{replacement}' exited "
                 f"{changed.returncode} without its one FAILED line: {changed.stdout}{changed.stderr}")
    print(f"selftest {args.case}: with '{replacement}' in {header}, certify.py {kernel} fails as it should:")
    print(lines[0])


if __name__ == "__main__":
    main()
