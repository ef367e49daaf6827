#!/usr/bin/env python3
"""Sollya certificates of the polynomial approximation errors of posenc's fast-path kernels.

For each kernel the polynomial's statements, its argument range and the approximation-error figure
its derivation uses are read from the header, never copied here: the statements are translated into
Sollya with the exact values of the C literals, Sollya's supnorm encloses the approximation error
rigorously, and the enclosure's upper end must not exceed the header's figure. So a changed
coefficient, range or figure is checked as it stands in the header. See README.md.

usage: certify.py (--all | --list | KERNEL...) [--header-override NAME=PATH]... [--sollya PATH]
                  [--show-input]
Exit status: 0 all certified, 1 a certificate failed, 2 the header or Sollya could not be read.
"""

import argparse
import math
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
DETAIL = HERE.parents[1] / "include" / "posenc" / "math" / "detail"


@dataclass(frozen=True)
class Text:
    """A value read from a comment: the head comment of a header or the comment above a function.

    The comment's lines are joined into one (so a figure may wrap); the pattern must match exactly
    once and its group 1 is the value, 2^-E for a figure, a sum like "pi/4 + 2^-31" for a range.
    """

    header: str
    where: str  # "head" or a function name
    pattern: str


@dataclass(frozen=True)
class Code:
    """Statements of a function, translated into Sollya assignments c_<name> = <expression>.

    Each of `statements` is a regex matched once in the function's body (it may span several
    statements); `names` maps C operands to Sollya (the polynomial's variable is x); `glue` lists
    code the template's use of the translated values relies on, which must appear verbatim
    (whitespace aside) in the body.
    """

    header: str
    function: str
    statements: tuple
    names: dict
    glue: tuple = ()


@dataclass(frozen=True)
class Check:
    label: str  # the name the template reports the bound under
    quantity: str
    figure: Text


@dataclass(frozen=True)
class Kernel:
    template: str
    arg: str  # the polynomial's argument, as the header names it
    code: Code
    bound: Text  # the polynomial's argument x satisfies |x| <= bound
    checks: tuple


FIG = r"(2\^-\d+(?:\.\d+)?)"  # a figure 2^-E

EXP_SMALL_BOUND = Text("exp_kernel.hpp", "exp_small_eval", r"\|r\| <= (ln2/128 \+ 2\^-\d+(?:\.\d+)?)")
EXP_SMALL_FIGURE = Text("exp_kernel.hpp", "exp_small_eval", r"Approximation \|r \+ q - \(e\^r - 1\)\| < " + FIG)
TRIG_BOUND = Text("trig_kernel.hpp", "head", r"\|z\| <= (2\^-\d+(?: \+ 2\^-\d+)*)")
TRIG_FAST_GLUE = ("const double st = zh * ps + zl * (1.0 + pc);", "const double ct = pc - zl * zh;")
TRIG_FAST_CHECKS = (
    Check("ps", "|ps(z) - (sin(z)/z - 1)|",
          Text("trig_kernel.hpp", "trig_kernel_fast", r"\|ps - \(sin\(zh\)/zh - 1\)\| < " + FIG)),
    Check("pc", "|pc(z) - (cos(z) - 1)|",
          Text("trig_kernel.hpp", "trig_kernel_fast", r"\|pc - \(cos\(zh\) - 1\)\| < " + FIG)),
)

