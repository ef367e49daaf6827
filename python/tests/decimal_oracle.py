"""An oracle independent of posenc: the exact values, by Python's decimal module, rounded correctly.

decimal's ln and exp are correctly rounded at the context's precision; sin and cos are Taylor series
after reduction by a 110-digit pi, at 60 significant digits (angles up to 2^21 rad keep more than 50).
Rounding into float64 / float32 / float16 / bfloat16 is decided exactly with fractions.Fraction
among the neighbours of a close candidate, ties to even. Nothing here calls posenc or libm.
"""

import math
import struct
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np

PREC = 60
PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798")


def ctx():
    return localcontext(prec=PREC)


def power(base, exponent):
    """base ** exponent for a positive Decimal base and a Fraction exponent: exp(e ln b)."""
    with ctx():
        return (Decimal(exponent.numerator) / Decimal(exponent.denominator) * Decimal(base).ln()).exp()


def sincos(x):
    """(sin x, cos x) of a Decimal x, |x| < 2^40."""
    with ctx() as c:
        c.prec = PREC + 20
        two_pi = 2 * PI
        k = (x / two_pi).to_integral_value()
        r = x - k * two_pi
        s, cs = Decimal(0), Decimal(0)
        term, n = Decimal(1), 0  # r^n / n!
        eps = Decimal(10) ** -(PREC + 15)
        while True:
            if n % 4 == 0:
                cs += term
            elif n % 4 == 1:
                s += term
            elif n % 4 == 2:
                cs -= term
            else:
                s -= term
            n += 1
            term = term * r / n
            if abs(term) < eps and n > 4:
                break
        return +s, +cs


# ---- correct rounding into a binary format ------------------------------------------------------

_FORMATS = {  # bits of the value's integer view, numpy view type, exponent/fraction widths
    "f32": (np.uint32, np.float32),
    "f16": (np.uint16, np.float16),
}


def _value_of_bits(fmt, bits):
    if fmt == "bf16":
        return Fraction(float(np.array([bits << 16], dtype=np.uint32).view(np.float32)[0]))
    ut, ft = _FORMATS[fmt]
    v = np.array([bits], dtype=ut).view(ft)[0]
    return Fraction(float(v))


def _is_finite_bits(fmt, bits):
    if fmt == "bf16":
        return (bits & 0x7F80) != 0x7F80
    if fmt == "f16":
        return (bits & 0x7C00) != 0x7C00
    return (bits & 0x7F800000) != 0x7F800000


def round_bits(v, fmt):
    """The bits of v (Decimal or Fraction) rounded to nearest, ties to even, in fmt (f32, f16, bf16);
    for f64, the float. Finite results only (callers use values far from overflow)."""
    f = Fraction(v)
    if fmt == "f64":
        return float(Fraction(f))  # Fraction -> float is correctly rounded
    approx = float(f)
    if fmt == "bf16":
        b32 = struct.unpack("<I", struct.pack("<f", np.float32(approx)))[0]
        center = b32 >> 16
    else:
        ut, ft = _FORMATS[fmt]
        center = int(np.array([approx], dtype=ft).view(ut)[0])
    sign = center & (0x8000 if fmt in ("bf16", "f16") else 0x80000000)
    mag = center & ~sign
    best = None
    for m in range(max(mag - 2, 0), mag + 3):
        b = sign | m
        if not _is_finite_bits(fmt, b):
            continue
        d = abs(_value_of_bits(fmt, b) - f)
        if best is None or d < best[0] or (d == best[0] and b % 2 == 0):
            best = (d, b)
    # Zero's other sign is a neighbour too when v is tiny; not needed for these tables.
    return best[1]


def bits_of(array, fmt):
    """The integer bit patterns of a posenc table's entries (or the float64 values themselves)."""
    a = np.asarray(array)
    if fmt == "f64":
        return a.astype(np.float64)
    if fmt == "f32":
        return a.astype(np.float32).view(np.uint32)
    return a.view(np.uint16)


def rounded(v, fmt):
    """round_bits as the comparable value: a float for f64, an int for the others."""
    r = round_bits(v, fmt)
    return r if fmt == "f64" else int(r)


def exact_double(x):
    """A Python float as the exact Decimal it is."""
    return Decimal(x)


def rope_theta(base, j, d):
    """The exact default RoPE frequency base^(-2j/d)."""
    return power(exact_double(base), Fraction(-2 * j, d))


