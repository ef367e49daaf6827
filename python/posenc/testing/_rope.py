"""check_rope_apply and check_rope_layouts: a user's RoPE kernel against the exact rotation.

Each case is one call of the kernel on ``x`` of shape ``[tokens, heads, head_dim]`` at ``positions``
(``[tokens]``). The last four tokens of every call are a quadruple ``(q at m, k at n, q at m + t,
k at n + t)``, so the relative-position law is checked inside one call (dynamic NTK and LongRoPE
read the call's largest position: two calls could legitimately use different frequencies). The
properties, in the order they are checked (docs/testing-kernels.md):

1. pass-through: the elements past the rotary dim are the input's values;
2. norm: each head's rotary part keeps its norm, times the attention factor;
3. relative position: the quadruple's two scores per head agree (they depend on n - m only;
   with reference="exact" only: a framework's float32 angles are not linear in the position);
4. inverse: the exact inverse rotation of the output gives back af^2 x (the folded table's
   rotation is af R, whose transpose times itself is af^2);
5. rotation: each element is the exact rotated value.

Each with the bound that follows from the kernel model (_bounds.py); a failure names the property,
the token, position, head, pair and element, the error and the bound in ulps of the dtype, and the
seed that replays the run. Hypothesis shrinks a failure to a small case before it is reported.
"""

import math
import random

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from .. import rope_config, rope_inv_freq, rope_table
from . import strategies as ps
from ._bounds import REFERENCE_RELATIVE, KernelModel, angle_errors, rotation_bounds
from ._formats import NAMES, code, decode, encode, ulp

_U_LD = float(np.finfo(np.longdouble).eps) / 2  # long double's unit roundoff (2^-64 on x86-64)
_REFERENCES = ("exact", "hf_float32", "ggml_float32")
_LAYOUTS = {"half_split": "half_split", "half-split": "half_split", "interleaved": "interleaved"}


class RopeCheckReport:
    """What a passing check saw: cases run, and the element that came closest to its bound."""

    def __init__(self, cases, worst_ratio, worst_error_ulps, worst_bound_ulps, seed, description):
        self.cases = cases
        self.worst_ratio = worst_ratio  # max over elements of |error| / bound (rotation property)
        self.worst_error_ulps = worst_error_ulps  # that element's error, in ulps of the dtype
        self.worst_bound_ulps = worst_bound_ulps  # and its bound
        self.seed = seed
        self.description = description

    def __repr__(self):
        return (f"RopeCheckReport(cases={self.cases}, worst_ratio={self.worst_ratio:.3f}, "
                f"worst_error_ulps={self.worst_error_ulps:.3f}, worst_bound_ulps={self.worst_bound_ulps:.3f}, "
                f"seed={self.seed})")

    def __getitem__(self, key):  # report["worst_ratio"], as the verify reports are dicts
        return getattr(self, key)


class _Case:
    """One kernel call's inputs: positions [T + 4] and x values (float64) [T + 4, heads, head_dim]."""

    __slots__ = ("positions", "x", "shift")

    def __init__(self, positions, x, shift):
        self.positions, self.x, self.shift = positions, x, shift

    def __repr__(self):
        t, h, d = self.x.shape
        return f"case(tokens={t}, heads={h}, head_dim={d}, positions={self.positions.tolist()}, shift={self.shift})"


