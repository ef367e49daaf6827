"""posenc.rope_table / rope_inv_freq against values computed without posenc."""

import json
import math
import threading
import time
from decimal import Decimal
from fractions import Fraction
import warnings

import numpy as np
import pytest

import decimal_oracle as oracle
import posenc
from conftest import float64_guard, float64_mismatches, perturbed, rope_mismatches

LLAMA2 = {"head_dim": 128, "rope_theta": 10000.0}
POSITIONS = [0, 1, 2, 3, 255, 4095, 65535, 1 << 21]
FMTS = {"float64": "f64", "float32": "f32", "float16": "f16", "bfloat16": "bf16"}


def thetas(base, d):
    return [oracle.rope_theta(base, j, d) for j in range(d // 2)]


@pytest.mark.parametrize("dtype", list(FMTS))
def test_default_rope_is_correctly_rounded(dtype):
    fmt = FMTS[dtype]
    cfg = {"head_dim": 64, "rope_theta": 500000.0}
    cos, sin = posenc.rope_table(cfg, POSITIONS, dtype)
    assert cos.shape == sin.shape == (len(POSITIONS), 64)
    th = thetas(500000.0, 64)
    assert rope_mismatches(cos, sin, POSITIONS, th, fmt) == []
    # The same check finds one entry moved by one ulp.
    assert rope_mismatches(perturbed(cos, fmt, (5, 3)), sin, POSITIONS, th, fmt) == [(4095, 3, 3)]


def test_consecutive_rows_and_interleaved_layout():
    cos, sin = posenc.rope_table(LLAMA2, 6, "float32", start=4090, layout="interleaved")
    assert cos.shape == (6, 128)
    assert rope_mismatches(cos, sin, range(4090, 4096), thetas(10000.0, 128), "f32", layout="interleaved") == []
    # interleaved is half_split with the columns permuted
    hc, hs = posenc.rope_table(LLAMA2, 6, "float32", start=4090)
    perm = np.empty(128, dtype=int)
    perm[0::2], perm[1::2] = np.arange(64), np.arange(64) + 64
    assert np.array_equal(cos, hc[:, perm]) and np.array_equal(sin, hs[:, perm])


def test_positions_list_equals_the_consecutive_rows():
    cos, sin = posenc.rope_table(LLAMA2, 300, "float32")
    picks = [299, 0, 17, 17, 4]
    lc, ls = posenc.rope_table(LLAMA2, picks, "float32")
    assert np.array_equal(lc, cos[picks]) and np.array_equal(ls, sin[picks])
    nc, _ = posenc.rope_table(LLAMA2, np.array(picks, dtype=np.int32), "float32")
    assert np.array_equal(nc, lc)


def test_row_zero_is_cos_one_sin_zero():
    for dtype in FMTS:
        cos, sin = posenc.rope_table(LLAMA2, 1, dtype)
        if dtype == "bfloat16":
            cos, sin = posenc.bfloat16_to_float32(cos), posenc.bfloat16_to_float32(sin)
        assert np.all(np.asarray(cos, dtype=np.float64) == 1.0) and np.all(np.asarray(sin, dtype=np.float64) == 0.0)


def test_linear_scaling_and_partial_rotary():
    cfg = {"head_dim": 64, "rope_theta": 10000.0, "partial_rotary_factor": 0.5,
           "rope_scaling": {"rope_type": "linear", "factor": 4.0}}
    cos, sin = posenc.rope_table(cfg, [0, 7, 1000], "float32")
    assert cos.shape == (3, 32)
    th = [t / 4 for t in thetas(10000.0, 32)]
    assert rope_mismatches(cos, sin, [0, 7, 1000], th, "f32") == []


def test_llama31_config_file_is_correctly_rounded(configs):
    path = configs / "llama-3.1-8b.json"
    raw = json.loads(path.read_text())
    scaling = raw["rope_scaling"]
    th = [oracle.llama3_inv_freq(raw["rope_theta"], j, 128, scaling["factor"], scaling["low_freq_factor"],
                                 scaling["high_freq_factor"], scaling["original_max_position_embeddings"])
          for j in range(64)]
    positions = [1, 8191, 131071]
    cos, sin = posenc.rope_table(path, positions, "float32")
    assert rope_mismatches(cos, sin, positions, th, "f32") == []
    inv, att = posenc.rope_inv_freq(path, "float64")
    assert att == 1.0
    assert [float(x) for x in inv] == [oracle.rounded(t, "f64") for t in th]
    wrong = np.array(inv)
    wrong[20] = np.nextafter(wrong[20], 0)
    assert [float(x) for x in wrong] != [oracle.rounded(t, "f64") for t in th]


def test_yarn_attention_factor_folded_once():
    cfg = {"head_dim": 64, "rope_theta": 10000.0, "max_position_embeddings": 32768,
           "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 8192}}
    inv, att = posenc.rope_inv_freq(cfg, "float64")
    with oracle.ctx():
        exact_att = Decimal("0.1") * Decimal(4).ln() + 1  # HF get_mscale(4) = 0.1 ln(s) + 1
    assert att == oracle.rounded(exact_att, "f64")
    positions = np.array([0, 3, 5000])
    cos, sin = posenc.rope_table(cfg, positions, "float32", fold_attention=True)
    # row 0: RN(af * 1) and RN(af * 0), rounded once from the exact factor
    assert np.all(cos[0].view(np.uint32) == oracle.rounded(exact_att, "f32")) and np.all(sin[0] == 0)
    angle = positions[:, None] * np.asarray(inv)[None, :]
    ref = float(exact_att) * np.cos(angle)
    bad, skipped = float64_mismatches(cos[:, :32], ref, "f32", float64_guard(angle, ref))
    assert bad == [] and skipped <= 2


@pytest.mark.parametrize("name", ["llama-3.1-8b", "llama-3.2-1b", "qwen2.5-7b-instruct-yarn", "deepseek-v3",
                                  "phi-3.5-mini-instruct", "gpt-oss-20b", "gemma-2-2b", "pythia-160m", "gpt-j-6b"])
def test_every_shipped_config_against_numpy_float64(configs, name):
    """float32 tables of every shipped config against numpy float64 cos/sin of (posenc's float64
    frequency x position), rounded to float32; entries whose reference lies within its own error
    bound (float64_guard) of a float32 midpoint are skipped, and must be rare."""
    path = configs / f"{name}.json"
    positions = np.array([0, 1, 100, 1000, 4095, 8191], dtype=np.int64)
    cos, sin = posenc.rope_table(path, positions, "float32")
    # HF's sequence length for this table (Phi-3.5's LongRoPE: past 4096, the long factors).
    inv, _ = posenc.rope_inv_freq(path, "float64", seq_len=int(positions.max()) + 1)
    angle = positions[:, None].astype(np.float64) * np.asarray(inv)[None, :]
    d = 2 * len(inv)
    for table, ref in ((cos, np.cos(angle)), (sin, np.sin(angle))):
        for half in (table[:, : d // 2], table[:, d // 2:]):
            bad, skipped = float64_mismatches(half, ref, "f32", float64_guard(angle, ref))
            assert bad == [] and skipped <= half.size // 100
    ref = np.cos(angle)
    bad, _ = float64_mismatches(perturbed(cos[:, : d // 2], "f32", (4, 1)), ref, "f32", float64_guard(angle, ref))
    assert bad == [[4, 1]]


def test_hf_float32_policy_matches_numpy_float32_pipeline():
    """HF's float32 pipeline written in numpy: exponent float32(2j) / float32(d), powf (here float64
    pow rounded to float32, the correctly rounded powf; for base 1e4 and d = 128 torch's AVX2 pow,
    which the policy follows, gives it on all 64 pairs: docs/rope-precision.md), the float32
    reciprocal, the float32 product inv_freq[j] * float32(m), and cos/sin of that float32 angle
    (float64 cos rounded to float32). inv_freq and the angles must agree bit for bit."""
    d = 128
    positions = np.arange(0, 4096, 37)
    exponent = np.arange(0, d, 2, dtype=np.int64).astype(np.float32) / np.float32(d)
    powf = (np.float64(np.float32(10000.0)) ** exponent.astype(np.float64)).astype(np.float32)
    inv_np = np.float32(1.0) / powf
    inv, _ = posenc.rope_inv_freq(LLAMA2, "float32", policy="hf_float32")
    assert np.array_equal(inv, inv_np)
    cos, sin = posenc.rope_table(LLAMA2, positions, "float32", policy="hf_float32")
    angle = (positions[:, None].astype(np.float32) * inv_np[None, :]).astype(np.float64)
    for table, ref in ((cos[:, :64], np.cos(angle)), (sin[:, :64], np.sin(angle))):
        bad, skipped = float64_mismatches(table, ref, "f32", 2.0 ** -50 * np.abs(ref))
        assert bad == [] and skipped <= 2
    assert np.array_equal(cos[:, 64:], cos[:, :64])  # half_split: both halves hold pair j
    # it is not the exact table (the float32 angle drifts), and a perturbed inv_freq is noticed
    exact, _ = posenc.rope_table(LLAMA2, positions, "float32")
    assert not np.array_equal(exact, cos)
    assert not np.array_equal(inv, perturbed(inv_np, "f32", (9,)))


def test_hf_float32_power_is_torchs_not_the_correctly_rounded_one():
    """Base 1e6, d = 128 (Mistral-7B-v0.3, Qwen3-8B), pair 37: torch 1.13's AVX2 pow gives
    0x1.6fd744p+11 (the issue's measurement; docs/rope-precision.md), the correctly rounded float32
    power (float64 pow rounded: exact enough here) 0x1.6fd746p+11."""
    cfg = {"head_dim": 128, "rope_theta": 1e6}
    inv, _ = posenc.rope_inv_freq(cfg, "float32", policy="hf_float32")
    t = np.float32(74) / np.float32(128)
    correctly_rounded = np.float32(np.float64(1e6) ** np.float64(t))
    assert float(correctly_rounded) == float.fromhex("0x1.6fd746p+11")
    assert inv[37] == np.float32(1.0) / np.float32(float.fromhex("0x1.6fd744p+11"))
    assert inv[37] != np.float32(1.0) / correctly_rounded


def test_hf_float32_takes_the_callers_inv_freq():
    """inv_freq= replaces posenc's float32 inv_freq (a torch whose pow differs); the angles are then
    float32(m) * inv_freq[j] and cos/sin those of that angle, as for posenc's own."""
    cfg = {"head_dim": 128, "rope_theta": 1e6}
    d, positions = 128, np.arange(0, 4096, 41)
    exponent = np.arange(0, d, 2, dtype=np.int64).astype(np.float32) / np.float32(d)
    mine = np.float32(1.0) / (np.float64(1e6) ** exponent.astype(np.float64)).astype(np.float32)  # correctly rounded
    own, _ = posenc.rope_table(cfg, positions, "float32", policy="hf_float32")
    cos, sin = posenc.rope_table(cfg, positions, "float32", policy="hf_float32", inv_freq=mine)
    angle = (positions[:, None].astype(np.float32) * mine[None, :]).astype(np.float64)
    for table, ref in ((cos[:, :64], np.cos(angle)), (sin[:, :64], np.sin(angle))):
        bad, skipped = float64_mismatches(table, ref, "f32", 2.0 ** -50 * np.abs(ref))
        assert bad == [] and skipped <= 2
    assert not np.array_equal(own, cos)  # pair 37 differs from posenc's (torch's) inv_freq
    same, _ = posenc.rope_table(cfg, positions, "float32", policy="hf_float32",
                                inv_freq=posenc.rope_inv_freq(cfg, "float32", policy="hf_float32")[0])
    assert np.array_equal(same, own)
    with pytest.raises(TypeError, match="float32"):
        posenc.rope_table(cfg, 4, "float32", policy="hf_float32", inv_freq=mine.astype(np.float64))
    with pytest.raises(ValueError, match="rotary_dim / 2 = 64 entries, got 63"):
        posenc.rope_table(cfg, 4, "float32", policy="hf_float32", inv_freq=mine[:63])
    with pytest.raises(ValueError, match="hf_float32"):
        posenc.rope_table(cfg, 4, "float32", inv_freq=mine)


def test_overrides_apply_over_the_config(configs):
    c1, _ = posenc.rope_table(configs / "llama-3.2-1b.json", 4, "float64", rope_theta=10000.0,
                              rope_type="default", head_dim=128)
    c2, _ = posenc.rope_table(None, 4, "float64", head_dim=128)
    assert np.array_equal(c1, c2)
    cfg = posenc.rope_config(configs / "qwen2.5-7b-instruct-yarn.json")
    assert cfg["rope_type"] == "yarn" and cfg["factor"] == 4.0 and cfg["effective_rotary_dim"] == 128


def test_rope_defaults_are_the_clis_float64():
    """The CLI is the reference: `posenc emit rope` and `emit rope-freq` default to --dtype f64
    (docs/cli.md, "Other flags"); rope_table and rope_inv_freq default to float64 too (test_cli.py
    compares their default output with the CLI's)."""
    cos, sin = posenc.rope_table(LLAMA2, [0, 7, 4095])
    assert cos.dtype == sin.dtype == np.float64
    assert rope_mismatches(cos, sin, [0, 7, 4095], thetas(10000.0, 128), "f64") == []
    inv, att = posenc.rope_inv_freq(LLAMA2)
    assert inv.dtype == np.float64 and att == 1.0
    assert [float(x) for x in inv] == [oracle.rounded(t, "f64") for t in thetas(10000.0, 128)]


# Both spellings of every name the CLI reads (tools/cli/spellings.hpp: the CLI's dashed words and
# short dtypes, Python's identifiers) give the same table; the CLI's side is test_cli_emit.cpp's
# "Python's spellings give the canonical spellings' bytes".
@pytest.mark.parametrize("python_word,cli_word", [
    ({"layout": "half_split"}, {"layout": "half-split"}),
    ({"policy": "hf_float32"}, {"policy": "hf-float32"}),
    ({"policy": "ggml_float32"}, {"policy": "ggml-float32"}),
    ({"dtype": "float64"}, {"dtype": "f64"}),
    ({"dtype": "float32"}, {"dtype": "f32"}),
    ({"dtype": "bfloat16"}, {"dtype": "bf16"}),
    ({"dtype": "float16"}, {"dtype": "f16"}),
])
def test_the_clis_spellings_are_pythons(python_word, cli_word):
    a = posenc.rope_table(LLAMA2, [0, 9, 70000], **python_word)
    b = posenc.rope_table(LLAMA2, [0, 9, 70000], **cli_word)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and np.array_equal(x.view(np.uint8), y.view(np.uint8))
    if "dtype" in python_word:  # the dtype each spelling names
        assert a[0].dtype.itemsize == {"float64": 8, "float32": 4, "bfloat16": 2, "float16": 2}[python_word["dtype"]]
        assert (a[0].dtype == np.float16) == (python_word["dtype"] == "float16")
    if "layout" not in python_word:
        f, g = posenc.rope_inv_freq(LLAMA2, **python_word), posenc.rope_inv_freq(LLAMA2, **cli_word)
        assert f[0].dtype == g[0].dtype and np.array_equal(f[0].view(np.uint8), g[0].view(np.uint8)) and f[1] == g[1]


def test_dtype_spellings_and_bfloat16_bits():
    c32, _ = posenc.rope_table(LLAMA2, 16, np.float32)
    assert c32.dtype == np.float32
    assert np.array_equal(c32, posenc.rope_table(LLAMA2, 16, "f32")[0])
    c16, _ = posenc.rope_table(LLAMA2, 16, "half")
    assert c16.dtype == np.float16
    bf, _ = posenc.rope_table(LLAMA2, 16, "bfloat16")
    assert bf.dtype.itemsize == 2 and bf.dtype != np.float16
    widened = posenc.bfloat16_to_float32(bf)
    # the bfloat16 entries are the exact values rounded once: within half a bf16 ulp of the float64 table
    c64, _ = posenc.rope_table(LLAMA2, 16, "float64")
    ulp = 2.0 ** (np.floor(np.log2(np.maximum(np.abs(c64), 2.0 ** -126))) - 7)
    assert np.all(np.abs(widened - c64) <= ulp / 2)


def test_fill_releases_the_gil():
    """While a large table fills in another thread, this thread keeps running Python code: the
    longest pause between its iterations is far below the fill's duration."""
    cfg = {"head_dim": 128}
    t0 = time.perf_counter()
    posenc.rope_table(cfg, 1 << 14, "float64")
    single = time.perf_counter() - t0
    rows = int(min(1 << 21, (1 << 14) * max(1.0, 0.6 / max(single, 1e-4))))
    done = threading.Event()
    thread = threading.Thread(target=lambda: (posenc.rope_table(cfg, rows, "float64"), done.set()))
    start = time.perf_counter()
    thread.start()
    last, gap, loops = time.perf_counter(), 0.0, 0
    while not done.is_set():
        now = time.perf_counter()
        gap, last, loops = max(gap, now - last), now, loops + 1
    thread.join()
    total = time.perf_counter() - start
    assert loops > 100 and gap < total / 2, (loops, gap, total)


# ---- ggml's float32 recurrence ----------------------------------------------------------------------


def ggml_angles_numpy(positions, d, base=10000.0, factor=None):
    """ggml-cpu's rope cache written in numpy float32 (ops.cpp ggml_rope_cache_init): theta_scale =
    powf(base, -2.0f / d) (float64 pow of the float32 operands rounded to float32: the correctly
    rounded powf posenc's policy specifies), theta = float(m), then per pair angle = freq_scale * theta
    and theta *= theta_scale, all float32; freq_scale = 1.0f / factor for linear scaling."""
    scale = np.float32(np.float64(np.float32(base)) ** np.float64(np.float32(-2.0) / np.float32(d)))
    fs = np.float32(1.0) if factor is None else np.float32(1.0) / np.float32(factor)
    theta = np.asarray(positions).astype(np.float32)
    angles = np.empty((len(theta), d // 2), dtype=np.float32)
    for j in range(d // 2):
        angles[:, j] = fs * theta
        theta = theta * scale
    return angles.astype(np.float64)


def ggml_mismatches(cos, sin, angle, pairs):
    """float32 entries of (cos, sin) (half_split) that are not float64 cos/sin of the float32 angle
    rounded to float32, away from midpoints (float64_mismatches); returns (bad, skipped)."""
    bad, skipped = [], 0
    for table, ref in ((cos, np.cos(angle)), (sin, np.sin(angle))):
        for half in (table[:, :pairs], table[:, pairs:]):
            b, s = float64_mismatches(half, ref, "f32", 2.0 ** -50 * np.abs(ref))
            bad += b
            skipped += s
    return bad, skipped


@pytest.mark.parametrize("cfg,factor", [
    ({"head_dim": 128, "rope_theta": 10000.0}, None),
    ({"head_dim": 64, "rope_theta": 500000.0, "rope_scaling": {"rope_type": "linear", "factor": 3.0}}, 3.0),
    ({"head_dim": 96, "rope_theta": 10000.0, "partial_rotary_factor": 0.5,
      "rope_scaling": {"type": "linear", "factor": 4.0}}, 4.0),
])
def test_ggml_float32_policy_matches_numpy_float32_recurrence(cfg, factor):
    """The table of policy ggml_float32 is cosf/sinf of ggml's float32 recurrence, bit for bit; it is
    neither the exact table nor HF's float32 pipeline, and the check sees one entry moved by one ulp."""
    positions = np.concatenate([np.arange(0, 4096, 61), [65535, 1 << 20, 1 << 21]])
    cos, sin = posenc.rope_table(cfg, positions, "float32", policy="ggml_float32")
    d = posenc.rope_config(cfg)["effective_rotary_dim"]
    assert cos.shape == (len(positions), d)
    angle = ggml_angles_numpy(positions, d, cfg["rope_theta"], factor)
    bad, skipped = ggml_mismatches(cos, sin, angle, d // 2)
    assert bad == [] and skipped <= 4
    bad, _ = ggml_mismatches(perturbed(cos, "f32", (40, 5)), sin, angle, d // 2)
    assert bad == [[40, 5]]
    hf, _ = posenc.rope_table(cfg, positions, "float32", policy="hf_float32")
    exact, _ = posenc.rope_table(cfg, positions, "float32")
    assert not np.array_equal(cos, hf) and not np.array_equal(cos, exact)


@pytest.mark.parametrize("cfg,factor", [
    ({"head_dim": 128, "rope_theta": 10000.0}, None),
    ({"head_dim": 64, "rope_theta": 500000.0, "rope_scaling": {"rope_type": "linear", "factor": 3.0}}, 3.0),
    ({"head_dim": 96, "rope_theta": 10000.0, "partial_rotary_factor": 0.5,
      "rope_scaling": {"type": "linear", "factor": 4.0}}, 4.0),
])
def test_ggml_float32_inv_freq_is_the_recurrence_at_position_1(cfg, factor):
    """ggml keeps no inv_freq tensor; policy ggml_float32's inv_freq is its angle at position 1,
    freq_scale * theta_scale^j by the float32 recurrence (ggml_angles_numpy at m = 1), attention factor
    1.0, converted to the dtype as .to(dtype) does: what `posenc emit rope-freq --policy ggml-float32`
    writes (test_cli.py compares the two)."""
    d = posenc.rope_config(cfg)["effective_rotary_dim"]
    want = ggml_angles_numpy([1], d, cfg["rope_theta"], factor)[0]
    inv, att = posenc.rope_inv_freq(cfg, "float32", policy="ggml_float32")
    assert inv.dtype == np.float32 and inv.shape == (d // 2,) and att == 1.0
    assert np.array_equal(inv.astype(np.float64), want)
    moved = perturbed(inv, "f32", (5,))
    assert not np.array_equal(moved.astype(np.float64), want)  # the check sees one pair moved by one ulp
    inv64, att64 = posenc.rope_inv_freq(cfg, "float64", policy="ggml_float32")
    assert np.array_equal(inv64, want) and att64 == 1.0
    bf, _ = posenc.rope_inv_freq(cfg, "bfloat16", policy="ggml_float32")
    assert np.array_equal(np.asarray(bf).view(np.uint16), posenc.float32_to_bfloat16_bits(want.astype(np.float32)))


def test_float32_to_bfloat16_bits_rounds_ties_to_even():
    """posenc.float32_to_bfloat16_bits is IEEE round-to-nearest-even from float32 (what torch's
    .to(torch.bfloat16) and posenc's C++ do): bfloat16 is float32's high 16 bits, so a float32 whose
    low 16 bits are exactly 0x8000 is a tie and goes to the even high half; one bit either side of
    the tie goes down or up. Expected values are the definition applied by hand."""
    cases = {
        0x3F808000: 0x3F80,  # 1 + 2^-8: halfway between 1 and 1 + 2^-7, to even (down)
        0x3F818000: 0x3F82,  # 1 + 3 2^-8: halfway, to even (up)
        0x3F807FFF: 0x3F80,  # just below the tie
        0x3F808001: 0x3F81,  # just above the tie
        0xBF808000: 0xBF80,  # the same ties negative
        0xBF818000: 0xBF82,
        0x00008000: 0x0000,  # the smallest subnormal tie: +0
        0x00018000: 0x0002,
        0x7F7F8000: 0x7F80,  # a tie at the top of the largest binade: to even, which is infinity
        0x7F7F7FFF: 0x7F7F,
        0x7F800000: 0x7F80,  # infinity stays infinity
    }
    u = np.array(list(cases), dtype=np.uint32)
    got = posenc.float32_to_bfloat16_bits(u.view(np.float32))
    assert [hex(g) for g in got.tolist()] == [hex(w) for w in cases.values()]
    # Every low half of one even and one odd high half: down below 0x8000, up above, even at it.
    for high in (0x3F80, 0x3F81):
        low = np.arange(0x10000, dtype=np.uint32)
        got = posenc.float32_to_bfloat16_bits(((np.uint32(high) << 16) | low).view(np.float32)).astype(np.int64)
        up = (low > 0x8000) | ((low == 0x8000) & (high % 2 == 1))
        assert np.array_equal(got, high + up.astype(np.int64))
    nan = posenc.float32_to_bfloat16_bits(np.array([0x7FC00001, 0x7F800001], dtype=np.uint32).view(np.float32))
    assert np.isnan(posenc.bfloat16_to_float32(nan)).all()  # a NaN stays NaN, never rounded into infinity


def test_ggml_float32_in_other_dtypes_is_the_float32_table_converted():
    """Like HF's .to(dtype): float64 holds the float32 values exactly; float16 and bfloat16 round them
    (a second rounding, which the exact policy does not have)."""
    cfg = {"head_dim": 64, "rope_theta": 10000.0}
    f32, s32 = posenc.rope_table(cfg, 300, "float32", start=100, policy="ggml_float32")
    f64, _ = posenc.rope_table(cfg, 300, "float64", start=100, policy="ggml_float32")
    assert np.array_equal(f64, f32.astype(np.float64))
    f16, _ = posenc.rope_table(cfg, 300, "float16", start=100, policy="ggml_float32")
    assert np.array_equal(f16, f32.astype(np.float16))  # numpy rounds float32 -> float16 to nearest even
    _, bf = posenc.rope_table(cfg, 300, "bfloat16", start=100, policy="ggml_float32", layout="interleaved")
    want = posenc.float32_to_bfloat16_bits(s32)
    perm = np.empty(64, dtype=int)
    perm[0::2], perm[1::2] = np.arange(32), np.arange(32) + 32
    assert np.array_equal(np.asarray(bf).view(np.uint16), want[:, perm])


def test_seq_len_unset_follows_hf_rule(configs):
    """HF's dynamic_rope_update: seq_len = max(position_ids) + 1, and LongRoPE takes its long factors
    iff seq_len > original_max_position_embeddings (4096 for Phi-3.5)."""
    phi = configs / "phi-3.5-mini-instruct.json"
    for last, takes_long in ((4095, False), (4096, True)):
        positions = [last, 0]  # the largest position anywhere in the list decides
        got = posenc.rope_table(phi, positions, "float32")
        want = posenc.rope_table(phi, positions, "float32", seq_len=last + 1)
        short = posenc.rope_table(phi, positions, "float32", seq_len=4096)
        assert all(np.array_equal(g, w) for g, w in zip(got, want))
        assert np.array_equal(got[0], short[0]) == (not takes_long)
        counted = posenc.rope_table(phi, last + 1, "float32")  # rows 0 .. last
        assert np.array_equal(counted[0][[last, 0]], got[0])


def test_positions_past_max_position_embeddings_warn(configs):
    phi = configs / "phi-3.5-mini-instruct.json"  # max_position_embeddings 131072
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        posenc.rope_table(phi, [131071], "float32")  # inside: no warning
    with pytest.warns(UserWarning, match=r"rope_table: position 131072 is past max_position_embeddings 131072"):
        cos, _ = posenc.rope_table(phi, [5, 131072], "float32")
    assert cos.shape == (2, 96)


def test_torch_dtype_gives_torch_tensors(configs):
    """A dtype asked for as a torch dtype gives torch tensors: bfloat16 as torch.bfloat16, same bits."""
    torch = pytest.importorskip("torch")
    cfg = configs / "llama-3.1-8b.json"
    cos_t, sin_t = posenc.rope_table(cfg, 16, torch.bfloat16)
    cos_n, _ = posenc.rope_table(cfg, 16, "bfloat16")
    assert isinstance(cos_t, torch.Tensor) and cos_t.dtype == torch.bfloat16 and tuple(cos_t.shape) == (16, 128)
    assert np.array_equal(cos_t.view(torch.int16).numpy().view(np.uint16), np.asarray(cos_n).view(np.uint16))
    inv_t, _ = posenc.rope_inv_freq(cfg, torch.float32)
    assert inv_t.dtype == torch.float32
    assert np.array_equal(inv_t.numpy(), posenc.rope_inv_freq(cfg, "float32")[0])
