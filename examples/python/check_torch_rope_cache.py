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
     inv_freq=inv_freq.numpy()). Checked on Llama-2's, Mistral-7B-v0.3's and Gemma-2's settings
     (docs/rope-precision.md, "torch's pow").
  2. How far is the cache from the exact values? The exact table (policy "exact") is the true
     cos/sin rounded once; the cache's absolute error grows with the position (the float32 angle's
     error, about position x 2^-24 rad).
  3. The full report (posenc.verify, when posenc was built with the verify layer): every entry
     against MPFR and every RoPE law measured on the cache.
Exit status 0 when check 1 holds.
"""

import argparse
import sys

import numpy as np
import torch

import posenc


def torch_rope_cache(head_dim, base, positions):
    """cos, sin as transformers' default RoPE computes them in float32 (v4.4x / v5, CPU)."""
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.int64).float() / head_dim))
    t = torch.arange(positions, dtype=torch.int64).float()
    freqs = torch.outer(t, inv_freq)  # HF: inv_freq[None, :, None] @ position_ids[:, None, :], K = 1
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def max_abs(a, b):
    """The largest absolute difference, in units of 2^-24 (float32's ulp just below 1)."""
    return float(np.max(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)))) * 2.0**24


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("config", nargs="?", help="a config.json with default RoPE (default: Llama-2's settings)")
    p.add_argument("--positions", type=int, default=4096)
    args = p.parse_args(argv)

    config = args.config or {"head_dim": 128, "rope_theta": 10000.0}
    settings = posenc.rope_config(config)
    if settings["rope_type"] != "default" or settings["partial_rotary_factor"] != 1.0:
        print("this example builds only default RoPE in torch; pick a config without rope_scaling")
        return 2
    d, base = settings["effective_rotary_dim"], settings["rope_theta"]
    cos_t, sin_t = torch_rope_cache(d, base, args.positions)

    # 1. The model's cache against HF's pipeline, in one line each:
    hf_cos, hf_sin = posenc.rope_table(config, args.positions, "float32", policy="hf_float32")
    np.testing.assert_array_max_ulp(cos_t.numpy(), hf_cos, maxulp=1)
    np.testing.assert_array_max_ulp(sin_t.numpy(), hf_sin, maxulp=1)
    print(f"cache == HF float32 pipeline within 1 ulp ({np.mean(cos_t.numpy() != hf_cos):.2%} of cos entries differ)")

    # 2. ... and against the exact values.
    ex_cos, ex_sin = posenc.rope_table(config, args.positions, "float32")
    for last in sorted({min(args.positions, n) for n in (16, 256, 4096, args.positions)}):
        print(f"positions < {last:>7}: max |cache - exact| cos {max_abs(cos_t.numpy()[:last], ex_cos[:last]):.0f}, "
              f"sin {max_abs(sin_t.numpy()[:last], ex_sin[:last]):.0f} (units of 2^-24)")

    # 3. The MPFR report of the cache itself (a dict; "passed" needs every entry correctly rounded).
    if posenc.have_verify:
        report = posenc.verify(cos_t, sin_t, config)
        f32 = report["dtypes"][0]
        print(f"verify: {f32['not_correctly_rounded']} of {f32['entries']} entries not correctly rounded, "
              f"max {f32['max_ulp']:.1f} ulp at position {f32['worst']['position']}; laws: "
              + ", ".join(f"{law['law']} {'holds' if law['holds'] else 'FAILS'}" for law in report["laws"] if law["ran"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