class _Setup:
    """Everything a check needs that does not change between cases."""

    def __init__(self, config, overrides, dtype, layout, reference, table_dtype, compute_dtype, table_rounding,
                 framework, kernel_name, angle_dtype=None):
        self.config, self.overrides = config, overrides
        self.cfg = rope_config(config, **overrides)
        self.fmt = code(dtype)
        self.layout = _LAYOUTS.get(layout)
        if self.layout is None:
            raise ValueError(f"layout must be 'half_split' or 'interleaved', got {layout!r}")
        if reference not in _REFERENCES:
            raise ValueError(f"reference must be one of {', '.join(_REFERENCES)}, got {reference!r}")
        if framework not in ("numpy", "torch"):
            raise ValueError(f"framework must be 'numpy' or 'torch', got {framework!r}")
        self.reference, self.framework = reference, framework
        self.model = KernelModel(self.fmt, code(table_dtype) if table_dtype is not None else self.fmt,
                                 code(compute_dtype) if compute_dtype is not None else self.fmt, table_rounding,
                                 code(angle_dtype) if angle_dtype is not None else None)
        self.head_dim = int(self.cfg["head_dim"])
        self.rotary_dim = int(self.cfg["effective_rotary_dim"])
        half = self.rotary_dim // 2
        j = np.arange(half)
        self.col_a, self.col_b = (j, j + half) if self.layout == "half_split" else (2 * j, 2 * j + 1)
        self.pair_of = np.empty(self.rotary_dim, dtype=np.int64)
        self.pair_of[self.col_a] = j
        self.pair_of[self.col_b] = j
        self.kernel_name = kernel_name

    def describe(self):
        c = self.cfg
        return (f"kernel {self.kernel_name}: {self.model.describe()}; layout {self.layout}; reference "
                f"{self.reference}; config rope_type {c['rope_type']}, head_dim {self.head_dim}, rotary_dim "
                f"{self.rotary_dim}, rope_theta {c['rope_theta']:g}")

    def tables(self, positions):
        """(c, s): [rows, pairs] float64, the reference's af cos and af sin at the positions."""
        pos = np.asarray(positions, dtype=np.int64)
        if self.reference == "exact":
            cos, sin = rope_table(self.config, pos, "float64", fold_attention=True, **self.overrides)
        else:
            cos, sin = rope_table(self.config, pos, "float32", fold_attention=True, policy=self.reference,
                                  **self.overrides)
        half = self.rotary_dim // 2
        return np.asarray(cos[:, :half], dtype=np.float64), np.asarray(sin[:, :half], dtype=np.float64)

    def angle_error(self, positions):
        """[rows, 1, pairs]: the kernel's angle error bound (0 unless angle_dtype is given)."""
        if self.model.angle is None:
            return 0.0
        pos = np.asarray(positions, dtype=np.int64)
        theta, _ = rope_inv_freq(self.config, "float64", **{"seq_len": int(pos.max()) + 1, **self.overrides})
        return angle_errors(self.model, pos, theta)[:, None, :]


