#!/usr/bin/env python3
"""The checker can fail: certify.py run on a temporary copy of a header with one constant tightened
below what Gappa can prove (or a modelled statement changed) must exit 1 with the one-line failure
naming the bound, the header and the constant.

  python3 proofs/gappa/test_certify_fails.py [CASE ...]     (default: every case; --list names them)
"""

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# case: (certificate, header, text to replace, replacement, strings the failure line must contain)
CASES = {
    # R_e = 2^-74 -> 2^-76: Gappa proves 2^-75.3 per component.
    "dd_entry_R_e": ("rows_double_entry", "include/posenc/math/detail/sincos_table_rows_double.hpp",
                     "static constexpr double R_e = 0x1p-75;", "static constexpr double R_e = 0x1p-76;",
                     ["anchor_error_dd::R_e", "sincos_table_rows_double.hpp:", "0x1p-76", "Gappa cannot prove"]),
    # A row offset's turn R_o = 2^-76 -> 2^-78: Gappa proves 2^-77.75 per component.
    "dd_offset_R_o": ("rows_double_offset", "include/posenc/math/detail/sincos_table_rows_double.hpp",
                      "static constexpr double R_o = 0x1p-76;", "static constexpr double R_o = 0x1p-78;",
                      ["anchor_error_dd::R_o", "sincos_table_rows_double.hpp:", "0x1p-78", "Gappa cannot prove"]),
    # The float kernel's R as sqrt2 u (2 - 2^-46) (sqrt2 is rounded up by 2^-50 or so): below sqrt2 u (2 + u).
    "float_R": ("rows_float_product", "include/posenc/math/detail/sincos_table_entry.hpp",
                "static constexpr double R = sqrt2 * 0x1p-53 * (2 + 0x1p-53) * (1 + 0x1p-50);",
                "static constexpr double R = sqrt2 * 0x1p-53 * (2 - 0x1p-46);",
                ["anchor_error::R", "sincos_table_entry.hpp:", "(2 - 0x1p-46)", "Gappa cannot prove"]),
    # The folded amplitude's margin 1.5 x 2^-52 -> 2^-52: Gappa needs about 1.01 x 2^-52.
    "float_folded_margin": ("rows_float_test", "include/posenc/math/detail/sincos_table_rows.hpp",
                            "afa * 0x1.8p-52 * (1 + 0x1p-40)", "afa * 0x1p-52 * (1 + 0x1p-40)",
                            ["folded margin", "sincos_table_rows.hpp:", "0x1p-52", "Gappa cannot prove"]),
    # The double test's margin 2^-76 -> 2^-80: fl(l -+ e') may then round back inside [l - e, l + e].
    "dd_test_margin": ("rows_double_entry", "include/posenc/math/detail/sincos_table_rows_double.hpp",
                       "e += 0x1p-77;", "e += 0x1p-80;",
                       ["unfolded test margin", "sincos_table_rows_double.hpp:", "0x1p-80", "Gappa cannot prove"]),
    # xpos: the float product's 3.01 u -> 2.875 u, below the 3 u of A_hi S_hi.
    "xpos_product": ("xpos_rows", "include/posenc/xpos/rows.hpp", "0x1.9p-52", "0x1.7p-52",
                     ["xpos float product", "rows.hpp:", "0x1.7p-52", "Gappa cannot prove"]),
    # entry_bounds' enclosure 2^-53 -> 2^-55: the recurrence's exact check keeps e[b] >= bound + margin,
    # but Gappa cannot enclose with it.
    "float_enclosure": ("rows_float_test", "include/posenc/math/detail/sincos_table_entry.hpp",
                        "k::R * (1 + k::a) * (1 + eta) + 0x1p-53) * k::up;", "k::R * (1 + k::a) * (1 + eta) + 0x1p-55) * k::up;",
                        ["entry_bounds enclosure margin", "sincos_table_entry.hpp:", "0x1p-55", "Gappa cannot prove"]),
    # dd_div's 3.5 u^2 -> 3 u^2: Gappa proves 3.25 u^2 (2^-104.30) on the box xh, y near 1.
    "dd_div_bound": ("dd_div", "include/posenc/math/double_double.hpp", "error below 3.5 u^2", "error below 3 u^2",
                     ["dd_div relative error", "double_double.hpp:", "= 3", "Gappa cannot prove"]),
    # dd_add's 2^-103 -> 2^-104: the opposite-sign case without cancellation needs 2^-103.68.
    "dd_add_bound": ("dd_add", "include/posenc/math/double_double.hpp", "relative error below 2^-103 (CRlibm Add22",
                     "relative error below 2^-104 (CRlibm Add22", ["dd_add error", "double_double.hpp:", "= 104", "Gappa cannot prove"]),
    # reduce_pio2's 2^-101 + |k| 2^-124 -> 2^-104 + |k| 2^-124: the error reaches 0.2 x 2^-101 for small k.
    "reduce_bound": ("reduce_pio2", "include/posenc/math/reduce.hpp", "0x1p-101 + ak * 0x1p-124", "0x1p-104 + ak * 0x1p-124",
                     ["reduce_pio2 error", "reduce.hpp:", "0x1p-104", "Gappa cannot prove"]),
    # ALiBi's slope product back to the 0x1.01p-100 it once had: short of the proven 2^-99.934.
    "alibi_bound": ("alibi_bias", "include/posenc/alibi/bias.hpp", "slope_product_rel_error = 0x1p-100 + 0x1p-104;",
                    "slope_product_rel_error = 0x1.01p-100;",
                    ["slope_product_rel_error", "bias.hpp:", "0x1.01p-100", "Gappa cannot prove"]),
    # A modelled statement changed (the low parts gathered in another order): the certificate no
    # longer matches the code and says so.
    "dd_statement_changed": ("rows_double_entry", "include/posenc/math/detail/sincos_table_rows_double.hpp",
                             "cl = ct + (x - y);", "cl = (ct + x) - y;",
                             ["R_e", "sincos_table_rows_double.hpp", "no longer contains the statement"]),
}


def run(case: str) -> str | None:
    cert, header, old, new, needles = CASES[case]
    text = (ROOT / header).read_text()
    if text.count(old) != 1:
        return f"{case}: the header {header} does not contain {old!r} exactly once (update this test)"
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / Path(header).name
        copy.write_text(text.replace(old, new))
        p = subprocess.run([sys.executable, str(HERE / "certify.py"), cert, "--header-override", f"{header}={copy}"],
                           capture_output=True, text=True, timeout=300)
    lines = [l for l in p.stdout.splitlines() if "FAILED" in l]
    if p.returncode != 1 or len(lines) != 1:
        return f"{case}: expected exit 1 and one failure line, got exit {p.returncode}: {p.stdout.strip()} {p.stderr.strip()}"
    missing = [n for n in needles if n not in lines[0]]
    if missing:
        return f"{case}: the failure line lacks {missing}: {lines[0]}"
    print(f"{case}: fails as expected: {lines[0][:200]}")
    return None


def main() -> int:
    args = sys.argv[1:]
    if args == ["--list"]:
        print("\n".join(CASES))
        return 0
    errors = [e for e in (run(c) for c in (args or CASES)) if e]
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
