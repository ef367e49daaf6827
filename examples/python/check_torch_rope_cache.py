"""Check a model's cached RoPE cos/sin (built with torch, as HF's LlamaRotaryEmbedding builds them)
against posenc's tables. docs/python.md walks through it; python/tests/test_examples.py runs it when
torch is installed (Debian python3-torch) and skips it otherwise.

    python3 examples/python/check_torch_rope_cache.py [config.json] [--positions N]

Three questions, three one-line checks:
  1. Is the cache what HF's float32 pipeline gives? posenc's hf_float32 policy is that pipeline
     (inv_freq with torch's CPU float32 pow, SLEEF's powf as on an AVX2 machine) with correctly
     rounded float32 cos/sin, so it must agree within 1 ulp (torch's CPU cos/sin are not correctly
     rounded everywhere); the angles themselves agree exactly. A torch whose pow differs (another
     build, aarch64, ATEN_CPU_CAPABILITY=default) can pass its inv_freq: rope_table(...,
     inv_freq=inv_freq.numpy()). Every scaling: inv_freq and the attention factor are HF's code
     transcribed in torch below (hf_inv_freq, hf_attention_factor); a cache folded with an attention
     factor (YaRN, LongRoPE) agrees within 2 ulp (a cos one ulp off, times the factor). Checked on
     Llama-2's, Mistral-7B-v0.3's, Qwen2.5's YaRN, Gemma-2's, Phi-3.5's LongRoPE, gpt-oss's YaRN
     and Llama-3.1's settings (docs/rope-precision.md, "torch's pow").
  2. How far is the cache from the exact values? The exact table (policy "exact") is the true
     cos/sin rounded once; the cache's absolute error grows with the position (the float32 angle's
     error, about position x 2^-24 rad).
  3. The full report (posenc.verify, when posenc was built with the verify layer): every entry
     against MPFR and every RoPE law measured on the cache.
Exit status 0 when check 1 holds.
"""

import argparse
import json
import math
import sys

import numpy as np
import torch

import posenc


def rope_dim(c):
    if "rotary_dim" in c:  # GPT-J
        return c["rotary_dim"]
    head_dim = c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]
    prf = c.get("partial_rotary_factor", c.get("rotary_pct", 1.0))
    return int(head_dim * prf)


def default_inv(base, dim):
    # _compute_default_rope_parameters: a Python float base meets a float32 tensor
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=torch.float) / dim))


def hf_inv_freq(c, seq_len=None):
    rs = c.get("rope_scaling") or {}
    kind = rs.get("rope_type", rs.get("type", "default"))
    base, dim = float(c.get("rope_theta", 10000.0)), rope_dim(c)
    if kind == "default":
        return default_inv(base, dim)
    if kind == "dynamic":
        factor, mp = rs["factor"], c["max_position_embeddings"]
        if seq_len is None:  # __init__: seq_len = max_position_embeddings, Python floats
            base = base * ((factor * mp / mp) - (factor - 1)) ** (dim / (dim - 2))
        else:  # forward (dynamic_rope_update): seq_len = max(position_ids) + 1, an int64 tensor
            seq = torch.tensor(seq_len, dtype=torch.int64)
            base = base * ((factor * seq / mp) - (factor - 1)) ** (dim / (dim - 2))  # a float32 0-dim tensor
        return default_inv(base, dim)
    if kind == "yarn":
        factor = rs["factor"]
        l0 = rs.get("original_max_position_embeddings") or c["max_position_embeddings"]
        beta_fast, beta_slow = rs.get("beta_fast") or 32, rs.get("beta_slow") or 1

        def corr_dim(n_rot):
            return (dim * math.log(l0 / (n_rot * 2 * math.pi))) / (2 * math.log(base))

        low, high = corr_dim(beta_fast), corr_dim(beta_slow)
        if rs.get("truncate", True):
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001
        ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
        pos_freqs = base ** (torch.arange(0, dim, 2).to(dtype=torch.float) / dim)
        extrap, interp = 1.0 / pos_freqs, 1.0 / (factor * pos_freqs)
        ef = 1 - ramp.to(dtype=torch.float)
        return interp * (1 - ef) + extrap * ef
    if kind == "longrope":
        l0 = c.get("original_max_position_embeddings") or c["max_position_embeddings"]
        long = seq_len is not None and seq_len > l0
        ext = torch.tensor(rs["long_factor"] if long else rs["short_factor"], dtype=torch.float32)
        shape = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim
        return 1.0 / (ext * base**shape)
    if kind == "llama3":
        inv = default_inv(base, dim)
        factor, lff, hff = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"]
        old = rs["original_max_position_embeddings"]
        low_wl, high_wl = old / lff, old / hff
        wavelen = 2 * math.pi / inv
        llama = torch.where(wavelen > low_wl, inv / factor, inv)
        sf = (old / wavelen - lff) / (hff - lff)
        smoothed = (1 - sf) * llama / factor + sf * llama
        medium = ~(wavelen < high_wl) * ~(wavelen > low_wl)
        return torch.where(medium, smoothed, llama)
    raise SystemExit(f"rope type {kind} is not transcribed here")