def _call(fn, setup, case):
    """Runs the kernel on the case; its output as float64 values, after checking shape and dtype."""
    fmt = setup.fmt
    positions = np.asarray(case.positions, dtype=np.int64)
    if setup.framework == "torch":
        import torch  # only when asked for
        tdtype = {"f64": torch.float64, "f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}[fmt]
        x = torch.from_numpy(case.x.astype(np.float32 if fmt == "bf16" else encode(fmt, case.x).dtype)).to(tdtype)
        out = fn(x, torch.from_numpy(positions))
        if not isinstance(out, torch.Tensor):
            raise AssertionError(f"{setup.kernel_name} returned {type(out).__name__}, expected a torch.Tensor")
        if out.dtype != tdtype:
            raise AssertionError(f"{setup.kernel_name} returned dtype {out.dtype}, expected {tdtype}")
        got = out.detach().to("cpu").to(torch.float64).numpy()
    else:
        out = fn(encode(fmt, case.x), positions)
        out = np.asarray(out)
        want = encode(fmt, case.x[:1, :1, :1]).dtype
        if out.dtype != want and not (fmt == "bf16" and out.dtype.name == "bfloat16"):
            raise AssertionError(f"{setup.kernel_name} returned dtype {out.dtype}, expected {np.dtype(want).name}"
                                 + (" (bfloat16 as uint16 bit patterns)" if fmt == "bf16" else ""))
        got = decode(fmt, out)
    if got.shape != case.x.shape:
        raise AssertionError(f"{setup.kernel_name} returned shape {tuple(got.shape)}, expected {case.x.shape}")
    return got


def _hex(v):
    return float(v).hex()


class _Violation:
    def __init__(self, prop, ratio, text):
        self.prop, self.ratio, self.text = prop, ratio, text


def _element_text(setup, case, token, head, element, got, want, err, bound, scale):
    """The sentence of one element's failure. Errors are counted in ulps of the dtype at `scale`, the
    magnitude of the pair (af sqrt(a^2 + b^2)) or of the values shown if larger: an element's own
    value can cancel to near 0, where its ulp says nothing about the kernel's error."""
    pair = int(setup.pair_of[element]) if element < setup.rotary_dim else None
    scale = max(float(scale), abs(float(want)), abs(float(got)) if np.isfinite(got) else 0.0)
    u = float(ulp(setup.fmt, scale)) if np.isfinite(scale) else math.inf
    err, bound = float(err), float(bound)
    where = (f"position {int(case.positions[token])} (token {token} of {len(case.positions)}), head {head}, "
             + (f"pair {pair}, " if pair is not None else "") + f"element {element}")
    with np.errstate(over="ignore", invalid="ignore"):
        return (f"{where}: got {_hex(got)}, expected {_hex(want)}; error {err / u:.4g} ulp of "
                f"{NAMES[setup.fmt]}, the derived bound {bound / u:.4g} ulp (ulps at magnitude {scale:.6g})")


def _evaluate(setup, case, got):
    """(violation or None, worst rotation ratio, its error ulps, its bound ulps) for one call."""
    x = case.x
    d = setup.rotary_dim
    # 1. pass-through
    if setup.head_dim > d:
        tail_got, tail_x = got[..., d:], x[..., d:]
        bad = ~(tail_got == tail_x)
        if bad.any():
            t, h, e = np.argwhere(bad)[0]
            e = int(e) + d
            return _Violation("pass-through", math.inf, _element_text(
                setup, case, int(t), int(h), e, got[t, h, e], x[t, h, e], abs(got[t, h, e] - x[t, h, e]), 0.0,
                abs(x[t, h, e])) + " (elements past the rotary dim must be the input's)"), 0.0, 0.0, 0.0
    c, s = setup.tables(case.positions)  # [T, pairs]
    c3, s3 = c[:, None, :], s[:, None, :]
    a, b = x[..., setup.col_a], x[..., setup.col_b]  # [T, H, pairs]
    ga, gb = got[..., setup.col_a], got[..., setup.col_b]
    ba, bb = rotation_bounds(setup.model, a, b, c3, s3, setup.angle_error(case.positions))
    ld = np.longdouble
    ya = ld(a) * ld(c3) - ld(b) * ld(s3)
    yb = ld(a) * ld(s3) + ld(b) * ld(c3)
    size = np.sqrt((c3 * c3 + s3 * s3) * (a * a + b * b))  # the pair's rotated magnitude, af |(a, b)|
    for gv, yv, cols in ((ga, ya, setup.col_a), (gb, yb, setup.col_b)):
        if not np.all(np.isfinite(gv)):
            t, h, j = np.argwhere(~np.isfinite(gv))[0]
            return _Violation("rotation", math.inf, _element_text(
                setup, case, int(t), int(h), int(cols[j]), gv[t, h, j], float(yv[t, h, j]), math.inf, 0.0,
                size[t, h, j]) + " (not finite)"), 0.0, 0.0, 0.0
    ra = REFERENCE_RELATIVE * (np.abs(a * c3) + np.abs(b * s3))
    rb = REFERENCE_RELATIVE * (np.abs(a * s3) + np.abs(b * c3))
    ea = np.abs(ld(ga) - ya).astype(np.float64)
    eb = np.abs(ld(gb) - yb).astype(np.float64)
    ta, tb = ba + ra, bb + rb  # tolerance of the comparison with the reference

    # 2. norm, per token and head: ||y|| = sqrt(sum_j (c^2 + s^2)(a^2 + b^2)) exactly
    norm_exact = np.sqrt(np.sum((ld(c3) ** 2 + ld(s3) ** 2) * (ld(a) ** 2 + ld(b) ** 2), axis=-1)).astype(np.float64)
    norm_got = np.sqrt(np.sum(ld(ga) ** 2 + ld(gb) ** 2, axis=-1)).astype(np.float64)
    norm_tol = np.sqrt(np.sum(ba ** 2 + bb ** 2, axis=-1)) * (1 + 2.0 ** -40) + 2.0 ** -48 * (norm_exact + norm_got)
    norm_err = np.abs(norm_got - norm_exact)
    if (norm_err > norm_tol).any():
        t, h = np.unravel_index(np.argmax(norm_err / np.maximum(norm_tol, 1e-300)), norm_err.shape)
        u = ulp(setup.fmt, norm_exact[t, h])
        return _Violation("norm", float(norm_err[t, h] / norm_tol[t, h]), (
            f"position {int(case.positions[t])} (token {t} of {len(case.positions)}), head {h}: the rotary part's "
            f"norm is {norm_got[t, h]:.17g}, the exact rotation's (attention factor included) {norm_exact[t, h]:.17g}; "
            f"difference {norm_err[t, h] / u:.4g} ulp of {NAMES[setup.fmt]}, the derived bound {norm_tol[t, h] / u:.4g} ulp"
        )), 0.0, 0.0, 0.0

    # 3. relative position: tokens -4, -3 (q at m, k at n) and -2, -1 (q at m + t, k at n + t). Only
    # against the exact reference: a framework's float32 angles are not linear in the position, so
    # its own table breaks the law by more than a kernel's rounding.
    if case.shift != 0 and setup.reference == "exact":
        gq1, gk1, gq2, gk2 = got[-4, :, :d], got[-3, :, :d], got[-2, :, :d], got[-1, :, :d]
        s1 = np.sum(ld(gq1) * ld(gk1), axis=-1).astype(np.float64)
        s2 = np.sum(ld(gq2) * ld(gk2), axis=-1).astype(np.float64)

        def bound_of(iq, ik):
            bq = np.empty((got.shape[1], d))
            bk = np.empty((got.shape[1], d))
            yq = np.empty((got.shape[1], d))
            bq[:, setup.col_a], bq[:, setup.col_b] = ba[iq], bb[iq]
            bk[:, setup.col_a], bk[:, setup.col_b] = ba[ik], bb[ik]
            yq[:, setup.col_a], yq[:, setup.col_b] = np.abs(ya[iq]).astype(np.float64), np.abs(yb[iq]).astype(np.float64)
            rq = np.empty((got.shape[1], d))
            rq[:, setup.col_a], rq[:, setup.col_b] = ra[iq], rb[iq]
            gk = np.abs(got[ik, :, :d])
            gq = np.abs(got[iq, :, :d])
            dot_rounding = 1.01 * d * _U_LD * np.sum(gq * gk, axis=-1)
            return np.sum(bq * gk + (yq + rq) * bk, axis=-1) * (1 + 2.0 ** -40) + dot_rounding

        n = len(case.positions)
        tol = bound_of(n - 4, n - 3) + bound_of(n - 2, n - 1)
        diff = np.abs(s1 - s2)
        if (diff > tol).any():
            h = int(np.argmax(diff / np.maximum(tol, 1e-300)))
            m0, n0, m1, n1 = (int(p) for p in case.positions[-4:])
            return _Violation("relative position", float(diff[h] / tol[h]), (
                f"head {h}: the score <R(m) q, R(n) k> at (m, n) = ({m0}, {n0}) is {s1[h]:.17g} and at ({m1}, {n1}), "
                f"the same n - m = {n0 - m0}, it is {s2[h]:.17g}; they differ by {diff[h]:.6g}, the derived bound is "
                f"{tol[h]:.6g} (tokens {n - 4} to {n - 1} of the call)")), 0.0, 0.0, 0.0

    # 4. inverse: R_f^T y~ = af^2 x, af^2 = c^2 + s^2; element a: c y~_a + s y~_b, element b: -s y~_a + c y~_b
    af2 = ld(c3) ** 2 + ld(s3) ** 2
    za = ld(c3) * ld(ga) + ld(s3) * ld(gb)
    zb = ld(c3) * ld(gb) - ld(s3) * ld(ga)
    ia = np.abs(za - af2 * ld(a)).astype(np.float64)
    ib = np.abs(zb - af2 * ld(b)).astype(np.float64)
    ac, as_ = np.abs(c3), np.abs(s3)
    ref_inv_a = 2.0 ** -50 * (ac * np.abs(ga) + as_ * np.abs(gb) + (ac ** 2 + as_ ** 2) * np.abs(a))
    ref_inv_b = 2.0 ** -50 * (ac * np.abs(gb) + as_ * np.abs(ga) + (ac ** 2 + as_ ** 2) * np.abs(b))
    tia = (ac * ba + as_ * bb) * (1 + 2.0 ** -40) + ref_inv_a
    tib = (as_ * ba + ac * bb) * (1 + 2.0 ** -40) + ref_inv_b
    for iv, tv, cols, gv, xv in ((ia, tia, setup.col_a, ga, a), (ib, tib, setup.col_b, gb, b)):
        if (iv > tv).any():
            t, h, j = np.unravel_index(np.argmax(iv / np.maximum(tv, 1e-300)), iv.shape)
            af2v = float(af2[t, 0, j])
            back = float((za if cols is setup.col_a else zb)[t, h, j])
            return _Violation("inverse", float(iv[t, h, j] / tv[t, h, j]), _element_text(
                setup, case, int(t), int(h), int(cols[j]), back, float(xv[t, h, j]) * af2v,
                float(iv[t, h, j]), float(tv[t, h, j]), size[t, h, j] * math.sqrt(af2v))
                + " (the output rotated back by the exact inverse R(-m): got that, expected af^2 x)"), 0.0, 0.0, 0.0

    # 5. rotation, element by element
    worst = (0.0, 0.0, 0.0)
    for ev, tv, bv, cols, gv, yv in ((ea, ta, ba, setup.col_a, ga, ya), (eb, tb, bb, setup.col_b, gb, yb)):
        ratio = ev / np.maximum(tv, 1e-300)
        t, h, j = np.unravel_index(np.argmax(ratio), ratio.shape)
        if ratio[t, h, j] > worst[0]:
            u = ulp(setup.fmt, float(size[t, h, j]))
            worst = (float(ratio[t, h, j]), float(ev[t, h, j]) / u, float(bv[t, h, j]) / u)
        if ratio[t, h, j] > 1:
            return _Violation("rotation", float(ratio[t, h, j]), _element_text(
                setup, case, int(t), int(h), int(cols[j]), float(gv[t, h, j]), float(yv[t, h, j]),
                float(ev[t, h, j]), float(tv[t, h, j]), size[t, h, j])), worst[0], worst[1], worst[2]
    return None, worst[0], worst[1], worst[2]


@st.composite
def _cases(draw, setup, one_position, limits, max_tokens, max_heads, max_exponent):
    tokens = draw(st.integers(1, max_tokens))
    heads = draw(st.integers(1, max_heads))
    positions = draw(st.lists(one_position, min_size=tokens, max_size=tokens))
    m, n = draw(one_position), draw(one_position)
    lo, hi = limits
    shift = draw(st.integers(lo - min(m, n), hi - max(m, n)))
    shape = (tokens, heads, setup.head_dim)
    x = draw(ps.vectors(setup.fmt, shape, max_exponent=max_exponent))
    q = draw(ps.vectors(setup.fmt, (1, heads, setup.head_dim), max_exponent=max_exponent))
    k = draw(ps.vectors(setup.fmt, (1, heads, setup.head_dim), max_exponent=max_exponent))
    all_x = np.concatenate([x, q, k, q, k], axis=0)
    all_positions = np.array(positions + [m, n, m + shift, n + shift], dtype=np.int64)
    return _Case(all_positions, all_x, shift)


def _run(setup, fn, strategy, examples, seed, label):
    """Runs the cases through Hypothesis; raises AssertionError on the shrunk failure."""
    state = {"cases": 0, "worst": (0.0, 0.0, 0.0)}

    @settings(max_examples=examples, deadline=None, database=None, print_blob=False, derandomize=False,
              suppress_health_check=list(HealthCheck),
              phases=(Phase.explicit, Phase.generate, Phase.target, Phase.shrink))
    @given(strategy)
    def run(case):
        state["cases"] += 1
        violation, ratio, err_ulps, bound_ulps = label(case)
        target(float(min(ratio if violation is None else violation.ratio, 1e6)), label="error / bound")
        if ratio > state["worst"][0]:
            state["worst"] = (ratio, err_ulps, bound_ulps)
        if violation is not None:
            raise AssertionError(
                f"posenc.testing: {setup.kernel_name}: property '{violation.prop}' fails at {violation.text}\n"
                f"  {setup.describe()}\n"
                f"  counterexample (shrunk): {case!r}\n"
                f"  replay: pass seed={seed} (and the same examples=) to replay this run")

    hypothesis_seed(seed)(run)()
    return state


def _kernel_name(fn):
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)


