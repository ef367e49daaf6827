"""KERPLE, Sandwich, Shaw and Transformer-XL / XLNet tables against values computed without posenc:
the exact values by decimal_oracle.py rounded with Fraction (0 ULP required), and the integer
tables by their published formulas. Each check is also run on a copy with one entry changed and must
report exactly that entry."""

import numpy as np
import pytest

import decimal_oracle as oracle
import posenc
from conftest import perturbed

FMTS = {"float64": "f64", "float32": "f32", "float16": "f16", "bfloat16": "bf16"}


def mismatches(table, exact, fmt):
    """Entries (as index tuples) of a table whose bits are not RN_fmt of exact[index]."""
    got = oracle.bits_of(table, fmt)
    bad = []
    for index, value in exact.items():
        g = float(got[index]) if fmt == "f64" else int(got[index])
        if g != oracle.rounded(value, fmt):
            bad.append(index)
    return bad


# ---- KERPLE -------------------------------------------------------------------------------------

# Heads as KERPLE trains them (p from U(0, 2), a from U(0, 1), clamped at 0.01), and odd doubles.
LOG_P = [1.5, 0.01, 1.9990234375, 0.7316284]
LOG_A = [0.5, 0.9375, 0.01, 3.1e-7]
DISTANCES = [0, 1, 2, 3, 17, 100, 1023]


@pytest.fixture(scope="module")
def kerple_log_exact():
    return {(h, k): oracle.kerple_log(LOG_P[h], LOG_A[h], k) for h in range(len(LOG_P)) for k in DISTANCES}


@pytest.mark.parametrize("dtype", list(FMTS))
def test_kerple_log_is_correctly_rounded(dtype, kerple_log_exact):
    fmt = FMTS[dtype]
    table = posenc.kerple_log_bias(1024, dtype, p=LOG_P, a=LOG_A)
    assert table.shape == (4, 1024)
    assert mismatches(table, kerple_log_exact, fmt) == []
    assert mismatches(perturbed(table, fmt, (2, 17)), kerple_log_exact, fmt) == [(2, 17)]


def test_kerple_log_one_head_as_numbers():
    """A number for p and a is one head: the same row as in a list of heads."""
    one = posenc.kerple_log_bias(64, p=LOG_P[0], a=LOG_A[0])
    assert one.shape == (1, 64)
    assert np.array_equal(one[0], posenc.kerple_log_bias(64, p=LOG_P, a=LOG_A)[0])
    assert np.array_equal(one, posenc.kerple_log_bias(64, p=np.array(LOG_P[:1]), a=(LOG_A[0],)))


POW_A = [0.5, 0.001953125, 0.013671875, 0.9]  # float16 holds -a 4095^p for each
POW_P = [1.25, 2.0, 0.5, 0.3125]
POW_DISTANCES = [0, 1, 2, 7, 16, 81, 256, 1000, 4095]


@pytest.mark.parametrize("dtype", list(FMTS))
def test_kerple_power_is_correctly_rounded(dtype):
    """Irrational k^p and the rational cases (p = 2; p = 1/2 at squares; 1.25 = 5/4 at fourth powers
    16, 81, 256; 0.3125 = 5/16 at k = 1), the latter computed exactly."""
    fmt = FMTS[dtype]
    table = posenc.kerple_power_bias(4096, dtype, p=POW_P, a=POW_A)
    assert table.shape == (4, 4096)
    exact = {(h, k): oracle.kerple_power(POW_A[h], POW_P[h], k) for h in range(4) for k in POW_DISTANCES}
    assert mismatches(table, exact, fmt) == []
    assert mismatches(perturbed(table, fmt, (3, 1000)), exact, fmt) == [(3, 1000)]


@pytest.mark.parametrize("dtype,a,p,k,bits", [
    # float16 holds every even integer in [2048, 4096): 2049 and 2051 are midpoints, ties to even
    ("float16", 1.0, 1.0, 2049, 0xE800),       # -2049 -> -2048 (even significand)
    ("float16", 1.0, 1.0, 2051, 0xE802),       # -2051 -> -2052
    ("float16", 1024.5, 0.5, 4, 0xE800),       # 1024.5 sqrt(4) = 2049 exactly, then the same tie
    ("float16", 64.03125, 1.25, 16, 0xE800),   # 64.03125 16^(5/4) = 64.03125 * 32 = 2049
    # bfloat16 holds every even integer in [256, 512): 257 -> 256, 259 -> 260
    ("bfloat16", 1.0, 1.0, 257, 0xC380),
    ("bfloat16", 1.0, 1.0, 259, 0xC382),
    ("bfloat16", 28.78125, 2.0, 3, 0xC382),    # 28.78125 * 9 = 259.03125 -> 260 (not a tie)
])
def test_kerple_power_exact_midpoints_round_to_even(dtype, a, p, k, bits):
    """-a k^p exactly halfway between two values of the dtype: one rounding, ties to even (a value
    approximated by exp(p ln k) would fall on either side of the tie)."""
    table = posenc.kerple_power_bias(k + 1, dtype, p=p, a=a)
    assert int(table.view(np.uint16)[0, k]) == bits
    assert oracle.rounded(oracle.kerple_power(a, p, k), FMTS[dtype]) == bits


# ---- Sandwich -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", list(FMTS))
def test_sandwich_is_correctly_rounded(dtype):
    fmt = FMTS[dtype]
    d, heads = 16, 4
    table = posenc.sandwich_bias(300, d, heads, dtype)
    assert table.shape == (heads, 300)
    exact = {(h, k): oracle.sandwich(k, d, heads, h) for h in (0, 1, 3) for k in (0, 1, 2, 5, 64, 299)}
    assert mismatches(table, exact, fmt) == []
    assert mismatches(perturbed(table, fmt, (1, 64)), exact, fmt) == [(1, 64)]