KERNELS = {
    "exp_dd": Kernel(
        "exp_dd.sollya", "r",
        Code("exp_kernel.hpp", "exp_dd_eval", (r"const double a =.*?const math::double_double P =[^;]*;",),
             {"r.hi": "x", "r": "x"}, ("W = dd_add(d, dd_add(P, dd_mul(d, P)));",)),
        Text("exp_kernel.hpp", "exp_dd_eval", r"\|r\| <= [^<]*< " + FIG),
        (Check("P", "|P(r) - (e^r - 1)|",
               Text("exp_kernel.hpp", "exp_dd_eval", r"Taylor remainder r\^7/7! < " + FIG)),),
    ),
    "exp_small": Kernel(
        "expm1.sollya", "r",
        Code("exp_kernel.hpp", "exp_small_eval", (r"const double q =[^;]*;",), {"r": "x"}, ("th * (r + q)",)),
        EXP_SMALL_BOUND,
        (Check("P", "|r + q(r) - (e^r - 1)|", EXP_SMALL_FIGURE),),
    ),
    "exp_float_fast": Kernel(  # exp_small_eval's operations written out: its figure and range
        "expm1.sollya", "r",
        Code("exp_scalar_fast.hpp", "exp_float_fast", (r"const double q =[^;]*;",), {"r": "x"}, ("th * (r + q)",)),
        EXP_SMALL_BOUND,
        (Check("P", "|r + q(r) - (e^r - 1)|", EXP_SMALL_FIGURE),),
    ),
    "exp_double_fast": Kernel(
        "expm1.sollya", "rh",
        Code("exp_scalar_fast.hpp", "exp_double_fast", (r"const double q =[^;]*;",), {"rh": "x"},
             ("const double pl = rl + q;", "const double a1 = dh + rh;")),
        Text("exp_scalar_fast.hpp", "exp_double_fast", r"\|rh\| <= (ln2/8192 \+ 2\^-\d+(?:\.\d+)?)"),
        (Check("P", "|rh + q(rh) - (e^rh - 1)|",
               Text("exp_scalar_fast.hpp", "exp_double_fast", r"approximation \|rh \+ q - \(e\^rh - 1\)\| < " + FIG)),),
    ),
    "log_dd": Kernel(
        "log_dd.sollya", "zh",
        Code("log_kernel.hpp", "log_dd_mant", (r"const double H =.*?const math::double_double M =[^;]*;",),
             {"zh": "x"},
             ("const math::double_double P0 = fast_two_sum(zh, M.hi);",
              "const math::double_double P = fast_two_sum(P0.hi, P0.lo + (M.lo + corr));")),
        Text("log_kernel.hpp", "log_dd_mant", r"\|zh\| <= " + FIG),
        (Check("P", "|zh + M(zh) - log1p(zh)| / |zh|",
               Text("log_kernel.hpp", "log_dd_mant", r"approximation \|zh \+ M - log1p\(zh\)\| < " + FIG + r" \|zh\|")),),
    ),
    "log_small": Kernel(
        "log_small.sollya", "z",
        Code("log_kernel.hpp", "log_small_eval", (r"const double p =[^;]*;",), {"zh": "x"},
             ("two_sum(s1.hi, zh)", "((d.zl - d.zl * zh) + p)")),
        Text("log_kernel.hpp", "head", r"\|z\| <= " + FIG),
        (Check("p", "|p(z) - (log1p(z) - z)| / |p|",
               Text("log_kernel.hpp", "log_small_eval", r"approximation \|p - \(log1p\(zh\) - zh\)\| < " + FIG + r" \|p\|")),),
    ),
    "trig_kernel_fast": Kernel(
        "trig_fast.sollya", "z",
        Code("trig_kernel.hpp", "trig_kernel_fast", (r"const double u = zh \* zh;.*?const double pc =[^;]*;",),
             {"zh": "x"}, TRIG_FAST_GLUE),
        TRIG_BOUND,
        TRIG_FAST_CHECKS,
    ),
    "trig_double_fast": Kernel(  # trig_kernel_fast's operations written out: its figure and range
        "trig_fast.sollya", "z",
        Code("trig_scalar_fast.hpp", "trig_double_fast", (r"const double u = zh \* zh;.*?const double pc =[^;]*;",),
             {"zh": "x"}, TRIG_FAST_GLUE),
        TRIG_BOUND,
        TRIG_FAST_CHECKS,
    ),
    "trig_kernel_dd": Kernel(
        "trig_dd.sollya", "z",
        # u = zh^2 + 2 zh zl as a double-double: u.hi stands for z^2 (u.lo and zl are evaluation
        # errors in the header's derivation, not approximation errors).
        Code("trig_kernel.hpp", "trig_kernel_dd", (r"const double uu =.*?pp\.lo \+=[^;]*;",),
             {"u.hi": "(x^2)", "u.lo": "0"},
             ("math::double_double st = two_prod(zh, pp.hi);", "st.lo += zh * pp.lo + zl * pp.hi;")),
        TRIG_BOUND,
        (Check("ct", "|cth + ctl - (cos(z) - 1)|",
               Text("trig_kernel.hpp", "trig_kernel_dd", r"\|cth \+ ctl - \(cos\(z\) - 1\)\| < " + FIG)),
         Check("P", "|pp(z) - (sin(z)/z - 1)|",
               Text("trig_kernel.hpp", "trig_kernel_dd", r"\|pp - \(sin\(z\)/z - 1\)\| < " + FIG))),
    ),
    "trig_float_fast": Kernel(
        "trig_float.sollya", "w",
        Code("trig_scalar_fast.hpp", "trig_float_fast",
             (r"const double u = w \* w;", r"const double q =[^;]*;", r"const double p =[^;]*;"), {"w": "x"},
             ("y = w + (w * u) * q;", "y = 1.0 + u * p;")),
        Text("trig_scalar_fast.hpp", "trig_float_fast", r"\|w\| <= (pi/4 \+ 2\^-\d+)"),
        (Check("sin", "|w + w^3 q(w^2) - sin(w)| / |w|",
               Text("trig_scalar_fast.hpp", "trig_float_fast", r"truncation <= \|w\|[^<]*< " + FIG + r" \|w\|")),
         Check("cos", "|1 + w^2 p(w^2) - cos(w)|",
               Text("trig_scalar_fast.hpp", "trig_float_fast", r"P to the [^:]*: truncation <=[^<]*< " + FIG))),
    ),
}

