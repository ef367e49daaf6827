"""The derived tolerance of a RoPE kernel, per element (docs/testing-kernels.md, "The bound").

A kernel is described by the format of its input and result (dtype D), of its cos/sin entries as it
multiplies them (table T), of its products and sums (compute C), and by whether its entries are
correctly rounded (k = 1/2) or faithful (k = 1). For y_a = a c - b s:

    e_c = k ulp_T(|c|), e_s = k ulp_T(|s|)                      the entries' errors
    h_1 = ulp_C(|a|(|c| + e_c)) / 2, h_2 = ulp_C(|b|(|s| + e_s)) / 2     the products' roundings
    M = |a|(|c| + e_c) + |b|(|s| + e_s) + h_1 + h_2,  h_3 = ulp_C(M) / 2   the sum's rounding
    h_4 = ulp_D(M + h_3) / 2 when C is not D, else 0            the result's conversion
    B_a = |a| e_c + |b| e_s + h_1 + h_2 + h_3 + h_4

A kernel that computes its angle m theta in a format A (``angle_dtype``) has entries of a wrong angle:
e_c grows by af delta, delta = m ulp_A(theta) + ulp_A(m theta)/2 (theta faithful in A, the product
rounded once; cos and sin are 1-Lipschitz), and the entry's own rounding is taken at |c| + af delta.
And y_b = a s + b c the same with c and s exchanged. Everything is computed in float64 and then
multiplied by 1 + 2^-40, which covers the relative error of these few float64 operations.
"""

import numpy as np

from ._formats import ulp

#: the slack that covers the float64 evaluation of a bound
SLACK = 1.0 + 2.0 ** -40


def up(v):
    """v widened past its float64 evaluation error (a few ulps): an upper bound of the exact magnitude.

    ulp_F jumps at powers of two, so a magnitude computed a hair below 2^k would take half the ulp
    the exact one has, and no final factor near 1 repairs that; each magnitude whose ulp is taken
    is widened first.
    """
    return np.asarray(v, dtype=np.float64) * (1.0 + 2.0 ** -50)

#: the reference's own error per unit of the magnitudes of its products: its inputs are correctly
#: rounded float64 values (relative error 2^-53 each) combined in long double (at least 53 bits);
#: 2^-51 covers both (docs/testing-kernels.md, "The reference's own error").
REFERENCE_RELATIVE = 2.0 ** -51


class KernelModel:
    """The arithmetic a kernel is tested against: formats D, T, C and the entries' rounding."""

    __slots__ = ("dtype", "table", "compute", "k", "angle")

    def __init__(self, dtype, table, compute, table_rounding, angle=None):
        if table_rounding not in ("correct", "faithful"):
            raise ValueError(f"table_rounding must be 'correct' or 'faithful', got {table_rounding!r}")
        self.dtype, self.table, self.compute, self.angle = dtype, table, compute, angle
        self.k = 0.5 if table_rounding == "correct" else 1.0

    def describe(self):
        from ._formats import NAMES
        rounding = "correctly rounded" if self.k == 0.5 else "faithful"
        of = "the exact angle" if self.angle is None else f"a {NAMES[self.angle]} angle"
        return (f"dtype {NAMES[self.dtype]}, {rounding} {NAMES[self.table]} cos/sin of {of}, "
                f"{NAMES[self.compute]} products and sums")


def angle_errors(model, positions, theta):
    """delta = m ulp_A(theta) + ulp_A(m (theta + ulp_A(theta))) / 2: the error of an angle computed as
    m times a faithful theta~ in format A, rounded once to A (0 when the model's angle is exact).
    positions [rows], theta [pairs] -> [rows, pairs]."""
    m = np.abs(np.asarray(positions, dtype=np.float64))[:, None]
    theta = np.abs(np.asarray(theta, dtype=np.float64))[None, :]
    if model.angle is None:
        return np.zeros((m.shape[0], theta.shape[1]))
    u = ulp(model.angle, up(theta))
    return (m * u + ulp(model.angle, up(m * (theta + u))) / 2) * SLACK


def _one_element(model, x1, t1, x2, t2, angle_term):
    """The bound of x1 t1 -/+ x2 t2 (the sign does not matter), t1, t2 upper bounds of |c|, |s|;
    angle_term bounds what the angle's error moves an entry (af delta: cos and sin are 1-Lipschitz)."""
    e1 = model.k * ulp(model.table, up(t1 + angle_term)) + angle_term
    e2 = model.k * ulp(model.table, up(t2 + angle_term)) + angle_term
    m1 = up(x1 * (t1 + e1))
    m2 = up(x2 * (t2 + e2))
    h1 = ulp(model.compute, m1) / 2
    h2 = ulp(model.compute, m2) / 2
    m = up(m1 + m2 + h1 + h2)
    h3 = ulp(model.compute, m) / 2
    h4 = ulp(model.dtype, up(m + h3)) / 2 if model.compute != model.dtype else 0.0
    return (x1 * e1 + x2 * e2 + h1 + h2 + h3 + h4) * SLACK


def rotation_bounds(model, a, b, c, s, angle_error=0.0):
    """(B_a, B_b): bounds of |y~ - y| for y_a = a c - b s and y_b = a s + b c, elementwise.

    a, b: the pair's input values (float64 arrays of the same shape); c, s: the entries (float64,
    af folded in), taken as upper bounds of the exact |c|, |s| after widening by their own half ulp;
    angle_error: the kernel's angle error delta (angle_errors), broadcast like c.
    """
    a, b = np.abs(a), np.abs(b)
    c = np.abs(c) * (1 + 2.0 ** -52)
    s = np.abs(s) * (1 + 2.0 ** -52)
    af = np.sqrt(c * c + s * s) * (1 + 2.0 ** -50)
    angle_term = af * angle_error
    return _one_element(model, a, c, b, s, angle_term), _one_element(model, a, s, b, c, angle_term)


def reference_errors(a, b, c, s):
    """(R_a, R_b): the float64 / long double reference's own error bound, elementwise."""
    a, b, c, s = np.abs(a), np.abs(b), np.abs(c), np.abs(s)
    r_a = REFERENCE_RELATIVE * (a * c + b * s)
    r_b = REFERENCE_RELATIVE * (a * s + b * c)
    return r_a, r_b