def hf_attention_factor(c):
    """HF's attention_scaling (a Python float): YaRN's get_mscale, LongRoPE's sqrt(1 + ln s / ln L0)."""
    rs = c.get("rope_scaling") or {}
    kind = rs.get("rope_type", rs.get("type", "default"))
    if kind not in ("yarn", "longrope"):
        return 1.0
    if rs.get("attention_factor") is not None:
        return rs["attention_factor"]
    l0 = rs.get("original_max_position_embeddings") or c.get("original_max_position_embeddings")
    factor = rs.get("factor") or c["max_position_embeddings"] / l0

    def get_mscale(scale, mscale=1.0):
        return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0

    if kind == "yarn":
        if rs.get("mscale") and rs.get("mscale_all_dim"):
            return get_mscale(factor, rs["mscale"]) / get_mscale(factor, rs["mscale_all_dim"])
        return get_mscale(factor)
    return 1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(l0))


def torch_rope_cache(c, positions):
    """cos, sin (before the attention factor) and the attention factor, as transformers' rotary classes
    compute them in float32 (v5, CPU), for a forward call over positions 0 .. positions - 1 (dynamic
    NTK and LongRoPE: seq_len = positions, HF's rule). HF's cache is cos * af, sin * af."""
    inv_freq = hf_inv_freq(c, seq_len=positions)
    t = torch.arange(positions, dtype=torch.int64).float()
    freqs = torch.outer(t, inv_freq)  # HF: inv_freq[None, :, None] @ position_ids[:, None, :], K = 1
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin(), hf_attention_factor(c)


def max_abs(a, b):
    """The largest absolute difference, in units of 2^-24 (float32's ulp just below 1)."""
    return float(np.max(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)))) * 2.0**24


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("config", nargs="?", help="a config.json, any scaling (default: Llama-2's settings)")
    p.add_argument("--positions", type=int, default=4096)
    args = p.parse_args(argv)

    if args.config:
        with open(args.config) as f:
            config = json.load(f)
    else:
        config = {"head_dim": 128, "rope_theta": 10000.0}
    cos_u, sin_u, af = torch_rope_cache(config, args.positions)
    cos_t, sin_t = cos_u * af, sin_u * af  # the cache: HF's emb.cos() * attention_scaling, in float32

    # 1. The model's cache against HF's pipeline, in one line each:
    hf_cos, hf_sin = posenc.rope_table(config, args.positions, "float32", policy="hf_float32")
    np.testing.assert_array_max_ulp(cos_u.numpy(), hf_cos, maxulp=1)
    np.testing.assert_array_max_ulp(sin_u.numpy(), hf_sin, maxulp=1)
    print(f"cos/sin == HF float32 pipeline within 1 ulp ({np.mean(cos_u.numpy() != hf_cos):.2%} of cos entries differ)")
    if af != 1.0:  # a cos one ulp off, times af (YaRN, LongRoPE), rounded: at most two ulps off
        hf_cos, hf_sin = posenc.rope_table(config, args.positions, "float32", policy="hf_float32", fold_attention=True)
        np.testing.assert_array_max_ulp(cos_t.numpy(), hf_cos, maxulp=2)
        np.testing.assert_array_max_ulp(sin_t.numpy(), hf_sin, maxulp=2)
        print(f"cache (times attention factor {af:.6g}) == HF float32 pipeline within 2 ulp "
              f"({np.mean(cos_t.numpy() != hf_cos):.2%} of cos entries differ)")

    # 2. ... and against the exact values.
    ex_cos, ex_sin = posenc.rope_table(config, args.positions, "float32", fold_attention=True)
    for last in sorted({min(args.positions, n) for n in (16, 256, 4096, args.positions)}):
        print(f"positions < {last:>7}: max |cache - exact| cos {max_abs(cos_t.numpy()[:last], ex_cos[:last]):.0f}, "
              f"sin {max_abs(sin_t.numpy()[:last], ex_sin[:last]):.0f} (units of 2^-24)")

    # 3. The MPFR report of the cache itself (a dict; "passed" needs every entry correctly rounded).
    if posenc.have_verify:
        report = posenc.verify(cos_t, sin_t, config, fold_attention=True)
        f32 = report["dtypes"][0]
        print(f"verify: {f32['not_correctly_rounded']} of {f32['entries']} entries not correctly rounded, "
              f"max {f32['max_ulp']:.1f} ulp at position {f32['worst']['position']}; laws: "
              + ", ".join(f"{law['law']} {'holds' if law['holds'] else 'FAILS'}" for law in report["laws"] if law["ran"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
