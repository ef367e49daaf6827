#!/usr/bin/env python3
"""Machine-checked rounding-error bounds of posenc's fast paths (issue 24), with Gappa.

Each certificate reads the constants it proves from the headers (a regular expression on the very
statement that uses them: the certificate fails when that statement changes), substitutes them into
a Gappa script (proofs/gappa/<name>.g, placeholders {{NAME}}), runs gappa, and checks the parts that
are not floating-point roundings (the recurrences over a block, the double evaluation of the bounds
themselves) in exact rational arithmetic. Standard library only.

  python3 proofs/gappa/certify.py --all              every certificate (ctest runs them one by one)
  python3 proofs/gappa/certify.py rows_float_product  one
  python3 proofs/gappa/certify.py --all --report      and the margins: the tightest bound Gappa
                                                      proves against the header's constant (log2)
  --header-override include/posenc/...hpp=/tmp/x.hpp  read that header from another file (the
                                                      tests of the checker itself)

Exit status 0 when every requested certificate holds; otherwise 1 and one line per failure:
  certificate <name> FAILED: <bound> (<header>:<line>, <constant> = <value>): <reason>
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import time
from fractions import Fraction as Fr
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GAPPA_OPTIONS = ["-Eprecision=120", "-Eno-auto-dichotomy"]  # interval bounds to 120 bits; splits only where a script asks
U = Fr(1, 2**53)  # unit roundoff of binary64


class CertFail(Exception):
    """One certificate failed; str(self) is the one line to print."""


# --------------------------------------------------------------------------------------------
# Headers and the statements a certificate models.


class Header:
    overrides: dict[str, str] = {}

    def __init__(self, rel: str):
        self.rel = rel
        src = self.overrides.get(rel)
        self.path = Path(src) if src else ROOT / rel
        self.text = self.path.read_text()

    def line_of(self, pos: int) -> int:
        return self.text.count("\n", 0, pos) + 1

    def where(self, pos: int) -> str:
        return f"{self.rel}:{self.line_of(pos)}"


LITERAL = r"0[xX][0-9a-fA-F]*\.?[0-9a-fA-F]*[pP][+-]?\d+|\d+\.\d*(?:[eE][+-]?\d+)?|\d+(?:[eE][+-]?\d+)?"


def pattern_regex(pattern: str) -> re.Pattern:
    """A C statement with placeholders, as a whitespace-insensitive regex.

    {{NAME}}: a numeric literal, captured; {{NAME:expr}}: an expression up to what follows, captured;
    {{_}}: anything (non-greedy)."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("{{", i):
            j = pattern.index("}}", i)
            name = pattern[i + 2 : j]
            if name == "_":
                out.append(r"[\s\S]*?")
            elif name.endswith(":expr"):
                out.append(rf"(?P<{name[:-5]}>[^;{{}}]+?)")
            else:
                out.append(rf"(?P<{name}>{LITERAL})")
            out.append(r"\s*")
            i = j + 2
        elif pattern[i].isspace():
            out.append(r"\s*")
            i += 1
        else:
            out.append(re.escape(pattern[i]) + r"\s*")
            i += 1
    return re.compile("".join(out))


class Const:
    """A captured literal or expression: its text, its value as the C++ compiler computes it (every
    operation rounded to double, as in constant evaluation) and where it is."""

    def __init__(self, name, text, value, where):
        self.name, self.text, self.value, self.where = name, text, value, where

    def __repr__(self):
        return f"{self.name} = {self.text}"


def find(h: Header, pattern: str, bound: str, env: dict | None = None, count: int | None = None) -> dict:
    """The captures of `pattern` in header h (all occurrences must agree; `count`: how many there
    must be). Literals are evaluated as C doubles; {{X:expr}} captures with env."""
    rx = pattern_regex(pattern)
    ms = list(rx.finditer(h.text))
    if not ms or (count is not None and len(ms) != count):
        raise CertFail(
            f"{bound} ({h.rel}): the header no longer contains the statement this certificate models"
            f" ({'found %d times, expected %d' % (len(ms), count) if ms else 'not found'}): {pattern!r}"
        )
    m = ms[0]
    out = {}
    for name, text in m.groupdict().items():
        for other in ms[1:]:
            if re.sub(r"\s+", "", other.group(name)) != re.sub(r"\s+", "", text):
                raise CertFail(f"{bound} ({h.where(other.start(name))}): {name} differs between the modelled statements")
        if text.count("(") != text.count(")"):
            raise CertFail(f"{bound} ({h.where(m.start(name))}): cannot delimit {name} in the modelled statement")
        try:
            value = c_eval(text, env or {})
        except CertFail:
            value = None  # an expression of run-time names: evaluated later with them
        out[name] = Const(name, re.sub(r"\s+", " ", text.strip()), value, h.where(m.start(name)))
    out["_where"] = h.where(m.start())
    return out


# --------------------------------------------------------------------------------------------
# C expressions evaluated as the compiler does: each + - * / rounded to double (Python floats are
# IEEE binary64 with round-to-nearest-even), literals rounded once.

TOKEN = re.compile(
    r"\s*(?:(?P<num>" + LITERAL + r")|(?P<id>[A-Za-z_]\w*(?:(?:::|->|\.)[A-Za-z_]\w*)*)|(?P<op>[-+*/(),]))"
)


def literal_value(text: str) -> Fr:
    t = text.lower()
    if t.startswith("0x"):
        mant, exp = t[2:].split("p")
        if "." in mant:
            ip, fp = mant.split(".")
        else:
            ip, fp = mant, ""
        m = int((ip or "0") + fp, 16) if (ip or fp) else 0
        return Fr(m) * Fr(2) ** (int(exp) - 4 * len(fp))
    return Fr(float(text)) if any(ch in t for ch in ".e") else Fr(int(t))


def c_eval(text: str, env: dict) -> float:
    toks = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise CertFail(f"cannot read the expression {text!r} at {text[pos:]!r}")
        toks.append((m.lastgroup, m.group(m.lastgroup)))
        pos = m.end()
    toks.append(("end", ""))
    k = [0]

    def peek():
        return toks[k[0]]

    def take(kind=None, val=None):
        t = toks[k[0]]
        if (kind and t[0] != kind) or (val and t[1] != val):
            raise CertFail(f"cannot read the expression {text!r}")
        k[0] += 1
        return t

    def primary():
        kind, val = peek()
        if kind == "num":
            take()
            return float(literal_value(val))
        if kind == "op" and val == "(":
            take()
            v = expr()
            take("op", ")")
            return v
        if kind == "op" and val == "-":
            take()
            return -primary()
        if kind == "op" and val == "+":
            take()
            return primary()
        if kind == "id":
            take()
            if peek() == ("op", "("):
                take()
                arg = expr()
                take("op", ")")
                if val in ("dabs", "rabs", "std::abs", "std::fabs"):
                    return abs(arg)
                raise CertFail(f"unknown function {val} in {text!r}")
            key = val.split("::")[-1] if val not in env else val
            if val in env:
                return env[val]
            if key in env:
                return env[key]
            raise CertFail(f"unknown name {val} in {text!r}")
        raise CertFail(f"cannot read the expression {text!r}")

    def term():
        v = primary()
        while peek() in (("op", "*"), ("op", "/")):
            op = take()[1]
            w = primary()
            v = v * w if op == "*" else v / w
        return v

    def expr():
        v = term()
        while peek() in (("op", "+"), ("op", "-")):
            op = take()[1]
            w = term()
            v = v + w if op == "+" else v - w
        return v

    v = expr()
    take("end")
    return v


# --------------------------------------------------------------------------------------------
# Numbers.


def log2(x: Fr | float) -> float:
    x = Fr(x)
    if x <= 0:
        return float("-inf")
    return math.log2(x.numerator) - math.log2(x.denominator)


def dyadic_down(x: Fr, bits: int = 140) -> Fr:
    return Fr(math.floor(x * 2**bits), 2**bits)


def dyadic_up(x: Fr, bits: int = 140) -> Fr:
    return Fr(math.ceil(x * 2**bits), 2**bits)


def gnum(x: Fr | float | int) -> str:
    """x as an exact Gappa number (a dyadic: m b e)."""
    x = Fr(x)
    d = x.denominator
    if d & (d - 1):
        raise ValueError(f"{x} is not dyadic")
    return f"{x.numerator}b-{d.bit_length() - 1}" if d > 1 else f"{x.numerator}"


def up(x: Fr) -> Fr:
    """x rounded up to a multiple of 2^-300: an upper bound with a short denominator (the recurrences
    would otherwise carry thousands of digits)."""
    return dyadic_up(x, 300)


def sqrt2_up() -> Fr:
    s = Fr(math.isqrt(2 * 4**80) + 1, 2**80)
    assert s * s >= 2
    return s


def fmt(x) -> str:
    x = Fr(x)
    return f"2^{log2(x):.3f}" if x > 0 else str(x)


# --------------------------------------------------------------------------------------------
# Gappa scripts: proofs/gappa/<name>.g holds a common preamble and parts ("#%% part NAME"); a part
# has "#:check PROP" lines (the goal, joined by /\ into the placeholder GOAL of its { ... -> GOAL }),
# "#:query EXPR" lines (report mode: EXPR in ?), "#:logsplit VAR LO HI" (split VAR at 2^LO+1 .. 2^HI-1),
# and {{NAME}} placeholders filled from the header.


def gappa_exe() -> str:
    exe = os.environ.get("POSENC_GAPPA") or shutil.which("gappa")
    if not exe:
        raise CertFail("gappa not installed: bash tools/bootstrap-deps.sh installs it")
    return exe


def load_parts(name: str) -> dict[str, dict]:
    text = (HERE / f"{name}.g").read_text()
    chunks = re.split(r"^#%% part (\w+)[^\n]*\n", text, flags=re.M)
    preamble = chunks[0]
    parts = {}
    for pname, body in zip(chunks[1::2], chunks[2::2]):
        checks = re.findall(r"^#:check (.*)$", body, flags=re.M)
        queries = re.findall(r"^#:query (.*)$", body, flags=re.M)
        points = re.findall(r"^#:logsplit (\w+) (-?\d+) (-?\d+)$", body, flags=re.M)
        parts[pname] = {"body": preamble + body, "checks": checks, "queries": queries, "points": points}
    return parts


def fill(text: str, subs: dict) -> str:
    def rep(m):
        key = m.group(1)
        if key not in subs:
            raise CertFail(f"the Gappa script uses {{{{{key}}}}}, which the runner does not provide")
        return subs[key]

    return re.sub(r"\{\{(\w+)\}\}", rep, text)


def run_gappa(cert: str, part: str, spec: dict, subs: dict, goal: str) -> tuple[bool, str]:
    body = spec["body"].replace("GOAL", goal)
    for var, lo, hi in spec["points"]:
        body += f"\n$ {var} in (" + ", ".join(f"1b{k}" for k in range(int(lo) + 1, int(hi))) + ");\n"
    script = fill(body, subs)
    p = subprocess.run([gappa_exe(), *GAPPA_OPTIONS], input=script, capture_output=True, text=True, timeout=120)
    out = p.stdout + p.stderr
    # A rewriting hint is sound only when both sides are equal: Gappa checks it by normalising their
    # difference and only warns when it cannot; such a hint would be an unchecked assumption.
    ok = p.returncode == 0 and "Error" not in out and "not trivially equal" not in out
    return ok, out


def prove(cert: str, part: str, spec: dict, subs: dict, bound: str, const: Const | None, what: str = "") -> None:
    goal = " /\\ ".join(f"({fill(c, subs)})" for c in spec["checks"])
    ok, out = run_gappa(cert, part, spec, subs, goal)
    if not ok:
        err = " ".join(l.strip() for l in out.splitlines() if l.strip() and not l.startswith("Warning"))[:300]
        where = f"{const.where}, {const.name} = {const.text}" if const else "?"
        raise CertFail(f"{bound} ({where}): Gappa cannot prove {what or part} [{part}]: {err}")


NUM = r"(-?\d+(?:b-?\d+)?)"


def gappa_number(t: str) -> Fr:
    if "b" in t:
        m, e = t.split("b")
        return Fr(int(m)) * Fr(2) ** int(e)
    return Fr(int(t))


def query(cert: str, part: str, spec: dict, subs: dict) -> list[tuple[Fr, Fr]]:
    """Report mode: the ranges Gappa proves for the part's #:query expressions."""
    res = []
    for q in spec["queries"]:
        ok, out = run_gappa(cert, part, spec, subs, f"{fill(q, subs)} in ?")
        m = re.search(r" in \[" + NUM + r"(?: \{[^}]*\})?, " + NUM, out)
        if not m:
            raise CertFail(f"report: Gappa gave no range for {q} [{part}]: {out.strip()[:200]}")
        res.append((gappa_number(m.group(1)), gappa_number(m.group(2))))
    return res


def query_widest(cert: str, part: str, spec: dict, subs: dict) -> Fr:
    """Report mode: the largest magnitude in the ranges Gappa proves for the part's #:query lines."""
    return max(max(abs(lo), abs(hi)) for lo, hi in query(cert, part, spec, subs))


def tune_down(cert, part, spec, subs, key, start: Fr) -> Fr:
    """Report mode: about the least value of the constant subs[key] (within 2^(1/64)) for which the
    part still proves, by bisection on its log2 below `start` (down to start / 2^16)."""

    def proves(v: Fr) -> bool:
        s = dict(subs)
        for k in key.split("+"):  # "A+B": both constants set to the same value
            s[k] = gnum(v)
        goal = " /\\ ".join(f"({fill(c, s)})" for c in spec["checks"])
        return run_gappa(cert, part, spec, s, goal)[0]

    def at(x: float) -> Fr:
        return dyadic_up(Fr(2) ** math.floor(x) * Fr(round(2 ** (x - math.floor(x)) * 2**40), 2**40), 200)

    hi, lo = log2(start), log2(start) - 16
    if proves(at(lo)):
        return at(lo)
    while hi - lo > 1 / 64:
        mid = (hi + lo) / 2
        if proves(at(mid)):
            hi = mid
        else:
            lo = mid
    return at(hi)


def check_rounded_up(text: str, up_value: float, bound: str, where: str) -> None:
    """The induction that makes the sampled recurrences a proof for every input: `text` (a bound as the
    header computes it) has only + and * of non-negative terms (so it is monotone in each), and its final
    factor up covers its k roundings: up (1 - u)^k >= 1 (each rounding of a non-negative result loses at
    most a factor 1 - u; no result is near underflow). Then the double value is at least the exact one
    whenever its inputs are, step after step."""
    toks = [t for t in re.findall(r"[-+*/]", re.sub(LITERAL, "0", text))]
    if "-" in toks or "/" in toks:
        raise CertFail(f"{bound} ({where}): '{text}' is not a sum of products of non-negative terms")
    k = len(toks)
    if Fr(up_value) * (1 - U) ** k < 1:
        raise CertFail(f"{bound} ({where}): up = {up_value!r} does not cover the {k} roundings of '{text}'")


REPORT: list[tuple] = []  # (certificate, bound, where, header constant, proven, note)


def report(cert, bound, const_where, hdr: Fr, proven: Fr, note=""):
    REPORT.append((cert, bound, const_where, hdr, proven, note))


# --------------------------------------------------------------------------------------------
# The certificates.

ENTRY = "include/posenc/math/detail/sincos_table_entry.hpp"
ROWS = "include/posenc/math/detail/sincos_table_rows.hpp"
ROWS_CX = "include/posenc/math/detail/sincos_table_rows_constexpr.hpp"
ENGINE = "include/posenc/math/detail/sincos_table_engine.hpp"
ROWS_DD = "include/posenc/math/detail/sincos_table_rows_double.hpp"
CHEAP = "include/posenc/math/detail/round_test_cheap.hpp"
XPOS = "include/posenc/xpos/rows.hpp"
DD = "include/posenc/math/double_double.hpp"
PANGLE = "include/posenc/math/detail/product_angle.hpp"
TRIG_KERNEL = "include/posenc/math/detail/trig_kernel.hpp"  # read only (the Sollya certificates' header)
REDUCE = "include/posenc/math/reduce.hpp"
ALIBI = "include/posenc/alibi/bias.hpp"
GEOM = "include/posenc/math/geometric_frequency.hpp"


def anchor_error_consts() -> dict:
    """anchor_error (sincos_table_entry.hpp): sqrt2, a, R, up as the compiler computes them, and the
    anchor's component error delta the derivation states (inside a's expression)."""
    h = Header(ENTRY)
    bound = "anchor_error"
    env: dict = {}
    out = {}
    for name in ("sqrt2", "a", "R", "up"):
        c = find(h, f"static constexpr double {name} = {{{{X:expr}}}};", bound, env, count=1)["X"]
        c.name = f"anchor_error::{name}"
        env[name] = c.value
        env[f"k::{name}"] = c.value
        out[name] = c
    d = find(h, "static constexpr double a = sqrt2 * ({{D1}} + {{D2}}) * (1 + 0x1p-50);", bound, count=1)
    out["delta"] = Const("cis_anchor delta", f"{d['D1'].text} + {d['D2'].text}",
                         Fr(d["D1"].value) + Fr(d["D2"].value), d["_where"])
    if Fr(out["sqrt2"].value) ** 2 < 2:
        raise CertFail(f"anchor_error::sqrt2 ({out['sqrt2'].where}) is below sqrt(2)")
    out["env"] = env
    return out


def cert_rows_float_product():
    """The float row kernel's complex product fl(Z W), component by component, no FMA:
    |fl(fl(P) -+ fl(Q)) - (P -+ Q)| <= u (2 + u)(|P| + |Q|), hence R = sqrt2 u (2 + u) as a modulus."""
    k = anchor_error_consts()
    R = k["R"]
    s2 = sqrt2_up()
    hr = Header(ROWS)
    for stmt in ("d4 c = ac[k] * ec[k] - as[k] * es[k]; d4 s = as[k] * ec[k] + ac[k] * es[k];",
                 "ec[b + 1][k] = ec[b][k] * c1[k] - es[b][k] * s1[k]; es[b + 1][k] = es[b][k] * c1[k] + ec[b][k] * s1[k];",
                 "const double c = ac[k][l] * ec[k][l] - as[k][l] * es[k][l]; const double s = as[k][l] * ec[k][l] + ac[k][l] * es[k][l];"):
        find(hr, stmt, "anchor_error::R (complex product rounding)", count=1)
    find(Header(ENTRY), "const double cc = s.ac * ec[b] - s.as * es[b]; const double ss = s.as * ec[b] + s.ac * es[b];",
         "anchor_error::R (complex product rounding)", count=1)
    K = dyadic_down(Fr(R.value) / s2)  # per component, relative to |P| + |Q| <= |Z||W| (Cauchy-Schwarz)
    parts = load_parts("rows_float_product")
    subs = {"K": gnum(K)}
    for pname, spec in parts.items():
        prove("rows_float_product", pname, spec, subs, "anchor_error::R (complex product rounding)", R,
              f"|error| <= R / sqrt2 (|P| + |Q|)")
    if REPORT_MODE:
        worst = max(query_widest("rows_float_product", pname, spec, subs) for pname, spec in parts.items())
        report("rows_float_product", "R: complex product rounding (modulus, / |Z*||W*|)", R.where, Fr(R.value), worst * s2,
               "Gappa: per component u(2+u)(|P|+|Q|); x sqrt2 (Cauchy-Schwarz)")


def cert_rows_float_anchor():
    """cis_anchor's component error delta = 2^-54 + 2^-62 (the float kernels' anchors)."""
    k = anchor_error_consts()
    delta = k["delta"]
    he = Header(ENTRY)
    find(he, "const double sr = k.sin_r.hi + k.sin_r.lo, cr = k.cos_r.hi + k.cos_r.lo;", "cis_anchor", count=1)
    find(he, "if (!product_angle(n, theta, phi) || !reduce_pio2(phi.hi, phi.lo, rd)) return false;"
             " const trig_kernel_out k = trig_kernel_fast(rd.hi, rd.lo, true, true);", "cis_anchor", count=1)
    kt = Header(TRIG_KERNEL)
    ks = find(kt, "o.sin_r = {h.hi, lo, (h.hi < 0 ? -h.hi : h.hi) * {{E}}};", "trig_kernel_fast error", count=1)["E"]
    kc = find(kt, "o.cos_r = {h.hi, lo, h.hi * {{E}}};", "trig_kernel_fast error", count=1)["E"]
    hr = Header(REDUCE)
    rr = find(hr, "out = {r.hi, r.lo, {{A}} + ak * {{B}},", "reduce_pio2 error", count=1)
    rmax = find(hr, "inline constexpr double reduce_max = {{M}};", "reduce_max", count=1)["M"]
    tpi = find(hr, "inline constexpr double two_over_pi = {{T}};", "two_over_pi", count=1)["T"]
    pa = find(Header(PANGLE), "out = {s.hi, s.lo, (s.hi < 0 ? -s.hi : s.hi) * {{E}}};", "product_angle", count=1)["E"]
    # |k| <= RN(RN(reduce_max two_over_pi) + 1.5 2^52) - 1.5 2^52 <= reduce_max two_over_pi (1 + 2^-52) + 1
    kmax = Fr(rmax.value) * Fr(tpi.value) * (1 + U) + 1
    K = (max(Fr(ks.value), Fr(kc.value)) * (1 + Fr(2) ** -50) + Fr(rr["A"].value) + kmax * Fr(rr["B"].value)
         + Fr(rmax.value) * Fr(pa.value) * (1 + U))
    parts = load_parts("rows_float_anchor")
    subs = {"K": gnum(dyadic_up(K)), "DELTA": gnum(delta.value)}
    for pname, spec in parts.items():
        prove("rows_float_anchor", pname, spec, subs, "cis_anchor delta", delta)
        if REPORT_MODE and pname == "inner":
            worst = query_widest("rows_float_anchor", pname, spec, subs)
            report("rows_float_anchor", "cis_anchor component error delta", delta.where, Fr(delta.value), worst,
                   f"Gappa, with the kernel's {ks.text} (Sollya), reduction, angle: K = {fmt(K)}")


def cert_rows_float_recurrence():
    """Exact arithmetic (no Gappa): the bounds entry_bounds / walk_bounds compute in double are at least
    the recurrence's exact values, for every block row the kernels use."""
    k = anchor_error_consts()
    h = Header(ENTRY)
    env = dict(k["env"])
    s2 = sqrt2_up()
    delta = k["delta"].value
    u = U
    for name in ("a", "R"):
        exact = s2 * delta if name == "a" else s2 * u * (2 + u)
        if Fr(k[name].value) < exact:
            raise CertFail(f"anchor_error::{name} ({k[name].where}, {k[name].text}): below its exact value {fmt(exact)}")
    a_x, R_x = s2 * delta, s2 * u * (2 + u)
    step = find(h, "static constexpr double step(double eta) noexcept { return {{S:expr}}; }", "anchor_error::step", count=1)["S"]
    eb = find(h, "constexpr void entry_bounds(double* e, std::size_t nb) noexcept { using k = anchor_error; double eta = 0;"
                 " for (std::size_t b = 0; b < nb; ++b) { e[b] = {{E:expr}}; eta = b == 0 ? k::a : k::step(eta); } }",
              "entry_bounds", count=1)["E"]
    m53 = find(h, "e[b] = (k::a * (1 + eta) + eta + k::R * (1 + k::a) * (1 + eta) + {{M}}) * k::up;", "entry_bounds", count=1)["M"]
    wb = find(h, "constexpr void walk_bounds(double* e, std::size_t nb) noexcept { double eta = anchor_error::a;"
                 " for (std::size_t b = 0; b < nb; ++b) { e[b] = {{E:expr}}; eta = anchor_error::step(eta); } }",
              "walk_bounds", count=1)["E"]
    wm = find(h, "e[b] = (eta + {{M}}) * anchor_error::up;", "walk_bounds", count=1)["M"]
    nmax = int(find(Header(ROWS), "inline constexpr std::size_t slice_block_max = {{N}};", "slice_block_max", count=1)["N"].value)
    nblk = int(find(h, "inline constexpr std::size_t block_max = {{N}};", "block_max", count=1)["N"].value)
    nwalk = int(find(Header(ROWS_CX), "inline constexpr std::size_t constexpr_block_max = {{N}};", "constexpr_block_max", count=1)["N"].value)

    # The expressions are the derivation's (pinned), monotone, and `up` covers their roundings: then
    # every double bound is at least the exact one for every input, by induction on b.
    find(h, "static constexpr double step(double eta) noexcept { return (eta * (1 + a) + a + R * (1 + eta) * (1 + a)) * up; }",
         "anchor_error::step", count=1)
    up_v = k["up"].value
    for t, b in ((step, "anchor_error::step"), (eb, "entry_bounds"), (wb, "walk_bounds")):
        check_rounded_up(t.text, up_v, b, t.where)

    def step_d(eta):
        return c_eval(step.text, {**env, "eta": eta})

    # entry_bounds: e[b] >= a(1 + eta_b) + eta_b + R(1 + a)(1 + eta_b) + M (the M: the test's enclosure).
    eta_d, eta_x = 0.0, Fr(0)
    worst = None
    for b in range(max(nmax, nblk)):
        e_d = c_eval(eb.text, {**env, "eta": eta_d})
        e_x = a_x * (1 + eta_x) + eta_x + R_x * (1 + a_x) * (1 + eta_x) + Fr(m53.value)
        if Fr(e_d) < e_x:
            raise CertFail(f"entry_bounds ({eb.where}): e[{b}] = {fmt(e_d)} is below the exact bound {fmt(e_x)}")
        if Fr(eta_d) < eta_x:
            raise CertFail(f"anchor_error::step ({step.where}): eta_{b} = {fmt(eta_d)} below the exact {fmt(eta_x)}")
        if b == nmax - 1:
            worst = (e_d, e_x)
        eta_x = a_x if b == 0 else up(eta_x * (1 + a_x) + a_x + R_x * (1 + eta_x) * (1 + a_x))
        eta_d = k["a"].value if b == 0 else step_d(eta_d)
    # walk_bounds: V_0 = A, V_{b+1} = fl(V_b E_1): eta_0 = a, then the step; e[b] >= eta_b + M.
    eta_d, eta_x = k["a"].value, a_x
    for b in range(nwalk):
        e_d = c_eval(wb.text, {**env, "eta": eta_d})
        if Fr(e_d) < eta_x + Fr(wm.value):
            raise CertFail(f"walk_bounds ({wb.where}): e[{b}] = {fmt(e_d)} is below the exact bound {fmt(eta_x + Fr(wm.value))}")
        eta_x = up(eta_x * (1 + a_x) + a_x + R_x * (1 + eta_x) * (1 + a_x))
        eta_d = step_d(eta_d)
    walk_last = eta_x
    # The table engine's e0 (sincos_table_engine.hpp): per component |Ac Ec - Ac* Ec*| <= 2 delta + delta^2
    # for each of the two products, their rounding <= u(2+u)(|Ac* Ec*| + |As* Es*|) <= u(2+u)(1 + sqrt2 delta)^2
    # (the per-component lemma of rows_float_product; Cauchy-Schwarz).
    e0 = find(Header(ENGINE), "s.e = {{E0}} + static_cast<double>(start + rows)", "engine e0", count=1)["E0"]
    need = 4 * delta + 2 * delta**2 + u * (2 + u) * (1 + s2 * delta) ** 2
    if Fr(e0.value) < need:
        raise CertFail(f"engine e0 ({e0.where}, {e0.text}): below the exact bound {fmt(need)}")
    if REPORT_MODE:
        report("rows_float_recurrence", f"entry_bounds e[{nmax - 1}] (float kernel, B = {nmax})", eb.where, Fr(worst[0]), worst[1],
               "exact recurrence; header comment: 2^-43")
        report("rows_float_recurrence", f"walk_bounds e[{nwalk - 1}] (constexpr walk, B = {nwalk})", wb.where,
               Fr(c_eval(wb.text, {**env, "eta": eta_d})), walk_last + Fr(wm.value), "exact recurrence; comment: about 2^-40")
        report("rows_float_recurrence", "engine e0 (one complex product of anchors)", e0.where, Fr(e0.value), need, "exact")


def cert_rows_float_test():
    """The float row kernel's two-ended tests: RN(c -+ e) enclose [c - e0, c + e0] (unfolded: the
    2^-53 entry_bounds and round_two_ended add), and the folded amplitude's margin 1.5 x 2^-52 |af_hi|."""
    he, hr = Header(ENTRY), Header(ROWS)
    for stmt in ("if constexpr (Folded) c *= afh, s *= afh;",
                 "const f4 clo = __builtin_convertvector(c - e, f4), chi = __builtin_convertvector(c + e, f4);",
                 "const f4 slo = __builtin_convertvector(s - e, f4), shi = __builtin_convertvector(s + e, f4);"):
        find(hr, stmt, "the float row kernel's test", count=1)
    find(he, "r = {static_cast<float>(ss - e), static_cast<float>(cc - e)};"
             " return r.cos == static_cast<float>(cc + e) && r.sin == static_cast<float>(ss + e);", "round_two_ended", count=1)
    m53 = find(he, "e[b] = (k::a * (1 + eta) + eta + k::R * (1 + k::a) * (1 + eta) + {{M}}) * k::up;", "entry_bounds", count=1)["M"]
    m53.name = "entry_bounds enclosure margin"
    er = find(hr, "const double e = (e_base[b] + ferr) * {{K:expr}};", "row e", count=1)["K"]
    te = find(he, "const double e = e0 + {{M}};", "round_two_ended", count=2)["M"]
    te.name = "round_two_ended enclosure margin"
    afe = find(hr, "const double afa = dabs(af->v.hi), afe = (dabs(af->v.lo) + af->err) * {{K40:expr}};", "folded margin", count=1)
    ef = find(hr, "const double ef = ((e * afa + afe) * {{K50:expr}} + afa * {{FM}} * {{K40B:expr}}) * {{K50B:expr}};", "folded margin", count=1)
    fm = ef["FM"]
    fm.name = "folded margin (x |af_hi|)"
    parts = load_parts("rows_float_test")
    subs = {"M53": gnum(m53.value), "KROW": gnum(er.value), "TM": gnum(te.value), "K40": gnum(afe["K40"].value),
            "K50": gnum(ef["K50"].value), "FM": gnum(fm.value), "K40B": gnum(ef["K40B"].value), "K50B": gnum(ef["K50B"].value)}
    consts = {"unfolded": (m53, "M53"), "two_ended": (te, "TM"), "two_ended_top": (te, None), "folded": (fm, "FM")}
    for pname, spec in parts.items():
        c, key = consts[pname]
        prove("rows_float_test", pname, spec, subs, c.name, c, "RN(v -+ E) encloses the entry's interval")
        if REPORT_MODE and key:
            t = tune_down("rows_float_test", pname, spec, subs, key, Fr(c.value))
            report("rows_float_test", c.name, c.where, Fr(c.value), t, "least constant Gappa proves")


def dd_consts() -> dict:
    h = Header(ROWS_DD)
    env = {"anchor_error::sqrt2": anchor_error_consts()["sqrt2"].value}
    out = {}
    for name in ("delta", "alpha", "R", "R_e", "up"):
        c = find(h, f"static constexpr double {name} = {{{{X:expr}}}};", "anchor_error_dd", env, count=1)["X"]
        c.name = f"anchor_error_dd::{name}"
        env[name] = c.value
        env[f"k::{name}"] = c.value
        out[name] = c
    out["env"] = env
    return out


def cert_rows_double_step():
    """The double kernel's recurrence product (dd-lite): per component < R / sqrt2."""
    k = dd_consts()
    h = Header(ROWS_DD)
    # The statements the Gappa script models, verbatim.
    for stmt in ("e = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl;",
                 "hi = h + l; const d4 bb = hi - h; lo = (h - (hi - bb)) + (l - bb); split_hi(hi, hh);",
                 "cmul(eb_full[k], e1[k], c, cl, s, sl);",
                 "cl = ((ct + (e1 - e2)) + (z.ch * w.cl - z.sh * w.sl)) + (z.cl * w.ch - z.sl * w.sh);",
                 "sl = ((st + (e3 + e4)) + (z.sh * w.cl + z.ch * w.sl)) + (z.sl * w.ch + z.cl * w.sh);",
                 "const d4 p1 = z.ch * w.ch, p2 = z.sh * w.sh, p3 = z.sh * w.ch, p4 = z.ch * w.sh;"):
        find(h, stmt, "anchor_error_dd::R (dd-lite product)", count=1)
    R = k["R"]
    K = dyadic_down(Fr(R.value) / sqrt2_up())
    parts = load_parts("rows_double_step")
    subs = {"K": gnum(K)}
    for pname, spec in parts.items():
        prove("rows_double_step", pname, spec, subs, R.name, R, "per component <= R / sqrt2")
        if REPORT_MODE:
            worst = query_widest("rows_double_step", pname, spec, subs)
            report("rows_double_step", "R: dd-lite recurrence product (modulus)", R.where, Fr(R.value), worst * sqrt2_up(),
                   "Gappa per component x sqrt2")


def cert_rows_double_entry():
    """The double kernel's entry product (26-bit halves): per component <= R_e; and the unfolded test's
    margin (e' = e + the margin: fl(l -+ e') outside [l - e, l + e])."""
    k = dd_consts()
    h = Header(ROWS_DD)
    for stmt in ("r.cl = (z.ch - z.chh) + z.cl;", "r.ch = z.chh;",
                 "const d4 p1 = a.ch * e.ch, p2 = a.sh * e.sh, p3 = a.sh * e.ch, p4 = a.ch * e.sh;",
                 "const d4 t = x * 134217729.0;{{_}}hi = t - (t - x);",
                 "const d4 x = (a.ch * e.cl + a.cl * e.ch) + a.cl * e.cl, y = (a.sh * e.sl + a.sl * e.sh) + a.sl * e.sl;",
                 "const d4 u = (a.sh * e.cl + a.sl * e.ch) + a.sl * e.cl, v = (a.ch * e.sl + a.cl * e.sh) + a.cl * e.sl;",
                 "cl = ct + (x - y);", "sl = st + (u + v);",
                 "const d4 lo = s + (l - e), hi = s + (l + e);"):
        find(h, stmt, "anchor_error_dd::R_e (entry product)", count=1)
    kk = find(h, "d4 rc, rs, e = (e_row + ferr[k]) * {{K50:expr}};", "row e", count=1)["K50"]
    tm = find(h, "e += {{TM}};", "test margin", count=1)["TM"]
    tm.name = "unfolded test margin e' - e"
    Re = k["R_e"]
    parts = load_parts("rows_double_entry")
    subs = {"RE": gnum(Fr(Re.value)), "K50": gnum(kk.value), "TM": gnum(tm.value), "RELOW": gnum(Fr(Re.value))}
    for pname, spec in parts.items():
        c = Re if pname == "entry" else tm
        prove("rows_double_entry", pname, spec, subs, c.name, c)
        if REPORT_MODE and pname == "entry":
            worst = query_widest("rows_double_entry", pname, spec, subs)
            report("rows_double_entry", "R_e: entry product (per component)", Re.where, Fr(Re.value), worst, "Gappa")
        if REPORT_MODE and pname == "test":
            t = tune_down("rows_double_entry", pname, spec, subs, "TM", Fr(tm.value))
            report("rows_double_entry", "unfolded test margin e' - e", tm.where, Fr(tm.value), t, "least constant Gappa proves")


def cert_rows_double_folded():
    """The double kernel's folded amplitude: v = s af.hi (TwoProduct) + l af.hi + s af.lo, within
    e |af| + |c| err + m |af.hi|, and the test's margin m |af.hi| (m = 2^-76)."""
    h = Header(ROWS_DD)
    for stmt in ("const d4 vcl = ec + (cl * ah + c * al), vsl = es + (sl * ah + s * al);",
                 "bad |= (ac < 0x1p-60) | (as < 0x1p-60);", "return af->ok && a >= 0x1p-500 && a <= 0x1p500;"):
        find(h, stmt, "folded margin 2^-75", count=1)
    f = find(h, "e = ((e * (ah * (1 + {{KAH}})) + (1 + {{K40}}) * af->err) + ah * {{M1}}) * (1 + {{K50}}) + {{M2}} * ah;",
             "folded margins", count=1)
    for n in ("KAH", "K40", "K50"):
        f[n].value = 1.0 + f[n].value  # the factor (1 + 2^-k) as compiled
    f["M1"].name = "folded low-part margin (x |af.hi|)"
    f["M2"].name = "folded test margin (x |af.hi|)"
    parts = load_parts("rows_double_folded")
    subs = {n: gnum(f[n].value) for n in ("KAH", "K40", "M1", "K50", "M2")}
    subs["RELOW"] = gnum(Fr(dd_consts()["R_e"].value))  # e_row >= R_e (entry_bounds_dd)
    for pname, spec in parts.items():
        prove("rows_double_folded", pname, spec, subs, "folded margins 2^-76", f["M1"])
        if REPORT_MODE and pname == "folded":
            t = tune_down("rows_double_folded", pname, spec, subs, "M1+M2", Fr(f["M1"].value))
            report("rows_double_folded", "both folded margins (x |af.hi|), set equal", f["M1"].where, Fr(f["M1"].value), t,
                   "least common value Gappa proves")


ND = "include/posenc/rope/nd.hpp"
SOURCE = "include/posenc/math/sincos_source.hpp"


def cert_rows_double_offset():
    """The double kernel's row offsets: the entry product turned by t = RN(o_p theta_hi), |t| <= 2^-30
    (rotate_small), within R_o per component of the exact rotation, once the rotated entry bound and
    the rounding of e_row + R_o are paid from R_o; and the test's margin on the turned low part."""
    k = dd_consts()
    h = Header(ROWS_DD)
    for stmt in ("const d4 q = (t * t) * 0.5;", "const d4 kc = (s + sl) * t + c * q, ks = (c + cl) * t - s * q;",
                 "cl = cl - kc; sl = sl + ks;", "if (t != nullptr) rotate_small(*t, c, cl, s, sl);",
                 "for (std::size_t k = 0; k < vectors; ++k) t[k] = fhi[k] * o;",
                 "fhi[j / lanes][j % lanes] = slow[j] ? 0.0 : f[j].value.hi;",
                 "e_row += anchor_error_dd::R_o;", "d4 rc, rs, e = (e_row + ferr[k]) * (1 + 0x1p-50);"):
        find(h, stmt, "anchor_error_dd::R_o (row offsets)", count=1)
    # The source's side: o within 2^-51 |o| of the exact offset (sincos_source.hpp); nd.hpp's near-grid
    # offset rounds twice (x - P exact by Sterbenz: near_grid_axis).
    find(Header(SOURCE), "row_offset(p) within 2^-51 |o| of the exact offset", "row offset contract", count=1)
    find(Header(ND), "return ((x - rh.hi) - rh.lo) / h;", "near-grid row offset (two roundings)", count=1)
    gate = find(h, "slow[j] = slow[j] || !(o_bound * at <= {{G}}) || !(f[j].rel_err <= {{REL}});", "offset gate", count=1)
    ro = find(h, "static constexpr double R_o = {{X:expr}};", "anchor_error_dd::R_o", count=1)["X"]
    ro.name = "anchor_error_dd::R_o"
    G, REL = Fr(gate["G"].value), Fr(gate["REL"].value)
    # |t| <= |o| |theta_hi| (1 + u), |o| |theta_hi| <= fl(o_bound at) (1 + u) <= G (1 + u) (G a power of two).
    if G.numerator != 1 or G.denominator & (G.denominator - 1):
        raise CertFail(f"offset gate ({gate['G'].where}, {gate['G'].text}): not a power of two")
    tmax = G * (1 + U) ** 2
    # t = t_ (1 + e_o)(1 + e_f)(1 + e_3): o within 2^-51, theta_hi within rel_err + 2u of theta, the product.
    eta = (1 + Fr(1, 2**51)) * (1 + REL + 2 * U) * (1 + U) - 1
    terr = tmax / (1 - eta) * eta
    tp = tmax + terr
    # The entry bound before the turn (entry_bounds_dd's worst: delta_1 = delta, b = dd_block_max - 1):
    # a turn by t_ grows a component bound e to e (1 + |t_|); e_row = fl(e_base + R_o) loses u (e_base + R_o).
    nmax = int(find(h, "inline constexpr std::size_t dd_block_max = {{N}};", "dd_block_max", count=1)["N"].value)
    s2 = sqrt2_up()
    a_x = al_x = s2 * Fr(k["delta"].value)
    R_x, Re_x = Fr(k["R"].value), Fr(k["R_e"].value)
    eta_x, emax = Fr(0), Fr(0)
    for b in range(nmax):
        emax = max(emax, al_x * (1 + eta_x) + eta_x + Re_x)
        eta_x = a_x if b == 0 else up(eta_x * (1 + a_x) + a_x + R_x * (1 + eta_x) * (1 + a_x))
    ro_eff = Fr(ro.value) - emax * tp - U * (emax + Fr(ro.value))
    if ro_eff <= 0:
        raise CertFail(f"anchor_error_dd::R_o ({ro.where}, {ro.text}): below the turned entry bound alone")
    kk = find(h, "d4 rc, rs, e = (e_row + ferr[k]) * {{K50:expr}};", "row e", count=1)["K50"]
    tm = find(h, "e += {{TM}};", "test margin", count=1)["TM"]
    subs = {"RO": gnum(dyadic_down(ro_eff)), "TMAX": gnum(dyadic_up(tmax)), "TERR": gnum(dyadic_up(terr)),
            "EC": gnum(dyadic_up(tp ** 4 / 24)), "ES": gnum(dyadic_up(tp ** 3 / 6)), "K50": gnum(kk.value),
            "TM": gnum(tm.value), "RELOW": gnum(Re_x)}
    parts = load_parts("rows_double_offset")
    for pname, spec in parts.items():
        c = ro if pname == "rotate" else tm
        prove("rows_double_offset", pname, spec, subs, c.name, c)
        if REPORT_MODE and pname == "rotate":
            worst = query_widest("rows_double_offset", pname, spec, subs)
            report("rows_double_offset", "R_o: a row offset's turn (per component)", ro.where, Fr(ro.value), worst,
                   f"Gappa; R_o also pays the turned entry bound {fmt(emax * tp)}")


def cert_rows_double_recurrence():
    """Exact arithmetic: entry_bounds_dd's doubles >= the exact recurrence, for every delta_1 <= delta
    and b < dd_block_max; and what the accepted anchors' error can be (delta)."""
    k = dd_consts()
    h = Header(ROWS_DD)
    env = dict(k["env"])
    s2 = sqrt2_up()
    rx = pattern_regex("constexpr void entry_bounds_dd(double* e, std::size_t nb, double delta_1) noexcept { using k = anchor_error_dd;"
                       " const double a = {{A:expr}}; double eta = 0; for (std::size_t b = 0; b < nb; ++b) { e[b] = {{E:expr}};"
                       " eta = b == 0 ? a : {{S:expr}}; } }")
    m = rx.search(h.text)
    if not m:
        raise CertFail(f"entry_bounds_dd ({ROWS_DD}): the header no longer contains the function this certificate models")
    where = h.where(m.start())
    nmax = int(find(h, "inline constexpr std::size_t dd_block_max = {{N}};", "dd_block_max", count=1)["N"].value)
    if Fr(k["alpha"].value) ** 2 < 2 * Fr(k["delta"].value) ** 2:
        raise CertFail(f"anchor_error_dd::alpha ({k['alpha'].where}, {k['alpha'].text}): below sqrt2 delta")
    find(h, "const double a = anchor_error::sqrt2 * delta_1 * k::up; double eta = 0;"
            " for (std::size_t b = 0; b < nb; ++b) { e[b] = (k::alpha * (1 + eta) + eta + k::R_e) * k::up;"
            " eta = b == 0 ? a : (eta * (1 + a) + a + k::R * (1 + eta) * (1 + a)) * k::up; }", "entry_bounds_dd", count=1)
    for g in ("A", "E", "S"):
        check_rounded_up(m.group(g).strip(), k["up"].value, "entry_bounds_dd", where)
    R_x, Re_x, alpha_x = Fr(k["R"].value), Fr(k["R_e"].value), s2 * Fr(k["delta"].value)
    worst = None
    for d1 in (0.0, 2.0**-100, 2.0**-90, 2.0**-84, 2.0**-82, k["delta"].value):
        a_d = c_eval(m.group("A"), {**env, "delta_1": d1})
        a_x = s2 * Fr(d1)
        if Fr(a_d) < a_x:
            raise CertFail(f"entry_bounds_dd ({where}): a = {fmt(a_d)} below sqrt2 delta_1 = {fmt(a_x)}")
        eta_d, eta_x = 0.0, Fr(0)
        for b in range(nmax):
            e_d = c_eval(m.group("E"), {**env, "eta": eta_d})
            e_x = alpha_x * (1 + eta_x) + eta_x + Re_x
            if Fr(e_d) < e_x:
                raise CertFail(f"entry_bounds_dd ({where}): e[{b}] = {fmt(e_d)} below the exact {fmt(e_x)} (delta_1 = {fmt(d1)})")
            if Fr(eta_d) < eta_x:
                raise CertFail(f"entry_bounds_dd ({where}): eta_{b} below the exact value (delta_1 = {fmt(d1)})")
            if b == nmax - 1 and d1 == k["delta"].value:
                worst = (e_d, e_x)
            eta_x = a_x if b == 0 else up(eta_x * (1 + a_x) + a_x + R_x * (1 + eta_x) * (1 + a_x))
            eta_d = a_d if b == 0 else c_eval(m.group("S"), {**env, "eta": eta_d, "a": a_d})
    if REPORT_MODE:
        report("rows_double_recurrence", f"entry_bounds_dd e[{nmax - 1}] (delta_1 = delta)", where, Fr(worst[0]), worst[1],
               "exact recurrence; header: about 2^-73")
        # What the accepted block anchors' error can be: cis_anchor_dd's err = ((ke + rd.err) + phi.err)(1 + 2^-50),
        # from the kernel's 2^-84 (trig_kernel.hpp, the Sollya certificates'), the reduction's 2^-101 + |k| 2^-124
        # and the product angle's 2^-103 |phi|, for anchors of angle |phi| <= Phi.
        kt = Header(TRIG_KERNEL)
        ke = find(kt, "o.cos_r = {r.hi, r.lo, r.hi * {{E}}};", "trig_kernel_dd error", count=1)["E"]
        rr = find(Header(REDUCE), "out = {r.hi, r.lo, {{A}} + ak * {{B}},", "reduce_pio2 error", count=1)
        pa = find(Header(PANGLE), "out = {s.hi, s.lo, (s.hi < 0 ? -s.hi : s.hi) * {{E}}};", "product_angle", count=1)["E"]
        find(h, "err = ((ke + rd.err) + phi.err) * (1 + 0x1p-50);", "cis_anchor_dd err", count=1)
        for lg in (10, 17, 20, 23):
            phi = Fr(2) ** lg
            kq = phi * 2 / Fr(314159, 100000) + 1
            err = (Fr(ke.value) + Fr(rr["A"].value) + kq * Fr(rr["B"].value) + phi * Fr(pa.value) * (1 + U)) * (1 + Fr(2) ** -50) * (1 + 4 * U)
            e_at = None
            for dl in (err,):
                a_x, al_x = s2 * dl, s2 * dl
                eta_x = Fr(0)
                for b in range(nmax):
                    e_at = al_x * (1 + eta_x) + eta_x + Re_x
                    eta_x = a_x if b == 0 else up(eta_x * (1 + a_x) + a_x + R_x * (1 + eta_x) * (1 + a_x))
            report("rows_double_recurrence", f"anchor error for |phi| <= 2^{lg} (delta_1 = delta = it): e[{nmax - 1}] = {fmt(e_at)}",
                   k["delta"].where, Fr(k["delta"].value), err, "provable err of cis_anchor_dd vs the acceptance delta")


def cert_round_test_cheap():
    """round_test_float / round_test_double (round_test_cheap.hpp): the margins of their proofs."""
    h = Header(CHEAP)
    f1 = find(h, "if (!(e <= ay * {{EMAX}} && ay >= {{YMIN}})) return false;", "round_test_float", count=1)
    f2 = find(h, "const double m = e + ay * {{MF}};", "round_test_float", count=1)["MF"]
    d1 = find(h, "if (!(e <= as * {{EMAX}} && as >= {{SMIN}} && as <= {{SMAX}})) return false;", "round_test_double", count=1)
    d2 = find(h, "const double d = as * {{DF}};", "round_test_double", count=1)["DF"]
    find(h, "const double below = s + ((t - e) - d); out = s + ((t + e) + d);", "round_test_double", count=1)
    find(h, "const double t = l - (s - h);", "round_test_double", count=1)
    f2.name, d2.name = "round_test_float margin m = e + |y| 2^-50", "round_test_double margin d = |s| 2^-102"
    for c in (f2, d2):
        if Fr(c.value).numerator != 1 or Fr(c.value).denominator & (Fr(c.value).denominator - 1):
            raise CertFail(f"{c.name} ({c.where}, {c.text}): not a power of two, so the product is not exact")
    parts = load_parts("round_test_cheap")
    subs = {"FEMAX": gnum(f1["EMAX"].value), "MF": gnum(f2.value), "DEMAX": gnum(d1["EMAX"].value), "DF": gnum(d2.value)}
    for pname, spec in parts.items():
        c, key = (f2, "MF") if pname == "float" else (d2, "DF")
        prove("round_test_cheap", pname, spec, subs, c.name, c)
        if REPORT_MODE:
            t = tune_down("round_test_cheap", pname, spec, subs, key, Fr(c.value))
            report("round_test_cheap", c.name, c.where, Fr(c.value), t, "least constant Gappa proves")


def cert_xpos_rows():
    """xpos row kernel (xpos/rows.hpp): the double test's e' = e(1 + 2^-8) + |hi| 2^-96 and the float
    product's 3.01 u (0x1.9p-52) with the 2^-52 of forming v -+ e."""
    h = Header(XPOS)
    dm = find(h, "const d4 e = hi * r * {{K8:expr}} + hi * {{H96}};", "xpos double test margin", count=1)
    find(h, "const d4 a = hi + (lo - e), b = hi + (lo + e);", "xpos double test", count=1)
    rel = find(h, "rel[t] = (a[t].err + serr[t] + a[t].err * serr[t] + (dbl ? {{MUL22}} : {{PROD}}) + 1.01 * nb * lerr[t]) *"
                  " {{K50:expr}} + (dbl ? 0.0 : {{FORM}});", "xpos rel", count=1)
    find(h, "const d4 v = x * y; const d4 e = v * r;", "xpos float test", count=2)
    find(h, "lo = t - (hi - p);", "xpos mul22", count=1)
    dm["K8"].name, dm["H96"].name = "xpos double margin factor", "xpos double margin |hi| 2^-96"
    rel["PROD"].name, rel["FORM"].name = "xpos float product 3.01 u", "xpos float forming 2^-52"
    parts = load_parts("xpos_rows")
    subs = {"K8": gnum(dm["K8"].value), "H96": gnum(dm["H96"].value), "PROD": gnum(rel["PROD"].value),
            "FORM": gnum(rel["FORM"].value), "K50": gnum(rel["K50"].value)}
    keys = {"double": (dm["H96"], "H96"), "double_wide": (dm["K8"], None), "float_product": (rel["PROD"], "PROD"),
            "float_form": (rel["FORM"], "FORM")}
    for pname, spec in parts.items():
        c, key = keys[pname]
        prove("xpos_rows", pname, spec, subs, c.name, c)
        if REPORT_MODE and key:
            t = tune_down("xpos_rows", pname, spec, subs, key, Fr(c.value))
            report("xpos_rows", c.name, c.where, Fr(c.value), t, "least constant Gappa proves")


def cert_dd_primitives():
    """Mul22 (dd_mul) relative 2^-102, the product angle's 2^-103 |hi|."""
    h = Header(DD)
    find(h, "const math::double_double p = two_prod(a.hi, b.hi); const double cross = a.hi * b.lo + a.lo * b.hi;"
            " return fast_two_sum(p.hi, p.lo + cross);", "dd_mul", count=1)
    mul = find(h, "// Double-double product, relative error below 2^-{{E}} (CRlibm Mul22).", "dd_mul", count=1)["E"]
    mul.name = "dd_mul relative error 2^-E"
    hp = Header(PANGLE)
    find(hp, "const math::double_double p = two_prod(md, theta.hi);"
             " const math::double_double s = fast_two_sum(p.hi, p.lo + md * theta.lo);", "product_angle", count=1)
    pa = find(hp, "out = {s.hi, s.lo, (s.hi < 0 ? -s.hi : s.hi) * {{E}}};", "product_angle", count=1)["E"]
    pa.name = "product_angle err / |hi|"
    parts = load_parts("dd_primitives")
    subs = {"MUL22": gnum(Fr(2) ** -int(mul.value)), "PA": gnum(pa.value)}
    consts = {"mul22": (mul, "MUL22", Fr(2) ** -int(mul.value)), "product_angle": (pa, "PA", Fr(pa.value))}
    for pname, spec in parts.items():
        c, key, v = consts[pname]
        prove("dd_primitives", pname, spec, subs, c.name, c)
        if REPORT_MODE:
            worst = query_widest("dd_primitives", pname, spec, subs)
            report("dd_primitives", c.name, c.where, v, worst, "Gappa")


def cert_dd_add():
    """dd_add (Add22 = AccurateDWPlusDW): relative error below 2^-E without cancellation of the high
    parts, absolute error below 2^-E max(|a.hi|, |b.hi|) in every case."""
    h = Header(DD)
    find(h, "const math::double_double s = two_sum(a.hi, b.hi); const math::double_double t = two_sum(a.lo, b.lo);"
            " const math::double_double u = fast_two_sum(s.hi, s.lo + t.hi); return fast_two_sum(u.hi, u.lo + t.lo);",
         "dd_add", count=1)
    find(h, "const double s = a + b; const double bb = s - a; const double e = (a - (s - bb)) + (b - bb); return {s, e};",
         "two_sum", count=1)
    find(h, "const double s = a + b; const double e = b - (s - a); return {s, e};", "fast_two_sum", count=1)
    add = find(h, "// Double-double sum, relative error below 2^-{{E}} (CRlibm Add22,", "dd_add", count=1)["E"]
    add.name = "dd_add error 2^-E (relative; absolute x max(|a.hi|, |b.hi|))"
    v = Fr(2) ** -int(add.value)
    parts = load_parts("dd_add")
    subs = {"ADD": gnum(v)}
    notes = {"same_sign": "relative, a.hi b.hi >= 0", "opposite": "relative, opposite signs, |b.hi| <= 9/16 |a.hi|",
             "cancel": "absolute / max(|a.hi|, |b.hi|), |a.hi|/2 < |b.hi| <= |a.hi| opposite"}
    for pname, spec in parts.items():
        prove("dd_add", pname, spec, subs, add.name, add, notes[pname])
        if REPORT_MODE:
            worst = query_widest("dd_add", pname, spec, subs)
            report("dd_add", f"dd_add {notes[pname]}", add.where, v, worst, "Gappa")


def grid(lo: Fr, hi: Fr, n: int) -> list[tuple[Fr, Fr]]:
    """[lo, hi] cut into n boxes with dyadic ends (2^-60; the outer ends exact)."""
    pts = [lo] + [dyadic_down(lo + (hi - lo) * i / n, 60) for i in range(1, n)] + [hi]
    return list(zip(pts, pts[1:]))


def cert_dd_div():
    """dd_div (x / y, x a double-double, y a double): relative error below C u^2 < 2^-E (the comment's
    3.5 u^2 < 2^-104.1), box by box over (xh, y) in [1, 2) x (1, 2]."""
    h = Header(DD)
    find(h, "const double th = x.hi / y; const math::double_double p = two_prod(th, y);"
            " const double dl = ((x.hi - p.hi) - p.lo) + x.lo;{{_}}return fast_two_sum(th, dl / y);", "dd_div", count=1)
    c = find(h, "relative // error below {{C}} u^2 < 2^-{{E}}).", "dd_div", count=1)
    C, E = c["C"], c["E"]
    C.name = "dd_div relative error C u^2"
    bound = Fr(C.value) * U**2
    if log2(bound) > -Fr(E.value):  # the comment's two figures must agree: C u^2 < 2^-E
        raise CertFail(f"{C.name} ({C.where}, {C.text} u^2 = {fmt(bound)}): not below 2^-{E.text} as the comment states")
    spec = load_parts("dd_div")["div"]
    worst = Fr(0)
    for xl, xh in grid(Fr(1), 2 - 2 * U, 4):
        for yl, yh in grid(1 + 2 * U, Fr(2), 4):
            subs = {"DIV": gnum(dyadic_down(bound)), "XL": gnum(xl), "XH": gnum(xh), "YL": gnum(yl), "YH": gnum(yh)}
            prove("dd_div", "div", spec, subs, C.name, C,
                  f"relative error <= {C.text} u^2 for xh in [{float(xl)}, {float(xh)}], y in [{float(yl)}, {float(yh)}]")
            if REPORT_MODE:
                worst = max(worst, query_widest("dd_div", "div", spec, subs))
    if REPORT_MODE:
        report("dd_div", "dd_div relative error (x / y, 3.5 u^2)", C.where, bound, worst, "Gappa, 4 x 4 boxes")


def cert_alibi_bias():
    """ALiBi's fast bias: |dd_mul(m, k) - m_h k| <= RN(|p.hi| C), C = slope_product_rel_error, given
    geometric_frequency's relative error H for m (the header's constant, read from its header)."""
    geo = find(Header(GEOM), "inline constexpr double geometric_frequency_max_rel_error = {{H}};",
               "geometric_frequency's bound", count=1)
    H = geo["H"]
    a = Header(ALIBI)
    C = find(a, "inline constexpr double slope_product_rel_error = {{C:expr}};", "ALiBi slope product", count=1)["C"]
    C.name = "slope_product_rel_error"
    # {{_}} for the namespace qualifiers: tools and scripts never spell the library's internals.
    find(a, "const math::double_double p = {{_}}dd_mul(m, kd);"
            " const double err = (p.hi < 0 ? -p.hi : p.hi) * {{_}}slope_product_rel_error;", C.name, count=1)
    find(a, "const math::double_double p = dd_mul(s.m, kd);"
            " done = ziv_round<T>(-p.hi, -p.lo, (p.hi < 0 ? -p.hi : p.hi) * slope_product_rel_error, v);", C.name, count=1)
    find(Header(DD), "const math::double_double p = two_prod(a.hi, b); return fast_two_sum(p.hi, p.lo + a.lo * b);",
         C.name, count=1)
    c = Fr(C.value)
    spec = load_parts("alibi_bias")["product"]
    subs = {"CHK": gnum(dyadic_down(c * (1 - 2 * U))), "H": gnum(Fr(H.value)), "MHMAX": gnum(2 - 2 * U)}
    prove("alibi_bias", "product", spec, subs, C.name, C,
          f"|dd_mul(m, k) - m_h k| <= |p.hi| {C.text} with m within {H.text} (geometric_frequency)")
    if REPORT_MODE:
        worst = query_widest("alibi_bias", "product", spec, subs)
        report("alibi_bias", "ALiBi slope product relative error", C.where, c, worst, "Gappa")


def pi_enclosure(bits: int = 600) -> tuple[Fr, Fr]:
    """pi within 2^-(bits - 20), by Machin's formula pi = 16 atan(1/5) - 4 atan(1/239) in integers."""

    def atan_inv(n: int) -> int:  # atan(1/n) 2^bits, each of the floor divisions errs by < 1
        x = (1 << bits) // n
        s, k, sign = x, 1, -1
        while x:
            x //= n * n
            s += sign * (x // (2 * k + 1))
            sign, k = -sign, k + 1
        return s

    p = Fr(16 * atan_inv(5) - 4 * atan_inv(239), 1 << bits)
    slack = Fr(1, 1 << (bits - 20))  # 20 * (terms, < 400) ulps
    return p - slack, p + slack


def cert_reduce_pio2():
    """reduce_pio2 (reduce.hpp): |r.hi + r.lo - (x - k pi/2)| <= 2^-101 + |k| 2^-124 as the header
    computes it, for every xh below reduce_max (binade by binade), |xl| <= ulp(xh)/2."""
    h = Header(REDUCE)
    cst = {}
    for name in ("pio2_p1", "pio2_p2", "pio2_p3", "pio2_p4", "pio2_p5", "two_over_pi", "reduce_max"):
        cst[name] = find(h, f"inline constexpr double {name} = {{{{V:expr}}}};", "reduce_pio2 constants", count=1)["V"]
    for stmt in ("if (!(xh < reduce_max && xh > -reduce_max)) return false;",
                 "if (k == 0) { out = {xh, xl, 0.0, 0}; return true; }",
                 "const double t1 = xh - k * pio2_p1;",
                 "const math::double_double s0 = two_sum(t1, xl);",
                 "const math::double_double s1 = two_sum(s0.hi, -(k * pio2_p2));",
                 "const math::double_double s2 = two_sum(s1.hi, -(k * pio2_p3));",
                 "const math::double_double s3 = two_sum(s2.hi, -(k * pio2_p4));",
                 "const math::double_double p5 = two_prod(k, pio2_p5);",
                 "const math::double_double s4 = two_sum(s3.hi, -p5.hi);",
                 "const double lo = ((((s0.lo + s1.lo) + s2.lo) + s3.lo) + s4.lo) - p5.lo;",
                 "const math::double_double r = two_sum(s4.hi, lo);",
                 "const double ak = k < 0 ? -k : k;"):
        find(h, stmt, "reduce_pio2 error", count=1)
    cc = find(h, "const double k = (xh * two_over_pi + {{C}}) - {{C2}};", "reduce_pio2 k", count=1)
    if cc["C"].value != cc["C2"].value or cc["C"].value != 1.5 * 2.0**52:
        raise CertFail(f"reduce_pio2 k ({cc['C'].where}): the rounding constant is not 1.5 2^52 twice")
    rr = find(h, "out = {r.hi, r.lo, {{A}} + ak * {{B}},", "reduce_pio2 error", count=1)
    A, B = rr["A"], rr["B"]
    A.name = "reduce_pio2 error 2^-101 + |k| 2^-124"
    vals = {n: Fr(c.value) for n, c in cst.items()}
    plo, phi = pi_enclosure()
    P = sum(vals[f"pio2_p{i}"] for i in range(1, 6))
    elo, ehi = dyadic_down(plo / 2 - P, 220), dyadic_up(phi / 2 - P, 220)
    subs = {"P1": gnum(vals["pio2_p1"]), "P2": gnum(vals["pio2_p2"]), "P3": gnum(vals["pio2_p3"]), "P4": gnum(vals["pio2_p4"]),
            "P5": gnum(vals["pio2_p5"]), "TPI": gnum(vals["two_over_pi"]), "C": gnum(Fr(cc["C"].value)),
            "EL": gnum(elo), "EH": gnum(ehi), "A": gnum(Fr(A.value)), "B": gnum(Fr(B.value))}
    parts = load_parts("reduce_pio2")
    prove("reduce_pio2", "k_zero", parts["k_zero"], subs, A.name, A, "k = 0 below the first binade")
    rmax = vals["reduce_max"]
    top = math.floor(log2(rmax))
    # xh in [2^j0, 2^(j1+1)): one group while the constant term dominates, then narrower ones
    # (the interval ratio loses a factor up to 2^(j1 + 1 - j0) on the |k| 2^-124 term).
    groups = [(-1, top - 9), (top - 8, top - 7), (top - 6, top - 6), (top - 5, top - 5), (top - 4, top - 3),
              (top - 2, top - 1), (top, top)]
    worst = Fr(0)
    for j0, j1 in groups:
        xl, xh = Fr(2) ** j0, Fr(2) ** (j1 + 1) * (1 - U)
        if xh >= rmax:  # the largest double below reduce_max
            xh = rmax - Fr(2) ** (top - 52)
        bsubs = dict(subs, XL=gnum(xl), XH=gnum(xh))
        prove("reduce_pio2", "reduce", parts["reduce"], bsubs, A.name, A, f"the error bound for xh in [2^{j0}, {float(xh)}]")
        if REPORT_MODE:
            worst = max(worst, query_widest("reduce_pio2", "reduce", parts["reduce"], bsubs))
    if REPORT_MODE:
        report("reduce_pio2", "reduce_pio2 err / (2^-101 + |k| 2^-124) (x 2^-101)", A.where, Fr(A.value), worst * Fr(A.value),
               f"Gappa, {len(groups)} groups of binades of xh; |e| = {fmt(max(abs(elo), abs(ehi)))}")


CERTS = {
    "rows_float_product": cert_rows_float_product,
    "rows_float_anchor": cert_rows_float_anchor,
    "rows_float_recurrence": cert_rows_float_recurrence,
    "rows_float_test": cert_rows_float_test,
    "rows_double_step": cert_rows_double_step,
    "rows_double_entry": cert_rows_double_entry,
    "rows_double_folded": cert_rows_double_folded,
    "rows_double_offset": cert_rows_double_offset,
    "rows_double_recurrence": cert_rows_double_recurrence,
    "round_test_cheap": cert_round_test_cheap,
    "xpos_rows": cert_xpos_rows,
    "dd_primitives": cert_dd_primitives,
    "dd_add": cert_dd_add,
    "dd_div": cert_dd_div,
    "reduce_pio2": cert_reduce_pio2,
    "alibi_bias": cert_alibi_bias,
}
REPORT_MODE = False


def main(argv=None) -> int:
    global REPORT_MODE
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="certificates (default with --all: every one)")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--report", action="store_true", help="also the margins (slower: more Gappa runs)")
    ap.add_argument("--header-override", action="append", default=[], metavar="HEADER=PATH",
                    help="read HEADER (repository-relative, e.g. include/posenc/xpos/rows.hpp) from PATH")
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(CERTS))
        return 0
    for o in args.header_override:
        if "=" not in o:
            ap.error(f"--header-override wants HEADER=PATH, got {o!r}")
        k, v = o.split("=", 1)
        Header.overrides[k] = v
    REPORT_MODE = args.report
    names = list(CERTS) if args.all or not args.names else args.names
    unknown = [n for n in names if n not in CERTS]
    if unknown:
        ap.error(f"unknown certificate(s) {', '.join(unknown)}; --list names them")
    failed = 0
    for n in names:
        t0 = time.monotonic()
        try:
            CERTS[n]()
            print(f"certificate {n}: ok ({time.monotonic() - t0:.2f} s)")
        except CertFail as e:
            print(f"certificate {n} FAILED: {e}")
            failed += 1
        except (OSError, subprocess.SubprocessError) as e:
            print(f"certificate {n} FAILED: {type(e).__name__}: {e}")
            failed += 1
    if REPORT_MODE and REPORT:
        print("\n| certificate | bound | header | header constant | proven | margin (bits) | note |")
        print("|---|---|---|---|---|---|---|")
        for cert, bound, where, hdr, proven, note in REPORT:
            margin = log2(hdr) - log2(proven) if proven > 0 else float("inf")
            print(f"| {cert} | {bound} | {where} | {fmt(hdr)} | {fmt(proven)} | {margin:.3g} | {note} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
