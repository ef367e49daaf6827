"""Hypothesis strategies for property tests of RoPE and bias kernels.

For users who write their own properties (posenc.testing.check_rope_apply uses the same ones)::

    from hypothesis import given
    from posenc.testing import strategies as ps

    @given(ps.rope_configs(), ps.data())
    def test_my_kernel(config, data):
        positions = data.draw(ps.positions(config, count=4))
        x = data.draw(ps.vectors("float32", (4, 2, posenc.rope_config(config)["head_dim"])))
        ...

Every strategy shrinks toward small, simple values: position 0, vectors of zeros and ones, the
first shipped config.
"""

import functools
import json
import math
import os
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

from .. import rope_config, rope_inv_freq
from ._formats import code, round_to

data = st.data

#: where the shipped model configs live in a source checkout (examples/configs/); None if absent
_SOURCE_CONFIGS = Path(os.environ.get("POSENC_SOURCE_DIR", Path(__file__).resolve().parents[3])) / "examples" / "configs"

#: the ceiling of the default positions when a config gives no max_position_embeddings
DEFAULT_POSITION_LIMIT = 1 << 17


def shipped_configs():
    """The RoPE configs of examples/configs/ (name -> dict), or {} outside a source checkout."""
    out = {}
    if _SOURCE_CONFIGS.is_dir():
        for p in sorted(_SOURCE_CONFIGS.glob("*.json")):
            cfg = json.loads(p.read_text())
            try:
                rope_config(cfg)
            except (ValueError, TypeError):  # ALiBi and T5 models: no RoPE
                continue
            out[p.stem] = cfg
    return out


@st.composite
def _generated_config(draw):
    head_dim = draw(st.sampled_from([16, 32, 64, 128]))
    cfg = {
        "head_dim": head_dim,
        "rope_theta": draw(st.sampled_from([10000.0, 500000.0, 1000000.0, 150000.0])),
        "max_position_embeddings": draw(st.sampled_from([2048, 4096, 8192, 32768, 131072])),
    }
    if draw(st.booleans()):
        cfg["partial_rotary_factor"] = draw(st.sampled_from([0.25, 0.5]))
    kind = draw(st.sampled_from(["default", "linear", "dynamic", "yarn", "llama3", "longrope"]))
    orig = draw(st.sampled_from([1024, 2048, 4096]))
    factor = draw(st.sampled_from([2.0, 4.0, 8.0, 16.0]))
    if kind == "linear":
        cfg["rope_scaling"] = {"rope_type": "linear", "factor": factor}
    elif kind == "dynamic":
        cfg["rope_scaling"] = {"rope_type": "dynamic", "factor": factor}
    elif kind == "yarn":
        cfg["rope_scaling"] = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": orig}
    elif kind == "llama3":
        cfg["rope_scaling"] = {"rope_type": "llama3", "factor": factor, "low_freq_factor": 1.0,
                               "high_freq_factor": 4.0, "original_max_position_embeddings": orig}
    elif kind == "longrope":
        pairs = int(head_dim * cfg.get("partial_rotary_factor", 1.0)) // 2
        lists = st.lists(st.floats(1.0, 8.0, width=32), min_size=pairs, max_size=pairs)
        cfg["rope_scaling"] = {"rope_type": "longrope", "short_factor": draw(lists),
                               "long_factor": draw(lists)}
        cfg["original_max_position_embeddings"] = orig
        cfg["max_position_embeddings"] = orig * int(factor)
    return cfg


def rope_configs(shipped=True, generated=True):
    """RoPE configs (config.json dicts): the shipped model configs and generated ones of every
    rope_type (default, linear, dynamic, yarn, llama3, longrope; partial rotary too)."""
    choices = []
    if shipped:
        configs = list(shipped_configs().values())
        if configs:
            choices.append(st.sampled_from(configs))
    if generated:
        choices.append(_generated_config())
    if not choices:
        raise ValueError("rope_configs: nothing to draw from")
    return st.one_of(*choices)


def position_limit(config, **overrides):
    """The positions drawn by default: [0, max_position_embeddings), or [0, 2^17) if unset."""
    m = rope_config(config, **overrides)["max_position_embeddings"]
    return int(m) if m and m > 0 else DEFAULT_POSITION_LIMIT