def test_sandwich_nemo_size_and_sign():
    """NeMo's per-head size 64: the bias is 0 at distance 0 and negative after it (every cos <= 1)."""
    table = posenc.sandwich_bias(1000, 64, 8)
    assert np.all(table[:, 0] == 0) and np.all(table[:, 1:] < 0)
    for h, k in ((0, 999), (7, 3)):
        assert table[h, k] == oracle.rounded(oracle.sandwich(k, 64, 8, h), "f64")


# ---- Shaw ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("k,n", [(20, 50), (1, 5), (4, 4), (3, 12)])
def test_shaw_indices_follow_the_published_formula(k, n):
    """tensor2tensor: clip(j - i, -k, k) + k for query i, key j."""
    got = posenc.shaw_relative_indices(n, max_relative_position=k)
    assert got.dtype == np.int32 and got.shape == (n, n)
    want = [[min(max(j - i, -k), k) + k for j in range(n)] for i in range(n)]
    assert got.tolist() == want
    wrong = got.copy()
    wrong[n - 1, 0] += 1
    assert wrong.tolist() != want


def test_shaw_default_clip_is_tensor2tensors():
    assert posenc.shaw_relative_indices(45).max() == 40 and posenc.shaw_relative_indices(45).min() == 0


# ---- Transformer-XL / XLNet ---------------------------------------------------------------------


def reference_positions(klen, qlen=0, clamp_len=-1, model="transformer-xl", attn_type="bi", bi_data=False):
    """The published position sequences: mem_transformer.py arange(klen - 1, -1, -1).clamp(max=clamp_len);
    HF XLNet relative_positional_encoding arange(beg, end, -1) and, with bi_data, arange(-beg, -end, 1)."""
    if model == "transformer-xl":
        pos = list(range(klen - 1, -1, -1))
        return [min(p, clamp_len) for p in pos] if clamp_len > 0 else pos
    beg, end = klen, (-qlen if attn_type == "bi" else -1)
    pos = list(range(beg, end, -1)) + (list(range(-beg, -end, 1)) if bi_data else [])
    return [max(-clamp_len, min(clamp_len, p)) for p in pos] if clamp_len > 0 else pos


@pytest.mark.parametrize("kwargs", [
    {"klen": 12},
    {"klen": 12, "clamp_len": 5},
    {"klen": 10, "model": "xlnet", "qlen": 4},
    {"klen": 10, "model": "xlnet", "qlen": 4, "attn_type": "uni"},
    {"klen": 10, "model": "xlnet", "qlen": 4, "bi_data": True, "clamp_len": 6},
    {"klen": 7, "model": "xlnet", "attn_type": "uni", "bi_data": True},
])
def test_transformer_xl_positions_follow_the_references(kwargs):
    got = posenc.transformer_xl_positions(**kwargs)
    want = reference_positions(**kwargs)
    assert got.dtype == np.int64 and got.tolist() == want
    wrong = got.copy()
    wrong[-1] += 1
    assert wrong.tolist() != want


@pytest.mark.parametrize("dtype", list(FMTS))
def test_transformer_xl_table_is_correctly_rounded(dtype):
    """Row r is [sin | cos] of position_r 10000^(-2i/d), every entry exact then rounded once."""
    fmt = FMTS[dtype]
    d = 16
    kwargs = {"klen": 6, "model": "xlnet", "qlen": 3, "bi_data": True}
    table = posenc.transformer_xl_table(d, dtype=dtype, **kwargs)
    positions = reference_positions(**kwargs)
    assert table.shape == (len(positions), d)
    rows = [0, 2, 6, 8, len(positions) - 1]  # positions 6, 4, -2 (the last forward), -6, 2
    exact = {}
    for r in rows:
        for i in range(d // 2):  # oracle.sinusoid is interleaved: element 2i is sin, 2i + 1 cos
            exact[(r, i)] = oracle.sinusoid(positions[r], 2 * i, d)
            exact[(r, d // 2 + i)] = oracle.sinusoid(positions[r], 2 * i + 1, d)
    assert mismatches(table, exact, fmt) == []
    assert mismatches(perturbed(table, fmt, (6, 3)), exact, fmt) == [(6, 3)]


def test_transformer_xl_rows_with_clamp():
    table = posenc.transformer_xl_table(32, 40, clamp_len=30)
    assert table.shape == (40, 32)
    assert np.array_equal(table[0], table[9])  # positions 39 .. 30 all clamp to 30
    for r, p in ((9, 30), (10, 29), (39, 0)):
        for k in (0, 15, 16, 31):
            want = oracle.sinusoid(p, 2 * k if k < 16 else 2 * (k - 16) + 1, 32)
            assert table[r, k] == oracle.rounded(want, "f64")


def test_transformer_xl_model_takes_the_clis_spelling():
    """--model transformer-xl and transformer_xl are one model in the CLI (tools/cli/spellings.hpp);
    Python takes both too."""
    a = posenc.transformer_xl_table(16, 8, "float32", model="transformer-xl")
    b = posenc.transformer_xl_table(16, 8, "float32", model="transformer_xl")
    assert np.array_equal(a, b) and a.dtype == np.float32
    assert posenc.transformer_xl_positions(8, model="transformer_xl").tolist() == list(range(7, -1, -1))