def _position_strategy(setup, positions):
    if positions is not None:
        given_positions = np.asarray(positions, dtype=np.int64).ravel()
        if given_positions.size == 0:
            raise ValueError("positions: an empty array")
        if (given_positions < 0).any():
            raise ValueError("positions must be non-negative")
        one = st.sampled_from(sorted({int(p) for p in given_positions}))
        return one, (int(given_positions.min()), int(given_positions.max()))
    limit = ps.position_limit(setup.config, **setup.overrides)
    one = ps.positions(setup.config, limit=limit, **setup.overrides)
    return one, (0, limit - 1)


def check_rope_apply(fn, config, *, dtype="float32", layout="half_split", reference="exact", positions=None,
                     framework="numpy", examples=100, seed=None, table_dtype=None, compute_dtype=None,
                     table_rounding="faithful", angle_dtype=None, max_tokens=4, max_heads=3, max_exponent=6,
                     **overrides):
    """Property-tests a RoPE kernel ``fn(x, positions) -> rotated x`` against the exact rotation.

    ``x`` has shape ``[tokens, heads, head_dim]`` in ``dtype`` (numpy arrays; bfloat16 as uint16 bit
    patterns, or torch tensors with ``framework="torch"``), ``positions`` int64 ``[tokens]``. The
    kernel returns the rotated ``x``: pairs ``(j, j + D/2)`` (``layout="half_split"``) or ``(2j, 2j + 1)``
    (``"interleaved"``) rotated by their angle at the token's position, times the attention factor
    as HF folds it into cos and sin, and the elements past the rotary dim D unchanged.

    ``reference``: ``"exact"`` (the exact rotation), or ``"hf_float32"`` / ``"ggml_float32"`` for a
    kernel meant to equal that framework's float32 table. The tolerance of each element is derived
    from the kernel's arithmetic (docs/testing-kernels.md): ``table_dtype`` and ``compute_dtype``
    (default ``dtype``) and ``table_rounding`` (``"correct"`` or ``"faithful"``, the default), for
    cos/sin of the exact angle; ``angle_dtype`` when the kernel computes ``m * inv_freq`` in a format
    of its own (a float64 angle is not exact: at position 131072 it is off by up to about 1e-11).

    Positions are drawn from ``positions`` (an array) or over ``[0, max_position_embeddings)`` with
    the hard ones mixed in (both ends, large angles with cos near 0, the scaling's switches). Runs
    ``examples`` cases with Hypothesis from ``seed`` (random if None, and printed on failure).

    Returns a report (cases, worst error over bound, the seed) when every property holds; raises
    AssertionError naming the property, position, head, pair, element, the error and the bound in
    ulps, and the seed, after shrinking the failure to a small case.
    """
    setup = _Setup(config, overrides, dtype, layout, reference, table_dtype, compute_dtype, table_rounding,
                   framework, _kernel_name(fn), angle_dtype)
    seed = random.getrandbits(32) if seed is None else int(seed)
    one, limits = _position_strategy(setup, positions)
    strategy = _cases(setup, one, limits, max_tokens, max_heads, max_exponent)
    state = _run(setup, fn, strategy, examples, seed, lambda case: _evaluate(setup, case, _call(fn, setup, case)))
    return RopeCheckReport(state["cases"], *state["worst"], seed, setup.describe())


