"""The four floating-point formats of a kernel: units in the last place and rounding, in numpy.

Every function here takes posenc's short format names (``f64``, ``f32``, ``bf16``, ``f16``) and works
on float64 arrays holding values of the format (bfloat16 and float16 values are exact in float64).
"""

import numpy as np

from .._dtypes import bfloat16_to_float32, dtype_code, float32_to_bfloat16_bits

#: significand bits p and least normal exponent e_min of each format
FORMATS = {
    "f64": (53, -1022),
    "f32": (24, -126),
    "bf16": (8, -126),
    "f16": (11, -14),
}

NAMES = {"f64": "float64", "f32": "float32", "bf16": "bfloat16", "f16": "float16"}


def code(dtype):
    """posenc's short name of a dtype in any spelling (``"float32"``, ``np.float32``, ``torch.bfloat16``)."""
    return dtype_code(dtype)


def ulp(fmt, v):
    """ulp_F(|v|) = 2^(max(floor(log2 |v|), e_min) - p + 1), and 2^(e_min - p + 1) at 0.

    Nondecreasing in |v|; rounding |v| to nearest in F errs by at most half of it (subnormals too).
    """
    p, emin = FORMATS[fmt]
    v = np.abs(np.asarray(v, dtype=np.float64))
    _, e = np.frexp(v)  # v = m 2^e, m in [0.5, 1): floor(log2 v) = e - 1
    e = np.where(v > 0, np.maximum(e - 1, emin), emin)
    return np.ldexp(1.0, e - p + 1)


def round_to(fmt, v):
    """v (float64) rounded once to nearest, ties to even, into the format; returned as float64.

    bfloat16 rounds the float64 value directly (not through float32, which would round twice).
    """
    v = np.asarray(v, dtype=np.float64)
    if fmt == "f64":
        return v.copy()
    if fmt == "f32":
        return v.astype(np.float32).astype(np.float64)
    if fmt == "f16":
        return v.astype(np.float16).astype(np.float64)
    # bfloat16: round the float64 significand to 8 bits (ties to even) at the value's own binade,
    # then clamp to bfloat16's range (e_min -126, largest 0x1.fep+127).
    p, emin = FORMATS["bf16"]
    q = ulp("bf16", v)
    r = np.round(v / q) * q  # v / q is exact (a power-of-two scaling); np.round is ties-to-even
    # Rounding up to the next binade keeps the value representable (its ulp doubles, r is a
    # multiple of the new ulp), so no second step is needed.
    big = np.ldexp(1.0 - 2.0 ** -p, 128)
    return np.where(np.abs(r) > big, np.copysign(np.inf, v), r)


def to_numpy_dtype(fmt):
    """The numpy dtype that holds the format's values (bfloat16: its uint16 bit patterns)."""
    return {"f64": np.float64, "f32": np.float32, "f16": np.float16, "bf16": np.uint16}[fmt]


def encode(fmt, v):
    """float64 values of the format -> the numpy array a kernel receives (bfloat16: uint16 bits)."""
    v = np.asarray(v, dtype=np.float64)
    if fmt == "bf16":  # exact: every bfloat16 value is a float32, and rounds to itself
        return float32_to_bfloat16_bits(v.astype(np.float32))
    return v.astype(to_numpy_dtype(fmt))


def decode(fmt, a):
    """The numpy array a kernel returned -> float64 values (bfloat16: from uint16 bits)."""
    a = np.asarray(a)
    if fmt == "bf16":
        if a.dtype == np.uint16 or a.dtype.name == "bfloat16":  # bits, or ml_dtypes.bfloat16
            return bfloat16_to_float32(a).astype(np.float64)
        raise TypeError(f"a bfloat16 kernel must return uint16 bit patterns or ml_dtypes.bfloat16, got {a.dtype}")
    return a.astype(np.float64)


def ulps_of(fmt, err, at):
    """err measured in units in the last place of the format at magnitude |at|."""
    return np.asarray(err, dtype=np.float64) / ulp(fmt, at)
