"""posenc.mrope_table and posenc.rope_nd_table: the stream maps of pe-formulas-more.md 1.4 and 6.1
and the entries against 1D tables (whose entries the C++ tests check against MPFR)."""
import math

import numpy as np
import pytest

import posenc


def test_mrope_text_tokens_equal_1d_rope():
    t = np.arange(6, dtype=np.int64)
    cos, sin = posenc.mrope_table(np.stack([t, t, t]), 128, [16, 24, 24], "float32", rope_theta=1e6)
    c1, s1 = posenc.rope_table(None, 6, "float32", head_dim=128, rope_theta=1e6)
    assert cos.shape == (6, 64) and cos.dtype == np.float32
    # rope_table's rows are half-split: pair j at elements j and j + 64.
    assert np.array_equal(cos.view(np.uint32), c1[:, :64].view(np.uint32))
    assert np.array_equal(sin.view(np.uint32), s1[:, 64:].view(np.uint32))


def test_mrope_interleaved_maps_part_at_pairs_61_62():
    # Token at t = 1000, h = w = 0: a pair on the t stream rotates, others do not.
    pos = np.array([[1000], [0], [0]])
    hf, _ = posenc.mrope_table(pos, 128, [24, 20, 20], layout="interleaved-hf", rope_theta=5e6)
    gg, _ = posenc.mrope_table(pos, 128, [24, 20, 20], layout="interleaved-ggml", rope_theta=5e6)
    differ = np.nonzero(hf[0] != gg[0])[0].tolist()
    assert differ == [61, 62]
    assert (gg[0, [61, 62]] == 1.0).all()


def test_rope_nd_fractional_positions_and_errors():
    cos, sin = posenc.rope_nd_table(np.array([[0.0, 0.5], [0.0, -3.0]]), [8, 8], "float64")
    assert cos.shape == (2, 8)
    assert (cos[0] == 1.0).all() and (sin[0] == 0.0).all()
    # axis 0, pair 0: angle 0.5 * 1; axis 1, pair 0 (index 4): angle -3. The expected values are
    # glibc's sin, correctly rounded at these arguments (MPFR: sin(0.5) = 0.47942553860420300027...);
    # numpy's vectorised sin is not (it gives 0.47942553860420295, one ulp low).
    assert sin[1, 0] == math.sin(0.5)
    assert sin[1, 4] == -math.sin(3.0)
    with pytest.raises(ValueError, match="even and positive"):
        posenc.rope_nd_table(np.zeros((2, 1)), [8, 7])
    with pytest.raises(ValueError, match="must sum to rotary_dim / 2"):
        posenc.mrope_table(np.zeros((3, 1), dtype=np.int64), 128, [16, 24, 16])
    with pytest.raises(ValueError, match="shape"):
        posenc.mrope_table(np.zeros((2, 1), dtype=np.int64), 128, [16, 24, 24])


def test_mrope_position_ids_worked_example():
    # pe-formulas-more.md 1.3: 3 text tokens, a Qwen2.5-VL video of LLM grid (4, 2, 2) at 1 s per
    # grid and 2 tokens per second: text 0, 1, 2; t in {3, 5, 7, 9}, h and w in {3, 4}; next 10.
    pos, nxt = posenc.mrope_position_ids([("text", 3), ("video", 4, 2, 2, 1.0)], temporal="seconds",
                                         tokens_per_second=2)
    assert nxt == 10
    assert pos.shape == (3, 19)
    assert pos[0].tolist() == [0, 1, 2, 3, 3, 3, 3, 5, 5, 5, 5, 7, 7, 7, 7, 9, 9, 9, 9]
    assert sorted(set(pos[1, 3:].tolist())) == [3, 4] and sorted(set(pos[2, 3:].tolist())) == [3, 4]
    with pytest.raises(ValueError, match="tokens_per_second"):
        posenc.mrope_position_ids([("video", 4, 2, 2, 1.0)], temporal="seconds")
    # The ids feed mrope_table directly.
    cos, _ = posenc.mrope_table(pos, 128, [16, 24, 24], rope_theta=1e6)
    assert cos.shape == (19, 64)


def test_leaky_rerope_table_rows():
    # Below the window: the plain rows; from it, rel' = w + (rel - w) / k (w = 8, k = 16): row 24 is
    # rel' = 9, the plain row 9, bit for bit (both the exact value rounded once).
    cos, sin = posenc.leaky_rerope_table(40, 64, "float32", window=8, leak=16)
    c1, s1 = posenc.rope_table(None, 10, "float32", head_dim=64)
    assert cos.shape == (40, 32)
    assert np.array_equal(cos[:8].view(np.uint32), c1[:8, :32].view(np.uint32))
    assert np.array_equal(cos[24].view(np.uint32), c1[9, :32].view(np.uint32))
    assert np.array_equal(sin[24].view(np.uint32), s1[9, 32:].view(np.uint32))
    with pytest.raises(ValueError, match="k must be an integer >= 2"):
        posenc.leaky_rerope_table(4, 64, leak=1)


def test_rope_nd_two_pi_dinov3():
    # DINOv3 ViT-S/B/L: head dim 64, two axes of 32, theta 100, angle 2 pi coord / period. A 4 x 4
    # grid's coordinates are -3/4, -1/4, 1/4, 3/4 (derivation: (2i + 1) / 4 - 1), and at k = 0
    # (period 1) the angle 2 pi c is an exact odd number of quarter turns: cos = 0, sin = +-1.
    pos = posenc.dinov3_positions(4, 4)
    assert pos.shape == (2, 16) and pos.dtype == np.float64
    assert pos[0].tolist() == [-0.75] * 4 + [-0.25] * 4 + [0.25] * 4 + [0.75] * 4
    assert pos[1].tolist() == [-0.75, -0.25, 0.25, 0.75] * 4
    cos, sin = posenc.rope_nd_table(pos, [32, 32], "float32", rope_theta=100.0, two_pi=True)
    assert cos.shape == (16, 32) and cos.dtype == np.float32
    sign = {-0.75: 1.0, -0.25: -1.0, 0.25: 1.0, 0.75: -1.0}  # sin(2 pi c)
    for i in range(16):
        for axis, j in ((0, 0), (1, 16)):
            assert cos[i, j] == 0.0 and not np.signbit(cos[i, j])
            assert sin[i, j] == sign[pos[axis, i]]
    # sin is odd and cos even in the coordinate: the patch mirrored through the centre.
    mirror = 15 - np.arange(16)
    assert np.array_equal(cos.view(np.uint32), cos[mirror].view(np.uint32))
    assert np.array_equal(sin, -sin[mirror])
    # A whole and a half turn at period 1: 3 turns give cos 1, sin +0; 1/2 turn cos -1, sin +0.
    c2, s2 = posenc.rope_nd_table(np.array([[3.0, 0.5], [0.0, -0.5]]), [8, 8], "float64", rope_theta=100.0,
                                  two_pi=True)
    assert c2[0, 0] == 1.0 and s2[0, 0] == 0.0 and not np.signbit(s2[0, 0])
    assert c2[1, 0] == -1.0 and s2[1, 0] == 0.0 and not np.signbit(s2[1, 0])
    assert c2[1, 4] == -1.0 and not np.signbit(s2[1, 4])
    # Without two_pi the same positions are angles in radians: another table.
    c3, _ = posenc.rope_nd_table(pos, [32, 32], "float32", rope_theta=100.0)
    assert not np.array_equal(c3, cos)
    with pytest.raises(ValueError, match="grid sizes"):
        posenc.dinov3_positions(0, 4)
