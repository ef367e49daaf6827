"""ALiBi, T5, sinusoidal and XPOS tables against values computed without posenc."""

import json
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import decimal_oracle as oracle
import posenc
from conftest import perturbed

FMTS = {"float64": "f64", "float32": "f32", "float16": "f16", "bfloat16": "bf16"}


# ---- ALiBi --------------------------------------------------------------------------------------


def slope_mismatches(slopes, heads, max_bias, fmt):
    want = [oracle.rounded(m, fmt) for m in oracle.alibi_slopes(heads, max_bias)]
    got = oracle.bits_of(slopes, fmt)
    return [h for h in range(heads) if (float(got[h]) if fmt == "f64" else int(got[h])) != want[h]]


@pytest.mark.parametrize("heads", [1, 2, 4, 8])
def test_power_of_two_heads_have_power_of_two_slopes(heads):
    """8 heads or fewer (a power of two): m_h = 2^(-8 (h + 1) / n), exact powers of two."""
    slopes = posenc.alibi_slopes(heads=heads)
    assert slopes.tolist() == [2.0 ** (-8 * (h + 1) // heads) for h in range(heads)]


@pytest.mark.parametrize("heads", [12, 16, 32, 40, 112])
@pytest.mark.parametrize("dtype", list(FMTS))
def test_slopes_are_correctly_rounded(heads, dtype):
    fmt = FMTS[dtype]
    slopes = posenc.alibi_slopes(heads=heads, dtype=dtype)
    assert slopes.shape == (heads,)
    assert slope_mismatches(slopes, heads, 8, fmt) == []
    assert slope_mismatches(perturbed(slopes, fmt, (heads - 1,)), heads, 8, fmt) == [heads - 1]


def test_bloom_config_and_max_bias(configs):
    bloom = json.loads((configs / "bloom-560m.json").read_text())
    slopes = posenc.alibi_slopes(configs / "bloom-560m.json")
    assert slopes.shape == (bloom["n_head"],)
    assert slope_mismatches(slopes, bloom["n_head"], 8, "f64") == []
    half = posenc.alibi_slopes(configs / "bloom-560m.json", max_bias=4.0)
    assert slope_mismatches(half, bloom["n_head"], 4, "f64") == []
    mpt = {"n_heads": 32, "attn_config": {"alibi": True, "alibi_bias_max": 16}, "d_model": 4096}
    assert slope_mismatches(posenc.alibi_slopes(mpt), 32, 16, "f64") == []


def test_biases_by_distance_and_dense():
    slopes = posenc.alibi_slopes(heads=12)
    by_distance = posenc.alibi_bias_by_distance(heads=12, distances=50)
    exact = oracle.alibi_slopes(12)
    for h in (0, 5, 11):
        for k in (0, 1, 7, 49):
            assert by_distance[h, k] == oracle.rounded(-exact[h] * k, "f64")
    assert np.array_equal(by_distance[:, 1], -slopes)
    causal = posenc.alibi_bias(heads=12, positions=6)
    symmetric = posenc.alibi_bias(heads=12, positions=6, mask="symmetric")
    i, j = np.indices((6, 6))
    assert np.array_equal(symmetric, by_distance[:, np.abs(i - j)])
    assert np.array_equal(causal[:, i >= j], symmetric[:, i >= j])
    assert np.all(np.isneginf(causal[:, i < j]))
    zeroed = posenc.alibi_bias(heads=12, positions=6, masked=0.0, dtype="float16")
    assert np.all(zeroed[:, i < j] == 0)


# ---- T5 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_buckets,max_distance,bidirectional",
                         [(32, 128, True), (32, 128, False), (64, 256, True), (12, 40, True), (320, 1000, False)])
def test_t5_buckets_follow_the_published_formula(num_buckets, max_distance, bidirectional):
    r = 3 * max_distance
    got = posenc.t5_buckets(num_buckets=num_buckets, max_distance=max_distance, bidirectional=bidirectional, range=r)
    assert got.dtype == np.int32 and got.shape == (2 * r + 1,)
    want = [oracle.t5_bucket(rel, num_buckets, max_distance, bidirectional) for rel in range(-r, r + 1)]
    assert got.tolist() == want
    wrong = got.copy()
    wrong[r + 40] += 1
    assert wrong.tolist() != want


def test_t5_ties_are_exact():
    """32 buckets, 128: the log term at n = 16, 32, 64 is exactly 2, 4, 6; HF's float32 log puts some
    one bucket low. posenc decides the true value."""
    got = posenc.t5_buckets(num_buckets=32, max_distance=128, range=64)
    assert [got[64 - n] for n in (15, 16, 31, 32, 63, 64)] == [8 + 1, 8 + 2, 8 + 3, 8 + 4, 8 + 5, 8 + 6]


def test_t5_config_file_and_matrix(configs):
    path = configs / "t5-small.json"
    cfg = json.loads(path.read_text())
    table = posenc.t5_buckets(path, range=200)
    nb, md = cfg["relative_attention_num_buckets"], cfg.get("relative_attention_max_distance", 128)
    assert table.tolist() == [oracle.t5_bucket(r, nb, md, True) for r in range(-200, 201)]
    m = posenc.t5_bucket_matrix(path, 5, 9)
    assert m.shape == (5, 9)
    assert all(m[i, j] == oracle.t5_bucket(j - i, nb, md, True) for i in range(5) for j in range(9))
    decoder = posenc.t5_buckets(path, range=10, bidirectional=False)
    assert decoder.tolist() == [oracle.t5_bucket(r, nb, md, False) for r in range(-10, 11)]


# ---- DeBERTa and log-n ------------------------------------------------------------------------------


def deberta_bucket(rel, buckets, max_position):
    """HF's make_log_bucket_position with the true log term, the ceiling decided in integers:
    (mid - 1) log(n / mid) <= c log((M - 1) / mid)  <=>  (n / mid)^(mid - 1) <= ((M - 1) / mid)^c."""
    mid = buckets // 2
    n = abs(rel)
    if n <= mid:
        return rel
    c = 0
    while Fraction(n, mid) ** (mid - 1) > Fraction(max_position - 1, mid) ** c:
        c += 1
    return (1 if rel > 0 else -1) * (mid + c)


@pytest.mark.parametrize("buckets,max_position", [(256, 512), (32, 64), (12, 100)])
def test_deberta_buckets_follow_the_published_formula(buckets, max_position):
    r = 2 * max_position
    got = posenc.deberta_buckets(r, position_buckets=buckets, max_relative_positions=max_position)
    want = [deberta_bucket(rel, buckets, max_position) for rel in range(-r, r + 1)]
    assert got.tolist() == want
    wrong = got.copy()
    wrong[-1] -= 1
    assert wrong.tolist() != want


@pytest.mark.parametrize("dtype", list(FMTS))
def test_logn_factors_are_correctly_rounded(dtype):
    fmt = FMTS[dtype]
    got = oracle.bits_of(posenc.logn_factors(6, dtype, start=510), fmt)
    for i, n in enumerate(range(510, 516)):
        with oracle.ctx():
            want = Decimal(n).ln() / Decimal(512).ln()
        assert (float(got[i]) if fmt == "f64" else int(got[i])) == oracle.rounded(want, fmt)
    qwen = posenc.logn_factors(4, start=2047, base=2048, at_least_one=True)
    assert qwen[:2].tolist() == [1.0, 1.0] and qwen[2] > 1.0
    assert posenc.logn_factors(1, start=2048)[0] == oracle.rounded(Fraction(11, 9), "f64")  # log_512 2048 = 11/9


# ---- Llama-4 attention temperature ----------------------------------------------------------------


@pytest.mark.parametrize("dtype", list(FMTS))
def test_attn_temperature_scales_are_correctly_rounded(dtype):
    """1 + a ln(1 + floor((p + 1) / 8192)) with a = 0.1's exact double, in Decimal at the oracle's
    precision, rounded once; the step is at p = 8191 (HF's cache_position + 1)."""
    fmt = FMTS[dtype]
    start = 8189
    got = oracle.bits_of(posenc.attn_temperature_scales(6, dtype, start=start), fmt)
    for i in range(6):
        k = (start + i + 1) // 8192
        with oracle.ctx():
            want = 1 + Decimal(0.1) * Decimal(1 + k).ln()  # Decimal(0.1): the double's exact value
        assert (float(got[i]) if fmt == "f64" else int(got[i])) == oracle.rounded(want, fmt)
    assert posenc.attn_temperature_scales(3, start=8189).tolist()[:2] == [1.0, 1.0]


def test_attn_temperature_published_figures():
    """pe-formulas-more.md section 3: the scale at p to 6 decimals; one position earlier is the step
    before (the check can fail)."""
    figures = {8191: 1.069315, 16383: 1.109861, 32767: 1.160944, 131071: 1.283321, 1048575: 1.485981,
               10485759: 1.715540}
    for p, want in figures.items():
        got = posenc.attn_temperature_scales(2, start=p - 1)
        assert abs(got[1] - want) <= 0.5e-6
        assert abs(got[0] - want) > 0.5e-6
    assert (posenc.attn_temperature_scales(8191) == 1.0).all()


def test_attn_temperature_config_and_errors():
    short = posenc.attn_temperature_scales(8, floor_scale=4, attn_scale=0.5)
    assert short[:3].tolist() == [1.0, 1.0, 1.0] and len(set(short[3:7].tolist())) == 1 and short[7] > short[6]
    with pytest.raises(ValueError, match="floor_scale must be in"):
        posenc.attn_temperature_scales(2, floor_scale=0)
    with pytest.raises(ValueError, match="attn_scale must be finite and >= 0"):
        posenc.attn_temperature_scales(2, attn_scale=-0.1)
    with pytest.raises(ValueError, match="positions outside"):
        posenc.attn_temperature_scales(2, start=-1)
    with pytest.raises(ValueError, match="overflow"):
        posenc.attn_temperature_scales(10, "float16", floor_scale=1, attn_scale=1e5)


# ---- sinusoidal and XPOS --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", list(FMTS))
def test_sinusoidal_table_is_correctly_rounded(dtype):
    fmt = FMTS[dtype]
    table = posenc.sinusoidal_table(4, 32, dtype, start=-1)
    rows = [-1, 0, 1, 2]
    bits = oracle.bits_of(table, fmt)
    bad = []
    for r, p in enumerate(rows):
        for k in range(32):
            want = oracle.rounded(oracle.sinusoid(p, k, 32), fmt)
            if (float(bits[r, k]) if fmt == "f64" else int(bits[r, k])) != want:
                bad.append((p, k))
    assert bad == []
    assert table.shape == (4, 32)
    concat = posenc.sinusoidal_table(4, 32, dtype, start=-1, layout="concat")
    assert np.array_equal(oracle.bits_of(concat, fmt)[:, :16], bits[:, 0::2])


def test_sinusoidal_large_positions():
    table = posenc.sinusoidal_table(2, 16, start=1_000_000)
    for r, p in enumerate((1_000_000, 1_000_001)):
        for k in (0, 1, 5, 15):
            assert table[r, k] == oracle.rounded(oracle.sinusoid(p, k, 16), "f64")


def test_xpos_scales_are_correctly_rounded():
    d, sb = 8, 512
    table = posenc.xpos_scales(3, d, start=1000)
    inverse = posenc.xpos_scales(3, d, start=1000, inverse=True)
    for r, n in enumerate((1000, 1001, 1002)):
        for j in range(d // 2):
            zeta = Decimal(2 * j * 10 + 4 * d) / Decimal(14 * d)  # (2j + 0.4 d) / (1.4 d), exactly
            assert table[r, j] == oracle.rounded(oracle.power(zeta, Fraction(n, sb)), "f64")
            assert inverse[r, j] == oracle.rounded(oracle.power(zeta, Fraction(-n, sb)), "f64")
