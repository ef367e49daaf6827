"""Shared fixtures and checks of the posenc module's tests.

Each check returns the list of entries where a table disagrees with values computed without posenc
(decimal_oracle.py, or numpy float64 where stated); the tests assert that list is empty for posenc's
tables and NOT empty for a perturbed copy, so that every check is shown able to fail.
"""

import os
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

import decimal_oracle as oracle

SOURCE_DIR = Path(os.environ.get("POSENC_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CONFIGS = SOURCE_DIR / "examples" / "configs"


@pytest.fixture
def configs():
    return CONFIGS


def perturbed(table, fmt, index=(0, 0)):
    """A copy of table with the entry at index moved by one unit in the last place."""
    t = np.array(table, copy=True)
    if fmt == "f64":
        t[index] = np.nextafter(t[index], np.inf)
    elif fmt == "f32":
        t[index] = np.nextafter(t[index], np.float32(np.inf), dtype=np.float32)
    else:
        v = t.view(np.uint16)
        v[index] = v[index] + 1 if v[index] & 0x7FFF else 1
    return t


def rope_mismatches(cos, sin, positions, thetas, fmt, layout="half_split", factor=None):
    """Entries of (cos, sin) that are not RN_fmt(cos / sin(m theta_j)) (times factor, a Decimal, if
    given), theta_j given exactly (Decimals); [] when all agree bit for bit."""
    bad = []
    cb, sb = oracle.bits_of(cos, fmt), oracle.bits_of(sin, fmt)
    d = 2 * len(thetas)
    for r, m in enumerate(positions):
        for j, theta in enumerate(thetas):
            s, c = oracle.sincos(Decimal(int(m)) * theta)
            if factor is not None:
                s, c = s * factor, c * factor
            want_c, want_s = oracle.rounded(c, fmt), oracle.rounded(s, fmt)
            cols = (j, j + d // 2) if layout == "half_split" else (2 * j, 2 * j + 1)
            for k in cols:
                got_c, got_s = cb[r, k], sb[r, k]
                if fmt != "f64":
                    got_c, got_s = int(got_c), int(got_s)
                if got_c != want_c or got_s != want_s:
                    bad.append((int(m), j, k))
    return bad


def float64_guard(angle, reference):
    """A bound on the error of numpy's float64 cos/sin of a float64 angle (itself a product of a
    rounded frequency and a position): |angle| 2^-52 from the angle, |value| 2^-52 from libm, doubled."""
    return 2.0 ** -50 * (np.abs(angle) + np.abs(reference))


def float64_mismatches(table, reference, fmt, guard):
    """Entries of a float32 / float16 table that differ from numpy's float64 `reference` rounded into
    fmt, ignoring those whose reference lies within `guard` (absolute, per entry or one number) of a
    rounding midpoint, where the float64 computation's own error could decide the rounding.
    Returns (mismatches, skipped)."""
    ref = np.asarray(reference, dtype=np.float64)
    ft = np.float32 if fmt == "f32" else np.float16
    got = np.asarray(table).astype(np.float64)
    lo = np.nextafter(got.astype(ft), ft(-np.inf)).astype(np.float64)
    hi = np.nextafter(got.astype(ft), ft(np.inf)).astype(np.float64)
    mid_lo, mid_hi = (got + lo) / 2, (got + hi) / 2  # exact in float64
    near = (np.abs(ref - mid_lo) <= guard) | (np.abs(ref - mid_hi) <= guard)
    inside = (ref > mid_lo) & (ref < mid_hi)
    wrong = ~inside & ~near
    return np.argwhere(wrong).tolist(), int(near.sum())
