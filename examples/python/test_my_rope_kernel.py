"""A pytest file a kernel author copies: property tests of one's own RoPE kernel with posenc.testing.

Run: PYTHONPATH=<posenc's python package> python3 -m pytest examples/python/test_my_rope_kernel.py
Replace my_rope with your kernel (or a wrapper that calls it: a CUDA/Triton op through torch with
framework="torch"), CONFIG with your model's config.json, and the model arguments with what your
kernel does (docs/testing-kernels.md, "The kernel model").
"""

import os
from pathlib import Path

import numpy as np
from hypothesis import given, settings

import posenc
import posenc.testing as pt
from posenc.testing import strategies as ps

CONFIG = Path(os.environ.get("POSENC_SOURCE_DIR", Path(__file__).resolve().parents[2])) / "examples" / "configs" / "llama-3.1-8b.json"
INV_FREQ, ATTENTION_FACTOR = posenc.rope_inv_freq(CONFIG, "float64")


def my_rope(x, positions):
    """The kernel under test: float32 in and out, HF's half-split layout, float64 angles and cos/sin."""
    angle = positions[:, None] * np.asarray(INV_FREQ)[None, :]
    cos = (np.cos(angle) * ATTENTION_FACTOR).astype(np.float32)[:, None, :]
    sin = (np.sin(angle) * ATTENTION_FACTOR).astype(np.float32)[:, None, :]
    a, b = np.split(x, 2, axis=-1)
    return np.concatenate([a * cos - b * sin, a * sin + b * cos], axis=-1)


def test_my_rope_against_the_exact_rotation():
    # Entries: float64 cos/sin of a float64 angle, rounded to float32 (faithful); float32 arithmetic.
    report = pt.check_rope_apply(my_rope, CONFIG, dtype="float32", angle_dtype="float64", examples=200)
    assert report.worst_ratio <= 1


def test_my_rope_at_long_context():
    pt.check_rope_apply(my_rope, CONFIG, dtype="float32", angle_dtype="float64",
                        positions=np.arange(120000, 131072), examples=50)


@settings(max_examples=50, deadline=None)
@given(ps.data())
def test_a_property_of_my_own(data):
    # <R(m) q, R(n) k> = af <q, R_f(n - m) k> for n >= m (R_f = af R, the folded rotation my_rope
    # applies), within a float32 slack chosen for this example (check_rope_apply derives its own).
    m, n = sorted(data.draw(ps.positions(CONFIG, count=2, limit=4096)))
    q = data.draw(ps.vectors("float32", (1, 1, 128))).astype(np.float32)
    k = data.draw(ps.vectors("float32", (1, 1, 128))).astype(np.float32)
    score = np.sum(my_rope(q, np.array([m])).astype(np.float64) * my_rope(k, np.array([n])))
    relative = ATTENTION_FACTOR * np.sum(q.astype(np.float64) * my_rope(k, np.array([n - m])))
    nq, nk = np.linalg.norm(q.astype(np.float64)), np.linalg.norm(k.astype(np.float64))
    # Plus float32's underflow: a rotated element rounds to the subnormal grid with an absolute error
    # up to 2^-150, which no relative slack covers when a vector is subnormal-sized (Hypothesis found
    # q ~ 1 against a subnormal k). Over 128 elements: sum |err_i| |y_i| <= 2^-150 sqrt(128) af |y|,
    # for the score's two rotations and the relative form's one: below 2^-145 af (|q| + |k|).
    slack = 1e-5 * ATTENTION_FACTOR ** 2 * nq * nk + 2.0 ** -145 * ATTENTION_FACTOR * (nq + nk)
    assert abs(score - relative) <= slack
