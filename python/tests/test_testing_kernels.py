"""posenc.testing against a gallery of RoPE and bias kernels: the correct ones pass, every buggy one
is caught with a shrunk counterexample that names the broken property, and the derived tolerance is
tight (docs/testing-kernels.md, where this gallery is shown).

The kernels are written here, in numpy, from the formulas (HF's rotate_half apply, cos/sin of
position x inv_freq); posenc supplies only the frequencies (rope_inv_freq, checked against
values computed without posenc in test_rope.py) and, for the kernels meant to use posenc's own
tables, rope_table.
"""

import re

import numpy as np
import pytest

pytest.importorskip("hypothesis")

import posenc  # noqa: E402
import posenc.testing as pt  # noqa: E402
from posenc.testing import strategies as ps  # noqa: E402

SEED = 20261127
EXAMPLES = 30


def cfg_path(configs, name):
    return configs / f"{name}.json"


def _bf16(v):
    return pt.round_to("bf16", v)


def rope_kernel(config, *, layout="half_split", dtype=np.float32, table=np.float32, compute=np.float32,
                position_map=None, angle_dtype=np.float64, theta=None, sin_error=0.0, flip_pair=None,
                fold=True, rotate_all=False, wrong_element=None, nudge_ulps=0, posenc_table=False):
    """A numpy RoPE kernel in HF's order (x * cos + rotate_half(x) * sin), with one bug switched on
    by a keyword (all off: a correct kernel). Values are float64 inside, rounded where the kernel's
    formats say: entries to `table`, products and sums to `compute`, the result to `dtype`."""
    inv, af = posenc.rope_inv_freq(config, "float64", **({"rope_theta": theta} if theta else {}))
    inv = np.asarray(inv, dtype=np.float64)
    af = af if fold else 1.0
    half = len(inv)
    d = 2 * half
    fmt = {np.float64: "f64", np.float32: "f32", np.float16: "f16", "bf16": "bf16"}

    def rnd(v, f):
        return pt.round_to(fmt[f], v)

    def kernel(x, positions):
        xv = pt.round_to(fmt[dtype], _decode(x, dtype))
        p = positions.astype(np.int64)
        if position_map is not None:
            p = position_map(p)
        if posenc_table:
            source = "float32" if table is np.float32 or table == "bf16" else "float64"  # bf16: .to() of float32
            cos, sin = posenc.rope_table(config, np.asarray(p), source, fold_attention=fold)
            c = np.asarray(cos[:, :half], dtype=np.float64)
            s = np.asarray(sin[:, :half], dtype=np.float64)
        else:
            ang = p[:, None].astype(np.float64) * inv[None, :]
            with np.errstate(over="ignore", invalid="ignore"):  # float16 angles overflow: the bug shows as inf
                if angle_dtype is not np.float64:  # the angle rounded into a narrow format
                    ang = (p[:, None].astype(angle_dtype) * inv[None, :].astype(angle_dtype)).astype(np.float64)
                c = np.cos(ang) * af
                s = (np.sin(ang) + sin_error * np.sin(7.0 * ang + 1.0)) * af
        c, s = rnd(c, table), rnd(s, table)
        if nudge_ulps:  # every entry moved one ulp further from the exact value
            exact_c, exact_s = (np.asarray(t[:, :half], dtype=np.float64) for t in
                                posenc.rope_table(config, np.asarray(p), "float64", fold_attention=fold))
            u_c, u_s = pt.ulp(fmt[table], c), pt.ulp(fmt[table], s)
            c = c + nudge_ulps * np.where(c >= exact_c, u_c, -u_c)
            s = s + nudge_ulps * np.where(s >= exact_s, u_s, -u_s)
        c, s = c[:, None, :], s[:, None, :]
        if flip_pair is not None:
            s = s.copy()
            s[..., flip_pair] = -s[..., flip_pair]
        width = xv.shape[-1] if rotate_all else d
        if rotate_all and width != d:  # the whole head rotated with the rotary dim's pairs repeated
            reps = width // d
            c = np.concatenate([c] * reps, axis=-1)
            s = np.concatenate([s] * reps, axis=-1)
        h = width // 2
        if layout == "half_split":
            a, b = xv[..., :h], xv[..., h:width]
        else:
            a, b = xv[..., 0:width:2], xv[..., 1:width:2]
        ya = rnd(rnd(a * c, compute) - rnd(b * s, compute), compute)
        yb = rnd(rnd(a * s, compute) + rnd(b * c, compute), compute)
        out = xv.copy()
        if layout == "half_split":
            out[..., :h], out[..., h:width] = ya, yb
        else:
            out[..., 0:width:2], out[..., 1:width:2] = ya, yb
        if wrong_element is not None:
            out[..., wrong_element] = -out[..., wrong_element]
        return _encode(rnd(out, dtype), dtype)

    return kernel