def hard_positions(config, limit=None, **overrides):
    """Positions where a table is hardest: both ends, large angles with cos near 0 for the fastest
    and a few slower pairs, and the sequence-length switches of dynamic NTK and LongRoPE."""
    cfg = rope_config(config, **overrides)
    limit = position_limit(config, **overrides) if limit is None else int(limit)
    hard = {0, 1, 2, limit - 2, limit - 1}
    inv, _ = rope_inv_freq(config, "float64", **overrides)
    inv = np.asarray(inv, dtype=np.float64)
    pairs = len(inv)
    for j in sorted({0, 1, pairs // 4, pairs // 2, pairs - 1}):
        theta = float(inv[j]) if 0 <= j < pairs else 0.0
        if theta <= 0:
            continue
        top = math.floor((limit - 1) * theta / math.pi - 0.5)  # the largest (k + 1/2) pi below the limit
        for k in (0, top, top - 1):
            if k >= 0:
                m = round((k + 0.5) * math.pi / theta)
                for p in (m - 1, m, m + 1):
                    if 0 <= p < limit:
                        hard.add(p)
    for key in ("original_max_position_embeddings", "max_position_embeddings"):
        edge = cfg.get(key) or 0
        if cfg["rope_type"] in ("dynamic", "longrope") and edge > 0:
            hard.update(p for p in (edge - 1, edge, edge + 1) if 0 <= p < limit)
    return sorted(p for p in hard if 0 <= p < limit)


def positions(config, count=None, *, limit=None, given=None, **overrides):
    """A position (count None) or a list of count positions for a config: from ``given`` when
    given, else hard positions mixed with uniform ones over [0, limit)."""
    if given is not None:
        one = st.sampled_from([int(p) for p in np.asarray(given).ravel()])
    else:
        limit = position_limit(config, **overrides) if limit is None else int(limit)
        one = st.one_of(st.sampled_from(hard_positions(config, limit, **overrides)),
                        st.integers(0, limit - 1))
    if count is None:
        return one
    return st.lists(one, min_size=count, max_size=count)


def _signed_scaled(t):
    fraction, exponent, negative = t
    return (-1.0 if negative else 1.0) * math.ldexp(fraction, exponent)


class _RoundTo:
    """v -> v rounded into a format (a named callable: Hypothesis describes lambdas slowly)."""

    def __init__(self, fmt):
        self.fmt = fmt

    def __call__(self, v):
        return float(round_to(self.fmt, v))


def values(dtype="float32", *, max_exponent=6):
    """Finite values of a format (as float64): small integers and halves, and values of every
    exponent in [-max_exponent - 20, max_exponent], of both signs."""
    return _values(code(dtype), int(max_exponent))


@functools.lru_cache(maxsize=None)
def _values(fmt, max_exponent):  # built once: a strategy costs more to build than to draw from
    width = {"f64": 64, "f32": 32, "f16": 16, "bf16": 32}[fmt]
    bound = 2.0 ** max_exponent
    simple = st.sampled_from([0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, -1.5])
    uniform = st.floats(-bound, bound, allow_nan=False, allow_infinity=False, width=width)
    scaled = st.tuples(st.floats(0.5, 1.0, width=width), st.integers(-max_exponent - 20, max_exponent),
                       st.booleans()).map(_signed_scaled)
    return st.one_of(simple, uniform, scaled).map(_RoundTo(fmt))


def _dense(fmt, shape, seed, max_exponent):
    """A dense array of the format's values from a numpy generator: uniform significands, exponents
    mostly near 0 with a tail toward the small ones, both signs, some exact zeros."""
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape))
    significand = rng.uniform(0.5, 1.0, size)
    exponent = np.where(rng.random(size) < 0.9, rng.integers(-2, max_exponent + 1, size),
                        rng.integers(-max_exponent - 20, max_exponent + 1, size))
    v = np.ldexp(significand, exponent) * np.where(rng.random(size) < 0.5, -1.0, 1.0)
    v[rng.random(size) < 0.02] = 0.0
    return round_to(fmt, v.reshape(shape))


_KINDS = st.sampled_from(["one", "two", "dense"])


@functools.lru_cache(maxsize=None)
def _index(shape):
    return st.tuples(*(st.integers(0, n - 1) for n in shape))


@st.composite
def vectors(draw, dtype, shape, *, max_exponent=6):
    """float64 arrays of the given shape holding values of the format.

    Three kinds, which Hypothesis shrinks in this order: one nonzero element, one nonzero pair of
    elements, or a dense array (from a drawn seed) with a few drawn elements written over it. A
    counterexample therefore shrinks to the fewest nonzero elements that still show the failure.
    """
    fmt = code(dtype)
    shape = tuple(int(n) for n in shape)
    kind = draw(_KINDS)
    one = _values(fmt, int(max_exponent))
    index = _index(shape)
    if kind == "dense":
        x = _dense(fmt, shape, draw(st.integers(0, 2 ** 32 - 1)), max_exponent)
        extra = draw(st.lists(st.tuples(index, one), max_size=3))
    else:
        x = np.zeros(shape)
        extra = draw(st.lists(st.tuples(index, one), min_size=1 if kind == "one" else 2,
                              max_size=1 if kind == "one" else 2))
    for where, v in extra:
        x[where] = v
    return x