# The double-double helpers (double_double.hpp) as the exact values they represent; the runner
# defines them in Sollya (common.sollya), other calls are refused.
HELPERS = {"two_sum", "fast_two_sum", "two_prod", "dd_add", "dd_mul", "log_horner_step"}


class Unreadable(Exception):
    """The header does not have the shape this runner reads (or Sollya failed): exit status 2."""


class Header:
    def __init__(self, name, path):
        self.name = name
        self.lines = path.read_text().split("\n")

    def _definition(self, function):
        for i, line in enumerate(self.lines):
            if re.match(r"constexpr\b.*\b" + function + r"\(", line):
                return i
        raise Unreadable(f"{self.name}: no definition of {function}")

    def comment(self, where):
        """(joined text, line number of each character) of a comment block."""
        if where == "head":
            rows = range(0, next(i for i, l in enumerate(self.lines) if not l.startswith("//")))
        else:
            end = self._definition(where)
            start = end
            while start > 0 and self.lines[start - 1].lstrip().startswith("//"):
                start -= 1
            rows = range(start, end)
        text, where_is = "", []
        for i in rows:
            part = self.lines[i].lstrip()[2:].strip() + " "
            text += part
            where_is += [i + 1] * len(part)
        return re.sub(r"\s", " ", text), where_is

    def find(self, spec):
        """(value, line) of a Text."""
        text, where_is = self.comment(spec.where)
        matches = list(re.finditer(spec.pattern, text))
        if len(matches) != 1:
            raise Unreadable(f"{self.name}: '{spec.pattern}' matches {len(matches)} times in the comment of "
                             f"{spec.where}, not once")
        return matches[0].group(1), where_is[matches[0].start()]

    def body(self, function):
        """(text, first line number) of a function's body (up to the first line '}')."""
        start = self._definition(function)
        end = self.lines.index("}", start)
        return "\n".join(self.lines[start:end + 1]), start + 1


def sollya_number(literal):
    """The exact value of a C double literal, in C99 hex-float syntax (which Sollya reads exactly)."""
    value = float.fromhex(literal) if literal.lower().startswith("0x") else float(literal)
    return value.hex()


TOKEN = re.compile(r"\s*(?:(?P<num>0[xX][0-9a-fA-F.]+[pP][+-]?\d+|\d+\.\d*(?:[eE][+-]?\d+)?|\d+)"
                   r"|(?P<name>[A-Za-z_]\w*(?:\.(?:hi|lo))?)|(?P<op>[-+*/(),]))")