def _decode(x, dtype):
    if dtype == "bf16":
        return (x.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return x.astype(np.float64)


def _encode(v, dtype):
    if dtype == "bf16":
        return (v.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return v.astype(dtype)


# ---- correct kernels pass ----

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float64_math_kernel_passes(configs, dtype):
    # angles, cos/sin, products and sums in float64; the result in dtype
    llama = cfg_path(configs, "llama-3.1-8b")
    kernel = rope_kernel(llama, dtype=np.float32 if dtype == "float32" else np.float64, table=np.float64,
                         compute=np.float64)
    r = pt.check_rope_apply(kernel, llama, dtype=dtype, table_dtype="float64", compute_dtype="float64",
                            angle_dtype="float64", examples=EXAMPLES, seed=SEED)
    assert r.cases >= EXAMPLES and 0 < r.worst_ratio <= 1
    # declared with an exact angle, the float64 kernel's angle error shows at long context
    if dtype == "float64":
        _caught(kernel, llama, None, dtype="float64", positions=np.arange(100000, 131072))


@pytest.mark.parametrize("name", ["llama-3.1-8b", "qwen2.5-7b-instruct-yarn", "phi-3.5-mini-instruct",
                                  "pythia-160m", "gpt-oss-20b"])
def test_posenc_tables_with_float32_ops_pass(configs, name):
    cfg = cfg_path(configs, name)
    r = pt.check_rope_apply(rope_kernel(cfg, posenc_table=True), cfg, dtype="float32",
                            table_rounding="correct", examples=EXAMPLES, seed=SEED)
    assert 0 < r.worst_ratio <= 1


def test_bfloat16_kernel_in_hf_order_passes(configs):
    # posenc's float32 table .to(bfloat16) (two roundings: faithful), every op rounded to bfloat16
    cfg = cfg_path(configs, "qwen2.5-7b-instruct-yarn")
    kernel = rope_kernel(cfg, dtype="bf16", table="bf16", compute="bf16", posenc_table=True)
    r = pt.check_rope_apply(kernel, cfg, dtype="bfloat16", examples=EXAMPLES, seed=SEED)
    assert 0 < r.worst_ratio <= 1


def test_hf_float32_pipeline_passes_against_hf_float32(configs):
    # HF's float32 pipeline: float32 inv_freq, float32 angle, cos/sin rounded to float32, x af in float32
    cfg = cfg_path(configs, "qwen2.5-7b-instruct-yarn")
    inv32, af = posenc.rope_inv_freq(cfg, "float32", policy="hf_float32")
    inv32 = np.asarray(inv32, dtype=np.float32)
    half = len(inv32)

    def hf_kernel(x, positions):
        ang = (positions.astype(np.float32)[:, None] * inv32[None, :]).astype(np.float64)
        c = (np.cos(ang).astype(np.float32) * np.float32(af))[:, None, :]
        s = (np.sin(ang).astype(np.float32) * np.float32(af))[:, None, :]
        a, b = x[..., :half], x[..., half:]
        return np.concatenate([a * c - b * s, a * s + b * c], axis=-1).astype(np.float32)

    r = pt.check_rope_apply(hf_kernel, cfg, reference="hf_float32", examples=EXAMPLES, seed=SEED)
    assert 0 < r.worst_ratio <= 1
    # and the same pipeline is far from the exact rotation at long context (the float32 angle)
    with pytest.raises(AssertionError, match="property '"):
        pt.check_rope_apply(hf_kernel, cfg, positions=np.arange(30000, 32768), examples=EXAMPLES, seed=SEED)


def test_ggml_float32_kernel_passes_against_ggml_float32(configs):
    # ggml's CPU recurrence table (rope::ggml_float32) with float32 operations: equal to ggml's cache
    cfg = cfg_path(configs, "pythia-160m")  # rope_type default (ggml's recurrence has no llama3 bands)

    def ggml_kernel(x, positions):
        cos, sin = posenc.rope_table(cfg, positions, "float32", policy="ggml_float32")
        half = cos.shape[1] // 2
        c, s = cos[:, None, :half], sin[:, None, :half]
        a, b = x[..., :half], x[..., half:2 * half]
        return np.concatenate([a * c - b * s, a * s + b * c, x[..., 2 * half:]], axis=-1)

    r = pt.check_rope_apply(ggml_kernel, cfg, reference="ggml_float32", table_rounding="correct",
                            examples=EXAMPLES, seed=SEED)
    assert 0 < r.worst_ratio <= 1
    _caught(ggml_kernel, cfg, None, positions=np.arange(1500, 2048))  # not the exact rotation


def test_layouts_are_one_rotation(configs):
    llama = cfg_path(configs, "llama-3.2-1b")
    half_split = rope_kernel(llama, posenc_table=True)
    interleaved = rope_kernel(llama, posenc_table=True, layout="interleaved")
    r = pt.check_rope_layouts(half_split, "half_split", interleaved, "interleaved", llama,
                              table_rounding="correct", examples=EXAMPLES, seed=SEED)
    assert r.worst_ratio <= 1
    with pytest.raises(AssertionError, match="property 'layout equivalence'"):
        pt.check_rope_layouts(half_split, "half_split", half_split, "interleaved", llama, examples=EXAMPLES,
                              seed=SEED)


# ---- the gallery of bugs: each caught, named, shrunk, replayable ----

def _caught(kernel, config, prop, **kw):
    kw.setdefault("examples", EXAMPLES)
    kw.setdefault("seed", SEED)
    with pytest.raises(AssertionError) as e:
        pt.check_rope_apply(kernel, config, **kw)
    message = str(e.value)
    assert "counterexample (shrunk): case(" in message and f"replay: pass seed={kw['seed']}" in message
    if prop is not None:
        assert f"property '{prop}'" in message, message
    return message


GALLERY = [
    # (id, config, kernel keywords, check keywords, the property that must fire (None: any))
    ("sign flipped in one pair", "llama-3.1-8b", {"flip_pair": 5}, {}, "inverse"),
    ("interleaved kernel tested as half-split", "llama-3.1-8b", {"layout": "interleaved"}, {}, None),
    ("positions off by one", "llama-3.1-8b", {"position_map": lambda p: p + 1}, {}, "inverse"),
    ("wrong base", "llama-3.1-8b", {"theta": 10000.0}, {}, "inverse"),
    ("angles in float16", "llama-3.1-8b", {"angle_dtype": np.float16}, {}, None),
    ("sine accurate to 1e-4", "llama-3.2-1b", {"sin_error": 1e-4}, {}, None),
    ("pass-through dims rotated", "pythia-160m", {"rotate_all": True}, {}, "pass-through"),
    ("attention factor missing", "qwen2.5-7b-instruct-yarn", {"fold": False}, {}, "norm"),
    ("positions wrap at a cache of 4096", "llama-3.1-8b", {"position_map": lambda p: p % 4096}, {}, None),
    ("float32 angles at long context", "llama-3.1-8b", {"angle_dtype": np.float32}, {}, None),
    ("bfloat16 kernel, one wrong element", "llama-3.2-1b",
     {"dtype": "bf16", "table": "bf16", "compute": "bf16", "posenc_table": True, "wrong_element": 37},
     {"dtype": "bfloat16"}, None),
]


@pytest.mark.parametrize("name,config,bug,check,prop", GALLERY, ids=[g[0] for g in GALLERY])
def test_gallery_bug_is_caught(configs, name, config, bug, check, prop):
    cfg = cfg_path(configs, config)
    _caught(rope_kernel(cfg, **bug), cfg, prop, **check)


def test_failure_names_position_head_pair_element_ulps_and_replays(configs):
    cfg = cfg_path(configs, "llama-3.1-8b")
    kernel = rope_kernel(cfg, flip_pair=5)
    first = _caught(kernel, cfg, "inverse")
    assert re.search(r"position \d+ \(token \d+ of \d+\), head \d+, pair 5, element (5|69): got ", first), first
    assert re.search(r"error [0-9.e+]+ ulp of float32, the derived bound [0-9.e+-]+ ulp", first)
    assert first == _caught(kernel, cfg, "inverse")  # the seed replays the same shrunk counterexample


# ---- the tolerance is tight ----

def test_bound_is_tight(configs):
    """A correct kernel comes close to the derived bound, and one ulp worse per entry fails it.

    Model: float32 result and float32 entries correctly rounded (posenc's), products and sums in
    float64. The bound is then half an ulp of each entry (times |x|) plus the result's rounding, and
    a kernel whose entries are each one ulp further from the exact value exceeds it."""
    cfg = cfg_path(configs, "llama-3.1-8b")
    good = rope_kernel(cfg, posenc_table=True, compute=np.float64)
    r = pt.check_rope_apply(good, cfg, compute_dtype="float64", table_rounding="correct", examples=200, seed=SEED)
    assert 0.9 <= r.worst_ratio <= 1, r
    worse = rope_kernel(cfg, posenc_table=True, compute=np.float64, nudge_ulps=1)
    _caught(worse, cfg, None, compute_dtype="float64", table_rounding="correct", examples=200)


# ---- bias kernels ----

def test_alibi_kernel(configs):
    bloom = configs / "bloom-560m.json"
    slopes32 = np.asarray(posenc.alibi_slopes(bloom, dtype="float32"))

    def alibi(distances):  # BLOOM: float32 slopes times the distance in float32
        return -(slopes32[:, None] * distances[None, :].astype(np.float32))

    r = pt.check_bias(alibi, "alibi", bloom, table_rounding="correct", examples=EXAMPLES, seed=SEED)
    assert r.worst_ratio <= 1

    def alibi_off_by_one(distances):
        return alibi(distances + 1)

    with pytest.raises(AssertionError, match=r"ALiBi bias of head \d+ at distance \d+"):
        pt.check_bias(alibi_off_by_one, "alibi", bloom, examples=EXAMPLES, seed=SEED)


def hf_t5_bucket(relative, num_buckets=32, max_distance=128, bidirectional=True):
    """HF's T5Attention._relative_position_bucket in numpy float32 (its torch float32 arithmetic)."""
    ret = np.zeros_like(relative)
    n = relative.copy()
    if bidirectional:
        num_buckets //= 2
        ret += (n > 0).astype(np.int64) * num_buckets
        n = np.abs(n)
    else:
        n = -np.minimum(n, 0)
    max_exact = num_buckets // 2
    small = n < max_exact
    with np.errstate(divide="ignore"):
        large = (np.log(n.astype(np.float32) / np.float32(max_exact)) / np.float32(np.log(max_distance / max_exact))
                 * np.float32(num_buckets - max_exact))
    large = np.minimum(max_exact + np.where(small, 0, large).astype(np.int64), num_buckets - 1)
    return ret + np.where(small, n, large)


def test_t5_bucket_kernel(configs):
    t5 = configs / "t5-small.json"  # 32 buckets, max_distance 128, bidirectional
    r = pt.check_bias(hf_t5_bucket, "t5-bucket", t5, examples=EXAMPLES, seed=SEED)
    assert r.cases >= EXAMPLES

    def query_minus_key(relative):  # the sign convention swapped: buckets of query - key
        return hf_t5_bucket(-relative)

    with pytest.raises(AssertionError, match=r"T5 bucket of relative position -?1 \(key - query\): got"):
        pt.check_bias(query_minus_key, "t5-bucket", t5, examples=EXAMPLES, seed=SEED)


# ---- strategies ----

def test_strategies_draw_valid_configs_and_positions():
    from hypothesis import given, settings

    @settings(max_examples=30, deadline=None, database=None)
    @given(ps.rope_configs(), ps.data())
    def run(config, data):
        cfg = posenc.rope_config(config)
        pos = data.draw(ps.positions(config, count=3))
        limit = ps.position_limit(config)
        assert all(0 <= p < limit for p in pos)
        x = data.draw(ps.vectors("bfloat16", (2, 1, cfg["head_dim"])))
        assert np.array_equal(x, pt.round_to("bf16", x))
        posenc.rope_table(config, pos, "float32")

    run()


# ---- torch kernels (skipped without torch; Debian python3-torch) ----

def test_torch_bfloat16_kernel(configs):
    """HF's apply_rotary_pos_emb in torch bfloat16 (its ops compute in float32 and round each result to
    bfloat16), fed posenc's exact table asked for as torch.bfloat16; and the same with one wrong lane."""
    torch = pytest.importorskip("torch")
    cfg = cfg_path(configs, "qwen2.5-7b-instruct-yarn")

    def rotate_half(x):
        x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def hf_apply(x, positions, wrong_lane=None):
        cos, sin = posenc.rope_table(cfg, positions.numpy(), torch.bfloat16, fold_attention=True)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # [tokens, 1, head_dim] against [tokens, heads, head_dim]
        out = (x * cos) + (rotate_half(x) * sin)
        if wrong_lane is not None:
            out[..., wrong_lane] = x[..., wrong_lane]
        return out

    r = pt.check_rope_apply(hf_apply, cfg, dtype="bfloat16", framework="torch", table_rounding="correct",
                            examples=EXAMPLES, seed=SEED)
    assert 0 < r.worst_ratio <= 1

    def one_wrong_lane(x, positions):
        return hf_apply(x, positions, wrong_lane=100)

    _caught(one_wrong_lane, cfg, None, dtype="bfloat16", framework="torch")
