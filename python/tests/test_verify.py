"""posenc.verify: the MPFR report of a RoPE table, as a dict."""

import numpy as np
import pytest

import posenc
from conftest import perturbed

pytestmark = pytest.mark.skipif(not posenc.have_verify, reason="built without the verify layer (Boost, MPFR)")

CFG = {"head_dim": 64, "rope_theta": 500000.0,
       "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                        "original_max_position_embeddings": 8192}}
FMTS = {"float64": "f64", "float32": "f32", "float16": "f16", "bfloat16": "bf16"}


@pytest.mark.parametrize("dtype", list(FMTS))
def test_posenc_tables_pass_with_zero_ulp(dtype):
    cos, sin = posenc.rope_table(CFG, 300, dtype, start=5000)
    r = posenc.verify(cos, sin, CFG, start=5000)
    assert r["passed"] and r["rows"] == 300 and r["start"] == 5000
    (d,) = r["dtypes"]
    assert d["dtype"] == FMTS[dtype] and d["entries"] == 2 * 300 * 64
    assert d["not_correctly_rounded"] == 0 and d["beyond_tolerance"] == 0 and d["max_ulp"] <= 0.5
    laws = {law["law"]: law for law in r["laws"]}
    assert laws["unit norm"]["ran"] and laws["unit norm"]["holds"]
    assert all(law["holds"] for law in r["laws"])


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_a_perturbed_entry_is_found(dtype):
    cos, sin = posenc.rope_table(CFG, 64, dtype, layout="interleaved")
    bad = perturbed(sin, FMTS[dtype], (40, 9))
    r = posenc.verify(cos, bad, CFG, layout="interleaved")
    d = r["dtypes"][0]
    assert not r["passed"] and d["not_correctly_rounded"] == 1 and d["beyond_tolerance"] == 1
    assert d["first_failure"] == {"position": 40, "element": 9, "array": "sin"}
    # with a tolerance of one step it passes again (the laws' bounds allow one ulp too)
    assert posenc.verify(cos, bad, CFG, layout="interleaved", max_ulp=1)["dtypes"][0]["passed"]


def test_the_wrong_config_fails():
    cos, sin = posenc.rope_table(CFG, 32, "float32")
    r = posenc.verify(cos, sin, CFG, rope_theta=10000.0)
    assert not r["passed"] and r["dtypes"][0]["not_correctly_rounded"] > 0


def test_hf_float32_cache_is_measured():
    cos, sin = posenc.rope_table(CFG, 2048, "float32", policy="hf_float32")
    r = posenc.verify(cos, sin, CFG)
    d = r["dtypes"][0]
    assert not r["passed"] and 0 < d["not_correctly_rounded"] < d["entries"]
    assert d["worst"]["array"] in ("cos", "sin") and d["worst"]["got"] != d["worst"]["exact"]


def test_shards_add_up_to_the_whole():
    cos, sin = posenc.rope_table(CFG, 2500, "float32", policy="hf_float32")
    whole = posenc.verify(cos, sin, CFG)["dtypes"][0]
    parts = [posenc.verify(cos, sin, CFG, shard=(k, 3))["dtypes"][0] for k in range(3)]
    for key in ("entries", "not_correctly_rounded", "ulp_sum_q"):
        assert sum(p[key] for p in parts) == whole[key]
    assert max(p["max_ulp"] for p in parts) == whole["max_ulp"]


@pytest.mark.parametrize("call,message", [
    (lambda c, s: posenc.verify(c[:, :10], s[:, :10], CFG), "cos and sin must have shape [rows, 64]"),
    (lambda c, s: posenc.verify(c, s[:5], CFG), "different numbers of rows"),
    (lambda c, s: posenc.verify(c, s, CFG, shard=(3, 3)), "shard 3/3"),
    (lambda c, s: posenc.verify(c, s, CFG, start=(1 << 21) - 2), "table positions past 2^21"),
    (lambda c, s: posenc.verify(c, s, {"head_dim": 63}), "verify: invalid RoPE config"),
])
def test_bad_requests_are_value_errors(call, message):
    cos, sin = posenc.rope_table(CFG, 8, "float32")
    with pytest.raises(ValueError) as e:
        call(cos, sin)
    assert message in str(e.value)


def test_mixed_dtypes_are_a_type_error():
    cos, sin = posenc.rope_table(CFG, 8, "float32")
    with pytest.raises(TypeError):
        posenc.verify(cos, sin.astype(np.float64), CFG)


def test_torch_cache_with_a_batch_dimension():
    torch = pytest.importorskip("torch")
    cos, sin = posenc.rope_table(CFG, 16, "bfloat16")
    tc = torch.from_numpy(cos.view(np.int16).copy()).view(torch.bfloat16)[None]
    ts = torch.from_numpy(sin.view(np.int16).copy()).view(torch.bfloat16)[None]
    r = posenc.verify(tc, ts, CFG)
    assert r["passed"] and r["dtypes"][0]["dtype"] == "bf16"