def llama3_inv_freq(base, j, d, factor, low, high, original):
    """Llama-3's scaled frequency (HF _compute_llama3_parameters), exactly."""
    inv = rope_theta(base, j, d)
    with ctx():
        factor, low, high = Decimal(factor), Decimal(low), Decimal(high)
        wavelen = 2 * PI / inv
        low_wavelen = Decimal(original) / low
        high_wavelen = Decimal(original) / high
        if wavelen < high_wavelen:
            return inv
        if wavelen > low_wavelen:
            return inv / factor
        smooth = (Decimal(original) / wavelen - low) / (high - low)
        return (1 - smooth) * inv / factor + smooth * inv


def t5_bucket(rel, num_buckets, max_distance, bidirectional):
    """T5's bucket of rel = key - query, the log term decided in exact integer arithmetic:
    K ln(n/me) / ln(md/me) >= b  <=>  n^K me^b >= md^b me^K."""
    nb = num_buckets // 2 if bidirectional else num_buckets
    offset = nb if (bidirectional and rel > 0) else 0
    n = abs(rel) if bidirectional else max(-rel, 0)
    me = nb // 2
    k = nb - me
    if n < me:
        return offset + n
    if n >= max_distance:
        return offset + nb - 1
    b = max(bb for bb in range(k) if n ** k * me ** bb >= max_distance ** bb * me ** k)
    return offset + me + b


def alibi_slopes(heads, max_bias=8):
    """BLOOM's / the paper's slopes as exact exponents of 2: 2^(-max_bias k / n) for the largest power
    of two n <= heads, then 2^(-max_bias (2i + 1) / (2n)) for the rest; as Decimals."""
    n = 1 << (heads.bit_length() - 1)
    exps = [Fraction(max_bias * (h + 1), n) for h in range(n)]
    exps += [Fraction(max_bias * (2 * i + 1), 2 * n) for i in range(heads - n)]
    return [power(Decimal(2), -e) for e in exps]


def sinusoid(p, k, dim, base=10000):
    """The paper's interleaved encoding PE[p][k]: sin (k even) or cos (k odd) of p base^(-2i/d)."""
    i = k // 2
    with ctx():
        angle = Decimal(p) * power(exact_double(base), Fraction(-2 * i, dim))
    s, c = sincos(angle)
    return s if k % 2 == 0 else c


def kerple_log(p, a, k):
    """KERPLE-log's -p ln(1 + a k) for doubles p, a and an integer k >= 0; 1 + a k is formed with
    20 guard digits (it is exact as a Fraction, but decimal's ln takes a Decimal)."""
    with localcontext(prec=PREC + 20):
        return -Decimal(p) * (Decimal(a) * k + 1).ln()


def _exact_power(k, p):
    """k^p as an exact integer when it is rational, else None: with p = P / 2^e, k^p is rational iff
    k is a perfect 2^e-th power t^(2^e) (then it is t^P), found by e exact square roots."""
    f = Fraction(p)
    t = k
    for _ in range(f.denominator.bit_length() - 1):  # the denominator of a double is a power of two
        r = math.isqrt(t)
        if r * r != t:
            return None
        t = r
    return t ** f.numerator


def kerple_power(a, p, k):
    """KERPLE-power's -a k^p for doubles a, p (0 < p <= 2) and an integer k >= 0: a Fraction when k^p
    is an integer (so that midpoints are seen exactly), else a Decimal exp(p ln k) with guard digits."""
    if k == 0:
        return Fraction(0)
    exact = _exact_power(k, p)
    if exact is not None:
        return -Fraction(a) * exact
    f = Fraction(p)
    with localcontext(prec=PREC + 20):
        return -Decimal(a) * (Decimal(f.numerator) / Decimal(f.denominator) * Decimal(k).ln()).exp()


def sandwich(k, d, heads, h):
    """Sandwich's bias of head h at distance k (NeMo: arange(1, d/2 + 1) exponents 2i/d):
    (sum_{i=1..d/2} cos(k 10000^(-2i/d)) - d/2) / (8 (h + 1) / H), each cos - 1 summed (no d/2 to cancel)."""
    total = Decimal(0)
    for i in range(1, d // 2 + 1):
        with ctx():
            angle = Decimal(k) * power(Decimal(10000), Fraction(-2 * i, d))
        _, c = sincos(angle)
        with localcontext(prec=PREC + 20):
            total += c - 1
    with localcontext(prec=PREC + 20):
        return total * heads / (8 * (h + 1))


__all__ = ["PREC", "PI", "power", "sincos", "round_bits", "bits_of", "rounded", "rope_theta",
           "llama3_inv_freq", "t5_bucket", "alibi_slopes", "sinusoid", "exact_double", "kerple_log", "kerple_power",
           "sandwich", "math"]
