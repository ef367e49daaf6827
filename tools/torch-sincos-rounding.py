#!/usr/bin/env python3
"""How often torch's CPU cos/sin of HF's float32 RoPE angles are not correctly rounded.

Builds HF's LlamaRotaryEmbedding cache in torch (float32: inv_freq = 1 / base**(arange(0, d, 2)/d),
freqs = positions x inv_freq, emb = cat(freqs, freqs), emb.cos(), emb.sin()) and compares it with
`posenc emit rope --policy hf-float32 --dtype f32` (the same pipeline with correctly rounded
float32 functions): the angles (via inv_freq, `posenc emit rope-freq`) must agree bit for bit;
the cos/sin that differ are counted, and each difference is attributed with a float64 reference
(cos/sin in binary64 of the float32 angle, then rounded to float32: wrong only if the binary64
value lies within 2^-53 relative of a float32 rounding midpoint, probability about 2^-28).

Usage: python3 tools/torch-sincos-rounding.py POSENC_BINARY [--positions N] [--head-dim D] [--base B]
Needs Debian python3-torch (and numpy).
"""
import argparse
import subprocess
import sys

import numpy as np
import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("posenc")
    ap.add_argument("--positions", type=int, default=4096)
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--base", type=float, default=10000.0)
    a = ap.parse_args()
    d, n = a.head_dim, a.positions
    cfg = ["--head-dim", str(d), "--rope-theta", repr(a.base)]

    inv = 1.0 / (a.base ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))
    ref_inv = subprocess.run([a.posenc, "emit", "rope-freq", *cfg, "--policy", "hf-float32", "--dtype", "f32"],
                             check=True, capture_output=True, text=True).stdout.splitlines()
    ref_inv = np.array([float.fromhex(l.split(",")[1]) for l in ref_inv[1:] if l[0].isdigit()], dtype=np.float32)
    inv_diff = int((inv.numpy() != ref_inv).sum())

    t = torch.arange(n, dtype=torch.int64).float()
    freqs = (inv[None, :, None].expand(1, -1, 1) @ t[None, None, :]).transpose(1, 2)[0]  # HF: matmul
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos()[:, : d // 2].numpy(), emb.sin()[:, : d // 2].numpy()
    ang = freqs.numpy()

    csv = subprocess.run([a.posenc, "emit", "rope", *cfg, "--positions", str(n), "--policy", "hf-float32",
                          "--dtype", "f32"], check=True, capture_output=True, text=True).stdout.splitlines()
    pc = np.empty((n, d // 2), dtype=np.float32)
    ps = np.empty((n, d // 2), dtype=np.float32)
    for line in csv[1:]:
        m, j, c, s = line.split(",")
        pc[int(m), int(j)] = float.fromhex(c)
        ps[int(m), int(j)] = float.fromhex(s)

    ang_ok = bool(np.array_equal(ang, (ref_inv[None, :] * np.arange(n, dtype=np.float32)[:, None]).astype(np.float32)))
    rc = np.cos(ang.astype(np.float64)).astype(np.float32)
    rs = np.sin(ang.astype(np.float64)).astype(np.float32)
    total = 2 * n * (d // 2)
    diff = int((cos != pc).sum() + (sin != ps).sum())
    torch_wrong = int((cos != rc).sum() + (sin != rs).sum())
    posenc_wrong = int((pc != rc).sum() + (ps != rs).sum())
    ulps = np.concatenate([np.abs(cos.view(np.int32).astype(np.int64) - pc.view(np.int32)).ravel(),
                           np.abs(sin.view(np.int32).astype(np.int64) - ps.view(np.int32)).ravel()])
    cap = next((l.split(":")[-1].strip() for l in torch.__config__.show().splitlines() if "CPU capability" in l), "?")
    print(f"torch {torch.__version__}, CPU capability {cap}, threads {torch.get_num_threads()}")
    print(f"base {a.base:g}, d = {d}, positions 0..{n - 1}: inv_freq differs from posenc hf-float32 in {inv_diff} of "
          f"{d // 2}; angles equal: {ang_ok}")
    print(f"cos/sin: torch differs from posenc hf-float32 in {diff} of {total} values ({100.0 * diff / total:.2f}%), "
          f"max {int(ulps.max())} ulp; torch not correctly rounded (float64 reference): {torch_wrong}; "
          f"posenc: {posenc_wrong}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
