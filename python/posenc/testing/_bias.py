"""check_bias: a user's attention-bias kernel against posenc's exact table.

Schemes:

- ``"alibi"``: ``fn(distances) -> [heads, n]`` in ``dtype``, element ``[h, i]`` the bias ``-m_h k`` of
  distance ``k = distances[i] = |query - key|``. The tolerance is derived as for RoPE
  (docs/testing-kernels.md): the slope held in ``table_dtype`` (correctly rounded or faithful),
  ``m~ k`` rounded in ``compute_dtype``, the result converted to ``dtype``:
  ``B = k e_m + ulp_C(k (m + e_m)) / 2 + [ulp_D(...) / 2 when C is not D]``, with ``e_m = k_t ulp_T(m)``
  (the distance is an integer, exact in every format up to 2^p).
- ``"t5-bucket"``: ``fn(relative_positions) -> [n]`` integers, element i the bucket of
  ``r = key - query = relative_positions[i]`` (HF's ``_relative_position_bucket``); exact.
"""

import math
import random

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from .. import alibi_slopes, t5_buckets
from ._bounds import REFERENCE_RELATIVE, SLACK, KernelModel, up
from ._formats import NAMES, code, decode, encode, ulp


class BiasCheckReport:
    def __init__(self, scheme, cases, worst_ratio, seed):
        self.scheme, self.cases, self.worst_ratio, self.seed = scheme, cases, worst_ratio, seed

    def __repr__(self):
        return f"BiasCheckReport(scheme={self.scheme!r}, cases={self.cases}, worst_ratio={self.worst_ratio:.3f}, seed={self.seed})"

    def __getitem__(self, key):
        return getattr(self, key)


def _magnitude_first(v):
    return (abs(v), v < 0)


def _integers_with_edges(lo, hi):
    edges = {lo, hi, 0, 1, -1}
    for e in range(1, 63):
        for v in (1 << e, (1 << e) - 1, -(1 << e), -(1 << e) + 1):
            edges.add(v)
    edges = sorted((v for v in edges if lo <= v <= hi), key=_magnitude_first)  # shrinks toward 0
    return st.one_of(st.sampled_from(edges), st.integers(lo, hi))


def _run(examples, seed, strategy, body):
    state = {"cases": 0, "worst": 0.0}

    @settings(max_examples=examples, deadline=None, database=None, print_blob=False,
              suppress_health_check=list(HealthCheck),
              phases=(Phase.explicit, Phase.generate, Phase.target, Phase.shrink))
    @given(strategy)
    def run(values):
        state["cases"] += 1
        ratio, message = body(values)
        target(float(min(ratio, 1e6)), label="error / bound")
        state["worst"] = max(state["worst"], ratio if message is None else 0.0)
        if message is not None:
            raise AssertionError(message + f"\n  counterexample (shrunk): {values}\n  replay: pass seed={seed}")

    hypothesis_seed(seed)(run)()
    return state


def check_bias(fn, scheme, config=None, *, dtype="float32", examples=100, seed=None, table_dtype=None,
               compute_dtype=None, table_rounding="faithful", limit=None, max_count=16, **options):
    """Property-tests a bias kernel against posenc's exact table (see the module doc for ``scheme``).

    ``config``: the scheme's config.json (dict or path) or None; ``options`` are the scheme's
    keywords (``heads``, ``max_bias`` for ALiBi; ``num_buckets``, ``max_distance``, ``bidirectional``
    for T5). Inputs are drawn up to ``limit`` (ALiBi distances below 2^17, T5 relative positions in
    ``[-2^20, 2^20]`` by default) with the edges mixed in. Returns a report, or raises AssertionError
    naming the input, the head, the values and the bound, after shrinking, with the seed.
    """
    seed = random.getrandbits(32) if seed is None else int(seed)
    name = getattr(fn, "__qualname__", None) or repr(fn)
    if scheme == "alibi":
        fmt = code(dtype)
        model = KernelModel(fmt, code(table_dtype) if table_dtype is not None else fmt,
                            code(compute_dtype) if compute_dtype is not None else fmt, table_rounding)
        slopes = np.asarray(alibi_slopes(config, dtype="float64", **options), dtype=np.float64)
        limit = (1 << 17) if limit is None else int(limit)
        strategy = st.lists(_integers_with_edges(0, limit - 1), min_size=1, max_size=max_count)

        def body(distances):
            k = np.asarray(distances, dtype=np.int64)
            out = np.asarray(fn(k.copy()))
            want_dtype = encode(fmt, np.zeros(1)).dtype
            if out.dtype != want_dtype and not (fmt == "bf16" and out.dtype.name == "bfloat16"):
                return math.inf, f"posenc.testing: {name}: returned dtype {out.dtype}, expected {np.dtype(want_dtype).name}"
            if out.shape != (len(slopes), len(k)):
                return math.inf, f"posenc.testing: {name}: returned shape {out.shape}, expected {(len(slopes), len(k))}"
            got = decode(fmt, out)
            m = np.abs(slopes)[:, None] * (1 + 2.0 ** -52)
            kf = k[None, :].astype(np.float64)
            e_m = model.k * ulp(model.table, m)
            mag = up(kf * (m + e_m))
            h1 = ulp(model.compute, mag) / 2
            h4 = ulp(model.dtype, up(mag + h1)) / 2 if model.compute != model.dtype else 0.0
            bound = (kf * e_m + h1 + h4) * SLACK + REFERENCE_RELATIVE * mag
            want = -(np.longdouble(slopes)[:, None] * np.longdouble(kf))
            err = np.abs(np.longdouble(got) - want).astype(np.float64)
            ratio = err / np.maximum(bound, 1e-300)
            h, i = np.unravel_index(np.argmax(ratio), ratio.shape)
            if not np.isfinite(got[h, i]) or ratio[h, i] > 1:
                u = ulp(fmt, float(want[h, i]))
                return float(ratio[h, i]), (
                    f"posenc.testing: {name}: ALiBi bias of head {h} at distance {int(k[i])}: got {float(got[h, i]).hex()}, "
                    f"expected -m_h k = {float(want[h, i]).hex()}; error {err[h, i] / u:.4g} ulp of {NAMES[fmt]}, "
                    f"the derived bound {bound[h, i] / u:.4g} ulp ({model.describe()})")
            return float(ratio[h, i]), None

    elif scheme in ("t5-bucket", "t5_bucket"):
        limit = (1 << 20) if limit is None else int(limit)
        strategy = st.lists(_integers_with_edges(-limit, limit), min_size=1, max_size=max_count)

        def body(relative):
            r = np.asarray(relative, dtype=np.int64)
            reach = int(np.max(np.abs(r)))
            table = t5_buckets(config, reach, **options)
            want = table[r + reach]
            got = np.asarray(fn(r.copy()))
            if got.shape != r.shape or got.dtype.kind not in "iu":
                return math.inf, (f"posenc.testing: {name}: returned {got.dtype} of shape {got.shape}, expected "
                                  f"integers of shape {r.shape}")
            bad = np.nonzero(got != want)[0]
            if bad.size:
                i = int(bad[0])
                return math.inf, (f"posenc.testing: {name}: T5 bucket of relative position {int(r[i])} "
                                  f"(key - query): got {int(got[i])}, expected {int(want[i])}")
            return 0.0, None
    else:
        raise ValueError(f"check_bias: unknown scheme {scheme!r} (expected 'alibi' or 't5-bucket')")

    state = _run(examples, seed, strategy, body)
    return BiasCheckReport(scheme, state["cases"], state["worst"], seed)