def _permutation(rotary_dim, head_dim, from_layout, to_layout):
    """Indices p with y_to = y_from[p]: pair j's elements moved between the layouts."""
    half = rotary_dim // 2
    j = np.arange(half)
    cols = {"half_split": (j, j + half), "interleaved": (2 * j, 2 * j + 1)}
    fa, fb = cols[from_layout]
    ta, tb = cols[to_layout]
    p = np.arange(head_dim)
    p[ta], p[tb] = fa, fb
    return p


def check_rope_layouts(fn_a, layout_a, fn_b, layout_b, config, *, dtype="float32", positions=None,
                       framework="numpy", examples=100, seed=None, table_dtype=None, compute_dtype=None,
                       table_rounding="faithful", angle_dtype=None, max_tokens=4, max_heads=3, max_exponent=6,
                       **overrides):
    """Two kernels in two layouts are the same rotation up to the fixed permutation of the layouts.

    Each case feeds ``fn_b`` the permutation of the input ``fn_a`` gets and compares the outputs,
    permuted back, element by element within the sum of their derived bounds. Both kernels follow
    the same kernel model. Returns a report or raises AssertionError, as check_rope_apply.
    """
    sa = _Setup(config, overrides, dtype, layout_a, "exact", table_dtype, compute_dtype, table_rounding, framework,
                _kernel_name(fn_a), angle_dtype)
    sb = _Setup(config, overrides, dtype, layout_b, "exact", table_dtype, compute_dtype, table_rounding, framework,
                _kernel_name(fn_b), angle_dtype)
    sa.kernel_name = f"{sa.kernel_name} ({sa.layout}) vs {sb.kernel_name} ({sb.layout})"
    seed = random.getrandbits(32) if seed is None else int(seed)
    one, limits = _position_strategy(sa, positions)
    strategy = _cases(sa, one, limits, max_tokens, max_heads, max_exponent)
    to_b = _permutation(sa.rotary_dim, sa.head_dim, sa.layout, sb.layout)
    back = np.argsort(to_b)

    def compare(case):
        got_a = _call(fn_a, sa, case)
        got_b = _call(fn_b, sb, _Case(case.positions, case.x[..., to_b], case.shift))[..., back]
        c, s = sa.tables(case.positions)
        a, b = case.x[..., sa.col_a], case.x[..., sa.col_b]
        ba, bb = rotation_bounds(sa.model, a, b, c[:, None, :], s[:, None, :], sa.angle_error(case.positions))
        bound = np.zeros_like(case.x)
        bound[..., sa.col_a], bound[..., sa.col_b] = 2 * ba, 2 * bb
        err = np.abs(got_a - got_b)
        ratio = err / np.maximum(bound, 1e-300)
        ratio[..., sa.rotary_dim:] = np.where(err[..., sa.rotary_dim:] > 0, np.inf, 0.0)
        t, h, e = np.unravel_index(np.argmax(ratio), ratio.shape)
        r = float(ratio[t, h, e])
        u = ulp(sa.fmt, got_a[t, h, e])
        if r > 1:
            return _Violation("layout equivalence", r, _element_text(
                sa, case, int(t), int(h), int(e), got_a[t, h, e], got_b[t, h, e], err[t, h, e], bound[t, h, e],
                got_a[t, h, e]) + " (first kernel's value; the second kernel gives the 'expected' one)"), r, 0, 0
        return None, r, float(err[t, h, e]) / u, float(bound[t, h, e]) / u

    state = _run(sa, fn_a, strategy, examples, seed, compare)
    return RopeCheckReport(state["cases"], *state["worst"], seed, sa.describe())