def translate_expression(expr, names, locals_):
    out, pos = [], 0
    expr = re.sub(r"\{([^{}]*),([^{}]*)\}", r"(\1 + \2)", expr)  # a double-double {hi, lo}: hi + lo
    while pos < len(expr.rstrip()):
        m = TOKEN.match(expr, pos)
        if not m:
            raise Unreadable(f"cannot translate '{expr[pos:].strip()}'")
        pos = m.end()
        if m["num"]:
            out.append(sollya_number(m["num"]))
        elif m["name"]:
            name = m["name"]
            if name in names:
                out.append(names[name])
            elif name in locals_:
                out.append("c_" + name)
            elif name in HELPERS:
                out.append(name)
            else:
                raise Unreadable(f"cannot translate '{name}' in '{expr.strip()}'")
        else:
            out.append(m["op"])
    return " ".join(out)


def split_top(text, sep):
    """Split at separators outside parentheses and braces."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "({"
        depth -= ch in ")}"
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return parts + [cur]


def translate(code_text, names, locals_):
    """Sollya assignments for C statements: declarations, assignments and `v.lo += e` (which adds
    e to the double-double v's value). locals_: the names assigned so far (updated)."""
    code_text = re.sub(r"//[^\n]*", "", code_text)
    out = []
    for stmt in split_top(code_text, ";"):
        stmt = " ".join(stmt.split())
        if not stmt:
            continue
        decl = re.match(r"(?:const )?(?:double|math::double_double) (.*)$", stmt)
        assignments = split_top(decl[1], ",") if decl else [stmt]
        for a in assignments:
            m = re.match(r"\s*(\w+)(\.lo \+=| =) (.*)$", a)
            if not m:
                raise Unreadable(f"cannot translate the statement '{stmt}'")
            name, op, expr = m.groups()
            value = translate_expression(expr, names, locals_)
            if op != " =":
                value = f"c_{name} + ({value})"
            locals_.add(name)
            out.append(f"c_{name} = {value};")
    return out


def sollya_range(text):
    """A range bound such as 'pi/4 + 2^-31' or 'ln2/128 + 2^-45' as a Sollya expression."""
    expr = re.sub(r"2\^(-[\d.]+)", r"2^(\1)", text).replace("ln2", "log(2)")
    if not re.fullmatch(r"(?:pi|log\(2\)|[\d.+\-*/^() ])+", expr):
        raise Unreadable(f"cannot read the range bound '{text}'")
    return expr


def exponent(figure):
    """E of a figure 2^E, exactly."""
    return Fraction(re.fullmatch(r"2\^(-[\d.]+)", figure)[1])


def below(bound, exponent):
    """bound <= 2^exponent, exactly (exponent = p/q)."""
    p, q = exponent.numerator, exponent.denominator
    return bound**q * 2**-p <= 1


def log2(value):
    return math.log2(value.numerator) - math.log2(value.denominator)


def read_dyadic(text):
    m = re.fullmatch(r"(-?\d+)(?:b(-?\d+))?", text)
    if not m:
        return None
    return Fraction(int(m[1])) * Fraction(2) ** int(m[2] or 0)


def certify(name, kernel, header, sollya, show_input):
    """Runs one kernel's certificate, prints a line per check; returns whether all passed.
    header(file): the Header of that name."""
    code = kernel.code
    src = header(code.header)
    body, first_line = src.body(code.function)
    flat = "".join(body.split())
    for g in code.glue:
        if "".join(g.split()) not in flat:
            raise Unreadable(f"{code.header}: {code.function} no longer contains '{g}', which the "
                             f"certificate relies on: update proofs/sollya/certify.py and {kernel.template}")
    statements, code_line, locals_ = [], None, set()
    for pattern in code.statements:
        found = list(re.finditer(pattern, body, re.S))
        if len(found) != 1:
            raise Unreadable(f"{code.header}: '{pattern}' matches {len(found)} times in {code.function}, not once")
        code_line = code_line or first_line + body.count("\n", 0, found[0].start())
        statements += translate(found[0].group(0), code.names, locals_)

    bound_text, bound_line = header(kernel.bound.header).find(kernel.bound)
    program = "\n".join([
        "prec = 300!;",
        "acc = 2^(-12);  // supnorm's enclosures are within 2^-12 (relative) of the true norm",
        (HERE / "common.sollya").read_text(),
        f"B = round(sup([{sollya_range(bound_text)}; {sollya_range(bound_text)}]), 64, RU);",
        *statements,
        (HERE / kernel.template).read_text(),
        "quit;",
    ])
    if show_input:
        print(program)
    run = subprocess.run([sollya, "--warnonstderr"], input=program, capture_output=True, text=True, timeout=300)
    # Any warning (a rounded constant, a syntax error, a failed supnorm) voids the certificate.
    warnings = [l for l in run.stderr.splitlines() if l and not l.startswith("Information: the free variable")]
    if warnings or run.returncode:
        raise Unreadable(f"sollya: {(warnings or ['exit status ' + str(run.returncode)])[0]}")
    results = dict(l.split()[1:3] for l in run.stdout.splitlines() if l.startswith("CERT "))
    passed = True
    for check in kernel.checks:
        figure, figure_line = header(check.figure.header).find(check.figure)
        certified = read_dyadic(results.get(check.label, ""))
        where = f"{code.header}:{code_line}"
        if certified is None:
            raise Unreadable(f"{check.label}: Sollya could not bound {check.quantity} ({where})")
        ok = below(certified, exponent(figure))
        bits = math.ceil(log2(certified) * 100) / 100  # rounded up, as the bound it shows
        margin = math.floor((exponent(figure) - Fraction(log2(certified))) * 100) / 100
        line = (f"{name} {check.label} ({where}): {check.quantity} <= 2^{bits:.2f} certified for "
                f"|{kernel.arg}| <= {bound_text} ({kernel.bound.header}:{bound_line}); the header's figure is "
                f"{figure} ({check.figure.header}:{figure_line}): margin {margin:.2f} bits")
        print(("ok " if ok else "FAILED ") + line, file=sys.stdout if ok else sys.stderr, flush=True)
        passed &= ok
    return passed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kernels", nargs="*", help="kernels to certify (see --list)")
    parser.add_argument("--all", action="store_true", help="certify every kernel")
    parser.add_argument("--list", action="store_true", help="print the kernels' names")
    parser.add_argument("--header-override", action="append", default=[], metavar="NAME=PATH",
                        help="read the header NAME (e.g. exp_kernel.hpp) from PATH instead")
    parser.add_argument("--sollya", default=shutil.which("sollya"), help="the sollya program")
    parser.add_argument("--show-input", action="store_true", help="print the Sollya programs")
    args = parser.parse_args()
    if args.list:
        print("\n".join(KERNELS))
        return 0
    names = list(KERNELS) if args.all else args.kernels
    unknown = [n for n in names if n not in KERNELS]
    if not names or unknown:
        parser.error(f"unknown kernel {unknown[0]}" if unknown else "name kernels or give --all")
    if not args.sollya or not Path(args.sollya).is_file():
        print("sollya not installed: bash tools/bootstrap-deps.sh installs it", file=sys.stderr)
        return 2
    paths = {p.name: p for p in DETAIL.glob("*.hpp")}
    for o in args.header_override:
        file, _, path = o.partition("=")
        if file not in paths or not path:
            parser.error(f"--header-override {o}: expected NAME=PATH with NAME a header of {DETAIL}")
        paths[file] = Path(path)
    headers = {}

    def header(file):
        if file not in headers:
            headers[file] = Header(file, paths[file])
        return headers[file]

    status = 0
    for name in names:
        try:
            status = max(status, 0 if certify(name, KERNELS[name], header, args.sollya, args.show_input) else 1)
        except (Unreadable, OSError, subprocess.TimeoutExpired) as e:
            print(f"error: {name}: {e}", file=sys.stderr, flush=True)
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main())
