#!/usr/bin/env python3
"""Cross-framework findings of ../shared/reference/pe-formulas-more.md section 8 that posenc can show
with its own tables (docs/rope-precision.md, "Multi-stream RoPE", where `posenc report precision
mrope|rope-nd` measures the first two from MPFR):

  1. IMROPE tail: for Qwen3-VL's mrope_section [24, 20, 20], llama.cpp's ggml IMROPE rotates pairs
     61 and 62 by angle 0 (its fourth stream, fed 0) where HF and vLLM rotate them by p_t theta_j;
     the missing angle at 32K and 256K, and the largest cos/sin difference of the two tables.
  2. FLUX frequencies in float32 (BFL's reference since PR #195) against float64 (diffusers, and
     BFL's first commit): the float32 cos/sin tables of each pipeline, emulated in numpy, against
     posenc's correctly rounded table, in float32 ulps, over a 2048-px image's positions.
  3. ChatGLM/GLM-4's bf16 tables: cos/sin computed in float32 then cast to bfloat16 (the remote
     code's "mimic complex32"), against posenc's correctly rounded bfloat16 table.

Run with the built module: PYTHONPATH=build/gcc/python /usr/bin/python3 tools/streams-findings.py
The framework pipelines are emulated with numpy's float32 arithmetic (numpy's float32 cos and sin
stand in for torch's; both are faithful, not correctly rounded), so their figures are those of the
pipeline's structure, not of one library's last bits.
"""
import numpy as np

import posenc


def imrope_tail():
    print("1. IMROPE tail, Qwen3-VL mrope_section [24, 20, 20], rope_theta 5e6, head_dim 128")
    for p in (32768, 262144):
        pos = np.array([[p], [p], [p]])  # a text token
        hf_c, hf_s = posenc.mrope_table(pos, 128, [24, 20, 20], rope_theta=5e6, layout="interleaved-hf")
        gg_c, gg_s = posenc.mrope_table(pos, 128, [24, 20, 20], rope_theta=5e6, layout="interleaved-ggml")
        differ = np.nonzero((hf_c[0] != gg_c[0]) | (hf_s[0] != gg_s[0]))[0].tolist()
        inv = posenc.rope_inv_freq(None, head_dim=128, rope_theta=5e6)
        inv = inv[0] if isinstance(inv, tuple) else inv
        angles = [float(p * inv[j]) for j in differ]
        diff = max(float(np.max(np.abs(hf_c[0] - gg_c[0]))), float(np.max(np.abs(hf_s[0] - gg_s[0]))))
        print(f"   p = {p:6d}: pairs {differ} differ; missing angles "
              + ", ".join(f"{a:.4f}" for a in angles) + f" rad; largest cos/sin difference {diff:.4f}")


def flux_frequencies():
    print("2. FLUX (axes_dim [16, 56, 56], theta 10000), float32 tables of 2048 x 2048 px (128 x 128 latent ids)")
    axes = [16, 56, 56]
    side = 128
    rows, cols = np.meshgrid(np.arange(side), np.arange(side), indexing="ij")
    ids = np.stack([np.zeros(side * side), rows.ravel(), cols.ravel()]).astype(np.float64)
    cr_cos, cr_sin = posenc.rope_nd_table(ids, axes, "float32")
    results = {}
    for name, freq_dtype in (("float32 frequencies (BFL since PR #195)", np.float32),
                             ("float64 frequencies (diffusers, BFL's first commit)", np.float64)):
        cs, ss = [], []
        for a, dim in enumerate(axes):
            scale = np.arange(0, dim, 2, dtype=freq_dtype) / freq_dtype(dim)
            omega = (freq_dtype(1.0) / (freq_dtype(10000.0) ** scale)).astype(freq_dtype)
            ang = ids[a].astype(freq_dtype)[:, None] * omega[None, :]
            cs.append(np.cos(ang).astype(np.float32))
            ss.append(np.sin(ang).astype(np.float32))
        c, s = np.concatenate(cs, axis=1), np.concatenate(ss, axis=1)
        worst = max(float(np.max(np.abs(c.astype(np.float64) - cr_cos))),
                    float(np.max(np.abs(s.astype(np.float64) - cr_sin))))
        wrong = int(np.count_nonzero(c != cr_cos) + np.count_nonzero(s != cr_sin))
        results[name] = (worst, wrong)
        print(f"   {name}: largest |error| {worst:.2e}; {wrong} of {2 * c.size} entries not correctly rounded")
    return results


def chatglm_bf16():
    print("3. GLM-4 (rotary 64 of head 128, base 10000 * rope_ratio 500), bf16 tables, positions 0 .. 32767")
    d, base, n = 64, 5e6, 32768
    inv = (1.0 / (np.float32(base) ** (np.arange(0, d, 2, dtype=np.float32) / np.float32(d)))).astype(np.float32)
    ang = np.arange(n, dtype=np.float32)[:, None] * inv[None, :]
    f32_cos, f32_sin = np.cos(ang), np.sin(ang)
    to_bf16 = posenc.float32_to_bfloat16_bits
    glm_cos = to_bf16(f32_cos.astype(np.float32))
    glm_sin = to_bf16(f32_sin.astype(np.float32))
    cr = posenc.rope_table(None, n, "bfloat16", head_dim=d, rope_theta=base, layout="interleaved")
    cr_cos = np.asarray(cr[0])[:, ::2].view(np.uint16)
    cr_sin = np.asarray(cr[1])[:, ::2].view(np.uint16)
    wrong = int(np.count_nonzero(glm_cos != cr_cos) + np.count_nonzero(glm_sin != cr_sin))
    back = posenc.bfloat16_to_float32
    err = max(float(np.max(np.abs(back(glm_cos).astype(np.float64) - back(cr_cos)))),
              float(np.max(np.abs(back(glm_sin).astype(np.float64) - back(cr_sin)))))
    print(f"   {wrong} of {2 * n * d // 2} bf16 entries differ from the correctly rounded table; "
          f"largest difference {err:.2e} (a bf16 ulp at 1 is 7.8e-3)")


if __name__ == "__main__":
    imrope_tail()
    flux_frequencies()
    chatglm_bf16()
